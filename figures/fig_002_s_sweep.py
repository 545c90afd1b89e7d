"""Seed 002 Figs 7-8: test accuracy vs training progress for constant sample sizes s (Table 3).

Run: ``make fig-002-s-sweep`` (full, about 4 min) or ``python -m figures.run fig-002-s-sweep --quick``.
Paper: 002_13c470b90c68bab6.txt L1463 (Fig 7), L1488 (Fig 8), setting Table 3 (L1404-L1417);
stated outcome L1428-L1430 and L272: larger s is better at the same K, s = 26 best, s = 1 worst.
"""
from __future__ import annotations

from repro import experiments as E
from theory.proactive_dp import runs as R

from . import arm_epsilon, common

NAME = "fig_002_s_sweep"


def main(argv=None) -> None:
    args = common.parse_args(argv, __doc__)
    models = common.models(args.quick)
    fig, axes = common.figure_axes(len(models))
    rows, ours, exps, eps = [], [], [], []
    for ax, model in zip(axes, models):
        exp = R.s_sweep(quick=args.quick, model=model)
        exps.append(exp)
        res = E.run(exp)
        cert = arm_epsilon.certify(res, enabled=not args.quick)
        eps.append(f"{model}: " + arm_epsilon.epsilon_caption(res, cert, quick=args.quick))
        rows += common.certified_rows(model, E.curve_rows(res), cert)
        common.plot_curves(ax, res, title=f"{model}: constant s, sigma = {R.TABLE3['sigma']}, C = {R.TABLE3['C']}")
        summ = common.final_summary(res)
        ours.append(f"{model}: final accuracy " + ", ".join(f"{k} {m:.3f}±{s:.3f}" for k, (m, s) in summ.items()))
        if not args.quick:
            ours.append("certified epsilon (upper, delta = 1e-4): "
                        + ", ".join(f"{k} {c['epsilon_upper']:.4g}" for k, c in cert.items() if c and c["accounted"]))
    cap = common.caption(
        figure="002 Figs 7-8: effect of the constant sample size s under DP",
        paper="002_13c470b90c68bab6.txt L1463, L1488; Table 3 L1404-L1417",
        changes=common.run_changes(exp) + f"; paper's epsilon label {R.TABLE3['epsilon']}",
        stated="s = 26 gives the best accuracy, s = 1 the worst, at the same K (L1428-L1430, L272)",
        ours="; ".join(ours), quick=args.quick, epsilon=" | ".join(eps))
    common.write_outputs(args.out, NAME, rows, cap, fig, config=common.experiment_config(*exps),
                         data=common.data_record(*(c.data for e in exps for c in e.arms.values())))


if __name__ == "__main__":
    import sys
    main(sys.argv[1:])
