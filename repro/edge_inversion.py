r"""Gradient inversion DURING MAPA training: seed 003 Fig. 4 at the paper's own setting.

Paper: 003_8b45c9baf0227e58.txt L484: LR and SVM trained with MAPA on MNIST, per-iteration budget 0.01, 0.1
and 1, "the iteration number ranges from 2000 to 14,000", and the inferring method of [58] (Phong et al.)
applied "to recover the digital images from the gradients during the iterations"; stated: at eps = 0.01 the
inferred images are "totally blurred", at eps = 1 "some inferred images can be approximately restored".

What is attacked (:func:`run_point`): MAPA trains (``repro.edge_fl``: stages of Eqs. 15-16, adaptive clip
bound :math:`G_t=b\Delta S_s/2`, five edges, cyclic delay, b = 12) and at each checkpoint t the model the
releasing edge computes on (its stale copy) and the clip bound :math:`G_t` of that release are taken. For
each target image the sample's own gradient there is clipped at :math:`G_t` and released with noise of
scale :math:`\lambda=2G_t/\varepsilon` (a batch of one: :math:`\Delta S=2G_t/b` with b = 1). Inside MAPA's
batch of 12 the sample contributes :math:`g/12` against noise :math:`\Delta S_s/\varepsilon=2G_t/(12\varepsilon)`:
the same signal-to-noise ratio, without the other 11 images mixed into the recovery, so this reading is the
attacker's best case for one image. The recovery is scored by its Pearson correlation with the original.

The training loop (:func:`trajectory`) repeats ``repro.edge_fl.simulate``'s update with its public pieces
(``load_task``, ``noisy_gradient``, ``_StepSize``, the same random stream: a test checks that both reach the
same model) because ``simulate`` returns curves, not models; it skips the evaluations. ``simulate`` could
consume :func:`trajectory` once retraining fig_003_6 is affordable.
"""
from __future__ import annotations

from dataclasses import asdict

import numpy as np
from threadpoolctl import threadpool_limits

from numerics.errors import InvalidParameter
from numerics.sweep import versioned
from repro import data as D
from repro.dp import sample_indices
from repro.edge_fl import EdgeConfig, _sampling, _StepSize, load_task, noisy_gradient, privacy_record
from repro.edge_noise import clip_per_sample_average, sample_k_norm, sample_radial_exponential

#: the release noise of each mode the attack supports (paper-literal = the paper's analysis, NOT DP)
SAMPLERS = {"paper-literal": sample_radial_exponential, "k-norm": sample_k_norm}


def recover(model_kind: str, grad: np.ndarray, d: int, k: int = 10) -> np.ndarray:
    """The [58] inversion (003 L484): LR's gradient is ((p-y)x, p-y), so x = g_w/g_b; the Crammer-Singer
    SVM's is (x (x) c, c), so x = g_W[:, j]/c_j for the class j with the largest |c_j|."""
    if model_kind == "lr":
        return grad[:d] / grad[d]
    coef = grad[d * k:]
    j = int(np.argmax(np.abs(coef)))
    return grad[: d * k].reshape(d, k)[:, j] / coef[j]


def score(x_hat: np.ndarray, x: np.ndarray) -> float:
    """Pearson correlation of a recovery with the original image (1 = perfect, about 0 = nothing recovered)."""
    return float(np.corrcoef(x_hat, x)[0, 1])


def attack(model_kind: str, model, theta: np.ndarray, x: np.ndarray, y: np.ndarray, *, clip: float, noise: str,
           epsilon: float, rng, draws: int) -> dict:
    """One sample's gradient at ``theta``, clipped at ``clip``, released ``draws`` times with ``noise`` of scale
    2 clip/epsilon (b = 1) and inverted: the correlations, the unclipped gradient norm and a typical recovery
    (the draw of median correlation: one draw can mislead, the paper-literal radius being heavy at 0)."""
    if noise not in SAMPLERS or draws < 1 or not (epsilon > 0 and clip > 0):
        raise InvalidParameter(f"attack needs noise in {tuple(SAMPLERS)}, draws >= 1, epsilon, clip > 0")
    raw = model.per_sample_grads(theta, x, y)
    g = clip_per_sample_average(raw, clip)  # a batch of one: the per-sample and the batch-average clip agree
    d, k = x.shape[1], getattr(model, "k", 1)  # LinearSVM keeps its class count in k
    recs = [recover(model_kind, g + SAMPLERS[noise](rng, model.n_params, 2.0 * clip / epsilon)[0], d, k)
            for _ in range(draws)]
    corr = [score(r, x[0]) for r in recs]
    return {"correlations": corr, "grad_norm": float(np.linalg.norm(raw[0])),
            "recovery": recs[int(np.argsort(corr)[len(corr) // 2])]}


def trajectory(cfg: EdgeConfig, checkpoints):
    """Yield ``(t, model of the releasing edge, clip bound G_t, cloud model after t)`` at each checkpoint t of a
    run of ``cfg``: the update of ``repro.edge_fl.simulate`` on the same random stream (no evaluations)."""
    marks = sorted({int(t) for t in checkpoints})
    if not marks or marks[0] < 1:
        raise InvalidParameter(f"checkpoints must be iterations >= 1, got {checkpoints!r}")
    rng = np.random.default_rng(cfg.seed)
    ds, model = load_task(cfg)
    k = 1 if cfg.algorithm == "csgd" else cfg.edges
    parts = [np.arange(len(ds.y_train))] if k == 1 else D.partition_iid(len(ds.y_train), k, seed=cfg.seed)
    theta = model.init(rng)
    steps = _StepSize(cfg, model.n_params, f_gap=model.loss(theta, ds.x_train, ds.y_train))
    snapshots, sampling = [theta.copy() for _ in range(k)], _sampling(cfg)
    for t in range(1, marks[-1] + 1):
        edge = (t - 1) % k
        idx = parts[edge][sample_indices(rng, len(parts[edge]), min(cfg.batch, len(parts[edge])), sampling)]
        stale = snapshots[edge]
        gamma, clip = steps(t)
        grads = model.per_sample_grads(stale, ds.x_train[idx], ds.y_train[idx])
        theta = theta - gamma * noisy_gradient(cfg, rng, grads, clip, model.n_params)
        snapshots[edge] = theta
        if t in marks:
            yield t, stale, clip, theta


def targets(dataset: str, seed: int) -> list[tuple[int, int]]:
    """The attacked images, (training index, digit): the first training image of each digit 0-9 (a fixed, stated
    choice; the paper shows inferred digits without saying which, L484). Digits from the 10-way labels (LR's
    task relabels them 0-4 vs 5-9, the images and their order are the same)."""
    y = D.load(dataset, seed=seed).y_train
    return [(int(np.flatnonzero(y == c)[0]), c) for c in range(10)]


@versioned("1")
def run_point(*, checkpoints, draws: int = 20, show_digit: int = 3, **config) -> dict:
    """Module-level entry for ``numerics.sweep.sweep``: train ``EdgeConfig(**config)`` (MAPA) up to the last
    checkpoint and attack every :func:`targets` image at each checkpoint (noise of the run's mode and budget);
    the typical recovery of the ``show_digit`` image is kept for display. BLAS is held to one thread, as in
    repro.async_fl: the products are small and the sweep runs one worker per core."""
    with threadpool_limits(limits=1, user_api="blas"):
        return _run(checkpoints, draws, show_digit, config)


def _run(checkpoints, draws: int, show_digit: int, config: dict) -> dict:
    cfg = EdgeConfig(**{**config, "iterations": max(int(t) for t in checkpoints)})
    if cfg.algorithm != "mapa" or cfg.noise not in SAMPLERS:
        raise InvalidParameter("the inversion runs MAPA with paper-literal or k-norm noise")
    ds, model = load_task(cfg)
    who = targets(cfg.dataset, cfg.seed)
    out = []
    for t, stale, clip, theta in trajectory(cfg, checkpoints):
        rng = np.random.default_rng([cfg.seed, t])  # the attack's own stream: training is not perturbed
        cells = []
        for i, digit in who:
            a = attack(cfg.model, model, stale, ds.x_train[i:i + 1], ds.y_train[i:i + 1], clip=clip, noise=cfg.noise,
                       epsilon=cfg.epsilon, rng=rng, draws=draws)
            cells.append({"target": i, "digit": digit, "grad_norm": a["grad_norm"], "correlations": a["correlations"],
                          "recovery": a["recovery"].tolist() if digit == show_digit else None})
        out.append({"iteration": t, "clip": clip, "test_accuracy": model.accuracy(theta, ds.x_test, ds.y_test),
                    "targets": cells})
    parts = D.partition_iid(len(ds.y_train), cfg.edges, seed=cfg.seed)
    return {"config": asdict(cfg), "checkpoints": out, "privacy": privacy_record(cfg, parts),
            "dimension": model.n_params, "data_notes": ds.notes}
