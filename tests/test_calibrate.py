"""Calibration on certified bounds (numerics.calibrate): answers on the private side, checked against
the exact Gaussian mechanism (q = 1, Balle and Wang 2018 closed form, solved with scipy) and against
the certified bounds they were computed from."""
import math

import pytest
from scipy.optimize import brentq
from scipy.stats import norm

import numerics
from numerics import calibrate, pld
from numerics.errors import InvalidParameter
from numerics.precision import CALIBRATION_RTOL
from numerics.schedule import Schedule


def gaussian_delta(eps, mu):
    return norm.cdf(-eps / mu + mu / 2) - math.exp(eps) * norm.cdf(-eps / mu - mu / 2)


def exact_gaussian_sigma(steps, delta, epsilon):
    """sigma with exact eps(delta) = epsilon for `steps` compositions of the Gaussian mechanism."""
    return brentq(lambda s: gaussian_delta(epsilon, math.sqrt(steps) / s) - delta, 0.05, 100.0, rtol=1e-14)


def test_calibrated_sigma_is_private_and_within_tolerance_of_exact_at_q1():
    sigma = calibrate.calibrate_sigma(q=1.0, steps=4, delta=1e-5, epsilon=2.0)
    exact = exact_gaussian_sigma(4, 1e-5, 2.0)
    assert sigma >= exact  # private side: never below the exact answer
    assert sigma <= exact * (1 + 5e-3)  # eps width 1e-3 + search tolerance
    # q = 1 is a full batch: calibrated on the closed form, re-checked by the accountant that computed it
    assert numerics.epsilon(Schedule.constant(q=1.0, sigma=sigma, steps=4), 1e-5).epsilon_upper <= 2.0


def test_calibrated_sigma_subsampled_recheck_and_resolution():
    kw = dict(q=0.01, steps=1000, delta=1e-5)
    sigma = calibrate.calibrate_sigma(**kw, epsilon=1.0)
    assert pld.epsilon_pld(Schedule.constant(q=0.01, sigma=sigma, steps=1000), 1e-5).epsilon_upper <= 1.0
    below = pld.epsilon_pld(Schedule.constant(q=0.01, sigma=sigma * (1 - 10 * CALIBRATION_RTOL) * 0.99,
                                              steps=1000), 1e-5)
    assert below.epsilon_lower > 1.0  # a slightly smaller sigma is certainly not private enough


def test_rdp_calibration_needs_at_least_the_pld_sigma():
    kw = dict(q=0.01, steps=1000, delta=1e-5, epsilon=1.0)
    assert calibrate.calibrate_sigma(**kw, method="rdp") >= calibrate.calibrate_sigma(**kw)


def test_critical_steps_brackets_the_exact_critical_T():
    kw = dict(q=0.01, sigma=1.0, delta=1e-5, epsilon=1.0)
    got = calibrate.critical_steps_bracket(**kw)
    t_up, t_low = got["steps"], got["steps_exceeding"]
    assert 1 <= t_up < t_low
    assert calibrate.critical_steps(**kw) == t_up

    def bounds(t):
        return pld.epsilon_pld(Schedule.constant(q=0.01, sigma=1.0, steps=t), 1e-5)
    assert bounds(t_up).epsilon_upper <= 1.0 < bounds(t_up + 1).epsilon_upper
    assert bounds(t_low).epsilon_lower > 1.0 >= bounds(t_low - 1).epsilon_lower


def test_critical_steps_at_q1_matches_exact_gaussian():
    """T Gaussian steps compose to mu = sqrt(T)/sigma: the exact critical T is known in closed form."""
    got = calibrate.critical_steps_bracket(q=1.0, sigma=5.0, delta=1e-5, epsilon=3.0)
    exact = max(t for t in range(1, 2000) if gaussian_delta(3.0, math.sqrt(t) / 5.0) <= 1e-5)
    assert got["steps"] <= exact < got["steps_exceeding"]


def test_critical_steps_zero_when_one_step_exceeds():
    assert calibrate.critical_steps(q=1.0, sigma=0.5, delta=1e-5, epsilon=0.1) == 0


@pytest.mark.parametrize("kwargs,name", [
    (dict(q=0.01, steps=100, delta=1e-5, epsilon=0.0), "epsilon"),
    (dict(q=2.0, steps=100, delta=1e-5, epsilon=1.0), "q"),
    (dict(q=0.01, steps=1.5, delta=1e-5, epsilon=1.0), "steps"),
    (dict(q=0.01, steps=100, delta=1.0, epsilon=1.0), "delta"),
    (dict(q=0.01, steps=100, delta=1e-5, epsilon=float("nan")), "epsilon"),
    (dict(q=0.01, steps=100, delta=1e-5, epsilon=1.0, method="magic"), "method"),
    (dict(q=0.01, steps=100, delta=1e-5, epsilon=1.0, adjacency="swap"), "adjacency"),
])
def test_calibrate_sigma_bad_input(kwargs, name):
    with pytest.raises(InvalidParameter, match=name):
        calibrate.calibrate_sigma(**kwargs)


@pytest.mark.parametrize("kwargs,name", [
    (dict(q=0.01, sigma=0.0, delta=1e-5, epsilon=1.0), "sigma"),
    (dict(q=0.0, sigma=1.0, delta=1e-5, epsilon=1.0), "q"),
    (dict(q=0.01, sigma=1.0, delta=0.0, epsilon=1.0), "delta"),
])
def test_critical_steps_bad_input(kwargs, name):
    with pytest.raises(InvalidParameter, match=name):
        calibrate.critical_steps(**kwargs)
