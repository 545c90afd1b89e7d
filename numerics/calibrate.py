r"""Calibration on the certified upper bound: the smallest noise, or the largest number of steps, that
keeps :math:`\varepsilon(\delta)` at or below a target, for every mechanism numerics.accounting covers.

Both searches bracket on ``epsilon_upper`` of a certified accountant: ``numerics.pld.epsilon_pld`` for
Poisson Gaussian phases with q < 1 (as before), ``numerics.epsilon`` (the dispatch table:
fixed-size, with-replacement, full-batch; Gaussian, Laplace, l2 K-norm; both adjacencies) for every
other phase, ``numerics.conversions.epsilon_rdp`` with ``method="rdp"``. The search may be loose, the
answer is not: the returned value is re-checked, and it is always on the private side (STYLE 6, after
dp_accounting's ``mechanism_calibration.py``): sigma is rounded up, the step count down.
:func:`calibrate_sigma_certified` and :func:`critical_steps_bracket` return the certified bounds at the
answer too (the slack to the target is part of the answer).
"""
from __future__ import annotations

import dataclasses
import math

from .errors import InvalidParameter, check_delta, check_epsilon, check_sigma, check_steps
from .precision import CALIBRATION_RTOL
from .schedule import ADJACENCIES, Phase, Schedule

METHODS = ("pld", "rdp")
#: noise multipliers outside [SIGMA_MIN, SIGMA_MAX] are not searched (the accountants' working range).
SIGMA_MIN, SIGMA_MAX = 0.05, 1e4
#: step counts above STEPS_MAX are not searched.
STEPS_MAX = 10 ** 8


def _bounds(schedule: Schedule, delta: float, method: str):
    if method == "rdp":
        from .conversions import epsilon_rdp
        return epsilon_rdp(schedule, delta)
    if schedule.is_poisson_gaussian and all(p.q < 1.0 for p in schedule.phases):
        from .pld import epsilon_pld
        return epsilon_pld(schedule, delta)
    from .accounting import epsilon
    return epsilon(schedule, delta)


def _phase(q, sigma: float, steps: int, mechanism: dict | None) -> Phase:
    """The phase being calibrated: Poisson Gaussian at rate q, or the mechanism of ``mechanism`` (Phase
    keyword fields: sampling, noise, batch_size, dataset_size, dimension; q may stay None then)."""
    fields = dict(mechanism or {})
    unknown = set(fields) - {"sampling", "noise", "batch_size", "dataset_size", "dimension"}
    if unknown:
        raise InvalidParameter(f"unknown mechanism field {sorted(unknown)[0]!r}; allowed: sampling, noise, "
                               f"batch_size, dataset_size, dimension")
    return Phase(q, sigma, steps, **fields)


def _check_common(delta, epsilon, adjacency, method):
    delta = check_delta(delta)
    epsilon = check_epsilon(epsilon)
    if epsilon <= 0:
        raise InvalidParameter(f"epsilon must be a finite number > 0 for calibration, got {epsilon!r}")
    if adjacency not in ADJACENCIES:
        raise InvalidParameter(f"adjacency must be one of {ADJACENCIES}, got {adjacency!r}")
    if method not in METHODS:
        raise InvalidParameter(f"method must be one of {METHODS}, got {method!r}")
    return delta, epsilon


def calibrate_sigma(*, q=None, steps, delta, epsilon, adjacency: str = "add-remove", method: str = "pld",
                    rtol: float = CALIBRATION_RTOL, mechanism: dict | None = None) -> float:
    r"""Smallest noise multiplier sigma (up to a factor 1 + ``rtol``) with certified
    :math:`\varepsilon_{upper}(\delta) \le` ``epsilon`` for ``steps`` steps at sampling rate ``q`` (or of
    the phase ``mechanism`` describes, e.g. ``{"sampling": "fixed-size", "batch_size": 64,
    "dataset_size": 60000}``).

    Bisection in log sigma on the certified upper bound; the returned sigma is the upper end of the
    final bracket, at which the bound was computed and is <= ``epsilon`` (re-checked).
    """
    return calibrate_sigma_certified(q=q, steps=steps, delta=delta, epsilon=epsilon, adjacency=adjacency,
                                     method=method, rtol=rtol, mechanism=mechanism)["sigma"]


def calibrate_sigma_certified(*, q=None, steps, delta, epsilon, adjacency: str = "add-remove",
                              method: str = "pld", rtol: float = CALIBRATION_RTOL,
                              mechanism: dict | None = None) -> dict:
    """:func:`calibrate_sigma` with its evidence: ``{"sigma", "bounds"}``, ``bounds`` the certified
    EpsilonBounds at the returned sigma (``bounds.epsilon_upper <= epsilon``: the slack is
    ``epsilon - bounds.epsilon_upper``)."""
    steps = check_steps(steps)
    delta, epsilon = _check_common(delta, epsilon, adjacency, method)
    template = _phase(q, 1.0, steps, mechanism)
    if method == "rdp" and template.kind != ("poisson", "gaussian"):
        raise InvalidParameter(f"method 'rdp' covers Poisson Gaussian phases only, got sampling "
                               f"{template.sampling!r} with noise {template.noise!r}; use method 'pld'")
    cache: dict = {}

    def bounds(sigma):
        if sigma not in cache:
            s = Schedule((dataclasses.replace(template, sigma=sigma),), adjacency)
            cache[sigma] = _bounds(s, delta, method)
        return cache[sigma]

    def private(sigma):
        return bounds(sigma).epsilon_upper <= epsilon

    lo, hi = _bracket_sigma(private)
    while hi / lo > 1.0 + rtol:
        mid = math.sqrt(lo * hi)
        lo, hi = (lo, mid) if private(mid) else (mid, hi)
    if not private(hi):  # the re-check of STYLE 6; cannot fail unless the accountant is inconsistent
        raise RuntimeError(f"calibration re-check failed at sigma={hi!r}")
    return {"sigma": hi, "bounds": bounds(hi), "phase": dataclasses.replace(template, sigma=hi)}


def _bracket_sigma(private) -> tuple[float, float]:
    """(lo, hi) with private(hi) true and private(lo) false, by doubling/halving from sigma = 1."""
    sigma = 1.0
    if private(sigma):
        while private(sigma / 2):
            sigma /= 2
            if sigma / 2 < SIGMA_MIN:
                raise InvalidParameter(f"the target is met at every sigma >= {SIGMA_MIN}: "
                                       f"epsilon is too large for calibration to be meaningful")
        return sigma / 2, sigma
    while not private(sigma * 2):
        sigma *= 2
        if sigma * 2 > SIGMA_MAX:
            raise InvalidParameter(f"no sigma <= {SIGMA_MAX:g} meets the target: epsilon is too small")
    return sigma, sigma * 2


def critical_steps_bracket(*, q=None, sigma, delta, epsilon, adjacency: str = "add-remove",
                           method: str = "pld", mechanism: dict | None = None) -> dict:
    r"""The exact critical step count bracketed by certified bounds.

    Returns ``{"steps": T_up, "steps_exceeding": T_low, "bounds": ...}``: ``T_up`` is the largest T with
    certified :math:`\varepsilon_{upper} \le` target (0 if even one step exceeds it), ``T_low`` the
    smallest T with certified :math:`\varepsilon_{lower} >` target; ``bounds`` the certified
    EpsilonBounds at ``T_up`` (None when it is 0). The exact critical T (largest T whose true epsilon
    is <= target) lies in ``[T_up, T_low - 1]``. With ``method="rdp"`` only ``steps`` is meaningful
    (RDP has no lower bound; ``steps_exceeding`` is None). ``mechanism``: as for :func:`calibrate_sigma`.
    """
    sigma = check_sigma(sigma)
    delta, epsilon = _check_common(delta, epsilon, adjacency, method)
    template = _phase(q, sigma, 1, mechanism)
    if method == "rdp" and template.kind != ("poisson", "gaussian"):
        raise InvalidParameter(f"method 'rdp' covers Poisson Gaussian phases only, got sampling "
                               f"{template.sampling!r} with noise {template.noise!r}; use method 'pld'")
    cache: dict = {}

    def bounds(t):
        if t not in cache:
            s = Schedule((dataclasses.replace(template, steps=t),), adjacency)
            if template.sampling == "shuffled" and method == "pld":
                # the search needs the shuffled bracket only; Poisson's number beside it (a note, seconds
                # per probe) is computed once, at the answer, below
                from .shuffled import epsilon_shuffled
                cache[t] = epsilon_shuffled(s, delta)
            else:
                cache[t] = _bounds(s, delta, method)
        return cache[t]

    steps = _largest(lambda t: bounds(t).epsilon_upper <= epsilon)
    exceeding = None
    if method == "pld":
        try:  # a lower bound that never exceeds the target within STEPS_MAX (shuffled batches) leaves it open
            exceeding = _largest(lambda t: bounds(t).epsilon_lower <= epsilon, start=max(steps, 1)) + 1
        except InvalidParameter:
            exceeding = None
    answer = None
    if steps:
        answer = _bounds(Schedule((dataclasses.replace(template, steps=steps),), adjacency), delta, method) \
            if template.sampling == "shuffled" and method == "pld" else bounds(steps)
    return {"steps": steps, "steps_exceeding": exceeding, "bounds": answer}


def critical_steps(*, q=None, sigma, delta, epsilon, adjacency: str = "add-remove", method: str = "pld",
                   mechanism: dict | None = None) -> int:
    r"""Largest integer T with certified :math:`\varepsilon_{upper}(\delta) \le` ``epsilon`` (0 if none).

    See :func:`critical_steps_bracket` for the matching lower-bound step count.
    """
    return critical_steps_bracket(q=q, sigma=sigma, delta=delta, epsilon=epsilon, adjacency=adjacency,
                                  method=method, mechanism=mechanism)["steps"]


def _largest(ok, start: int = 1) -> int:
    """Largest integer t with ok(t), for ok true up to some t and false after (0 if not ok(1)).

    Doubling from ``start`` to bracket, then integer bisection; t = 0 counts as ok.
    """
    if not ok(start):
        if start == 1:
            return 0
        lo, hi = 0, start  # ok(lo) assumed (t = 0 is trivially private), not ok(hi)
    else:
        lo = start
        while ok(2 * lo):
            lo *= 2
            if lo > STEPS_MAX:
                raise InvalidParameter(f"the target holds beyond {STEPS_MAX} steps; "
                                       f"epsilon is too large for a critical step count")
        hi = 2 * lo
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if ok(mid) else (lo, mid)
    return lo
