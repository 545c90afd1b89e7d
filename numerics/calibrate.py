r"""Calibration on the certified upper bound: the smallest noise, or the largest number of steps, that
keeps :math:`\varepsilon(\delta)` at or below a target.

Both searches bracket on ``epsilon_upper`` of a certified accountant (``numerics.pld`` by default,
``numerics.conversions.epsilon_rdp`` with ``method="rdp"``). The search may be loose, the answer is
not: the returned value is re-checked, and it is always on the private side (STYLE 6, after
dp_accounting's ``mechanism_calibration.py``): sigma is rounded up, the step count down.
"""
from __future__ import annotations

import math

from .errors import InvalidParameter, check_delta, check_epsilon, check_q, check_sigma, check_steps
from .precision import CALIBRATION_RTOL
from .schedule import ADJACENCIES, Schedule

METHODS = ("pld", "rdp")
#: noise multipliers outside [SIGMA_MIN, SIGMA_MAX] are not searched (the accountants' working range).
SIGMA_MIN, SIGMA_MAX = 0.05, 1e4
#: step counts above STEPS_MAX are not searched.
STEPS_MAX = 10 ** 8


def _bounds(schedule: Schedule, delta: float, method: str):
    if method == "pld":
        from .pld import epsilon_pld
        return epsilon_pld(schedule, delta)
    from .conversions import epsilon_rdp
    return epsilon_rdp(schedule, delta)


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


def calibrate_sigma(*, q, steps, delta, epsilon, adjacency: str = "add-remove", method: str = "pld",
                    rtol: float = CALIBRATION_RTOL) -> float:
    r"""Smallest noise multiplier sigma (up to a factor 1 + ``rtol``) with certified
    :math:`\varepsilon_{upper}(\delta) \le` ``epsilon`` for ``steps`` steps at sampling rate ``q``.

    Bisection in log sigma on the certified upper bound; the returned sigma is the upper end of the
    final bracket, at which the bound was computed and is <= ``epsilon`` (re-checked).
    """
    q, steps = check_q(q), check_steps(steps)
    delta, epsilon = _check_common(delta, epsilon, adjacency, method)

    def private(sigma):
        s = Schedule.constant(q=q, sigma=sigma, steps=steps, adjacency=adjacency)
        return _bounds(s, delta, method).epsilon_upper <= epsilon

    lo, hi = _bracket_sigma(private)
    while hi / lo > 1.0 + rtol:
        mid = math.sqrt(lo * hi)
        lo, hi = (lo, mid) if private(mid) else (mid, hi)
    if not private(hi):  # the re-check of STYLE 6; cannot fail unless the accountant is inconsistent
        raise RuntimeError(f"calibration re-check failed at sigma={hi!r}")
    return hi


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


def critical_steps_bracket(*, q, sigma, delta, epsilon, adjacency: str = "add-remove",
                           method: str = "pld") -> dict:
    r"""The exact critical step count bracketed by certified bounds.

    Returns ``{"steps": T_up, "steps_exceeding": T_low}``: ``T_up`` is the largest T with certified
    :math:`\varepsilon_{upper} \le` target (0 if even one step exceeds it), ``T_low`` the smallest T
    with certified :math:`\varepsilon_{lower} >` target. The exact critical T (largest T whose true
    epsilon is <= target) lies in ``[T_up, T_low - 1]``. With ``method="rdp"`` only ``steps`` is
    meaningful (RDP has no lower bound; ``steps_exceeding`` is None).
    """
    q, sigma = check_q(q), check_sigma(sigma)
    delta, epsilon = _check_common(delta, epsilon, adjacency, method)
    cache: dict = {}

    def bounds(t):
        if t not in cache:
            cache[t] = _bounds(Schedule.constant(q=q, sigma=sigma, steps=t, adjacency=adjacency), delta, method)
        return cache[t]

    steps = _largest(lambda t: bounds(t).epsilon_upper <= epsilon)
    exceeding = None
    if method == "pld":
        exceeding = _largest(lambda t: bounds(t).epsilon_lower <= epsilon, start=max(steps, 1)) + 1
    return {"steps": steps, "steps_exceeding": exceeding}


def critical_steps(*, q, sigma, delta, epsilon, adjacency: str = "add-remove", method: str = "pld") -> int:
    r"""Largest integer T with certified :math:`\varepsilon_{upper}(\delta) \le` ``epsilon`` (0 if none).

    See :func:`critical_steps_bracket` for the matching lower-bound step count.
    """
    return critical_steps_bracket(q=q, sigma=sigma, delta=delta, epsilon=epsilon, adjacency=adjacency,
                                  method=method)["steps"]


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
