"""Seed 000 privacy: Lemma D.1 (shared tail lemma), Theorem 3.1 and Theorem 3.2 / D.3 formulas and claims."""
import math

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from numerics.errors import InvalidParameter
from theory import ledger
from theory.lemmas import tail_lemma as tl
from theory.async_fl import privacy as pv
from theory.async_fl.paper_values import EXAMPLES


def test_u0_u1_r_reproduce_example3_digits():
    # L1626: u1 = 0.15275204077456322, u0 = 0.4495546831835495, r = 5.7460446671129635 at sigma = 8, r0 = 1/e
    with mpmath.workdps(50):
        r0, s = 1 / mpmath.e, mpmath.mpf(8)
        printed = EXAMPLES[3]["printed"]
        assert math.isclose(float(pv.u0(r0, s)), float(printed["u0"].text), rel_tol=1e-15)
        assert math.isclose(float(pv.u1(r0, s)), float(printed["u1"].text), rel_tol=1e-15)
        assert math.isclose(float(pv.r_constant(r0, s)), float(printed["r"].text), rel_tol=1e-15)


def test_r_constant_agrees_with_shared_tail_lemma():
    """Seed 000's (14) and the shared lemma's r (002 (17)) are one formula."""
    with mpmath.workdps(50):
        for r0, s in ((0.1, 3.0), (1 / math.e, 8.0), (0.01, 1.2)):
            a, b = pv.u0(r0, s), pv.u1(r0, s)
            assert float(pv.r_constant(r0, s)) == pytest.approx(float(tl.lemma_b3_r(r0, a, b, s)), rel=1e-14)
            # u0 = U0(sigma^2): the theorem's choice of the lemma's constants (D.2 L1021)
            assert float(a) == pytest.approx(float(tl.tail_u(int(s * s), s, r0)[0]) * math.sqrt(s * s / int(s * s)), rel=1e-12)


def test_r_constant_raises_when_u_ge_1():
    with pytest.raises(InvalidParameter):
        pv.r_constant(0.3, 2.0)  # u1 = 1.24


@given(x=st.floats(min_value=1e-3, max_value=1e3), r=st.floats(min_value=0.01, max_value=10),
       rho=st.floats(min_value=0.5, max_value=5), rho_hat=st.floats(min_value=0.1, max_value=2))
def test_c_function_properties(x, r, rho, rho_hat):
    """c(x) <= 1, the quadratic of D.2 (L1049) holds for the first branch, c = 2/(rho_hat x) beyond tau."""
    c = pv.c_function(x, r, rho, rho_hat)
    assert c <= 1 + 1e-12
    first = (math.sqrt(2 * r * rho * x + 1) - 1) / (r * rho * x)
    assert r * rho / 2 * x * first ** 2 + first - 1 == pytest.approx(0, abs=1e-9)
    tau = pv.branch_crossing(r, rho, rho_hat)
    if x >= tau * (1 + 1e-9):
        assert c == pytest.approx(2 / (rho_hat * x))


def test_s_hat_constant_sizes():
    assert float(pv.s_hat([100] * 7, 10000, 2)) == pytest.approx(0.01 ** 2 / 0.99)


@pytest.mark.parametrize("sizes", [[], [0], [10000]])
def test_s_hat_rejects_bad_sizes(sizes):
    with pytest.raises(InvalidParameter):
        pv.s_hat(sizes, 10000, 1)


def test_theorem31_branch_value_and_hypotheses():
    t = pv.theorem31([16] * 500, 10000, sigma=6.0, epsilon=1.0, r0=0.36)
    assert all(t["hypotheses"][k] for k in ("r0_le_1_over_e", "q_le_r0_over_sigma", "u_lt_1", "lambda_ge_1"))
    # constant sizes: rho_hat = S1^2/S2 exactly, branch c0 = 2/(rho_hat c1): ln(1/delta) = eps sigma^2/2
    assert float(t["log_inv_delta"]) == pytest.approx(1.0 * 36 / 2)


def test_theorem31_lambda_gap_counterexample():
    """The proof's lam = c0 eps/(2 S2) - 1 gives ln(1/delta) = 12, not the 12.5 the theorem states."""
    t = pv.theorem31([20] * 400, 10000, sigma=5.0, epsilon=1.0, r0=1 / math.e)
    assert float(t["lambda"]) == pytest.approx(24.0)
    assert float(t["log_inv_delta"]) == pytest.approx(12.5)


def test_k_star_sign_counterexample_recomputed():
    # p = 1, m = 100, T = 100, q = 1e-4, N_c = 1e4: K = N_c q sum (i+100) = 15050; K*_printed = 72200 admits it,
    # but q (T+m) = 0.02 > alpha = 0.019
    k = 10000 * 1e-4 * sum(i + 100 for i in range(1, 101))
    assert k == pytest.approx(15050)
    assert pv.k_star(1, 0.019, 10000, 1.0, 1.0) == pytest.approx(72200)
    assert pv.k_star(1, 0.019, 10000, 1.0, 1.0, corrected=True) == pytest.approx(4512.5)


@settings(max_examples=15)
@given(p=st.sampled_from([0.0, 0.5, 1.0]), m=st.floats(min_value=0, max_value=50), t=st.integers(1, 400))
def test_t_bounds_hold_with_corrected_gamma(p, m, t):
    """(19) with gamma = (m+1)/T holds for every (p, m, T); with gamma = m/T the upper bound always does."""
    k_over_s = sum((i + m) ** p for i in range(1, t + 1))
    lo, up = pv.t_bounds(p, k_over_s, 1.0, (m + 1) / t)
    assert lo <= t * (1 + 1e-12) and t <= up * (1 + 1e-12)


def test_t_bounds_printed_lower_fails_at_m0():
    lo, _ = pv.t_bounds(1.0, sum(range(1, 101)), 1.0, 0.0)
    assert lo > 100  # sqrt(2 * 5050) = 100.5


def test_d1_region_is_admissible_for_variant_000_and_includes_small_sigma():
    pts = pv.d1_region_points()
    assert any(p["sigma"] < float(tl.SIGMA_MIN_002) for p in pts)
    for p in pts:
        u0, u1 = tl.tail_u(p["lam"], p["sigma"], p["r0"])
        assert tl.lemma_b3_hypotheses(p["lam"], p["sigma"], p["q"], p["r0"], u0, u1, variant="000")["all"]


# only this module's claims: the rigorous 000.lemma-D1.conclusion.certified (theory.async_fl.certified) has its own tests
PRIVACY_CLAIMS = [c for c in ledger.load_all() if c.id.startswith(("000.lemma-D1.", "000.thm-3.1.", "000.thm-3.2."))
                  and c.check.__module__.startswith("theory.async_fl.")]


@pytest.mark.parametrize("c", PRIVACY_CLAIMS, ids=[c.id for c in PRIVACY_CLAIMS])
def test_privacy_claims_compute_recorded_status(c):
    v = c.evaluate()
    assert v.status == c.recorded
    if v.status == "refuted":
        assert v.counterexample


@settings(max_examples=6)
@given(s=st.integers(5, 60), s2=st.integers(5, 60), t=st.integers(20, 300), sigma=st.floats(2.5, 6.0),
       eps=st.sampled_from([0.5, 1.0, 2.0]))
def test_theorem31_delta_is_certified_by_the_accountant(s, s2, t, sigma, eps):
    """Theorem 3.1 (L180-190) by hypothesis: wherever all its hypotheses hold, the certified PLD epsilon at the
    theorem's delta is at most epsilon (two-phase schedules, N_c = 10^4, r0 = 0.36 < 1/e)."""
    from numerics.pld import epsilon_pld
    from numerics.schedule import Phase, Schedule

    n_c, r0 = 10000, 0.36
    th = pv.theorem31([s] * t + [s2] * t, n_c, sigma=sigma, epsilon=eps, r0=r0)
    hyp = th["hypotheses"]
    if th["delta"] is None or not all(hyp.get(k) for k in ("q_le_r0_over_sigma", "u_lt_1", "lambda_ge_1")):
        return
    delta = float(th["delta"])
    if not 1e-15 <= delta < 1:
        return
    sched = Schedule.from_phases([Phase(q=s / n_c, sigma=sigma, steps=t), Phase(q=s2 / n_c, sigma=sigma, steps=t)])
    assert epsilon_pld(sched, delta, rel_width=0.02).epsilon_upper <= eps
