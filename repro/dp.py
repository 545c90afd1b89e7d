r"""The DP-SGD step: per-sample clipping, sampling, Gaussian noise, and the privacy it certifies.

Mechanism (002_13c470b90c68bab6.txt Algorithm 1, L72-L92; 000_d613b97385d90362.txt Algorithm 2.1,
L67-L124): clip every per-sample gradient to norm ``C`` (:math:`[x]_C = x/\max\{1, \lVert x\rVert/C\}`,
002 L14), sum, add :math:`\mathcal N(0, C^2\sigma^2 I)` once per round.

Sampling. The privacy analyses of both papers assume Poisson sampling: each record joins round ``i``
independently with probability :math:`q_i = s_i/N` (002 footnote 14, L578; footnote 5, L182). The
algorithms as written sample differently: 002 "uniformly samples a random set" of ``s_i`` records
(fixed size, without replacement, L79) and 000 draws each sample uniformly with replacement
(Algorithm 2.1 line 15, L94). :func:`sample_indices` offers all three; only ``poisson`` matches the
schedule we certify, and :class:`PrivacyRecord` says so (``accounting_matches_sampling``).

Privacy. Every run records its schedule: round ``i`` is one Poisson-subsampled Gaussian step with
``q_i = s_i/N`` and noise multiplier :math:`\sigma` (sensitivity ``C``, noise std ``C sigma``), under
add/remove adjacency (002 L54). The certified epsilon comes from ``numerics.certified.certified_epsilon``
(lower and upper bound); we never compute privacy ourselves.

Every run reports the epsilon of the sampling it actually performed (:func:`epsilon_for_sampling`):
a Poisson run gets the certified PLD bracket; a fixed-size or with-replacement run is reported as
"not accounted", with the reason, until numerics has a certified accountant for that scheme. A
Poisson number is never printed for a batch that was not Poisson-sampled.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from numerics.certified import certified_epsilon
from numerics.errors import InvalidParameter, check_sigma
from numerics.schedule import Schedule

SAMPLINGS = ("poisson", "fixed", "with-replacement")


def clip_rows(grads: np.ndarray, clip: float) -> np.ndarray:
    r"""Scale each row to norm at most ``clip``: :math:`g / \max\{1, \lVert g\rVert/C\}`."""
    if not clip > 0:
        raise InvalidParameter(f"clip must be > 0, got {clip!r}")
    norms = np.linalg.norm(grads, axis=1)
    return grads / np.maximum(1.0, norms / clip)[:, None]


def sample_indices(rng: np.random.Generator, n_records: int, size: int, sampling: str) -> np.ndarray:
    """Indices of one round's sample of expected size ``size`` from ``n_records`` records.

    ``poisson``: each record independently with probability ``size / n_records`` (drawn as a binomial
    count and a uniform subset of that size, which has the same law); ``fixed``: exactly ``size``
    distinct records; ``with-replacement``: ``size`` independent uniform draws.
    """
    if size < 0 or (size > n_records and sampling != "with-replacement"):
        raise InvalidParameter(f"sample size must lie in [0, {n_records}], got {size!r}")
    if sampling == "poisson":
        k = rng.binomial(n_records, size / n_records)
        return rng.choice(n_records, size=k, replace=False)
    if sampling == "fixed":
        return rng.choice(n_records, size=size, replace=False)
    if sampling == "with-replacement":
        return rng.integers(0, n_records, size=size)
    raise InvalidParameter(f"sampling must be one of {SAMPLINGS}, got {sampling!r}")


def gaussian_noise(rng: np.random.Generator, dim: int, *, clip: float, sigma: float) -> np.ndarray:
    r""":math:`\mathcal N(0, C^2\sigma^2 I_{dim})`."""
    return rng.normal(0.0, clip * check_sigma(sigma), dim)


@dataclass
class PrivacyRecord:
    """One client's privacy trace: the sampling rate and noise multiplier of every noisy round."""

    n_records: int
    sampling: str
    qs: list = field(default_factory=list)
    sigmas: list = field(default_factory=list)

    def add_round(self, size: int, sigma: float) -> None:
        if size > 0:  # an empty round releases nothing that depends on the data
            self.qs.append(size / self.n_records)
            self.sigmas.append(float(sigma))

    @property
    def accounting_matches_sampling(self) -> bool:
        return self.sampling == "poisson"

    def schedule(self) -> Schedule:
        return Schedule.per_round(self.qs, self.sigmas)


#: why a sampling scheme has no certified epsilon yet (numerics certifies Poisson subsampling only)
NOT_ACCOUNTED = {
    "fixed": "fixed-size sampling without replacement: numerics has no certified accountant for it yet, and "
             "the Poisson epsilon does not bound it",
    "with-replacement": "sampling with replacement (000 Algorithm 2.1 line 15): numerics has no certified "
                        "accountant for it yet, and the Poisson epsilon does not bound it",
}


def epsilon_for_sampling(schedule: Schedule, delta: float, sampling: str) -> dict:
    """The epsilon of ``schedule`` under the sampling the run really used.

    ``poisson``: ``{"accounted": True, "sampling": "poisson", epsilon_lower, epsilon_upper, ...}`` from
    :func:`numerics.certified.certified_epsilon`. Otherwise ``{"accounted": False, "sampling": ..., "reason": ...}``.
    """
    if sampling not in SAMPLINGS:
        raise InvalidParameter(f"sampling must be one of {SAMPLINGS}, got {sampling!r}")
    if sampling == "poisson":
        return {"accounted": True, "sampling": sampling, **certified_epsilon(schedule, delta)}
    return {"accounted": False, "sampling": sampling, "reason": NOT_ACCOUNTED[sampling]}


def describe_epsilon(eps: dict | None) -> str:
    """One caption phrase for an arm's epsilon record (``None``: the arm adds no noise)."""
    if eps is None:
        return "no DP noise"
    if not eps["accounted"]:
        return f"epsilon not accounted ({eps['sampling']} sampling)"
    return f"epsilon <= {eps['epsilon_upper']:.4g} at delta {eps['delta']:.3g} (Poisson, certified PLD)"
