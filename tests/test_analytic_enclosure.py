"""The full-batch Gaussian route (numerics.analytic_gaussian) against mpmath at 60 digits (issue 29).

The float profile numerics.gdp.delta_gdp cancels to about u/mu relative for small mu; the route used to
trust it to 1e-10 and returned, at mu = 1e-8 and epsilon 0, a delta bracket 3e-9 below the truth and an
epsilon upper end 0 where epsilon is positive. Every end is now an Arb ball's end.
"""
import math

import mpmath as mp
import numpy as np
import pytest

import numerics
from numerics.analytic_gaussian import delta_analytic, epsilon_analytic, mu_bounds
from numerics.schedule import Phase, Schedule


def _exact_delta(eps, mu):
    with mp.workdps(60):
        e, m = mp.mpf(eps), mp.mpf(mu)
        return mp.ncdf(-e / m + m / 2) - mp.exp(e) * mp.ncdf(-e / m - m / 2)


def _exact_mu(phases, shift):
    with mp.workdps(60):
        return shift * mp.sqrt(mp.fsum(mp.mpf(p.steps) / mp.mpf(p.sigma) ** 2 for p in phases))


def test_small_mu_delta_contains_the_truth():
    s = Schedule((Phase.full_batch(sigma=1e8, steps=1),))
    b = numerics.delta(s, 0.0)
    truth = _exact_delta(0.0, _exact_mu(s.phases, 1))
    assert b.certified and b.delta_lower <= truth <= b.delta_upper


def test_small_mu_epsilon_upper_is_not_zero_where_epsilon_is_positive():
    s = Schedule((Phase.full_batch(sigma=1e8, steps=1),))
    mu = _exact_mu(s.phases, 1)
    target = float(_exact_delta(0.0, mu)) * (1 - 1e-10)  # just below delta(0): epsilon > 0
    b = numerics.epsilon(s, target)
    assert b.epsilon_upper > 0 and _exact_delta(b.epsilon_upper, mu) <= target
    assert b.epsilon_lower == 0 or _exact_delta(b.epsilon_lower, mu) > target


def test_mu_bounds_enclose_mu_of_several_phases():
    phases = (Phase.full_batch(sigma=0.3, steps=7), Phase.full_batch(sigma=1.1, steps=3),
              Phase.full_batch(sigma=20.0, steps=1000))
    for shift, adj in ((1, "add-remove"), (2, "replace-one")):
        lo, hi = mu_bounds(phases, adj)
        assert lo <= _exact_mu(phases, shift) <= hi


@pytest.mark.parametrize("seed", range(3))
def test_random_probes_against_mpmath(seed):
    rng = np.random.default_rng(seed)
    for _ in range(12):
        mu = float(10.0 ** rng.uniform(-9, 1.5))
        eps = float(rng.choice([0.0, 10.0 ** rng.uniform(-12, 2.5)]))
        lo, hi = delta_analytic(mu, eps, "add-remove").delta_lower, delta_analytic(mu, eps, "add-remove").delta_upper
        assert lo <= _exact_delta(eps, mu) <= hi
        delta = float(10.0 ** rng.uniform(-15, -1))
        b = epsilon_analytic(mu, delta, "add-remove")
        assert b.epsilon_lower <= b.epsilon_upper and _exact_delta(b.epsilon_upper, mu) <= delta
        assert b.epsilon_lower == 0 or _exact_delta(b.epsilon_lower, mu) > delta
        assert math.isfinite(b.epsilon_upper)
