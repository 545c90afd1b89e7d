r"""Full-batch Gaussian phases in closed form: the analytic Gaussian mechanism (Balle & Wang 2018).

Every record in every step, noise multiplier :math:`\sigma_i` for :math:`T_i` steps, sensitivity s = 1
(add-remove) or 2 (replace-one). The composition of Gaussian mechanisms is one Gaussian mechanism:
the pair :math:`(N(s\,\mathbf 1_T), N(0))` in :math:`\mathbb R^T` with per-coordinate scales
:math:`\sigma_i` is, after whitening, :math:`(N(\mu), N(0))` in one dimension with
:math:`\mu = s\sqrt{\sum_i T_i/\sigma_i^2}`, whatever the adaptivity (each step is dominated by its own
Gaussian pair, which is also realized by one record at distance s; ZDW22 Thm. 10). Its exact profile
is :math:`\delta(\varepsilon) = \Phi(-\varepsilon/\mu + \mu/2) - e^\varepsilon\Phi(-\varepsilon/\mu - \mu/2)`
(Balle & Wang 2018, ICML, Thm. 8), increasing in :math:`\mu` and decreasing in :math:`\varepsilon`.

Floating point (issue 29). Every number that decides a returned end is an Arb ball (python-flint):
:math:`\mu` from the float sigmas and step counts (:func:`mu_bounds`), and the profile as the difference
of two ``erfc`` balls, at ``ANALYTIC_ARB_PREC`` bits doubled until the ball is narrower than
``ANALYTIC_ARB_RTOL`` of its value (the difference cancels to about :math:`u/\mu` relative in double
precision when :math:`\mu` is small: at :math:`\mu = 10^{-8}`, :math:`\varepsilon = 0` the float profile
numerics.gdp.delta_gdp is 3.0e-9 relative below the truth, which an earlier trusted margin of 1e-10
did not cover). ``delta``: the lower end of the ball at the lower end of :math:`\mu`, the upper end at its
upper end. ``epsilon``: the float root (numerics.gdp.epsilon_gdp) only steers; its ends are moved outward
until the balls prove :math:`\delta(\varepsilon_{lo}) > \delta` and :math:`\delta(\varepsilon_{hi}) \le \delta`.
"""
from __future__ import annotations

import math

from .enclose import ball_to_floats
from .errors import check_delta, check_epsilon
from .gdp import epsilon_gdp
from .precision import ANALYTIC_ARB_PREC, ANALYTIC_ARB_RTOL
from .results import DeltaBounds, EpsilonBounds


def _shift(adjacency: str) -> int:
    return 2 if adjacency == "replace-one" else 1


def mu_of(phases, adjacency: str) -> float:
    """mu of full-batch Gaussian phases: s sqrt(sum T_i / sigma_i^2), s = 1 or 2 (a float estimate)."""
    return _shift(adjacency) * math.sqrt(sum(p.steps / p.sigma ** 2 for p in phases))


def mu_bounds(phases, adjacency: str) -> tuple[float, float]:
    """Floats lo <= s sqrt(sum T_i / sigma_i^2) <= hi for the float sigmas (Arb, ball_to_floats)."""
    from flint import arb, ctx
    saved, ctx.prec = ctx.prec, ANALYTIC_ARB_PREC
    try:
        total = sum((arb(p.steps) / arb(p.sigma) ** 2 for p in phases), arb(0))
        return ball_to_floats(_shift(adjacency) * total.sqrt())
    finally:
        ctx.prec = saved


def _as_bounds(mu) -> tuple[float, float]:
    """(lo, hi) of mu given as a float (exact) or as an enclosing pair of floats."""
    return (float(mu), float(mu)) if isinstance(mu, (int, float)) else (float(mu[0]), float(mu[1]))


def delta_bounds(epsilon: float, mu: float) -> tuple[float, float]:
    r"""Floats lo <= :math:`\delta(\varepsilon;\mu)` <= hi for the exact float mu (Arb, module docstring):
    :math:`\delta = \tfrac12\mathrm{erfc}((x - y)/\sqrt2) - \tfrac12 e^\varepsilon\mathrm{erfc}((x + y)/\sqrt2)`,
    :math:`x = \varepsilon/\mu`, :math:`y = \mu/2`. The precision doubles while the ball is wider than
    ANALYTIC_ARB_RTOL of its value (up to 64 times the start; a wider ball is still a valid enclosure)."""
    from flint import arb, ctx
    saved, prec = ctx.prec, ANALYTIC_ARB_PREC
    try:
        while True:
            ctx.prec = prec
            e, m = arb(epsilon), arb(mu)
            x, y, r2 = e / m, m / 2, arb(2).sqrt()
            d = ((x - y) / r2).erfc() / 2 - e.exp() * ((x + y) / r2).erfc() / 2
            lo, hi = ball_to_floats(d)
            if hi - lo <= ANALYTIC_ARB_RTOL * abs(lo) or hi < 1e-300 or prec >= 64 * ANALYTIC_ARB_PREC:
                return max(lo, 0.0), min(hi, 1.0)
            prec *= 2
    finally:
        ctx.prec = saved


def epsilon_analytic(mu, delta: float, adjacency: str) -> EpsilonBounds:
    """Certified epsilon bracket at ``delta``; ``mu`` a float or floats (lo, hi) enclosing it."""
    delta = check_delta(delta)
    mu_lo, mu_hi = _as_bounds(mu)
    eps = epsilon_gdp(delta, 0.5 * (mu_lo + mu_hi))
    # lower end: delta(eps_lo; mu_lo) > delta proven, or eps_lo = 0 (epsilon is never negative here)
    lo, rel = eps, 1e-12
    while lo > 0.0 and not delta_bounds(lo, mu_lo)[0] > delta:
        rel *= 4
        lo = eps * (1 - rel) if rel < 1.0 else 0.0
    # upper end: delta(eps_hi; mu_hi) <= delta proven (eps = 0 may be above the root of the float profile)
    hi, rel = eps, 1e-12
    while not delta_bounds(hi, mu_hi)[1] <= delta:
        rel *= 4
        hi = max(eps, mu_hi * 1e-3) * (1 + rel)
    return EpsilonBounds(lo, hi, delta, "analytic-gaussian", adjacency, True,
                         {"mu": 0.5 * (mu_lo + mu_hi), "note": "closed form (analytic Gaussian mechanism)"})


def delta_analytic(mu, epsilon: float, adjacency: str) -> DeltaBounds:
    """Certified delta bracket at ``epsilon``; ``mu`` a float or floats (lo, hi) enclosing it."""
    epsilon = check_epsilon(epsilon)
    mu_lo, mu_hi = _as_bounds(mu)
    return DeltaBounds(delta_bounds(epsilon, mu_lo)[0], delta_bounds(epsilon, mu_hi)[1], epsilon,
                       "analytic-gaussian", adjacency, True,
                       {"mu": 0.5 * (mu_lo + mu_hi), "note": "closed form"})
