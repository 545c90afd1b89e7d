r"""Models with vectorised per-sample gradients on a flat parameter vector.

DP-SGD clips every sample's gradient separately, so each model returns the ``(batch, n_params)``
matrix of per-sample gradients in one vectorised computation (no per-sample Python loop).

* :class:`LogisticRegression`: seed 000's (30) and seed 002's (66) binary logistic loss
  :math:`\ell_i = -[y_i\log\sigma_i + (1-y_i)\log(1-\sigma_i)]`, :math:`\sigma_i = 1/(1+e^{-(w^\top x_i+b)})`
  (000_d613b97385d90362.txt L1820; 002_13c470b90c68bab6.txt L1350). With ``l2 = lam > 0`` each sample's
  loss gets :math:`+\frac{\lambda}{2}\lVert w\rVert^2` (bias not regularised), the strongly convex
  objective with :math:`\lambda = 1/N` (000 Table 1, L1832; 002 Table 1, L253). The papers write the
  objective as a sum (000 L1820); we use the per-sample form F = mean of f(w; xi), which is what
  SGD on single samples optimises.
* :class:`MLP`: one hidden ReLU layer and a softmax output, the small non-convex stand-in for
  LeNet/AlexNet (000 L1828, 002 L1354).
"""
from __future__ import annotations

import numpy as np

from numerics.errors import InvalidParameter


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return 0.5 * (1.0 + np.tanh(0.5 * z))  # overflow-free logistic function


class LogisticRegression:
    """Binary logistic regression; parameters ``theta = (w_1..w_d, b)``."""

    def __init__(self, n_features: int, *, l2: float = 0.0):
        if n_features < 1:
            raise InvalidParameter(f"n_features must be >= 1, got {n_features!r}")
        if not l2 >= 0.0:
            raise InvalidParameter(f"l2 must be >= 0, got {l2!r}")
        self.n_features, self.l2 = int(n_features), float(l2)
        self.n_params = self.n_features + 1

    def init(self, rng: np.random.Generator) -> np.ndarray:
        return np.zeros(self.n_params)

    def logits(self, theta: np.ndarray, x: np.ndarray) -> np.ndarray:
        return x @ theta[:-1] + theta[-1]

    def _grads_at(self, theta, z, x, y) -> np.ndarray:
        r = _sigmoid(z) - y  # d loss / d logit
        g = np.empty((len(y), self.n_params))
        g[:, :-1] = r[:, None] * x
        g[:, -1] = r
        if self.l2:
            g[:, :-1] += self.l2 * theta[:-1]
        return g

    def _loss_at(self, theta, z, y) -> float:
        nll = np.logaddexp(0.0, z) - y * z
        return float(nll.mean() + 0.5 * self.l2 * theta[:-1] @ theta[:-1])

    def per_sample_grads(self, theta: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        return self._grads_at(theta, self.logits(theta, x), x, y)

    def loss(self, theta: np.ndarray, x: np.ndarray, y: np.ndarray) -> float:
        return self._loss_at(theta, self.logits(theta, x), y)

    def loss_and_grads(self, theta: np.ndarray, x: np.ndarray, y: np.ndarray) -> tuple[float, np.ndarray]:
        """``(loss, per_sample_grads)`` from one pass of the logits: the same numbers as the two calls
        (a training loop that records each batch's loss would otherwise compute them twice)."""
        z = self.logits(theta, x)
        return self._loss_at(theta, z, y), self._grads_at(theta, z, x, y)

    def predict(self, theta: np.ndarray, x: np.ndarray) -> np.ndarray:
        return (self.logits(theta, x) > 0).astype(np.int64)

    def accuracy(self, theta: np.ndarray, x: np.ndarray, y: np.ndarray) -> float:
        return float(np.mean(self.predict(theta, x) == y))


class MLP:
    """``x -> relu(x W1 + b1) W2 + b2 -> softmax``; parameters flattened as (W1, b1, W2, b2)."""

    def __init__(self, n_features: int, n_hidden: int, n_classes: int):
        if min(n_features, n_hidden) < 1 or n_classes < 2:
            raise InvalidParameter(f"MLP sizes must be positive with n_classes >= 2, got "
                                   f"({n_features!r}, {n_hidden!r}, {n_classes!r})")
        self.shapes = [(n_features, n_hidden), (n_hidden,), (n_hidden, n_classes), (n_classes,)]
        self.sizes = [int(np.prod(s)) for s in self.shapes]
        self.n_params = sum(self.sizes)
        self.n_classes = n_classes

    def unpack(self, theta: np.ndarray):
        parts, at = [], 0
        for shape, size in zip(self.shapes, self.sizes):
            parts.append(theta[at:at + size].reshape(shape))
            at += size
        return parts

    def init(self, rng: np.random.Generator) -> np.ndarray:
        """He-initialised weights, zero biases."""
        (d, h), _, (h2, k), _ = self.shapes
        w1 = rng.normal(0.0, np.sqrt(2.0 / d), (d, h))
        w2 = rng.normal(0.0, np.sqrt(2.0 / h), (h, k))
        return np.concatenate([w1.ravel(), np.zeros(h), w2.ravel(), np.zeros(k)])

    def _forward(self, theta, x):
        w1, b1, w2, b2 = self.unpack(theta)
        pre = x @ w1 + b1
        hid = np.maximum(pre, 0.0)
        return pre, hid, hid @ w2 + b2

    def per_sample_grads(self, theta: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        _, _, w2, _ = self.unpack(theta)
        pre, hid, z = self._forward(theta, x)
        p = np.exp(z - z.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        p[np.arange(len(y)), y] -= 1.0  # d loss / d logits
        dh = (p @ w2.T) * (pre > 0)
        b = len(y)
        return np.concatenate([np.einsum("bi,bj->bij", x, dh).reshape(b, -1), dh,
                               np.einsum("bi,bj->bij", hid, p).reshape(b, -1), p], axis=1)

    def loss(self, theta: np.ndarray, x: np.ndarray, y: np.ndarray) -> float:
        z = self._forward(theta, x)[2]
        m = z.max(axis=1)
        lse = m + np.log(np.exp(z - m[:, None]).sum(axis=1))
        return float(np.mean(lse - z[np.arange(len(y)), y]))

    def predict(self, theta: np.ndarray, x: np.ndarray) -> np.ndarray:
        return np.argmax(self._forward(theta, x)[2], axis=1)

    def accuracy(self, theta: np.ndarray, x: np.ndarray, y: np.ndarray) -> float:
        return float(np.mean(self.predict(theta, x) == y))


def build(kind: str, *, n_features: int, n_classes: int, n_train: int, n_hidden: int = 32):
    """``kind``: ``strongly-convex`` (logistic, lambda = 1/N), ``plain-convex`` (logistic) or ``non-convex`` (MLP)."""
    if kind in ("strongly-convex", "plain-convex"):
        if n_classes != 2:
            raise InvalidParameter(f"logistic regression needs a binary data set, got {n_classes} classes")
        return LogisticRegression(n_features, l2=1.0 / n_train if kind == "strongly-convex" else 0.0)
    if kind == "non-convex":
        return MLP(n_features, n_hidden, n_classes)
    raise InvalidParameter(f"model kind must be strongly-convex, plain-convex or non-convex, got {kind!r}")
