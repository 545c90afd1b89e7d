r"""Cancellation-free ball-arithmetic (Arb) enclosures of the accountants' quantities.

Naive enclosures of :math:`A_\alpha` blow up: in the binomial sum the :math:`k=0,1` terms cancel the
leading order in :math:`q`, so a ball in :math:`q` gives an enclosure wider than the value itself. We
use forms whose terms are all positive and carry their true order (issue 12):

.. math::

    A_\alpha - 1 = q^2 S_\alpha(q,\sigma),\qquad
    S_\alpha = \sum_{k=2}^{\alpha}\binom{\alpha}{k}(1-q)^{\alpha-k}q^{k-2}\,\mathrm{expm1}\Big(\frac{k(k-1)}{2\sigma^2}\Big),

which follows from :math:`\sum_k\binom\alpha k(1-q)^{\alpha-k}q^k = 1` (the :math:`k=0,1` terms of
:math:`A_\alpha - 1` vanish), for integer :math:`\alpha \ge 2`, with :math:`A_\alpha` as in
:func:`numerics.rdp.log_a` (Mironov et al. 2019, add/remove, sensitivity 1). Then
:math:`\ln A_\alpha = q^2 S_\alpha\,L(q^2S_\alpha)` with :math:`L(y) = \ln(1+y)/y`, which is decreasing
on :math:`y \ge 0` (:math:`L' = (y/(1+y) - \ln(1+y))/y^2 < 0`), so its enclosure over a ball comes from
its values at the ball's ends: monotonicity proven, not assumed.

All functions take ``flint.arb`` balls (or numbers) and return balls that contain the exact value for
every point of the inputs.
"""
from __future__ import annotations

import math


def _arb(x):
    from flint import arb

    return x if isinstance(x, arb) else arb(x)


def a_excess_over_q2(q, sigma, alpha: int):
    r""":math:`S_\alpha = (A_\alpha - 1)/q^2`, a sum of non-negative terms; valid for balls with ``q`` in [0, 1]."""
    from flint import arb

    if int(alpha) != alpha or alpha < 2:
        raise ValueError(f"alpha must be an integer >= 2, got {alpha!r}")
    q, sigma = _arb(q), _arb(sigma)
    one_minus_q = 1 - q
    two_s2 = 2 * sigma * sigma
    total = arb(0)
    # term_k = C(alpha,k) (1-q)^(alpha-k) q^(k-2) expm1(k(k-1)/(2 sigma^2)); powers built by recurrence
    q_pow = arb(1)
    for k in range(2, alpha + 1):
        total += math.comb(alpha, k) * one_minus_q ** (alpha - k) * q_pow * (arb(k * (k - 1)) / two_s2).expm1()
        q_pow *= q
    return total


def log1p_over_x(y):
    r""":math:`L(y)=\ln(1+y)/y` (with :math:`L(0)=1`) over a ball of non-negative ``y``, by monotonicity."""
    from flint import arb

    y = _arb(y)
    lo, hi = y.lower(), y.upper()
    if lo < 0:
        lo = arb(0)

    def at(v):
        return arb(1) if v == 0 else (v.log1p() / v)

    upper, lower = at(lo), at(hi)  # decreasing: largest value at the lower end
    return lower.union(upper)


def log_a_over_q2(q, sigma, alpha: int):
    r""":math:`\ln A_\alpha / q^2 = S_\alpha\,L(q^2 S_\alpha)`: positive terms only, finite at :math:`q=0`."""
    q = _arb(q)
    s = a_excess_over_q2(q, sigma, alpha)
    return s * log1p_over_x(q * q * s)


def log_a(q, sigma, alpha: int):
    r""":math:`\ln A_\alpha` (integer order) as a ball."""
    q = _arb(q)
    return q * q * log_a_over_q2(q, sigma, alpha)
