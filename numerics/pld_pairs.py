r"""Dominating pairs of the Poisson-subsampled Gaussian, as pairs of Gaussian mixtures on the real line.

One step of the mechanism with sampling rate :math:`q` and noise multiplier :math:`\sigma` (sensitivity
1) is, for a fixed pair of neighbouring data sets, a pair :math:`(P, Q)` of output distributions; the
privacy loss is :math:`\ell(z) = \log P(z)/Q(z)` and the hockey-stick divergence at :math:`\varepsilon`
is :math:`\delta(\varepsilon) = E_P[(1 - e^{\varepsilon - \ell})_+]`. Every pair used here is oriented
so that :math:`\ell` is strictly increasing in :math:`z`, so the privacy loss distribution (PLD) is the
push-forward of a Gaussian mixture through a monotone map, and the mass of any loss interval is a
difference of normal CDFs (``scipy.special.ndtr``).

Pairs (Koskela, Jalko, Honkela 2020, Sec. 6; Zhu, Dong, Wang 2022, Sec. 5; one-dimensional by rotation
invariance of the isotropic Gaussian):

``remove``  :math:`P = (1-q)N(0,\sigma^2) + qN(1,\sigma^2)`, :math:`Q = N(0,\sigma^2)`
            (the record is in D, not in D').
``add``     :math:`P = N(0,\sigma^2)`, :math:`Q = (1-q)N(0,\sigma^2) + qN(-1,\sigma^2)`
            (the record is in D'; mirrored :math:`z \to -z` so that the loss increases in z).
``replace`` :math:`P = (1-q)N(0,\sigma^2) + qN(1,\sigma^2)`, :math:`Q = (1-q)N(0,\sigma^2) + qN(-1,\sigma^2)`:
            the pair realised by two data sets differing in one record whose clipped contributions are
            opposite unit vectors. It is an actual neighbouring pair under replace-one, so its epsilon is
            a true LOWER bound for replace-one; numerics.pld derives the replace-one UPPER bound from the
            add/remove pairs (see there), not from this pair.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import log_ndtr, ndtr, ndtri

DIRECTIONS = ("remove", "add", "replace")


@dataclass(frozen=True)
class MixturePair:
    """P and Q as mixtures sum_i w_i N(m_i, sigma^2) on the real line, loss increasing in z."""

    q: float
    sigma: float
    direction: str

    @property
    def p_components(self):
        q = self.q
        if self.direction == "add":
            return ((1.0, 0.0),)
        return ((1.0 - q, 0.0), (q, 1.0))

    @property
    def q_components(self):
        q = self.q
        if self.direction == "remove":
            return ((1.0, 0.0),)
        return ((1.0 - q, 0.0), (q, -1.0))

    def z_range(self, tail: float) -> tuple[float, float]:
        """Interval of z outside which both P and Q put at most ``tail`` mass on each side."""
        reach = -self.sigma * float(ndtri(tail))
        return -1.0 - reach, 1.0 + reach

    def loss(self, z):
        r"""The privacy loss :math:`\ell(z)`, in log space (no overflow for |z| up to 1e150)."""
        z = np.asarray(z, dtype=float)
        return self._log_density(z, self.p_components) - self._log_density(z, self.q_components)

    def _log_density(self, z, components):
        s2 = self.sigma ** 2
        terms = [np.log(w) - (z - m) ** 2 / (2 * s2) for w, m in components if w > 0]
        return np.logaddexp.reduce(terms, axis=0) if len(terms) > 1 else terms[0]

    def z_of_loss(self, ell):
        r"""Inverse of :math:`\ell`: the z with :math:`\ell(z) = ell` (NaN outside the range of the loss).

        remove: :math:`e^\ell = 1-q+q e^{(2z-1)/2\sigma^2}`; add: :math:`e^{-\ell} = 1-q+q e^{(-2z-1)/2\sigma^2}`;
        replace: a quadratic in :math:`w = e^{z/\sigma^2}`.
        """
        ell = np.asarray(ell, dtype=float)
        q, s2 = self.q, self.sigma ** 2
        with np.errstate(invalid="ignore", divide="ignore"):
            if self.direction == "remove":
                # log((e^l - (1-q))/q) computed without cancellation near l = log(1-q)
                return 0.5 + s2 * (np.log(-np.expm1(np.log1p(-q) - ell) if q < 1 else 1.0) + ell - np.log(q))
            if self.direction == "add":
                return -0.5 - s2 * (np.log(-np.expm1(np.log1p(-q) + ell) if q < 1 else 1.0) - ell - np.log(q))
            # replace: q c w^2 + (1-q)(1-e^l) w - e^l q c = 0 with c = exp(-1/(2 sigma^2))
            c = np.exp(-0.5 / s2)
            b = (1.0 - q) * (-np.expm1(ell))
            disc = np.sqrt(b * b + 4.0 * (q * c) ** 2 * np.exp(ell))
            # stable root: for b > 0 use 2*e^l q c / (b + disc)
            w = np.where(b > 0, 2.0 * np.exp(ell) * q * c / (b + disc), (disc - b) / (2.0 * q * c))
            return s2 * np.log(w)

    def loss_range(self) -> tuple[float, float]:
        """Infimum and supremum of the loss over the real line (may be infinite)."""
        q = self.q
        lo_remove = np.log1p(-q) if q < 1 else -np.inf
        if self.direction == "remove":
            return lo_remove, np.inf
        if self.direction == "add":
            return -np.inf, -lo_remove
        return (-np.inf, np.inf) if q == 1 else (-np.inf, np.inf)

    def interval_log_masses(self, z_lo, z_hi, which: str):
        """log P((z_lo, z_hi]) or log Q((z_lo, z_hi]), elementwise, accurate in both tails."""
        return self.interval_log_masses_pq(z_lo, z_hi)[0 if which == "P" else 1]

    def edge_log_masses_pq(self, z):
        """(log P, log Q) of the consecutive intervals (z_i, z_{i+1}] of sorted edges z."""
        z = np.asarray(z, dtype=float)
        per_mean = {m: _log_gauss_between_edges((z - m) / self.sigma)
                    for _, m in self.p_components + self.q_components}

        def mix(components):
            terms = [np.log(w) + per_mean[m] for w, m in components if w > 0]
            return np.logaddexp.reduce(terms, axis=0) if len(terms) > 1 else terms[0]
        return mix(self.p_components), mix(self.q_components)

    def interval_log_masses_pq(self, z_lo, z_hi):
        """(log P, log Q) of the intervals (z_lo, z_hi]; each Gaussian component is evaluated once."""
        per_mean = {m: _log_gauss_interval((z_lo - m) / self.sigma, (z_hi - m) / self.sigma)
                    for _, m in self.p_components + self.q_components}

        def mix(components):
            terms = [np.log(w) + per_mean[m] for w, m in components if w > 0]
            return np.logaddexp.reduce(terms, axis=0) if len(terms) > 1 else terms[0]
        return mix(self.p_components), mix(self.q_components)


def _log_gauss_between_edges(x):
    r"""log(Phi(x_{i+1}) - Phi(x_i)) for sorted edges x (one log_ndtr per edge, tails accurate).

    ``log_ndtr(-|x|)`` is log Phi(x) left of 0 and log(1 - Phi(x)) right of it; an interval on one side
    is a difference of two such values taken in log space, the one interval containing 0 directly.
    """
    x = np.asarray(x, dtype=float)
    v = log_ndtr(-np.abs(x))
    lo, hi = x[:-1], x[1:]
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        left = v[1:] + np.log(-np.expm1(v[:-1] - v[1:]))    # both edges <= 0
        right = v[:-1] + np.log(-np.expm1(v[1:] - v[:-1]))  # both edges > 0
        out = np.where(lo > 0, right, left)
        straddle = (lo <= 0) & (hi > 0)
        if np.any(straddle):
            out[straddle] = np.log(np.maximum(ndtr(hi[straddle]) - ndtr(lo[straddle]), 0.0))
    return np.where(hi <= lo, -np.inf, out)


def _log_gauss_interval(a, b):
    r"""log(Phi(b) - Phi(a)) for a <= b elementwise, using the tail on the side away from the mean."""
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    upper = a > 0  # both in the right half: use survival functions Phi(-a) - Phi(-b)
    hi = np.where(upper, -a, b)
    lo = np.where(upper, -b, a)
    log_hi = log_ndtr(hi)
    log_lo = log_ndtr(lo)
    with np.errstate(divide="ignore", invalid="ignore"):
        diff = log_hi + np.log(-np.expm1(log_lo - log_hi))
    # for intervals straddling 0 the plain difference is accurate (both CDF values are O(1))
    straddle = (a <= 0) & (b > 0)
    with np.errstate(divide="ignore"):
        plain = np.log(np.maximum(ndtr(b) - ndtr(a), 0.0)) if np.any(straddle) else diff
    out = np.where(straddle, plain, diff)
    return np.where(b <= a, -np.inf, out)
