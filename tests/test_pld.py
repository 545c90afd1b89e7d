"""Certified PLD accountant (numerics.pld): bounds against independent oracles and the truth's properties.

Oracles: the exact Gaussian mechanism at q = 1 (Balle and Wang 2018, Thm. 8: delta(eps) =
Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2) with mu = sqrt(T)/sigma, solved with scipy's brentq),
its trade-off curve G_mu (Dong, Roth, Su 2022, eq. (2)), the RDP upper bound (numerics.conversions), and
finer runs of the accountant itself. Properties of the true epsilon (monotone in sigma, T, q, delta;
independent of phase order) must be consistent with the certified bounds.
"""
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import brentq
from scipy.stats import norm

from numerics import pld
from numerics.errors import InvalidParameter
from numerics.schedule import Phase, Schedule
from tests.strategies import moderate_sigmas, phases, pld_deltas, small_q_rates

FAST = 1e-2  # relative width used by the property tests (speed); the oracle tests use the default


def gaussian_delta(eps, mu):
    return norm.cdf(-eps / mu + mu / 2) - math.exp(eps) * norm.cdf(-eps / mu - mu / 2)


def gaussian_eps(delta, mu):
    return brentq(lambda e: gaussian_delta(e, mu) - delta, 0.0, 500.0, xtol=1e-14, rtol=1e-14)


def assert_bracket(b, truth):
    assert b.epsilon_lower <= truth <= b.epsilon_upper, (b.epsilon_lower, truth, b.epsilon_upper)


@pytest.mark.parametrize("sigma,steps,delta", [(0.7, 1, 1e-5), (1.0, 1, 1e-3), (5.0, 10, 1e-5),
                                               (2.0, 50, 1e-6)])
def test_q1_matches_exact_gaussian_mechanism(sigma, steps, delta):
    b = pld.epsilon_pld(Schedule.constant(q=1.0, sigma=sigma, steps=steps), delta)
    assert_bracket(b, gaussian_eps(delta, math.sqrt(steps) / sigma))
    assert b.relative_width <= 1e-3


def test_q1_delta_bounds_match_exact_gaussian():
    b = pld.delta_pld(Schedule.constant(q=1.0, sigma=1.5, steps=3), 2.0)
    assert b.delta_lower <= gaussian_delta(2.0, math.sqrt(3) / 1.5) <= b.delta_upper
    assert (b.delta_upper - b.delta_lower) / b.delta_upper <= 1e-3


def test_q1_tradeoff_brackets_g_mu():
    alphas = np.array([0.0, 1e-5, 1e-3, 0.05, 0.3, 0.7, 0.99])
    lo, up = pld.tradeoff_pld(Schedule.constant(q=1.0, sigma=2.0, steps=4), alphas)
    exact = norm.cdf(norm.ppf(1 - alphas) - 1.0)
    assert np.all(lo <= exact + 1e-15) and np.all(exact <= up + 1e-15)
    assert np.max(up - lo) < 1e-3


def test_replace_one_brackets_exact_gaussian_at_q1():
    """At q = 1 replace-one is the Gaussian mechanism with sensitivity 2: mu = 2 sqrt(T) / sigma."""
    b = pld.epsilon_pld(Schedule.constant(q=1.0, sigma=3.0, steps=2, adjacency="replace-one"), 1e-5)
    assert_bracket(b, gaussian_eps(1e-5, 2 * math.sqrt(2) / 3.0))
    assert b.adjacency == "replace-one" and b.relative_width <= 1e-3


def test_replace_one_delta_brackets_exact_gaussian_at_q1():
    """delta_pld under replace-one: the +-1 pair at q = 1 is N(1, 9) against N(-1, 9), twice composed."""
    b = pld.delta_pld(Schedule.constant(q=1.0, sigma=3.0, steps=2, adjacency="replace-one"), 1.0)
    assert b.delta_lower <= gaussian_delta(1.0, 2 * math.sqrt(2) / 3.0) <= b.delta_upper


def test_replace_one_lower_exceeds_add_remove_on_subsampled_case():
    s = dict(q=0.01, sigma=1.0, steps=200)
    rep = pld.epsilon_pld(Schedule.constant(**s, adjacency="replace-one"), 1e-5, rel_width=FAST)
    ar = pld.epsilon_pld(Schedule.constant(**s), 1e-5, rel_width=FAST)
    assert rep.epsilon_lower <= rep.epsilon_upper
    assert rep.epsilon_upper >= ar.epsilon_lower


@pytest.mark.parametrize("q,sigma,steps,delta", [(0.01, 1.0, 1000, 1e-5), (0.1, 4.0, 1000, 1e-5),
                                                 (0.05, 0.8, 300, 1e-6)])
def test_pld_upper_below_rdp_bound(q, sigma, steps, delta):
    from numerics import conversions
    s = Schedule.constant(q=q, sigma=sigma, steps=steps)
    b = pld.epsilon_pld(s, delta)
    assert b.epsilon_lower <= b.epsilon_upper <= conversions.epsilon_rdp(s, delta).epsilon_upper
    assert b.relative_width <= 1e-3


def test_two_phase_case_meets_target_and_reports_details():
    s = Schedule.from_phases([Phase(q=0.01, sigma=2.0, steps=500), Phase(q=0.02, sigma=1.0, steps=500)])
    b = pld.epsilon_pld(s, 1e-5)
    assert 0 < b.epsilon_lower <= b.epsilon_upper and b.relative_width <= 1e-3
    assert b.certified and b.method == "pld" and b.adjacency == "add-remove"
    assert {"h", "tail", "refinements", "seconds", "directions"} <= set(b.details)


def test_refinement_meets_each_target_and_finer_bracket_overlaps():
    s = Schedule.constant(q=0.02, sigma=1.2, steps=500)
    coarse = pld.epsilon_pld(s, 1e-5, rel_width=3e-2)
    fine = pld.epsilon_pld(s, 1e-5, rel_width=1e-4)
    assert coarse.relative_width <= 3e-2 and fine.relative_width <= 1e-4
    assert coarse.epsilon_lower <= fine.epsilon_lower and fine.epsilon_upper <= coarse.epsilon_upper * (1 + 1e-12)


def test_unreachable_target_raises_clearly(monkeypatch):
    monkeypatch.setattr(pld, "_initial_step", lambda *args, **kw: 0.05)  # a far too coarse first grid
    with pytest.raises(pld.AccuracyNotReached, match="after 0 refinements"):
        pld.epsilon_pld(Schedule.constant(q=0.01, sigma=1.0, steps=100), 1e-5, max_refinements=0)


def test_grid_budget_is_refused_before_allocation():
    s = Schedule.constant(q=0.01, sigma=1.0, steps=100)
    steps = [(pld.discretise_pessimistic(pld.MixturePair(0.01, 1.0, "remove"), 1e-3, 1e-20), 100)]
    with pytest.raises(pld.AccuracyNotReached, match="PLD_MAX_GRID_POINTS"):
        pld.compose(steps, 1e-3, 1e-12, max_points=100)
    with pytest.raises(pld.AccuracyNotReached, match="PLD_MAX_GRID_POINTS"):
        pld._check_budget(pld._pairs(s, "remove"), 1e-9, 1e-20)


def test_coarse_grid_at_large_T_still_brackets_the_fine_result():
    """T = 1e5 (bench case C2): a grid 8x coarser than needed gives a wide but still valid bracket,
    containing the bracket of a fine run (coarse grids are where rounding errors pile up T-fold)."""
    s = Schedule.constant(q=0.01, sigma=1.0, steps=100_000)
    fine = pld.epsilon_pld(s, 1e-5, rel_width=1e-4)
    h = 8 * fine.details["h"]
    b = pld._compose_direction(s, "remove", h, 1e-14)
    low, up = pld._eps_lower(b.lower, 1e-5), pld._eps_upper(b.upper, 1e-5)
    assert low <= fine.epsilon_lower <= fine.epsilon_upper <= up
    assert (up - low) / up > 10 * fine.relative_width  # the coarse grid really is coarse


def test_delta_and_epsilon_bounds_are_consistent():
    s = Schedule.constant(q=0.01, sigma=1.0, steps=1000)
    e = pld.epsilon_pld(s, 1e-5)
    at_upper = pld.delta_pld(s, e.epsilon_upper)
    at_lower = pld.delta_pld(s, e.epsilon_lower)
    assert at_upper.delta_lower <= 1e-5 <= at_lower.delta_upper
    assert at_upper.delta_lower <= at_upper.delta_upper


@settings(max_examples=4)
@given(phase=phases, delta=pld_deltas, factor=st.floats(1.05, 3.0))
def test_bounds_consistent_with_monotonicity_in_sigma(phase, delta, factor):
    a = pld.epsilon_pld(Schedule((phase,)), delta, rel_width=FAST)
    b = pld.epsilon_pld(Schedule((Phase(phase.q, phase.sigma * factor, phase.steps),)), delta, rel_width=FAST)
    assert a.epsilon_lower <= a.epsilon_upper and b.epsilon_lower <= b.epsilon_upper
    assert b.epsilon_lower <= a.epsilon_upper


@settings(max_examples=4)
@given(phase=phases, delta=pld_deltas, extra=st.integers(1, 2000))
def test_bounds_consistent_with_monotonicity_in_steps(phase, delta, extra):
    a = pld.epsilon_pld(Schedule((phase,)), delta, rel_width=FAST)
    b = pld.epsilon_pld(Schedule((Phase(phase.q, phase.sigma, phase.steps + extra),)), delta, rel_width=FAST)
    assert a.epsilon_lower <= b.epsilon_upper


@settings(max_examples=4)
@given(q=small_q_rates, sigma=moderate_sigmas, delta=pld_deltas, factor=st.floats(1.05, 4.0))
def test_bounds_consistent_with_monotonicity_in_q(q, sigma, delta, factor):
    a = pld.epsilon_pld(Schedule.constant(q=q, sigma=sigma, steps=200), delta, rel_width=FAST)
    b = pld.epsilon_pld(Schedule.constant(q=min(1.0, q * factor), sigma=sigma, steps=200), delta, rel_width=FAST)
    assert a.epsilon_lower <= b.epsilon_upper


@settings(max_examples=4)
@given(phase=phases, delta=st.floats(1e-8, 1e-3), factor=st.floats(2.0, 100.0))
def test_bounds_consistent_with_monotonicity_in_delta(phase, delta, factor):
    s = Schedule((phase,))
    small, large = pld.epsilon_pld(s, delta, rel_width=FAST), pld.epsilon_pld(s, delta * factor, rel_width=FAST)
    assert large.epsilon_lower <= small.epsilon_upper


@settings(max_examples=4)
@given(first=phases, second=phases, delta=pld_deltas)
def test_phase_order_does_not_matter(first, second, delta):
    ab = pld.epsilon_pld(Schedule((first, second)), delta, rel_width=FAST)
    ba = pld.epsilon_pld(Schedule((second, first)), delta, rel_width=FAST)
    assert max(ab.epsilon_lower, ba.epsilon_lower) <= min(ab.epsilon_upper, ba.epsilon_upper)


@pytest.mark.parametrize("call,name", [
    (lambda s: pld.epsilon_pld(s, 0.0), "delta"),
    (lambda s: pld.epsilon_pld(s, 1.0), "delta"),
    (lambda s: pld.epsilon_pld(s, float("nan")), "delta"),
    (lambda s: pld.epsilon_pld(s, 1e-5, rel_width=0.0), "rel_width"),
    (lambda s: pld.epsilon_pld(s, 1e-5, rel_width=True), "rel_width"),
    (lambda s: pld.epsilon_pld((0.01, 1.0, 10), 1e-5), "schedule"),
    (lambda s: pld.delta_pld(s, -1.0), "epsilon"),
    (lambda s: pld.tradeoff_pld(s, [0.5, 1.5]), "alphas"),
])
def test_bad_input_raises_invalid_parameter(call, name):
    with pytest.raises(InvalidParameter, match=name):
        call(Schedule.constant(q=0.01, sigma=1.0, steps=10))


@pytest.mark.slow
@pytest.mark.parametrize("q,sigma,steps,delta", [(0.01, 1.0, 100_000, 1e-5), (0.001, 0.8, 50_000, 1e-6),
                                                 (0.001, 20.0, 50_000, 1e-5)])
def test_slow_large_T_cases_bracket_a_much_finer_run(q, sigma, steps, delta):
    s = Schedule.constant(q=q, sigma=sigma, steps=steps)
    b = pld.epsilon_pld(s, delta)
    fine = pld.epsilon_pld(s, delta, rel_width=1e-5)
    assert b.epsilon_lower <= fine.epsilon_lower <= fine.epsilon_upper <= b.epsilon_upper
