"""Shared pieces of the seed-003 figure scripts: running arms through the sweep, noise-mode labels.

Provenance sidecars are written by ``figures.common.write_outputs`` (``repro.provenance``).

Each arm is a dict of ``repro.edge_fl.EdgeConfig`` fields without the seed; :func:`run_arms` runs it
for every seed through ``numerics.sweep.sweep`` (cached) and returns ``label -> [run summaries]``.
"""
from __future__ import annotations

from numerics.sweep import sweep
from repro.edge_fl import run_point


def run_arms(arms: dict, seeds, *, desc: str) -> dict:
    """``label -> [run_point(**arm, seed=s) for s in seeds]`` through the sweep runner."""
    labels = list(arms)
    points = [{**arms[lab], "seed": int(s)} for lab in labels for s in seeds]
    results = sweep(run_point, points, desc=desc)
    out, i = {}, 0
    for lab in labels:
        out[lab] = results[i:i + len(seeds)]
        i += len(seeds)
    return out


NOISE_LABEL = {"paper-literal": "paper-literal noise (NOT DP)", "k-norm": "K-norm noise (eps-DP per release)",
               "gaussian": "Gaussian (certified accountant)", "none": "no noise"}
