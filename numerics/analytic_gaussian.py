r"""Full-batch Gaussian phases in closed form: the analytic Gaussian mechanism (Balle & Wang 2018).

Every record in every step, noise multiplier :math:`\sigma_i` for :math:`T_i` steps, sensitivity s = 1
(add-remove) or 2 (replace-one). The composition of Gaussian mechanisms is one Gaussian mechanism:
the pair :math:`(N(s\,\mathbf 1_T), N(0))` in :math:`\mathbb R^T` with per-coordinate scales
:math:`\sigma_i` is, after whitening, :math:`(N(\mu), N(0))` in one dimension with
:math:`\mu = s\sqrt{\sum_i T_i/\sigma_i^2}`, whatever the adaptivity (each step is dominated by its own
Gaussian pair, which is also realized by one record at distance s; ZDW22 Thm. 10). Its exact profile
is :math:`\delta(\varepsilon) = \Phi(-\varepsilon/\mu + \mu/2) - e^\varepsilon\Phi(-\varepsilon/\mu - \mu/2)`
(Balle & Wang 2018, ICML, Thm. 8; numerics.gdp.delta_gdp evaluates it without overflow). Epsilon is
its inverse; the returned bracket is the computed root widened until the profile, evaluated in double
precision, is certainly on each side of delta (relative width about 1e-9, far below 1e-6).
"""
from __future__ import annotations

import math

from .errors import check_delta, check_epsilon
from .gdp import delta_gdp, epsilon_gdp
from .results import DeltaBounds, EpsilonBounds

#: relative margin by which double-precision evaluations of the Gaussian profile are trusted
_EVAL_RTOL = 1e-10


def mu_of(phases, adjacency: str) -> float:
    """mu of full-batch Gaussian phases: s sqrt(sum T_i / sigma_i^2), s = 1 or 2."""
    shift = 2.0 if adjacency == "replace-one" else 1.0
    return shift * math.sqrt(sum(p.steps / p.sigma ** 2 for p in phases))


def epsilon_analytic(mu: float, delta: float, adjacency: str) -> EpsilonBounds:
    delta = check_delta(delta)
    eps = epsilon_gdp(delta, mu)
    if eps == 0.0:
        return EpsilonBounds(0.0, 0.0, delta, "analytic-gaussian", adjacency, True, {"mu": mu})
    lo, hi, rel = eps, eps, 1e-12
    while not delta_gdp(lo, mu) > delta * (1 + _EVAL_RTOL):
        rel *= 4
        lo = eps * (1 - rel)
    rel = 1e-12
    while not delta_gdp(hi, mu) < delta * (1 - _EVAL_RTOL):
        rel *= 4
        hi = eps * (1 + rel)
    return EpsilonBounds(lo, hi, delta, "analytic-gaussian", adjacency, True,
                         {"mu": mu, "note": "closed form (analytic Gaussian mechanism)"})


def delta_analytic(mu: float, epsilon: float, adjacency: str) -> DeltaBounds:
    epsilon = check_epsilon(epsilon)
    d = delta_gdp(epsilon, mu)
    return DeltaBounds(d * (1 - 4 * _EVAL_RTOL), min(d * (1 + 4 * _EVAL_RTOL), 1.0), epsilon,
                       "analytic-gaussian", adjacency, True, {"mu": mu, "note": "closed form"})
