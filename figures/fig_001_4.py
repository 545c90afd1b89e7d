"""Seed 001 Fig. 4 (Case III): batch size and learning rate both 2X, small noise: does SYNC collapse?

Run: ``make fig-001-4`` or ``python -m figures.run fig-001-4 --quick``.
Paper: 001_53c39e87fd81b1a8.txt Case III (L253-255), Fig. 4 (L262-265): EfficientNet-B0 on CIFAR-10 and the
SWB300 LSTM; SYNC collapses, ADPSGD converges.
"""
from __future__ import annotations

from repro import decentralized_experiments as X

from . import common
from .decentralized_plots import data_note, epsilon_phrase, finals, plot_mean_curves

NAME = "fig_001_4"


def main(argv=None) -> None:
    args = common.parse_args(argv, __doc__)
    rows = X.curve_rows(X.run(X.large_batch_grid(quick=args.quick), NAME))
    batches = sorted({int(r["batch"]) for r in rows})
    fig, axes = common.figure_axes(len(batches), width=4.4)
    ours = []
    for ax, b in zip(axes, batches):
        sub = [r for r in rows if int(r["batch"]) == b]
        plot_mean_curves(ax, sub, x="epoch", title=f"batch {b}, lr {sub[0]['lr']}, sigma {X.SMALL:g}")
        fin = finals(sub)
        ours.append(f"batch {b}: " + ", ".join(f"{alg} {sum(v) / len(v):.4f}" for (alg, _, _), v in sorted(fin.items())))
    axes[-1].text(0.02, 0.97, "paper: SYNC collapses, ADPSGD converges (L255, Fig. 4)", transform=axes[-1].transAxes,
                  fontsize=6.5, va="top")
    cap = common.caption(
        figure="001 Fig. 4 analogue: 2X batch and 2X learning rate with small noise",
        paper="001_53c39e87fd81b1a8.txt L253-255, L262-265",
        changes="real MNIST-5k, MLP(32), K=8, clip C=1, 10 epochs, 3 seeds per arm; batch 32 -> 64, lr 0.5 -> 1.0; " + data_note(),
        stated="when batch size is 2X larger and learning rate is 2X larger, ADPSGD converges whereas SYNC does not (L265)",
        ours="; ".join(ours), epsilon=epsilon_phrase(rows), quick=args.quick)
    common.write_outputs(args.out, NAME, rows, cap, fig, data=common.data_record(X.BASE["data"]))


if __name__ == "__main__":
    import sys
    main(sys.argv[1:])
