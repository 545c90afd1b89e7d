r"""Event-driven simulator of A(DP)²SGD (asynchronous decentralized DP-SGD) and its SYNC-DP baseline (seed 001).

Protocol (001_53c39e87fd81b1a8.txt Sec. 3 L66-94, Algorithm 1 L96-106, App. A L322-328):

* ``K`` learners on a bipartite sender/receiver graph (App. A: even learners send, odd learners receive,
  a sender picks a random receiver each iteration). Each learner holds an i.i.d. shard of the training
  set and all start from the same model (L66).
* ADPSGD (``algorithm="adpsgd"``): learner k repeatedly (1) reads its local model (the snapshot the
  gradient is computed at), (2) spends its compute time on a fixed-size batch of B of its n_k records,
  clipping each per-sample gradient to norm C and adding :math:`\mathcal N(0, \sigma^2C^2 I)` to the SUM
  (L102-103), (3) on completion averages its model with a random partner on the graph (both take the
  mean, L326) and (4) applies :math:`w_k \leftarrow w_k - \eta\,\tilde g/B`, the gradient being STALE: it
  was computed at the snapshot, and the partner and other gossip may have moved w_k since (L82-84).
  Events are processed in simulated-time order (a heap). A global counter of minibatches stops the run
  (L326); an epoch is N/B minibatches.
* SYNC (``algorithm="sync"``): every round all K learners compute a noisy clipped batch gradient at the
  common model, each updates, and the models are averaged (allreduce, L208, L324); the round lasts as
  long as the slowest learner.
* Compute times (Sec. 5.3): ``none`` every minibatch takes 1; ``random2x`` (Case I, L244) every
  minibatch of a learner takes 2 with probability 1/K (on average one learner in K is slow at any time);
  in SYNC exactly one random learner of every round is slow, as the paper describes ("during iteration
  there is a random learner that runs 2X slower"), so every round lasts 2; ``one10x`` (Case II, L251)
  learner 0 always takes 10.
* Step: ``lr`` multiplies the MEAN of the noisy batch sum (so lr = eta B in the paper's notation L80);
  the average model then moves by lr/K per minibatch in both algorithms.

Privacy bookkeeping: each learner's number of fixed-size batches is recorded; the figure scripts turn
it into epsilon (fixed-size, replace-one: the record's learner is the only one that touches it).
Every run is a pure function of its config; :func:`simulate` returns a JSON-serialisable dict.
"""
from __future__ import annotations

import functools
import heapq
import math
from dataclasses import asdict, dataclass

import numpy as np
from threadpoolctl import threadpool_limits

from numerics.errors import InvalidParameter
from . import data as data_mod
from . import dp, models

ALGORITHMS = ("adpsgd", "sync")
STRAGGLERS = ("none", "random2x", "one10x")
#: the slow factors of Cases I and II (001 L244, L251); the paper values live in theory.adp2sgd.paper_values
SLOW = {"random2x": 2.0, "one10x": 10.0}


@dataclass(frozen=True)
class DecentralizedConfig:
    algorithm: str = "adpsgd"
    learners: int = 8
    batch: int = 32
    lr: float = 0.5
    clip: float = 1.0
    sigma: float = 0.0
    epochs: float = 10.0
    straggler: str = "none"
    data: str = "mnist-5k"
    n_hidden: int = 32
    evals_per_epoch: int = 2
    seed: int = 0

    def __post_init__(self):
        if self.algorithm not in ALGORITHMS:
            raise InvalidParameter(f"algorithm must be one of {ALGORITHMS}, got {self.algorithm!r}")
        if self.straggler not in STRAGGLERS:
            raise InvalidParameter(f"straggler must be one of {STRAGGLERS}, got {self.straggler!r}")
        if self.learners < 2 or self.learners % 2:
            raise InvalidParameter(f"learners must be an even number >= 2 (senders/receivers), got {self.learners!r}")
        if self.batch < 1 or not self.lr > 0 or not self.clip > 0 or self.sigma < 0 or not self.epochs > 0:
            raise InvalidParameter("batch >= 1, lr > 0, clip > 0, sigma >= 0 and epochs > 0 are required")


@functools.lru_cache(maxsize=4)
def _dataset(name: str, seed: int):
    """Load once per process (the MNIST-5k text file takes about a second to parse); Dataset is frozen."""
    return data_mod.load(name, seed=seed)


class _World:
    """Data shards, model, and the seeded random streams of one run."""

    def __init__(self, cfg: DecentralizedConfig):
        self.cfg = cfg
        self.ds = _dataset(cfg.data, 0)          # one fixed train/test split; the seed varies the rest
        self.model = models.MLP(self.ds.n_features, cfg.n_hidden, self.ds.n_classes)
        self.shards = data_mod.partition_iid(len(self.ds.y_train), cfg.learners, seed=cfg.seed)
        if min(len(s) for s in self.shards) < cfg.batch:
            raise InvalidParameter(f"batch {cfg.batch} exceeds the smallest shard ({min(len(s) for s in self.shards)})")
        self.rng = np.random.default_rng(cfg.seed)
        self.theta0 = self.model.init(np.random.default_rng(cfg.seed + 10_000))
        self.total = math.ceil(cfg.epochs * len(self.ds.y_train) / cfg.batch)

    def noisy_grad(self, k: int, theta: np.ndarray) -> np.ndarray:
        """Mean over the batch of (sum of clipped per-sample gradients + N(0, sigma^2 C^2 I))."""
        cfg = self.cfg
        idx = self.shards[k][dp.sample_indices(self.rng, len(self.shards[k]), cfg.batch, "fixed")]
        g = dp.clip_rows(self.model.per_sample_grads(theta, self.ds.x_train[idx], self.ds.y_train[idx]), cfg.clip)
        total = g.sum(axis=0)
        if cfg.sigma > 0:
            total = total + dp.gaussian_noise(self.rng, total.size, clip=cfg.clip, sigma=cfg.sigma)
        return total / cfg.batch

    def duration(self, k: int) -> float:
        s = self.cfg.straggler
        if s == "one10x":
            return SLOW[s] if k == 0 else 1.0
        if s == "random2x":
            return SLOW[s] if self.rng.random() < 1.0 / self.cfg.learners else 1.0
        return 1.0

    def round_duration(self) -> float:
        """A SYNC round waits for its slowest learner; under random2x one random learner per round is slow."""
        s = self.cfg.straggler
        if s == "random2x":
            self.rng.integers(self.cfg.learners)          # which learner is slow does not change the round
            return SLOW[s]
        return max(self.duration(k) for k in range(self.cfg.learners))

    def partner(self, k: int) -> int:
        """A random neighbour on the bipartite sender (even) / receiver (odd) graph."""
        side = range(1, self.cfg.learners, 2) if k % 2 == 0 else range(0, self.cfg.learners, 2)
        return int(self.rng.choice(list(side)))

    def accuracy(self, theta: np.ndarray) -> float:
        return self.model.accuracy(theta, self.ds.x_test, self.ds.y_test)

    def epoch(self, count: int) -> float:
        return count * self.cfg.batch / len(self.ds.y_train)


def _eval_counts(world: _World) -> list[int]:
    per = len(world.ds.y_train) / world.cfg.batch / world.cfg.evals_per_epoch
    return sorted({min(world.total, math.ceil(per * i)) for i in range(1, int(world.cfg.epochs * world.cfg.evals_per_epoch) + 1)}
                  | {world.total})


def _run_adpsgd(world: _World):
    cfg, K = world.cfg, world.cfg.learners
    W = np.tile(world.theta0, (K, 1))
    steps = np.zeros(K, dtype=int)
    events, snapshots = [], {}
    for k in range(K):
        snapshots[k] = W[k].copy()
        heapq.heappush(events, (world.duration(k), k))
    curve, targets, count, now = [], _eval_counts(world), 0, 0.0
    while count < world.total:
        now, k = heapq.heappop(events)
        g = world.noisy_grad(k, snapshots[k])               # computed at the model read when k started
        j = world.partner(k)
        W[k] = W[j] = 0.5 * (W[k] + W[j])                   # pairwise gossip (L326)
        W[k] -= cfg.lr * g                                  # stale update (L80, L105)
        steps[k] += 1
        count += 1
        if count == targets[0]:
            targets.pop(0)
            curve.append((count, now, world.accuracy(W.mean(axis=0))))
        snapshots[k] = W[k].copy()
        heapq.heappush(events, (now + world.duration(k), k))
    return curve, steps, now


def _run_sync(world: _World):
    cfg, K = world.cfg, world.cfg.learners
    theta = world.theta0.copy()
    steps = np.zeros(K, dtype=int)
    curve, targets, count, now = [], _eval_counts(world), 0, 0.0
    while count < world.total:
        grads = [world.noisy_grad(k, theta) for k in range(K)]
        now += world.round_duration()
        theta = theta - cfg.lr * np.mean(grads, axis=0)     # each learner updates, allreduce averages (L324)
        steps += 1
        count += K
        while targets and count >= targets[0]:
            targets.pop(0)
            curve.append((count, now, world.accuracy(theta)))
    return curve, steps, now


def simulate(cfg: DecentralizedConfig) -> dict:
    """Run one configuration; returns the accuracy curve (epoch, simulated time, test accuracy) and the
    per-learner batch counts with the sampling facts the privacy accounting needs."""
    world = _World(cfg)
    with threadpool_limits(limits=1):
        curve, steps, end = (_run_adpsgd if cfg.algorithm == "adpsgd" else _run_sync)(world)
    return {"config": asdict(cfg),
            "curve": [{"minibatches": c, "epoch": world.epoch(c), "time": t, "test_accuracy": a} for c, t, a in curve],
            "final_accuracy": curve[-1][2], "end_time": end,
            "steps_per_learner": [int(s) for s in steps],
            "shard_sizes": [len(s) for s in world.shards],
            "sampling": "fixed", "adjacency": "replace-one",
            "noise": "N(0, sigma^2 C^2 I) on the sum of B clipped per-sample gradients",
            "data_notes": world.ds.notes, "provenance": world.ds.meta.get("provenance")}


def run_point(**config) -> dict:
    """Sweep entry point: one seeded run from keyword arguments (numerics.sweep calls this)."""
    return simulate(DecentralizedConfig(**config))
