r"""Seed 000, the algebra of Theorem 3.1's proof (D.2, L945-1035) and of the rho, rho-hat bounds of Theorem D.3
(L1204-1207) (000_d613b97385d90362.txt).

Notation (L935, L947): \hat S_j = (1/T) \sum_i s_{i,c}^j/(N_c(N_c-s_{i,c})^{j-1}), S_j = \sum_i s_{i,c}^j/(N_c(N_c-s_{i,c})^{j-1}
\sigma_i^j) and S'_j = (1/T) \sum_i s_{i,c}^j \sigma_i^j/(N_c(N_c-s_{i,c})^{j-1}). With \sigma_i = \sigma (the theorem's
hypothesis) the sums are linear in the same terms, so S_j = T \hat S_j/\sigma^j and S'_j = \hat S_j \sigma^j exactly; the
claims below use these and check each printed step as a sympy identity or an equivalence of inequalities between positive
quantities. What the proof's integer lambda does to the last step is the separate claim 000.thm-3.1.lambda-step.
"""
from __future__ import annotations

from fractions import Fraction

import sympy

from theory.async_fl import privacy as pv
from theory.ledger import HypothesisFails, Verdict, claim

_POS = dict(positive=True)


def _sums():
    """Symbols and the constant-sigma S_j, S'_j in terms of \\hat S_j (L947)."""
    t, sigma = sympy.symbols("T sigma", **_POS)
    sh = sympy.symbols("Shat1 Shat2 Shat3", **_POS)
    s = {j: t * sh[j - 1] / sigma ** j for j in (1, 2, 3)}
    s_prime = {j: sh[j - 1] * sigma ** j for j in (1, 2, 3)}
    return t, sigma, sh, s, s_prime


def _identity(lhs, rhs) -> bool:
    return sympy.simplify(lhs - rhs) == 0


@claim(id="000.thm-3.1.proof-algebra", seed="000", result="Theorem 3.1", role="proof-step",
       lines="L947-1013, L1019-1023, L1031-1035",
       statement="The algebra of Theorem 3.1's proof: S'_1 <= r0; Lemma D.1 summed over the rounds is L951; L959 <=> L963 <=> L967; lam + 1 <= c0 eps/(2S_2) makes L967 "
                 "follow from c0(1 + (r/(2r0)) c0 (S_3/S_2^2) eps) <= 1 (L979); eps = c1 T Shat_1^2 = c1 S_1 S'_1; "
                 "S_1S_3/S_2^2 = Shat_1Shat_3/Shat_2^2; (L987) is implied by c1 <= (1-c0)/((r rho/2) c0^2) (L999); "
                 "S'_1 = S_1 sigma^2/T, S_1^2/S_2 = T Shat_1^2/Shat_2 and lam + 1 <= (c0c1/2) rho_hat sigma^2 (L1013); "
                 "c1 <= 2/(rho_hat c0) gives lam <= sigma^2 (L1015); ln(1/delta) <= c0 eps^2/(4S_2) with S_2 = Shat_2 T/sigma^2 "
                 "is the sigma bound of L1035.",
       recorded="holds")
def check_proof_algebra() -> Verdict:
    t, sigma, sh, s, sp = _sums()
    lam, eps, r, r0, c0, c1, rho, rho_hat, ldelta = sympy.symbols("lambda epsilon r r0 c0 c1 rho rho_hat L", **_POS)
    s1, s2, s3 = s[1], s[2], s[3]
    checks = {}
    # L949: S'_1 = (1/T) sum s_i sigma/N_c <= r0 when every s_i/N_c <= r0/sigma (an average of terms <= r0)
    q_ratio = sympy.Symbol("x", **_POS)  # s_i/N_c = x r0/sigma with 0 < x <= 1
    checks["L949 S'_1 <= r0 (per round term s sigma/N_c = x r0)"] = _identity(q_ratio * r0 / sigma * sigma, q_ratio * r0)
    # L951: Lemma D.1's per-round bound s^2 lam(lam+1)/(N(N-s)sigma^2) + (r/r0) s^3 lam^2(lam+1)/(N(N-s)^2 sigma^3) has the
    # j = 2 and j = 3 terms of S_j (L947) as coefficients, so summing over the rounds gives S_2 lam(lam+1) + (r/r0) S_3 lam^2(lam+1)
    size, n_c = sympy.symbols("s N_c", **_POS)

    def term(j):
        return size ** j / (n_c * (n_c - size) ** (j - 1) * sigma ** j)

    d1_round = size ** 2 * lam * (lam + 1) / (n_c * (n_c - size) * sigma ** 2) \
        + r / r0 * size ** 3 * lam ** 2 * (lam + 1) / (n_c * (n_c - size) ** 2 * sigma ** 3)
    checks["L951 Lemma D.1 per round = S_2-term lam(lam+1) + (r/r0) S_3-term lam^2(lam+1)"] = _identity(
        d1_round, term(2) * lam * (lam + 1) + r / r0 * term(3) * lam ** 2 * (lam + 1))
    # L959 -> L963 -> L967: divide by lam > 0, then factor (lam+1) S_2
    l959 = s2 * lam * (lam + 1) + r / r0 * s3 * lam ** 2 * (lam + 1) - lam * eps + lam * eps / 2
    l963 = s2 * (lam + 1) + r / r0 * s3 * lam * (1 + lam) - eps / 2
    l967 = (lam + 1) * (1 + r / r0 * s3 / s2 * lam) - eps / (2 * s2)
    checks["L959/lam = L963"] = _identity(l959 / lam, l963)
    checks["L963/S_2 = L967"] = _identity(l963 / s2, l967)
    # L971-979: L967's left side increases in lam; at lam + 1 = c0 eps/(2S_2) (lam <= lam + 1 in the second factor)
    # it is (c0 eps/(2S_2))(1 + (r/r0)(S_3/S_2) c0 eps/(2S_2)), and <= eps/(2S_2) is L979
    at_max = c0 * eps / (2 * s2) * (1 + r / r0 * s3 / s2 * c0 * eps / (2 * s2))
    l979 = c0 * (1 + r / (2 * r0) * c0 * s3 / s2 ** 2 * eps)
    checks["L975 / (eps/(2S_2)) = L979"] = _identity(at_max / (eps / (2 * s2)), l979)
    checks["L967 increasing in lam"] = sympy.simplify(sympy.diff((lam + 1) * (1 + r / r0 * s3 / s2 * lam), lam)
                                                      - (1 + r / r0 * s3 / s2 * (2 * lam + 1))) == 0
    # L983: eps = c1 T Shat_1^2 = c1 S_1 S'_1
    checks["L983 T Shat_1^2 = S_1 S'_1"] = _identity(t * sh[0] ** 2, s1 * sp[1])
    # L987 from L971 and L979 with eps = c1 S_1 S'_1
    checks["L987 first: c0 eps/(2S_2) = (c0c1/2) S_1S'_1/S_2"] = _identity((c0 * eps / (2 * s2)).subs(eps, c1 * s1 * sp[1]),
                                                                          c0 * c1 / 2 * s1 * sp[1] / s2)
    checks["L987 second"] = _identity(l979.subs(eps, c1 * s1 * sp[1]),
                                      c0 * (1 + r / (2 * r0) * c0 * c1 * s1 * s3 / s2 ** 2 * sp[1]))
    # L991: S_1 S_3/S_2^2 = Shat_1 Shat_3/Shat_2^2
    checks["L991"] = _identity(s1 * s3 / s2 ** 2, sh[0] * sh[2] / sh[1] ** 2)
    # L993-999: with S_1S_3/S_2^2 <= rho and S'_1 <= r0 the bracket of L987 is at most 1 + (r rho/2) c0 c1, and
    # c0(1 + (r rho/2) c0 c1) <= 1 <=> c1 <= (1-c0)/((r rho/2) c0^2)
    bound995 = c0 * (1 + r * rho / 2 * c0 * c1)
    solved = sympy.solve(sympy.Eq(bound995, 1), c1)
    checks["L995 <=> L999"] = len(solved) == 1 and _identity(solved[0], (1 - c0) / (r * rho / 2 * c0 ** 2))
    checks["L993 substitution"] = _identity((r / (2 * r0) * c0 * c1 * rho * r0), r * rho / 2 * c0 * c1)
    # L1007-1013
    checks["L1007 S'_1 = S_1 sigma^2/T"] = _identity(sp[1], s1 * sigma ** 2 / t)
    checks["L1009 S_1^2/S_2 = T Shat_1^2/Shat_2"] = _identity(s1 ** 2 / s2, t * sh[0] ** 2 / sh[1])
    checks["L1013 S_1S'_1/S_2 = (Shat_1^2/Shat_2) sigma^2"] = _identity(s1 * sp[1] / s2, sh[0] ** 2 / sh[1] * sigma ** 2)
    # L1015 (b): c1 <= 2/(rho_hat c0) turns L1013 into lam + 1 <= sigma^2
    checks["L1015 (c0 c1/2) rho_hat sigma^2 at c1 = 2/(rho_hat c0)"] = _identity((c0 * c1 / 2 * rho_hat * sigma ** 2)
                                                                                  .subs(c1, 2 / (rho_hat * c0)), sigma ** 2)
    # L1031: (c0 c1^2/4) S_1^2 S'_1^2/S_2 = c0 eps^2/(4 S_2)
    checks["L1031"] = _identity(c0 * c1 ** 2 / 4 * s1 ** 2 * sp[1] ** 2 / s2, (c0 * eps ** 2 / (4 * s2)).subs(eps, c1 * s1 * sp[1]))
    # L1033-1035: S_2 = Shat_2 T/sigma^2 and ln(1/delta) <= c0 eps^2/(4 S_2) <=> sigma^2 >= 4 Shat_2 T ln(1/delta)/(c0 eps^2)
    checks["L1033 S_2 = Shat_2 T/sigma^2"] = _identity(s2, sh[1] * t / sigma ** 2)
    sigma_sq = sympy.solve(sympy.Eq(ldelta, c0 * eps ** 2 / (4 * s2)), sigma ** 2)
    l1035 = (2 / sympy.sqrt(c0) * sympy.sqrt(sh[1] * t * ldelta) / eps) ** 2
    checks["L1035"] = len(sigma_sq) == 1 and _identity(sigma_sq[0], l1035)
    failed = [k for k, ok in checks.items() if not ok]
    ev = {"steps": {k: bool(v) for k, v in checks.items()}, "domain": "all positive values of the symbols (symbolic)",
          "scope": "the algebra only; the integer lambda of L967/L1031 is 000.thm-3.1.lambda-step, L1027's extra rho "
                   "000.thm-3.1.L1027-extra-rho"}
    if not failed:
        return Verdict("holds", "symbolic", 0.0, ev, arithmetic=("sympy",))
    return Verdict("refuted", "symbolic", None, {**ev, "margin_none": "an identity that fails has no size"},
                   arithmetic=("sympy",), why=f"steps that are not identities: {failed}", counterexample={"failed": failed})


def _min_rho(sizes, n_c) -> Fraction:
    """The smallest rho L184 admits for these sizes: Shat_1 Shat_3/Shat_2^2, exactly."""
    shat = [sum(Fraction(s) ** j / (n_c * Fraction(n_c - s) ** (j - 1)) for s in sizes) / len(sizes) for j in (1, 2, 3)]
    return shat[0] * shat[2] / shat[1] ** 2


def recheck_extra_rho(cx: dict) -> float:
    """L1027's first bound over L1019's at the smallest admissible rho for the sizes: 1/rho - 1 (0 when they agree)."""
    sizes, n_c = [int(s) for s in cx["sizes"]], int(cx["N_c"])
    if not sizes or any(not 0 < s < n_c for s in sizes):
        raise HypothesisFails("sample sizes in (0, N_c)")
    return float(1 / _min_rho(sizes, n_c) - 1)


@claim(id="000.thm-3.1.L1027-extra-rho", seed="000", recheck=recheck_extra_rho, result="Theorem 3.1", role="typo",
       lines="L1019-1027, L184, L935",
       statement="L1027 is L1019 with S_1 S'_1 = T Shat_1^2: eps <= min{(1-c0)/((r rho/2) c0^2), 2/(rho_hat c0)} T Shat_1^2.",
       recorded="refuted")
def check_extra_rho() -> Verdict:
    r, rho, c0 = sympy.symbols("r rho c0", **_POS)
    l1019 = (1 - c0) / (r * rho / 2 * c0 ** 2)
    l1027 = (1 - c0) / (r * rho / 2 * rho * c0 ** 2)  # as printed at L1027
    ratio = sympy.simplify(l1027 / l1019)
    sizes, n_c = [16, 32], 10000  # two rounds of different sizes: Shat_1 Shat_3 > Shat_2^2 (Cauchy-Schwarz, strict)
    rho_min = _min_rho(sizes, n_c)
    margin = float(1 / rho_min - 1)
    ev = {"L1027_over_L1019": str(ratio), "rho_min_at_sizes": float(rho_min), "sizes": sizes, "N_c": n_c,
          "rho_at_least_1": "Shat_j = (1/T) sum mu_i y_i^j with mu_i = (N_c - s_i)/N_c, y_i = s_i/(N_c - s_i): Cauchy-Schwarz "
                            "gives Shat_2^2 <= Shat_1 Shat_3, so every admissible rho >= 1",
          "margin_unit": "relative: L1027's first bound / L1019's - 1 at the smallest admissible rho",
          "domain": "symbolic ratio; the margin at one two-round schedule"}
    if ratio == 1:
        return Verdict("holds", "symbolic", 0.0, ev, arithmetic=("sympy",))
    why = (f"L1027 restates L1019 after S_1 S'_1 = T Shat_1^2 (L1023), but its first bound carries an extra factor rho "
           f"in the denominator: L1027/L1019 = {ratio}. Since every admissible rho >= 1 (Cauchy-Schwarz on the Shat_j), the "
           f"printed L1027 only asks for a smaller eps (e.g. rho = {float(rho_min):.6g} for two rounds of 16 and 32 of "
           f"N_c = {n_c}), so it is still sufficient and no result changes; the theorem's c0 = c(c1) (L186-188, L1041-1057) "
           f"solves L999's form, without the extra rho.")
    return Verdict("refuted", "symbolic", margin, ev, why=why, arithmetic=("sympy", "rational"),
                   counterexample={"sizes": sizes, "N_c": n_c, "rho": float(rho_min)})


@claim(id="000.thm-3.2.rho-bounds", seed="000", result="Theorem D.3", role="proof-step", lines="L1192-1207",
       statement="From the bounds on Shat_j (L1198-1202), Shat_1Shat_3/Shat_2^2 <= (2p+1)^2/((p+1)(3p+1)) (1+gamma)^(2+4p)/(1-alpha)^2 "
                 "= rho and Shat_1^2/Shat_2 <= (2p+1)/(p+1)^2 (1+gamma)^(2+2p) = rho_hat.",
       recorded="holds")
def check_rho_bounds() -> Verdict:
    p, q, t, g, oma = sympy.symbols("p q T gamma one_minus_alpha", **_POS)
    a = 1 - oma

    def lower(j):
        return q ** j * t ** (p * j) / (p * j + 1)

    def upper(j):
        return pv.s_hat_upper(j, p, q, t, a, g)

    # the quotient is largest with the numerator's Shat at their upper bounds and the denominator's at its lower one
    rho = sympy.simplify(sympy.powsimp(upper(1) * upper(3) / lower(2) ** 2, force=True) / pv.rho_bound(p, a, g))
    rho_hat = sympy.simplify(sympy.powsimp(upper(1) ** 2 / lower(2), force=True) / pv.rho_hat_bound(p, g))
    ev = {"(upper1 upper3/lower2^2)/rho": str(rho), "(upper1^2/lower2)/rho_hat": str(rho_hat),
          "domain": "all p, q, T, gamma > 0, 0 < alpha < 1 (symbolic), given L1198-1202",
          "note": "inherits the Shat bounds, which hold with the correction of 000.thm-3.2.S-hat-bounds"}
    if rho == 1 and rho_hat == 1:
        return Verdict("holds", "symbolic", 0.0, ev, arithmetic=("sympy",))
    return Verdict("refuted", "symbolic", None, {**ev, "margin_none": "a symbolic ratio that is not 1"}, arithmetic=("sympy",),
                   why=f"the quotients of the Shat bounds are not the printed rho, rho_hat: {ev}", counterexample=ev)
