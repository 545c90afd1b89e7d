r"""Seed 001 reproductions: the run grids behind figures fig_001_1..3 and table_001_1, and their statistics.

Paper setting (001_53c39e87fd81b1a8.txt L232, L338): CIFAR-10, 9 CNNs, 16 GPUs, batch 256 per GPU,
300 epochs, sigma in {1, 2, 4}. Ours, for a CPU: real MNIST-5k (4,000 training / 1,000 test images,
repro.data "mnist-5k"), a one-hidden-layer MLP (32 units), K = 8 learners on the App. A bipartite
graph, fixed-size batches of B = 32 from each learner's 500 records (rate 0.064, the paper's is
256/3125 = 0.082), per-sample clipping C = 1 (the paper states no clipping norm), noise std sigma*C on
the summed gradient, 10 epochs, 5 seeds per arm.

Statistics (decisions in theory.adp2sgd.reproduction):
* "similar utility" is an equivalence claim: TOST of A(DP)2 - SYNC final accuracy against the margin
  :data:`EQUIVALENCE_MARGIN` (two one-sided Welch tests, repro.stats).
* "faster" is a difference claim: Welch one-sided test of A(DP)2 accuracy at the time budget against
  SYNC accuracy at the same simulated time.
"""
from __future__ import annotations

from numerics.sweep import sweep

from . import stats
from .decentralized import run_point

SEEDS = (0, 1, 2, 3, 4)
SIGMAS = (0.0, 1.0, 2.0, 4.0)
#: the medium noise level of the paper's Figs 2-3 (L244, L251) is sigma = 2
MEDIUM = 2.0
#: accuracy points within which "similar utility" counts as shown (the paper's own Table 1 gaps reach 2.4)
EQUIVALENCE_MARGIN = 0.02
ALPHA = stats.SIGNIFICANCE_LEVEL
BASE = {"learners": 8, "batch": 32, "lr": 0.5, "clip": 1.0, "epochs": 10.0, "data": "mnist-5k"}
QUICK = {"learners": 4, "batch": 32, "lr": 0.5, "clip": 1.0, "epochs": 1.0, "data": "mnist-5k"}


def _setting(quick: bool) -> tuple[dict, tuple]:
    return (QUICK, SEEDS[:2]) if quick else (BASE, SEEDS)


def noise_grid(*, quick: bool) -> list[dict]:
    """Fig. 1 / Table 1 analogue: both algorithms at every sigma, no straggler."""
    base, seeds = _setting(quick)
    sigmas = (0.0, MEDIUM) if quick else SIGMAS
    return [{**base, "algorithm": a, "sigma": s, "straggler": "none", "seed": sd}
            for s in sigmas for a in ("sync", "adpsgd") for sd in seeds]


def straggler_grid(straggler: str, *, quick: bool) -> list[dict]:
    """Figs. 2-3 analogue: both algorithms at medium noise with the given straggler case."""
    base, seeds = _setting(quick)
    return [{**base, "algorithm": a, "sigma": MEDIUM, "straggler": straggler, "seed": sd}
            for a in ("sync", "adpsgd") for sd in seeds]


#: Case III (L253-255): batch and learning rate both doubled, small noise (sigma = 1 in Table 1's scale)
SMALL = 1.0


def large_batch_grid(*, quick: bool) -> list[dict]:
    """Fig. 4 analogue: base and 2x (batch, lr) for both algorithms at small noise."""
    base, seeds = _setting(quick)
    seeds = seeds[:3]
    out = []
    for factor in (1, 2):
        cfg = {**base, "batch": base["batch"] * factor, "lr": base["lr"] * factor, "sigma": SMALL, "straggler": "none"}
        out += [{**cfg, "algorithm": a, "seed": sd} for a in ("sync", "adpsgd") for sd in seeds]
    return out


def run(points: list[dict], desc: str) -> list[dict]:
    return sweep(run_point, points, desc=desc)


def curve_rows(results: list[dict]) -> list[dict]:
    rows = []
    for r in results:
        c = r["config"]
        for p in r["curve"]:
            rows.append({"algorithm": c["algorithm"], "sigma": c["sigma"], "straggler": c["straggler"], "seed": c["seed"],
                         "lr": c["lr"],
                         "epoch": round(p["epoch"], 6), "time": p["time"], "test_accuracy": p["test_accuracy"],
                         "max_steps_per_learner": max(r["steps_per_learner"]),
                         "min_steps_per_learner": min(r["steps_per_learner"]),
                         "shard_size": min(r["shard_sizes"]), "batch": c["batch"]})
    return rows


def welch_greater(a, b) -> float:
    """One-sided Welch p-value for mean(a) > mean(b) (repro.stats.welch: exact when an arm has no spread)."""
    return stats.welch(a, b, alternative="greater").p_value


def tost(a, b, margin: float) -> dict:
    """Two one-sided Welch tests of |mean(a) - mean(b)| < margin (repro.stats.tost); equivalence when p < ALPHA."""
    t = stats.tost(a, b, margin=margin, alpha=ALPHA)
    return {"difference": t.diff, "margin": margin, "p": t.p_value, "equivalent": t.significant, "n": list(t.n)}


def accuracy_at(rows: list[dict], time: float) -> float:
    """Accuracy of one run's curve at simulated ``time`` (last evaluation at or before it; 0.1 = chance before)."""
    best = 0.1
    for r in sorted(rows, key=lambda r: float(r["time"])):
        if float(r["time"]) <= time + 1e-9:
            best = float(r["test_accuracy"])
    return best
