"""The one certified-epsilon entry point every caller of the suite uses.

``certified_epsilon(schedule, delta)`` returns the certified two-sided PLD bracket
``epsilon_lower <= epsilon(delta) <= epsilon_upper`` of :mod:`numerics.pld` as a plain dict (the shape
sweeps, CSV writers and claim evidence store). ``rdp_fallback=True`` lets very long, very private
schedules whose PLD grid would exceed its budget fall back to the RDP upper bound (``epsilon_lower = 0``);
``method`` says which accountant answered, so a fallback is never mistaken for a two-sided bracket.
Schedules with any phase other than Poisson-sampled Gaussian go through :func:`numerics.epsilon` (the
dispatch table of numerics.accounting), which accounts the sampling the phase names, never as Poisson.
"""
from __future__ import annotations

from .errors import check_delta
from .precision import PLD_RELATIVE_WIDTH
from .schedule import Schedule


def certified_epsilon(schedule: Schedule, delta: float, *, rel_width: float = PLD_RELATIVE_WIDTH,
                      rdp_fallback: bool = False) -> dict:
    """Certified ``[epsilon_lower, epsilon_upper]`` of ``schedule`` at ``delta``.

    Keys: ``epsilon_lower``, ``epsilon_upper``, ``delta``, ``method`` (``"pld"`` or, after a fallback,
    ``"rdp"``), ``certified`` (the accountant's own flag: both bounds are sound; docs/certified.md lists
    which step of the computation each rounding bound covers, and what is not enclosed); where it is False
    because a rounding is not bounded, ``unbounded_rounding`` names it (numerics.pld_general._label).
    """
    from .pld import AccuracyNotReached, epsilon_pld

    delta = check_delta(delta)
    if any((p.sampling, p.noise) != ("poisson", "gaussian") for p in schedule.phases):
        # every other mechanism: the dispatch table of numerics.accounting (never as Poisson)
        from .accounting import epsilon

        return _as_dict(epsilon(schedule, delta, rel_width=rel_width))
    try:
        b = epsilon_pld(schedule, delta, rel_width=rel_width)
    except AccuracyNotReached:
        if not rdp_fallback:
            raise
        from .conversions import epsilon_rdp

        b = epsilon_rdp(schedule, delta)
    return _as_dict(b)


def _as_dict(b) -> dict:
    return {"epsilon_lower": float(b.epsilon_lower), "epsilon_upper": float(b.epsilon_upper),
            "delta": float(b.delta), "method": b.method, "certified": bool(b.certified),
            **({"note": b.details["note"]} if b.details.get("note") else {}),
            **({"unbounded_rounding": list(b.details["unbounded_rounding"])}
               if b.details.get("unbounded_rounding") else {})}
