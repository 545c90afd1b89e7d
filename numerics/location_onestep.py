r"""Enclosed weights, losses and grid edges of numerics.location_pairs (issue 29).

numerics.pld_onestep builds the enclosed one-step grids of a pair from three ingredients: the masses of
intervals between float edges, the edges :math:`e_k^- \le z^*(a_k) \le e_k^+` of the grid losses
:math:`a_k = kh`, and :math:`e^{a_k}`. For numerics.pld_pairs.MixturePair it has closed forms; for a
:class:`~numerics.location_pairs.LocationMixturePair` (Laplace pairs, the with-replacement copies pairs)
this module supplies

* **the weights** (:func:`component_bounds`): float enclosures of the exact weights
  (``LocationMixturePair.exact_weights``: 1 - q, binomial probabilities, as fractions), through Arb;
* **the tails** (:func:`tail_factory`): the Laplace tail :math:`e^{-|x - m|/b}/2` on the side of x away
  from the mean m, an Arb function that numerics.enclose encloses like the normal tail (erfc);
* **the loss** at float points (:func:`loss_bounds`), enclosed by numerics.enclose from an Arb series of
  :math:`\log\sum_i w_i f(z - m_i) - \log\sum_j v_j f(z - n_j)` (weights as balls). The Laplace density has a
  kink at every mean, so the points are split at the means and each piece uses the analytic formula with
  the signs of :math:`z - m` of that piece (equal to the loss on the closed piece, which is all Taylor's
  theorem needs);
* **the edges** (:func:`edge_bounds`). No closed-form inverse exists for more than two components, so the
  edges are float brackets proven by the loss itself: the float bisection gives :math:`z_0 \approx z^*(a_k)`
  and :math:`e^\pm = z_0 \pm d` are kept once :math:`\ell(e^-) \le a_k \le \ell(e^+)` is proven
  (upper end of the enclosure of :math:`\ell(e^-)` against the float below :math:`kh`, lower end of
  :math:`\ell(e^+)` against the float above); d starts at :math:`2^{-42}\max(|z_0|, b)` and grows by
  :math:`2^6` (five tries). Since the loss is non-decreasing, :math:`\ell \le a_k` on :math:`(-\infty, e^-]`
  and :math:`\ell \ge a_k` on :math:`(e^+, \infty)`, which is all numerics.pld_onestep.pessimistic uses.
  A side not proven so (next to an asymptote of the loss, where the float inverse is NaN or the loss is
  flatter than its enclosure is wide: a Gaussian copies pair's loss tends to :math:`\log\pi_0`, and the grid
  step is snapped so that a grid loss sits there) takes the nearest point of a fixed ladder (the means, and
  the means :math:`\pm b\,2^j`, j = -44, -40, ..., 4) at which the condition is proven, else :math:`-\infty` /
  :math:`+\infty`, which satisfies the same conditions vacuously (the caller refuses the grid if the cut
  points are then out of order). A grid loss proven at
  or below the infimum of the loss gets :math:`(-\infty, -\infty)`, at or above its supremum
  :math:`(+\infty, +\infty)`: the infimum and supremum are enclosed too (a Laplace pair's loss is flat, and
  equal to its value at the extreme means, beyond them; a Gaussian pair's loss tends to the log ratio of
  the weights at a shared extreme mean, else to :math:`\pm\infty`).

Flat pieces (the atoms of a Laplace pair's loss) need no case of their own: a flat piece lies in one
interval of the cut, whose losses are in :math:`[a_k, a_{k+1}]` by the conditions above, and its mass is
split by the proven connect-the-dots rule (upper grid) or placed at a proven grid loss (lower grid,
numerics.pld_contraction), like any other interval.
"""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from .enclose import ball_to_floats, down, enclose, up
from .precision import ARB_MASS_PREC

#: first half-width of an edge bracket, relative to max(|z_0|, scale), and its growth per failed try
_BRACKET_START, _BRACKET_GROWTH, _BRACKET_TRIES = 2.0 ** -42, 2.0 ** 6, 5
#: absolute target of the loss enclosures (nats): far below the loss change over a bracket's half-width
_LOSS_ATOL = 1e-16


def _weight_ball(pair, side: int, i: int):
    """The exact weight of component i of P (side 0) or Q (side 1) as an Arb ball."""
    from flint import arb, fmpq
    if pair.exact_weights is None:
        return arb((pair.p_components, pair.q_components)[side][i][0])
    w = Fraction(pair.exact_weights[side][i])
    return arb(fmpq(w.numerator, w.denominator))


def component_bounds(pair):
    """([((w_lo, w_hi), m), ...] for P, the same for Q): float enclosures of the exact weights."""
    from flint import ctx
    saved, ctx.prec = ctx.prec, ARB_MASS_PREC
    try:
        return tuple([(ball_to_floats(_weight_ball(pair, side, i)), m)
                      for i, (w, m) in enumerate(comps) if w > 0]
                     for side, comps in enumerate((pair.p_components, pair.q_components)))
    finally:
        ctx.prec = saved


def tail_factory(pair, mean: float):
    """sign -> the Arb function x -> (mass of the law at ``mean`` beyond x, on the side ``sign`` of the mean)."""
    from flint import arb
    if pair.family == "gaussian":
        return lambda sign: (lambda s: ((s - mean) * sign / (arb(pair.scale) * arb(2).sqrt())).erfc() / 2)
    return lambda sign: (lambda s: (-(s - mean) * sign / arb(pair.scale)).exp() / 2)


def _log_density_series(pair, side: int, signs):
    """z -> log of P's (side 0) or Q's (side 1) density up to the common constant, as an Arb function; for
    Laplace ``signs[m]`` is the sign of z - m on the piece (module docstring)."""
    from flint import arb
    comps = [(i, m) for i, (w, m) in enumerate((pair.p_components, pair.q_components)[side]) if w > 0]
    scale = arb(pair.scale)

    def f(z):
        total = 0
        for i, m in comps:
            if pair.family == "gaussian":
                kernel = (-(z - m) * (z - m) / (2 * scale * scale)).exp()
            else:
                kernel = (-(z - m) * signs[m] / scale).exp()
            total = total + _weight_ball(pair, side, i) * kernel
        return total.log()
    return f


def loss_bounds(pair, z):
    """Float arrays (lo, hi) enclosing the exact loss at the finite floats z (any order)."""
    z = np.asarray(z, dtype=float)
    lo, hi = np.empty(len(z)), np.empty(len(z))
    if len(z) == 0:
        return lo, hi
    order = np.argsort(z, kind="stable")
    zs = z[order]
    means = sorted({m for _, m in pair.p_components + pair.q_components})
    if pair.family == "gaussian":
        pieces = [(0, len(zs), None)]
    else:  # piece j: between means[j-1] and means[j] (closed), nodes at a mean go to the piece on its right
        cuts = np.searchsorted(zs, means, side="left")
        bounds = [0] + cuts.tolist() + [len(zs)]
        pieces = [(bounds[j], bounds[j + 1], j) for j in range(len(bounds) - 1) if bounds[j + 1] > bounds[j]]
    for i0, i1, j in pieces:
        signs = None if j is None else {m: (1 if idx < j else -1) for idx, m in enumerate(means)}
        fp, fq = _log_density_series(pair, 0, signs), _log_density_series(pair, 1, signs)
        l_lo, l_hi = enclose(lambda s: fp(s) - fq(s), zs[i0:i1], atol=_LOSS_ATOL)
        lo[order[i0:i1]], hi[order[i0:i1]] = l_lo, l_hi
    return lo, hi


def loss_range_bounds(pair):
    """(inf_lo, sup_hi): floats inf_lo <= inf of the loss (or -inf), sup_hi >= its sup (or +inf)."""
    from flint import arb, ctx
    means = sorted({m for _, m in pair.p_components + pair.q_components})
    if pair.family == "laplace":  # flat beyond the extreme means: the loss at them
        lo, hi = loss_bounds(pair, np.array([means[0], means[-1]]))
        return float(lo[0]), float(hi[1])
    saved, ctx.prec = ctx.prec, ARB_MASS_PREC
    try:
        out = []
        for pick, sign in ((min, -1), (max, 1)):
            mp = pick(m for w, m in pair.p_components if w > 0)
            mq = pick(m for w, m in pair.q_components if w > 0)
            if mp != mq:  # the component further out dominates
                out.append(sign * math.inf)
                continue
            wp = sum((_weight_ball(pair, 0, i) for i, (w, m) in enumerate(pair.p_components) if m == mp and w > 0),
                     arb(0))
            wq = sum((_weight_ball(pair, 1, i) for i, (w, m) in enumerate(pair.q_components) if m == mq and w > 0),
                     arb(0))
            out.append(ball_to_floats((wp / wq).log())[0 if sign < 0 else 1])
        return out[0], out[1]
    finally:
        ctx.prec = saved


def edge_bounds(pair, ks, h: float):
    """Floats e_lo <= e_hi per grid index k with loss <= k h on (-inf, e_lo] and loss >= k h on (e_hi, inf)
    (module docstring); (-inf, -inf) at or below the loss range, (+inf, +inf) at or above it."""
    ks = np.asarray(ks, dtype=float)
    a = ks * h
    a_lo, a_hi = down(a), up(a)  # the floats around fl(k h) bracket the exact k h
    inf_lo, sup_hi = loss_range_bounds(pair)
    below, above = a_hi <= inf_lo, a_lo >= sup_hi
    e_lo, e_hi = np.full(len(ks), -np.inf), np.full(len(ks), np.inf)
    e_lo[above] = np.inf
    e_hi[below] = -np.inf
    inside = np.flatnonzero(~below & ~above)
    if len(inside) == 0:
        return e_lo, e_hi
    z0 = pair.z_of_loss(a[inside])
    finite = np.isfinite(z0)  # NaN: the float loss range says no inverse; those go to the ladder directly
    z0 = np.where(finite, z0, 0.0)
    d = _BRACKET_START * np.maximum(np.abs(z0), pair.scale)
    need_lo = np.ones(len(inside), dtype=bool)
    need_hi = np.ones(len(inside), dtype=bool)
    for _ in range(_BRACKET_TRIES):
        cand_lo, cand_hi = z0 - d, z0 + d
        todo = need_lo & finite
        if todo.any():
            _, l_hi = loss_bounds(pair, cand_lo[todo])
            idx = np.flatnonzero(todo)[l_hi <= a_lo[inside][todo]]
            e_lo[inside[idx]] = cand_lo[idx]
            need_lo[idx] = False
        todo = need_hi & finite
        if todo.any():
            l_lo, _ = loss_bounds(pair, cand_hi[todo])
            idx = np.flatnonzero(todo)[l_lo >= a_hi[inside][todo]]
            e_hi[inside[idx]] = cand_hi[idx]
            need_hi[idx] = False
        if not (need_lo & finite).any() and not (need_hi & finite).any():
            break
        d = d * _BRACKET_GROWTH
    if need_lo.any() or need_hi.any():
        _ladder_fallback(pair, a_lo[inside], a_hi[inside], need_lo, need_hi, inside, e_lo, e_hi)
    return e_lo, e_hi


def _ladder_fallback(pair, a_lo, a_hi, need_lo, need_hi, inside, e_lo, e_hi):
    """For the grid losses whose bracket failed (next to an asymptote of the loss, where the float inverse is
    NaN or the loss is flatter than its enclosure's width): e_hi the least point of a fixed ladder with loss
    proven >= k h, e_lo the largest with loss proven <= k h (any such point is a valid edge, module docstring);
    -inf / +inf where none is."""
    means = np.array([m for _, m in pair.p_components + pair.q_components])
    reach = pair.scale * 2.0 ** np.arange(-44, 7, 4)
    ladder = np.unique(np.concatenate([means, (means[:, None] - reach).ravel(), (means[:, None] + reach).ravel()]))
    l_lo, l_hi = loss_bounds(pair, ladder)
    for i in np.flatnonzero(need_hi):
        ok = np.flatnonzero(l_lo >= a_hi[i])
        if len(ok):
            e_hi[inside[i]] = ladder[ok[0]]
    for i in np.flatnonzero(need_lo):
        ok = np.flatnonzero(l_hi <= a_lo[i])
        if len(ok):
            e_lo[inside[i]] = ladder[ok[-1]]
