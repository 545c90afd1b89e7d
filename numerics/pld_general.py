r"""Certified two-sided PLD composition of arbitrary per-step grid pairs (any sampling, any noise).

numerics.pld composes the Poisson-subsampled Gaussian; this module composes whatever a mechanism
model (numerics.dominating) hands it. For every *order* (a fixed orientation of the neighbouring pair
over the whole run: ``remove`` and ``add`` under add-remove, one ``replace`` order under replace-one)
each phase supplies two grid PMFs at grid step h:

* ``upper``: a grid pair that **dominates** every pair of output distributions the step can produce
  for that order (every :math:`\alpha \ge 0`: :math:`H_\alpha(M(D)\|M(D')) \le H_\alpha(P\|Q)`), whatever
  the earlier outputs were. By the adaptive composition theorem of Zhu, Dong & Wang 2022
  (AISTATS, arXiv:2106.08567, Thm. 10) the composition of the per-step dominating pairs dominates the
  composed mechanism; so its certified upper epsilon bounds the true one.
* ``lower``: a grid pair that is a **post-processing of a realizable pair** (the output distributions
  of one fixed pair of neighbouring data sets, the same in every step). Composing such pairs gives a
  post-processing of the mechanism run on those two data sets, so its certified lower epsilon is a
  lower bound on the true one.

The composition itself (FFT on a Chernoff window, wrap-around and floating-point noise accounted for,
grid refinement until the relative width is met) is numerics.pld's, reused unchanged: the bound is
the maximum over orders of each side.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Callable, Dict, List

import numpy as np

from . import pld
from .precision import (PLD_ABSOLUTE_WIDTH, PLD_DELTA_ABSOLUTE_WIDTH, PLD_DELTA_TAIL, PLD_MAX_GRID_POINTS,
                        TILT_BELOW_DELTA)
from .results import DeltaBounds, EpsilonBounds

StepBuilder = Callable[[float, float], "pld.GridPLD"]  # (h, per-step tail) -> grid PMF


@dataclass(frozen=True)
class StepModel:
    """One phase for one order: its dominating and realizable grid PMFs, and its number of steps.

    ``scale`` is a Poisson-Gaussian (q, sigma) of similar loss spread, used only to choose the first
    grid step (the refinement corrects it). ``reference``, when the dominating pair is not the
    realizable one: a dominating grid of the *realizable* pair, composed only to measure the grid's
    share of the width (the refinement stops when lower and reference agree to ``rel_width``; the gap
    between the reference and ``upper`` is a property of the pairs, which no grid can close).
    ``loss_floor``: the infimum of the realizable pair's loss when much of its mass sits just above it
    (log(1 - g) for a subsampled remove pair): the grid step is then snapped to a divisor of it, so
    that rounding down to the grid costs almost nothing there (any step is sound; this one is tight).
    """

    upper: StepBuilder
    lower: StepBuilder
    steps: int
    scale: tuple
    reference: StepBuilder | None = None
    loss_floor: float | None = None


@dataclass(frozen=True)
class _Composed:
    upper: "pld.ComposedPLD"
    lower: "pld.ComposedPLD"
    reference: "pld.ComposedPLD | None"


def _compose_order(models: List[StepModel], h: float, tail: float, tilt_delta: float | None = None) -> _Composed:
    total = sum(m.steps for m in models)
    per_step_tail = tail / total
    upper = [(m.upper(h, per_step_tail), m.steps) for m in models]
    lower = [(m.lower(h, per_step_tail), m.steps) for m in models]
    for g, _ in upper + lower:
        if len(g.pmf) > PLD_MAX_GRID_POINTS:
            raise pld.AccuracyNotReached(f"one step's PLD needs {len(g.pmf)} grid points at step h={h:.3g}; "
                                         f"the budget is {PLD_MAX_GRID_POINTS} (PLD_MAX_GRID_POINTS)")
    # each side gets its own Chernoff window (2 tail of wrap-around mass): unlike the Poisson pairs of
    # numerics.pld, a dominating pair need not dominate the realizable one step by step in the lower tail
    reference = None
    if any(m.reference is not None for m in models):
        ref_steps = [((m.reference or m.upper)(h, per_step_tail), m.steps) for m in models]
        reference = _tilted(ref_steps, h, tail, tilt_delta)[0] if tilt_delta else _compose(ref_steps, h, tail)
    if tilt_delta:
        return _Composed(_tilted(upper, h, tail, tilt_delta)[0], _tilted(lower, h, tail, tilt_delta)[1], reference)
    return _Composed(_compose(upper, h, tail), _compose(lower, h, tail), reference)


def _tilted(steps, h: float, tail: float, delta: float):
    """(upper, lower) composed with exponential tilting at the Chernoff exponent of delta."""
    from .pld_tilted import chernoff_lambda, compose_tilted
    hc = h * _COARSEN
    window = (pld._window_side([(_coarse(s, -1), t) for s, t in steps], hc, tail, -1) * _COARSEN,
              pld._window_side([(_coarse(s, +1), t) for s, t in steps], hc, tail, +1) * _COARSEN)
    lam, eps_guess = chernoff_lambda(steps, h, delta)
    mean = sum(t * pld._moments(s, h)[0] for s, t in steps)
    x_floor = max(mean, eps_guess - 40.0 / lam) if eps_guess > mean else mean
    return compose_tilted(steps, h, tail, window, lam, x_floor)


_COARSEN = 64


def _coarse(step: "pld.GridPLD", sign: int) -> "pld.GridPLD":
    """The PMF with every atom moved to the next multiple of _COARSEN grid points in direction ``sign``:
    its log-MGF at sign * lam > 0 is at least the original's, so Chernoff bounds on it stay valid."""
    k = step.k0 + np.arange(len(step.pmf))
    c = np.ceil(k / _COARSEN) if sign > 0 else np.floor(k / _COARSEN)
    c = c.astype(np.int64)
    return pld.GridPLD(int(c[0]), np.bincount(c - c[0], weights=step.pmf), step.inf_mass)


def _compose(steps, h: float, tail: float) -> "pld.ComposedPLD":
    """numerics.pld.compose on its Chernoff window, the window found on coarsened PMFs (64x cheaper)."""
    hc = h * _COARSEN
    lo = pld._window_side([(_coarse(s, -1), t) for s, t in steps], hc, tail, -1) * _COARSEN
    hi = pld._window_side([(_coarse(s, +1), t) for s, t in steps], hc, tail, +1) * _COARSEN
    return pld.compose(steps, h, tail, window=(lo, hi), wrap_mass=2.0 * tail)


def _snap(models: List[StepModel], h: float) -> float:
    floors = [m.loss_floor for m in models if m.loss_floor is not None and m.loss_floor < 0]
    if not floors:
        return h
    floor = -floors[0]
    return floor / math.ceil(floor / h - 1e-9)


def _check_noise(b: _Composed, delta: float) -> None:
    """Refuse a delta that the FFT's floating-point noise could reach: the noise is estimated per entry
    (numerics.pld.compose), not enclosed, so a bracket is reported only when that estimate summed over
    the whole window is below a thousandth of delta."""
    for c in (b.upper, b.lower, b.reference):
        if c is not None and c.noise * len(c.pmf) > 1e-3 * delta:
            raise pld.AccuracyNotReached(f"delta {delta:.3g} is within the FFT's floating-point noise "
                                         f"({c.noise * len(c.pmf):.2g} over the window); not certified")


def _criterion(low: float, ref: float, up: float, rel_width: float) -> float:
    """The 'upper' that pld._refine tests against ``rel_width`` when the pairs have a gap of their own:
    the grid is refined until its share (reference - lower) is below ``rel_width`` or below a tenth
    of the pairs' gap (up - reference), whichever is larger: a finer grid could not move the bracket
    by more than that. Only the stopping rule uses this number; the reported bounds are the true ones.
    """
    if not (math.isfinite(up) and up > 0 and ref > low):
        return ref
    target = max(rel_width, 0.1 * max(up - ref, 0.0) / up)
    return low + (ref - low) * rel_width / target


def _remember(seen: dict, order: str, low: float, up: float, h: float) -> None:
    """Keep, per order, the best lower and upper bound of any grid so far (every one is valid)."""
    if not low <= up * (1 + 1e-12) + 1e-300:
        return  # crossed: floating-point noise; pld._refine refuses this pass
    old_low, old_up = seen.get(order, (-math.inf, math.inf))
    seen[order] = (max(old_low, low), min(old_up, up))


def _best_seen(seen: dict, orders, exc, make):
    """When the requested width is out of reach, the best certified bracket seen, with the reason."""
    if set(seen) != set(orders):
        raise exc
    low, up = max(v[0] for v in seen.values()), max(v[1] for v in seen.values())
    if not (math.isfinite(up) and low <= up):
        raise exc
    b = make(low, up)
    b.details["note"] = f"{exc}; reported: the best certified bracket reached"
    b.details["orders"] = {d: {"lower": v[0], "upper": v[1]} for d, v in seen.items()}
    return b


def _finish(current, side):
    """Max over orders of ``side`` (a function of the composed order) and the per-order values."""
    per = {d: side(v[2]) for d, v in current.items()}
    return max(per.values()), per


class _Scaled:
    """Stand-in schedule for pld._initial_step: phases with a q, a sigma and a step count."""

    def __init__(self, models: List[StepModel]):
        self.phases = [type("P", (), {"q": m.scale[0], "sigma": m.scale[1], "steps": m.steps})()
                       for m in models]
        self.total_steps = sum(m.steps for m in models)


def epsilon_orders(orders: Dict[str, List[StepModel]], delta: float, rel_width: float, *,
                   adjacency: str, method: str, max_refinements: int = 6) -> EpsilonBounds:
    """Certified epsilon bounds at ``delta``: max over orders of the composed lower and upper pairs."""
    tail = delta * rel_width * 1e-6
    started = time.perf_counter()

    seen: dict = {}

    def bracket_of(order, h):
        b = _compose_order(orders[order], _snap(orders[order], h), tail,
                           delta if delta < TILT_BELOW_DELTA else None)
        _check_noise(b, delta)
        low, true_up = pld._eps_lower(b.lower, delta), pld._eps_upper(b.upper, delta)
        _remember(seen, order, low, true_up, h)
        if b.reference is None:
            return low, true_up, b
        return low, _criterion(low, pld._eps_upper(b.reference, delta), true_up, rel_width), b

    first = next(iter(orders.values()))
    try:
        low, up, current, history = pld._refine(bracket_of, tuple(orders), rel_width, max_refinements,
                                                pld._initial_step(_Scaled(first), rel_width, delta),
                                                PLD_ABSOLUTE_WIDTH)
    except pld.AccuracyNotReached as exc:
        return _best_seen(seen, orders, exc, lambda lo, hi: EpsilonBounds(
            lo, hi, delta, method, adjacency, True, {"tail": tail, "seconds": time.perf_counter() - started}))
    up, per_up = _finish(current, lambda b: pld._eps_upper(b.upper, delta))
    details = {"h": history[-1]["h"], "tail": tail, "refinements": history,
               "orders": {d: {"lower": v[0], "upper": per_up[d]} for d, v in current.items()},
               "seconds": time.perf_counter() - started}
    if any(v[2].reference is not None for v in current.values()):
        # where the realizable pair itself lies (its composition in one fixed order): the lower bound
        # and the reference's certified upper bound bracket it
        details["realizable_pair"] = {d: {"lower": v[0], "upper": pld._eps_upper(v[2].reference, delta)}
                                      for d, v in current.items() if v[2].reference is not None}
        details["note"] = (f"the dominating pair differs from the realizable one: the grid is refined on "
                           f"the realizable pair to rel_width {rel_width:g} or a tenth of the gap between "
                           f"the pairs; that gap is the rest of the width (no grid can close it)")
    return EpsilonBounds(low, up, delta, method, adjacency, True, details)


def delta_orders(orders: Dict[str, List[StepModel]], epsilon: float, rel_width: float, *,
                 adjacency: str, method: str, max_refinements: int = 6) -> DeltaBounds:
    """Certified delta bounds at ``epsilon``: max over orders of the composed lower and upper pairs."""
    started = time.perf_counter()
    seen: dict = {}

    def bracket_of(order, h):
        b = _compose_order(orders[order], _snap(orders[order], h), PLD_DELTA_TAIL)
        # delta itself may be tiny: widen both sides by the FFT noise summed over the window instead
        slack = max(c.noise * len(c.pmf) for c in (b.upper, b.lower))
        low = max(pld._delta_lower(b.lower, epsilon) - slack, 0.0)
        ref = min(pld._delta_upper(b.reference or b.upper, epsilon) + slack, 1.0)
        true_up = min(pld._delta_upper(b.upper, epsilon) + slack, 1.0)
        _remember(seen, order, low, true_up, h)
        if b.reference is None:
            return low, ref, b
        return low, _criterion(low, ref, true_up, rel_width), b

    first = next(iter(orders.values()))
    try:
        low, up, current, history = pld._refine(bracket_of, tuple(orders), rel_width, max_refinements,
                                                pld._initial_step(_Scaled(first), rel_width, 1e-5,
                                                                  eps_guess=max(epsilon, 1e-3)),
                                                PLD_DELTA_ABSOLUTE_WIDTH)
    except pld.AccuracyNotReached as exc:
        return _best_seen(seen, orders, exc, lambda lo, hi: DeltaBounds(
            lo, hi, epsilon, method, adjacency, True, {"seconds": time.perf_counter() - started}))
    up, per_up = _finish(current, lambda b: min(pld._delta_upper(b.upper, epsilon) + max(
        c.noise * len(c.pmf) for c in (b.upper, b.lower)), 1.0))
    details = {"h": history[-1]["h"], "tail": PLD_DELTA_TAIL, "refinements": history,
               "orders": {d: {"lower": v[0], "upper": per_up[d]} for d, v in current.items()},
               "seconds": time.perf_counter() - started}
    return DeltaBounds(low, up, epsilon, method, adjacency, True, details)
