"""numerics.cover_prices (issue 35; docs/replace_one.md section 7p): charge weights steered by the game.

What must hold whatever the prices: every cell's weights cover its slack (Theorem C'' needs nothing else), the cover
built from them dominates sampled members (exact profiles, the Theorem C'' helper of test_adaptive_game), and every
iterate of the price search is an upper bound (above the certified two-order lower end; the exhaustive adaptive
oracle is checked against the cover in test_adaptive_game). No expected number is typed in."""
from __future__ import annotations

import math

import numpy as np
import pytest

from numerics import adaptive_game as ag
from numerics import cover_prices as cp
from numerics.errors import InvalidParameter

from .test_adaptive_game import _assert_charged_cover_dominates


def test_cached_slacks_give_the_weights_of_cell_weights_and_any_prices_are_feasible():
    """fill_cell_weights with a slack cache reproduces cell_weights cell by cell; with the cache filled, random price
    vectors over six decades give weights >= 0 that cover the slack on every beta interval (recomputed here)."""
    g, sigma, m, rates = 0.05, 1.5, 8, (0.0625, 0.1, 0.2, 1.0)
    unit = 2 * math.pi / m
    part = {(i, j, 1) for i in range(m) for j in range(m)}
    cost = np.array([1e-3, 6e-3, 4e-2, 2.0])
    slacks, weights = {}, {}
    ag.fill_cell_weights(weights, part, m, g, sigma, rates=rates, costs=cost, log_beta_max=12.0, n_beta=60,
                         slacks=slacks)
    for c in [(4, 0, 1), (2, 5, 1), (1, 1, 1)]:
        ref = ag.cell_weights(g, sigma, (c[0] * unit, (c[0] + 1) * unit), (c[1] * unit, (c[1] + 1) * unit),
                              rates=rates, cost=cost, n_beta=60)
        assert np.allclose(weights[c], ref, rtol=1e-9, atol=0.0)  # (1, 1) reuses its mirror's (6, 6) weights
    betas, floors = ag.charge_floors(g, sigma, rates, 12.0, 60)
    rng = np.random.default_rng(35)
    for _ in range(4):
        prices = 10.0 ** rng.uniform(-4, 2, len(rates))
        w = {}
        ag.fill_cell_weights(w, part, m, g, sigma, rates=rates, costs=prices, log_beta_max=12.0, n_beta=60,
                             slacks=slacks)
        for cell, s in slacks.items():
            assert (w[cell] >= 0).all() and (w[cell] @ floors >= s).all()


def test_priced_weights_still_give_a_cover():
    """Theorem C'' with weights from prices far from charge_costs' (G cheap, the small rates dear, and the reverse):
    a sampled member is dominated by its cell's corner pairs (exact profiles). Only the 3 x 3 cells around the
    member's cell are weighted: its corners then carry at most the weights of the full partition, which makes the
    check harder, not easier (a corner pair's profile is nondecreasing in its weights)."""
    g, sigma, m, rates = 0.05, 1.5, 16, (0.0625, 0.1, 0.2, 1.0)
    slacks = {}
    for prices, (cell, a, b) in (((1.0, 1.0, 1.0, 1e-3), ((8, 0, 1), 0.3, 0.8)),
                                 ((1e-3, 1.0, 10.0, 100.0), ((4, 12, 1), 0.5, 0.5))):
        part = {((cell[0] + x) % m, (cell[1] + y) % m, 1) for x in (-1, 0, 1) for y in (-1, 0, 1)}
        w = {}
        ag.fill_cell_weights(w, part, m, g, sigma, rates=rates, costs=np.array(prices), log_beta_max=12.0,
                             n_beta=60, slacks=slacks)
        corner = ag.partition_corner_weights(part, m, w)
        _assert_charged_cover_dominates(g, sigma, m, part, corner, rates, [(cell, a, b)])


def test_price_search_iterates_are_upper_bounds():
    """Every iterate of the price search (secant and pattern moves) lies above the certified two-order lower end
    (g = 1/4, sigma = 2, T = 2, N = 16, charges S_{1.25g}, S_{2g}, G: the corner pairs are not the all-G fallback, as
    in the slow Theorem C'' test of test_adaptive_game, which also checks the exhaustive oracle); the returned delta
    is the minimum over the iterates, and the weights of the best prices cover every cell's slack."""
    g, sigma, steps, eps, h = 0.25, 2.0, 2, 0.5, 2e-3
    rates = (0.3125, 0.5, 1.0)
    ctx = cp.cover_context(g=g, sigma=sigma, steps=steps, eps=[eps], h=h, n_cells=16, rates=rates, cells=(200, 200),
                           n_beta=60)
    costs = ag.charge_costs(g, sigma, steps, eps, 8 * h, ag.charge_grids(g, sigma, rates, 8 * h))
    out = cp.price_search(ctx, costs, secant_rounds=1, pattern_rounds=1, factor=4.0)
    deltas = [d for _, _, d, _, _ in out["history"]]
    assert len(deltas) >= 3 and out["delta"][0] == min(deltas)
    lower = ag.orders_lower(g=g, sigma=sigma, steps=steps, eps=[eps], h=h)["delta"][0]
    assert all(d >= lower for d in deltas)
    assert out["best"]["kept"] > 1  # not the fallback menu
    _, floors = ag.charge_floors(g, sigma, rates, 12.0, 60)
    w = {}
    ag.fill_cell_weights(w, ctx["partition"], 16, g, sigma, rates=rates, costs=out["best"]["costs"], log_beta_max=12.0,
                         n_beta=60, slacks=ctx["slacks"])
    assert all((w[c] >= 0).all() and (w[c] @ floors >= ctx["slacks"][c]).all() for c in ctx["slacks"])


def test_bad_prices_are_rejected():
    ctx = cp.cover_context(g=0.25, sigma=2.0, steps=2, eps=[0.5], h=2e-3, n_cells=4, rates=(0.5, 1.0), n_beta=20)
    with pytest.raises(InvalidParameter):
        cp.priced_cover(ctx, [1.0])
    with pytest.raises(InvalidParameter):
        cp.priced_cover(ctx, [1.0, 0.0])


def _small_block_setting():
    g, sigma, h = 0.05, 1.5, 1e-2
    orders = ag.order_grids(g, sigma, h, 1e-14)["upper"]
    return orders, ag.charge_grids(g, sigma, (0.0625, 0.2, 1.0), h), dict(steps=20, block=10, h=h, eps=1.5)


def test_jump_limits_are_the_last_grid_weight_within_tolerance():
    """Section 7s: each limit is a grid weight whose jump action adds at most tol to the block game's delta over
    {PQ, QP, 0}, and the next grid weight adds more (the bisection's claim, recomputed here with added_delta)."""
    orders, charges, kw = _small_block_setting()
    grid, tol = np.geomspace(1e-8, 0.5, 12), 1e-7
    limits = cp.jump_limits(orders, charges, tol=tol, grid=grid, **kw)
    base = {**orders, "null": cp.NULL_PAIR}
    d0 = cp._block_delta(base, kw["steps"], kw["block"], kw["h"], kw["eps"])

    def added(w, c):
        return cp.added_delta(base, ag.mix_grids([(1.0 - w, cp.NULL_PAIR), (w, c)]), base_delta=d0, **kw)

    for lim, c in zip(limits, charges):
        at = int(np.searchsorted(grid, lim)) if lim > 0 else -1
        if at >= 0:
            assert grid[at] == lim and added(lim, c) <= tol
        if at + 1 < len(grid):
            assert added(float(grid[at + 1]), c) > tol


def test_block_prices_are_finite_and_charge_more_for_heavier_pairs():
    """Section 7s: the prices read off the block game are finite and positive, and grow with the charge pair's rate
    (a pair at a higher rate dominates one at a lower rate, so behind the same member it can only add more)."""
    orders, charges, kw = _small_block_setting()
    prices = cp.block_prices(orders, charges, weights=(1e-3, 1e-3, 1e-6), **kw)
    assert np.isfinite(prices).all() and (prices > 0).all()
    assert (np.diff(prices) > 0).all()
