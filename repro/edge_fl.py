r"""Asynchronous edge federated learning with cyclic delay: CSGD, ASGD, AUDP and MAPA of seed 003.

Paper: 003_8b45c9baf0227e58.txt. System (Sec. 3.2, L84-L92): a cloud holds :math:`x_t`; K edges each
compute a mini-batch gradient at the model they last received; the cloud applies gradients first-in
first-out and returns the new model to the sender only. Delay (L449): the cyclic delayed method of
Agarwal and Duchi, edge :math:`k(t)=t \bmod K`, so every applied gradient is K-1 iterations stale
(the paper's formulas use :math:`\tau_{max}=K`, "the maximum delay equals the number of edge servers",
L449; we do the same in the step sizes and say so).

Algorithms and step sizes (Table II, L465-L474):

* ``csgd``: one server, no delay, :math:`\gamma_t^{-1}=L+\sqrt{t+1}\,\sigma/(R\sqrt b)`;
* ``asgd``: :math:`\gamma_t^{-1}=L(\tau+1)^2+\sqrt{t+1}\,\sigma/(R\sqrt b)`, no noise;
* ``audp``: fixed clip bound G (:math:`\Delta S=2G/b`), :math:`\gamma_t^{-1}=L(\tau+1)+\sqrt{\Delta_b+1}\sqrt t` (10);
* ``mapa``: Algorithm 1 (L397-L432): stages with :math:`P_s`, :math:`\gamma_s`, :math:`T_s` from Eqs. (15)-(16), then
  :math:`\Delta S\leftarrow\theta\Delta S`; the clip bound is :math:`b\Delta S_s/2`.

:math:`\Delta_b=\sigma^2/b+\mathbb E\lVert\eta\rVert^2` with the second moment of the noise mode actually used
(``repro.edge_noise.noise_second_moment``): the paper-literal mode uses the printed :math:`2\lambda^2`, the
K-norm mode its true :math:`N(N+1)\lambda^2`. Noise modes and what each guarantees: ``repro.edge_noise``.
Batches: ``paper-literal`` and ``none`` draw b samples with replacement (L104); ``k-norm`` a fixed-size
batch without replacement (a record appears at most once, so one release is epsilon-DP under
replace-one); ``gaussian`` Poisson sampling with rate b/n_k (what the certified accountant assumes).

Unknowns the paper leaves open, set here and stated in every caption: :math:`f(x_1)-f^*` in (15) is
taken as :math:`f(x_1)` (a loss is >= 0); L = 10, sigma = 30 (its testbed defaults, L560) and R = 1
(not stated). LR is 2-way (L453): digits 0-4 against 5-9 (the paper does not say which two classes).
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass, replace

import numpy as np

from numerics.errors import InvalidParameter
from repro import data as D
from repro.dp import clip_rows, sample_indices
from repro.edge_noise import (NOISE_MODES, clip_batch_average, clip_per_sample_average, noise_second_moment,
                              sample_k_norm, sample_radial_exponential)
from repro.linear_svm import LinearSVM
from repro.models import MLP, LogisticRegression

ALGORITHMS = ("csgd", "asgd", "audp", "mapa")
MODELS = ("lr", "svm", "mlp")
#: evaluation subset of the training set for the full-gradient norm (bounded memory for the MLP)
EVAL_TRAIN = 1000


@dataclass(frozen=True)
class EdgeConfig:
    """One run. ``clip`` is AUDP's fixed bound G = b Delta S/2; ``initial_clip`` MAPA's G_0 (None: Theorem 3's Delta S_0)."""

    algorithm: str
    noise: str = "k-norm"
    dataset: str = "mnist-5k"
    model: str = "lr"
    edges: int = 5
    iterations: int = 2000
    batch: int = 12
    epsilon: float = 0.1
    clip: float = 3.0
    initial_clip: float | None = None
    gaussian_sigma: float = 1.0
    theta: float = 0.5
    L: float = 10.0
    sigma: float = 30.0
    R: float = 1.0
    delta: float = 1e-3
    regulariser: float = 1e-4
    seed: int = 0
    eval_every: int = 100

    def __post_init__(self):
        if self.algorithm not in ALGORITHMS:
            raise InvalidParameter(f"algorithm must be one of {ALGORITHMS}, got {self.algorithm!r}")
        if self.noise not in NOISE_MODES:
            raise InvalidParameter(f"noise must be one of {NOISE_MODES}, got {self.noise!r}")
        if self.model not in MODELS:
            raise InvalidParameter(f"model must be one of {MODELS}, got {self.model!r}")
        if (self.algorithm in ("csgd", "asgd")) != (self.noise == "none"):
            raise InvalidParameter("csgd/asgd run without noise; audp/mapa need a noise mode")
        if self.edges < 1 or self.iterations < 1 or self.batch < 1 or not (self.epsilon > 0 and self.clip > 0):
            raise InvalidParameter("edges, iterations, batch >= 1 and epsilon, clip > 0 are required")
        if not 0 < self.theta < 1:
            raise InvalidParameter(f"theta must lie in (0, 1), got {self.theta!r}")


@dataclass(frozen=True)
class Stage:
    """One MAPA stage: sensitivity, Delta_b, P (and whether it was clamped at 1), step size, length."""

    index: int
    delta_s: float
    delta_b: float
    p: float
    clamped: bool
    gamma: float
    length: int


def mapa_stage(index: int, delta_s: float, *, sigma: float, b: int, eps0: float, L: float, tau: int, theta: float,
               f_gap: float, noise_factor: float) -> Stage:
    r"""Algorithm 1 lines 6-8 for one stage: :math:`\Delta_b=\sigma^2/b+\text{noise\_factor}\cdot\Delta S^2/\varepsilon_0^2`,
    P by Table II (Eq. 16 clamped at 1), :math:`\gamma=1/(2PL(\tau+1))`, length ceil(Eq. 15), at least 1."""
    db = sigma ** 2 / b + noise_factor * delta_s ** 2 / eps0 ** 2
    raw = 8 * db / ((tau + 1) * b ** 2 * delta_s ** 2 * theta ** 2)
    p = max(raw, 1.0)
    length = max(1, math.ceil(4 * p ** 2 * L * (tau + 1) ** 2 * f_gap / db))
    return Stage(index, delta_s, db, p, raw < 1.0, 1.0 / (2 * p * L * (tau + 1)), length)


def stage_schedule(*, delta_s0_value: float, sigma: float, b: int, eps0: float, L: float, tau: int, theta: float,
                   f_gap: float, n_stages: int, noise_factor: float = 2.0) -> list:
    """The first ``n_stages`` stages of Algorithm 1 (line 16: Delta S <- theta Delta S)."""
    if not (0 < theta < 1 and delta_s0_value > 0 and b >= 1 and eps0 > 0 and L > 0 and tau >= 0 and f_gap >= 0):
        raise InvalidParameter("stage schedule needs 0<theta<1, Delta S0>0, b>=1, eps0>0, L>0, tau>=0, f_gap>=0")
    return [mapa_stage(s, delta_s0_value * theta ** s, sigma=sigma, b=b, eps0=eps0, L=L, tau=tau, theta=theta,
                       f_gap=f_gap, noise_factor=noise_factor) for s in range(n_stages)]


def theorem3_delta_s0(sigma: float, b: int, delta: float) -> float:
    r"""Eq. (12) solved on its meaningful branch: :math:`2\sigma/(b\sqrt{1-\sqrt{1-\delta}})`."""
    return 2 * sigma / (b * math.sqrt(1 - math.sqrt(1 - delta)))


def load_task(cfg: EdgeConfig):
    """(data set, model): LR on digits 0-4 vs 5-9, 10-way SVM, or the MLP stand-in for the CNN."""
    ds = D.load(cfg.dataset, seed=cfg.seed)
    if cfg.model == "lr":
        ds = replace(ds, y_train=(ds.y_train >= 5).astype(np.int64), y_test=(ds.y_test >= 5).astype(np.int64), n_classes=2)
        return ds, LogisticRegression(ds.n_features, l2=cfg.regulariser)
    if cfg.model == "svm":
        return ds, LinearSVM(ds.n_features, ds.n_classes, l2=cfg.regulariser)
    return ds, MLP(ds.n_features, 32, ds.n_classes)


def _noise_scale(cfg: EdgeConfig, clip: float) -> float:
    """lambda = Delta S/epsilon with Delta S = 2 clip/b; for the Gaussian mode the per-coordinate std sigma_g clip / b."""
    if cfg.noise == "gaussian":
        return cfg.gaussian_sigma * clip / cfg.batch
    return (2.0 * clip / cfg.batch) / cfg.epsilon


def noisy_gradient(cfg: EdgeConfig, rng, grads: np.ndarray, clip: float, dim: int) -> np.ndarray:
    """Clip and perturb one edge's mini-batch gradients according to the noise mode."""
    if cfg.noise == "none":
        return grads.mean(axis=0) if len(grads) else np.zeros(dim)
    scale = _noise_scale(cfg, clip)
    if cfg.noise == "paper-literal":
        return clip_batch_average(grads, clip) + sample_radial_exponential(rng, dim, scale)[0]
    if cfg.noise == "k-norm":
        return clip_per_sample_average(grads, clip) + sample_k_norm(rng, dim, scale)[0]
    summed = clip_rows(grads, clip).sum(axis=0) if len(grads) else np.zeros(dim)
    return summed / cfg.batch + rng.normal(0.0, scale, dim)


def _sampling(cfg: EdgeConfig) -> str:
    return {"paper-literal": "with-replacement", "none": "with-replacement", "k-norm": "fixed", "gaussian": "poisson"}[cfg.noise]


def _eval(model, theta, ds, xe, ye) -> dict:
    g = np.zeros(model.n_params)
    for lo in range(0, len(ye), 250):
        g += model.per_sample_grads(theta, xe[lo:lo + 250], ye[lo:lo + 250]).sum(axis=0)
    return {"test_accuracy": model.accuracy(theta, ds.x_test, ds.y_test),
            "train_loss": model.loss(theta, ds.x_train, ds.y_train),
            "grad_norm": float(np.linalg.norm(g / len(ye)))}


class _StepSize:
    """The algorithm's learning rate at iteration t (1-based) and, for MAPA, its stage bookkeeping."""

    def __init__(self, cfg: EdgeConfig, dim: int, f_gap: float):
        self.cfg, self.dim, self.f_gap = cfg, dim, f_gap
        self.tau = 0 if cfg.algorithm == "csgd" else cfg.edges  # tau_max = K in the paper's formulas (L449)
        self.stage, self.stages, self.left = None, [], 0
        if cfg.algorithm == "mapa":
            g0 = cfg.initial_clip
            self.delta_s = 2.0 * g0 / cfg.batch if g0 is not None else theorem3_delta_s0(cfg.sigma, cfg.batch, cfg.delta)

    def noise_factor(self) -> float:
        """E||eta||^2 = noise_factor * Delta S^2 / epsilon^2 for the mode in use."""
        c = self.cfg
        lam_per_ds = 1.0 / c.epsilon
        if c.noise == "gaussian":  # std sigma_g (b Delta S/2)/b = sigma_g Delta S/2 per coordinate
            return self.dim * (c.gaussian_sigma / 2.0) ** 2 * c.epsilon ** 2
        return noise_second_moment(c.noise, self.dim, lam_per_ds) * c.epsilon ** 2

    def delta_b(self, clip: float) -> float:
        c = self.cfg
        return c.sigma ** 2 / c.batch + noise_second_moment(c.noise, self.dim, _noise_scale(c, clip))

    def __call__(self, t: int) -> tuple[float, float]:
        """(gamma_t, clip bound used at iteration t)."""
        c = self.cfg
        if c.algorithm == "csgd":
            return 1.0 / (c.L + math.sqrt(t + 1) * c.sigma / (c.R * math.sqrt(c.batch))), math.inf
        if c.algorithm == "asgd":
            return 1.0 / (c.L * (self.tau + 1) ** 2 + math.sqrt(t + 1) * c.sigma / (c.R * math.sqrt(c.batch))), math.inf
        if c.algorithm == "audp":
            return 1.0 / (c.L * (self.tau + 1) + math.sqrt(self.delta_b(c.clip) + 1) * math.sqrt(t)), c.clip
        if self.left == 0:  # MAPA: open the next stage (Alg. 1 lines 6-9; line 16 between stages)
            if self.stage is not None:
                self.delta_s *= c.theta
            self.stage = mapa_stage(len(self.stages), self.delta_s, sigma=c.sigma, b=c.batch, eps0=c.epsilon, L=c.L,
                                    tau=self.tau, theta=c.theta, f_gap=self.f_gap, noise_factor=self.noise_factor())
            self.stages.append(self.stage)
            self.left = self.stage.length
        self.left -= 1
        return self.stage.gamma, c.batch * self.stage.delta_s / 2.0


def _batch_loss_and_grads(model, theta, xb, yb) -> tuple[float, np.ndarray]:
    """The batch's loss (NaN for an empty Poisson batch) and its per-sample gradients, in one pass of the model
    where it offers one (LR, SVM: about a sixth of an LR/SVM run's CPU time is the second pass, docs/figure_times.md)."""
    if len(yb) and hasattr(model, "loss_and_grads"):
        return model.loss_and_grads(theta, xb, yb)
    return (model.loss(theta, xb, yb) if len(yb) else np.nan), model.per_sample_grads(theta, xb, yb)


def simulate(cfg: EdgeConfig) -> dict:
    """Run one configuration; returns curves, per-iteration batch losses, MAPA stages and the privacy record."""
    rng = np.random.default_rng(cfg.seed)
    ds, model = load_task(cfg)
    k = 1 if cfg.algorithm == "csgd" else cfg.edges
    parts = [np.arange(len(ds.y_train))] if k == 1 else D.partition_iid(len(ds.y_train), k, seed=cfg.seed)
    if cfg.noise == "k-norm" and min(len(p) for p in parts) < cfg.batch:
        raise InvalidParameter(f"k-norm mode needs at least b = {cfg.batch} records per edge")
    eval_idx = np.random.default_rng(cfg.seed + 1).choice(len(ds.y_train), min(EVAL_TRAIN, len(ds.y_train)), replace=False)
    xe, ye = ds.x_train[eval_idx], ds.y_train[eval_idx]
    theta = model.init(rng)
    steps = _StepSize(cfg, model.n_params, f_gap=model.loss(theta, ds.x_train, ds.y_train))
    snapshots = [theta.copy() for _ in range(k)]
    curve, batch_loss, sampling = [], np.empty(cfg.iterations), _sampling(cfg)
    for t in range(1, cfg.iterations + 1):
        if t == 1 or t % cfg.eval_every == 0:
            curve.append({"iteration": t, **_eval(model, theta, ds, xe, ye)})
        edge = (t - 1) % k
        idx = parts[edge][sample_indices(rng, len(parts[edge]), min(cfg.batch, len(parts[edge])), sampling)]
        stale = snapshots[edge]
        xb, yb = ds.x_train[idx], ds.y_train[idx]
        batch_loss[t - 1], grads = _batch_loss_and_grads(model, stale, xb, yb)
        gamma, clip = steps(t)
        theta = theta - gamma * noisy_gradient(cfg, rng, grads, clip, model.n_params)
        snapshots[edge] = theta
    curve.append({"iteration": cfg.iterations, **_eval(model, theta, ds, xe, ye)})
    return {"config": asdict(cfg), "curve": curve, "batch_loss": batch_loss.tolist(),
            "stages": [asdict(s) for s in steps.stages], "privacy": privacy_record(cfg, parts),
            "dimension": model.n_params, "data_notes": ds.notes}


def privacy_record(cfg: EdgeConfig, parts) -> dict:
    """What the run's noise guarantees, per release and (pure-DP composition) per edge over the run."""
    releases = -(-cfg.iterations // max(1, len(parts)))
    base = {"noise": cfg.noise, "releases_per_edge": releases}
    if cfg.noise == "none":
        return {**base, "dp": False, "note": "no noise: not private"}
    if cfg.noise == "paper-literal":
        return {**base, "dp": False, "note": "paper-literal noise (radial-exponential, batch-average clip): NOT differentially private"}
    if cfg.noise == "k-norm":
        return {**base, "dp": True, "epsilon_per_release": cfg.epsilon, "pure_epsilon_run": releases * cfg.epsilon,
                "note": "epsilon-DP per release (replace-one, fixed-size batch); run: basic pure-DP composition, no amplification"}
    n_k = min(len(p) for p in parts)
    return {**base, "dp": True, "q": cfg.batch / n_k, "noise_multiplier": cfg.gaussian_sigma,
            "note": "Poisson-subsampled Gaussian, replace-one; certify with numerics (repro.dp.certified_epsilon)"}


def iterations_to_threshold(batch_loss, threshold: float, window: int = 5):
    """First iteration at which the mean batch loss of ``window`` successive iterations is below ``threshold`` (L540), else None."""
    x = np.asarray(batch_loss, float)
    if len(x) < window:
        return None
    means = np.convolve(x, np.ones(window) / window, mode="valid")
    hit = np.flatnonzero(means < threshold)
    return int(hit[0] + window) if len(hit) else None


def run_point(**config) -> dict:
    """Module-level entry for ``numerics.sweep.sweep``: one configuration, a JSON-able summary."""
    out = simulate(EdgeConfig(**config))
    last = out["curve"][-1]
    return {"config": out["config"], "curve": out["curve"], "final_accuracy": last["test_accuracy"],
            "final_loss": last["train_loss"], "final_grad_norm": last["grad_norm"], "batch_loss": out["batch_loss"],
            "stages": out["stages"][:50], "n_stages": len(out["stages"]), "privacy": out["privacy"],
            "dimension": out["dimension"], "data_notes": out["data_notes"]}


def step_schedule_summary(cfg: EdgeConfig, horizons) -> dict:
    """For each horizon T: the step size and clip bound (None: no clipping) at iteration T, the sum of step sizes up to T
    and (MAPA) the stage index. Deterministic (no data pass beyond f(x_1), which MAPA's Eq. 15 needs)."""
    horizons = sorted(int(h) for h in horizons)
    ds, model = load_task(cfg)
    f_gap = model.loss(model.init(np.random.default_rng(cfg.seed)), ds.x_train, ds.y_train)
    steps = _StepSize(cfg, model.n_params, f_gap)
    out, total = {}, 0.0
    for t in range(1, horizons[-1] + 1):
        gamma, clip = steps(t)
        total += gamma
        if t in horizons:
            out[t] = {"gamma": gamma, "clip": clip if math.isfinite(clip) else None, "sum_gamma": total,
                      **({"stage": len(steps.stages) - 1} if cfg.algorithm == "mapa" else {})}
    return out
