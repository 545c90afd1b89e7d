r"""Certified two-sided epsilon of the mechanisms DP-Fed-LS runs, by the suite's accountant ``numerics.epsilon``.

Algorithm 1 (L98-L104, seed 004) adds Gaussian noise of std :math:`\nu` to the sum of client updates clipped to
norm :math:`\mathcal L` and divides by a fixed :math:`S = \tau N`; the noise multiplier is therefore
:math:`\nu/\mathcal L` (noise std over the per-client clip), and the sampling is

* ``uniform``: a fixed-size subset of :math:`\tau N` clients without replacement (Theorem 1, L188-L192), under
  replace-one adjacency. The accountant shifts by :math:`2\mathcal L` itself (a replaced client moves the clipped
  sum by up to twice the clip). Its lower bound is a realizable pair: the other clients' clipped updates are
  :math:`-\mathcal L e_1` and the replaced client's :math:`+\mathcal L e_1` becomes :math:`-\mathcal L e_1`, so
  every round outputs :math:`(1-\tau)N(0,\nu^2) + \tau N(2\mathcal L,\nu^2)` against :math:`N(0,\nu^2)` (up to
  a common shift). A printed epsilon below that lower bound is refuted by this pair.
* ``poisson``: each client with probability :math:`\tau` (Theorem 2, L206-L210), add/remove adjacency, fixed
  denominator (see ``004.thm-2.realised-denominator`` for the realised :math:`|S_t|`).

Laplacian smoothing of the noisy sum is post-processing and does not change epsilon. This module never
accounts fixed-size sampling as Poisson. The paper's OWN accountants (autodp/WBK at sensitivity
:math:`\mathcal L`, TF-privacy RDP) are reproduced in :mod:`theory.dp_fed_ls.wbk` and
:mod:`theory.dp_fed_ls.tables`; they are what the paper printed, not certificates.
"""
from __future__ import annotations

import numerics
from numerics.errors import InvalidParameter
from numerics.schedule import Phase, Schedule

SAMPLINGS = ("uniform", "poisson")


def schedule(sampling: str, clients: int, tau: float, nu_over_clip: float, rounds: int) -> Schedule:
    """The schedule of ``rounds`` rounds of Algorithm 1 at noise ``nu_over_clip`` (noise std over the clip)."""
    if sampling == "uniform":
        size = round(tau * clients)
        if abs(size - tau * clients) > 1e-9 * clients:
            raise InvalidParameter(f"tau * N must be a whole number of clients, got {tau} * {clients}")
        phase = Phase.fixed_size(batch_size=size, dataset_size=clients, sigma=nu_over_clip, steps=rounds)
        return Schedule((phase,), adjacency="replace-one")
    if sampling == "poisson":
        return Schedule((Phase(tau, nu_over_clip, rounds),), adjacency="add-remove")
    raise InvalidParameter(f"sampling must be one of {SAMPLINGS}, got {sampling!r}")


def epsilon_bounds(sampling: str, clients: int, tau: float, nu_over_clip: float, rounds: int, delta: float) -> dict:
    """{"lower", "upper", "accountant", "adjacency"}: the certified bracket of epsilon(delta) by ``numerics.epsilon``."""
    s = schedule(sampling, clients, tau, nu_over_clip, rounds)
    b = numerics.epsilon(s, delta)
    return {"lower": b.epsilon_lower, "upper": b.epsilon_upper, "adjacency": s.adjacency,
            "sampling": s.phases[0].sampling, "accountant": "numerics.epsilon (certified, two-sided)"}
