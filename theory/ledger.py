"""The claims ledger: every statement of the seed papers that the suite checks.

A claim is one small function registered with :func:`claim`. The decorator records the ledger entry
(id, seed file, seed lines, one-sentence statement, the status the ledger currently records and the
kind of evidence); the function computes a :class:`Verdict` from scratch. ``tests/test_ledger.py``
runs every claim and asserts the computed status equals the recorded one, so a changed verdict fails
loudly. Paper values are inputs (stored with their seed line), never outputs.

Status
------
``holds`` | ``refuted`` (with a counterexample a test recomputes) | ``holds-with-correction`` (true
after a stated correction, given in the evidence) | ``not-reproduced`` (a figure or experiment claim that
needs something the suite cannot have, named in :class:`Missing`) | ``open`` (with the reason).

Not reproduced
--------------
A ``not-reproduced`` verdict names what is missing in ``Verdict.missing`` (:class:`Missing`): a data set
that is not available offline, a model family the suite does not train, or compute beyond what it can
run (with a measured estimate). Run length, a grid, the number of seeds or a constant the paper leaves
unstated are never a reason: the paper's setting is run, and unstated constants are varied over a stated
range (``tests/test_not_reproduced.py`` enforces it).

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

Results, roles and severity
---------------------------
Every claim names the paper result it belongs to (``result``: "Theorem 2", "Lemma B.3", "Table 3",
"Fig 6", "Algorithm 1", "L312" for a sentence of the running text) and its ``role`` there (:data:`ROLES`):
the result's conclusion, a hypothesis, a proof step, a constant, a definition, a printed value, a figure,
a worked example, a remark, a typo, or ``method`` (a claim about how the suite accounts, not a finding
on the paper). The severity of a finding is :func:`severity`, a function of the claim's role, its status
and the status of its result's conclusion (the worst status over the result's ``conclusion`` claims);
nothing reads the claim id. Claims that follow from one error share a ``cause`` (a short slug); each
paper's summary counts findings by cause, and a claim without one is its own cause.

Why, readings, arithmetic
-------------------------
A verdict that is not ``holds`` carries a ``why``: the argument in words and formulas, naming the
numbers that decide it (computed, never typed in). A verdict that rests on a choice the paper leaves
open lists the readings it checked (:class:`Reading`), the one the status uses first, with the seed
line that supports it. ``arithmetic`` records what the computation used (:data:`ARITHMETIC`), so that
the evidence kind can be held against it: ``exact`` means integer, rational or symbolic arithmetic only,
``symbolic`` uses sympy, ``rigorous`` uses ball arithmetic.

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
    "not-reproduced": "needs something the suite cannot have: a data set, a model family, or compute beyond "
                      "what it can run (measured estimate); named in the verdict's `missing` field",
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
#: what a claim is within its paper result (see ROLE_DEFINITIONS)
ROLES = ("conclusion", "hypothesis", "proof-step", "constant", "definition", "printed-value", "figure",
         "example", "remark", "typo", "method")
ROLE_DEFINITIONS = {
    "conclusion": "the conclusion a result states (a theorem's bound, a guarantee, a sentence's claim)",
    "hypothesis": "a hypothesis or condition a result assumes",
    "proof-step": "a step or displayed inequality of the proof",
    "constant": "a constant or parameter value a result uses",
    "definition": "a definition, or an algorithm step as specified",
    "printed-value": "a number printed in a table, caption or the running text",
    "figure": "what a figure or experiment shows",
    "example": "a worked example",
    "remark": "a remark or comparison that is not part of a result's conclusion",
    "typo": "a typo that changes no result",
    "method": "how the suite accounts or decides, not a statement of the paper (never a finding on it)",
}
#: the statuses that are findings on the paper
FINDING_STATUSES = ("refuted", "holds-with-correction")
#: severity of a finding, most consequential first (the report orders findings by it); see severity()
SEVERITIES = ("result-fails", "result-unproven", "result-needs-correction", "wrong-constant-or-step",
              "table-or-figure-value", "typo")
SEVERITY_DEFINITIONS = {
    "result-fails": "the conclusion of a stated result (theorem, lemma, corollary, guarantee, claim of the text) "
                    "is refuted",
    "result-unproven": "a hypothesis, step or constant of a result is refuted and the suite has not decided the "
                       "result's conclusion (no conclusion claim, or it is open): the proof does not establish it",
    "result-needs-correction": "the conclusion of a stated result holds only after a stated correction",
    "wrong-constant-or-step": "a wrong hypothesis, proof step, constant, definition or remark in a result whose "
                              "conclusion is decided (it holds, holds with a correction, or fails for its own reason)",
    "table-or-figure-value": "a value printed in a table, figure, caption or worked example",
    "typo": "a typo that does not change any result",
}
#: the rule behind severity(), shown in the report's definitions
SEVERITY_RULE = (
    "Only refuted and holds-with-correction claims are findings, and never a claim whose role is `method`. "
    "Role `typo` gives `typo`; roles `printed-value`, `figure` and `example` give `table-or-figure-value`; "
    "role `conclusion` gives `result-fails` when refuted and `result-needs-correction` when corrected; role "
    "`remark` (a side statement, not a step of a result) gives `wrong-constant-or-step`; every other role "
    "(hypothesis, proof-step, constant, definition) gives `result-unproven` when the claim is refuted and its "
    "result's conclusion is undecided (no conclusion claim, open or not-reproduced), else "
    "`wrong-constant-or-step`. The claim id is never read.")
#: which status of a result's conclusions decides it, worst first
CONCLUSION_ORDER = ("refuted", "holds-with-correction", "open", "not-reproduced", "holds")
#: what a computation may have used (Verdict.arithmetic) and what each evidence kind allows
ARITHMETIC = ("integer", "rational", "sympy", "arb", "mpmath", "float")
EXACT_ARITHMETIC = ("integer", "rational", "sympy")
#: the order statuses are listed in when they are not findings (after every finding)
NON_FINDING_ORDER = ("open", "not-reproduced", "holds")


#: what a not-reproduced verdict may name as missing (Missing.kind)
MISSING_KINDS = ("data set", "model family", "compute")
MISSING_DEFINITIONS = {
    "data set": "the paper's data set is not available offline (a stand-in is not the paper's data)",
    "model family": "the paper's model family (e.g. a CNN or LSTM of its size) is not trained by the suite",
    "compute": "the paper's setting needs compute beyond what the suite can run; the estimate is measured",
}


@dataclass(frozen=True)
class Missing:
    """What a ``not-reproduced`` verdict lacks: ``kind`` (:data:`MISSING_KINDS`), ``what`` (named: "USPS",
    "the paper's CNN (Fig. 6(c))"), and for ``compute`` a measured ``estimate`` ("12.3 s per run measured
    x 4,000 runs = 13.7 CPU-hours")."""

    kind: str
    what: str
    estimate: str = ""

    def __post_init__(self):
        if self.kind not in MISSING_KINDS:
            raise ValueError(f"missing kind must be one of {MISSING_KINDS}, got {self.kind!r}")
        if not self.what.strip():
            raise ValueError("missing must name what is missing")
        if self.kind == "compute" and not any(ch.isdigit() for ch in self.estimate):
            raise ValueError("missing compute needs a measured estimate (with its numbers)")


class HypothesisFails(AssertionError):
    """Raised by a claim's ``recheck`` when a counterexample does not satisfy the claim's hypotheses."""


def severity(role: Optional[str], status: str, conclusion_status: Optional[str] = None) -> Optional[str]:
    """The severity of a claim's finding (:data:`SEVERITY_RULE`); ``None`` when it is no finding.

    ``conclusion_status`` is the worst status (:data:`CONCLUSION_ORDER`) of the claims whose role is
    ``conclusion`` in the same paper result, ``None`` when the result has none.
    """
    if status not in FINDING_STATUSES or role == "method":
        return None
    if role == "typo":
        return "typo"
    if role in ("printed-value", "figure", "example"):
        return "table-or-figure-value"
    if role == "conclusion":
        return "result-fails" if status == "refuted" else "result-needs-correction"
    if status == "refuted" and role != "remark" and conclusion_status in (None, "open", "not-reproduced"):
        return "result-unproven"
    return "wrong-constant-or-step"


def conclusion_status(statuses) -> Optional[str]:
    """The worst of a result's conclusion statuses (:data:`CONCLUSION_ORDER`), ``None`` for none."""
    known = [s for s in statuses if s in CONCLUSION_ORDER]
    return min(known, key=CONCLUSION_ORDER.index) if known else None


@dataclass(frozen=True)
class Reading:
    """One reading of a choice the paper leaves open, and what the claim's check gives under it.

    ``name`` says the choice ("noise std z*L, so replace-one moves the sum by 2L"), ``lines`` the seed
    line(s) that support it, ``status``/``margin``/``why`` the outcome under it (computed)."""

    name: str
    lines: str
    status: str
    margin: Optional[float] = None
    why: str = ""

    def __post_init__(self):
        if self.status not in STATUSES:
            raise ValueError(f"reading status must be one of {STATUSES}, got {self.status!r}")


@dataclass
class Verdict:
    """What a claim's check computed."""

    status: str
    evidence_kind: str
    margin: Optional[float] = None
    evidence: dict = field(default_factory=dict)
    counterexample: Optional[dict] = None
    reason: str = ""
    why: str = ""  # the argument, with its deciding numbers (required unless the status is holds)
    readings: tuple = ()  # Reading values: the one this status uses first, then the alternatives checked
    arithmetic: tuple = ()  # what the computation used, from ARITHMETIC
    missing: Optional[Missing] = None  # what a not-reproduced verdict lacks (required for it, else None)

    def __post_init__(self):
        if self.status not in STATUSES:
            raise ValueError(f"status must be one of {STATUSES}, got {self.status!r}")
        if self.evidence_kind not in EVIDENCE_KINDS:
            raise ValueError(f"evidence_kind must be one of {EVIDENCE_KINDS}, got {self.evidence_kind!r}")
        if self.status == "refuted" and not self.counterexample:
            raise ValueError("a refuted verdict needs a concrete counterexample")
        if self.status in ("open", "not-reproduced") and not self.reason:
            raise ValueError(f"a {self.status} verdict needs a reason")
        if self.status == "not-reproduced" and not isinstance(self.missing, Missing):
            raise ValueError("a not-reproduced verdict names what is missing: missing=Missing(kind, what[, estimate])")
        if self.status != "not-reproduced" and self.missing is not None:
            raise ValueError(f"only a not-reproduced verdict names what is missing, not {self.status!r}")
        if self.evidence_kind == "sampled" and "points" not in self.evidence:
            raise ValueError("sampled evidence must state the number of points under evidence['points']")
        self.arithmetic = tuple(self.arithmetic)
        self.readings = tuple(self.readings)
        check_arithmetic(self.evidence_kind, self.arithmetic)
        if self.readings and self.readings[0].status != self.status:
            raise ValueError(f"the first reading is the one the status uses: {self.readings[0].status!r} "
                             f"is not {self.status!r}")


def check_arithmetic(kind: str, arithmetic: tuple) -> None:
    """Raise ValueError when ``arithmetic`` cannot back an evidence ``kind`` (empty means not stated)."""
    unknown = [a for a in arithmetic if a not in ARITHMETIC]
    if unknown:
        raise ValueError(f"arithmetic must be drawn from {ARITHMETIC}, got {unknown}")
    if not arithmetic:
        return
    if kind == "exact" and not set(arithmetic) <= set(EXACT_ARITHMETIC):
        raise ValueError(f"exact evidence allows only {EXACT_ARITHMETIC} arithmetic, got {arithmetic}: "
                         f"use 'numeric' for floats or mpmath at any precision")
    if kind == "symbolic" and "sympy" not in arithmetic:
        raise ValueError("symbolic evidence needs sympy among its arithmetic")
    if kind == "rigorous" and "arb" not in arithmetic:
        raise ValueError("rigorous evidence needs ball arithmetic ('arb') among its arithmetic")


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
    recheck: Optional[Callable[[dict], float]] = None  # counterexample -> margin (see module docstring)
    result: Optional[str] = None  # the paper result it belongs to: "Theorem 2", "Table 3", "L312"
    role: Optional[str] = None  # one of ROLES
    cause: Optional[str] = None  # slug shared by the claims that follow from one error

    @property
    def seed_file(self) -> Optional[str]:
        return SEED_FILES[self.seed]

    def evaluate(self) -> Verdict:
        v = self.check()
        if not isinstance(v, Verdict):
            raise TypeError(f"claim {self.id} returned {type(v).__name__}, not Verdict")
        return v

    def severity_for(self, status: str, conclusion_status: Optional[str] = None) -> Optional[str]:
        """The severity of this claim's finding at ``status`` (:func:`severity`)."""
        return severity(self.role, status, conclusion_status)


_REGISTRY: Dict[str, Claim] = {}


def claim(*, id: str, seed: str, lines: str, statement: str, recorded: str, version: str = "1",
          figure: Optional[str] = None, recheck: Optional[Callable[[dict], float]] = None,
          result: Optional[str] = None, role: Optional[str] = None, cause: Optional[str] = None):
    """Register the decorated zero-argument function as the check of a ledger claim.

    ``result`` and ``role`` place the claim in its paper result (module docstring); ``cause`` groups the
    claims that follow from one error; ``recheck`` recomputes a counterexample's margin.
    """
    if role is not None and role not in ROLES:
        raise ValueError(f"role must be one of {ROLES}, got {role!r}")
    if seed not in SEED_FILES:
        raise ValueError(f"unknown seed {seed!r}")
    if recorded not in STATUSES:
        raise ValueError(f"recorded status must be one of {STATUSES}, got {recorded!r}")
    if not id.startswith(seed + "."):
        raise ValueError(f"claim id {id!r} must start with its seed {seed!r}")

    def register(fn: Callable[[], Verdict]) -> Callable[[], Verdict]:
        if id in _REGISTRY and _REGISTRY[id].check.__qualname__ != fn.__qualname__:
            raise ValueError(f"duplicate claim id {id!r}")
        _REGISTRY[id] = Claim(id, seed, lines, statement, recorded, fn, version, figure, recheck, result, role,
                              cause)
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
