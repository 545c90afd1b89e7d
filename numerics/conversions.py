r"""RDP -> (epsilon, delta): an upper bound on epsilon (or delta) from the RDP curve of a schedule.

If a mechanism is :math:`(\alpha, \rho)`-RDP then it is :math:`(\varepsilon, \delta)`-DP with

* classic (Mironov 2017, arXiv:1702.07476, Prop. 3):
  :math:`\varepsilon = \rho + \log(1/\delta)/(\alpha-1)`;
* improved (Balle, Barthe, Gaboardi, Hsu, Sato 2020, arXiv:1905.09982, Thm. 21; Canonne, Kamath,
  Steinke 2020, arXiv:2004.00010, Prop. 12):
  :math:`\varepsilon = \rho + \log((\alpha-1)/\alpha) - (\log\delta + \log\alpha)/(\alpha-1)`,
  which is below the classic value at every order (the difference is
  :math:`\log(1-1/\alpha) - \log(\alpha)/(\alpha-1) < 0`).

Every order gives a valid bound, so any order choice is sound; the optimiser only affects tightness.
Integer orders of the grid are all evaluated (they are exact binomial sums and cheap); fractional grid
orders (each an accelerated infinite series) are visited by a descent along the grid from the best
integer order. The conversion curve is unimodal in practice, so the orders skipped cannot win; if it
were not, the bound would only be looser, never optimistic.
"""
from __future__ import annotations

import math
from typing import Iterable, Sequence

import mpmath

from scipy import optimize

from .errors import InvalidParameter, check_delta, check_epsilon, check_order
from .precision import DEFAULT_RDP_ORDERS, RDP_CONVERSION_DPS
from .rdp import rdp_epsilon_order
from .results import DeltaBounds, EpsilonBounds
from .schedule import Schedule, require_poisson_gaussian

CONVERSIONS = ("improved", "classic")
_EVALUATED = "integer grid + descent over fractional"


def _upper(terms) -> mpmath.mpf:
    """Sum of ``terms`` plus an absolute bound on its rounding error, so the result is an upper bound.

    rho comes from log A evaluated to ``RDP_CONVERSION_DPS`` digits and the other terms are computed at
    that precision, so each term is off by at most about 10^(1 - dps) of its magnitude; the sum may
    cancel (epsilon much smaller than its terms), hence a bound on the *terms'* magnitudes, not the
    sum's. 10^(2 - dps) leaves a factor 10 spare.
    """
    return mpmath.fsum(terms) + mpmath.mpf(10) ** (2 - RDP_CONVERSION_DPS) * mpmath.fsum(abs(t) for t in terms)


def _epsilon_at_order(rho, order, log_delta, conversion: str):
    """Upper bound on epsilon at one order (mpf in, mpf out)."""
    a = mpmath.mpf(order)
    if conversion == "classic":
        return _upper([rho, -log_delta / (a - 1)])
    return _upper([rho, mpmath.log((a - 1) / a), -log_delta / (a - 1), -mpmath.log(a) / (a - 1)])


def _log_delta_at_order(rho, order, epsilon, conversion: str):
    """Upper bound on log delta at one order: the two formulas above solved for delta."""
    a = mpmath.mpf(order)
    if conversion == "classic":
        return _upper([(a - 1) * rho, -(a - 1) * epsilon])
    return _upper([(a - 1) * rho, -(a - 1) * epsilon, (a - 1) * mpmath.log((a - 1) / a), -mpmath.log(a)])


def _check_inputs(schedule, orders, conversion) -> list:
    if not isinstance(schedule, Schedule):
        raise InvalidParameter(f"schedule must be a numerics.schedule.Schedule, got {type(schedule).__name__}")
    require_poisson_gaussian(schedule, "numerics.conversions (RDP)")
    if conversion not in CONVERSIONS:
        raise InvalidParameter(f"conversion must be one of {CONVERSIONS}, got {conversion!r}")
    grid = sorted({check_order(a, "orders") for a in (DEFAULT_RDP_ORDERS if orders is None else orders)})
    if not grid:
        raise InvalidParameter("orders must contain at least one Renyi order > 1, got none")
    return grid


def _minimise_over_grid(objective, grid: Sequence[float]):
    """(best value, best order) of ``objective`` over the sorted ``grid``.

    Every integer order is evaluated; then, from the best integer order, a descent along the grid
    evaluates neighbouring (fractional) orders while the objective decreases. A grid without integer
    orders is evaluated in full. Any evaluated order is a valid bound, so a non-unimodal curve could
    only make the answer looser, never optimistic.
    """
    values = {a: objective(a) for a in grid if float(a).is_integer()}
    if not values:
        values = {a: objective(a) for a in grid}
    index = grid.index(min(values, key=values.get))
    for step in (-1, 1):
        j = index
        while 0 <= j + step < len(grid):
            nxt = grid[j + step]
            if nxt not in values:
                values[nxt] = objective(nxt)
            if values[nxt] >= values[grid[j]]:
                break
            j += step
    best = min(values, key=values.get)
    return values[best], best


def _refine(objective, grid: Sequence[float], best: float, value):
    """Continuous 1-d refinement of the order between the grid neighbours of ``best`` (bounded Brent).
    Returns (value, order); keeps the grid answer unless the refined order is strictly better."""
    i = grid.index(best)
    lo, hi = grid[max(i - 1, 0)], grid[min(i + 1, len(grid) - 1)]
    if hi - lo <= 0:
        return value, best
    found = optimize.minimize_scalar(lambda a: float(objective(a)), bounds=(lo, hi), method="bounded",
                                     options={"xatol": 1e-3 * best})
    refined = objective(float(found.x))
    return (refined, float(found.x)) if refined < value else (value, best)


def _round_up(x) -> float:
    f = float(x)
    return math.nextafter(f, math.inf) if mpmath.mpf(f) < x else f


def _details(best, grid, conversion, evaluated_orders: str, refined: bool) -> dict:
    at_edge = best in (grid[0], grid[-1]) and len(grid) > 1
    details = {"order": float(best), "conversion": conversion, "order_at_grid_edge": bool(at_edge),
               "orders_evaluated": evaluated_orders, "refined": refined}
    if at_edge:
        details["warning"] = (f"optimal order {best} is at the edge of the order grid "
                              f"[{grid[0]}, {grid[-1]}]; extend the grid for a tighter bound")
    return details


def epsilon_rdp(schedule: Schedule, delta: float, *, orders: Iterable[float] | None = None,
                conversion: str = "improved", refine: bool = False) -> EpsilonBounds:
    r"""Certified upper bound on :math:`\varepsilon(\delta)` of ``schedule`` from its RDP curve.

    ``epsilon_lower`` is 0 (RDP gives no lower bound). ``details["order"]`` is the order used;
    ``refine=True`` also searches the continuum of orders between the best grid order's neighbours.
    """
    delta = check_delta(delta)
    grid = _check_inputs(schedule, orders, conversion)
    with mpmath.workdps(RDP_CONVERSION_DPS):
        log_delta = mpmath.log(mpmath.mpf(delta))

        def objective(order):
            rho = rdp_epsilon_order(schedule, order, dps=RDP_CONVERSION_DPS)
            return _epsilon_at_order(rho, order, log_delta, conversion)

        value, best = _minimise_over_grid(objective, grid)
        if refine:
            value, best = _refine(objective, grid, best, value)
        epsilon_upper = max(0.0, _round_up(value))
    return EpsilonBounds(epsilon_lower=0.0, epsilon_upper=epsilon_upper, delta=delta, method="rdp",
                         adjacency=schedule.adjacency, certified=True,
                         details=_details(best, grid, conversion, _EVALUATED, refine))


def delta_rdp(schedule: Schedule, epsilon: float, *, orders: Iterable[float] | None = None,
              conversion: str = "improved", refine: bool = False) -> DeltaBounds:
    r"""Certified upper bound on :math:`\delta(\varepsilon)` of ``schedule`` from its RDP curve
    (``delta_lower`` = 0; capped at 1)."""
    epsilon = check_epsilon(epsilon)
    grid = _check_inputs(schedule, orders, conversion)
    with mpmath.workdps(RDP_CONVERSION_DPS):
        def objective(order):
            rho = rdp_epsilon_order(schedule, order, dps=RDP_CONVERSION_DPS)
            return _log_delta_at_order(rho, order, mpmath.mpf(epsilon), conversion)

        log_value, best = _minimise_over_grid(objective, grid)
        if refine:
            log_value, best = _refine(objective, grid, best, log_value)
        delta_upper = min(1.0, _round_up(mpmath.exp(log_value)))
    return DeltaBounds(delta_lower=0.0, delta_upper=delta_upper, epsilon=epsilon, method="rdp",
                       adjacency=schedule.adjacency, certified=True,
                       details=_details(best, grid, conversion, _EVALUATED, refine))
