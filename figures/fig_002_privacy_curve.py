"""Seed 002: epsilon versus the number of rounds T at fixed K = kN for the settings of Tables 9-11.

Run: `make fig-002-privacy-curve` (or `python -m figures.run fig-002-privacy-curve [--quick]`).
Curves: the paper's target epsilon (D.4, L1580), the CLT estimate (65)+(64) that the paper calls
epsilon_f-DP (L1598), and our certified lower/upper bounds (numerics.pld); vertical lines at the
calculator's T_min and T_min,asym (L1586). Output: figures/out/fig_002_privacy_curve.png and .csv.
Full: 25 log-spaced T per table (about 1 min on one core); --quick: 6 per table (a few seconds).
"""
from __future__ import annotations

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


def main(argv=None) -> dict:
    args = common.parse_args(argv, __doc__)
    if args.out in (common.OUT, common.QUICK_OUT):  # the module's folders (a test may redirect them)
        args.out = QUICK_OUT if args.quick else OUT
        args.out.mkdir(parents=True, exist_ok=True)
    npts = 6 if args.quick else 25
    pts = [{"table": t, "rounds": r} for t in TABLES for r in rounds_grid(t, npts)]
    res = sweep(privacy_curve_point, pts, desc="002 privacy curve")
    rows, ours = [], []
    fig, axes = style.figure(len(TABLES))
    for ax, t in zip(axes, TABLES):
        inp = CALCULATOR_TABLES[t]["inputs"]
        d4 = calculator_d4(sigma=float(inp["sigma"]), n=inp["n"], k=inp["k"])
        sub = [{**r, "epsilon_target": d4.epsilon} for r in res if r["table"] == t]
        rows += sub
        T = [r["rounds"] for r in sub]
        ax.fill_between(T, [r["epsilon_lower"] for r in sub], [r["epsilon_upper"] for r in sub], color="C0",
                        alpha=0.4, label="ours: certified [lower, upper] (PLD)")
        ax.plot(T, [r["epsilon_upper"] for r in sub], color="C0", lw=1)
        ax.plot(T, [r["epsilon_clt"] for r in sub], "--", color="C1", label="CLT (65) (the paper's f-DP estimate)")
        ax.axhline(d4.epsilon, color="C3", label=f"paper's epsilon_target (D.4): {d4.epsilon:.4g}")
        ax.axvline(d4.t_min, color="k", ls=":", label=f"T_min = {d4.t_min:.4g}")
        ax.axvline(d4.t_min_asym, color="grey", ls="-.", label=f"T_min,asym = {d4.t_min_asym:.4g}")
        ax.set(xscale="log", yscale="log", xlabel="rounds T (K = kN fixed)", ylabel="epsilon at delta = 1/N",
               title=f"Table {t}: sigma={inp['sigma']}, N={inp['n']}, k={inp['k']}")
        style.legend_below(ax)
        at = min(sub, key=lambda r: abs(r["rounds"] - d4.t_min))
        ours.append(f"Table {t}: at T = {at['rounds']} (nearest T_min = {d4.t_min:.4g}) certified epsilon in "
                    f"[{at['epsilon_lower']:.4g}, {at['epsilon_upper']:.4g}] vs target {d4.epsilon:.4g}")
    cap = common.caption(
        figure="002: epsilon against the number of rounds T at fixed K = kN (Tables 9-11 settings)",
        paper="002_13c470b90c68bab6.txt L1580-L1586 (D.4 calculator, T_min and T_min,asym), L1598 (Tables 9-11)",
        changes=f"{npts} log-spaced T per table from k+1 to kN (the paper prints no such curve: ours, around its "
                f"Tables 9-11 points)",
        stated="since epsilon_f-DP is tight, epsilon_target for T_min,asym cannot be achieved (L1598)",
        ours="; ".join(ours), quick=args.quick,
        epsilon="the curves are epsilon itself: certified PLD [lower, upper] at delta = 1/N, q = k/T per round "
                "(theory.proactive_dp.calculators.privacy_curve_point)")
    return common.write_outputs(args.out, "fig_002_privacy_curve", rows, cap, fig, config={"points": pts}, data={},
                                image_epsilon="the curves themselves (certified PLD bracket at delta = 1/N)")
