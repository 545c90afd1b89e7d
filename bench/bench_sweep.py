"""Sweep-runner benchmark (issue 11): a 10^4-point region scan of alpha(lambda), serial vs 2 workers,
and `make report` cold vs warm.

Targets: speed-up >= 1.7 on 2 cores; a warm (cached) report in <= 20 % of the cold wall time.
"""
from __future__ import annotations

import os
import subprocess
import sys
import time

from numerics import sweep as sw

N_POINTS = int(os.environ.get("BENCH_SWEEP_POINTS", "10000"))


@sw.versioned("1")
def alpha_point(lam: int, sigma: float, q: float) -> float:
    """One region-scan point: Abadi's log-moment alpha(lambda) at (q, sigma) (numerics.rdp)."""
    from numerics.rdp import alpha_moment

    return float(alpha_moment(q, sigma, lam))


def region_points(n: int) -> list:
    """n points of a Lemma B.3-style region: lambda in [1, 400], sigma in [1.2, 100], q = r0/sigma."""
    pts = []
    i = 0
    while len(pts) < n:
        lam = 1 + (i * 37) % 400
        sigma = 1.2 + ((i * 7919) % 1000) * (100 - 1.2) / 999
        r0 = 0.01 + ((i * 104729) % 97) * 0.9 / 96
        pts.append({"lam": lam, "sigma": sigma, "q": r0 / sigma})
        i += 1
    return pts


def _timed_sweep(points, backend) -> tuple:
    t0 = time.perf_counter()
    out = sw.sweep(alpha_point, points, backend=backend, use_cache=False)
    return out, time.perf_counter() - t0


def scan_section() -> str:
    points = region_points(N_POINTS)
    os.environ["DPV_WORKERS"] = "2"
    sw._local_client()  # start the cluster before timing: startup is reported separately
    t0 = time.perf_counter()
    sw.sweep(alpha_point, points[:50], backend="local", use_cache=False)
    warm_up = time.perf_counter() - t0
    serial, t_serial = _timed_sweep(points, "serial")
    local, t_local = _timed_sweep(points, "local")
    sw.close_local_cluster()
    assert serial == local, "backends disagree"  # bit-for-bit determinism across backends
    per_task = t_serial / len(points)
    overhead = max(0.0, t_local - t_serial / 2) / len(points) * 2  # worker-seconds beyond the work
    return ("## Sweep runner: region scan of alpha(lambda)\n\n"
            f"{len(points)} points (lambda in [1, 400], sigma in [1.2, 100], q = r0/sigma), results "
            "identical bit for bit across backends.\n\n"
            "| backend | wall s | speed-up | mean task ms | overhead per task ms |\n|---|---|---|---|---|\n"
            f"| serial | {t_serial:.2f} | 1.00 | {1e3 * per_task:.2f} | 0 |\n"
            f"| local, 2 workers | {t_local:.2f} | {t_serial / t_local:.2f} | {1e3 * per_task:.2f} | "
            f"{1e3 * overhead:.2f} |\n\n(target speed-up >= 1.7; cluster warm-up on 50 points: {warm_up:.2f} s)\n")


def _report_wall(fresh: bool) -> float:
    cmd = [sys.executable, "-m", "theory.report"] + (["--fresh"] if fresh else [])
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t0


def report_section() -> str:
    cold = _report_wall(fresh=True)
    warm = _report_wall(fresh=False)
    return ("## `make report`: cold vs warm\n\n| run | wall s |\n|---|---|\n"
            f"| cold (FRESH=1) | {cold:.1f} |\n| warm (cached) | {warm:.1f} |\n\n"
            f"warm / cold = {warm / cold:.2f} (target <= 0.20)\n")


def run() -> str:
    return scan_section() + "\n" + report_section()
