"""Seed 003 claims added for issue 31: their helpers against independent computations, and their rechecks
against false counterexamples (the generic tests in test_ledger/test_trust evaluate the verdicts)."""
from fractions import Fraction

import pytest

from theory.ledger import HypothesisFails
from theory.mapa import lemmas, remarks, stage_privacy


def test_audp_moments_match_the_closed_form_without_delay():
    # tau = 0, constant step: x_{t+1} = (1 - gamma L) x_t - gamma eta_t, so
    # E x_t^2 = q^(2(t-1)) x_1^2 + v gamma^2 sum_{j < t-1} q^(2j) with q = 1 - gamma L (independent derivation)
    L, gamma, v, T = Fraction(2), Fraction(1, 7), Fraction(3, 10), 6
    E, _ = lemmas.audp_moments(L=L, gammas=[gamma] * T, delays=[0] * T, v=v)
    q = 1 - gamma * L
    for t in range(1, T + 2):
        expected = q ** (2 * (t - 1)) + v * gamma ** 2 * sum(q ** (2 * j) for j in range(t - 1))
        assert E(t, t) == expected


def test_audp_moments_noise_free_run_is_the_plain_recursion():
    delays, a = [0, 1, 2, 1, 0, 0], Fraction(19, 20)
    E, _ = lemmas.audp_moments(L=Fraction(1), gammas=[a] * len(delays), delays=delays, v=Fraction(0))
    _, _, x = lemmas._eq19_sides(a, delays)
    assert [E(t, t) for t in range(1, len(delays) + 2)] == [v * v for v in x[1:]]


def test_eq19_recheck_rejects_delays_and_steps_outside_the_hypotheses():
    with pytest.raises(HypothesisFails):
        lemmas.recheck_eq19({"delays": [1, 0, 0], "gamma_L": "1/2"})  # tau(1) = 1 reaches x_0
    with pytest.raises(HypothesisFails):
        lemmas.recheck_eq19({"delays": [0, 1, 2, 1, 0, 0], "gamma_L": "1"})  # gamma = 1/L is outside (0, 1/L)
    assert lemmas.recheck_eq19({"delays": [0, 0, 0], "gamma_L": "1/2"}) >= 0  # no delay: (19) telescopes exactly


def test_stage_privacy_needs_the_quadratic_region_and_identical_data_release_nothing():
    with pytest.raises(HypothesisFails):
        stage_privacy.huber_gap([Fraction(0), Fraction(10)], Fraction(0), Fraction(1), Fraction(1))
    same = {"n": 12, "L": "10", "h": "4", "x1": 2, "others": 0, "changed_from": 1, "changed_to": 1}
    assert stage_privacy.recheck_stage_length(same) == 0.0


def test_switch_times_grow_with_the_gap():
    small, large = stage_privacy.switch_times(1.0), stage_privacy.switch_times(100.0)
    assert all(a <= b for a, b in zip(small, large)) and small != large


def test_lr_vs_asgd_depends_on_R_as_the_claim_says():
    v = remarks.lr_vs_asgd()
    r_min = v.evidence["R_threshold"]
    base = {"L": 10.0, "tau": 5, "sigma": 30.0, "b": 12, "epsilon": 0.1}
    assert remarks.recheck_lr_vs_asgd({**base, "R": r_min / 2}) > 0  # below the threshold MAPA's step is larger
    assert remarks.recheck_lr_vs_asgd({**base, "R": r_min * 2}) < 0


def test_growth_recheck_refuses_a_bounded_sequence():
    # with T values that are not increasing, sqrt(T) B does not increase along them
    with pytest.raises(HypothesisFails):
        remarks.recheck_growth({"bound": "theorem-2", "T": [1e8, 1e4]})
