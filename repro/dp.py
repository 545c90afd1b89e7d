r"""The DP-SGD step: per-sample clipping, sampling, Gaussian noise, and the privacy it certifies.

Mechanism (002_13c470b90c68bab6.txt Algorithm 1, L72-L92; 000_d613b97385d90362.txt Algorithm 2.1,
L67-L124): clip every per-sample gradient to norm ``C`` (:math:`[x]_C = x/\max\{1, \lVert x\rVert/C\}`,
002 L14), sum, add :math:`\mathcal N(0, C^2\sigma^2 I)` once per round.

Sampling. The privacy analyses of both papers assume Poisson sampling: each record joins round ``i``
independently with probability :math:`q_i = s_i/N` (002 footnote 14, L578; footnote 5, L182). The
algorithms as written sample differently: 002 "uniformly samples a random set" of ``s_i`` records
(fixed size, without replacement, L79) and 000 draws each sample uniformly with replacement
(Algorithm 2.1 line 15, L94). :func:`sample_indices` offers all three, and :class:`PrivacyRecord`
records the schedule of the scheme the run really used.

Privacy. Every run records its schedule (round ``i``: batch size ``s_i`` of ``N`` records, noise
multiplier :math:`\sigma`, sensitivity ``C``, noise std ``C sigma``, add/remove adjacency, 002 L54) and
reports the epsilon of the sampling it actually performed (:func:`epsilon_for_sampling`): a certified
two-sided bracket from ``numerics.certified.certified_epsilon``, which accounts Poisson rounds with the
PLD accountant and fixed-size or with-replacement rounds with the dominating pairs of
``numerics.dominating`` (never as Poisson). We never compute privacy ourselves.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from numerics.certified import certified_epsilon
from numerics.errors import InvalidParameter, check_sigma
from numerics.schedule import Phase, Schedule

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


#: repro's sampling names -> numerics.schedule's
NUMERICS_SAMPLING = {"poisson": "poisson", "fixed": "fixed-size", "with-replacement": "with-replacement"}


@dataclass
class PrivacyRecord:
    """One client's privacy trace: the batch size and noise multiplier of every noisy round."""

    n_records: int
    sampling: str
    sizes: list = field(default_factory=list)
    sigmas: list = field(default_factory=list)

    def add_round(self, size: int, sigma: float) -> None:
        if size > 0:  # an empty round releases nothing that depends on the data
            self.sizes.append(int(size))
            self.sigmas.append(float(sigma))

    def schedule(self) -> Schedule:
        """The mechanism as run: consecutive rounds with equal (size, sigma) merged into one phase of the
        run's own sampling (add/remove adjacency, 000/002's relation)."""
        merged: list = []
        for size, sigma in zip(self.sizes, self.sigmas, strict=True):
            if merged and merged[-1][:2] == [size, sigma]:
                merged[-1][2] += 1
            else:
                merged.append([size, sigma, 1])
        return Schedule(tuple(self._phase(b, s, t) for b, s, t in merged))

    def _phase(self, size: int, sigma: float, steps: int) -> Phase:
        if self.sampling == "poisson":
            return Phase(q=size / self.n_records, sigma=sigma, steps=steps)
        maker = Phase.fixed_size if self.sampling == "fixed" else Phase.with_replacement
        return maker(batch_size=size, dataset_size=self.n_records, sigma=sigma, steps=steps)


def epsilon_for_sampling(schedule: Schedule, delta: float, sampling: str) -> dict:
    """The certified epsilon of ``schedule`` (whose phases carry the sampling the run used).

    ``{"accounted": True, "sampling": ..., epsilon_lower, epsilon_upper, delta, method, certified}``
    from :func:`numerics.certified.certified_epsilon`: the PLD accountant for Poisson, numerics'
    dispatch table (dominating pairs of numerics.dominating) for fixed-size and with-replacement
    batches. ``sampling`` must name the scheme the schedule's phases describe; a mismatch is refused,
    so a Poisson number is never reported for a batch that was not Poisson-sampled.
    """
    if sampling not in SAMPLINGS:
        raise InvalidParameter(f"sampling must be one of {SAMPLINGS}, got {sampling!r}")
    phases = {p.sampling for p in schedule.phases}
    if phases != {NUMERICS_SAMPLING[sampling]}:
        raise InvalidParameter(f"the run used {sampling!r} sampling but its schedule describes {sorted(phases)}")
    return {"accounted": True, "sampling": sampling, **certified_epsilon(schedule, delta)}


def describe_epsilon(eps: dict | None) -> str:
    """One caption phrase for an arm's epsilon record (``None``: the arm adds no noise)."""
    if eps is None:
        return "no DP noise"
    return (f"epsilon <= {eps['epsilon_upper']:.4g} at delta {eps['delta']:.3g} "
            f"({eps['sampling']} sampling, {'certified' if eps['certified'] else 'not certified'} {eps['method']})")
