r"""A grid PLD proven to dominate the larger of two grid PLDs' privacy profiles (issue 29).

Used by numerics.adaptive.symmetrised_grid: the symmetrised pair S of a fixed-size replace-one step has the
privacy profile :math:`\max(H_\alpha(P\|Q), H_\alpha(Q\|P))` (docs/replace_one.md section 3), and each order has
a proven pessimistic grid (numerics.pld_onestep.pessimistic). The candidate grid of the caller (second
differences of the maximum of the two grid profiles, in double) can dip below that maximum: at the README's
fixed-size replace-one case (64/60000, sigma 1.1, h 3.08e-5) its exact profile was 1.9e-11 (relative) below
the truth at epsilon -4.65, from the cancellation in its float second differences. Here the candidate is
only a starting point; the returned grid is checked and repaired.

Notation. A grid PLD is a finite positive measure :math:`\mu` on the losses kh and :math:`+\infty`; its
profile is :math:`D_\mu(\varepsilon) = \int (1 - e^{\varepsilon - x})_+ d\mu(x)`, for every real epsilon.

Lemma (composition needs only the profiles). For finite positive measures,
:math:`D_{\mu * \mu'}(\varepsilon) = \int D_\mu(\varepsilon - y)\, d\mu'(y)`. So if
:math:`D_\nu \ge D_\mu` at every real epsilon, then :math:`D_{\nu * \lambda} \ge D_{\mu * \lambda}` for every
positive :math:`\lambda`, and by induction :math:`D_{\nu^{*T}} \ge D_{\mu^{*T}}`. No normalisation is used: a
grid of total mass above 1 (as after the repair below) is as valid as any other upper grid, and the FFT
composition, its Chernoff windows (Markov's inequality on a positive measure) and the delta read-off
(numerics.pld) all hold for positive measures. With :math:`\mu` the true loss distribution of S (whose
profile is the maximum above, at most :math:`\max(D_1, D_2)` of the two grids), the composed grid bounds
the composed S.

What is checked (grids 1 and 2 with masses :math:`m^1, m^2`, atoms :math:`i_1, i_2` at infinity). Let a be
the lowest index of grid 1's support and b the highest of grid 2's, and W = [min(a, b) - 1, max(a, b)].
The returned :math:`\nu` equals :math:`m^2` below W and :math:`m^1` above W (bitwise), the candidate inside
W, and :math:`\nu_\infty = \max(i_1, i_2)`; :math:`E_i = D_\nu - D_i`.

* epsilon above W: every mass of :math:`\nu` above epsilon is grid 1's, so :math:`E_1 = \nu_\infty - i_1 \ge 0`;
  grid 2 has no mass there, so :math:`D_2 = i_2 \le \nu_\infty \le D_\nu`.
* grid points j of W: :math:`E_i(j) \ge 0` from rigorous bounds, with
  :math:`E_i(j) = (\nu_\infty - i_i) + \sum_{k>j} (\nu_k - m^i_k)(1 - e^{jh} e^{-kh})`: :math:`e^{\pm kh}` enclosed
  (numerics.pld_onestep.exp_bounds, Arb), the sums inside W as suffix sums of nonnegative floats (relative
  error at most :math:`\gamma_n`, Higham, *Accuracy and Stability*, 2nd ed., eq. (4.4)), the masses above W
  (grid 1's) as correctly rounded ``math.fsum`` of products rounded up.
* epsilon below W (every real one): below W the masses of :math:`\nu` and grid 2 agree and grid 1 has none,
  so :math:`E_2(\varepsilon) = G_2 - e^\varepsilon B_2` is linear in :math:`e^\varepsilon` and
  :math:`E_1(\varepsilon)` is a sum of nonnegative terms plus such a linear function; each linear function
  is checked at :math:`e^\varepsilon \to 0` (a difference of total masses from w0 up, w0 included,
  ``math.fsum``) and at the lowest grid point of W (the check above).
* between grid points: :math:`D_\nu` is linear in :math:`e^\varepsilon` on each cell and
  :math:`\max(D_1, D_2)` is convex in it (a maximum of convex functions), so the grid points suffice.

Repair. A check that fails by d where :math:`D_\nu` (the scalable part) is at least s is closed by scaling
every mass of :math:`\nu` (and its atom at infinity) by :math:`1 + \kappa`, :math:`\kappa \ge d/s`, rounded
up: scaling adds :math:`\kappa D_\nu \ge 0` to every E and keeps every linear argument above. Its cost under
T compositions is a factor of at most :math:`(1 + \kappa)^T` on delta (README case: kappa is reported in
``details`` by the caller). A failure with no positive s is closed by raising the atom at infinity by d.
"""
from __future__ import annotations

import math

import numpy as np

from .enclose import U, down, up
from .pld_compose import GridPLD


def _gamma(n: int) -> float:
    """An upper bound on gamma_n = n u / (1 - n u) (Higham eq. (3.8)), with room for its own rounding."""
    return 1.01 * n * U / (1.0 - n * U)


def _suffix(x: np.ndarray) -> np.ndarray:
    """s_j = sum_{k > j} x_k for nonnegative floats x (exact 0 at the end), computed value."""
    return np.concatenate([np.cumsum(x[::-1])[::-1][1:], [0.0]])


def _profile_bounds(x: np.ndarray, e_neg: tuple, e_pos: tuple):
    """(lo, hi) of S_j = sum_{k > j} x_k (1 - e^{jh} e^{-kh}) over the window, x >= 0 floats; ``e_neg`` encloses
    e^{-kh} and ``e_pos`` e^{jh} at the window's indices. Error: gamma_n of each suffix sum of nonnegative
    terms, one ulp per product."""
    g = _gamma(len(x) + 2)
    a = _suffix(x)
    b_hi = up(_suffix(up(x * e_neg[1])) * (1.0 + g))
    b_lo = np.maximum(down(_suffix(down(x * e_neg[0])) * (1.0 - g)), 0.0)
    lo = down(down(a * (1.0 - g)) - up(e_pos[1] * b_hi))
    hi = up(up(a * (1.0 + g)) - down(e_pos[0] * b_lo))
    return lo, hi


def _fsum_bounds(parts) -> tuple[float, float]:
    """(lo, hi) around the exact sum of the floats in ``parts``: math.fsum is correctly rounded (error at
    most u |sum|), pushed one ulp outward and by 2u of the sum (room for underflowed results)."""
    total = math.fsum(np.concatenate([np.asarray(p, dtype=float) for p in parts]))
    slack = 2.0 * U * abs(total) + 1e-300
    return float(down(total - slack)), float(up(total + slack))


def dominate_max(g1: GridPLD, g2: GridPLD, candidate: GridPLD, h: float):
    """(grid, kappa, extra_inf): ``candidate`` made to dominate max(D_1, D_2) at every epsilon (module
    docstring); grid 1 must hold the highest losses and grid 2 the lowest (checked)."""
    from .pld_onestep import exp_bounds
    lo = min(g1.k0, g2.k0, candidate.k0)
    hi = max(g1.k0 + len(g1.pmf), g2.k0 + len(g2.pmf), candidate.k0 + len(candidate.pmf)) - 1

    def on(g):
        m = np.zeros(hi - lo + 1)
        m[g.k0 - lo:g.k0 - lo + len(g.pmf)] = g.pmf
        return m

    m1, m2, nu = on(g1), on(g2), on(candidate)
    if not (np.all(m1 >= 0) and np.all(m2 >= 0) and np.all(nu >= 0)):
        raise ValueError("dominate_max: negative grid masses")
    a = lo + int(np.flatnonzero(m1 > 0)[0]) if np.any(m1 > 0) else hi
    b = lo + int(np.flatnonzero(m2 > 0)[-1]) if np.any(m2 > 0) else lo
    if a <= lo or b >= hi:
        raise ValueError("dominate_max: grid 1 must hold the top losses and grid 2 the bottom ones")
    w0, w1 = min(a, b) - 1, max(a, b)  # the window W, as grid indices
    i0, i1 = w0 - lo, w1 - lo
    nu[:i0] = m2[:i0]
    nu[i1 + 1:] = m1[i1 + 1:]
    inf = max(g1.inf_mass, g2.inf_mass)

    e_all = exp_bounds(-np.arange(lo, hi + 1, dtype=float), h)  # e^{-kh} at every index
    win = slice(i0, i1 + 1)
    e_neg = (e_all[0][win], e_all[1][win])
    e_pos = exp_bounds(np.arange(w0, w1 + 1, dtype=float), h)  # e^{jh} at the window's points
    a_lo, _ = _fsum_bounds([m1[i1 + 1:]])
    b_hi = _fsum_bounds([up(m1[i1 + 1:] * e_all[1][i1 + 1:])])[1]
    top_lo = np.maximum(down(a_lo - up(e_pos[1] * b_hi)), 0.0)  # grid 1's masses above W, at each j
    s_nu = _profile_bounds(nu[win], e_neg, e_pos)
    s_1 = _profile_bounds(m1[win], e_neg, e_pos)
    s_2 = _profile_bounds(m2[win], e_neg, e_pos)
    d_nu = down(down(inf + s_nu[0]) + top_lo)  # a lower bound on D_nu(j), the part scaling raises
    e1 = down(down(down(inf - g1.inf_mass) + s_nu[0]) - s_1[1])  # grid 1's masses above W cancel
    e2 = down(down(down(down(inf - g2.inf_mass) + s_nu[0]) - s_2[1]) + top_lo)
    # below W, against grid 2: E_2 is linear in e^eps; at e^eps -> 0 a difference of total masses from w0 up
    # (w0 included: below w0 h its mass counts; audit A29F found it left out)
    above = slice(i0, None)
    g0_2 = _fsum_bounds([nu[above], -m2[above], [inf, -g2.inf_mass]])[0]
    nu_tot = _fsum_bounds([nu[above], [inf]])[0]
    # below W, against grid 1 (no mass there): D_nu >= T_nu - e^eps B_nu (every term added is <= 0) and
    # D_1 = T_1 - e^eps B_1, so E_1 >= dT - e^eps dB, checked at e^eps -> 0 and at e^{w0 h}; the masses
    # above W cancel exactly
    part = slice(0, i1 + 1)
    dt_lo = _fsum_bounds([nu[part], -m1[part], [inf, -g1.inf_mass]])[0]
    db_hi = _fsum_bounds([up(nu[part] * e_all[1][part]), -down(m1[part] * e_all[0][part])])[1]
    a_w0 = e_pos[1][0] if db_hi > 0 else e_pos[0][0]
    lin_w0 = float(down(dt_lo - up(a_w0 * db_hi)))
    t_nu_lo = _fsum_bounds([nu, [inf]])[0]
    b_nu_hi = _fsum_bounds([up(nu * e_all[1])])[1]
    lin_nu_w0 = float(down(t_nu_lo - up(e_pos[1][0] * b_nu_hi)))
    deficits = np.concatenate([-np.minimum(e1, 0.0), -np.minimum(e2, 0.0),
                               [-min(g0_2, 0.0), -min(dt_lo, 0.0), -min(lin_w0, 0.0)]])
    scalable = np.concatenate([d_nu, d_nu, [nu_tot, t_nu_lo, lin_nu_w0]])
    bad = deficits > 0
    ok = bad & (scalable > 0)
    kappa = float(np.max(up(deficits[ok] / scalable[ok]))) if np.any(ok) else 0.0
    extra = float(np.max(deficits[bad & ~ok])) if np.any(bad & ~ok) else 0.0
    if kappa > 0:
        factor = up(1.0 + up(kappa * (1.0 + 1e-6)))
        nu, inf = up(nu * factor), float(up(inf * factor))
    if extra > 0:
        inf = float(up(inf + up(extra * (1.0 + 1e-6))))
    first = int(np.flatnonzero(nu > 0)[0]) if np.any(nu > 0) else 0
    return GridPLD(lo + first, nu[first:], inf), kappa, extra
