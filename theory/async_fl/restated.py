r"""Seed 000's main-text theorems that the appendix restates with their proofs (000_d613b97385d90362.txt):
Theorem 3.2 (L194-214) is Theorem D.3 (L1065-1162) at r0 = r0(sigma), and Theorem 2.2 (L150-156) is Theorem
C.2.2 (L748-778). Each restated result gets its own conclusion claim, decided from the checks of the displays
it shares with its twin (so one error is one cause, named on both).
"""
from __future__ import annotations

from theory.async_fl import privacy as pv
from theory.async_fl import r0_sigma as r0s
from theory.async_fl import step_sizes as st
from theory.ledger import Verdict, claim

#: the error behind Theorem 3.2's case-2 bound and Theorem D.3's (16): 1/sqrt(T) bounded with T's upper bound
CASE2_CAUSE = "000-case2-missing-sqrt-1-plus-gamma"
#: the error behind the (1 - O(1/t)) of Theorems 2.2 and C.2.2
RATE_CAUSE = "000-rate-1-minus-O(1/t)"


@claim(id="000.thm-3.2.conclusion", seed="000", lines="L194-214, L1065-1127",
       result="Theorem 3.2", role="conclusion", cause=CASE2_CAUSE,
       statement="Theorem 3.2: for K <= K^* (D of L200), Algorithm 2.1 is (epsilon, delta)-DP if sigma >= B (1+m/T)^(2+3p)"
                 "/sqrt(1-r0(sigma)/sigma) when K <= K^- and sigma >= (K/K^+)^((1+2p)/(2+2p)) 1.21 B (1+m/T)^(2+3p)"
                 "/sqrt(1-r0(sigma)/sigma) when K >= K^+ (B = sqrt(2 ln(1/delta)/epsilon)), as its proof (D.3) derives.",
       recorded="holds-with-correction")
def thm32_conclusion() -> Verdict:
    """The theorem's bounds against the derivation of D.3, one display at a time.

    Case 1 is (27) (000.thm-3.2.case1-simplification); case 2 is (16) at r0(sigma), i.e. (17) with 1.21
    (000.r0.constant-1.21), which misses (1+gamma)^(1/2) (000.thm-3.2.case2-16); the side conditions need
    K^* with (1+gamma)^(-(1+p)) (000.thm-3.2.K-star) and r0 computed with gamma kept (000.r0.closed-forms-gamma).
    """
    parts = {"case1 (27)": pv.thm32_case1(), "case2 (16)": pv.thm32_case2(), "(16) -> (17), 1.21": r0s.constant_121(),
             "K^* implies q_max <= r0/sigma": pv.thm32_k_star(), "B closed form at r0(sigma)": r0s.closed_forms_gamma(),
             "T bounds (19)": pv.thm32_t_bounds()}
    kstar, bcf, case2 = parts["K^* implies q_max <= r0/sigma"], parts["B closed form at r0(sigma)"], parts["case2 (16)"]
    k_fixed = kstar.evidence["K_solved_over_K_star_corrected"] == "1"
    b_fixed = abs(bcf.evidence["B_with_gamma_dependent_r0"] / bcf.evidence["B_closed_form"] - 1) < 1e-12
    ev = {"parts": {k: v.status for k, v in parts.items()},
          "case2_derived_over_printed": case2.evidence.get("derived_over_printed"),
          "K_star_example": kstar.evidence["example"],
          "B_at_r0_sigma": bcf.evidence["B_at_r0_sigma"], "B_closed_form": bcf.evidence["B_closed_form"],
          "B_with_gamma_dependent_r0": bcf.evidence["B_with_gamma_dependent_r0"],
          "correction": "multiply the case-2 bound by (1+m/T)^(1/2); use K^* with (1+m/T)^(-(1+p)); compute r0 with "
                        "(1+m/T)^(2p) kept (r0(sigma, p, m/T)), which makes B's closed form exact; gamma = (m+1)/T in "
                        "(19) and the S_hat bounds",
          "scope": "the theorem's displays against its own derivation; whether the guarantee holds for Algorithm 2.1's "
                   "sampling is 000.coverage.* and the as-run claims"}
    ok_as_printed = all(v.status == "holds" for v in parts.values())
    fixable = (parts["case1 (27)"].status == "holds" and parts["(16) -> (17), 1.21"].status == "holds"
               and parts["T bounds (19)"].status in ("holds", "holds-with-correction")
               and case2.status in ("holds", "holds-with-correction") and (kstar.status == "holds" or k_fixed)
               and (bcf.status == "holds" or b_fixed))
    ce = kstar.evidence["example"]
    why = (f"As printed the theorem does not follow from its proof: the case-2 bound is short by a factor "
           f"{case2.evidence.get('derived_over_printed')} (L1448 bounds 1/sqrt(T) with T's upper bound); the printed "
           f"K^* admits K = {ce['K']:.0f} <= K^* = {ce['K_star_printed']:.0f} where q(T+m)^p = {ce['q_max']} exceeds "
           f"r0/sigma = {ce['alpha']} (Theorem 3.1's hypothesis; the corrected K^* = {ce['K_star_corrected']:.1f}); and "
           f"B at r0(sigma) is {bcf.evidence['B_at_r0_sigma']:.4f}, not the closed form "
           f"{bcf.evidence['B_closed_form']:.4f}, at m/T = {bcf.counterexample['gamma']:.3f} (Example 3); the bounds (19) on T "
           f"need gamma = (m+1)/T. With these corrections every display follows (checked symbolically or on grids); the "
           f"case-1 display (27) itself follows as printed.")
    if ok_as_printed:
        return Verdict("holds", "numeric", 0.0, ev, arithmetic=("sympy", "mpmath"))
    if fixable:
        return Verdict("holds-with-correction", "numeric", 0.0, ev, why=why, arithmetic=("sympy", "mpmath"))
    return Verdict("open", "numeric", None, ev, why=why, reason="a part of the derivation fails without a checked correction",
                   arithmetic=("sympy", "mpmath"))


@claim(id="000.thm-C.2.2.rate", seed="000", lines="L774-776",
       result="Theorem C.2.2", role="conclusion", cause=RATE_CAUSE,
       statement="Theorem C.2.2: for t >= T_0 the rates are at most 8*36^2 N/mu^2 t/(t + 2M_1 + sqrt(((m+1)^2/4+t)/"
                 "ln((m+1)^2/4+t)) - 1)^2 = 8*36^2 N/mu^2 (1/t)(1 - O(1/t)) (the equality as printed).",
       recorded="holds-with-correction")
def thm_c22_rate() -> Verdict:
    """The appendix display L776 is the main-text L154 (Theorem 2.2): one check (000.thm-2.2.rate-expansion)."""
    return st.rate_expansion()
