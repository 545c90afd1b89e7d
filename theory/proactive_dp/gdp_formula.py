r"""Seed 002's (64) (``002_13c470b90c68bab6.txt L1164-1166``): the delta(eps) curve of mu-GDP (Dong et al. 2021,
Cor. 2.13), implemented as printed (:func:`theory.lemmas.gdp.delta_64`) and compared with the definition
(sympy: the hockey-stick divergence of N(0,1) vs N(mu,1); scipy quadrature) and with numerics.gdp.

Paper formulas are inputs, stored with their seed line; every verdict is computed.
"""
from __future__ import annotations

import math

import mpmath
import sympy as sp
from scipy.integrate import quad

from numerics.precision import MP_DPS
from theory.ledger import Verdict, claim
from theory.lemmas.gdp import delta_64, normal_cdf_sym
from theory.proactive_dp.paper_values import PRINTED_64


def _phi_sym(z):
    """Standard normal density (sympy)."""
    return sp.exp(-z ** 2 / 2) / sp.sqrt(2 * sp.pi)


def _hockey_stick_identity() -> dict:
    r"""Sympy: the tight delta of the pair P = N(0,1), Q = N(mu,1), i.e. the hockey-stick divergence
    :math:`\int (q - e^\epsilon p)_+` (and the reverse direction), equals (64) as printed.

    The log-likelihood ratio :math:`\log q/p = \mu x - \mu^2/2` increases in x, so
    :math:`q > e^\epsilon p` exactly on :math:`x > t = \epsilon/\mu + \mu/2`, and the integral is two
    Gaussian tails (x -> x - mu for the first).
    """
    x, u, s = sp.symbols("x u s", real=True)
    mu, eps = sp.symbols("mu epsilon", positive=True)
    llr = sp.expand(sp.expand_log(sp.log(_phi_sym(x - mu) / _phi_sym(x)), force=True))
    llr_ok = sp.expand(llr - (mu * x - mu ** 2 / 2)) == 0
    t = sp.solve(sp.Eq(mu * x - mu ** 2 / 2, eps), x)[0]
    tail = sp.integrate(_phi_sym(u), (u, s, sp.oo))            # P(N(0,1) > s)
    forward = tail.subs(s, t - mu) - sp.exp(eps) * tail.subs(s, t)          # int_{x>t} q - e^eps p
    t_rev = mu / 2 - eps / mu                                               # p > e^eps q  iff  x < t_rev
    reverse = (1 - tail.subs(s, t_rev)) - sp.exp(eps) * (1 - tail.subs(s, t_rev - mu))
    printed = delta_64(eps, mu, Phi=normal_cdf_sym, exp=sp.exp)
    zero = [sp.expand((side - printed).rewrite(sp.erf)) == 0 for side in (forward, reverse)]
    return {"log_likelihood_ratio_linear": bool(llr_ok), "threshold": str(t),
            "forward_equals_printed": bool(zero[0]), "reverse_equals_printed": bool(zero[1])}


def _definition_by_quadrature(epsilon: float, mu: float) -> float:
    r""":math:`\int (q - e^\epsilon p)_+ dx` by scipy quadrature, no Phi involved.

    From the kink :math:`t = \epsilon/\mu + \mu/2` (where :math:`e^\epsilon p(t) = q(t)`), with
    x = t + y: :math:`q - e^\epsilon p = q(t)\,e^{-(t-\mu)y - y^2/2}(1 - e^{-\mu y})`, so the
    integral is :math:`q(t)\,I` with a well-scaled I; q(t) is applied in log space (it underflows a
    double at large t).
    """
    t = epsilon / mu + mu / 2
    integral, _ = quad(lambda y: math.exp(-(t - mu) * y - y * y / 2) * -math.expm1(-mu * y), 0.0, math.inf,
                       epsabs=0.0, epsrel=1e-13, limit=200)
    return float(mpmath.exp(-mpmath.mpf(t - mu) ** 2 / 2) / mpmath.sqrt(2 * mpmath.pi) * integral)


GDP_GRID = {"mu": (0.1, 0.5, 1.0, 2.0, 5.0), "epsilon": (0.0, 0.1, 1.0, 3.0)}
#: relative agreement required of a double-precision evaluation (the quadrature oracle, the
#: accountant's delta_gdp) with the 50-digit formula
GDP_RTOL = 1e-9


@claim(id="002.appC.gdp-delta-formula", seed="002", lines="L1164-1166",
       statement="A mechanism is mu-GDP iff it is (eps, delta(eps))-DP for all eps >= 0 with "
                 "delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2), eq. (64).",
       recorded="holds", result="Theorem 3.2", role="proof-step")
def gdp_delta_formula() -> Verdict:
    ident = _hockey_stick_identity()
    worst_quad, worst_point, worst_acc, compared = 0.0, None, 0.0, 0
    from numerics import gdp as accountant  # the accountant's (64), compared with the printed one

    with mpmath.workdps(MP_DPS):
        for mu in GDP_GRID["mu"]:
            for eps in GDP_GRID["epsilon"]:
                exact = delta_64(mpmath.mpf(eps), mpmath.mpf(mu))
                by_definition = _definition_by_quadrature(eps, mu)
                rel = float(abs(by_definition - exact) / exact)
                if worst_point is None or rel > worst_quad:
                    worst_quad, worst_point = rel, {"epsilon": eps, "mu": mu, "printed_64": float(exact),
                                                    "definition": by_definition}
                if accountant is not None:
                    got = accountant.delta_gdp(eps, mu)
                    worst_acc = max(worst_acc, float(abs(mpmath.mpf(got) - exact) / exact))
                    compared += 1
    n = len(GDP_GRID["mu"]) * len(GDP_GRID["epsilon"])
    evidence = {"printed": PRINTED_64[0], "printed_line": PRINTED_64[1], **ident,
                "grid": {k: list(v) for k, v in GDP_GRID.items()}, "points": n,
                "quadrature_max_rel_err": worst_quad,
                "numerics_gdp_delta_max_rel_err": worst_acc if accountant else "numerics.gdp not available",
                "numerics_gdp_points": compared}
    if accountant is not None and not worst_acc <= GDP_RTOL:
        raise AssertionError(f"numerics.gdp.delta_gdp differs from (64) by {worst_acc:.3g} relative")
    identity = all(ident[k] for k in ("log_likelihood_ratio_linear", "forward_equals_printed",
                                      "reverse_equals_printed"))
    if identity and worst_quad <= GDP_RTOL:
        return Verdict("holds", "symbolic", arithmetic=("sympy", "mpmath", "float"), margin=0.0, evidence=evidence)
    if worst_quad > GDP_RTOL:
        return Verdict("refuted", "numeric", margin=-worst_quad, evidence=evidence,
                       counterexample=worst_point)
    return Verdict("open", "numeric", margin=0.0, evidence=evidence,
                   reason="the printed formula agrees with the definition numerically, but sympy did not "
                          "reduce the difference to 0")
