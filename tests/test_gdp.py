"""numerics.gdp: GDP delta(eps), its inverse, the trade-off function and the CLT mu."""
import math

import mpmath
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from numerics.errors import InvalidParameter
from numerics.gdp import (delta_gdp, delta_gdp_clt, epsilon_gdp, epsilon_gdp_clt, mu_clt_poisson,
                          mu_clt_schedule, mu_clt_uniform, tradeoff_gdp)
from numerics.schedule import Phase, Schedule
from tests.strategies import deltas, small_schedules

#: relative accuracy of delta_gdp in double precision, measured against 60-digit mpmath over the grid
#: below (worst 8e-12, at mu = 1e-4 where both terms nearly cancel).
DELTA_GDP_RTOL = 2e-11
MUS = [1e-4, 1e-3, 0.01, 0.1, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0]
EPSILONS = [0.0, 1e-6, 1e-3, 0.1, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 100.0, 300.0]
mus = st.floats(min_value=1e-3, max_value=20.0, allow_nan=False)


def delta_gdp_mp(epsilon, mu, dps=60):
    with mpmath.workdps(dps):
        e, m = mpmath.mpf(epsilon), mpmath.mpf(mu)
        return mpmath.ncdf(-e / m + m / 2) - mpmath.exp(e) * mpmath.ncdf(-e / m - m / 2)


@pytest.mark.parametrize("mu", MUS)
def test_delta_gdp_matches_mpmath(mu):
    checked = 0
    for eps in EPSILONS:
        exact = delta_gdp_mp(eps, mu)
        if exact < 1e-300:  # below the double range the float answer is 0 by design
            assert delta_gdp(eps, mu) < 1e-290
            continue
        assert abs(delta_gdp(eps, mu) - exact) <= DELTA_GDP_RTOL * exact
        checked += 1
    assert checked >= 3


@given(delta=deltas, mu=mus)
def test_epsilon_gdp_round_trip(delta, mu):
    eps = epsilon_gdp(delta, mu)
    if eps == 0.0:
        assert delta_gdp(0.0, mu) <= delta
    else:
        assert delta_gdp(eps, mu) <= delta  # on the private side
        assert delta_gdp(eps, mu) >= delta * (1 - 1e-9)  # and tight


@given(mu=mus, eps=st.floats(0.0, 50.0), bump=st.floats(1.01, 2.0))
def test_delta_gdp_monotone(mu, eps, bump):
    assert delta_gdp(eps * bump + 1e-3, mu) <= delta_gdp(eps, mu) <= delta_gdp(eps, mu * bump)


@pytest.mark.parametrize("mu", [0.3, 1.0, 3.0])
def test_tradeoff_properties(mu):
    alpha = np.linspace(0.0, 1.0, 2001)
    beta = tradeoff_gdp(alpha, mu)
    assert beta[0] == 1.0 and beta[-1] == 0.0
    assert np.all(np.diff(beta) <= 0) and np.all(beta <= 1 - alpha + 1e-15)
    np.testing.assert_allclose(tradeoff_gdp(beta, mu), alpha, atol=1e-12)  # G_mu is an involution


@pytest.mark.parametrize("mu,eps", [(0.5, 0.2), (1.0, 1.0), (2.0, 3.0)])
def test_tradeoff_and_delta_are_the_same_curve(mu, eps):
    """DRS Prop. 2.12: f-DP gives (eps, delta)-DP with delta = max_alpha [1 - f(alpha) - e^eps alpha];
    maximised here over a fine alpha grid (a lower estimate of the max) and by scipy (the argmax)."""
    alpha = np.geomspace(1e-12, 1.0, 200_001)
    grid_max = np.max(1 - tradeoff_gdp(alpha, mu) - math.exp(eps) * alpha)
    assert grid_max <= delta_gdp(eps, mu) * (1 + 1e-12)
    assert grid_max >= delta_gdp(eps, mu) * (1 - 1e-6)


def test_mu_clt_poisson_and_composition():
    mu = mu_clt_poisson(0.01, 1.0, 1000)
    assert mu == pytest.approx(0.01 * math.sqrt(1000 * (math.e - 1)), rel=1e-15)
    two = Schedule.from_phases([Phase(q=0.01, sigma=2.0, steps=500), Phase(q=0.02, sigma=1.0, steps=500)])
    expected = math.hypot(mu_clt_poisson(0.01, 2.0, 500), mu_clt_poisson(0.02, 1.0, 500))
    assert mu_clt_schedule(two) == pytest.approx(expected, rel=1e-15)
    # splitting a phase does not change mu (mu^2 adds over steps)
    split = Schedule.from_phases([Phase(q=0.01, sigma=2.0, steps=200), Phase(q=0.01, sigma=2.0, steps=300), Phase(q=0.02, sigma=1.0, steps=500)])
    assert mu_clt_schedule(split) == pytest.approx(mu_clt_schedule(two), rel=1e-14)
    replace = Schedule.from_phases([Phase(q=0.01, sigma=2.0, steps=500), Phase(q=0.02, sigma=1.0, steps=500)], adjacency="replace-one")
    assert mu_clt_schedule(replace) == 2 * mu_clt_schedule(two)


def test_mu_clt_uniform():
    # DRS Cor 5.4 evaluated naively in double precision where no cancellation occurs (sigma ~ 1)
    s = 1 / 0.8
    naive = math.sqrt(2) * 0.01 * math.sqrt(1000) * math.sqrt(
        math.exp(s * s) * 0.5 * math.erfc(-1.5 * s / math.sqrt(2)) + 3 * 0.5 * math.erfc(0.5 * s / math.sqrt(2)) - 2)
    assert mu_clt_uniform(0.01, 0.8, 1000) == pytest.approx(naive, rel=1e-13)
    # large sigma: tau^{-1} = sigma^{-1} + O(sigma^{-2}) (seed 002 L1218) -> mu ~ q sqrt(T) / sigma,
    # and the same limit as the Poisson form
    for sigma in (30.0, 100.0, 1000.0):
        target = 0.01 * math.sqrt(1000) / sigma
        assert abs(mu_clt_uniform(0.01, sigma, 1000) / target - 1) < 2 / sigma
        assert abs(mu_clt_poisson(0.01, sigma, 1000) / target - 1) < 1 / sigma


def test_clt_results_are_labelled_estimates():
    schedule = Schedule.constant(q=0.01, sigma=1.0, steps=1000)
    eps = epsilon_gdp_clt(schedule, 1e-5)
    assert not eps.certified and eps.method == "gdp-clt" and eps.epsilon_lower == eps.epsilon_upper > 0
    assert eps.details["mu"] == mu_clt_poisson(0.01, 1.0, 1000)
    back = delta_gdp_clt(schedule, eps.epsilon_upper)
    assert not back.certified and back.delta_upper == pytest.approx(1e-5, rel=1e-9)


@pytest.mark.parametrize("call,name", [
    (lambda: delta_gdp(-1.0, 1.0), "epsilon"), (lambda: delta_gdp(1.0, 0.0), "mu"),
    (lambda: epsilon_gdp(0.0, 1.0), "delta"), (lambda: epsilon_gdp(1e-5, float("nan")), "mu"),
    (lambda: tradeoff_gdp(1.5, 1.0), "alpha"), (lambda: mu_clt_poisson(0.0, 1.0, 10), "q"),
    (lambda: mu_clt_uniform(0.1, -1.0, 10), "sigma"), (lambda: mu_clt_poisson(0.1, 1.0, 2.5), "steps"),
    (lambda: epsilon_gdp_clt([(0.1, 1.0, 10)], 1e-5), "schedule"),
])
def test_bad_input(call, name):
    with pytest.raises(InvalidParameter, match=name):
        call()


@given(schedule=small_schedules, delta=deltas, epsilon=st.floats(0.0, 20.0))
def test_clt_is_never_labelled_certified(schedule, delta, epsilon):
    """The CLT mu is a limit, not a bound (claim numerics.gdp-clt.not-an-upper-bound in theory.accountants.oracles finds it
    below the certified PLD lower bound): every CLT result, in either adjacency, says so."""
    for b in (epsilon_gdp_clt(schedule, delta), delta_gdp_clt(schedule, epsilon)):
        assert b.certified is False and b.method == "gdp-clt" and b.adjacency == schedule.adjacency
        assert "not a bound" in b.details["note"]
