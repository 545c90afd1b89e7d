"""Float ends of a bracket proven on Arb balls (numerics.knorm, numerics.pure_dp).

A float root or bisection only steers; each end returned is a point where an Arb check passed, moved
outward until it does (issue 29: certified means every rounding bounded).
"""
from __future__ import annotations

from contextlib import contextmanager

from .enclose import ball_to_floats
from .precision import KNORM_ARB_ATOL, KNORM_ARB_PREC, KNORM_ARB_RTOL

#: relative steps by which a bisection end that fails its Arb check is moved outward (then the trivial end)
NUDGES = (1e-12, 1e-10, 1e-8, 1e-6, 1e-4, 1e-2)


@contextmanager
def arb_precision(prec: int):
    from flint import ctx
    saved, ctx.prec = ctx.prec, prec
    try:
        yield
    finally:
        ctx.prec = saved


def tight_end(ball_of, side: str) -> float:
    """The float end (``"upper"`` or ``"lower"``) of the Arb ball ``ball_of()``, at KNORM_ARB_PREC bits,
    recomputed at twice the precision (three times at most) while its radius exceeds KNORM_ARB_RTOL of
    its midpoint plus KNORM_ARB_ATOL. Every ball is an enclosure; the loop is about tightness only."""
    prec = KNORM_ARB_PREC
    for _ in range(4):
        with arb_precision(prec):
            b = ball_of()
            if b.is_finite() and float(b.rad()) <= KNORM_ARB_RTOL * abs(float(b.mid())) + KNORM_ARB_ATOL:
                break
        prec *= 2
    lo, hi = ball_to_floats(b)
    return hi if side == "upper" else lo


def proven_end(x: float, ok, direction: float, fallback: float) -> float:
    """x if ok(x); else, moving outward (``direction`` -1 down, +1 up) by the relative steps NUDGES, the first
    point where ok holds, pulled back by four halvings towards the last point where it failed; ``fallback``
    (an end that needs no check: 0 below, the pure-DP basic composition above) if none passes. ok is the
    Arb check: only a point that passed it is returned."""
    bad = None
    for r in (0.0,) + NUDGES:
        y = x * (1.0 + direction * r)
        if not ((0.0 < y < fallback) if direction > 0 else (y > fallback)):
            break
        if not ok(y):
            bad = y
            continue
        for _ in range(4 if bad is not None else 0):
            mid = 0.5 * (bad + y)
            bad, y = (bad, mid) if ok(mid) else (mid, y)
        return y
    return fallback


def bisect_monotone(ok, lo: float, hi: float) -> tuple[float, float]:
    """(a, b) within 1e-12 relative with ok(b) true and, unless a = lo = 0 with ok(lo), ok(a) false, for
    ok monotone false -> true on [lo, hi] (hi is taken as true: pure-DP basic composition has delta 0)."""
    if ok(lo):
        return lo, lo
    for _ in range(100):
        mid = 0.5 * (lo + hi)
        lo, hi = (lo, mid) if ok(mid) else (mid, hi)
        if hi - lo <= 1e-12 * hi:
            break
    return lo, hi
