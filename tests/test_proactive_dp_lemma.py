"""Tests of the tail lemma (002 Lemma B.3 = 000 Lemma D.1) and of its proof replay."""
import math
from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, strategies as st

from numerics.errors import InvalidParameter
from theory import tail_lemma as tl


def _alpha_binomial(lam, sigma, q):
    """Independent oracle: ln A_{lam+1} from the binomial formula (notes seed-002 §3.5), exact q as mpf."""
    with mpmath.workdps(60):
        q = mpmath.mpf(q)
        a = mpmath.fsum(math.comb(lam + 1, k) * (1 - q) ** (lam + 1 - k) * q ** k
                        * mpmath.exp(mpmath.mpf(k * k - k) / (2 * mpmath.mpf(sigma) ** 2)) for k in range(lam + 2))
        return a


@pytest.mark.parametrize("lam,sigma,q", [(1, 2, 0.1), (5, 4, 0.01), (40, 10, 0.003), (120, 20, 0.01)])
def test_exact_tail_is_a_minus_first_two_terms(lam, sigma, q):
    tail = tl.exact_tail_13(lam, q, sigma)
    with mpmath.workdps(60):
        a = _alpha_binomial(lam, sigma, q)
        t2 = math.comb(lam + 1, 2) * tl.mixture_moment(2, q, sigma)
        assert mpmath.almosteq(tail, a - 1 - t2, rel_eps=mpmath.mpf(10) ** -30, abs_eps=mpmath.mpf(10) ** -45)


def test_first_moments_are_zero_one_and_second_is_closed_form():
    m = tl.mixture_moments(2, 0.05, 3)
    assert m[0] == 1
    assert abs(m[1]) < mpmath.mpf(10) ** -45
    with mpmath.workdps(60):
        assert mpmath.almosteq(m[2], mpmath.mpf(0.05) ** 2 * (mpmath.exp(mpmath.mpf(1) / 9) - 1), rel_eps=1e-40)


def test_variant_002_adds_the_216_over_215_hypothesis():
    lam, sigma, q, r0 = 1, Fraction(1076, 1075), Fraction(1, 10), Fraction(9, 10)
    u0, u1 = tl.tail_u(lam, sigma, r0)
    h000 = tl.lemma_b3_hypotheses(lam, sigma, q, r0, u0, u1, variant="000")
    h002 = tl.lemma_b3_hypotheses(lam, sigma, q, r0, u0, u1, variant="002")
    assert "sigma >= 216/215" not in h000
    assert h002["sigma >= 216/215"] is False  # 1076/1075 < 216/215
    assert set(h002) - set(h000) == {"sigma >= 216/215"}


def test_r_of_17_matches_its_definition_symbolically():
    import sympy as sp

    r0, u0, u1, s = sp.symbols("r0 u0 u1 sigma", positive=True)
    r = r0 * 2 ** 3 * (1 / (1 - u0) + 1 / (1 - u1) * sp.E ** 3 / s ** 3) * sp.exp(3 / s ** 2)
    pt = {r0: sp.Rational(1, 3), u0: sp.Rational(2, 5), u1: sp.Rational(1, 7), s: 5}
    with mpmath.workdps(60):
        got = tl.lemma_b3_r(mpmath.mpf(1) / 3, mpmath.mpf(2) / 5, mpmath.mpf(1) / 7, 5)
        assert mpmath.almosteq(got, mpmath.mpf(str(sp.N(r.subs(pt), 60))), rel_eps=1e-40)


@pytest.mark.parametrize("bad", [
    dict(lam=0, sigma=2, q=0.1, r0=0.5), dict(lam=1.5, sigma=2, q=0.1, r0=0.5),
    dict(lam=2, sigma=float("nan"), q=0.1, r0=0.5), dict(lam=2, sigma=2, q=1.0, r0=0.5),
    dict(lam=2, sigma=2, q=0.0, r0=0.5), dict(lam=2, sigma=-1, q=0.1, r0=0.5),
])
def test_bad_input_raises(bad):
    with pytest.raises(InvalidParameter):
        tl.lemma_b3_bound(bad["lam"], bad["sigma"], bad["q"], bad["r0"], 0.5, 0.5)


def test_u_at_least_one_is_rejected():
    with pytest.raises(InvalidParameter):
        tl.lemma_b3_r(0.3, 1.0, 0.2, 4)


@given(t=st.integers(3, 12), q=st.floats(1e-4, 0.3), sigma=st.floats(1.01, 30))
def test_moment_bound_14_dominates_exact_moment_direction_a(t, q, sigma):
    assert tl.mixture_moment(t, q, sigma) <= tl.moment_bound_14(t, q, sigma)
