"""Seed 000 Fig 1b (= Fig 12a) and Fig 12b: DP training with increasing vs constant sample sizes.

Run: ``make fig-000-1b`` or ``python -m figures.run fig-000-1b --quick``.
Paper: 000_d613b97385d90362.txt Fig 1b (caption L232, text L234), Fig 12 (L1963), setting L1968 (N_c = 10^4,
q = 0.000132, m = 12.106, p = 1, sigma = 8, C = 0.1, K = 25000, (epsilon, delta) = (1, 5.5e-8) by the
paper's Theorem 3.2). Stated: the increasing schedule with diminishing steps reaches better accuracy
under DP. We print, for each arm, the epsilon our accountant certifies for the schedule it ran.
"""
from __future__ import annotations

from repro import experiments as E
from theory.async_fl import runs as R

from . import arm_epsilon, common

NAME = "fig_000_1b"


def main(argv=None) -> None:
    args = common.parse_args(argv, __doc__)
    models = common.models(args.quick)
    fig, axes = common.figure_axes(len(models))
    rows, ours, exps, eps = [], [], [], []
    for ax, model in zip(axes, models):
        exp = R.fig000_1b(quick=args.quick, model=model)
        exps.append(exp)
        res = E.run(exp)
        cert = arm_epsilon.certify(res, enabled=not args.quick)
        eps.append(f"{model}: " + arm_epsilon.epsilon_caption(res, cert, quick=args.quick))
        common.plot_curves(ax, res, title=f"{model}, DP sigma = 8: accuracy vs iterations")
        rows += common.certified_rows(model, E.curve_rows(res), cert)
        ours.append(f"{model}: " + ", ".join(
            f"{k}: {res[k][0]['rounds']} rounds, {m:.3f}±{s:.3f}"
            + (f", certified epsilon <= {cert[k]['epsilon_upper']:.4g} at delta 5.5e-8" if cert[k] and cert[k]["accounted"] else "")
            for k, (m, s) in common.final_summary(res).items()))
    cap = common.caption(
        figure="000 Fig 1b / Fig 12: DP with increasing vs constant sample sizes",
        paper="000_d613b97385d90362.txt L232-L234, L1963, L1967-L1968",
        changes=common.run_changes(exp) + ("; certified epsilon and the matched-sigma arm in the "
                                                              "full run only" if args.quick else ""),
        stated="with the same (epsilon, delta) = (1, 5.5e-8), diminishing steps with increasing sample sizes "
               "reach better accuracy than constant ones (L234, L1968); L234 writes the sequence as 16 + ceil(1.348 i), "
               "E.3 (L1968) as N_c q (i + m) = 1.32 i + 15.98, which we use",
        ours="; ".join(ours), quick=args.quick, epsilon=" | ".join(eps))
    common.write_outputs(args.out, NAME, rows, cap, fig, config=common.experiment_config(*exps),
                         data=common.data_record(*(c.data for e in exps for c in e.arms.values())))


if __name__ == "__main__":
    import sys
    main(sys.argv[1:])
