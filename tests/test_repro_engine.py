"""The reproduction engine: data, models, DP step, sequences, simulator, CLI."""
import json

import numpy as np
import pytest

from numerics.errors import InvalidParameter
from repro import data, dp, models, sequences, step_sizes
from repro.__main__ import main as cli
from repro.async_fl import client_round_sizes, simulate
from repro.config import RunConfig
from repro.epsilon import certify_run

TINY = dict(data="a9a-like", n_records=1000, sizes={"kind": "constant", "s": 10}, total_iterations=200,
            certify=False)


def _finite_difference(model, theta, x, y, eps=1e-6):
    eye = np.eye(len(theta))
    return np.array([(model.loss(theta + eps * e, x, y) - model.loss(theta - eps * e, x, y)) / (2 * eps) for e in eye])


@pytest.mark.parametrize("model", [models.LogisticRegression(6, l2=0.3), models.MLP(6, 4, 3)])
def test_per_sample_gradients_match_finite_differences(model):
    rng = np.random.default_rng(3)
    x = rng.normal(size=(5, 6))
    y = rng.integers(0, 2 if isinstance(model, models.LogisticRegression) else 3, size=5)
    theta = rng.normal(0, 0.5, model.n_params)
    g = model.per_sample_grads(theta, x, y)
    assert g.shape == (5, model.n_params)
    # the mean of the per-sample gradients is the gradient of the mean loss
    np.testing.assert_allclose(g.mean(axis=0), _finite_difference(model, theta, x, y), atol=1e-7)
    # and each row is that sample's own gradient
    np.testing.assert_allclose(g[2], _finite_difference(model, theta, x[2:3], y[2:3]), atol=1e-7)


def test_clip_rows_bounds_norms_and_keeps_small_rows():
    g = np.array([[3.0, 4.0], [0.03, 0.04], [0.0, 0.0]])
    c = dp.clip_rows(g, 0.1)
    np.testing.assert_allclose(np.linalg.norm(c, axis=1), [0.1, 0.05, 0.0])
    np.testing.assert_allclose(c[0], [0.06, 0.08])
    np.testing.assert_array_equal(c[1], g[1])
    with pytest.raises(InvalidParameter):
        dp.clip_rows(g, 0.0)


def test_sampling_methods():
    rng = np.random.default_rng(0)
    sizes = [len(dp.sample_indices(rng, 1000, 50, "poisson")) for _ in range(400)]
    assert abs(np.mean(sizes) - 50) < 1.5 and np.std(sizes) > 3  # binomial(1000, 0.05): sd 6.9
    fixed = dp.sample_indices(rng, 1000, 50, "fixed")
    assert len(fixed) == 50 and len(set(fixed.tolist())) == 50
    assert len(dp.sample_indices(rng, 10, 50 // 5, "with-replacement")) == 10
    with pytest.raises(InvalidParameter):
        dp.sample_indices(rng, 10, 5, "shuffle")


def test_read_libsvm_on_generated_file(tmp_path):
    path = tmp_path / "toy.libsvm"
    path.write_text("+1 1:1 3:0.5\n-1 2:1\n+1 1:1 4:2\n")
    x, y = data.read_libsvm(path, n_features=4)
    np.testing.assert_array_equal(x, [[1, 0, 0.5, 0], [0, 1, 0, 0], [1, 0, 0, 2]])
    np.testing.assert_array_equal(y, [1, 0, 1])
    ds = data.load(f"libsvm:{path}")
    assert ds.n_classes == 2 and len(ds.y_train) + len(ds.y_test) == 3


def test_synthetic_stand_in_has_the_requested_shape():
    x, y = data.synthetic_libsvm_like(n_features=123, density=0.11, n=4000, positive_rate=0.3, seed=1)
    assert x.shape == (4000, 123) and set(np.unique(x)) <= {0.0, 1.0}
    assert abs(x.mean() - 0.11) < 0.005 and abs(y.mean() - 0.3) < 0.03


def test_partitions_cover_the_records_once():
    shards = data.partition_iid(103, 5, seed=0)
    assert sorted(np.concatenate(shards).tolist()) == list(range(103))
    y = np.array([0, 1, 0, 1, 1, 0, 2])
    biased = data.partition_by_label(y, 2, seed=0)
    assert set(y[biased[0]]) == {0, 2} and set(y[biased[1]]) == {1}


def test_round_sizes_spend_the_budget_exactly():
    s = sequences.round_sizes("power", a=50, c=1, total=20000)
    assert sum(s) == 20000 and s[0] == 0 and s[1] == 50
    with pytest.raises(InvalidParameter):
        sequences.round_sizes("i_over_log_i", a=50, total=100, start=1)
    with pytest.raises(InvalidParameter):
        sequences.sequence("cubic", a=1)


def test_step_sizes_and_clocks():
    eta = step_sizes.step_size("inverse_t", eta0=0.1, beta=0.001)
    assert eta(0) == 0.1 and eta(1000) == pytest.approx(0.05)
    assert step_sizes.clock("diminishing1", iterations_before_round=100, local_step=3, n_clients=5) == 115
    assert step_sizes.clock("diminishing2", iterations_before_round=100, local_step=3, n_clients=5) == 100
    with pytest.raises(InvalidParameter):
        step_sizes.step_size("constant", eta0=-1.0)


def test_total_sequence_is_split_over_clients():
    cfg = RunConfig(**{**TINY, "sizes": {"kind": "constant", "s": 12}, "sizes_per": "total", "total_iterations": 30})
    sizes = client_round_sizes(cfg)
    assert [sum(r) for r in sizes] == [12, 12, 6] and sizes[0] == [3, 3, 2, 2, 2]


@pytest.mark.parametrize("bad", [dict(model="cnn"), dict(n_clients=0), dict(dp_sigma=-1.0), dict(clip=None, dp_sigma=2.0),
                                 dict(dp_delta=1.5), dict(staleness=-1), dict(sampling="shuffle")])
def test_config_rejects_bad_input(bad):
    with pytest.raises(InvalidParameter):
        RunConfig(**{**TINY, **bad})


def test_simulation_is_deterministic_and_seed_dependent():
    cfg = RunConfig(**TINY, dp_sigma=2.0)
    a, b = simulate(cfg), simulate(cfg)
    assert a["curve"] == b["curve"]
    c = simulate(cfg.replace(seed=1))
    assert c["curve"]["test_loss"] != a["curve"]["test_loss"]
    assert a["rounds"] == 20 and a["iterations"] == 200 * 5


def test_non_private_training_learns():
    cfg = RunConfig(**{**TINY, "n_records": 4000, "total_iterations": 1000})
    res = simulate(cfg)
    assert res["curve"]["test_accuracy"][0] < 0.6 < 0.75 < res["final_test_accuracy"]


def test_sequential_local_sgd_runs_and_differs_from_frozen():
    frozen = simulate(RunConfig(**TINY))
    seq = simulate(RunConfig(**TINY, local="sequential"))
    assert seq["iterations"] == frozen["iterations"] and seq["curve"]["test_loss"] != frozen["curve"]["test_loss"]


def test_privacy_schedule_is_recorded_per_round():
    res = simulate(RunConfig(**TINY, dp_sigma=3.0))
    sched = res["privacy"]["schedules"][0]
    n_c = 1000 - 200  # 80 % train split
    assert sched["phases"] == [{"q": 10 / (n_c / 5), "sigma": 3.0, "steps": 20, "sampling": "poisson",
                                "noise": "gaussian"}]
    fixed = simulate(RunConfig(**TINY, dp_sigma=3.0, sampling="fixed"))
    assert fixed["privacy"]["schedules"][0]["phases"] == [{"q": 10 / (n_c / 5), "sigma": 3.0, "steps": 20,
                                                         "sampling": "fixed-size", "noise": "gaussian",
                                                         "batch_size": 10, "dataset_size": n_c // 5}]


def test_certified_epsilon_comes_from_numerics_pld():
    res = certify_run(simulate(RunConfig(**{**TINY, "certify": True, "dp_sigma": 3.0, "dp_delta": 1e-5})))
    cert = res["privacy"]["certified"]
    assert 0 <= cert["epsilon_lower"] <= cert["epsilon_upper"] < np.inf and cert["certified"]


def test_training_accounts_nothing_and_certify_run_respects_certify_false():
    """The training run records schedules only (it calls no accountant, so its sweep cache is not keyed by
    one); certify_run adds the bracket unless the config says certify=False."""
    cfg = {**TINY, "dp_sigma": 3.0, "dp_delta": 1e-5}
    trained = simulate(RunConfig(**{**cfg, "certify": True}))
    assert "certified" not in trained["privacy"] and trained["privacy"]["schedules"]
    assert "certified" in certify_run(trained)["privacy"] and "certified" not in trained["privacy"]
    skipped = simulate(RunConfig(**cfg))  # TINY has certify=False
    assert certify_run(skipped) is skipped


def test_cli_runs_a_config_and_rejects_bad_ones(tmp_path, capsys):
    good = tmp_path / "run.json"
    good.write_text(json.dumps(TINY))
    out = tmp_path / "res.json"
    assert cli(["run", str(good), "--seeds", "0,1", "--out", str(out)]) == 0
    assert len(json.loads(out.read_text())) == 2
    assert "final test accuracy" in capsys.readouterr().out
    assert cli(["config"]) == 0
    assert json.loads(capsys.readouterr().out) == RunConfig().to_dict()
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**TINY, "n_clients": -2}))
    assert cli(["run", str(bad)]) == 2
    assert "n_clients" in capsys.readouterr().err


from hypothesis import given, strategies as st  # noqa: E402
from hypothesis.extra.numpy import arrays  # noqa: E402


@given(arrays(np.float64, st.tuples(st.integers(1, 6), st.integers(1, 5)),
              elements=st.floats(-1e6, 1e6, allow_nan=False)),
       st.floats(1e-3, 10.0))
def test_clipping_never_exceeds_c_and_keeps_direction(g, c):
    out = dp.clip_rows(g, c)
    norms = np.linalg.norm(out, axis=1)
    assert np.all(norms <= c * (1 + 1e-12))
    # each row is a non-negative multiple of the input row
    np.testing.assert_allclose(out * np.linalg.norm(g, axis=1)[:, None], g * norms[:, None], rtol=1e-9, atol=1e-9)


def test_arm_certify_through_sweep_matches_direct_accounting():
    """figures.arm_epsilon.certify (through the sweep) gives each arm exactly repro.epsilon.epsilon_for_sampling's record."""
    from figures import arm_epsilon
    from numerics.schedule import Phase, Schedule
    from repro.epsilon import epsilon_for_sampling

    sched = Schedule.from_phases([Phase(q=0.01, sigma=1.2, steps=50), Phase(q=0.02, sigma=1.2, steps=30)])
    res = {"dp": [{"privacy": {"schedules": [sched.to_dict()], "delta": 1e-5, "sampling": "poisson"}}],
           "no noise": [{"privacy": None}]}
    assert arm_epsilon.certify(res, enabled=True) == {"dp": epsilon_for_sampling(sched, 1e-5, "poisson"), "no noise": None}
    assert arm_epsilon.certify(res, enabled=False) == {"dp": None, "no noise": None}
