"""Issue 29: the one-step grids of the Gaussian pairs against mpmath at 50 digits (an oracle independent
of the grids' own arithmetic). At grid-point epsilons connect-the-dots is exact, so the upper grid's delta
minus the true delta is pure floating-point rounding: it must be >= 0, and the lower grid's <= 0.

The grids' masses were double precision and failed this in two cases (add at 0.05: 5.4e-19 below the
truth; replace at 0: 3.7e-17 below); numerics.pld_onestep now encloses every mass (numerics.enclose: Arb
Taylor series per block and a proven float Horner bound) and rounds it to its safe side."""
import math

import mpmath
import numpy as np
import pytest

from numerics import pld, pld_onestep
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
def test_mass_bounds_contain_mpmath(direction):
    pair = MixturePair(0.03, 0.9, direction)
    rng = np.random.default_rng(29)
    z = np.sort(np.concatenate([[-np.inf, np.inf], rng.uniform(-14.0, 14.0, 3000),
                                rng.uniform(2.0, 2.001, 200), [0.0, -0.0, 1.0, -1.0]]))  # narrow intervals too
    p_lo, p_hi, q_lo, q_hi = pld_onestep.mass_bounds(pair, z)
    with mp.workdps(50):
        for i in range(0, len(z) - 1, 7):
            for lo, hi, which in ((p_lo[i], p_hi[i], "P"), (q_lo[i], q_hi[i], "Q")):
                true = _mp_mass(pair, z[i], z[i + 1], which)
                assert lo <= true <= hi
                # each mass keeps its relative accuracy however narrow the interval (enclose_diff)
                assert hi - lo <= 1e-11 * true + 1e-300


def test_enclose_contains_mpmath_on_wide_and_narrow_blocks():
    from numerics.enclose import enclose
    rng = np.random.default_rng(7)
    x = np.sort(np.concatenate([rng.uniform(-3.0, 30.0, 5000), rng.uniform(1.0, 1.0 + 1e-9, 50)]))
    lo, hi = enclose(lambda s: s.erfc() / 2, x)
    with mp.workdps(60):
        for i in range(0, len(x), 11):
            true = mpmath.erfc(mpmath.mpf(x[i])) / 2
            assert lo[i] <= true <= hi[i]
            assert hi[i] - lo[i] <= 1e-12 * true + 3e-290  # enclose accepts 1e-290 absolute (underflow)


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


@pytest.mark.parametrize("direction, eps", [
    ("remove", 0.0), ("remove", 0.05), ("add", 0.0),
    ("add", 0.05),  # the double-precision grid was 5.4e-19 below the truth (1.87e-7)
    ("replace", 0.0),  # the double-precision grid was 3.7e-17 below the truth (0.0341)
    ("replace", 0.1)])
def test_grids_bracket_the_true_delta(direction, eps):
    pair, h = MixturePair(0.05, 1.0, direction), 2e-3
    with mp.workdps(50):
        true = _mp_delta(pair, eps)
        assert _grid_delta(pld.discretise_pessimistic(pair, h, 1e-16), h, eps) >= true
        assert _grid_delta(pld.discretise_optimistic(pair, h, 1e-16), h, eps) <= true


def test_lower_grid_losses_at_h_1e6():
    """Item 2: at h = 1e-6 every atom of the lower grid sits at or below the loss of the interval whose
    mass it carries, with no float margin (the floor is proven: e^{kh} <= P_lo / Q_hi)."""
    pair, h = MixturePair(1e-4, 2.0, "remove"), 1e-6
    up = pld.discretise_pessimistic(pair, h, 1e-12)
    low = pld.discretise_optimistic(pair, h, 1e-12)
    with mp.workdps(50):
        for eps in (0.0, 2e-5):
            true = _mp_delta(pair, eps)
            assert _grid_delta(up, h, eps) >= true
            assert _grid_delta(low, h, eps) <= true


def test_tiny_per_step_losses_keep_a_tight_lower_end():
    """Regression (patches/2026-11-27c/README.md): with the enclosed loss floors, atoms whose loss sat O(h^2) above
    their grid point dropped a whole step when the per-step loss is tiny (q 1.7e-5, sigma 12.1: fig-002-privacy-curve's
    table 10 at 360,000 rounds), and epsilon_pld's lower end collapsed (AccuracyNotReached, best width 0.418)."""
    from numerics.pld import epsilon_pld
    from numerics.schedule import Schedule

    b = epsilon_pld(Schedule.constant(q=6 / 360000, sigma=12.10881, steps=360000), 1 / 60000)
    assert b.epsilon_lower <= b.epsilon_upper
    assert (b.epsilon_upper - b.epsilon_lower) / b.epsilon_upper < 1e-3


@pytest.mark.parametrize("q, sigma, h, direction", [
    (1e-3, 1.0, 4.540159655315725e-05, "remove"),  # a light interval just above the loss floor (was 0.0005 h)
    (1e-3, 1.0, 1.6e-05, "remove"),  # atoms whose loss sat 1e-15 above their grid point (was 0.0009 h)
    (1e-3, 0.8, 1.03e-04, "remove"),  # the bottom interval retargeted past a too light donor (was 0.36 h)
    (1e-3, 1.0, 2e-4, "add"), (0.01, 1.0, 4e-4, "replace"), (0.05, 1.0, 2e-3, "remove")])
def test_lower_grid_is_second_order(q, sigma, h, direction):
    """Issue 33: the lower grid mixes each interval with a fraction of a neighbour so that its loss is a grid
    loss (numerics.pld_onestep); its mean loss is then within O(h^2) of the upper grid's, as connect-the-dots
    is. Rounding intervals down, as before, put it 0.004 h to 0.4 h below (61 h^2 at h = 6.4e-5), which
    decided the grid of long runs. The true mean lies between the two (both grids bound the pair)."""
    pair = MixturePair(q, sigma, direction)
    up, low = pld.discretise_pessimistic(pair, h, 1e-16), pld.discretise_optimistic(pair, h, 1e-16)

    def mean(g):
        return float(np.dot(g.pmf, (g.k0 + np.arange(len(g.pmf))) * h))
    assert 0.0 <= mean(up) - mean(low) <= 0.5 * h * h
    assert 1.0 - 1e-12 <= low.pmf.sum() <= 1.0


@pytest.mark.parametrize("direction, eps", [("remove", 0.0), ("remove", 0.05), ("add", 0.0), ("add", 0.05),
                                            ("replace", 0.0), ("replace", 0.1)])
def test_merged_lower_grid_is_below_the_true_delta(direction, eps):
    """numerics.pld_contraction's merged grid (the lower grid of numerics.dominating, hence of numerics.epsilon's
    Poisson and fixed-size Gaussian add/remove routes): its atoms are placed from enclosed masses, so its delta is
    at or below the truth (mpmath) at grid-point and off-grid epsilons, at h 2e-3 (and 1e-6 for remove)."""
    from numerics.pld_contraction import discretise_merged
    cases = [(MixturePair(0.05, 1.0, direction), 2e-3)]
    if direction == "remove" and eps == 0.0:
        cases.append((MixturePair(1e-4, 2.0, direction), 1e-6))
    for pair, h in cases:
        grid = discretise_merged(pair, h, 1e-14)
        assert grid.pmf.min() >= 0 and grid.pmf.sum() <= 1
        with mp.workdps(50):
            for e in (eps, eps + 0.37 * h):
                assert _grid_delta(grid, h, e) <= _mp_delta(pair, e)


def test_merged_grid_keeps_its_balanced_atoms():
    """The enclosed check moves an atom down only when its loss is not proven above its grid point: with the
    balancing aimed 1e-11 nats above it, the merged grid's mean loss stays within 1e-9 h of the float merge's."""
    from numerics import pld_contraction
    pair, h = MixturePair(0.01, 1.0, "remove"), 4.4e-4
    grid = pld_contraction.discretise_merged(pair, h, 1e-14)
    z = np.concatenate([[-np.inf], pld._edges_z(pair, np.arange(*_k_range(pair, h)) * h), [np.inf]])
    lp, lq = pair.edge_log_masses_pq(z)
    with np.errstate(invalid="ignore"):
        steered = np.array(pld_contraction._merge(np.exp(lp), lp - lq, h))
    p = np.exp(lp)
    float_mean = float(np.sum(steered[:, 0] * h * (steered[:, 2] * p[steered[:, 1].astype(int)]
                                                    + steered[:, 4] * p[steered[:, 3].astype(int)])))
    mean = float(np.dot(grid.pmf, (grid.k0 + np.arange(len(grid.pmf))) * h))
    assert abs(mean - float_mean) <= 1e-9 * h  # measured 2e-13 h; one atom dropped a step would cost its mass times h


def _k_range(pair, h):
    lo, hi = pld._loss_window(pair, 1e-14)
    return math.floor(lo / h), math.ceil(hi / h) + 1
