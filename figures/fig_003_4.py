"""Seed 003 Fig. 4 analogue: images recovered from one noisy gradient at epsilon = 0.01, 0.1, 1 per iteration.

Run: ``make fig-003-4``. Paper: 003_8b45c9baf0227e58.txt L484, L489-L492: LR and SVM on MNIST, the
inference method of [58] (Phong et al.) applied to gradients; stated: at epsilon = 0.01 the inferred
images are "totally blurred", at epsilon = 1 some are "approximately restored".
Method ([58]): for one sample, LR's gradient is :math:`((p-y)x, p-y)`, so :math:`x = g_w/g_b`; the SVM's
(Crammer-Singer) gradient is :math:`(x\\otimes c, c)`, so :math:`x = g_W[:, j]/c_j` for a class j with
:math:`c_j\\ne0`. We apply it to the NOISY gradient of a batch of one (b = 1, Delta S = 2G, G = the clip
bound 3) under the paper-literal noise (NOT DP) and the epsilon-DP K-norm noise, and score each recovery by
its Pearson correlation with the original (1 = perfect). Small by design: one image, 3 budgets, 2 modes.
"""
from __future__ import annotations

import numpy as np

from repro import data as D
from repro.edge_noise import clip_per_sample_average, sample_k_norm, sample_radial_exponential
from repro.linear_svm import LinearSVM
from repro.models import LogisticRegression
from theory.mapa.paper_values import FIG4

from . import common
from .edge_common import NOISE_LABEL, epsilon_caption

NAME = "fig_003_4"
CLIP = 3.0
SEED = 0


def recover(model_kind: str, grad: np.ndarray, d: int, k: int = 10) -> np.ndarray:
    """The [58] inversion: divide the weight gradient by the bias gradient of the same output."""
    if model_kind == "lr":
        return grad[:d] / grad[d]
    coef = grad[d * k:]
    j = int(np.argmax(np.abs(coef)))
    return grad[: d * k].reshape(d, k)[:, j] / coef[j]


def score(x_hat: np.ndarray, x: np.ndarray) -> float:
    return float(np.corrcoef(x_hat, x)[0, 1])


def release_records(rows: list[dict]) -> dict:
    """Each cell's privacy record in repro.edge_fl.privacy_record's shape: the attacked gradient is the one
    release (b = 1, per-sample clip G, scale Delta S/eps with Delta S = 2G: pure eps-DP under replace-one for
    K-norm, repro.edge_noise); the paper-literal cells are not DP."""
    out = {}
    for r in rows:
        eps = r["epsilon_per_iteration"]
        rec = {"noise": r["noise"], "dp": r["noise"] == "k-norm", "releases_per_edge": 1}
        if rec["dp"]:
            rec.update(epsilon_per_release=eps, pure_epsilon_run=rec["releases_per_edge"] * eps)
        out[f"{r['model']} {r['noise']} eps {eps:g}"] = rec
    return out


def main(argv=None) -> None:
    args = common.parse_args(argv, __doc__)
    ds = D.load("mnist-5k", seed=SEED)
    rng = np.random.default_rng(SEED)
    i = int(np.flatnonzero(ds.y_train == 3)[0])
    x, y = ds.x_train[i:i + 1], ds.y_train[i:i + 1]
    d = ds.n_features
    models = {"lr": (LogisticRegression(d), (y >= 5).astype(np.int64)),
              "svm": (LinearSVM(d, 10), y)}
    eps_list = [e.value for e in FIG4["epsilons"]]
    reps = 3 if args.quick else 20
    fig, axes = common.figure_axes(1 + 2 * len(eps_list), width=1.6)
    axes[0].imshow(x[0].reshape(28, 28), cmap="gray")
    axes[0].set_title("original", fontsize=6)
    rows, shown = [], {}
    for mk, (model, yy) in models.items():
        theta = np.random.default_rng(SEED + 1).normal(0, 0.01, model.n_params)
        g = clip_per_sample_average(model.per_sample_grads(theta, x, yy), CLIP)  # b = 1: the sample's own gradient
        lam_per_eps = 2.0 * CLIP  # Delta S = 2G/b with b = 1
        for mode, sampler in (("paper-literal", sample_radial_exponential), ("k-norm", sample_k_norm)):
            for eps in eps_list:
                recs = [recover(mk, g + sampler(rng, model.n_params, lam_per_eps / eps)[0], d) for _ in range(reps)]
                scores = [score(r, x[0]) for r in recs]
                if mk == "lr":
                    shown[(mode, eps)] = recs[0]
                rows.append({"model": mk, "noise": mode, "epsilon_per_iteration": eps, "mean_correlation": float(np.mean(scores)),
                             "sd_correlation": float(np.std(scores, ddof=1)), "repetitions": reps,
                             "noiseless_correlation": score(recover(mk, g, d), x[0])})
    for j, eps in enumerate(eps_list):
        for m, mode in enumerate(("paper-literal", "k-norm")):
            ax = axes[1 + 2 * j + m]
            ax.imshow(np.clip(shown[(mode, eps)], 0, 1).reshape(28, 28), cmap="gray")
            ax.set_title(f"LR eps {eps:g}\n{'literal (not DP)' if m == 0 else 'K-norm (DP)'}", fontsize=5)
    for ax in axes:
        ax.set_xticks([])
        ax.set_yticks([])
    cap = common.caption(
        figure="003 Fig. 4 analogue: gradient inversion of one MNIST-5k image under per-iteration eps 0.01 / 0.1 / 1",
        paper="003_8b45c9baf0227e58.txt L484, L489-L492 (images only; no numbers to redraw)",
        changes=(f"one image (a 3), batch of one, clip G = {CLIP}, {reps} noise draws per cell, untrained model (theta ~ N(0, 0.01)); "
                 f"{NOISE_LABEL['paper-literal']} vs {NOISE_LABEL['k-norm']}; score = Pearson correlation with the original"),
        stated="eps = 0.01: totally blurred; eps = 1: some images approximately restored (L484)",
        ours="; ".join(f"{r['model']} {r['noise']} eps {r['epsilon_per_iteration']:g}: corr {r['mean_correlation']:.3f}" for r in rows),
        epsilon=epsilon_caption(release_records(rows)), quick=args.quick)
    common.write_outputs(args.out, NAME, rows, cap, fig, config={"arms": {"clip": CLIP, "epsilons": eps_list}, "seeds": [SEED]},
                         data=common.data_record("mnist-5k"))


if __name__ == "__main__":
    import sys
    main(sys.argv[1:])
