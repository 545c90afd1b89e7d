"""Soundness of numerics.pld against the peer libraries (cross-check oracles only, STYLE 8).

dp_accounting: its pessimistic PLD (connect-the-dots, an upper bound) must be >= our lower bound, and
its optimistic PLD (a lower estimate) <= our upper bound. prv_accountant returns (lower, estimate,
upper) with its own stated error eps_error: our upper must be >= its lower, our lower <= its upper.
"""
import pytest

from numerics import pld
from numerics.schedule import Phase, Schedule

pytestmark = pytest.mark.peers

CASES = [  # (phases, delta): C1, C4, C5 of the benchmark, and a small-T case
    ([(0.01, 1.0, 1000)], 1e-5),
    ([(0.1, 4.0, 1000)], 1e-5),
    ([(0.01, 2.0, 500), (0.02, 1.0, 500)], 1e-5),
    ([(0.05, 0.8, 50)], 1e-6),
]


def dp_accounting_bounds(phases, delta, interval=1e-4):
    from dp_accounting.pld import privacy_loss_distribution as pld_mod
    out = []
    for pessimistic in (True, False):
        total = None
        for q, sigma, steps in phases:
            one = pld_mod.from_gaussian_mechanism(sigma, sampling_prob=q, pessimistic_estimate=pessimistic,
                                                  value_discretization_interval=interval)
            part = one.self_compose(steps)
            total = part if total is None else total.compose(part)
        out.append(total.get_epsilon_for_delta(delta))
    return out  # (pessimistic, optimistic)


def prv_bounds(phases, delta):
    import prv_accountant as prv
    from prv_accountant.privacy_random_variables import PoissonSubsampledGaussianMechanism
    mechs = [PoissonSubsampledGaussianMechanism(sampling_probability=q, noise_multiplier=s) for q, s, _ in phases]
    steps = [t for _, _, t in phases]
    acc = prv.PRVAccountant(prvs=mechs, max_self_compositions=steps, eps_error=0.05, delta_error=delta * 1e-3)
    low, _, up = acc.compute_epsilon(delta=delta, num_self_compositions=steps)
    return low, up


@pytest.mark.parametrize("phases,delta", CASES)
def test_our_bounds_consistent_with_dp_accounting(phases, delta):
    ours = pld.epsilon_pld(Schedule.from_phases([Phase(q=q, sigma=s, steps=t) for q, s, t in phases]), delta)
    pessimistic, optimistic = dp_accounting_bounds(phases, delta)
    assert ours.epsilon_lower <= pessimistic
    assert optimistic <= ours.epsilon_upper


@pytest.mark.parametrize("phases,delta", CASES[:3])
def test_our_bounds_consistent_with_prv_accountant(phases, delta):
    ours = pld.epsilon_pld(Schedule.from_phases([Phase(q=q, sigma=s, steps=t) for q, s, t in phases]), delta)
    low, up = prv_bounds(phases, delta)
    assert ours.epsilon_upper >= low
    assert ours.epsilon_lower <= up
