"""Seed 003 sensitivity: the batch-average clip counterexample in floating point, per-sample clipping's bound."""
import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from repro.edge_noise import clip_batch_average, clip_per_sample_average
from theory.mapa import sensitivity


def test_batch_clip_counterexample_with_the_simulators_clip():
    cx, diff_sq = sensitivity.batch_clip_counterexample(b=12)
    b, c = 12, 6.0
    u = np.array([c, 0.0])
    batch = np.tile(u, (b, 1))
    other = batch.copy()
    other[-1] = -(2 * b - 1) * u
    diff = np.linalg.norm(clip_batch_average(batch, c) - clip_batch_average(other, c))
    assert np.isclose(diff, float(diff_sq) ** 0.5) and np.isclose(diff, b * 1.0)  # b x Delta S


@given(b=st.integers(1, 20), seed=st.integers(0, 10_000), clip=st.floats(0.1, 10.0))
def test_per_sample_clipping_has_sensitivity_two_clip_over_b(b, seed, clip):
    rng = np.random.default_rng(seed)
    batch = rng.normal(scale=5.0, size=(b, 4))
    other = batch.copy()
    other[rng.integers(b)] = rng.normal(scale=50.0, size=4)
    diff = np.linalg.norm(clip_per_sample_average(batch, clip) - clip_per_sample_average(other, clip))
    assert diff <= 2 * clip / b * (1 + 1e-12)


def test_with_replacement_tail_loss_by_laplace_mixture():
    """N = 1: the K-norm noise is Laplace; the tail ratio of the two mixtures at a far point equals the formula."""
    from scipy import stats

    eps, b, n = 0.1, 12, 7
    lam, a = 1.0 / eps, 0.5  # Delta S = 1 = 2a
    m = np.arange(b + 1)
    w = stats.binom.pmf(m, b, 1.0 / n)
    r = 400.0
    p = np.sum(w * np.exp(stats.laplace.logpdf(r, loc=m * a, scale=lam)))
    q = np.sum(w * np.exp(stats.laplace.logpdf(r, loc=-m * a, scale=lam)))
    v = sensitivity.dataset_neighbours_with_replacement()
    assert np.isclose(np.log(p / q), v.counterexample["privacy_loss_limit_per_iteration"], rtol=1e-9)
