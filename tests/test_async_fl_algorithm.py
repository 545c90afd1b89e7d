"""Seed 000 Algorithm 2.1 / Appendix A: index map, wait rules, Theorem 2.1 (theory/async_fl/algorithm.py)."""
import random

import pytest
from hypothesis import given, strategies as st

from numerics.errors import InvalidParameter
from theory.async_fl import algorithm as alg
from theory.ledger import get

CLAIMS = ["000.thm-2.1.rho-bijection", "000.thm-2.1.round-sum", "000.thm-2.1.t-le-tglob",
          "000.thm-2.1.consistency", "000.thm-2.1.wait-invariant", "000.thm-2.1.wait-consistency",
          "000.thm-2.1.simulation", "000.alg.wait-equality", "000.alg.broadcast-content", "000.alg.noise-sign",
          "000.alg.C1-sign"]


@pytest.mark.parametrize("claim_id", CLAIMS)
def test_claim_computes_its_recorded_status(claim_id):
    c = get(claim_id)
    assert c.evaluate().status == c.recorded


tables = st.lists(st.lists(st.integers(0, 2), min_size=1, max_size=6), min_size=1, max_size=5)


@given(rows=tables)
def test_rho_and_its_inverse_are_mutually_inverse(rows):
    a = alg.check_table(rows, 3)
    ts = [alg.rho(a, *lab) for lab in alg.labels(a, 3)]
    assert sorted(ts) == list(range(alg.round_starts(a)[-1]))
    for lab, t in zip(alg.labels(a, 3), ts):
        assert alg.rho_inverse(a, t) == lab
        assert t <= alg.t_glob(a, *lab) + 1


def test_printed_rho_counterexample():
    # Client 0 owns slot 0 of round 0: no t' has zero earlier-or-equal assignments, so rho(0,0,0) is undefined.
    a = ((0,), (0, 0))
    assert alg.rho_printed(a, 0, 0, 0) is None
    assert alg.rho(a, 0, 0, 0) == 0
    # and with a(0,0) = 1 the printed map sends client 0's first label to client 1's slot
    b = ((1, 0),)
    assert alg.rho_printed(b, 0, 0, 0) == 0 and b[0][0] == 1


def test_t_glob_counterexample():
    a = ((0,), (0, 0))
    assert alg.rho(a, 0, 0, 0) == 0 and alg.t_glob(a, 0, 0, 0) == -1


def test_equality_wait_state_check():
    a = ((0, 0), (0, 0), (0, 0, 1))
    tau = lambda t: 4  # noqa: E731
    assert alg.t_glob(a, 1, 2, 0) == 5 and alg.t_delay(a, 1, 2, 0, 0) == 6
    assert alg.may_proceed("eq", tau=tau, a=a, c=1, i=2, h=0, k=0)
    assert not alg.may_proceed("le", tau=tau, a=a, c=1, i=2, h=0, k=0)
    assert not {0, 1} <= alg.guaranteed_contents(a, 1, 2, 0, 0)
    # with k = 0 no ISR has run, so a client still holds all its own updates
    assert {0, 1, 2} <= alg.guaranteed_contents(((0,), (0, 0), (0, 0)), 0, 2, 0, 0)


def test_simulation_detects_violations_under_the_equality_rule():
    # negative control: the simulator's consistency check is not vacuous.
    rng = random.Random(1)
    hits = 0
    for seed in range(30):
        a = alg.random_table((2, 3, 4), (0.5, 0.5), rng)
        hits += bool(alg.simulate(a, 2, tau=lambda t: 1, rule="eq", seed=seed).violations)
    assert hits > 0


@given(seed=st.integers(0, 10_000), sizes=st.lists(st.integers(1, 5), min_size=2, max_size=5))
def test_simulation_le_rule_is_consistent(seed, sizes):
    a = alg.random_table(sizes, (0.6, 0.4), random.Random(seed))
    res = alg.simulate(a, 2, tau=lambda t: 2 + max(t, 0) // 2, rule="le", seed=seed)
    assert not res.violations


@given(seed=st.integers(0, 10_000))
def test_simulation_lag_rule_under_property_3(seed):
    a = alg.random_table((2, 2, 3, 3, 4), (0.5, 0.5), random.Random(seed))
    tau = lambda t: 4 + max(t, 0) // 2  # noqa: E731
    d = 1
    if alg.property_3(a, tau, d):
        assert not alg.simulate(a, 2, tau=tau, rule="lag", d=d, seed=seed).violations


@pytest.mark.parametrize("call", [
    lambda: alg.check_table([], 2), lambda: alg.check_table([[0, 3]], 2), lambda: alg.check_table([[0]], 0),
    lambda: alg.rho(((0,),), 0, 0, 1), lambda: alg.rho_inverse(((0,),), 5),
    lambda: alg.may_proceed("xx", tau=lambda t: 1, a=((0,),), c=0, i=0, h=0, k=0),
])
def test_bad_input_raises(call):
    with pytest.raises(InvalidParameter):
        call()


@pytest.mark.slow
def test_simulation_many_runs():
    assert alg.simulation(runs=2000).status == "holds"


def test_decreasing_tau_counterexample_is_reachable_in_simulation():
    # Permissible tau (t - tau(t) = -5, -4, -3, 3, 4, ... non-decreasing) that drops to 0 at t = 3:
    # Appendix A's loop tests tau(t_glob) = tau(t - 1) = 5 and lets update 3 run without updates 1, 2.
    tau = lambda t: 5 if t < 3 else 0  # noqa: E731
    a = ((0,), (0, 0), (0, 0))
    assert alg.lag_nondecreasing(tau, 5)
    assert any(alg.simulate(a, 1, tau=tau, rule="le", seed=s).violations for s in range(100))
    # the corrected loop (tau at t_glob + 1) never violates consistency (here it waits instead)
    assert not any(alg.simulate(a, 1, tau=tau, rule="le-own", seed=s).violations for s in range(100))


def test_equality_counterexample_is_reachable_in_simulation():
    # tau = 4, client 1 owns only the last slot of round 2: it sends empty rounds 0 and 1 and starts round 2
    # with k = 0, where t_glob = 5, t_delay = 6 != 4; '=' proceeds without updates 0, 1, '<=' waits.
    a = ((0, 0), (0, 0), (0, 0, 1))
    tau = lambda t: 4  # noqa: E731
    assert alg.simulate(a, 2, tau=tau, rule="eq", seed=0).violations
    le = alg.simulate(a, 2, tau=tau, rule="le", seed=0)
    assert not le.violations and le.deadlock is None
