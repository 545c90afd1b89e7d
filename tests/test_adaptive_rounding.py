"""The adaptive lower end's dynamic programme rounds every value down (issue 29 audit A29F).

Before: block masses were float bin sums of (entry - noise) (214 of 1,801 bins above their exact sum at
ratio 5), terminal values (1 - e^{-K H})_+ used libm expm1 at the float K * fl(ratio h) (1,221 of 2,857
above the truth), the reported epsilon -K * fl(ratio h) sat above the exact grid point it was proven at
(1,463 of 4,999) and delta() read its value at a grid point 1 ulp below epsilon in 734 of 2,000 random
alignments. Each is checked here against exact rationals or mpmath at 50 digits.
"""
import random
from fractions import Fraction

import mpmath as mp
import numpy as np

from numerics import adaptive as ad


def test_block_masses_are_below_their_exact_sums():
    g, sigma, h = 0.01, 1.0, 2e-3
    low = ad.discretise_optimistic(ad.step_pair("PQ", g, sigma), h, 1e-14)
    for ratio in (5, 40):
        blocks = ad._Blocks(low, h, 1e-12, ratio)
        k0, m, _, _ = blocks.lower(50)
        c = blocks.chernoff.compose(50)
        noise = Fraction(c.noise)
        coarse = np.floor_divide(c.k0 + np.arange(len(c.pmf)), ratio)
        assert int(coarse[0]) == k0
        exact = [Fraction(0)] * len(m)
        for i, p in zip(coarse - coarse[0], c.pmf):
            exact[i] += max(Fraction(float(p)) - noise, Fraction(0))
        assert all(Fraction(float(x)) <= e for x, e in zip(m, exact))


def test_terminal_values_are_below_one_minus_exp():
    h, ratio = 3.0796e-5, 7
    ks = np.arange(-50, 20000, 7)
    vals = ad._terminal(ks, ratio, h)
    with mp.workdps(50):
        for k, v in zip(ks, vals):
            exact = max(1 - mp.exp(-mp.mpf(int(k) * ratio) * mp.mpf(h)), 0)
            assert mp.mpf(float(v)) <= exact


def test_reported_epsilon_is_below_its_exact_grid_point():
    h, ratio = 3.0796e-5, 7
    ks = np.arange(-2000, 5000)
    lows = ad.grid_eps(ks, ratio, h, -1)
    assert all(Fraction(float(e)) <= Fraction(int(k) * ratio) * Fraction(h) for k, e in zip(ks, lows))


def test_delta_is_read_at_a_grid_point_at_or_above_epsilon():
    rng = random.Random(1)
    for _ in range(2000):
        eps, ratio, h = 10 ** rng.uniform(-2, 1.5), rng.randint(1, 50), 10 ** rng.uniform(-6, -3)
        h = ad._aligned_step(eps, ratio, h)
        k = ad._index_at_or_above(eps, ratio, h)
        assert Fraction(k * ratio) * Fraction(h) >= Fraction(eps) > Fraction((k - 1) * ratio) * Fraction(h)
        # the aligned step keeps epsilon on its own grid point (a few ulps above), not a step H above
        assert Fraction(k * ratio) * Fraction(h) <= Fraction(eps) * (1 + Fraction(1, 10 ** 15))
