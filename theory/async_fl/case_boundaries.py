r"""Seed 000, how the case boundaries K^- and K^+ of Theorem D.3 move: with r0 (L1090: "the larger r0, the larger r and
therefore the smaller B and the larger A") and at p = 0 (L1468: "for p = 0 we have a very large K^+ ... and we are always in
case 1") (000_d613b97385d90362.txt).

A and B are the functions of L1087-1088 (theory.async_fl.privacy.a_constant, b_constant), K^pm = C eps^((1+p)/(1+2p))
(N_c/s)^(1/(1+2p)) N_c with C = B (K^-) or A (K^+) (L1097, L1110).
"""
from __future__ import annotations

import mpmath
import sympy

from numerics.precision import MP_DPS
from theory.async_fl import privacy as pv
from theory.async_fl import r0_sigma
from theory.async_fl.paper_values import EXAMPLES
from theory.ledger import Verdict, claim


@claim(id="000.thm-3.2.r0-monotonicity", seed="000", result="Theorem D.3", role="remark", lines="L1090, L1087-1088, L925",
       statement="The larger r0 (with alpha = r0/sigma), the larger r of (14), the smaller B(p, r0, sigma) and the larger "
                 "A(p, r0, sigma), wherever u0, u1 < 1.",
       recorded="holds")
def check_r0_monotonicity() -> Verdict:
    p, g, y, w, r0 = sympy.symbols("p gamma y w r0", positive=True)
    a = sympy.Symbol("alpha", positive=True)
    sigma = r0 + w  # r0 < sigma (u0's denominator)
    # (i) u0, u1 increase with r0 on 0 < r0 < sigma, so r = r0 * 8 (1/(1-u0) + e^3/((1-u1) sigma^3)) e^(3/sigma^2)
    # (sigma fixed) is a product of positive increasing factors where u0, u1 < 1
    s_fixed = sympy.Symbol("sigma", positive=True)
    du0 = sympy.factor(sympy.diff(pv.u0(r0, s_fixed, lib=sympy), r0).subs(s_fixed, sigma))
    du1 = sympy.factor(sympy.E / sigma * du0)  # u1 = u0 e/sigma (L929), sigma fixed
    # (ii) B and A depend on (r, alpha) only through y = r/(1-alpha)^2
    b_y = pv.b_constant(p, y, 0, g)
    a_y = pv.a_constant(p, y, 0, g)
    b_same = sympy.simplify(sympy.powsimp(pv.b_constant(p, y * (1 - a) ** 2, a, g) / b_y, force=True))
    a_same = sympy.simplify(sympy.powsimp(pv.a_constant(p, y * (1 - a) ** 2, a, g) / a_y, force=True))
    # (iii) d log B/dy < 0 and d log A/dy > 0
    dlog_b = sympy.simplify(sympy.diff(sympy.expand_log(sympy.log(b_y), force=True), y))
    dlog_a = sympy.simplify(sympy.diff(sympy.expand_log(sympy.log(a_y), force=True), y))
    signs = {"du0/dr0 > 0": sympy.ask(sympy.Q.positive(du0)), "du1/dr0 > 0": sympy.ask(sympy.Q.positive(du1)),
             "dlogB/dy < 0": sympy.ask(sympy.Q.negative(dlog_b)), "dlogA/dy > 0": sympy.ask(sympy.Q.positive(dlog_a))}
    ev = {"du0/dr0": str(du0), "du1/dr0": str(du1), "B(r,alpha)/B(y)": str(b_same), "A(r,alpha)/A(y)": str(a_same),
          "dlogB/dy": str(dlog_b), "dlogA/dy": str(dlog_a), "signs": {k: bool(v) for k, v in signs.items()},
          "argument": "y = r/(1-alpha)^2 increases with r0 (r increases, alpha = r0/sigma increases); B falls and A rises in y",
          "domain": "all p, gamma >= 0, 0 < r0 < sigma with u0, u1 < 1 (symbolic)"}
    if b_same == 1 and a_same == 1 and all(signs.values()):
        return Verdict("holds", "symbolic", 0.0, ev, arithmetic=("sympy",))
    return Verdict("open", "symbolic", None, ev, arithmetic=("sympy",), reason=f"sympy could not decide: {ev['signs']}",
                   why=f"sympy could not decide every sign: {ev['signs']}")


@claim(id="000.thm-3.2.p0-case-1", seed="000", result="Theorem D.3", role="remark", lines="L1468, L1097, L1110, L1092-1093",
       statement="For p = 0 (constant sample sizes) K^- and K^+ are very large: at every example's (epsilon, N_c, s_{0,c}, sigma), "
                 "K lies below K^-(p = 0), so a constant sample size is in case 1.",
       recorded="holds")
def check_p0_case_1() -> Verdict:
    rows, worst = {}, None
    with mpmath.workdps(MP_DPS):
        b0 = r0_sigma.b_closed_form(0)  # B(0, r0(sigma), sigma) = (sqrt3-1)/2 (L1092); A(0) = B(0)(1+gamma)^3 >= B(0)
        for n in sorted(EXAMPLES):
            x = EXAMPLES[n]["inputs"]
            eps, n_c, s0, sigma = (mpmath.mpf(x[k].text) for k in ("epsilon", "n_c", "s0", "sigma"))
            k = mpmath.mpf(x["epochs"].text) * n_c
            # cross-check of the closed form with (14) at r0(sigma) for p = 0 and gamma = 0
            r0 = mpmath.mpf(r0_sigma.r0(float(sigma), 0.0))
            b_direct = pv.b_constant(0, pv.r_constant(r0, sigma), r0 / sigma, 0)
            k_minus = pv.k_pm(b0, 0, eps, n_c, s0)
            ratio = k_minus / k
            rows[f"example {n}"] = {"K_epochs": float(k / n_c), "K_minus_epochs": float(k_minus / n_c),
                                    "K_minus_over_K": float(ratio), "B0_direct": float(b_direct)}
            if worst is None or ratio < worst[1]:
                worst = (n, ratio)
    margin = float(1 - 1 / worst[1])  # (K^- - K)/K^- at the tightest example
    ev = {"B(0)": float(b0), "rows": rows, "tightest": f"example {worst[0]}",
          "eq29_at_p0": "k^((1+2p)/(2+2p)) = k^(1/2) at p = 0 (the sqrt(k) growth L1468 mentions)",
          "margin_unit": "relative: (K^- - K)/K^- at p = 0, tightest example",
          "points": "the five examples' settings (epsilon, N_c, s_{0,c} = 16, sigma, K)"}
    if margin >= 0:
        return Verdict("holds", "numeric", margin, ev, arithmetic=("mpmath",))
    return Verdict("refuted", "numeric", margin, ev, arithmetic=("mpmath",),
                   why=f"at example {worst[0]} K exceeds K^-(p=0): {rows[f'example {worst[0]}']}",
                   counterexample={"example": worst[0], **rows[f"example {worst[0]}"]})


@claim(id="000.thm-3.2.case2-gamma-order", seed="000", result="Theorem D.3", role="proof-step", lines="L1129-1134",
       statement="In case 2 (K >= K^+), gamma = m(1+gamma)(p+1)^(-1/(1+p))(s/K)^(1/(1+p)) = O(m (s/(sqrt(eps) N_c))^(2/(1+2p))) "
                 "= O((s_{0,c} sqrt(m)/(sqrt(eps) N_c))^(2/(1+2p))), and dropping gamma from A moves K^+ by O(N_c^(-1/(1+2p))) "
                 "epochs (footnote 10).",
       recorded="holds")
def check_case2_gamma_order() -> Verdict:
    p, eps, n_c, s, m, s0, a, g = sympy.symbols("p eps N_c s m s_0c A gamma", positive=True)
    k_plus = pv.k_pm(a, p, eps, n_c, s)
    # at K = K^+ (the smallest case-2 K, where gamma's bound is largest): m (s/K)^(1/(1+p)) over the printed order
    at_k = m * (s / k_plus) ** (1 / (1 + p))
    order = m * (s / (sympy.sqrt(eps) * n_c)) ** (2 / (1 + 2 * p))
    first = sympy.simplify(sympy.powsimp(sympy.expand_power_base(at_k / order, force=True), force=True))
    second = sympy.simplify(sympy.powsimp(sympy.expand_power_base(
        (order / (s0 * sympy.sqrt(m) / (sympy.sqrt(eps) * n_c)) ** (2 / (1 + 2 * p))).subs(s, s0 / m ** p), force=True), force=True))
    # footnote 10: A carries (1+gamma)^(3(1+p)) (L1087), so dropping gamma changes K^+/N_c by a factor 1 + O(gamma):
    # O(gamma) K^+/N_c with K^+/N_c = A eps^((1+p)/(1+2p)) (N_c/s)^(1/(1+2p)) is O(N_c^(-1/(1+2p))) at fixed s, m, eps
    shift = sympy.simplify(sympy.powsimp(sympy.expand_power_base(order * k_plus / n_c, force=True), force=True))
    n_power = sympy.simplify(sympy.diff(sympy.expand_log(sympy.log(shift), force=True), n_c) * n_c)
    ev = {"(s/K^+)^(1/(1+p)) m / printed order": str(first), "printed order / (s0 sqrt(m)/(sqrt(eps) N_c))^(2/(1+2p))": str(second),
          "K^+ shift in epochs ~ N_c^": str(n_power), "domain": "all positive parameters (symbolic)",
          "note": "the ratio in the first entry is a constant in N_c, s, m (A^(-1/(1+p))): the order holds"}
    ok = (sympy.simplify(sympy.diff(sympy.log(first), n_c)) == 0 and sympy.simplify(sympy.diff(sympy.log(first), s)) == 0
          and sympy.simplify(sympy.diff(sympy.log(first), m)) == 0 and second == 1
          and sympy.simplify(n_power + 1 / (1 + 2 * p)) == 0)
    if ok:
        return Verdict("holds", "symbolic", 0.0, ev, arithmetic=("sympy",))
    return Verdict("refuted", "symbolic", None, {**ev, "margin_none": "an order that fails symbolically"}, arithmetic=("sympy",),
                   why=f"the printed orders do not follow: {ev}", counterexample={"p": "symbolic"})
