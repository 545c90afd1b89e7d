"""A paper's inventory: every checkable statement it makes, and what checks it.

Each paper package has an ``inventory`` module with ``ITEMS``, a tuple of :class:`Item`. An item is a
theorem, lemma, proposition, corollary, numbered display, table, figure, worked example, algorithm
or a number stated in the running text (abstract, introduction, experiments, captions), with its seed
lines. It is *covered* when it names the claim ids that check it, *not checkable* when it gives a
one-line reason instead ("definition", "cited from another paper, not re-derived", "needs the
paper's GPU-scale model"), and *uncovered* otherwise. The report counts the three per paper and lists
the uncovered items; a test checks that every claim id named here exists in the ledger.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Tuple

KINDS = ("theorem", "lemma", "proposition", "corollary", "remark", "definition", "assumption", "display",
         "algorithm", "table", "figure", "example", "text")
COVERED, NOT_CHECKABLE, UNCOVERED = "covered", "not-checkable", "uncovered"


@dataclass(frozen=True)
class Item:
    """One statement of a paper: ``label`` like "Theorem 2", "(7)", "Table 1", "abstract: 2x speed-up"."""

    kind: str
    label: str
    lines: str
    claims: Tuple[str, ...] = ()
    reason: str = ""

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"inventory kind must be one of {KINDS}, got {self.kind!r}")
        if isinstance(self.claims, str):
            raise ValueError(f"{self.label}: claims must be a tuple of ids, got the string {self.claims!r}")
        if self.claims and self.reason:
            raise ValueError(f"{self.label}: give claim ids or a reason it cannot be checked, not both")

    @property
    def coverage(self) -> str:
        if self.claims:
            return COVERED
        return NOT_CHECKABLE if self.reason else UNCOVERED


def coverage_counts(items: Iterable[Item]) -> dict:
    """``{"covered": n, "not-checkable": n, "uncovered": n}``."""
    counts = {COVERED: 0, NOT_CHECKABLE: 0, UNCOVERED: 0}
    for item in items:
        counts[item.coverage] += 1
    return counts
