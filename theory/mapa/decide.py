"""How a seed-003 claim turns what its check computed into a ledger status (never typed in).

``printed_holds``: the statement as printed passed its check. ``corrected_holds``: the stated
correction passed its check (None when the claim states no correction, e.g. a plain refutation).
"""
from __future__ import annotations

from typing import Optional


def status(*, printed_holds: bool, corrected_holds: Optional[bool] = None) -> str:
    if printed_holds:
        return "holds"
    if corrected_holds:
        return "holds-with-correction"
    if corrected_holds is None:
        return "refuted"
    return "open"  # neither the printed nor the corrected statement passed: say so, decide nothing
