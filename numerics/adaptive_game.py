r"""The adaptive game of fixed-size replace-one steps with per-step choices (issue 35; docs/replace_one.md §7).

Research module, NOT wired into the public accountant (numerics.accounting / numerics.adaptive are in the
figures' provenance closure; the plan for wiring is in docs/replace_one.md §7g). Nothing in the suite
imports it except its tests, bench/bench_adaptive_game.py and bench/bench_cover.py.

What it computes (clip norm 1, noise :math:`N(0, \sigma^2 I)`, batch fraction g = b/n):

* :func:`game_delta` — the value of the adaptive game in which, at every step, the adversary picks one
  pair of a finite menu of one-step grid pairs as a function of the running privacy loss, evaluated
  exactly on the loss lattice :math:`L = kh` by backward induction (§7c), every rounding on the side of
  ``mode``:

  - ``mode="upper"`` with a menu of *dominating* grid pairs (every one-step pair of the mechanism is
    profile-dominated by a public-coin mixture of menu pairs) is a proven upper bound on
    :math:`\delta^*(\varepsilon)` (§7b, Theorem G). Two menus are proven to dominate: the symmetrised
    pair S of numerics.adaptive (§3; the game is then the plain composition of S) and the cover of §7i
    (:func:`cover_menu`, Theorem C), which is proven but, at the menu sizes measured, not tighter.
  - ``mode="lower"`` with a menu of grid pairs each *dominated by* (a garbling of) a realizable step is a
    certified lower bound (§4's argument with per-step choices).

* :func:`triangle_grid` — a lower grid pair of the triangle pair :math:`K(p, q) =
  ((1-g)N(0) + gN(p),\ (1-g)N(0) + gN(q))`, (0, p, q) = (w, u, v) − w for unit vectors u, v, w on one
  circle (§7a: every step is a garbling of a public-coin mixture of these). The plane is cut into
  rectangles whose masses are exact products of normal CDF differences (reporting the rectangle is a
  post-processing), and the rectangles are merged onto the lattice (numerics.pld_contraction's rule:
  merging is a post-processing, what cannot be balanced is rounded down).

* :func:`cover_weights`, :func:`cover_menu`, :func:`cover_upper` — the proven finite cover of the triangle
  family (§7i, Theorem C: cells of the angle torus, each member dominated by the bilinear mixture of its
  cell's corner pairs, each mixed with weight τ of the whole-batch pair G and η of a pair at +infinity),
  with :func:`triangle_upper_grid` (a dominating lattice pair of a triangle) for the corner pairs.

* :func:`charge_floors`, :func:`charge_weights`, :func:`cell_weights`, :func:`charge_grids`, :func:`corner_pair` and
  ``refined_cover_upper(rates=...)`` — Theorem C″ (§7k): the same cover with Lemma C's slack charged, per cell by a
  linear programme over the β grid, to symmetrised pairs S_r at rates g < r <= 1 (S_1 = G), whose advantage over
  every member is at least (1 - g/r) E(S_r), O(r - g) instead of O(1). The first cover bound below {S} (§7k).

* ``refined_cover_upper(prune=eps)`` — the menu pruned by profile dominance before the game (numerics.grid_dominance,
  §7m): pairs eps-dominated by one kept pair or a mixture of two are dropped and the game adds their largest
  certified excess to every step (``game_delta(slack=...)``).

* :func:`family_lower` — the game's lower bound over a finite sample of the triangle family (the
  realizable adversary of §4 enlarged from {PQ, QP, pm1} to the plane), and :func:`symmetrised_upper`
  the proven upper bound computed by the same engine.

Numbers this module produces are reported as what they are: ``upper`` (proven, menu {S}), ``lower``
(certified, realizable menu). A value of the game over a sampled menu that is NOT known to dominate
the family is neither; it is never returned as a bound.
"""
from __future__ import annotations

import math
import time

import numpy as np
import scipy.signal
from scipy.special import ndtr

from .adaptive import step_pair, symmetrised_grid
from .errors import InvalidParameter
from .fft_rounding import convolution_entry_error
from .grid_dominance import prune_by_mixtures, prune_menu, step_slack
from .pld import GridPLD, discretise_pessimistic
from .pld_contraction import discretise_merged

_U = 2.0 ** -53


# --------------------------------------------------------------------------------------------------
# one-step grid pairs
# --------------------------------------------------------------------------------------------------

def order_grids(g: float, sigma: float, h: float, tail: float) -> dict:
    """Upper (connect-the-dots) and lower (merged) grid pairs of the two orders PQ, QP and of pm1, and
    the symmetrised upper pair S (numerics.adaptive.symmetrised_grid, docs/replace_one.md §3b)."""
    up = {a: discretise_pessimistic(step_pair(a, g, sigma), h, tail) for a in ("PQ", "QP")}
    low = {a: discretise_merged(step_pair(a, g, sigma), h, tail) for a in ("PQ", "QP", "pm1")}
    return {"upper": up, "lower": low, "S": symmetrised_grid(up["PQ"], up["QP"], h)}


def triangle_vectors(theta_u: float, theta_v: float) -> tuple[np.ndarray, np.ndarray]:
    """p = u - w, q = v - w for w = (1, 0), u and v at angles ``theta_u``, ``theta_v`` on the unit circle."""
    w = np.array([1.0, 0.0])
    return (np.array([math.cos(theta_u), math.sin(theta_u)]) - w,
            np.array([math.cos(theta_v), math.sin(theta_v)]) - w)


def _interval_masses(edges: np.ndarray, mean: float) -> np.ndarray:
    """Standard normal masses of the intervals between ``edges`` (centred at ``mean``), each from the
    side of the mean where it is not a difference of numbers near 1."""
    x = edges - mean
    left, right = np.diff(ndtr(x)), -np.diff(ndtr(-x))
    return np.where(x[1:] <= 0, left, np.where(x[:-1] >= 0, right, left))


def triangle_atoms(g: float, sigma: float, p, q, cells: tuple[int, int] = (600, 160), reach: float = 9.0):
    r"""(P-masses, Q-masses) of the rectangles of a grid over the plane for the pair
    :math:`((1-g)N(0) + gN(p), (1-g)N(0) + gN(q))`, noise :math:`\sigma`. Coordinates: e1 along p - q, so
    p = (x1, t), q = (x2, t); ``reach`` standard deviations beyond the means on every side (the mass
    outside is dropped: a lower device). The masses are exact up to float rounding."""
    p, q = np.asarray(p, float) / sigma, np.asarray(q, float) / sigma
    d = p - q
    nd = float(np.linalg.norm(d))
    if nd == 0.0:
        raise InvalidParameter("triangle_atoms: p = q is the trivial pair")
    e1 = d / nd
    e2 = np.array([-e1[1], e1[0]])
    x1, x2 = float(p @ e1), float(q @ e1)
    t = float(p @ e2)
    n1, n2 = cells
    ed1 = np.linspace(min(0.0, x1, x2) - reach, max(0.0, x1, x2) + reach, n1 + 1)
    ed2 = np.linspace(min(0.0, t) - reach, max(0.0, t) + reach, n2 + 1)
    a0, ap, aq = (_interval_masses(ed1, m) for m in (0.0, x1, x2))
    b0, bt = _interval_masses(ed2, 0.0), _interval_masses(ed2, t)
    pm = (1.0 - g) * np.outer(a0, b0) + g * np.outer(ap, bt)
    qm = (1.0 - g) * np.outer(a0, b0) + g * np.outer(aq, bt)
    return pm.ravel(), qm.ravel()


def merge_atoms(pm: np.ndarray, qm: np.ndarray, h: float) -> GridPLD:
    r"""A lattice grid pair dominated by the discrete pair of atoms (P-mass, Q-mass): atoms sorted by loss
    and merged upwards onto the lattice kh exactly as numerics.pld_contraction.discretise_merged does
    with intervals (merging outcomes is a post-processing; what cannot be balanced is rounded DOWN,
    which only lowers the game's value, §4c). Atoms with P-mass 0 are dropped (they add nothing to any
    E_P); atoms with Q-mass 0 and P-mass > 0 have loss +infinity and are kept at the top finite loss
    (rounded down)."""
    keep = pm > 0
    pm, qm = pm[keep], qm[keep]
    with np.errstate(divide="ignore"):
        ell = np.log(pm) - np.log(qm)
    finite = np.isfinite(ell)
    if not finite.all():
        ell = np.where(finite, ell, np.max(ell[finite]) if finite.any() else 0.0)
    # first merge: the atoms whose loss lies in one lattice interval [kh, (k+1)h) become one atom (a
    # post-processing); its loss log(sum P / sum Q) lies in the same interval
    kk = np.floor(ell / h).astype(np.int64)
    base = int(kk.min())
    sp = np.bincount(kk - base, weights=pm)
    sq = np.bincount(kk - base, weights=np.where(finite, qm, 0.0))
    nz = sp > 0
    idx = np.nonzero(nz)[0]
    with np.errstate(divide="ignore"):
        l_agg = np.log(sp[nz]) - np.log(sq[nz])
    # an interval holding an atom of infinite loss (Q-mass 0) may exceed its top: rounded DOWN into it
    l_agg = np.minimum(l_agg, np.nextafter((idx + base + 1) * h, -np.inf))
    p_s, l_s = sp[nz], l_agg
    out: dict = {}

    def emit(k: int, mass: float):
        if mass > 0:
            out[k] = out.get(k, 0.0) + mass

    carry_p, carry_l = 0.0, 0.0
    for pn, ln in zip(p_s.tolist(), l_s.tolist()):
        if carry_p > 0:
            k = math.floor(carry_l / h - 1e-12) + 1
            target = k * h
            if ln >= target:
                u_c = carry_p * -math.expm1(target - carry_l)
                u_n = pn * -math.expm1(target - ln)
                if u_n > 0 and -u_c <= u_n:
                    tt = -u_c / u_n
                    emit(k, carry_p + tt * pn)
                    carry_p, carry_l = (1.0 - tt) * pn, ln
                    continue
                if u_n > 0:
                    s = u_n / -u_c
                    emit(k, s * carry_p + pn)
                    emit(k - 1, (1.0 - s) * carry_p)
                    carry_p = 0.0
                    continue
            emit(math.floor(carry_l / h - 1e-12), carry_p)
            carry_p = 0.0
        if carry_p == 0.0:
            carry_p, carry_l = pn, ln
    if carry_p > 0:
        emit(math.floor(carry_l / h - 1e-12), carry_p)
    ks = np.array(sorted(out), dtype=np.int64)
    pmf = np.zeros(int(ks[-1] - ks[0]) + 1)
    pmf[ks - ks[0]] = [out[k] for k in ks]
    return GridPLD(int(ks[0]), pmf, 0.0)


def triangle_grid(g: float, sigma: float, theta_u: float, theta_v: float, h: float,
                  cells: tuple[int, int] = (600, 160)) -> GridPLD:
    """Lower grid pair of the triangle pair with u, v at angles ``theta_u``, ``theta_v`` and w at 0."""
    p, q = triangle_vectors(theta_u, theta_v)
    return merge_atoms(*triangle_atoms(g, sigma, p, q, cells), h)


def triangle_menu(m: int) -> list[tuple[float, float]]:
    """Angle pairs (theta_u, theta_v) on the m-point circle grid with w at angle 0, u != v, one of each
    pair mirrored by the reflection (theta_u, theta_v) -> (-theta_u, -theta_v) (same pair up to a
    rotation). Contains PQ (u opposite w, v = w) and QP (u = w, v opposite w) when m is even."""
    seen, out = set(), []
    for i in range(m):
        for j in range(m):
            if i == j:
                continue
            key = min((i, j), ((m - i) % m, (m - j) % m))
            if key in seen:
                continue
            seen.add(key)
            out.append((2 * math.pi * key[0] / m, 2 * math.pi * key[1] / m))
    return out


# --------------------------------------------------------------------------------------------------
# the game on the lattice
# --------------------------------------------------------------------------------------------------

#: at most this many tilted correlations per expectation (each one extends, downwards, the region of the lattice
#: where the proven value is accurate; a tightness and cost choice only, every value is proven)
_MAX_TILTS = 4
#: a value counts as accurate where its proven error bound is at most this fraction of it
_ACCURATE = 1e-4
#: absolute error allowed per computed tilted entry (underflow of exp and of products to a subnormal or 0)
_TINY = 2.0 ** -1000


def _next_tilt(val: np.ndarray, err: np.ndarray, h: float) -> tuple[int, float]:
    r"""(r, λ): r = the lowest lattice index from which up every value is accurate (error <= _ACCURATE x value),
    λ = the slope of log V just above r (the secant to the first j > r with V_j >= e V_r), the exponent for which
    the tilted V is flat at r, so that the FFT's error, relative to the tilted vectors, becomes relative to V there
    (the tilt that centres the sum at r: Chernoff's). λ = 0 when there is nothing below r or no e-fold above it."""
    bad = np.flatnonzero(~(err <= _ACCURATE * val))
    r = int(bad[-1]) + 1 if len(bad) else 0
    if r == 0 or r >= len(val):
        return r, 0.0
    up = np.flatnonzero(val[r + 1:] >= math.e * val[r])
    if not len(up) or not val[r] > 0.0:
        return r, 0.0
    j = r + 1 + int(up[0])
    return r, math.log(val[j] / val[r]) / ((j - r) * h)


def _tilted_expect(ext: np.ndarray, lo_ext: int, kmin: int, n: int, h: float, step: GridPLD, lam: float,
                   mode: str) -> tuple[np.ndarray, np.ndarray]:
    r"""(value, error) of a proven bound (upper or lower as ``mode``) on :math:`\sum_j m_j\,ext_{i+j}` (no +∞ part)
    through the tilted correlation (an identity for every real Λ, c_e, c_m, f)

    .. math:: \sum_j m_j\,ext_{i+j} = f\sum_j m_j + e^{\Lambda k_i + c_e + c_m}\sum_j m'_j\,w'_{i+j},\quad
              w'_t = (ext_t - f) e^{-\Lambda k_t - c_e},\ m'_j = m_j e^{\Lambda (k_0 + j) - c_m}

    (k_t = lo_ext + t the lattice index of ext_t, k_i = kmin + i that of the output, k_0 + j that of m_j; Λ =
    fl(λh) is the float used, c_e and c_m put the two vectors' largest entries near 1, f = min ext: the floor
    V keeps below the window, which tilted by e^{-ΛL} would swamp the rest). "error" is the part of the value due
    to the FFT's bound (to steer the next tilt). Proof of the bound (docs/replace_one.md §7o):
    (a) each tilted entry x' = x e^{±Λk - c} (x = fl(ext_t - f) >= 0, within u of ext_t - f, or x = m_j) is
    computed as exp(fl(fl(log x ± fl(Λk)) - c)); log rounds by 2u of
    its result, the product and the two sums by u of a result at most |log x| + |Λk| + |c| (numerics.fft_rounding
    item 3's model), so the exponent's absolute error is at most 5u(|log x| + |Λk| + |c|); exp adds 2u relative
    and, on underflow, at most ``_TINY`` absolutely: the computed entry is x'(1 + θ) + d with |θ| <= η, |d| <= _TINY,
    η = max over entries x > 0 of expm1(5u(|log x| + |Λk| + |c|) + 6u) (x = 0 gives 0 exactly; the 6u holds exp's
    2u, the subtraction of f and the raise below);
    (b) upper: every entry is raised by _TINY (the sum rounds by u, inside the 6u), so exact <= computed / (1 - η)
    entrywise; lower: lowered by _TINY and floored at 0, so exact >= computed / (1 + η); all entries are >= 0, so
    the exact correlation of the exact tilted vectors is at most (at least) that of the computed ones times
    1 / (1 - η_e)(1 - η_m) (1 / (1 + η_e)(1 + η_m));
    (c) the FFT correlation F of the computed vectors is within E of their exact correlation entrywise
    (numerics.fft_rounding.convolution_entry_error with the computed vectors' norms, rounded up);
    (d) the scale s_i = e^{Λk_i + c_e + c_m} is computed with relative error at most
    κ_i = expm1(3u(|Λk_i| + |c_e| + |c_m|) + 12u) (the exponent's three roundings, exp's 2u, and the u each of
    F ± E, of the product by s_i and of the product by the η factor): the returned value is
    fl(s̃_i (F + E)) (1 + κ_i) / ((1 - η_e)(1 - η_m)) + _TINY (upper; a product that underflows errs by less than
    _TINY, and a scale below e^{-700} is raised to e^{-700}, which only raises a value >= 0), or
    fl(s̃_i max(F - E, 0)) (1 - κ_i) / ((1 + η_e)(1 + η_m)) (lower). Where the scale exceeds e^{700} the value is
    +∞ (upper) or 0 (lower): proven, and the untilted value is used there.
    (e) the floor's part f Σ m_j is computed as fl(f fl(Σ m_j)) moved by (len(m) + 3)u relative to the side of
    ``mode`` (numpy's sum rounds by at most (len - 1)u relative, nonnegative terms; the product by u), and the final
    sum of the two parts is moved by 2u (its rounding)."""
    big = lam * h
    k_ext = (lo_ext + np.arange(len(ext))).astype(float)
    k_m = (step.k0 + np.arange(len(step.pmf))).astype(float)
    k_out = (kmin + np.arange(n)).astype(float)
    with np.errstate(divide="ignore", over="ignore", under="ignore", invalid="ignore"):
        floor = float(np.min(ext))
        w = ext - floor
        c_e = float(np.max(np.log(w) - big * k_ext))
        c_m = float(np.max(np.log(step.pmf) + big * k_m))
        if not (math.isfinite(c_e) and math.isfinite(c_m)):
            return np.full(n, math.inf if mode == "upper" else 0.0), np.full(n, math.inf)  # a flat V: nothing to tilt
        te, eta_e = _tilt_vector(w, -big * k_ext, c_e, mode)
        tm, eta_m = _tilt_vector(step.pmf, big * k_m, c_m, mode)
        corr = scipy.signal.fftconvolve(te, tm[::-1], mode="valid")
        grow = 1.0 + 2.0 * (len(te) + len(tm)) * _U
        e_fft = convolution_entry_error(2 * (len(te) + len(tm)), float(np.linalg.norm(te)) * grow,
                                        float(np.linalg.norm(tm)) * grow, float(tm.sum()) * grow)
        expo = big * k_out + (c_e + c_m)
        kappa = np.expm1(3.0 * _U * (np.abs(big * k_out) + abs(c_e) + abs(c_m)) + 12.0 * _U)
        s = np.exp(np.clip(expo, -700.0 if mode == "upper" else -math.inf, 700.0))
        part = floor * float(np.sum(step.pmf))
        if mode == "upper":
            fac = (1.0 + kappa) / ((1.0 - eta_e) * (1.0 - eta_m))
            part *= 1.0 + (len(step.pmf) + 3) * _U
            val = np.where(expo > 700.0, math.inf, (s * (corr + e_fft) * fac + _TINY + part) * (1.0 + 2.0 * _U))
        else:
            fac = (1.0 - kappa) / ((1.0 + eta_e) * (1.0 + eta_m))
            part *= 1.0 - (len(step.pmf) + 3) * _U
            val = np.where(expo > 700.0, 0.0, (s * np.maximum(corr - e_fft, 0.0) * fac + part) * (1.0 - 2.0 * _U))
        err = np.where(expo > 700.0, math.inf, s * e_fft)
    return val, err


def _tilt_vector(x: np.ndarray, expo: np.ndarray, c: float, mode: str) -> tuple[np.ndarray, float]:
    """(x e^{expo - c} computed as exp(log x + expo - c), moved by _TINY to the side of ``mode``, and its relative
    error bound η); see :func:`_tilted_expect` (a)-(b)."""
    with np.errstate(divide="ignore"):
        log_x = np.log(x)
    t = np.exp(log_x + expo - c)
    pos = x > 0.0
    eta = float(np.max(np.expm1(5.0 * _U * (np.abs(log_x[pos]) + np.abs(expo[pos]) + abs(c)) + 6.0 * _U), initial=0.0))
    return (t + _TINY, eta) if mode == "upper" else (np.maximum(t - _TINY, 0.0), eta)


def _expect(v: np.ndarray, kmin: int, h: float, step: GridPLD, mode: str) -> np.ndarray:
    """out[k - kmin] = sum_j pmf_j V~(k + k0 + j) + inf_mass, with V~ = V on the window and, outside it,
    the bound of ``mode``: upper v[0] below (V is nondecreasing in L) and 1 above (every value is <= 1); lower 0
    below and 1 - e^{-L} above (§4c iii).
    The FFT's proven entrywise error bound (numerics.fft_rounding) is added (upper) or subtracted (lower).

    That bound is absolute (about u ||ext|| ||m||), so where V is far below 1 the untilted value is mostly error.
    Below the lattice point from which the values are accurate, the same sum is recomputed through a tilted
    correlation (:func:`_tilted_expect`, exponent from :func:`_next_tilt`), whose proven bound is relative to V
    there, up to ``_MAX_TILTS`` times; the entrywise min (upper) or max (lower) of all the proven values is
    returned, so the result is never looser than the untilted one (docs/replace_one.md §7o)."""
    n, m = len(v), step.pmf
    lo_ext, hi_ext = kmin + step.k0, kmin + n - 1 + step.k0 + len(m) - 1
    k = np.arange(lo_ext, hi_ext + 1)
    if mode == "upper":
        # below the window: V(L) <= V(L_min) <= v[0] (every value function of the game is nondecreasing in L,
        # §7c); above it: V <= 1
        ext = np.where(k < kmin, v[0], 1.0)
    else:
        ext = np.where(k > kmin + n - 1, np.clip(-np.expm1(-k * h), 0.0, 1.0), 0.0)
    a, b = max(kmin, lo_ext), min(kmin + n - 1, hi_ext)
    if a <= b:
        ext[a - lo_ext:b - lo_ext + 1] = v[a - kmin:b - kmin + 1]
    out = scipy.signal.fftconvolve(ext, m[::-1], mode="valid")
    grow = 1.0 + 2.0 * (len(ext) + len(m)) * _U
    e_fft = convolution_entry_error(2 * (len(ext) + len(m)), float(np.linalg.norm(ext)) * grow,
                                    float(np.linalg.norm(m)) * grow, float(m.sum()) * grow)
    out = out + e_fft if mode == "upper" else out - e_fft
    err = np.full(n, e_fft)
    low = n
    for _ in range(_MAX_TILTS):
        r, lam = _next_tilt(out, err, h)
        if lam <= 0.0 or r >= low:
            break  # all accurate, no slope to tilt by, or the last tilt gained nothing
        low = r
        val, e_t = _tilted_expect(ext, lo_ext, kmin, n, h, step, lam, mode)
        better = val < out if mode == "upper" else val > out
        out, err = np.where(better, val, out), np.where(better, e_t, err)
    # a +infinity loss ends the game at value V(+infinity) = 1; the sum is moved one ulp to the side of mode (its
    # rounding is half an ulp), which matters where a tilted value is far below inf_mass
    return np.nextafter(out + step.inf_mass, math.inf if mode == "upper" else -math.inf)


def loss_spread(menu: dict, steps: int, h: float) -> float:
    """12 standard deviations of ``steps`` steps' losses plus their drift, for the widest menu pair (the default
    padding of the lattice window; outside it the bounds of :func:`_expect` apply, so this is a tightness choice)."""
    sd = mean = 0.0
    for s in menu.values():
        x = (s.k0 + np.arange(len(s.pmf))) * h
        mu = float(np.dot(s.pmf, x) / max(s.pmf.sum(), 1e-300))
        sd = max(sd, math.sqrt(float(np.dot(s.pmf, (x - mu) ** 2) / max(s.pmf.sum(), 1e-300))))
        mean = max(mean, abs(mu))
    return 12.0 * sd * math.sqrt(steps) + steps * mean + 10 * h


def terminal_values(k: np.ndarray, h: float, mode: str) -> np.ndarray:
    """V_T(kh) = (1 - e^{-kh})_+ on the lattice, raised by 2u in upper mode (the rounding of expm1)."""
    v = np.clip(-np.expm1(-np.maximum(k * h, 0.0)), 0.0, 1.0)
    return np.minimum(v + 2 * _U, 1.0) if mode == "upper" else v


def read_index(eps: np.ndarray, h: float, mode: str) -> np.ndarray:
    """Lattice index at which δ(ε) is read: L = -ε rounded up (upper) or down (lower); V is nondecreasing in L."""
    return (np.ceil(-eps / h - 1e-12) if mode == "upper" else np.floor(-eps / h + 1e-12)).astype(np.int64)


def game_delta(menu: dict, steps: int, h: float, eps, *, mode: str, window: tuple[float, float] | None = None,
               record_choices: bool = False, record_policy: bool = False, slack: float = 0.0) -> dict:
    r"""Value of the adaptive game over ``menu`` (name -> GridPLD on the lattice h), ``steps`` per-step
    choices, at every epsilon of ``eps``: :math:`V_T(L) = (1 - e^{-L})_+`,
    :math:`V_t(L) = \max_a \sum_j p_a(j) V_{t+1}(L + jh) + p_a(\infty)`, read at :math:`L = -\varepsilon`
    (upper: at the lattice point above, lower: below; V is nondecreasing in L).

    ``window`` (L_min, L_max) of the lattice; outside it V is replaced by the bound of ``mode``
    (:func:`_expect`); by default 12 standard deviations of the composed loss below -max(eps) and
    above 0. Returns {"eps", "delta", "chosen" (per step, the action at the state read for the first
    epsilon), "seconds"}.
    ``record_policy``: also "policy", the maximising action's index at every lattice state of every step (first
    step first), "names" and "kmin", for :func:`policy_usage`.
    ``slack`` (upper mode only): added to every step's value before the clip at 1 — the price of a menu pruned by
    eps-dominance (numerics.grid_dominance.step_slack, docs/replace_one.md §7m).
    """
    if mode not in ("upper", "lower"):
        raise InvalidParameter(f"mode must be 'upper' or 'lower', got {mode!r}")
    if not menu:
        raise InvalidParameter("the menu of one-step pairs is empty")
    if not slack >= 0.0 or (slack > 0.0 and mode != "upper"):
        raise InvalidParameter(f"game_delta: slack must be >= 0 and only in upper mode, got {slack}")
    started = time.perf_counter()
    eps = np.atleast_1d(np.asarray(eps, dtype=float))
    names = list(menu)
    if window is None:
        spread = loss_spread(menu, steps, h)
        window = (-float(eps.max()) - spread, spread)
    kmin, kmax = math.floor(window[0] / h), math.ceil(window[1] / h)
    k = np.arange(kmin, kmax + 1)
    v = terminal_values(k, h, mode)
    read = read_index(eps, h, mode)
    if (read < kmin).any() or (read > kmax).any():
        raise InvalidParameter("game_delta: an epsilon lies outside the window")
    chosen, policy = [], []
    for _ in range(steps):
        vals = np.array([_expect(v, kmin, h, menu[a], mode) for a in names])
        best = np.argmax(vals, axis=0)
        if record_choices:
            chosen.append(names[int(best[read[0] - kmin])])
        if record_policy:
            policy.append(best.astype(np.int32))
        v = np.clip(vals.max(axis=0) + slack, 0.0, 1.0)
    chosen.reverse()  # backward induction: the first computed choice is the last step's
    policy.reverse()
    out = {"eps": eps, "delta": v[read - kmin], "chosen": chosen, "window": (kmin * h, kmax * h),
           "seconds": time.perf_counter() - started}
    if record_policy:
        out.update(policy=policy, names=names, kmin=kmin, read=read)
    return out


def policy_usage(menu: dict, res: dict, which: int = 0) -> dict:
    r"""How much each action is used by the maximising policy of a ``game_delta(..., record_policy=True)``
    result, started at the state read for ``eps[which]``: {name: total probability, under the first laws of
    the chosen pairs, of the states (t, L) inside the window where it is chosen}. A bookkeeping number for
    choosing where to refine a menu (§7j), not a bound."""
    names, kmin, policy = res["names"], res["kmin"], res["policy"]
    n = len(policy[0])
    mass = np.zeros(n)
    mass[int(res["read"][which]) - kmin] = 1.0
    usage = dict.fromkeys(names, 0.0)
    for best in policy:
        nxt = np.zeros(n)
        for i in np.unique(best[mass > 0]):
            part = np.where(best == i, mass, 0.0)
            usage[names[i]] += float(part.sum())
            step = menu[names[i]]
            moved = scipy.signal.fftconvolve(part, step.pmf)          # index shift: step.k0
            lo = step.k0
            a, b = max(0, lo), min(n, lo + len(moved))
            if a < b:
                nxt[a:b] += np.clip(moved[a - lo:b - lo], 0.0, None)
        mass = nxt
    return usage


# --------------------------------------------------------------------------------------------------
# bounds
# --------------------------------------------------------------------------------------------------

def symmetrised_upper(*, g: float, sigma: float, steps: int, eps, h: float, tail: float = 1e-14) -> dict:
    """Proven upper bound on delta*(eps): the game over the menu {S} (docs/replace_one.md §3, §7c)."""
    grids = order_grids(g, sigma, h, tail / steps)
    return game_delta({"S": grids["S"]}, steps, h, eps, mode="upper")


def orders_lower(*, g: float, sigma: float, steps: int, eps, h: float, tail: float = 1e-14,
                 actions=("PQ", "QP")) -> dict:
    """Certified lower bound: per-step adaptive choice among the merged lower grids of ``actions``."""
    grids = order_grids(g, sigma, h, tail / steps)
    return game_delta({a: grids["lower"][a] for a in actions}, steps, h, eps, mode="lower", record_choices=True)


def orders_upper(*, g: float, sigma: float, steps: int, eps, h: float, tail: float = 1e-14) -> dict:
    """Upper bound on the value of the game restricted to the two orders PQ, QP (NOT on delta*: the two
    orders do not dominate the family, docs §5, §7d): Theorem G with the menu of their connect-the-dots
    grids, each dominating its order. Used to certify that the family's lower bound exceeds it."""
    grids = order_grids(g, sigma, h, tail / steps)
    return game_delta(dict(grids["upper"]), steps, h, eps, mode="upper", record_choices=True)


def family_lower(*, g: float, sigma: float, steps: int, eps, h: float, m: int = 12,
                 cells: tuple[int, int] = (600, 160), extra: dict | None = None) -> dict:
    """Certified lower bound: per-step adaptive choice among the triangle pairs of :func:`triangle_menu`
    (m points on the circle), each through its exact rectangle masses merged onto the lattice, plus the
    one-dimensional lower grids in ``extra``. Returns :func:`game_delta`'s dict and ``menu_size``."""
    menu = {f"tri({a:.4f},{b:.4f})": triangle_grid(g, sigma, a, b, h, cells) for a, b in triangle_menu(m)}
    if extra:
        menu.update(extra)
    out = game_delta(menu, steps, h, eps, mode="lower", record_choices=True)
    out["menu_size"] = len(menu)
    return out


# --------------------------------------------------------------------------------------------------
# with-replacement under replace-one (docs/replace_one.md §7f)
# --------------------------------------------------------------------------------------------------

def mixture_hockey_stick(p_mix, q_mix, sigma: float, alpha: float) -> float:
    r""":math:`H_\alpha(P\|Q)` for one-dimensional Gaussian location mixtures ``p_mix``, ``q_mix`` (tuples of
    (mean, weight)), noise ``sigma``: the sign changes of :math:`p - \alpha q` are bracketed on a grid of
    spacing sigma/400 over the means +- 14 sigma and refined by brentq; the masses of the intervals where
    it is positive are exact normal CDF differences."""
    from scipy import optimize

    means = [m for m, _ in p_mix] + [m for m, _ in q_mix]
    lo, hi = min(means) - 14.0 * sigma, max(means) + 14.0 * sigma
    y = np.arange(lo, hi, sigma / 400.0) + math.sqrt(2.0) * 1e-5 * sigma

    def dens(mix, z):
        return sum(w * np.exp(-0.5 * ((z - m) / sigma) ** 2) for m, w in mix)

    def f(z):
        return dens(p_mix, z) - alpha * dens(q_mix, z)
    fy = f(y)
    edges = [-math.inf]
    for i in np.nonzero(np.sign(fy[:-1]) * np.sign(fy[1:]) < 0)[0]:
        edges.append(optimize.brentq(lambda z: float(f(z)), y[i], y[i + 1], xtol=1e-14))
    edges.append(math.inf)

    def mass(mix, a, b):
        return sum(w * float(_interval_masses(np.array([a, b]) / sigma, m / sigma)[0]) for m, w in mix)
    total = 0.0
    for a, b in zip(edges[:-1], edges[1:]):
        mid = 0.5 * (max(a, lo) + min(b, hi))
        if float(f(mid)) > 0:
            total += mass(p_mix, a, b) - alpha * mass(q_mix, a, b)
    return max(total, 0.0)


def with_replacement_counterexample(*, b: int, n: int, sigma: float, others, log_alphas=None) -> dict:
    r"""The symmetrised copies pair does NOT dominate a with-replacement replace-one step (§7f).

    Step: b draws with replacement from n scalar records, the record differing is +1 in D and -1 in D',
    the other n - 1 records have the gradients ``others``. Candidate dominating profile:
    :math:`\max(H_\alpha(C\|N(0)), H_\alpha(N(0)\|C))`, :math:`C = \sum_k \pi_k N(2k)`, :math:`\pi` = Bin(b, 1/n)
    (the realizable copies pair of numerics.dominating and its reverse). Returns the largest excess of
    the step's profile over it on the grid ``log_alphas`` (default [-2, 2], step 0.05) and where."""
    import itertools
    from scipy import stats

    if len(others) != n - 1:
        raise InvalidParameter("others must list the gradients of the other n - 1 records")
    law_p, law_q = {}, {}
    for seq in itertools.product(range(n), repeat=b):
        k = sum(1 for i in seq if i == 0)
        rest = sum(others[i - 1] for i in seq if i != 0)
        for law, target in ((law_p, 1.0), (law_q, -1.0)):
            m = round(rest + k * target, 12)
            law[m] = law.get(m, 0.0) + float(n) ** -b
    pi = stats.binom(b, 1.0 / n).pmf(np.arange(b + 1))
    c = tuple((2.0 * k, float(pi[k])) for k in range(b + 1))
    n0 = ((0.0, 1.0),)
    p_mix, q_mix = tuple(sorted(law_p.items())), tuple(sorted(law_q.items()))
    grid = np.arange(-2.0, 2.0001, 0.05) if log_alphas is None else np.asarray(log_alphas, float)
    best = (-math.inf, None)
    for la in grid:
        a = math.exp(la)
        ex = mixture_hockey_stick(p_mix, q_mix, sigma, a) - max(mixture_hockey_stick(c, n0, sigma, a),
                                                                mixture_hockey_stick(n0, c, sigma, a))
        if ex > best[0]:
            best = (ex, float(la))
    return {"excess": best[0], "log_alpha": best[1], "step": (p_mix, q_mix), "copies": c}


# --------------------------------------------------------------------------------------------------
# a proven finite cover of the triangle family (docs/replace_one.md §7i, route 1 of §7e)
# --------------------------------------------------------------------------------------------------

def _wedge_moment(s, psi: float, sigma: float, n: int = 1500, reach: float = 12.0):
    r"""Upper bound on :math:`\sup_{A \subseteq W} |E[f(Z); Z \in A]|`, Z standard normal in the plane,
    :math:`f = (Z_t^2 - 1)/\sigma^2 - Z_u/\sigma` (:math:`\partial_\theta^2 \varphi / \varphi`, §7i step 3),
    W = {z: <z, e> > s for some unit e in an arc of width ``psi``} (§7i step 4). ``s`` a number (returns a float) or
    an array of thresholds (returns one bound per threshold; one vectorised sum, §7r).

    Two bounds, the smaller is returned. (i) Whole plane: E f = 0, so for every event A,
    :math:`|E[f; A]| \le E[f_+] = E[f_-] = E|f|/2 \le (E|Z_t^2 - 1|/\sigma^2 + E|Z_u|/\sigma)/2`
    (docs/replace_one.md §7k step 6). (ii) The wedge: :math:`|E[f; A]| \le E[c(|Z|); W]`,
    :math:`c(r) = (r^2 + 1)/\sigma^2 + r/\sigma \ge |f|`. For s <= 0 only (i) is used; for s > 0 the fraction
    of the circle of radius r inside W is 0 below r = s and min(1, (psi + 2 arccos(s/r)) / 2 pi) above,
    nondecreasing in r. The radial integral is an upper Riemann sum on [s, s + reach] (each factor bounded on
    each piece: c and the fraction at the right end, r e^{-r^2/2} at its maximum on the piece) plus the exact
    tail beyond with fraction 1."""
    # E|Z^2 - 1| = 4 φ(1), E|Z| = sqrt(2/π); halved because f has mean 0 (the optimal A takes f_+ only)
    full = 0.5 * (4.0 * math.exp(-0.5) / math.sqrt(2.0 * math.pi) / sigma ** 2
                  + math.sqrt(2.0 / math.pi) / sigma) * (1.0 + 1e-12)
    scalar = np.ndim(s) == 0
    s = np.atleast_1d(np.asarray(s, dtype=float))
    out = np.full(s.shape, full)
    pos = s > 0.0
    if pos.any():
        a = s[pos][:, None]
        r = a + np.linspace(0.0, reach, n + 1)[None, :]  # any partition of [a, a + reach] gives an upper sum
        lo, hi = r[:, :-1], r[:, 1:]
        peak = np.clip(1.0, lo, hi)
        dens = peak * np.exp(-0.5 * peak ** 2)
        frac = np.minimum(1.0, (psi + 2.0 * np.arccos(np.minimum(1.0, a / hi))) / (2.0 * math.pi))
        body = np.sum(dens * ((hi ** 2 + 1.0) / sigma ** 2 + hi / sigma) * frac * (hi - lo), axis=1)
        big = r[:, -1]
        e = np.exp(-0.5 * big * big)
        tail = ((big * big + 2.0) * e + e) / sigma ** 2 + (big * e + math.sqrt(2.0 * math.pi) * ndtr(-big)) / sigma
        out[pos] = np.minimum(full, (body + tail) * (1.0 + 1e-9))
    return float(out[0]) if scalar else out


def _chord_range(a: float, b: float) -> tuple[float, float]:
    """min and max of the chord length 2|sin(x/2)| over x in [a, b]."""
    vals = [abs(2.0 * math.sin(a / 2.0)), abs(2.0 * math.sin(b / 2.0))]
    lo, hi = min(vals), max(vals)
    if math.floor(b / (2.0 * math.pi)) > math.floor(a / (2.0 * math.pi) - 1e-15) or a % (2 * math.pi) == 0.0:
        lo = 0.0  # a multiple of 2 pi lies in [a, b]
    if math.floor((b - math.pi) / (2.0 * math.pi)) >= math.ceil((a - math.pi) / (2.0 * math.pi)):
        hi = 2.0  # an odd multiple of pi lies in [a, b]
    return lo, hi


def _projection_floor(cu: tuple[float, float], cv: tuple[float, float]) -> float:
    r"""Lower bound over the cell of f = <u - v, p̂>, p̂ = (u - w)/|u - w| (§7i step 5): its value at the
    centre minus its Lipschitz bound (|∂_u f| <= 2: |u'| = 1, |d| <= 2 and p̂ turns at rate 1/2;
    |∂_v f| <= 1); never below -2 (|u - v| <= 2), which is the bound where p̂ is undefined (u = w; the
    region is then bounded in every direction, psi = 2 pi)."""
    if _chord_range(*cu)[0] == 0.0:
        return -2.0
    tu, tv = 0.5 * (cu[0] + cu[1]), 0.5 * (cv[0] + cv[1])
    u = np.array([math.cos(tu), math.sin(tu)])
    v = np.array([math.cos(tv), math.sin(tv)])
    p = u - np.array([1.0, 0.0])
    centre = float((u - v) @ p) / float(np.linalg.norm(p))
    return max(centre - (cu[1] - cu[0]) - 0.5 * (cv[1] - cv[0]) - 1e-12, -2.0)


def cell_slack(g: float, sigma: float, cu: tuple[float, float], cv: tuple[float, float], beta, beta_hi):
    r"""Upper bound, for every :math:`\beta' \in [\beta, \beta_{hi}]` (beta >= 1), on the slack
    :math:`(\kappa_u \Delta_u^2 + \kappa_v \Delta_v^2)/8` of §7i Lemma C on the cell
    ``cu`` x ``cv`` = [θu0, θu1] x [θv0, θv1] (w at angle 0): κ_u bounds
    :math:`|\partial^2_{\theta_u} P_{\theta_u}(A)|` and κ_v bounds :math:`\beta' |\partial^2_{\theta_v} Q_{\theta_v}(A)|`
    over every event A inside the union of the optimal events of the cell's members (§7i steps 4-5).
    The regions shrink as β grows, so the thresholds are taken at ``beta`` and the factor β at ``beta_hi``.
    ``beta``, ``beta_hi``: numbers (returns a float) or arrays of the intervals' ends (one slack per interval)."""
    scalar = np.ndim(beta) == 0
    beta, beta_hi = np.atleast_1d(np.asarray(beta, float)), np.atleast_1d(np.asarray(beta_hi, float))
    du, dv = cu[1] - cu[0], cv[1] - cv[0]
    p_lo, p_hi = _chord_range(*cu)
    d_lo, d_hi = _chord_range(cu[0] - cv[1], cu[1] - cv[0])
    psi_p = 2.0 * math.pi if p_lo == 0.0 else du / 2.0
    psi_d = 2.0 * math.pi if d_lo == 0.0 else (du + dv) / 2.0
    with np.errstate(divide="ignore", invalid="ignore"):
        # P-part: the optimal event lies in {g phi(y - u) > (beta - 1)(1 - g) phi(y - w)} (§7i step 4)
        c = (beta - 1.0) * (1.0 - g) / g
        log_c = np.log(np.where(c > 0.0, c, 1.0))
        s = np.where(c <= 1.0, sigma * log_c / p_lo, sigma * log_c / p_hi) - p_hi / (2.0 * sigma)
        s = np.where((c <= 0.0) | ((c <= 1.0) & (p_lo == 0.0)), -math.inf, s)
        # Q-part: it lies in {phi(y - u) > beta phi(y - v)}
        lb = np.log(beta)
        dstar = np.clip(sigma * np.sqrt(2.0 * lb), d_lo, d_hi)
        t = np.where(lb == 0.0, d_lo / (2.0 * sigma), sigma * lb / dstar + dstar / (2.0 * sigma))
        # each optimal event lies in BOTH regions; seen from the other centre each is again a rounded wedge
        # (§7i step 5), so each κ takes the smaller of the two moments
        s_d = sigma * lb / d_hi - d_hi / (2.0 * sigma) if d_hi > 0.0 else np.full(beta.shape, math.inf)
    f_lo = _projection_floor(cu, cv)
    kappa_u = g * np.minimum(_wedge_moment(s - du / sigma, psi_p, sigma),
                             _wedge_moment(s_d - du / sigma, psi_d, sigma))
    kappa_v = beta_hi * g * np.minimum(_wedge_moment(t - dv / sigma, psi_d, sigma),
                                       _wedge_moment(s + (f_lo - dv) / sigma, psi_p, sigma))
    out = (kappa_u * du * du + kappa_v * dv * dv) / 8.0
    return float(out[0]) if scalar else out


# Lemma C's curvature bound over the intersection of two rounded wedges, with the split f = f_+ - f_- and the
# orientation of f (docs/replace_one.md §7l). The plane of Z (the noise seen from the centre where the curvature is
# taken) is cut into polar boxes; every quantity is bounded on every box, every rounding upward.
_POLAR = {}


def _polar_boxes(sigma: float, n_r: int = 480, n_a: int = 720, reach: float = 10.0) -> dict:
    r"""Polar boxes [r0, r1] x [φ0, φ1] (φ measured from the radial direction u(θ'), n_a a multiple of 4 so that no box
    straddles a multiple of π/2, where cos and sin² are monotone, so their ranges on a box are its end values), with
    upper bounds on :math:`\int_{box} f_\pm \varphi` for f = (Z_t² − 1)/σ² − Z_r/σ (Z_r = r cos φ, Z_t = r sin φ):
    f's range on the box from the ranges of r, cos φ, sin² φ, times the box's exact Gaussian mass; and the exact
    bound :math:`\int_{r > reach} c(r) r e^{-r^2/2} dr` (c(r) = (r² + 1)/σ² + r/σ >= |f|) for outside (§7l step 3)."""
    key = (sigma, n_r, n_a, reach)
    if key in _POLAR:
        return _POLAR[key]
    if n_a % 4:
        raise InvalidParameter("_polar_boxes: n_a must be a multiple of 4")
    re = np.linspace(0.0, reach, n_r + 1)
    pe = np.linspace(0.0, 2.0 * math.pi, n_a + 1)
    r0, r1 = re[:-1, None], re[1:, None]
    c_ends, s_ends = np.cos(pe), np.sin(pe) ** 2
    c_lo = np.minimum(c_ends[:-1], c_ends[1:])[None, :] - 1e-12
    c_hi = np.maximum(c_ends[:-1], c_ends[1:])[None, :] + 1e-12
    s_lo = np.clip(np.minimum(s_ends[:-1], s_ends[1:]) - 1e-12, 0.0, None)[None, :]
    s_hi = np.maximum(s_ends[:-1], s_ends[1:])[None, :] + 1e-12
    f_hi = (r1 ** 2 * s_hi - 1.0) / sigma ** 2 - np.minimum(r0 * c_lo, r1 * c_lo) / sigma
    f_lo = (r0 ** 2 * s_lo - 1.0) / sigma ** 2 - np.maximum(r0 * c_hi, r1 * c_hi) / sigma
    # P(r in [r0, r1]) = e^{-r0²/2} - e^{-r1²/2}, the angle uniform
    mass = (np.exp(-0.5 * r0 ** 2) - np.exp(-0.5 * r1 ** 2)) * (1.0 + 1e-12) * (np.diff(pe)[None, :] / (2.0 * math.pi))
    e = math.exp(-0.5 * reach * reach)
    tail = ((reach * reach + 2.0) * e + e) / sigma ** 2 \
        + (reach * e + math.sqrt(2.0 * math.pi) * float(ndtr(-reach))) / sigma
    out = {"r0": r0, "r1": r1, "phi": pe, "plus": np.clip(f_hi, 0.0, None) * mass,
           "minus": np.clip(-f_lo, 0.0, None) * mass, "tail": tail}
    _POLAR[key] = out
    return out


def _box_reach(boxes: dict, arc: tuple[float, float]) -> np.ndarray:
    r"""Per polar box, an upper bound on max ⟨z, e⟩ over z in the box and unit e at angle γ ∈ ``arc`` (angles measured
    in the same frame as the boxes): r1 · max cos(φ − γ) if that max is positive, else r0 · max cos (φ − γ ranges in
    one interval; its cos is maximal at a multiple of 2π inside it, else at an end)."""
    pe = boxes["phi"]
    lo, hi = pe[:-1] - arc[1], pe[1:] - arc[0]
    has_zero = np.floor(hi / (2.0 * math.pi)) >= np.ceil(lo / (2.0 * math.pi))
    mc = np.where(has_zero | (hi - lo >= 2.0 * math.pi), 1.0, np.maximum(np.cos(lo), np.cos(hi)) + 1e-12)[None, :]
    return np.where(mc > 0.0, boxes["r1"] * mc, boxes["r0"] * mc) + 1e-12


def _region_moment(sigma: float, arcs, thresholds) -> np.ndarray:
    r"""Per k, an upper bound on :math:`\sup_A |E[f(Z); Z \in A]|` over events A inside the intersection of the rounded
    wedges W_i = {z: ⟨z, e⟩ > thresholds[i][k] for some unit e at an angle in arcs[i]} (angles from the radial
    direction of the frame of f, §7l step 2): max(Σ plus, Σ minus) over the boxes that may meet every W_i, plus the
    tail. The thresholds are first lowered to their running minimum from the right (a lower threshold is a larger
    wedge), so they are nondecreasing in k; a box meets W_i for query k only if k < n_i, n_i the number of thresholds
    <= the box's reach, so it is counted for the queries k < min_i n_i (one bincount for all k)."""
    boxes = _polar_boxes(sigma)
    count = None
    for arc, th in zip(arcs, thresholds):
        th = np.minimum.accumulate(np.asarray(th, float)[::-1])[::-1]
        n = np.searchsorted(th, _box_reach(boxes, arc), side="right")
        count = n if count is None else np.minimum(count, n)
    k = len(thresholds[0])
    out = []
    for part in ("plus", "minus"):
        per = np.bincount(count.ravel(), weights=boxes[part].ravel(), minlength=k + 1)
        out.append(np.cumsum(per[::-1])[::-1][1:])  # sum over boxes with count > k
    return (np.maximum(out[0], out[1]) + boxes["tail"]) * (1.0 + 1e-9)


def _cell_arcs(cu: tuple[float, float], cv: tuple[float, float]) -> dict:
    r"""Absolute angle ranges of p̂ = (u − w)/|u − w| and d̂ = (u − v)/|u − v| over the cell (w at angle 0): p = 2 sin(θu/2)
    (−sin(θu/2), cos(θu/2)) has angle θu/2 + π/2 for θu ∈ (0, 2π); d = 2 sin((θu − θv)/2)(−sin m, cos m), m = (θu + θv)/2,
    has angle m + π/2 or m − π/2 by the sign of sin((θu − θv)/2), constant on the cell when d cannot vanish there
    (§7i step 4). Where p or d can vanish the range is the whole circle."""
    full = (0.0, 2.0 * math.pi)
    p = full if _chord_range(*cu)[0] == 0.0 or cu[0] < 0.0 or cu[1] > 2.0 * math.pi \
        else (cu[0] / 2.0 + math.pi / 2.0, cu[1] / 2.0 + math.pi / 2.0)
    if _chord_range(cu[0] - cv[1], cu[1] - cv[0])[0] == 0.0:
        d = full
    else:
        sign = 1.0 if math.sin((cu[0] + cu[1] - cv[0] - cv[1]) / 4.0) > 0.0 else -1.0
        d = ((cu[0] + cv[0]) / 2.0 + sign * math.pi / 2.0, (cu[1] + cv[1]) / 2.0 + sign * math.pi / 2.0)
    return {"p": p, "d": d}


def _relative(arc: tuple[float, float], frame: tuple[float, float]) -> tuple[float, float]:
    """The angles of arc seen from a frame whose radial direction has an angle in ``frame``: an interval containing
    every difference (the whole circle stays whole)."""
    if arc[1] - arc[0] >= 2.0 * math.pi:
        return arc
    return arc[0] - frame[1], arc[1] - frame[0]


def _thresholds(g: float, sigma: float, cu, cv, betas: np.ndarray) -> dict:
    """The wedge thresholds of :func:`cell_slack` (§7i steps 4-5) at every β of ``betas``, vectorised: the same
    formulas, one value per β."""
    p_lo, p_hi = _chord_range(*cu)
    d_lo, d_hi = _chord_range(cu[0] - cv[1], cu[1] - cv[0])
    c = (betas - 1.0) * (1.0 - g) / g
    with np.errstate(divide="ignore"):
        logc = np.log(c)
    s = np.where(c <= 0.0, -math.inf, np.where(c <= 1.0, sigma * logc / p_lo if p_lo > 0 else -math.inf,
                                               sigma * logc / p_hi) - p_hi / (2.0 * sigma))
    s = np.where((c <= 1.0) & (p_lo == 0.0), -math.inf, s)
    lb = np.log(betas)
    dstar = np.clip(sigma * np.sqrt(2.0 * lb), d_lo, d_hi)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(lb == 0.0, d_lo / (2.0 * sigma), sigma * lb / dstar + dstar / (2.0 * sigma))
    s_d = sigma * lb / d_hi - d_hi / (2.0 * sigma) if d_hi > 0.0 else np.full_like(lb, math.inf)
    return {"s": s, "t": t, "s_d": s_d, "f_lo": _projection_floor(cu, cv)}


def _sharp_kappas(g: float, sigma: float, cu, cv, betas: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    r"""The curvature bounds of §7l on the cell ``cu`` x ``cv``, per interval [β_k, β_{k+1}] (thresholds at β_k):
    κ_u >= sup |∂²_θu P_θ'u(A)| and κ_v / β >= sup |∂²_θv Q_θ'v(A)| over θ' in the cell and A inside the optimal
    events of the cell's members at any β' >= β_k. κ_u from the intersection of the two wedges seen from u(θ'), with
    the arcs of p̂ and d̂ relative to the frame of u(θ'); κ_v the same from v(θ'); each capped by the whole-plane value
    (§7k step 6). Returns (κ_u, κ_v / β_{k+1}), i.e. without the factor β."""
    du, dv = cu[1] - cu[0], cv[1] - cv[0]
    th = _thresholds(g, sigma, cu, cv, betas[:-1])
    arcs = _cell_arcs(cu, cv)
    cap = _wedge_moment(-1.0, 0.0, sigma)
    m_u = _region_moment(sigma, [_relative(arcs["p"], cu), _relative(arcs["d"], cu)],
                         [th["s"] - du / sigma, th["s_d"] - du / sigma])
    m_v = _region_moment(sigma, [_relative(arcs["d"], cv), _relative(arcs["p"], cv)],
                         [th["t"] - dv / sigma, th["s"] + (th["f_lo"] - dv) / sigma])
    return g * np.minimum(m_u, cap), g * np.minimum(m_v, cap)


def _sharp_slack(g: float, sigma: float, cu, cv, betas: np.ndarray) -> np.ndarray:
    """Lemma C's slack (κ_u Δu² + κ_v Δv²)/8 on the cell ``cu`` x ``cv`` on every interval [β_k, β_{k+1}] with the
    curvatures of :func:`_sharp_kappas` (the factor β at β_{k+1})."""
    du, dv = cu[1] - cu[0], cv[1] - cv[0]
    kappa_u, kappa_q = _sharp_kappas(g, sigma, cu, cv, betas)
    return (kappa_u * du * du + betas[1:] * kappa_q * dv * dv) / 8.0

def _gaussian_profile(sigma: float, betas: np.ndarray) -> np.ndarray:
    r""":math:`H_\beta(N(2e) \| N(0))` at noise sigma (the pair G of §7i, the full batch), in closed form; the
    difference has relative cancellation at most (log β / μ² + 1) (a few dozen here), far inside the
    1e-9 margin that :func:`cover_weights` divides by."""
    mu = 2.0 / sigma
    x = np.log(betas) / mu
    return ndtr(mu / 2.0 - x) - betas * ndtr(-mu / 2.0 - x)


def charge_floors(g: float, sigma: float, rates=(1.0,), log_beta_max: float = 12.0,
                  n_beta: int = 240) -> tuple[np.ndarray, np.ndarray]:
    r"""The β grid of Theorems C and C″ and, per charge pair S_r (r in ``rates``, g < r <= 1; S_1 = G), a lower
    bound on each [β_k, β_{k+1}] of what S_r is worth above every member K of the triangle family
    (docs/replace_one.md §7k step 1): :math:`H_\beta(S_r) - H_\beta(K) \ge (1 - g/r) E_\beta(S_r)
    \ge (1 - g/r)\, r\, H_{1 + (\beta - 1)/r}(G)` (§2a identity for the first order of S_r), taken at
    β_{k+1} (every term is nonincreasing in β >= 1), lowered by 1e-9 relative and clipped at 0 (a lower
    floor only asks for more weight). Row r = 1 is (1 - g) H_β(G), the floor of §7i step 7.
    Returns (betas, floors of shape (len(rates), n_beta))."""
    betas = np.exp(np.linspace(0.0, log_beta_max, n_beta + 1))
    rows = [(1.0 - g / r) * r * _gaussian_profile(sigma, 1.0 + (betas[1:] - 1.0) / r) for r in rates]
    return betas, np.clip(np.array(rows) * (1.0 - 1e-9), 0.0, None)


def cell_slack_profile(g: float, sigma: float, cu: tuple[float, float], cv: tuple[float, float],
                       betas: np.ndarray, sharp: bool = True) -> np.ndarray:
    """Per β interval [β_k, β_{k+1}], the larger of Lemma C's slack on the cell and on its swap (θv, θu) (the swap
    covers α < 1, §7i step 6): what the charge pairs must pay for on that interval. ``sharp``: the curvature bounds of
    §7l (:func:`_sharp_slack`, both proven, the smaller taken); False: §7i's :func:`cell_slack` alone."""
    old = np.maximum(cell_slack(g, sigma, cu, cv, betas[:-1], betas[1:]),
                     cell_slack(g, sigma, cv, cu, betas[:-1], betas[1:]))
    if not sharp:
        return old
    new = np.maximum(_sharp_slack(g, sigma, cu, cv, betas), _sharp_slack(g, sigma, cv, cu, betas))
    return np.minimum(old, new)


def charge_weights(slack: np.ndarray, floors: np.ndarray, cost, cap: float = 0.5, limits=None) -> np.ndarray:
    r"""Weights w >= 0, one per charge pair, with :math:`\sum_i w_i\, \mathrm{floors}_{ik} \ge \mathrm{slack}_k`
    for every β interval k and Σ w <= ``cap`` (the corner member keeps weight; the linear cost model is a first-order
    one), minimising ``cost`` · w (§7k step 3; a linear programme, scipy's HiGHS). ``limits``: optional upper
    bounds, one per charge pair, asked of the LP (§7s: a heavy-tailed charge's price is not linear in its weight);
    when the LP cannot meet them the answer is the fallback below and may exceed them (the caller checks). The solver's
    answer is only a proposal: it is scaled up until every constraint holds in floating point with a 1e-12
    margin (which covers the rounding of the few-term sums), so its accuracy cannot affect soundness. One
    charge pair: w = max_k slack_k / floor_k (τ of §7i). No feasible w (a floor 0 where the slack is not):
    +inf, i.e. the corner pair falls back to G (§7i step 7)."""
    from scipy.optimize import linprog

    need = slack > 0.0
    if not need.any():
        return np.zeros(len(floors))
    f, r = floors[:, need], slack[need]
    if (f.max(axis=0) <= 0.0).any():
        return np.full(len(floors), math.inf)
    # always feasible: each interval paid by its largest floor (for one charge pair, the optimum)
    best = np.argmax(f, axis=0)
    w = np.array([float(np.max(r[best == i] / f[i, best == i])) if (best == i).any() else 0.0
                  for i in range(len(f))])
    if len(f) > 1:
        # Scaled (§7r): the slacks divided by their largest, R, and row k by its slack (rhs 1). Unscaled, slacks below
        # the solver's feasibility tolerance (1e-7; at g ~ 1e-3 every slack is) let w ≈ 0 pass as optimal and the
        # fallback, far dearer, was taken. Entries are capped at 1e12 (a smaller coefficient only asks for more
        # weight: the far-tail rows, whose slacks are 1e-12 of the largest and less, then cost weights ~1e-12 R).
        scale = float(r.max())
        with np.errstate(over="ignore"):
            a = np.minimum(f / (r / scale), 1e12)
        res = linprog(np.asarray(cost, float), A_ub=np.vstack([-a.T, np.ones((1, len(f)))]),
                      b_ub=np.append(-np.ones(len(r)), cap / scale), method="highs",
                      bounds=[(0.0, None if limits is None or not math.isfinite(x) else x / scale)
                              for x in (np.full(len(f), math.inf) if limits is None else limits)])
        if res.status == 0 and (res.x @ f > 0.0).all():
            w = np.clip(res.x, 0.0, None) * scale
    return w * max(1.0, float(np.max(r / (w @ f)))) * (1.0 + 1e-12)


def cell_tau(g: float, sigma: float, cu: tuple[float, float], cv: tuple[float, float], *,
             log_beta_max: float = 12.0, n_beta: int = 240) -> float:
    r"""τ_C of §7i step 7 for the cell ``cu`` x ``cv``: the largest ratio, over the β grid, of the slack of
    Lemma C (the cell and its swap (θv, θu), which covers α < 1) to (1 - g) H_β(G). Any rectangle of the
    torus is a cell: Lemma C uses only the cell's own corners and side lengths (§7j)."""
    return float(cell_weights(g, sigma, cu, cv, log_beta_max=log_beta_max, n_beta=n_beta)[0])


def cell_weights(g: float, sigma: float, cu: tuple[float, float], cv: tuple[float, float], *, rates=(1.0,),
                 cost=None, log_beta_max: float = 12.0, n_beta: int = 240) -> np.ndarray:
    r"""The charge weights of the cell ``cu`` x ``cv`` (Theorem C″, docs/replace_one.md §7k): one weight per
    charge pair S_r, r in ``rates`` (S_1 = G), such that on every interval of the β grid the weighted floors of
    :func:`charge_floors` cover Lemma C's slack on the cell and its swap; among those, the least ``cost`` · w
    (default cost: all 1)."""
    betas, floors = charge_floors(g, sigma, rates, log_beta_max, n_beta)
    slack = cell_slack_profile(g, sigma, cu, cv, betas)
    return charge_weights(slack, floors, np.ones(len(floors)) if cost is None else cost)


def _eta(g: float, sigma: float, log_beta_max: float) -> float:
    """η >= g H_{β_max}(G)/(1 - g) (§7i step 7: the far tails)."""
    return g * float(_gaussian_profile(sigma, np.array([math.exp(log_beta_max)]))[0]) / (1.0 - g) * (1.0 + 1e-9) + 1e-300


def cover_weights(g: float, sigma: float, n_cells: int, *, log_beta_max: float = 12.0,
                  n_beta: int = 240) -> dict:
    r"""The mixing weights of the proven cover of §7i on the uniform n_cells x n_cells grid of the torus
    of angles (θu, θv): for every cell, τ with
    slack(β) <= τ (1 - g) H_β(G) for β in [1, e^{log_beta_max}] for the cell and its swap (θv, θu)
    (the swap covers α < 1, §7i step 6); and the one η >= g H_{β_max}(G) / (1 - g) for the
    far tails (step 7). Returns {"tau": array (n_cells, n_cells) indexed by cell (i, j), "eta", "beta_max"}."""
    if not 0.0 < g < 1.0:
        raise InvalidParameter(f"cover_weights: g must lie in (0, 1), got {g}")
    if n_cells < 4:
        raise InvalidParameter("cover_weights: at least 4 cells per angle")
    step = 2.0 * math.pi / n_cells
    tau = np.full((n_cells, n_cells), np.nan)
    for i in range(n_cells):
        for j in range(n_cells):
            if not np.isnan(tau[n_cells - 1 - i, n_cells - 1 - j]):
                # the reflection (θu, θv) -> (-θu, -θv) maps the cell onto that one, same pairs
                tau[i, j] = tau[n_cells - 1 - i, n_cells - 1 - j]
                continue
            tau[i, j] = cell_tau(g, sigma, (i * step, (i + 1) * step), (j * step, (j + 1) * step),
                                 log_beta_max=log_beta_max, n_beta=n_beta)
    return {"tau": tau, "eta": _eta(g, sigma, log_beta_max), "beta_max": math.exp(log_beta_max)}


def mix_grids(parts) -> GridPLD:
    r"""The public-coin mixture :math:`\sum_i w_i A_i` of grid pairs on one lattice, ``parts`` = [(w_i, A_i)]:
    its first-law PMF is the weighted sum (a mixture of pairs that each dominate B_i dominates
    :math:`\sum w_i B_i`, since the profile is linear under public-coin mixtures)."""
    lo = min(a.k0 for _, a in parts if len(a.pmf))
    hi = max(a.k0 + len(a.pmf) for _, a in parts if len(a.pmf))
    pmf = np.zeros(hi - lo)
    inf_mass = 0.0
    for w, a in parts:
        pmf[a.k0 - lo:a.k0 - lo + len(a.pmf)] += w * a.pmf
        inf_mass += w * a.inf_mass
    return GridPLD(lo, pmf, inf_mass)


def full_batch_grid(sigma: float, h: float, tail: float) -> GridPLD:
    """Connect-the-dots grid dominating G = (N(2e), N(0)) at noise sigma: the step with the whole batch
    (g = 1), which dominates every member of the triangle family at every alpha (§7i step 1)."""
    return discretise_pessimistic(step_pair("PQ", 1.0, sigma), h, tail)


def _exponent_range(lo: np.ndarray, hi: np.ndarray, m: float) -> tuple[np.ndarray, np.ndarray]:
    """Smallest and largest value of y*m over each [lo, hi] (linear in y: at the ends)."""
    return np.minimum(lo * m, hi * m), np.maximum(lo * m, hi * m)


def triangle_upper_grid(g: float, sigma: float, theta_u: float, theta_v: float, h: float,
                        cells: tuple[int, int] = (1000, 1000), reach: float = 9.0) -> GridPLD:
    r"""A lattice grid pair that DOMINATES the triangle pair K(p, q) of (θu, θv) (w at angle 0), §7i step 8.

    The plane (unit noise, frame e1 ∥ p - q) is cut into rectangles R with exact masses P(R), Q(R) and a
    loss range [ℓ_lo, ℓ_hi] ⊇ ℓ(R): dP/dQ = ((1-g) + g ρ_p)/((1-g) + g ρ_q) with
    ρ_m(y) = exp(<y, m> - |m|²/2) log-linear, so its extremes over R are at vertices. Conditioned on R the
    pair is a garbling of the two-atom pair at the lattice points a = ⌊ℓ_lo⌋, b = ⌈ℓ_hi⌉ with the same
    masses (connect the dots, Doroshenko et al. 2022: a loss spread inside [a, b] is a garbling of its two
    ends); so the union over R, a public-coin mixture, dominates K. The P-mass outside the box goes to
    +infinity. Float margins move P-mass upward (never down), which only raises every H_α."""
    p, q = triangle_vectors(theta_u, theta_v)
    p, q = p / sigma, q / sigma
    d = p - q
    nd = float(np.linalg.norm(d))
    if nd < 1e-12:
        return GridPLD(0, np.ones(1), 0.0)  # P = Q: the trivial pair, loss 0
    e1 = d / nd
    e2 = np.array([-e1[1], e1[0]])
    (p1, p2), (q1, q2) = (float(p @ e1), float(p @ e2)), (float(q @ e1), float(q @ e2))
    n1, n2 = cells
    ed1 = np.linspace(min(0.0, p1, q1) - reach, max(0.0, p1, q1) + reach, n1 + 1)
    ed2 = np.linspace(min(0.0, p2) - reach, max(0.0, p2) + reach, n2 + 1)
    a0, ap, aq = (_interval_masses(ed1, m) for m in (0.0, p1, q1))
    b0, bt = _interval_masses(ed2, 0.0), _interval_masses(ed2, p2)
    pm = ((1.0 - g) * np.outer(a0, b0) + g * np.outer(ap, bt)).ravel()
    qm = ((1.0 - g) * np.outer(a0, b0) + g * np.outer(aq, bt)).ravel()

    def log_mix(m1, m2, top):
        x = _exponent_range(ed1[:-1], ed1[1:], m1)[top]
        y = _exponent_range(ed2[:-1], ed2[1:], m2)[top]
        return np.logaddexp(math.log1p(-g), math.log(g) + (x[:, None] + y[None, :]).ravel()
                            - 0.5 * (m1 * m1 + m2 * m2))
    l_hi = log_mix(p1, p2, 1) - log_mix(q1, q2, 0)
    l_lo = log_mix(p1, p2, 0) - log_mix(q1, q2, 1)
    keep = pm > 0
    pm, qm, l_lo, l_hi = pm[keep], qm[keep], l_lo[keep], l_hi[keep]
    pad = 1e-9 * (1.0 + np.abs(l_hi))
    kb = np.ceil((l_hi + pad) / h).astype(np.int64)
    ka = np.minimum(np.floor((l_lo - pad) / h).astype(np.int64), kb - 1)
    # P-mass at b: x with x e^{-b} + (P - x) e^{-a} = Q, i.e. x/P = (1 - (Q/P) e^a) / (1 - e^{a - b})
    with np.errstate(divide="ignore"):
        ratio = np.exp(np.log(qm) - np.log(pm) + ka * h)
    top = np.clip((1.0 - ratio) / -np.expm1((ka - kb) * h) + 1e-9, 0.0, 1.0)
    base = int(ka.min())
    pmf = np.bincount(kb - base, weights=pm * top, minlength=int(kb.max()) - base + 1)
    pmf += np.bincount(ka - base, weights=pm * (1.0 - top), minlength=len(pmf))
    pmf *= 1.0 + 1e-12

    def outside(edges, mean):
        return float(ndtr(edges[0] - mean) + ndtr(mean - edges[-1]))
    out = (1.0 - g) * (outside(ed1, 0.0) + outside(ed2, 0.0)) + g * (outside(ed1, p1) + outside(ed2, p2))
    return GridPLD(base, pmf, out + 1e-15)


def _corner_tau(tau: np.ndarray) -> np.ndarray:
    """Corner (i, j) belongs to the cells (i-1..i, j-1..j) mod n: it carries the largest of their τ (a
    larger τ only raises the corner pair's profile, since H(G) >= H(K) everywhere, §7i step 1)."""
    return np.maximum.reduce([np.roll(np.roll(tau, a, 0), b, 1) for a in (0, 1) for b in (0, 1)])


def cover_menu(g: float, sigma: float, n_cells: int, h: float, *, weights: dict | None = None,
               cells: tuple[int, int] = (1000, 1000), tail: float = 1e-14) -> dict:
    r"""The finite menu of §7i Theorem C: for every corner c of the n_cells x n_cells grid of angles (one
    of each reflected pair), the grid pair of the public-coin mixture
    (1 - τ_c - η) K_c + τ_c G + η B_∞ (B_∞: the pair with H ≡ 1, all mass at loss +infinity)."""
    w = cover_weights(g, sigma, n_cells) if weights is None else weights
    tau_c, eta = _corner_tau(w["tau"]), w["eta"]
    full = full_batch_grid(sigma, h, tail)
    step = 2.0 * math.pi / n_cells
    menu, seen = {}, set()
    for i in range(n_cells):
        for j in range(n_cells):
            key = min((i, j), ((n_cells - i) % n_cells, (n_cells - j) % n_cells))
            if key in seen:
                continue
            seen.add(key)
            menu[key] = corner_pair(lambda: triangle_upper_grid(g, sigma, i * step, j * step, h, cells),
                                    [float(tau_c[i, j])], [full], eta, full)
    return menu


def corner_pair(member, weights, charges, eta: float, full: GridPLD) -> GridPLD:
    r"""The menu pair of a corner (§7i step 7, §7k): the public-coin mixture
    :math:`(1 - \sum_i w_i - \eta) K_c + \sum_i w_i C_i + \eta B_\infty` of the corner member's dominating grid
    (``member()``, built only when needed), the charge pairs' grids ``charges`` with ``weights``, and the pair
    B_∞ at +infinity; if the weights leave no room for K_c, (1 - η) G + η B_∞ with ``full`` = G's grid, which
    dominates every member of the family (§7i step 1)."""
    blatant = GridPLD(0, np.zeros(1), 1.0)
    total = float(np.sum(weights)) + eta
    if not total < 1.0:
        return mix_grids([(1.0 - eta, full), (eta, blatant)])
    return mix_grids([(1.0 - total, member())] + [(float(w), c) for w, c in zip(weights, charges) if w > 0.0]
                     + [(eta, blatant)])


def cover_upper(*, g: float, sigma: float, steps: int, eps, h: float, n_cells: int,
                weights: dict | None = None, cells: tuple[int, int] = (1000, 1000)) -> dict:
    """Proven upper bound on delta*(eps) (§7i Theorem C with Theorem G): the game over :func:`cover_menu`."""
    started = time.perf_counter()
    menu = cover_menu(g, sigma, n_cells, h, weights=weights, cells=cells)
    out = game_delta(menu, steps, h, eps, mode="upper", record_choices=True)
    out["menu_size"] = len(menu)
    out["seconds"] = time.perf_counter() - started
    return out


# --------------------------------------------------------------------------------------------------
# the cover refined where a corner can be the best action (docs/replace_one.md §7j)
# --------------------------------------------------------------------------------------------------

def _cell_corners(cell: tuple[int, int, int], m: int) -> list[tuple[int, int]]:
    """The four corners (in lattice units of 2π/m, mod m) of the square cell (i, j, side)."""
    i, j, s = cell
    return [((i + a) % m, (j + b) % m) for a in (0, s) for b in (0, s)]


def _mirror_cell(cell: tuple[int, int, int], m: int) -> tuple[int, int, int]:
    """The image of a cell under the reflection (θu, θv) -> (-θu, -θv), which maps each member to a mirror
    image of itself (same profile, §7a)."""
    i, j, s = cell
    return ((m - i - s) % m, (m - j - s) % m, s)


def _corner_key(c: tuple[int, int], m: int) -> tuple[int, int]:
    """One representative of a corner and its reflection (the same pair up to a mirror image)."""
    return min(c, ((m - c[0]) % m, (m - c[1]) % m))


def partition_corner_weights(partition, m: int, taus: dict) -> dict:
    r"""τ_c of Theorem C′ (§7j) for a partition of the torus into square cells (i, j, side) in units of 2π/m:
    for each corner, up to the reflection, the largest τ_C over the cells having it (or its mirror image)
    as one of their four corners. A corner lying on the side of a larger cell (a hanging node) is not a
    corner of that cell and takes nothing from it: each member uses only its own cell's corners. With vectors
    of charge weights (Theorem C″, §7k) the largest is taken per charge pair."""
    out = {}
    for cell in partition:
        for c in _cell_corners(cell, m):
            key = _corner_key(c, m)
            out[key] = np.maximum(out.get(key, 0.0), taus[cell])
    return out


def _split(cell: tuple[int, int, int]) -> list[tuple[int, int, int]]:
    i, j, s = cell
    t = s // 2
    return [(i + a, j + b, t) for a in (0, t) for b in (0, t)]


def charge_grids(g: float, sigma: float, rates, h: float, tail: float = 1e-14) -> list:
    """Lattice grids dominating the charge pairs of §7k: G's connect-the-dots grid for r = 1, the symmetrised
    grid S (numerics.adaptive.symmetrised_grid of the two orders at rate r) for g < r < 1."""
    bad = [r for r in rates if not g < r <= 1.0]
    if bad:
        raise InvalidParameter(f"charge rates must lie in (g, 1] = ({g}, 1], got {bad}")
    return [full_batch_grid(sigma, h, tail) if r == 1.0 else order_grids(r, sigma, h, tail)["S"] for r in rates]


def charge_costs(g: float, sigma: float, steps: int, eps: float, h: float, charges, t: float = 1e-3) -> np.ndarray:
    r"""What a weight of each charge pair costs, to first order (a heuristic for the LP of §7k step 3; it cannot
    affect soundness): (δ(ε) of the T-fold composition of (1 - t) S_g + t C_i minus that of S_g) / t, S_g the
    symmetrised pair at rate g (the level of the best members)."""
    s_g = order_grids(g, sigma, h, 1e-14)["S"]
    base = float(game_delta({"S": s_g}, steps, h, [eps], mode="upper")["delta"][0])
    return np.array([(float(game_delta({"m": mix_grids([(1.0 - t, s_g), (t, c)])}, steps, h, [eps],
                                       mode="upper")["delta"][0]) - base) / t for c in charges])


def fill_cell_weights(weights: dict, partition, m: int, g: float, sigma: float, *, rates, costs,
                      log_beta_max: float, n_beta: int, slacks: dict | None = None, limits=None) -> None:
    """Add to ``weights`` the charge weights (:func:`cell_weights`) of every cell (i, j, side) of ``partition``
    (units 2π/m) it lacks; a cell's mirror image has the same pairs, so its weights are reused. ``slacks``: a cache
    {cell: slack profile} read and filled here, so that new ``costs`` re-solve only the LPs (the slack, most of the
    cost, does not depend on them). ``limits``: upper bounds on each charge pair's weight, asked of the LP
    (:func:`charge_weights`)."""
    unit = 2.0 * math.pi / m
    betas, floors = charge_floors(g, sigma, rates, log_beta_max, n_beta)
    slacks = {} if slacks is None else slacks
    for cell in partition:
        if cell not in weights:
            i, j, s = cell
            mirror = weights.get(_mirror_cell(cell, m))
            if mirror is not None:
                weights[cell] = mirror
                continue
            if cell not in slacks:
                slacks[cell] = cell_slack_profile(g, sigma, (i * unit, (i + s) * unit), (j * unit, (j + s) * unit),
                                                  betas)
            weights[cell] = charge_weights(slacks[cell], floors, np.asarray(costs, float), limits=limits)


def corner_menu(corner_w: dict, m: int, g: float, sigma: float, h: float, cells, charges, eta: float,
                full: GridPLD, grids: dict | None = None) -> dict:
    """The menu of Theorem C″: one :func:`corner_pair` per corner key (units 2π/m) with its weights; corner members'
    upper grids are built once, only for corners whose pair uses them, and kept in ``grids``."""
    unit = 2.0 * math.pi / m
    grids = {} if grids is None else grids
    menu = {}
    for key, w in corner_w.items():
        def member(key=key):
            if key not in grids:
                grids[key] = triangle_upper_grid(g, sigma, key[0] * unit, key[1] * unit, h, cells)
            return grids[key]
        menu[key] = corner_pair(member, np.atleast_1d(w), charges, eta, full)
    return menu


def refined_cover_upper(*, g: float, sigma: float, steps: int, eps, h: float, base: int = 16, levels: int = 4,
                        rounds: int = 4, cells: tuple[int, int] = (600, 600), log_beta_max: float = 12.0,
                        n_beta: int = 240, focus: int = 0, share: float = 0.9, tau_target: float | None = None,
                        rates=(1.0,), costs=None, prune: float | None = None, log=None) -> dict:
    r"""Proven upper bound on :math:`\delta^*(\varepsilon)` from Theorem C on a partition of the angle torus into
    squares refined where a corner pair can be the best action (docs/replace_one.md §7j), with Theorem G.

    Start: the uniform ``base`` x ``base`` grid. Each round builds the menu of Theorem C for the current
    partition (corner weight τ_c = the largest τ_C over the cells having c as a corner; one pair per corner
    and its reflection, with the larger weight), evaluates the game (``mode="upper"``), and splits into four
    every cell (with its mirror, so the partition stays symmetric) having one of the corners that carry the
    top ``share`` of the score τ_c x (use of c by the maximising policy started at ``eps[focus]``,
    :func:`policy_usage`), or, with ``tau_target``, every corner the policy uses whose τ_c exceeds it, down to
    side 2π/(base 2^levels). Which cells are split is a heuristic; every
    round's value is a proven upper bound whatever it is (§7j: any partition into rectangles is a cover), so
    the returned delta is their elementwise minimum.

    ``rates``: the charge pairs S_r of Theorem C″ (§7k; default (1,): G alone, Theorem C′). With several, each
    cell's weights solve the LP of :func:`charge_weights` with ``costs`` (default :func:`charge_costs` at
    ``eps[focus]``), τ_c above is the cost-weighted charge cost · w_c, and a corner pair mixes every charge pair.
    ``prune``: if given, each round's menu is pruned by ``prune``-dominance by one kept pair and then by a mixture
    of two (numerics.grid_dominance.prune_menu, prune_by_mixtures) and the game adds the lemma's step slack
    (§7m; "kept" and "slack" per round).
    Returns {"eps", "delta", "rounds": per round (cells, menu, used corners, score, "tau_used_max" (the largest
    total weight Σ w of a used corner), "charge_used_max" (the largest cost · w), delta, s), "costs", "eta"}."""
    if not 0.0 < g < 1.0:
        raise InvalidParameter(f"refined_cover_upper: g must lie in (0, 1), got {g}")
    if base < 4 or levels < 0:
        raise InvalidParameter("refined_cover_upper: base >= 4 cells per angle and levels >= 0")
    rates = tuple(float(r) for r in rates)
    charges = charge_grids(g, sigma, rates, h)
    eps = np.atleast_1d(np.asarray(eps, dtype=float))
    if costs is None:
        costs = np.ones(1) if len(rates) == 1 else charge_costs(g, sigma, steps, float(eps[focus]), h, charges)
    costs = np.asarray(costs, float)
    m, side = base * 2 ** levels, 2 ** levels
    unit = 2.0 * math.pi / m
    partition = {(i * side, j * side, side) for i in range(base) for j in range(base)}
    eta = _eta(g, sigma, log_beta_max)
    full = full_batch_grid(sigma, h, 1e-14)
    weights, grids, history, best = {}, {}, [], None
    for r in range(rounds + 1):
        started = time.perf_counter()
        fill_cell_weights(weights, partition, m, g, sigma, rates=rates, costs=costs, log_beta_max=log_beta_max,
                          n_beta=n_beta)
        corner_w = partition_corner_weights(partition, m, weights)
        menu = corner_menu(corner_w, m, g, sigma, h, cells, charges, eta, full, grids)
        full_size, slack, prune_cpu = len(menu), 0.0, time.process_time()
        if prune is not None:
            pruned, dropped = prune_by_mixtures(menu, *prune_menu(menu, h, prune), h, prune)
            slack, menu = step_slack(dropped), pruned
        prune_cpu = time.process_time() - prune_cpu
        res = game_delta(menu, steps, h, eps, mode="upper", record_policy=True, slack=slack)
        best = res["delta"] if best is None else np.minimum(best, res["delta"])
        charge = {a: float(costs @ np.atleast_1d(w)) for a, w in corner_w.items()}
        score = {a: u * charge[a] for a, u in policy_usage(menu, res, focus).items() if u > 0.0}
        ranked = sorted(score, key=score.get, reverse=True)
        total, acc, chosen = sum(score.values()), 0.0, set()
        for a in ranked:
            if acc >= share * total:
                break
            chosen.add(a)
            acc += score[a]
        if tau_target is not None:
            chosen = {a for a in score if charge[a] > tau_target}
        history.append({"cells": len(partition), "menu": full_size, "kept": len(menu), "slack": slack,
                        "prune_cpu": prune_cpu, "used": len(score), "refine": len(chosen),
                        "score": total, "tau_used_max": max((float(np.sum(corner_w[a])) for a in score), default=0.0),
                        "charge_used_max": max((charge[a] for a in score), default=0.0),
                        "delta": res["delta"], "seconds": time.perf_counter() - started})
        if log:
            log(r, history[-1])
        split = {cell for cell in partition
                 if cell[2] > 1 and any(_corner_key(c, m) in chosen for c in _cell_corners(cell, m))}
        split |= {_mirror_cell(cell, m) for cell in split}
        if r == rounds or not split:
            break
        partition = (partition - split) | {child for cell in split for child in _split(cell)}
    return {"eps": res["eps"], "delta": best, "rounds": history, "eta": eta, "costs": costs, "rates": rates}
