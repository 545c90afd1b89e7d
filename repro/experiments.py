"""Figure experiments as data: arms (label -> config) run over seeds, and the generic pieces they use.

The paper settings (which arms, at which printed parameters) live in the paper packages
(``theory/<paper>/runs.py``), which read the paper's printed values; figure scripts and figure claims
both build their runs there, so a script and its claim can never drift apart. This module knows no
paper value: whatever a paper package changed for CPU scale is said in ``Experiment.changes``.

Every multi-seed run goes through ``numerics.sweep.sweep`` with ``repro.async_fl.run_point``; a run's
seed is part of its point.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from numerics.sweep import sweep, versioned
from . import data as data_mod
from . import models
from .async_fl import run_point, simulate
from .config import RunConfig
from .sequences import round_sizes

#: seeds per arm of every full-setting run (issue 22: at least 5 where the budget allows; make figures
#: stays well under an hour on 2 cores with 5, measured per target)
FULL_SEEDS = (0, 1, 2, 3, 4)


@dataclass(frozen=True)
class Experiment:
    """Arms of one figure: ``label -> RunConfig`` (seed ignored), run over ``seeds``."""

    name: str
    arms: dict
    seeds: tuple
    changes: str = ""
    extra: dict = field(default_factory=dict)


def run(exp: Experiment) -> dict:
    """``label -> [result per seed]``, all runs through the one sweep runner."""
    labels = list(exp.arms)
    points = [exp.arms[lab].replace(seed=int(s)).to_dict() for lab in labels for s in exp.seeds]
    results = sweep(run_point, points, desc=exp.name)
    n = len(exp.seeds)
    return {lab: results[k * n:(k + 1) * n] for k, lab in enumerate(labels)}


def final_accuracies(results: dict) -> dict:
    return {lab: [r["final_test_accuracy"] for r in rs] for lab, rs in results.items()}


def curve_rows(results: dict) -> list[dict]:
    """Long-format rows (label, seed, round, iterations, test_accuracy, test_loss) for the CSV."""
    rows = []
    for lab, rs in results.items():
        for r in rs:
            c = r["curve"]
            for k in range(len(c["round"])):
                rows.append({"label": lab, "seed": r["config"]["seed"], "round": c["round"][k],
                             "iterations": c["iterations"][k], "test_accuracy": c["test_accuracy"][k],
                             "test_loss": c["test_loss"][k]})
    return rows


def records(n_c: int, n_clients: int) -> int:
    """Records to generate so that each of ``n_clients`` clients holds ``n_c`` after the test split."""
    return int(round(n_c * n_clients / (1 - data_mod.TEST_FRACTION)))


@versioned("1")
def utility_fractions(*, config: dict, clips: list, sigmas: list, draws: int, seed: int) -> dict:
    r"""Train a near-optimal :math:`w^*` without noise, then the accuracy fraction
    :math:`\mathrm{acc}(w^* + n)/\mathrm{acc}(w^*)` for :math:`n \sim \mathcal N(0, C^2\sigma^2 I)`,
    averaged over ``draws`` noise draws, for every (C, sigma) (002 App. D.2, L1379)."""
    cfg = RunConfig(**config)
    res = simulate(cfg.replace(seed=seed), progress=False)
    ds = data_mod.load(cfg.data, seed=cfg.data_seed, n=cfg.n_records)
    model = models.build(cfg.model, n_features=ds.n_features, n_classes=ds.n_classes,
                         n_train=len(ds.y_train) // cfg.n_clients, n_hidden=cfg.n_hidden)
    w_star = np.asarray(res["final_theta"])
    base = model.accuracy(w_star, ds.x_test, ds.y_test)
    rng = np.random.default_rng([seed, 1])
    z = rng.normal(size=(draws, len(w_star)))  # common random numbers across (C, sigma)
    frac = [[float(np.mean([model.accuracy(w_star + c * s * zz, ds.x_test, ds.y_test) for zz in z]) / base)
             for s in sigmas] for c in clips]
    return {"base_accuracy": base, "clips": list(clips), "sigmas": list(sigmas), "fraction": frac, "seed": seed}


def run_utility(setting: dict) -> list:
    return sweep(utility_fractions, setting["points"], desc="utility graph")


def sigma_at_fraction(sigmas, fraction, level: float = 0.9) -> float:
    """Largest grid sigma before the accuracy fraction first drops below ``level`` (linear interpolation)."""
    s, f = np.asarray(sigmas, float), np.asarray(fraction, float)
    below = np.flatnonzero(f < level)
    if len(below) == 0:
        return float(s[-1])
    j = below[0]
    if j == 0:
        return float(s[0])
    return float(s[j - 1] + (f[j - 1] - level) / (f[j - 1] - f[j]) * (s[j] - s[j - 1]))


def rounds_per_method(methods: dict, total: int) -> dict:
    """``method -> integer round sizes`` spending ``total`` for each ``{"kind": ..., "start": ...}`` spec."""
    out = {}
    for lab, spec in methods.items():
        p = dict(spec)
        kind, start = p.pop("kind"), p.pop("start", 0)
        out[lab] = round_sizes(kind, total=total, start=start, **p)
    return out
