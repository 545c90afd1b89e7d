"""Seed 000 Fig 10 (and Fig 2): biased (label-skewed) vs unbiased (i.i.d.) clients, on real MNIST-5k.

Run: ``make fig-000-10`` or ``python -m figures.run fig-000-10 --quick``.
Paper: 000_d613b97385d90362.txt Fig 10 (L1941-L1947), Fig 2 (L237-L239): 2 clients, client 1 holds only
digit 0 and client 2 only digit 1, 10000 total iterations, eta_0 = 0.01, linear sample sizes.
Stated: no significant difference between biased and unbiased data (L1951).
Ours: the paper's pair 0/1 and the harder pair 4/9 (where the arms can differ), 40 seeds per arm
(each run takes about 0.2 s); "no difference" decided by TOST (repro.stats) with the margin below.
"""
from __future__ import annotations

from repro import experiments as E
from repro import stats
from theory.async_fl import runs as R

from . import common

NAME = "fig_000_10"
#: "no significant difference" read as: final accuracies within one point (TOST margin; the paper gives none)
MARGIN = 0.01


def tost_summary(res: dict) -> list[str]:
    """One phrase per digit pair: TOST of biased vs unbiased final accuracy at :data:`MARGIN`."""
    finals = E.final_accuracies(res)
    out = []
    for pair in R.FIG10_PAIRS:
        a, b = finals[R.fig10_label(pair, True)], finals[R.fig10_label(pair, False)]
        status, (eq, *_) = stats.equivalence_status(a, b, margin=MARGIN)
        out.append(f"{pair[0]}/{pair[1]}: diff {eq.diff:+.4f}, TOST p = {eq.p_value:.3g} (margin {MARGIN}, "
                   f"n = {eq.n[0]}+{eq.n[1]}) -> {status}")
    return out


def main(argv=None) -> None:
    args = common.parse_args(argv, __doc__)
    models = ("strongly-convex", "plain-convex")
    fig, axes = common.figure_axes(len(models))
    rows, ours, exps = [], [], []
    for ax, model in zip(axes, models):
        exp = R.fig000_10(quick=args.quick, model=model)
        exps.append(exp)
        res = E.run(exp)
        common.plot_curves(ax, res, title=f"{model}: MNIST-5k digit pairs, 2 clients")
        ax.set_xscale("symlog", linthresh=100)
        rows += [{"model": model, "data": exp.arms[r["label"]].data, **r} for r in E.curve_rows(res)]
        ours.append(f"{model}: " + ", ".join(f"{k} {m:.4f}±{s:.4f}" for k, (m, s) in common.final_summary(res).items())
                    + "; " + "; ".join(tost_summary(res)))
    cap = common.caption(
        figure="000 Fig 10 / Fig 2: biased vs unbiased clients (real MNIST-5k)",
        paper="000_d613b97385d90362.txt L237-L239, L1941-L1953",
        changes=common.run_changes(exp) + f"; no DP (no epsilon); decision: TOST, margin {MARGIN}, level "
                                          f"{stats.SIGNIFICANCE_LEVEL}",
        stated="no significant difference between biased and unbiased data sets (L239, L1951)",
        ours="; ".join(ours), epsilon=common.NO_DP,
        quick=args.quick)
    common.write_outputs(args.out, NAME, rows, cap, fig, config=common.experiment_config(*exps),
                         data=common.data_record(*(c.data for e in exps for c in e.arms.values())))


if __name__ == "__main__":
    import sys
    main(sys.argv[1:])
