"""Seed 001 (issue 30): the readings of Theorem 2 and Remark 1, Proposition 1's corrected rate and Lemma 2 at
fractional orders, each helper recomputed by an independent route."""
import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy.integrate import quad
from scipy.stats import norm

from theory.adp2sgd import observation, prop1_region as pr, subsampled_rdp as sr, utility, worker_choice as wc


def _hockey_stick_quad(gamma, m, eps):
    """delta(eps) of (1-g)N(0,1)+g N(m,1) vs N(0,1) by numerical integration of (p - e^eps q)_+."""
    f = lambda x: max(0.0, (1 - gamma) * norm.pdf(x) + gamma * norm.pdf(x - m) - math.exp(eps) * norm.pdf(x))  # noqa: E731
    return quad(f, -10, m + 12, points=[0.0, m], limit=400)[0]


@settings(max_examples=20, deadline=None)
@given(gamma=st.floats(1e-3, 0.5), m=st.floats(0.2, 6.0), eps=st.floats(0.0, 3.0))
def test_mixture_delta_is_the_hockey_stick_divergence(gamma, m, eps):
    assert observation.mixture_delta(gamma, m, eps) == pytest.approx(_hockey_stick_quad(gamma, m, eps), abs=1e-7)


@pytest.mark.parametrize("p, m", [(0.05, 1.0), (0.2, 0.5)])
def test_sum_delta_lower_at_one_step_is_below_and_near_the_exact_mixture(p, m):
    """With T = 1 the 'final model' pair is the one-step mixture: the half-line scan must not exceed the exact value
    (a lower bound) and, on its grid, come close to it."""
    for eps in (0.0, 0.1, 0.5):
        exact = observation.mixture_delta(p, m, eps)
        lower = observation.sum_delta_lower(T=1, p=p, m=m, eps=eps)
        assert lower <= exact + 1e-12 and lower >= exact - 2e-3


def test_sum_epsilon_lower_inverts_sum_delta_lower():
    kw = {"T": 400, "p": 0.05, "m": 0.4}
    e = observation.sum_epsilon_lower(**kw, delta=1e-5)
    assert observation.sum_delta_lower(**kw, eps=e) >= 1e-5 >= observation.sum_delta_lower(**kw, eps=e + 1e-3)


def test_hidden_worker_matches_the_public_formula_when_workers_are_far_apart():
    kw = {"K": 16, "gamma_k": 0.08192, "s2": 5.07, "alpha": 3.3}
    public = wc.public_worker_rdp(**kw)
    assert wc.hidden_worker_rdp(**kw) == pytest.approx(public, rel=1e-9)
    assert wc.hidden_worker_rdp(**kw, separation=0.0) == pytest.approx(sr.pair_lower(0.08192 / 16, 5.07, 3.3), rel=1e-6)


@settings(max_examples=30, deadline=None)
@given(K=st.integers(2, 40), tau=st.integers(0, 400), r=st.floats(0.0, 0.99))
def test_prop1_T_condition_always_secures_C1_and_C2(K, tau, r):
    """The rational chain of 001.prop-1.rate-with-c3 against ball arithmetic of the constants at T = T_min."""
    import flint

    c1_min, terms = utility.c2_lower_bound_chain()
    c2_min = 0.5 - float(sum(terms.values()))
    with flint.ctx.workprec(64):
        c1, c2, _ = pr.margins(K, tau, flint.arb(r))
        assert float(c1.lower()) >= float(c1_min) - 1e-12
        assert float(c2.lower()) >= c2_min - 1e-12


@pytest.mark.parametrize("gamma, s2", [(0.005, 1.5), (0.05, 1.5), (0.0051, 5.07), (1e-4, 30.0)])
def test_lemma2_at_fractional_orders_against_a_realizable_pair(gamma, s2):
    """Inside the region, at fractional orders, the realizable pair's divergence (mpmath quadrature) stays below
    Lemma 2's bound, and (alpha-1) D_alpha of the pair is convex along the orders (the certificate's premise)."""
    cap = sr.alpha_cap(gamma, s2)
    alphas = [a for a in np.linspace(1.2, min(cap, 12.0), 9)]
    values = []
    for a in alphas:
        with mpmath.workdps(30):
            m = 1 / mpmath.sqrt(s2)
            f = lambda x: mpmath.npdf(x) * ((1 - gamma) + gamma * mpmath.exp(m * x - m * m / 2)) ** a  # noqa: E731
            d = float(mpmath.log(mpmath.quad(f, [-mpmath.inf, 0, m * a, mpmath.inf])) / (a - 1))
        assert d <= sr.lemma2_bound(gamma, s2, a)
        values.append((a - 1) * d)
    second = np.diff(values, 2) / np.diff(alphas)[0] ** 2
    assert np.all(second >= -1e-12 * max(values))


def test_fractional_order_threshold_on_1_2():
    import flint

    with flint.ctx.workprec(64):
        low = sr.order_one_two_threshold(1.5)
        assert float(low.upper()) == pytest.approx(0.8 * math.expm1(2 / 3) * 1.5, rel=1e-12)
        assert sr.order_one_two_threshold(2.5).upper() < 1        # all of (1, 2) is covered once s2 >= ~2.4
        assert sr.interpolation_level(2).lower() >= 0.875 - 1e-15
