r"""The Wang-Balle-Kasiviswanathan (WBK 2019, AISTATS, Theorem 9 and Corollary 10) RDP upper bound for a
Gaussian mechanism on a uniformly drawn fixed-size subsample (sampling without replacement, replace-one).

For integer :math:`\alpha \ge 2`, ratio :math:`\tau = m/n`, base RDP :math:`\rho(j) = j/(2\nu^2)` (noise
multiplier :math:`\nu` relative to the replace-one sensitivity), as quoted by the paper at L607-609:

.. math:: (\alpha-1)\rho'(\alpha) \le \log\Big(1 + \tau^2\binom{\alpha}{2}\min\{4(e^{\rho(2)}-1), 2e^{\rho(2)}\}
          + \sum_{j=3}^{\alpha}\tau^j\binom{\alpha}{j}\,2e^{(j-1)\rho(j)}\Big).

Fractional orders use Corollary 10's linear interpolation of :math:`(\alpha-1)\rho'(\alpha)` between
:math:`\lfloor\alpha\rfloor` and :math:`\lceil\alpha\rceil` (at :math:`\alpha = 1` the product is 0). This
is a proven upper bound (sound, possibly loose); the exact RDP of the fixed-size subsampled Gaussian is
unknown, and a valid LOWER bound is the Poisson-subsampled Gaussian's exact RDP (the realizable pair where
the replaced record contributes 1 on one side and 0 on the other: :mod:`numerics.rdp`).
"""
from __future__ import annotations

import math

import mpmath

from numerics.errors import InvalidParameter, check_q, check_sigma
from numerics.precision import MP_DPS


def log_moment_int(tau: float, nu: float, alpha: int) -> mpmath.mpf:
    r""":math:`(\alpha-1)\rho'(\alpha)` of WBK Theorem 9 at integer ``alpha`` >= 2 (mpmath, ``MP_DPS`` digits)."""
    if int(alpha) != alpha or alpha < 2:
        raise InvalidParameter(f"alpha must be an integer >= 2, got {alpha!r}")
    tau, nu = mpmath.mpf(check_q(tau)), mpmath.mpf(check_sigma(nu))
    with mpmath.workdps(MP_DPS):
        r2 = 1 / nu ** 2                                    # rho(2) = 2/(2 nu^2)
        total = 1 + tau ** 2 * mpmath.binomial(alpha, 2) * min(4 * mpmath.expm1(r2), 2 * mpmath.exp(r2))
        for j in range(3, int(alpha) + 1):
            total += tau ** j * mpmath.binomial(alpha, j) * 2 * mpmath.exp((j - 1) * j / (2 * nu ** 2))
        return mpmath.log(total)


def rdp_upper(tau: float, nu: float, alpha: float) -> float:
    r"""WBK's RDP upper bound :math:`\rho'(\alpha)` at any real ``alpha`` > 1 (Corollary 10 between integers)."""
    if not alpha > 1:
        raise InvalidParameter(f"alpha must be > 1, got {alpha!r}")
    lo, hi = math.floor(alpha), math.ceil(alpha)
    if lo == hi:
        return float(log_moment_int(tau, nu, lo) / (alpha - 1))
    t = alpha - lo
    low = log_moment_int(tau, nu, lo) if lo >= 2 else mpmath.mpf(0)
    return float(((1 - t) * low + t * log_moment_int(tau, nu, hi)) / (alpha - 1))


def epsilon_upper(tau: float, nu: float, steps: int, delta: float, orders=None) -> tuple:
    r"""(epsilon, order): the RDP-to-DP conversion of Lemma 1 (L166), ``steps``-fold composition, minimised
    over ``orders`` (default: integers 2..64 and a fractional grid of step 1/20 in (1, 12))."""
    orders = orders if orders is not None else sorted({1 + k / 20 for k in range(1, 220)} | set(range(2, 65)))
    best = (math.inf, None)
    for a in orders:
        e = steps * rdp_upper(tau, nu, a) + math.log(1 / delta) / (a - 1)
        best = min(best, (e, a))
    return best
