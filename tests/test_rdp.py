"""numerics.rdp: log-moments of the Poisson-subsampled Gaussian against independent oracles.

Oracles (STYLE 8): mpmath quadrature of the defining integral, the closed form of A_2, the Gaussian
closed form at q = 1, and the fractional-order series evaluated at integer orders.
"""
import math

import mpmath
import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from numerics.errors import InvalidParameter
from numerics.rdp import _log_a_frac, alpha_moment, log_a, rdp_epsilon, rdp_epsilon_order
from numerics.schedule import Phase, Schedule
from tests.strategies import fractional_orders, integer_orders, q_rates, sigmas, small_q_rates

#: digits of agreement required between log_a (default 50 digits) and the quadrature oracle
#: (run at 65 digits); the measured agreement is ~60 digits at every point below.
QUAD_DIGITS = 45
QUAD_DPS = 65


def quad_log_moment(q, sigma, order, *, reverse=False, dps=QUAD_DPS):
    r"""log E_{mu0}[(mu/mu0)^order] (or, reverse=True, log E_mu[(mu0/mu)^order]) by tanh-sinh quadrature.

    The integrand's mass lies in the Gaussians centred at 0..order (width sigma), so the real line is
    cut every sigma over [-12 sigma, order + 12 sigma] plus two infinite tails.
    """
    with mpmath.workdps(dps):
        q, s, a = mpmath.mpf(q), mpmath.mpf(sigma), mpmath.mpf(order)

        def integrand(z):
            ratio = 1 - q + q * mpmath.exp((2 * z - 1) / (2 * s * s))  # mu(z)/mu0(z)
            power = 1 - a if reverse else a  # E_mu[(mu0/mu)^a] = E_mu0[(mu/mu0)^(1-a)]
            return mpmath.npdf(z, 0, s) * ratio ** power

        lo, hi = -12 * s, max(a, 1) + 12 * s
        pieces = int(min(200, max(8, (hi - lo) / s)))
        cuts = [-mpmath.inf] + [lo + (hi - lo) * k / pieces for k in range(pieces + 1)] + [mpmath.inf]
        return mpmath.log(mpmath.quad(integrand, cuts))


def rel_err(x, y):
    return abs(x - y) / abs(y)


QUAD_POINTS = [  # (q, sigma, order): integer and fractional, small and large order, sigma up to 100
    (0.01, 1.0, 2), (0.01, 1.0, 2.5), (0.01, 1.0, 1.05), (0.5, 0.7, 1.5), (0.1, 4.0, 32.5),
    (0.01, 100.0, 256), (0.01, 100.0, 255.5), (0.001, 20.0, 256.5), (0.001, 100.0, 2),
]


@pytest.mark.parametrize("q,sigma,order", QUAD_POINTS)
def test_log_a_matches_quadrature(q, sigma, order):
    ours = log_a(q, sigma, order)
    oracle = quad_log_moment(q, sigma, order)
    assert rel_err(ours, oracle) < mpmath.mpf(10) ** -QUAD_DIGITS


@pytest.mark.parametrize("q,sigma,order", [(0.01, 1.0, 2), (0.2, 1.0, 3.5), (0.5, 0.7, 1.5),
                                           (0.01, 2.0, 32), (0.9, 1.0, 8), (0.05, 100.0, 256)])
def test_computed_direction_is_the_worse_one(q, sigma, order):
    """MTZ 2019 Thm 5: D_a(mu0 || mu) <= D_a(mu || mu0); checked by quadrature of the other direction."""
    forward = log_a(q, sigma, order)
    reverse = quad_log_moment(q, sigma, order, reverse=True, dps=40)
    assert reverse < forward


def test_a2_closed_form():
    """A_2 = 1 + q^2 (e^{1/sigma^2} - 1), by expanding the square (independent of the code's sum)."""
    with mpmath.workdps(60):
        for q, sigma in [(0.01, 1.0), (1e-4, 100.0), (0.3, 0.5)]:
            exact = mpmath.log1p(mpmath.mpf(q) ** 2 * mpmath.expm1(1 / mpmath.mpf(sigma) ** 2))
            assert rel_err(log_a(q, sigma, 2), exact) < mpmath.mpf(10) ** -48


@pytest.mark.parametrize("q,sigma,order", [(0.01, 1.0, 2), (0.01, 1.0, 7), (0.3, 2.0, 16),
                                           (0.001, 50.0, 64), (0.05, 0.8, 40)])
def test_fractional_series_at_integer_orders(q, sigma, order):
    """The two-series (fractional) formula evaluated at an integer order equals the binomial sum."""
    with mpmath.workdps(60):
        series = _log_a_frac(q, sigma, float(order), 50)
    assert rel_err(series, log_a(q, sigma, order)) < mpmath.mpf(10) ** -45


@pytest.mark.parametrize("sigma,order", [(1.0, 2), (0.5, 1024), (100.0, 256), (3.0, 7.25)])
def test_q_one_is_the_gaussian(sigma, order):
    with mpmath.workdps(60):
        exact = mpmath.mpf(order) * (order - 1) / (2 * mpmath.mpf(sigma) ** 2)
    assert rel_err(log_a(1.0, sigma, order), exact) < mpmath.mpf(10) ** -49  # to the returned 50 digits
    # and the general formulas approach it continuously as q -> 1
    assert rel_err(log_a(1 - 1e-12, sigma, order), exact) < 1e-9


@given(q=small_q_rates, sigma=sigmas, order=integer_orders, factor=st.floats(1.01, 2.0))
def test_monotone_in_q_sigma_order_integer(q, sigma, order, factor):
    base = log_a(q, sigma, order)
    assert log_a(min(1.0, q * factor), sigma, order) > base
    assert log_a(q, sigma * factor, order) < base
    assert log_a(q, sigma, order + 1) / order > base / (order - 1)  # D_alpha increases in alpha


@settings(max_examples=8)
@given(q=small_q_rates, sigma=st.floats(0.6, 20.0), order=st.floats(1.1, 40.0))
def test_monotone_fractional(q, sigma, order):
    base = log_a(q, sigma, order, dps=20)
    assert log_a(q, sigma * 1.1, order, dps=20) < base
    assert log_a(q, sigma, order + 0.25, dps=20) / (order - 0.75) > base / (order - 1)


def test_alpha_moment_index_shift():
    assert alpha_moment(0.01, 2.0, 31) == log_a(0.01, 2.0, 32)
    assert alpha_moment(0.01, 2.0, 0.5) == log_a(0.01, 2.0, 1.5)
    with pytest.raises(InvalidParameter, match="lam"):
        alpha_moment(0.01, 2.0, 0)


def test_rdp_epsilon_composes_and_rounds_up():
    orders = [1.5, 2, 8, 256]
    one = Schedule.constant(q=0.01, sigma=1.5, steps=1)
    many = Schedule.constant(q=0.01, sigma=1.5, steps=1000)
    two_phase = Schedule.from_phases([Phase(q=0.01, sigma=1.5, steps=400), Phase(q=0.02, sigma=1.0, steps=600)])
    swapped = Schedule.from_phases([Phase(q=0.02, sigma=1.0, steps=600), Phase(q=0.01, sigma=1.5, steps=400)])
    np.testing.assert_allclose(rdp_epsilon(many, orders), 1000 * rdp_epsilon(one, orders), rtol=1e-13)
    assert np.array_equal(rdp_epsilon(two_phase, orders), rdp_epsilon(swapped, orders))
    for order, value in zip(orders, rdp_epsilon(two_phase, orders)):
        exact = rdp_epsilon_order(two_phase, order)
        assert mpmath.mpf(value) >= exact  # rounded up, never down
        assert mpmath.mpf(math.nextafter(value, 0)) < exact  # by at most one ulp


@settings(max_examples=8)
@given(phase=st.builds(Phase, q=small_q_rates, sigma=st.floats(0.6, 20.0), steps=st.integers(1, 2000)),
       order=st.sampled_from([1.5, 2, 3, 8, 20, 64]))
def test_replace_one_is_never_below_add_remove(phase, order):
    add_remove = rdp_epsilon(Schedule((phase,)), [order])
    replace_one = rdp_epsilon(Schedule((phase,), adjacency="replace-one"), [order])
    assert replace_one[0] >= add_remove[0]


@pytest.mark.parametrize("args,name", [((0.0, 1.0, 2), "q"), ((1.5, 1.0, 2), "q"), ((0.1, 0.0, 2), "sigma"),
                                       ((0.1, float("nan"), 2), "sigma"), ((0.1, 1.0, 1.0), "order"),
                                       ((0.1, 1.0, float("inf")), "order")])
def test_bad_input_raises(args, name):
    with pytest.raises(InvalidParameter, match=name):
        log_a(*args)


def test_rdp_epsilon_bad_input():
    with pytest.raises(InvalidParameter, match="orders"):
        rdp_epsilon(Schedule.constant(q=0.1, sigma=1.0, steps=10), [])
    with pytest.raises(InvalidParameter, match="schedule"):
        rdp_epsilon([(0.1, 1.0, 10)], [2])


@pytest.mark.slow
@pytest.mark.parametrize("q", [1e-4, 0.01, 0.3, 0.7, 0.99, 0.9999])
def test_fractional_series_at_integer_orders_scan(q):
    """Exhaustive version of test_fractional_series_at_integer_orders over q, sigma, order."""
    for sigma in (0.5, 1.0, 5.0, 100.0):
        for order in (2, 3, 17, 128, 400):
            with mpmath.workdps(45):
                series = _log_a_frac(q, sigma, float(order), 25)
            assert rel_err(series, log_a(q, sigma, order, dps=25)) < mpmath.mpf(10) ** -20


@pytest.mark.slow
@pytest.mark.parametrize("q,sigma,order", [(0.99, 0.5, 100.5), (0.9999, 1.0, 3.5), (0.3, 5.0, 399.5),
                                           (0.7, 1.0, 1.001), (0.01, 1.0, 3 + 1e-9), (1e-4, 0.5, 50.5),
                                           (0.5, 2.0, 1000.5), (0.01, 0.5, 64.5)])
def test_fractional_extremes_match_quadrature(q, sigma, order):
    ours = log_a(q, sigma, order, dps=30)
    assert rel_err(ours, quad_log_moment(q, sigma, order, dps=40)) < mpmath.mpf(10) ** -28


@pytest.mark.slow
@settings(max_examples=40)
@given(q=q_rates, sigma=sigmas, order=fractional_orders)
def test_fractional_orders_match_quadrature_sampled(q, sigma, order):
    """Sampled version of the quadrature check over the shared domain (quadrature cost bounded)."""
    assume(q < 1.0 and not float(order).is_integer() and (order + 24 * sigma) / sigma <= 200)
    ours = log_a(q, sigma, order, dps=30)
    assert rel_err(ours, quad_log_moment(q, sigma, order, dps=45)) < mpmath.mpf(10) ** -25


@pytest.mark.parametrize("dps", [5, 8, 15])
def test_rdp_epsilon_at_low_precision_is_still_an_upper_bound(dps):
    """``rdp_epsilon(..., dps=d)`` knows the curve to about d digits; the float it returns must bound the
    exact (50-digit) value from above, not only the d-digit one (rounding the d-digit value up to the
    next float was below the exact value at 20 of these 36 points with dps=5)."""
    orders = [2, 3.5, 8, 33]
    for q in (0.01, 0.05, 0.2):
        for sigma in (0.7, 1.3, 4.0):
            schedule = Schedule.constant(q=q, sigma=sigma, steps=777)
            for order, value in zip(orders, rdp_epsilon(schedule, orders, dps=dps)):
                assert mpmath.mpf(value) >= rdp_epsilon_order(schedule, order)
