"""Tests of seed 002 Theorems B.2, B.4, 3.1, 3.2 (theory.proactive_dp.theorems)."""
import math

import pytest
from hypothesis import given, settings, strategies as st

from numerics.pld import epsilon_pld
from numerics.schedule import Schedule
from theory.ledger import get
from theory.proactive_dp import theorems as th
from theory.proactive_dp.calculators import sigma_eq6


def test_sigma_form_counterexample_in_floats():
    eps, big_l = 0.05, math.log(1e4)
    eq6 = math.sqrt(2 * (eps + big_l) / eps)
    printed = math.sqrt(2 * (eps + big_l)) / eps
    v = th.check_sigma_form_abstract()
    assert v.status == "refuted"
    assert math.isclose(v.counterexample["sigma_eq6"], eq6, rel_tol=1e-12)
    assert math.isclose(v.counterexample["sigma_printed"], printed, rel_tol=1e-12)
    assert printed > 4 * eq6


def test_thm31_hypotheses_detect_each_violation():
    n, eps = 10_000, 0.3
    delta = 1 / n
    sigma = sigma_eq6(eps, delta)
    k = th.k_min_condition_7(delta)
    rounds = th.thm31_rounds(epsilon=eps, k=k, theta=1.0, sigma=sigma)
    base = dict(n=n, epsilon=eps, delta=delta, k=k, theta=1.0, rounds=rounds, sigma=sigma)
    assert th.thm31_hypotheses(**base)["all"]
    assert not th.thm31_hypotheses(**dict(base, rounds=rounds - 1))["(8) T >= gamma theta^2 k^2/eps"]
    assert not th.thm31_hypotheses(**dict(base, k=0.9 * k))["(7)"]
    assert not th.thm31_hypotheses(**dict(base, n=9_999, delta=1 / 9_999))["N >= 1e4"]
    assert not th.thm31_hypotheses(**dict(base, sigma=sigma * 1.01))["(6) sigma = sqrt(2(eps+L)/eps)"]


def test_sequence_schedule_has_the_requested_mean_and_theta():
    sched = th.sequence_schedule(k=5.0, rounds=1000, theta=3.0, sigma=10.0)
    qs = [p.q for p in sched.phases for _ in range(p.steps)]
    assert math.isclose(sum(qs), 5.0, rel_tol=1e-12)
    assert math.isclose(max(qs) / (sum(qs) / len(qs)), 3.0, rel_tol=1e-12)


@settings(max_examples=4)
@given(n=st.sampled_from([10_000, 100_000, 10 ** 7]), eps=st.floats(0.02, 0.49), k_factor=st.floats(1.0, 4.0),
       theta=st.sampled_from([1.0, 2.0, 6.85]))
def test_thm31_guarantee_random_points(n, eps, k_factor, theta):
    r = th.thm31_point(n=n, epsilon=eps, k_factor=k_factor, theta=theta)
    assert r["hypotheses_hold"]
    assert r["epsilon_upper"] <= eps


def test_factor_4_counterexample_recomputed():
    cex = th.check_factor_4().counterexample
    n, k, sigma, eps, t = cex["n"], cex["k"], cex["sigma"], cex["epsilon"], cex["t_crit"]
    delta = 1 / n
    # Theorem 3.1's conditions other than (8) hold at this setting
    assert n >= 10_000 and eps < 0.5 and (2 / math.e) ** 2 * k ** 2 >= 0.5 + math.log(1 / delta)
    assert math.isclose(sigma, sigma_eq6(eps, delta), rel_tol=1e-12)
    # T rounds at fixed K = kN are (eps, delta)-DP by the certified upper bound, yet T < (2k^2/eps)/4
    b = epsilon_pld(Schedule.constant(q=k / t, sigma=sigma, steps=t), delta)
    assert b.epsilon_upper <= eps
    assert t < 2 * k ** 2 / eps / 4


def test_existence_witness_violates_dp_below_t_min_over_2gamma():
    w = th.check_thm32_existence().evidence["witness"]
    t = math.floor(w["t_min"] / w["two_gamma"])
    b = epsilon_pld(Schedule.constant(q=w["k"] / t, sigma=w["sigma"], steps=t), 1 / w["n"])
    assert b.epsilon_lower > w["epsilon"]


def test_b2_hypotheses_fail_for_too_small_sigma():
    sizes = [26] * 500
    assert not th.thm_b2_hypotheses(sizes=sizes, n=10_000, sigma=1.0, r0=0.0026, epsilon=0.5, delta=1e-4)["all"]


def test_symbolic_claims_recompute():
    for f in (th.check_sigma_form_main, th.check_abstract_condition, th.check_sigma_floor, th.check_k_condition,
              th.check_eq63_eq8, th.check_thm_b2_steps):
        assert f().status == "holds", f.__name__


@pytest.mark.slow
def test_thm31_guarantee_dense_grid():
    from numerics.sweep import sweep

    pts = [dict(n=n, epsilon=e, k_factor=kf, theta=tt) for n in (10_000, 100_000, 10 ** 6, 10 ** 8)
           for e in (0.01, 0.05, 0.15, 0.3, 0.45, 0.499) for kf in (1.0, 2.0, 5.0) for tt in (1.0, 2.0, 6.85)]
    rows = sweep(th.thm31_point, pts)
    assert all(r["hypotheses_hold"] for r in rows)
    assert max(r["ratio"] for r in rows) <= 1


def test_c3_k_condition_counterexample_recomputed():
    c = get("002.appC.C3-k-condition")
    v = c.evaluate()
    assert v.status == c.recorded
    ce = v.counterexample
    eps, L, gt, k = ce["epsilon"], math.log(1 / ce["delta"]), ce["gamma_theta"], ce["k"]
    assert k >= math.sqrt(2 * eps * L) * math.e / gt                 # C.3's printed condition (L1294) holds
    assert k < math.sqrt(2 * eps * (eps + L)) * math.e / gt          # the condition of L1096 fails



@settings(max_examples=4)
@given(n=st.sampled_from([10_000, 100_000, 10 ** 7]), eps=st.floats(0.5, 2.0), k=st.floats(3.0, 20.0))
def test_thm_b4_guarantee_random_points(n, eps, k):
    # Theorem B.4 (L834-856) beyond eps >= 0.5, at random points: theta = 1, sigma at equality in (35),
    # T the fewest rounds meeting (32) and (34); (33) is checked, not assumed
    from hypothesis import assume

    r = th.thm_b4_point(n=n, epsilon=eps, k=k)
    assume(r["hypotheses_hold"])
    assert r["epsilon_upper"] <= eps
