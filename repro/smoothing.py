r"""Laplacian smoothing on the cycle graph (seed 004 Sec. 3.1, L132-140): :math:`A_\sigma = I + \sigma L`,
first row :math:`(1+2\sigma, -\sigma, 0, \ldots, 0, -\sigma)`; solve :math:`A_\sigma u = v` by FFT (eq. (2))."""
from __future__ import annotations

import numpy as np

from numerics.errors import InvalidParameter


def _check_sigma(sigma: float) -> float:
    if not sigma >= 0:
        raise InvalidParameter(f"smoothing sigma must be >= 0, got {sigma!r}")
    return float(sigma)


def ls_matrix(d: int, sigma: float) -> np.ndarray:
    """The dense circulant A_sigma (for checks; d = 1 gives [1], d = 2 the 2-cycle with a double edge)."""
    sigma = _check_sigma(sigma)
    a = (1 + 2 * sigma) * np.eye(d)
    for i in range(d):
        a[i, (i + 1) % d] -= sigma
        a[i, (i - 1) % d] -= sigma
    return a


def ls_solve(v: np.ndarray, sigma: float) -> np.ndarray:
    """A_sigma^{-1} v along the last axis by FFT: divide by the eigenvalues 1 + 2 sigma - 2 sigma cos(2 pi k/d)."""
    sigma = _check_sigma(sigma)
    if sigma == 0:
        return np.array(v, dtype=float)
    d = np.shape(v)[-1]
    eig = 1 + 2 * sigma - 2 * sigma * np.cos(2 * np.pi * np.arange(d) / d)
    return np.real(np.fft.ifft(np.fft.fft(v, axis=-1) / eig, axis=-1))
