"""Block composition of the adaptive game (numerics.block_game; docs/replace_one.md section 7n, Lemma B).

The tests try to break the two proven steps: the pair built from a profile bound dominates every convex profile
below the reads (at alpha off the lattice too), and composing the block pair is never below the game it bounds
(the full game over the same menu, and the exhaustive adaptive adversary of tests/adaptive_oracle.py)."""
from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.special import ndtr

from numerics import adaptive_game as ag
from numerics import block_game as bg
from numerics.errors import InvalidParameter

from . import adaptive_oracle as oracle


def _gaussian_profile(mu: float, alpha: np.ndarray) -> np.ndarray:
    """H_alpha(N(mu) || N(0)) in closed form (the true profile the reads bound)."""
    x = np.log(alpha) / mu
    return ndtr(mu / 2.0 - x) - alpha * ndtr(-mu / 2.0 - x)


def _pair_profile(pair, h: float, alpha: np.ndarray) -> np.ndarray:
    """H_alpha of a grid pair: sum_j p_j (1 - alpha e^{-k_j h})_+ + p_inf."""
    k = pair.k0 + np.arange(len(pair.pmf))
    return np.array([float(np.sum(pair.pmf * np.clip(1.0 - a * np.exp(-k * h), 0.0, None))) + pair.inf_mass
                     for a in alpha])


@pytest.mark.parametrize("noise", [0.0, 1e-3])
def test_profile_pair_dominates_the_profile_between_and_beyond_the_reads(noise):
    """Reads = a Gaussian pair's exact profile at the lattice, raised by random amounts (an upper bound, not
    convex): the pair's profile is >= the true profile at 3000 alphas off the lattice, inside and outside the
    read range, and the first law's masses sum to 1 (Q's to at most 1)."""
    rng = np.random.default_rng(7)
    h, mu, span = 0.01, 1.3, 3.0
    k = np.arange(-round(span / h), round(span / h) + 1)
    u = np.minimum(_gaussian_profile(mu, np.exp(k * h)) + noise * rng.random(len(k)), 1.0)
    pair = bg.profile_pair(k, u, h)
    alpha = np.exp(rng.uniform(-span - 2.0, span + 2.0, 3000))
    assert np.all(_pair_profile(pair, h, alpha) >= _gaussian_profile(mu, alpha) - 1e-13)
    total = float(pair.pmf.sum()) + pair.inf_mass
    assert 1.0 - 1e-12 <= total <= 1.0 + 1e-9
    q = float(np.sum(pair.pmf * np.exp(-(pair.k0 + np.arange(len(pair.pmf))) * h)))
    assert q <= 1.0 + 1e-12


def test_profile_pair_is_tight_on_a_convex_read():
    """Exact reads of a convex profile: the pair's profile equals them at the lattice (to rounding)."""
    h, mu = 0.02, 0.8
    k = np.arange(-150, 151)
    u = _gaussian_profile(mu, np.exp(k * h))
    pair = bg.profile_pair(k, u, h)
    assert np.max(np.abs(_pair_profile(pair, h, np.exp(k * h)) - u)) < 1e-12


def test_profile_pair_refuses_bad_input():
    with pytest.raises(InvalidParameter):
        bg.profile_pair(np.array([0, 0]), np.array([0.5, 0.4]), 0.1)
    with pytest.raises(InvalidParameter):
        bg.profile_pair(np.array([0, 1]), np.array([0.5, math.nan]), 0.1)
    with pytest.raises(InvalidParameter):
        bg.block_composition_upper({"S": ag.order_grids(0.2, 1.0, 1e-2, 1e-14)["S"]}, 3, 4, 1e-2, [1.0])


@pytest.mark.parametrize("block", [1, 2, 3, 6])
def test_block_composition_of_s_is_the_composition_of_s(block):
    """Menu {S}: every block size gives back the T-fold composition of S (the game over {S}), from above."""
    g, sigma, steps, h = 0.2, 1.0, 6, 5e-3
    grids = ag.order_grids(g, sigma, h, 1e-14 / steps)
    eps = np.array([0.5, 1.0, 2.0])
    direct = ag.game_delta({"S": grids["S"]}, steps, h, eps, mode="upper")["delta"]
    res = bg.block_composition_upper({"S": grids["S"]}, steps, block, h, eps)
    assert np.all(res["delta"] >= direct - 1e-12)
    assert np.all(res["delta"] <= direct * (1.0 + 1e-6) + res["tail"] + 1e-10)


@pytest.mark.parametrize("block", [2, 3, 4])
def test_block_composition_is_above_the_game_it_bounds(block):
    """Menu of the two orders (a menu whose game the blocks bound, whatever it dominates): the composed block pair
    is never below the full per-step game, and (blocks dividing T) not above the composition of one-step blocks."""
    g, sigma, steps, h = 0.3, 1.0, 12, 5e-3
    menu = dict(ag.order_grids(g, sigma, h, 1e-14 / steps)["upper"])
    eps = np.array([0.5, 1.5])
    full = ag.game_delta(menu, steps, h, eps, mode="upper")["delta"]
    res = bg.block_composition_upper(menu, steps, block, h, eps)
    assert np.all(res["delta"] >= full - 1e-12)
    one = bg.block_composition_upper(menu, steps, 1, h, eps)["delta"]
    assert np.all(res["delta"] <= one + 1e-12)


def test_block_composition_over_the_cover_is_above_the_exhaustive_adversary():
    """The proven chain (Theorem C'' cover, Theorem G per block, Lemma B across blocks) against the exhaustive
    adaptive adversary of the oracle: n = 4 records, b = 1 (g = 1/4), sigma 1, two steps as one block of two
    and as two blocks of one."""
    g, sigma, steps, eps, h = 0.25, 1.0, 2, 0.5, 4e-3
    rates = (0.5, 1.0)
    menu = bg.charged_cover_menu(g, sigma, h, 8, rates=rates, costs=(0.1, 1.0), cells=(300, 300), n_beta=60)
    value = oracle.adaptive_delta(oracle.menu(4, 1), sigma, steps, eps)
    for block in (1, 2):
        up = bg.block_composition_upper(menu, steps, block, h, [eps])["delta"][0]
        assert value <= up + 1e-9


def test_upper_window_bottom_uses_the_monotone_value():
    """The upper mode extends V below the window by its value at the window's bottom (V is nondecreasing): a
    narrower window never gives a smaller upper value than a wide one."""
    g, sigma, steps, h = 0.2, 1.0, 5, 1e-2
    s = ag.order_grids(g, sigma, h, 1e-14)["S"]
    eps = [1.0]
    wide = ag.game_delta({"S": s}, steps, h, eps, mode="upper")["delta"][0]
    narrow = ag.game_delta({"S": s}, steps, h, eps, mode="upper", window=(-1.3, 3.0))["delta"][0]
    assert narrow >= wide - 1e-15
    assert narrow < 1.0


@pytest.mark.parametrize("steps,block", [(7, 3), (8, 3), (5, 2)])
def test_remainder_block_over_s_is_the_composition_of_s(steps, block):
    """T = q m + r with r > 0: q blocks of m and one block of r over the menu {S} give back the T-fold composition of
    S from above (and not above it by more than the tail and rounding)."""
    g, sigma, h = 0.2, 1.0, 5e-3
    s = ag.order_grids(g, sigma, h, 1e-14 / steps)["S"]
    eps = np.array([0.5, 1.0, 2.0])
    direct = ag.game_delta({"S": s}, steps, h, eps, mode="upper")["delta"]
    res = bg.block_composition_upper({"S": s}, steps, block, h, eps)
    assert res["remainder"] == steps % block and res["blocks"] == steps // block + 1
    assert np.all(res["delta"] >= direct - 1e-12)
    assert np.all(res["delta"] <= direct * (1.0 + 1e-6) + res["tail"] + 1e-10)


@pytest.mark.parametrize("steps,block", [(11, 3), (12, 5)])
def test_remainder_block_is_above_the_game_and_below_padded_blocks(steps, block):
    """Two orders' menu, T not a multiple of m: the remainder composition is never below the full per-step game and
    never above ceil(T/m) full blocks (the padded construction it replaces)."""
    g, sigma, h = 0.3, 1.0, 5e-3
    menu = dict(ag.order_grids(g, sigma, h, 1e-14 / steps)["upper"])
    eps = np.array([0.5, 1.5])
    full = ag.game_delta(menu, steps, h, eps, mode="upper")["delta"]
    res = bg.block_composition_upper(menu, steps, block, h, eps)
    assert np.all(res["delta"] >= full - 1e-12)
    padded = bg.block_composition_upper(menu, block * math.ceil(steps / block), block, h, eps)["delta"]
    assert np.all(res["delta"] <= padded + 1e-12)
