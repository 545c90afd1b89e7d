r"""Multiclass linear SVM (Crammer-Singer hinge) with vectorised per-sample subgradients.

Seed 003 trains an SVM as a 10-way classifier (003_8b45c9baf0227e58.txt L453) with regulariser
lambda = 0.0001 (L463). Loss per sample: :math:`\max(0, 1+\max_{j\ne y}z_j-z_y)+\frac\lambda2\lVert W\rVert^2`,
:math:`z = xW + c`; the hinge is not differentiable, so we use a subgradient (the paper does too, L453).
Parameters are flattened as (W, c), like ``repro.models``.
"""
from __future__ import annotations

import numpy as np

from numerics.errors import InvalidParameter


class LinearSVM:
    """``x -> argmax(x W + c)``; ``theta = (W.ravel(), c)``."""

    def __init__(self, n_features: int, n_classes: int, *, l2: float = 0.0):
        if n_features < 1 or n_classes < 2 or not l2 >= 0:
            raise InvalidParameter(f"LinearSVM needs n_features >= 1, n_classes >= 2, l2 >= 0; got "
                                   f"{n_features!r}, {n_classes!r}, {l2!r}")
        self.d, self.k, self.l2 = int(n_features), int(n_classes), float(l2)
        self.n_params = self.d * self.k + self.k

    def init(self, rng: np.random.Generator) -> np.ndarray:
        return np.zeros(self.n_params)

    def _scores(self, theta, x):
        w = theta[: self.d * self.k].reshape(self.d, self.k)
        return x @ w + theta[self.d * self.k:], w

    def _violator(self, z, y):
        zy = z[np.arange(len(y)), y]
        other = z.copy()
        other[np.arange(len(y)), y] = -np.inf
        j = np.argmax(other, axis=1)
        margin = 1.0 + other[np.arange(len(y)), j] - zy
        return j, margin

    def per_sample_grads(self, theta: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        z, w = self._scores(theta, x)
        return self._grads_at(w, x, y, *self._violator(z, y))

    def loss(self, theta: np.ndarray, x: np.ndarray, y: np.ndarray) -> float:
        z, w = self._scores(theta, x)
        return self._loss_at(w, self._violator(z, y)[1])

    def loss_and_grads(self, theta: np.ndarray, x: np.ndarray, y: np.ndarray) -> tuple[float, np.ndarray]:
        """``(loss, per_sample_grads)`` from one pass of the scores: the same numbers as the two calls."""
        z, w = self._scores(theta, x)
        j, margin = self._violator(z, y)
        return self._loss_at(w, margin), self._grads_at(w, x, y, j, margin)

    def _loss_at(self, w, margin) -> float:
        return float(np.maximum(margin, 0.0).mean() + 0.5 * self.l2 * np.sum(w * w))

    def _grads_at(self, w, x, y, j, margin) -> np.ndarray:
        coef = np.zeros((len(y), self.k))
        active = margin > 0
        rows = np.arange(len(y))[active]
        coef[rows, j[active]] += 1.0
        coef[rows, y[active]] -= 1.0
        g = np.empty((len(y), self.n_params))
        gw = g[:, : self.d * self.k]
        # the outer products x_b coef_b^T written in place (no einsum temporary, no concatenate copy)
        np.multiply(x[:, :, None], coef[:, None, :], out=gw.reshape(len(y), self.d, self.k))
        if self.l2:
            gw += self.l2 * w.ravel()
        g[:, self.d * self.k:] = coef
        return g

    def predict(self, theta: np.ndarray, x: np.ndarray) -> np.ndarray:
        return np.argmax(self._scores(theta, x)[0], axis=1)

    def accuracy(self, theta: np.ndarray, x: np.ndarray, y: np.ndarray) -> float:
        return float(np.mean(self.predict(theta, x) == y))
