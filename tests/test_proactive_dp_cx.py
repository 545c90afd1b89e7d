"""Tests of c(x) (seed 002 L478, L808-826, L896-936)."""
import math

import pytest
from hypothesis import given, strategies as st

from numerics.errors import InvalidParameter
from theory.proactive_dp import cx

pos = st.floats(min_value=1e-3, max_value=1e3, allow_nan=False)


@given(pos, pos, st.floats(1.0, 10.0), st.floats(1e-3, 1.0))
def test_c_is_the_largest_admissible_c0(x, r, rho, rho_hat):
    c0 = cx.c_of_x(x, r, rho, rho_hat)
    # admissible: both constraints of L812-814 hold at c0 (up to rounding) ...
    assert c0 <= 2 / (rho_hat * x) * (1 + 1e-12)
    assert r * rho / 2 * x * c0 ** 2 + c0 - 1 <= 1e-12
    # ... and a slightly larger c0 violates one of them
    bigger = c0 * (1 + 1e-6)
    assert bigger > 2 / (rho_hat * x) or r * rho / 2 * x * bigger ** 2 + bigger - 1 > 0
    assert c0 <= 1


@given(pos, st.floats(1.0, 10.0), st.floats(1e-3, 1.0), st.floats(-5, 5))
def test_branch_condition_41(r, rho, rho_hat, log_factor):
    thr = cx.branch_threshold(r, rho, rho_hat)
    x = thr * math.exp(log_factor)
    if abs(log_factor) > 1e-9:
        assert (cx.active_branch(x, r, rho, rho_hat) == "2/(rho_hat x)") == (x >= thr)


def test_l922_counterexample_recomputed_in_floats():
    # constant s = 26, N = 1e4, T = 1000, eps = 0.5, delta = 1e-4: Theorem B.2's bound at c_0 = 2/(rho-hat c_1)
    q, t, eps, big_l = 26 / 1e4, 1000, 0.5, math.log(1e4)
    s1, s2 = q, q * q / (1 - q)
    rho_hat = 1 - q
    c1 = eps / (t * s1 ** 2)
    c0 = 2 / (rho_hat * c1)
    bound = 2 / math.sqrt(c0) * math.sqrt(s2 * t * (eps + big_l)) / eps
    base = math.sqrt(2 * (eps + big_l) / eps)
    assert math.isclose(bound, math.sqrt(rho_hat * s2 / s1 ** 2) * base, rel_tol=1e-12)
    assert not math.isclose(bound, math.sqrt(rho_hat * s2 / s1) * base, rel_tol=1e-3)
    assert math.isclose(bound, base, rel_tol=1e-12)  # rho-hat = S1^2/S2 for constant s: (42)


def test_bad_input_raises():
    with pytest.raises(InvalidParameter):
        cx.c_of_x(-1.0, 1.0, 1.0, 1.0)
    with pytest.raises(InvalidParameter):
        cx.c_of_x(1.0, float("nan"), 1.0, 1.0)


def test_claims_recompute():
    assert {f.__name__: f().status for f in (cx.check_inversion, cx.check_branch_41, cx.check_eq42, cx.check_eq43,
                                               cx.check_bounded_decreasing)} == dict.fromkeys(
        ("check_inversion", "check_branch_41", "check_eq42", "check_eq43", "check_bounded_decreasing"), "holds")
    assert cx.check_sigma_l922().status == "holds-with-correction"
