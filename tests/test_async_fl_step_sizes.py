"""Seed 000 Lemma B.4, Theorem 2.2 / C.2.2, C.2.1, C.3 (theory/async_fl/step_sizes.py)."""
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, strategies as st

from numerics.errors import InvalidParameter
from theory.async_fl import sequences as seqs
from theory.async_fl import step_sizes as st_
from theory.ledger import get

CLAIMS = ["000.lemma-B4.ineq-5", "000.lemma-B4.a1-range", "000.lemma-B4.a1-covers-proof",
          "000.lemma-B4.c22-hypotheses", "000.lemma-B4.alpha-range", "000.thm-2.2.eta-closed-form",
          "000.thm-2.2.orders", "000.C2.sqrt-bound", "000.thm-2.2.rate-expansion", "000.thm-2.2.optimality-factor",
          "000.C2.constant-step-sample-size", "000.C2.leblond-rate", "000.C3.average-definition",
          "000.C3.curvature-endpoints", "000.lemma-B4.proof-chain", "000.thm-2.2.linear-eta-order"]


@pytest.mark.parametrize("claim_id", CLAIMS)
def test_claim_computes_its_recorded_status(claim_id):
    c = get(claim_id)
    assert c.evaluate().status == c.recorded


def test_eta_bar_is_eta_t_at_each_round_start():
    # Lemma B.4: eta_bar_i = a0/(t_i + E_{t_i}); recompute from the per-iteration definition with alpha = a0.
    s, M1, E = st_.c22_construction(50, 0, 30)
    eta = st_.eta_bar(s, E, a0=12)
    t_i = 0
    for i, si in enumerate(s):
        assert math.isclose(eta[i], 12 / (t_i + 2 * float(seqs.c22_tau(t_i, 50, M1))), rel_tol=1e-12)
        t_i += si


def test_alpha_within_printed_range_hand_check():
    s, M1, E = st_.c22_construction(2900, 0, 200)
    lo, hi = st_.alpha_extremes(s, E, a0=12)
    assert 12 - 1e-9 <= lo <= hi <= 36


def test_leblond_counterexample_is_negative():
    v = get("000.C2.leblond-rate").evaluate()
    ce = v.counterexample
    a = Fraction(ce["a"])
    rho = a * ce["L"] / ce["mu"]
    assert rho > 1 and 2 * (1 - rho) ** ce["t"] * ce["||w0-w*||^2"] < 0


def test_L160_vs_L675_counterexample():
    a, L, mu, d = Fraction(1, 10), 1, Fraction(1, 100), 0
    assert 1 / ((a / L) * mu * (d + 1)) == 1000 and a / (L * mu * (d + 1)) == 10


def test_rate_expansion_gap_scale():
    # 1 - t*rate behaves like 2/sqrt(t ln t), not like C/t
    M1 = float(seqs.c22_M1(2900, 0))
    t = 10 ** 12
    gap = 1 - float(st_.rate_factor(t, 2900, M1))
    assert 1.9 < gap * math.sqrt(t * math.log(t)) < 2.1 and gap * t > 1e5


@given(m=st.integers(0, 60), d=st.integers(0, 3))
def test_ineq_5_gamma_one(m, d):
    s = seqs.gamma_one_sequence(m, d, 120)
    assert all(s[i] - 1 <= Fraction(m + 2, m + 1) * s[i - 1] for i in range(1, len(s)))


@given(m=st.integers(3, 4000), d=st.integers(0, 2))
def test_Ebar_doubling_c22(m, d):
    if m + 1 <= 2 * (d + 1):
        return
    s, M1, E = st_.c22_construction(m, d, 200)
    ends = st_.round_starts(s)[1:]
    Ebar = np.concatenate([[E(0)], E(ends)])
    assert np.all(Ebar[1:] <= 2 * Ebar[:-1])


def test_bad_input_raises():
    with pytest.raises(InvalidParameter):
        st_.eta_bar([1, 2], lambda t: t + 1.0, q=-1)


@pytest.mark.slow
def test_alpha_range_long():
    assert st_.alpha_range(rounds=20000).status == "holds"
