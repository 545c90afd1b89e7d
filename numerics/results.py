"""Result values of the accountants. Every number says which side of the truth it is on.

``epsilon_lower <= epsilon(delta) <= epsilon_upper`` for the exact optimal epsilon of the schedule at
``delta`` (STYLE 1: bounds carry their direction). A method that only gives an upper bound (RDP) sets
``epsilon_lower = 0``; a method that only gives an estimate (the GDP CLT) sets both to the estimate and
``certified = False``.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field


def _short_repr(self, names) -> str:
    """The numbers and their meaning; ``details`` (grids, refinement history) only by its keys."""
    fields = ", ".join(f"{n}={getattr(self, n)!r}" for n in names)
    keys = ", ".join(sorted(self.details)) if isinstance(self.details, dict) else "..."
    return f"{type(self).__name__}({fields}, details={{{keys}}})"


@dataclass(frozen=True)
class EpsilonBounds:
    epsilon_lower: float
    epsilon_upper: float
    delta: float
    method: str
    adjacency: str
    certified: bool = True
    details: dict = field(default_factory=dict, compare=False)

    def __repr__(self) -> str:
        return _short_repr(self, ("epsilon_lower", "epsilon_upper", "delta", "method", "adjacency", "certified"))

    @property
    def relative_width(self) -> float:
        u = self.epsilon_upper
        return (u - self.epsilon_lower) / u if u > 0 else 0.0

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class DeltaBounds:
    delta_lower: float
    delta_upper: float
    epsilon: float
    method: str
    adjacency: str
    certified: bool = True
    details: dict = field(default_factory=dict, compare=False)

    def __repr__(self) -> str:
        return _short_repr(self, ("delta_lower", "delta_upper", "epsilon", "method", "adjacency", "certified"))

    def to_dict(self) -> dict:
        return asdict(self)
