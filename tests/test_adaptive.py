"""Replace-one fixed-size steps against an adaptive adversary (numerics.adaptive, issue 25).

Oracles: tests/adaptive_oracle.py (tiny data sets, every order choice of the adversary as a function of
the earlier outputs, quadrature; imports nothing of numerics), the exact Gaussian mechanism at g = 1
(Balle and Wang 2018, Thm. 8, sensitivity 2), and the exact one-step value at T = 1 (both orders are
realizable and, by the lemma of docs/replace_one.md section 2, nothing else exceeds their maximum).
"""
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate
from scipy.optimize import brentq
from scipy.stats import norm

from numerics import adaptive as ad
from numerics.errors import InvalidParameter
from tests import adaptive_oracle as oracle

FAST = 1e-2  # relative discretisation width for the oracle comparisons (speed)


def gaussian_delta(eps, mu):
    return norm.cdf(-eps / mu + mu / 2) - math.exp(eps) * norm.cdf(-eps / mu - mu / 2)


def quad_hockey(p, q, alpha, lim=25.0):
    """H_alpha by scipy quadrature of (p - alpha q)_+ (independent of both oracle and module)."""
    return integrate.quad(lambda y: max(p(y) - alpha * q(y), 0.0), -lim, lim, limit=400, points=(-1, 0, 1, 2))[0]


def pairs_1d(g, sigma):
    f = lambda m: (lambda y: norm.pdf(y, m, sigma))  # noqa: E731
    mix = lambda a, b: (lambda y: (1 - g) * a(y) + g * b(y))  # noqa: E731
    return {"PQ": (mix(f(0), f(2)), f(0)), "QP": (f(0), mix(f(0), f(2))),
            "pm1": (mix(f(0), f(1)), mix(f(0), f(-1)))}


# --- the refutation of item 2 and the one-step lemma ---------------------------------------------------

def test_pm1_is_a_garbling_of_neither_order():
    """docs section 5: pm1 exceeds (P,Q) at some alpha < 1 and (Q,P) at some alpha > 1 (quadrature)."""
    cx = ad.garbling_counterexample(0.5, 1.0)
    pairs = pairs_1d(0.5, 1.0)
    for order, alpha in (("PQ", cx["alpha_vs_PQ"]), ("QP", cx["alpha_vs_QP"])):
        excess = quad_hockey(*pairs["pm1"], alpha) - quad_hockey(*pairs[order], alpha)
        assert excess > 0.05, (order, alpha, excess)
        assert excess == pytest.approx(cx[f"excess_vs_{order}"], abs=1e-7)
    assert cx["alpha_vs_PQ"] < 1 < cx["alpha_vs_QP"]


@settings(max_examples=30)
@given(u=st.floats(-1, 1), v=st.floats(-1, 1), w=st.floats(-1, 1),
       n_b=st.sampled_from([(2, 1), (3, 1), (4, 2), (5, 2)]), sigma=st.floats(0.5, 3.0), log_alpha=st.floats(-3, 3))
def test_one_step_lemma_collinear(u, v, w, n_b, sigma, log_alpha):
    """docs section 2 on the line: K(u, v, w) <= max of the two orders at every alpha."""
    n, b = n_b
    g = b / n
    pair = (((w, 1 - g), (u, g)), ((w, 1 - g), (v, g)))
    alpha = math.exp(log_alpha)
    bound = max(ad.one_step_profile("PQ", g, sigma, alpha), ad.one_step_profile("QP", g, sigma, alpha))
    assert oracle.hockey_stick(pair, sigma, alpha) <= bound + 1e-12


@pytest.mark.parametrize("u,v,w", [((1, 0), (-1, 0), (0, 1)), ((0.6, 0.8), (-1, 0), (0, -1)),
                                   ((1, 0), (0, 1), (-0.7, -0.7)), ((0.3, 0.2), (-0.5, 0.5), (0.9, -0.1))])
def test_one_step_lemma_planar(u, v, w):
    """docs section 2 in the plane (sampled: 2-D grid quadrature, g = 0.4, sigma = 0.8)."""
    g, sigma = 0.4, 0.8
    x = np.linspace(-6.0, 6.0, 1201)
    dx = x[1] - x[0]
    xx, yy = np.meshgrid(x, x, indexing="ij")
    def phi(m):
        return np.exp(-((xx - m[0]) ** 2 + (yy - m[1]) ** 2) / (2 * sigma ** 2)) / (2 * np.pi * sigma ** 2)
    p, q = (1 - g) * phi(w) + g * phi(u), (1 - g) * phi(w) + g * phi(v)
    for alpha in np.exp(np.linspace(-2.5, 2.5, 21)):
        h = float(np.sum(np.maximum(p - alpha * q, 0.0)) * dx * dx)
        bound = max(ad.one_step_profile("PQ", g, sigma, alpha), ad.one_step_profile("QP", g, sigma, alpha))
        assert h <= bound + 1e-6, (alpha, h, bound)


# --- the symmetrised grid of the upper bound ------------------------------------------------------------

def test_symmetrised_grid_is_the_maximum_at_nodes_and_above_it_between():
    g, sigma, h = 0.3, 1.2, 0.01
    grids = ad._Grids(g, sigma, 1, h, 1e-12)
    s = ad.symmetrised_grid(grids.high["PQ"], grids.high["QP"], h)
    j = np.arange(-150, 151, 7)
    both = np.maximum(ad.grid_profile(grids.high["PQ"], h, j), ad.grid_profile(grids.high["QP"], h, j))
    assert np.allclose(ad.grid_profile(s, h, j), both, atol=1e-10, rtol=0)
    assert s.pmf.min() >= 0 and s.pmf.sum() + s.inf_mass == pytest.approx(1.0, abs=1e-9)
    for eps in (-1.234, -0.3051, 0.0049, 0.4567, 1.3333):  # off the nodes: above the true maximum
        alpha = math.exp(eps)
        true = max(ad.one_step_profile("PQ", g, sigma, alpha), ad.one_step_profile("QP", g, sigma, alpha))
        x = (s.k0 + np.arange(len(s.pmf))) * h
        grid = s.inf_mass + float(np.sum(s.pmf[x > eps] * -np.expm1(eps - x[x > eps])))
        assert grid >= true - 1e-12


# --- exact small cases -----------------------------------------------------------------------------------

@pytest.mark.parametrize("g,sigma,eps", [(0.5, 1.0, 0.5), (0.1, 0.8, 1.0), (0.02, 1.0, 0.2)])
def test_single_step_is_bracketed_and_tight(g, sigma, eps):
    """T = 1: the truth is max(H(P||Q), H(Q||P)) (both orders occur; section 2 bounds everything else)."""
    pq = (((0.0, 1 - g), (2.0, g)), ((0.0, 1.0),))
    truth = max(oracle.hockey_stick(pq, sigma, math.exp(eps)), oracle.hockey_stick(pq[::-1], sigma, math.exp(eps)))
    b = ad.adaptive_replace_one_delta(g=g, sigma=sigma, steps=1, epsilon=eps)
    assert b.delta_lower <= truth + 1e-9 and truth <= b.delta_upper + 1e-9
    assert b.delta_upper - b.delta_lower <= 1e-2 * b.delta_upper


def test_g1_is_the_gaussian_mechanism_with_sensitivity_2():
    sigma, steps, delta = 3.0, 4, 1e-5
    mu = 2.0 * math.sqrt(steps) / sigma
    truth = brentq(lambda e: gaussian_delta(e, mu) - delta, 0.0, 100.0, xtol=1e-13)
    b = ad.adaptive_replace_one_epsilon(g=1.0, sigma=sigma, steps=steps, delta=delta)
    assert b.epsilon_lower <= truth <= b.epsilon_upper
    assert b.relative_width <= 2e-3


# --- the adaptive oracle (issue 25 item 5) ---------------------------------------------------------------

@settings(max_examples=4)
@given(sigma=st.floats(0.8, 2.0), eps=st.floats(0.1, 1.2), n_b=st.sampled_from([(2, 1), (3, 1)]))
def test_two_steps_bracket_the_adaptive_oracle(sigma, eps, n_b):
    """T = 2: lower <= (best adaptive adversary over the two orders) <= (best adaptive adversary over every
    choice of the other records' gradients in {-1, 0, 1}) <= upper; the lower end is tight."""
    n, b = n_b
    g = b / n
    orders = [oracle.step_pair(n, b, (-1.0,) * (n - 1)), oracle.step_pair(n, b, (1.0,) * (n - 1))]
    two = oracle.adaptive_delta(orders, sigma, 2, eps)
    full = oracle.adaptive_delta(oracle.menu(n, b), sigma, 2, eps) if n == 2 else two
    bounds = ad.adaptive_replace_one_delta(g=g, sigma=sigma, steps=2, epsilon=eps, rel_width=FAST)
    assert bounds.delta_lower <= two + 1e-8
    assert two <= full + 1e-8 and full <= bounds.delta_upper + 1e-8
    assert bounds.delta_lower >= two * (1 - 1e-2)


def test_three_records_menu_stays_below_the_upper_bound():
    """n = 3, b = 1, T = 2: mixtures of unequal other records (e.g. gradients -1 and +1) included."""
    sigma, eps = 1.0, 0.4
    full = oracle.adaptive_delta(oracle.menu(3, 1), sigma, 2, eps)
    bounds = ad.adaptive_replace_one_delta(g=1 / 3, sigma=sigma, steps=2, epsilon=eps, rel_width=FAST)
    assert bounds.delta_lower <= full + 1e-8 <= bounds.delta_upper + 2e-8


def test_adaptive_lower_bound_beats_every_fixed_order():
    """g = 0.2, sigma = 1, T = 10, eps = 1: the certified adaptive lower bound exceeds the certified UPPER
    bound of the best fixed order: composing one fixed order is not the replace-one answer."""
    b = ad.adaptive_replace_one_delta(g=0.2, sigma=1.0, steps=10, epsilon=1.0)
    fixed = b.details["fixed_order_PQ"]
    assert b.delta_lower > 1.05 * fixed["upper"]
    assert b.delta_upper >= b.delta_lower


def test_epsilon_lower_is_at_least_the_fixed_order_and_below_upper():
    b = ad.adaptive_replace_one_epsilon(g=0.1, sigma=1.0, steps=20, delta=1e-5, rel_width=FAST)
    assert b.details["fixed_order"]["lower"] <= b.epsilon_lower <= b.epsilon_upper
    assert b.adjacency == "replace-one" and b.certified and "note" in b.details


@pytest.mark.parametrize("kwargs,name", [
    (dict(g=0.0, sigma=1.0, steps=10, delta=1e-5), "g"),
    (dict(g=1.5, sigma=1.0, steps=10, delta=1e-5), "g"),
    (dict(g=0.1, sigma=-1.0, steps=10, delta=1e-5), "sigma"),
    (dict(g=0.1, sigma=1.0, steps=0, delta=1e-5), "steps"),
    (dict(g=0.1, sigma=1.0, steps=10, delta=1.0), "delta"),
    (dict(g=0.1, sigma=1.0, steps=10, delta=1e-5, rel_width=2.0), "rel_width"),
])
def test_bad_input_raises_invalid_parameter(kwargs, name):
    with pytest.raises(InvalidParameter, match=name):
        ad.adaptive_replace_one_epsilon(**kwargs)


# --- slow ------------------------------------------------------------------------------------------------

@pytest.mark.slow
def test_slow_three_steps_bracket_the_adaptive_oracle():
    """T = 3 (several minutes: three nested quadratures): lower <= best adaptive choice of the two orders
    as a function of the two earlier outputs <= upper."""
    sigma, eps = 1.0, 0.6
    orders = [oracle.step_pair(2, 1, (-1.0,)), oracle.step_pair(2, 1, (1.0,))]
    two = oracle.adaptive_delta(orders, sigma, 3, eps)
    bounds = ad.adaptive_replace_one_delta(g=0.5, sigma=sigma, steps=3, epsilon=eps, rel_width=FAST)
    assert bounds.delta_lower <= two + 1e-6 and two <= bounds.delta_upper + 1e-6
    assert bounds.delta_lower >= two * (1 - 1e-2)


@pytest.mark.slow
def test_slow_four_records_two_per_batch_menu():
    sigma, eps = 1.0, 0.5
    full = oracle.adaptive_delta(oracle.menu(4, 2), sigma, 2, eps)
    bounds = ad.adaptive_replace_one_delta(g=0.5, sigma=sigma, steps=2, epsilon=eps, rel_width=FAST)
    assert bounds.delta_lower <= full + 1e-8 <= bounds.delta_upper + 2e-8


@pytest.mark.slow
def test_slow_issue_case_64_of_60000():
    """The issue's case: the adaptive lower end certifiably exceeds every fixed order's upper end."""
    b = ad.adaptive_replace_one_epsilon(g=64 / 60000, sigma=1.1, steps=10_000, delta=1e-5)
    assert b.epsilon_lower > b.details["fixed_order"]["upper"]
    assert b.epsilon_lower < b.epsilon_upper < 1.1 * b.epsilon_lower


# --- Poisson sampling under replace-one (docs section 6): evidence for the conjecture, not a proof --------

def poisson_theta_profile(q, sigma, theta, alpha):
    """H_alpha of K_theta = ((1-q)N(0) + qN(u'), (1-q)N(0) + qN(v')), unit u', v' at angle theta, exactly
    as a public-coin mixture: the bisector coordinate y2 has the same law m under both, and given y2 the
    pair is the +-sin(theta/2) pair with rate q(y2) = q phi(y2 - c) / m(y2), c = cos(theta/2)."""
    s, c = math.sin(theta / 2), math.cos(theta / 2)
    if c < 1e-12:
        return ad.one_step_profile("pm1", q, sigma, alpha)

    def integrand(y):
        a, b = (1 - q) * norm.pdf(y, 0, sigma), q * norm.pdf(y, c, sigma)
        if a + b == 0:
            return 0.0
        rate = b / (a + b)
        inner = ad.one_step_profile("pm1", rate, sigma / s, alpha) if rate > 0 else max(1 - alpha, 0.0)
        return (a + b) * inner
    return integrate.quad(integrand, -12 * sigma, c + 12 * sigma, points=(0, c), limit=200,
                          epsabs=1e-13, epsrel=1e-11)[0]


def _poisson_scan(qs, sigmas, log_alphas, thetas):
    worst = -math.inf
    for q in qs:
        for sigma in sigmas:
            for la in log_alphas:
                ref = ad.one_step_profile("pm1", q, sigma, math.exp(la))
                for th in thetas:
                    worst = max(worst, poisson_theta_profile(q, sigma, th, math.exp(la)) - ref)
    return worst


def test_poisson_pm1_pair_dominates_the_unit_vector_family_sampled():
    """Sampled (q in {0.01, 0.3}, sigma in {0.5, 1.5}, 3 alphas, 4 angles): H(K_theta) <= H(K_pi)."""
    worst = _poisson_scan((0.01, 0.3), (0.5, 1.5), (-2.0, 0.3, 2.5), np.linspace(0.3, 2.9, 4))
    assert worst <= 1e-12


@pytest.mark.slow
def test_slow_poisson_domination_scan():
    """Sampled: 6 rates, 5 noise levels, 17 alphas, 12 angles (6120 points)."""
    worst = _poisson_scan((0.001, 0.01, 0.1, 0.3, 0.7, 0.95), (0.3, 0.6, 1.0, 2.0, 5.0),
                          np.linspace(-4, 4, 17), np.linspace(0.05, 0.98 * math.pi, 12))
    assert worst <= 1e-12


def test_phases_bracket_contains_each_phase_and_the_merged_schedule():
    """Two fixed-size phases: lower <= upper, the lower end is at least each phase's own lower end, and
    two equal phases give a bracket overlapping the one-phase schedule of their total length."""
    two = ad.adaptive_replace_one_epsilon_phases(phases=[(0.2, 1.0, 6), (0.1, 1.5, 8)], delta=1e-5, rel_width=FAST)
    assert max(two.details["phase_lowers"]) <= two.epsilon_lower <= two.epsilon_upper
    split = ad.adaptive_replace_one_epsilon_phases(phases=[(0.2, 1.0, 6), (0.2, 1.0, 6)], delta=1e-5,
                                                   rel_width=FAST)
    whole = ad.adaptive_replace_one_epsilon(g=0.2, sigma=1.0, steps=12, delta=1e-5, rel_width=FAST)
    assert split.epsilon_lower <= whole.epsilon_upper and whole.epsilon_lower <= split.epsilon_upper
    assert split.epsilon_upper == pytest.approx(whole.epsilon_upper, rel=FAST)


# --- Poisson under replace-one: the +-1 pair is dominating (docs section 6, proven) ----------------------

def test_poisson_profile_is_nonincreasing_in_the_correlation_sampled():
    """docs 6c: H_alpha(K_theta) is nonincreasing in rho = cos(theta), i.e. nondecreasing in theta."""
    thetas = np.linspace(0.2, math.pi, 6)
    for q, sigma, la in ((0.05, 0.7, 0.8), (0.4, 1.3, -0.5), (0.01, 0.5, 2.0)):
        values = [poisson_theta_profile(q, sigma, th, math.exp(la)) for th in thetas]
        assert all(b >= a - 1e-12 for a, b in zip(values, values[1:])), values


def test_poisson_readme_example_is_certified_narrow_and_inside_the_old_bracket():
    from numerics import pld
    from numerics.replace_one_poisson import poisson_replace_one_epsilon
    from numerics.schedule import Phase, Schedule
    s = Schedule.from_phases([Phase(q=0.01, sigma=2, steps=500), Phase(q=0.02, sigma=1, steps=500)], adjacency="replace-one")
    new = poisson_replace_one_epsilon(s, 1e-5)
    old = pld.epsilon_pld(s, 1e-5)
    assert new.relative_width <= 1e-3
    assert old.epsilon_lower <= new.epsilon_upper and new.epsilon_lower <= old.epsilon_upper


def test_poisson_q1_is_the_gaussian_mechanism_with_sensitivity_2():
    from numerics.replace_one_poisson import poisson_replace_one_delta, poisson_replace_one_epsilon
    from numerics.schedule import Schedule
    s = Schedule.constant(q=1.0, sigma=3.0, steps=2, adjacency="replace-one")
    mu = 2 * math.sqrt(2) / 3.0
    truth = brentq(lambda e: gaussian_delta(e, mu) - 1e-5, 0.0, 100.0, xtol=1e-13)
    b = poisson_replace_one_epsilon(s, 1e-5)
    assert b.epsilon_lower <= truth <= b.epsilon_upper and b.relative_width <= 1e-3
    d = poisson_replace_one_delta(s, 1.0)
    assert d.delta_lower <= gaussian_delta(1.0, mu) <= d.delta_upper


@settings(max_examples=2)
@given(q=st.floats(0.05, 0.6), sigma=st.floats(0.8, 2.0), eps=st.floats(0.1, 1.0))
def test_poisson_two_steps_bracket_the_adaptive_oracle(q, sigma, eps):
    """n = 2 records, Poisson rate q, T = 2: every adaptive choice of gradients (target in the ball,
    the other record in {-1, 0, 1}) stays below the +-1 composition's upper bound, and the +-1 pair
    itself (a realizable choice) is above the lower bound."""
    from numerics.replace_one_poisson import poisson_replace_one_delta
    from numerics.schedule import Schedule
    full = oracle.adaptive_delta(oracle.poisson_menu(2, q, (-1.0, 0.0), ((1.0, -1.0), (1.0, 0.0))), sigma, 2, eps)
    pm1 = oracle.adaptive_delta([oracle.poisson_step_pair(2, q, (0.0,))], sigma, 2, eps)
    b = poisson_replace_one_delta(Schedule.constant(q=q, sigma=sigma, steps=2, adjacency="replace-one"), eps)
    assert b.delta_lower <= pm1 + 1e-8 and full <= b.delta_upper + 1e-8


def test_poisson_rejects_add_remove():
    from numerics.replace_one_poisson import poisson_replace_one_epsilon
    from numerics.schedule import Schedule
    with pytest.raises(InvalidParameter, match="adjacency"):
        poisson_replace_one_epsilon(Schedule.constant(q=0.1, sigma=1.0, steps=3), 1e-5)


@pytest.mark.slow
def test_slow_poisson_adaptive_oracle_full_menu():
    from numerics.replace_one_poisson import poisson_replace_one_delta
    from numerics.schedule import Schedule
    q, sigma, eps = 0.3, 1.0, 0.5
    full = oracle.adaptive_delta(oracle.poisson_menu(2, q), sigma, 2, eps)
    b = poisson_replace_one_delta(Schedule.constant(q=q, sigma=sigma, steps=2, adjacency="replace-one"), eps)
    assert full <= b.delta_upper + 1e-8
