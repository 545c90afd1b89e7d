r"""Profile dominance between lattice grid pairs, and pruning a game's menu by it (issue 35; docs/replace_one.md §7m).

Research module, NOT wired into the public accountant; only numerics.adaptive_game (the cover's game) and its
tests import it.

A grid pair B (numerics.pld_compose.GridPLD: first-law masses p_j at the losses jh, j = k0, k0 + 1, ..., and
p_inf at +infinity) enters the game of §7b only through

    f_B(alpha) = sum_j p_j (1 - alpha e^{-jh})_+ + p_inf,   alpha > 0,

its hockey-stick profile written under the first law (formula (*) of §7b). f_B is piecewise linear in alpha
with kinks only at the lattice points alpha = e^{mh}, constant (= p_inf) above the last one, and tends to the
total mass sum_j p_j + p_inf as alpha -> 0. So for two grid pairs on one lattice,
sup_{alpha in [0, inf]} (f_A - f_B) is the largest difference over the finitely many points
alpha in {0} U {e^{mh}: m on the union of the two supports} (a linear function on each piece between
consecutive points is largest at an end; on the last piece it is constant). :func:`profile_table` evaluates
f at those points with a proven bound on the float error, :func:`excess` returns a certified upper bound on
sup (f_A - f_B), and :func:`prune_menu` drops every menu pair whose excess over a kept pair is at most
``eps``; §7m's theorem says the game over the kept pairs with :func:`step_slack` added to every step's value is
still a proven upper bound on delta*(eps) wherever the full menu's game is (Theorem G).
"""
from __future__ import annotations

import numpy as np

from .errors import InvalidParameter
from .pld import GridPLD

_U = 2.0 ** -53


def _span(pairs) -> tuple[int, int]:
    """Smallest k0 and largest top index of the lattice supports of ``pairs``."""
    return min(p.k0 for p in pairs), max(p.k0 + len(p.pmf) - 1 for p in pairs)


def profile_table(pair: GridPLD, h: float, lo: int, hi: int) -> tuple[np.ndarray, float]:
    r"""(values, err): values[0] = f(0+) = sum p + p_inf, values[1 + m - lo] = f(e^{mh}) for m = lo..hi, with
    ``lo`` <= pair.k0 and ``hi`` >= its top index; err bounds the float error of every entry.

    f(e^{mh}) = T_m - U_m + p_inf with T_m = sum_{j>m} p_j and U_m = sum_{j>m} p_j e^{(m-j)h} = e^{mh} S_m,
    S_m = sum_{j>m} p_j e^{-jh}. T and S are reversed cumulative sums of nonnegative terms (relative error at
    most (n + 2)u each, n the number of terms; the products p_j e^{-jh} and e^{mh} S_m add 3u, numpy's exp is
    faithful to within 1 ulp), U_m <= T_m <= total mass, so each entry is within 2(n + 8)u (mass + 1) of the
    exact value; returned doubled for headroom."""
    if lo > pair.k0 or hi < pair.k0 + len(pair.pmf) - 1:
        raise InvalidParameter("profile_table: the range must contain the pair's support")
    if max(abs(lo), abs(hi)) * h > 600.0:
        raise InvalidParameter("profile_table: lattice losses beyond +-600 overflow e^{kh}")
    p = np.zeros(hi - lo + 1)
    p[pair.k0 - lo:pair.k0 - lo + len(pair.pmf)] = pair.pmf
    if (p < 0).any() or pair.inf_mass < 0:
        raise InvalidParameter("profile_table: negative mass")
    m = np.arange(lo, hi + 1)
    # strictly above m: reversed cumsum shifted by one
    t = np.append(np.cumsum(p[::-1])[::-1][1:], 0.0)
    s = np.append(np.cumsum((p * np.exp(-m * h))[::-1])[::-1][1:], 0.0)
    f = np.clip(t - np.exp(m * h) * s, 0.0, None) + pair.inf_mass
    total = float(p.sum()) + pair.inf_mass
    err = 4.0 * (len(p) + 8) * _U * (total + 1.0)
    return np.concatenate(([total], f)), err


def excess(a: GridPLD, b: GridPLD, h: float) -> float:
    r"""A certified upper bound on :math:`\sup_{\alpha > 0} (f_A(\alpha) - f_B(\alpha))` (module docstring: the
    sup over the finite set of points, plus both tables' float error bounds)."""
    lo, hi = _span((a, b))
    fa, ea = profile_table(a, h, lo, hi)
    fb, eb = profile_table(b, h, lo, hi)
    return float(np.max(fa - fb)) + ea + eb


def prune_menu(menu: dict, h: float, eps: float) -> tuple[dict, dict]:
    r"""(kept, dropped): a sub-menu and {dropped name: (name of a kept pair B, certified excess of the dropped
    pair over B)}, every excess <= ``eps``. Greedy: the pairs in decreasing order of the sum of their profile
    table (a pair can be eps-dominated only by one whose sum is at least its own minus eps per point), each
    checked against every pair kept so far; a kept pair is never dropped later, so no excess is chained."""
    if not eps >= 0.0:
        raise InvalidParameter(f"prune_menu: eps must be >= 0, got {eps}")
    if not menu:
        raise InvalidParameter("prune_menu: empty menu")
    names = list(menu)
    lo, hi = _span(menu.values())
    tables = [profile_table(menu[a], h, lo, hi) for a in names]
    order = sorted(range(len(names)), key=lambda i: -float(tables[i][0].sum()))
    kept_idx, dropped = [], {}
    kept_f = np.empty((0, hi - lo + 2))
    kept_e = np.empty(0)
    for i in order:
        f, e = tables[i]
        if len(kept_idx):
            bound = np.max(f[None, :] - kept_f, axis=1) + e + kept_e
            j = int(np.argmin(bound))
            if bound[j] <= eps:
                dropped[names[i]] = (names[kept_idx[j]], float(bound[j]))
                continue
        kept_idx.append(i)
        kept_f = np.vstack([kept_f, f])
        kept_e = np.append(kept_e, e)
    kept = {names[i]: menu[names[i]] for i in sorted(kept_idx)}
    return kept, dropped


def _mixture_lambda(fa: np.ndarray, fb: np.ndarray, fc: np.ndarray, slack: float) -> float | None:
    """A weight lam in [0, 1] with lam fb + (1 - lam) fc + slack >= fa at every entry (intersection of the
    half-lines lam d >= r, d = fb - fc, r = fa - fc - slack), or None. Only a proposal: the caller certifies it."""
    d, r = fb - fc, fa - fc - slack
    if (r[d == 0.0] > 0.0).any():
        return None
    pos, neg = d > 0.0, d < 0.0
    lo = max(0.0, float(np.max(r[pos] / d[pos]))) if pos.any() else 0.0
    hi = min(1.0, float(np.min(r[neg] / d[neg]))) if neg.any() else 1.0
    return 0.5 * (lo + hi) if lo <= hi else None


def prune_by_mixtures(menu: dict, kept: dict, dropped: dict, h: float, eps: float, candidates: int = 20):
    r"""Second pass after :func:`prune_menu`: drop a kept pair A if f_A <= lam f_B + (1 - lam) f_C + eps for two
    other kept pairs B, C (a public-coin mixture, whose profile is the mixture of profiles; §7m step 5). B, C are
    searched among the ``candidates`` kept pairs of smallest single excess over A; a pair used as B or C is never
    dropped afterwards. The certified excess of a drop is max(f_A - lam f_B - (1 - lam) f_C) plus the three tables'
    error bounds plus 4u (f_A + f_B + f_C) at most for the two products and the sums. Returns (kept, dropped) with
    dropped[name] = ((B, C, lam), excess)."""
    names = list(kept)
    lo, hi = _span(menu.values())
    tables = {a: profile_table(kept[a], h, lo, hi) for a in names}
    protected, out_dropped, alive = set(), dict(dropped), set(names)
    for a in names:
        if a in protected:
            continue
        fa, ea = tables[a]
        others = [b for b in names if b in alive and b != a]
        if len(others) < 2:
            break
        single = [float(np.max(fa - tables[b][0])) for b in others]
        near = [others[i] for i in np.argsort(single)[:candidates]]
        for i, b in enumerate(near):
            hit = None
            for c in near[i + 1:]:
                lam = _mixture_lambda(fa, tables[b][0], tables[c][0], 0.5 * eps)
                if lam is None:
                    continue
                fb, eb = tables[b]
                fc, ec = tables[c]
                mixed = lam * fb + (1.0 - lam) * fc
                bound = float(np.max(fa - mixed)) + ea + eb + ec + 4.0 * _U * float(np.max(fa + fb + fc))
                if bound <= eps:
                    hit = (c, lam, bound)
                    break
            if hit:
                out_dropped[a] = ((b, hit[0], hit[1]), hit[2])
                alive.discard(a)
                protected.update((b, hit[0]))
                break
    return {a: kept[a] for a in names if a in alive}, out_dropped


def step_slack(dropped: dict) -> float:
    r"""The amount §7m's theorem adds to every step's value after :func:`prune_menu`: the largest certified
    excess of a dropped pair over its kept dominator (0 if none is dropped or every excess is negative). The
    lemma applies the dominance to the true value function (admissible, <= 1), so the price is this excess
    exactly, whatever the pairs' masses."""
    return max([0.0] + [x for _, x in dropped.values()])
