r"""Pairs of mixtures of one location family (Gaussian or Laplace) on the real line, for the PLD grids.

A :class:`LocationMixturePair` is :math:`P = \sum_i w_i F(\cdot - m_i)`, :math:`Q = \sum_j v_j F(\cdot - n_j)`
with :math:`F` the normal law :math:`N(0, s^2)` or the Laplace law of scale s. It offers the interface
of numerics.pld_pairs.MixturePair that numerics.pld's discretisations use (``z_range``, ``loss``,
``z_of_loss``, ``loss_range``, ``interval_log_masses``, ``edge_log_masses_pq``), for any number of
components. Hypothesis, checked by the callers that build pairs (numerics.dominating): the privacy
loss :math:`\ell(z) = \log P(z)/Q(z)` is non-decreasing in z. For a Gaussian mixture against one
Gaussian with all :math:`m_i \ge n_1` it is (log-sum-exp of non-decreasing affine functions); for Laplace
it is flat outside the means (atoms of the privacy loss distribution), which the discretisations
handle because they use interval masses only.

``z_of_loss`` inverts the monotone loss by bisection (60 halvings of a bracket that is first doubled
until it holds the target): exact to double precision, vectorised.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Optional, Tuple

import numpy as np
from scipy.special import logsumexp, ndtri

from .pld_pairs import _log_gauss_between_edges

FAMILIES = ("gaussian", "laplace")
_BISECTIONS = 60


def _log_laplace_between_edges(x):
    """log(F(x_{i+1}) - F(x_i)) for the standard Laplace law and sorted edges x (tails accurate)."""
    x = np.asarray(x, dtype=float)
    lo, hi = x[:-1], x[1:]
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        gap = np.log(-np.expm1(np.minimum(lo - hi, 0.0)))
        left = np.log(0.5) + hi + gap          # both edges <= 0: F = e^x / 2
        right = np.log(0.5) - lo + gap         # both edges >= 0: 1 - F = e^{-x} / 2
        mid = np.log1p(-0.5 * np.exp(np.minimum(lo, 0.0)) - 0.5 * np.exp(-np.maximum(hi, 0.0)))
        out = np.where(hi <= 0, left, np.where(lo >= 0, right, mid))
    return np.where(hi <= lo, -np.inf, out)


@dataclass(frozen=True)
class LocationMixturePair:
    """P and Q as mixtures of one location family with scale ``scale``; loss non-decreasing in z."""

    family: str
    scale: float
    p_components: Tuple[Tuple[float, float], ...]
    q_components: Tuple[Tuple[float, float], ...]
    #: the exact component weights (P's, then Q's, as fractions.Fraction, one per component), where the float
    #: weights above are roundings of them (1 - q, binomial probabilities); None: the floats are exact.
    #: The float weights only steer the grids; every bound uses these (numerics.location_onestep).
    exact_weights: Optional[Tuple[Tuple[Fraction, ...], Tuple[Fraction, ...]]] = None

    def __post_init__(self):
        if self.family not in FAMILIES:
            raise ValueError(f"family must be one of {FAMILIES}, got {self.family!r}")
        if self.exact_weights is not None and tuple(map(len, self.exact_weights)) != (
                len(self.p_components), len(self.q_components)):
            raise ValueError("exact_weights needs one weight per component of P and of Q")

    # --- densities and loss ---------------------------------------------------------------------
    def _log_kernel(self, z, m):
        if self.family == "gaussian":
            return -((z - m) ** 2) / (2.0 * self.scale ** 2)
        return -np.abs(z - m) / self.scale

    def _log_density(self, z, components):
        terms = [np.log(w) + self._log_kernel(z, m) for w, m in components if w > 0]
        return logsumexp(np.stack(terms), axis=0) if len(terms) > 1 else terms[0]

    def loss(self, z):
        z = np.asarray(z, dtype=float)
        return self._log_density(z, self.p_components) - self._log_density(z, self.q_components)

    @property
    def _means(self):
        return [m for w, m in self.p_components + self.q_components if w > 0]

    def z_range(self, tail: float) -> tuple[float, float]:
        """Outside this interval each of P and Q has at most ``tail`` mass on each side."""
        if self.family == "gaussian":
            reach = -self.scale * float(ndtri(tail))
        else:
            reach = self.scale * float(np.log(0.5 / tail))
        return min(self._means) - reach, max(self._means) + reach

    def loss_range(self) -> tuple[float, float]:
        """Infimum and supremum of the loss over the real line."""
        if self.family == "laplace":  # flat beyond the extreme means
            return float(self.loss(min(self._means))), float(self.loss(max(self._means)))
        out = []
        for pick, sign in ((min, -1.0), (max, 1.0)):
            mp = pick(m for w, m in self.p_components if w > 0)
            mq = pick(m for w, m in self.q_components if w > 0)
            if mp == mq:  # the extreme components share a mean: the loss tends to the log weight ratio
                wp = sum(w for w, m in self.p_components if m == mp)
                wq = sum(w for w, m in self.q_components if m == mq)
                out.append(float(np.log(wp / wq)))
            else:  # the component further out dominates: P's (loss -> +inf) or Q's (loss -> -inf)
                out.append(np.inf if sign * (mp - mq) > 0 else -np.inf)
        return out[0], out[1]

    def z_of_loss(self, ell):
        """The z with loss(z) = ell (NaN outside the open range of the loss), by bisection."""
        ell = np.asarray(ell, dtype=float)
        inf, sup = self.loss_range()
        inside = (ell > inf) & (ell < sup)
        target = np.where(inside, ell, 0.5 * (max(inf, -1.0) + min(sup, 1.0)))
        lo_m, hi_m = min(self._means), max(self._means)
        width = max(hi_m - lo_m, self.scale)
        lo = np.full(ell.shape, lo_m - width)
        hi = np.full(ell.shape, hi_m + width)
        if self.family == "laplace":  # the loss is strictly monotone only between the means
            lo, hi = np.full(ell.shape, lo_m), np.full(ell.shape, hi_m)
        else:
            for _ in range(200):
                low_bad = (self.loss(lo) > target) & inside
                high_bad = (self.loss(hi) < target) & inside
                if not (low_bad.any() or high_bad.any()):
                    break
                span = hi - lo
                lo = np.where(low_bad, lo - span, lo)
                hi = np.where(high_bad, hi + span, hi)
        for _ in range(_BISECTIONS):
            mid = 0.5 * (lo + hi)
            up = self.loss(mid) < target
            lo = np.where(up, mid, lo)
            hi = np.where(up, hi, mid)
        return np.where(inside, 0.5 * (lo + hi), np.nan)

    # --- interval masses ------------------------------------------------------------------------
    def _log_between(self, x):
        return _log_gauss_between_edges(x) if self.family == "gaussian" else _log_laplace_between_edges(x)

    def edge_log_masses_pq(self, z):
        """(log P, log Q) of the consecutive intervals (z_i, z_{i+1}] of sorted edges z."""
        z = np.asarray(z, dtype=float)
        per_mean = {m: self._log_between((z - m) / self.scale) for m in set(self._means)}

        def mix(components):
            terms = [np.log(w) + per_mean[m] for w, m in components if w > 0]
            return logsumexp(np.stack(terms), axis=0) if len(terms) > 1 else terms[0]
        return mix(self.p_components), mix(self.q_components)

    def interval_log_masses_pq(self, z_lo, z_hi):
        lp, lq = self.edge_log_masses_pq(np.array([z_lo, z_hi], dtype=float))
        return float(lp[0]), float(lq[0])

    def interval_log_masses(self, z_lo, z_hi, which: str):
        return self.interval_log_masses_pq(z_lo, z_hi)[0 if which == "P" else 1]


