r"""Poisson-subsampled Gaussian steps under replace-one: the +-1 pair is a dominating pair (issue 25 item 4).

For rate q and noise multiplier sigma (clip norm 1) every step of every replace-one pair of data sets,
given the history and whatever the adversary's gradient map, is a Blackwell garbling of

    R_q = ( (1-q) N(0, sigma^2) + q N(1, sigma^2),  (1-q) N(0, sigma^2) + q N(-1, sigma^2) ),

the ``replace`` pair of numerics.pld_pairs, which is itself realised (the differing records' clipped
gradients are opposite unit vectors, every other record's gradient is 0). Proof in docs/replace_one.md
section 6: (a) the other records' contribution is a public coin, leaving
:math:`K(u, v) = ((1-q)N(0) + qN(u), (1-q)N(0) + qN(v))`, :math:`|u|, |v| \le 1`; (b) a contraction
reduces it to unit u, v; (c) for unit vectors at correlation :math:`\rho = \langle u, v\rangle` the
hockey-stick divergence is nonincreasing in :math:`\rho` (Price's theorem: the interior terms cancel and
the remaining boundary term is negative), so :math:`\rho = -1`, the +-1 pair, is the worst, for every
alpha. By the adaptive composition theorem (Dong, Roth, Su 2022, Sec. 3) the T-step transcript is
dominated by :math:`R_q^{\otimes T}`, which is realizable: the answer is the composition of the +-1 pair,
exactly, and the bracket below is only the discretisation's (numerics.pld's connect-the-dots upper and
interval-quantised lower grids of the ``replace`` pair).

Wiring: ``numerics.pld.epsilon_pld`` for ``adjacency == "replace-one"`` may return
:func:`poisson_replace_one_epsilon` instead of ``_replace_one_eps`` (import it inside the function:
this module imports numerics.pld).
"""
from __future__ import annotations

import time

from .errors import InvalidParameter, check_delta, check_epsilon
from .pld import (_check_rel_width, _compose_direction, _delta_lower, _delta_upper, _eps_lower, _eps_upper,
                  _initial_step, _refine, _validate_schedule)
from .precision import PLD_ABSOLUTE_WIDTH, PLD_DELTA_TAIL, PLD_RELATIVE_WIDTH
from .results import DeltaBounds, EpsilonBounds


def _poisson_schedule(schedule):
    schedule = _validate_schedule(schedule)
    if schedule.adjacency != "replace-one":
        raise InvalidParameter(f"adjacency must be 'replace-one' here, got {schedule.adjacency!r}")
    return schedule


def poisson_replace_one_epsilon(schedule, delta: float, *, rel_width: float = PLD_RELATIVE_WIDTH,
                                max_refinements: int = 8) -> EpsilonBounds:
    r"""Certified bounds on the optimal epsilon at ``delta`` of a Poisson schedule under replace-one, with
    ``(upper - lower) / upper <= rel_width``: the +-1 pair composed (module docstring), adaptive
    adversaries included. ``details``: grid step ``h``, ``refinements``, ``seconds``."""
    schedule = _poisson_schedule(schedule)
    delta = check_delta(delta)
    rel_width = _check_rel_width(rel_width)
    tail = delta * rel_width * 1e-6
    started = time.perf_counter()

    def bracket_of(direction, h):
        b = _compose_direction(schedule, direction, h, tail)
        return _eps_lower(b.lower, delta), _eps_upper(b.upper, delta), b

    low, up, _, history = _refine(bracket_of, ("replace",), rel_width, max_refinements,
                                  _initial_step(schedule, rel_width, delta) / 2.0, PLD_ABSOLUTE_WIDTH)
    details = {"h": history[-1]["h"], "tail": tail, "refinements": history,
               "pair": "+-1 (replace), proven dominating: docs/replace_one.md section 6",
               "seconds": time.perf_counter() - started}
    return EpsilonBounds(low, up, delta, "pld", "replace-one", True, details)


def poisson_replace_one_delta(schedule, epsilon: float, *, rel_width: float = PLD_RELATIVE_WIDTH,
                              max_refinements: int = 8) -> DeltaBounds:
    r"""Certified bounds on the optimal delta at ``epsilon`` (same pair as
    :func:`poisson_replace_one_epsilon`); mass outside the grid is :data:`PLD_DELTA_TAIL` per side."""
    schedule = _poisson_schedule(schedule)
    epsilon = check_epsilon(epsilon)
    rel_width = _check_rel_width(rel_width)
    started = time.perf_counter()

    def bracket_of(direction, h):
        b = _compose_direction(schedule, direction, h, PLD_DELTA_TAIL)
        return _delta_lower(b.lower, epsilon), _delta_upper(b.upper, epsilon), b

    low, up, _, history = _refine(bracket_of, ("replace",), rel_width, max_refinements,
                                  _initial_step(schedule, rel_width, 1e-5, eps_guess=max(epsilon, 1e-3)) / 2.0)
    details = {"h": history[-1]["h"], "tail": PLD_DELTA_TAIL, "refinements": history,
               "seconds": time.perf_counter() - started}
    return DeltaBounds(low, up, epsilon, "pld", "replace-one", True, details)
