"""numerics.epsilon / numerics.delta across mechanisms (issue 18): the dispatch table, the proofs' numeric
side conditions, the done-when cases, the peers' inputs (DpEvents, Opacus histories)."""
import itertools
import math
import time

import mpmath
import numpy as np
import pytest
import sympy

import numerics
from numerics import InvalidParameter, Phase, Schedule
from numerics import dominating as dm
from numerics import pld
from numerics.accounting import TABLE, accountant_for
from numerics.pure_dp import optimal_composition_delta, optimal_composition_epsilon


# --- the scale mixture behind numerics.knorm -----------------------------------------------------

def test_scale_mixture_identity_symbolically():
    a, b, t = sympy.symbols("a b tau", positive=True)
    lhs = sympy.integrate(t ** sympy.Rational(-1, 2) * sympy.exp(-a / t - b * t), (t, 0, sympy.oo))
    assert sympy.simplify(lhs - sympy.sqrt(sympy.pi / b) * sympy.exp(-2 * sympy.sqrt(a * b))) == 0


@pytest.mark.parametrize("d", [1, 3, 8])
def test_gamma_mixture_of_gaussians_has_density_exp_minus_norm_over_lambda(d):
    lam = 0.7
    k, theta = (d + 1) / 2, 2 * lam ** 2

    def mixture_density(r):
        f = lambda t: (2 * mpmath.pi * t) ** (-d / 2) * mpmath.exp(-r * r / (2 * t)) \
            * t ** (k - 1) * mpmath.exp(-t / theta) / (mpmath.gamma(k) * theta ** k)
        return mpmath.quad(f, [0, 1, 10, mpmath.inf])
    ratios = [mixture_density(r) / mpmath.exp(-r / lam) for r in (0.1, 0.8, 2.5, 6.0)]
    assert max(ratios) / min(ratios) - 1 < 1e-10


# --- fact F1 for the Laplace law, and the symmetrised grid --------------------------------------

def test_laplace_tradeoff_decreases_with_the_shift():
    """(Lap(0), Lap(s)) is more informative for larger s: its profile is larger at every epsilon."""
    eps = np.linspace(-2, 2, 41)
    profiles = []
    for s in (0.5, 1.0, 1.5, 2.0):
        pair = dm.shift_pair("laplace", 1.0, 1.0, s, "remove")
        z = np.linspace(-30, 30, 200001)
        lp, lq = -np.abs(z - s), -np.abs(z)
        dz = z[1] - z[0]
        profiles.append([np.sum(np.maximum(np.exp(lp) - np.exp(e + lq), 0)) * dz / 2 for e in eps])
        assert pair.loss_range()[1] == pytest.approx(s)
    assert np.all(np.diff(np.array(profiles), axis=0) >= -1e-7)  # Riemann sums: error ~1e-8


@pytest.mark.parametrize("noise,g,sigma", [("gaussian", 0.1, 1.0), ("gaussian", 0.5, 0.7), ("laplace", 0.3, 1.5)])
def test_symmetrised_grid_dominates_both_orders(noise, g, sigma):
    pair, reverse = dm.shift_pair(noise, g, sigma, 2.0, "remove"), dm.shift_pair(noise, g, sigma, 2.0, "add")
    h = 0.01
    grid = dm.symmetrised(pair, reverse, h, 1e-12)
    assert grid.pmf.min() >= 0 and abs(grid.pmf.sum() + grid.inf_mass - 1) < 1e-9
    eps = np.linspace(-3, 3, 61) + 0.0037  # off the grid
    x = (grid.k0 + np.arange(len(grid.pmf))) * h
    grid_profile = np.array([np.sum(grid.pmf * np.maximum(-np.expm1(e - x), 0)) + grid.inf_mass for e in eps])
    a = _profile(pair, eps)
    b = _profile(reverse, eps)  # the reverse order's profile (mirroring leaves it unchanged)
    assert np.all(grid_profile >= np.maximum(a, b) - 1e-12)


def _profile(pair, eps):
    z = pair.z_of_loss(eps)
    inf, sup = pair.loss_range()
    z = np.where(eps <= inf, -np.inf, np.where(eps >= sup, np.inf, z))
    out = []
    for e, zz in zip(eps, z):
        lp, lq = pair.interval_log_masses_pq(zz, np.inf)
        out.append(max(math.exp(lp) - math.exp(e + lq), 0.0))
    return np.array(out)


# --- dispatch -------------------------------------------------------------------------------------

def test_every_table_entry_is_reachable_and_no_phase_becomes_poisson():
    for (sampling, noise, adjacency), acc in TABLE.items():
        kw = {"dimension": 8} if noise == "l2-knorm" else {}
        if sampling == "poisson":
            phase = Phase(0.1, 2.0, 3, noise=noise, **kw)
        elif sampling == "full-batch":
            phase = Phase.full_batch(sigma=2.0, steps=3, noise=noise, **kw)
        else:
            make = {"fixed-size": Phase.fixed_size, "with-replacement": Phase.with_replacement,
                    "shuffled": Phase.shuffled}[sampling]
            phase = make(batch_size=2, dataset_size=20, sigma=2.0, steps=3, noise=noise, **kw)
        assert accountant_for(Schedule((phase,), adjacency)) is acc


@pytest.mark.parametrize("make", [
    lambda: Schedule((Phase.fixed_size(batch_size=2, dataset_size=9, sigma=1, steps=2),)),
    lambda: Schedule((Phase.full_batch(sigma=1, steps=2, noise="laplace"),)),
])
def test_poisson_only_accountants_refuse_other_phases(make):
    from numerics.conversions import epsilon_rdp
    from numerics.gdp import epsilon_gdp_clt
    from numerics.pld import epsilon_pld
    for fn in (epsilon_pld, epsilon_rdp, epsilon_gdp_clt):
        with pytest.raises(InvalidParameter, match="Poisson"):
            fn(make(), 1e-5)


@pytest.mark.parametrize("phase", [
    lambda: Phase(0.1, 1.0, 1, noise="l2-knorm", dimension=10),
    lambda: Phase.fixed_size(batch_size=2, dataset_size=10, sigma=1, steps=1, noise="l2-knorm", dimension=9),
])
def test_unsupported_phases_are_refused(phase):
    with pytest.raises(InvalidParameter, match="not supported"):
        numerics.epsilon(Schedule((phase(),)), 1e-5)


def test_phase_validation():
    with pytest.raises(InvalidParameter, match="batch_size"):
        Phase.fixed_size(batch_size=7, dataset_size=5, sigma=1, steps=1)
    with pytest.raises(InvalidParameter, match="dimension"):
        Phase.full_batch(sigma=1, steps=1, noise="l2-knorm")
    with pytest.raises(InvalidParameter, match="scalar"):
        Phase.full_batch(sigma=1, steps=1, noise="laplace", dimension=3)
    with pytest.raises(InvalidParameter, match="sampling"):
        Phase(0.1, 1, 1, sampling="shuffle")
    p = Phase.fixed_size(batch_size=64, dataset_size=60000, sigma=1.1, steps=10)
    assert p.q == 64 / 60000 and p.to_dict()["sampling"] == "fixed-size"
    assert Phase(0.1, 1.0, 5) == Phase(q=0.1, sigma=1.0, steps=5, sampling="poisson", noise="gaussian")


def test_mixed_kinds_compose_or_refuse():
    fixed = Phase.fixed_size(batch_size=2, dataset_size=50, sigma=2.0, steps=20)
    full = Phase.full_batch(sigma=20.0, steps=2)
    both = numerics.epsilon(Schedule((fixed, full)), 1e-5, rel_width=1e-2)
    alone = numerics.epsilon(Schedule((fixed,)), 1e-5, rel_width=1e-2)
    assert both.epsilon_lower > alone.epsilon_lower * 0.99 and both.epsilon_upper >= alone.epsilon_lower
    knorm = Phase.full_batch(sigma=20.0, steps=2, noise="l2-knorm", dimension=10)
    with pytest.raises(InvalidParameter, match="cannot be accounted"):
        numerics.epsilon(Schedule((fixed, knorm)), 1e-5)


# --- closed forms and consistency -------------------------------------------------------------------

def test_full_batch_is_the_analytic_gaussian_inside_the_pld_bracket():
    s = Schedule((Phase.full_batch(sigma=3.0, steps=50),))
    b = numerics.epsilon(s, 1e-6)
    assert b.method == "analytic-gaussian" and b.relative_width <= 1e-6
    grid = pld.epsilon_pld(Schedule.constant(q=1.0, sigma=3.0, steps=50), 1e-6)
    assert grid.epsilon_lower <= b.epsilon_lower and b.epsilon_upper <= grid.epsilon_upper
    r = numerics.epsilon(Schedule(s.phases, "replace-one"), 1e-6)
    assert r.details["mu"] == pytest.approx(2 * b.details["mu"])


def test_fixed_size_add_remove_is_the_poisson_pair_with_shift_two():
    fixed = numerics.epsilon(Schedule((Phase.fixed_size(batch_size=5, dataset_size=100, sigma=2.0, steps=200),)),
                             1e-5)
    poisson = pld.epsilon_pld(Schedule.constant(q=0.05, sigma=1.0, steps=200), 1e-5)
    assert fixed.epsilon_lower <= poisson.epsilon_upper and poisson.epsilon_lower <= fixed.epsilon_upper


def test_fixed_size_replace_one_brackets_the_realizable_pair_and_is_not_poisson():
    phase = Phase.fixed_size(batch_size=10, dataset_size=1000, sigma=1.1, steps=500)
    rep = numerics.epsilon(Schedule((phase,), "replace-one"), 1e-5)
    fixed_order = numerics.epsilon(Schedule((phase,)), 1e-5)  # add-remove: the same pair A in one order, tight
    poisson = pld.epsilon_pld(Schedule.constant(q=0.01, sigma=1.1, steps=500), 1e-5)
    # an adaptive adversary does at least as well as the fixed order (issue 25), never worse
    assert fixed_order.epsilon_lower <= rep.epsilon_lower <= rep.epsilon_upper
    assert rep.epsilon_lower > 1.5 * poisson.epsilon_upper


@pytest.mark.slow
def test_done_when_fixed_size_64_of_60000():
    phase = Phase.fixed_size(batch_size=64, dataset_size=60000, sigma=1.1, steps=10_000)
    started = time.perf_counter()
    rep = numerics.epsilon(Schedule((phase,), "replace-one"), 1e-5)
    seconds = time.perf_counter() - started
    realizable = numerics.epsilon(Schedule((phase,)), 1e-5)  # pair A in one fixed order (the add-remove pair)
    # the interval contains the fixed-order value, and its lower end (an adaptive order policy, issue 25) is
    # at least that order's lower end
    assert realizable.epsilon_lower <= rep.epsilon_lower <= rep.epsilon_upper
    assert realizable.epsilon_upper <= rep.epsilon_upper
    assert seconds < 30  # about 5 s alone on 2 cores; CI machines are shared


def test_done_when_knorm_far_below_pure_dp():
    s = Schedule((Phase.full_batch(sigma=10.0, steps=3000, noise="l2-knorm", dimension=7850),))
    b = numerics.epsilon(s, 1e-5)
    assert b.relative_width < 1e-2
    assert b.epsilon_upper < b.details["pure_dp_epsilon"] / 50
    kov = optimal_composition_epsilon([0.1] * 3000, 1e-5)
    assert b.details["pure_dp_epsilon"] == kov.epsilon_upper


def test_knorm_bounds_bracket_the_gaussian_limits():
    """High dimension: the mechanism is nearly Gaussian with mu^2 between T/(sigma^2 (d+1)) and
    T/(sigma^2 (d-1)); the bracket must contain neither side's violation."""
    from numerics.gdp import epsilon_gdp
    s = Schedule((Phase.full_batch(sigma=5.0, steps=200, noise="l2-knorm", dimension=400),))
    b = numerics.epsilon(s, 1e-5)
    assert b.epsilon_lower <= epsilon_gdp(1e-5, math.sqrt(200 / (25 * 399)))
    assert b.epsilon_upper >= epsilon_gdp(1e-5, math.sqrt(200 / (25 * 401))) * (1 - 1e-6)


# --- pure DP ----------------------------------------------------------------------------------------

def _brute_delta(eps0s, eps):
    total = 0.0
    for bits in itertools.product((0, 1), repeat=len(eps0s)):
        lp = sum(e if b else 0.0 for e, b in zip(eps0s, bits)) - sum(math.log1p(math.exp(e)) for e in eps0s)
        lq = sum(0.0 if b else e for e, b in zip(eps0s, bits)) - sum(math.log1p(math.exp(e)) for e in eps0s)
        total += max(math.exp(lp) - math.exp(eps + lq), 0.0)
    return total


@pytest.mark.parametrize("eps0s,eps", [([0.5] * 6, 0.7), ([1.0] * 3, 0.0), ([0.3, 0.7, 1.1, 0.2], 0.5)])
def test_pure_dp_composition_against_enumeration(eps0s, eps):
    b = optimal_composition_delta(eps0s, eps, rel_width=1e-2)
    truth = _brute_delta(eps0s, eps)
    assert b.delta_lower <= truth * (1 + 1e-12) and truth <= b.delta_upper * (1 + 1e-12)


def test_pure_dp_epsilon_inverts_delta():
    b = optimal_composition_epsilon([0.2] * 50, 1e-3)
    assert optimal_composition_delta([0.2] * 50, b.epsilon_upper).delta_lower <= 1e-3
    assert optimal_composition_delta([0.2] * 50, b.epsilon_lower).delta_upper >= 1e-3


# --- inputs users have ----------------------------------------------------------------------------

def test_opacus_history_is_poisson():
    b = numerics.epsilon([(1.0, 0.01, 1000)], 1e-5)
    ref = numerics.epsilon(Schedule.constant(q=0.01, sigma=1.0, steps=1000), 1e-5)
    assert (b.epsilon_lower, b.epsilon_upper) == (ref.epsilon_lower, ref.epsilon_upper)
    other = pld.epsilon_pld(Schedule.constant(q=0.01, sigma=1.0, steps=1000), 1e-5)
    assert other.epsilon_lower <= b.epsilon_upper and b.epsilon_lower <= other.epsilon_upper
    with pytest.raises(InvalidParameter, match="history"):
        numerics.epsilon([(1.0, 0.01)], 1e-5)


def test_dp_events():
    import dp_accounting as dpa
    wor = dpa.SelfComposedDpEvent(dpa.SampledWithoutReplacementDpEvent(1000, 10, dpa.GaussianDpEvent(1.1)), 500)
    b = numerics.epsilon(wor, 1e-5, adjacency="replace-one")
    ref = numerics.epsilon(Schedule((Phase.fixed_size(batch_size=10, dataset_size=1000, sigma=1.1, steps=500),),
                                    "replace-one"), 1e-5)
    assert (b.epsilon_lower, b.epsilon_upper) == (ref.epsilon_lower, ref.epsilon_upper)
    composed = dpa.ComposedDpEvent([dpa.GaussianDpEvent(3.0), dpa.PoissonSampledDpEvent(0.1, dpa.LaplaceDpEvent(2.0))])
    assert numerics.delta(composed, 1.0).delta_upper > 0
    with pytest.raises(InvalidParameter, match="unsupported DpEvent"):
        numerics.epsilon(dpa.RandomizedResponseDpEvent(0.1, 2), 1e-5)


@pytest.mark.parametrize("noise,g,sigma,h", [("gaussian", 1e-3, 0.55, 1e-4), ("gaussian", 0.3, 1.0, 0.02),
                                             ("laplace", 0.2, 1.0, 0.01)])
def test_merged_grid_is_dominated_by_its_pair(noise, g, sigma, h):
    from numerics.pld_contraction import discretise_merged
    pair = dm.shift_pair(noise, g, sigma, 2.0, "remove")
    grid = discretise_merged(pair, h, 1e-14)
    assert abs(grid.pmf.sum() - 1) < 1e-9 and grid.pmf.min() >= 0
    eps = np.linspace(-0.5, 3, 71) + 0.0013
    x = (grid.k0 + np.arange(len(grid.pmf))) * h
    grid_profile = np.array([np.sum(grid.pmf * np.maximum(-np.expm1(e - x), 0)) for e in eps])
    assert np.all(grid_profile <= _profile(pair, eps) + 1e-12)
    optimistic = pld.discretise_optimistic(pair, h, 1e-14)
    xo = (optimistic.k0 + np.arange(len(optimistic.pmf))) * h
    mean = lambda pmf, xs: float(np.dot(pmf, xs))
    # numerics.pld's optimistic grid mixes neighbours (second order, issue 33); the merged grid rounds atoms
    # down from enclosed masses (first order): it may trail, by at most h/8 of mean loss (measured 0.03-0.075 h)
    assert mean(grid.pmf, x) >= mean(optimistic.pmf, xo) - h / 8


def test_knorm_long_run_with_large_epsilon_does_not_overflow():
    """eps near 10 over 3000 releases puts the bisection's first midpoint beyond 700 nats (it raised
    OverflowError in the realizable-pair lower bound); the bracket must come back ordered and finite."""
    from numerics import epsilon
    from numerics.schedule import Phase, Schedule

    phase = Phase.full_batch(sigma=2.0, steps=3000, noise="l2-knorm", dimension=785)
    b = epsilon(Schedule((phase,), "replace-one"), 1e-5)
    assert 0.0 < b.epsilon_lower <= b.epsilon_upper < float("inf")


def test_routes_with_unbounded_rounding_are_not_certified_and_say_why():
    """Issue 29: a bracket resting on a rounding no argument bounds is returned with certified False and the
    rounding named (numerics.pld_general._label). Since h29e no numerics.dominating route names one (every
    Laplace, with-replacement and symmetrised route is enclosed: tests/test_location_enclosure.py), so the label
    is exercised on a model that declares one; the Gaussian pairs stay certified."""
    from numerics import dominating, pld_general

    model = dominating.poisson_add_remove(Phase(0.01, 1.0, 10))["remove"]
    labelled = pld_general.StepModel(model.upper, model.lower, model.steps, model.scale, None, model.loss_floor,
                                     "a stated double-precision step")
    b = pld_general._label(numerics.epsilon(Schedule.constant(q=0.01, sigma=1.0, steps=10), 1e-5, rel_width=1e-2),
                           {"remove": [labelled]})
    assert b.certified is False and b.details["unbounded_rounding"] == ["a stated double-precision step"]
    assert "not certified" in b.details["note"]
    gaussian = numerics.epsilon(Schedule.constant(q=0.01, sigma=1.0, steps=10), 1e-5, rel_width=1e-2)
    assert gaussian.certified is True and "unbounded_rounding" not in gaussian.details
