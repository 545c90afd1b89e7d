"""Seed 004, Algorithm 1 with the realised denominator |S_t| (L98-L104) at Theorem 2's noise (L206-L210).

Run: ``make table-004-realised`` or ``python -m figures.run table-004-realised [--quick]``.
Paper: 004_da72e1d6878ba772.txt, Algorithm 1 L98-L104 (the server divides by S = |S_t|), Theorem 2 L206-L210 and
its proof L461-L466 (sensitivity L/S "with S fixed"); Table 2's MNIST Poisson setting L310, budgets L316.
One row per point: the closed-form noise nu/L of Theorem 2 at (eps, delta = 1/N^1.1), the realizable release's
lower confidence bound on delta(eps) (Monte Carlo, Clopper-Pearson, minus the empty-round term) and the upper
epsilon of the count-revealed dominating pair (theory.dp_fed_ls.realised_denominator, which holds the proofs).
This target: ``part`` = ``paper-setting`` (N 500, tau 0.05, T 30, the four Table 2 budgets, 100,000 runs, upper end
always computed), read by the claim 004.thm-2.realised-denominator. ``make table-004-realised-scan``
(figures/table_004_realised_scan.py, the same code): ``part`` = ``scan`` (Theorem 2's range, 20,000 runs, upper end
only where the lower end does not refute), read by 004.thm-2.realised-denominator-scan. Two targets so that the
paper setting's table (about 30 CPU minutes cold) does not wait for the scan's.
``--quick``: four cheap scan points (N 20, tau 0.2, T 10) at 2,000 runs, into figures/out/quick/.
"""
from __future__ import annotations

from numerics.sweep import sweep
from theory.dp_fed_ls import realised_denominator as rd

from . import common

NAME = "table_004_realised"
#: the columns of every row, in order (a column a point did not compute is left empty)
COLUMNS = ("part", "clients", "tau", "rounds", "eps", "delta", "feasible", "nu_over_clip", "dimension", "samples",
           "confidence", "seed", "hits", "delta_estimate", "delta_lower_flagged", "empty_round_cost", "delta_lower",
           "upper_epsilon", "upper_pair_lower_epsilon", "upper_certified", "status", "margin")
QUICK_SAMPLES = 2_000


#: the part each target computes, and its points (figures/table_004_realised_scan.py: "scan")
PARTS = {"paper-setting": rd.paper_points, "scan": rd.scan_points}


def points(part: str, quick: bool) -> list:
    """(part, sweep point) pairs of ``part``, or the quick smoke points."""
    if quick:
        return [("quick", {**p, "samples": QUICK_SAMPLES}) for p in rd.scan_points()
                if (p["clients"], p["tau"], p["rounds"]) == (20, 0.2, 10)]
    return [(part, p) for p in PARTS[part]()]


def table_row(part: str, point: dict, result: dict) -> dict:
    """One CSV row: the point, what theorem2_point computed there and the point's status (rd.point_verdict)."""
    row = {"part": part, **{k: point[k] for k in ("clients", "tau", "rounds", "eps")},
           "samples": point.get("samples", rd.MC["samples"]), "confidence": point.get("confidence", rd.MC["confidence"]),
           **result}
    if row["feasible"]:
        row["status"], row["margin"] = rd.point_verdict(row["eps"], row)
    return {k: row.get(k, "") for k in COLUMNS}


def summary(rows: list) -> str:
    """The caption's 'ours': statuses per part, and the paper setting's deciding numbers."""
    out = []
    for part in dict.fromkeys(r["part"] for r in rows):
        mine = [r for r in rows if r["part"] == part and r["feasible"]]
        count = {s: sum(r["status"] == s for r in mine) for s in ("refuted", "open", "holds")}
        out.append(f"{part}: {len(mine)} feasible points, " + ", ".join(f"{n} {s}" for s, n in count.items()))
    paper = [r for r in rows if r["part"] == "paper-setting"]
    out += [f"eps {r['eps']:g}: {r['status']} (delta(eps) >= {r['delta_lower']:.3g} vs delta {r['delta']:.4g}, "
            f"upper eps {r['upper_epsilon']:.4g})" for r in paper]
    return "; ".join(out)


def main_for(part: str, name: str, argv=None) -> None:
    """Compute ``part``'s points through the sweep runner and write ``name``.csv with its caption and sidecar."""
    args = common.parse_args(argv, __doc__)
    pts = points(part, args.quick)
    results = sweep(rd.theorem2_point, [p for _, p in pts], desc="004 realised denominator")
    rows = [table_row(which, p, r) for (which, p), r in zip(pts, results)]
    cap = common.caption(
        figure=f"Seed 004 Algorithm 1 with the realised denominator |S_t|: Theorem 2's noise against both ends ({part})",
        paper="004_da72e1d6878ba772.txt L98-L104 (Algorithm 1), L206-L210 (Theorem 2), L461-L466 (proof, 'S fixed'); "
              "Table 2's MNIST Poisson setting L310, L316",
        changes="no training run: the privacy of the release at Theorem 2's noise; d = 28 x 28 x 10 = "
                f"{rd.MNIST_DIMENSION} (weights only: a lower bound at d holds at every larger d)"
                + ("; the scan's T = 200 left out for time" if part == "scan" else "")
                + ("; QUICK: four points N 20, tau 0.2, T 10 at 2,000 runs" if args.quick else ""),
        stated="Theorem 2: the closed-form noise makes Algorithm 1 (eps, delta)-DP under Poisson sampling "
               "(delta = 1/N^1.1), Table 2's budgets eps 6-9 at N 500, tau 0.05, T 30",
        ours=summary(rows),
        epsilon="the tabulated quantity, no training arm: the target eps of each row (delta = 1/N^1.1), the realizable "
                "release's delta(eps) lower bound (Monte Carlo, one-sided Clopper-Pearson) and the count-revealed "
                "pair's upper eps (numerics.pld_general, not certified: " + rd.UNBOUNDED + ")",
        quick=args.quick)
    common.write_outputs(args.out, name, rows, cap,
                         config={"mc": rd.MC, "scan": rd.SCAN, "upper_rel_width": rd.UPPER_REL_WIDTH,
                                 "dimension": rd.MNIST_DIMENSION, "quick_samples": QUICK_SAMPLES})


def main(argv=None) -> None:
    main_for("paper-setting", NAME, argv)


if __name__ == "__main__":
    import sys
    main(sys.argv[1:])
