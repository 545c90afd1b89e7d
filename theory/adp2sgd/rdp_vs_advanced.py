r"""Seed 001, L110 (and L18, L36): "Renyi differential privacy is introduced to provide tighter privacy analysis of
composite heterogeneous mechanisms".

Decided at the paper's own setting, granting Theorem 2's model of one iteration (a subsampled Gaussian at
:math:`\gamma = B/(Kn_{(1)})`, noise :math:`\sigma^2/\Delta^2` from Theorem 2's formula with :math:`\Delta = 2G/B`, replace-one;
001.thm-2.sensitivity and 001.thm-2.worker-choice-amplification refute those modelling steps, which does not matter
for the comparison). The RDP analysis of Theorem 2 gives :math:`\epsilon` at :math:`\delta`. The advanced composition
theorem (Dwork, Rothblum, Vadhan 2010) composes T steps that are each :math:`(\epsilon_0, \delta_0)`-DP into
:math:`(\sqrt{2T\ln(1/\delta')}\,\epsilon_0 + T\epsilon_0(e^{\epsilon_0}-1),\ T\delta_0 + \delta')`. For every split with
:math:`T\delta_0 + \delta' = \delta`, :math:`\delta_0 < \delta/T` and :math:`\delta' < \delta`; the one-step
:math:`\epsilon_0(\delta_0)` decreases in :math:`\delta_0`, so the advanced-composition epsilon is at least its value at
:math:`\epsilon_0(\delta/T)` (a certified lower bound from ``numerics``, one step, fixed-size batches, replace-one) and
:math:`\delta' = \delta`: one accountant call bounds every split.
"""
from __future__ import annotations

import math

from numerics import Phase, Schedule, epsilon
from theory.adp2sgd import theorem_2 as t2
from theory.ledger import Verdict, claim

#: Theorem 2's CIFAR-10 point (the one 001.lemma-2.fractional-orders and 001.thm-2.guarantee use)
POINT = {"epsilon": 10.0, "delta": 1e-5, "mu": 0.5}


def one_step_epsilon_lower(delta0: float) -> float:
    """Certified lower bound of one iteration's epsilon at delta0 (Theorem 2's model: B of K n_(1), replace-one)."""
    c = t2.CIFAR
    s2 = t2.sigma2(**POINT, T=c["T"], K=c["K"], n1=c["n1"]) / t2.paper_delta2(G=1.0, B=c["B"]) ** 2
    phase = Phase(q=c["B"] / (c["K"] * c["n1"]), sigma=math.sqrt(s2), steps=1, sampling="fixed-size",
                  batch_size=c["B"], dataset_size=c["K"] * c["n1"])
    return epsilon(Schedule((phase,), adjacency="replace-one"), delta0).epsilon_lower


def advanced_composition(eps0: float, steps: int, delta_prime: float) -> float:
    """Dwork-Rothblum-Vadhan: the epsilon of ``steps`` (eps0, .)-DP steps at slack delta_prime."""
    return math.sqrt(2 * steps * math.log(1 / delta_prime)) * eps0 + steps * eps0 * math.expm1(eps0)


@claim(id="001.l110.rdp-tighter", seed="001", lines="L110, L18, L36, L546-L550",
       statement="RDP gives a tighter privacy analysis of the composed mechanism than (eps, delta) composition: at Theorem 2's CIFAR-10 point its epsilon is below what the advanced composition theorem gives for the same steps.",
       recorded="holds", result="L110", role="remark")
def rdp_tighter() -> Verdict:
    c, eps, delta = t2.CIFAR, POINT["epsilon"], POINT["delta"]
    eps0 = float(one_step_epsilon_lower(delta / c["T"]))
    ac_lower = float(advanced_composition(eps0, c["T"], delta))
    ok = ac_lower > eps
    why = "" if ok else f"advanced composition's lower bound {ac_lower:.3g} is not above the RDP epsilon {eps}"
    return Verdict("holds" if ok else "open", "numeric", (ac_lower - eps) / ac_lower if ok else None, why=why,
                   reason="" if ok else why, arithmetic=("float",),
                   evidence={"T": c["T"], "gamma": c["B"] / (c["K"] * c["n1"]), "eps0_lower_at_delta_over_T": eps0,
                             "advanced_composition_epsilon_at_least": ac_lower, "rdp_epsilon": eps, "delta": delta,
                             "margin_unit": "(advanced-composition lower bound - RDP epsilon)/advanced-composition bound",
                             "granted": "Theorem 2's sensitivity 2G/B and worker-choice amplification (both refuted "
                                        "elsewhere; the comparison is between two analyses of the same model)"})
