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

from . import pld
from .errors import InvalidParameter
from .precision import PLD_ABSOLUTE_WIDTH, PLD_DELTA_TAIL, PLD_MAX_GRID_POINTS
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


def _compose_order(models: List[StepModel], h: float, tail: float) -> _Composed:
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
        reference = pld.compose([((m.reference or m.upper)(h, per_step_tail), m.steps) for m in models], h, tail)
    return _Composed(pld.compose(upper, h, tail), pld.compose(lower, h, tail), reference)


def _snap(models: List[StepModel], h: float) -> float:
    floors = [m.loss_floor for m in models if m.loss_floor is not None and m.loss_floor < 0]
    if not floors:
        return h
    floor = -floors[0]
    return floor / math.ceil(floor / h - 1e-9)


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

    def bracket_of(order, h):
        b = _compose_order(orders[order], _snap(orders[order], h), tail)
        return pld._eps_lower(b.lower, delta), pld._eps_upper(b.reference or b.upper, delta), b

    first = next(iter(orders.values()))
    low, up, current, history = pld._refine(bracket_of, tuple(orders), rel_width, max_refinements,
                                            pld._initial_step(_Scaled(first), rel_width, delta),
                                            PLD_ABSOLUTE_WIDTH)
    up, per_up = _finish(current, lambda b: pld._eps_upper(b.upper, delta))
    details = {"h": history[-1]["h"], "tail": tail, "refinements": history,
               "orders": {d: {"lower": v[0], "upper": per_up[d]} for d, v in current.items()},
               "seconds": time.perf_counter() - started}
    if any(v[2].reference is not None for v in current.values()):
        details["note"] = (f"the dominating pair differs from the realizable one: the grid is refined to "
                           f"rel_width {rel_width:g} on the realizable pair; the remaining width is the gap "
                           f"between the pairs")
    return EpsilonBounds(low, up, delta, method, adjacency, True, details)


def delta_orders(orders: Dict[str, List[StepModel]], epsilon: float, rel_width: float, *,
                 adjacency: str, method: str, max_refinements: int = 6) -> DeltaBounds:
    """Certified delta bounds at ``epsilon``: max over orders of the composed lower and upper pairs."""
    started = time.perf_counter()

    def bracket_of(order, h):
        b = _compose_order(orders[order], _snap(orders[order], h), PLD_DELTA_TAIL)
        return pld._delta_lower(b.lower, epsilon), pld._delta_upper(b.reference or b.upper, epsilon), b

    first = next(iter(orders.values()))
    low, up, current, history = pld._refine(bracket_of, tuple(orders), rel_width, max_refinements,
                                            pld._initial_step(_Scaled(first), rel_width, 1e-5,
                                                              eps_guess=max(epsilon, 1e-3)),
                                            PLD_DELTA_TAIL)
    up, per_up = _finish(current, lambda b: pld._delta_upper(b.upper, epsilon))
    details = {"h": history[-1]["h"], "tail": PLD_DELTA_TAIL, "refinements": history,
               "orders": {d: {"lower": v[0], "upper": per_up[d]} for d, v in current.items()},
               "seconds": time.perf_counter() - started}
    return DeltaBounds(low, up, epsilon, method, adjacency, True, details)


def check_orders(orders: Dict[str, List[StepModel]]) -> None:
    if not orders or any(not m for m in orders.values()):
        raise InvalidParameter("a schedule needs at least one phase")
