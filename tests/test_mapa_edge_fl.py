"""Seed 003 simulator: deterministic, validates input, labels privacy honestly; the first-layer construction on the MLP."""
import numpy as np
import pytest

from numerics.errors import InvalidParameter
from repro.edge_fl import EdgeConfig, iterations_to_threshold, run_point
from repro.models import MLP

SMALL = {"dataset": "digits", "model": "lr", "iterations": 60, "eval_every": 30, "edges": 5}


def test_deterministic_and_labelled():
    a = run_point(algorithm="mapa", noise="k-norm", **SMALL)
    b = run_point(algorithm="mapa", noise="k-norm", **SMALL)
    assert a["curve"] == b["curve"] and a["batch_loss"] == b["batch_loss"]
    assert a["privacy"]["dp"] and a["privacy"]["pure_epsilon_run"] == pytest.approx(12 * 0.1)
    lit = run_point(algorithm="audp", noise="paper-literal", **SMALL)
    assert lit["privacy"]["dp"] is False and "NOT" in lit["privacy"]["note"]


@pytest.mark.parametrize("bad", [{"algorithm": "sgd"}, {"algorithm": "audp", "noise": "none"},
                                 {"algorithm": "csgd", "noise": "k-norm"}, {"algorithm": "mapa", "theta": 1.0}])
def test_bad_config_raises(bad):
    cfg = {"noise": "k-norm", **bad}
    with pytest.raises(InvalidParameter):
        EdgeConfig(**cfg)


def test_iterations_to_threshold():
    assert iterations_to_threshold([1, 1, 1, 0, 0, 0, 0, 0], 0.3) == 7  # iterations 3-7 average 0.2
    assert iterations_to_threshold([1] * 10, 0.5) is None


def test_first_layer_only_noise_leaves_other_layers_distinguishing():
    """Noise on the first layer only (L453): the released second-layer gradients of two neighbouring
    one-sample batches differ exactly, whatever the first-layer noise."""
    rng = np.random.default_rng(0)
    m = MLP(4, 3, 2)
    theta = m.init(rng)
    x = rng.normal(size=(1, 4))
    g0 = m.per_sample_grads(theta, x, np.array([0]))[0]
    g1 = m.per_sample_grads(theta, x, np.array([1]))[0]
    first = m.sizes[0] + m.sizes[1]
    assert not np.allclose(g0[first:], g1[first:])
