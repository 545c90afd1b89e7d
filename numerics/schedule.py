"""The privacy schedule: an immutable description of what was run, shared by every accountant.

A schedule is a tuple of phases plus the neighbouring relation the guarantee is stated for. A phase is
``steps`` identical steps of a noisy sum of per-record contributions (each of norm at most the clip
norm C) described by

* its **sampling**: ``"poisson"`` (every record independently with rate q), ``"fixed-size"`` (a batch
  of ``batch_size`` b records drawn without replacement from ``dataset_size`` n), ``"with-replacement"``
  (b independent uniform draws from the n records), ``"shuffled"`` (every epoch a random permutation
  cut into ceil(n/b) batches of b, what a PyTorch DataLoader does; numerics.shuffled) or
  ``"full-batch"`` (every record, q = 1);
* its **noise**: ``"gaussian"`` (N(0, s^2 I)), ``"laplace"`` (scalar records, density ~ exp(-|x|/s)) or
  ``"l2-knorm"`` (density ~ exp(-||x||_2 / s) in R^dimension, the l2 K-norm mechanism);
* its **noise multiplier** ``sigma`` = s / C (noise scale / per-record sensitivity), for every noise.

For fixed-size, shuffled and with-replacement phases ``q`` is set to b/n (min(b/n, 1) with replacement; only a
convenience: the accountants never treat such a phase as Poisson). Such a phase may be given by q and n
instead of b when q*n is an integer; q, b and n that disagree are refused (a Poisson phase may name b
and n too, with q = b/n), never silently resolved. Under add-remove, n is the size of the larger of the two data
sets, the one the batch is drawn from (the pessimistic choice: a sampling fraction b/n).
Following dp_accounting's frozen ``DpEvent`` objects, a schedule describes; accountants compute
(numerics.accounting holds the table of which accountant covers which phase).

Adjacency
---------
``"add-remove"`` (default): neighbouring data sets differ by one added or removed record; the worst of
the two directions is reported. This is the relation of seeds 000 and 002 (002_13c470b90c68bab6.txt
L54). ``"replace-one"``: one record is substituted (seeds 001, 003, 004); each accountant documents
the dominating pair it uses for it (numerics.pld, numerics.rdp, numerics.pld_general), and it is never
smaller than the add/remove epsilon (an accountant may be loose, never optimistic).
"""
from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import Iterable, Mapping, Optional, Tuple

from .errors import InvalidParameter, check_q, check_sigma, check_steps

ADJACENCIES = ("add-remove", "replace-one")
SAMPLINGS = ("poisson", "fixed-size", "with-replacement", "shuffled", "full-batch")
NOISES = ("gaussian", "laplace", "l2-knorm")


def _positive_int(value, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not float(value).is_integer() \
            or not value >= 1:
        raise InvalidParameter(f"{name} must be a positive integer, got {value!r}")
    return int(value)


@dataclass(frozen=True)
class Phase:
    """``steps`` identical steps: sampling with rate ``q`` (or b of n), noise multiplier ``sigma``.

    ``Phase(q, sigma, steps)`` is the Poisson-subsampled Gaussian; the keyword fields name any other
    mechanism (module docstring); the constructors below fill them consistently.
    """

    q: float
    sigma: float
    steps: int
    sampling: str = "poisson"
    noise: str = "gaussian"
    batch_size: Optional[int] = None
    dataset_size: Optional[int] = None
    dimension: Optional[int] = None

    def __post_init__(self):
        if self.sampling not in SAMPLINGS:
            raise InvalidParameter(f"sampling must be one of {', '.join(SAMPLINGS)}, got {self.sampling!r}")
        if self.noise not in NOISES:
            raise InvalidParameter(f"noise must be one of {', '.join(NOISES)}, got {self.noise!r}")
        object.__setattr__(self, "sigma", check_sigma(self.sigma))
        object.__setattr__(self, "steps", check_steps(self.steps))
        self._check_sizes()
        self._check_dimension()
        object.__setattr__(self, "q", check_q(self.q))

    def _check_sizes(self):
        """q, b and n must tell one story: a value that two of them fix differently is refused, never
        silently resolved (a fixed-size q*n that is not an integer is no batch size)."""
        b, n = self.batch_size, self.dataset_size
        if b is not None:
            b = _positive_int(b, "batch_size")
        if n is not None:
            n = _positive_int(n, "dataset_size")
        if self.sampling in ("fixed-size", "with-replacement", "shuffled"):
            if b is None and n is not None and self.q is not None:
                b = batch_of(self.q, n, self.sampling)
            if b is None or n is None:
                raise InvalidParameter(f"{self.sampling} sampling needs batch_size and dataset_size (or q with "
                                       f"dataset_size, q*dataset_size an integer)")
            if self.sampling in ("fixed-size", "shuffled") and b > n:
                raise InvalidParameter(f"batch_size must be <= dataset_size for {self.sampling} sampling, "
                                       f"got {b} > {n}")
            _same_rate(self.q, b, n, self.sampling)
            # with replacement b may exceed n; q (a convenience, module docstring) stays in (0, 1]
            object.__setattr__(self, "q", min(b / n, 1.0))
        elif self.sampling == "full-batch":
            if b is not None and n is not None and b != n:
                raise InvalidParameter(f"a full batch has batch_size = dataset_size, got {b} of {n}")
            if self.q is not None and _real_or_none(self.q) not in (None, 1.0):
                raise InvalidParameter(f"full-batch sampling has q = 1, got q={self.q!r}")
            object.__setattr__(self, "q", 1.0)
        elif b is not None:  # poisson
            check_q(self.q)
            if n is None:
                raise InvalidParameter("a Poisson phase with batch_size needs dataset_size too (q = "
                                       "batch_size/dataset_size)")
            if b > n:
                raise InvalidParameter(f"batch_size must be <= dataset_size for Poisson sampling (q = b/n <= 1), "
                                       f"got {b} > {n}")
            _same_rate(self.q, b, n, self.sampling)
        object.__setattr__(self, "batch_size", b)
        object.__setattr__(self, "dataset_size", n)

    def _check_dimension(self):
        if self.noise == "l2-knorm":
            if self.dimension is None:
                raise InvalidParameter("l2-knorm noise needs a dimension (a positive integer)")
            object.__setattr__(self, "dimension", _positive_int(self.dimension, "dimension"))
        elif self.dimension is not None:
            d = _positive_int(self.dimension, "dimension")
            if self.noise == "laplace" and d != 1:
                raise InvalidParameter(f"laplace noise is accounted for scalar records only (dimension 1), "
                                       f"got dimension {d}")
            object.__setattr__(self, "dimension", d)

    @classmethod
    def fixed_size(cls, *, batch_size: int, dataset_size: int, sigma: float, steps: int,
                   noise: str = "gaussian", dimension: Optional[int] = None) -> "Phase":
        """Batches of ``batch_size`` records drawn without replacement from ``dataset_size``."""
        return cls(None, sigma, steps, "fixed-size", noise, batch_size, dataset_size, dimension)

    @classmethod
    def with_replacement(cls, *, batch_size: int, dataset_size: int, sigma: float, steps: int,
                         noise: str = "gaussian", dimension: Optional[int] = None) -> "Phase":
        """Batches of ``batch_size`` independent uniform draws from ``dataset_size`` records."""
        return cls(None, sigma, steps, "with-replacement", noise, batch_size, dataset_size, dimension)

    @classmethod
    def shuffled(cls, *, batch_size: int, dataset_size: int, sigma: float, steps: int,
                 noise: str = "gaussian", dimension: Optional[int] = None) -> "Phase":
        """Each epoch a random permutation of the ``dataset_size`` records cut into batches of
        ``batch_size`` (ceil(n/b) steps per epoch; numerics.shuffled)."""
        return cls(None, sigma, steps, "shuffled", noise, batch_size, dataset_size, dimension)

    @classmethod
    def full_batch(cls, *, sigma: float, steps: int, noise: str = "gaussian",
                   dimension: Optional[int] = None) -> "Phase":
        """Every record in every step (q = 1)."""
        return cls(1.0, sigma, steps, "full-batch", noise, None, None, dimension)

    @property
    def q_bounds(self) -> Tuple[float, float]:
        """Floats lo <= the exact sampling fraction <= hi: (q, q) for Poisson and full batches (q is what
        was given), b/n rounded each way for the batch samplings, whose ``q`` is the float b/n (about half
        of all b/n round up: 64/60000 does). An accountant's dominating pair takes ``hi``, its realizable
        pair ``lo`` (a subsampled pair with a larger fraction dominates one with a smaller: resample the
        output from the base law with probability 1 - lo/hi, a post-processing; issue 29)."""
        if self.batch_size is None or self.sampling in ("poisson", "full-batch"):
            return self.q, self.q
        from fractions import Fraction
        exact, g = Fraction(self.batch_size, self.dataset_size), Fraction(self.q)
        if g == exact or self.q == 1.0:
            return self.q, self.q
        return (self.q, math.nextafter(self.q, math.inf)) if g < exact else (math.nextafter(self.q, 0.0), self.q)

    @property
    def kind(self) -> Tuple[str, str]:
        """(sampling, noise): with the adjacency, the key of numerics.accounting's dispatch table."""
        return self.sampling, self.noise

    def to_dict(self) -> dict:
        out = {"q": self.q, "sigma": self.sigma, "steps": self.steps, "sampling": self.sampling,
               "noise": self.noise}
        for name in ("batch_size", "dataset_size", "dimension"):
            if getattr(self, name) is not None:
                out[name] = getattr(self, name)
        return out


def _real_or_none(x):
    """x as a float when it is a real number (validation proper happens in check_q)."""
    if isinstance(x, bool) or not isinstance(x, numbers.Real):
        return None
    return float(x)


def batch_of(q, n: int, sampling: str = "fixed-size") -> int:
    """The batch size b = q*n of a fixed-size (or with-replacement) phase given by its rate: refused in
    one line unless q*n is an integer (up to rounding of q's last digit), since a rounded batch is a
    different mechanism (q 0.0125 of n 100 is no batch: a batch of 1 gives epsilon 6.48, of 2 9.69)."""
    x = _real_or_none(q)
    if x is None or not 0.0 < x <= (math.inf if sampling == "with-replacement" else 1.0):
        check_q(q)
    b = round(x * n)
    if b < 1 or abs(x * n - b) > 1e-9 * max(1.0, x * n):
        raise InvalidParameter(f"q*dataset_size must be a positive integer batch size for {sampling} sampling, "
                               f"got q={q!r} of dataset_size {n} (q*n = {x * n:.6g}); give --batch-size")
    return b


def _same_rate(q, b: int, n: int, sampling: str) -> None:
    """Refuse a q that contradicts b/n (the caller gave both; which one was meant is ambiguous)."""
    x = _real_or_none(q)
    if q is None or x == b / n or (sampling != "poisson" and x == min(b / n, 1.0)):
        return
    if x is not None and abs(x - b / n) <= 1e-12 * (b / n):
        return
    raise InvalidParameter(f"q={q!r} contradicts batch_size/dataset_size = {b}/{n} = {b / n:.6g} "
                           f"({sampling} sampling); give q or the two sizes, not both")


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
    def from_phases(cls, phases: Iterable, adjacency: str = "add-remove") -> "Schedule":
        """Build from ``Phase`` values or mappings of Phase fields (``{"q": .., "sigma": .., "steps": ..}``,
        the form :meth:`Phase.to_dict` writes).

        A bare tuple is refused: its order is ambiguous. Opacus's history writes
        ``(noise_multiplier, sample_rate, steps)``, the reverse of (q, sigma); read with the wrong order,
        a run would be accounted at the wrong rate (or fail much later). An Opacus history goes to
        ``numerics.epsilon(history, delta)`` (numerics.adapters).
        """
        return cls(tuple(_as_phase(p, i) for i, p in enumerate(phases)), adjacency)

    @classmethod
    def from_dict(cls, data: Mapping) -> "Schedule":
        """Inverse of :meth:`to_dict`: ``{"adjacency": .., "phases": [Phase.to_dict(), ...]}``."""
        if not isinstance(data, Mapping) or "phases" not in data:
            raise InvalidParameter(f"a schedule dict needs a 'phases' list (and optionally 'adjacency'), got {data!r}")
        unknown = set(data) - {"phases", "adjacency"}
        if unknown:
            raise InvalidParameter(f"unknown schedule key {sorted(unknown)[0]!r}; allowed: 'phases', 'adjacency'")
        return cls.from_phases(data["phases"], data.get("adjacency", "add-remove"))

    @classmethod
    def per_round(cls, qs: Iterable[float], sigmas: Iterable[float], adjacency: str = "add-remove") -> "Schedule":
        """One phase per round, merging consecutive equal (q, sigma) rounds into one phase."""
        merged: list = []
        for q, s in zip(qs, sigmas, strict=True):
            if merged and merged[-1][0] == q and merged[-1][1] == s:
                merged[-1][2] += 1
            else:
                merged.append([q, s, 1])
        return cls(tuple(Phase(q=q, sigma=s, steps=n) for q, s, n in merged), adjacency)

    @property
    def total_steps(self) -> int:
        return sum(p.steps for p in self.phases)

    @property
    def is_poisson_gaussian(self) -> bool:
        """Every phase Poisson-subsampled Gaussian: the mechanism numerics.pld/rdp/gdp are written for."""
        return all(p.kind == ("poisson", "gaussian") for p in self.phases)

    def to_dict(self) -> dict:
        return {"adjacency": self.adjacency, "phases": [p.to_dict() for p in self.phases]}


#: the fields a phase mapping may name (Phase's dataclass fields)
PHASE_FIELDS = ("q", "sigma", "steps", "sampling", "noise", "batch_size", "dataset_size", "dimension")


def _as_phase(p, index: int) -> Phase:
    """One phase of :meth:`Schedule.from_phases`: a Phase, or a mapping naming its fields."""
    if isinstance(p, Phase):
        return p
    if isinstance(p, Mapping):
        unknown = [k for k in p if k not in PHASE_FIELDS]
        if unknown:
            raise InvalidParameter(f"phase {index}: unknown field {unknown[0]!r}; allowed: {', '.join(PHASE_FIELDS)}")
        sampling = p.get("sampling", "poisson")
        required = ("sigma", "steps") + (("q",) if sampling == "poisson" else ())
        missing = [k for k in required if k not in p]
        if missing:
            raise InvalidParameter(f"phase {index}: missing field {missing[0]!r} (a phase names q, sigma and steps)")
        fields = {"q": None, **p}  # q is derived from the sizes (or checked against them) for the others
        return Phase(**fields)
    raise InvalidParameter(f"phase {index} is {p!r}: give Phase(q=.., sigma=.., steps=..) or a dict with keys "
                           f"q, sigma, steps; a bare tuple is ambiguous (Opacus writes (noise_multiplier, "
                           f"sample_rate, steps)); for an Opacus history use numerics.epsilon(history, delta)")


def require_poisson_gaussian(schedule: Schedule, accountant: str) -> None:
    """Refuse, in one line, a schedule with a phase an accountant for the Poisson Gaussian cannot cover."""
    if isinstance(schedule, Schedule) and not schedule.is_poisson_gaussian:
        other = next(p for p in schedule.phases if p.kind != ("poisson", "gaussian"))
        raise InvalidParameter(f"{accountant} covers Poisson-sampled Gaussian phases only, got sampling "
                               f"{other.sampling!r} with noise {other.noise!r}; use numerics.epsilon")
