"""The privacy schedule: an immutable description of what was run, shared by every accountant.

A schedule is a tuple of phases (q_i, sigma_i, T_i): T_i steps of the Poisson-subsampled Gaussian
mechanism with sampling rate q_i and noise multiplier sigma_i (sensitivity 1), plus the neighbouring
relation the guarantee is stated for. Following dp_accounting's frozen ``DpEvent`` objects, a schedule
describes; accountants compute.

Adjacency
---------
``"add-remove"`` (default): neighbouring data sets differ by one added or removed record; the worst of
the two directions is reported. This is the relation of seeds 000 and 002 (002_13c470b90c68bab6.txt
L54). ``"replace-one"``: one record is substituted (seeds 001, 003, 004); each accountant documents
the dominating pair it uses for it (numerics.pld, numerics.rdp), and it is never smaller than the
add/remove epsilon (an accountant may be loose, never optimistic).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Tuple

from .errors import InvalidParameter, check_q, check_sigma, check_steps

ADJACENCIES = ("add-remove", "replace-one")


@dataclass(frozen=True)
class Phase:
    """``steps`` compositions of the Poisson-subsampled Gaussian with rate ``q`` and noise ``sigma``."""

    q: float
    sigma: float
    steps: int

    def __post_init__(self):
        object.__setattr__(self, "q", check_q(self.q))
        object.__setattr__(self, "sigma", check_sigma(self.sigma))
        object.__setattr__(self, "steps", check_steps(self.steps))


@dataclass(frozen=True)
class Schedule:
    """An ordered, non-empty tuple of phases and the adjacency the guarantee refers to."""

    phases: Tuple[Phase, ...]
    adjacency: str = "add-remove"

    def __post_init__(self):
        phases = tuple(self.phases)
        if not phases:
            raise InvalidParameter("schedule must contain at least one phase, got an empty schedule")
        if not all(isinstance(p, Phase) for p in phases):
            raise InvalidParameter("schedule phases must be Phase values")
        if self.adjacency not in ADJACENCIES:
            raise InvalidParameter(f"adjacency must be one of {ADJACENCIES}, got {self.adjacency!r}")
        object.__setattr__(self, "phases", phases)

    @classmethod
    def constant(cls, *, q: float, sigma: float, steps: int, adjacency: str = "add-remove") -> "Schedule":
        """A single phase: ``steps`` identical steps."""
        return cls((Phase(q, sigma, steps),), adjacency)

    @classmethod
    def from_phases(cls, phases: Iterable[Tuple[float, float, int]], adjacency: str = "add-remove") -> "Schedule":
        """Build from ``(q, sigma, steps)`` triples."""
        return cls(tuple(Phase(*p) for p in phases), adjacency)

    @classmethod
    def per_round(cls, qs: Iterable[float], sigmas: Iterable[float], adjacency: str = "add-remove") -> "Schedule":
        """One phase per round, merging consecutive equal (q, sigma) rounds into one phase."""
        merged: list = []
        for q, s in zip(qs, sigmas, strict=True):
            if merged and merged[-1][0] == q and merged[-1][1] == s:
                merged[-1][2] += 1
            else:
                merged.append([q, s, 1])
        return cls.from_phases(merged, adjacency)

    @property
    def total_steps(self) -> int:
        return sum(p.steps for p in self.phases)

    def to_dict(self) -> dict:
        return {"adjacency": self.adjacency,
                "phases": [{"q": p.q, "sigma": p.sigma, "steps": p.steps} for p in self.phases]}
