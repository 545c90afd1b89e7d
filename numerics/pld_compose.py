r"""Grid PMFs of privacy loss distributions and their FFT composition on a Chernoff window.

Shared by numerics.pld (Poisson Gaussian), numerics.pld_tilted (exponentially tilted composition) and
numerics.pld_general (any grid pairs); numerics.pld re-exports every name. The window and the
wrap-around allowance are the Chernoff bounds described in numerics.pld; the rounding of the FFT is
bounded, not estimated: numerics.fft_rounding gives the bound (``ComposedPLD.noise``) and its proof.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import scipy.fft

from .fft_rounding import SpectralPower
from .fft_rounding import U
from .precision import PLD_MAX_GRID_POINTS


class AccuracyNotReached(RuntimeError):
    """The requested relative width cannot be certified within the grid budget."""


class CrossedBracket(AccuracyNotReached):
    """A certified lower side came out above its upper side: with every rounding bounded this is a defect,
    so no bracket of the same run (not even one of a coarser grid) is reported (numerics.pld._refine)."""


@dataclass(frozen=True)
class GridPLD:
    """A sub-probability PMF on the grid k*h, k = k0, k0+1, ..., plus an atom at +infinity."""

    k0: int
    pmf: np.ndarray
    inf_mass: float


@dataclass(frozen=True)
class ComposedPLD:
    """PMF of the composed loss on k*h, k = k0.., plus +infinity mass, wrap bound and rounding bound.

    ``noise``: a proven bound on the absolute floating-point error of every entry of ``pmf``
    (numerics.fft_rounding); 0 when the bound is already folded into ``pmf`` (numerics.pld_tilted).
    """

    k0: int
    pmf: np.ndarray
    h: float
    inf_mass: float
    wrap_mass: float
    noise: float


def _log_mgf(step: GridPLD, h: float, lam: np.ndarray) -> np.ndarray:
    """log sum_k p_k exp(lam k h) for each lam (a sub-probability PMF keeps the Chernoff bound valid)."""
    pos = step.pmf > 0
    x = (step.k0 + np.nonzero(pos)[0]) * h
    log_p = np.log(step.pmf[pos])
    out = np.empty(len(lam))
    for i in range(0, len(lam), 8):  # blocks of 8 rows keep the temporary small
        e = log_p[None, :] + lam[i:i + 8, None] * x[None, :]
        top = e.max(axis=1)
        out[i:i + 8] = top + np.log(np.exp(e - top[:, None]).sum(axis=1))
    return out


def _log_mgf_error(step: GridPLD, h: float, lam: np.ndarray) -> np.ndarray:
    r"""A bound on the absolute rounding error of :func:`_log_mgf` at each lam (issue 29 audit, A29C).

    With M = max |log p_j| + |lam| max |x_j| over the n positive entries, each exponent log p + lam x is
    within 3uM (log and exp to 1 ulp, 2u, as numpy's accuracy tests hold them; x = (k0 + j) h, its product
    by lam and the sum one rounding each), the shift by the maximum within 2uM, the sum of the n exps
    within gamma_n + 2u relative and the final log and sum within 2u + u |K|; so the error is at most
    (6M + n + 8 + |K|) u, and 64 u more covers a PMF coarsened by summing up to 64 entries per bin
    (numerics.pld_tilted.coarse). A Chernoff bound computed with K plus this error is a proven bound."""
    pos = step.pmf > 0
    if not pos.any():
        return np.zeros(len(lam))
    x = (step.k0 + np.nonzero(pos)[0]) * h
    big = float(np.max(np.abs(np.log(step.pmf[pos])))) + np.abs(lam) * max(abs(float(x[0])), abs(float(x[-1])))
    return 1.01 * (6.0 * big + int(pos.sum()) + 8.0 + 64.0) * U


def _log_mgf_upper(steps, h: float, lam: np.ndarray) -> np.ndarray:
    """sum_i T_i K_i(lam) plus its rounding bound (:func:`_log_mgf_error`, and (m + 1) u |T_i K_i| for the
    products and the sum over m phases): at or above the exact log-MGF of the composition."""
    terms = [t * _log_mgf(s, h, lam) for s, t in steps]
    err = sum(t * _log_mgf_error(s, h, lam) for s, t in steps)
    return sum(terms) + err + 1.01 * (len(steps) + 1) * U * sum(np.abs(k) for k in terms)


def inf_mass_upper(steps) -> float:
    """1 - prod_i (1 - p_i,inf)^{T_i} rounded up: log1p to 1 ulp (2u), the products by T_i and the sum over
    m phases one rounding each, so log_survive is within 2(m + 2)u of its magnitude; it is moved that much
    towards 0 before -expm1 (1 ulp, covered by a final 4u). A larger +inf mass only raises delta."""
    log_survive = sum(t * math.log1p(-s.inf_mass) for s, t in steps)
    return -math.expm1(log_survive * (1.0 + 1.01 * 2.0 * (len(steps) + 2) * U)) * (1.0 + 4.0 * U)


def _moments(step: GridPLD, h: float) -> tuple[float, float]:
    x = (step.k0 + np.arange(len(step.pmf))) * h
    m = step.pmf.sum()
    mean = float(np.dot(step.pmf, x) / m)
    return mean, float(np.dot(step.pmf, (x - mean) ** 2) / m)


def _window_side(steps, h: float, tail: float, sign: int) -> int:
    """Grid index beyond which (above for sign=+1, below for -1) the composed PMF has mass <= ``tail``.

    Chernoff: P(S >= A) <= exp(sum_i T_i K_i(lam) - lam A) for every lam > 0 (and the mirror image
    below), with K_i the log-MGF of the grid PMF of step i; the best of a few lam around the Gaussian
    optimum sqrt(2 log(1/tail)) / sd(S), and far below it, is used. Any lam gives a valid bound; K is
    taken with its rounding bound (:func:`_log_mgf_upper`) and the quotient moved 4u outward before the
    ceiling (floor), so the returned side is proven (issue 29 audit, A29C).
    """
    var = sum(t * _moments(s, h)[1] for s, t in steps)
    star = math.sqrt(2.0 * math.log(1.0 / tail) / max(var, 1e-300))
    # heavy right tails (small q, small sigma) need much smaller lam than the Gaussian optimum
    lam = np.geomspace(max(star * 1e-3, 0.05), 2.0 * star, 20) if star > 0.1 else np.geomspace(star / 8, 2 * star, 8)
    k = _log_mgf_upper(steps, h, sign * lam)
    if sign > 0:
        side = float(np.min((k - math.log(tail)) / lam)) / h
        return math.ceil(side + 4.0 * U * abs(side))
    side = float(np.max((math.log(tail) - k) / lam)) / h
    return math.floor(side - 4.0 * U * abs(side))


def compose(steps, h: float, tail: float, max_points: int = PLD_MAX_GRID_POINTS,
            window: tuple[int, int] | None = None, wrap_mass: float | None = None) -> ComposedPLD:
    """Compose ``steps`` (pairs (GridPLD, count)) by one FFT power per phase on a common window.

    ``window`` (grid indices) and ``wrap_mass`` (a bound on the composed mass outside it) default to
    the Chernoff window of these steps with ``tail`` on each side.
    """
    if window is None:
        window = (_window_side(steps, h, tail, -1), _window_side(steps, h, tail, +1))
        wrap_mass = 2.0 * tail
    lo, hi = window
    n = scipy.fft.next_fast_len(hi - lo + 1, real=True)
    if n > max_points:
        raise AccuracyNotReached(f"the composed PLD needs {n} grid points at step h={h:.3g}; "
                                 f"the budget is {max_points} (PLD_MAX_GRID_POINTS)")
    power = SpectralPower(n)
    for step, count in steps:
        power.add(fold(step, n), count, fold=-(-len(step.pmf) // n))
    total, noise = power.finish()
    # noise: the proven bound on every entry's rounding error (numerics.fft_rounding)
    return ComposedPLD(lo, np.roll(total, -(lo % n)), h, inf_mass_upper(steps), wrap_mass, noise)


def fold(step: GridPLD, n: int, weights: np.ndarray | None = None) -> np.ndarray:
    """The step's masses (or ``weights`` on its grid) folded modulo n (cyclic composition)."""
    w = step.pmf if weights is None else weights
    return np.bincount((step.k0 + np.arange(len(step.pmf))) % n, weights=w, minlength=n)
