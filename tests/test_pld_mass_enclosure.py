"""Issue 29: the one-step grids of the Gaussian pairs against mpmath at 50 digits (an oracle independent
of the grids' own arithmetic). At grid-point epsilons connect-the-dots is exact, so the upper grid's delta
minus the true delta is pure floating-point rounding: it must be >= 0, and the lower grid's <= 0.

The committed grids evaluate their masses in double precision and fail this for two cases (marked
xfail, not strict: a rounding-level fact may differ across platforms);
patches/2026-11-27b/issue29-arb-masses-A.patch encloses the masses in Arb and passes every case (then
drop the marks). The Arb-ball test runs only with that patch (``interval_mass_balls``)."""
import math

import mpmath
import numpy as np
import pytest

from numerics import pld
from numerics.pld_pairs import MixturePair

mp = mpmath.mp


def _mp_mass(pair, lo, hi, which):
    comps = pair.p_components if which == "P" else pair.q_components
    s = mpmath.mpf(pair.sigma)
    total = mpmath.mpf(0)
    for w, m in comps:
        if w == 0:
            continue
        wm = mpmath.mpf(1) if w == 1.0 else (1 - mpmath.mpf(pair.q) if m == 0.0 else mpmath.mpf(pair.q))
        a = mpmath.ncdf((mpmath.mpf(lo) - m) / s) if math.isfinite(lo) else (0 if lo < 0 else 1)
        b = mpmath.ncdf((mpmath.mpf(hi) - m) / s) if math.isfinite(hi) else (0 if hi < 0 else 1)
        # the far right tail: difference of survival functions keeps its digits
        if math.isfinite(lo) and lo > m:
            sa = mpmath.ncdf(-(mpmath.mpf(lo) - m) / s)
            sb = mpmath.ncdf(-(mpmath.mpf(hi) - m) / s) if math.isfinite(hi) else 0
            total += wm * (sa - sb)
        else:
            total += wm * (b - a)
    return total


@pytest.mark.parametrize("direction", ["remove", "add", "replace"])
def test_mass_balls_contain_mpmath(direction):
    if not hasattr(MixturePair, "interval_mass_balls"):
        pytest.skip("the Arb enclosure of the masses is patches/2026-11-27b/issue29-arb-masses-A.patch, not applied")
    pair = MixturePair(0.03, 0.9, direction)
    rng = np.random.default_rng(29)
    z = np.sort(np.concatenate([[-np.inf, np.inf], rng.uniform(-14.0, 14.0, 300),
                                rng.uniform(2.0, 2.001, 20)]))  # narrow intervals too
    balls_p, balls_q = pair.interval_mass_balls(z)
    with mp.workdps(50):
        for i in range(0, len(z) - 1, 3):
            for ball, which in ((balls_p[i], "P"), (balls_q[i], "Q")):
                true = _mp_mass(pair, z[i], z[i + 1], which)
                # the ball's ends as exact decimals (arb prints them rigorously rounded outward)
                assert mpmath.mpf(ball.lower().str(30, radius=False)) <= true * (1 + mpmath.mpf(10) ** -25) + 1e-300
                assert mpmath.mpf(ball.upper().str(30, radius=False)) >= true * (1 - mpmath.mpf(10) ** -25)


def _mp_delta(pair, eps):
    """delta(eps) of one step: P(l > eps) - e^eps Q(l > eps), l increasing in z (mpmath, 50 digits)."""
    zs = pair.z_of_loss(np.array([eps]))[0]
    if not math.isfinite(zs):
        return mpmath.mpf(0)
    # refine the root in mpmath so the oracle does not inherit the float inverse's error
    s2 = mpmath.mpf(pair.sigma) ** 2

    def loss(z):
        def dens(comps):
            return mpmath.fsum((1 if w == 1.0 else ((1 - mpmath.mpf(pair.q)) if m == 0.0 else mpmath.mpf(pair.q)))
                               * mpmath.exp(-(z - m) ** 2 / (2 * s2)) for w, m in comps if w > 0)
        return mpmath.log(dens(pair.p_components)) - mpmath.log(dens(pair.q_components))
    z = mpmath.findroot(lambda t: loss(t) - eps, mpmath.mpf(zs))
    return _mp_mass(pair, float(z), math.inf, "P") - mpmath.exp(eps) * _mp_mass(pair, float(z), math.inf, "Q")


def _grid_delta(g, h, eps):
    a = (g.k0 + np.arange(len(g.pmf))) * h
    with mp.workdps(50):
        return g.inf_mass + mpmath.fsum(mpmath.mpf(p) * (1 - mpmath.exp(eps - mpmath.mpf(x)))
                                        for p, x in zip(g.pmf, a) if x > eps and p > 0)


_FLOAT_DEFECT = pytest.mark.xfail(strict=False, reason="double-precision one-step masses (docs/certified.md, "
                                  "'What is not enclosed'); the Arb patch fixes it")


@pytest.mark.parametrize("direction, eps", [
    ("remove", 0.0), ("remove", 0.05), ("add", 0.0),
    pytest.param("add", 0.05, marks=_FLOAT_DEFECT),  # upper grid 5.4e-19 below the truth (1.87e-7)
    pytest.param("replace", 0.0, marks=_FLOAT_DEFECT),  # upper grid 3.7e-17 below the truth (0.0341)
    ("replace", 0.1)])
def test_grids_bracket_the_true_delta(direction, eps):
    pair, h = MixturePair(0.05, 1.0, direction), 2e-3
    with mp.workdps(50):
        true = _mp_delta(pair, eps)
        assert _grid_delta(pld.discretise_pessimistic(pair, h, 1e-16), h, eps) >= true
        assert _grid_delta(pld.discretise_optimistic(pair, h, 1e-16), h, eps) <= true


def test_lower_grid_losses_at_h_1e6():
    """Item 2: at h = 1e-6 every atom of the lower grid sits at or below the loss of the interval whose
    mass it carries, with no float margin (the floor is taken on an Arb ball's lower end)."""
    pair, h = MixturePair(1e-4, 2.0, "remove"), 1e-6
    up = pld.discretise_pessimistic(pair, h, 1e-12)
    low = pld.discretise_optimistic(pair, h, 1e-12)
    with mp.workdps(50):
        for eps in (0.0, 2e-5):
            true = _mp_delta(pair, eps)
            assert _grid_delta(up, h, eps) >= true
            assert _grid_delta(low, h, eps) <= true
