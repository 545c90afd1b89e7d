r"""Asynchronous federated learning with bounded staleness, with or without DP (seeds 000 and 002).

Protocol (000_d613b97385d90362.txt Algorithm 2.1 L67-L124 and App. A L292-L365;
002_13c470b90c68bab6.txt Algorithms 1-4, L72-L92 and L351-L428):

* ``n`` clients, each with its own shard of ``N_c`` records, and a server holding the global model
  :math:`\hat v`. Round ``i`` of client ``c`` processes ``s_{i,c}`` samples and sends one update; the
  server **sums** the client updates (000 L302-L311: it subtracts :math:`\bar\eta_i U` for every
  message), it does not average them.
* Bounded staleness :math:`\Upsilon`: a client starts round ``i`` from a broadcast :math:`\hat v_k`
  (which contains every round ``< k``) with :math:`k \ge i - d`; we draw ``k`` uniformly from
  ``{i-d, ..., i}`` per client and round (``d = 1`` is the papers' "1-asynchronous round", 002 L1391).
  A client does not see its own earlier rounds until they are broadcast; the real protocol keeps
  them locally, so our simulation is slightly more stale than the papers', never less.
* Local work: ``frozen`` evaluates every gradient of the round at the round's start model
  :math:`\hat w` (002 Algorithm 1; the only form its DP analysis covers, footnote 15, L580-L584);
  ``sequential`` runs local SGD inside the round, :math:`\hat w \leftarrow \hat w - \eta g` after each
  sample (000 Algorithm 2.1 lines 16-20).
* DP: clip each gradient at ``C``, add :math:`\mathcal N(0, C^2\sigma^2 I)` to the round's sum and
  scale it with the round step :math:`\bar\eta_i` (000 lines 17, 23-24; 002 L86-L96). 000 line 24 adds
  :math:`+\bar\eta_i n` to the local model while the server subtracts; we subtract on both sides (the
  noise is symmetric, so only consistency matters; seed-000 notes §7 A3).

Every run is a pure function of its config (seeded); :func:`simulate` returns a JSON-serialisable dict with
the accuracy curve, the rounds, and (with DP) each client's privacy schedule; ``repro.epsilon.certify_run``
adds the certified epsilon (apart, so that this training code imports no accountant).
"""
from __future__ import annotations

import sys

import numpy as np
from threadpoolctl import threadpool_limits
from tqdm import tqdm

from numerics.sweep import versioned
from . import data as data_mod
from . import dp, models, sequences, step_sizes
from .config import RunConfig

#: number of evaluation points along the run (plus the final model)
N_EVAL = 40


def client_round_sizes(cfg: RunConfig) -> list[list[int]]:
    """``sizes[i][c]`` = s_{i,c}. A per-client sequence applies to every client; a total one is split."""
    seq = dict(cfg.sizes)
    kind = seq.pop("kind")
    start = int(seq.pop("start", 0))
    totals = sequences.round_sizes(kind, total=cfg.total_iterations, start=start, **seq)
    if cfg.sizes_per == "client":
        return [[s] * cfg.n_clients for s in totals]
    n = cfg.n_clients
    return [[s // n + (1 if c < s % n else 0) for c in range(n)] for s in totals]


class _Client:
    """One client's data shard, random stream and privacy trace."""

    def __init__(self, x, y, rng, cfg: RunConfig):
        self.x, self.y, self.rng = x, y, rng
        self.privacy = dp.PrivacyRecord(len(y), cfg.sampling) if cfg.dp_sigma is not None else None

    def update(self, model, theta, size, etas, cfg: RunConfig) -> np.ndarray:
        r"""The round's model change :math:`\sum_h \eta_h [g_h]_C + \bar\eta_i n` (subtracted by the server)."""
        idx = dp.sample_indices(self.rng, len(self.y), size, cfg.sampling)
        round_eta = etas[0]  # the round step eta_bar_i scales the noise
        # a Poisson sample may exceed s_{i,c}; its extra samples take the round's last step size
        etas = etas[:len(idx)] if len(idx) <= len(etas) else np.concatenate([etas, np.full(len(idx) - len(etas), etas[-1])])
        scale = 1.0 / max(size, 1) if cfg.update == "mean" else 1.0
        if cfg.local == "frozen":
            g = model.per_sample_grads(theta, self.x[idx], self.y[idx])
            if cfg.clip is not None:
                g = dp.clip_rows(g, cfg.clip)
            delta = scale * (etas @ g)
        else:
            w, delta = theta.copy(), np.zeros_like(theta)
            for h, j in enumerate(idx):
                g = model.per_sample_grads(w, self.x[j:j + 1], self.y[j:j + 1])
                if cfg.clip is not None:
                    g = dp.clip_rows(g, cfg.clip)
                step = scale * etas[h] * g[0]
                w -= step
                delta += step
        if self.privacy is not None:
            delta += scale * round_eta * dp.gaussian_noise(self.rng, len(theta), clip=cfg.clip, sigma=cfg.dp_sigma)
            self.privacy.add_round(size, cfg.dp_sigma)
        return delta


def _eval_rounds(n_rounds: int) -> set:
    return set(np.unique(np.linspace(0, n_rounds, min(N_EVAL, n_rounds) + 1).astype(int)).tolist())


def simulate(cfg: RunConfig, *, progress: bool | None = None) -> dict:
    """Run one configured training; see the module docstring for the protocol.

    BLAS is held to one thread: the products here are small, the sweep runner already uses one worker
    per core, and a multi-threaded BLAS on a shared machine made evaluation 20x slower (measured).
    """
    with threadpool_limits(limits=1, user_api="blas"):
        return _simulate(cfg, progress)


def _simulate(cfg: RunConfig, progress: bool | None) -> dict:
    ds = data_mod.load(cfg.data, seed=cfg.data_seed, n=cfg.n_records)
    model = models.build(cfg.model, n_features=ds.n_features, n_classes=ds.n_classes,
                         n_train=len(ds.y_train) // cfg.n_clients, n_hidden=cfg.n_hidden)
    part = (data_mod.partition_iid(len(ds.y_train), cfg.n_clients, seed=cfg.data_seed)
            if cfg.partition == "iid" else data_mod.partition_by_label(ds.y_train, cfg.n_clients, seed=cfg.data_seed))
    root = np.random.SeedSequence(cfg.seed)
    init_ss, stale_ss, *client_ss = root.spawn(2 + cfg.n_clients)
    clients = [_Client(ds.x_train[p], ds.y_train[p], np.random.default_rng(s), cfg) for p, s in zip(part, client_ss)]
    stale_rng = np.random.default_rng(stale_ss)
    eta = step_sizes.step_size(cfg.step["kind"], eta0=cfg.step["eta0"], beta=cfg.step.get("beta", 0.0))

    sizes = client_round_sizes(cfg)
    history = [model.init(np.random.default_rng(init_ss))]  # history[k] = v_k (rounds < k applied)
    evals, done = _eval_rounds(len(sizes)), 0
    curve = {"round": [], "iterations": [], "test_accuracy": [], "test_loss": []}

    def record(i):
        theta = history[-1]
        curve["round"].append(i)
        curve["iterations"].append(done)
        curve["test_accuracy"].append(model.accuracy(theta, ds.x_test, ds.y_test))
        curve["test_loss"].append(model.loss(theta, ds.x_test, ds.y_test))

    show = sys.stderr.isatty() if progress is None else progress
    for i in tqdm(range(len(sizes)), disable=not show, desc=f"rounds ({cfg.data}, {cfg.model})", leave=False):
        if i in evals:
            record(i)
        t_round = done if cfg.step_clock_scope == "total" else done // cfg.n_clients
        total_delta = np.zeros_like(history[-1])
        for c, client in enumerate(clients):
            s = sizes[i][c]
            if s == 0:
                continue
            lag = int(stale_rng.integers(0, min(cfg.staleness, i) + 1))
            base = history[-1 - lag]
            ts = [step_sizes.clock(cfg.clock, iterations_before_round=t_round, local_step=h, n_clients=cfg.n_clients)
                  for h in range(s if cfg.clock == "diminishing1" else 1)]
            etas = np.array([eta(t) for t in ts])
            if len(etas) == 1:
                etas = np.full(max(s, 1), etas[0])
            total_delta += client.update(model, base, s, etas, cfg)
        history.append(history[-1] - total_delta)
        if len(history) > cfg.staleness + 1:
            history.pop(0)
        done += sum(sizes[i])
    record(len(sizes))

    out = {"config": cfg.to_dict(), "data_notes": ds.notes, "rounds": len(sizes),
           "iterations": done, "final_test_accuracy": curve["test_accuracy"][-1], "curve": curve,
           "final_theta": history[-1].tolist()}
    if cfg.dp_sigma is not None:
        out["privacy"] = _privacy(clients, cfg)
    return out


def _privacy(clients, cfg: RunConfig) -> dict:
    """Each client's schedule (of the sampling it used); ``repro.epsilon.certify_run`` accounts them (the
    training code calls no accountant, so an accountant edit re-uses its cached runs)."""
    scheds = [c.privacy.schedule() for c in clients]
    return {"sampling": cfg.sampling, "schedules": [s.to_dict() for s in scheds], "delta": cfg.dp_delta}


@versioned("1")
def run_point(**config) -> dict:
    """Sweep entry point: one run from a config dict's items (the seed is part of the point)."""
    return simulate(RunConfig(**config), progress=False)
