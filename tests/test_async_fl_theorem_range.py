"""000.coverage.theorem-range: Theorem 3.1 against the sampling Algorithm 2.1 runs (theory/async_fl/theorem_range.py)."""
import pytest

from numerics.errors import InvalidParameter
from theory.async_fl import theorem_range as tr
from theory.ledger import HypothesisFails


# --- 000.coverage.theorem-range: the summed test on the realizable instance -------------------------------------

@pytest.mark.parametrize("N, sigma, delta", [(20, 2.0, 1e-3), (50, 1.0, 1e-5)])
def test_summed_test_is_the_exact_epsilon_of_one_draw(N, sigma, delta):
    # T = 1, s = 1: P = (1 - 1/N) N(0) + (1/N) N(2), Q = N(0), the Poisson add/remove pair at q = 1/N and sigma/2, whose
    # likelihood ratio is increasing in S, so the best threshold test attains its epsilon: the certified bracket of
    # numerics.pld must contain the summed test's value (an oracle on both its validity and its tightness).
    from numerics.pld import epsilon_pld
    from numerics.schedule import Phase, Schedule

    b = epsilon_pld(Schedule.from_phases([Phase(q=1 / N, sigma=sigma / 2, steps=1)]), delta, rel_width=0.005)
    ours = tr.summed_test_epsilon(1, N, sigma, 1, delta)["epsilon_lower"]
    assert b.epsilon_lower * (1 - 1e-4) <= ours <= b.epsilon_upper


def test_summed_test_stays_below_the_with_replacement_accountant():
    # several draws and rounds: the summed test is a realizable lower bound, so it may not exceed the dominating
    # copies pair's epsilon (numerics' with-replacement route; its rounding is not enclosed, the gap is not close)
    from numerics import Phase, Schedule
    from numerics.accounting import epsilon

    sched = Schedule((Phase.with_replacement(batch_size=4, dataset_size=40, sigma=2.0, steps=3),), "add-remove")
    b = epsilon(sched, 1e-4, rel_width=0.01)
    ours = tr.summed_test_epsilon(4, 40, 2.0, 3, 1e-4)["epsilon_lower"]
    assert 0.5 * b.epsilon_upper < ours <= b.epsilon_upper


def test_theorem_range_recheck_rejects_points_outside_the_range():
    cx = dict(tr.THEOREM_RANGE_POINT)
    assert tr.recheck_theorem_range(cx) < 0
    with pytest.raises(HypothesisFails):
        tr.recheck_theorem_range({**cx, "r0": 0.05})      # s/N_c = 0.01 > r0/sigma = 0.005 (L180)


@pytest.mark.parametrize("call", [
    lambda: tr.summed_test_epsilon(10, 1000, 10.0, 5, 0.0),
    lambda: tr.summed_test_epsilon(10, 1000, -1.0, 5, 1e-5),
    lambda: tr.summed_test_epsilon(0, 1000, 10.0, 5, 1e-5),
])
def test_summed_test_bad_input_raises(call):
    with pytest.raises(InvalidParameter):
        call()
