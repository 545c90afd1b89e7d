r"""The PAPER'S OWN accountant: the Wang-Balle-Kasiviswanathan (WBK 2019, AISTATS, Theorem 9 and Corollary 10)
RDP upper bound for a Gaussian mechanism on a uniformly drawn fixed-size subsample (sampling without replacement,
replace-one), which the paper evaluates through autodp (L302) and on which Lemma 2's proof rests (L603-L642).

It is kept to reproduce what the paper did (its printed epsilons, Lemma 2, Fig. S9 and Section S4's "the
accountant"). It is NOT this suite's certificate of the fixed-size mechanism: the certified two-sided epsilon is
``numerics.epsilon`` (:mod:`theory.dp_fed_ls.certified`).

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
import numpy as np

from numerics.errors import InvalidParameter, check_q, check_sigma
from numerics.precision import MP_DPS


#: the two WBK variants: Theorem 9 as the paper quotes it (L607-609), and the Gaussian-specific refinement
#: (WBK 2019 arXiv v4 Theorem 27 / Proposition on forward differences) that autodp and dp_accounting implement.
VARIANTS = ("theorem-9", "theorem-27")


def _forward_difference(j: int, nu) -> mpmath.mpf:
    r""":math:`\Delta^j f(0)` for :math:`f(x) = e^{x(x+1)/(2\nu^2)}` (extra precision absorbs the cancellation)."""
    with mpmath.workdps(MP_DPS + 2 * j):
        return mpmath.fsum((-1) ** (j - k) * mpmath.binomial(j, k) * mpmath.exp(k * (k - 1) / (2 * nu ** 2))
                           for k in range(j + 1))


def log_moment_int(tau: float, nu: float, alpha: int, *, variant: str = "theorem-9") -> mpmath.mpf:
    r""":math:`(\alpha-1)\rho'(\alpha)` of WBK at integer ``alpha`` >= 2 (mpmath, ``MP_DPS`` digits).

    ``theorem-27`` replaces each j >= 3 term's :math:`2e^{(j-1)\rho(j)}` by the smaller of it and
    :math:`4\sqrt{\Delta^{2\lfloor j/2\rfloor}\Delta^{2\lceil j/2\rceil}}` (forward differences of
    :math:`e^{(x-1)\rho(x)}`), the bound the paper's accountant (autodp) evaluates."""
    if int(alpha) != alpha or alpha < 2:
        raise InvalidParameter(f"alpha must be an integer >= 2, got {alpha!r}")
    if variant not in VARIANTS:
        raise InvalidParameter(f"variant must be one of {VARIANTS}, got {variant!r}")
    tau, nu = mpmath.mpf(check_q(tau)), mpmath.mpf(check_sigma(nu))
    with mpmath.workdps(MP_DPS):
        r2 = 1 / nu ** 2                                    # rho(2) = 2/(2 nu^2)
        total = 1 + tau ** 2 * mpmath.binomial(alpha, 2) * min(4 * mpmath.expm1(r2), 2 * mpmath.exp(r2))
        for j in range(3, int(alpha) + 1):
            term = 2 * mpmath.exp((j - 1) * j / (2 * nu ** 2))
            if variant == "theorem-27":
                lo, hi = _forward_difference(2 * (j // 2), nu), _forward_difference(2 * ((j + 1) // 2), nu)
                term = min(term, 4 * mpmath.sqrt(lo * hi))
            total += tau ** j * mpmath.binomial(alpha, j) * term
        return mpmath.log(total)


def rdp_upper(tau: float, nu: float, alpha: float, *, variant: str = "theorem-9") -> float:
    r"""WBK's RDP upper bound :math:`\rho'(\alpha)` at any real ``alpha`` > 1 (Corollary 10 between integers)."""
    if not alpha > 1:
        raise InvalidParameter(f"alpha must be > 1, got {alpha!r}")
    lo, hi = math.floor(alpha), math.ceil(alpha)
    if lo == hi:
        return float(log_moment_int(tau, nu, lo, variant=variant) / (alpha - 1))
    t = alpha - lo
    low = log_moment_int(tau, nu, lo, variant=variant) if lo >= 2 else mpmath.mpf(0)
    return float(((1 - t) * low + t * log_moment_int(tau, nu, hi, variant=variant)) / (alpha - 1))


def epsilon_upper(tau: float, nu: float, steps: int, delta: float, orders=None, *, variant: str = "theorem-9") -> tuple:
    r"""(epsilon, order): the RDP-to-DP conversion of Lemma 1 (L166), ``steps``-fold composition, minimised
    over ``orders`` (default: integers 2..64 and a fractional grid of step 1/20 in (1, 12))."""
    orders = orders if orders is not None else sorted({1 + k / 20 for k in range(1, 220)} | set(range(2, 65)))
    best = (math.inf, None)
    for a in orders:
        e = steps * rdp_upper(tau, nu, a, variant=variant) + math.log(1 / delta) / (a - 1)
        best = min(best, (e, a))
    return best


def log_moment_int_fast(tau: float, nu: float, alpha: int) -> float:
    r"""Float64 version of :func:`log_moment_int` (log-sum-exp over the terms) for calibration sweeps;
    agrees with the mpmath version to ~1e-12 relative (tested)."""
    from scipy.special import gammaln, logsumexp

    r2 = 1.0 / nu ** 2
    first = math.log(tau ** 2 * alpha * (alpha - 1) / 2) + min(math.log(4) + math.log(math.expm1(r2)), math.log(2) + r2)
    js = np.arange(3, alpha + 1)
    terms = [0.0, first]
    if js.size:
        log_binom = gammaln(alpha + 1) - gammaln(js + 1) - gammaln(alpha - js + 1)
        terms += list(js * math.log(tau) + log_binom + math.log(2) + (js - 1) * js / (2 * nu ** 2))
    return float(logsumexp(terms))


def epsilon_upper_fast(tau: float, nu: float, steps: int, delta: float, max_order: int = 64) -> tuple:
    r"""(epsilon, order) minimised over the integer orders 2..``max_order`` (Corollary 10 adds nothing below
    2: its value on (1, 2) is the order-2 RDP, which the conversion penalises more)."""
    return min((steps * log_moment_int_fast(tau, nu, a) / (a - 1) + math.log(1 / delta) / (a - 1), a)
               for a in range(2, max_order + 1))


def calibrate_nu1(eps, delta, tau, rounds, *, sens_factor: float = 2.0, lo=0.3, hi=200.0, iters=40) -> float:
    """Smallest noise per unit clip whose WBK epsilon (Theorem 9, integer orders 2..32) is <= eps, by bisection;
    the noise multiplier is nu1/sens_factor (replace-one moves a clipped sum by 2 clips)."""
    for _ in range(iters):
        mid = math.sqrt(lo * hi)
        ok = epsilon_upper_fast(tau, mid / sens_factor, rounds, delta, max_order=32)[0] <= eps
        lo, hi = (lo, mid) if ok else (mid, hi)
    return hi
