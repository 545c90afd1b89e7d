r"""Block composition of the adaptive game (issue 35; docs/replace_one.md §7n).

Research module, NOT wired into the public accountant (like numerics.adaptive_game, whose game it reuses;
nothing the figures import imports it).

The per-step game of numerics.adaptive_game costs (steps) x (menu size) lattice correlations: out of reach at
the seeds' long runs (001: T = 3663) and at the headline (T = 1e4). This module trades a little tightness for
that factor. Play the game for a block of m steps only, but read its value at EVERY epsilon of the lattice:
that is an upper bound u(α) on the hockey-stick profile of every m-step adaptive block, for every α = e^ε on
the lattice. :func:`profile_pair` turns it into one grid pair B_m whose profile is at least the supremum of the
m-step blocks' profiles at EVERY α > 0, and the T-step adaptive game is bounded by the plain composition
:math:`B_m^{\otimes q} \otimes B_r` for T = qm + r (docs §7n, Lemma B: Theorem G applied to blocks; §7o: the last
block may be shorter). With m = 1 and the menu {S} this is the composition of S; with m = T it is the game itself.

* :func:`block_profile` — the m-step game's value (upper mode) at every lattice epsilon in [-span, span].
* :func:`profile_pair` — the proven grid pair of a profile bound (exact chord construction in mpmath, masses
  rounded up).
* :func:`compose_upper` — the composition of a fixed sequence of grid pairs (the game with one pair per step).
* :func:`block_composition_upper` — the three together, q blocks of m and one of r: a proven upper bound on
  δ*(ε) whenever the menu dominates the mechanism's steps (Theorem G's hypothesis, §7b).
"""
from __future__ import annotations

import math
import time

import mpmath
import numpy as np

from .adaptive_game import _expect, game_delta, loss_spread, read_index, terminal_values
from .errors import InvalidParameter
from .pld import GridPLD

#: working precision (decimal digits) of the chord construction of :func:`profile_pair`
_DPS = 40
#: absolute margin added to every mass before rounding up to a double: far above the mpmath error of the
#: chord construction at _DPS digits (slopes of O(1) differences of values <= 1 over spacings >= e^{-span})
_MASS_MARGIN = 1e-30


def block_profile(menu: dict, block: int, h: float, span: float, pad: float | None = None,
                  slack: float = 0.0) -> tuple:
    r"""Upper bound on :math:`\sup_\pi H_{e^{kh}}` over every ``block``-step adaptive policy of the game over
    ``menu`` (Theorem G, upper mode), at every lattice point kh of [-span, span]. Returns (k, u).

    ``pad``: the lattice window is [-span - pad, span + pad] (outside it the upper mode puts the value 1,
    which only loosens the reads near ±span); default 12 standard deviations of ``block`` steps' losses.
    ``slack``: the per-step price of a pruned menu (numerics.grid_dominance, docs §7m), passed to the game."""
    if block < 1:
        raise InvalidParameter(f"block must be a positive number of steps, got {block}")
    if not span > 0.0:
        raise InvalidParameter(f"span must be positive, got {span}")
    k = np.arange(-math.ceil(span / h), math.ceil(span / h) + 1)
    if pad is None:
        pad = loss_spread(menu, block, h)
    res = game_delta(menu, block, h, k * h, mode="upper", window=(-span - pad - h, span + pad + h), slack=slack)
    return k, np.asarray(res["delta"], dtype=float)


def _lower_hull(alpha: np.ndarray, val: np.ndarray) -> list[int]:
    """Indices of the lower convex hull of the points (alpha_i, val_i), alpha increasing (a proposal only:
    :func:`profile_pair` re-checks convexity in mpmath and drops nodes until it holds)."""
    hull: list[int] = []
    for i in range(len(alpha)):
        while len(hull) >= 2:
            a, b = hull[-2], hull[-1]
            if (val[b] - val[a]) * (alpha[i] - alpha[a]) < (val[i] - val[a]) * (alpha[b] - alpha[a]):
                break
            hull.pop()
        hull.append(i)
    return hull


def profile_pair(k: np.ndarray, u: np.ndarray, h: float) -> GridPLD:
    r"""A grid pair B whose profile is at least every profile h* that is convex and nonincreasing in α, equal to
    1 at α = 0, and at most ``u[i]`` at α = e^{k[i] h} (docs §7n, Lemma B (i)). ``k`` strictly increasing.

    Construction: ū = running minimum of min(u, 1) (h* is nonincreasing); nodes (0, 1) and (e^{k_i h}, ū_i);
    a subset of the nodes whose chords form a convex, nonincreasing function c with c = ū_last after the last
    node. Any subset works for the bound (h* lies below each chord, by convexity, and below ū_last after it);
    convexity makes c the profile of a pair: Q-mass q_j = (slope after - slope before) at loss k_j h, P-mass
    p_j = q_j e^{k_j h}, P-mass ū_last at +infinity, Q's remaining mass at -infinity. Slopes and masses are
    computed in mpmath at ``_DPS`` digits and rounded UP to doubles with an absolute margin: the stored PMF
    dominates the exact pair's entrywise, which only raises every value the game computes with it (V >= 0)."""
    k = np.asarray(k, dtype=np.int64)
    u = np.asarray(u, dtype=float)
    if k.ndim != 1 or len(k) != len(u) or len(k) < 1:
        raise InvalidParameter("profile_pair: k and u must be 1-d arrays of one length >= 1")
    if np.any(np.diff(k) <= 0):
        raise InvalidParameter("profile_pair: k must be strictly increasing")
    if not np.all(np.isfinite(u)):
        raise InvalidParameter("profile_pair: u must be finite")
    ubar = np.minimum.accumulate(np.clip(u, 0.0, 1.0))
    alpha = np.concatenate([[0.0], np.exp(k * h)])
    val = np.concatenate([[1.0], ubar])
    nodes = _lower_hull(alpha, val)
    with mpmath.workdps(_DPS):
        masses, last = _chord_masses(nodes, k, val, h)
        pmf = {int(k[j - 1]): _up(p) for j, p in masses.items()}
        inf_mass = _up(last)
    k0 = min(pmf) if pmf else int(k[-1])
    arr = np.zeros((max(pmf) - k0 + 1) if pmf else 1)
    for kk, p in pmf.items():
        arr[kk - k0] = p
    return GridPLD(int(k0), arr, inf_mass)


def _chord_masses(nodes: list[int], k: np.ndarray, val: np.ndarray, h: float) -> tuple[dict, object]:
    r"""({node index: P-mass p_j}, value at the last node) of the convex chord function through ``nodes``
    (index 0 = the point (0, 1)), in mpmath. Nodes whose Q-mass comes out negative (a float hull that is not
    convex in exact arithmetic) are dropped and the chords recomputed; the last node is never dropped (its
    Q-mass, minus the last slope, is >= 0 because the values are nonincreasing). The value at every lattice
    node is raised to 1 - α if below it (every profile is >= (1 - α)_+; raising only loosens), so the first
    slope is >= -1: Q's mass on finite losses is <= 1."""
    nodes = list(nodes)
    while True:
        a = [mpmath.mpf(0)] + [mpmath.exp(mpmath.mpf(int(k[j - 1])) * mpmath.mpf(h)) for j in nodes[1:]]
        v = [mpmath.mpf(1)] + [max(mpmath.mpf(float(val[j])), 1 - ai) for j, ai in zip(nodes[1:], a[1:])]
        slopes = [(v[i + 1] - v[i]) / (a[i + 1] - a[i]) for i in range(len(nodes) - 1)] + [mpmath.mpf(0)]
        q = {i: slopes[i] - slopes[i - 1] for i in range(1, len(nodes))}
        bad = [i for i in q if q[i] < 0 and i != len(nodes) - 1]
        if not bad:
            if q[len(nodes) - 1] < 0:
                raise ArithmeticError("profile_pair: the values are not nonincreasing")
            return {nodes[i]: q[i] * a[i] for i in q}, v[-1]
        nodes.pop(bad[0])


def _up(x) -> float:
    """A double >= the mpmath number x + _MASS_MARGIN (and >= 0)."""
    y = float(x + _MASS_MARGIN)
    return float(np.nextafter(max(y, 0.0), math.inf))


def compose_upper(schedule, h: float, eps) -> np.ndarray:
    r"""Upper bound on :math:`H_{e^\varepsilon}(\bigotimes_i B_i^{\otimes c_i})` for ``schedule`` = [(B_i, c_i), ...]
    (grid pairs on the lattice h, counts c_i >= 0), at every ε of ``eps``: the backward induction of
    numerics.adaptive_game.game_delta (same window, start, read and proven rounding of ``_expect``) with one pair
    per step instead of a maximum over a menu (game_delta's menu is the same at every step; here the pair changes
    once, at the remainder block)."""
    eps = np.atleast_1d(np.asarray(eps, dtype=float))
    schedule = [(pair, int(c)) for pair, c in schedule if c > 0]
    spread = sum(loss_spread({"B": pair}, c, h) for pair, c in schedule)
    kmin, kmax = math.floor((-float(eps.max()) - spread) / h), math.ceil(spread / h)
    k = np.arange(kmin, kmax + 1)
    v = terminal_values(k, h, "upper")
    for pair, c in schedule:
        for _ in range(c):
            v = np.clip(_expect(v, kmin, h, pair, "upper"), 0.0, 1.0)
    return v[read_index(eps, h, "upper") - kmin]


def block_composition_upper(menu: dict, steps: int, block: int, h: float, eps, *, span: float | None = None,
                            pad: float | None = None, tail_share: float = 1e-2, widen: int = 3,
                            slack: float = 0.0) -> dict:
    r"""Upper bound on :math:`\delta^*(\varepsilon)` of the ``steps``-step adaptive game over ``menu`` (a proven
    bound when the menu dominates every step, §7b): with steps = q·block + r (0 <= r < block), the block pair B_m
    of :func:`profile_pair` from the ``block``-step game's profile composed q times, and the pair B_r of the
    r-step game's profile once (docs §7n, Lemma B; §7o: the blocks need not be equal).

    ``span``: the blocks' profiles are read on [-span, span] (default: the block's spread); beyond it a pair
    puts the read value at +infinity, which costs at most q u_m(span) + u_r(span) in δ (returned as ``tail``).
    While that exceeds ``tail_share`` times the smallest δ returned, the span is doubled (at most ``widen``
    times, and only while each doubling halves the tail; every attempt is a proven bound, the one with the smallest
    tail is returned). Returns {"eps", "delta", "blocks" (q, plus 1 if r > 0), "remainder" (r), "tail",
    "span", "pair", "pair_r" (None if r = 0), "seconds"}. ``slack``: as in :func:`block_profile` (a pruned menu's
    per-step price)."""
    if not 1 <= block <= steps:
        raise InvalidParameter(f"block must lie in [1, steps] = [1, {steps}], got {block}")
    started = time.perf_counter()
    span = loss_spread(menu, block, h) if span is None else span
    full, rem = divmod(steps, block)
    eps = np.atleast_1d(np.asarray(eps, dtype=float))
    best = None
    for attempt in range(widen + 1):
        pair = profile_pair(*block_profile(menu, block, h, span, pad, slack), h)
        pair_r = profile_pair(*block_profile(menu, rem, h, span, pad, slack), h) if rem else None
        delta = compose_upper([(pair, full)] + ([(pair_r, 1)] if rem else []), h, eps)
        tail = full * pair.inf_mass + (pair_r.inf_mass if rem else 0.0)
        if best is not None and tail > 0.5 * best[1]:
            break  # widening no longer halves the tail: the FFT's error floor, not the span, sets it
        best = (delta, tail, span, pair, pair_r)
        if tail <= tail_share * float(np.min(delta)):
            break
        span *= 2.0
    delta, tail, span, pair, pair_r = best
    return {"eps": eps, "delta": delta, "blocks": full + (1 if rem else 0), "remainder": rem, "tail": tail,
            "span": span, "pair": pair, "pair_r": pair_r, "seconds": time.perf_counter() - started}


def charged_cover_menu(g: float, sigma: float, h: float, n_cells: int, *, rates, costs,
                       cells: tuple[int, int] = (600, 600), log_beta_max: float = 12.0, n_beta: int = 240) -> dict:
    r"""The menu of Theorem C″ (docs §7k) on the uniform ``n_cells`` x ``n_cells`` partition of the angle torus:
    one corner pair per corner (up to the reflection), (1 - Σ w - η) K_c + Σ_i w_i S_{r_i} + η B_∞ with the
    largest LP weights of the cells at the corner. It dominates every step of fixed-size replace-one (Theorem
    C″), so Theorem G applies to it; ``costs`` only steer the LP (numerics.adaptive_game.charge_costs)."""
    from . import adaptive_game as ag  # the cover's pieces; imported here to keep this module's surface small
    rates = tuple(float(r) for r in rates)
    weights: dict = {}
    ag.fill_cell_weights(weights, {(i, j, 1) for i in range(n_cells) for j in range(n_cells)}, n_cells, g, sigma,
                         rates=rates, costs=np.asarray(costs, float), log_beta_max=log_beta_max, n_beta=n_beta)
    return ag.corner_menu(ag.partition_corner_weights(set(weights), n_cells, weights), n_cells, g, sigma, h, cells,
                          ag.charge_grids(g, sigma, rates, h), ag._eta(g, sigma, log_beta_max),
                          ag.full_batch_grid(sigma, h, 1e-14))
