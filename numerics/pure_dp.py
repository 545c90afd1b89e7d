r"""Optimal composition of pure :math:`\varepsilon_0`-DP steps (Kairouz, Oh & Viswanath; Murtagh & Vadhan).

Every :math:`\varepsilon_0`-DP mechanism is a post-processing of randomized response RR(:math:`\varepsilon_0`),
the pair :math:`P = (e^{\varepsilon_0}, 1)/(1+e^{\varepsilon_0})`, :math:`Q = (1, e^{\varepsilon_0})/(1+e^{\varepsilon_0})`
(Kairouz, Oh, Viswanath 2017, IEEE TIT, "The composition theorem for differential privacy",
Thm. 3.3 and its proof; the pair dominates both orders, so it composes adaptively), and RR itself is
:math:`\varepsilon_0`-DP, so composing RR pairs is exactly the optimal composition.

* **Homogeneous** (:func:`optimal_composition_delta` with equal :math:`\varepsilon_0`): with i the number of
  steps answering the "P side", the loss is :math:`(2i - T)\varepsilon_0` and
  :math:`\delta(\varepsilon) = (1+e^{\varepsilon_0})^{-T}\sum_i \binom{T}{i}(e^{i\varepsilon_0} - e^{\varepsilon + (T-i)\varepsilon_0})_+`
  (KOV Thm. 3.3). The returned bounds are the ends of an Arb ball of that sum (:func:`_kov_delta_ball`):
  the binomials are exact integers, which losses exceed epsilon is decided in exact rational arithmetic,
  and every exp and expm1 is Arb's (rigorous); epsilon is bisected on the double-precision sum (which only
  steers) and each end is checked on the ball and moved outward until it passes
  (numerics.proven_ends.proven_end). Until issue 29's audit (helper A29C) the double value was widened by a relative 1e-9, which
  bounds nothing: the float loss (2i - T) eps0 is off by an ulp, and at eps0 = 0.1, T = 3, epsilon = 0.3
  the computed delta (8.03e-18) was twice the exact one (4.02e-18), so the "lower" end was above the truth.
* **Heterogeneous** :math:`\varepsilon_i`: exact evaluation is #P-hard (Murtagh & Vadhan 2016, TCC). A
  certified bracket: round every :math:`\varepsilon_i` up (down) to a multiple of a grid step h; RR of a
  larger :math:`\varepsilon'` dominates RR of a smaller :math:`\varepsilon` (flipping the answer with
  probability p turns RR(:math:`\varepsilon'`) into RR with likelihood ratio
  :math:`(e^{\varepsilon'}(1-p)+p)/(e^{\varepsilon'}p+1-p)`, which runs continuously from
  :math:`e^{\varepsilon'}` at p = 0 to 1 at p = 1/2), so the rounded-up grid pairs give an upper
  bound and the rounded-down ones a lower bound; both are composed exactly on the grid by
  numerics.pld's FFT (with its wrap-around and rounding accounting). The grid index k is chosen in exact
  rational arithmetic (k h >= eps0 up, <= eps0 down: the former float ``ceil(eps0/h - 1e-12)`` put k h an
  ulp below eps0 in 1 of 10 random cases) and the two masses of RR(k h) are the upper (lower) ends of Arb
  balls: a pointwise larger (smaller) measure only raises (lowers) delta at every epsilon. h halves until the relative width
  is met or the budget ends (then the bracket is returned as it is, with its width).
"""
from __future__ import annotations

import math
from fractions import Fraction
from typing import Sequence

import numpy as np
from scipy.special import gammaln, logsumexp

from . import pld
from .enclose import ball_to_floats, up
from .errors import InvalidParameter, check_delta, check_epsilon
from .proven_ends import bisect_monotone, proven_end, tight_end
from .precision import PLD_RELATIVE_WIDTH
from .results import DeltaBounds, EpsilonBounds


def _eps0s(eps0s) -> np.ndarray:
    e = np.atleast_1d(np.asarray(eps0s, dtype=float))
    if e.ndim != 1 or e.size == 0 or not np.all(np.isfinite(e)) or np.any(e <= 0):
        raise InvalidParameter(f"eps0s must be a non-empty sequence of finite numbers > 0, got {eps0s!r}")
    return e


def _kov_delta(eps0: float, steps: int, eps: float) -> float:
    """KOV's delta(eps) in double precision, summed in log space: it only steers the bisection of
    :func:`optimal_composition_epsilon` (every returned end is checked on :func:`_kov_delta_ball`)."""
    i = np.arange(steps + 1)
    loss = (2 * i - steps) * eps0
    keep = loss > eps
    if not keep.any():
        return 0.0
    i = i[keep]
    log_p = gammaln(steps + 1) - gammaln(i + 1) - gammaln(steps - i + 1) + i * eps0 \
        - steps * np.logaddexp(0.0, eps0)
    return float(np.exp(logsumexp(log_p + np.log(-np.expm1(eps - loss[keep])))))


def _kov_delta_ball(eps0: float, steps: int, eps: float):
    """KOV's delta(eps) of ``steps`` eps0-DP steps (module docstring) as an Arb ball at the working precision.

    Exact: the binomials (Python integers, updated by C(T, i+1) = C(T, i) (T - i) / (i + 1)) and the set of
    losses above eps (i > (eps/eps0 + T)/2 in fractions); rigorous: every Arb operation. A loss equal to
    eps contributes 0, so only i above that threshold are summed."""
    from flint import arb
    first = max(math.floor((Fraction(eps) / Fraction(eps0) + steps) / 2) + 1, 0)
    a0, ae = arb(eps0), arb(eps)
    total, comb = arb(0), math.comb(steps, first) if first <= steps else 0
    for i in range(first, steps + 1):
        total += arb(comb) * (i * a0).exp() * -(ae - (2 * i - steps) * a0).expm1()
        comb = comb * (steps - i) // (i + 1)
    return total / (1 + a0.exp()) ** steps


def _kov_delta_ends(eps0: float, steps: int, eps: float) -> tuple[float, float]:
    """Floats below and above KOV's exact delta(eps) (:func:`_kov_delta_ball`), in [0, 1]."""
    lo = max(tight_end(lambda: _kov_delta_ball(eps0, steps, eps), "lower"), 0.0)
    return lo, min(tight_end(lambda: _kov_delta_ball(eps0, steps, eps), "upper"), 1.0)


def _grid_pair(eps0: float, h: float, up_side: bool) -> "pld.GridPLD":
    """RR(k h) on the grid, k h >= eps0 (``up_side``) or <= eps0, decided exactly; masses the upper (lower)
    ends of their Arb balls (module docstring)."""
    from flint import arb
    ratio = Fraction(eps0) / Fraction(h)
    k = math.ceil(ratio) if up_side else max(math.floor(ratio), 0)
    if k == 0:
        return pld.GridPLD(0, np.array([1.0]), 0.0)
    e = arb(h) * k  # exact: k h needs at most 53 + log2(k) bits
    side = 1 if up_side else 0
    pmf = np.zeros(2 * k + 1)
    pmf[0] = ball_to_floats(1 / (1 + e.exp()))[side]
    pmf[-1] = ball_to_floats(1 / (1 + (-e).exp()))[side]
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
        low, high = _kov_delta_ends(float(e[0]), len(e), epsilon)
        return DeltaBounds(low, high, epsilon, "kov", "any", True,
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
        if _kov_delta_ends(eps0, steps, 0.0)[1] <= delta:
            return EpsilonBounds(0.0, 0.0, delta, "kov", "any", True, {"steps": steps, "eps0": eps0})
        # the float sum steers a bisection; each end is then proven on the Arb ball (module docstring);
        # at the basic composition T eps0 no loss exceeds epsilon, so delta is 0 there
        top = float(up(up(steps * eps0)))
        lo, hi = bisect_monotone(lambda x: _kov_delta(eps0, steps, x) <= delta, 0.0, top)
        low = proven_end(lo, lambda x: _kov_delta_ends(eps0, steps, x)[0] > delta, -1.0, 0.0)
        high = proven_end(hi, lambda x: _kov_delta_ends(eps0, steps, x)[1] <= delta, 1.0, top)
        return EpsilonBounds(low, high, delta, "kov", "any", True,
                             {"steps": steps, "eps0": eps0, "note": "exact (Kairouz-Oh-Viswanath)"})
    low, high, h = _hetero(e, rel_width, lambda c, up: pld._eps_upper(c, delta) if up
                           else pld._eps_lower(c, delta))
    return EpsilonBounds(low, high, delta, "pure-dp-grid", "any", True,
                         {"h": h, "note": "heterogeneous: eps0 rounded up / down to the grid (Murtagh-Vadhan)"})
