"""Issue 29: the one-step grids of numerics.location_pairs (Laplace pairs, with-replacement copies pairs)
against mpmath at 50 digits, an oracle independent of the grids' own arithmetic (numerics.location_onestep,
numerics.pld_onestep). At grid-point epsilons connect-the-dots is exact, so the upper grid's delta minus the
true delta is rounding only and must be >= 0; the merged lower grid's delta must be <= the truth at every
epsilon."""
import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest

from numerics import location_onestep, pld, pld_onestep
from numerics.dominating import _binomial_copies, _copies_pair, shift_pair
from numerics.pld_contraction import discretise_merged

mp = mpmath.mp


def _pairs():
    """name -> pair: the Laplace shift pairs of every Laplace route and the copies pairs of with-replacement."""
    copies = _binomial_copies(64, 600, 1e-12)
    return {
        "laplace-remove": shift_pair("laplace", 0.03, 0.9, 1.0, "remove"),
        "laplace-add": shift_pair("laplace", 0.03, 0.9, 1.0, "add"),
        "laplace-full": shift_pair("laplace", 1.0, 0.9, 2.0, "remove"),
        "copies-gaussian": _copies_pair("gaussian", 1.1, copies[0], copies[2], "remove"),
        "copies-laplace-add": _copies_pair("laplace", 1.1, copies[0], copies[2], "add"),
    }


def _weights(pair, side):
    comps = (pair.p_components, pair.q_components)[side]
    exact = pair.exact_weights[side] if pair.exact_weights else [Fraction(w) for w, _ in comps]
    return [(mpmath.mpf(w.numerator) / w.denominator, m) for w, (_, m) in zip(exact, comps)]


def _tails(pair, x, m):
    """(mass below x, mass above x) of the component at m, each computed on its accurate side."""
    b = mpmath.mpf(pair.scale)
    if not math.isfinite(x):
        return (mpmath.mpf(0), mpmath.mpf(1)) if x < 0 else (mpmath.mpf(1), mpmath.mpf(0))
    t = (mpmath.mpf(x) - m) / b
    if pair.family == "gaussian":
        return mpmath.ncdf(t), mpmath.ncdf(-t)
    return (mpmath.exp(t) / 2, 1 - mpmath.exp(t) / 2) if t < 0 else (1 - mpmath.exp(-t) / 2, mpmath.exp(-t) / 2)


def _mp_mass(pair, lo, hi, side):
    total = mpmath.mpf(0)
    for w, m in _weights(pair, side):
        (below_lo, above_lo), (below_hi, above_hi) = _tails(pair, lo, m), _tails(pair, hi, m)
        total += w * ((above_lo - above_hi) if lo >= m else (below_hi - below_lo))
    return total


def _mp_loss(pair, z):
    b = mpmath.mpf(pair.scale)

    def dens(side):
        if pair.family == "gaussian":
            return mpmath.fsum(w * mpmath.exp(-(z - m) ** 2 / (2 * b * b)) for w, m in _weights(pair, side))
        return mpmath.fsum(w * mpmath.exp(-abs(z - m) / b) for w, m in _weights(pair, side))
    return mpmath.log(dens(0)) - mpmath.log(dens(1))


def _mp_delta(pair, eps):
    """delta(eps) = P(l > eps) - e^eps Q(l > eps) (the loss is non-decreasing in z), 50 digits."""
    means = [m for _, m in pair.p_components + pair.q_components]
    lo, hi = mpmath.mpf(min(means)), mpmath.mpf(max(means))
    while _mp_loss(pair, lo) > eps and lo > -60:
        lo -= 4
    while _mp_loss(pair, hi) < eps and hi < 60:
        hi += 4
    if _mp_loss(pair, hi) <= eps and pair.family == "laplace":  # at or above the flat top: no mass above eps
        return mpmath.mpf(0)
    if _mp_loss(pair, lo) >= eps:  # eps at or below the loss everywhere: all mass counts
        z = -math.inf
    else:
        z = mpmath.findroot(lambda t: _mp_loss(pair, t) - eps, (lo, hi), solver="illinois")
    return _mp_mass(pair, z, math.inf, 0) - mpmath.exp(eps) * _mp_mass(pair, z, math.inf, 1)


def _grid_delta(g, h, eps):
    a = (g.k0 + np.arange(len(g.pmf))) * h
    return g.inf_mass + mpmath.fsum(mpmath.mpf(p) * (1 - mpmath.exp(eps - mpmath.mpf(x)))
                                    for p, x in zip(g.pmf, a) if x > eps and p > 0)


@pytest.mark.parametrize("name", sorted(_pairs()))
def test_mass_bounds_contain_mpmath(name):
    pair = _pairs()[name]
    rng = np.random.default_rng(29)
    z = np.sort(np.concatenate([[-np.inf, np.inf], rng.uniform(-12.0, 20.0, 2000), rng.uniform(0.5, 0.5001, 100),
                                [0.0, 1.0, 2.0, -2.0, 4.0]]))  # the means themselves and narrow intervals
    p_lo, p_hi, q_lo, q_hi = pld_onestep.mass_bounds(pair, z)
    with mp.workdps(50):
        for i in range(0, len(z) - 1, 5):
            for lo, hi, side in ((p_lo[i], p_hi[i], 0), (q_lo[i], q_hi[i], 1)):
                true = _mp_mass(pair, z[i], z[i + 1], side)
                assert lo <= true <= hi
                assert hi - lo <= 1e-11 * true + 1e-300


@pytest.mark.parametrize("name", sorted(_pairs()))
def test_edges_are_proven_brackets(name):
    """loss <= k h on (-inf, e_lo] and >= k h on (e_hi, inf): checked at the ends in mpmath (monotone loss)."""
    pair, h = _pairs()[name], 1e-2
    lo, hi = pld._loss_window(pair, 1e-14)
    ks = np.arange(math.floor(lo / h) - 2, math.ceil(hi / h) + 3).astype(float)
    e_lo, e_hi = location_onestep.edge_bounds(pair, ks, h)
    assert np.all(e_lo <= e_hi) and np.all(e_hi[:-1] <= e_lo[1:])
    with mp.workdps(50):
        for k, a, b in zip(ks, e_lo, e_hi):
            ak = mpmath.mpf(k) * mpmath.mpf(h)
            if math.isfinite(a):
                assert _mp_loss(pair, mpmath.mpf(a)) <= ak
            if math.isfinite(b):
                assert _mp_loss(pair, mpmath.mpf(b)) >= ak


@pytest.mark.parametrize("name", sorted(_pairs()))
def test_grids_bracket_the_true_delta(name):
    """Upper grid >= truth at grid-point epsilons (where connect-the-dots is exact); merged lower grid <= truth
    on and off the grid, at h 2e-3."""
    pair, h = _pairs()[name], 2e-3
    upper, lower = pld.discretise_pessimistic(pair, h, 1e-16), discretise_merged(pair, h, 1e-14)
    assert upper.pmf.min() >= 0 and lower.pmf.min() >= 0 and lower.pmf.sum() <= 1
    with mp.workdps(50):
        for k in (0, 25, -25):
            eps = k * h
            true = _mp_delta(pair, eps)
            assert _grid_delta(upper, h, eps) >= true
            for e in (eps, eps + 0.37 * h):
                assert _grid_delta(lower, h, e) <= _mp_delta(pair, e)


def test_flat_pieces_on_grid_points():
    """A full-batch Laplace pair whose flat losses -2 and 2 (scale 0.5, shift 1) are grid points of h = 2^-8: the
    atoms of the loss sit exactly on a_k, and both grids still bracket the truth there and one step inside."""
    pair, h = shift_pair("laplace", 1.0, 0.5, 1.0, "remove"), 2.0 ** -8
    upper, lower = pld.discretise_pessimistic(pair, h, 1e-16), discretise_merged(pair, h, 1e-14)
    with mp.workdps(50):
        for eps in (-2.0, -2.0 + h, 0.0, 2.0 - h, 2.0):
            true = _mp_delta(pair, eps)
            assert _grid_delta(upper, h, eps) >= true >= _grid_delta(lower, h, eps)


def test_laplace_with_replacement_and_symmetrised_routes_are_certified():
    """Poisson, fixed-size and full-batch Laplace, with-replacement (both noises, both adjacencies) and a fixed-size
    Gaussian replace-one phase inside a mixed schedule (numerics.dominating.symmetrised) now rest on enclosed
    masses and proven grids only: certified, no unbounded rounding named."""
    import numerics
    from numerics.schedule import Phase, Schedule

    phases = [Phase(0.01, 2.0, 10, noise="laplace"),
              Phase.fixed_size(batch_size=64, dataset_size=6000, sigma=2.0, steps=10, noise="laplace"),
              Phase.full_batch(sigma=20.0, steps=10, noise="laplace"),
              Phase.with_replacement(batch_size=64, dataset_size=6000, sigma=1.1, steps=10),
              Phase.with_replacement(batch_size=64, dataset_size=6000, sigma=2.0, steps=10, noise="laplace")]
    schedules = [Schedule((phase,), adjacency) for phase in phases for adjacency in ("add-remove", "replace-one")
                 if phase.sampling != "poisson" or adjacency == "add-remove"]  # no Poisson Laplace replace-one pair
    schedules.append(Schedule((Phase.fixed_size(batch_size=60, dataset_size=6000, sigma=1.1, steps=10),
                               Phase.full_batch(sigma=30.0, steps=2)), "replace-one"))
    for schedule in schedules:
        b = numerics.epsilon(schedule, 1e-5, rel_width=1e-2)
        assert b.certified is True and "unbounded_rounding" not in b.details, schedule
        assert b.epsilon_lower <= b.epsilon_upper


@pytest.mark.parametrize("noise, weight, sigma, shift", [("laplace", 0.03, 0.9, 2.0), ("laplace", 0.3, 1.5, 2.0),
                                                          ("gaussian", 0.05, 1.0, 2.0), ("gaussian", 0.011, 1.1, 4.0)])
def test_symmetrised_grid_dominates_both_orders_in_mpmath(noise, weight, sigma, shift):
    """numerics.dominating.symmetrised (every replace-one route of numerics.dominating): its exact profile (the float
    masses summed in mpmath) is at least max(delta_A, delta_B) of the true pairs (mpmath, 50 digits) at grid and
    off-grid epsilons of both signs, with no tolerance."""
    from numerics.dominating import symmetrised
    from tests.test_pld_mass_enclosure import _mp_delta as _mp_delta_gauss

    pair, reverse = shift_pair(noise, weight, sigma, shift, "remove"), shift_pair(noise, weight, sigma, shift, "add")
    oracle = _mp_delta if noise == "laplace" else _mp_delta_gauss
    h = 2e-3
    grid = symmetrised(pair, reverse, h, 1e-14)
    assert grid.pmf.min() >= 0
    with mp.workdps(50):
        for k in (-600, -150, -1, 0, 1, 40, 150, 600):
            for eps in (k * h, (k + 0.41) * h):
                assert _grid_delta(grid, h, eps) >= max(oracle(pair, eps), oracle(reverse, eps))


def test_flat_atom_below_a_grid_point_is_not_placed_on_it():
    """A case the float lower grid got wrong: full batch Laplace, scale 20, shift 1, h = fl(1e-4). The top flat
    atom (half of P's mass) has loss exactly 1/20, and 500 fl(1e-4) is above 1/20 in exact arithmetic, but the
    float merge placed it at grid point 500 (floor(0.05 / h) = 500): a loss above its true one, optimistic for a
    lower bound. The enclosed grid puts it one point lower."""
    pair, h = shift_pair("laplace", 1.0, 20.0, 1.0, "remove"), 1e-4
    assert Fraction(500) * Fraction(h) > Fraction(1, 20) and math.floor(0.05 / h) == 500
    grid = discretise_merged(pair, h, 1e-14)
    top = dict(zip(grid.k0 + np.arange(len(grid.pmf)), grid.pmf))
    assert top.get(500, 0.0) == 0.0 and top[499] >= 0.5
