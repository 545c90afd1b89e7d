"""The tilted correlation of numerics.adaptive_game._expect (docs/replace_one.md section 7o).

The tests try to break its proven entrywise bound: on small random vectors whose values span many orders (so that the
tilts are used) the upper value is >= the exact correlation (mpmath, 60 digits) and the lower one <= it; where V is
small the proven interval is orders of magnitude narrower than the untilted one; and a game value is unchanged to its
printed digits."""
from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from scipy.special import ndtr

from numerics import adaptive_game as ag
from numerics.pld import GridPLD


def _extended(v: np.ndarray, kmin: int, h: float, step: GridPLD, mode: str) -> np.ndarray:
    """The extended value function of _expect (its documented convention), for the exact reference."""
    k = np.arange(kmin + step.k0, kmin + len(v) - 1 + step.k0 + len(step.pmf))
    if mode == "upper":
        ext = np.where(k < kmin, v[0], 1.0)
    else:
        ext = np.where(k > kmin + len(v) - 1, np.clip(-np.expm1(-k * h), 0.0, 1.0), 0.0)
    inside = (k >= kmin) & (k < kmin + len(v))
    ext[inside] = v[k[inside] - kmin]
    return ext


def _exact(v: np.ndarray, kmin: int, h: float, step: GridPLD, mode: str) -> list:
    ext = _extended(v, kmin, h, step, mode)
    m = step.pmf
    with mpmath.workdps(60):
        return [mpmath.fsum(mpmath.mpf(float(m[j])) * mpmath.mpf(float(ext[i + j])) for j in range(len(m)))
                + mpmath.mpf(step.inf_mass) for i in range(len(v))]


def _case(seed: int, shape: str = "random"):
    """A nondecreasing V on a window of 240 points (h 0.05) and a step PMF of 41 atoms, perturbed at random.
    "random": log V convex (from 1e-40 to 1), masses spanning 1e-30 to 1e-1 at random (the tilts rarely win);
    "tail": V a normal CDF (log-concave, down to 1e-40 at the bottom, like the game's tails) and a Gaussian-shaped
    PMF (the tilts win on the lower half)."""
    rng = np.random.default_rng(seed)
    h, kmin = 0.05, -200
    k = kmin + np.arange(240)
    if shape == "random":
        x = np.linspace(-1.0, 0.0, 240)
        v = np.minimum(np.exp(np.cumsum(rng.uniform(0.5, 1.5, 240)) / 240.0 * 92.0 * (1 + x) - 92.0), 1.0)
        logm = -rng.uniform(0.0, 30.0 * math.log(10.0), 41)
    else:
        v = ndtr(k * h / 0.75 + 3.0) * rng.uniform(0.8, 1.0, 240)
        logm = -0.5 * ((np.arange(41) - 20) / 6.0) ** 2 + rng.uniform(-0.2, 0.2, 41)
    v = np.maximum.accumulate(v)
    pmf = np.exp(logm) / np.exp(logm).sum() * 0.999
    return v, kmin, h, GridPLD(int(rng.integers(-30, 0)), pmf, 1e-3 * rng.random())


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("shape", ["random", "tail"])
@pytest.mark.parametrize("mode", ["upper", "lower"])
def test_tilted_values_bracket_the_exact_correlation(seed, shape, mode):
    v, kmin, h, step = _case(seed, shape)
    got = ag._expect(v, kmin, h, step, mode)
    exact = _exact(v, kmin, h, step, mode)
    for g, e in zip(got, exact):
        assert (g >= e) if mode == "upper" else (g <= e)


def test_tilting_narrows_the_proven_interval_where_v_is_small(monkeypatch):
    """Where V is below 1e-10 the untilted interval [lower, upper] is at least the FFT's absolute floor (~8e-13 here);
    the tilted one is narrower by more than eight orders of magnitude there, and never wider anywhere (a log-concave
    V and a Gaussian-shaped step, as in the game)."""
    v, kmin, h, step = _case(11, "tail")
    step = GridPLD(step.k0, step.pmf, 0.0)
    tilted = [ag._expect(v, kmin, h, step, mode) for mode in ("upper", "lower")]
    monkeypatch.setattr(ag, "_MAX_TILTS", 0)
    plain = [ag._expect(v, kmin, h, step, mode) for mode in ("upper", "lower")]
    width_t, width_p = tilted[0] - tilted[1], plain[0] - plain[1]
    assert np.all(width_t <= width_p)
    low = tilted[0] < 1e-10
    assert low.sum() > 50
    assert np.all(width_p[low] > 1e-13)
    assert np.all(width_t[low] < 1e-8 * width_p[low])


def test_game_value_unchanged_to_printed_digits(monkeypatch):
    """The {S} game of tests/test_block_game.py (g 0.2, sigma 1, six steps): the tilted value is never above the
    untilted one and equal to it to 9 significant digits (the FFT floor there is far below the values)."""
    g, sigma, steps, h = 0.2, 1.0, 6, 5e-3
    s = ag.order_grids(g, sigma, h, 1e-14 / steps)["S"]
    eps = np.array([0.5, 1.0, 2.0])
    tilted = ag.game_delta({"S": s}, steps, h, eps, mode="upper")["delta"]
    monkeypatch.setattr(ag, "_MAX_TILTS", 0)
    plain = ag.game_delta({"S": s}, steps, h, eps, mode="upper")["delta"]
    assert np.all(tilted <= plain)
    assert [f"{x:.9g}" for x in tilted] == [f"{x:.9g}" for x in plain]
