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

The composition itself (FFT on a Chernoff window, wrap-around and the proven bound on the FFT's
rounding accounted for, exponential tilting where that bound would swamp delta, grid refinement until
the relative width is met) is numerics.pld's: the bound is the maximum over orders of each side, and
every order's own bracket is checked for a crossing (numerics.pld._refine, no tolerance).

``certified`` is True only if no phase of any order names an unbounded rounding
(``StepModel.unbounded_rounding``, set by numerics.dominating where a grid keeps double-precision
arithmetic: the symmetrised pair of fixed-size and with-replacement replace-one);
otherwise the bracket is returned with ``certified=False``, ``details["unbounded_rounding"]`` and a note
(:func:`_label`; docs/certified.md, "What is not enclosed").
"""
from __future__ import annotations

import dataclasses
import math
import time
from dataclasses import dataclass
from typing import Callable, Dict, List


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
    #: which rounding of this phase's grids no argument bounds (None: every one is bounded, docs/certified.md);
    #: a result composed from such a phase says so and is not ``certified`` (issue 29)
    unbounded_rounding: str | None = None


@dataclass(frozen=True)
class _Composed:
    upper: "pld.ComposedPLD"
    lower: "pld.ComposedPLD"
    reference: "pld.ComposedPLD | None"
    tilted: bool = False


def _grids(models: List[StepModel], h: float, tail: float):
    """The per-step grid PMFs (upper, lower, reference or None) of one order at grid step h."""
    total = sum(m.steps for m in models)
    per_step_tail = tail / total
    upper = [(m.upper(h, per_step_tail), m.steps) for m in models]
    lower = [(m.lower(h, per_step_tail), m.steps) for m in models]
    for g, _ in upper + lower:
        if len(g.pmf) > PLD_MAX_GRID_POINTS:
            raise pld.AccuracyNotReached(f"one step's PLD needs {len(g.pmf)} grid points at step h={h:.3g}; "
                                         f"the budget is {PLD_MAX_GRID_POINTS} (PLD_MAX_GRID_POINTS)")
    reference = None
    if any(m.reference is not None for m in models):
        reference = [((m.reference or m.upper)(h, per_step_tail), m.steps) for m in models]
    return upper, lower, reference


def _compose_grids(grids, h: float, tail: float, tilt: dict | None) -> _Composed:
    """Compose each side; ``tilt`` ({"delta": d} or {"epsilon": e}) composes with exponential tilting
    (numerics.pld_tilted). Each side gets its own Chernoff window (2 tail of wrap-around mass): unlike
    the Poisson pairs of numerics.pld, a dominating pair need not dominate the realizable one step by
    step in the lower tail."""
    upper, lower, ref_steps = grids
    if tilt:
        from .pld_tilted import tilted
        reference = tilted(ref_steps, h, tail, **tilt)[0] if ref_steps else None
        return _Composed(tilted(upper, h, tail, **tilt)[0], tilted(lower, h, tail, **tilt)[1], reference, True)
    reference = _compose(ref_steps, h, tail) if ref_steps else None
    return _Composed(_compose(upper, h, tail), _compose(lower, h, tail), reference)


def _compose_order(models: List[StepModel], h: float, tail: float, tilt: dict, swamped: "pld.Swamped") -> _Composed:
    """The order composed plainly, or with tilting when ``tilt`` asks for it (delta below
    TILT_BELOW_DELTA) or when the plain composition's proven rounding bound swamps the answer."""
    grids = _grids(models, h, tail)
    if tilt.get("delta", 1.0) < TILT_BELOW_DELTA or swamped.tilt_only is None:
        return _compose_grids(grids, h, tail, tilt)
    b = _compose_grids(grids, h, tail, None)
    return _compose_grids(grids, h, tail, tilt) if swamped(b) else b


def _compose(steps, h: float, tail: float) -> "pld.ComposedPLD":
    """numerics.pld.compose on its Chernoff window, the window found on coarsened PMFs (64x cheaper)."""
    from .pld_tilted import coarse_window
    return pld.compose(steps, h, tail, window=coarse_window(steps, h, tail), wrap_mass=2.0 * tail)


def _snap(models: List[StepModel], h: float) -> float:
    """h snapped to a divisor of the loss floor of the phase with the largest loss variance (the one
    whose rounding down to the grid matters; a short, very private first phase must not set the grid)."""
    floored = [m for m in models if m.loss_floor is not None and m.loss_floor < 0]
    if not floored:
        return h
    floor = -max(floored, key=_weight).loss_floor
    return floor / math.ceil(floor / h - 1e-9)


def _weight(m: StepModel) -> float:
    q, sigma = m.scale
    return m.steps * min(sigma ** -2, q ** 2 * math.expm1(min(sigma ** -2, 700.0)))


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
    if not low <= up:
        return  # crossed (a defect: every rounding is bounded); pld._refine refuses this pass
    old_low, old_up = seen.get(order, (-math.inf, math.inf))
    seen[order] = (max(old_low, low), min(old_up, up))


def _best_seen(seen: dict, orders, exc, make):
    """When the requested width is out of reach, the best certified bracket seen, with the reason."""
    if set(seen) != set(orders) or isinstance(exc, pld.CrossedBracket):
        raise exc  # a crossing in a finer grid is a defect: the coarser grids' brackets are not reported
    low, up = max(v[0] for v in seen.values()), max(v[1] for v in seen.values())
    if not (math.isfinite(up) and low <= up) or any(v[0] > v[1] for v in seen.values()):
        raise exc  # a crossing across grids, in any order, is a defect too: never reported
    b = make(low, up)
    b.details["note"] = f"{exc}; reported: the best certified bracket reached"
    b.details["orders"] = {d: {"lower": v[0], "upper": v[1]} for d, v in seen.items()}
    return b


def _unbounded(orders) -> list:
    """The unbounded roundings of every phase of every order (StepModel.unbounded_rounding), once each."""
    return sorted({m.unbounded_rounding for ms in orders.values() for m in ms if m.unbounded_rounding})


def _label(b, orders):
    """``b`` with certified = False and a note naming every rounding that no argument bounds, if any."""
    unbounded = _unbounded(orders)
    if not unbounded:
        return b
    b.details["unbounded_rounding"] = unbounded
    text = "not certified: no bound on the rounding of " + "; ".join(unbounded) + " (docs/certified.md)"
    b.details["note"] = f"{b.details['note']}; {text}" if b.details.get("note") else text
    return dataclasses.replace(b, certified=False)


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

    # redo a plain composition tilted where its rounding bound swamps the target (pld.eps_swamp_test)
    swamped = pld.Swamped(pld.eps_swamp_test(delta, rel_width))

    def bracket_of(order, h):
        b = _compose_order(orders[order], _snap(orders[order], h), tail, {"delta": delta}, swamped)
        low, true_up = pld._eps_lower(b.lower, delta), pld._eps_upper(b.upper, delta)
        _remember(seen, order, low, true_up, h)
        if b.reference is None:
            return low, true_up, b
        return low, _criterion(low, pld._eps_upper(b.reference, delta), true_up, rel_width), b

    first = next(iter(orders.values()))
    try:
        low, up, current, history = pld._refine(bracket_of, tuple(orders), rel_width, max_refinements,
                                                pld._initial_step(_Scaled(first), rel_width, delta,
                                                                  rounded_lower=True),
                                                PLD_ABSOLUTE_WIDTH)
    except pld.AccuracyNotReached as exc:
        return _label(_best_seen(seen, orders, exc, lambda lo, hi: EpsilonBounds(
            lo, hi, delta, method, adjacency, True, {"tail": tail, "seconds": time.perf_counter() - started})), orders)
    up, per_up = _finish(current, lambda b: pld._eps_upper(b.upper, delta))
    details = {"h": history[-1]["h"], "tail": tail, "refinements": history,
               "orders": {d: {"lower": v[0], "upper": per_up[d]} for d, v in current.items()},
               "tilted": {d: v[2].tilted for d, v in current.items()},
               "seconds": time.perf_counter() - started}
    if any(v[2].reference is not None for v in current.values()):
        # where the realizable pair itself lies (its composition in one fixed order): the lower bound
        # and the reference's certified upper bound bracket it
        details["realizable_pair"] = {d: {"lower": v[0], "upper": pld._eps_upper(v[2].reference, delta)}
                                      for d, v in current.items() if v[2].reference is not None}
        details["note"] = (f"the dominating pair differs from the realizable one: the grid is refined on "
                           f"the realizable pair to rel_width {rel_width:g} or a tenth of the gap between "
                           f"the pairs; that gap is the rest of the width (no grid can close it)")
    return _label(EpsilonBounds(low, up, delta, method, adjacency, True, details), orders)


def delta_orders(orders: Dict[str, List[StepModel]], epsilon: float, rel_width: float, *,
                 adjacency: str, method: str, max_refinements: int = 6) -> DeltaBounds:
    """Certified delta bounds at ``epsilon``: max over orders of the composed lower and upper pairs."""
    started = time.perf_counter()
    seen: dict = {}

    # redo a plain composition tilted where its rounding bound swamps the target (pld.delta_swamp_test)
    swamped = pld.Swamped(pld.delta_swamp_test(epsilon, rel_width))

    def bracket_of(order, h):
        # every side carries its proven rounding bound (pld._delta_lower/_delta_upper); where that bound
        # would swamp delta the order is composed again with tilting at epsilon (numerics.pld_tilted)
        b = _compose_order(orders[order], _snap(orders[order], h), PLD_DELTA_TAIL, {"epsilon": epsilon}, swamped)
        low = pld._delta_lower(b.lower, epsilon)
        ref = pld._delta_upper(b.reference or b.upper, epsilon)
        true_up = pld._delta_upper(b.upper, epsilon)
        _remember(seen, order, low, true_up, h)
        if b.reference is None:
            return low, ref, b
        return low, _criterion(low, ref, true_up, rel_width), b

    first = next(iter(orders.values()))
    try:
        low, up, current, history = pld._refine(bracket_of, tuple(orders), rel_width, max_refinements,
                                                pld._initial_step(_Scaled(first), rel_width, 1e-5,
                                                                  eps_guess=max(epsilon, 1e-3), rounded_lower=True),
                                                PLD_DELTA_ABSOLUTE_WIDTH)
    except pld.AccuracyNotReached as exc:
        return _label(_best_seen(seen, orders, exc, lambda lo, hi: DeltaBounds(
            lo, hi, epsilon, method, adjacency, True, {"seconds": time.perf_counter() - started})), orders)
    up, per_up = _finish(current, lambda b: pld._delta_upper(b.upper, epsilon))
    details = {"h": history[-1]["h"], "tail": PLD_DELTA_TAIL, "refinements": history,
               "orders": {d: {"lower": v[0], "upper": per_up[d]} for d, v in current.items()},
               "tilted": {d: v[2].tilted for d, v in current.items()},
               "seconds": time.perf_counter() - started}
    pld.note_absolute_width(details, low, up, rel_width, PLD_DELTA_ABSOLUTE_WIDTH)
    return _label(DeltaBounds(low, up, epsilon, method, adjacency, True, details), orders)
