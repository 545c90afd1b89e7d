r"""Dong, Roth and Su's f-DP and Gaussian DP as the seed papers use them.

* :math:`f_{\epsilon,\delta}(\alpha)=\max\{0,1-\delta-e^\epsilon\alpha,(1-\delta-\alpha)e^{-\epsilon}\}`, the
  trade-off function of :math:`(\epsilon,\delta)`-DP (their Proposition 2.5; ``002_13c470b90c68bab6.txt L1156``)
  -> :func:`tradeoff_eps_delta`;
* the CLT for *uniform* (fixed-size) subsampling, their Corollary 5.4 (002 prints it as (65), L1202-1204):
  :math:`\mu=c\,\tau^{-1}` with :math:`c=s\sqrt T/N` -> :func:`tau_inverse`, :func:`mu_clt_65`, and the
  :math:`\epsilon` at which that :math:`\mu`-GDP gives :math:`\delta` by (64) (L1166) -> :func:`epsilon_clt_65`.

* the :math:`\delta(\epsilon)` curve of :math:`\mu`-GDP, their Corollary 2.13 (002 prints it as (64), L1166) ->
  :func:`delta_64` (any arithmetic: mpmath by default, sympy for the symbolic form).

:math:`G_\mu` and the accountant's (64) conversion and its inverse live in :mod:`numerics.gdp`.
The CLT is an asymptotic statement (:math:`T, N\to\infty` with :math:`s\sqrt T/N\to c`): its epsilon is an
estimate, never a certificate; certified two-sided bounds come from ``numerics.pld``.
"""
from __future__ import annotations

import math

import mpmath
import mpmath as mp
import sympy as sp

from numerics.errors import InvalidParameter, _real, check_delta, check_q, check_sigma
from numerics.precision import MP_DPS


def tradeoff_eps_delta(alpha, epsilon, delta) -> float:
    r"""$f_{\epsilon,\delta}(\alpha)$ of Proposition 2.5 of Dong et al. as printed at L1156."""
    a = _real("alpha", alpha)
    if not 0.0 <= a <= 1.0:
        raise InvalidParameter(f"alpha must lie in [0, 1], got {alpha!r}")
    return max(0.0, 1.0 - delta - math.exp(epsilon) * a, (1.0 - delta - a) * math.exp(-epsilon))


def tau_inverse(sigma) -> float:
    r"""$\tau^{-1}=\sqrt2\sqrt{e^{\sigma^{-2}}\Phi(3\sigma^{-1}/2)+3\Phi(-\sigma^{-1}/2)-2}$ (65, L1204).

    Evaluated in mpmath: for large $\sigma$ the radicand is $\approx\sigma^{-2}$ after cancelling terms of size 1.
    """
    sigma = check_sigma(sigma)
    with mp.workdps(MP_DPS):
        s = mp.mpf(sigma)
        inner = mp.exp(1 / s**2) * mp.ncdf(3 / (2 * s)) + 3 * mp.ncdf(-1 / (2 * s)) - 2
        return float(mp.sqrt(2) * mp.sqrt(inner))


def mu_clt_65(*, q, steps, sigma) -> float:
    r"""$\mu=q\sqrt{T}\,\tau^{-1}$ of (65) with $q=s/N$, $c=s\sqrt T/N$ (L1202-1204).

    ``steps`` may be real (TF-Privacy's ``compute_mu_uniform`` uses $T=\text{epochs}\cdot N/s$ unrounded,
    which is how the paper's Tables 9-11 were computed, L1598).
    """
    q = check_q(q)
    t = _real("steps", steps)
    if not 0.0 < t < math.inf:
        raise InvalidParameter(f"steps must be a finite number > 0, got {steps!r}")
    return q * math.sqrt(t) * tau_inverse(sigma)


def epsilon_clt_65(*, q, steps, sigma, delta) -> float:
    r"""The $\epsilon$ at which $\mu$-GDP with $\mu$ from (65) gives $\delta$ by (64): an asymptotic estimate."""
    from numerics.gdp import epsilon_gdp  # the (64) inversion lives in numerics

    delta = check_delta(delta)
    return float(epsilon_gdp(delta, mu_clt_65(q=q, steps=steps, sigma=sigma)))


def normal_cdf_sym(z):
    """Standard normal CDF Phi (sympy)."""
    return (1 + sp.erf(z / sp.sqrt(2))) / 2


def delta_64(epsilon, mu, *, Phi=None, exp=None):
    r"""The :math:`\delta(\epsilon)` of :math:`\mu`-GDP, seed 002's (64) (L1166) as printed: :math:`\Phi(-\epsilon/\mu+\mu/2) - e^\epsilon\Phi(-\epsilon/\mu-\mu/2)`.

    ``Phi``/``exp`` select the arithmetic (default mpmath, so cancellation at large eps/mu costs
    nothing but digits); pass sympy's for the symbolic form.
    """
    Phi = Phi or (lambda z: mpmath.ncdf(z))
    exp = exp or mpmath.exp
    return Phi(-epsilon / mu + mu / 2) - exp(epsilon) * Phi(-epsilon / mu - mu / 2)
