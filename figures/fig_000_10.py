"""Seed 000 Fig 10 (and Fig 2): biased (label-skewed) vs unbiased (i.i.d.) clients.

Run: ``make fig-000-10`` or ``python -m figures.run fig-000-10 --quick``.
Paper: 000_d613b97385d90362.txt Fig 10 (L1947), Fig 2 (L237-L239): 2 clients, client 1 holds only
digit 0 and client 2 only digit 1, 10000 total iterations, eta_0 = 0.01, linear sample sizes.
Stated: no significant difference between biased and unbiased data.
"""
from __future__ import annotations

from repro import experiments as E

from . import common

NAME = "fig_000_10"


def main(argv=None) -> None:
    args = common.parse_args(argv, __doc__)
    models = ("strongly-convex", "plain-convex")
    fig, axes = common.figure_axes(len(models))
    rows, ours, exps = [], [], []
    for ax, model in zip(axes, models):
        exp = E.fig000_10(quick=args.quick, model=model)
        exps.append(exp)
        res = E.run(exp)
        common.plot_curves(ax, res, title=f"{model}: digits 0/1, 2 clients")
        ax.set_xscale("symlog")
        rows += [{"model": model, **r} for r in E.curve_rows(res)]
        ours.append(f"{model}: " + ", ".join(f"{k} {m:.4f}±{s:.4f}" for k, (m, s) in common.final_summary(res).items()))
    cap = common.caption(
        figure="000 Fig 10 / Fig 2: biased vs unbiased clients",
        paper="000_d613b97385d90362.txt L237-L239, L1947",
        changes=common.run_changes(exp),
        stated="no significant difference between biased and unbiased data sets (L239, L1953)",
        ours="; ".join(ours), quick=args.quick)
    common.write_outputs(args.out, NAME, rows, cap, fig, config=common.experiment_config(*exps),
                         data=common.data_record(*(c.data for e in exps for c in e.arms.values())))


if __name__ == "__main__":
    import sys
    main(sys.argv[1:])
