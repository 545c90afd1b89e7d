"""Seed 000 Fig 1a (and Figs 6-7): constant step and sample size vs diminishing steps with linearly
increasing sample sizes, without DP.

Run: ``make fig-000-1a`` or ``python -m figures.run fig-000-1a --quick``.
Paper: 000_d613b97385d90362.txt Fig 1a (L232), Figs 6-7 (L1913, L1918), diminishing1/2 (L1901-L1909);
stated outcome L226/L1929: the constant scheme needs 20 rounds, diminishing + increasing 9 rounds, with
the same or better accuracy.
"""
from __future__ import annotations

from repro import experiments as E
from theory.async_fl import runs as R
from theory.async_fl.paper_values import FIG1A_ROUNDS

from . import common

NAME = "fig_000_1a"


def main(argv=None) -> None:
    args = common.parse_args(argv, __doc__)
    exp = R.fig000_1a(quick=args.quick)
    res = E.run(exp)
    fig, (ax1, ax2) = common.figure_axes(2)
    common.plot_curves(ax1, res, title="strongly convex: test accuracy vs iterations")
    for key, ls in (("constant", ":"), ("linear", "--")):
        p = FIG1A_ROUNDS[key]
        ax2.axvline(p.value, color="black", lw=1, ls=ls, label=f"paper: {key} scheme, {p.text} rounds ({p.line})")
    common.plot_curves(ax2, res, x="round", title="test accuracy vs communication round")
    summ = common.final_summary(res)
    cap = common.caption(
        figure="000 Fig 1a / Figs 6-7: step-size schemes and increasing sample sizes",
        paper="000_d613b97385d90362.txt L226, L232, L1853, L1901-L1913, L1929",
        changes=common.run_changes(exp),
        stated="constant (eta, s): 20 rounds; diminishing + linearly increasing s: 9 rounds with the same or "
               "better accuracy (L226)",
        ours=", ".join(f"{k}: {res[k][0]['rounds']} rounds, {m:.3f}±{s:.3f}" for k, (m, s) in summ.items()),
        epsilon=common.NO_DP,
        quick=args.quick)
    common.write_outputs(args.out, NAME, E.curve_rows(res), cap, fig, config=common.experiment_config(exp),
                         data=common.data_record(*(c.data for c in exp.arms.values())))


if __name__ == "__main__":
    import sys
    main(sys.argv[1:])
