r"""Appendix C of seed 002 (002_13c470b90c68bab6.txt L1136-1324): f-DP, mu-GDP and the CLT of (65).

Glossary
--------
* $f_{\epsilon,\delta}(\alpha)=\max\{0,1-\delta-e^\epsilon\alpha,(1-\delta-\alpha)e^{-\epsilon}\}$ (L1156) -> :func:`tradeoff_eps_delta`
* $G_\mu(\alpha)=\Phi(\Phi^{-1}(1-\alpha)-\mu)$ (L1162) and $\delta(\epsilon)$ of (64) (L1166): reused from
  ``numerics.gdp`` (the printed (64) is checked by claim ``002.appC.gdp-delta-formula``, elsewhere).
* $\tau^{-1}$ of (65) (L1204) -> :func:`tau_inverse`; $\mu=c\,\tau^{-1}$ with $c=s\sqrt T/N$ -> :func:`mu_clt_65`.
* The CLT epsilon the paper calls $\epsilon_{f\text{-}DP}$ (Tables 9-11, L1598) -> :func:`epsilon_clt_65`.

(65) is Dong, Roth and Su's Corollary 5.4 for *uniform* (fixed-size) subsampling, an asymptotic
statement ($T, N\to\infty$ with $s\sqrt T/N\to c$). Its epsilon is an estimate, never a certificate:
results carry ``certified=False`` and our certified two-sided bounds come from ``numerics.pld``.
"""
from __future__ import annotations

import math

import mpmath as mp

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
