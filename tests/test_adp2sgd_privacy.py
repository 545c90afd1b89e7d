"""Seed 001 privacy claims: each verdict and counterexample recomputed by an independent route."""
import math

import mpmath
import pytest
import numpy as np
from hypothesis import given, settings, strategies as st
from scipy.stats import norm

from theory import ledger
from theory.adp2sgd import sensitivity, subsampled_rdp as sr, theorem_2 as t2, worker_choice as wc


def _quad_pair_rdp(gamma, s2, alpha):
    """D_alpha((1-g)N(0,1)+g N(m,1) || N(0,1)), m = 1/sqrt(s2), not by numerics.rdp: the binomial expansion
    (Mironov, Talwar, Zhang 2019) at integer orders, mpmath quadrature otherwise."""
    with mpmath.workdps(40):
        if float(alpha).is_integer():
            a, g = int(alpha), mpmath.mpf(gamma)
            total = sum(mpmath.binomial(a, k) * (1 - g) ** (a - k) * g ** k * mpmath.exp(k * (k - 1) / (2 * mpmath.mpf(s2)))
                        for k in range(a + 1))
            return float(mpmath.log(total) / (a - 1))
        m = 1 / mpmath.sqrt(s2)
        f = lambda x: mpmath.npdf(x) * ((1 - gamma) + gamma * mpmath.exp(m * x - m * m / 2)) ** alpha  # noqa: E731
        return float(mpmath.log(mpmath.quad(f, [-mpmath.inf, 0, m * alpha, mpmath.inf])) / (alpha - 1))


@settings(max_examples=25, deadline=None)
@given(B=st.integers(2, 512), G=st.floats(0.01, 100.0))
def test_summed_gradient_sensitivity_is_2G_not_2G_over_B(B, G):
    x, xp = sensitivity.worst_pair(G=G, B=B)
    assert np.all(np.linalg.norm(x, axis=1) <= G * (1 + 1e-12))
    shift = np.linalg.norm(x.sum(axis=0) - xp.sum(axis=0))
    assert math.isclose(shift, 2 * G, rel_tol=1e-9) and shift > 2 * G / B


def test_guarantee_counterexample_recomputed():
    cx = ledger.get("001.thm-2.guarantee").evaluate().counterexample
    eps, delta, mu = cx["epsilon"], cx["delta"], cx["mu"]
    s = t2.CIFAR
    assert t2.hypotheses_hold(epsilon=eps, delta=delta, mu=mu, **s)
    alpha = math.log(1 / delta) / ((1 - mu) * eps) + 1
    sigma = math.sqrt(20 * s["T"] * alpha / (s["K"] ** 2 * s["n1"] ** 2 * mu * eps))   # G = 1
    g, m = s["B"] / s["n1"], 2 / sigma
    t = m / 4
    p = (1 - g) * norm.sf(t) + g * norm.sf(t - m / 2)
    q = (1 - g) * norm.sf(t) + g * norm.sf(t + m / 2)
    p_drawn = 1 - (1 - 1 / s["K"]) ** s["T"]
    assert p_drawn * (p - math.exp(eps) * q) > delta


def test_worker_choice_counterexample_recomputed():
    cx = ledger.get("001.thm-2.worker-choice-amplification").evaluate().counterexample
    d_k = _quad_pair_rdp(cx["gamma_k"], cx["s2"], cx["alpha"])
    a = cx["alpha"]
    lower = math.log(1 - 1 / cx["K"] + math.exp((a - 1) * d_k) / cx["K"]) / (a - 1)
    assert math.isclose(lower, cx["lower"], rel_tol=1e-8)
    assert lower > cx["claimed"]
    s = t2.CIFAR
    assert math.isclose(cx["claimed"], 5 * (s["B"] / (s["K"] * s["n1"])) ** 2 * a / cx["s2"], rel_tol=1e-12)


def test_outputs_reveal_the_worker():
    rng = np.random.default_rng(3)
    for k in range(5):
        W = rng.normal(size=(4, 5))
        u = np.zeros(5)
        u[[k, (k + 1) % 5]] = [1, -1]
        A = np.eye(5) - 0.5 * np.outer(u, u)
        W_next = W @ A
        W_next[:, k] -= 0.01 * rng.normal(size=4)
        assert wc.revealed_worker(W, A, W_next) == k


def test_region_needed_points_by_quadrature():
    for pt in sr.OUTSIDE:
        assert not sr.in_region(**pt)
        assert _quad_pair_rdp(pt["gamma"], pt["s2"], pt["alpha"]) > sr.lemma2_bound(**pt)


def test_pair_lower_matches_quadrature_inside_the_region():
    for g, s2, a in [(1e-3, 2.0, 3), (0.01, 10.0, 2), (1e-4, 100.0, 4)]:
        assert sr.in_region(g, s2, a)
        assert math.isclose(sr.pair_lower(g, s2, a), _quad_pair_rdp(g, s2, a), rel_tol=1e-8)
        assert sr.pair_lower(g, s2, a) <= float(sr.wbk_upper(g, s2, a)) <= sr.lemma2_bound(g, s2, a)


@settings(max_examples=30, deadline=None)
@given(eps=st.floats(0.5, 50), mu=st.floats(0.05, 0.95), logd=st.floats(2, 20), T=st.integers(10, 10 ** 6),
       K=st.integers(2, 64), n=st.integers(10, 10 ** 5), B=st.integers(1, 512))
def test_condition_7_equals_lemma_2_cap_numerically(eps, mu, logd, T, K, n, B):
    delta = math.exp(-logd)
    s2 = t2.sigma2(epsilon=eps, delta=delta, mu=mu, T=T, K=K, n1=n) / t2.paper_delta2(G=1.0, B=B) ** 2
    gamma = t2.paper_gamma(B=B, K=K, n1=n)
    lhs = -math.log(gamma * (1 + s2))
    rhs = t2.condition_7_rhs(epsilon=eps, delta=delta, mu=mu, T=T, K=K, n1=n, B=B)
    assert math.isclose(lhs, rhs, rel_tol=1e-9, abs_tol=1e-9)
    assert (s2 >= 1.5) == t2.epsilon_condition(epsilon=eps, delta=delta, mu=mu, T=T, K=K, n1=n, B=B) or \
        math.isclose(s2, 1.5, rel_tol=1e-9)


def test_ratio_bound_dominates_the_wbk_ratio_at_region_points():
    """The certificate's uniform bound is above WBK / Lemma 2 at points of the region (gamma at and below the cap)."""
    import flint

    for s2, a in [(1.5, 2), (1.5, 3), (4.0, 5), (50.0, 8), (1000.0, 3)]:
        cap_gamma = math.exp(-a) / (1 + s2)
        with flint.ctx.workprec(64):
            enc = sr.ratio_bound(flint.arb(1 / s2), a)
        for g in (cap_gamma, cap_gamma / 7):
            assert sr.in_region(g, s2, a - 1e-12)
            ratio = float(sr.wbk_upper(g, s2, a)) / sr.lemma2_bound(g, s2, a)
            assert ratio <= float(enc.upper()) <= 1.0


def test_guarantee_given_sensitivity_counterexample_recomputed():
    from numerics.pld import delta_pld
    from numerics.schedule import Schedule
    from scipy.stats import binom

    cx = ledger.get("001.thm-2.guarantee-given-sensitivity").evaluate().counterexample
    s = t2.CIFAR
    alpha = math.log(1 / cx["delta"]) / ((1 - cx["mu"]) * cx["epsilon"]) + 1
    sigma_over_delta = math.sqrt(20 * s["T"] * alpha / (s["K"] ** 2 * s["n1"] ** 2 * cx["mu"] * cx["epsilon"])) / (2 / s["B"])
    p = 1 - binom.cdf(cx["steps_floor"] - 1, s["T"], 1 / s["K"])
    assert math.isclose(p, cx["p_enough"], rel_tol=1e-9)
    coarse = delta_pld(Schedule.constant(q=s["B"] / s["n1"], sigma=sigma_over_delta, steps=cx["steps_floor"]),
                       cx["epsilon"], rel_width=1e-2)
    assert p * coarse.delta_lower > cx["delta"]


@pytest.mark.slow
def test_guarantee_given_sensitivity_by_monte_carlo():
    """An independent (statistical) view of delta_m(eps): E_P[(1 - e^{eps - L})_+] by simulation of the loss."""
    cx = ledger.get("001.thm-2.guarantee-given-sensitivity").evaluate()
    ev = cx.evidence
    rng = np.random.default_rng(0)
    g, s, m, eps = ev["gamma_k"], ev["s_equals_sigma_over_Delta"], ev["steps_floor"], ev["epsilon"]
    total = []
    for _ in range(20):
        inc = rng.random((2000, m)) < g
        x = rng.normal(size=(2000, m)) * s + inc
        loss = np.log1p(g * np.expm1((2 * x - 1) / (2 * s * s))).sum(axis=1)
        total.append(np.clip(1 - np.exp(eps - loss), 0, None))
    est = float(np.concatenate(total).mean())
    assert 0.5 * ev["delta_m_lower_pld"] < est < 2.0 * ev["delta_m_upper_pld"]
