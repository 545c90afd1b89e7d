"""Seed 004 Fig. 6 analogue (run: `make fig-004-6`): loss-threshold membership-inference AUC.

Non-DP FedAvg, DP-Fed (sigma = 0) and DP-Fed-LS (sigma = 1) trained as in table-004-2 (real MNIST-5k, 800
clients, uniform sampling, noise of Theorem 1 at eps = 6); the attack scores each example by its loss, and
the AUC of members (the 4000 training images) against non-members (the 1000 test images) is the
Mann-Whitney U / (n1 n2) (scipy). Welch's t-test over seeds compares the arms.
"""
from __future__ import annotations

import numpy as np
from scipy.stats import ttest_ind

from figures.common import caption, data_record, figure_axes, parse_args, write_outputs
from figures.tables_004 import accounted
from numerics.sweep import sweep
from repro import data
from theory.dp_fed_ls.closed_form import delta_of
from theory.dp_fed_ls.run_privacy import run_epsilon
from theory.dp_fed_ls.runs import CHANGES, CLIENTS, MIA_ARMS, MIA_EPS, mia_auc


def main(argv=None):
    args = parse_args(argv, __doc__)
    seeds = (0, 1) if args.quick else (0, 1, 2, 3, 4)
    rounds = 5 if args.quick else 30
    pts = [{"arm": a, "seed": s, "rounds": rounds} for a in MIA_ARMS for s in seeds]
    aucs = sweep(mia_auc, pts, desc="fig-004-6")
    by = {a: [v for p, v in zip(pts, aucs) if p["arm"] == a] for a in MIA_ARMS}
    rows = [{"arm": p["arm"], "seed": p["seed"], "auc": v} for p, v in zip(pts, aucs)]
    p_dp = float(ttest_ind(by["DP-Fed-LS"], by["DP-Fed"], equal_var=False).pvalue)
    fig, axes = figure_axes(1)
    ax = axes[0] if isinstance(axes, (list, tuple, np.ndarray)) else axes
    ax.bar(list(by), [np.mean(v) for v in by.values()], yerr=[np.std(v, ddof=1) for v in by.values()])
    ax.axhline(0.5, color="k", lw=0.5)
    ax.set_ylim(0.45, max(0.6, max(np.mean(v) for v in by.values()) + 0.02))
    ax.set_ylabel("loss-threshold attack AUC")
    means = {a: round(float(np.mean(v)), 4) for a, v in by.items()}
    b = run_epsilon(MIA_EPS, "uniform", rounds)
    cap = caption(figure="Seed 004 Fig. 6 analogue", paper="Fig. 6, L386-398 (SVHN CNN, 64k images, 500 clients)",
                  changes=f"{data.load('mnist-5k', seed=0).notes}; linear softmax model; {CHANGES}; uniform sampling, "
                          f"target eps = {MIA_EPS:g} (Theorem 1 noise), T = {rounds}; seeds {list(seeds)}",
                  stated="non-DP leaks (high AUC); DP lowers it; DP-Fed-LS may lower it further",
                  ours=f"mean AUC {means}; DP-Fed-LS vs DP-Fed Welch p = {p_dp:.3g}", epsilon=arm_epsilons(b),
                  quick=args.quick)
    write_outputs(args.out, "fig_004_6", rows, cap, fig, data=data_record("mnist-5k"))


def arm_epsilons(b: dict) -> str:
    """The caption's epsilon: per arm of MIA_ARMS, the certified bracket ``b`` of its runs (:func:`run_epsilon` at
    MIA_EPS, uniform sampling; the same with or without smoothing, post-processing of L98-L104) or no DP noise."""
    dp = (f"epsilon in [{b['lower']:.3g}, {b['upper']:.3g}] "
          f"({accounted(b['sampling'], b['adjacency'], delta_of(CLIENTS))}; target {MIA_EPS:g})")
    return "; ".join(f"{arm}: {dp if private else 'no DP noise'}" for arm, (private, _) in MIA_ARMS.items())
