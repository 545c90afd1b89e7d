"""Seed 001 algorithm, utility, table and settings claims: verdicts recomputed by independent routes."""
import math

import mpmath
import numpy as np
from hypothesis import given, settings, strategies as st

from theory import ledger
from theory.adp2sgd import mixing, settings as acc, tables
from theory.adp2sgd.paper_values import TABLE_1


@settings(max_examples=25, deadline=None)
@given(K=st.integers(2, 16), d=st.integers(1, 6), seed=st.integers(0, 2 ** 16), eta=st.floats(1e-4, 1.0))
def test_average_dynamics_numerically(K, d, seed, eta):
    rng = np.random.default_rng(seed)
    i, j = rng.choice(K, size=2, replace=False)
    A = mixing.gossip_matrix(K, int(i), int(j))
    W, g = rng.normal(size=(d, K)), rng.normal(size=d)
    k = int(rng.integers(K))
    W_next = W @ A
    W_next[:, k] -= eta * g
    np.testing.assert_allclose(W_next.mean(axis=1), W.mean(axis=1) - eta / K * g, atol=1e-12)
    np.testing.assert_allclose(A.T @ A, A, atol=1e-15)


def test_ring_rho_small_cases_by_hand():
    assert math.isclose(mixing.rho("ring", 4), 0.75, abs_tol=1e-12)        # 1 - (1 - cos(pi/2))/4
    assert math.isclose(mixing.rho("bipartite", 8), 1 - 1 / 8, abs_tol=1e-12)
    assert math.isclose(mixing.rho("complete", 4), 2 / 3, abs_tol=1e-12)


def test_prop1_counterexample_with_mpmath():
    """C3 > 1 at T = T_min, recomputed in mpmath from the printed formulas (not sympy)."""
    cx = ledger.get("001.prop-1.conditions-imply-c1-c2-c3").evaluate().counterexample
    with mpmath.workdps(40):
        K, tau, L, B = mpmath.mpf(2), mpmath.mpf(44), mpmath.mpf(1) / 60, mpmath.mpf(1)
        r = mpmath.mpf(67) / 100
        rb = (K - 1) / K * (1 / (1 - r * r) + 2 * r / (1 - r) ** 2)
        T = L ** 2 * K ** 2 * max(192 * (tau * (K - 1) / K + rb), 1024 * K ** 2 * rb ** 2, 64 * tau ** 2 / K ** 2,
                                  mpmath.sqrt(K - 1) / K ** (mpmath.mpf(1) / 6) * (8 * mpmath.sqrt(6) * tau ** (mpmath.mpf(2) / 3) + 8) ** 2
                                  * (tau + rb * K / (K - 1)) ** (mpmath.mpf(2) / 3))
        eta = K / (B * mpmath.sqrt(T))
        C1 = 1 - 24 * eta ** 2 * B ** 2 * L ** 2 * (tau * (K - 1) / K + rb)
        C3 = mpmath.mpf(1) / 2 + eta * B * L * tau ** 2 / K + (6 * eta ** 2 * B ** 2 * L ** 2 + eta * K * B * L
                                                               + 12 * eta ** 3 * B ** 3 * L ** 3 * tau ** 2 / K) * 2 * rb / C1
        assert math.isclose(float(T), cx["T"], rel_tol=1e-12)
        assert C1 > 0 and C3 > 1
        assert math.isclose(float(C3), cx["C3"], rel_tol=1e-12)


def test_c4_missing_term_numerically():
    """The exact Proposition-2 constant exceeds the printed C4 by 4 sqrt5 eps/(B^2 mu log(1/delta))."""
    D, d, L, G, K, n, B, eps, delta, mu = 3.0, 100.0, 2.0, 1.5, 4.0, 1000.0, 8.0, 2.0, 1e-5, 0.3
    ld = math.log(1 / delta)
    T = 2 * D * K ** 2 * n ** 2 * eps ** 2 / (40 * d * L * G ** 2 * ld)
    alpha = ld / ((1 - mu) * eps) + 1
    s2 = 20 * G ** 2 * T * alpha / (K ** 2 * n ** 2 * mu * eps)
    bound = (2 * D + 2 * L * d * s2 / B ** 2) / math.sqrt(T)
    unit = G * math.sqrt(d * L * D * ld) / (K * n * eps)
    printed = 4 * math.sqrt(5) * (1 + 1 / (B ** 2 * mu * (1 - mu)))
    assert math.isclose(bound / unit - printed, 4 * math.sqrt(5) * eps / (B ** 2 * mu * ld), rel_tol=1e-9)


def test_table_1_sign_counts_by_hand():
    below = 0
    for m, row in TABLE_1.items():
        if m == "LSTM":
            continue
        v = [p.value for p in row]
        below += sum(v[c + 1] < v[c] for c in (2, 4, 6))
    ev = ledger.get("001.table-1.comparable-utility").evaluate().evidence
    assert ev["adp2_below_sync_total"] == below == 24
    assert ev["sign_test_p_one_sided"] < 1e-3


def test_case_throughputs_by_hand():
    assert tables.sync_round_time(np.array([1.0, 2.0, 1.0])) == 2.0
    assert math.isclose(tables.adpsgd_throughput(np.array([1.0] * 15 + [10.0])), 15.1)


def test_fixed_size_lower_bound_exceeds_poisson_what_if_at_sigma_1():
    """The fixed-size replace-one lower bound is above what a Poisson analysis would give (upper end)."""
    steps, B, n_k = acc.cifar_learner_steps()
    z = acc.READINGS["L92"] * 1.0
    assert acc.fixed_lower(z, steps, B / n_k) > acc.poisson_what_if(z, steps, B / n_k)[1]
    assert acc.fixed_lower(z, steps, B / n_k) <= acc.fixed_upper_wbk(z, steps, B / n_k)
    lo, hi = acc.fixed_certified(z, steps, B, n_k)
    # the accountant's bracket agrees with our realizable pair below and beats WBK above
    assert abs(lo - acc.fixed_lower(z, steps, B / n_k)) <= 1e-2 * lo
    assert acc.fixed_lower(z, steps, B / n_k) <= hi * (1 + 1e-9) and hi <= acc.fixed_upper_wbk(z, steps, B / n_k)
    assert lo > acc.poisson_what_if(z, steps, B / n_k)[1]


def test_prop1_correction_is_needed_just_beyond_it():
    """At K = 2 the printed condition already fails at tau = 10K = 20 (rho = 0), in ball arithmetic."""
    import flint

    from theory.adp2sgd import prop1_region as pr

    with flint.ctx.workprec(64):
        c1, c2, one_minus_c3 = pr.margins(2, 20, flint.arb(0))
        assert one_minus_c3 < 0
        c1, c2, one_minus_c3 = pr.margins(2, 18, flint.arb(0))
        assert c1 > 0 and c2 >= 0 and one_minus_c3 >= 0


def test_one_step_event_bound_against_the_pld_accountant():
    """The event bound is a lower bound: at most the certified PLD upper end of the same one-step pair."""
    from numerics.pld import epsilon_pld
    from numerics.schedule import Schedule

    for z, g in [(2.0, 0.08192), (0.64, 128 / 262500)]:
        b = epsilon_pld(Schedule.constant(q=g, sigma=z / 2, steps=1), acc.DELTA)
        lower = acc.one_step_lower(z, g)
        assert lower <= b.epsilon_upper
        assert lower >= 0.99 * b.epsilon_lower          # and nearly tight for this pair
