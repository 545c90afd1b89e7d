r"""Composition of grid PMFs for very small delta (down to 1e-15): exponential tilting around epsilon.

A double-precision FFT leaves an absolute error of about 1e-16 of the largest composed mass in every
entry, so numerics.pld (and its guard in numerics.pld_general) cannot certify delta much below 1e-9.
Tilting moves the region that matters to the top of the distribution: with
:math:`\tilde p_i(x) = p_i(x) e^{\lambda x}/M_i(\lambda)` for each step, the composition of the tilted PMFs is
the tilted composition, :math:`\tilde p^{(T)}(x) = p^{(T)}(x)e^{\lambda x}/\prod_i M_i^{T_i}` (an identity of
convolutions), and the FFT's error is now relative to the tilted masses, which are large near
:math:`x \approx \varepsilon` when :math:`\lambda` is the Chernoff exponent of :math:`P(L \ge \varepsilon)`. Untilting
multiplies every entry and its noise by :math:`M^T e^{-\lambda x}`, at most 1 relative to the tilted scale
above the point where the tilted and untilted masses cross, so delta(epsilon), a sum over losses above
epsilon only, keeps its accuracy.

Soundness of what is returned (the same sides as numerics.pld):

* entries at losses below ``x_floor`` are not used: for the upper PMF their total mass (the composed
  finite mass minus the certified lower masses above ``x_floor``) is put at ``x_floor`` (a loss rounded
  up, which only raises delta); for the lower PMF they are dropped (a sub-probability, which only
  lowers it);
* circular wrap-around: the window holds all but ``tail`` of the untilted mass on each side (Chernoff,
  as numerics.pld); mass from above the window lands at the bottom, below ``x_floor``, unless it comes
  from beyond ``x_floor + n h`` (n is twice the window), whose untilted contribution is at most
  :math:`e^{\lambda n h} P(S \ge x_{floor} + nh) \le \min_{\lambda' > \lambda} e^{\lambda nh + K(\lambda') - \lambda'(x_{floor} + nh)}`
  (Chernoff with the grid PMFs' log-MGF K), added to the wrap-around allowance; mass from below the window lands at the top with
  a factor :math:`e^{-\lambda nh} \le 1`, within ``tail``;
* the FFT noise is estimated in the tilted domain as in numerics.pld (twice the most negative entry,
  at least 1e-16 of the largest) and untilted entry by entry, added (upper) or subtracted (lower).
"""
from __future__ import annotations

import math

import numpy as np
import scipy.fft
from scipy.special import logsumexp

from . import pld


def _log_mgf_total(steps, h: float, lam: float) -> float:
    return float(sum(t * pld._log_mgf(s, h, np.array([lam]))[0] for s, t in steps))


def _contamination(steps, h: float, lam: float, level: float, shift: float) -> float:
    """Bound on e^{lam shift} P(S >= level): min over lam' > lam of e^{lam shift + K(lam') - lam' level}."""
    lams = lam * np.geomspace(1.01, 30.0, 60)
    k = sum(t * pld._log_mgf(s, h, lams) for s, t in steps)
    return math.exp(min(float(np.min(lam * shift + k - lams * level)), 0.0))


def chernoff_lambda(steps, h: float, delta: float) -> tuple[float, float]:
    """(lambda, epsilon) minimising the Chernoff bound epsilon with P(S >= epsilon) <= delta."""
    lams = np.geomspace(1e-3, 50.0, 120)
    k = sum(t * pld._log_mgf(s, h, lams) for s, t in steps)
    eps = (k - math.log(delta)) / lams
    i = int(np.argmin(eps))
    return float(lams[i]), float(eps[i])


def compose_tilted(steps, h: float, tail: float, window: tuple[int, int], lam: float, x_floor: float):
    """(upper, lower) ComposedPLDs (noise folded in, see module docstring) for delta at losses >= x_floor."""
    lo, hi = window
    # the FFT length is at least twice the window and is doubled until what can wrap from above onto
    # the used losses is below ``tail`` (or the budget ends; the allowance then carries the rest)
    n = scipy.fft.next_fast_len(2 * (hi - lo + 1), real=True)
    while _contamination(steps, h, lam, x_floor + n * h, n * h) > tail and 2 * n <= pld.PLD_MAX_GRID_POINTS:
        n = scipy.fft.next_fast_len(2 * n, real=True)
    if n > pld.PLD_MAX_GRID_POINTS:
        raise pld.AccuracyNotReached(f"the composed PLD needs {n} grid points at step h={h:.3g}")
    log_mag, phase = np.zeros(n // 2 + 1), np.zeros(n // 2 + 1)
    log_m_total, log_survive = 0.0, 0.0
    for step, count in steps:
        x = (step.k0 + np.arange(len(step.pmf))) * h
        with np.errstate(divide="ignore"):
            lp = np.log(step.pmf) + lam * x
        log_m = float(logsumexp(lp))
        folded = np.bincount((step.k0 + np.arange(len(step.pmf))) % n, weights=np.exp(lp - log_m), minlength=n)
        f = scipy.fft.rfft(folded)
        with np.errstate(divide="ignore"):
            log_mag += count * np.log(np.abs(f))
        phase += count * np.angle(f)
        log_m_total += count * log_m
        log_survive += count * math.log1p(-step.inf_mass)
    total = np.roll(scipy.fft.irfft(np.exp(log_mag) * np.exp(1j * phase), n=n), -(lo % n))
    noise = 2.0 * max(float(-total.min()), 1e-16 * float(total.max()))
    x = (lo + np.arange(n)) * h
    # untilting factors above e^700 would overflow: such low losses join the floor instead
    keep = x >= max(x_floor, (log_m_total - 700.0) / lam)
    scale = np.exp(log_m_total - lam * x[keep])
    up_keep = (total[keep] + noise) * scale
    low_keep = np.maximum(total[keep] - noise, 0.0) * scale
    finite = math.exp(log_survive)
    k_floor = int(np.argmax(keep))
    upper = np.zeros(n - k_floor)
    upper[:] = up_keep
    upper[0] += max(finite - float(low_keep.sum()), 0.0)
    lower = low_keep
    contamination = _contamination(steps, h, lam, x_floor + n * h, n * h)
    wrap = 2.0 * tail + contamination
    inf_mass = -math.expm1(log_survive)
    k0 = lo + k_floor
    return (pld.ComposedPLD(k0, upper, h, inf_mass, wrap, 0.0),
            pld.ComposedPLD(k0, lower, h, inf_mass, wrap, 0.0))
