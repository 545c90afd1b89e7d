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
``symbolic`` (sympy identity), ``exact`` (exact arithmetic; over the whole stated domain, or a finite scan
that says so under ``evidence['domain']``), ``rigorous`` (ball/interval enclosure over a region, named
under ``evidence['domain']`` with the side of a one-sided certificate), ``numeric`` (high-precision evaluation at stated points: a computed value
compared with a printed one, or an accountant certificate), ``sampled`` (evaluation at sampled points:
the weakest "holds"; the evidence must state how many points and where).

Margin
------
One definition for every claim (:data:`MARGIN_DEFINITION`): the margin says by how much the statement
holds; **negative means the statement is violated**, zero means it holds with equality. Its unit is
relative (the slack divided by the size of the quantity compared) unless the claim states another unit
under ``evidence['margin_unit']``. So ``refuted`` carries a negative margin (or ``None`` with the reason
under ``evidence['margin_none']``), and ``holds`` a margin >= 0 when it gives one;
``tests/test_trust.py`` enforces the sign over the whole ledger.

Evidence coverage
-----------------
An ``exact`` or ``rigorous`` verdict says what it covered under ``evidence['domain']`` (a string:
``"whole stated domain"``, ``"exhaustive for lambda <= 120"``, ``"one-sided: upper"``, ...): a finite
scan is not the whole domain, and a one-sided certificate says which side.

Counterexamples
---------------
A claim may pass ``recheck=`` to :func:`claim`: a function of the counterexample dict that checks the
claim's hypotheses at that point (raising :class:`HypothesisFails` when they do not hold) and returns
the margin of the conclusion there, computed independently of the check where possible. The generic
test recomputes every refuted claim's counterexample through it.

Severity
--------
Findings are ordered by :data:`SEVERITIES` (most consequential first); :func:`default_severity` gives
the rule, and ``severity=`` on :func:`claim` overrides it for a claim.

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

STATUS_DEFINITIONS = {
    "holds": "the statement is true as printed, with the evidence of its kind",
    "refuted": "a concrete counterexample (recomputed by a test) violates the statement; negative margin",
    "holds-with-correction": "true after a stated correction (given in the evidence), which was checked",
    "not-reproduced": "our small-scale setting cannot decide it (stand-in data, smaller model); reason given",
    "open": "undecided; the reason says what is missing",
}
EVIDENCE_DEFINITIONS = {
    "symbolic": "a sympy identity or simplification, valid for all parameter values it assumes",
    "exact": "exact (rational/integer) arithmetic; evidence['domain'] says what was covered: the whole stated "
             "domain, or a finite scan such as 'exhaustive for lambda <= 120'",
    "rigorous": "ball/interval (Arb) enclosures over boxes covering a region; evidence['domain'] names the "
                "region and, for a one-sided certificate, the side",
    "numeric": "high-precision evaluation or a certified accountant at stated points",
    "sampled": "evaluation at sampled points (evidence['points'] says how many and where): the weakest 'holds'",
}
MARGIN_DEFINITION = (
    "How far the statement is from failing. Negative means the statement is violated, zero that it "
    "holds with equality, positive that it holds with room to spare. Unit: relative (slack / size of the "
    "compared quantity) unless the claim states evidence['margin_unit'].")
#: severity of a finding, most consequential first (the report orders findings by it); see default_severity
SEVERITIES = ("main-result-fails", "wrong-constant-or-step", "table-or-figure-value", "typo")
SEVERITY_DEFINITIONS = {
    "main-result-fails": "a main theorem, lemma or guarantee of the paper fails",
    "wrong-constant-or-step": "a wrong constant, hypothesis or proof step in a result that still holds (or a "
                              "secondary statement that fails)",
    "table-or-figure-value": "a value in a table, figure or worked example",
    "typo": "a typo that does not change any result",
}
#: where-parts (the middle of a claim id) that name a main result, and those that name a table or figure
MAIN_RESULT_PREFIXES = ("thm", "theorem", "lemma", "cor", "prop", "abstract", "main")
TABLE_FIGURE_PREFIXES = ("table", "fig", "figure", "example")
#: the order statuses are listed in when they are not findings (after every finding)
NON_FINDING_ORDER = ("open", "not-reproduced", "holds")


class HypothesisFails(AssertionError):
    """Raised by a claim's ``recheck`` when a counterexample does not satisfy the claim's hypotheses."""


def default_severity(claim_id: str, status: str) -> "Optional[str]":
    """The severity of a finding when the claim does not set one; ``None`` when ``status`` is no finding.

    Rule: only ``refuted`` and ``holds-with-correction`` are findings. A claim whose id's ``<what>`` part
    mentions ``typo`` is a typo; one whose ``<where>`` part starts with a table/figure/example prefix
    (:data:`TABLE_FIGURE_PREFIXES`) is a table or figure value; a refuted claim whose ``<where>`` names a
    theorem, lemma, corollary, proposition or the abstract (:data:`MAIN_RESULT_PREFIXES`) is a main result
    that fails; everything else (a corrected result, a refuted algorithm step or constant) is a wrong
    constant or step.
    """
    if status not in ("refuted", "holds-with-correction"):
        return None
    parts = claim_id.split(".")
    where = parts[1].lower() if len(parts) > 1 else ""
    what = ".".join(parts[2:]).lower()
    if "typo" in what:
        return "typo"
    if where.startswith(TABLE_FIGURE_PREFIXES):
        return "table-or-figure-value"
    if status == "refuted" and where.startswith(MAIN_RESULT_PREFIXES):
        return "main-result-fails"
    return "wrong-constant-or-step"


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
    severity: Optional[str] = None  # overrides default_severity for this claim's findings
    recheck: Optional[Callable[[dict], float]] = None  # counterexample -> margin (see module docstring)

    @property
    def seed_file(self) -> Optional[str]:
        return SEED_FILES[self.seed]

    def evaluate(self) -> Verdict:
        v = self.check()
        if not isinstance(v, Verdict):
            raise TypeError(f"claim {self.id} returned {type(v).__name__}, not Verdict")
        return v

    def severity_for(self, status: str) -> Optional[str]:
        """The severity of this claim's finding at ``status`` (``None`` when the status is no finding)."""
        default = default_severity(self.id, status)
        return self.severity if (default is not None and self.severity) else default


_REGISTRY: Dict[str, Claim] = {}


def claim(*, id: str, seed: str, lines: str, statement: str, recorded: str, version: str = "1",
          figure: Optional[str] = None, severity: Optional[str] = None,
          recheck: Optional[Callable[[dict], float]] = None):
    """Register the decorated zero-argument function as the check of a ledger claim.

    ``severity`` (one of :data:`SEVERITIES`) overrides :func:`default_severity` for this claim's findings;
    ``recheck`` recomputes a counterexample's margin (see the module docstring).
    """
    if severity is not None and severity not in SEVERITIES:
        raise ValueError(f"severity must be one of {SEVERITIES}, got {severity!r}")
    if seed not in SEED_FILES:
        raise ValueError(f"unknown seed {seed!r}")
    if recorded not in STATUSES:
        raise ValueError(f"recorded status must be one of {STATUSES}, got {recorded!r}")
    if not id.startswith(seed + "."):
        raise ValueError(f"claim id {id!r} must start with its seed {seed!r}")

    def register(fn: Callable[[], Verdict]) -> Callable[[], Verdict]:
        if id in _REGISTRY and _REGISTRY[id].check.__qualname__ != fn.__qualname__:
            raise ValueError(f"duplicate claim id {id!r}")
        _REGISTRY[id] = Claim(id, seed, lines, statement, recorded, fn, version, figure, severity, recheck)
        fn.claim_id = id
        return fn

    return register


#: packages whose modules are scanned for claims: every module below them is imported (no hand list).
#: ``DPV_CLAIM_PACKAGES`` (comma-separated) replaces it, e.g. to point the report at a test package.
CLAIM_PACKAGES = ("theory",)
#: modules under CLAIM_PACKAGES that hold no claims and are not imported by discovery.
NOT_CLAIM_MODULES = ("theory.report", "theory.notebooks")


def claim_modules() -> List[str]:
    """Every module under :data:`CLAIM_PACKAGES` (sorted), found by a scan of the package tree."""
    import importlib
    import os
    import pkgutil

    names = []
    packages = tuple(p for p in os.environ.get("DPV_CLAIM_PACKAGES", "").split(",") if p) or CLAIM_PACKAGES
    for pkg_name in packages:
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
