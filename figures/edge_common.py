"""Shared pieces of the seed-003 figure scripts: running arms through the sweep, provenance sidecars.

Each arm is a dict of ``repro.edge_fl.EdgeConfig`` fields without the seed; :func:`run_arms` runs it
for every seed through ``numerics.sweep.sweep`` (cached) and returns ``label -> [run summaries]``.
"""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

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


def data_provenance(dataset: str) -> dict:
    """Provenance of a data set: MNIST-5k's package/version/sha256, or what the stand-in is."""
    if dataset == "mnist-5k":
        from repro.data import mnist_5k_provenance

        return {"dataset": "mnist-5k (real MNIST subset)", **mnist_5k_provenance()}
    return {"dataset": dataset, "stand_in": "scikit-learn 8x8 digits as the USPS stand-in (USPS is 16x16, 9298 images)"}


def write_provenance(out: Path, name: str, *, datasets, arms: dict, seeds, extra: dict | None = None) -> Path:
    """``<name>.provenance.json``: data provenance, the arms' configurations, seeds and the git commit."""
    try:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True,
                                cwd=Path(__file__).parent, check=False).stdout.strip()
    except OSError:
        commit = ""
    doc = {"figure": name, "data": [data_provenance(d) for d in datasets], "arms": arms, "seeds": list(seeds),
           "code_commit": commit, **(extra or {})}
    path = out / f"{name}.provenance.json"
    path.write_text(json.dumps(doc, indent=1, sort_keys=True, default=str) + "\n")
    return path


NOISE_LABEL = {"paper-literal": "paper-literal noise (NOT DP)", "k-norm": "K-norm noise (eps-DP per release)",
               "gaussian": "Gaussian (certified accountant)", "none": "no noise"}
