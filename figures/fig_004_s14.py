"""Seed 004 Fig. S14 (run: `make fig-004-s14`): gradient descent vs Laplacian-smoothing GD on a 2-D toy.

Two Gaussian blobs, classifier sigmoid(Wx) with W in R^2 from (0, 0), binary cross-entropy, Gaussian noise
std 0.3 on the gradient, learning rate 0.1, 100 updates, LSGD with sigma = 1 (L1121). Our blobs: centres
(+1,+1) (label 0) and (-1,-1) (label 1), 200 points each, seed 0 (the paper's are not stated).
We report the path length of W (sum of step norms) for both: a smoother path is a shorter one.
"""
from __future__ import annotations

import numpy as np

from figures import style
from figures.common import NO_DP, caption, figure_axes, parse_args, write_outputs
from theory.dp_fed_ls.fig_s14 import path  # the claim's own (LS)GD paths: one simulator for both
from theory.dp_fed_ls.paper_values import FIG_S14


#: the data of this figure, for the sidecar and caption: drawn here, not loaded (see :func:`path`)
BLOBS = {"kind": "synthetic", "name": "two 2-D Gaussian blobs, centres (+1,+1) and (-1,-1), unit variance, 200 "
         "points each, numpy seed 0 (ours: the paper's are not stated)"}


def main(argv=None):
    args = parse_args(argv, __doc__)
    gd, ls = path(0.0, 0), path(1.0, 0)
    rows = [{"step": i, "gd_w1": a[0], "gd_w2": a[1], "lsgd_w1": b[0], "lsgd_w2": b[1]} for i, (a, b) in enumerate(zip(gd, ls))]
    length = {n: float(np.sum(np.linalg.norm(np.diff(p, axis=0), axis=1))) for n, p in (("gd", gd), ("lsgd", ls))}
    fig, axes = figure_axes(1)
    ax = axes[0] if isinstance(axes, (list, tuple, np.ndarray)) else axes
    ax.plot(gd[:, 0], gd[:, 1], label="GD")
    ax.plot(ls[:, 0], ls[:, 1], label="LSGD (sigma=1)")
    ax.set_xlabel("W1")
    ax.set_ylabel("W2")
    style.legend_below(ax)
    cap = caption(figure="Seed 004 Fig. S14(b)", paper="Fig. S14, L1115-1121", changes="our blobs (not stated); one seed",
                  stated="the LSGD curve is much smoother than GD's",
                  ours=f"path length GD {length['gd']:.3f}, LSGD {length['lsgd']:.3f} (d = 2: A_sigma averages the "
                       "two coordinates' noise)",
                  epsilon=f"{NO_DP}: the gradient noise (std {FIG_S14['noise_std'].text}, {FIG_S14['noise_std'].line}) is "
                          "unclipped and not accounted", quick=args.quick)
    write_outputs(args.out, "fig_004_s14", rows, cap, fig, data={"2-d-gaussian-blobs": BLOBS})
