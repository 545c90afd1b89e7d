r"""The accountants' own checks (claims with seed ``numerics``): numerics against independent oracles.

* ``numerics.pld.q1-exact-gaussian``: at q = 1 the certified PLD interval contains the exact epsilon of the
  composed Gaussian mechanism (an mpmath root of the GDP delta curve, :func:`theory.lemmas.gdp.delta_64`);
* ``numerics.pld-vs-rdp``: PLD against RDP on a grid;
* ``numerics.gdp-clt.not-an-upper-bound``: the GDP central limit theorem under-reports against the certified PLD.
"""
from __future__ import annotations

import functools
import itertools
import math

import mpmath
from scipy.optimize import brentq

from numerics.precision import MP_DPS
from theory.ledger import Verdict, claim
from theory.lemmas.gdp import delta_64


def exact_gaussian_epsilon(mu: float, delta: float) -> float:
    r"""The exact eps(delta) of the Gaussian mechanism N(0,1) vs N(mu,1): the root of (64) = delta.

    An oracle independent of numerics (mpmath formula, scipy root finder); log-space so tiny deltas
    bracket cleanly.
    """
    target = math.log(delta)

    def gap(eps):
        with mpmath.workdps(MP_DPS):
            return float(mpmath.log(delta_64(mpmath.mpf(eps), mpmath.mpf(mu)))) - target

    hi = 1.0
    while gap(hi) > 0:
        hi *= 2
    return 0.0 if gap(0.0) <= 0 else brentq(gap, 0.0, hi, xtol=1e-14, rtol=1e-13)


Q1_POINTS = ({"sigma": 1.0, "steps": 1, "delta": 1e-5}, {"sigma": 2.0, "steps": 100, "delta": 1e-6},
             {"sigma": 0.8, "steps": 10, "delta": 1e-3}, {"sigma": 5.0, "steps": 1000, "delta": 1e-8})


@claim(id="numerics.pld.q1-exact-gaussian", seed="numerics", lines="-",
       statement="At q = 1 the certified PLD interval [eps_lower, eps_upper] contains the exact "
                 "eps(delta) of the composed Gaussian mechanism (mu = sqrt(T)/sigma).",
       recorded="holds", result="PLD accountant", role="method")
def pld_contains_exact_gaussian() -> Verdict:
    from numerics.pld import epsilon_pld
    from numerics.schedule import Schedule

    rows, worst = [], math.inf
    for p in Q1_POINTS:
        exact = exact_gaussian_epsilon(math.sqrt(p["steps"]) / p["sigma"], p["delta"])
        b = epsilon_pld(Schedule.constant(q=1.0, sigma=p["sigma"], steps=p["steps"]), p["delta"])
        slack = min(exact - b.epsilon_lower, b.epsilon_upper - exact) / exact
        worst = min(worst, slack)
        rows.append({**p, "exact": exact, "lower": b.epsilon_lower, "upper": b.epsilon_upper})
    evidence = {"points": len(rows), "rows": rows}
    if worst >= 0:
        return Verdict("holds", "numeric", margin=worst, evidence=evidence)
    bad = min(rows, key=lambda r: min(r["exact"] - r["lower"], r["upper"] - r["exact"]))
    return Verdict("refuted", "numeric", margin=worst, evidence=evidence, counterexample=bad,
                   why=f"the exact eps = {bad['exact']:.6g} lies outside the certified "
                       f"[{bad['lower']:.6g}, {bad['upper']:.6g}] at sigma = {bad['sigma']}, T = {bad['steps']}")


PLD_RDP_GRID = {"q": (0.01, 0.2), "sigma": (0.8, 3.0), "steps": (10, 1000), "delta": 1e-5}
#: the RDP side uses the accountant's default order grid (numerics.precision.DEFAULT_RDP_ORDERS, with
#: fractional orders): the tightest RDP bound we report, so "PLD upper <= RDP" is checked where it is
#: hardest to pass (an integer-only grid loosens RDP by up to 48%, at q = 0.2, sigma = 0.8, T = 1000)


@functools.lru_cache(maxsize=1)
def _pld_on_grid() -> tuple:
    """((point, schedule, certified PLD bounds), ...) over ``PLD_RDP_GRID``: the reference both grid
    claims below compare with, computed once per process."""
    from numerics.pld import epsilon_pld
    from numerics.schedule import Schedule

    delta = PLD_RDP_GRID["delta"]
    out = []
    for q, sigma, steps in itertools.product(PLD_RDP_GRID["q"], PLD_RDP_GRID["sigma"], PLD_RDP_GRID["steps"]):
        s = Schedule.constant(q=q, sigma=sigma, steps=steps)
        out.append(({"q": q, "sigma": sigma, "steps": steps, "delta": delta}, s, epsilon_pld(s, delta)))
    return tuple(out)


@claim(id="numerics.pld-vs-rdp", seed="numerics", lines="-",
       statement="On a grid, the certified PLD interval lies below the RDP upper bound: "
                 "eps_lower(PLD) <= eps_upper(PLD) <= eps(RDP).",
       recorded="holds", result="PLD accountant", role="method")
def pld_below_rdp() -> Verdict:
    from numerics.conversions import epsilon_rdp

    rows, worst = [], math.inf
    for point, s, pld in _pld_on_grid():
        rdp = epsilon_rdp(s, point["delta"])
        ratio = pld.epsilon_upper / rdp.epsilon_upper
        worst = min(worst, 1.0 - ratio)
        rows.append({**point, "pld_lower": pld.epsilon_lower, "pld_upper": pld.epsilon_upper,
                     "rdp_upper": rdp.epsilon_upper, "pld_upper_over_rdp": ratio})
    evidence = {"points": len(rows), "where": "full grid " + str(PLD_RDP_GRID),
                "rdp_orders": "numerics.precision.DEFAULT_RDP_ORDERS", "rows": rows}
    if worst >= 0 and all(r["pld_lower"] <= r["pld_upper"] for r in rows):
        return Verdict("holds", "sampled", margin=worst, evidence=evidence)
    bad = max(rows, key=lambda r: r["pld_upper_over_rdp"])
    return Verdict("refuted", "sampled", margin=worst, evidence=evidence, counterexample=bad,
                   why=f"PLD upper {bad['pld_upper']:.6g} exceeds RDP's {bad['rdp_upper']:.6g} at q = {bad['q']}, "
                       f"sigma = {bad['sigma']}, T = {bad['steps']}")


@claim(id="numerics.gdp-clt.not-an-upper-bound", seed="numerics", lines="-",
       statement="The GDP central-limit estimate (Poisson mu = q sqrt(T(e^{1/sigma^2}-1))) is no upper "
                 "bound: on a grid it falls below the certified PLD lower bound (an under-report).",
       recorded="holds", result="GDP central-limit estimate", role="method")
def clt_under_reports() -> Verdict:
    from numerics.gdp import epsilon_gdp_clt

    rows = []
    for point, s, pld in _pld_on_grid():
        clt = epsilon_gdp_clt(s, point["delta"])
        rows.append({**point, "clt": clt.epsilon_upper, "pld_lower": pld.epsilon_lower,
                     "pld_upper": pld.epsilon_upper,
                     "clt_over_pld_lower": clt.epsilon_upper / pld.epsilon_lower})
    under = [r for r in rows if r["clt"] < r["pld_lower"]]
    worst = min(rows, key=lambda r: r["clt_over_pld_lower"])
    evidence = {"points": len(rows), "where": "full grid " + str(PLD_RDP_GRID),
                "under_reports": len(under), "worst": worst, "rows": rows}
    if under:
        return Verdict("holds", "numeric", margin=1.0 - worst["clt_over_pld_lower"], evidence=evidence)
    return Verdict("refuted", "sampled", margin=1.0 - worst["clt_over_pld_lower"], evidence=evidence,
                   counterexample={"grid": str(PLD_RDP_GRID), "closest": worst},
                   why=f"the CLT estimate never falls below the certified PLD lower end on the grid (closest ratio "
                       f"{worst['clt_over_pld_lower']:.6g})")
