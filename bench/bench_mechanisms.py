"""Benchmark of numerics.epsilon on the mechanisms of issue 18 against the peers that have the event.

Run: ``python -m bench bench_mechanisms`` (or ``make bench``). Peers (imported here only):
dp_accounting 0.6 (RDP and PLD accountants), prv_accountant 0.2, autodp 0.2.3.1. Opacus is not
installed (it pulls in PyTorch); its RDP/PRV accountants assume Poisson sampling whatever the batch
sampler, so for fixed-size batches it would report the Poisson row ("Poisson as if") below.

Every peer number is compared with our certified interval: a peer *below our lower bound* understates
the privacy loss (its number is not a valid guarantee for the mechanism as run); a peer *above our
upper bound* is loose. The reason for each disagreement is written next to it.
"""
from __future__ import annotations

import math
import sys
import time

import numerics
from numerics import Phase, Schedule

N, B, SIGMA, T, DELTA = 60000, 64, 1.1, 10_000, 1e-5


def _timed(fn):
    started = time.perf_counter()
    try:
        out = fn()
    except Exception as exc:  # a peer that refuses or fails is reported, not fatal
        out = exc
    return out, time.perf_counter() - started


def _ours(schedule, rel_width=None, delta=DELTA):
    b = numerics.epsilon(schedule, delta, rel_width=rel_width)
    return b.epsilon_lower, b.epsilon_upper


def _dpa_pld_poisson(q, sigma, steps, delta, pessimistic):
    from dp_accounting.pld import privacy_loss_distribution as pld_mod
    p = pld_mod.from_gaussian_mechanism(sigma, sampling_prob=q, pessimistic_estimate=pessimistic,
                                        use_connect_dots=pessimistic, value_discretization_interval=1e-4)
    return None, p.self_compose(steps).get_epsilon_for_delta(delta)


def _rdp_ours(schedule, delta):
    from numerics.conversions import epsilon_rdp
    return None, epsilon_rdp(schedule, delta).epsilon_upper


def _dpa_rdp(event, relation):
    import dp_accounting as dpa
    acc = dpa.rdp.RdpAccountant(neighboring_relation=getattr(dpa.NeighboringRelation, relation))
    if not acc.supports(event):
        raise NotImplementedError(f"RdpAccountant({relation}) does not support the event")
    acc.compose(event)
    return None, acc.get_epsilon(DELTA)


def _dpa_pld(event, relation):
    import dp_accounting as dpa
    acc = dpa.pld.PLDAccountant(getattr(dpa.NeighboringRelation, relation))
    if not acc.supports(event):
        raise NotImplementedError(f"PLDAccountant({relation}) does not support the event")
    acc.compose(event)
    return None, acc.get_epsilon(DELTA)


def _autodp_wor(sigma, steps):
    from autodp import mechanism_zoo, transformer_zoo
    mech = mechanism_zoo.GaussianMechanism(sigma=sigma)
    mech.neighboring = "replace_one"  # autodp refuses add/remove bases for subsampling without replacement
    sub = transformer_zoo.AmplificationBySampling(PoissonSampling=False)(mech, B / N, improved_bound_flag=True)
    return None, transformer_zoo.Composition()([sub], [steps]).get_approxDP(DELTA)


def _prv_pure(eps0, steps):
    from prv_accountant import PRVAccountant
    from prv_accountant.privacy_random_variables import PureDPMechanism
    acc = PRVAccountant(prvs=[PureDPMechanism(eps0)], max_self_compositions=[steps], eps_error=0.05,
                        delta_error=DELTA * 1e-3)
    low, _, up = acc.compute_epsilon(delta=DELTA, num_self_compositions=[steps])
    return low, up


def _prv_gauss(sigma, steps):
    from prv_accountant import PRVAccountant
    from prv_accountant.privacy_random_variables import PoissonSubsampledGaussianMechanism
    acc = PRVAccountant(prvs=[PoissonSubsampledGaussianMechanism(sampling_probability=1.0, noise_multiplier=sigma)],
                        max_self_compositions=[steps], eps_error=1e-3, delta_error=DELTA * 1e-3)
    low, _, up = acc.compute_epsilon(delta=DELTA, num_self_compositions=[steps])
    return low, up


def _cases():
    import dp_accounting as dpa
    wor = lambda s, t: dpa.SelfComposedDpEvent(dpa.SampledWithoutReplacementDpEvent(N, B, dpa.GaussianDpEvent(s)), t)
    wr = dpa.SelfComposedDpEvent(dpa.SampledWithReplacementDpEvent(N, B, dpa.GaussianDpEvent(SIGMA)), 1000)
    fixed = Phase.fixed_size(batch_size=B, dataset_size=N, sigma=SIGMA, steps=T)
    rr = dpa.RandomizedResponseDpEvent(2.0 / (1.0 + math.exp(0.1)), 2)  # eps0 = 0.1 randomized response
    return [
        ("M1 fixed-size 64/60000, sigma 1.1, T=1e4, replace-one",
         lambda: _ours(Schedule((fixed,), "replace-one")), [
             ("dp_accounting RDP, WOR event, nm=1.1 (docstring convention noise/C)",
              lambda: _dpa_rdp(wor(SIGMA, T), "REPLACE_ONE"),
              "WBK19 Thm 27 with the noise multiplier passed unchanged: the replace-one sensitivity is 2C, "
              "so nm must be noise/(2C) = 0.55 (dp_accounting issue #378); a realizable pair reaches ~3.71"),
             ("dp_accounting RDP, WOR event, nm=0.55 (noise / 2C)", lambda: _dpa_rdp(wor(SIGMA / 2, T), "REPLACE_ONE"),
              "RDP upper bound with the replace-one sensitivity: valid, looser than the PLD bracket"),
             ("dp_accounting PLD, WOR event", lambda: _dpa_pld(wor(SIGMA, T), "REPLACE_ONE"), ""),
             ("autodp RDP subsample (WBK19), sigma=1.1", lambda: _autodp_wor(SIGMA, T),
              "the user must pass noise/(2C); with noise/C it understates like dp_accounting"),
             ("autodp RDP subsample (WBK19), sigma=0.55", lambda: _autodp_wor(SIGMA / 2, T), ""),
             ("ours, Poisson q=b/n as if (what Opacus reports)",
              lambda: _ours(Schedule.constant(q=B / N, sigma=SIGMA, steps=T)),
              "Poisson accounting of a fixed-size run: not the mechanism that ran"),
         ]),
        ("M2 fixed-size 64/60000, sigma 1.1, T=1e4, add-remove",
         lambda: _ours(Schedule((fixed,))), [
             ("dp_accounting RDP, WOR event", lambda: _dpa_rdp(wor(SIGMA, T), "ADD_OR_REMOVE_ONE"), ""),
             ("ours, Poisson q=b/n as if", lambda: _ours(Schedule.constant(q=B / N, sigma=SIGMA, steps=T)),
              "a record entering a fixed-size batch displaces another: shift 2C, not C"),
         ]),
        ("M3 with-replacement 64/60000, sigma 1.1, T=1000, replace-one",
         lambda: _ours(Schedule((Phase.with_replacement(batch_size=B, dataset_size=N, sigma=SIGMA, steps=1000),),
                                "replace-one")), [
             ("dp_accounting RDP, WR event", lambda: _dpa_rdp(wr, "REPLACE_ONE"), ""),
             ("dp_accounting PLD, WR event", lambda: _dpa_pld(wr, "REPLACE_ONE"), ""),
         ]),
        ("M3b with-replacement 64/60000, sigma 1.1, T=1000, add-remove",
         lambda: _ours(Schedule((Phase.with_replacement(batch_size=B, dataset_size=N, sigma=SIGMA, steps=1000),))), [
             ("dp_accounting RDP, WR event", lambda: _dpa_rdp(wr, "ADD_OR_REMOVE_ONE"), ""),
         ]),
        ("M7 Poisson Gaussian q 0.01, sigma 1, T=1000, delta=1e-15 (tilted composition)",
         lambda: _ours(Schedule.constant(q=0.01, sigma=1.0, steps=1000), delta=1e-15), [
             ("dp_accounting PLD pessimistic (1e-4)", lambda: _dpa_pld_poisson(0.01, 1.0, 1000, 1e-15, True),
              "its pessimistic PLD returns infinity below its own truncation mass"),
             ("dp_accounting PLD optimistic (1e-4)", lambda: _dpa_pld_poisson(0.01, 1.0, 1000, 1e-15, False),
              "its optimistic estimate (privacy buckets) is not a lower bound here: it lies above a certified "
              "upper bound"),
             ("ours RDP (upper bound)", lambda: _rdp_ours(Schedule.constant(q=0.01, sigma=1.0, steps=1000), 1e-15),
              "RDP conversion: valid, loose"),
         ]),
        ("M4 full-batch Gaussian, sigma 2, T=100, add-remove",
         lambda: _ours(Schedule((Phase.full_batch(sigma=2.0, steps=100),))), [
             ("dp_accounting PLD", lambda: _dpa_pld(dpa.SelfComposedDpEvent(dpa.GaussianDpEvent(2.0), 100),
                                                    "ADD_OR_REMOVE_ONE"), ""),
             ("dp_accounting RDP", lambda: _dpa_rdp(dpa.SelfComposedDpEvent(dpa.GaussianDpEvent(2.0), 100),
                                                    "ADD_OR_REMOVE_ONE"), ""),
             ("prv_accountant (q=1)", lambda: _prv_gauss(2.0, 100), ""),
         ]),
        ("M5 Poisson Laplace, q 0.01, sigma 2, T=1000, add-remove",
         lambda: _ours(Schedule((Phase(0.01, 2.0, 1000, noise="laplace"),))), [
             ("dp_accounting PLD (default interval, pessimistic)",
              lambda: _dpa_pld(dpa.SelfComposedDpEvent(dpa.PoissonSampledDpEvent(0.01, dpa.LaplaceDpEvent(2.0)),
                                                       1000), "ADD_OR_REMOVE_ONE"), ""),
             ("dp_accounting RDP", lambda: _dpa_rdp(dpa.SelfComposedDpEvent(
                 dpa.PoissonSampledDpEvent(0.01, dpa.LaplaceDpEvent(2.0)), 1000), "ADD_OR_REMOVE_ONE"), ""),
         ]),
        ("M6 l2 K-norm, d=7850, sigma 10 (eps0=0.1), T=3000, full batch",
         lambda: _ours(Schedule((Phase.full_batch(sigma=10.0, steps=3000, noise="l2-knorm", dimension=7850),))), [
             ("ours, optimal pure-DP composition (KOV)",
              lambda: _kov(), "pure-DP accounting ignores the mechanism: valid, ~190x loose"),
             ("prv_accountant PureDPMechanism(0.1)", lambda: _prv_pure(0.1, 3000), "pure-DP composition"),
             ("dp_accounting PLD, RandomizedResponse(eps0=0.1) x 3000",
              lambda: _dpa_pld(dpa.SelfComposedDpEvent(rr, 3000), "REPLACE_ONE"),
              "its PLD branch for RandomizedResponseDpEvent composes once and ignores the count: it returns "
              "the one-step 0.1 for 3000 steps (KOV: 37.5)"),
         ]),
    ]


def _kov():
    from numerics.pure_dp import optimal_composition_epsilon
    b = optimal_composition_epsilon([0.1] * 3000, DELTA)
    return b.epsilon_lower, b.epsilon_upper


_NOTES = """

### Notes on our widths

- M1: the lower bound is the value of the best realizable adaptive order policy (numerics.adaptive, issue
  25), above the fixed-order composition of M2's pair; the upper bound is Dong-Roth-Su's subsampling theorem
  symmetrised over both orders, valid against an adversary that flips the order per step. The rest of the
  width is what is not known about that adversary: no grid can close it, and the issue's 2 % target would
  need a proven dominating set for the adaptive game (docs/replace_one.md section 5 shows the two orders
  are not enough).
- M3b: with replacement under add/remove, the realizable copies pair dominates every step (a convex-order
  proof in numerics.dominating), so the bracket is tight up to the grid. M3: under replace-one the upper
  bound still reveals the copy count k (joint convexity), so the rare k >= 2 draws are accounted against a
  much smaller share of the unshifted noise than they compete with: the bracket is wide.
- dp_accounting, prv_accountant and autodp have no event for fixed-size PLD or with-replacement
  sampling, and dp_accounting's RDP refuses WOR under add/remove.
"""


def _fmt(x):
    return "" if x is None else f"{x:.5g}"


def run() -> str:
    lines = ["## Mechanisms of issue 18 (bench_mechanisms)\n",
             f"delta = {DELTA:g} unless the case says otherwise. Ours: `numerics.epsilon` (certified two-sided). A peer number below our lower "
             "bound understates the privacy loss; above our upper bound it is loose. Peers that do not support "
             "an event say so. Wall times on a shared 2-core machine.\n",
             "| case | method | eps lower | eps upper | rel. width | time (s) | vs ours |", "|---|---|---|---|---|---|---|"]
    flags = []
    for case, ours_fn, peers in _cases():
        (low, up), secs = _timed(ours_fn)
        lines.append(f"| {case} | **ours** | {low:.5g} | {up:.5g} | {(up - low) / up:.2%} | {secs:.2f} | |")
        print(lines[-1], file=sys.stderr, flush=True)
        for label, fn, reason in peers:
            out, psecs = _timed(fn)
            if isinstance(out, Exception):
                lines.append(f"| | {label} | not supported: {type(out).__name__}: {str(out)[:70]} | | | {psecs:.2f} | |")
                continue
            p_low, p_up = out
            if p_up < low:
                verdict = f"BELOW our lower bound (ratio {p_up / low:.3f})"
                flags.append(f"- {case}: {label} = {p_up:.4g} < our lower bound {low:.4g}. {reason}")
            elif (p_low if p_low is not None else p_up) > up:
                verdict = f"above our upper bound (ratio {p_up / up:.3f})"
                flags.append(f"- {case}: {label} = {p_up:.4g} > our upper bound {up:.4g}. {reason}")
            else:
                verdict = f"inside or overlapping (ratio {p_up / up:.3f})"
            width = "" if p_low is None else f"{(p_up - p_low) / p_up:.2%}"
            lines.append(f"| | {label} | {_fmt(p_low)} | {_fmt(p_up)} | {width} | {psecs:.2f} | {verdict} |")
            print(lines[-1], file=sys.stderr, flush=True)
    lines += ["", "### Peer disagreements (every peer number outside our certified interval)", ""] + flags
    return "\n".join(lines) + _NOTES


if __name__ == "__main__":
    print(run())
