"""Tests of the tail lemma (002 Lemma B.3 = 000 Lemma D.1) and of its proof replay."""
import math
from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, strategies as st

from numerics.errors import InvalidParameter
from theory.lemmas import mixture_moments as mm
from theory.lemmas import tail_lemma as tl


def _alpha_binomial(lam, sigma, q):
    """Independent oracle: ln A_{lam+1} from the binomial formula (notes seed-002 §3.5), exact q as mpf."""
    with mpmath.workdps(60):
        q = mpmath.mpf(q)
        a = mpmath.fsum(math.comb(lam + 1, k) * (1 - q) ** (lam + 1 - k) * q ** k
                        * mpmath.exp(mpmath.mpf(k * k - k) / (2 * mpmath.mpf(sigma) ** 2)) for k in range(lam + 2))
        return a


@pytest.mark.parametrize("lam,sigma,q", [(1, 2, 0.1), (5, 4, 0.01), (40, 10, 0.003), (120, 20, 0.01)])
def test_exact_tail_is_a_minus_first_two_terms(lam, sigma, q):
    tail = mm.exact_tail_13(lam, q, sigma)
    with mpmath.workdps(60):
        a = _alpha_binomial(lam, sigma, q)
        t2 = math.comb(lam + 1, 2) * mm.mixture_moment(2, q, sigma)
        assert mpmath.almosteq(tail, a - 1 - t2, rel_eps=mpmath.mpf(10) ** -30, abs_eps=mpmath.mpf(10) ** -45)


def test_first_moments_are_zero_one_and_second_is_closed_form():
    m = mm.mixture_moments(2, 0.05, 3)
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
    assert mm.mixture_moment(t, q, sigma) <= mm.moment_bound_14(t, q, sigma)


# --- proof replay (theory.proactive_dp.lemma_b3) ---------------------------------------------------

from theory.proactive_dp import lemma_b3 as lb  # noqa: E402
from tests.strategies import lemma_b3_points  # noqa: E402


def test_exact_tail_two_ways_agree():
    for lam, sigma, q in [(3, 2.0, 0.05), (50, 8.0, 0.01), (200, 20.0, 0.005)]:
        with mpmath.workdps(60):
            direct, via_a = mm.exact_tail_13(lam, q, sigma), mm.exact_tail_13_from_a(lam, q, sigma)
            assert mpmath.almosteq(direct, via_a, rel_eps=mpmath.mpf(10) ** -25)


def test_step_634_counterexample_recomputed():
    """Counterexample to L634: sigma = 20, r0 = 0.36, q = r0/sigma, lam = 400 satisfies every hypothesis
    of the lemma, yet x_{lam+1} = 2 lam q e^{lam/(2 sigma^2)}/((1-q) sigma) exceeds U_0(lam)."""
    sigma, r0, lam = 20, Fraction(36, 100), 400
    q = r0 / sigma
    u0, u1 = tl.tail_u(lam, sigma, r0)
    assert tl.lemma_b3_hypotheses(lam, sigma, q, r0, u0, u1)["all"]
    x_top = 2 * lam * float(q) * math.exp(lam / (2 * sigma ** 2)) / ((1 - float(q)) * sigma)
    assert x_top > 1.0 > float(u0)  # the geometric "ratio" would not even be below 1
    assert lb.check_step_634().status == "refuted"


def test_geometric_counterexample_recomputed_in_floats():
    v = lb.check_geometric()
    cex = v.counterexample
    lam, sigma, q = cex["lam"], cex["sigma"], cex["q"]
    u0, _ = tl.tail_u(lam, sigma, cex["r0"])
    log_a = math.log(2 * lam * q / ((1 - q) * sigma))
    logs = [t * (log_a + (t - 1) / (2 * sigma ** 2)) for t in range(3, lam + 2)]
    top = max(logs)
    log_sum = top + math.log(sum(math.exp(x - top) for x in logs))
    assert log_sum > logs[0] - math.log(1 - float(u0))
    assert math.isclose(log_sum - logs[0] + math.log(1 - float(u0)), cex["log_ratio_x"], rel_tol=1e-9)


def test_step_15_fails_only_outside_the_lemma():
    # (14) > (15) at sigma = 216/215, q = 0.995, t = 3, but no lam >= 2 is admissible there:
    # lam <= sigma^2 ln(1/(q sigma)) < 1 (L518), so the step is never used at this point (claim holds, issue 17)
    sigma = 216 / 215 * (1 + 1e-9)
    q = 0.995  # <= r0/sigma with r0 = q sigma < 1
    assert q * sigma < 1
    c = lb.c_of_l612(q, sigma)
    assert mm.moment_bound_14(3, q, sigma) > lb.eq15(3, q, sigma, c)
    assert mm.moment_bound_14(3, q, sigma) <= lb.eq15(3, q, sigma, 2)  # with c = 2 the step holds here
    assert sigma ** 2 * math.log(1 / (q * sigma)) < 1
    assert lb.lam_max_admissible(sigma, q, q * sigma * (1 + 1e-9)) == 0


def test_step_15_worst_admissible_point_recomputed():
    w = lb.check_step_15().evidence["worst_with_c_of_L612"]
    assert w["t"] <= w["lam_max"] + 1 and w["q"] * w["sigma"] <= w["r0"] < 1
    assert mm.moment_bound_14(w["t"], w["q"], w["sigma"]) <= lb.eq15(w["t"], w["q"], w["sigma"], lb.c_of_l612(w["q"], w["sigma"]))


def test_regroup_counterexample_recomputed():
    t, q, s = 3, 0.1, 2.0
    e = math.exp((t * t - t) / (2 * s * s))
    first = float(mm.moment_bound_14(t, q, s))
    printed = ((2 * q) ** t * 2 * (1 + e) / (2 * (1 - q) ** (t - 1) * s ** t)
               + q ** t * (1 + (1 - q) * 2 ** t * e * t ** t) / (2 * (1 - q) ** t * s ** (2 * t)))
    corrected = printed + q ** t / (2 * (1 - q) ** t * s ** (2 * t))
    assert not math.isclose(first, printed, rel_tol=1e-6)
    assert math.isclose(first, corrected, rel_tol=1e-12)


def _moment_b_quad(t, q, sigma):
    """M_t in the direction (mu0, mu): int (mu0 - mu)^t / mu^(t-1) dz, by quadrature (notes §3.5)."""
    with mpmath.workdps(30):
        s = mpmath.mpf(sigma)
        pdf = lambda z, m: mpmath.npdf(z, m, s)  # noqa: E731
        f = lambda z: (q * (pdf(z, 0) - pdf(z, 1))) ** t / ((1 - q) * pdf(z, 0) + q * pdf(z, 1)) ** (t - 1)  # noqa: E731
        return mpmath.quad(f, [-40 * s, -10 * s, 0, 0.5, 1, 10 * s, 40 * s])


@pytest.mark.parametrize("t,q,sigma", [(3, 0.01, 1.5), (4, 0.1, 2.0), (5, 0.05, 4.0), (6, 0.2, 1.2)])
def test_moment_bound_14_other_direction_by_quadrature(t, q, sigma):
    assert _moment_b_quad(t, q, sigma) <= mm.moment_bound_14(t, q, sigma)


@pytest.mark.parametrize("lam,q,sigma", [(2, 0.01, 1.005), (10, 0.1, 2.0), (30, 0.3, 1.5)])
def test_t2_term_other_direction_by_quadrature(lam, q, sigma):
    m2 = _moment_b_quad(2, q, sigma)
    assert math.comb(lam + 1, 2) * m2 <= tl.second_order_term(lam, sigma, q)


def test_region_points_satisfy_all_hypotheses():
    for p in lb.region_points()[::7]:
        u0, u1 = tl.tail_u(p["lam"], p["sigma"], p["r0"])
        assert tl.lemma_b3_hypotheses(p["lam"], p["sigma"], p["q"], p["r0"], u0, u1)["all"]


@given(lemma_b3_points())
def test_conclusion_against_independent_binomial_oracle(pt):
    lam, sigma, q, r0 = pt
    u0, u1 = tl.tail_u(lam, sigma, r0)
    assert tl.lemma_b3_hypotheses(lam, sigma, q, r0, u0, u1)["all"]
    with mpmath.workdps(60):
        exact = mpmath.log(_alpha_binomial(lam, sigma, q))
        assert exact <= tl.lemma_b3_bound(lam, sigma, q, r0, u0, u1)
        assert mpmath.almosteq(exact, mm.exact_alpha(lam, sigma, q), rel_eps=mpmath.mpf(10) ** -30)


@pytest.mark.slow
def test_conclusion_dense_grid():
    """Exhaustive-ish version of the ledger claim: 6 lam per cell, more sigma and r0 (sweep runner)."""
    from numerics.sweep import sweep

    pts = lb.region_points(sigmas=(1.005, 1.2, 1.5, 2, 3, 5, 8, 12, 20, 35, 50, 75, 100),
                           r0s=(1e-4, 0.001, 0.01, 0.05, 0.1, 0.2, 1 / math.e, 0.6, 0.9, 0.99),
                           q_fractions=(1.0, 0.5, 0.1, 0.01), lams_per_point=8)
    res = sweep(tl.conclusion_point, pts)
    assert max(r["ratio"] for r in res) <= 1


def test_step_634_holds_under_both_corrections():
    ev = lb.check_step_634().evidence
    assert ev["failing"] > 0
    assert ev["all_hold_when_lam_le_sigma"] and ev["points_with_lam_le_sigma"] > 0
    assert ev["all_hold_under_000_assumption"] and ev["points_meeting_000_proof_assumption"] > 0


def _tail_b_quad(lam, q, sigma):
    """Tail (13) in the direction (mu0, mu): B_{lam+1} - 1 - binom(lam+1, 2) M_2^B, by quadrature."""
    with mpmath.workdps(40):
        s = mpmath.mpf(sigma)
        mix = lambda z: (1 - q) * mpmath.npdf(z, 0, s) + q * mpmath.npdf(z, 1, s)  # noqa: E731
        big_b = mpmath.quad(lambda z: mpmath.npdf(z, 0, s) ** (lam + 1) / mix(z) ** lam,
                            [-40 * s, -10 * s, 0, 0.5, 1, 10 * s, 40 * s])
        return big_b - 1 - math.comb(lam + 1, 2) * _moment_b_quad(2, q, sigma)


@pytest.mark.parametrize("lam,sigma,r0,frac", [(3, 2.0, 0.2, 1.0), (8, 4.0, 0.3, 0.5), (20, 8.0, 1 / math.e, 1.0)])
def test_tail_13_other_direction_by_quadrature(lam, sigma, r0, frac):
    q = frac * r0 / sigma * (1 - 1e-12)
    u0, u1 = tl.tail_u(lam, sigma, r0)
    assert tl.lemma_b3_hypotheses(lam, sigma, q, r0, u0, u1)["all"]
    assert _tail_b_quad(lam, q, sigma) <= tl.tail_bound(lam, sigma, q, r0, u0, u1)


def test_mixture_moments_survive_extreme_cancellation():
    """t = 401, sigma = 100: the alternating sum cancels ~560 digits; the moment must come out positive
    and agree with the q^t-free enclosure of numerics.enclosures (an independent, cancellation-free form)."""
    from flint import arb, ctx

    from numerics.enclosures import mixture_moments_over_qt

    import mpmath

    m = mm.mixture_moments(401, 1, 100)[401]  # ~7.4e-350: below float range, so compare as balls
    old, ctx.prec = ctx.prec, 2000
    try:
        ball = mixture_moments_over_qt(401, arb(100))[401]
        assert m > 0
        assert abs(arb(mpmath.nstr(m, 40)) / ball.mid() - 1) < arb("1e-10")
    finally:
        ctx.prec = old
