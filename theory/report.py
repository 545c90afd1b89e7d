"""``make report``: evaluate every claim of the ledger and write the verdicts.

    python -m theory.report [--fresh] [--scheduler ADDRESS] [--backend serial|local|cluster] [--out DIR]

Every claim's check runs through the one sweep runner (numerics.sweep), so the report runs serially,
on a local Dask cluster or on an existing scheduler, and a second run takes cached verdicts for the
claims whose code did not change (``--fresh``, ``make report FRESH=1``, recomputes everything).
Writes, in ``report/``:

``verdicts.json``  one object per claim, sorted by id: id, seed, lines, statement, status, margin,
                   evidence, counterexample, evidence_kind, recorded, reason, seconds;
``VERDICTS.md``    counts per status and per evidence kind, then one table per seed; a claim whose
                   computed status differs from the status the ledger records is marked;
``run.json``       how the report ran: backend, scheduler, workers, wall time, cache hits and misses,
                   seconds per claim.

A claim whose check raises, or a claim module that fails to import, is reported with status ``error``
and its message (never dropped), and the command exits with status 1 after writing the files.
"""
from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Dict, List, Optional, Tuple

from numerics.cli import jsonable
from numerics.sweep import SweepError, SweepFailure, source_digest, sweep, versioned

from . import ledger

ROOT = Path(__file__).resolve().parent.parent
REPORT_DIR = ROOT / "report"
ERROR = "error"
VERDICT_KEYS = ("status", "evidence_kind", "margin", "evidence", "counterexample", "reason", "seconds")


# --- loading claims: a broken claim module is a reported error, not a crashed report ----------------

def import_claim_modules() -> Dict[str, str]:
    """Import every module that :func:`theory.ledger.claim_modules` discovers; return ``{module: error}``
    for those that fail, so the report can show them (and exit non-zero).
    """
    broken = {}
    for name in ledger.claim_modules():
        try:
            importlib.import_module(name)
        except Exception as exc:  # noqa: BLE001 - reported as an error row
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
    """Compute one claim's verdict as a JSON-able dict.

    ``source`` is a digest of the claim module's source closure; it is part of the sweep point only so
    that editing a claim invalidates its cached verdict. A check that raises propagates (the report
    records it as an error; a failed point is never cached).
    """
    c = _find(claim_id)
    t0 = time.perf_counter()
    v = c.evaluate()
    seconds = time.perf_counter() - t0
    return jsonable({"status": v.status, "evidence_kind": v.evidence_kind, "margin": v.margin,
                     "evidence": v.evidence, "counterexample": v.counterexample, "reason": v.reason,
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


def _source(c: ledger.Claim) -> str:
    """The cache key of a claim's verdict: its module's source closure and, for a figure claim, its data."""
    module = c.check.__module__
    try:
        digest = source_digest(module)
    except Exception:  # noqa: BLE001 - a module outside the suite (tests) has no digest
        digest = ""
    return digest + (":" + _figure_state(c.figure) if c.figure else "")


def _entry(c: ledger.Claim, result) -> dict:
    if isinstance(result, SweepFailure):
        result = {"status": ERROR, "evidence_kind": None, "margin": None, "evidence": {},
                  "counterexample": None, "reason": result.error, "seconds": None}
    entry = {"id": c.id, "seed": c.seed, "lines": c.lines, "statement": c.statement,
             "recorded": c.recorded, "figure": c.figure}
    entry.update({k: result.get(k) for k in VERDICT_KEYS})
    return entry


def _import_error_entry(module: str, error: str) -> dict:
    return {"id": module, "seed": "import", "lines": "", "statement": f"claim module {module} imports",
            "recorded": None, "figure": None, "status": ERROR, "evidence_kind": None, "margin": None,
            "evidence": {}, "counterexample": None, "reason": error, "seconds": None}


def evaluate(claim_list: List[ledger.Claim], *, fresh: bool = False, scheduler: Optional[str] = None,
             backend: Optional[str] = None) -> Tuple[List[dict], dict]:
    """Evaluate the claims through the sweep runner; return (entries sorted by id, run facts)."""
    claim_list = sorted(claim_list, key=lambda c: c.id)
    stats: dict = {}
    t0 = time.perf_counter()
    results = sweep(evaluate_claim, [{"claim_id": c.id, "source": _source(c)} for c in claim_list],
                    cache=not fresh, scheduler=scheduler, backend=backend, stats=stats,
                    desc="claims", on_error="record")
    entries = [_entry(c, r) for c, r in zip(claim_list, results)]
    run = {"backend": stats.get("backend", backend), "scheduler": stats.get("scheduler", scheduler),
           "workers": stats.get("workers"), "wall_time": stats.get("wall_time", time.perf_counter() - t0),
           "cache_hits": stats.get("cache_hits"), "cache_misses": stats.get("cache_misses"),
           "fresh": fresh, "claims": len(entries),
           "seconds_per_claim": {e["id"]: e["seconds"] for e in entries}}
    return entries, run


# --- writing --------------------------------------------------------------------------------------

def _cell(value) -> str:
    text = value if isinstance(value, str) else json.dumps(value, sort_keys=True, separators=(",", ":"))
    return " ".join(str(text).split()).replace("|", "\\|")


def _margin(m) -> str:
    return "" if m is None else (f"{m:.4g}" if isinstance(m, float) else _cell(m))


def _status_cell(e: dict) -> str:
    status = e["status"]
    if e["recorded"] is not None and status != e["recorded"]:
        return f"**{status}** ⚠ ledger records {e['recorded']}"
    return status


def _statement_cell(e: dict) -> str:
    text = _cell(e["statement"])
    if e["reason"] and e["status"] != "holds":
        text += f" — *{_cell(e['reason'])}*"
    if e.get("figure"):
        rel = "../" + Path(e["figure"]).as_posix().lstrip("/") if not Path(e["figure"]).is_absolute() \
            else Path(e["figure"]).as_posix()
        text += f" [figure]({rel}) ![]({rel})"
    return text


def summary_line(entries: List[dict]) -> str:
    """Counts per status, and how the claims that hold are evidenced."""
    by_status = Counter(e["status"] for e in entries)
    holds_by_kind = Counter(e["evidence_kind"] for e in entries if e["status"] == "holds")
    changed = sum(1 for e in entries if e["recorded"] is not None and e["status"] != e["recorded"])
    statuses = ", ".join(f"{n} {s}" for s, n in sorted(by_status.items()))
    kinds = ", ".join(f"{holds_by_kind.get(k, 0)} {k}" for k in ledger.EVIDENCE_KINDS)
    return (f"{len(entries)} claims: {statuses or 'none'}; holds by evidence: {kinds}; "
            f"{changed} differ from the ledger's recorded status")


def render_markdown(entries: List[dict], run: dict) -> str:
    kinds = Counter(e["evidence_kind"] for e in entries if e["evidence_kind"])
    lines = ["# Verdicts", "",
             "Generated by `make report` (theory/report.py) from the claims ledger; do not edit.", "",
             f"**Summary.** {summary_line(entries)}.", "",
             "Evidence kinds over all claims: "
             + ", ".join(f"{kinds.get(k, 0)} {k}" for k in ledger.EVIDENCE_KINDS) + ".", "",
             f"Run: backend {run.get('backend')}, workers {run.get('workers')}, "
             f"wall time {run.get('wall_time', 0.0):.1f} s, cache hits {run.get('cache_hits')}, "
             f"misses {run.get('cache_misses')}.", ""]
    for seed in sorted({e["seed"] for e in entries}):
        seed_file = ledger.SEED_FILES.get(seed)
        title = f"Seed {seed} ({seed_file})" if seed_file else f"Seed {seed}"
        lines += [f"## {title}", "",
                  "| id | lines | statement | status | evidence | margin | counterexample |",
                  "|---|---|---|---|---|---|---|"]
        for e in (x for x in entries if x["seed"] == seed):
            cx = _cell(e["counterexample"]) if e["counterexample"] else ""
            lines.append(f"| `{e['id']}` | {e['lines']} | {_statement_cell(e)} | {_status_cell(e)} | "
                         f"{e['evidence_kind'] or ''} | {_margin(e['margin'])} | {cx} |")
        lines.append("")
    return "\n".join(lines)


def write(entries: List[dict], run: dict, out_dir: Path) -> None:
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    rows = [{k: v for k, v in e.items() if k != "figure" or v} for e in entries]
    (out_dir / "verdicts.json").write_text(json.dumps(jsonable(rows), indent=1, sort_keys=True) + "\n")
    (out_dir / "VERDICTS.md").write_text(render_markdown(entries, run) + "\n")
    (out_dir / "run.json").write_text(json.dumps(jsonable(run), indent=1, sort_keys=True) + "\n")


def build(*, fresh: bool = False, scheduler: Optional[str] = None, backend: Optional[str] = None,
          out_dir: Path = REPORT_DIR) -> List[dict]:
    """Load, evaluate and write; return the entries (import failures included as error rows)."""
    broken = import_claim_modules()
    entries, run = evaluate(claims(), fresh=fresh, scheduler=scheduler, backend=backend)
    entries = sorted(entries + [_import_error_entry(m, err) for m, err in broken.items()],
                     key=lambda e: e["id"])
    run["import_errors"] = broken
    write(entries, run, out_dir)
    return entries


def main(argv: Optional[List[str]] = None) -> int:
    p = argparse.ArgumentParser(prog="python -m theory.report", description=__doc__.splitlines()[0])
    p.add_argument("--fresh", action="store_true", help="ignore cached verdicts and recompute all")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS", help="Dask scheduler address")
    p.add_argument("--backend", choices=("serial", "local", "cluster"), default=None)
    p.add_argument("--out", default=str(REPORT_DIR), help="output directory (default report/)")
    args = p.parse_args(argv)
    try:
        entries = build(fresh=args.fresh, scheduler=args.scheduler, backend=args.backend,
                        out_dir=Path(args.out))
    except SweepError as exc:  # e.g. an unreachable scheduler: one line, no traceback
        print(f"python -m theory.report: {exc}", file=sys.stderr)
        return 1
    print(f"{summary_line(entries)} -> {args.out}/VERDICTS.md")
    errors = [e["id"] for e in entries if e["status"] == ERROR]
    if errors:
        print(f"{len(errors)} claim(s) raised: {', '.join(errors)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    # Run the imported module, not this __main__ copy: the sweep ships evaluate_claim to workers and
    # keys its cache by the function's module, which must be theory.report.
    from theory.report import main as _main

    raise SystemExit(_main())
