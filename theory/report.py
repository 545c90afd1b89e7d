"""``make report``: evaluate every claim of the ledger and write the verdicts.

    python -m theory.report [--fresh] [--scheduler ADDRESS] [--backend serial|local|cluster] [--out DIR]

Every claim's check runs through the one sweep runner (numerics.sweep), in batches per paper, so the
report runs serially, on a local Dask cluster or on an existing scheduler; a second run takes cached
verdicts for the claims whose code did not change (``--fresh``, ``make report FRESH=1``, recomputes
everything). After each batch (at most BATCH_SIZE claims of one paper) one progress line goes to stdout
(flushed, terminal or not) with the counts so far and the elapsed time; in between, at least every
:data:`HEARTBEAT` seconds, a line with the claims done, a long claim's certificate boxes done and an
estimate of the time left (issue 34).
Writes, in ``report/``:

``verdicts.json``     one object per claim, sorted by id: id, seed, lines, statement, recorded, status,
                      evidence_kind, margin, evidence, counterexample, reason, severity, problem (and
                      figure). A pure function of the tree: no timing or host fact, floats rounded to
                      :data:`FLOAT_DIGITS` significant digits, keys sorted; a rerun on an unchanged tree
                      rewrites the same bytes.
``VERDICTS.md``       definitions (margin, statuses, evidence kinds, severity order), the problems first,
                      then one section per paper (title, authors, seed file, a one-screen summary with
                      inventory coverage, findings by severity, the other claims). Also pure.
``html/index.html``   the same as a static site, one page per paper (theory.report_html).
``run.json``          how the report ran: backend, scheduler, workers, wall time, cache hits and misses,
                      seconds per claim. Host facts change every run, so it is git-ignored.

Problems (:data:`PROBLEMS`) make the command exit 1 after writing the files, and are listed first: a claim
module that fails to import, a check that raises (status ``error``), a figure claim whose data is stale
(its check raised ``repro.provenance.StaleFigureData``; status ``stale``), and a computed status that
differs from the one the ledger records.
"""
from __future__ import annotations

import argparse
import dataclasses
import importlib
import json
import math
import os
import re
import sys
import time
from collections import Counter
from functools import lru_cache
from dataclasses import dataclass
from importlib.util import find_spec
from pathlib import Path
from typing import Callable, Dict, List, Optional, Tuple

from numerics.cli import jsonable
from numerics.sweep import SweepError, SweepFailure, source_digest, sweep, versioned

from . import inventory, ledger

ROOT = Path(__file__).resolve().parent.parent
REPORT_DIR = ROOT / "report"
ERROR, STALE = "error", "stale"
#: the class a figure claim raises when its CSV's provenance sidecar does not match (repro.provenance);
#: matched by name, so the report does not import repro.provenance
STALE_EXCEPTION = "StaleFigureData"
#: what makes the report fail, in the order the report lists them (most urgent first)
PROBLEMS = {
    "import-error": "a claim module fails to import (its claims are missing from the ledger)",
    "error": "the claim's check raised",
    "stale": "the figure or table data the claim reads is stale (its provenance sidecar does not match)",
    "mismatch": "the computed status differs from the status the ledger records",
}
#: significant digits of every float written to verdicts.json (stable across reruns and platforms)
FLOAT_DIGITS = 12
#: claims per sweep batch: one progress line per batch, so a cold report is never silent for long
BATCH_SIZE = 24
#: how many findings a paper's summary names (the table below it lists them all)
TOP_FINDINGS = 5
VERDICT_KEYS = ("status", "evidence_kind", "margin", "evidence", "counterexample", "reason", "why", "readings",
                "arithmetic", "missing")
#: what the ledger says of a claim beside its verdict
CLAIM_KEYS = ("result", "role", "cause")


# --- loading claims: a broken claim module is a reported error, not a crashed report ----------------

def import_claim_modules() -> Dict[str, str]:
    """Import every module that :func:`theory.ledger.claim_modules` discovers; return ``{module: error}``
    for those that fail, so the report can show them (and exit non-zero).
    """
    broken = {}
    for name in ledger.claim_modules():
        try:
            importlib.import_module(name)
        except Exception as exc:  # noqa: BLE001 - reported as an import-error row
            broken[name] = f"{type(exc).__name__}: {exc}"
    return broken


def claims() -> List[ledger.Claim]:
    """Every registered claim, sorted by id (the modules that import cleanly)."""
    import_claim_modules()
    return sorted(ledger._REGISTRY.values(), key=lambda c: c.id)


def _find(claim_id: str) -> ledger.Claim:
    for c in claims():
        if c.id == claim_id:
            return c
    raise KeyError(f"no claim with id {claim_id!r} in the ledger")


# --- evaluating one claim (the sweep function) ----------------------------------------------------

@versioned("1")
def evaluate_claim(claim_id: str, source: str = "") -> dict:
    """Compute one claim's verdict as a JSON-able dict (plus the seconds it took).

    ``source`` is a digest of the claim module's source closure; it is part of the sweep point only so
    that editing a claim invalidates its cached verdict. A check that raises propagates (the report
    records it as an error, or as stale data; a failed point is never cached).
    """
    c = _find(claim_id)
    t0 = time.perf_counter()
    v = c.evaluate()
    seconds = time.perf_counter() - t0
    return jsonable({"status": v.status, "evidence_kind": v.evidence_kind, "margin": v.margin,
                     "evidence": v.evidence, "counterexample": v.counterexample, "reason": v.reason,
                     "why": v.why, "readings": [dataclasses.asdict(r) for r in v.readings],
                     "arithmetic": list(v.arithmetic),
                     "missing": dataclasses.asdict(v.missing) if v.missing is not None else None,
                     "seconds": seconds})


def _figure_state(figure: str) -> str:
    """Digest of a figure claim's data: its CSV, the CSV's provenance sidecar and whether it is fresh now
    (repro.provenance.check_fresh), so that a regenerated or stale CSV re-evaluates the claim instead of
    reusing a cached verdict."""
    import hashlib

    from repro.provenance import check_fresh, sidecar_path

    csv = (ROOT / figure).with_suffix(".csv")
    h = hashlib.sha256(repr(check_fresh(csv)).encode())
    for p in (csv, sidecar_path(csv)):
        h.update(p.read_bytes() if p.exists() else b"missing")
    return h.hexdigest()


def _figure_state_cached(figure: str) -> str:
    return _figure_state_at(figure, str(ROOT))


@lru_cache(maxsize=None)
def _figure_state_at(figure: str, root: str) -> str:
    return _figure_state(figure)


@lru_cache(maxsize=None)
def _figure_patterns(out_dir: str) -> tuple:
    stems = sorted(p.stem for p in Path(out_dir).glob("*.csv"))
    return tuple((s, re.compile(rf"(?<![A-Za-z0-9]){re.escape(s)}(?![0-9a-z])")) for s in stems)


@lru_cache(maxsize=None)
def _stems_named_in(name: str, out_dir: str) -> frozenset:
    from numerics.sweep import _module_source

    source = (_module_source(name)[0] or b"").decode("utf-8", "replace")
    if "fig_" not in source and "table_" not in source:
        return frozenset()
    return frozenset(s for s, pat in _figure_patterns(out_dir) if pat.search(source))


def figures_read(module: str) -> tuple:
    """The figure outputs (``figures/out/<stem>.csv``) whose stem appears in the source of ``module`` or of a
    suite module it imports: a claim's verdict is keyed by their data too, so a regenerated CSV re-evaluates
    every claim that may read it, declared ``figure=`` or not (over-inclusion only costs a recomputation).
    The caches are keyed by the output directory (tests point ROOT elsewhere)."""
    return _figures_read(module, str(ROOT / "figures" / "out"))


@lru_cache(maxsize=None)
def _figures_read(module: str, out_dir: str) -> tuple:
    from numerics.sweep import closure

    return tuple(sorted(set().union(*(_stems_named_in(name, out_dir) for name in closure(module)))))


def _source(c: ledger.Claim) -> str:
    """The cache key of a claim's verdict: its module's source closure and the data of every figure the claim
    declares or its modules name (``figures_read``)."""
    module = c.check.__module__
    try:
        digest = source_digest(module)
        named = figures_read(module)
    except Exception:  # noqa: BLE001 - a module outside the suite (tests) has no digest
        digest, named = "", ()
    figures = sorted(set(named) | ({Path(c.figure).stem} if c.figure else set()))
    return digest + "".join(f":{f}={_figure_state_cached(f'figures/out/{f}.png')}" for f in figures)


def stable(value):
    """``value`` as plain JSON with every float rounded to :data:`FLOAT_DIGITS` significant digits."""
    value = jsonable(value)
    if isinstance(value, float):
        return float(f"{value:.{FLOAT_DIGITS}g}") if math.isfinite(value) else value
    if isinstance(value, dict):
        return {k: stable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [stable(v) for v in value]
    return value


def _failure_status(error: str) -> str:
    return STALE if error.split(":", 1)[0].strip() == STALE_EXCEPTION else ERROR


def problem_of(entry: dict) -> Optional[str]:
    """Which of :data:`PROBLEMS` an entry has, or ``None``."""
    if entry["seed"] == "import":
        return "import-error"
    if entry["status"] in (ERROR, STALE):
        return entry["status"]
    if entry["recorded"] is not None and entry["status"] != entry["recorded"]:
        return "mismatch"
    return None


def _entry(c: ledger.Claim, result) -> dict:
    if isinstance(result, SweepFailure):
        result = {"status": _failure_status(result.error), "evidence_kind": None, "margin": None,
                  "evidence": {}, "counterexample": None, "reason": result.error}
    entry = {"id": c.id, "seed": c.seed, "lines": c.lines, "statement": c.statement,
             "recorded": c.recorded, "figure": c.figure}
    entry.update({k: getattr(c, k) for k in CLAIM_KEYS})
    entry.update({k: result.get(k) for k in VERDICT_KEYS})
    entry["why"] = entry["why"] or ""
    entry["readings"] = entry["readings"] or []
    entry["arithmetic"] = entry["arithmetic"] or []
    entry["missing"] = entry["missing"] or None
    entry["severity"] = None  # set by with_severities, which needs every conclusion's status
    entry["problem"] = problem_of(entry)
    return stable(entry)


def with_severities(entries: List[dict]) -> List[dict]:
    """Set each entry's severity (:func:`theory.ledger.severity`): a function of its role, its status and
    the status of its result's conclusion claims, never of its id."""
    conclusions: Dict[Tuple[str, str], list] = {}
    for e in entries:
        if e.get("role") == "conclusion" and e.get("result"):
            conclusions.setdefault((e["seed"], e["result"]), []).append(e["status"])
    for e in entries:
        statuses = conclusions.get((e["seed"], e.get("result")), ())
        e["severity"] = ledger.severity(e.get("role"), e["status"], ledger.conclusion_status(statuses))
    return entries


def _import_error_entry(module: str, error: str) -> dict:
    entry = {"id": module, "seed": "import", "lines": "", "statement": f"claim module {module} imports",
             "recorded": None, "figure": None, "status": ERROR, "evidence_kind": None, "margin": None,
             "evidence": {}, "counterexample": None, "reason": error, "severity": None, "result": None,
             "role": None, "cause": None, "why": "", "readings": [], "arithmetic": [], "missing": None}
    entry["problem"] = problem_of(entry)
    return entry


def _groups(claim_list: List[ledger.Claim]) -> List[Tuple[str, List[ledger.Claim]]]:
    seeds = sorted({c.seed for c in claim_list})
    return [(s, sorted((c for c in claim_list if c.seed == s), key=lambda c: c.id)) for s in seeds]


def _batches(claim_list: List[ledger.Claim]) -> List[Tuple[str, List[ledger.Claim]]]:
    """Each paper's claims in batches of at most :data:`BATCH_SIZE` (one progress line per batch)."""
    out = []
    for seed, group in _groups(claim_list):
        n = -(-len(group) // BATCH_SIZE)
        for k in range(n):
            out.append((f"seed {seed}" + (f" part {k + 1}/{n}" if n > 1 else ""),
                        group[k * BATCH_SIZE:(k + 1) * BATCH_SIZE]))
    return out


def evaluate(claim_list: List[ledger.Claim], *, fresh: bool = False, scheduler: Optional[str] = None,
             backend: Optional[str] = None, progress: Optional[Callable[[str], None]] = None
             ) -> Tuple[List[dict], dict]:
    """Evaluate the claims through the sweep runner, in batches per paper; return (entries sorted by id,
    run facts). ``progress`` receives one line per batch (counts and elapsed time), and while a batch runs
    the sweep runner's lines (at least every ``numerics.sweep.PROGRESS_EVERY`` s: claims done, the boxes
    of a long claim's certificate, elapsed, an estimate of what is left)."""
    t0 = time.perf_counter()
    heartbeat = None if progress is None else (
        lambda line: progress(f"report: {line}; {time.perf_counter() - t0:.0f} s elapsed in all"))
    entries, seconds = [], {}
    run = {"backend": None, "scheduler": scheduler, "workers": None, "cache_hits": 0, "cache_misses": 0}
    groups = _batches(claim_list)
    # every cache key up front: the digests' import scans then reach the disk before any worker starts, so
    # the workers read them instead of parsing (and writing) them again while claims run
    sources = {c.id: _source(c) for c in claim_list}
    for k, (label, group) in enumerate(groups, 1):
        stats: dict = {}
        results = sweep(evaluate_claim, [{"claim_id": c.id, "source": sources[c.id]} for c in group],
                        cache=not fresh, scheduler=scheduler, backend=backend, stats=stats,
                        desc=f"claims {label}", on_error="record", progress=heartbeat, unit="claims")
        batch = [_entry(c, r) for c, r in zip(group, results)]
        for c, r in zip(group, results):
            seconds[c.id] = None if isinstance(r, SweepFailure) else r.get("seconds")
        entries += batch
        run.update(backend=stats.get("backend"), scheduler=stats.get("scheduler", scheduler),
                   workers=max(run["workers"] or 0, stats.get("workers") or 0))
        run["cache_hits"] += stats.get("cache_hits", 0)
        run["cache_misses"] += stats.get("cache_misses", 0)
        if progress:
            counts = Counter(e["status"] for e in batch)
            problems = sum(1 for e in batch if e["problem"])
            progress(f"report: [{k}/{len(groups)}] {label}: {len(batch)} claims "
                     f"({stats.get('cache_hits', 0)} cached, {stats.get('cache_misses', 0)} computed): "
                     + ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))
                     + f"; {problems} problem(s); {time.perf_counter() - t0:.1f} s elapsed")
    run.update(wall_time=time.perf_counter() - t0, fresh=fresh, claims=len(entries),
               seconds_per_claim=seconds)
    return with_severities(sorted(entries, key=lambda e: e["id"])), run


# --- papers: title, authors, seed file, inventory ----------------------------------------------------

@dataclass
class Paper:
    """One section of the report: a seed and the package holding its claims."""

    seed: str
    package: Optional[str]
    title: str
    authors: str
    seed_file: Optional[str]
    items: Optional[tuple]  # the package's inventory.ITEMS, None when it has no inventory yet

    @property
    def slug(self) -> str:
        return f"paper-{self.seed}"

    def coverage(self) -> Optional[dict]:
        return None if self.items is None else inventory.coverage_counts(self.items)

    def uncovered(self) -> list:
        return [i for i in (self.items or ()) if i.coverage == inventory.UNCOVERED]


def paper_package(module: str) -> str:
    """The package a claim module belongs to: ``theory.<paper>`` under theory/, else its top package."""
    parts = module.split(".")
    return ".".join(parts[:2]) if parts[0] == "theory" and len(parts) > 2 else parts[0]


def _inventory_items(package: str) -> Optional[tuple]:
    name = f"{package}.inventory"
    try:
        if find_spec(name) is None:
            return None
    except (ImportError, ValueError):
        return None
    return tuple(getattr(importlib.import_module(name), "ITEMS", ()))


def _docstring_title(module) -> str:
    """The first paragraph of a package's docstring: the heading of a paper package without ``TITLE``."""
    paragraph = (getattr(module, "__doc__", None) or "").strip().split("\n\n")[0]
    return " ".join(paragraph.split())


def papers_of(claim_list: List[ledger.Claim]) -> Dict[str, Paper]:
    """``{seed: Paper}``: each package's ``TITLE``, ``AUTHORS`` and ``SEED`` (read with fallbacks, so a new
    paper package without them still gets a section) and its inventory."""
    out = {}
    for seed, group in _groups(claim_list):
        packages = sorted({paper_package(c.check.__module__) for c in group})
        package = packages[0] if packages else None
        mod = sys.modules.get(package) if package else None
        seed_file = ledger.SEED_FILES.get(seed)
        out[seed] = Paper(seed=seed, package=package,
                          title=getattr(mod, "TITLE", None) or _docstring_title(mod) or f"Seed {seed}",
                          authors=getattr(mod, "AUTHORS", None) or "authors not stated",
                          seed_file=getattr(mod, "SEED", None) or seed_file,
                          items=_inventory_items(package) if package else None)
    return out


# --- ordering: problems first, then findings by severity, then the rest ---------------------------

def order_key(entry: dict) -> tuple:
    """Problems (in :data:`PROBLEMS` order), then findings by :data:`theory.ledger.SEVERITIES`, then
    open, not-reproduced and holds; by id within each."""
    problems = list(PROBLEMS)
    if entry["problem"]:
        return (0, problems.index(entry["problem"]), entry["id"])
    if entry["severity"]:
        return (1, ledger.SEVERITIES.index(entry["severity"]), entry["id"])
    rest = ledger.NON_FINDING_ORDER
    return (2, rest.index(entry["status"]) if entry["status"] in rest else len(rest), entry["id"])


def ordered(entries: List[dict]) -> List[dict]:
    return sorted(entries, key=order_key)


def figure_href(figure: str, from_dir: Path) -> Optional[str]:
    """A relative link from ``from_dir`` to a claim's figure, or ``None`` when the file is missing."""
    target = ROOT / figure
    if not target.is_file():
        return None
    return Path(os.path.relpath(target, from_dir)).as_posix()


# --- Markdown -------------------------------------------------------------------------------------

def _cell(value) -> str:
    text = value if isinstance(value, str) else json.dumps(value, sort_keys=True, separators=(",", ":"))
    return " ".join(str(text).split()).replace("|", "\\|")


def format_margin(m) -> str:
    return "" if m is None else (f"{m:.4g}" if isinstance(m, float) else _cell(m))


def format_value(v) -> str:
    """A counterexample value as a reader wants it: floats to 6 significant digits, short lists inline."""
    if isinstance(v, bool) or v is None:
        return str(v)
    if isinstance(v, float):
        return f"{v:.6g}"
    if isinstance(v, (list, tuple)):
        shown = ", ".join(format_value(x) for x in v[:6])
        return f"[{shown}{', ...' if len(v) > 6 else ''}]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {format_value(x)}" for k, x in v.items()) + "}"
    return str(v)


def counterexample_items(cx) -> List[Tuple[str, str]]:
    """A counterexample as (name, value) rows; nested dicts flatten to dotted names."""
    if not cx:
        return []
    if not isinstance(cx, dict):
        return [("value", format_value(cx))]
    rows: List[Tuple[str, str]] = []
    for k, v in cx.items():
        if isinstance(v, dict) and v:
            rows += [(f"{k}.{name}", value) for name, value in counterexample_items(v)]
        else:
            rows.append((str(k), format_value(v)))
    return rows


def why_text(e: dict) -> str:
    """The argument of a verdict: its why, else (open, not-reproduced, problems) its reason."""
    return e.get("why") or (e["reason"] if e["status"] != "holds" else "") or ""


def missing_text(e: dict) -> str:
    """What a not-reproduced verdict lacks: "data set: USPS (...)", with a compute estimate when it has one."""
    m = e.get("missing")
    if not m:
        return ""
    return f"{m['kind']}: {m['what']}" + (f" (estimate: {m['estimate']})" if m.get("estimate") else "")


def reading_text(e: dict) -> str:
    """"refuted under every reading considered: A (L1); B (L2)" or "refuted under A (L1); holds under B (L2)"."""
    readings = e.get("readings") or []
    if not readings:
        return ""
    named = [f"{r['name']} ({r['lines']})" for r in readings]
    if len(readings) > 1 and len({r["status"] for r in readings}) == 1:
        return f"{readings[0]['status']} under every reading considered: " + "; ".join(named)
    return "; ".join(f"{r['status']} under {n}" for r, n in zip(readings, named))


def cause_of(e: dict) -> str:
    """The error a finding follows from: its cause slug, else the claim itself."""
    return e.get("cause") or e["id"]


def is_finding(e: dict) -> bool:
    return bool(e["problem"] or e["severity"])


def top_findings(findings: List[dict], n: int = TOP_FINDINGS) -> List[dict]:
    """The first ``n`` findings in report order, each cause once (its most consequential claim)."""
    seen, out = set(), []
    for e in findings:
        if cause_of(e) not in seen:
            seen.add(cause_of(e))
            out.append(e)
    return out[:n]


def cause_counts(findings: List[dict]) -> str:
    """"7 findings from 5 causes: 2 result-fails, 3 table-or-figure-value" (each cause at its worst severity)."""
    worst: Dict[str, str] = {}
    for e in findings:  # already in report order: the first claim of a cause is its worst
        worst.setdefault(cause_of(e), e["problem"] or e["severity"])
    by_severity = Counter(worst.values())
    order = list(PROBLEMS) + list(ledger.SEVERITIES)
    parts = ", ".join(f"{by_severity[k]} {k}" for k in order if by_severity.get(k))
    return f"{len(findings)} findings from {len(worst)} causes" + (f": {parts}" if parts else "")


def results_with_findings(group: List[dict]) -> List[Tuple[str, Optional[str], List[dict]]]:
    """[(result, status of its conclusion, its claims: conclusions first, then the findings among the rest)]
    for every result with a finding, most consequential first."""
    by_result: Dict[str, List[dict]] = {}
    for e in group:
        by_result.setdefault(e.get("result") or "(no result named)", []).append(e)
    out = []
    for result, entries in by_result.items():
        findings = [e for e in entries if is_finding(e)]
        if not findings:
            continue
        conclusions = [e for e in entries if e.get("role") == "conclusion"]
        steps = [e for e in findings if e.get("role") != "conclusion"]
        shown = ordered(conclusions) + ordered(steps)
        status = ledger.conclusion_status([e["status"] for e in conclusions])
        out.append((result, status, shown, order_key(ordered(findings)[0])))
    return [(r, s, shown) for r, s, shown, _ in sorted(out, key=lambda t: t[3])]


def lines_value(lines: str) -> float:
    """The first line number in a lines string ("L312-L320, L401" -> 312), for sorting; inf when none."""
    import re

    m = re.search(r"\d+", lines or "")
    return float(m.group()) if m else math.inf


def status_text(e: dict) -> str:
    if e["problem"] == "mismatch":
        return f"{e['status']} ⚠ ledger records {e['recorded']}"
    return e["status"]


def counts_text(entries: List[dict]) -> Tuple[str, str]:
    """("n holds, n refuted, ...", "n symbolic, n exact, ...") for a set of entries."""
    by_status = Counter(e["status"] for e in entries)
    by_kind = Counter(e["evidence_kind"] for e in entries if e["evidence_kind"])
    order = list(ledger.STATUSES) + [ERROR, STALE]
    statuses = ", ".join(f"{by_status[s]} {s}" for s in order if by_status.get(s))
    kinds = ", ".join(f"{by_kind.get(k, 0)} {k}" for k in ledger.EVIDENCE_KINDS)
    return statuses or "none", kinds


def summary_line(entries: List[dict]) -> str:
    """Counts per status and per evidence kind, and the number of problems."""
    statuses, kinds = counts_text(entries)
    problems = sum(1 for e in entries if e["problem"])
    return f"{len(entries)} claims: {statuses}; evidence: {kinds}; {problems} problem(s)"


def coverage_text(paper: Paper) -> str:
    cov = paper.coverage()
    if cov is None:
        return "no inventory"
    return ", ".join(f"{n} {k}" for k, n in cov.items()) + f" of {sum(cov.values())} items"


def definitions_markdown() -> List[str]:
    lines = ["<details><summary>Definitions (margin, statuses, evidence kinds, roles, severity, problems)</summary>",
             "", f"**Margin.** {ledger.MARGIN_DEFINITION}", "", "**Statuses.**", ""]
    lines += [f"- `{s}`: {d}" for s, d in ledger.STATUS_DEFINITIONS.items()]
    lines += ["", "**Missing** (what a `not-reproduced` verdict lacks; run length, a grid, the number of seeds or "
              "an unstated constant never count).", ""]
    lines += [f"- `{k}`: {d}" for k, d in ledger.MISSING_DEFINITIONS.items()]
    lines += ["", "**Evidence kinds** (strongest first).", ""]
    lines += [f"- `{k}`: {d}" for k, d in ledger.EVIDENCE_DEFINITIONS.items()]
    lines += ["", "**Roles** (what a claim is within its paper result).", ""]
    lines += [f"- `{k}`: {d}" for k, d in ledger.ROLE_DEFINITIONS.items()]
    lines += ["", f"**Severity of a finding** (most consequential first). {ledger.SEVERITY_RULE}", ""]
    lines += [f"{i}. `{s}`: {ledger.SEVERITY_DEFINITIONS[s]}" for i, s in enumerate(ledger.SEVERITIES, 1)]
    lines += ["", "**Causes.** Findings that follow from one error share a cause and count once.", "",
              "**Problems** (any one makes `make report` exit non-zero).", ""]
    lines += [f"- `{p}`: {d}" for p, d in PROBLEMS.items()]
    return lines + ["", "</details>", ""]


def _cx_markdown(cx) -> str:
    return "<br>".join(f"{_cell(k)} = {_cell(v)}" for k, v in counterexample_items(cx))


def _argument_markdown(e: dict, md_dir: Path) -> str:
    """The statement cell: the statement, then the why, what is missing, the reading and the cause."""
    text = _cell(e["statement"])
    why = why_text(e)
    if why:
        text += f"<br>**Why:** {_cell(why)}"
    missing = missing_text(e)
    if missing:
        text += f"<br>**Missing:** {_cell(missing)}"
    reading = reading_text(e)
    if reading:
        text += f"<br>**Reading:** {_cell(reading)}"
    if e.get("cause") and is_finding(e):
        text += f"<br>**Cause:** `{e['cause']}`"
    if e.get("figure"):
        href = figure_href(e["figure"], md_dir)
        text += f" ([figure PNG]({href}))" if href else f" (figure {_cell(e['figure'])} missing)"
    return text


def _table(entries: List[dict], md_dir: Path) -> List[str]:
    lines = ["| id | lines | role | statement, why, reading | status | severity | evidence | margin | counterexample |",
             "|---|---|---|---|---|---|---|---|---|"]
    for e in entries:
        lines.append(f"| <a id=\"{e['id']}\"></a>`{e['id']}` | {e['lines']} | {e.get('role') or ''} | "
                     f"{_argument_markdown(e, md_dir)} | {status_text(e)} | {e['severity'] or ''} | "
                     f"{e['evidence_kind'] or ''} | {format_margin(e['margin'])} | {_cx_markdown(e['counterexample'])} |")
    return lines + [""]


def _top_markdown(findings: List[dict]) -> List[str]:
    return [f"  - [`{e['id']}`](#{e['id']}) ({e['problem'] or e['severity']}; {e.get('result') or ''}): "
            f"{_cell(why_text(e)) or _cell(e['statement'])}" for e in top_findings(findings)]


def paper_markdown(seed: str, paper: Paper, entries: List[dict], md_dir: Path) -> List[str]:
    group = ordered([e for e in entries if e["seed"] == seed])
    statuses, kinds = counts_text(group)
    findings = [e for e in group if is_finding(e)]
    method = [e for e in group if e.get("role") == "method" and not e["problem"]]
    rest = [e for e in group if not is_finding(e) and e not in method]
    lines = [f"## {paper.title}", "", f"{paper.authors}. Seed file: `{paper.seed_file or 'none'}`.", "",
             f"- claims: {len(group)}: {statuses}",
             f"- evidence: {kinds}",
             f"- inventory coverage: {coverage_text(paper)}",
             f"- findings: {cause_counts(findings)}"]
    uncovered = paper.uncovered()
    if uncovered:
        lines.append("- uncovered items: " + "; ".join(f"{i.label} ({i.lines})" for i in uncovered))
    if findings:
        lines += ["- top findings (each cause once):"] + _top_markdown(findings)
    lines += ["", "### Findings by result (the conclusion's verdict, then its steps)", ""]
    results = results_with_findings([e for e in group if e not in method])
    if not results:
        lines += ["None.", ""]
    for result, status, shown in results:
        lines += [f"#### {result}: conclusion {status or 'not checked by a claim'}", ""]
        lines += _table(shown, md_dir)
    lines += ["### Other claims", ""]
    shown_ids = {e["id"] for _, _, shown in results for e in shown}
    others = [e for e in rest if e["id"] not in shown_ids]
    lines += _table(others, md_dir) if others else ["None.", ""]
    if method:
        lines += ["### About the suite (method claims: how we account or decide, never findings on the paper)", ""]
        lines += _table(method, md_dir)
    return lines


def render_markdown(entries: List[dict], papers: Dict[str, Paper], md_dir: Path = REPORT_DIR) -> str:
    """The whole report as Markdown: a pure function of the entries (no run facts)."""
    lines = ["# Verdicts", "",
             "Generated by `make report` (theory/report.py) from the claims ledger; do not edit. "
             "The HTML version is html/index.html.", "",
             f"**Summary.** {summary_line(entries)}.", ""]
    lines += definitions_markdown()
    problems = [e for e in ordered(entries) if e["problem"]]
    lines += ["## Problems", ""]
    if problems:
        lines += [f"- `{e['id']}` ({e['problem']}): {_cell(e['reason']) or status_text(e)}" for e in problems]
    else:
        lines.append("None: every claim module imports, no check raises, no data is stale, every computed "
                     "status is the recorded one.")
    lines.append("")
    for seed, paper in papers.items():
        lines += paper_markdown(seed, paper, entries, md_dir)
    return "\n".join(lines)


# --- writing --------------------------------------------------------------------------------------

def verdicts_json(entries: List[dict]) -> str:
    rows = [{k: v for k, v in e.items() if k != "figure" or v} for e in sorted(entries, key=lambda e: e["id"])]
    return json.dumps(stable(rows), indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def _row(e: dict, html_dir: Path, page: str) -> dict:
    first_line = lines_value(e["lines"])
    return {"id": e["id"], "id_parts": e["id"].split("."), "page": page, "lines": e["lines"],
            "lines_value": first_line if math.isfinite(first_line) else "",
            "statement": e["statement"], "reason": e["reason"], "why": why_text(e), "reading": reading_text(e),
            "missing": missing_text(e), "cause": e.get("cause") if is_finding(e) else None, "result": e.get("result") or "",
            "role": e.get("role") or "", "status": e["status"], "status_text": status_text(e),
            "problem": e["problem"], "severity": e["severity"], "rank": order_key(e)[0] * 10 + order_key(e)[1],
            "evidence_kind": e["evidence_kind"], "margin": format_margin(e["margin"]),
            "margin_value": e["margin"] if isinstance(e["margin"], (int, float)) else "",
            "counterexample": counterexample_items(e["counterexample"]),
            "figure": e.get("figure"),
            "figure_href": figure_href(e["figure"], html_dir) if e.get("figure") else None}


def site_view(entries: List[dict], papers: Dict[str, Paper], html_dir: Path) -> dict:
    """The plain data the HTML templates render (theory.report_html): pure, like the Markdown."""
    views = []
    page_of = {seed: f"{paper.slug}.html" for seed, paper in papers.items()}
    for seed, paper in papers.items():
        group = ordered([e for e in entries if e["seed"] == seed])
        statuses, kinds = counts_text(group)
        findings = [e for e in group if is_finding(e)]
        method = [e for e in group if e.get("role") == "method" and not e["problem"]]
        results = results_with_findings([e for e in group if e not in method])
        shown_ids = {e["id"] for _, _, shown in results for e in shown}
        row = lambda e: _row(e, html_dir, page_of[seed])  # noqa: E731
        rows = [row(e) for e in group]
        figures: Dict[str, list] = {}
        for r in rows:
            if r["figure_href"]:
                figures.setdefault(r["figure"], []).append(r["id"])
        views.append({"seed": seed, "slug": paper.slug, "title": paper.title, "authors": paper.authors,
                      "seed_file": paper.seed_file, "statuses": statuses, "kinds": kinds,
                      "coverage": coverage_text(paper), "causes": cause_counts(findings),
                      "uncovered": [f"{i.label} ({i.lines})" for i in paper.uncovered()], "claims": rows,
                      "top": [row(e) for e in top_findings(findings)], "findings": len(findings),
                      "results": [{"result": r, "status": s or "not checked by a claim",
                                   "claims": [row(e) for e in shown]} for r, s, shown in results],
                      "others": [row(e) for e in group
                                 if not is_finding(e) and e not in method and e["id"] not in shown_ids],
                      "method": [row(e) for e in method],
                      "figures": [{"path": f, "href": figure_href(f, html_dir), "claims": ids}
                                  for f, ids in sorted(figures.items())]})
    problems = [_row(e, html_dir, page_of.get(e["seed"], "index.html")) for e in ordered(entries) if e["problem"]]
    return {"summary": summary_line(entries), "margin_definition": ledger.MARGIN_DEFINITION,
            "statuses": list(ledger.STATUS_DEFINITIONS.items()),
            "missing_kinds": list(ledger.MISSING_DEFINITIONS.items()),
            "evidence_kinds": list(ledger.EVIDENCE_DEFINITIONS.items()),
            "roles": list(ledger.ROLE_DEFINITIONS.items()),
            "severities": [(s, ledger.SEVERITY_DEFINITIONS[s]) for s in ledger.SEVERITIES],
            "severity_rule": ledger.SEVERITY_RULE,
            "problem_kinds": list(PROBLEMS.items()),
            "status_names": list(ledger.STATUSES) + [ERROR, STALE],
            "problems": problems, "papers": views}


def write(entries: List[dict], run: dict, papers: Dict[str, Paper], out_dir: Path) -> None:
    from .report_html import write_site

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "verdicts.json").write_text(verdicts_json(entries), encoding="utf-8")
    (out_dir / "VERDICTS.md").write_text(render_markdown(entries, papers, out_dir) + "\n", encoding="utf-8")
    write_site(site_view(entries, papers, out_dir / "html"), out_dir / "html")
    (out_dir / "run.json").write_text(json.dumps(jsonable(run), indent=1, sort_keys=True) + "\n")


def _shown(path: Path) -> str:
    """``path`` relative to the working directory when it lies below it (no machine path in messages)."""
    try:
        return Path(path).resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return str(path)


def _print_progress(line: str) -> None:
    print(line, flush=True)


#: longest silence of ``make report`` (seconds): the issue promises a line at least every 30 s
HEARTBEAT = 20.0


class _Heartbeat:
    """The report's progress callable: prints each line, and a "still running" line whenever nothing was
    printed for :data:`HEARTBEAT` seconds (a claim computed in this process prints nothing while it runs)."""

    def __init__(self, emit: Callable[[str], None] = _print_progress, every: float = HEARTBEAT):
        import threading

        self.emit, self.every, self.t0 = emit, every, time.monotonic()
        self.last, self.line = self.t0, ""
        self.lock, self.done = threading.Lock(), threading.Event()
        self.thread = threading.Thread(target=self._beat, daemon=True)

    def __call__(self, line: str) -> None:
        with self.lock:
            self.last, self.line = time.monotonic(), line
            self.emit(line)

    def _beat(self) -> None:
        while not self.done.wait(min(1.0, self.every / 2)):
            with self.lock:
                now = time.monotonic()
                if now - self.last >= self.every:
                    self.last = now
                    self.emit(f"report: still running, {now - self.t0:.0f} s elapsed; last: {self.line[:120]}")

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.done.set()
        self.thread.join()


def build(*, fresh: bool = False, scheduler: Optional[str] = None, backend: Optional[str] = None,
          out_dir: Path = REPORT_DIR, progress: Optional[Callable[[str], None]] = None) -> List[dict]:
    """Load, evaluate and write; return the entries (import failures included as error rows)."""
    t0 = time.perf_counter()
    if progress:
        progress("report: loading the claims")
    broken = import_claim_modules()
    claim_list = claims()
    if progress:
        progress(f"report: {len(claim_list)} claims loaded in {time.perf_counter() - t0:.1f} s; evaluating")
    entries, run = evaluate(claim_list, fresh=fresh, scheduler=scheduler, backend=backend, progress=progress)
    entries = sorted(entries + [_import_error_entry(m, err) for m, err in broken.items()],
                     key=lambda e: e["id"])
    run["import_errors"] = broken
    if progress:
        progress(f"report: writing {_shown(Path(out_dir))}")
    write(entries, run, papers_of(claim_list), out_dir)
    return entries


def main(argv: Optional[List[str]] = None) -> int:
    p = argparse.ArgumentParser(prog="python -m theory.report", description=__doc__.splitlines()[0])
    p.add_argument("--fresh", action="store_true", help="ignore cached verdicts and recompute all")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS", help="Dask scheduler address")
    p.add_argument("--backend", choices=("serial", "local", "cluster"), default=None)
    p.add_argument("--out", default=str(REPORT_DIR), help="output directory (default: report/ of the checkout)")
    args = p.parse_args(argv)
    try:
        with _Heartbeat() as progress:
            entries = build(fresh=args.fresh, scheduler=args.scheduler, backend=args.backend,
                            out_dir=Path(args.out), progress=progress)
    except SweepError as exc:  # e.g. an unreachable scheduler: one line, no traceback
        print(f"python -m theory.report: {exc}", file=sys.stderr)
        return 1
    print(f"{summary_line(entries)} -> {_shown(Path(args.out) / 'VERDICTS.md')}", flush=True)
    problems = [e for e in ordered(entries) if e["problem"]]
    if problems:
        print(f"{len(problems)} problem(s), the report fails: "
              + ", ".join(f"{e['id']} ({e['problem']})" for e in problems), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    # Run the imported module, not this __main__ copy: the sweep ships evaluate_claim to workers and
    # keys its cache by the function's module, which must be theory.report.
    from theory.report import main as _main

    raise SystemExit(_main())
