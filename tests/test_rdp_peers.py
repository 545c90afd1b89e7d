"""Cross-check of numerics.rdp / numerics.conversions against dp_accounting's RDP accountant (a peer, used
here as an oracle only).

dp_accounting's own error: ``_compute_log_a`` works in float64 log space. At integer orders it is a
finite binomial sum (relative error ~1e-14 at sigma ~ 1, up to ~1e-9 at sigma = 100 where log A ~ 1e-4
is formed by log-space subtraction). At fractional orders it truncates the MTZ series once both terms
fall below exp(-30), which ignores the polynomially decaying alternating tail: it is off by up to a few
percent at orders close to 1 (4% at q=0.01, sigma=1, order 1.5; measured below and refereed by quadrature).
"""
import math

import dp_accounting
import mpmath
import pytest
from dp_accounting.rdp import rdp_privacy_accountant as peer_rdp

from numerics.conversions import epsilon_rdp
from numerics.rdp import log_a
from numerics.schedule import Schedule
from tests.test_rdp import quad_log_moment

pytestmark = pytest.mark.peers

#: dp_accounting's float64 integer-order error (see module docstring)
PEER_INT_RTOL = 1e-8


@pytest.mark.parametrize("q,sigma,order", [(0.01, 1.0, 2), (0.01, 1.0, 8), (0.1, 4.0, 32), (0.001, 20.0, 320),
                                           (0.01, 100.0, 256), (0.5, 0.7, 64), (0.02, 0.8, 3)])
def test_integer_orders_agree_with_dp_accounting(q, sigma, order):
    ours = float(log_a(q, sigma, order))
    theirs = peer_rdp._compute_log_a(q, sigma, order)
    assert math.isclose(ours, theirs, rel_tol=PEER_INT_RTOL)


@pytest.mark.parametrize("q,sigma,order", [(0.01, 1.0, 1.5), (0.01, 1.0, 2.1), (0.01, 1.0, 7.8),
                                           (0.1, 4.0, 6.3), (0.01, 100.0, 255.5)])
def test_fractional_orders_quadrature_referees_disagreements(q, sigma, order):
    """Ours agrees with the quadrature oracle to 30 digits; the peer's truncated series is never below
    ours by more than its float error (it errs on the conservative side)."""
    ours = log_a(q, sigma, order)
    oracle = quad_log_moment(q, sigma, order, dps=45)
    assert abs(ours - oracle) < mpmath.mpf(10) ** -30 * abs(oracle)
    theirs = peer_rdp._compute_log_a(q, sigma, order)
    assert theirs >= float(ours) * (1 - PEER_INT_RTOL)


def test_worst_fractional_discrepancy_is_the_documented_one():
    ours, theirs = float(log_a(0.01, 1.0, 1.5)), peer_rdp._compute_log_a(0.01, 1.0, 1.5)
    assert 0.01 < theirs / ours - 1 < 0.1  # the few-percent gap stated in the module docstring


@pytest.mark.parametrize("q,sigma,steps,delta", [(0.01, 1.0, 1000, 1e-5), (0.1, 4.0, 1000, 1e-5),
                                                 (0.001, 20.0, 50_000, 1e-5), (0.01, 1.0, 100_000, 1e-5)])
def test_epsilon_agrees_on_integer_grid(q, sigma, steps, delta):
    """Same integer orders, same (improved) conversion: the epsilons agree to the peer's float error."""
    orders = list(range(2, 33)) + [40, 48, 64, 96, 128, 192, 256, 320, 384, 512]
    accountant = dp_accounting.rdp.RdpAccountant(orders=orders)
    accountant.compose(dp_accounting.PoissonSampledDpEvent(q, dp_accounting.GaussianDpEvent(sigma)), steps)
    theirs, their_order = accountant.get_epsilon_and_optimal_order(delta)
    ours = epsilon_rdp(Schedule.constant(q=q, sigma=sigma, steps=steps), delta, orders=orders)
    assert ours.details["order"] == their_order
    assert math.isclose(ours.epsilon_upper, theirs, rel_tol=PEER_INT_RTOL)


@pytest.mark.parametrize("q,sigma,steps,delta", [(0.01, 1.0, 1000, 1e-5), (0.1, 4.0, 1000, 1e-5),
                                                 (0.2, 0.8, 50, 1e-6)])
def test_rdp_upper_is_not_below_prv_accountant_lower(q, sigma, steps, delta):
    """Soundness against a second peer: prv_accountant's lower estimate (its stated eps_error of 0.01 and
    delta_error of delta/1000 bracket the truth) must not exceed our RDP upper bound."""
    import prv_accountant as prv
    accountant = prv.PRVAccountant(prvs=[prv.PoissonSubsampledGaussianMechanism(q, sigma)],
                                   max_self_compositions=[steps], eps_error=0.01, delta_error=delta / 1000)
    lower, _, _ = accountant.compute_epsilon(delta=delta, num_self_compositions=[steps])
    assert epsilon_rdp(Schedule.constant(q=q, sigma=sigma, steps=steps), delta).epsilon_upper >= lower
