r"""Seed 002 Lemma B.3 (L516-530) and its proof (L532-652), replayed step by step as ledger claims.

The lemma's objects live in :mod:`theory.lemmas.tail_lemma` (shared with seed 000's Lemma D.1), its moments in
:mod:`theory.lemmas.mixture_moments`, the point functions the scans below sweep in the former. Here every
step of the proof is one claim, so that a step that fails is recorded even when the conclusion holds:

======================  =========  ==========================================================
claim id suffix         lines      step
======================  =========  ==========================================================
``reduction-t2``        L594       Abadi's t = 2 term: binom(lam+1, 2) M_2 <= q^2 lam(lam+1)/((1-q) sigma^2)
``moment-14``           L602       (14): Abadi's bound on the moments M_t, t >= 3
``regroup-14``          L602-604   the printed regrouping (second line of (14)) equals the first line
``step-15``             L606-616   (14) <= (15) with the constant c of L612
``c-le-2``              L618       sigma >= 216/215, q <= r0/sigma, r0 < 1  =>  q <= 215/216  =>  c <= 2
``binomial``            L620-624   binom(lam+1,t) <= (lam+1)/lam lam^t/t!, (t-1)!!/t! <= 1, t^t/t! <= e^t
``step-16``             L620-630   (15) with c = 2 and these bounds is (16) (algebra)
``step-634``            L632-638   the bases x_t, y_t of (16) are <= U_0(lam), U_1(lam)
``geometric``           L640-646   the sum of (16) over t <= the t = 3 terms times 1/(1-u)
``final-algebra``       L644-650   the t = 3 terms times 1/(1-u) equal (r/r0) lam^2(lam+1)q^3/((1-q)^2 sigma^3)
``tail-13``             L598, L650 the conclusion on the tail (13) itself (exact tail)
``conclusion``          L516-530   alpha(lam) <= the lemma's bound (exact log moment from numerics.rdp)
======================  =========  ==========================================================

The exact moments are those of the direction :math:`(\nu_0,\nu_1)=(\mu,\mu_0)`, the one whose moment
is :math:`A_{\lambda+1}` and which dominates (numerics.rdp); the other direction is checked at a few
points by quadrature in the tests.
"""
from __future__ import annotations

import math


import mpmath
import numpy as np
import sympy as sp

from numerics.precision import MP_DPS
from numerics.sweep import sweep
from theory.lemmas import mixture_moments as mm
from theory.lemmas import tail_lemma as tl
from theory.lemmas.tail_lemma import LAM_CAP, conclusion_point, geometric_point, step_634_point, tail_point
from theory.ledger import HypothesisFails, Verdict, claim

# --- the hypothesis region, sampled ------------------------------------------------------------

#: sigma values of the CI grid: from the lemma's lower end 216/215 to 100 (brief: sigma up to 100).
GRID_SIGMAS = (1.005, 1.5, 2.5, 4.0, 8.0, 20.0, 50.0, 100.0)
#: r0 values (< 1) of the CI grid; 1/e is Theorem B.2's cap (L470).
GRID_R0S = (0.001, 0.05, 0.2, 1 / math.e, 0.9)
#: q as a fraction of its cap r0/sigma (1 = on the boundary q = r0/sigma).
GRID_Q_FRACTIONS = (1.0, 0.1)
#: lam values per (sigma, r0, q): geometrically spaced from 1 to the largest admissible lam.
GRID_LAMS_PER_POINT = 4


def lam_max_admissible(sigma, q, r0) -> int:
    r"""Largest integer :math:`\lambda` with :math:`\lambda\le\sigma^2\ln(1/(q\sigma))` (L518) and
    :math:`U_0(\lambda), U_1(\lambda) < 1` (L524), capped at :data:`LAM_CAP`; 0 when none."""
    if sigma <= r0:
        return 0
    # U0(lam) < 1  <=>  lam < sigma (sigma - r0)^2 / (4 r0);  U1 < 1  <=>  lam < sigma^3 (sigma - r0)^2 / (4 e^2 r0)
    u_cap = min(sigma * (sigma - r0) ** 2 / (4 * r0), sigma ** 3 * (sigma - r0) ** 2 / (4 * math.e ** 2 * r0))
    lam = min(tl.max_lambda(sigma, q), math.ceil(u_cap) - 1, LAM_CAP)
    while lam >= 1 and not tl.lemma_b3_hypotheses(lam, sigma, q, r0, *tl.tail_u(lam, sigma, r0))["all"]:
        lam -= 1  # float rounding at the boundary: step down to an admissible lam
    return max(lam, 0)


def region_points(sigmas=GRID_SIGMAS, r0s=GRID_R0S, q_fractions=GRID_Q_FRACTIONS,
                  lams_per_point=GRID_LAMS_PER_POINT) -> list:
    """Points (lam, sigma, q, r0) of the lemma's hypothesis region (all hypotheses hold, variant 002)."""
    pts = []
    for sigma in sigmas:
        for r0 in r0s:
            for frac in q_fractions:
                q = frac * r0 / sigma * (1 - 1e-12)  # just inside q <= r0/sigma despite float rounding
                top = lam_max_admissible(sigma, q, r0)
                if top < 1:
                    continue
                lams = sorted({max(1, round(top ** (i / (lams_per_point - 1)))) for i in range(lams_per_point)})
                pts += [dict(lam=lam, sigma=sigma, q=q, r0=r0) for lam in lams]
    return pts


def _where(p: dict) -> dict:
    return {"lam": int(p["lam"]), "sigma": float(p["sigma"]), "q": float(p["q"]), "r0": float(p["r0"])}


def _scan(fn, points):
    return sweep(fn, points, backend="serial", desc=fn.__name__)


# --- symbols for the algebraic steps ------------------------------------------------------------

LAM, T, Q, SIG = sp.symbols("lambda t q sigma", positive=True)
P = sp.symbols("p", positive=True)  # p = 1 - q > 0, so that sympy may combine powers of (1 - q)


def _is_zero(expr) -> bool:
    """sympy zero test with q = 1 - p (p > 0) and forced power combination."""
    e = sp.expand_power_base(sp.powsimp(expr.subs(Q, 1 - P), force=True), force=True)
    return sp.simplify(sp.powsimp(sp.expand(e), force=True)) == 0
E_T = sp.exp((T ** 2 - T) / (2 * SIG ** 2))


def moment_bound_14_first_line():
    """(14) first line, L602, as a sympy expression in t, q, sigma (with (t-1)!! as a symbol DF)."""
    df = sp.Symbol("DF", positive=True)
    return df, ((2 * Q) ** T * df / (2 * (1 - Q) ** (T - 1) * SIG ** T) + Q ** T / ((1 - Q) ** T * SIG ** (2 * T))
                + (2 * Q) ** T * E_T * (SIG ** T * df + T ** T) / (2 * (1 - Q) ** (T - 1) * SIG ** (2 * T)))


def moment_bound_14_second_line(leading: int = 1):
    """(14) second line as printed (``leading=1``: "1 + (1-q)2^t..."), or regrouped with another leading term."""
    df = sp.Symbol("DF", positive=True)
    return df, ((2 * Q) ** T * df * (1 + E_T) / (2 * (1 - Q) ** (T - 1) * SIG ** T)
                + Q ** T * (leading + (1 - Q) * 2 ** T * E_T * T ** T) / (2 * (1 - Q) ** T * SIG ** (2 * T)))


def eq15(t, q, sigma, c):
    """(15), L616, at numbers (mpmath)."""
    with mpmath.workdps(MP_DPS):
        q, s = mpmath.mpf(q), mpmath.mpf(sigma)
        e_t = mpmath.exp(mpmath.mpf(t * t - t) / (2 * s * s))
        return +((2 * q) ** t * mpmath.fac2(t - 1) * c * e_t / (2 * (1 - q) ** (t - 1) * s ** t)
                 + q ** t * c * (1 - q) * 2 ** t * e_t * mpmath.mpf(t) ** t / (2 * (1 - q) ** t * s ** (2 * t)))


def c_of_l612(q, sigma):
    r""":math:`c = 1 + \max\{1, 1/((1-q)216)\}/e^{3/\sigma^2}` (L612)."""
    with mpmath.workdps(MP_DPS):
        q, s = mpmath.mpf(q), mpmath.mpf(sigma)
        return +(1 + max(mpmath.mpf(1), 1 / ((1 - q) * 216)) / mpmath.exp(3 / s ** 2))


# --- claims ----------------------------------------------------------------------------------------

@claim(id="002.lemma-B3.reduction-t2", seed="002", lines="L594",
       statement="The t = 2 term of the binomial expansion is at most q^2 lam(lam+1)/((1-q) sigma^2) "
                 "(Abadi et al.'s Lemma 3, the lemma's first summand), for sigma >= 216/215.",
       recorded="holds", result="Lemma B.3", role="proof-step")
def check_reduction_t2() -> Verdict:
    # direction (mu, mu0): M_2 = q^2 (e^{1/sigma^2} - 1); binom(lam+1,2) M_2 <= bound  <=>  (e^x - 1)/2 <= x/(1-q), x = 1/sigma^2.
    # Sufficient (q >= 0): e^x - 1 <= 2x, true for x <= x* (root of e^x = 1 + 2x); sigma >= 216/215 gives x <= (215/216)^2.
    x = sp.symbols("x", positive=True)
    root = sp.nsolve(sp.exp(x) - 1 - 2 * x, x, 1.25)
    x_max = sp.Rational(215, 216) ** 2
    margin = float(root - x_max)
    # e^x - 1 - 2x is convex with value 0 at 0 and at root, so it is <= 0 on [0, root]
    ok = margin > 0 and bool((sp.exp(x) - 1 - 2 * x).subs(x, x_max).is_negative)  # sign decided by sympy
    return Verdict("holds" if ok else "refuted", "symbolic", arithmetic=("sympy", "mpmath"), margin=margin,
                   evidence={"direction": "(mu, mu0), M_2 = q^2 (e^{1/sigma^2}-1)", "root_of_e^x=1+2x": float(root),
                             "x_max=(215/216)^2": float(x_max),
                             "note": "the other direction is checked by quadrature in the tests"},
                   counterexample=None if ok else {"x": float(x_max)})


@claim(id="002.lemma-B3.moment-14", seed="002", lines="L598-604",
       statement="Abadi's moment bound (14) holds: M_t <= (2q)^t(t-1)!!/(2(1-q)^{t-1}sigma^t) + q^t/((1-q)^t sigma^{2t}) "
                 "+ (2q)^t e^{(t^2-t)/(2 sigma^2)}(sigma^t (t-1)!! + t^t)/(2(1-q)^{t-1} sigma^{2t}) for t >= 3.",
       recorded="holds", result="Lemma B.3", role="proof-step")
def check_moment_14() -> Verdict:
    worst, n = None, 0
    for sigma in (1.005, 1.5, 3.0, 10.0, 50.0):
        for q in (1e-4, 0.01, 0.1, 0.5, 0.9):
            for t in (3, 4, 5, 8, 13, 21, 34):
                n += 1
                ratio = float(mm.mixture_moment(t, q, sigma) / mm.moment_bound_14(t, q, sigma))
                if worst is None or ratio > worst["ratio"]:
                    worst = {"ratio": ratio, "t": t, "q": q, "sigma": sigma}
    status = "holds" if worst["ratio"] <= 1 else "refuted"
    return Verdict(status, "sampled", margin=1 - worst["ratio"],
                   evidence={"points": n, "where": "sigma in {1.005,1.5,3,10,50}, q in {1e-4,...,0.9}, t in {3..34}",
                             "direction": "(mu, mu0) exact (mpmath); (mu0, mu) by quadrature in the tests",
                             "worst": worst},
                   counterexample=None if status == "holds" else worst)


@claim(id="002.lemma-B3.regroup-14", seed="002", lines="L602-604",
       statement="The second line of (14) equals its first line.", recorded="holds-with-correction", result="Lemma B.3", role="proof-step")
def check_regroup_14() -> Verdict:
    _, first = moment_bound_14_first_line()
    df, printed = moment_bound_14_second_line(1)
    _, corrected = moment_bound_14_second_line(2)
    diff_printed = sp.simplify(printed - first)
    corrected_ok = _is_zero(corrected - first)
    pt = {T: 3, Q: sp.Rational(1, 10), SIG: 2, df: 2}
    cex = {"t": 3, "q": 0.1, "sigma": 2.0, "first_line": float(first.subs(pt)), "printed_second_line": float(printed.subs(pt))}
    if _is_zero(printed - first):
        return Verdict("holds", "symbolic", arithmetic=("sympy",), margin=0.0, evidence={"difference": "0"})
    status = "holds-with-correction" if corrected_ok else "refuted"
    why = (f"the printed second line of (14) has '1 + (1-q) 2^t e^(..) t^t' where regrouping the first line over the common "
           f"denominator gives '2 + ...' (sympy: the corrected line equals the first, {corrected_ok}): the q^t/((1-q)^t "
           f"sigma^(2t)) term counts twice. The printed line is slightly smaller ({cex['printed_second_line']:.6g} against "
           f"{cex['first_line']:.6g} at t = 3, q = 0.1, sigma = 2); the proof continues from the first line's terms "
           f"((15) with c, 002.lemma-B3.step-15 holds), so Lemma B.3 is unaffected.")
    return Verdict(status, "symbolic", arithmetic=("sympy", "float"), why=why, margin=abs(cex["first_line"] - cex["printed_second_line"]),
                   evidence={"margin_unit": "absolute: |first line - printed second line| at t = 3, q = 0.1, sigma = 2",
                             "printed_minus_first": str(diff_printed), "correction": "second numerator '2 + (1-q)2^t e^{..} t^t', "
                             "not '1 + ...': the q^t/((1-q)^t sigma^{2t}) term counts twice over the common denominator",
                             "corrected_minus_first_is_zero": corrected_ok},
                   counterexample=cex)


#: sigma values of the step-(15) scan: from the lemma's lower end 216/215 to 1e4 (the worst ratio tends to 1
#: from below as sigma grows, so the large values matter).
STEP15_SIGMAS = (216 / 215 * (1 + 1e-9), 1.02, 1.05, 1.1, 1.25, 1.5, 2.0, 3.0, 5.0, 10.0, 30.0, 100.0, 1000.0, 1e4)
#: q as a fraction of 1/sigma (r0 -> 1 at fraction 1).
STEP15_Q_FRACTIONS = (0.999, 0.99, 0.95, 0.9, 0.8, 0.6, 0.5, 0.3, 0.1, 0.01)
#: largest t of the scan (t runs over 3 .. min(lam_max + 1, STEP15_T_MAX)).
STEP15_T_MAX = 40


def step15_points():
    r"""(t, q, sigma, r0, lam_max) where the step (14) <= (15) is USED: t <= lam + 1 for some lam the lemma admits.

    The step serves the terms 3 <= t <= lam + 1 of (13), so a point (t, q, sigma) matters only when an admissible
    lam >= max(2, t - 1) exists (L518-524). U_0, U_1 increase in r_0, so r_0 = q sigma (its smallest value under
    q <= r_0/sigma) admits the most lam; a point without any admissible lam >= 2 is outside the lemma.
    """
    pts, outside = [], []
    for sigma in STEP15_SIGMAS:
        for frac in STEP15_Q_FRACTIONS:
            q = frac / sigma * (1 - 1e-12)
            r0 = min(q * sigma * (1 + 1e-9), 1 - 1e-12)
            top = lam_max_admissible(sigma, q, r0)
            if top < 2:
                outside.append({"sigma": sigma, "q": q, "lam_max": top})
                continue
            pts += [dict(t=t, q=q, sigma=sigma, r0=r0, lam_max=top) for t in range(3, min(top + 1, STEP15_T_MAX) + 1)]
    return pts, outside


def _step15_scan(points, c_choice: str):
    worst = None
    for p in points:
        c = c_of_l612(p["q"], p["sigma"]) if c_choice == "L612" else 2
        ratio = float(mm.moment_bound_14(p["t"], p["q"], p["sigma"]) / eq15(p["t"], p["q"], p["sigma"], c))
        if worst is None or ratio > worst["ratio"]:
            worst = dict(p, ratio=ratio)
    return worst


@claim(id="002.lemma-B3.step-15", seed="002", lines="L606-616",
       statement="With c = 1 + max{1, 1/((1-q)216)}/exp(3/sigma^2), Abadi's bound (14) is at most (15) for every "
                 "3 <= t <= lam+1 with lam admissible under the lemma's hypotheses.",
       recorded="holds", result="Lemma B.3", role="proof-step", version="2")
def check_step_15() -> Verdict:
    points, outside = step15_points()
    worst = _step15_scan(points, "L612")
    worst2 = _step15_scan(points, "2")
    # the previous counterexample (sigma = 216/215, q -> 1/sigma): no admissible lam there
    old_cx = {"sigma": 216 / 215 * (1 + 1e-12), "q": 0.999 / (216 / 215)}
    old_cx["lam_max"] = lam_max_admissible(old_cx["sigma"], old_cx["q"], min(old_cx["q"] * old_cx["sigma"] * (1 + 1e-9), 1 - 1e-12))
    status = "holds" if worst["ratio"] <= 1 else "refuted"
    return Verdict(status, "sampled", margin=1 - worst["ratio"],
                   evidence={"points": len(points), "margin_unit": "1 - (14)/(15), relative",
                             "where": f"sigma in {[round(s, 6) for s in STEP15_SIGMAS]}, q = f/sigma for f in "
                                      f"{list(STEP15_Q_FRACTIONS)}, r0 = q sigma, t in 3..min(lam_max+1, {STEP15_T_MAX}) "
                                      "with lam_max the largest admissible lam",
                             "points_outside_the_lemma": len(outside),
                             "worst_with_c_of_L612": worst, "worst_with_c=2": worst2,
                             "point_without_admissible_lam": old_cx,
                             "note": "outside the lemma (q close to 1/sigma with sigma close to 216/215, where (c-1)(1-q)216 < 2 "
                                     "breaks the t = 3 term) no lam >= 2 is admissible: lam <= sigma^2 ln(1/(q sigma)) ~ 0. "
                                     "Inside, the worst ratio tends to 1 from below as sigma grows (c -> 2)."},
                   counterexample=None if status == "holds" else worst)


@claim(id="002.lemma-B3.c-le-2", seed="002", lines="L612-618",
       statement="sigma >= 216/215, q <= r0/sigma and r0 < 1 imply q <= 215/216, which makes c <= 2.",
       recorded="holds", result="Lemma B.3", role="proof-step")
def check_c_le_2() -> Verdict:
    s, r0, q = sp.symbols("sigma r0 q", positive=True)
    # q <= r0/sigma < 1/sigma <= 215/216: the cap r0/sigma is increasing in r0 and decreasing in sigma,
    # so its supremum over the hypotheses is its value at (r0, sigma) = (1, 216/215).
    cap = (r0 / s).subs({r0: 1, s: sp.Rational(216, 215)})
    increasing_r0 = sp.diff(r0 / s, r0).is_positive
    decreasing_s = sp.diff(r0 / s, s).is_negative
    # at q <= 215/216: (1-q) 216 >= 1, so max{1, 1/((1-q)216)} = 1 and c = 1 + e^{-3/sigma^2} < 2.
    c_at_cap = 1 + sp.Max(1, 1 / ((1 - cap) * 216)) / sp.exp(3 / s ** 2)
    c_lt_2 = sp.simplify(c_at_cap - 2 + (1 - sp.exp(-3 / s ** 2)))  # == 0 iff c = 1 + e^{-3/sigma^2}
    ok = cap == sp.Rational(215, 216) and increasing_r0 and decreasing_s and c_lt_2 == 0
    return Verdict("holds" if ok else "refuted", "symbolic", arithmetic=("sympy",), margin=float(1 - sp.Rational(215, 216)),
                   evidence={"sup_q": str(cap), "c_at_sup_q": str(sp.simplify(c_at_cap)),
                             "note": "216 = 2^3 3^3 comes from the t = 3 term (L606)"},
                   counterexample=None if ok else {"sup_q": str(cap)})


#: largest lam for the exhaustive integer checks of the binomial step (CI); the slow test goes further.
BINOMIAL_LAM_MAX = 120


def binomial_step_violations(lam_max: int) -> dict:
    """Exact integer/rational check of L620-624 for 3 <= t <= lam + 1 <= lam_max + 1."""
    bad, n = [], 0
    for lam in range(2, lam_max + 1):
        lam_pow = 1
        for t in range(1, lam + 2):
            lam_pow *= lam
            if t < 3:
                continue
            n += 1
            # binom(lam+1, t) <= (lam+1)/lam * lam^t / t!   <=>   binom * lam * t! <= (lam+1) lam^t
            if math.comb(lam + 1, t) * lam * math.factorial(t) > (lam + 1) * lam_pow:
                bad.append({"lam": lam, "t": t, "inequality": "binomial"})
    for t in range(3, lam_max + 2):
        n += 2
        if math.prod(range(t - 1, 0, -2)) > math.factorial(t):
            bad.append({"t": t, "inequality": "(t-1)!!/t! <= 1"})
        # t^t / t! <= e^t  <=>  t ln t - ln t! <= t; by Stirling the gap t - (t ln t - ln t!) is >= ln sqrt(2 pi t) > 1.4
        # for t >= 3, far above lgamma's rounding
        if t * math.log(t) - math.lgamma(t + 1) > t:
            bad.append({"t": t, "inequality": "t^t/t! <= e^t"})
    return {"checked": n, "violations": bad}


@claim(id="002.lemma-B3.binomial", seed="002", lines="L620-624",
       statement="binom(lam+1, t) <= (lam+1)/lam lam^t/t!, (t-1)!!/t! <= 1 and t^t/t! <= e^t for 3 <= t <= lam+1.",
       recorded="holds", result="Lemma B.3", role="proof-step", version="2")
def check_binomial() -> Verdict:
    res = binomial_step_violations(BINOMIAL_LAM_MAX)
    ok = not res["violations"]
    return Verdict("holds" if ok else "refuted", "numeric", margin=0.0,
                   evidence={"checked": res["checked"], "lam_max": BINOMIAL_LAM_MAX,
                             "domain": f"exhaustive for 2 <= lam <= {BINOMIAL_LAM_MAX} (every 3 <= t <= lam+1), exact "
                                       "integer arithmetic; the statement's lam is unbounded: beyond the scan it rests on "
                                       "the argument in the note, not on a check",
                             "note": "exhaustive in integers (t^t/t! <= e^t via lgamma with a > 1.4 gap); "
                                     "binomial bound also follows from prod_{j=1}^{t-1}(lam+1-j) <= lam^{t-1}"},
                   counterexample=res["violations"][0] if not ok else None)


@claim(id="002.lemma-B3.step-16", seed="002", lines="L620-630",
       statement="(15) with c = 2, times the binomial bound, with (t-1)!! <= t! and t^t <= e^t t!, equals (16).",
       recorded="holds", result="Lemma B.3", role="proof-step")
def check_step_16() -> Verdict:
    fact = sp.Symbol("FACT", positive=True)  # t!
    binom_ub = (LAM + 1) / LAM * LAM ** T / fact
    # (15) with c = 2, (t-1)!! replaced by t! and t^t by e^t t!
    term1 = (2 * Q) ** T * fact * 2 * E_T / (2 * (1 - Q) ** (T - 1) * SIG ** T)
    term2 = Q ** T * 2 * (1 - Q) * 2 ** T * E_T * sp.E ** T * fact / (2 * (1 - Q) ** T * SIG ** (2 * T))
    x_t = LAM * 2 * Q * sp.exp((T - 1) / (2 * SIG ** 2)) / ((1 - Q) * SIG)
    y_t = LAM * Q * 2 * sp.exp(1 + (T - 1) / (2 * SIG ** 2)) / ((1 - Q) * SIG ** 2)
    eq16 = (1 - Q) * (LAM + 1) / LAM * (x_t ** T + y_t ** T)
    ok = _is_zero(binom_ub * (term1 + term2) - eq16)
    return Verdict("holds" if ok else "refuted", "symbolic", arithmetic=("sympy",), margin=0.0,
                   evidence={"difference_is_zero": ok, "substitution": "q = 1 - p, p > 0"},
                   counterexample=None if ok else {"lam": 7, "t": 4, "q": 0.02, "sigma": 3.0})


def _bases_float(cx: dict):
    """(log x_base, log y_base, U_0, U_1) at a counterexample in plain floats, after checking the lemma's hypotheses:
    x_t = lam 2q e^{(t-1)/(2 sigma^2)}/((1-q) sigma), y_t = lam q 2 e^{1 + (t-1)/(2 sigma^2)}/((1-q) sigma^2) (16)."""
    lam, sigma, q, r0 = int(cx["lam"]), float(cx["sigma"]), float(cx["q"]), float(cx["r0"])
    if not tl.lemma_b3_hypotheses(lam, sigma, q, r0, *tl.tail_u(lam, sigma, r0))["all"]:
        raise HypothesisFails(f"the lemma's hypotheses fail at lam={lam}, sigma={sigma}, q={q}, r0={r0}")
    root = math.sqrt(lam * r0 / sigma)
    u0, u1 = 2 * root / (sigma - r0), 2 * math.e * root / ((sigma - r0) * sigma)
    log_x = math.log(lam * 2 * q / ((1 - q) * sigma))
    log_y = math.log(lam * q * 2 / ((1 - q) * sigma ** 2)) + 1
    return lam, sigma, log_x, log_y, u0, u1


def recheck_step_634(cx: dict) -> float:
    """1 - max(x_t/U_0, y_t/U_1) over 3 <= t <= lam + 1 (the max at t = lam + 1), plain floats."""
    lam, sigma, log_x, log_y, u0, u1 = _bases_float(cx)
    top = lam / (2 * sigma ** 2)
    return 1 - max(math.exp(log_x + top) / u0, math.exp(log_y + top) / u1)


def recheck_geometric(cx: dict) -> float:
    """-max over x, y of ln(sum_{t=3}^{lam+1} base_t^t / (base_3^3/(1-U))), by scipy's logsumexp."""
    from scipy.special import logsumexp

    lam, sigma, log_x, log_y, u0, u1 = _bases_float(cx)
    t = np.arange(3, lam + 2, dtype=float)
    worst = -math.inf
    for log_base, u in ((log_x, u0), (log_y, u1)):
        terms = t * (log_base + (t - 1) / (2 * sigma ** 2))
        worst = max(worst, float(logsumexp(terms)) - (float(terms[0]) - math.log(1 - u)))
    return -worst


@claim(id="002.lemma-B3.step-634", seed="002", lines="L632-638", recheck=recheck_step_634,
       statement="Under the lemma's hypotheses (lam <= sigma^2 ln(1/(q sigma))), the bases of (16) satisfy "
                 "x_t <= U_0(lam) and y_t <= U_1(lam) for 3 <= t <= lam+1.",
       recorded="refuted", result="Lemma B.3", role="proof-step")
def check_step_634() -> Verdict:
    pts = region_points()
    res = _scan(step_634_point, pts)
    rows = [dict(_where(p), **r) for p, r in zip(pts, res)]
    worst = max(rows, key=lambda r: max(r["x_over_u0"], r["y_over_u1"]))
    failing = [r for r in rows if r["x_over_u0"] > 1 or r["y_over_u1"] > 1]
    small = [r for r in rows if r["lam"] <= r["sigma"]]
    small_ok = all(r["x_over_u0"] <= 1 and r["y_over_u1"] <= 1 for r in small)
    # seed 000's proof (L895) assumes lam/sigma^2 <= ln(1/(q lam)) instead; under it the middle inequality holds
    alt = [r for r in rows if r["lam"] / r["sigma"] ** 2 <= math.log(1 / (r["q"] * r["lam"]))]
    alt_ok = all(r["x_over_u0"] <= 1 + 1e-12 and r["y_over_u1"] <= 1 + 1e-12 for r in alt)
    status = "refuted" if failing else "holds"
    why = "" if not failing else (
        f"{len(failing)} of {len(rows)} sampled points of the hypothesis region have a base of (16) above U_0 or U_1; worst "
        f"lam = {worst['lam']}, sigma = {worst['sigma']}, q = {worst['q']:.4g}, r0 = {worst['r0']}: x_t/U_0 = "
        f"{worst['x_over_u0']:.3f}. lam/sigma^2 <= ln(1/(q sigma)) gives lam q e^(lam/(2 sigma^2)) <= lam sqrt(q/sigma), "
        f"which is <= sqrt(lam q) only for lam <= sigma (all {len(small)} such points hold: {small_ok}); under seed 000's "
        f"assumption lam/sigma^2 <= ln(1/(q lam)) all {len(alt)} points hold ({alt_ok}). The lemma's conclusion holds on "
        f"the region (002.lemma-B3.conclusion, .certified): the proof step, not the result, fails.")
    return Verdict(status, "numeric", margin=1 - max(worst["x_over_u0"], worst["y_over_u1"]), why=why,
                   evidence={"margin_unit": "relative: 1 - max(x_t/U_0, y_t/U_1) at the worst point",
                             "points": len(rows), "failing": len(failing), "worst": worst,
                             "why": "lam/sigma^2 <= ln(1/(q sigma)) gives lam q e^{lam/(2 sigma^2)} <= lam sqrt(q/sigma), "
                                    "which is <= sqrt(lam q) only when lam <= sigma; seed 000's proof (L895) assumes "
                                    "lam/sigma^2 <= ln(1/(q lam)) instead, under which the step holds",
                             "points_with_lam_le_sigma": len(small), "all_hold_when_lam_le_sigma": small_ok,
                             "points_meeting_000_proof_assumption": len(alt), "all_hold_under_000_assumption": alt_ok},
                   counterexample=worst if failing else None)


@claim(id="002.lemma-B3.geometric", seed="002", lines="L640-646", recheck=recheck_geometric,
       statement="The sum over 3 <= t <= lam+1 of the terms (16) is at most their t = 3 terms times "
                 "1/(1-u_0) and 1/(1-u_1) respectively.",
       recorded="refuted", result="Lemma B.3", role="proof-step")
def check_geometric() -> Verdict:
    pts = region_points()
    res = _scan(geometric_point, pts)
    rows = [dict(_where(p), **r) for p, r in zip(pts, res) if r["log_ratio_x"] is not None]
    worst = max(rows, key=lambda r: max(r["log_ratio_x"], r["log_ratio_y"]))
    failing = [r for r in rows if r["log_ratio_x"] > 0 or r["log_ratio_y"] > 0]
    status = "refuted" if failing else "holds"
    why = "" if not failing else (
        f"{len(failing)} of {len(rows)} sampled points: the sum of (16) over 3 <= t <= lam+1 exceeds its t = 3 terms times "
        f"1/(1-u) by a factor e^{max(worst['log_ratio_x'], worst['log_ratio_y']):.1f} at lam = {worst['lam']}, sigma = "
        f"{worst['sigma']}, q = {worst['q']:.4g}, r0 = {worst['r0']}: consecutive terms grow by x_t e^(t/(2 sigma^2)), not by "
        f"at most U_0, because the exponent t(t-1)/(2 sigma^2) is quadratic in t. The lemma's conclusion still holds on the "
        f"region (002.lemma-B3.conclusion, .certified): the other terms of the expansion leave room.")
    return Verdict(status, "numeric", margin=-max(worst["log_ratio_x"], worst["log_ratio_y"]), why=why,
                   evidence={"margin_unit": "log: -ln(sum of (16) / (t = 3 terms x 1/(1-u))) at the worst point",
                             "points": len(rows), "failing": len(failing), "worst_log_ratio": worst,
                             "why": "consecutive terms of (16) grow by x_t e^{t/(2 sigma^2)}, not by at most U_0: "
                                    "the exponent t(t-1)/(2 sigma^2) is quadratic in t"},
                   counterexample=worst if failing else None)


@claim(id="002.lemma-B3.final-algebra", seed="002", lines="L644-650",
       statement="The t = 3 terms of (16) times 1/(1-u_0), 1/(1-u_1) equal (r/r0) lam^2(lam+1) q^3/((1-q)^2 sigma^3) "
                 "with r of (17).",
       recorded="holds", result="Lemma B.3", role="proof-step")
def check_final_algebra() -> Verdict:
    u0, u1, r0 = sp.symbols("u0 u1 r0", positive=True)
    x3 = LAM * 2 * Q * sp.exp(1 / SIG ** 2) / ((1 - Q) * SIG)
    y3 = LAM * Q * 2 * sp.exp(1 + 1 / SIG ** 2) / ((1 - Q) * SIG ** 2)
    lhs = (1 - Q) * (LAM + 1) / LAM * (x3 ** 3 / (1 - u0) + y3 ** 3 / (1 - u1))
    r = r0 * 2 ** 3 * (1 / (1 - u0) + 1 / (1 - u1) * sp.E ** 3 / SIG ** 3) * sp.exp(3 / SIG ** 2)
    rhs = r / r0 * LAM ** 2 * (LAM + 1) * Q ** 3 / ((1 - Q) ** 2 * SIG ** 3)
    diff = sp.simplify(lhs - rhs)
    ok = diff == 0
    return Verdict("holds" if ok else "refuted", "symbolic", arithmetic=("sympy",), margin=0.0, evidence={"difference": str(diff)},
                   counterexample=None if ok else {"difference": str(diff)})


@claim(id="002.lemma-B3.tail-13", seed="002", lines="L596-598, L650",
       statement="The binomial tail (13) is at most (r/r0) lam^2(lam+1) q^3/((1-q)^2 sigma^3) over the lemma's "
                 "hypothesis region.",
       recorded="holds", result="Lemma B.3", role="proof-step")
def check_tail_13() -> Verdict:
    return _region_ratio_verdict(tail_point, "worst", lambda worst: {
        "direction": "(mu, mu0), exact tail = A_{lam+1} - 1 - binom(lam+1,2) M_2 (numerics.rdp, "
                     "checked against the direct sum of (13) in the tests)"})


def _region_ratio_verdict(point_fn, worst_key: str, extra) -> Verdict:
    """Scan ``point_fn`` (returning a ``ratio`` = value / bound) over the lemma's sampled hypothesis region;
    holds when no ratio exceeds 1. ``extra(worst)`` adds claim-specific evidence."""
    pts = region_points()
    rows = [dict(_where(p), **r) for p, r in zip(pts, _scan(point_fn, pts))]
    worst = max(rows, key=lambda r: r["ratio"])
    status = "holds" if worst["ratio"] <= 1 else "refuted"
    return Verdict(status, "sampled", margin=1 - worst["ratio"],
                   evidence={"points": len(rows), "where": _grid_description(), worst_key: worst, **extra(worst)},
                   counterexample=None if status == "holds" else worst)


def _grid_description() -> str:
    return (f"sigma in {list(GRID_SIGMAS)}, r0 in {[round(r, 4) for r in GRID_R0S]}, q = f r0/sigma for f in "
            f"{list(GRID_Q_FRACTIONS)}, {GRID_LAMS_PER_POINT} lam per (sigma, r0, q) geometric in [1, lam_max], "
            f"lam_max = largest admissible lam (<= {LAM_CAP}); u_j = U_j(lam)")


@claim(id="002.lemma-B3.conclusion", seed="002", lines="L516-530",
       statement="alpha_i(lam) <= q^2 lam(lam+1)/((1-q) sigma^2) + (r/r0) q^3 lam^2 (lam+1)/((1-q)^2 sigma^3) "
                 "under the lemma's hypotheses (exact log moment of the Poisson-subsampled Gaussian).",
       recorded="holds", result="Lemma B.3", role="conclusion")
def check_conclusion() -> Verdict:
    return _region_ratio_verdict(conclusion_point, "worst_ratio_exact_over_bound", lambda worst: {
        "min_bound_over_exact": 1 / worst["ratio"], "accountant": "numerics.rdp.alpha_moment (log A_{lam+1})",
        "note": "a rigorous certificate over boxes can enclose theory.lemmas.tail_lemma.lemma_b3_margin"})


__all__ = ["region_points", "lam_max_admissible", "binomial_step_violations", "eq15", "c_of_l612"]

