r"""The one-step grids of the Gaussian pairs (and of numerics.location_pairs) with every mass enclosed (issue 29).

For a numerics.location_pairs.LocationMixturePair (Laplace pairs, with-replacement copies pairs) the
weights, the tails and the edges come from numerics.location_onestep (its docstring: the edges are float
brackets proven by an enclosure of the loss, since a mixture has no closed-form inverse); the masses and the
grids below are the same code.

numerics.pld's ``discretise_pessimistic`` / ``discretise_optimistic`` call :func:`pessimistic` and
:func:`optimistic`. Every real number that decides a mass or an atom's loss is enclosed by
numerics.enclose (Arb Taylor series per block of nodes + a proven float Horner bound, module docstring
there): the normal tails at the interval edges, the edges :math:`z^*(a_k)` of the grid losses, and
:math:`e^{a_k}`. Every float operation after that is rounded to its safe side (one ulp outward after
each correctly rounded +, -, *, /, :func:`numerics.enclose.down` / ``up``). No libm or scipy special
function enters a bound; the float edges themselves may come from scipy (any float edge is fine: a mass
is the exact mass of the interval between the floats the caller reports).

Upper grid (connect the dots, enclosed). Each grid loss :math:`a_k = kh` gets floats
:math:`e_k^- \le z^*(a_k) \le e_k^+` (the ends of the enclosure of :math:`z^*(a_k)`, the exact inverse of
the increasing loss); so :math:`\ell(e_k^-) \le a_k \le \ell(e_k^+)`. The line is cut into: the region
below :math:`e_0^-` (losses :math:`\le a_0`: its P-mass, upper end, goes to :math:`a_0`); the slivers
:math:`(e_k^-, e_k^+]` (losses in :math:`[a_{k-1}, a_{k+1}]` since the cut points are checked to be
nondecreasing: their P-mass, upper end, goes up to :math:`a_{k+1}`, the last one to :math:`+\infty`); the
cores :math:`(e_k^+, e_{k+1}^-]` (losses in :math:`[a_k, a_{k+1}]`: connect the dots); the region above
:math:`e_K^+` (losses :math:`\ge a_K`). A core's exact split is (P - U at :math:`a_k`, U at
:math:`a_{k+1}`) with :math:`U = (P - e^{a_k}Q)/(1-e^{-h})`; we put :math:`U' \ge U` (upper ends,
:math:`\le` P's upper end) at :math:`a_{k+1}` and :math:`P_{hi} - U' \ge 0` at :math:`a_k`: the exact
split plus positive mass at :math:`a_k` plus mass moved up, which only raise delta at every epsilon and
under composition (delta = sum_j p_j (1 - e^{eps - a_j})_+ is increasing in each p_j and in each loss,
and a convolution of positive measures is monotone in each factor). The top region puts
:math:`\min(P_{lo}, e^{a_K} Q)_{lo}` at :math:`a_K` and the rest of P's upper end at :math:`+\infty`.
This is the argument of patches/2026-11-27b/issue29-arb-masses-A.patch, with the same pieces.

Lower grid (mixed neighbours, issue 33). The caller's float edges cut the line into intervals
:math:`I_i` with enclosed masses :math:`P_i \in [P_i^-, P_i^+]`, :math:`Q_i \in [Q_i^-, Q_i^+]`. An
interval whose loss :math:`\log(P_i/Q_i)` is not a grid loss would lose up to h when rounded down (a
first-order error: at h = 6.4e-5, q = 1e-3, sigma = 1 the old rounded-down grid's mean loss sat 0.004 h per
step below the truth, 700 times the upper grid's excess, and it decided the width of long runs). Instead
each interval k (a receiver) gets a grid target :math:`t_k` (its loss rounded to the nearest grid point)
and a fraction :math:`\theta_k` of ONE other interval :math:`I_{d(k)}` (its donor) whose loss lies on the
other side of :math:`t_k`, chosen so that the mixed ratio is :math:`e^{t_k}` (a hair above).

Why it is a lower bound. The kernel that sends a point of :math:`I_i` to output i with probability
:math:`r_i`, to output k with probability :math:`\theta_k` for every receiver k with d(k) = i, and to a
discarded output with the rest, is a Markov kernel: :math:`\theta_k \ge 0` and
:math:`r_i + \sum_{d(k)=i}\theta_k \le 1` are floats checked as such (:math:`r_i` is
:math:`1 - \sum\theta` rounded down after the sum was rounded up by its proven bound). Its image pair
(with the discarded output dropped, which lowers delta at every epsilon) is a post-processing of the
true pair, so its delta is at most the true one at every epsilon and under composition. Output k has
:math:`P'_k \ge P'^-_k = r_k P_k^- + \theta_k P_{d(k)}^-` and :math:`Q'_k \le Q'^+_k` (upper ends),
each rounded to its safe side; it becomes an atom of P-mass :math:`P'^-_k` (a smaller positive measure
lowers delta) at a grid loss kh with :math:`e^{kh} \le P'^-_k/Q'^+_k \le P'_k/Q'_k` proven (upper end
of the enclosure of :math:`e^{kh}` against the quotient rounded down); k is the float floor of the log,
lowered by at most two until proven, else the output is dropped (also lowers delta). The fractions are
found by a float fixed point; they only decide how tight the grid is, never whether it is a lower bound.
Cost: mixing an interval with a fraction of a neighbour one grid step away loses second-order
information, like the quantisation itself (at the case above the mean loss is now 4.4e-6 h below the
truth, against the upper grid's 5.3e-6 h above).
"""
from __future__ import annotations

import math

import numpy as np

from . import location_onestep
from .enclose import ball_to_floats, down, enclose, enclose_diff, up
from .fft_rounding import U
from .location_pairs import LocationMixturePair
from .precision import ARB_MASS_PREC


def _weight_bounds(pair, w, m):
    from flint import arb, ctx
    if w == 1.0:
        return 1.0, 1.0
    if m == 0.0:  # the weight 1 - q, exact real
        saved, ctx.prec = ctx.prec, ARB_MASS_PREC
        try:
            return ball_to_floats(1 - arb(pair.q))
        finally:
            ctx.prec = saved
    return pair.q, pair.q


def _gauss_tail(mean, sigma):
    """sign -> the normal tail beyond x on the side ``sign`` of the mean, erfc(sign (x - m)/sigma sqrt 2)/2."""
    from flint import arb
    return lambda sign: (lambda s: ((s - mean) * sign / (arb(sigma) * arb(2).sqrt())).erfc() / 2)


def _location_mass_bounds(z, mean, tail):
    """Float (lo, hi) of F(z_{i+1} - m) - F(z_i - m) for sorted float edges z (+-inf), F the CDF of a law
    symmetric about 0 whose tail on side ``sign`` is the Arb function ``tail(sign)`` (normal: erfc; Laplace:
    exp, numerics.location_onestep).

    Intervals with both edges finite and on one side of the mean are differences of one increasing tail
    function, enclosed with their relative accuracy (numerics.enclose.enclose_diff); the others (an
    infinite edge, or straddling the mean: at most three per mean) from point enclosures of the tails."""
    z = np.asarray(z, dtype=float)
    n = len(z)
    right = np.flatnonzero(np.isfinite(z) & (z >= mean))
    left = np.flatnonzero(np.isfinite(z) & (z < mean))
    t_lo, t_hi = np.zeros(n), np.zeros(n)
    ends_r = sorted(set(right[:1].tolist() + right[-1:].tolist()))
    ends_l = sorted(set(left[:1].tolist() + left[-1:].tolist()))
    for sel, sign in ((ends_r, 1), (ends_l, -1)):
        if sel:
            lo, hi = enclose(tail(sign), z[sel])
            t_lo[sel], t_hi[sel] = np.maximum(lo, 0.0), hi
    side = np.where(z >= mean, 1, -1)  # +inf is right, -inf left
    a_lo, a_hi, b_lo, b_hi = t_lo[:-1], t_hi[:-1], t_lo[1:], t_hi[1:]
    r_lo, r_hi = down(a_lo - b_hi), up(a_hi - b_lo)            # both edges right of the mean
    l_lo, l_hi = down(b_lo - a_hi), up(b_hi - a_lo)            # both edges left
    s_lo, s_hi = down(down(1.0 - a_hi) - b_hi), up(up(1.0 - a_lo) - b_lo)  # straddling the mean
    both_right = side[:-1] > 0
    both_left = side[1:] < 0
    lo = np.where(both_right, r_lo, np.where(both_left, l_lo, s_lo))
    hi = np.where(both_right, r_hi, np.where(both_left, l_hi, s_hi))
    # finite intervals on one side: enclosed differences (the interval index is its left node's)
    if len(right) > 1:
        d_lo, d_hi = enclose_diff(lambda s: -tail(1)(s), z[right])
        lo[right[:-1]], hi[right[:-1]] = d_lo, d_hi
    if len(left) > 1:
        d_lo, d_hi = enclose_diff(tail(-1), z[left])
        lo[left[:-1]], hi[left[:-1]] = d_lo, d_hi
    empty = ~(z[1:] > z[:-1])
    lo = np.where(empty, 0.0, np.clip(lo, 0.0, 1.0))
    hi = np.where(empty, 0.0, np.clip(hi, 0.0, 1.0))
    return lo, hi


def _components(pair):
    """(P's, Q's) components as ((w_lo, w_hi), mean) with enclosed weights, and mean -> tail function."""
    if isinstance(pair, LocationMixturePair):
        p, q = location_onestep.component_bounds(pair)
        return p, q, lambda m: location_onestep.tail_factory(pair, m)
    p, q = ([(_weight_bounds(pair, w, m), m) for w, m in comps if w != 0]
            for comps in (pair.p_components, pair.q_components))
    return p, q, lambda m: _gauss_tail(m, pair.sigma)


def mass_bounds(pair, z):
    """(P_lo, P_hi, Q_lo, Q_hi): float enclosures of the exact P and Q masses of the intervals
    (z_i, z_{i+1}] of the sorted float edges z (+-inf allowed), for a MixturePair or a LocationMixturePair."""
    p_comps, q_comps, tail_of = _components(pair)
    per_mean = {m: _location_mass_bounds(z, m, tail_of(m)) for _, m in p_comps + q_comps}

    def mix(components):
        lo = hi = 0.0
        for (w_lo, w_hi), m in components:
            g_lo, g_hi = per_mean[m]
            lo = down(lo + down(w_lo * g_lo))
            hi = up(hi + up(w_hi * g_hi))
        return np.maximum(lo, 0.0), np.minimum(hi, 1.0)
    p_lo, p_hi = mix(p_comps)
    q_lo, q_hi = mix(q_comps)
    return p_lo, p_hi, q_lo, q_hi


def exp_bounds(ks, h):
    """Float enclosures of e^{k h} (k integer-valued floats, h the float grid step, k h exact real)."""
    from flint import arb
    ks = np.asarray(ks, dtype=float)
    uniq, inv = np.unique(ks, return_inverse=True)
    lo, hi = enclose(lambda s: (s * arb(h)).exp(), uniq)
    return lo[inv], hi[inv]


def _z_of_loss_series(pair, h):
    """f(k) = z*(k h), the exact inverse of the loss at the grid loss k h, as a function of an arb_series."""
    from flint import arb
    q, s2, hb = arb(pair.q), arb(pair.sigma) ** 2, arb(h)
    log1mq = (1 - q).log()

    def f(k):
        ell = k * hb
        if pair.direction == "remove":
            return 0.5 + s2 * ((1 - (log1mq - ell).exp()).log() + ell - q.log())
        if pair.direction == "add":
            return -0.5 - s2 * ((1 - (log1mq + ell).exp()).log() - ell - q.log())
        c = (-1 / (2 * s2)).exp()
        el = ell.exp()
        b = (1 - q) * (1 - el)
        disc = (b * b + 4 * (q * c) ** 2 * el).sqrt()
        head = ell.coeffs()  # an exact zero series has no coefficients
        if not head or float(head[0].mid()) <= 0:  # both forms are the same root; pick the one without cancellation
            w = 2 * el * q * c / (b + disc)
        else:
            w = (disc - b) / (2 * q * c)
        return s2 * w.log()
    return f


def loss_ball(pair, z: float):
    r"""Arb ball containing the exact loss :math:`\ell(z)` at the finite float z."""
    from flint import arb, ctx
    saved, ctx.prec = ctx.prec, ARB_MASS_PREC
    try:
        za, two_s2, q = arb(z), 2 * arb(pair.sigma) ** 2, arb(pair.q)

        def log_density(components):
            total = arb(0)
            for w, m in components:
                if w == 0:
                    continue
                wa = arb(1) if w == 1.0 else (1 - q if m == 0.0 else q)
                total += wa * (-(za - m) ** 2 / two_s2).exp()
            return total.log()
        return log_density(pair.p_components) - log_density(pair.q_components)
    finally:
        ctx.prec = saved


def edge_bounds(pair, ks, h):
    """Floats e_lo <= z*(k h) <= e_hi for each grid index k (-inf, -inf at or below the loss range, +inf, +inf
    at or above it; -inf / +inf also where a side could not be proven finite)."""
    from flint import arb, ctx
    if isinstance(pair, LocationMixturePair):  # no closed-form inverse: brackets proven by the loss
        return location_onestep.edge_bounds(pair, ks, h)
    ks = np.asarray(ks, dtype=float)
    n = len(ks)
    e_lo, e_hi = np.full(n, np.nan), np.full(n, np.nan)
    state = np.zeros(n, dtype=int)  # -1 below the range, +1 above, 0 inside
    saved, ctx.prec = ctx.prec, ARB_MASS_PREC
    try:
        hb = arb(h)
        bound = None
        if pair.q < 1 and pair.direction in ("remove", "add"):
            bound = (1 - arb(pair.q)).log()
            if pair.direction == "add":
                bound = -bound
            approx = float(bound.mid()) / h
            near = np.abs(ks - approx) <= 4
            if pair.direction == "remove":
                state[(ks < approx) & ~near] = -1
                for i in np.flatnonzero(near):
                    state[i] = -1 if (arb(ks[i]) * hb <= bound) else 0
            else:
                state[(ks > approx) & ~near] = 1
                for i in np.flatnonzero(near):
                    state[i] = 1 if (arb(ks[i]) * hb >= bound) else 0
        inside = state == 0
        if np.any(inside):
            lo, hi = enclose(_z_of_loss_series(pair, h), ks[inside], atol=1e-13)
            e_lo[inside], e_hi[inside] = lo, hi
        e_lo[state < 0], e_hi[state < 0] = -np.inf, -np.inf
        e_lo[state > 0], e_hi[state > 0] = np.inf, np.inf
        # nodes whose enclosure is not finite (next to the end of the loss range): prove float brackets
        for i in np.flatnonzero(inside & ~(np.isfinite(e_lo) & np.isfinite(e_hi))):
            e_lo[i], e_hi[i] = _slow_bracket(pair, arb(ks[i]) * hb, float(pair.z_of_loss(np.array([ks[i] * h]))[0]))
    finally:
        ctx.prec = saved
    return e_lo, e_hi


def _slow_bracket(pair, ak, z0):
    """Floats lo <= hi with loss(lo) <= ak <= loss(hi) proven in Arb (-inf / +inf where none was found)."""
    lo, hi = -math.inf, math.inf
    if math.isfinite(z0):
        step = 2.0 ** -40 * max(abs(z0), 1.0)
        for _ in range(6):
            if lo == -math.inf and loss_ball(pair, z0 - step) <= ak:
                lo = z0 - step
            if hi == math.inf and loss_ball(pair, z0 + step) >= ak:
                hi = z0 + step
            step *= 2.0 ** 8
    return lo, hi


def pessimistic(pair, h: float, k_lo: int, k_hi: int):
    """(k_lo, pmf, inf_mass) of the enclosed connect-the-dots grid on a_k = k h, k_lo <= k <= k_hi."""
    from flint import arb, ctx
    ks = np.arange(k_lo, k_hi + 1).astype(float)
    n = len(ks)
    e_lo, e_hi = edge_bounds(pair, ks, h)
    pts = np.empty(2 * n)
    pts[0::2], pts[1::2] = e_lo, e_hi
    if np.any(np.isnan(pts)) or np.any(pts[1:] < pts[:-1]):
        from .pld_compose import AccuracyNotReached
        raise AccuracyNotReached(f"the enclosed edges of the one-step grid overlap at h={h:.3g}")
    p_lo, p_hi, q_lo, q_hi = mass_bounds(pair, np.concatenate([[-np.inf], pts, [np.inf]]))
    ex_lo, _ = exp_bounds(ks, h)
    saved, ctx.prec = ctx.prec, ARB_MASS_PREC
    try:
        one_minus_lo, _ = ball_to_floats(1 - (-arb(h)).exp())
    finally:
        ctx.prec = saved
    pmf = np.zeros(n)
    pmf[0] += p_hi[0]                       # below e_0^-: up to a_0
    sliver = p_hi[1:2 * n:2]                # (e_k^-, e_k^+]: up to a_{k+1}
    pmf[1:] += sliver[:-1]
    inf_terms = [float(sliver[-1])]
    c_plo, c_phi, c_qlo = p_lo[2:2 * n:2], p_hi[2:2 * n:2], q_lo[2:2 * n:2]  # cores k = 0..n-2
    num = up(c_phi - down(ex_lo[:-1] * c_qlo))   # >= P - e^{a_k} Q
    u = np.where(num > 0, up(num / one_minus_lo), 0.0)
    u = np.minimum(u, c_phi)
    pmf[1:] = up(pmf[1:] + u)
    pmf[:-1] = up(pmf[:-1] + np.maximum(up(c_phi - u), 0.0))
    at_top = max(min(float(p_lo[-1]), float(down(q_lo[-1] * ex_lo[-1]))), 0.0)
    pmf[-1] = up(pmf[-1] + at_top)
    inf_terms.append(max(float(up(p_hi[-1] - at_top)), 0.0))
    # pmf entries were rounded up after every addition; the +inf mass is a sum of two terms
    total_inf = math.fsum(inf_terms)
    total_inf = float(up(total_inf * (1.0 + 4.0 * U))) if total_inf > 0 else 0.0
    return int(k_lo), pmf, total_inf


#: a donor's loss lies at least this many grid steps beyond its receiver's target (a nearer one would have to
#: give a larger fraction of its mass; any donor on the right side is sound)
DONOR_GAP = 0.25
#: each mixed ratio aims this many grid steps, plus AIM_ABS nats, above its target, so that the proven floor is
#: the target despite the rounding of the fractions and the width of the enclosure of e^{kh} (tightness only)
AIM, AIM_ABS = 1e-6, 1e-13
#: a receiver without a donor able to reach its nearest target is retargeted to the other side when rounding
#: down would cost more than RETARGET h^2 nats: about what mixing with a donor a grid step away loses
RETARGET = 0.5


def _proven_floor(ratio: np.ndarray, h: float):
    """(k, ok): float grid indices with e^{k h} <= ratio proven where ``ok`` (module docstring, lower grid)."""
    with np.errstate(divide="ignore"):
        k = np.floor(np.log(ratio) / h)
    ok = np.zeros(len(k), dtype=bool)
    for _ in range(3):
        todo = ~ok & np.isfinite(k)
        if not np.any(todo):
            break
        _, ex_hi = exp_bounds(k[todo], h)
        good = ex_hi <= ratio[todo]
        idx = np.flatnonzero(todo)
        ok[idx[good]] = True
        k[idx[~good]] -= 1
    return k, ok


def _donors(p_lo, q_hi, h: float):
    """(donor index, d_k = P_k^- - x_k Q_k^+, e_k = P_d^- - x_k Q_d^+, valid) with x_k = e^{t_k + aim}: each
    receiver's target t_k and donor (module docstring); ``valid`` where d and e have opposite signs.

    The target is the grid loss nearest to the receiver's; where that has no donor able to bring it there
    (the bottom interval above a loss floor, the top one below a ceiling, a neighbour too light) and rounding
    down would cost more than RETARGET h^2, the grid loss on the other side of its loss."""
    n = len(p_lo)
    ell = np.log(p_lo) - np.log(q_hi)
    aim = AIM * h + AIM_ABS
    mono = np.maximum.accumulate(ell)  # the true interval losses increase; the estimates nearly so

    def option(t):
        below = np.searchsorted(mono, t - DONOR_GAP * h, "right") - 1
        above = np.searchsorted(mono, t + DONOR_GAP * h, "left")
        donor = np.where(ell > t + aim, below, above)
        inside = (donor >= 0) & (donor < n)
        donor = np.clip(donor, 0, n - 1)
        x = np.exp(t + aim)
        d = p_lo - x * q_hi
        e = p_lo[donor] - x * q_hi[donor]
        valid = inside & (d * e < 0) & (donor != np.arange(n))
        with np.errstate(divide="ignore", invalid="ignore"):
            enough = valid & (np.abs(d) <= np.abs(e))
        return donor, d, e, valid, enough

    t = np.round(ell / h) * h
    near = option(t)
    other = option(np.where(ell > t + aim, t + h, t - h))
    costly = ell - np.floor((ell - aim) / h) * h > RETARGET * h * h
    use = costly & other[4] & ~near[4]
    donor, d, e, valid, _ = (np.where(use, b, a) for a, b in zip(near, other))
    settled = ~use & (ell >= t + 0.5 * aim) & (ell <= t + 2.0 * aim)  # already just above its target
    return donor, d, e, valid & ~settled


def _fractions(donor, d, e, valid, n: int):
    """theta_k with (1 - o_k) d_k + theta_k e_k = 0, o_i = sum of the fractions donor i gives (float fixed
    point), then scaled so that each donor gives at most all of itself."""
    theta, o = np.zeros(n), np.zeros(n)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(valid, -d / e, 0.0)
    for _ in range(30):
        theta = np.maximum(1.0 - o, 0.0) * ratio
        new = np.bincount(donor[valid], weights=theta[valid], minlength=n)
        theta = theta / np.maximum(new[donor], 1.0)
        new = np.bincount(donor[valid], weights=theta[valid], minlength=n)
        if np.max(np.abs(new - o)) <= 1e-15:
            break
        o = new
    return np.where(valid, theta, 0.0)


def optimistic_atoms(pair, z, h: float):
    """Grid indices and lower masses of the mixed outputs of the intervals (z_i, z_{i+1}] (module
    docstring, lower grid)."""
    p_lo, _, _, q_hi = mass_bounds(pair, z)
    keep = (p_lo > 0) & (q_hi > 0)
    p_lo, q_hi = p_lo[keep], q_hi[keep]
    n = len(p_lo)
    if n == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0)
    donor, d, e, valid = _donors(p_lo, q_hi, h)
    theta = _fractions(donor, d, e, valid, n)
    # the kernel: sum of a donor's fractions, rounded up by the proven bound of a sum of `cnt` terms
    cnt = np.bincount(donor[valid], minlength=n)
    given = up(np.bincount(donor[valid], weights=theta[valid], minlength=n) * (1.0 + 2.0 * U * (cnt + 1)))
    over = given > 1.0
    if np.any(over):  # float slop of the scaling above: shrink those donors' fractions below one in total
        theta = np.where(valid & over[donor], down(theta * (1.0 - 1e-9) / given[donor]), theta)
        given = up(np.bincount(donor[valid], weights=theta[valid], minlength=n) * (1.0 + 2.0 * U * (cnt + 1)))
    if np.any(given > 1.0) or not np.all(theta >= 0):  # never seen; no mixing is always a kernel
        theta, given = np.zeros(n), np.zeros(n)
    retain = np.maximum(down(1.0 - given), 0.0)
    mass = down(down(retain * p_lo) + down(theta * p_lo[donor]))
    q_mix = up(up(retain * q_hi) + up(theta * q_hi[donor]))
    ok = (mass > 0) & (q_mix > 0)
    k, proven = _proven_floor(down(mass[ok] / q_mix[ok]), h)
    return k[proven].astype(np.int64), mass[ok][proven]
