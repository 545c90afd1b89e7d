r"""Seed 002's Theorem B.1 (``002_13c470b90c68bab6.txt L440-442``): Abadi et al.'s DP-SGD theorem as seed 002
quotes it, confronted with the exact privacy curve of the Gaussian mechanism (:func:`theory.lemmas.gdp.delta_64`)
and the exact log-moment numerics.rdp.alpha_moment.
"""
from __future__ import annotations

import math

import mpmath
import sympy as sp

from numerics.precision import MP_DPS
from theory.ledger import HypothesisFails, Reading, Verdict, claim
from theory.lemmas.gdp import delta_64, normal_cdf_sym


# --- seed 002, Theorem B.1 (Abadi et al. 2016, Theorem 1) -------------------------------------------

#: Theorem B.1 as quoted (002_13c470b90c68bab6.txt L440-442): constants c1, c2 exist such that, with
#: q = s/N, for any eps < c1 T q^2 the algorithm is (eps, delta)-DP for any delta > 0 whenever
#: sigma >= c2 q sqrt(T ln(1/delta)) / eps.  Nothing else is assumed in the quote.
B1_LINES = "L440-442"
#: the constants tried (the theorem says only that some exist) and the delta of the counterexamples
B1_CONSTANTS = (1e-2, 1e-1, 1.0, 10.0, 100.0)
B1_DELTA = 1e-5
#: offset b of the counterexample family, eps = 2a(a + b) with a = c2 sqrt(ln(1/delta)); delta_exact
#: then exceeds Phi(b) - e^{-b^2/2}/2 whatever c1, c2 (see _b1_family_bound)
B1_OFFSET = 3


def b1_sigma_min(*, c2: float, q: float, steps: int, delta: float, epsilon: float) -> float:
    r"""The smallest sigma Theorem B.1 allows: :math:`c_2 q \sqrt{T\ln(1/\delta)}/\epsilon` (L442)."""
    return c2 * q * math.sqrt(steps * math.log(1.0 / delta)) / epsilon


def b1_counterexample(c1: float, c2: float, delta: float = B1_DELTA, b: float = B1_OFFSET) -> dict:
    r"""A point meeting every hypothesis of Theorem B.1 as quoted, for the given constants.

    q = 1 (s = N), :math:`a = c_2\sqrt{\ln(1/\delta)}`, :math:`\epsilon = 2a(a+b)`, T the smallest
    integer with :math:`\epsilon < c_1 T`, sigma the smallest the theorem allows (plus one ulp). At q = 1
    the T steps compose to exactly the Gaussian mechanism with :math:`\mu = \sqrt T/\sigma` (sensitivity 1), whose
    tight delta at eps is (64) (claim 002.appC.gdp-delta-formula).
    """
    a = c2 * math.sqrt(math.log(1.0 / delta))
    epsilon = 2 * a * (a + b)
    steps = math.floor(epsilon / c1) + 1
    # one ulp above the smallest allowed sigma, so the hypothesis holds despite float rounding
    sigma = math.nextafter(b1_sigma_min(c2=c2, q=1.0, steps=steps, delta=delta, epsilon=epsilon), math.inf)
    mu = math.sqrt(steps) / sigma
    with mpmath.workdps(MP_DPS):
        delta_exact = delta_64(mpmath.mpf(epsilon), mpmath.mpf(mu))
    return {"c1": c1, "c2": c2, "q": 1.0, "steps": steps, "sigma": sigma, "epsilon": epsilon,
            "delta": delta, "mu": mu, "delta_exact": float(delta_exact),
            "hypothesis_eps_lt_c1_T_q2": epsilon < c1 * steps}


def _b1_family_bound(b: int = B1_OFFSET) -> dict:
    r"""Sympy: along the family, :math:`\delta_{exact} \ge \Phi(b) - e^{-b^2/2}/2` for every c1, c2.

    With :math:`\mu = \epsilon/a` and :math:`\epsilon = 2a(a+b)`: :math:`-\epsilon/\mu + \mu/2 = b`,
    :math:`-\epsilon/\mu - \mu/2 = -(2a+b)` and :math:`\epsilon - (2a+b)^2/2 = -b^2/2`; the Gaussian
    tail bound :math:`\Phi(-x) \le e^{-x^2/2}/2` (x >= 0) finishes. The tail bound is checked as:
    g = e^{-x^2/2}/2 - Phi(-x) has g(0) = 0, g -> 0 at infinity, and g' = e^{-x^2/2}(1/sqrt(2 pi) - x/2)
    changes sign once (+ then -), so g >= 0.
    """
    a, bb, x = sp.symbols("a b x", positive=True)
    eps = 2 * a * (a + bb)
    mu = eps / a
    args_ok = (sp.simplify(-eps / mu + mu / 2 - bb) == 0, sp.simplify(-eps / mu - mu / 2 + 2 * a + bb) == 0)
    exponent_ok = sp.expand(eps - (2 * a + bb) ** 2 / 2 + bb ** 2 / 2) == 0
    g = sp.exp(-x ** 2 / 2) / 2 - normal_cdf_sym(-x)
    g0 = sp.simplify(g.subs(x, 0)) == 0
    g_inf = sp.limit(g, x, sp.oo) == 0
    dg_ok = sp.simplify(sp.diff(g, x) - sp.exp(-x ** 2 / 2) * (1 / sp.sqrt(2 * sp.pi) - x / 2)) == 0
    bound = normal_cdf_sym(sp.Integer(b)) - sp.exp(-sp.Integer(b) ** 2 / 2) / 2
    return {"phi_arguments_ok": bool(all(args_ok)), "exponent_identity_ok": bool(exponent_ok),
            "tail_bound_ok": bool(g0 and g_inf and dg_ok), "offset_b": b,
            "delta_exact_lower_bound": float(sp.N(bound, 30))}


def _moments_accountant_epsilon(point: dict, orders=range(1, 257)) -> dict:
    r"""The moments accountant at the counterexample with the exact log-moment:
    :math:`\min_\lambda (T\alpha(\lambda) + \ln(1/\delta))/\lambda`, and alpha(lambda) at q = 1 checked
    against the Gaussian's :math:`\lambda(\lambda+1)/(2\sigma^2)`."""
    from numerics.rdp import alpha_moment

    sigma, steps, log_inv_delta = point["sigma"], point["steps"], math.log(1.0 / point["delta"])
    best, worst_rel = math.inf, 0.0
    with mpmath.workdps(MP_DPS):
        for lam in orders:
            alpha = alpha_moment(1.0, sigma, lam)
            gauss = mpmath.mpf(lam) * (lam + 1) / (2 * mpmath.mpf(sigma) ** 2)
            worst_rel = max(worst_rel, float(abs(alpha - gauss) / gauss))
            best = min(best, float((steps * alpha + log_inv_delta) / lam))
    return {"epsilon_moments_accountant": best, "orders": [min(orders), max(orders)],
            "alpha_q1_vs_gaussian_max_rel_err": worst_rel}


def recheck_b1(cx: dict) -> float:
    """The quoted hypotheses at the counterexample (eps < c1 T q^2, sigma >= c2 q sqrt(T ln(1/delta))/eps), then
    (delta - exact delta)/delta with the exact delta of mu = sqrt(T) q/sigma... at q = 1 the T steps are one Gaussian
    mechanism with mu = sqrt(T)/sigma; delta by scipy's normal cdf (not the mpmath (64) of the check)."""
    from scipy.stats import norm

    c1, c2, q, steps = float(cx["c1"]), float(cx["c2"]), float(cx["q"]), int(cx["steps"])
    sigma, eps, delta = float(cx["sigma"]), float(cx["epsilon"]), float(cx["delta"])
    if q != 1.0:
        raise HypothesisFails("the recheck is written for q = 1 (the T steps compose to one Gaussian)")
    if not (eps < c1 * steps * q ** 2 and sigma >= b1_sigma_min(c2=c2, q=q, steps=steps, delta=delta, epsilon=eps)):
        raise HypothesisFails("the point does not meet Theorem B.1's quoted hypotheses")
    mu = math.sqrt(steps) / sigma
    exact = norm.cdf(-eps / mu + mu / 2) - math.exp(eps) * norm.cdf(-eps / mu - mu / 2)
    return (delta - exact) / delta


@claim(id="002.thm-B1.moments-accountant", seed="002", lines=B1_LINES, recheck=recheck_b1,
       statement="Theorem B.1 (Abadi et al. Thm 1, as quoted): constants c1, c2 exist such that for any "
                 "eps < c1 T q^2 and any delta > 0, sigma >= c2 q sqrt(T ln(1/delta))/eps gives "
                 "(eps, delta)-DP.",
       recorded="refuted", result="Theorem B.1", role="conclusion")
def theorem_b1() -> Verdict:
    family = _b1_family_bound()
    points = [b1_counterexample(c1, c2) for c1 in B1_CONSTANTS for c2 in B1_CONSTANTS]
    violated = [p for p in points if p["hypothesis_eps_lt_c1_T_q2"] and p["delta_exact"] > p["delta"]]
    proof = all(family[k] for k in ("phi_arguments_ok", "exponent_identity_ok", "tail_bound_ok"))
    shown = b1_counterexample(1.0, 1.0)
    ma = _moments_accountant_epsilon(shown)
    evidence = {"family": family, "constants_tried": list(B1_CONSTANTS), "points": len(points),
                "violated": len(violated), "min_delta_exact": min(p["delta_exact"] for p in points),
                "moments_accountant_at_counterexample": ma,
                "note": "q = 1 is allowed by the quote; Abadi et al.'s proof needs Lemma 3's hypotheses "
                        "(sigma >= 1, q < 1/(16 sigma)), which the quote drops, and bounded eps."}
    # relative: (delta - smallest exact delta)/delta, < 0 when every tried (c1, c2) is violated
    margin = (B1_DELTA - min(p["delta_exact"] for p in points)) / B1_DELTA
    evidence["margin_unit"] = "relative: (delta - min exact delta over the (c1, c2) tried)/delta"
    if proof and family["delta_exact_lower_bound"] > B1_DELTA and len(violated) == len(points):
        reason = (f"for every c1, c2 the quoted hypotheses admit q = 1 and eps = 2a(a+{B1_OFFSET}), "
                  f"a = c2 sqrt(ln(1/delta)), where the exact delta is at least "
                  f"{family['delta_exact_lower_bound']:.4f} > delta = {B1_DELTA:g}")
        why = (reason + f" (sympy bound on the whole family; all {len(points)} (c1, c2) in {list(B1_CONSTANTS)} checked at "
                        f"mpmath precision, e.g. c1 = c2 = 1: T = {shown['steps']}, sigma = {shown['sigma']:.4g}, "
                        f"eps = {shown['epsilon']:.4g}, exact delta {shown['delta_exact']:.4f}). The quote keeps no "
                        f"hypothesis on q or sigma; the paper itself uses B.1 only to motivate (3)-(5) and proves its own "
                        f"Lemma B.3 / Theorem B.2 with q <= r0/sigma, so its results do not rest on B.1.")
        # the alternative reading: Abadi et al.'s proof hypotheses (Lemma 3: sigma >= 1, q < 1/(16 sigma)), which the
        # paper keeps in its own Lemma B.3 (q <= r0/sigma, sigma >= 216/215, L516-524)
        meets_lemma3 = [p for p in points if p["q"] < 1 / (16 * p["sigma"]) and p["sigma"] >= 1]
        readings = (
            Reading("Theorem B.1 exactly as quoted: no hypothesis on q or sigma", B1_LINES, "refuted", margin,
                    f"every one of the {len(points)} (c1, c2) tried is violated at q = 1"),
            Reading("with the hypotheses of Abadi et al.'s Lemma 3 (sigma >= 1, q < 1/(16 sigma)) that the paper's own "
                    "Lemma B.3 keeps (q <= r0/sigma, sigma >= 216/215)", "L516-524", "open", None,
                    f"{len(meets_lemma3)} of the {len(points)} counterexamples meet them (all have q = 1): the refutation "
                    f"does not apply and the suite does not decide B.1 under them (the paper's own Theorem B.2, which "
                    f"keeps them, holds: 002.thm-B2.guarantee)"))
        return Verdict("refuted", "symbolic", arithmetic=("sympy", "mpmath", "float"), margin=margin, evidence=evidence,
                       counterexample=shown, reason=reason, why=why, readings=readings)
    return Verdict("open", "numeric", margin=margin, evidence=evidence,
                   reason="the counterexample family did not verify; see evidence")
