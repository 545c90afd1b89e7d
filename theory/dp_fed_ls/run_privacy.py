"""The certified epsilon of seed 004's MNIST runs (:mod:`theory.dp_fed_ls.runs`) at the sampling they use.

Apart from the runs so that their sweep cache is keyed by the training code and the closed-form noise only,
never by the accountant this module calls (``numerics.sweep.closure``).
"""
from __future__ import annotations

from theory.dp_fed_ls import closed_form as cf
from theory.dp_fed_ls.runs import CLIENTS, TAU, closed_form_nu1


def run_epsilon(eps: float, sampling: str, rounds: int) -> dict:
    """Certified bracket of the epsilon our runs at target ``eps`` really have, for the sampling they use
    (uniform: fixed-size under replace-one; Poisson: add/remove), delta = 1/N^1.1 at our N (``numerics.epsilon``)."""
    nu1 = closed_form_nu1(eps, sampling, rounds)
    if nu1 is None:
        return {"feasible": False}
    s = cf.UNIFORM if sampling == "uniform" else cf.POISSON
    return {"feasible": True, "nu_over_clip": nu1,
            **cf.certified_bounds(nu1, CLIENTS, TAU, rounds, cf.delta_of(CLIENTS), s)}
