"""The claims ledger: every statement of the seed papers that the suite checks.

A claim is one small function registered with :func:`claim`. The decorator records the ledger entry
(id, seed file, seed lines, one-sentence statement, the status the ledger currently records and the
kind of evidence); the function computes a :class:`Verdict` from scratch. ``tests/test_ledger.py``
runs every claim and asserts the computed status equals the recorded one, so a changed verdict fails
loudly. Paper values are inputs (stored with their seed line), never outputs.

Status
------
``holds`` | ``refuted`` (with a counterexample a test recomputes) | ``holds-with-correction`` (true
after a stated correction, given in the evidence) | ``not-reproduced`` (a figure or experiment claim our
setting cannot decide: stand-in data, a model far smaller than the paper's; the reason says why) |
``open`` (with the reason).

Evidence kind
-------------
``symbolic`` (sympy identity), ``exact`` (exhaustive or exact arithmetic), ``rigorous`` (ball/interval
enclosure over a region), ``numeric`` (high-precision evaluation at stated points: a computed value
compared with a printed one, or an accountant certificate), ``sampled`` (evaluation at sampled points:
the weakest "holds"; the evidence must state how many points and where).

Claim ids read ``<seed>.<where>.<what>``, e.g. ``002.lemma-B3.conclusion``; seed is the three-digit
prefix of the seed file (``000`` ... ``004``) or ``numerics`` for the accountants' own checks.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional

STATUSES = ("holds", "refuted", "holds-with-correction", "not-reproduced", "open")
EVIDENCE_KINDS = ("symbolic", "exact", "rigorous", "numeric", "sampled")
SEED_FILES = {
    "000": "000_d613b97385d90362.txt",
    "001": "001_53c39e87fd81b1a8.txt",
    "002": "002_13c470b90c68bab6.txt",
    "003": "003_8b45c9baf0227e58.txt",
    "004": "004_da72e1d6878ba772.txt",
    "numerics": None,
}


@dataclass
class Verdict:
    """What a claim's check computed."""

    status: str
    evidence_kind: str
    margin: Optional[float] = None
    evidence: dict = field(default_factory=dict)
    counterexample: Optional[dict] = None
    reason: str = ""

    def __post_init__(self):
        if self.status not in STATUSES:
            raise ValueError(f"status must be one of {STATUSES}, got {self.status!r}")
        if self.evidence_kind not in EVIDENCE_KINDS:
            raise ValueError(f"evidence_kind must be one of {EVIDENCE_KINDS}, got {self.evidence_kind!r}")
        if self.status == "refuted" and not self.counterexample:
            raise ValueError("a refuted verdict needs a concrete counterexample")
        if self.status in ("open", "not-reproduced") and not self.reason:
            raise ValueError(f"a {self.status} verdict needs a reason")
        if self.evidence_kind == "sampled" and "points" not in self.evidence:
            raise ValueError("sampled evidence must state the number of points under evidence['points']")


@dataclass(frozen=True)
class Claim:
    """A ledger entry. ``check`` computes the verdict; ``recorded`` is what the ledger says today."""

    id: str
    seed: str
    lines: str
    statement: str
    recorded: str
    check: Callable[[], Verdict]
    version: str = "1"
    figure: Optional[str] = None  # path of a figure (PNG) the claim rests on, for the report

    @property
    def seed_file(self) -> Optional[str]:
        return SEED_FILES[self.seed]

    def evaluate(self) -> Verdict:
        v = self.check()
        if not isinstance(v, Verdict):
            raise TypeError(f"claim {self.id} returned {type(v).__name__}, not Verdict")
        return v


_REGISTRY: Dict[str, Claim] = {}


def claim(*, id: str, seed: str, lines: str, statement: str, recorded: str, version: str = "1",
          figure: Optional[str] = None):
    """Register the decorated zero-argument function as the check of a ledger claim."""
    if seed not in SEED_FILES:
        raise ValueError(f"unknown seed {seed!r}")
    if recorded not in STATUSES:
        raise ValueError(f"recorded status must be one of {STATUSES}, got {recorded!r}")
    if not id.startswith(seed + "."):
        raise ValueError(f"claim id {id!r} must start with its seed {seed!r}")

    def register(fn: Callable[[], Verdict]) -> Callable[[], Verdict]:
        if id in _REGISTRY and _REGISTRY[id].check.__qualname__ != fn.__qualname__:
            raise ValueError(f"duplicate claim id {id!r}")
        _REGISTRY[id] = Claim(id, seed, lines, statement, recorded, fn, version, figure)
        fn.claim_id = id
        return fn

    return register


#: packages whose modules are scanned for claims: every module below them is imported (no hand list).
CLAIM_PACKAGES = ("theory",)
#: modules under CLAIM_PACKAGES that hold no claims and are not imported by discovery.
NOT_CLAIM_MODULES = ("theory.report", "theory.notebooks")


def claim_modules() -> List[str]:
    """Every module under :data:`CLAIM_PACKAGES` (sorted), found by a scan of the package tree."""
    import importlib
    import pkgutil

    names = []
    for pkg_name in CLAIM_PACKAGES:
        pkg = importlib.import_module(pkg_name)
        for info in pkgutil.walk_packages(pkg.__path__, prefix=pkg_name + "."):
            if not info.name.startswith(NOT_CLAIM_MODULES):
                names.append(info.name)
    return sorted(names)


def load_all() -> List[Claim]:
    """Import every module under :data:`CLAIM_PACKAGES` and return the claims sorted by id.

    A module that fails to import raises: a missing or broken claim module is never skipped.
    """
    import importlib

    for name in claim_modules():
        importlib.import_module(name)
    return sorted(_REGISTRY.values(), key=lambda c: c.id)


def get(claim_id: str) -> Claim:
    load_all()
    return _REGISTRY[claim_id]


# --- helpers shared by claim checks -------------------------------------------------------------

def printed_tolerance(printed: str) -> float:
    """Half a unit in the last printed digit of a number as the paper prints it (e.g. '0.0495' -> 5e-5).

    A computed value agrees with a printed one when it rounds to it; this is the tolerance to use,
    derived from the printed string itself rather than typed in.
    """
    s = printed.strip().lower().lstrip("+-")
    mant, _, exp = s.partition("e")
    decimals = len(mant.split(".")[1]) if "." in mant else 0
    scale = 10.0 ** (int(exp) if exp else 0)
    return 0.5 * 10.0 ** (-decimals) * scale


def agrees_with_printed(value: float, printed: str) -> bool:
    """True when ``value`` rounds to the printed number (half-unit of the last printed digit)."""
    return math.isclose(value, float(printed), rel_tol=0.0, abs_tol=printed_tolerance(printed) * (1 + 1e-9))
