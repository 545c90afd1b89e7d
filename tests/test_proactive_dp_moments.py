"""Tests of the sample-size moments of seed 002 (S-hat_j, S_j, S'_j, rho, rho-hat)."""
from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

from numerics.errors import InvalidParameter
from theory.proactive_dp import moments as m


@st.composite
def sequences(draw):
    n = draw(st.integers(2, 5000))
    sizes = draw(st.lists(st.integers(1, n - 1), min_size=1, max_size=30))
    return n, sizes


@given(sequences())
def test_cauchy_schwarz_bounds_on_rho_and_rho_hat(seq):
    n, sizes = seq
    assert m.rho(sizes, n) >= 1
    assert m.rho_hat(sizes, n) <= 1 - Fraction(min(sizes), n)


@given(sequences(), st.lists(st.fractions(Fraction(1, 2), Fraction(100)), min_size=30, max_size=30))
def test_s_prime_1_at_most_r0(seq, sigmas):
    n, sizes = seq
    sig = sigmas[: len(sizes)]
    r0 = max(Fraction(s, n) * g for s, g in zip(sizes, sig))
    assert m.s_prime_j(sizes, n, sig, 1) <= r0


@given(sequences())
def test_s_hat_j_at_most_alpha_power(seq):
    n, sizes = seq
    alpha = Fraction(max(sizes), n)
    for j in (1, 2, 3):
        assert m.s_hat(sizes, n, j) <= alpha ** j / (1 - alpha) ** (j - 1)
    assert m.s_hat(sizes, n, 1) == Fraction(sum(sizes), len(sizes) * n)


@given(st.integers(2, 10_000).flatmap(lambda n: st.tuples(st.just(n), st.integers(1, n - 1))), st.integers(1, 50))
def test_constant_sequence_closed_forms_exactly(ns, rounds):
    n, s = ns
    q = Fraction(s, n)
    sizes = m.constant_sequence(s, rounds)
    for j in (1, 2, 3):
        assert m.s_hat(sizes, n, j) == q ** j / (1 - q) ** (j - 1)
    assert m.rho(sizes, n) == 1
    assert m.rho_hat(sizes, n) == 1 - q


def test_constant_sigma_relation_example():
    sizes, n, sigma = [3, 5, 8], 40, Fraction(7, 3)
    sig = [sigma] * 3
    assert m.s_j(sizes, n, sig, 2) == 3 * m.s_hat(sizes, n, 2) / sigma ** 2
    assert m.s_j(sizes, n, sig, 1) * m.s_prime_j(sizes, n, sig, 1) == 3 * m.s_hat(sizes, n, 1) ** 2


@pytest.mark.parametrize("sizes,n", [([], 10), ([0], 10), ([10], 10), ([3], 1), ([2.5], 10), ([True], 10)])
def test_bad_sequences_raise(sizes, n):
    with pytest.raises(InvalidParameter):
        m.s_hat(sizes, n, 1)


def test_every_moment_claim_recomputes_holds():
    for check in (m.check_constant_closed_forms, m.check_s1_hat, m.check_constant_sigma_relations,
                  m.check_s_prime_le_r0, m.check_s_hat_le_alpha, m.check_cauchy_schwarz):
        assert check().status == "holds"
