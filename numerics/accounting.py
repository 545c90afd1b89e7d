"""``numerics.epsilon`` / ``numerics.delta``: one entry for every mechanism, through ONE dispatch table.

``TABLE`` maps (sampling, noise, adjacency) to the accountant that covers it. An accountant is a pair
of functions ``epsilon(schedule, delta, rel_width) -> EpsilonBounds`` and
``delta(schedule, epsilon, rel_width) -> DeltaBounds`` for a schedule whose phases all map to it; a
key that is absent is refused with one line (nothing silently becomes Poisson). Phases that map to
different accountants are composed together when each offers per-phase grid pairs
(numerics.dominating) and refused otherwise. To change how one mechanism is accounted (e.g.
fixed-size replace-one against an adaptive adversary), point its entry at another accountant.

``x`` may be a Schedule, a dp_accounting ``DpEvent`` or an Opacus-style history
``[(noise_multiplier, sample_rate, steps), ...]`` (numerics.adapters).

Default width: the grid of the PLD accountants is refined to ``rel_width`` (default
numerics.precision.PLD_RELATIVE_WIDTH); when that is out of reach within the grid budget the best
certified bracket reached is returned with ``details["note"]`` saying so, instead of an error.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Dict, Optional, Tuple

from . import dominating
from .errors import InvalidParameter, check_delta, check_epsilon
from .precision import PLD_RELATIVE_WIDTH, POISSON_REPLACE_ONE_MIN_DELTA
from .results import DeltaBounds, EpsilonBounds
from .schedule import Schedule

#: coarser widths tried, in order, when the requested one is out of the grid budget
_FALLBACK_WIDTHS = (1e-2, 3e-2, 1e-1, 3e-1)


@dataclass(frozen=True)
class Accountant:
    """How one kind of phase is accounted: whole-schedule functions and, optionally, per-phase models."""

    name: str
    epsilon: Optional[Callable] = None
    delta: Optional[Callable] = None
    models: Optional[Callable] = None  # phase, adjacency -> {order: StepModel}


# --- accountants ----------------------------------------------------------------------------------

def _pld_poisson_eps(schedule, delta, rel_width):
    if schedule.adjacency == "add-remove":  # the same pairs as numerics.pld, with the FFT-noise guard
        return _pairs_eps(schedule, delta, rel_width)
    from .pld import epsilon_pld
    if delta < POISSON_REPLACE_ONE_MIN_DELTA:
        raise InvalidParameter(f"Poisson replace-one epsilon is certified for delta >= "
                               f"{POISSON_REPLACE_ONE_MIN_DELTA:g} (FFT noise), got {delta:g}")
    return epsilon_pld(schedule, delta, rel_width=rel_width)


def _pld_poisson_delta(schedule, epsilon, rel_width):
    if schedule.adjacency == "replace-one":
        raise InvalidParameter("delta of Poisson replace-one schedules is not available; use epsilon")
    # the same pairs as numerics.pld.delta_pld, through pld_general: its first grid step suits epsilon = 0
    return _pairs_delta(schedule, epsilon, rel_width)


def _pairs_eps(schedule, delta, rel_width):
    from .pld_general import epsilon_orders
    return epsilon_orders(_orders(schedule), delta, rel_width, adjacency=schedule.adjacency, method="pld")


def _pairs_delta(schedule, epsilon, rel_width):
    from .pld_general import delta_orders
    return delta_orders(_orders(schedule), epsilon, rel_width, adjacency=schedule.adjacency, method="pld")


def _orders(schedule):
    return dominating.orders_of([lookup(p, schedule.adjacency).models(p, schedule.adjacency)
                                 for p in schedule.phases])


def _analytic_eps(schedule, delta, rel_width):
    from .analytic_gaussian import epsilon_analytic, mu_of
    return epsilon_analytic(mu_of(schedule.phases, schedule.adjacency), delta, schedule.adjacency)


def _analytic_delta(schedule, epsilon, rel_width):
    from .analytic_gaussian import delta_analytic, mu_of
    return delta_analytic(mu_of(schedule.phases, schedule.adjacency), epsilon, schedule.adjacency)


def _knorm_eps(schedule, delta, rel_width):
    from .knorm import epsilon_knorm
    return epsilon_knorm(schedule, delta)


def _knorm_delta(schedule, epsilon, rel_width):
    from .knorm import delta_knorm
    return delta_knorm(schedule, epsilon)


def _poisson_models(phase, adjacency):
    if adjacency != "add-remove":
        raise InvalidParameter("Poisson replace-one phases cannot be composed with phases of another kind")
    return dominating.poisson_add_remove(phase)


POISSON_PLD = Accountant("pld (Poisson, numerics.pld)", _pld_poisson_eps, _pld_poisson_delta, _poisson_models)
ANALYTIC = Accountant("analytic Gaussian", _analytic_eps, _analytic_delta,
                      lambda p, adj: dominating.full_batch(p, adj))
KNORM = Accountant("l2 K-norm scale mixture", _knorm_eps, _knorm_delta)


def _pairs(models) -> Accountant:
    return Accountant("pld (grid pairs, numerics.dominating)", _pairs_eps, _pairs_delta, models)


TABLE: Dict[Tuple[str, str, str], Accountant] = {
    ("poisson", "gaussian", "add-remove"): POISSON_PLD,
    ("poisson", "gaussian", "replace-one"): POISSON_PLD,
    ("poisson", "laplace", "add-remove"): _pairs(lambda p, adj: dominating.poisson_add_remove(p)),
    ("fixed-size", "gaussian", "add-remove"): _pairs(lambda p, adj: dominating.fixed_size_add_remove(p)),
    ("fixed-size", "gaussian", "replace-one"): _pairs(lambda p, adj: dominating.fixed_size_replace_one(p)),
    ("fixed-size", "laplace", "add-remove"): _pairs(lambda p, adj: dominating.fixed_size_add_remove(p)),
    ("fixed-size", "laplace", "replace-one"): _pairs(lambda p, adj: dominating.fixed_size_replace_one(p)),
    ("with-replacement", "gaussian", "add-remove"):
        _pairs(lambda p, adj: dominating.with_replacement_add_remove(p)),
    ("with-replacement", "laplace", "add-remove"):
        _pairs(lambda p, adj: dominating.with_replacement_add_remove(p)),
    ("with-replacement", "gaussian", "replace-one"):
        _pairs(lambda p, adj: dominating.with_replacement_replace_one(p)),
    ("with-replacement", "laplace", "replace-one"):
        _pairs(lambda p, adj: dominating.with_replacement_replace_one(p)),
    ("full-batch", "gaussian", "add-remove"): ANALYTIC,
    ("full-batch", "gaussian", "replace-one"): ANALYTIC,
    ("full-batch", "laplace", "add-remove"): _pairs(lambda p, adj: dominating.full_batch(p, adj)),
    ("full-batch", "laplace", "replace-one"): _pairs(lambda p, adj: dominating.full_batch(p, adj)),
    ("full-batch", "l2-knorm", "add-remove"): KNORM,
    ("full-batch", "l2-knorm", "replace-one"): KNORM,
}

#: why a combination is absent, by (sampling, adjacency) (the one-line refusal)
_WHY_NOT = {
    ("poisson", "replace-one"): "no replace-one pair is implemented for Poisson sampling with this noise",
}


def lookup(phase, adjacency: str) -> Accountant:
    key = (phase.sampling, phase.noise, adjacency)
    if key in TABLE:
        return TABLE[key]
    why = _WHY_NOT.get((phase.sampling, adjacency), "no dominating pair is implemented for it")
    raise InvalidParameter(f"sampling {phase.sampling!r} with noise {phase.noise!r} under {adjacency} is not "
                           f"supported: {why}")


def accountant_for(schedule: Schedule) -> Accountant:
    """The one accountant covering every phase of ``schedule`` (refused in one line otherwise)."""
    accountants = [lookup(p, schedule.adjacency) for p in schedule.phases]
    if all(a is accountants[0] for a in accountants):
        return accountants[0]
    if all(a.models is not None for a in accountants):
        return _pairs(None)
    kinds = sorted({f"{p.sampling}/{p.noise}" for p in schedule.phases})
    raise InvalidParameter(f"phases {', '.join(kinds)} cannot be accounted in one schedule; account them "
                           f"separately")


def _with_fallback(run, rel_width):
    from .pld import AccuracyNotReached
    try:
        return run(rel_width)
    except AccuracyNotReached as exc:
        reason = str(exc)
    for width in _FALLBACK_WIDTHS:
        if width <= rel_width:
            continue
        try:
            b = run(width)
        except AccuracyNotReached:
            continue
        b.details["note"] = (f"requested relative width {rel_width:g} not reachable ({reason}); "
                             f"certified at width {width:g}")
        return b
    raise AccuracyNotReached(reason)


def _schedule_of(x, adjacency) -> Schedule:
    from .adapters import to_schedule
    return to_schedule(x, adjacency)


def _width(rel_width) -> float:
    from .pld import _check_rel_width
    return _check_rel_width(PLD_RELATIVE_WIDTH if rel_width is None else rel_width)


def epsilon(x, delta: float, *, rel_width: float | None = None, adjacency: str | None = None) -> EpsilonBounds:
    """Certified ``epsilon_lower <= eps(delta) <= epsilon_upper`` of a Schedule, DpEvent or history
    (``adjacency`` for the latter two; default add-remove)."""
    schedule = _schedule_of(x, adjacency)
    delta, width = check_delta(delta), _width(rel_width)
    acc = accountant_for(schedule)
    return _with_fallback(lambda w: acc.epsilon(schedule, delta, w), width)


def delta(x, epsilon: float, *, rel_width: float | None = None, adjacency: str | None = None) -> DeltaBounds:
    """Certified ``delta_lower <= delta(eps) <= delta_upper`` of a Schedule, DpEvent or history."""
    schedule = _schedule_of(x, adjacency)
    epsilon, width = check_epsilon(epsilon), _width(rel_width)
    acc = accountant_for(schedule)
    return _with_fallback(lambda w: acc.delta(schedule, epsilon, w), width)
