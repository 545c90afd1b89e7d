r"""A proven bound on the floating-point error of an FFT composition of grid PMFs (issue 29).

The PLD accountants compose step PMFs :math:`a_i` (nonnegative, :math:`\|a_i\|_1 \le 1`, folded modulo n)
by one power per phase in Fourier space: :math:`c = \mathcal F^{-1}\big(\prod_i \hat a_i^{T_i}\big)`,
with :math:`\hat a_i` = ``scipy.fft.rfft`` and the power taken in polar form (log-magnitude times
:math:`T_i`, angle times :math:`T_i`). :class:`SpectralPower` does exactly that and returns, with the
computed :math:`\tilde c`, a number E with

.. math:: |\tilde c_j - c_j| \le E \quad\text{for every entry } j,

where c is the exact cyclic composition of the floating-point inputs. Its parts:

1. **One FFT** (forward or inverse, length n, normwise). Higham, *Accuracy and Stability of Numerical
   Algorithms*, 2nd ed., Thm. 24.2: a radix-2 Cooley-Tukey FFT computed in floating point with unit
   roundoff u and twiddle factors accurate to :math:`\mu` satisfies
   :math:`\|\hat y - y\|_2 \le \frac{\log_2(n)\,\eta}{1 - \log_2(n)\,\eta}\|y\|_2`,
   :math:`\eta = \mu + \gamma_4(\sqrt2 + \mu)` (about :math:`6.7u` for :math:`\mu = u`). The proof is
   per stage: a stage is :math:`\sqrt r` times a unitary map, each output computed from its inputs by
   a fixed number of complex operations; the stage's normwise relative error is at most
   :math:`\sqrt r` times the per-output operation count in units of u, plus the twiddle error.
   scipy's pocketfft uses radix-2, 3, 4 and 5 passes on the 5-smooth lengths of
   ``next_fast_len`` (and real-data packing); counting operations the same way gives at most about
   6u (radix 4), 8u (radix 3) and 11u (radix 5) per bit of n, so

   .. math:: \rho(n) = (1 + c\,u)^{\lceil\log_2 n\rceil + 2} - 1, \qquad c = \texttt{FFT\_ROUNDOFF\_PER\_BIT} = 24,

   (two extra stages: real-data packing and the 1/n scaling) bounds the normwise relative error of
   every transform used, with a margin of 2 over the largest per-bit count. It is checked against
   long-double recomputation in tests/test_fft_rounding.py.

2. **Powers** (the "repeated squaring" of a self-composition). With the forward error
   :math:`e_i = \tilde a_i - \hat a_i` (:math:`\|e_i\|_2 \le \rho\sqrt n\,\|a_i\|_2` by Parseval, so
   :math:`|e_{ik}| \le \rho\sqrt n\|a_i\|_2 =: \epsilon_i` for every k) and
   :math:`b_{ik} = |\tilde a_{ik}| + \epsilon_i \ge \max(|\tilde a_{ik}|, |\hat a_{ik}|)`, the
   telescoping identity :math:`x^T - y^T = (x - y)\sum_j x^j y^{T-1-j}` gives
   :math:`|\prod_i \tilde a_{ik}^{T_i} - \prod_i \hat a_{ik}^{T_i}| \le \sum_i T_i |e_{ik}| Q_{ik}`,
   :math:`Q_{ik} = b_{ik}^{T_i-1}\prod_{i'\ne i} b_{i'k}^{T_{i'}}`. Its inverse transform has every
   entry at most :math:`\frac1n\sum_k |\cdot|` (the kernel has modulus 1), and by Cauchy-Schwarz
   :math:`\frac1n\sum_k |e_{ik}| Q_{ik} \le \frac1n\|e_i\|_2\|Q_i\|_2 \le \rho\|a_i\|_2\|Q_i\|_2/\sqrt n`:

   .. math:: E_{\rm power} = \sum_i T_i\,\rho\,\|a_i\|_2\,\|Q_i\|_2/\sqrt n .

   This is the "T times" growth of the error of a T-th power, with the operands' own errors added.
   :math:`\|Q_i\|_2/\sqrt n` is about :math:`\|c\|_2`, so E is about :math:`T\rho\|a\|_2\|c\|_2`.
3. **Polar arithmetic.** log, abs, angle, products by :math:`T_i`, sums over phases, exp, cos and sin
   each round with relative error at most 2u of their result (abs error at most :math:`2u|x|` of
   an argument x); so the computed log-magnitude has absolute error at most
   :math:`\Delta L_k = \sum_i T_i(3u|\log|\tilde a_{ik}|| + 3u) + (m+1)u|L_k|` (m phases) and the
   angle at most :math:`\Delta\Phi = (2m + 4)\pi u\sum_i T_i`; the computed spectrum's relative error is
   at most :math:`\rho_k = e^{\Delta L_k} - 1 + \Delta\Phi + 8u`, contributing
   :math:`E_{\rm polar} = \frac1n\sum_k \rho_k(1+\rho_k)|\tilde G_k|` to each entry.
4. **The inverse FFT** of the computed spectrum: :math:`\|\tilde c - c'\|_\infty \le \|\tilde c -
   c'\|_2 \le \rho\|c'\|_2 \le \rho\|\tilde c\|_2/(1-\rho)`.
5. **Folding** (``np.bincount`` of at most K entries per bin) perturbs each input entry relatively by
   at most :math:`\gamma_K = Ku/(1-Ku)`; it is added to :math:`\rho` of the forward transform.

E is the sum of 2-4, times :math:`1 + 10^{-6}` for the rounding of its own evaluation. It is the same
for every entry: the observed error of these compositions is indeed a nearly constant floor (issue 29).
"""
from __future__ import annotations

import math

import numpy as np
import scipy.fft

from .precision import FFT_ROUNDOFF_PER_BIT, UNIT_ROUNDOFF

U = UNIT_ROUNDOFF


def fft_relative_error(n: int) -> float:
    r""":math:`\rho(n)`: bound on :math:`\|\tilde y - y\|_2 / \|y\|_2` of one scipy FFT of length n (module
    docstring, item 1)."""
    stages = math.ceil(math.log2(max(n, 2))) + 2
    return math.expm1(stages * math.log1p(FFT_ROUNDOFF_PER_BIT * U))


def _full_weights(n: int) -> np.ndarray:
    """Multiplicity of each rfft bin in the full length-n spectrum (Hermitian symmetry)."""
    w = np.full(n // 2 + 1, 2.0)
    w[0] = 1.0
    if n % 2 == 0:
        w[-1] = 1.0
    return w


def convolution_entry_error(n: int, norm2_a: float, norm2_b: float, norm1_b: float) -> float:
    r"""Bound on every entry's error of ``scipy.signal.fftconvolve(a, b)`` (transform length at most n).

    The forward errors satisfy :math:`\|e_a\|_2 \le \rho\sqrt n\|a\|_2` (same for b); the computed
    product differs from :math:`\hat a\hat b` by :math:`e_a\hat b + \hat a e_b + e_a e_b` plus its own
    rounding (:math:`\le 3u` relative); every entry of the exact inverse of a vector d is at most
    :math:`\|d\|_1/n`, and by Cauchy-Schwarz :math:`\|e_a\hat b\|_1 \le \|e_a\|_2\|\hat b\|_2
    \le \rho n\|a\|_2\|b\|_2`. The inverse's own error is at most :math:`\rho` times the 2-norm of
    its exact output, :math:`\le (1+\rho)^2\|a\|_2\|b\|_1` (Young). Total:
    :math:`(2\rho + \rho^2 + 3u(1+\rho)^2)\|a\|_2\|b\|_2 + \rho(1+\rho)^2\|a\|_2\|b\|_1`, times
    :math:`1 + 10^{-6}`; the norms passed in must be upper bounds (round them up).
    """
    rho = fft_relative_error(n)
    grow = (1.0 + rho) ** 2
    return ((2.0 * rho + rho * rho + 3.0 * U * grow) * norm2_a * norm2_b + rho * grow * norm2_a * norm1_b) * (1.0 + 1e-6)


class SpectralPower:
    r"""Accumulates :math:`\prod_i \hat a_i^{T_i}` in polar form with the error bound of the module docstring.

    ``add(folded, count)`` takes one phase's folded PMF (length n, nonnegative, at most ``fold``
    entries summed per bin); ``finish()`` returns ``(c, E)``: the computed composition (length n) and
    the bound E on every entry's absolute error.
    """

    def __init__(self, n: int):
        self.n = n
        self.rho = fft_relative_error(n)
        self.log_mag = np.zeros(n // 2 + 1)
        self.phase = np.zeros(n // 2 + 1)
        self._log_b = []       # per phase: (count, log b_ik)
        self._d_log = np.zeros(n // 2 + 1)   # sum_i T_i (3u |log|a~_ik|| + 3u)
        self._norm_terms = []  # per phase: count * rho_i * ||a_i||_2
        self.total_count = 0

    def add(self, folded: np.ndarray, count: int, fold: int = 1) -> None:
        f = scipy.fft.rfft(folded)
        mag = np.abs(f)
        with np.errstate(divide="ignore"):
            log_mag = np.log(mag)
        self.log_mag += count * log_mag
        self.phase += count * np.angle(f)
        gamma_fold = fold * U / (1.0 - fold * U) if fold > 1 else 0.0
        norm = float(np.linalg.norm(folded)) * (1.0 + 2.0 * self.n * U)
        rho_in = self.rho + gamma_fold
        eps_abs = rho_in * math.sqrt(self.n) * norm  # bound on |e_ik| for every k
        with np.errstate(divide="ignore"):
            self._log_b.append((count, np.log(mag * (1.0 + 2.0 * U) + eps_abs)))
        finite = np.isfinite(log_mag)
        self._d_log += count * (3.0 * U * np.where(finite, np.abs(log_mag), 0.0) + 3.0 * U)
        self._norm_terms.append(count * rho_in * norm)
        self.total_count += count

    def finish(self) -> tuple[np.ndarray, float]:
        n, w = self.n, _full_weights(self.n)
        g_abs = np.exp(self.log_mag)
        c = scipy.fft.irfft(g_abs * np.exp(1j * self.phase), n=n)
        m = len(self._log_b)
        # 2. powers: sum_i T_i rho_i ||a_i||_2 ||Q_i||_2 / sqrt(n), Q_i = P / b_i, log P = sum_i T_i log b_i
        log_p = sum(t * lb for t, lb in self._log_b)
        e_power = 0.0
        for (t, lb), term in zip(self._log_b, self._norm_terms):
            with np.errstate(invalid="ignore"):
                log_q = np.where(np.isfinite(lb), log_p - lb, -np.inf)
            top = float(np.max(log_q))
            q_norm = math.exp(top) * math.sqrt(float(np.sum(w * np.exp(2.0 * (log_q - top))))) if math.isfinite(top) else 0.0
            e_power += term * q_norm / math.sqrt(n)
        # 3. polar arithmetic
        with np.errstate(invalid="ignore"):
            d_l = self._d_log + (m + 1) * U * np.where(np.isfinite(self.log_mag), np.abs(self.log_mag), 0.0)
        d_phi = (2 * m + 4) * math.pi * U * self.total_count
        rho_k = np.expm1(d_l) + d_phi + 8.0 * U
        e_polar = float(np.sum(w * rho_k * (1.0 + rho_k) * g_abs)) / n
        # 4. inverse transform
        e_inv = self.rho * float(np.linalg.norm(c)) * (1.0 + 2.0 * n * U) / (1.0 - self.rho)
        return c, (e_power + e_polar + e_inv) * (1.0 + 1e-6)
