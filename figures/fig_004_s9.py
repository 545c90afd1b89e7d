"""Seed 004 Fig. S9 (run: `make fig-004-s9`): Theorem 1's closed-form noise against the WBK accountant.

Noise per unit clip (sensitivity 2 clips, replace-one) needed for (eps, 1/N^1.1)-DP in the S4 setting of
panel (c) (T = 1000, tau = 0.05, N = 2000), on the eps range where Theorem 1's conditions can be met.
"""
from __future__ import annotations

import numpy as np

from figures.common import caption, figure_axes, parse_args, write_outputs
from theory.dp_fed_ls import convergence as cv


def main(argv=None):
    args = parse_args(argv, __doc__)
    grid = cv.S9_EPS_GRID[::3] if args.quick else tuple(np.geomspace(11.0, 60.0, 12))
    rows = [{"eps": float(e), "nu_theorem1": float(a), "nu_wbk_accountant": float(b)} for e, a, b in cv.s9_curves(grid)]
    fig, axes = figure_axes(1)
    ax = axes[0] if isinstance(axes, (list, tuple, np.ndarray)) else axes
    ax.loglog([r["eps"] for r in rows], [r["nu_theorem1"] for r in rows], "o-", label="Theorem 1 (closed form)")
    ax.loglog([r["eps"] for r in rows], [r["nu_wbk_accountant"] for r in rows], "s-", label="WBK accountant")
    ax.set_xlabel("epsilon")
    ax.set_ylabel("noise nu / clip")
    ax.legend()
    ratio = [r["nu_theorem1"] / r["nu_wbk_accountant"] for r in rows]
    cap = caption(figure="Seed 004 Fig. S9(c)", paper="Fig. S9, L1054-1066",
                  changes="eps grid ours (not stated in the paper), restricted to eps >= 10.41 where Theorem 1's "
                          "conditions can be met at T = 1000",
                  stated="slopes -0.80 / -0.73, intercepts 3.31 / 2.29: tight up to a constant",
                  ours=f"closed form / accountant noise ratio in [{min(ratio):.2f}, {max(ratio):.2f}]",
                  quick=args.quick)
    write_outputs(args.out, "fig_004_s9", rows, cap, fig)
