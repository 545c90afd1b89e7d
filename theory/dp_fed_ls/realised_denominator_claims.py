r"""Claims on Algorithm 1 with the realised denominator |S_t| under Poisson sampling (seed 004, L98-L104, Theorem 2
L206-L210): the computation is :mod:`theory.dp_fed_ls.realised_denominator`, run at Table 2's setting and over
Theorem 2's range by ``make table-004-realised`` and ``make table-004-realised-scan`` (figures/table_004_realised.py, through the
sweep runner); here the
verdicts, decided from the rows of that table's fresh full-setting CSV (:func:`theory.figure_evidence.load`: a
missing, stale or quick CSV raises ``StaleFigureData``, never a fallback run).

Kept apart from :mod:`theory.dp_fed_ls.closed_form` so that the figure scripts importing the closed form do not
depend on this accountant (``numerics.sweep.closure``).
"""
from __future__ import annotations

from theory.dp_fed_ls import realised_denominator as rd
from theory.dp_fed_ls.closed_form import _certified_claim
from theory.dp_fed_ls.noise_formula import POISSON, closed_form_noise, delta_of
from theory.figure_evidence import load
from theory.ledger import HypothesisFails, Reading, Verdict, claim

#: the table each part is read from (figures/out/<name>.csv)
TABLES = {"paper-setting": "table_004_realised", "scan": "table_004_realised_scan"}
_INTS = ("clients", "rounds", "dimension", "samples", "seed", "hits")
_FLOATS = ("tau", "eps", "delta", "nu_over_clip", "confidence", "delta_estimate", "delta_lower_flagged",
           "empty_round_cost", "delta_lower", "upper_epsilon", "upper_pair_lower_epsilon")


def _parsed(row: dict) -> dict:
    """A CSV row with its numbers as numbers and its flags as booleans; an empty cell (not computed) is left out."""
    out = {"part": row["part"], "feasible": row["feasible"] == "True"}
    out.update({k: int(row[k]) for k in _INTS if row.get(k, "") != ""})
    out.update({k: float(row[k]) for k in _FLOATS if row.get(k, "") != ""})
    if row.get("upper_certified", "") != "":
        out["upper_certified"] = row["upper_certified"] == "True"
    return out


def table_rows(part: str) -> tuple:
    """(feasible rows of ``part``, all rows of ``part``, source) of the fresh table."""
    rows, _, source = load(TABLES[part])
    mine = [_parsed(r) for r in rows if r["part"] == part]
    return [r for r in mine if r["feasible"]], mine, source


def _realised_recheck(cx: dict) -> float:
    """Margin (delta - the realizable release's lower bound on delta(eps), over delta) recomputed at ``cx``: its
    Monte Carlo runs, confidence and seed, at Theorem 2's noise there (rd.release_lower, empty-round term paid)."""
    delta = delta_of(cx["clients"])
    found = closed_form_noise(cx["eps"], delta, cx["tau"], cx["rounds"], POISSON)
    if found is None:
        raise HypothesisFails(f"Theorem 2's conditions cannot be met at {cx}")
    low = rd.release_lower(cx["clients"], cx["tau"], cx["rounds"], cx["eps"], found[0], cx["dimension"],
                           cx["samples"], cx["confidence"], cx["seed"])
    return (delta - low["delta_lower"]) / delta


def _counterexample(row: dict) -> dict:
    keys = ("clients", "tau", "rounds", "eps", "dimension", "samples", "confidence", "seed", "delta_lower", "delta")
    return {k: row[k] for k in keys}


def _decided(rows: list) -> tuple:
    """(status, the worst (status, margin, row), every (status, margin, row)) of the rows, by rd.point_verdict: refuted
    when any row is, else open when any is, else holds."""
    decided = [(*rd.point_verdict(r["eps"], r), r) for r in rows]
    status = next((v for v in ("refuted", "open") if any(d[0] == v for d in decided)), "holds")
    return status, min(decided, key=lambda d: d[1]), decided


@claim(id="004.thm-2.realised-denominator", seed="004", lines="L98-L104, L206-L210, L461-L466",
       statement="Theorem 2's accounting covers Algorithm 1 as written under Poisson sampling, where the server divides the noisy sum by the realised S = |S_t|.",
       recorded="refuted", version="3", result="Theorem 2", role="conclusion", recheck=_realised_recheck,
       cause="004-realised-denominator")
def thm2_realised_denominator() -> Verdict:
    rows, _, source = table_rows("paper-setting")
    status, worst, decided = _decided(rows)
    r = worst[2]
    by_status = {v: ", ".join(f"{d[2]['eps']:g}" for d in decided if d[0] == v) for v in ("refuted", "open", "holds")}
    fmt = "; ".join(f"eps {d[2]['eps']:g}: nu/L {d[2]['nu_over_clip']:.4f}, upper eps {d[2]['upper_epsilon']:.3f}, "
                    f"release delta(eps) >= {d[2]['delta_lower']:.3g} (estimate {d[2]['delta_estimate']:.3g})"
                    for d in decided)
    fixed = _certified_claim(POISSON)
    why = (f"A present client both adds its update and raises the realised denominator S (L100, L102), so the mean "
           f"moves by (Delta_x - mean of the others)/S, up to 2L/S, not the L/S of the proof (L461-L466, 'S fixed'). "
           f"Dominating pair (proof in theory.dp_fed_ls.realised_denominator): the count S ~ Bin(N, tau) revealed "
           f"and, given S = k, a subsampled Gaussian at rate k/N with sensitivity 2L. Realizable pair: the others' "
           f"clipped updates -L e1, the client's +L e1, released as (Sigma + Z)/S in d = {r['dimension']} dimensions "
           f"(28 x 28 x 10, L310), its exact loss composed over T = {r['rounds']} rounds by Monte Carlo "
           f"({r['samples']} runs, one-sided Clopper-Pearson at confidence {r['confidence']}; {source}). At the "
           f"Table 2 MNIST Poisson setting (N = {r['clients']}, tau = {r['tau']}, delta = 1/N^1.1 = {r['delta']:.4g}): "
           f"{fmt}. So Algorithm 1 as written is not (eps, delta)-DP at eps = {by_status['refuted'] or 'none'} (the "
           f"release's delta lower bound exceeds delta); undecided at eps = {by_status['open'] or 'none'} (between the "
           f"ends); the upper end is at most eps at eps = {by_status['holds'] or 'none'}. Under the other reading, a "
           f"fixed denominator tau N, Theorem 2 {fixed.status} at the four budgets (004.thm-2.certified-at-table-2)")
    readings = (Reading("the server divides by the realised S = |S_t| (Algorithm 1 as printed)", "L100, L102",
                        status, worst[1], why="the count-dependent denominator doubles the sensitivity"),
                Reading("a fixed denominator S = tau N (the proof's 'S fixed')", "L461-L466", fixed.status,
                        float(fixed.margin), why="004.thm-2.certified-at-table-2: Poisson add/remove at sensitivity L"))
    return Verdict(status, "sampled", worst[1], why=why, readings=readings, arithmetic=("float",),
                   evidence={"points": len(rows), "rows": rows, "source": source,
                             "margin_unit": "refuted budgets: (delta - the release's delta(eps) lower bound)/delta; "
                                            "the others: (eps - upper eps)/eps",
                             "domain": "the four Table 2 budgets of the MNIST Poisson setting (L310, L316); "
                                       "the theorem-range scan is 004.thm-2.realised-denominator-scan",
                             "upper": "numerics.pld_general on the count-revealed pair (not certified: "
                                      + rd.UNBOUNDED + ")",
                             "lower": "sampled: Monte Carlo of the realizable release, one-sided Clopper-Pearson, minus "
                                      "the empty-round term T((1-tau)^N + e^eps (1-tau)^(N-1)) (rd.empty_round_cost)"},
                   counterexample=_counterexample(r) if status == "refuted" else None,
                   reason="" if status != "open" else "a target lies between the two ends")


@claim(id="004.thm-2.realised-denominator-scan", seed="004", lines="L98-L104, L206-L210",
       statement="Theorem 2 over its range (delta = 1/N^1.1 as in the paper): wherever its conditions can be met, the closed-form noise makes Algorithm 1 with the realised denominator |S_t| (eps, delta)-DP under Poisson sampling.",
       recorded="refuted", version="2", result="Theorem 2", role="conclusion", recheck=_realised_recheck,
       cause="004-realised-denominator")
def thm2_realised_denominator_scan() -> Verdict:
    rows, everything, source = table_rows("scan")
    status, worst, decided = _decided(rows)
    count = {v: sum(d[0] == v for d in decided) for v in ("refuted", "open", "holds")}
    refuted = [d[2] for d in decided if d[0] == "refuted"]
    smallest = min(refuted, key=lambda r: r["eps"]) if refuted else None
    grid = {k: sorted({r[k] for r in everything}) for k in ("clients", "tau", "rounds", "eps")}
    runs = sorted({r["samples"] for r in rows})
    confidence = sorted({r["confidence"] for r in rows})
    why = (f"Over {len(rows)} feasible points of the grid {grid} (delta = 1/N^1.1, d = {worst[2]['dimension']}, "
           f"{runs} Monte Carlo runs per point at one-sided confidence {confidence}; {source}): {count['refuted']} "
           f"refuted (the realizable release's delta(eps) lower bound exceeds delta), {count['open']} open, "
           f"{count['holds']} hold (count-revealed upper eps <= eps). "
           + (f"Worst: N = {worst[2]['clients']}, tau = {worst[2]['tau']}, T = {worst[2]['rounds']}, eps = "
              f"{worst[2]['eps']:g}: delta(eps) >= {worst[2]['delta_lower']:.3g} against delta = {worst[2]['delta']:.3g}; "
              f"smallest refuted eps: {smallest['eps']:g} (N = {smallest['clients']}, tau = {smallest['tau']}, "
              f"T = {smallest['rounds']}). " if refuted else "")
           + "The realised denominator doubles the sensitivity (004.thm-2.realised-denominator). T = 200 is not in "
             "the grid (left out of the table for time)")
    return Verdict(status, "sampled", worst[1], why=why, arithmetic=("float",),
                   evidence={"points": len(rows), "infeasible_points": len(everything) - len(rows), "grid": grid,
                             "counts": count, "rows": rows, "source": source,
                             "domain": "the sampled grid only (N x tau x T x eps, delta = 1/N^1.1)",
                             "margin_unit": "refuted points: (delta - delta lower bound)/delta; others: "
                                            "(eps - upper eps)/eps"},
                   counterexample=_counterexample(worst[2]) if status == "refuted" else None,
                   reason="" if status != "open" else "some targets lie between the two ends")
