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
"""
from __future__ import annotations

import math

import numpy as np

from . import pld


def discretise_merged(pair, h: float, tail: float) -> "pld.GridPLD":
    """Grid PMF (P-masses at k h) dominated by ``pair``: intervals at the grid losses, merged upwards."""
    l_lo, l_hi = pld._loss_window(pair, tail)
    k_lo, k_hi = math.floor(l_lo / h), math.ceil(l_hi / h)
    a = np.arange(k_lo, k_hi + 1) * h
    z = pld._edges_z(pair, a)
    z = np.concatenate([[-np.inf], z, [np.inf]])
    log_p, log_q = pair.edge_log_masses_pq(z)
    p = np.exp(log_p)
    with np.errstate(invalid="ignore", divide="ignore"):
        ell = log_p - log_q
    out: dict = {}

    def emit(k: int, mass: float):
        if mass > 0:
            out[k] = out.get(k, 0.0) + mass

    carry_p, carry_l = 0.0, 0.0
    for i in range(len(p)):
        if not p[i] > 0 or not math.isfinite(ell[i]):
            continue
        pn, ln = float(p[i]), float(ell[i])
        if carry_p > 0:
            k = math.floor(carry_l / h - 1e-12) + 1  # the grid point just above the carry
            target = k * h
            if ln >= target:
                u_c = carry_p * -math.expm1(target - carry_l)   # < 0
                u_n = pn * -math.expm1(target - ln)             # >= 0
                if u_n > 0 and -u_c <= u_n:
                    t = -u_c / u_n
                    emit(k, carry_p + t * pn)
                    carry_p, carry_l = (1.0 - t) * pn, ln
                    continue
                if u_n > 0:
                    s = u_n / -u_c
                    emit(k, s * carry_p + pn)
                    emit(k - 1, (1.0 - s) * carry_p)
                    carry_p = 0.0
                    continue
            emit(math.floor(carry_l / h + 1e-12) if carry_l >= 0 else math.floor(carry_l / h), carry_p)
        carry_p, carry_l = pn, ln
    if carry_p > 0:
        emit(math.floor(carry_l / h), carry_p)
    ks = np.array(sorted(out), dtype=np.int64)
    k0 = int(ks[0])
    pmf = np.zeros(int(ks[-1]) - k0 + 1)
    pmf[ks - k0] = [out[k] for k in ks]
    return pld.GridPLD(k0, pmf, 0.0)
