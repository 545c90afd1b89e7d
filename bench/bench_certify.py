"""Certifier benchmark (issue 12): boxes per second, and the time to certify seed 002 Lemma B.3's conclusion
on lambda <= 400, sigma in [216/215, 100].

By default the run certifies a sample of lambda values in full (each over the whole sigma and q range) and
EXTRAPOLATES the whole region's time from them (labelled as such); ``BENCH_CERTIFY_FULL=1`` certifies the
whole region through the sweep runner (its default backend: Dask on all cores) and reports the measured time.
"""
from __future__ import annotations

import os
import time

from theory.lemmas import certificates as tc

LAM_MAX = 400
SIGMA_MAX = 100.0
#: lambda values certified individually (serial, uncached); the rest is interpolated between them
SAMPLE_LAMS = (1, 25, 50, 100, 200, 300, 400)


def _one(lam: int) -> dict:
    t0, c0 = time.perf_counter(), time.process_time()
    cert = tc.certify_lemma_b3(lam, SIGMA_MAX, lam_min=lam, backend="serial", use_cache=False,
                               max_boxes=200_000, max_seconds=3600.0)
    return {"lam": lam, "status": cert.status, "boxes": cert.boxes, "seconds": time.perf_counter() - t0,
            "cpu": time.process_time() - c0, "min_margin": cert.min_margin}


def _interpolated_total(rows: list, key: str) -> float:
    """Seconds (``key``: wall "seconds" or "cpu") for every integer lambda in [1, LAM_MAX], linear between samples."""
    total = 0.0
    for a, b in zip(rows, rows[1:]):
        for lam in range(a["lam"], b["lam"]):
            w = (lam - a["lam"]) / (b["lam"] - a["lam"])
            total += (1 - w) * a[key] + w * b[key]
    return total + rows[-1][key]


def run() -> str:
    rows = [_one(lam) for lam in SAMPLE_LAMS]
    boxes, secs = sum(r["boxes"] for r in rows), sum(r["seconds"] for r in rows)
    lines = ["## Certifier (issue 12): seed 002 Lemma B.3 conclusion, sigma in [216/215, 100], all admissible q", "",
             "| lambda | status | boxes | wall s (1 process) | CPU s | boxes per CPU s | smallest certified margin |",
             "|---:|---|---:|---:|---:|---:|---:|"]
    lines += [f"| {r['lam']} | {r['status']} | {r['boxes']} | {r['seconds']:.2f} | {r['cpu']:.2f} | "
              f"{r['boxes'] / max(r['cpu'], 1e-9):.0f} | {r['min_margin']:.3g} |" for r in rows]
    cpu = sum(r["cpu"] for r in rows)
    est, est_cpu = _interpolated_total(rows, "seconds"), _interpolated_total(rows, "cpu")
    lines += ["", f"Boxes per second over the sample: {boxes / secs:.0f} wall, {boxes / max(cpu, 1e-9):.0f} per CPU second "
              "(serial; wall and CPU differ when the machine is shared).",
              f"EXTRAPOLATED (linear in lambda between the sampled rows, not measured): certifying every lambda <= {LAM_MAX} "
              f"takes about {est_cpu:.0f} CPU s, i.e. {est_cpu / 2:.0f} s on 2 dedicated cores "
              f"({est:.0f} s wall at this run's load on one process)."]
    if os.environ.get("BENCH_CERTIFY_FULL") == "1":
        t0 = time.perf_counter()
        cert = tc.certify_lemma_b3(LAM_MAX, SIGMA_MAX, max_boxes=200_000, max_seconds=3600.0, use_cache=False)
        lines.append(f"MEASURED (BENCH_CERTIFY_FULL=1, sweep runner's default backend): whole region {cert.status}, "
                     f"{cert.boxes} boxes, {cert.tasks} tasks, {time.perf_counter() - t0:.0f} s wall.")
    lines.append(f"The report certifies lambda <= {tc.SCALES['full']['lam_max']} (theory.lemmas.certificates.SCALES['full']).")
    return "\n".join(lines)


if __name__ == "__main__":
    print(run())
