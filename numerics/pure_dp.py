r"""Optimal composition of pure :math:`\varepsilon_0`-DP steps (Kairouz, Oh & Viswanath; Murtagh & Vadhan).

Every :math:`\varepsilon_0`-DP mechanism is a post-processing of randomized response RR(:math:`\varepsilon_0`),
the pair :math:`P = (e^{\varepsilon_0}, 1)/(1+e^{\varepsilon_0})`, :math:`Q = (1, e^{\varepsilon_0})/(1+e^{\varepsilon_0})`
(Kairouz, Oh, Viswanath 2017, IEEE TIT, "The composition theorem for differential privacy",
Thm. 3.3 and its proof; the pair dominates both orders, so it composes adaptively), and RR itself is
:math:`\varepsilon_0`-DP, so composing RR pairs is exactly the optimal composition.

* **Homogeneous** (:func:`optimal_composition_delta` with equal :math:`\varepsilon_0`): with i the number of
  steps answering the "P side", the loss is :math:`(2i - T)\varepsilon_0` and
  :math:`\delta(\varepsilon) = (1+e^{\varepsilon_0})^{-T}\sum_i \binom{T}{i}(e^{i\varepsilon_0} - e^{\varepsilon + (T-i)\varepsilon_0})_+`
  (KOV Thm. 3.3), summed in log space; the bracket is that double-precision value widened by a relative
  1e-9.
* **Heterogeneous** :math:`\varepsilon_i`: exact evaluation is #P-hard (Murtagh & Vadhan 2016, TCC). A
  certified bracket: round every :math:`\varepsilon_i` up (down) to a multiple of a grid step h; RR of a
  larger :math:`\varepsilon'` dominates RR of a smaller :math:`\varepsilon` (flipping the answer with
  probability p turns RR(:math:`\varepsilon'`) into RR with likelihood ratio
  :math:`(e^{\varepsilon'}(1-p)+p)/(e^{\varepsilon'}p+1-p)`, which runs continuously from
  :math:`e^{\varepsilon'}` at p = 0 to 1 at p = 1/2), so the rounded-up grid pairs give an upper
  bound and the rounded-down ones a lower bound; both are composed exactly on the grid by
  numerics.pld's FFT (with its wrap-around and rounding accounting). h halves until the relative width
  is met or the budget ends (then the bracket is returned as it is, with its width).
"""
from __future__ import annotations

import math
from typing import Sequence

import numpy as np
from scipy.special import gammaln, logsumexp

from . import pld
from .errors import InvalidParameter, check_delta, check_epsilon
from .precision import PLD_RELATIVE_WIDTH
from .results import DeltaBounds, EpsilonBounds

_RTOL = 1e-9


def _eps0s(eps0s) -> np.ndarray:
    e = np.atleast_1d(np.asarray(eps0s, dtype=float))
    if e.ndim != 1 or e.size == 0 or not np.all(np.isfinite(e)) or np.any(e <= 0):
        raise InvalidParameter(f"eps0s must be a non-empty sequence of finite numbers > 0, got {eps0s!r}")
    return e


def _kov_delta(eps0: float, steps: int, eps: float) -> float:
    i = np.arange(steps + 1)
    loss = (2 * i - steps) * eps0
    keep = loss > eps
    if not keep.any():
        return 0.0
    i = i[keep]
    log_p = gammaln(steps + 1) - gammaln(i + 1) - gammaln(steps - i + 1) + i * eps0 \
        - steps * np.logaddexp(0.0, eps0)
    return float(np.exp(logsumexp(log_p + np.log(-np.expm1(eps - loss[keep])))))


def _grid_pair(eps0: float, h: float, up: bool) -> "pld.GridPLD":
    k = math.ceil(eps0 / h - 1e-12) if up else max(math.floor(eps0 / h + 1e-12), 0)
    e = k * h
    pmf = np.zeros(2 * k + 1)
    pmf[0], pmf[-1] = 1.0 / (1.0 + math.exp(e)), 1.0 / (1.0 + math.exp(-e))
    if k == 0:
        pmf = np.array([1.0])
    return pld.GridPLD(-k, pmf, 0.0)


def _hetero(eps0s: np.ndarray, rel_width: float, target):
    """Bracket (lower, upper, h) of ``target(composed, upper_side)`` over grids h, 2h/3, ... ."""
    groups = {}
    for e in eps0s:
        groups[float(e)] = groups.get(float(e), 0) + 1
    h = float(eps0s.min()) / 8
    best = None
    for _ in range(12):
        try:
            up = pld.compose([(_grid_pair(e, h, True), t) for e, t in groups.items()], h, 1e-15)
            lo = pld.compose([(_grid_pair(e, h, False), t) for e, t in groups.items()], h, 1e-15)
        except pld.AccuracyNotReached:
            break
        best = (target(lo, False), target(up, True), h)
        low, high = best[0], best[1]
        if high > 0 and (high - low) / high <= rel_width:
            break
        h *= 0.5
    if best is None:
        raise InvalidParameter("heterogeneous pure-DP composition: the grid budget is too small for these eps0s")
    return best


def optimal_composition_delta(eps0s: Sequence[float], epsilon: float, *,
                              rel_width: float = PLD_RELATIVE_WIDTH) -> DeltaBounds:
    """Certified bracket on the optimal delta(epsilon) of composing eps0_i-DP steps (module docstring)."""
    e, epsilon = _eps0s(eps0s), check_epsilon(epsilon)
    if np.all(e == e[0]):
        d = _kov_delta(float(e[0]), len(e), epsilon)
        return DeltaBounds(d * (1 - _RTOL), min(d * (1 + _RTOL), 1.0), epsilon, "kov", "any", True,
                           {"steps": len(e), "eps0": float(e[0]), "note": "exact (Kairouz-Oh-Viswanath)"})
    low, high, h = _hetero(e, rel_width, lambda c, up: pld._delta_upper(c, epsilon) if up
                           else pld._delta_lower(c, epsilon))
    return DeltaBounds(low, high, epsilon, "pure-dp-grid", "any", True,
                       {"h": h, "note": "heterogeneous: eps0 rounded up / down to the grid (Murtagh-Vadhan)"})


def optimal_composition_epsilon(eps0s: Sequence[float], delta: float, *,
                                rel_width: float = PLD_RELATIVE_WIDTH) -> EpsilonBounds:
    """Certified bracket on the optimal epsilon(delta) of composing eps0_i-DP steps."""
    e, delta = _eps0s(eps0s), check_delta(delta)
    if np.all(e == e[0]):
        eps0, steps = float(e[0]), len(e)
        lo, hi = 0.0, steps * eps0
        if _kov_delta(eps0, steps, 0.0) <= delta:
            return EpsilonBounds(0.0, 0.0, delta, "kov", "any", True, {"steps": steps, "eps0": eps0})
        for _ in range(200):  # bisection on the exact, decreasing profile
            mid = 0.5 * (lo + hi)
            lo, hi = (mid, hi) if _kov_delta(eps0, steps, mid) > delta else (lo, mid)
            if hi - lo <= 1e-12 * hi:
                break
        return EpsilonBounds(lo * (1 - _RTOL), hi * (1 + _RTOL), delta, "kov", "any", True,
                             {"steps": steps, "eps0": eps0, "note": "exact (Kairouz-Oh-Viswanath)"})
    low, high, h = _hetero(e, rel_width, lambda c, up: pld._eps_upper(c, delta) if up
                           else pld._eps_lower(c, delta))
    return EpsilonBounds(low, high, delta, "pure-dp-grid", "any", True,
                         {"h": h, "note": "heterogeneous: eps0 rounded up / down to the grid (Murtagh-Vadhan)"})
