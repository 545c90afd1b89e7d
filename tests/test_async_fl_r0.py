"""Seed 000 r0(sigma) (D.3.1 L1290-1338): the iteration, its fixed point, and the claims built on it."""
import math

import mpmath
import pytest
from hypothesis import given
from hypothesis import strategies as st

import theory.async_fl as af
from numerics.errors import InvalidParameter
from theory.async_fl import privacy as pv
from theory.async_fl import r0_sigma as rs


def test_public_entry_point_is_the_module_function():
    assert af.r0 is rs.r0


def test_printed_sigma3_rounds_and_sigma5_sigma8_do_not():
    # L1338 prints 0.0110 / 0.0202, L1702 prints 0.0247; the fixed points are 0.01099 / 0.02033 / 0.02480
    assert round(af.r0(3, 1), 4) == 0.0110
    assert round(af.r0(5, 1), 4) == 0.0203
    assert round(af.r0(8, 1), 4) == 0.0248


@pytest.mark.parametrize("bad", [0.0, -1.0, math.nan, math.inf])
def test_bad_sigma_raises(bad):
    with pytest.raises(InvalidParameter):
        af.r0(bad, 1)


@pytest.mark.parametrize("bad", [-0.5, math.nan])
def test_bad_p_raises(bad):
    with pytest.raises(InvalidParameter):
        af.r0(3, bad)


@given(sigma=st.floats(min_value=1.137, max_value=100.0), p=st.floats(min_value=0.0, max_value=1.0))
def test_fixed_point_properties(sigma, p):
    """At r0(sigma): r of (14) equals the target (24), u0, u1 < 1, and r0 <= (sqrt3-1)/16 (L1328-1336)."""
    with mpmath.workdps(50):
        x0, _ = rs.r0_iteration(sigma, p)
        assert pv.u0(x0, sigma) < 1 and pv.u1(x0, sigma) < 1
        assert x0 <= (mpmath.sqrt(3) - 1) / 16
        assert abs(pv.r_constant(x0, mpmath.mpf(sigma)) / rs.r_target(mpmath.mpf(p), x0, mpmath.mpf(sigma)) - 1) < mpmath.mpf(10) ** -30


@given(sigma=st.floats(min_value=1.137, max_value=50.0), p=st.floats(min_value=0.0, max_value=1.0))
def test_closed_form_b_at_gamma_zero(sigma, p):
    """B of L1084 at r0(sigma), gamma = 0, equals the closed form of L1094."""
    b, a = rs.b_at_r0(p, sigma, 0)
    assert float(b) == pytest.approx(float(rs.b_closed_form(mpmath.mpf(p))), rel=1e-12)
    assert float(a) == pytest.approx(float(b), rel=1e-12)


def test_gamma_dependent_r0_restores_closed_forms_and_printed_r0_does_not():
    gamma = 0.1
    b_fixed, a_fixed = rs.b_at_r0(1.0, 8.0, gamma, r0_gamma=gamma)
    cf = rs.b_closed_form(mpmath.mpf(1))
    assert float(b_fixed) == pytest.approx(float(cf), rel=1e-12)
    assert float(a_fixed) == pytest.approx(float(cf * (1 + gamma) ** (7 * 2 / 3)), rel=1e-12)
    b_printed, _ = rs.b_at_r0(1.0, 8.0, gamma)
    assert float(b_printed) < float(cf) * (1 - 1e-3)  # B shrinks: the printed K^- is too large for gamma > 0


def test_sigma_threshold_roots():
    v = rs.sigma_threshold()
    assert v.evidence["root_u1"] == pytest.approx(1.136545, abs=1e-6)
    assert v.evidence["root_u1"] <= 1.137


def test_constant_121_and_limit_values():
    assert 2 * math.sqrt((math.sqrt(3) - 1) / 2) == pytest.approx(1.2100007, abs=1e-7)
    assert float(rs.b_limit(1)) == pytest.approx(1.5 ** (2 / 3) / 2)


@pytest.mark.parametrize("fn", [rs.printed_values, rs.sigma_threshold, rs.iterate_bound, rs.fixed_point,
                                rs.closed_forms, rs.closed_forms_gamma, rs.limit, rs.constant_121])
def test_claims_compute_recorded_status(fn):
    from theory import ledger
    c = ledger.get(fn.claim_id)
    assert c.evaluate().status == c.recorded
