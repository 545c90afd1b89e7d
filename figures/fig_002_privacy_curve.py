"""Seed 002: epsilon versus the number of rounds T at fixed K = kN for the settings of Tables 9-11.

Run: `make fig-002-privacy-curve` (or `python -m figures.run fig-002-privacy-curve [--quick]`).
Curves: the paper's target epsilon (D.4, L1580), the CLT estimate (65)+(64) that the paper calls
epsilon_f-DP (L1598), and our certified lower/upper bounds (numerics.pld); vertical lines at the
calculator's T_min and T_min,asym (L1586). Output: figures/out/fig_002_privacy_curve.png and .csv.
Full: 25 log-spaced T per table (about 1 min on one core); --quick: 6 per table (a few seconds).
"""
from __future__ import annotations

import argparse
import csv

import numpy as np

from figures import common, style
from numerics.sweep import sweep
from theory.proactive_dp.calculators import calculator_d4, privacy_curve_point
from theory.printed import texts
from theory.proactive_dp import paper_values

#: the paper's tables as printed strings (each Printed value's seed line is checked in paper_values)
CALCULATOR_TABLES = texts(paper_values.CALCULATOR_TABLES)

TABLES = (9, 10, 11)
#: output folders (figures.common's): the full setting, and the git-ignored quick one no claim reads
OUT, QUICK_OUT = common.OUT, common.QUICK_OUT


def rounds_grid(table: int, points: int) -> list:
    """Log-spaced integer T from ceil(k) (s = N) to kN (s = 1)."""
    inp = CALCULATOR_TABLES[table]["inputs"]
    k, n = inp["k"], inp["n"]
    return sorted({int(round(t)) for t in np.geomspace(k + 1, k * n, points)})


def main(argv=None) -> None:
    import matplotlib.pyplot as plt

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="6 rounds values per table instead of 25")
    args = ap.parse_args(argv or [])
    npts = 6 if args.quick else 25
    pts = [{"table": t, "rounds": r} for t in TABLES for r in rounds_grid(t, npts)]
    res = sweep(privacy_curve_point, pts, desc="002 privacy curve")
    out = QUICK_OUT if args.quick else OUT
    out.mkdir(parents=True, exist_ok=True)
    with (out / "fig_002_privacy_curve.csv").open("w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=["table", "rounds", "q", "epsilon_lower", "epsilon_upper", "epsilon_clt",
                                           "epsilon_target"])
        w.writeheader()
        for r in res:
            inp = CALCULATOR_TABLES[r["table"]]["inputs"]
            d4 = calculator_d4(sigma=float(inp["sigma"]), n=inp["n"], k=inp["k"])
            w.writerow({**r, "epsilon_target": d4.epsilon})
    common.provenance.write_sidecar(out / "fig_002_privacy_curve.csv", module="figures.fig_002_privacy_curve",
                                    config={"setting": "quick" if args.quick else "full", "points": pts}, data={})
    fig, axes = style.figure(len(TABLES))
    for ax, t in zip(axes, TABLES):
        rows = [r for r in res if r["table"] == t]
        inp = CALCULATOR_TABLES[t]["inputs"]
        d4 = calculator_d4(sigma=float(inp["sigma"]), n=inp["n"], k=inp["k"])
        T = [r["rounds"] for r in rows]
        ax.fill_between(T, [r["epsilon_lower"] for r in rows], [r["epsilon_upper"] for r in rows], color="C0",
                        alpha=0.4, label="certified [lower, upper] (PLD)")
        ax.plot(T, [r["epsilon_upper"] for r in rows], color="C0", lw=1)
        ax.plot(T, [r["epsilon_clt"] for r in rows], "--", color="C1", label="CLT (65) (paper's f-DP)")
        ax.axhline(d4.epsilon, color="C3", label="paper's epsilon_target (D.4)")
        ax.axvline(d4.t_min, color="k", ls=":", label="T_min")
        ax.axvline(d4.t_min_asym, color="grey", ls="-.", label="T_min,asym")
        ax.set(xscale="log", yscale="log", xlabel="rounds T (K = kN fixed)", ylabel="epsilon at delta = 1/N",
               title=f"Table {t}: sigma={inp['sigma']}, N={inp['n']}, k={inp['k']}")
        style.legend_below(ax)
    bad = style.overlaps(fig)
    paths = style.save(fig, out, "fig_002_privacy_curve")
    plt.close(fig)
    print(paths["png"], *(f"WARNING: {o}" for o in bad))
    return {**paths, "overlaps": bad}
