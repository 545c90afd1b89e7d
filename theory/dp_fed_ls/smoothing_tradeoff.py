r"""Seed 004: what Laplacian smoothing does to the strongly convex DP term of Theorem 3 and Table 1.

Theorem 3's strongly convex bound (L263) and Table 1's DP-Fed-LS row (L53) carry the DP term
:math:`d_\sigma L^2\log(1/\delta)/(\mu_\sigma\varepsilon^2N^2)`; at sigma = 0 it is DP-Fed's
:math:`d L^2\log(1/\delta)/(\mu\varepsilon^2N^2)` (L275). The text sells smoothing by the reduction of the effective
dimension :math:`d_\sigma \le d` "although it might lose some curvature :math:`\mu_\sigma \ge \mu/(1+4\sigma)`" (L275).
With :math:`\mu_\sigma = \mu\Lambda_{\min}` as Theorem 3 defines it (L271) the loss always exceeds the gain:

* every d >= 2: :math:`\sum_{i=1}^d\cos(2\pi i/d) = 0`, so by the AM-HM inequality
  :math:`d_\sigma = \sum_i 1/x_i \ge d^2/\sum_i x_i = d/(1+2\sigma)` (:math:`x_i = 1 + 2\sigma(1-\cos(2\pi i/d))`), and
  some i has :math:`\cos(2\pi i/d) \le -1/2`, so :math:`1/\Lambda_{\min} \ge 1 + 3\sigma`: the term grows by at least
  :math:`(1+3\sigma)/(1+2\sigma) > 1`;
* even d: :math:`\Lambda_{\min} = 1/(1+4\sigma)` and the closed form :math:`d_\sigma = (d/s)(1+\rho^d)/(1-\rho^d)`,
  :math:`s = \sqrt{1+4\sigma}` (004.thm-3.effective-dimensions) give a factor
  :math:`\sqrt{1+4\sigma}(1+\rho^d)/(1-\rho^d) \ge \sqrt{1+4\sigma}` (2.236 at sigma = 1).
"""
from __future__ import annotations

import mpmath
import sympy

from numerics.precision import MP_DPS
from theory.dp_fed_ls.smoothing import d_sigma_closed
from theory.ledger import HypothesisFails, Reading, Verdict, claim

#: evaluation points: even d (2, 4, 10, and 7850 = 784 x 10 + 10, the MNIST logistic regression's size by our count;
#: the paper prints no d) and odd d = 7; sigma as in the paper's tables (Tables 2-6 use sigma in 0.5..3)
POINTS_D, POINTS_SIGMA = (2, 4, 7, 10, 7850), ("0.5", "1", "1.5", "3")
#: the counterexample point (even d, sigma = 1)
CX_D, CX_SIGMA = 7850, "1"


def dp_term_factor(d: int, sigma) -> mpmath.mpf:
    r""":math:`(d_\sigma/\mu_\sigma)/(d/\mu) = d_\sigma/(d\Lambda_{\min})`: the strongly convex DP term with smoothing over
    the one without (mpmath; :math:`\Lambda_{\min}` by a direct minimum over i)."""
    sigma = mpmath.mpf(sigma)
    lam_min = min(1 / (1 + 2 * sigma * (1 - mpmath.cos(2 * mpmath.pi * i / d))) for i in range(1, d + 1))
    return d_sigma_closed(d, sigma) / (d * lam_min)


def _recheck(cx: dict) -> float:
    """Margin (d/mu - d_sigma/mu_sigma)/(d/mu) = 1 - factor at the counterexample (negative: smoothing enlarges the term)."""
    if int(cx["d"]) < 2 or float(cx["sigma"]) <= 0:
        raise HypothesisFails(f"d = {cx['d']} < 2 or sigma = {cx['sigma']} <= 0: no smoothing to compare")
    with mpmath.workdps(MP_DPS):
        return float(1 - dp_term_factor(int(cx["d"]), cx["sigma"]))


def _lower_bounds_symbolic() -> dict:
    """The two lower bounds of the factor (module docstring) as sympy facts."""
    sg = sympy.symbols("sigma", positive=True)
    every_d = sympy.simplify((1 + 3 * sg) / (1 + 2 * sg) - 1)           # sigma/(1 + 2 sigma) > 0
    even_d = sympy.simplify((1 + 4 * sg) - 1)           # sqrt(1 + 4 sigma) > 1  <=>  1 + 4 sigma - 1 > 0
    cos_sums = {d: sympy.nsimplify(sympy.simplify(sum(sympy.cos(2 * sympy.pi * i / d) for i in range(1, d + 1))))
                for d in (2, 3, 4, 5, 6, 8)}
    return {"every_d_gap": every_d, "even_d_gap": even_d, "cos_sums": cos_sums,
            "positive": bool(every_d.is_positive) and bool(even_d.is_positive)
                        and all(v == 0 for v in cos_sums.values())}


@claim(id="004.thm-3.smoothing-sc-dp-term", seed="004", lines="L53, L263, L271, L273-L275",
       statement="Theorem 3 / Table 1, as read at L275: Laplacian smoothing (sigma > 0) benefits the DP error through the effective dimension d_sigma <= d, at the possible price of some curvature (mu_sigma >= mu/(1+4 sigma)); so the strongly convex DP term d_sigma/mu_sigma is not larger than DP-Fed's d/mu.",
       recorded="refuted", result="Theorem 3", role="remark", recheck=_recheck)
def smoothing_sc_dp_term() -> Verdict:
    sym = _lower_bounds_symbolic()
    with mpmath.workdps(MP_DPS):
        factors = {(d, s): float(dp_term_factor(d, s)) for d in POINTS_D for s in POINTS_SIGMA}
        limit = float(mpmath.sqrt(1 + 4 * mpmath.mpf(CX_SIGMA)))
    cx = {"d": CX_D, "sigma": float(CX_SIGMA), "factor": factors[(CX_D, CX_SIGMA)],
          "d_sigma_over_d": float(d_sigma_closed(CX_D, mpmath.mpf(CX_SIGMA)) / CX_D), "Lambda_min": 1 / 5}
    margin = _recheck(cx)
    if not (sym["positive"] and margin < 0):
        reason = f"the symbolic lower bounds did not verify ({sym}) or the factor at the point is <= 1 ({margin})"
        return Verdict("open", "symbolic", None, reason=reason, why=reason, arithmetic=("sympy", "mpmath"))
    smallest = min(factors.values())
    why = (f"with mu_sigma = mu Lambda_min (L271) the strongly convex DP term with smoothing over DP-Fed's is "
           f"d_sigma/(d Lambda_min): for even d it is sqrt(1+4 sigma)(1+rho^d)/(1-rho^d) >= sqrt(1+4 sigma) "
           f"(= {limit:.3f} at sigma = 1; at d = {CX_D}: {cx['factor']:.3f}, d_sigma/d = {cx['d_sigma_over_d']:.3f} but "
           f"1/Lambda_min = 5), and for every d >= 2 it is at least (1+3 sigma)/(1+2 sigma) > 1 (AM-HM on d_sigma, "
           f"sum of cos(2 pi i/d) = 0). Over d in {POINTS_D}, sigma in {POINTS_SIGMA} the smallest factor is "
           f"{smallest:.3f}: the curvature loss always exceeds the dimension gain, so smoothing enlarges the strongly "
           "convex DP term of Theorem 3 and Table 1; the benefit L275 names holds for the non-convex term d~_sigma "
           "(in the A^-1 norm) and for varsigma^2(sigma), not here")
    readings = (Reading("the sentence sells smoothing's effect on the DP term, the curvature loss a possible side cost",
                        "L273-L275 ('the benefit ... lies in the reduction of ... the effective dimension')", "refuted",
                        margin, why.split(";")[0]),
                Reading("the sentence states only d_sigma, d~_sigma <= d and mu_sigma >= mu/(1+4 sigma), separately",
                        "L275", "holds", 0.0,
                        "both inequalities hold (004.thm-3.effective-dimensions, 004.thm-3.lambda-min)"))
    return Verdict("refuted", "symbolic", margin, why=why, readings=readings, arithmetic=("sympy", "mpmath"),
                   counterexample=cx,
                   evidence={"margin_unit": "(d/mu - d_sigma/mu_sigma)/(d/mu) at the counterexample",
                             "domain": "every d >= 2 and sigma > 0 (symbolic lower bound (1+3 sigma)/(1+2 sigma)); "
                                       "values by mpmath at the listed points",
                             "lower_bound_gaps": {k: str(sym[k]) for k in ("every_d_gap", "even_d_gap")},
                             "cos_sums_zero": {str(k): str(v) for k, v in sym["cos_sums"].items()},
                             "symbolic_facts_hold": sym["positive"],
                             "factors": {f"d={d},sigma={s}": v for (d, s), v in factors.items()}})
