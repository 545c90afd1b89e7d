"""numerics.pure_dp's brackets contain the exact optimal composition, with no tolerance (issue 29 audit, A29C).

The reference enumerates every outcome of the randomized-response composition in mpmath at 300 bits,
with the loss of each outcome computed exactly from the float eps0 (mpf holds every float exactly).
"""
import itertools
import math
from fractions import Fraction

import mpmath
import pytest

from numerics import pure_dp


def _exact_delta(eps0s, eps) -> mpmath.mpf:
    """sum over outcomes of (P - e^eps Q)_+, RR(eps0_i) per step, at 300 bits."""
    with mpmath.workprec(300):
        e0 = [mpmath.mpf(x) for x in eps0s]
        norm = mpmath.fprod(1 + mpmath.exp(x) for x in e0)
        total = mpmath.mpf(0)
        for bits in itertools.product((0, 1), repeat=len(e0)):
            loss = mpmath.fsum(x if b else -x for x, b in zip(e0, bits))
            if loss > eps:
                log_p = mpmath.fsum(x for x, b in zip(e0, bits) if b)
                total += mpmath.exp(log_p) * -mpmath.expm1(mpmath.mpf(eps) - loss)
        return total / norm


@pytest.mark.parametrize("eps0s,eps", [
    ([0.1] * 3, 0.3),        # the float loss 3 * 0.1 is an ulp above the exact one: delta was off by 2x
    ([0.7] * 5, 2.1), ([0.3] * 10, 1.2), ([0.5] * 6, 0.7), ([1.0] * 3, 0.0),
])
def test_kov_delta_contains_the_exact_value(eps0s, eps):
    """Homogeneous (KOV): before A29C the double value widened by 1e-9 relative gave, at eps0 0.1, T 3,
    epsilon 0.3, a lower end of 8.03e-18 above the exact 4.02e-18."""
    b = pure_dp.optimal_composition_delta(eps0s, eps)
    exact = _exact_delta(eps0s, eps)
    assert b.delta_lower <= exact <= b.delta_upper


@pytest.mark.parametrize("eps0s,eps", [([0.3, 0.7, 1.1, 0.2], 0.5), ([0.1, 0.3, 0.3], 0.4), ([0.25, 0.5], 0.75)])
def test_heterogeneous_delta_contains_the_exact_value(eps0s, eps):
    b = pure_dp.optimal_composition_delta(eps0s, eps, rel_width=1e-2)
    exact = _exact_delta(eps0s, eps)
    assert b.delta_lower <= exact <= b.delta_upper


@pytest.mark.parametrize("eps0s,delta", [([0.1] * 3, 1e-17), ([0.2] * 50, 1e-3), ([0.5] * 8, 1e-6)])
def test_kov_epsilon_ends_are_on_their_sides_exactly(eps0s, delta):
    b = pure_dp.optimal_composition_epsilon(eps0s, delta)
    assert b.epsilon_lower <= b.epsilon_upper
    if len(eps0s) <= 12:
        assert _exact_delta(eps0s, b.epsilon_upper) <= delta
        assert b.epsilon_lower == 0 or _exact_delta(eps0s, b.epsilon_lower) > delta


def test_grid_index_is_on_its_side_exactly():
    """The float rule ceil(eps0/h - 1e-12) put k h an ulp below eps0 here (an upper grid pair below the
    mechanism it must dominate)."""
    eps0, h = 3.951248427406346, 0.0007717282084778019
    up, down = pure_dp._grid_pair(eps0, h, True), pure_dp._grid_pair(eps0, h, False)
    assert -up.k0 * Fraction(h) >= Fraction(eps0) >= -down.k0 * Fraction(h)
    with mpmath.workprec(300):
        e = -up.k0 * mpmath.mpf(h)
        assert up.pmf[-1] >= 1 / (1 + mpmath.exp(-e)) and up.pmf[0] >= 1 / (1 + mpmath.exp(e))
        e = -down.k0 * mpmath.mpf(h)
        assert down.pmf[-1] <= 1 / (1 + mpmath.exp(-e)) and down.pmf[0] <= 1 / (1 + mpmath.exp(e))
