r"""A lower-bound discretisation of a privacy loss distribution that is second-order accurate: merging.

numerics.pld's optimistic grid rounds every interval's loss down to the grid, a first-order loss per
interval. Where much mass sits just above a grid point (a subsampled pair's loss piles up just above
its infimum log(1 - q)) that costs about h/2 per step and forces a very fine grid at 10^4 steps.

Here the output line is cut at the grid losses :math:`a_k = kh` (interval k has exact masses
:math:`P_k, Q_k` and loss :math:`\ell_k = \log P_k/Q_k \in [a_k, a_{k+1}]`), and neighbouring intervals are
**merged**: reporting "one of these outcomes" instead of which one is a post-processing, so the merged
pair's divergence is smaller at every epsilon and composes as a lower bound (as numerics.pld's
optimistic grid does). A fraction t of an atom can be merged (split the atom by an independent coin,
also a post-processing). Walking up the grid, the remainder ("carry") of atom k, whose loss is below
:math:`a_{k+1}`, is merged with just enough of atom k+1 (loss at least :math:`a_{k+1}`) that the merged
atom's loss is exactly :math:`a_{k+1}`: with :math:`u_i = P_i(1 - e^{a - \ell_i})`, the merged loss is a
when :math:`\sum t_i u_i = 0`. What cannot be balanced is rounded down to the grid point below (which
lowers every composed loss, hence delta). Only merging and rounding down are used, so the result is a
certified lower bound whatever the numbers; the balancing only makes it tight.

Floating point (issue 29). The merge is steered by double-precision masses and losses; what it returns is
decided by enclosures (numerics.pld_pairs.MixturePair, and numerics.location_pairs through
numerics.location_onestep): each emitted atom is a
combination :math:`f_1 \cdot` interval :math:`i_1` + :math:`f_2 \cdot` interval :math:`i_2` (float fractions), and it is
placed at :math:`a_k` only if :math:`\sum f_j P_j \ge e^{a_k} \sum f_j Q_j` is proven from the enclosed masses
(numerics.pld_onestep.mass_bounds: lower ends of P, upper ends of Q, upper end of :math:`e^{a_k}`, every float
product and sum rounded to its safe side), else one or two grid points lower, else dropped (a smaller
positive measure lowers delta). Its P-mass is the rounded-down lower end, times :math:`1 - 8u`: the float
fractions of one interval (t and 1 - t, then s and 1 - s of the latter) sum to at most :math:`1 + 5u`. The
balancing aims each merged atom's loss at :math:`a_k` + :data:`_MARGIN` (1e-11 nats), so that it clears
its grid point by more than the enclosures' width (aimed at :math:`a_k` itself, nearly every balanced atom
would drop a step: fixed-size 64/60000, sigma 1.1, T 2000, lower end 2.58468 -> 2.56678). A flat piece of
a Laplace pair's loss that lies within the enclosures' width below a grid point drops one step: a sound grid
cannot place it higher (full batch, sigma 20: the top atom's loss 0.05 is 2.8e-18 below 500 fl(1e-4)). For
the pairs of numerics.location_pairs the merge is steered by the midpoints of the enclosed masses: their
float masses (log_ndtr differences) lose about 1e-11 relative in far tails, more than the aim, and with them
15 % of the atoms of the with-replacement copies pair (64/60000, sigma 1.1) dropped a step at losses near 2
(1.5e-9 of P's mass; M3b's lower end 1.3e-5 lower).
"""

from __future__ import annotations

import math

import numpy as np

from . import pld
from .enclose import down, up
from .fft_rounding import U
from .pld_pairs import MixturePair

#: loss (nats) by which a balanced atom is aimed above its grid point (module docstring, "Floating point"):
#: about 100 times the masses' enclosure width (1e-13 relative; at 1e-12 atoms start to drop a step: the C1 lower
#: end falls by 1.5e-5), and 1e-11 nats per step of composed loss at most (1e-10: C1 lower end 1.4e-7 lower)
_MARGIN = 1e-11


def discretise_merged(pair, h: float, tail: float) -> "pld.GridPLD":
    """Grid PMF (P-masses at k h) dominated by ``pair``: intervals at the grid losses, merged upwards."""
    l_lo, l_hi = pld._loss_window(pair, tail)
    k_lo, k_hi = math.floor(l_lo / h), math.ceil(l_hi / h)
    a = np.arange(k_lo, k_hi + 1) * h
    z = pld._edges_z(pair, a)
    z = np.concatenate([[-np.inf], z, [np.inf]])
    from . import pld_onestep
    bounds = pld_onestep.mass_bounds(pair, z)
    if isinstance(pair, MixturePair):
        log_p, log_q = pair.edge_log_masses_pq(z)
    else:  # steer by the enclosures' midpoints: location_pairs' float masses lose 1e-11 in far tails (below)
        with np.errstate(divide="ignore"):
            log_p, log_q = np.log(0.5 * (bounds[0] + bounds[1])), np.log(0.5 * (bounds[2] + bounds[3]))
    p = np.exp(log_p)
    with np.errstate(invalid="ignore", divide="ignore"):
        ell = log_p - log_q
    atoms = np.array(_merge(p, ell, h), dtype=float).reshape(-1, 5)
    return _enclosed_grid(bounds, atoms, h)


def _merge(p, ell, h: float) -> list:
    """The merged atoms as rows (k, i1, f1, i2, f2): f1 of interval i1 plus f2 of interval i2 at a_k.
    p, ell: float estimates of the intervals' P-masses and losses (steering only)."""
    out = []
    carry_i, carry_f = -1, 0.0  # the carry is the fraction carry_f of interval carry_i
    for i in range(len(p)):
        if not p[i] > 0 or not math.isfinite(ell[i]):
            continue
        pn, ln = float(p[i]), float(ell[i])
        if carry_i >= 0:
            carry_p, carry_l = carry_f * float(p[carry_i]), float(ell[carry_i])
            k = math.floor(carry_l / h - 1e-12) + 1  # the grid point just above the carry
            target = k * h
            if ln >= target:
                # u = P (1 - e^{a - l}) - m P: the merged loss is about a + m when the u sum to 0
                u_c = carry_p * (-math.expm1(target - carry_l) - _MARGIN)   # < 0
                u_n = pn * (-math.expm1(target - ln) - _MARGIN)
                if u_n > 0 and -u_c <= u_n:
                    t = -u_c / u_n
                    out.append((k, carry_i, carry_f, i, t))
                    carry_i, carry_f = i, 1.0 - t
                    continue
                if u_n > 0:
                    s = u_n / -u_c
                    out.append((k, carry_i, s * carry_f, i, 1.0))
                    out.append((k - 1, carry_i, (1.0 - s) * carry_f, i, 0.0))
                    carry_i = -1
                    continue
            out.append((math.floor(carry_l / h + 1e-12) if carry_l >= 0 else math.floor(carry_l / h),
                        carry_i, carry_f, i, 0.0))
        carry_i, carry_f = i, 1.0
    if carry_i >= 0:
        out.append((math.floor(float(ell[carry_i]) / h), carry_i, carry_f, carry_i, 0.0))
    return out


def _enclosed_grid(bounds, atoms, h: float) -> "pld.GridPLD":
    """The atoms placed and weighed from the enclosed masses ``bounds`` = (P_lo, P_hi, Q_lo, Q_hi) of the
    intervals (module docstring, "Floating point")."""
    from . import pld_onestep
    p_lo, _, _, q_hi = bounds
    i1, i2 = atoms[:, 1].astype(np.int64), atoms[:, 3].astype(np.int64)
    f1, f2 = atoms[:, 2], atoms[:, 4]
    p_sum = down(down(f1 * p_lo[i1]) + down(f2 * p_lo[i2]))   # <= the atom's P-mass
    q_sum = up(up(f1 * q_hi[i1]) + up(f2 * q_hi[i2]))         # >= its Q-mass
    k = atoms[:, 0].copy()
    placed = np.zeros(len(k), dtype=bool)
    for _ in range(3):  # the steered grid point, then up to two lower
        todo = ~placed & (p_sum > 0)
        if not np.any(todo):
            break
        _, ex_hi = pld_onestep.exp_bounds(k[todo], h)
        good = p_sum[todo] >= up(ex_hi * q_sum[todo])
        idx = np.flatnonzero(todo)
        placed[idx[good]] = True
        k[idx[~good]] -= 1
    mass = down(p_sum[placed] * (1.0 - 8.0 * U))
    return _grid(k[placed].astype(np.int64), mass, U)


def _grid(k, mass, u) -> "pld.GridPLD":
    """Sum the atoms' masses per grid point, each bin rounded down by its sum's bound (a bin of ``count``
    terms has relative error below (count - 1) u)."""
    keep = mass > 0
    k, mass = k[keep], mass[keep]
    k0 = int(k.min())
    pmf = np.bincount(k - k0, weights=mass)
    pmf = down(pmf * (1.0 - 2.0 * u * np.bincount(k - k0))).clip(min=0.0)
    return pld.GridPLD(k0, pmf, 0.0)
