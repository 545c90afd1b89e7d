r"""Step-size schedules :math:`\eta_t` and the clock ``t`` they are evaluated at.

Families (000_d613b97385d90362.txt Table 1 L1832 and L1843; 002_13c470b90c68bab6.txt Table 1 L253):
``constant`` :math:`\eta`, ``inverse_t`` :math:`\eta_0/(1+\beta t)` (strongly convex, :math:`\beta = 0.001`)
and ``inverse_sqrt_t`` :math:`\eta_0/(1+\beta\sqrt t)` (plain convex and non-convex, :math:`\beta = 0.01`).

Clocks (000 E.2.3, L1901-L1909):

* ``diminishing1`` (per iteration): client ``c`` at local step ``h`` of round ``i`` uses
  :math:`\eta_t` with :math:`t = \sum_{j<i} s_j + n\,h`, ``n`` the number of clients, ``s_j`` the total
  size of round ``j`` (the paper's form after assuming equal client sizes, L1903);
* ``diminishing2`` (per round): :math:`\bar\eta_i = \eta_t` at :math:`t = \sum_{j<i} s_j`, held for the
  whole round (000 Lemma B.4 L508; seed 002's Table 1 footnote, L260).
"""
from __future__ import annotations

import math
from typing import Callable

from numerics.errors import InvalidParameter

CLOCKS = ("diminishing1", "diminishing2")


def step_size(kind: str, *, eta0: float, beta: float = 0.0) -> Callable[[float], float]:
    """The map ``t -> eta_t`` of a named family."""
    if not (math.isfinite(eta0) and eta0 > 0):
        raise InvalidParameter(f"eta0 must be a finite number > 0, got {eta0!r}")
    if not (math.isfinite(beta) and beta >= 0):
        raise InvalidParameter(f"beta must be a finite number >= 0, got {beta!r}")
    if kind == "constant":
        return lambda t: eta0
    if kind == "inverse_t":
        return lambda t: eta0 / (1.0 + beta * t)
    if kind == "inverse_sqrt_t":
        return lambda t: eta0 / (1.0 + beta * math.sqrt(t))
    raise InvalidParameter(f"step size kind must be constant, inverse_t or inverse_sqrt_t, got {kind!r}")


def clock(mode: str, *, iterations_before_round: int, local_step: int, n_clients: int) -> int:
    """The ``t`` at which ``eta_t`` is evaluated (see the module docstring)."""
    if mode == "diminishing2":
        return iterations_before_round
    if mode == "diminishing1":
        return iterations_before_round + n_clients * local_step
    raise InvalidParameter(f"clock must be one of {CLOCKS}, got {mode!r}")
