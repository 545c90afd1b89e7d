r"""The function :math:`c(x)` of seed 002 Theorem B.2 and its case analysis.

:math:`c(x)=\min\Big\{\frac{\sqrt{2r\rho x+1}-1}{r\rho x},\ \frac{2}{\hat\rho x}\Big\}`
(``002_13c470b90c68bab6.txt`` L478, L674). Origin: inverting (28) in the proof of Theorem B.2
(L808-826); the case :math:`c(x)=2/(\hat\rho x)` is the one Theorem B.4 uses (L896-936).

Glossary: ``r`` is (17); ``rho``, ``rho_hat`` bound :math:`\hat S_1\hat S_3/\hat S_2^2` and
:math:`\hat S_1^2/\hat S_2` (see :mod:`theory.proactive_dp.moments`); ``x`` is :math:`c_1` with
:math:`\epsilon=c_1T\hat S_1^2` (22); :math:`c_0=c(c_1)`.
"""
from __future__ import annotations

import math
import random

import sympy as sp

from numerics.errors import check_sigma
from theory.ledger import Verdict, claim

R, RHO, RHO_HAT, X, C0 = sp.symbols("r rho rho_hat x c_0", positive=True)
EPS, L, T, S1, S2, S3 = sp.symbols("epsilon L T S1 S2 S3", positive=True)  # L = ln(1/delta) > 0; S_j = S-hat_j

#: the two branches of c(x) (L478)
BRANCH_QUADRATIC = (sp.sqrt(2 * R * RHO * X + 1) - 1) / (R * RHO * X)
BRANCH_RHO_HAT = 2 / (RHO_HAT * X)


def c_of_x(x, r, rho, rho_hat) -> float:
    r""":math:`c(x)` at numbers (L478). All arguments > 0."""
    x, r, rho, rho_hat = (check_sigma(v, n) for v, n in ((x, "x"), (r, "r"), (rho, "rho"), (rho_hat, "rho_hat")))
    y = r * rho * x
    quad = 2 / (math.sqrt(2 * y + 1) + 1)  # = (sqrt(2y+1)-1)/y without cancellation
    return min(quad, 2 / (rho_hat * x))


def branch_threshold(r, rho, rho_hat) -> float:
    r"""(41): :math:`c(x)=2/(\hat\rho x)` iff :math:`x\ge 2r\rho/\hat\rho^2+2/\hat\rho` (L902)."""
    return 2 * r * rho / rho_hat ** 2 + 2 / rho_hat


def active_branch(x, r, rho, rho_hat) -> str:
    """Which branch of the min is active at x: ``"quadratic"`` or ``"2/(rho_hat x)"`` (ties count as the latter)."""
    y = r * rho * x
    return "2/(rho_hat x)" if 2 / (rho_hat * x) <= 2 / (math.sqrt(2 * y + 1) + 1) else "quadratic"


# --- claims ----------------------------------------------------------------------------------------

@claim(id="002.cx.inversion", seed="002", lines="L808-826",
       statement="Given c_1, the largest c_0 with c_0 <= 2/(rho-hat c_1) and (r rho/2) c_1 c_0^2 + c_0 - 1 <= 0 is "
                 "c(c_1) = min{(sqrt(2 r rho c_1 + 1) - 1)/(r rho c_1), 2/(rho-hat c_1)}.",
       recorded="holds", result="Theorem B.2", role="proof-step")
def check_inversion() -> Verdict:
    quad = R * RHO / 2 * X * C0 ** 2 + C0 - 1
    roots = sp.solve(sp.Eq(quad, 0), C0)
    pos = [rt for rt in roots if sp.simplify(rt - BRANCH_QUADRATIC) == 0
           or sp.simplify(sp.radsimp(rt) - sp.radsimp(BRANCH_QUADRATIC)) == 0]
    # the quadratic opens upwards (leading coefficient r rho x/2 > 0) and is -1 at c_0 = 0, so it is <= 0
    # exactly between its roots: the largest admissible c_0 is the positive root.
    value_at_0 = quad.subs(C0, 0)
    # completing the square as printed (L818, L822)
    square = sp.simplify((C0 + 1 / (R * RHO * X)) ** 2 - (1 / (R * RHO / 2 * X) + 1 / (R * RHO * X) ** 2)
                         - quad * 2 / (R * RHO * X))
    l822 = sp.simplify(sp.sqrt(1 / (R * RHO / 2 * X) + 1 / (R * RHO * X) ** 2) - 1 / (R * RHO * X) - BRANCH_QUADRATIC)
    ok = len(pos) == 1 and value_at_0 == -1 and square == 0 and l822 == 0
    return Verdict("holds" if ok else "refuted", "symbolic", arithmetic=("sympy",), margin=0.0,
                   evidence={"roots": [str(rt) for rt in roots], "positive_root_is_first_branch": len(pos) == 1,
                             "completing_square_L818": square == 0, "L822_equality": l822 == 0},
                   counterexample=None if ok else {"roots": [str(rt) for rt in roots]})


@claim(id="002.cx.branch-41", seed="002", lines="L896-902",
       statement="c(x) = 2/(rho-hat x) iff x >= 2 r rho/rho-hat^2 + 2/rho-hat (41).",
       recorded="holds", result="Theorem B.4", role="proof-step")
def check_branch_41() -> Verdict:
    # first branch >= second  <=>  sqrt(2 r rho x + 1) >= 1 + 2 r rho/rho_hat (both sides > 0, square)
    lhs_sq = 2 * R * RHO * X + 1
    rhs_sq = (1 + 2 * R * RHO / RHO_HAT) ** 2
    solved = sp.solve(sp.Ge(lhs_sq, rhs_sq), X)
    threshold = sp.simplify(sp.solve(sp.Eq(lhs_sq, rhs_sq), X)[0] - (2 * R * RHO / RHO_HAT ** 2 + 2 / RHO_HAT))
    # the multiplication by r rho x > 0 that turns L898 into sqrt(...) - 1 >= 2 r rho/rho_hat
    step = sp.simplify((BRANCH_QUADRATIC - BRANCH_RHO_HAT) * R * RHO * X - (sp.sqrt(lhs_sq) - 1 - 2 * R * RHO / RHO_HAT))
    # and at random positive points, both ways
    rng = random.Random(41)
    n, bad = 0, []
    for _ in range(2000):
        r, rho, rho_hat = rng.uniform(0.01, 50), rng.uniform(1, 5), rng.uniform(0.01, 1)
        thr = branch_threshold(r, rho, rho_hat)
        x = thr * math.exp(rng.uniform(-3, 3))
        n += 1
        if abs(x / thr - 1) > 1e-9 and ((active_branch(x, r, rho, rho_hat) == "2/(rho_hat x)") != (x >= thr)):
            bad.append({"x": x, "r": r, "rho": rho, "rho_hat": rho_hat})
    ok = threshold == 0 and step == 0 and not bad
    return Verdict("holds" if ok else "refuted", "symbolic", arithmetic=("sympy", "float"), margin=0.0,
                   evidence={"threshold_minus_41": str(threshold), "multiply_step": str(step), "solve": str(solved),
                             "random_points": n},
                   counterexample=bad[0] if bad else (None if ok else {"threshold_minus_41": str(threshold)}))


def _sigma_bound_with_second_branch():
    r"""Theorem B.2's sigma bound 2/sqrt(c_0) sqrt(S2 T (eps + L))/eps at c_0 = 2/(rho_hat c_1), c_1 = eps/(T S1^2)."""
    c1 = EPS / (T * S1 ** 2)
    c0 = 2 / (RHO_HAT * c1)
    return 2 / sp.sqrt(c0) * sp.sqrt(S2 * T * (EPS + L)) / EPS


@claim(id="002.cx.sigma-L922", seed="002", lines="L916-922",
       statement="With c_0 = 2/(rho-hat c_1), Theorem B.2's bound equals sqrt(rho-hat S-hat_2/S-hat_1) "
                 "sqrt(2(eps + ln(1/delta))/eps).",
       recorded="holds-with-correction", result="Theorem B.4", role="proof-step")
def check_sigma_l922() -> Verdict:
    bound = _sigma_bound_with_second_branch()
    base = sp.sqrt(2 * (EPS + L) / EPS)
    printed = sp.sqrt(RHO_HAT * S2 / S1) * base
    corrected = sp.sqrt(RHO_HAT * S2 / S1 ** 2) * base
    printed_ok = sp.simplify(bound - printed) == 0
    corrected_ok = sp.simplify(bound - corrected) == 0
    pt = {EPS: sp.Rational(1, 2), L: sp.log(10_000), T: 1000, S1: sp.Rational(26, 10_000), S2: sp.Rational(676, 99_740_000),
          RHO_HAT: sp.Rational(4987, 5000)}
    cex = {"point": "constant s = 26, N = 1e4, T = 1000, eps = 0.5, delta = 1e-4, rho-hat = 1 - q",
           "theorem_bound": float(bound.subs(pt)), "printed_L922": float(printed.subs(pt))}
    if printed_ok:
        return Verdict("holds", "symbolic", arithmetic=("sympy", "float"), margin=0.0, evidence={"difference": "0"})
    status = "holds-with-correction" if corrected_ok else "refuted"
    why = (f"with c_0 = 2/(rho-hat c_1) and c_1 = eps/(T S-hat_1^2) the bound is sqrt(rho-hat S-hat_2/S-hat_1^2) "
           f"sqrt(2(eps + L)/eps) (sympy: {corrected_ok}); L922 prints S-hat_1 unsquared, {cex['printed_L922']:.4g} "
           f"instead of {cex['theorem_bound']:.4g} at {cex['point']}. With rho-hat = S-hat_1^2/S-hat_2 the corrected form "
           f"gives (42) exactly (002.cx.eq42 holds), so Theorem B.4 is unaffected; L858 also writes 2/(rho x) for 2/(rho-hat x).")
    return Verdict(status, "symbolic", arithmetic=("sympy", "float"), why=why, margin=abs(cex["theorem_bound"] - cex["printed_L922"]),
                   evidence={"margin_unit": "absolute: |theorem bound - printed L922| at the point (sigma units)",
                             "correction": "sqrt(rho-hat S-hat_2 / S-hat_1^2): S-hat_1 is squared", "corrected_holds": corrected_ok,
                             "also": "L858 writes c(x) = 2/(rho x); the branch is 2/(rho-hat x) (L478, L896)"},
                   counterexample=cex)


@claim(id="002.cx.eq42", seed="002", lines="L924-932",
       statement="With rho-hat = S-hat_1^2/S-hat_2 the sigma bound becomes (42) sigma >= sqrt(2(eps + ln(1/delta))/eps), "
                 "which implies sigma >= 216/215.",
       recorded="holds", result="Theorem B.4", role="proof-step")
def check_eq42() -> Verdict:
    bound = _sigma_bound_with_second_branch().subs(RHO_HAT, S1 ** 2 / S2)
    eq42 = sp.sqrt(2 * (EPS + L) / EPS)
    same = sp.simplify(bound - eq42) == 0
    # sqrt(2(eps+L)/eps) > sqrt(2) > 216/215 for L > 0 (delta < 1)
    above_sqrt2 = bool(sp.simplify(eq42 ** 2 - 2).is_positive)  # sigma^2 - 2 = 2L/eps > 0 (sympy sign inference)
    sqrt2_gap = float(sp.sqrt(2) - sp.Rational(216, 215))
    ok = same and above_sqrt2 and sqrt2_gap > 0
    return Verdict("holds" if ok else "refuted", "symbolic", arithmetic=("sympy", "float"), margin=sqrt2_gap,
                   evidence={"bound_equals_42": same, "sqrt2_minus_216/215": sqrt2_gap},
                   counterexample=None if ok else {"bound_minus_42": str(sp.simplify(bound - eq42))})


@claim(id="002.cx.eq43", seed="002", lines="L910-936",
       statement="With rho = S-hat_1 S-hat_3/S-hat_2^2, rho-hat = S-hat_1^2/S-hat_2 and x = c_1 = eps/(T S-hat_1^2), "
                 "(41) holds iff (43) eps >= (2 r S-hat_3/S-hat_1 + 2 S-hat_2) T.",
       recorded="holds", result="Theorem B.4", role="proof-step")
def check_eq43() -> Verdict:
    rho, rho_hat = S1 * S3 / S2 ** 2, S1 ** 2 / S2
    x = EPS / (T * S1 ** 2)
    # (41) x >= threshold  <=>  eps >= T S1^2 threshold (T S1^2 > 0); compare that with (43)
    lhs_41 = sp.simplify(T * S1 ** 2 * (2 * R * rho / rho_hat ** 2 + 2 / rho_hat))
    rhs_43 = (2 * R * S3 / S1 + 2 * S2) * T
    same = sp.simplify(lhs_41 - rhs_43) == 0
    x_is_c1 = sp.simplify(x * T * S1 ** 2 - EPS) == 0
    ok = same and x_is_c1
    return Verdict("holds" if ok else "refuted", "symbolic", arithmetic=("sympy",), margin=0.0,
                   evidence={"T S1^2 (41 threshold) - (43)": str(sp.simplify(lhs_41 - rhs_43)),
                             "identities": {"2 r rho/rho_hat^2": str(sp.simplify(2 * R * rho / rho_hat ** 2)),
                                            "2/rho_hat": str(sp.simplify(2 / rho_hat))}},
                   counterexample=None if ok else {"difference": str(sp.simplify(lhs_41 - rhs_43))})


@claim(id="002.cx.bounded-decreasing", seed="002", lines="L478, L808-826",
       statement="c(x) <= 1 and c is decreasing in x (so c_0 = c(c_1) <= 1, used implicitly when (25) needs 1 - c_0 >= 0).",
       recorded="holds", result="Theorem B.2", role="proof-step")
def check_bounded_decreasing() -> Verdict:
    y = sp.symbols("y", positive=True)  # y = r rho x
    f = (sp.sqrt(2 * y + 1) - 1) / y
    # f <= 1  <=>  sqrt(2y+1) <= 1 + y  <=>  2y + 1 <= 1 + 2y + y^2
    le_one = sp.simplify((1 + y) ** 2 - (2 * y + 1) - y ** 2) == 0
    # f = 2/(sqrt(2y+1)+1) is decreasing since sqrt(2y+1) increases
    rational = sp.simplify(f - 2 / (sp.sqrt(2 * y + 1) + 1)) == 0
    ok = le_one and rational
    return Verdict("holds" if ok else "refuted", "symbolic", arithmetic=("sympy",), margin=0.0,
                   evidence={"first_branch_le_1": le_one, "first_branch_equals_2/(sqrt(2y+1)+1)": rational,
                             "second_branch": "2/(rho-hat x) is decreasing in x"},
                   counterexample=None if ok else {"le_one": le_one, "rational": rational})
