"""Shared plotting for the seed 001 figures (fig_001_1..3, table_001_1): mean curves with a one-sd band."""
from __future__ import annotations

from collections import defaultdict

import numpy as np

from . import style

COLORS = {"sync": "tab:blue", "adpsgd": "tab:red"}
LABELS = {"sync": "SYNC-DP", "adpsgd": "A(DP)2SGD"}


def by_arm(rows: list[dict], key: str = "algorithm") -> dict:
    arms = defaultdict(lambda: defaultdict(list))
    for r in rows:
        arms[r[key]][r["seed"]].append(r)
    return arms


def plot_mean_curves(ax, rows: list[dict], *, x: str, title: str) -> None:
    for alg, seeds in sorted(by_arm(rows).items()):
        curves = [sorted(rs, key=lambda r: float(r["epoch"])) for rs in seeds.values()]
        n = min(len(c) for c in curves)
        xs = np.mean([[float(r[x]) for r in c[:n]] for c in curves], axis=0)
        ys = np.array([[float(r["test_accuracy"]) for r in c[:n]] for c in curves])
        m = ys.mean(axis=0)
        s = ys.std(axis=0, ddof=1) if len(curves) > 1 else np.zeros_like(m)
        ax.plot(xs, m, color=COLORS[alg], label=f"{LABELS[alg]} (ours, {len(curves)} seeds)")
        ax.fill_between(xs, m - s, m + s, color=COLORS[alg], alpha=0.2)
    ax.set_xlabel("epoch" if x == "epoch" else "simulated wall-clock (one unit = one normal minibatch)")
    ax.set_ylabel("test accuracy")
    ax.set_title(title, fontsize=9)
    style.legend_below(ax)


def finals(rows: list[dict]) -> dict:
    """(algorithm, sigma, straggler) -> [final accuracy per seed]."""
    last = {}
    for r in rows:
        key = (r["algorithm"], float(r["sigma"]), r["straggler"], r["seed"])
        if key not in last or float(r["epoch"]) > float(last[key]["epoch"]):
            last[key] = r
    out = defaultdict(list)
    for (alg, sig, strag, _), r in sorted(last.items()):
        out[(alg, sig, strag)].append(float(r["test_accuracy"]))
    return out


def data_note() -> str:
    """The data's provenance for the caption (package, version, SHA-256 prefix of the MNIST-5k file)."""
    from repro.data import mnist_5k_provenance

    p = mnist_5k_provenance()
    return f"data: {p['file']} from {p['package']} {p['version']}, sha256 {p['sha256'][:16]}"


def epsilon_phrase(rows: list[dict]) -> str:
    """The caption's epsilon: per noisy arm (algorithm, sigma, batch), the certified fixed-size replace-one
    bracket at delta = theory.adp2sgd.settings.DELTA of the learner that ran the most batches (a record is
    touched only by its own learner's steps, 001 L68; noise std sigma*C, shift 2C), from the smallest shard;
    the arms without noise are "no DP noise"."""
    from theory.adp2sgd import settings as acc

    arms: dict = {}
    for r in rows:
        key = (r["algorithm"], float(r["sigma"]), int(r["batch"]))
        steps, n = arms.get(key, (0, 10 ** 18))
        arms[key] = (max(steps, int(r["max_steps_per_learner"])), min(n, int(r["shard_size"])))
    parts = []
    for (alg, sig, b), (steps, n) in sorted(arms.items()):
        if sig == 0:
            parts.append(f"{LABELS[alg]} sigma 0: no DP noise")
            continue
        lo, hi = acc.fixed_certified(acc.READINGS["abadi"] * sig, steps, b, n)
        parts.append(f"{LABELS[alg]} sigma {sig:g}: [{lo:.3g}, {hi:.3g}] ({steps} batches of {b} from {n})")
    return (f"certified epsilon at delta {acc.DELTA:g}, fixed-size sampling, replace-one (numerics.epsilon), worst "
            f"learner: " + "; ".join(parts))
