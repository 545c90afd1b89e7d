"""numerics.pld's read-off (delta and epsilon from a composed PMF) on the safe side of exact sums (A29C).

The composed PMF is taken as given (float masses on the exact grid (k0 + j) h); the reference is its
exact delta, summed in mpmath at 200 bits. Synthetic PMFs put the read-off's roundings at their worst.
"""
import math

import mpmath
import numpy as np
import pytest

from numerics import pld
from numerics.pld_compose import ComposedPLD


def _exact_delta(c: ComposedPLD, eps) -> mpmath.mpf:
    with mpmath.workprec(200):
        e, h = mpmath.mpf(eps), mpmath.mpf(c.h)
        return mpmath.fsum(mpmath.mpf(float(m)) * -mpmath.expm1(e - (c.k0 + j) * h)
                           for j, m in enumerate(c.pmf) if m > 0 and (c.k0 + j) * h > e)


def _far_tail_pmf(n: int = 100_000, h: float = 1e-9) -> ComposedPLD:
    """One atom of 1e-3 at loss 1000 and n tiny atoms below it, each adding 1e-14 of the running sum
    of m_j e^{-x_j}: below half an ulp of log s at |log s| ~ 1000, so a log-space accumulation loses
    every one of them."""
    k0 = round(1000.0 / h) - (n - 1)
    x = (k0 + np.arange(n)) * h
    pmf = 1e-3 * 1e-14 * np.exp(x - x[-1])
    pmf[-1] = 1e-3
    return ComposedPLD(k0, pmf, h, 0.0, 0.0, 0.0)


def test_tail_sums_bound_the_exact_delta_at_every_checked_grid_point():
    """Before A29C the lower D at K = 0 was 9.5e-6 relative above the exact value (logaddexp's rounding
    of |log s| ~ 1000 per step, assumed to be 3u)."""
    c = _far_tail_pmf()
    _, _, _, low = pld._tail_sums(c, c.pmf, False)
    _, _, _, high = pld._tail_sums(c, c.pmf, True)
    for k in (0, 1, 50_000, 99_990):
        exact = _exact_delta(c, mpmath.mpf(c.k0 + k) * mpmath.mpf(c.h))
        assert low[k] <= exact <= high[k]


@pytest.mark.parametrize("seed", range(4))
def test_delta_and_epsilon_read_off_random_pmfs(seed):
    """Random PMFs at large losses (hundreds of nats), random epsilon: _delta_at's ends contain the exact
    delta, and _eps_at's ends are on their sides of the exact delta."""
    rng = np.random.default_rng(seed)
    h = float(rng.choice([1e-3, 3.7e-4, 1e-5]))
    n = int(rng.integers(200, 3000))
    k0 = int(rng.uniform(-50, 900) / h)
    pmf = rng.random(n) ** 6 * np.exp(-np.linspace(0, rng.uniform(1, 40), n))
    pmf /= pmf.sum() * 1.5
    c = ComposedPLD(k0, pmf, h, 0.0, 0.0, 0.0)
    x = (k0 + np.arange(n)) * h
    for eps in (float(x[n // 3]), float(x[n // 3]) + 0.37 * h, float(x[0]) - 1.0, float(x[-2])):
        exact = _exact_delta(c, eps)
        assert pld._delta_at(c, pmf, eps, False) <= exact <= pld._delta_at(c, pmf, eps, True)
    for target in (1e-3 * float(pmf.sum()), 1e-9, float(_exact_delta(c, float(x[n // 2])))):
        up_eps, low_eps = pld._eps_at(c, pmf, target, True), pld._eps_at(c, pmf, target, False)
        assert low_eps <= up_eps
        if math.isfinite(up_eps):
            assert _exact_delta(c, up_eps) <= target
        if low_eps > 0:
            assert _exact_delta(c, low_eps) >= target


def test_inf_mass_is_rounded_up():
    """The +inf mass 1 - prod (1 - p_i)^{T_i} of a composition is at or above its exact value."""
    from numerics.pld_compose import GridPLD, inf_mass_upper
    rng = np.random.default_rng(7)
    for _ in range(200):
        steps = [(GridPLD(0, np.array([1.0]), float(10.0 ** rng.uniform(-17, -2))), int(rng.integers(1, 10 ** 6)))
                 for _ in range(int(rng.integers(1, 4)))]
        with mpmath.workprec(200):
            exact = 1 - mpmath.fprod((1 - mpmath.mpf(s.inf_mass)) ** t for s, t in steps)
        assert inf_mass_upper(steps) >= exact


def test_a_crossing_is_never_reported_as_the_best_bracket_seen():
    """pld_general._best_seen returns the best earlier bracket when a finer grid cannot reach the width,
    but a crossing (pld.CrossedBracket) is a defect: it is raised, not papered over by a coarser grid."""
    from numerics import pld_general
    seen = {"remove": (1.0, 2.0)}
    with pytest.raises(pld.CrossedBracket):
        pld_general._best_seen(seen, ["remove"], pld.CrossedBracket("crossed"), lambda lo, hi: None)
