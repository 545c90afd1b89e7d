"""Seed 003 Theorems 2-4: counterexamples recomputed independently, corrected bounds on random points."""
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import integrate

from theory.mapa import theorem2, theorem3, theorem4


def test_laplace_hockey_stick_formula_by_quadrature():
    eps, mu = 0.1, 1.118
    p = lambda x: 0.5 * math.exp(-abs(x))  # noqa: E731
    q = lambda x: 0.5 * math.exp(-abs(x - mu))  # noqa: E731
    num = integrate.quad(lambda x: max(p(x) - math.exp(eps) * q(x), 0.0), -50, 50, points=[0, mu], limit=200)[0]
    assert math.isclose(num, float(theorem3.laplace_hockey_stick(eps, mu)), rel_tol=1e-6)


def test_theorem3_counterexample_law_meets_the_variance_and_eq12():
    v = theorem3.theorem3_is_dp()
    cx = v.counterexample
    assert math.isclose(v.evidence["variance_of_sample_law"], cx["sigma"] ** 2, rel_tol=1e-12)
    lhs = (1 - 4 * cx["sigma"] ** 2 / (cx["b"] ** 2 * cx["Delta_S0"] ** 2)) ** 2
    assert lhs >= 1 - cx["delta"] - 1e-12 and cx["delta_at_epsilon"] > cx["delta"]


def test_theorem4_exact_recursion_matches_a_float_simulation():
    p = {**theorem4.POINT, "steps": 60}
    exact = theorem4.expected_grad_norms(dim=p["dim"], delay=p["delay"], L=Fraction(1), gamma=Fraction(1, 10),
                                         noise_second_moment=Fraction(110), steps=60)
    mc, se = theorem4.huber_monte_carlo(steps=60, reps=4000, huber=1e6)
    assert abs(float(sum(exact)) / 60 - mc) < 5 * se


def test_theorem4_counterexample_holds_with_bounded_gradients():
    avg, printed, true, _ = theorem4.exact_check()
    mc, se = theorem4.huber_monte_carlo(reps=400, huber=50.0)  # ||grad f|| <= 50 sqrt(N): Assumption 1's G holds
    assert mc - 5 * se > float(printed) and mc + 5 * se < float(true)


@given(L=st.floats(0.01, 100), tau=st.integers(0, 200), frac=st.floats(0.01, 1.0))
def test_theorem4_dropped_coefficient_is_negative_below_the_step_cap(L, tau, frac):
    g = frac / (2 * L * (tau + 1))
    assert g * g * (L / 2 + L * L * tau * tau * g) - g / 2 < 0


def test_eq26_counterexample_and_eq28_counterexample():
    v26 = theorem2.eq26()
    assert Fraction(v26.counterexample["lhs"]) > 0 == math.log(1)
    v28 = theorem2.eq28()
    assert v28.counterexample["lhs"] > v28.counterexample["rhs"]


@given(L=st.floats(0.0, 10), tau=st.integers(0, 50), db=st.floats(0.0, 1e4), T=st.integers(1, 3000))
def test_corrected_sum_bounds(L, tau, db, T):
    t = np.arange(1, T + 1)
    gam = 1.0 / (L * (tau + 1) + math.sqrt(db + 1) * np.sqrt(t))
    assert np.sum(gam ** 2) <= (1 + math.log(T)) / (db + 1) * (1 + 1e-12)
    assert np.sum(gam) <= 2 * math.sqrt(T) / math.sqrt(db + 1) * (1 + 1e-12)


@given(T=st.integers(1, 200), seed=st.integers(0, 1000))
def test_abel_telescope_is_at_most_r2_over_two_gamma_T(T, seed):
    rng = np.random.default_rng(seed)
    inv = np.sort(rng.uniform(0.1, 10, T))
    a = rng.uniform(0, 1, T + 1)
    assert float(theorem2.abel_telescope(a.tolist(), inv.tolist())) <= inv[-1] / 2 + 1e-9


@pytest.mark.slow
def test_sum_certificates_over_a_larger_range():
    assert theorem2._certify_sums(100_000)["certified"]


def test_theorem4_huber_lower_bound_is_below_a_monte_carlo_estimate():
    """The exact coupling bound (h = 100) can only be below the Huber run's mean; h too small is refused."""
    from numerics.errors import InvalidParameter

    hub = theorem4.huber_lower_bound()
    mc, se = theorem4.huber_monte_carlo(reps=400, huber=100.0)
    assert float(hub["lower_bound"]) <= mc + 5 * se and hub["correction"] < Fraction(1, 10 ** 50)
    with pytest.raises(InvalidParameter, match="too small"):
        theorem4.huber_lower_bound(huber=10)


def test_rechecks_refuse_points_outside_the_hypotheses():
    from theory.ledger import HypothesisFails

    cx = dict(theorem3.theorem3_is_dp().counterexample)
    with pytest.raises(HypothesisFails, match="variance"):
        theorem3.recheck_theorem3({**cx, "A": cx["A"] * 2})
    with pytest.raises(HypothesisFails, match="Eq. \\(12\\)"):
        theorem3.recheck_theorem3({**cx, "Delta_S0": cx["Delta_S0"] / 2})
    cx4 = dict(theorem4.bound_printed_variance().counterexample)
    with pytest.raises(HypothesisFails, match="\\(13\\)"):
        theorem4.recheck_bound_printed({**cx4, "gamma": "1/5"})
    cx28 = dict(theorem2.eq28().counterexample)
    with pytest.raises(HypothesisFails):
        theorem2.recheck_eq28({**cx28, "a_t": [2, 1, 1, 1, 0]})
