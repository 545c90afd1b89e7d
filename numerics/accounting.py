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

import math
from dataclasses import dataclass
from typing import Callable, Dict, Optional, Tuple

from . import dominating
from .errors import InvalidParameter, check_accountant_sigma, check_delta, check_epsilon
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
    if schedule.adjacency == "replace-one":  # the +-1 pair (numerics.replace_one_poisson)
        from .pld import delta_pld
        return delta_pld(schedule, epsilon, rel_width=rel_width)
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
    from .analytic_gaussian import epsilon_analytic, mu_bounds
    return epsilon_analytic(mu_bounds(schedule.phases, schedule.adjacency), delta, schedule.adjacency)


def _analytic_delta(schedule, epsilon, rel_width):
    from .analytic_gaussian import delta_analytic, mu_bounds
    return delta_analytic(mu_bounds(schedule.phases, schedule.adjacency), epsilon, schedule.adjacency)


def _knorm_eps(schedule, delta, rel_width):
    from .knorm import epsilon_knorm
    return epsilon_knorm(schedule, delta)


def _knorm_delta(schedule, epsilon, rel_width):
    from .knorm import delta_knorm
    return delta_knorm(schedule, epsilon)


def _adaptive_phases(schedule):
    return [(p.q_bounds, p.sigma, p.steps) for p in schedule.phases]  # b/n rounded each way (adaptive._check)


def _adaptive_eps(schedule, delta, rel_width):
    from .adaptive import adaptive_replace_one_epsilon_phases
    return adaptive_replace_one_epsilon_phases(phases=_adaptive_phases(schedule), delta=delta, rel_width=rel_width)


def _adaptive_delta(schedule, epsilon, rel_width):
    from .adaptive import adaptive_replace_one_delta
    phases = _adaptive_phases(schedule)
    if len(phases) != 1:
        raise InvalidParameter("delta of a fixed-size replace-one schedule is available for one phase only; "
                               "use epsilon for several phases")
    g, sigma, steps = phases[0]
    return adaptive_replace_one_delta(g=g, sigma=sigma, steps=steps, epsilon=epsilon, rel_width=rel_width)


def _shuffled_eps(schedule, delta, rel_width):
    from .shuffled import epsilon_shuffled
    b = epsilon_shuffled(schedule, delta)
    poisson = _poisson_beside(schedule, delta)
    b.details["poisson_epsilon_upper"] = poisson
    b.details["note"] = _joined(b.details["note"], "Poisson sampling at the same B/N: epsilon <= "
                                + ("unavailable" if poisson is None else f"{poisson:.6g}"))
    return b


def _poisson_beside(schedule, delta):
    """Poisson's certified upper epsilon for the same B/N, sigma and steps (replace-one), or None: a
    number beside the shuffled answer; its absence is said in the note, never fatal."""
    from .schedule import Phase
    if schedule.total_steps > 10 ** 6:  # a note, not worth minutes (critical-steps searches up to 1e8 steps)
        return None
    try:
        poisson = Schedule(tuple(Phase(p.batch_size / p.dataset_size, p.sigma, p.steps) for p in schedule.phases),
                           "replace-one")
        return epsilon(poisson, max(delta, POISSON_REPLACE_ONE_MIN_DELTA), rel_width=1e-2).epsilon_upper \
            if delta >= POISSON_REPLACE_ONE_MIN_DELTA else None
    except Exception:  # noqa: BLE001
        return None


def _shuffled_delta(schedule, epsilon, rel_width):
    from .shuffled import delta_shuffled
    return delta_shuffled(schedule, epsilon)


def _poisson_models(phase, adjacency):
    if adjacency != "add-remove":
        raise InvalidParameter("Poisson replace-one phases cannot be composed with phases of another kind")
    return dominating.poisson_add_remove(phase)


POISSON_PLD = Accountant("pld (Poisson, numerics.pld)", _pld_poisson_eps, _pld_poisson_delta, _poisson_models)
ANALYTIC = Accountant("analytic Gaussian", _analytic_eps, _analytic_delta,
                      lambda p, adj: dominating.full_batch(p, adj))
KNORM = Accountant("l2 K-norm scale mixture", _knorm_eps, _knorm_delta)
#: fixed-size Gaussian under replace-one against an adaptive adversary (numerics.adaptive,
#: docs/replace_one.md): lower = the best realizable order policy, upper = the symmetrised pairs. Inside
#: a schedule with phases of other kinds, its per-phase models (the symmetrised pair) compose instead.
ADAPTIVE = Accountant("pld-adaptive (numerics.adaptive)", _adaptive_eps, _adaptive_delta,
                      lambda p, adj: dominating.fixed_size_replace_one(p))


#: shuffled batches under replace-one (numerics.shuffled): one Gaussian per epoch above, a realizable
#: max-of-batch test below; no grid, no per-phase models (it composes with nothing else)
SHUFFLED = Accountant("shuffled (numerics.shuffled)", _shuffled_eps, _shuffled_delta)


def _pairs(models) -> Accountant:
    return Accountant("pld (grid pairs, numerics.dominating)", _pairs_eps, _pairs_delta, models)


TABLE: Dict[Tuple[str, str, str], Accountant] = {
    ("poisson", "gaussian", "add-remove"): POISSON_PLD,
    ("poisson", "gaussian", "replace-one"): POISSON_PLD,
    ("poisson", "laplace", "add-remove"): _pairs(lambda p, adj: dominating.poisson_add_remove(p)),
    ("fixed-size", "gaussian", "add-remove"): _pairs(lambda p, adj: dominating.fixed_size_add_remove(p)),
    ("fixed-size", "gaussian", "replace-one"): ADAPTIVE,
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
    ("shuffled", "gaussian", "replace-one"): SHUFFLED,
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
    ("shuffled", "add-remove"): "under add-remove the neighbour's batch boundaries shift and no bound is "
                                "proven; use adjacency replace-one (numerics.shuffled)",
    ("shuffled", "replace-one"): "only Gaussian noise is proven for shuffled batches (numerics.shuffled)",
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


#: failures of one route that another route (or a coarser width) may not share: the grid budget, and the
#: memory or float range of a grid that would be astronomically fine (sigma far below 1)
_ROUTE_FAILURES = (MemoryError, ArithmeticError, RuntimeWarning)


def _route_failures():
    from .pld import AccuracyNotReached
    return (AccuracyNotReached,) + _ROUTE_FAILURES


def _why(exc) -> str:
    if isinstance(exc, MemoryError):
        return "the grid does not fit in memory"
    if isinstance(exc, (ArithmeticError, RuntimeWarning)):
        return f"floating-point failure ({type(exc).__name__}: {exc})"
    return " ".join(str(exc).split())


def _routes(schedule: Schedule, acc: Accountant, side: str):
    """(name, run(width)) of every certified route for ``schedule``, best first. Poisson Gaussian
    add/remove has a second grid route (numerics.pld's own composition: its window is placed on the
    PMFs themselves, not on 64x coarsened ones, so very long runs fit in the budget)."""
    routes = [(acc.name, getattr(acc, side))]
    if schedule.is_poisson_gaussian and schedule.adjacency == "add-remove" and acc is POISSON_PLD:
        from . import pld
        alt = pld.epsilon_pld if side == "epsilon" else pld.delta_pld
        routes.append(("pld (numerics.pld composition)", lambda s, x, w: alt(s, x, rel_width=w)))
        if _coarse_window_too_wide(schedule):
            routes.reverse()
    return routes


def _coarse_window_too_wide(schedule: Schedule) -> bool:
    """Whether the first route's window (Chernoff on PMFs coarsened by pld_tilted._COARSEN grid points,
    each step's atoms moved by half that on average) widens by more grid points than the budget holds:
    then it fails after its discretisation (seconds at T = 10^6), and numerics.pld's composition, whose
    window sits on the PMFs themselves, is tried first. Only the order of two certified routes changes."""
    from .pld_tilted import _COARSEN
    from .precision import PLD_MAX_GRID_POINTS
    return schedule.total_steps * _COARSEN / 2 > PLD_MAX_GRID_POINTS


def _bound_routes(schedule: Schedule, side: str):
    """Routes without a width: an upper bound only (RDP covers Poisson Gaussian phases)."""
    if not schedule.is_poisson_gaussian:
        return []
    from .conversions import delta_rdp, epsilon_rdp
    return [("rdp", epsilon_rdp if side == "epsilon" else delta_rdp)]


#: largest per-step privacy loss (nats) a grid accountant is run on: exp of it must stay far from the
#: float range (exp(709) overflows), and a grid spanning more is out of the budget or takes minutes
GRID_MAX_LOSS = 700.0


def _largest_shift(phase, adjacency: str, total_steps: int) -> float:
    """The largest shift of one record's contribution between the neighbouring pair, in clip norms: 1
    (add/remove), 2 (replace-one), and with replacement 2k for the largest copy count k whose
    probability the accountant keeps (Bin(b, 1/n) tail above 1e-18 per run)."""
    shift = 2.0 if adjacency == "replace-one" else 1.0
    if phase.sampling == "with-replacement":
        from .dominating import _binomial_copies
        pi = _binomial_copies(phase.batch_size, phase.dataset_size, 1e-18 / total_steps)[0]
        shift = 2.0 * (len(pi) - 1)
    return shift


def _out_of_grid_range(schedule: Schedule):
    """Why no grid accountant can run on ``schedule`` (None if one may): one step's privacy loss would
    reach beyond GRID_MAX_LOSS nats (about shift^2 / (2 sigma^2) for Gaussian noise, shift / sigma for
    Laplace). Said in one line with the smallest sigma the phase would need."""
    for p in schedule.phases:
        if p.sampling == "full-batch" and p.noise != "laplace":
            continue  # closed forms, no grid
        shift = _largest_shift(p, schedule.adjacency, schedule.total_steps)
        gaussian = p.noise == "gaussian"
        loss = 0.5 * (shift / p.sigma) ** 2 if gaussian else shift / p.sigma
        if loss > GRID_MAX_LOSS:
            need = shift / math.sqrt(2.0 * GRID_MAX_LOSS) if gaussian else shift / GRID_MAX_LOSS
            return (f"sigma={p.sigma:g} is below the grid accountants' range for {p.sampling} {p.noise} "
                    f"{schedule.adjacency} (one step's privacy loss reaches about {loss:.3g} nats > "
                    f"{GRID_MAX_LOSS:g}; sigma >= {need:.3g} is needed)")
    if all(p.sampling == "full-batch" and p.noise != "laplace" for p in schedule.phases):
        return None
    return _grid_too_fine(schedule)


def _grid_too_fine(schedule: Schedule):
    """Why one step's grid would not fit (None if it may): the first grid step of numerics.pld (second
    order in h: it shrinks like 1/sqrt(T)) against one step's loss span, before any array is built."""
    from .pld import _initial_step
    from .precision import PLD_MAX_GRID_POINTS
    h = _initial_step(schedule, 0.3, 0.5)  # the coarsest first step any request starts from
    for p in schedule.phases:
        span = 10.0 / p.sigma + 0.5 / p.sigma ** 2 + abs(math.log1p(-min(p.q, 0.5)))
        if span / h > PLD_MAX_GRID_POINTS:
            return (f"steps={schedule.total_steps} needs a grid step of about {h:.2g} for a one-step loss span "
                    f"of {span:.3g} nats ({span / h:.2g} points > {PLD_MAX_GRID_POINTS}): beyond the grid "
                    f"accountants' range")
    return None


def _with_fallback(schedule: Schedule, acc: Accountant, side: str, x: float, rel_width: float):
    """The requested width through every route; then coarser widths; then an upper bound alone. The
    first bracket any certified route returns is the answer, with a one-line note saying what was
    asked, what was reached and why; if none answers, one line with every route's reason."""
    failures = _route_failures()
    out_of_range = _out_of_grid_range(schedule)
    reasons: list = [out_of_range] if out_of_range else []
    widths = () if out_of_range else (rel_width,) + tuple(w for w in _FALLBACK_WIDTHS if w > rel_width)
    for width in widths:
        for name, run in _routes(schedule, acc, side):
            try:
                b = _guarded(run, schedule, x, width)
            except failures as exc:
                reasons.append(f"{name} at width {width:g}: {_why(exc)}")
                continue
            if reasons:
                reached = "the requested" if width == rel_width else f"the coarser (requested {rel_width:g})"
                b.details["note"] = _joined(f"certified by {name} at {reached} width {width:g}; "
                                            f"{reasons[0]}", b.details.get("note"))
            return b
    for name, run in _bound_routes(schedule, side):
        try:
            b = _guarded(run, schedule, x)
        except failures as exc:
            reasons.append(f"{name}: {_why(exc)}")
            continue
        b.details["note"] = (f"no grid accountant answers ({reasons[0]}); certified upper bound from {name}, "
                             f"the lower bound is the trivial 0")
        return b
    from .pld import AccuracyNotReached
    if out_of_range:
        raise AccuracyNotReached(f"no certified route answers: {out_of_range}")
    raise AccuracyNotReached(f"no certified route answers {_hint(schedule)}: {reasons[0]}"
                             + (f" (and {len(reasons) - 1} more attempts)" if len(reasons) > 1 else ""))


def _guarded(run, *args):
    """One route with numpy's RuntimeWarnings (overflow, division by zero) raised: in a certified
    accountant they mean the route left its numerical range, so the next route is tried instead."""
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        return run(*args)


def _joined(first: str, second) -> str:
    return first if not second else f"{first}; {second}"


def _hint(schedule: Schedule) -> str:
    """What the user can change: the parameter that puts the grid out of reach."""
    small = min(p.sigma for p in schedule.phases)
    if small < 0.3:
        return (f"(sigma={small:g} is far below 1: the per-step privacy loss spans about 1/sigma^2 = "
                f"{small ** -2:.3g}; try a larger sigma or --rel-width 0.3)")
    return f"({schedule.total_steps} steps; try --rel-width 0.3)"


def _full_batch(schedule: Schedule) -> Schedule:
    """A Poisson phase with q = 1 samples every record: it is a full batch, accounted in closed form."""
    from .schedule import Phase
    if not any(p.sampling == "poisson" and p.q == 1.0 for p in schedule.phases):
        return schedule
    phases = tuple(Phase.full_batch(sigma=p.sigma, steps=p.steps, noise=p.noise, dimension=p.dimension)
                   if p.sampling == "poisson" and p.q == 1.0 else p for p in schedule.phases)
    return Schedule(phases, schedule.adjacency)


def _schedule_of(x, adjacency) -> Schedule:
    from .adapters import to_schedule
    return to_schedule(x, adjacency)


def _width(rel_width) -> float:
    from .pld import _check_rel_width
    return _check_rel_width(PLD_RELATIVE_WIDTH if rel_width is None else rel_width)


def _account(x, adjacency, side: str, value: float, rel_width):
    given = _schedule_of(x, adjacency)
    for p in given.phases:
        check_accountant_sigma(p.sigma)
    schedule = _full_batch(given)
    acc = accountant_for(schedule)
    if acc is SHUFFLED:  # closed form above, exact event below: no grid, no fallback
        _width(rel_width)
        return getattr(acc, side)(schedule, value, None)
    b = _with_fallback(schedule, acc, side, value, _width(rel_width))
    if schedule is not given:
        b.details["note"] = _joined("a Poisson phase with q = 1 is a full batch: accounted as one",
                                    b.details.get("note"))
    return b


def epsilon(x, delta: float, *, rel_width: float | None = None, adjacency: str | None = None) -> EpsilonBounds:
    """Certified ``epsilon_lower <= eps(delta) <= epsilon_upper`` of a Schedule, DpEvent or history
    (``adjacency`` for the latter two; default add-remove). When ``rel_width`` is out of reach, the
    best certified bracket (``details["note"]`` says which route, which width and why)."""
    return _account(x, adjacency, "epsilon", check_delta(delta), rel_width)


def delta(x, epsilon: float, *, rel_width: float | None = None, adjacency: str | None = None) -> DeltaBounds:
    """Certified ``delta_lower <= delta(eps) <= delta_upper`` of a Schedule, DpEvent or history."""
    return _account(x, adjacency, "delta", check_epsilon(epsilon), rel_width)
