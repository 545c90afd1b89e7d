"""One run's configuration: a frozen value, validated on construction, loadable from JSON.

Defaults follow the papers' common setting (5 clients, 1-round staleness, C = 0.1, eta_0 = 0.1 with
eta_0/(1 + beta t), beta = 0.001: 002_13c470b90c68bab6.txt Table 1 L253 and Table 3 L1404;
000_d613b97385d90362.txt Table 2 L1837). The seed is part of the config, so a sweep point fully
determines its run.

Fields
------
data, n_records, data_seed   data set name (repro.data.load), synthetic size, split/partition seed
model, n_hidden              strongly-convex | plain-convex | non-convex (MLP hidden width)
n_clients, partition         number of clients; iid | label (label-skewed shards)
sizes, sizes_per             sample-size sequence {"kind": ..., params, "start": i0} (repro.sequences);
                             whether it counts one client's samples ("client") or all clients' ("total")
total_iterations             budget K in the same unit as ``sizes``
step, clock, step_clock_scope  {"kind", "eta0", "beta"} (repro.step_sizes); diminishing1 | diminishing2;
                             whether t counts all clients' iterations ("total", seed 000) or one
                             client's ("client", seed 002 Table 1 footnote L260)
local, update                frozen | sequential (see repro.async_fl); sum | mean of the round's gradients
staleness                    d: a client's model is at most d rounds behind
sampling                     poisson | fixed | with-replacement (repro.dp)
clip, dp_sigma, dp_delta     clipping constant C (None: no clipping), noise multiplier (None: no noise),
                             delta at which the certified epsilon is reported
certify                      repro.epsilon.certify_run adds the certified epsilon (False skips it)
seed                         the run's random seed
"""
from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field, fields

from numerics.errors import InvalidParameter, check_delta, check_sigma

_CHOICES = {
    "model": ("strongly-convex", "plain-convex", "non-convex"),
    "partition": ("iid", "label"),
    "sizes_per": ("client", "total"),
    "clock": ("diminishing1", "diminishing2"),
    "step_clock_scope": ("total", "client"),
    "local": ("frozen", "sequential"),
    "update": ("sum", "mean"),
    "sampling": ("poisson", "fixed", "with-replacement"),
}


@dataclass(frozen=True)
class RunConfig:
    data: str = "a9a-like"
    n_records: int | None = 12_500
    data_seed: int = 0
    model: str = "strongly-convex"
    n_hidden: int = 32
    n_clients: int = 5
    partition: str = "iid"
    sizes: dict = field(default_factory=lambda: {"kind": "constant", "s": 16})
    sizes_per: str = "client"
    total_iterations: int = 5000
    step: dict = field(default_factory=lambda: {"kind": "inverse_t", "eta0": 0.1, "beta": 0.001})
    clock: str = "diminishing2"
    step_clock_scope: str = "total"
    local: str = "frozen"
    update: str = "sum"
    staleness: int = 1
    sampling: str = "poisson"
    clip: float | None = 0.1
    dp_sigma: float | None = None
    dp_delta: float | None = None
    certify: bool = True
    seed: int = 0

    def __post_init__(self):
        for name, allowed in _CHOICES.items():
            if getattr(self, name) not in allowed:
                raise InvalidParameter(f"{name} must be one of {allowed}, got {getattr(self, name)!r}")
        for name in ("n_clients", "total_iterations", "n_hidden"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise InvalidParameter(f"{name} must be a positive integer, got {v!r}")
        if isinstance(self.staleness, bool) or not isinstance(self.staleness, int) or self.staleness < 0:
            raise InvalidParameter(f"staleness must be an integer >= 0, got {self.staleness!r}")
        if self.clip is not None and not (isinstance(self.clip, (int, float)) and math.isfinite(self.clip) and self.clip > 0):
            raise InvalidParameter(f"clip must be a finite number > 0 or null, got {self.clip!r}")
        if self.dp_sigma is not None:
            check_sigma(self.dp_sigma, "dp_sigma")
            if self.clip is None:
                raise InvalidParameter("dp_sigma needs a clipping constant: clip must be a number > 0, got null")
        if self.dp_delta is not None:
            check_delta(self.dp_delta, "dp_delta")
        if "kind" not in self.sizes or "kind" not in self.step or "eta0" not in self.step:
            raise InvalidParameter("sizes needs a 'kind'; step needs 'kind' and 'eta0'")

    def to_dict(self) -> dict:
        return asdict(self)

    def replace(self, **changes) -> "RunConfig":
        return RunConfig(**{**self.to_dict(), **changes})

    @classmethod
    def from_json(cls, path) -> "RunConfig":
        try:
            with open(path) as fh:
                raw = json.load(fh)
        except FileNotFoundError:
            raise InvalidParameter(f"config file {path} does not exist") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise InvalidParameter(f"config file {path} cannot be read: {exc}") from None
        except json.JSONDecodeError as exc:
            raise InvalidParameter(f"config file {path} is not valid JSON: {exc}") from None
        if not isinstance(raw, dict):
            raise InvalidParameter(f"config file {path} must hold a JSON object of RunConfig fields, "
                                   f"got {type(raw).__name__}")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(raw) - known)
        if unknown:
            raise InvalidParameter(f"unknown config keys {unknown}; known: {sorted(known)}")
        return cls(**raw)
