r"""Gaussian differential privacy (GDP, f-DP): the trade-off function, its (epsilon, delta) profile and
the central-limit (CLT) mu of the subsampled Gaussian mechanism.

References: Dong, Roth, Su 2022, "Gaussian Differential Privacy", JRSS-B (arXiv:1905.02383; "DRS");
Bu, Dong, Long, Su 2020, "Deep Learning with Gaussian Differential Privacy", HDSR (arXiv:1911.11607).
Seed 002 quotes the formulas it uses at 002_13c470b90c68bab6.txt L1162 (G_mu), L1166 (eq. 64, delta(eps))
and L1204 (eq. 65, the CLT mu for sampling without replacement).

The CLT mu is a limit (T -> infinity, q sqrt(T) fixed), not a bound: ``epsilon_gdp_clt`` returns an
*estimate* (``certified=False``), which can fall below the certified lower bound of the exact accountant
(a CLT under-report; numerics.pld gives the certified interval to compare with).
"""
from __future__ import annotations

import math

import mpmath
import numpy as np
from scipy import optimize, special

from .errors import InvalidParameter, check_delta, check_epsilon, check_q, check_sigma, check_steps
from .precision import MP_DPS
from .results import DeltaBounds, EpsilonBounds
from .schedule import Schedule, require_poisson_gaussian


def _check_mu(mu) -> float:
    return check_sigma(mu, "mu")  # same range: a finite number > 0


def delta_gdp(epsilon: float, mu: float) -> float:
    r""":math:`\delta(\varepsilon;\mu) = \Phi(-\varepsilon/\mu+\mu/2) - e^\varepsilon\Phi(-\varepsilon/\mu-\mu/2)`
    (DRS Cor. 2.13; seed 002 L1166, eq. 64): the smallest delta with which mu-GDP implies
    (epsilon, delta)-DP, exact for the Gaussian mechanism with sensitivity/sigma = mu.

    With :math:`x = \varepsilon/\mu`, :math:`y = \mu/2` and :math:`2xy = \varepsilon`, the identity
    :math:`\Phi(-t) = \tfrac12\,\mathrm{erfcx}(t/\sqrt2)\,e^{-t^2/2}` turns the second term into
    :math:`\Phi(y-x)\,r` with :math:`r = \mathrm{erfcx}((x+y)/\sqrt2)/\mathrm{erfcx}((x-y)/\sqrt2)`, so for
    :math:`x > y` we evaluate :math:`\Phi(y-x)(1-r)`: no overflow of :math:`e^\varepsilon`, no difference
    of two tiny numbers. For :math:`x \le y` both terms are O(1) and the direct form (in log space) is used.
    """
    return math.exp(log_delta_gdp(epsilon, mu))


def log_delta_gdp(epsilon: float, mu: float) -> float:
    """``log delta_gdp(epsilon, mu)``, finite far into the tail where delta itself underflows (the
    first factor as ``log_ndtr``, the bracket as ``log1p``); -inf only where delta is exactly 0."""
    epsilon, mu = check_epsilon(epsilon), _check_mu(mu)
    x, y = epsilon / mu, mu / 2
    if x > y:
        ratio = special.erfcx((x + y) / math.sqrt(2)) / special.erfcx((x - y) / math.sqrt(2))
        return float(special.log_ndtr(y - x)) + (math.log1p(-ratio) if ratio < 1 else -math.inf)
    log_first = special.log_ndtr(y - x)
    log_second = epsilon + special.log_ndtr(-x - y)
    gap = log_second - log_first
    return float(log_first) + (math.log(-math.expm1(gap)) if gap < 0 else -math.inf)


def epsilon_gdp(delta: float, mu: float) -> float:
    r"""The smallest :math:`\varepsilon \ge 0` with :math:`\delta(\varepsilon;\mu) \le \delta` (inverse of
    ``delta_gdp``; brentq on :math:`\log\delta(\varepsilon)`, then nudged up to the private side)."""
    delta, mu = check_delta(delta), _check_mu(mu)
    if delta_gdp(0.0, mu) <= delta:
        return 0.0
    log_delta = math.log(delta)

    def gap(eps):
        return log_delta_gdp(eps, mu) - log_delta

    hi = mu * mu / 2 + mu  # delta(eps) decreases; double until it is below the target
    while gap(hi) > 0:
        hi *= 2
    eps = optimize.brentq(gap, 0.0, hi, xtol=1e-15, rtol=4 * np.finfo(float).eps)
    while delta_gdp(eps, mu) > delta:  # brentq may stop on the non-private side by a few ulps
        eps = math.nextafter(eps, math.inf)
    return eps


def tradeoff_gdp(alpha, mu: float):
    r""":math:`G_\mu(\alpha) = \Phi(\Phi^{-1}(1-\alpha) - \mu)` (DRS Def. 2.7; seed 002 L1162), the type II
    error of the best test at type I error alpha, written as :math:`\Phi(-\Phi^{-1}(\alpha) - \mu)` so that
    small alpha loses no digits to 1 - alpha. ``alpha`` may be an array in [0, 1]."""
    mu = _check_mu(mu)
    a = np.asarray(alpha, dtype=float)
    if np.any(np.isnan(a)) or np.any((a < 0) | (a > 1)):
        raise InvalidParameter(f"alpha must lie in [0, 1], got {alpha!r}")
    out = special.ndtr(-special.ndtri(a) - mu)
    return float(out) if out.ndim == 0 else out


def mu_clt_poisson(q: float, sigma: float, steps: int) -> float:
    r"""CLT mu of T steps of the Poisson-subsampled Gaussian (add/remove):
    :math:`\mu = q\sqrt{T(e^{1/\sigma^2}-1)}` (Bu, Dong, Long, Su 2020, Thm. 5 / DRS Sec. 5)."""
    q, sigma, steps = check_q(q), check_sigma(sigma), check_steps(steps)
    return q * math.sqrt(steps * math.expm1(sigma ** -2))


def mu_clt_uniform(q: float, sigma: float, steps: int) -> float:
    r"""CLT mu of T steps of the Gaussian with sampling *without replacement* of a fixed fraction q
    (DRS Cor. 5.4, replace-one neighbours): if :math:`q\sqrt T \to \nu` then the mechanism tends to
    :math:`\mu`-GDP with

    .. math:: \mu = \sqrt2\,\nu\,\sqrt{e^{\sigma^{-2}}\Phi(1.5\,\sigma^{-1}) + 3\Phi(-0.5\,\sigma^{-1}) - 2},

    evaluated here at :math:`\nu = q\sqrt T` in mpmath (the bracket is :math:`\approx \sigma^{-2}/2` for large
    sigma: a difference of O(1) terms). Seed 002 prints the same form (002_13c470b90c68bab6.txt L1204,
    eq. 65, with :math:`c = s\sqrt T/N`); its footnote 18 (L1214) notes that DRS normalise the noise by the
    replace-one sensitivity 2C while the seed uses C, and argues the bound still applies at equal sigma.
    """
    q, sigma, steps = check_q(q), check_sigma(sigma), check_steps(steps)
    with mpmath.workdps(MP_DPS):
        s = 1 / mpmath.mpf(sigma)
        bracket = mpmath.exp(s ** 2) * mpmath.ncdf(1.5 * s) + 3 * mpmath.ncdf(-s / 2) - 2
        return float(mpmath.sqrt(2 * bracket) * q * mpmath.sqrt(steps))


def mu_clt_schedule(schedule: Schedule) -> float:
    r"""CLT mu of a heterogeneous schedule: :math:`\mu^2` adds over steps (GDP composition,
    :math:`G_{\mu_1}\otimes G_{\mu_2} = G_{\sqrt{\mu_1^2+\mu_2^2}}`, DRS Cor. 3.3).

    Replace-one: a substitution is a removal followed by an addition, and mu-GDP under add/remove gives
    2 mu-GDP for pairs at distance 2 (group privacy of GDP, DRS Sec. 2); we return 2 mu. For large sigma
    this is also the CLT of the substitution pair :math:`((1-q)N(0)+qN(-1), (1-q)N(0)+qN(1))`, whose
    chi-square divergence is :math:`\approx 4q^2/\sigma^2` per step.
    """
    if not isinstance(schedule, Schedule):
        raise InvalidParameter(f"schedule must be a numerics.schedule.Schedule, got {type(schedule).__name__}")
    require_poisson_gaussian(schedule, "the GDP central limit theorem")
    mu = math.sqrt(sum(mu_clt_poisson(p.q, p.sigma, p.steps) ** 2 for p in schedule.phases))
    return 2 * mu if schedule.adjacency == "replace-one" else mu


def epsilon_gdp_clt(schedule: Schedule, delta: float) -> EpsilonBounds:
    """CLT *estimate* of epsilon(delta): both fields are the estimate, ``certified=False``."""
    delta = check_delta(delta)
    mu = mu_clt_schedule(schedule)
    eps = epsilon_gdp(delta, mu)
    return EpsilonBounds(epsilon_lower=eps, epsilon_upper=eps, delta=delta, method="gdp-clt",
                         adjacency=schedule.adjacency, certified=False,
                         details={"mu": mu, "note": "central-limit estimate, not a bound"})


def delta_gdp_clt(schedule: Schedule, epsilon: float) -> DeltaBounds:
    """CLT *estimate* of delta(epsilon): both fields are the estimate, ``certified=False``."""
    epsilon = check_epsilon(epsilon)
    mu = mu_clt_schedule(schedule)
    delta = delta_gdp(epsilon, mu)
    return DeltaBounds(delta_lower=delta, delta_upper=delta, epsilon=epsilon, method="gdp-clt",
                       adjacency=schedule.adjacency, certified=False,
                       details={"mu": mu, "note": "central-limit estimate, not a bound"})
