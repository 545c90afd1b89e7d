"""Cold time of the report's heavy certificates (issue 34), as a ratio against a fixed reference computation
measured in the same run, so that machines (and loads) can be compared.

What is timed: every claim of the certificate modules (:data:`MODULES`: seed 002 Lemma B.3's conclusion on
lambda <= 400, its tail (13) and moment (14), seed 000's Lemma D.1 and thresholds), evaluated the way
``make report`` evaluates them: through the sweep runner on a local cluster of :data:`WORKERS` workers,
each claim one point, its certificate's boxes shared by every worker (numerics.sweep, nested sweeps), in
a fresh cache directory (cold). Then the same claims again with the boxes cached but the claims' verdicts
not (what ``make report`` costs after an edit to the ledger or a claim's metadata), and a warm rerun.

The reference: :func:`reference_work`, a fixed Arb workload (python-flint balls at 128 bits, the arithmetic
the certificates are made of) on one process; it never changes, so ``cold / reference`` moves only when
the certificates' cost does. ``BENCH_COLD_REPORT_FULL=1`` also times a whole cold ``make report`` (fresh
cache and output directories, a subprocess), against the same reference.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time

from numerics import sweep as sw

#: the claim modules whose certificates the cold report waits for
MODULES = ("theory.proactive_dp.lemma_b3_certified", "theory.async_fl.certified")
#: worker processes of the local cluster (the issue's machine: 2 cores)
WORKERS = 2
#: Arb operations of the reference workload
REFERENCE_OPS = 2_000_000


def reference_work() -> float:
    """Seconds (median of 3, like a loaded run: not the best) of a fixed workload: :data:`REFERENCE_OPS`
    ball operations at 128 bits (about a second on one core)."""
    from flint import arb, ctx

    old, ctx.prec = ctx.prec, 128
    try:
        times = []
        for _ in range(3):
            t0 = time.perf_counter()
            x, acc = arb(1) / 3, arb(0)
            for k in range(REFERENCE_OPS // 4):
                acc = acc + x * (k % 97 + 1)
                x = (x * x + 1) / (x + 2)
            times.append(time.perf_counter() - t0)
        return sorted(times)[1]
    finally:
        ctx.prec = old


def _claims():
    from theory import report

    return [c for c in report.claims() if c.check.__module__ in MODULES]


def _timed(points, *, cache: bool) -> tuple:
    from theory import report

    stats: dict = {}
    t0 = time.perf_counter()
    out = sw.sweep(report.evaluate_claim, points, backend="local", cache=cache, stats=stats,
                   desc="bench certificates", unit="claims", progress=lambda line: print(f"[bench] {line}", flush=True))
    return time.perf_counter() - t0, out, stats


def _load() -> str:
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def certificates_section(ref: float) -> list:
    from theory import report

    cache = tempfile.mkdtemp(prefix="dpv-bench-cold-")
    old_env = {k: os.environ.get(k) for k in ("DPV_CACHE_DIR", "DPV_WORKERS", "DPV_CERTIFY_SCALE")}
    os.environ.update(DPV_CACHE_DIR=cache, DPV_WORKERS=str(WORKERS), DPV_CERTIFY_SCALE="full")
    sw.close_local_cluster()  # the workers must start with this cache directory
    try:
        claims = _claims()
        points = [{"claim_id": c.id, "source": report._source(c)} for c in claims]
        sw._local_client()  # cluster start is not the certificates' cost
        load_before = _load()
        cold, out, _ = _timed(points, cache=True)
        load_after = _load()
        edited, again, _ = _timed(points, cache=False)  # boxes cached, verdicts recomputed
        warm, _, stats = _timed(points, cache=True)
    finally:
        sw.close_local_cluster()
        shutil.rmtree(cache, ignore_errors=True)
        for k, v in old_env.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    assert [o["status"] for o in out] == [o["status"] for o in again], "a cached box changed a verdict"
    rows = [f"| `{c.id}` | {o['status']} | {o['seconds']:.1f} |" for c, o in zip(claims, out)]
    return ["## Cold report: the heavy certificates (issue 34)", "",
            f"The {len(claims)} claims of {', '.join(MODULES)} at the full scale, each one point of the sweep runner "
            f"on a local cluster of {WORKERS} workers (a certificate's boxes shared by both), fresh cache directory.",
            "", "| claim | status | seconds from its task's start to its verdict (cold; a certificate's boxes queue with the others') |", "|---|---|---:|", *rows, "",
            "| run | wall s | / reference |", "|---|---:|---:|",
            f"| reference: {REFERENCE_OPS} Arb operations, 1 process, median of 3 | {ref:.2f} | 1 |",
            f"| cold (nothing cached) | {cold:.1f} | {cold / ref:.1f} |",
            f"| after a ledger or claim-metadata edit (boxes cached, verdicts recomputed) | {edited:.1f} | {edited / ref:.1f} |",
            f"| warm (verdicts cached: {stats.get('cache_hits')} hits) | {warm:.2f} | {warm / ref:.2f} |", "",
            f"Load average (1, 5, 15 min) before the cold run: {load_before}; after it: {load_after}; "
            f"{os.cpu_count()} cores. The ratio cold / reference is the number to compare across machines."]


def _report_cold() -> tuple:
    out, cache = tempfile.mkdtemp(prefix="dpv-bench-report-"), tempfile.mkdtemp(prefix="dpv-bench-cache-")
    env = dict(os.environ, DPV_CACHE_DIR=cache)
    env.pop("DPV_CERTIFY_SCALE", None)
    try:
        t0 = time.perf_counter()
        proc = subprocess.run([sys.executable, "-m", "theory.report", "--out", out], env=env,
                              stdout=subprocess.PIPE, text=True)
        cold = time.perf_counter() - t0
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "theory.report", "--out", out], env=env, stdout=subprocess.DEVNULL)
        warm = time.perf_counter() - t0
    finally:
        shutil.rmtree(out, ignore_errors=True)
        shutil.rmtree(cache, ignore_errors=True)
    return cold, warm, proc.returncode


def run() -> str:
    ref = reference_work()
    lines = certificates_section(ref)
    if os.environ.get("BENCH_COLD_REPORT_FULL") == "1":
        load = _load()
        cold, warm, rc = _report_cold()
        lines += ["", f"Whole `make report` (BENCH_COLD_REPORT_FULL=1; fresh cache and output directories; exit {rc}; "
                  f"load before: {load}): cold {cold:.0f} s = {cold / ref:.0f} x reference, warm {warm:.1f} s."]
    return "\n".join(lines)


if __name__ == "__main__":
    print(run())
