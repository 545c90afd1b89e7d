"""Seed 003 Fig. 4 during training (repro.edge_inversion): the training loop is simulate's, the attack is the
[58] inversion, the runs are deterministic, bad input is refused."""
import numpy as np
import pytest

from numerics.errors import InvalidParameter
from repro.edge_fl import EdgeConfig, load_task, simulate, step_schedule_summary
from repro.edge_inversion import attack, recover, run_point, score, trajectory
from repro.linear_svm import LinearSVM
from repro.models import LogisticRegression

SMALL = {"dataset": "digits", "edges": 5, "eval_every": 1000}


@pytest.mark.parametrize("model,noise", [("lr", "paper-literal"), ("lr", "k-norm"), ("svm", "paper-literal")])
def test_trajectory_reaches_simulates_model(model, noise):
    """Same random stream as repro.edge_fl.simulate: the same final loss and accuracy after 40 iterations."""
    cfg = EdgeConfig(algorithm="mapa", noise=noise, model=model, epsilon=1.0, iterations=40, **SMALL)
    last = simulate(cfg)["curve"][-1]
    ds, m = load_task(cfg)
    (t, _, clip, theta), = list(trajectory(cfg, [40]))
    assert t == 40 and clip == step_schedule_summary(cfg, [40])[40]["clip"]
    assert m.loss(theta, ds.x_train, ds.y_train) == last["train_loss"]
    assert m.accuracy(theta, ds.x_test, ds.y_test) == last["test_accuracy"]


@pytest.mark.parametrize("model", [LogisticRegression(6), LinearSVM(6, 3)])
def test_noiseless_inversion_is_exact(model):
    """Without a regulariser the [58] ratio returns the image itself (correlation 1) when the gradient is non-zero."""
    rng = np.random.default_rng(1)
    x, theta = rng.uniform(0, 1, (1, 6)), np.zeros(model.n_params)
    g = model.per_sample_grads(theta, x, np.array([1]))[0]
    assert np.linalg.norm(g) > 0
    assert score(recover("lr" if isinstance(model, LogisticRegression) else "svm", g, 6, getattr(model, "k", 1)),
                 x[0]) == pytest.approx(1.0)


def test_attack_noise_scale_follows_budget():
    """Higher eps, less noise: the mean correlation at eps = 100 exceeds the one at eps = 0.01 (same gradient, clipped)."""
    m, rng = LogisticRegression(16), np.random.default_rng(2)
    x, theta = rng.uniform(0, 1, (1, 16)), np.zeros(17)
    lo, hi = (np.mean(attack("lr", m, theta, x, np.array([1]), clip=0.5, noise="paper-literal", epsilon=e,
                             rng=np.random.default_rng(3), draws=10)["correlations"]) for e in (0.01, 100.0))
    assert hi > 0.9 > lo


def test_run_point_small_and_deterministic():
    kw = {"algorithm": "mapa", "noise": "paper-literal", "model": "lr", "epsilon": 1.0, "dataset": "digits",
          "checkpoints": [5, 10], "draws": 3}
    a, b = run_point(**kw), run_point(**kw)
    assert a == b
    assert [c["iteration"] for c in a["checkpoints"]] == [5, 10]
    cells = a["checkpoints"][-1]["targets"]
    assert sorted(c["digit"] for c in cells) == list(range(10))
    assert sum(c["recovery"] is not None for c in cells) == 1
    assert all(len(c["correlations"]) == 3 and all(-1 <= r <= 1 for r in c["correlations"]) for c in cells)


@pytest.mark.parametrize("bad", [{"algorithm": "audp"}, {"noise": "gaussian", "gaussian_sigma": 1.0},
                                 {"checkpoints": [0, 5]}, {"draws": 0}])
def test_bad_input_raises(bad):
    kw = {"algorithm": "mapa", "noise": "paper-literal", "dataset": "digits", "checkpoints": [5], "draws": 2, **bad}
    with pytest.raises(InvalidParameter):
        run_point(**kw)
