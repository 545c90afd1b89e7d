r"""DP-Fed and DP-Fed-LS (seed 004 Algorithm 1, L80-122) for multinomial logistic regression, plain numpy.

Each round: sample clients (``uniform``: a fixed-size subset of S = tau N; ``poisson``: each client with
probability tau), each sampled client runs local mini-batch SGD from the global model with its update
clipped to an L-ball after every step (L110), the server adds N(0, nu^2 I) to the SUM of the updates,
divides by a FIXED denominator S = tau N (the accounting's assumption; Algorithm 1 divides by the realised
|S_t|, a data-dependent count under Poisson sampling that Theorem 2's accounting does not cover) and applies
A_sigma^{-1} (smoothing sigma = 0: DP-Fed).
Seeded and deterministic.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from numerics.errors import InvalidParameter
from repro.smoothing import ls_solve


@dataclass(frozen=True)
class FedConfig:
    """One federated run's settings (no defaults: the paper's values live in theory.dp_fed_ls.runs)."""

    clients: int
    tau: float
    rounds: int
    local_epochs: int
    batch: int
    clip: float
    lr: float
    lr_decay: float
    weight_decay: float
    sampling: str = "uniform"

    def __post_init__(self):
        if self.sampling not in ("uniform", "poisson"):
            raise InvalidParameter(f"sampling must be 'uniform' or 'poisson', got {self.sampling!r}")
        if not 0 < self.tau <= 1:
            raise InvalidParameter(f"tau must lie in (0, 1], got {self.tau!r}")


def _softmax_grad(w, x, y, n_classes, wd):
    """Mean cross-entropy gradient of the linear softmax model w (d+1, k) on (x, y)."""
    xb = np.hstack([x, np.ones((len(x), 1))])
    z = xb @ w
    z -= z.max(axis=1, keepdims=True)
    p = np.exp(z)
    p /= p.sum(axis=1, keepdims=True)
    p[np.arange(len(y)), y] -= 1
    return xb.T @ p / len(y) + wd * w


def _flatten(w: np.ndarray) -> np.ndarray:
    """PyTorch order of nn.Linear(784, k): the weight (k, 784) row by row (neighbouring pixels of one class are
    neighbours in the vector), then the bias: the order in which A_sigma's cycle graph smooths."""
    return np.concatenate([w[:-1].T.ravel(), w[-1]])


def _unflatten(v: np.ndarray, shape) -> np.ndarray:
    d, k = shape[0] - 1, shape[1]
    return np.vstack([v[:d * k].reshape(k, d).T, v[d * k:][None, :]])


def accuracy(w, x, y) -> float:
    return float(np.mean(np.argmax(np.hstack([x, np.ones((len(x), 1))]) @ w, axis=1) == y))


def _client_update(w0, x, y, cfg, lr, n_classes, rng):
    w = w0.copy()
    for _ in range(cfg.local_epochs):
        order = rng.permutation(len(y))
        for s in range(0, len(y), cfg.batch):
            idx = order[s:s + cfg.batch]
            w = w - lr * _softmax_grad(w, x[idx], y[idx], n_classes, cfg.weight_decay)
            delta = w - w0
            norm = np.linalg.norm(delta)
            w = w0 + delta / max(1.0, norm / cfg.clip)          # Clip(., L) after every local step (L110)
    return w - w0


def _sample(rng, n, cfg):
    if cfg.sampling == "uniform":
        return rng.choice(n, size=int(round(cfg.tau * n)), replace=False)
    return np.flatnonzero(rng.random(n) < cfg.tau)


def train(x, y, x_test, y_test, shards, cfg: FedConfig, *, nu: float, ls_sigma: float, seed: int) -> dict:
    """Run DP-Fed (ls_sigma = 0) or DP-Fed-LS (smoothing sigma = ls_sigma); ``nu`` is the noise std on the sum
    (not per clip). Returns the final test accuracy, the per-round accuracies and the final weights."""
    rng = np.random.default_rng(seed)
    n_classes = int(max(y.max(), y_test.max())) + 1
    w = np.zeros((x.shape[1] + 1, n_classes))
    denom = cfg.tau * len(shards)
    lr, curve = cfg.lr, []
    for _ in range(cfg.rounds):
        total = np.zeros_like(w)
        for j in _sample(rng, len(shards), cfg):
            total += _client_update(w, x[shards[j]], y[shards[j]], cfg, lr, n_classes, rng)
        noisy = (total + nu * rng.standard_normal(w.shape)) / denom
        w = w + _unflatten(ls_solve(_flatten(noisy), ls_sigma), w.shape)
        lr *= cfg.lr_decay
        curve.append(accuracy(w, x_test, y_test))
    return {"final_accuracy": curve[-1], "curve": curve, "weights": w}


def per_example_loss(w, x, y) -> np.ndarray:
    """Cross-entropy of each example under the linear softmax model w (the loss-threshold attack's score)."""
    z = np.hstack([x, np.ones((len(x), 1))]) @ w
    z -= z.max(axis=1, keepdims=True)
    return np.log(np.exp(z).sum(axis=1)) - z[np.arange(len(y)), y]
