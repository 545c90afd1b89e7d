r"""Appendix C of seed 002 (002_13c470b90c68bab6.txt L1136-1324): f-DP, mu-GDP and the CLT of (65).

Glossary
--------
* $f_{\epsilon,\delta}(\alpha)=\max\{0,1-\delta-e^\epsilon\alpha,(1-\delta-\alpha)e^{-\epsilon}\}$ (L1156) ->
  :func:`theory.lemmas.gdp.tradeoff_eps_delta`
* $G_\mu(\alpha)=\Phi(\Phi^{-1}(1-\alpha)-\mu)$ (L1162) and $\delta(\epsilon)$ of (64) (L1166): reused from
  ``numerics.gdp`` (the printed (64) is checked by claim ``002.appC.gdp-delta-formula``, elsewhere).
* $\tau^{-1}$ of (65) (L1204) -> :func:`theory.lemmas.gdp.tau_inverse`; $\mu=c\,\tau^{-1}$ with $c=s\sqrt T/N$ ->
  :func:`theory.lemmas.gdp.mu_clt_65`.
* The CLT epsilon the paper calls $\epsilon_{f\text{-}DP}$ (Tables 9-11, L1598) -> :func:`theory.lemmas.gdp.epsilon_clt_65`.

(65) is Dong, Roth and Su's Corollary 5.4 for *uniform* (fixed-size) subsampling, an asymptotic
statement ($T, N\to\infty$ with $s\sqrt T/N\to c$). Its epsilon is an estimate, never a certificate:
results carry ``certified=False`` and our certified two-sided bounds come from ``numerics.pld``.
"""
from __future__ import annotations

import math

import numpy as np
import sympy as sp

from numerics.errors import check_delta
from theory.ledger import HypothesisFails, Verdict, claim
from theory.lemmas.gdp import epsilon_clt_65, mu_clt_65, tau_inverse, tradeoff_eps_delta
from theory.proactive_dp.calculators import calculator_d4, privacy_curve_point
from theory.printed import texts
from theory.proactive_dp import paper_values
from theory.proactive_dp.trained_privacy import configuration_epsilon

#: the paper's tables as printed strings (each Printed value's seed line is checked in paper_values)
CALCULATOR_TABLES = texts(paper_values.CALCULATOR_TABLES)


# --- claims ------------------------------------------------------------------------------------------



@claim(id="002.appC.tau-first-order", seed="002", lines="L1204, L1218",
       statement="tau^{-1} of (65) equals sigma^{-1} + O(sigma^{-2}).", recorded="holds", result="Theorem 3.2", role="proof-step")
def check_tau_first_order() -> Verdict:
    t = sp.symbols("t", positive=True)  # t = 1/sigma
    Phi = lambda x: (1 + sp.erf(x / sp.sqrt(2))) / 2  # noqa: E731
    inner = sp.exp(t**2) * Phi(3 * t / 2) + 3 * Phi(-t / 2) - 2
    ser = sp.series(inner, t, 0, 4).removeO()
    c = [sp.simplify(ser.coeff(t, i)) for i in range(4)]
    # tau^{-1} = sqrt(2 inner) = t sqrt(2 c2 + 2 c3 t + ...): first order t iff c0 = c1 = 0 and c2 = 1/2
    ok = c[0] == 0 and c[1] == 0 and sp.simplify(c[2] - sp.Rational(1, 2)) == 0
    second = sp.simplify(c[3])  # tau^{-1} sigma = 1 + c3 / sigma + ...
    pts = {str(s): tau_inverse(s) * s for s in (1.5, 19.29962, 100.0)}
    if ok:
        return Verdict("holds", "symbolic", arithmetic=("sympy", "float"), margin=0.0,
                       evidence={"radicand_series": [str(x) for x in c], "tau_inv_times_sigma": pts,
                                 "next_coefficient": str(second), "next_coefficient_float": float(second)})
    return Verdict("refuted", "symbolic", arithmetic=("sympy", "float"), evidence={"radicand_series": [str(x) for x in c]},
                   counterexample={"radicand_series": [str(x) for x in c]})


def recheck_c2_tau(cx: dict) -> float:
    """-|tau_derived/tau_printed - 1| in plain floats: tau = c sqrt(2 L')/eps at c = sqrt(eps/gamma) against the
    printed sqrt(L'/(gamma eps))."""
    eps, gam, lp = float(cx["epsilon"]), float(cx["gamma"]), float(cx["Lprime"])
    if not (eps > 0 and gam >= 2 and lp > 0):
        raise HypothesisFails("need eps > 0, gamma >= 2, L' > 0")
    derived = math.sqrt(eps / gam) * math.sqrt(2 * lp) / eps
    return -abs(derived / math.sqrt(lp / (gam * eps)) - 1)


@claim(id="002.appC.C2-tau-at-Tmin", seed="002", lines="L1262-1272", recheck=recheck_c2_tau,
       statement="Substituting c = sqrt(eps/(gamma theta^2)) into tau = c sqrt(2 L')/eps (C.1) gives "
                 "tau = sqrt(L'/(gamma eps)), a factor sqrt(2 gamma) below Theorem 3.1's sigma.",
       recorded="refuted", result="Theorem 3.2", role="proof-step")
def check_c2_tau() -> Verdict:
    eps, gam, th, Lp = sp.symbols("epsilon gamma theta Lprime", positive=True)
    c = sp.sqrt(eps / (gam * th**2))
    derived = sp.simplify((c * sp.sqrt(2 * Lp) / eps).subs(th, 1))  # theta = 1 in C.2 (L1268)
    printed = sp.sqrt(Lp / (gam * eps))
    ratio = sp.simplify(derived / printed)
    sigma_thm31 = sp.sqrt(2 * Lp / eps)  # (6) for eps << ln(1/delta), with L' ~ ln(1/delta)
    factor = sp.simplify(sigma_thm31 / derived)
    ev = {"derived_tau": str(derived), "printed_tau": str(printed), "derived_over_printed": str(ratio),
          "sigma_thm31_over_derived_tau": str(factor),
          "consequence": "with the algebra corrected the gap to Theorem 3.1 is sqrt(gamma), not sqrt(2 gamma)"}
    if ratio == 1:
        return Verdict("holds", "symbolic", arithmetic=("sympy", "float"), margin=0.0, evidence=ev)
    ev["margin_unit"] = "relative: -|derived/printed - 1|"
    why = (f"substituting c = sqrt(eps/(gamma theta^2)) with theta = 1 into tau = c sqrt(2 L')/eps gives {derived}, not the "
           f"printed {printed}: they differ by the factor {ratio} (sympy). The gap between C.2's tau and Theorem 3.1's sigma "
           f"is then {factor}, not sqrt(2 gamma): the asymptotic argument behind 'tight up to 2 gamma' (L172, L1276) "
           f"loses a factor sqrt(2) in sigma, i.e. 2 in T.")
    return Verdict("refuted", "symbolic", arithmetic=("sympy", "float"), why=why, margin=-abs(float(ratio) - 1.0), evidence=ev,
                   counterexample={"epsilon": 0.05, "gamma": 2.0, "Lprime": 9.0,
                                   "derived_tau": float(derived.subs({eps: 0.05, gam: 2, Lp: 9})),
                                   "printed_tau": float(printed.subs({eps: 0.05, gam: 2, Lp: 9}))})


@claim(id="002.appC.C3-bounded-leakage", seed="002", lines="L1320-1324",
       statement="For T_min <= T <= K (fixed K = kN) the tight accountant's epsilon stays below epsilon_target: "
                 "more rounds do not increase the leakage.",
       recorded="holds", result="Theorem 3.2", role="proof-step")
def check_c3() -> Verdict:

    inp = CALCULATOR_TABLES[9]["inputs"]
    d4 = calculator_d4(sigma=float(inp["sigma"]), n=inp["n"], k=inp["k"])
    grid = sorted({int(round(x)) for x in np.geomspace(np.ceil(d4.t_min), d4.k * d4.n, 5)})
    rows = [privacy_curve_point(table=9, rounds=T) for T in grid]
    ups = [r["epsilon_upper"] for r in rows]
    decreasing = all(a > b for a, b in zip(ups, ups[1:]))
    margin = d4.epsilon - max(ups)
    ev = {"points": len(rows), "where": f"Table 9 setting, T in {grid}", "epsilon_target": d4.epsilon,
          "rows": rows, "decreasing_in_T": decreasing}
    if margin >= 0 and decreasing:
        return Verdict("holds", "sampled", margin=margin, evidence=ev)
    return Verdict("refuted", "sampled", margin=margin, evidence=ev, counterexample=max(rows, key=lambda r: r["epsilon_upper"]))


def c1_delta_approximation(epsilon: float, mu: float) -> float:
    r"""The approximation of (64) printed in C.1 (L1232-1234), without its O-term:
    $e^{-(\epsilon/\mu)^2(1-\mu^2/(2\epsilon))^2/2}\,\mu^3/(\sqrt{2\pi}\,\epsilon^2(1-(\mu^2/(2\epsilon))^2))$."""
    y = mu * mu / (2.0 * epsilon)
    return math.exp(-((epsilon / mu) ** 2) * (1 - y) ** 2 / 2) / math.sqrt(2 * math.pi) * mu**3 / (
        epsilon**2 * (1 - y * y))


@claim(id="002.appC.mu-65-vs-numerics", seed="002", lines="L1202-1204",
              statement="(65) as printed is Dong-Roth-Su's Corollary 5.4 CLT mu for uniform subsampling.",
              recorded="holds", result="Theorem 3.2", role="proof-step")
def check_mu_65() -> Verdict:
    from numerics.gdp import mu_clt_poisson, mu_clt_uniform

    pts = [(0.0026, 19.29962, 1924), (0.0507, 12.10881, 119), (0.15008, 6.572, 47), (0.01, 1.0, 1000), (0.3, 50.0, 10)]
    rows = []
    for q, s, T in pts:
        a, b = mu_clt_65(q=q, steps=T, sigma=s), mu_clt_uniform(q, s, T)
        rows.append({"q": q, "sigma": s, "steps": T, "mu_65": a, "mu_uniform_numerics": b,
                     "mu_poisson_numerics": mu_clt_poisson(q, s, T), "rel_diff": abs(a - b) / b})
    worst = max(r["rel_diff"] for r in rows)
    if worst <= 1e-10:
        return Verdict("holds", "numeric", margin=1e-10 - worst, evidence={"rows": rows})
    return Verdict("refuted", "numeric", margin=-worst, evidence={"rows": rows, "margin_unit": "relative: -|mu_65 - mu|/mu"},
                   counterexample=max(rows, key=lambda r: r["rel_diff"]))


@claim(id="002.appC.clt-not-exact-L1598", seed="002", lines="L1190-1192, L1598",
              statement="The f-DP accountant's epsilon_f-DP used in Tables 9-11 is exact (tight) for the trained "
                        "schedule.",
              recorded="refuted", result="L1598", role="hypothesis")
def check_clt_exact() -> Verdict:
    from numerics.gdp import epsilon_gdp, mu_clt_poisson


    rows = []
    for t, spec in CALCULATOR_TABLES.items():
        inp = spec["inputs"]
        r = calculator_d4(sigma=float(inp["sigma"]), n=inp["n"], k=inp["k"])
        s = math.floor(r.s_max)
        c = configuration_epsilon(n=r.n, k_total=int(round(r.k * r.n)), s=s, sigma=r.sigma, delta=r.delta)
        clt_u = epsilon_clt_65(q=s / r.n, steps=c["rounds"], sigma=r.sigma, delta=r.delta)
        clt_p = float(epsilon_gdp(r.delta, mu_clt_poisson(s / r.n, r.sigma, c["rounds"])))
        # not exact when neither CLT form (uniform (65) as printed, or its Poisson variant, the sampling
        # the analysis assumes, footnote 5 L182) lands in the certified bracket: the gap is not a sampling mismatch
        inside = any(c["epsilon_lower"] <= e <= c["epsilon_upper"] for e in (clt_u, clt_p))
        rows.append({"table": t, "s": s, **c, "sigma": r.sigma, "delta": r.delta, "epsilon_clt_uniform": clt_u,
                     "epsilon_clt_poisson": clt_p, "clt_inside_certified": inside,
                     "rel_gap": (clt_u - c["epsilon_upper"]) / c["epsilon_upper"]})
    out = [x for x in rows if not x["clt_inside_certified"]]
    ev = {"rows": rows, "note": "certified bracket: Poisson q = s/N, add/remove (the mechanism the paper analyses); "
                                "the CLT is a T -> infinity limit, not a bound"}
    if not out:
        return Verdict("holds", "numeric", margin=0.0, evidence=ev)
    worst = max(out, key=lambda x: abs(x["rel_gap"]))
    ev["margin_unit"] = "relative: -|eps_CLT - eps_upper|/eps_upper of the worst configuration outside the bracket"
    why = (f"the CLT (65) is Dong-Roth-Su's T -> infinity limit, an estimate, not a bound: at Table {worst['table']}'s "
           f"T_min configuration (s = {worst['s']}, {worst['rounds']} rounds) it gives {worst['epsilon_clt_uniform']:.5g} "
           f"(uniform, as printed) and {worst['epsilon_clt_poisson']:.5g} (Poisson form), both outside the certified "
           f"bracket [{worst['epsilon_lower']:.5g}, {worst['epsilon_upper']:.5g}] ({100 * worst['rel_gap']:+.1f}%); "
           f"{len(out)} of {len(rows)} settings are outside. Small at T_min, but L1598's 'eps_f-DP is tight' is what its "
           f"tightness conclusion rests on.")
    return Verdict("refuted", "numeric", margin=-abs(worst["rel_gap"]), evidence=ev, counterexample=worst, why=why)


_C1_GRID = tuple((e, b) for e in (0.05, 0.5, 1.0) for b in (2.0, 4.0, 8.0, 16.0, 32.0))


@claim(id="002.appC.C1-delta-approx", seed="002", lines="L1228-1234",
              statement="For mu <= epsilon <= 1, delta of (64) equals the C.1 approximation up to a relative error "
                        "that vanishes as mu/epsilon -> 0.",
              recorded="holds", result="Theorem 3.2", role="proof-step")
def check_c1() -> Verdict:
    from numerics.gdp import delta_gdp

    rows = []
    for eps, b in _C1_GRID:
        mu = eps / b
        exact = float(delta_gdp(eps, mu))
        rows.append({"epsilon": eps, "mu_over_epsilon": 1 / b, "delta_64": exact,
                     "ratio": c1_delta_approximation(eps, mu) / exact})
    by_eps = {}
    for r in rows:
        by_eps.setdefault(r["epsilon"], []).append(abs(r["ratio"] - 1))
    shrinking = all(all(a > b for a, b in zip(v, v[1:])) for v in by_eps.values())
    last = max(v[-1] for v in by_eps.values())
    ev = {"points": len(rows), "where": "epsilon in {0.05, 0.5, 1}, mu = epsilon/b, b in {2, 4, 8, 16, 32}",
          "rows": rows, "relative_error_at_mu_over_eps_0.25": max(abs(r["ratio"] - 1) for r in rows
                                                                 if r["mu_over_epsilon"] == 0.25)}
    if shrinking and last < 0.01:
        return Verdict("holds", "sampled", margin=0.01 - last, evidence=ev)
    return Verdict("refuted", "sampled", margin=last, evidence=ev, counterexample=max(rows, key=lambda r: abs(r["ratio"] - 1)))


@claim(id="002.appC.gdp-tradeoff-dominates", seed="002", lines="L1156, L1162-1166",
              statement="mu-GDP implies (epsilon, delta(epsilon))-DP with delta of (64): G_mu >= f_{eps, delta(eps)} "
                        "with f as printed at L1156, and the bound touches (delta(eps) is the smallest such delta).",
              recorded="holds", result="Theorem 3.2", role="proof-step")
def check_tradeoff() -> Verdict:
    from numerics.gdp import delta_gdp, tradeoff_gdp

    alphas = np.linspace(0.0, 1.0, 2001)
    rows = []
    for mu, eps in ((0.5, 0.1), (1.0, 0.5), (2.0, 1.0), (0.3, 0.05)):
        d = float(delta_gdp(eps, mu))
        gap = np.asarray(tradeoff_gdp(alphas, mu)) - np.array([tradeoff_eps_delta(a, eps, d) for a in alphas])
        d_lo = d * 0.98  # a slightly smaller delta must fail somewhere: f_{eps, d_lo} > G_mu
        gap_lo = np.asarray(tradeoff_gdp(alphas, mu)) - np.array([tradeoff_eps_delta(a, eps, d_lo) for a in alphas])
        rows.append({"mu": mu, "epsilon": eps, "delta": d, "min_gap": float(gap.min()),
                     "min_gap_smaller_delta": float(gap_lo.min())})
    ok = all(r["min_gap"] >= -1e-12 and r["min_gap_smaller_delta"] < 0 for r in rows)
    ev = {"points": len(rows) * len(alphas), "where": "2001 alphas in [0,1] at four (mu, eps)", "rows": rows}
    if ok:
        return Verdict("holds", "sampled", margin=min(r["min_gap"] for r in rows), evidence=ev)
    return Verdict("refuted", "sampled", evidence=ev, counterexample=min(rows, key=lambda r: r["min_gap"]))


def b_exact(epsilon: float, delta: float) -> float:
    r"""$b=\epsilon/\mu$ where $\mu$ solves $\delta(\epsilon;\mu)=\delta$ in (64) (C.1, L1248): the exact value the
    paper approximates by $\sqrt{2(\ln(1/\delta)+\ln\epsilon-O(\ln\ln(1/\delta)))}$ (L1256-1258)."""
    from numerics.gdp import delta_gdp
    from scipy.optimize import brentq

    eps, d = float(epsilon), check_delta(delta)
    mu = brentq(lambda m: delta_gdp(eps, m) - d, 1e-9, 1e3, xtol=1e-15, rtol=1e-14)
    return eps / mu


_C1_INV_GRID = tuple((d, e) for d in (1e-4, 1e-6, 1e-10, 1e-20) for e in (0.05, 0.2, 0.5, 1.0))


@claim(id="002.appC.C1-inversion", seed="002", lines="L1248-1260",
       statement="For delta << epsilon <= 1, b = epsilon/mu = sqrt(2(ln(1/delta) + ln(epsilon) - O(ln ln(1/delta)))).",
       recorded="holds", result="Theorem 3.2", role="proof-step")
def check_c1_inversion() -> Verdict:
    rows = []
    for d, e in _C1_INV_GRID:
        b = b_exact(e, d)
        L = math.log(1 / d)
        gap = 2 * (L + math.log(e)) - b * b  # the O(ln ln(1/delta)) term
        rows.append({"delta": d, "epsilon": e, "b": b, "sqrt_2_lnterm": math.sqrt(2 * (L + math.log(e))),
                     "gap": gap, "gap_over_lnln": gap / math.log(L)})
    ratios = [r["gap_over_lnln"] for r in rows]
    ok = all(r["gap"] > 0 for r in rows) and max(ratios) <= 2 * min(ratios)
    ev = {"points": len(rows), "where": "delta in {1e-4, 1e-6, 1e-10, 1e-20}, epsilon in {0.05, 0.2, 0.5, 1}",
          "rows": rows, "gap_over_lnln_range": [min(ratios), max(ratios)],
          "practical_note": "the dropped O(ln ln) term is large: at delta=1e-4, eps=0.05 b is 2.24, not 3.53"}
    if ok:
        return Verdict("holds", "sampled", margin=min(r["gap"] for r in rows), evidence=ev)
    return Verdict("refuted", "sampled", evidence=ev, counterexample=min(rows, key=lambda r: r["gap"]))


#: (epsilon, delta) of the c/2 check: delta << epsilon <= 1 (C.1's regime)
C_HALF_POINTS = ((0.5, 1e-6), (0.2, 1e-10), (1.0, 1e-8), (0.05, 1e-5))
#: "~" of L1242 read as: within 5% of the exact tau (our choice, stated; the dropped O((mu/eps)^5) term)
C_HALF_REL_TOL = 0.05


def tau_l1242(epsilon: float, delta: float, mu: float, c: float) -> float:
    r"""The second form of tau printed at L1242 with the factor ``c`` in front (the text prints c/2):
    $c\sqrt{2(\ln(1/\delta)+\ln(\mu^3/(\sqrt{2\pi}(\epsilon^2-\mu^4/4))))}/(\epsilon-\mu^2/2)$."""
    big_l = math.log(1 / check_delta(delta))
    inner = big_l + math.log(mu ** 3 / (math.sqrt(2 * math.pi) * (epsilon ** 2 - mu ** 4 / 4)))
    return c * math.sqrt(2 * inner) / (epsilon - mu ** 2 / 2)


@claim(id="002.appC.tau-c-over-2", seed="002", lines="L1208, L1242",
       statement="tau ~ (c/2) sqrt(2(ln(1/delta) + ln(mu^3/(sqrt(2 pi)(eps^2 - mu^4/4)))))/(eps - mu^2/2) (L1242; L1208 its "
                 "leading form), where mu = c/tau (65) is the mu at which (64) gives delta.",
       recorded="holds-with-correction", result="Theorem 3.2", role="proof-step")
def check_tau_c_over_2() -> Verdict:
    rows = []
    for eps, d in C_HALF_POINTS:
        mu = eps / b_exact(eps, d)  # the exact mu with delta(eps; mu) = delta of (64)
        exact = 1.0 / mu  # tau / c = 1/mu by (65)
        rows.append({"epsilon": eps, "delta": d, "mu": mu, "tau_over_c_exact": exact,
                     "printed_c_over_2_ratio": tau_l1242(eps, d, mu, 0.5) / exact,
                     "corrected_c_ratio": tau_l1242(eps, d, mu, 1.0) / exact})
    worst_printed = max(abs(r["printed_c_over_2_ratio"] - 1) for r in rows)
    worst_fixed = max(abs(r["corrected_c_ratio"] - 1) for r in rows)
    ev = {"rows": rows, "points": len(rows), "correction": "c instead of c/2 at L1208 and L1242 (tau = c b/eps with b = eps/mu)",
          "tolerance": C_HALF_REL_TOL, "margin_unit": "relative: tolerance - max |tau_corrected/tau - 1|"}
    if worst_printed <= C_HALF_REL_TOL:
        return Verdict("holds", "numeric", C_HALF_REL_TOL - worst_printed, ev)
    if worst_fixed <= C_HALF_REL_TOL:
        why = (f"with mu of (64) at delta, tau/c = 1/mu exactly (65); the printed form with c/2 gives "
               f"{min(r['printed_c_over_2_ratio'] for r in rows):.3f}-{max(r['printed_c_over_2_ratio'] for r in rows):.3f} "
               f"of it at the {len(rows)} points, with c {min(r['corrected_c_ratio'] for r in rows):.4f}-"
               f"{max(r['corrected_c_ratio'] for r in rows):.4f}: the factor must be c (L1208 and L1242). Halving tau "
               f"halves the sigma C.2 compares with Theorem 3.1.")
        return Verdict("holds-with-correction", "numeric", C_HALF_REL_TOL - worst_fixed, ev, why=why,
                       reason="the printed factor c/2 gives half the exact tau; with c the form is within 5%")
    return Verdict("refuted", "numeric", C_HALF_REL_TOL - worst_printed, ev, counterexample=rows[0])
