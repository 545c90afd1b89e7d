r"""Seed 002's Tables 6-8 re-accounted under the sampling Algorithm 1 actually runs, and footnote 5's defence.

Algorithm 1 line 4 "Uniformly sample a random set {xi_h}_{h=1}^{s_i} subseteq d" (002_13c470b90c68bab6.txt
L79) draws a FIXED-SIZE batch of s records without replacement; line 11 adds N(0, C^2 sigma^2 I) to the sum
of the clipped gradients. The relation is add/remove ("one set has one extra element", L54). Under
add/remove a fixed-size batch changes by a swap (one record in, another out), so the batch sum moves by up
to 2C: the pair numerics.dominating.fixed_size_add_remove, both dominating and realizable (all records of
D' at -e, x at +e). Footnote 5 (L182) defends the noise C rather than 2C by reading the sampling as
probabilistic (Poisson, as in Opacus), the mechanism the analysis treats.

A configuration of Tables 6-8 (N, K, delta of the table; row: eps label, sigma, s) runs T = ceil(K/s)
rounds (L134: K = sum s_i), as in theory.proactive_dp.experiments.
"""
from __future__ import annotations

import functools
import math

from numerics import Phase, Schedule
from numerics.accounting import epsilon as certified_epsilon
from numerics.sweep import sweep, versioned
from theory.ledger import Reading, Verdict, claim
from theory.proactive_dp.paper_values import BUDGET_TABLES


def rows(table: int) -> list:
    """The configurations of Table ``table``: n, k_total, s, sigma, delta, eps label and its line."""
    spec = BUDGET_TABLES[table]
    return [{"table": table, "line": line, "n": spec["n"], "k_total": spec["k_total"], "s": s,
             "sigma": float(sigma.text), "delta": float(spec["delta"].text), "label": label.text}
            for label, sigma, s, line in spec["rows"]]


@versioned("1")
def fixed_size_vs_poisson(*, n: int, k_total: int, s: int, sigma: float, delta: float) -> dict:
    """Certified brackets of ceil(K/s) rounds with a fixed-size batch of s of n (as run) and with Poisson
    rate s/n (as analysed), both Gaussian with noise multiplier sigma, add/remove, at ``delta``."""
    rounds = math.ceil(k_total / s)
    fixed = certified_epsilon(Schedule((Phase.fixed_size(batch_size=s, dataset_size=n, sigma=sigma, steps=rounds),)),
                              delta)
    poisson = certified_epsilon(Schedule((Phase(s / n, sigma, rounds),)), delta)
    return {"rounds": rounds, "fixed_lower": float(fixed.epsilon_lower), "fixed_upper": float(fixed.epsilon_upper),
            "poisson_lower": float(poisson.epsilon_lower), "poisson_upper": float(poisson.epsilon_upper),
            "ratio_fixed_lower_over_poisson_upper": float(fixed.epsilon_lower / poisson.epsilon_upper)}


def accounted(table: int) -> list:
    """Every row of Table ``table`` with both brackets (through the sweep runner and its cache)."""
    rs = rows(table)
    pts = [{k: r[k] for k in ("n", "k_total", "s", "sigma", "delta")} for r in rs]
    return [{**r, **a} for r, a in zip(rs, sweep(fixed_size_vs_poisson, pts, desc=f"002 table {table} as run"))]


def table_verdict(table: int) -> Verdict:
    """holds: fixed-size upper <= label for every row; refuted: some fixed-size lower > label; open otherwise."""
    rs = accounted(table)
    margin = min((float(r["label"]) - r["fixed_upper"]) / float(r["label"]) for r in rs)
    ev = {"rows": rs, "accountant": "numerics.epsilon, fixed-size Gaussian, add/remove (shift 2C), T = ceil(K/s)",
          "margin_unit": "relative: min over rows of (label - certified upper)/label; when refuted (label - lower)/label"}
    broken = [r for r in rs if r["fixed_lower"] > float(r["label"])]
    if broken:
        worst = max(broken, key=lambda r: r["fixed_lower"] / float(r["label"]))
        return Verdict("refuted", "numeric", (float(worst["label"]) - worst["fixed_lower"]) / float(worst["label"]), ev,
                       counterexample=worst)
    if margin >= 0:
        return Verdict("holds", "numeric", margin, ev)
    return Verdict("open", "numeric", margin, ev, reason="a label lies inside the certified fixed-size bracket")


for _t in BUDGET_TABLES:
    claim(id=f"002.table-{_t}.as-run-fixed-size", seed="002",
          lines=f"L79, L54, {BUDGET_TABLES[_t]['lines']}",
          statement=f"Every configuration of Table {_t}, accounted as Algorithm 1 runs it (a fixed-size batch of s of N "
                    f"without replacement, L79; noise C sigma on the sum; add/remove; T = ceil(K/s) rounds), meets "
                    f"its printed epsilon label at the table's delta.",
          recorded="holds", result=f"Table {_t}", role="printed-value")(lambda t=_t: table_verdict(t))


def recheck_footnote_5(cx: dict) -> float:
    """The counterexample's margin by another route: one fixed-size step under add/remove swaps a record
    (shift 2C), which is the Poisson add/remove pair at noise multiplier sigma/2 (numerics.pld), against
    the Poisson analysis at sigma that footnote 5 appeals to."""
    from numerics.pld import epsilon_pld
    from theory.ledger import HypothesisFails

    if not (0 < cx["s"] < cx["n"] and cx["rounds"] == math.ceil(cx["k_total"] / cx["s"])):
        raise HypothesisFails(f"not a Table 6-8 setting: s={cx['s']}, n={cx['n']}, rounds={cx['rounds']}")
    q = cx["s"] / cx["n"]
    fixed_lower = epsilon_pld(Schedule.constant(q=q, sigma=cx["sigma"] / 2, steps=cx["rounds"]), cx["delta"]).epsilon_lower
    poisson_upper = epsilon_pld(Schedule.constant(q=q, sigma=cx["sigma"], steps=cx["rounds"]), cx["delta"]).epsilon_upper
    return (poisson_upper - fixed_lower) / poisson_upper


@claim(id="002.footnote-5.fixed-size-covered-by-poisson", seed="002", lines="L182, L79", recheck=recheck_footnote_5,
       statement="Footnote 5: noise C (not 2C) suffices for Algorithm 1's fixed-size batches because the Poisson analysis "
                 "applies: at every setting of Tables 6-8 the fixed-size mechanism's epsilon is at most that of the "
                 "Poisson-subsampled Gaussian at q = s/N.",
       recorded="refuted", result="L182", role="conclusion")
def footnote_5() -> Verdict:
    rs = [r for t in BUDGET_TABLES for r in accounted(t)]
    worst = max(rs, key=lambda r: r["ratio_fixed_lower_over_poisson_upper"])
    least = min(rs, key=lambda r: r["ratio_fixed_lower_over_poisson_upper"])
    ev = {"rows": [{k: r[k] for k in ("table", "line", "s", "sigma", "rounds", "fixed_lower", "fixed_upper",
                                      "poisson_lower", "poisson_upper", "ratio_fixed_lower_over_poisson_upper")}
                   for r in rs],
          "ratio_range": [least["ratio_fixed_lower_over_poisson_upper"], worst["ratio_fixed_lower_over_poisson_upper"]],
          "why": "a fixed-size batch under add/remove swaps a record, moving the sum by 2C; Poisson moves it by C",
          "labels": "the labels themselves still hold as run (claims 002.table-*.as-run-fixed-size): they are loose",
          "margin_unit": "relative: (Poisson certified upper - fixed-size realizable lower)/Poisson upper of the worst row"}
    margin = (worst["poisson_upper"] - worst["fixed_lower"]) / worst["poisson_upper"]
    if margin < 0:
        label_ratio = max(r["poisson_upper"] / float(r["label"]) for r in rs)
        readings = (
            Reading("Algorithm 1 as printed: a fixed-size batch of s (line 4), add/remove adjacency", "L79, L54", "refuted",
                    margin, f"fixed-size realizable lower eps / Poisson certified upper in "
                            f"[{least['ratio_fixed_lower_over_poisson_upper']:.3f}, {worst['ratio_fixed_lower_over_poisson_upper']:.3f}] "
                            f"over the {len(rs)} rows"),
            Reading("footnote 5's remedy: draw the batch by Poisson sampling at q = s/N (Opacus), so the mechanism run is "
                    "the one analysed", "L182, L578", "holds", 0.0,
                    f"then nothing is left to cover (ratio 1) and the labels hold: max Poisson eps_upper/label = "
                    f"{label_ratio:.3f}; but Algorithm 1 (L79) and the experiments do not sample this way"))
        why = (f"a fixed-size batch under add/remove (L54) differs in a swap, moving the clipped-gradient sum by 2C, where "
               f"Poisson moves it by C: over the {len(rs)} rows of Tables 6-8 the fixed-size mechanism's realizable lower eps "
               f"is {least['ratio_fixed_lower_over_poisson_upper']:.2f}-{worst['ratio_fixed_lower_over_poisson_upper']:.2f} "
               f"times the Poisson certified upper (worst Table {worst['table']} {worst['line']}: "
               f"{worst['fixed_lower']:.4g} against {worst['poisson_upper']:.4g}). Footnote 5's reinterpretation of s_i as "
               f"random sample sizes changes the algorithm; it does not cover fixed-size batches. The printed labels still "
               f"hold as run (002.table-*.as-run-fixed-size): they are loose enough to absorb the factor.")
        return Verdict("refuted", "numeric", margin, ev, why=why, readings=readings,
                       counterexample={k: worst[k] for k in ("table", "line", "n", "k_total", "s", "sigma", "delta",
                                                             "rounds", "fixed_lower", "poisson_upper")})
    fixed_upper_ok = all(r["fixed_upper"] <= r["poisson_lower"] for r in rs)
    if fixed_upper_ok:
        return Verdict("holds", "numeric", margin, ev)
    return Verdict("open", "numeric", margin, ev, reason="the two brackets overlap at some setting")


# --- the tightness statements read under the sampling Algorithm 1 runs (readings of L40, L187, L1598) --------

def fixed_size_epsilon(*, n: int, k_total: int, s: int, sigma: float, delta: float) -> dict:
    """Certified bracket of ceil(K/s) rounds of a fixed-size batch of s of n (Algorithm 1, L79), add/remove."""
    rounds = math.ceil(k_total / s)
    b = certified_epsilon(Schedule((Phase.fixed_size(batch_size=s, dataset_size=n, sigma=sigma, steps=rounds),)),
                          delta)
    return {"s": s, "rounds": rounds, "fixed_lower": float(b.epsilon_lower), "fixed_upper": float(b.epsilon_upper)}


def fixed_size_critical_batch(*, n: int, k_total: int, sigma: float, delta: float, epsilon: float, s_lo: int,
                              s_hi: int) -> dict:
    """The largest batch s in [s_lo, s_hi) whose ceil(K/s) fixed-size rounds are certified (epsilon, delta)-DP
    (integer bisection; assumes epsilon increases in s at fixed K, as C.3 L1322 argues for the rounds), with the
    rounds it runs and whether s + 1 is certainly not DP (``exact``)."""
    if fixed_size_epsilon(n=n, k_total=k_total, s=s_lo, sigma=sigma, delta=delta)["fixed_upper"] > epsilon:
        raise ValueError(f"s_lo={s_lo} is not certified ({epsilon}, {delta})-DP: lower the bracket")
    if fixed_size_epsilon(n=n, k_total=k_total, s=s_hi, sigma=sigma, delta=delta)["fixed_lower"] <= epsilon:
        raise ValueError(f"s_hi={s_hi} is not certainly above ({epsilon}, {delta})-DP: raise the bracket")
    while s_hi - s_lo > 1:
        mid = (s_lo + s_hi) // 2
        if fixed_size_epsilon(n=n, k_total=k_total, s=mid, sigma=sigma, delta=delta)["fixed_upper"] <= epsilon:
            s_lo = mid
        else:
            s_hi = mid
    above = fixed_size_epsilon(n=n, k_total=k_total, s=s_lo + 1, sigma=sigma, delta=delta)
    return {"s": s_lo, "rounds": math.ceil(k_total / s_lo), "exact": above["fixed_lower"] > epsilon,
            "epsilon_lower_at_s_plus_1": above["fixed_lower"]}


@functools.lru_cache(maxsize=None)
def fixed_size_tightness_rows() -> tuple:
    r"""The Tables 9-11 caption settings (D.4, L1580-1588) read as Algorithm 1 runs them: a fixed-size batch of s
    (L79), noise C sigma, add/remove, so a swap moves the sum by 2C (footnote 14, L578: "we pay a factor 2
    penalty"). Per table: the fewest rounds T_crit at K = kN that are certified (eps_target, 1/N)-DP, the
    certified bracket at D.4's s_max (T_min) and s_max,asym (T_min,asym), and the ratios the tightness
    statements (L40, L172, L187, L1598) are about."""
    from theory.proactive_dp.calculators import CALCULATOR_TABLES, calculator_d4
    from theory.proactive_dp.gamma import gamma_min

    rows = []
    for t, spec in CALCULATOR_TABLES.items():
        inp = spec["inputs"]
        r = calculator_d4(sigma=float(inp["sigma"]), n=inp["n"], k=inp["k"], theta=inp["theta"])
        kt = int(round(r.k * r.n))
        crit = fixed_size_critical_batch(n=r.n, k_total=kt, sigma=r.sigma, delta=r.delta, epsilon=r.epsilon,
                                         s_lo=math.floor(r.s_max), s_hi=2 * math.floor(r.s_max_asym))
        at_min = fixed_size_epsilon(n=r.n, k_total=kt, s=math.floor(r.s_max), sigma=r.sigma, delta=r.delta)
        at_asym = fixed_size_epsilon(n=r.n, k_total=kt, s=math.floor(r.s_max_asym), sigma=r.sigma, delta=r.delta)
        gam = gamma_min(r.epsilon / r.k, r.sigma)
        rows.append({"table": t, "sigma": r.sigma, "n": r.n, "k": r.k, "epsilon": r.epsilon, "gamma": gam,
                     "t_crit_fixed": crit["rounds"], "t_crit_exact": crit["exact"],
                     "two_k2_over_eps_over_t_crit": 2 * r.k ** 2 / r.epsilon / crit["rounds"],
                     "t_min_over_t_crit": gam * r.k ** 2 / r.epsilon / crit["rounds"], "two_gamma": 2 * gam,
                     "epsilon_upper_at_s_max": at_min["fixed_upper"],
                     "epsilon_6_over_upper_at_s_max": r.epsilon / at_min["fixed_upper"],
                     "epsilon_lower_at_s_max_asym": at_asym["fixed_lower"],
                     "epsilon_upper_at_s_max_asym": at_asym["fixed_upper"]})
    return tuple(rows)
