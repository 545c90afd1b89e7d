"""Seed 000 Figs 4-5: effect of the sampling method (sample-size sequence) on accuracy and rounds.

Run: ``make fig-000-4`` or ``python -m figures.run fig-000-4 --quick``.
Paper: 000_d613b97385d90362.txt Fig 4 (L1876), Fig 5 (L1881), methods and setting L1885-L1893
(a = 50, b = 0, K = 20000, 5 clients, eta_0 = 0.01). Stated: O(i) with c = 1 and O(i/ln i) give fewer
rounds while keeping good accuracy.
"""
from __future__ import annotations

from repro import experiments as E
from theory.async_fl import runs as R

from . import common

NAME = "fig_000_4"


def main(argv=None) -> None:
    args = common.parse_args(argv, __doc__)
    models = common.models(args.quick)
    fig, axes = common.figure_axes(len(models))
    rows, ours, exps = [], [], []
    for ax, model in zip(axes, models):
        exp = R.fig000_4(quick=args.quick, model=model)
        exps.append(exp)
        res = E.run(exp)
        common.plot_curves(ax, res, x="round", title=f"{model}: accuracy vs communication round")
        ax.set_xscale("symlog")
        rows += [{"model": model, **r} for r in E.curve_rows(res)]
        ours.append(f"{model}: " + ", ".join(f"{k} {res[k][0]['rounds']} rounds {m:.3f}±{s:.3f}"
                                             for k, (m, s) in common.final_summary(res).items()))
    cap = common.caption(
        figure="000 Figs 4-5: effect of sampling methods",
        paper="000_d613b97385d90362.txt L1876, L1881, L1885-L1893",
        changes=common.run_changes(exp) + ("; quick: 3 of the 6 methods" if args.quick else ""),
        stated="O(i) with c = 1 and O(i/ln i) need fewer rounds while keeping good accuracy (L1893)",
        ours="; ".join(ours), epsilon=common.NO_DP,
        quick=args.quick)
    common.write_outputs(args.out, NAME, rows, cap, fig, config=common.experiment_config(*exps),
                         data=common.data_record(*(c.data for e in exps for c in e.arms.values())))


if __name__ == "__main__":
    import sys
    main(sys.argv[1:])
