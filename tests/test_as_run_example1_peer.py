"""000.example-1.as-run-with-replacement (holds) cross-checked by a peer library (issue 35; docs/replace_one.md 7h).

The claim's upper bound is computed by numerics at delta = 6.35e-8, where the FFT's rounding had made it open
before issue 29; it is certified since h29e (the copies pair's masses and edges enclosed, numerics.location_onestep).
Independent check: dp_accounting's connect-the-dots PLD of the same
dominating pair (the with-replacement add/remove copies pair sum_k pi_k N(2k) against N(0),
pi = Bin(b, 1/N_c), numerics.dominating), every round at the largest batch size (the claim's rounded-up
schedule), composed over the claim's rounds. Copies beyond K_MAX are cut and their probability, T P(K > K_MAX),
is taken from delta (a union bound). dp_accounting's estimate is pessimistic for the pair it is given; it is
not certified (no rounding bound), so it is a cross-check, not the claim's evidence.
"""
from __future__ import annotations

from scipy import stats

from dp_accounting.pld import privacy_loss_distribution as pldm
from theory.async_fl.as_run_privacy import guarantee

K_MAX = 8


def test_peer_pld_of_the_rounded_up_schedule_is_below_the_printed_epsilon():
    g = guarantee("example-1")
    b, rounds, n_c, sigma, delta = max(g["sizes"]), len(g["sizes"]), g["n_c"], g["sigma"], float(g["delta"])
    law = stats.binom(b, 1.0 / n_c)
    pi = law.pmf(range(K_MAX + 1))
    cut = rounds * float(law.sf(K_MAX))
    assert cut < 1e-3 * delta
    pld = pldm.from_mixture_gaussian_mechanism(sigma, [2.0 * k for k in range(K_MAX + 1)], list(pi / pi.sum()),
                                              value_discretization_interval=1e-3)
    eps = pld.self_compose(rounds).get_epsilon_for_delta(delta - cut)
    assert eps <= float(g["epsilon"])
