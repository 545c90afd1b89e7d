"""Seed 004 Fig. S9 (run: `make fig-004-s9`): Theorems 1-2's closed-form noise against moment accountants.

Noise per unit clip needed for (eps, 1/N^1.1)-DP in the three S4 settings (L1056-1058: N = 500/T = 30,
N = 2000/T = 200, N = 2000/T = 1000, tau = 0.05). Top row: Theorem 1 vs the WBK accountant (fixed-size,
replace-one, sensitivity 2 clips); bottom row: Theorem 2 vs the exact Poisson RDP (integer orders 2..64,
add/remove, sensitivity 1 clip). Only eps where the theorem's conditions can be met are drawn.
"""
from __future__ import annotations

import math

import numpy as np

from figures import style
from figures.common import caption, figure_axes, parse_args, write_outputs
from figures.tables_004 import span
from numerics.rdp import log_a
from theory.dp_fed_ls import closed_form as cf
from theory.dp_fed_ls.wbk import calibrate_nu1


def poisson_rdp_epsilon(nu1, tau, rounds, delta) -> float:
    """RDP epsilon of the Poisson-subsampled Gaussian (exact log-moments, integer orders 2..64)."""
    return min(rounds * float(log_a(tau, nu1, a, dps=15)) / (a - 1) + math.log(1 / delta) / (a - 1) for a in range(2, 65))


def calibrate_poisson(eps, delta, tau, rounds, lo=0.3, hi=100.0, iters=30) -> float:
    for _ in range(iters):
        mid = math.sqrt(lo * hi)
        lo, hi = (lo, mid) if poisson_rdp_epsilon(mid, tau, rounds, delta) <= eps else (mid, hi)
    return hi


def main(argv=None):
    args = parse_args(argv, __doc__)
    settings = cf.S4_SETTINGS[-1:] if args.quick else cf.S4_SETTINGS
    n_eps = 3 if args.quick else 10
    rows = []
    fig, axes = figure_axes(len(settings), rows=2, width=3.6)
    for k, (n, tau, rounds) in enumerate(settings):
        delta = cf.delta_of(n)
        for j, (s, acct, name) in enumerate(((cf.UNIFORM, calibrate_nu1, "WBK"), (cf.POISSON, calibrate_poisson, "Poisson RDP"))):
            e_min = cf.feasible_epsilon_min(delta, tau, rounds, s, hi=200.0)
            grid = np.geomspace(e_min * 1.01, 5 * e_min, n_eps)
            pts = [(float(e), cf.closed_form_noise(float(e), delta, tau, rounds, s)[0], acct(float(e), delta, tau, rounds))
                   for e in grid]
            rows += [{"N": n, "T": rounds, "sampling": s.name, "eps": e, "nu_theorem": a, "nu_accountant": b,
                      "ratio": a / b} for e, a, b in pts]
            ax = axes[j * len(settings) + k]  # top row Theorem 1 / WBK, bottom row Theorem 2 / Poisson
            ax.loglog([p[0] for p in pts], [p[1] for p in pts], "o-", label=f"Theorem {1 if j == 0 else 2}")
            ax.loglog([p[0] for p in pts], [p[2] for p in pts], "s-", label=name)
            ax.set_title(f"N={n}, T={rounds}, {s.name}", fontsize=8)
            ax.set_xlabel("epsilon")
            style.legend_below(ax)
    for ax in (axes[0], axes[len(settings)]):
        ax.set_ylabel("noise nu / clip")
    ratios = {s: [r["ratio"] for r in rows if r["sampling"] == s] for s in ("uniform", "poisson")}
    cap = caption(figure="Seed 004 Fig. S9", paper="Fig. S9, L1054-1066",
                  changes="eps grids ours (not stated in the paper): from just above each theorem's feasibility "
                          "threshold to 5x it; Poisson accountant on integer orders",
                  stated="closed forms nearly parallel to / close to the accountants: tight up to a constant",
                  ours=f"closed form / accountant noise ratio: uniform {min(ratios['uniform']):.2f}-"
                       f"{max(ratios['uniform']):.2f}, Poisson {min(ratios['poisson']):.2f}-{max(ratios['poisson']):.2f}; "
                       "the closed form flattens at the lemma's floor nu^2/(4L^2) >= 2/3 (resp. nu^2/L^2 >= 5/9) "
                       "where the accountant keeps decreasing; below the threshold the theorems give no noise at all",
                  epsilon=epsilon_entry(rows, settings), quick=args.quick)
    write_outputs(args.out, "fig_004_s9", rows, cap, fig)


def epsilon_entry(rows: list, settings) -> str:
    """The caption's epsilon: the epsilons are the x axis, the targets each theorem and accountant calibrates its
    noise to (no training run), at delta = 1/N^1.1 (L302) of each S4 setting (L1056-1058)."""
    eps = {s: span([r["eps"] for r in rows if r["sampling"] == s]) for s in (cf.UNIFORM.name, cf.POISSON.name)}
    return (f"the epsilons are the plotted quantity (x axis, targets: uniform {eps[cf.UNIFORM.name]}, Poisson "
            f"{eps[cf.POISSON.name]}), no training run: Theorem 1 vs WBK (fixed-size sampling, replace-one, sensitivity "
            f"2 clips), Theorem 2 vs exact Poisson RDP (add/remove); delta = 1/N^1.1 = "
            f"{span([cf.delta_of(n) for n, _, _ in settings])}; upper-bound accountants, not numerics.epsilon brackets")
