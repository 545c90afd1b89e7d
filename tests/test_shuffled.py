"""Shuffled batches (numerics.shuffled): both ends of the bracket against a brute-force oracle.

The oracle enumerates every permutation of n <= 4 records cut into batches of b (the batch holding the
target record), builds the realizable pair of numerics.shuffled's docstring (target gradient +e vs -e,
all others 0) as the exact Gaussian mixture over those permutations, and integrates its hockey-stick
divergence by quadrature. upper >= oracle >= lower at every epsilon, and the epsilon ends likewise.
"""
from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy import optimize
from scipy.stats import norm

import numerics
from numerics.errors import InvalidParameter
from numerics.schedule import Phase, Schedule
from numerics.shuffled import delta_shuffled, epsilon_shuffled


def _positions(n: int, b: int, steps: int) -> list:
    """Probability that the target record (index 0) is in step j of the first ``steps`` steps of one
    epoch, by enumerating the n! permutations (None of them: the remaining mass)."""
    counts = [0] * steps
    perms = list(itertools.permutations(range(n)))
    for perm in perms:
        j = perm.index(0) // b
        if j < steps:
            counts[j] += 1
    return [c / len(perms) for c in counts]


def _oracle_delta(n: int, b: int, steps: int, sigma: float, eps: float) -> float:
    """delta(eps) of the realizable pair for one (possibly partial) epoch of ``steps`` <= 2 steps: the
    exact mixture density integrated on a grid of step H over [-L, L]^steps (Gaussian tails beyond L
    below 1e-30; the grid's error, from the kink of (.)_+, is below ORACLE_TOL)."""
    w = _positions(n, b, steps)
    rest = 1.0 - sum(w)
    s = 1.0 / sigma
    grid = np.arange(-s - 12.0, s + 12.0 + H / 2, H)
    ys = np.meshgrid(*([grid] * steps), indexing="ij")
    base = np.prod([norm.pdf(y) for y in ys], axis=0)

    def dens(sign):
        return base * (sum(wj * np.exp(sign * s * ys[j] - s * s / 2) for j, wj in enumerate(w)) + rest)

    return float(np.sum(np.maximum(dens(+1) - math.exp(eps) * dens(-1), 0.0)) * H ** steps)


H = 0.01
ORACLE_TOL = 1e-4


CASES = [(2, 1, 2, 1.0), (3, 2, 2, 0.8), (4, 2, 2, 1.5), (4, 2, 1, 1.0), (3, 1, 1, 0.7)]


@pytest.mark.parametrize("n,b,steps,sigma", CASES)
def test_delta_bracket_contains_the_exact_divergence(n, b, steps, sigma):
    schedule = Schedule((Phase.shuffled(batch_size=b, dataset_size=n, sigma=sigma, steps=steps),), "replace-one")
    for eps in (0.3, 1.0, 2.0):
        exact = _oracle_delta(n, b, steps, sigma, eps)
        d = delta_shuffled(schedule, eps)
        assert d.delta_lower <= exact + ORACLE_TOL and exact <= d.delta_upper + ORACLE_TOL, (eps, d, exact)
        assert d.delta_upper - d.delta_lower > 10 * ORACLE_TOL  # the tolerance cannot decide the test
        assert d.delta_lower > 0  # the lower end is informative on these pairs


@pytest.mark.parametrize("n,b,steps,sigma", CASES[:3])
def test_epsilon_bracket_contains_the_exact_epsilon(n, b, steps, sigma):
    schedule = Schedule((Phase.shuffled(batch_size=b, dataset_size=n, sigma=sigma, steps=steps),), "replace-one")
    delta = 1e-2
    exact = optimize.brentq(lambda e: _oracle_delta(n, b, steps, sigma, e) - delta, 0.0, 30.0, xtol=1e-4)
    e = epsilon_shuffled(schedule, delta)
    assert e.epsilon_lower <= exact + 1e-3 and exact <= e.epsilon_upper + 1e-3, (e, exact)


def test_one_batch_per_epoch_is_the_full_batch_gaussian():
    """b = n: every step holds every record; the upper end is the analytic Gaussian of T full steps."""
    sh = numerics.epsilon(Schedule((Phase.shuffled(batch_size=2, dataset_size=2, sigma=1.3, steps=3),),
                                   "replace-one"), 1e-5)
    fb = numerics.epsilon(Schedule((Phase.full_batch(sigma=1.3, steps=3),), "replace-one"), 1e-5)
    assert sh.epsilon_upper == fb.epsilon_upper
    assert 0 < sh.epsilon_lower <= fb.epsilon_lower


def test_partial_epoch_counts_as_a_whole_epoch_in_the_upper_end():
    one = Schedule((Phase.shuffled(batch_size=10, dataset_size=100, sigma=1.0, steps=10),), "replace-one")
    part = Schedule((Phase.shuffled(batch_size=10, dataset_size=100, sigma=1.0, steps=11),), "replace-one")
    two = Schedule((Phase.shuffled(batch_size=10, dataset_size=100, sigma=1.0, steps=20),), "replace-one")
    assert epsilon_shuffled(one, 1e-5).epsilon_upper < epsilon_shuffled(part, 1e-5).epsilon_upper \
        == epsilon_shuffled(two, 1e-5).epsilon_upper


def test_note_names_epochs_and_poisson_beside():
    b = numerics.epsilon(Schedule((Phase.shuffled(batch_size=64, dataset_size=6400, sigma=1.0, steps=300),),
                                  "replace-one"), 1e-5)
    assert "3 epochs of ceil(N/B) = 100 steps" in b.details["note"]
    assert b.details["poisson_epsilon_upper"] is not None and "Poisson" in b.details["note"]
    assert b.epsilon_lower <= b.epsilon_upper


@pytest.mark.parametrize("make,match", [
    (lambda: Schedule((Phase.shuffled(batch_size=4, dataset_size=10, sigma=1, steps=5),)), "replace-one"),
    (lambda: Schedule((Phase.shuffled(batch_size=4, dataset_size=10, sigma=1, steps=5, noise="laplace"),),
                      "replace-one"), "Gaussian"),
    (lambda: Schedule((Phase.shuffled(batch_size=4, dataset_size=10, sigma=1, steps=5),
                       Phase.shuffled(batch_size=4, dataset_size=10, sigma=2, steps=5)), "replace-one"), "epochs"),
    (lambda: Schedule((Phase.shuffled(batch_size=4, dataset_size=10, sigma=1, steps=3),
                       Phase(0.1, 1.0, 5)), "replace-one"), "cannot"),
])
def test_unproven_cases_are_refused_in_one_line(make, match):
    with pytest.raises(InvalidParameter, match=match) as info:
        numerics.epsilon(make(), 1e-5)
    assert "\n" not in str(info.value)


def test_batch_larger_than_data_is_refused():
    with pytest.raises(InvalidParameter, match="batch_size must be <= dataset_size"):
        Phase.shuffled(batch_size=11, dataset_size=10, sigma=1, steps=5)
