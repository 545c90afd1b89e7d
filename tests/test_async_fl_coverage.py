"""Seed 000 item 8: does the privacy analysis cover Algorithm 2.1? (theory/async_fl/coverage.py)."""
import math

import mpmath
import pytest
from hypothesis import given, settings, strategies as st

from numerics.errors import InvalidParameter
from numerics.rdp import log_a
from theory.async_fl import coverage as cov
from theory.ledger import get


@pytest.mark.parametrize("claim_id", ["000.coverage.sampling", "000.coverage.recursion", "000.coverage.one-noisy-sum",
                                      "000.coverage.theorem-range"])
def test_claim_computes_its_recorded_status(claim_id):
    c = get(claim_id)
    assert c.evaluate().status == c.recorded


@settings(max_examples=10)
@given(N=st.integers(2, 10_000), sigma=st.floats(0.8, 20), lam=st.integers(1, 16))
def test_one_draw_with_replacement_is_the_poisson_mixture(N, sigma, lam):
    # s = 1: the count K ~ Bin(1, 1/N) is Bernoulli(1/N), so the moment must equal the accountant's log A.
    ours = cov.with_replacement_log_moment_lower(1, N, sigma, lam)
    ref = log_a(1 / N, sigma, lam + 1)
    # q = 1/N enters log_a as a float (relative rounding ~1e-16), hence the tolerance
    with mpmath.workdps(40):
        assert mpmath.almosteq(ours, ref, rel_eps=mpmath.mpf(10) ** -12, abs_eps=mpmath.mpf(10) ** -30)


def test_with_replacement_dominates_poisson_at_the_counterexample():
    p = cov.SAMPLING_POINT
    s, N, sigma, lam = p["s"], p["N"], p["sigma"], p["lam"]
    exact = cov.with_replacement_log_moment_lower(s, N, sigma, lam, k_max=s)
    # dominant term by hand: all lam+1 factors take k = s copies (the record drawn in every slot)
    a = lam + 1
    hand = a * s * math.log(1 / N) - a * s ** 2 / (2 * sigma ** 2) + (s * a) ** 2 / (2 * sigma ** 2)
    assert hand <= float(exact) < hand + 1e-6
    assert exact > log_a(s / N, sigma, a) * 1e6


def test_truncation_gives_lower_bounds():
    full = cov.with_replacement_log_moment_lower(16, 10 ** 3, 2.0, 6, k_max=16)
    for k_max in (1, 2, 4, 8):
        assert cov.with_replacement_log_moment_lower(16, 10 ** 3, 2.0, 6, k_max=k_max) <= full


def test_recursion_counterexample_by_hand():
    # f = 1 - cos(w - xi), eta = 1/2, added record at pi/2 drawn first, then three draws at pi.
    w, U = 0.0, 0.0
    for xi in (math.pi / 2, math.pi, math.pi, math.pi):
        g = math.sin(w - xi)
        U += g
        w -= 0.5 * g
    assert abs(U) > 1 and math.isclose(abs(U), get("000.coverage.recursion").evaluate().evidence["delta/C"], rel_tol=1e-12)


def test_convex_quadratic_small_step_keeps_sensitivity():
    # negative control: convex 1-D quadratic with eta L <= 2 -> |U - U'| <= C.
    for eta in (0.1, 0.5, 1.0, 1.9):
        d = cov.sensitivity_of_round(lambda w, xi: w - xi, xi_added=1, xi_other=0, s=6, eta=eta, C=1)
        assert d <= 1 + 1e-30


@pytest.mark.parametrize("call", [
    lambda: cov.with_replacement_log_moment_lower(10, 5, 2.0, 3),
    lambda: cov.with_replacement_log_moment_lower(1, 100, -1.0, 3),
    lambda: cov.with_replacement_log_moment_lower(1, 100, 2.0, 0),
])
def test_bad_input_raises(call):
    with pytest.raises(InvalidParameter):
        call()
