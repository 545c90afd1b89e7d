r"""Theorems 1 and 2 (004_da72e1d6878ba772.txt L188-212): the closed-form Gaussian noise per unit clip for a target
(eps, delta), as the paper computes it (lambda by grid search, L212): the formula alone.

The theorems' claims, their certified checks and scans stay in :mod:`theory.dp_fed_ls.closed_form` (which
imports these names); the training runs (:mod:`theory.dp_fed_ls.runs`) need only the formula, so they import
this module and their cached runs are not keyed by the accountant that ``closed_form`` also calls
(``numerics.sweep.closure``).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from theory.dp_fed_ls.paper_values import DELTA_EXPONENT, LEMMA

#: lambda grid of the line search (L212 "grid search of lambda in (0,1)")
LAMBDA_GRID = np.linspace(1e-3, 1 - 1e-3, 999)


@dataclass(frozen=True)
class Sampling:
    """The constants that differ between Theorem 1 and Theorem 2."""

    name: str
    c: float             # 14 or 2 in (4)/(5)
    sens_factor: float   # v = nu_1^2 / sens_factor^2: sensitivity in units of the clip (2 or 1)
    v_min: float         # 2/3 or 5/9


UNIFORM = Sampling("uniform", float(LEMMA["thm1_constant"].text), 2.0, 2 / 3)
POISSON = Sampling("poisson", float(LEMMA["thm2_constant"].text), 1.0, 5 / 9)


def delta_of(n_clients: int) -> float:
    """delta = 1/N^1.1 (L302)."""
    return 1.0 / n_clients ** DELTA_EXPONENT.value


def alpha_of(lam, eps, delta):
    return math.log(1 / delta) / ((1 - lam) * eps) + 1


def nu1_bound(lam, eps, delta, tau, rounds, s: Sampling):
    r"""Right side of (4)/(5) divided by the clip: the noise per unit clip for this lambda."""
    return tau / eps * math.sqrt(s.c * rounds / lam * (math.log(1 / delta) / (1 - lam) + eps))


def conditions_hold(nu1, lam, eps, delta, tau, s: Sampling) -> bool:
    """The lemma's two conditions at noise nu1 (per unit clip) and lambda."""
    v = (nu1 / s.sens_factor) ** 2
    a = alpha_of(lam, eps, delta)
    arg = tau * a * (1 + v)
    return v >= s.v_min and arg < 1 and a - 1 <= 2 / 3 * v * math.log(1 / arg)


def closed_form_noise(eps, delta, tau, rounds, s: Sampling):
    """(nu1, lambda, alpha): the smallest bound over the lambdas whose conditions hold at the bound; None if none."""
    best = None
    for lam in LAMBDA_GRID:
        nu1 = nu1_bound(lam, eps, delta, tau, rounds, s)
        if conditions_hold(nu1, lam, eps, delta, tau, s) and (best is None or nu1 < best[0]):
            best = (nu1, float(lam), alpha_of(lam, eps, delta))
    return best
