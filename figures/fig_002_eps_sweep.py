"""Seed 002 Figs 11-12: test accuracy for the Table 6 privacy budgets and non-DP.

Run: ``make fig-002-eps-sweep`` (full) or ``python -m figures.run fig-002-eps-sweep --quick``.
Paper: 002_13c470b90c68bab6.txt L1534 (Fig 11), L1546 (Fig 12), Table 6 (L1516-L1524); stated
outcome L1496 (about 10 % degradation at epsilon = 0.04945; epsilon = 0.1 very close to non-DP) and
L276 (86 % at 0.04945, 91 % at 0.1, 93 % non-DP, strongly convex).
Beside each paper label we print the epsilon our accountant certifies for the run's schedule, and the
full setting adds, per row, a run at the sigma our accountant calibrates to the printed epsilon.
"""
from __future__ import annotations

from repro import experiments as E
from theory.proactive_dp import runs as R
from theory.proactive_dp.paper_values import FIGURE_ACCURACIES

from . import arm_epsilon, common

NAME = "fig_002_eps_sweep"


def main(argv=None) -> None:
    args = common.parse_args(argv, __doc__)
    models = common.models(args.quick)
    fig, axes = common.figure_axes(len(models), rows=1 if args.quick else 2)
    axes, axes2 = axes[:len(models)], axes[len(models):]
    rows, ours, exps, eps = [], [], [], []
    for ax, model in zip(axes, models):
        exp = R.eps_sweep(quick=args.quick, model=model)
        exps.append(exp)
        res = E.run(exp)
        cert = arm_epsilon.certify(res, enabled=not args.quick)
        eps.append(f"{model}: " + arm_epsilon.epsilon_caption(res, cert, quick=args.quick))
        rows += common.certified_rows(model, E.curve_rows(res), cert)
        printed = {k: v for k, v in res.items() if "calibrated" not in k}
        common.plot_curves(ax, {arm_label(k, cert[k]): v for k, v in printed.items()},
                           title=f"{model}: Table 6 (eps, sigma) as printed")
        if model == "strongly-convex":  # L276 prints the strongly convex accuracies
            last = max(r["curve"]["iterations"][-1] for rs in printed.values() for r in rs)
            acc = FIGURE_ACCURACIES
            common.draw_paper(ax, [last] * len(acc), [p.value / 100 for p in acc.values()], list(acc.values()),
                              what="final accuracy " + ", ".join(f"{k}: {p.text} %" for k, p in acc.items()))
            common.style.legend_below(ax)
        if not args.quick:
            common.plot_curves(axes2[models.index(model)],
                               {arm_label(k, cert[k]): v for k, v in res.items() if "calibrated" in k or k == "non-DP"},
                               title=f"{model}: sigma calibrated to printed eps")
        summ = common.final_summary(res)
        ours.append(f"{model}: final accuracy " + ", ".join(f"{k} {m:.3f}±{s:.3f}" for k, (m, s) in summ.items()))
        if not args.quick:
            ours.append("certified epsilon (upper, delta = 1e-4) per label: "
                        + ", ".join(f"{k} -> {c['epsilon_upper']:.4g}" for k, c in cert.items() if c and c["accounted"]))
    cap = common.caption(
        figure="002 Figs 11-12: accuracy for different privacy budgets and non-DP",
        paper="002_13c470b90c68bab6.txt L1534, L1546; Table 6 L1516-L1524; Table 3 L1404",
        changes=common.run_changes(exp),
        stated="about 10 % accuracy degradation at epsilon = 0.04945 vs non-DP; epsilon = 0.1 very close to "
               "non-DP (L1496); 86 % / 91 % / 93 % (L276)",
        ours="; ".join(ours), quick=args.quick, epsilon=" | ".join(eps))
    common.write_outputs(args.out, NAME, rows, cap, fig, config=common.experiment_config(*exps),
                         data=common.data_record(*(c.data for e in exps for c in e.arms.values())),
                         image_epsilon=("not computed in the quick setting (the full one prints each arm's certified "
                                        "bracket in its legend entry)") if args.quick else
                         "each arm's certified bracket (delta = 1e-4) in its legend entry, the paper's label beside it")


def arm_label(label: str, cert: dict | None) -> str:
    """The legend entry of an arm: the epsilon our accountant certifies for its schedule first, the paper's
    (Table 6) label beside it and marked as the paper's."""
    if label == "non-DP":
        return "non-DP (no noise)"
    ours = (f"certified eps in [{cert['epsilon_lower']:.4g}, {cert['epsilon_upper']:.4g}]" if cert
            else "certified eps not computed (quick)")
    return f"{ours}; paper's label: {label}"


if __name__ == "__main__":
    import sys
    main(sys.argv[1:])
