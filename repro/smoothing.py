r"""Laplacian smoothing on the cycle graph (seed 004 Sec. 3.1, L132-140): :math:`A_\sigma = I + \sigma L`,
first row :math:`(1+2\sigma, -\sigma, 0, \ldots, 0, -\sigma)`; solve :math:`A_\sigma u = v` by FFT (eq. (2))."""
from __future__ import annotations

import numpy as np

from numerics.errors import InvalidParameter


def _check_ls_sigma(ls_sigma: float) -> float:
    if not ls_sigma >= 0:
        raise InvalidParameter(f"smoothing ls_sigma must be >= 0, got {ls_sigma!r}")
    return float(ls_sigma)


def ls_matrix(d: int, ls_sigma: float) -> np.ndarray:
    """The dense circulant A_sigma (for checks; d = 1 gives [1], d = 2 the 2-cycle with a double edge)."""
    ls_sigma = _check_ls_sigma(ls_sigma)
    a = (1 + 2 * ls_sigma) * np.eye(d)
    for i in range(d):
        a[i, (i + 1) % d] -= ls_sigma
        a[i, (i - 1) % d] -= ls_sigma
    return a


def ls_solve(v: np.ndarray, ls_sigma: float) -> np.ndarray:
    """A_sigma^{-1} v along the last axis by FFT: divide by the eigenvalues 1 + 2 sigma - 2 sigma cos(2 pi k/d).

    ``ls_sigma`` is the paper's smoothing sigma (not a noise multiplier); 0 returns v unchanged (DP-Fed)."""
    ls_sigma = _check_ls_sigma(ls_sigma)
    if ls_sigma == 0:
        return np.array(v, dtype=float)
    d = np.shape(v)[-1]
    eig = 1 + 2 * ls_sigma - 2 * ls_sigma * np.cos(2 * np.pi * np.arange(d) / d)
    return np.real(np.fft.ifft(np.fft.fft(v, axis=-1) / eig, axis=-1))
