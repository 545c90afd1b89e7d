r"""Vectorised rigorous enclosures of a real-analytic function at many sorted float nodes (issue 29).

:func:`enclose` returns float arrays ``lo <= f(x) <= hi`` at every node, where ``f`` is given once as a
function of an Arb power series (``flint.arb_series``: exp, log, erfc, sqrt, ... are all rigorous). It
costs two Arb series per block of nodes and numpy arithmetic per node, instead of one Arb evaluation (and
a Python loop) per node: this is what makes the enclosed one-step masses of numerics.pld_onestep fast.

Why the bounds hold. The nodes are cut into blocks; a block with float centre c (one of its nodes) and
radius r (``max |x - c|``, rounded up) gets

* the Taylor coefficients :math:`s_i = f^{(i)}(c)/i!`, :math:`i \le d`, as Arb balls (series of f at the
  exact point c); each is rounded to the float :math:`a_i` and :math:`\rho_i \ge |s_i - a_i|` is the ball's
  distance to :math:`a_i`, rounded up;
* :math:`M \ge |f^{(d+1)}(\xi)|/(d+1)!` for every :math:`\xi` in :math:`[c-r, c+r]`: the degree-(d+1)
  coefficient of the series of f at the BALL c +- r (ball arithmetic is inclusion monotone, so that
  coefficient's ball contains the coefficient at every point of the ball), absolute value rounded up.

Taylor's theorem with Lagrange remainder gives, for t = x - c,
:math:`|f(x) - \sum_{i\le d} a_i t^i| \le \sum_i \rho_i |t|^i + M |t|^{d+1}`, and Horner's rule in IEEE
double (round to nearest, u = 2^-53; with or without fused multiply-add) evaluates
:math:`\sum a_i t^i` with error at most :math:`\gamma_{2d}\sum |a_i||t|^i`, :math:`\gamma_k = ku/(1-ku)`
(Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., eq. (5.3)). The bound itself is a
Horner sum of nonnegative terms, computed in double with relative error at most :math:`\gamma_{2d+2}`;
it is multiplied by 1 + 1e-6 (far above every such gamma for d <= 64) and :data:`TINY` = 1e-300 is added
for operations that underflow (each adds at most 2^-1075 absolute, and a block has fewer than 10^4 of
them per node). t = x - c is checked to be exact (TwoSum: the rounding error of the subtraction is
computed exactly and must be zero); nodes where it is not, and blocks whose bound is not below
``rel`` times the value or whose series is not finite, are split, down to single nodes, which get
``f`` at the point (a degree-0 series) as an Arb ball. Final ends are moved one ulp outward
(:func:`down`, :func:`up`), which covers the rounding of the last subtraction/addition.

The only float error model used is that of IEEE 754 +, -, * (correctly rounded): no libm function and
no scipy special function enters a bound.
"""
from __future__ import annotations

import math

import numpy as np

from .precision import ARB_MASS_PREC

U = 2.0 ** -53
#: absolute slack for underflow in the float Horner sums (see the module docstring)
TINY = 1e-300


def down(x):
    """One ulp towards -inf: below the exact result of any single correctly rounded operation."""
    return np.nextafter(x, -np.inf)


def up(x):
    """One ulp towards +inf: above the exact result of any single correctly rounded operation."""
    return np.nextafter(x, np.inf)


def ball_to_floats(b) -> tuple[float, float]:
    """Floats lo <= every point of the Arb ball b <= hi (+-inf when b is not finite)."""
    if not b.is_finite():
        return -math.inf, math.inf
    lo, hi = b.lower(), b.upper()
    lo_f = float(lo.mid()) - float(lo.rad())
    hi_f = float(hi.mid()) + float(hi.rad())
    return float(down(down(lo_f))), float(up(up(hi_f)))


def enclose(f, x, degree: int = 32, block: int = 1024, rel: float = 1e-13, atol: float = 0.0,
            prec: int = ARB_MASS_PREC):
    """Float arrays (lo, hi) with lo <= f(x_i) <= hi for finite sorted float nodes x (module docstring).

    A block is accepted when its bound is at most ``rel`` |value| + ``atol`` (else it is split: this is
    about tightness only, every accepted or pointwise result is an enclosure).

    ``f`` maps a ``flint.arb_series`` (in the node variable) to a ``flint.arb_series``."""
    from flint import ctx
    x = np.asarray(x, dtype=float)
    lo = np.empty(len(x))
    hi = np.empty(len(x))
    saved, ctx.prec = ctx.prec, prec
    saved_cap, ctx.cap = ctx.cap, max(ctx.cap, degree + 2)  # series are truncated at ctx.cap terms
    try:
        stack = [(i, min(i + block, len(x))) for i in range(0, len(x), block)]
        while stack:
            i0, i1 = stack.pop()
            if i1 - i0 <= 2:
                for i in range(i0, i1):
                    lo[i], hi[i] = _point(f, x[i])
                continue
            if not _block(f, x, i0, i1, degree, rel, atol, lo, hi):
                mid = (i0 + i1) // 2
                stack.append((i0, mid))
                stack.append((mid, i1))
    finally:
        ctx.prec, ctx.cap = saved, saved_cap
    return lo, hi


def _point(f, xi: float):
    from flint import arb, arb_series
    try:
        s = f(arb_series([arb(xi)], prec=1))
    except (ValueError, ZeroDivisionError):
        return -math.inf, math.inf
    return ball_to_floats(s.coeffs()[0]) if s.length() else (-math.inf, math.inf)


def _taylor(f, c: float, r: float, dmax: int, target_of, remainder):
    """(a, rad, d, m) for a block of centre c and radius r, or None if the block must be split.

    The series of f at the point c (coefficients s_i) and at the ball c +- r (coefficient d+1 bounds
    f^(d+1)/(d+1)! on the block, module docstring); d is the smallest degree whose float estimate
    ``remainder(d, M_d)`` is at most ``target_of(s)`` (speed only: any d <= dmax gives a valid bound, which
    uses the rigorous m). a_i: the midpoints converted to double (within one ulp <= 2u|a_i|, plus TINY if
    subnormal); rad_i: the radii converted to double (within one ulp, covered by the callers' 1 + 1e-6)."""
    from flint import arb, arb_series
    try:
        s = f(arb_series([arb(c), 1], prec=dmax + 1)).coeffs()
        sb = f(arb_series([arb(c, r), 1], prec=dmax + 2)).coeffs()
    except (ValueError, ZeroDivisionError):  # e.g. a series division whose leading ball contains 0
        return None
    # ctx.cap >= dmax + 2 (set by the callers), so a shorter list only omits exact zero coefficients
    s = list(s) + [arb(0)] * (dmax + 1 - len(s))
    sb = list(sb) + [arb(0)] * (dmax + 2 - len(sb))
    if not all(b.is_finite() for b in s):
        return None
    target = target_of(s)
    for j in range(1, dmax + 1):
        b = sb[j + 1]
        if b.is_finite() and remainder(j, abs(float(b.mid())) + float(b.rad())) <= target:
            d, m = j, ball_to_floats(b.abs_upper())[1]
            break
    else:
        return None
    a = np.array([float(b.mid()) for b in s[:d + 1]])
    rad = np.array([float(b.rad()) for b in s[:d + 1]])
    if not (np.all(np.isfinite(a)) and np.all(np.isfinite(rad)) and math.isfinite(m)):
        return None
    return a, rad, d, m


def _block(f, x, i0, i1, dmax, rel, atol, lo, hi) -> bool:
    """Fill lo/hi on x[i0:i1] from one Taylor expansion; False if the block must be split."""
    from flint import ctx
    assert ctx.cap >= dmax + 2
    xs = x[i0:i1]
    c = float(xs[(i1 - i0) // 2])
    t = xs - c
    # TwoSum: the exact rounding error of x - c; it must vanish
    bp = t - xs
    ap = t - bp
    err = (xs - ap) + (-c - bp)
    if np.any(err != 0):
        return False
    r = float(up(np.max(np.abs(t))))
    # the degree: the smallest d whose remainder bound M_d r^(d+1) is a tenth of the target
    taylor = _taylor(f, c, r, dmax, lambda s: 0.1 * (rel * abs(float(s[0].mid())) + atol),
                     lambda j, mj: mj * r ** (j + 1))
    if taylor is None:
        return False
    a, rad, d, m = taylor
    gamma = 2.0 * (2 * d + 3) * U  # Horner's gamma_{2d} plus the 2u|a_i| of the midpoints' conversion
    g = rad * (1.0 + 1e-6) + gamma * np.abs(a) + TINY
    # the bound is increasing in |t|: evaluate it once, at the block radius r >= |t| (scalars, Horner)
    p = np.full(len(t), a[d])
    for i in range(d - 1, -1, -1):
        p = p * t + a[i]
    e = float(g[d])
    for i in range(d - 1, -1, -1):
        e = e * r + float(g[i])
    pw = r
    for _ in range(d):
        pw = pw * r
    e = (e + m * pw) * (1.0 + 1e-6) + TINY
    if not (np.all(np.isfinite(p)) and math.isfinite(e)) or e > rel * float(np.min(np.abs(p))) + atol + 1e-290:
        return False
    lo[i0:i1] = down(p - e)
    hi[i0:i1] = up(p + e)
    return True


def enclose_diff(f, x, degree: int = 32, block: int = 1024, rel: float = 1e-12, prec: int = ARB_MASS_PREC):
    r"""Float arrays (lo, hi) with lo <= f(x_{i+1}) - f(x_i) <= hi for finite sorted float nodes x: the
    differences keep their relative accuracy however close the nodes are (a difference of two enclosures
    of f would lose it to cancellation).

    Per block of consecutive nodes (centre c, radius r, series as in :func:`enclose`), with t = x - c and
    :math:`\Delta = t_{i+1} - t_i` both checked exact (TwoSum):
    :math:`f(x_{i+1}) - f(x_i) = \Delta\,(p[t_i, t_{i+1}] + \sum_j (s_j - a_j)[t_i, t_{i+1}]^{(j)} + R'(\xi))`
    where :math:`p[t_1, t_2] = \sum_j a_j \sum_{k<j} t_1^k t_2^{j-1-k}` is the divided difference of the
    Taylor polynomial (evaluated by the Horner recurrence b <- b t_1 + a_k, acc <- acc t_2 + b: each term
    passes through at most 4d roundings, so the error is at most :math:`\gamma_{4d}\sum_j j|a_j| r^{j-1}`,
    and 2 (4d + 6) u is used), the coefficient errors contribute at most :math:`\sum_j j\,\rho_j r^{j-1}`, and
    the remainder's derivative at most :math:`(d+1) M r^d` (mean value theorem; M as in :func:`enclose`).
    """
    from flint import ctx
    x = np.asarray(x, dtype=float)
    n = len(x) - 1
    lo = np.empty(max(n, 0))
    hi = np.empty(max(n, 0))
    if n <= 0:
        return lo, hi
    saved, ctx.prec = ctx.prec, prec
    saved_cap, ctx.cap = ctx.cap, max(ctx.cap, degree + 2)
    try:
        stack = [(j, min(j + block, n)) for j in range(0, n, block)]
        while stack:
            j0, j1 = stack.pop()
            if _diff_block(f, x, j0, j1, degree, rel, lo, hi):
                continue
            if j1 - j0 <= 1:  # one interval: the difference of two point enclosures
                a_lo, a_hi = _point(f, x[j0])
                b_lo, b_hi = _point(f, x[j0 + 1])
                lo[j0], hi[j0] = down(b_lo - a_hi), up(b_hi - a_lo)
                continue
            mid = (j0 + j1) // 2
            stack.append((j0, mid))
            stack.append((mid, j1))
    finally:
        ctx.prec, ctx.cap = saved, saved_cap
    return lo, hi


def _diff_block(f, x, j0, j1, dmax, rel, lo, hi) -> bool:
    """Fill lo/hi for the intervals j0..j1-1 (nodes j0..j1) from one Taylor expansion; False to split."""
    xs = x[j0:j1 + 1]
    c = float(xs[len(xs) // 2])
    t = xs - c
    bp = t - xs
    ap = t - bp
    if np.any((xs - ap) + (-c - bp) != 0):
        return False
    t1, t2 = t[:-1], t[1:]
    dt = t2 - t1
    bp = dt - t2
    ap = dt - bp
    if np.any((t2 - ap) + (-t1 - bp) != 0):
        return False
    r = float(up(np.max(np.abs(t))))
    if r == 0.0:
        lo[j0:j1] = 0.0
        hi[j0:j1] = 0.0
        return True
    # the degree: the smallest d whose remainder derivative bound (d+1) M_d r^d is a tenth of the target
    taylor = _taylor(f, c, r, dmax, lambda s: 0.1 * rel * abs(float(s[1].mid())),
                     lambda j, mj: (j + 1) * mj * r ** j)
    if taylor is None:
        return False
    a, rad, d, m = taylor
    gamma = 2.0 * (4 * d + 6) * U
    g = rad * (1.0 + 1e-6) + (gamma + 2.0 * U) * np.abs(a) + TINY
    b = np.full(len(t1), a[d])
    acc = np.full(len(t1), a[d])
    for k in range(d - 1, 0, -1):
        b = b * t1 + a[k]
        acc = acc * t2 + b
    # sum_j j g_j r^(j-1) by Horner (nonnegative terms), and (d + 1) M r^d
    e = d * float(g[d])
    for j in range(d - 1, 0, -1):
        e = e * r + j * float(g[j])
    pw = 1.0
    for _ in range(d):
        pw = pw * r
    e = (e + (d + 1) * m * pw) * (1.0 + 1e-6) + TINY
    if not (np.all(np.isfinite(acc)) and math.isfinite(e)) or e > rel * float(np.min(np.abs(acc))) + 1e-290:
        return False
    lo[j0:j1] = down(dt * down(acc - e))
    hi[j0:j1] = up(dt * up(acc + e))
    return True
