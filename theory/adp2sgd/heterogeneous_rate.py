r"""Seed 001: Theorem 2's subsampling rate under the heterogeneous learners of Section 5.3.

The proof of Theorem 2 (L546) takes the chance that a record is used in an iteration as
:math:`\gamma \le B/(K n_{(1)})`: the worker :math:`k^t` is drawn with probability 1/K and the batch with B/n_k. The
paper's own objective weights the workers by :math:`p_k`, "the fraction of updates performed by worker k" (L24), and its
experiments make the learners heterogeneous: in Case II one learner runs 10X slower and A(DP)2SGD "re-balances the
workload" (L251), so each fast learner performs :math:`p = 1/((K-1) + 1/10)` of the updates, more than 1/K. Even granting
the proof's hidden worker choice (001.thm-2.worker-choice-amplification refutes that separately) and its sensitivity
(001.thm-2.sensitivity), a fast learner's records are then sampled at :math:`\gamma = pB/n_k > B/(Kn_{(1)})`, and
Theorem 2's own RDP formula :math:`5\gamma^2\alpha\Delta^2/\sigma^2` grows by :math:`(pK)^2`. Exact rationals.
"""
from __future__ import annotations

from fractions import Fraction

from theory.adp2sgd import theorem_2 as t2
from theory.adp2sgd.paper_values import CASES, SETUP
from theory.ledger import HypothesisFails, Reading, Verdict, claim

#: Theorem 2's CIFAR-10 point used for the effect on epsilon (the one 001.lemma-2.fractional-orders covers)
POINT = {"epsilon": 10.0, "delta": 1e-5, "mu": 0.5}


def fast_share(k: int, slowdown: Fraction) -> Fraction:
    """Fraction of the updates one of the K - 1 full-speed learners performs when one learner is ``slowdown`` x slower
    and every learner works at its own pace (L251, L326)."""
    return 1 / ((k - 1) + 1 / slowdown)


def _recheck(cx: dict) -> float:
    """(B/(K n) - gamma_fast)/gamma_fast: negative when a fast learner's records are sampled above the proof's rate."""
    k, slow = int(cx["K"]), Fraction(cx["slowdown"])
    if k < 2 or slow <= 1:
        raise HypothesisFails(f"K = {k} < 2 or slowdown {slow} <= 1: the learners are not heterogeneous")
    p = fast_share(k, slow)
    return float((Fraction(1, k) - p) / p)         # gamma = p B/n_k against B/(K n_k), n_k = n_(1) (equal splits)


@claim(id="001.thm-2.heterogeneous-worker-rate", seed="001", lines="L24, L546, L251, L326",
       statement="Theorem 2's proof step gamma <= B/(K n_(1)) (L546): every worker is chosen with probability 1/K, also in the heterogeneous environments A(DP)2SGD is run in (Case II: one learner 10X slower, L251).",
       recorded="refuted", result="Theorem 2", role="proof-step", recheck=_recheck)
def heterogeneous_rate() -> Verdict:
    k, slow = int(SETUP["gpus"].value), Fraction(CASES["case2_slowdown"].text)
    p = fast_share(k, slow)
    factor = (p * k) ** 2                                                    # RDP per step scales with gamma^2
    eps, mu = POINT["epsilon"], POINT["mu"]
    eps_real = float(factor) * mu * eps + (1 - mu) * eps                     # (24): RDP part mu eps, conversion (1-mu) eps
    cx = {"K": k, "slowdown": int(slow), "fast_share": float(p), "uniform_share": 1 / k,
          "rdp_factor": float(factor), "epsilon_claimed": eps, "epsilon_by_the_proofs_formula": eps_real}
    margin = _recheck(cx)
    why = (f"in Case II (K = {k}, one learner {int(slow)}X slower, L251) each full-speed learner performs "
           f"p = 1/({k - 1} + 1/{int(slow)}) = {p} = {float(p):.4f} of the updates, {float(p * k):.4f} times the 1/K "
           f"the proof uses (L546); its records are sampled at gamma = p B/n_k, so Theorem 2's own per-step bound "
           f"5 gamma^2 alpha Delta^2/sigma^2 is {float(factor):.4f} times what (24) budgets, and at the CIFAR-10 point "
           f"(eps = {eps:g}, mu = {mu}) the same sigma gives eps = {eps_real:.3f} by the proof's formula. Equal-speed "
           "learners (p_k = 1/K) are covered; the heterogeneous runs the paper motivates are not")
    readings = (Reading("p_k = the fraction of updates worker k performs (L24), heterogeneous learners (Case II)",
                        "L24, L251", "refuted", margin, f"fast learners at {float(p * k):.4f}/K"),
                Reading("homogeneous learners (every p_k = 1/K)", "L546", "holds", 0.0, "gamma = B/(K n_(1)) exactly"))
    return Verdict("refuted", "numeric", margin, why=why, readings=readings, arithmetic=("rational", "float"),
                   counterexample=cx,
                   evidence={"margin_unit": "(1/K - p_fast)/p_fast: the proof's rate against a fast learner's",
                             "domain": "Case II's setting (K = 16, slowdown 10), exact rationals; the epsilon by the "
                                       "proof's own formula in floats",
                             "related": "001.sec-5.same-privacy-budget (the fast learners' extra steps against SYNC); "
                                        "001.thm-2.worker-choice-amplification (the worker draw is not hidden)"})
