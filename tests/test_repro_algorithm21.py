"""The simulator's local work follows seed 000 Algorithm 2.1 as printed (000_d613b97385d90362.txt L88-L100):
each sample drawn uniformly with replacement (line 15), its gradient taken at the current local iterate
(line 16: g = grad f(w_hat, xi)), the local model stepped after every sample, and the round's update the sum
of the steps."""
import numpy as np

from repro import models
from repro.async_fl import _Client
from repro.config import RunConfig


def test_sequential_local_round_is_algorithm_2_1():
    rng = np.random.default_rng(0)
    x, y = rng.normal(size=(30, 4)), rng.integers(0, 2, 30)
    model = models.LogisticRegression(4, l2=0.1)
    theta = rng.normal(size=model.n_params)
    etas = np.array([0.5, 0.4, 0.3, 0.2, 0.1])
    cfg = RunConfig(data="a9a-like", local="sequential", sampling="with-replacement", clip=None)
    got = _Client(x, y, np.random.default_rng(7), cfg).update(model, theta, 5, etas, cfg)
    # by hand: the same draws, gradients at the current iterate, steps after every sample
    draws = np.random.default_rng(7).integers(0, 30, size=5)
    w, u = theta.copy(), np.zeros_like(theta)
    for eta, j in zip(etas, draws):
        g = model.per_sample_grads(w, x[j:j + 1], y[j:j + 1])[0]
        w -= eta * g
        u += eta * g
    np.testing.assert_allclose(got, u, rtol=1e-12)
    # the frozen variant (002 Algorithm 1, the form the DP analysis covers) differs: all gradients at theta
    frozen = cfg.replace(local="frozen")
    g0 = model.per_sample_grads(theta, x[draws], y[draws])
    np.testing.assert_allclose(_Client(x, y, np.random.default_rng(7), frozen).update(model, theta, 5, etas, frozen),
                               etas @ g0, rtol=1e-12)
    assert not np.allclose(etas @ g0, u)
