r"""Charge weights of the proven cover chosen against the game (issue 35; docs/replace_one.md §7p).

Research module, NOT wired into the public accountant (nothing the figures import imports it).

Theorem C″ (docs §7k step 3) holds for ANY feasible weights: each cell's weights w_C ≥ 0 need only cover Lemma C's
slack with the charge floors on every β interval. Which feasible weights are chosen is a heuristic: the LP of
:func:`numerics.adaptive_game.charge_weights` minimises a price vector · w, and the prices of
:func:`numerics.adaptive_game.charge_costs` are first-order costs of each charge pair used at every step (§7k step 5).
The game's δ is not monotone in that objective (§7k step 8b). This module steers the prices by the game itself:

* :func:`priced_cover` — the uniform cover's menu for one price vector (LP per cell; the slack profiles and the corner
  members' grids are cached, so a new price vector costs the LPs, the mixing, the pruning and the game), and the
  game's proven upper δ (Theorems C″, G and the pruned game of §7m).
* :func:`price_search` — (i) secant re-pricing: the game's maximising policy (:func:`policy_usage`) says how much
  weight of each charge the used corners carry; each charge is re-priced by the secant of δ of the T-fold composition
  at that weight (instead of the derivative at weight 1e-3); (ii) a pattern search on the log-prices: one charge's
  price moved by a factor, kept if the game's δ at the focus falls. Every iterate is a proven bound (its weights are
  feasible: the LP's proposal is scaled until every constraint holds, or replaced by the always-feasible single-pair
  weights); the returned δ is the elementwise minimum over the iterates, itself a proven bound.
* :func:`block_prices`, :func:`jump_limits` (§7s) — prices and weight limits read off the two orders' block game, where
  the headline's δ is decided: a charge's cost is what one extra action adds to that game's δ, and it is not linear
  in the weight (a heavy-tailed charge behind a weak member costs nothing up to a threshold, then a lot).
"""
from __future__ import annotations

import math
import time

import numpy as np

from . import adaptive_game as ag
from .block_game import block_composition_upper
from .errors import InvalidParameter
from .grid_dominance import prune_by_mixtures, prune_menu, step_slack
from .pld import GridPLD


def cover_context(*, g: float, sigma: float, steps: int, eps, h: float, n_cells: int, rates,
                  cells: tuple[int, int] = (600, 600), log_beta_max: float = 12.0, n_beta: int = 240,
                  prune: float = 3e-11) -> dict:
    """Everything :func:`priced_cover` reuses across price vectors: the setting, the uniform partition, the charge
    grids, G's grid, η, and the caches of slack profiles and corner members' grids (filled on first use)."""
    if not 0.0 < g < 1.0:
        raise InvalidParameter(f"cover_context: g must lie in (0, 1), got {g}")
    if n_cells < 4:
        raise InvalidParameter(f"cover_context: at least 4 cells per angle, got {n_cells}")
    rates = tuple(float(r) for r in rates)
    return {"g": g, "sigma": sigma, "steps": steps, "eps": np.atleast_1d(np.asarray(eps, float)), "h": h,
            "m": n_cells, "partition": {(i, j, 1) for i in range(n_cells) for j in range(n_cells)},
            "rates": rates, "charges": ag.charge_grids(g, sigma, rates, h), "cells": cells,
            "log_beta_max": log_beta_max, "n_beta": n_beta, "eta": ag._eta(g, sigma, log_beta_max),
            "full": ag.full_batch_grid(sigma, h, 1e-14), "prune": prune, "slacks": {}, "grids": {}}


def priced_cover(ctx: dict, costs, *, focus: int = 0, policy: bool = False) -> dict:
    r"""Proven upper bound on :math:`\delta^*(\varepsilon)` at every ε of ``ctx`` from the cover of Theorem C″ whose
    cell weights minimise ``costs`` · w (any positive prices give feasible weights, hence a proven bound).
    Returns {"delta", "corner_w" (corner key -> weights), "menu", "kept", "slack", "usage" (with ``policy``: the
    maximising policy's use of each kept corner from ``eps[focus]``), "cpu"}."""
    costs = np.asarray(costs, float)
    if costs.shape != (len(ctx["rates"]),) or not (costs > 0).all():
        raise InvalidParameter("priced_cover: one positive price per charge rate")
    c0 = time.process_time()
    weights: dict = {}
    ag.fill_cell_weights(weights, ctx["partition"], ctx["m"], ctx["g"], ctx["sigma"], rates=ctx["rates"],
                         costs=costs, log_beta_max=ctx["log_beta_max"], n_beta=ctx["n_beta"], slacks=ctx["slacks"])
    corner_w = ag.partition_corner_weights(ctx["partition"], ctx["m"], weights)
    menu = ag.corner_menu(corner_w, ctx["m"], ctx["g"], ctx["sigma"], ctx["h"], ctx["cells"], ctx["charges"],
                          ctx["eta"], ctx["full"], ctx["grids"])
    kept, dropped = prune_by_mixtures(menu, *prune_menu(menu, ctx["h"], ctx["prune"]), ctx["h"], ctx["prune"])
    slack = step_slack(dropped)
    res = ag.game_delta(kept, ctx["steps"], ctx["h"], ctx["eps"], mode="upper", slack=slack, record_policy=policy)
    out = {"delta": np.asarray(res["delta"], float), "corner_w": corner_w, "menu": len(menu), "kept": len(kept),
           "slack": slack, "costs": costs}
    if policy:
        out["usage"] = ag.policy_usage(kept, res, focus)
    out["cpu"] = time.process_time() - c0
    return out


def used_weights(corner_w: dict, usage: dict) -> np.ndarray:
    """Per charge, the mean weight at the corners the policy uses, weighted by their use (zero if none is used)."""
    total = sum(usage.values())
    if total <= 0.0:
        return np.zeros(len(next(iter(corner_w.values()))))
    return sum(u * np.atleast_1d(corner_w[a]) for a, u in usage.items()) / total


def secant_costs(ctx: dict, eps: float, h: float, at: np.ndarray, old: np.ndarray, floor: float = 1e-4) -> np.ndarray:
    r"""Prices of the charges as secants: for charge i used with mean weight t_i > 0 (at least ``floor``), (δ(ε) of
    the T-fold composition of (1 - t_i) S_g + t_i C_i, minus that of S_g) / t_i on the lattice ``h``
    (:func:`numerics.adaptive_game.charge_costs` at t = t_i); an unused charge keeps its ``old`` price. A heuristic:
    it only steers the LP."""
    out = np.array(old, float)
    charges = ag.charge_grids(ctx["g"], ctx["sigma"], ctx["rates"], h)
    for i, t in enumerate(at):
        if t > 0.0:
            c = float(ag.charge_costs(ctx["g"], ctx["sigma"], ctx["steps"], eps, h, [charges[i]],
                                      t=min(max(float(t), floor), 0.5))[0])
            if c > 0.0 and math.isfinite(c):
                out[i] = c
    return out


def price_search(ctx: dict, costs, *, focus: int = 0, secant_rounds: int = 2, pattern_rounds: int = 2,
                 factor: float = 4.0, price_h: float | None = None, log=None) -> dict:
    r"""The LP's prices steered by the game (module docstring): start at ``costs``; ``secant_rounds`` of secant
    re-pricing at the used weights (on the lattice ``price_h``, default 8 h); then ``pattern_rounds`` sweeps moving
    one charge's price by ``factor`` up or down, a move kept if δ at ``eps[focus]`` falls (the factor is square-rooted
    after a sweep without a gain). Returns {"delta" (elementwise minimum over every iterate: a proven bound),
    "best" (the iterate with the least δ at the focus), "first" (the LP prices' iterate),
    "history": [(kind, costs, δ at focus, kept, cpu)]}."""
    price_h = 8.0 * ctx["h"] if price_h is None else price_h
    eps_f = float(ctx["eps"][focus])
    history = []

    def evaluate(kind, c):
        r = priced_cover(ctx, c, focus=focus, policy=True)
        history.append((kind, np.array(c, float), float(r["delta"][focus]), r["kept"], r["cpu"]))
        if log:
            log(history[-1])
        return r

    best = first = evaluate("start", np.asarray(costs, float))
    delta = best["delta"].copy()
    current = best
    for _ in range(secant_rounds):
        c = secant_costs(ctx, eps_f, price_h, used_weights(current["corner_w"], current["usage"]), current["costs"])
        current = evaluate("secant", c)
        delta = np.minimum(delta, current["delta"])
        if current["delta"][focus] < best["delta"][focus]:
            best = current
    for _ in range(pattern_rounds):
        gained = False
        for i in range(len(ctx["rates"])):
            for f in (factor, 1.0 / factor):
                c = best["costs"].copy()
                c[i] *= f
                r = evaluate(f"price {i} x{f:.3g}", c)
                delta = np.minimum(delta, r["delta"])
                if r["delta"][focus] < best["delta"][focus]:
                    best, gained = r, True
                    break
        if not gained:
            factor = math.sqrt(factor)
    return {"delta": delta, "best": best, "first": first, "history": history}


#: The pair with P = Q (privacy loss 0): a member the adversary may always play (§7n (ii)).
NULL_PAIR = GridPLD(0, np.ones(1), 0.0)


def _block_delta(menu: dict, steps: int, block: int, h: float, eps: float) -> float:
    """δ(eps) of the block game over ``menu`` (span 8 × the block's spread, not widened), steering only."""
    res = block_composition_upper(menu, steps, block, h, [eps], span=8.0 * ag.loss_spread(menu, block, h), widen=0)
    return float(res["delta"][0])


def added_delta(base: dict, action, *, steps: int, block: int, h: float, eps: float, base_delta: float) -> float:
    """What one extra ``action`` adds to the block game's δ(eps) over ``base`` (whose δ is ``base_delta``)."""
    return _block_delta({**base, "added": action}, steps, block, h, eps) - base_delta


def block_prices(orders: dict, charges, *, steps: int, block: int, h: float, eps: float, weights) -> np.ndarray:
    r"""Per charge pair C_i, (δ of the block game over {PQ, QP, 0, (1 - w_i) PQ + w_i C_i} minus δ over {PQ, QP, 0})
    / w_i at ``eps``: the price of weight on the strongest member, read where the headline's δ is decided (§7s; the
    first-order :func:`numerics.adaptive_game.charge_costs` composes S_g non-adaptively instead). ``orders``: the
    two orders' upper grids {"PQ", "QP"}. A heuristic for the LP: it cannot affect soundness."""
    base = {**orders, "null": NULL_PAIR}
    d0 = _block_delta(base, steps, block, h, eps)
    return np.array([added_delta(base, ag.mix_grids([(1.0 - w, orders["PQ"]), (w, c)]), steps=steps, block=block,
                                 h=h, eps=eps, base_delta=d0) / w for w, c in zip(weights, charges)])


def jump_limits(orders: dict, charges, *, steps: int, block: int, h: float, eps: float, tol: float,
                grid=np.geomspace(1e-14, 0.5, 40)) -> np.ndarray:
    r"""Per charge pair C_i, the largest weight w of ``grid`` (bisection, assuming the added δ nondecreasing in w) at
    which the jump action (1 - w) 0 + w C_i — the charge behind the weakest member, the null pair — adds at most
    ``tol`` to the block game's δ over {PQ, QP, 0} at ``eps`` (§7s); 0 if even the smallest does not. A heuristic
    (a steering limit for the LP), not a bound."""
    base = {**orders, "null": NULL_PAIR}
    d0 = _block_delta(base, steps, block, h, eps)
    out = []
    for c in charges:
        def ok(w):
            return added_delta(base, ag.mix_grids([(1.0 - w, NULL_PAIR), (w, c)]), steps=steps, block=block, h=h,
                               eps=eps, base_delta=d0) <= tol
        lo, hi = -1, len(grid)  # grid[lo] passes (or none), grid[hi] fails (or none)
        while hi - lo > 1:
            mid = (lo + hi) // 2
            lo, hi = (mid, hi) if ok(float(grid[mid])) else (lo, mid)
        out.append(float(grid[lo]) if lo >= 0 else 0.0)
    return np.array(out)
