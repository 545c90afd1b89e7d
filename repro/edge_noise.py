r"""Noise and clipping of seed 003's AUDP/MAPA (003_8b45c9baf0227e58.txt Eq. 6 L173, Alg. 1 line 5 L404).

Three noise modes, each named in every output that uses it:

* ``paper-literal``: what the paper's analysis assumes (L811: :math:`\mathbb E\lVert\eta\rVert^2=2\lambda^2`):
  radius Exponential(mean lambda) times a uniform direction, after clipping the BATCH AVERAGE at
  :math:`b\Delta S/2` (Algorithm 1 line 5). NOT differentially private for dimension >= 2 (its density is
  infinite at the centre) and the batch-average clip does not bound per-sample influence.
* ``k-norm``: the l2 K-norm mechanism, density :math:`\propto e^{-\lVert\eta\rVert_2/\lambda}` on :math:`\mathbb R^N`
  (radius Gamma(N, lambda), uniform direction), after PER-SAMPLE clipping at :math:`b\Delta S/2` and a
  fixed-size batch without replacement: epsilon-DP per release under replace-one;
  :math:`\mathbb E\lVert\eta\rVert^2=N(N+1)\lambda^2`.
* ``gaussian``: per-sample clipping at C, Poisson sampling, :math:`\mathcal N(0,\sigma^2C^2I)` on the sum
  (``repro.dp``), certified with ``numerics`` (the accountant decides epsilon).
"""
from __future__ import annotations

import numpy as np

from numerics.errors import InvalidParameter
from repro.dp import clip_rows

NOISE_MODES = ("paper-literal", "k-norm", "gaussian", "none")


def _directions(rng: np.random.Generator, dim: int, size: int) -> np.ndarray:
    u = rng.standard_normal((size, dim))
    return u / np.linalg.norm(u, axis=1, keepdims=True)


def _check(dim, scale):
    if dim < 1 or not scale > 0:
        raise InvalidParameter(f"noise needs dim >= 1 and scale > 0, got dim={dim!r}, scale={scale!r}")


def sample_k_norm(rng: np.random.Generator, dim: int, scale: float, size: int = 1) -> np.ndarray:
    r"""``size`` draws of the l2 K-norm noise: radius Gamma(shape dim, scale) times a uniform direction.

    The radius law follows from the polar form :math:`\propto r^{dim-1}e^{-r/\lambda}` of the density.
    """
    _check(dim, scale)
    return rng.gamma(shape=dim, scale=scale, size=(size, 1)) * _directions(rng, dim, size)


def sample_radial_exponential(rng: np.random.Generator, dim: int, scale: float, size: int = 1) -> np.ndarray:
    r"""The paper-literal noise: radius Exponential(mean ``scale``), uniform direction; second moment 2 scale^2."""
    _check(dim, scale)
    return rng.exponential(scale=scale, size=(size, 1)) * _directions(rng, dim, size)


def noise_second_moment(mode: str, dim: int, scale: float) -> float:
    r""":math:`\mathbb E\lVert\eta\rVert^2` of a mode at scale lambda (gaussian: ``scale`` is the per-coordinate std)."""
    if mode == "paper-literal":
        return 2.0 * scale ** 2
    if mode == "k-norm":
        return dim * (dim + 1.0) * scale ** 2
    if mode == "gaussian":
        return dim * scale ** 2
    if mode == "none":
        return 0.0
    raise InvalidParameter(f"noise mode must be one of {NOISE_MODES}, got {mode!r}")


def clip_batch_average(grads: np.ndarray, bound: float) -> np.ndarray:
    r"""Algorithm 1 line 5 (L404): average the batch, then scale to norm at most ``bound`` (= b Delta S/2)."""
    if not bound > 0:
        raise InvalidParameter(f"clip bound must be > 0, got {bound!r}")
    g = np.asarray(grads, float).mean(axis=0)
    return g / max(1.0, float(np.linalg.norm(g)) / bound)


def clip_per_sample_average(grads: np.ndarray, bound: float) -> np.ndarray:
    """The correction: clip every sample's gradient to ``bound``, then average (sensitivity 2 bound / b)."""
    return clip_rows(np.asarray(grads, float), bound).mean(axis=0)
