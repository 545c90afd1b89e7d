"""The certificates' margins are the claims' margins: ball enclosures against theory.lemmas.tail_lemma (mpmath) at points."""
import math

import mpmath
import pytest
from flint import arb
from hypothesis import given, settings, strategies as st

from numerics.certify import _ball
from theory.async_fl import certified as c000
from theory.lemmas import certificates as tc
from theory.lemmas import mixture_moments as mm
from theory.lemmas import tail_lemma as tl

DPS = 50


def _contains(ball, value, rel=1e-25) -> bool:
    tol = mpmath.mpf(rel) * (1 + abs(value))
    return mpmath.mpf(ball.lower().str(40, radius=False)) - tol <= value <= mpmath.mpf(ball.upper().str(40, radius=False)) + tol


def _q(lam, sigma, tau):
    with mpmath.workdps(DPS):
        return mpmath.mpf(tau) * mpmath.exp(-lam / mpmath.mpf(sigma) ** 2) / sigma


@settings(max_examples=20)
@given(st.integers(1, 60), st.floats(216 / 215, 50.0), st.floats(0.01, 1.0))
def test_lemma_b3_margin_is_the_scaled_margin_of_the_tail_lemma(lam, sigma, tau):
    q = _q(lam, sigma, tau)
    with mpmath.workdps(DPS):
        u0, u1 = tl.tail_u(lam, sigma, q * sigma)
        if u0 >= 1 or u1 >= 1:
            return  # outside the hypotheses: the margin uses one-sided constants there
        exact = tl.lemma_b3_margin(lam, sigma, q, q * sigma) * sigma ** 2 / q ** 2
    ball = tc.lemma_b3_margin(lam, arb(sigma), arb(tau))
    assert _contains(ball, exact, rel=1e-12)  # tail_lemma works at MP_DPS digits


@pytest.mark.parametrize("tau_box, two_sided", [((0.1, 0.2), True), ((0.5, 0.75), False)])
def test_lemma_b3_margin_over_a_box_encloses_its_points(tau_box, two_sided):
    """Inside the hypotheses (U_0, U_1 certainly < 1) the ball is two-sided; on a box straddling U_1 = 1 it is
    a lower bound (r/r0 taken at the lower end of u_j's ball, see theory.lemmas.certificates.r_over_r0)."""
    lam, sig_box = 7, (2.0, 2.25)
    inside = all(bool(h > 0) for h in tc.lemma_b3_constraints(lam, _ball(*sig_box), _ball(*tau_box)))
    assert inside == two_sided
    ball = tc.lemma_b3_margin(lam, _ball(*sig_box), _ball(*tau_box))
    for s in (sig_box[0], sum(sig_box) / 2, sig_box[1]):
        for t in (tau_box[0], sum(tau_box) / 2, tau_box[1]):
            point = tc.lemma_b3_margin(lam, arb(s), arb(t))
            assert ball.contains(point) if two_sided else bool(ball.lower() <= point.lower())


@settings(max_examples=10)
@given(st.integers(2, 25), st.floats(216 / 215, 20.0), st.floats(0.05, 1.0))
def test_tail_13_margin_matches_the_exact_tail(lam, sigma, tau):
    q = _q(lam, sigma, tau)
    with mpmath.workdps(DPS):
        u0, u1 = tl.tail_u(lam, sigma, q * sigma)
        if u0 >= 1 or u1 >= 1:
            return
        exact = (tl.tail_bound(lam, sigma, q, q * sigma, u0, u1) - mm.exact_tail_13(lam, q, sigma)) / q ** 3
    assert _contains(tc.tail_13_margin(lam, arb(sigma), arb(tau)), exact, rel=1e-10)


@pytest.mark.parametrize("t, sigma", [(3, 1.01), (5, 2.0), (12, 8.0), (30, 50.0)])
def test_moment_14_margin_matches_the_tail_lemma(t, sigma):
    q = mpmath.mpf(2) ** -20  # near 0: the margin at q = 0 is its infimum over q
    with mpmath.workdps(DPS):
        exact = (mm.moment_bound_14(t, q, sigma) - mm.mixture_moment(t, q, sigma)) / q ** t
    at_q0 = tc.moment_14_margin_at_q0(t, arb(sigma))
    assert float(at_q0.lower()) <= float(exact) * (1 + 1e-12)
    assert _contains(tc.moment_14_margin(t, arb(sigma), arb(2.0 ** -20)), exact, rel=1e-10)


def test_region_scale_reads_the_environment(monkeypatch):
    monkeypatch.setenv("DPV_CERTIFY_SCALE", "full")
    assert tc.region_scale()["lam_max"] == tc.SCALES["full"]["lam_max"]
    monkeypatch.setenv("DPV_CERTIFY_SCALE", "ci")
    assert tc.region_scale()["name"] == "ci"
    monkeypatch.setenv("DPV_CERTIFY_SCALE", "huge")
    with pytest.raises(ValueError, match="DPV_CERTIFY_SCALE"):
        tc.region_scale()


def test_coordinates_imply_the_lemma_hypotheses_they_replace():
    """q = tau q_cap with tau <= 1 gives lam <= sigma^2 ln(1/(q sigma)), r0 = q sigma < 1 and q <= 215/216."""
    for lam, sigma, tau in [(1, 216 / 215, 1.0), (40, 3.0, 1.0), (400, 100.0, 0.999)]:
        q = _q(lam, sigma, tau)
        with mpmath.workdps(DPS):
            assert lam <= sigma ** 2 * mpmath.log(1 / (q * sigma)) * (1 + mpmath.mpf(10) ** -40)
            assert q * sigma < 1 and q <= mpmath.mpf(215) / 216
    assert math.isclose(tc.SIGMA_MIN_002, 216 / 215)


@pytest.mark.parametrize("t, m0", [(math.e ** 2, 0.0), (10.0, 10.0), (1e6, 7.5e5), (1e12, 0.25)])
def test_sqrt_bound_margin_is_the_scaled_difference_of_squares(t, m0):
    with mpmath.workdps(DPS):
        t_, m_ = mpmath.mpf(t), mpmath.mpf(m0)
        lt = mpmath.log(t_)
        left = (t_ + m_) / (4 * mpmath.log(t_ + m_))
        right = t_ / lt * (1 - 1 / lt)
        exact = (right - left) * lt / t_
    ball = c000.sqrt_bound_margin(arb(1) / arb(t).log(), arb(m0) / arb(t))
    assert _contains(ball, exact, rel=1e-14)
