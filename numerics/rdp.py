r"""Log-moments and Renyi DP of the Poisson-subsampled Gaussian mechanism (sensitivity 1).

Notation (Mironov, Talwar, Zhang 2019, "Renyi Differential Privacy of the Sampled Gaussian Mechanism",
arXiv:1908.10530, Sec. 3): :math:`\mu_0 = \mathcal N(0, \sigma^2)`,
:math:`\mu = (1-q)\mu_0 + q\,\mathcal N(1, \sigma^2)` and

.. math::  A_\alpha = \mathbb E_{z\sim\mu_0}\Big[\big(\mu(z)/\mu_0(z)\big)^\alpha\Big]
           = \mathbb E_{z\sim\mu_0}\Big[\big(1 - q + q\,e^{(2z-1)/(2\sigma^2)}\big)^\alpha\Big],

so that :math:`D_\alpha(\mu\,\|\,\mu_0) = \log A_\alpha / (\alpha - 1)`.

Adjacency
---------
*add-remove*: the sampled Gaussian's Renyi divergence in the other direction,
:math:`D_\alpha(\mu_0\,\|\,\mu)`, is never larger (MTZ 2019 Thm. 5, checked numerically by quadrature in
tests/test_rdp.py), so :math:`\log A_\alpha` is the worst of both directions.

*replace-one* (substitution): replace = remove then add. With :math:`P, Q, R` the outputs on
:math:`D`, :math:`D \setminus \{x\}` and :math:`D \setminus \{x\} \cup \{x'\}`, Hoelder's inequality with
exponents (2, 2) applied to :math:`\int P^\alpha R^{1-\alpha} = \int (P^\alpha Q^{1/2-\alpha})
(Q^{\alpha-1/2} R^{1-\alpha})` gives the weak triangle inequality (Mironov 2017, "Renyi Differential
Privacy", arXiv:1702.07476, Prop. 11 with p = q = 2):

.. math::  (\alpha-1)\,D_\alpha(P\|R) \le \tfrac12\log A_{2\alpha} + \tfrac12\log A_{2\alpha-1},

each step's bound holding for every pair of substitution neighbours, so the per-step bounds compose
additively. It is sound but loose (at most about twice the add/remove curve at doubled order), and it is
never below the add/remove value (``rdp_epsilon`` of a replace-one schedule >= add-remove; tested).
"""
from __future__ import annotations

import functools
import math
from typing import Iterable

import mpmath
import numpy as np

from .errors import InvalidParameter, check_order, check_q, check_sigma
from .precision import MP_DPS, RDP_GUARD_DPS
from .schedule import Schedule, require_poisson_gaussian

#: guard digits added to the caller's precision for the intermediate sums (numerics.precision).
_GUARD_DPS = RDP_GUARD_DPS


def log_a(q: float, sigma: float, order: float, *, dps: int | None = None) -> mpmath.mpf:
    r"""Mironov's :math:`\log A_\alpha(q, \sigma)` at order ``order`` = :math:`\alpha > 1`.

    Integer orders use the exact binomial expansion; fractional orders the two-series expansion of
    MTZ 2019 Sec. 3.3. The result is correct to about ``dps`` significant digits (default
    ``numerics.precision.MP_DPS``); ``q = 1`` returns the Gaussian's :math:`\alpha(\alpha-1)/(2\sigma^2)`.
    """
    q, sigma, order = check_q(q), check_sigma(sigma), check_order(order)
    dps = MP_DPS if dps is None else int(dps)
    if dps < 5:
        raise InvalidParameter(f"dps must be an integer >= 5, got {dps!r}")
    return _log_a_cached(q, sigma, order, dps)


@functools.lru_cache(maxsize=65536)
def _log_a_cached(q: float, sigma: float, order: float, dps: int) -> mpmath.mpf:
    with mpmath.workdps(dps + _GUARD_DPS):
        if q == 1.0:
            value = mpmath.mpf(order) * (mpmath.mpf(order) - 1) / (2 * mpmath.mpf(sigma) ** 2)
        elif float(order).is_integer():
            value = mpmath.log1p(_a_minus_one_int(mpmath.mpf(q), mpmath.mpf(sigma), int(order)))
        else:
            value = _log_a_frac(q, sigma, order, dps)
    with mpmath.workdps(dps):
        return +value


def _a_minus_one_int(q, sigma, order: int):
    r""":math:`A_\alpha - 1` for integer :math:`\alpha` as a sum of non-negative terms.

    :math:`A_\alpha = \sum_k \binom{\alpha}{k}(1-q)^{\alpha-k} q^k e^{k(k-1)/(2\sigma^2)}` (Mironov et al.
    2019 Sec. 3.3, integer case) and the binomial weights sum to 1, so
    :math:`A_\alpha - 1 = \sum_{k\ge2} \binom{\alpha}{k}(1-q)^{\alpha-k} q^k\,\mathrm{expm1}(k(k-1)/(2\sigma^2))`:
    every term is positive, hence no cancellation even when :math:`A_\alpha - 1` is tiny (sigma ~ 100).
    """
    ratio = q / (1 - q)
    weight = (1 - q) ** order  # binom(order, k) (1-q)^(order-k) q^k, updated multiplicatively
    total = mpmath.mpf(0)
    for k in range(order + 1):
        if k >= 2:
            total += weight * mpmath.expm1(mpmath.mpf(k * (k - 1)) / (2 * sigma ** 2))
        weight = weight * (order - k) / (k + 1) * ratio
    return total


def _log_a_frac(q: float, sigma: float, order: float, dps: int):
    r"""Fractional order: MTZ 2019 Sec. 3.3 two-series expansion, split at
    :math:`z_0 = \sigma^2\log(1/q - 1) + 1/2` where :math:`q e^{(2z-1)/(2\sigma^2)} = 1 - q`:

    .. math:: A_\alpha = \sum_{i\ge0}\binom{\alpha}{i}(1-q)^{\alpha-i}q^i e^{(i^2-i)/(2\sigma^2)}
              \Phi\big(\tfrac{z_0-i}{\sigma}\big)
              + \sum_{i\ge0}\binom{\alpha}{i}(1-q)^{i}q^{\alpha-i} e^{(j^2-j)/(2\sigma^2)}
              \Phi\big(\tfrac{j-z_0}{\sigma}\big),\quad j = \alpha - i.

    Beyond :math:`i > \alpha` the binomials alternate in sign and decay only polynomially
    (like :math:`i^{-\alpha-2}`), so the tails are summed with mpmath's series acceleration (nsum)
    rather than truncated. :math:`A - 1` is formed by subtraction, so the working precision grows with
    the number of digits cancelled (:math:`-\log_{10}(A-1)`).
    """
    extra = 0
    while True:
        wp = dps + _GUARD_DPS + extra
        with mpmath.workdps(wp):
            a_minus_one = _a_frac(mpmath.mpf(q), mpmath.mpf(sigma), mpmath.mpf(order)) - 1
            if a_minus_one <= 0:
                lost = wp  # everything cancelled: retry with more digits
            else:
                lost = max(0, -int(mpmath.floor(mpmath.log10(a_minus_one))))
            if lost + dps + _GUARD_DPS // 2 <= wp:
                return mpmath.log1p(a_minus_one)
        if extra > 2000:
            raise ArithmeticError(f"log_a: cancellation not resolved at q={q}, sigma={sigma}, order={order}")
        extra = lost + _GUARD_DPS


def _a_frac(q, sigma, alpha):
    z0 = sigma ** 2 * mpmath.log(1 / q - 1) + mpmath.mpf(1) / 2
    two_s2 = 2 * sigma ** 2
    sqrt2s = mpmath.sqrt(2) * sigma
    binomials = _BinomialSequence(alpha)

    def term(i):  # i-th terms of both series: z < z0 in powers of q e^{..}, z > z0 in powers of (1 - q)
        i = int(i)
        j = alpha - i
        below = ((1 - q) ** j * q ** i * mpmath.exp((i * i - i) / two_s2)
                 * mpmath.erfc((i - z0) / sqrt2s))
        above = ((1 - q) ** i * q ** j * mpmath.exp((j * j - j) / two_s2)
                 * mpmath.erfc((z0 - j) / sqrt2s))
        return binomials[i] * (below + above) / 2

    head_end = int(mpmath.floor(alpha)) + 1  # from here on the binomials alternate in sign
    head = mpmath.fsum(term(i) for i in range(head_end))
    # Shanks extrapolation of the alternating tail; strict=True raises instead of returning a
    # non-converged value. Working precision 2x + 30 bits (mpmath's default 4x is ~2x slower and
    # agrees to the last digit at every point of tests/test_rdp.py).
    tail = mpmath.nsum(term, [head_end, mpmath.inf], method="shanks", strict=True,
                       workprec=2 * mpmath.mp.prec + 30)
    return head + tail


class _BinomialSequence:
    r""":math:`\binom{\alpha}{i}` for i = 0, 1, ... by the recurrence
    :math:`\binom{\alpha}{i+1} = \binom{\alpha}{i}(\alpha-i)/(i+1)` (cheaper than gamma functions);
    values are computed at the precision in force when first requested."""

    def __init__(self, alpha):
        self.alpha = alpha
        self.values = [mpmath.mpf(1)]

    def __getitem__(self, i: int):
        while len(self.values) <= i:
            k = len(self.values) - 1
            self.values.append(self.values[-1] * (self.alpha - k) / (k + 1))
        return self.values[i]


def alpha_moment(q: float, sigma: float, lam: float, *, dps: int | None = None) -> mpmath.mpf:
    r"""Abadi et al. 2016 (arXiv:1607.00133) :math:`\lambda`-th log moment of the subsampled Gaussian.

    :math:`\alpha(\lambda) = \log \mathbb E[(\mu(z)/\mu_0(z))^{\lambda}]` under the mixture, i.e.
    :math:`\log \mathbb E_{\mu_0}[(\mu/\mu_0)^{\lambda+1}] = \log A_{\lambda+1}`: the index is shifted by
    one relative to the Renyi order (order = lam + 1). Abadi et al. take the max over both directions
    (add/remove); the direction computed here is the worse one (see module docstring). This is the
    :math:`\alpha(\lambda)` bounded by seed 002 Lemma B.3 and seed 000 Lemma D.1.
    """
    try:
        lam_f = float(lam)
    except (TypeError, ValueError):
        raise InvalidParameter(f"lam must be a real number > 0, got {lam!r}") from None
    if isinstance(lam, bool) or not (0.0 < lam_f < math.inf):
        raise InvalidParameter(f"lam must be a finite number > 0, got {lam!r}")
    return log_a(q, sigma, lam_f + 1.0, dps=dps)


def _round_up_float(x: mpmath.mpf, dps: int) -> float:
    """The smallest float >= x (1 + 10^(2 - dps)): x is known to about ``dps`` digits, so the float is
    an upper bound on the exact value, not only on x."""
    with mpmath.workdps(dps + _GUARD_DPS):
        x = x + abs(x) * mpmath.mpf(10) ** (2 - dps)
        f = float(x)
        if mpmath.mpf(f) < x:
            f = math.nextafter(f, math.inf)
    return f


def rdp_epsilon_order(schedule: Schedule, order: float, *, dps: int | None = None) -> mpmath.mpf:
    r"""Total RDP :math:`\varepsilon(\alpha) = \sum_i T_i \log A_\alpha(q_i, \sigma_i)/(\alpha-1)` (mpf).

    For a replace-one schedule each step's term is the weak-triangle bound of the module docstring.
    """
    order = check_order(order)
    require_poisson_gaussian(schedule, "numerics.rdp")
    with mpmath.workdps((MP_DPS if dps is None else int(dps)) + _GUARD_DPS):
        total = mpmath.mpf(0)
        for phase in schedule.phases:
            if schedule.adjacency == "replace-one":
                step = (log_a(phase.q, phase.sigma, 2 * order, dps=dps)
                        + log_a(phase.q, phase.sigma, 2 * order - 1, dps=dps)) / 2
            else:
                step = log_a(phase.q, phase.sigma, order, dps=dps)
            total += phase.steps * step
        return total / (mpmath.mpf(order) - 1)


def rdp_epsilon(schedule: Schedule, orders: Iterable[float], *, dps: int | None = None) -> np.ndarray:
    """RDP curve of ``schedule`` at each order, as floats rounded up (an RDP curve may be loose, never
    optimistic)."""
    if not isinstance(schedule, Schedule):
        raise InvalidParameter(f"schedule must be a numerics.schedule.Schedule, got {type(schedule).__name__}")
    orders = list(orders)
    if not orders:
        raise InvalidParameter("orders must contain at least one Renyi order > 1, got none")
    out = np.empty(len(orders))
    for n, order in enumerate(orders):
        out[n] = _round_up_float(rdp_epsilon_order(schedule, order, dps=dps), MP_DPS if dps is None else int(dps))
    return out
