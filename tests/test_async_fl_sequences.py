"""Seed 000 sample-size sequences and Lemma B.3 (theory/async_fl/sequences.py)."""
import math
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from numerics.errors import InvalidParameter
from theory.async_fl import sequences as seq
from theory.ledger import get


@pytest.mark.parametrize("claim_id", [
    "000.lemma-B3.integral-identity", "000.lemma-B3.final-reduction", "000.lemma-B3.reindexed-sum",
    "000.lemma-B3.conclusion-exact", "000.lemma-B3.c22-hypotheses", "000.lemma-B3.c22-S",
    "000.lemma-B3.c22-property-2", "000.sequences.c22-domain", "000.sequences.c22-s0-of-m",
    "000.sequences.table3-rounds", "000.sequences.example3-form", "000.sequences.experiment-form",
    "000.sequences.rounds-vs-budget", "000.lemma-B3.omega-derivative", "000.sequences.i-over-ln-i-domain",
    "000.lemma-B3.conclusion-family",
])
def test_claim_computes_its_recorded_status(claim_id):
    c = get(claim_id)
    assert c.evaluate().status == c.recorded


def test_L733_counterexample_recomputed():
    # L733: m = 2(d+1)*1450 is said to give s_0 = 50; recompute s_0 from the L731 formula by hand.
    for d in (0, 1, 2):
        m = 2 * (d + 1) * 1450
        x = (m + 1) / (16 * (d + 1) ** 2 * math.log((m + 1) / (2 * (d + 1))))
        assert seq.c22_sequence(m, d, 1)[0] == math.ceil(x) != 50
    m50 = seq.smallest_offset_for_s0(50, 0)
    assert seq.c22_sequence(m50, 0, 1)[0] == 50 and seq.c22_sequence(m50 - 1, 0, 1)[0] == 49


def test_c22_domain_counterexample():
    with pytest.raises(InvalidParameter):
        seq.c22_sequence(1, 0, 3)          # ln((m+1)/2) = ln 1 = 0
    assert seq.c22_sequence(2, 0, 1) == (1,)


def test_c22_hypothesis_counterexample():
    # gamma(z) = 4 ln z at z = 1: gamma = 0 < 1 and 2 z gamma'(z) = 8 > gamma.
    assert 4 * math.log(1) < 1 and 2 * 1 * 4 / 1 > 4 * math.log(1)


def test_gamma_one_negative_control_can_fail():
    # The exact property-(3) check is not vacuous: dropping the M1 >= d+1 hypothesis breaks it.
    assert seq.gamma_one_property_2_failures(0, 1, 50, M0=seq.c22_M0(0), M1=0)
    assert not seq.gamma_one_property_2_failures(0, 1, 50, M0=seq.c22_M0(0), M1=2)


def test_example3_papers_sequence_matches_printed_form():
    # L1674 (Ex. 3): s_{i,c} = ceil(N_c q (i+m)) with q = 1.3216327772e-4, m = 12.1062 is printed as 16 + ceil(1.3216327772 i).
    s = seq.papers_sequence(10 ** 4, "1.3216327772e-4", "12.1062", 1, 250)
    printed = [16 + math.ceil(Fraction("1.3216327772") * i) for i in range(250)]
    assert list(s) == printed


@given(a=st.integers(0, 50), b=st.integers(0, 50), n=st.integers(1, 40))
def test_linear_is_exact(a, b, n):
    assert seq.linear(a, b, n) == tuple(a * i + b for i in range(n))


@given(coef=st.fractions(0, 100, max_denominator=50), base=st.integers(0, 400),
       expo=st.sampled_from([Fraction(1, 2), Fraction(1, 3), Fraction(3, 4), Fraction(1), Fraction(2)]),
       shift=st.fractions(0, 20, max_denominator=10))
def test_ceil_scaled_power_brackets_the_value(coef, base, expo, shift):
    k = seq.ceil_scaled_power(coef, Fraction(base), expo, shift)
    v = float(coef) * base ** float(expo) + float(shift)
    assert k - 1 - 1e-9 < v <= k + 1e-9


@given(sizes=st.lists(st.integers(1, 30), min_size=1, max_size=30), frac=st.floats(0.01, 1.0))
def test_rounds_for_budget_is_the_first_round_reaching_K(sizes, frac):
    K = max(1, int(sum(sizes) * frac))
    R = seq.rounds_for_budget(sizes, K)
    assert sum(sizes[:R]) >= K and sum(sizes[:R - 1]) < K


@pytest.mark.parametrize("call", [
    lambda: seq.constant(0, 3), lambda: seq.constant(3, 0), lambda: seq.linear(-1, 0, 3),
    lambda: seq.power(1, 2, 3), lambda: seq.i_over_log_i(1, 3, start=1),
    lambda: seq.papers_sequence(100, 0, 1, 1, 3), lambda: seq.papers_sequence(100, 0.1, -1, 1, 3),
    lambda: seq.papers_sequence(100, float("nan"), 1, 1, 3), lambda: seq.c22_sequence(-1, 0, 3),
    lambda: seq.rounds_for_budget([1, 2], 10), lambda: seq.property_2_slack([1], lambda t: t, 0),
])
def test_bad_input_raises(call):
    with pytest.raises(InvalidParameter):
        call()


@pytest.mark.slow
def test_c22_property_2_long_horizon():
    v = seq.c22_property_2(rounds=20000)
    assert v.status == "holds" and v.margin > 0


def test_experiment_form_literal_reading_differs():
    # L1967 taken literally (q = 0.000132, m = 12.106 exact) gives N_c q = 1.32: at i = 25, ceil(1.32 * 37.106) = 49 while
    # ceil(1.322*25 + 16) = 50. The printed values are roundings of Example 3's q (the claim holds under that reading).
    assert seq._rounds_to(Fraction("0.00013216327772100012"), "0.000132")
    assert not seq._rounds_to(Fraction("0.0001326"), "0.000132")
    assert math.ceil(Fraction("1.32") * Fraction("37.106")) == 49
    assert math.ceil(Fraction("1.322") * 25 + 16) == 50
    assert seq.papers_sequence(10 ** 4, "0.000132", "12.106", 1, 26)[25] == 49


def test_rounds_vs_budget_direction():
    # constant sizes need K/s rounds; the C.2.2 sequence needs fewer, and T/sqrt(K) grows with K
    s = seq.c22_sequence(2, 0, 2000)
    T1, T2 = seq.rounds_for_budget(s, 10 ** 3), seq.rounds_for_budget(s, 10 ** 4)
    assert T2 / math.sqrt(10 ** 4) > T1 / math.sqrt(10 ** 3) and T2 < 10 ** 4


@settings(max_examples=8)
@given(g=st.sampled_from(["1.25", "1.5", "2", "2.5", "4"]), frac=st.sampled_from(["0.1", "0.3", "0.7", "0.9"]),
       m=st.integers(0, 30), d=st.integers(0, 3))
def test_lemma_b3_power_gamma_family(g, frac, m, d):
    import mpmath
    beta = mpmath.mpf(frac) * (mpmath.mpf(g) - 1) / mpmath.mpf(g)
    S, tau = seq.power_gamma_instance(g, beta, m, d)
    s = seq.lemma_b3_sequence(S, m, d, 80)
    slack, _ = seq.property_2_slack(s, tau, d)
    assert slack >= 0


def test_power_gamma_rejects_inadmissible_beta():
    with pytest.raises(InvalidParameter):
        seq.power_gamma_instance(2, 0.6, 0, 0)      # beta > (g-1)/g = 1/2 breaks gamma >= z gamma' g/(g-1)
