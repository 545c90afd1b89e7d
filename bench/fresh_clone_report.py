"""Cold and warm ``make report`` on a fresh clone, with the longest silence between progress lines (issue 34).

    python bench/fresh_clone_report.py [--repo PATH] [--workdir DIR] [--warm-runs N]

Clones ``--repo`` (default: this checkout's committed HEAD) into a new directory, links this checkout's
``.venv`` into it (no install), points ``DPV_CACHE_DIR`` at a new empty directory and runs
``make -o .venv/.installed report`` there, timestamping every line it prints; then reruns it warm (same
cache). Prints one summary line per run: exit code, wall seconds, the longest gap between two output lines
(and where), the load average before and after, the cores. The seed texts are read from ``DPV_SEEDS_DIR``
(default ``../shared/seeds`` beside this checkout), as the README says.

Not a ``bench_*`` module: ``make bench`` does not run it (minutes of CPU); ``bench_cold_report`` there times
the certificate claims cold as a ratio against a fixed reference.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


def _load() -> str:
    return "/".join(f"{x:.2f}" for x in os.getloadavg())


def run_report(clone: Path, cache: Path, log: Path) -> dict:
    """One ``make report`` in ``clone`` with ``cache``; every output line timestamped into ``log``."""
    env = dict(os.environ, DPV_CACHE_DIR=str(cache), PYTHONPATH=str(clone), PYTHONUNBUFFERED="1")
    env.setdefault("DPV_SEEDS_DIR", str(HERE.parent / "shared" / "seeds"))
    load_before = _load()
    t0 = last = time.monotonic()
    gap, gap_after = 0.0, "(start)"
    prev = "(start)"
    with open(log, "w", encoding="utf-8") as out:
        proc = subprocess.Popen(["make", "-o", ".venv/.installed", "report"], cwd=clone, env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
        for line in proc.stdout:
            now = time.monotonic()
            if now - last > gap:
                gap, gap_after = now - last, prev
            last, prev = now, line.strip()[:100]
            out.write(f"{now - t0:8.1f} {line}")
            out.flush()  # tail -f the log while it runs
        rc = proc.wait()
    end = time.monotonic()
    if end - last > gap:
        gap, gap_after = end - last, prev + " (to exit)"
    return {"rc": rc, "wall": end - t0, "gap": gap, "gap_after": gap_after, "load_before": load_before,
            "load_after": _load()}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repo", default=str(HERE))
    p.add_argument("--workdir", default=None, help="where to clone (default: a new temporary directory)")
    p.add_argument("--warm-runs", type=int, default=1)
    args = p.parse_args(argv)
    work = Path(args.workdir or tempfile.mkdtemp(prefix="dpv-fresh-report-"))
    clone, cache = work / "clone", work / "cache"
    subprocess.run(["git", "clone", "-q", args.repo, str(clone)], check=True)
    (clone / ".venv").symlink_to(Path(args.repo).resolve() / ".venv")
    cache.mkdir()
    commit = subprocess.run(["git", "-C", str(clone), "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    print(f"fresh clone of {commit} in {work}; {os.cpu_count()} cores; {time.strftime('%Y-%m-%d %H:%M %Z')}", flush=True)
    runs = [("cold", run_report(clone, cache, work / "cold.log"))]
    for k in range(args.warm_runs):
        runs.append((f"warm{k + 1}", run_report(clone, cache, work / f"warm{k + 1}.log")))
    for name, r in runs:
        print(f"{name}: exit {r['rc']}, {r['wall']:.1f} s wall, longest gap between lines {r['gap']:.1f} s "
              f"(after: {r['gap_after']}), load average (1/5/15 min) before {r['load_before']}, after {r['load_after']}; "
              f"log {work / (name + '.log')}", flush=True)
    return max(r["rc"] for _, r in runs)


if __name__ == "__main__":
    raise SystemExit(main())
