r"""Seed 001, Theorem 1 (L151-164) by Monte Carlo on a quadratic where every constant is known.

Problem: worker k's samples are :math:`\xi \sim N(m_k, (\varsigma^2/d) I_d)`, :math:`f(w;\xi) = \frac12\|w-\xi\|^2`
(L = 1), p_k = 1/K, so :math:`\nabla F(w) = w - \bar m`, :math:`\varsigma^2` is the intra-worker variance and
:math:`\upsilon^2 = \frac1K\sum_k\|m_k - \bar m\|^2` the inter-worker one (Assumption 1, (5)). Algorithm 1
(L96-106) runs exactly: draw k^t, average with a random neighbour on the App. A bipartite graph, add the
summed batch gradient plus :math:`N(0,\sigma^2 I)`, staleness tau = 0. The step size is chosen so that
C1 > 0, C2 >= 0, C3 <= 1 hold (checked with ``utility.constants``), and the Monte Carlo mean of
:math:`\frac1T\sum_t\|\nabla F(\theta^t)\|^2` plus three standard errors is compared with the bound.
"""
from __future__ import annotations

import numpy as np
import sympy as sp

from theory.adp2sgd import mixing, utility
from theory.ledger import Verdict, claim

SETUP = {"K": 4, "d": 5, "B": 4, "sigma": 0.5, "varsigma2": 1.0, "T": 3000, "trials": 200, "eta": 1e-4, "seed": 1}


def simulate(*, K, d, B, sigma, varsigma2, T, trials, eta, seed):
    """(per-trial mean over t of ||grad F(theta^t)||^2, F(w0) - F*, upsilon^2) for Algorithm 1 on the quadratic."""
    rng = np.random.default_rng(seed)
    m = rng.normal(size=(K, d))
    m_bar = m.mean(axis=0)
    ups2 = float(np.mean(np.sum((m - m_bar) ** 2, axis=1)))
    w0 = m_bar + 2.0
    W = np.tile(w0[None, :, None], (trials, 1, K))              # trials x d x K
    acc = np.zeros(trials)
    rows = np.arange(trials)
    senders, receivers = np.arange(0, K, 2), np.arange(1, K, 2)
    for _ in range(T):
        theta = W.mean(axis=2)
        acc += np.sum((theta - m_bar) ** 2, axis=1)
        k = rng.integers(K, size=trials)
        j = np.where(k % 2 == 0, rng.choice(receivers, size=trials), rng.choice(senders, size=trials))
        g = B * (W[rows, :, k] - m[k]) + rng.normal(0, np.sqrt(B * varsigma2 / d), (trials, d)) \
            + rng.normal(0, sigma, (trials, d))                    # the read model is w_k^t (tau = 0)
        avg = 0.5 * (W[rows, :, k] + W[rows, :, j])
        W[rows, :, k] = avg - eta * g
        W[rows, :, j] = avg
    return acc / T, 0.5 * float(np.sum((w0 - m_bar) ** 2)), ups2


@claim(id="001.thm-1.monte-carlo-quadratic", seed="001", lines="L151-164",
       statement="Under Theorem 1's conditions, (1/T) sum_t E||grad F(theta^t)||^2 <= 2(F(w0)-F*)K/(eta T B) + 2 eta L/(BK)(varsigma^2 B + 6 upsilon^2 B^2 + d sigma^2).",
       recorded="holds", result="Theorem 1", role="conclusion")
def monte_carlo() -> Verdict:
    s = SETUP
    rho = mixing.rho("bipartite", s["K"])
    rb = float(utility.rho_bar(rho, s["K"], lib=np))
    C1, C2, C3 = (float(c) for c in utility.constants(sp.Float(s["eta"]), s["B"], 1, s["K"], 0, sp.Float(rb)))
    assert C1 > 0 and C2 >= 0 and C3 <= 1, "the chosen step must meet Theorem 1's conditions"
    per_trial, gap, ups2 = simulate(**s)
    lhs = float(per_trial.mean())
    se = float(per_trial.std(ddof=1) / np.sqrt(len(per_trial)))
    rhs = (2 * gap * s["K"] / (s["eta"] * s["T"] * s["B"])
           + 2 * s["eta"] / (s["B"] * s["K"]) * (s["varsigma2"] * s["B"] + 6 * ups2 * s["B"] ** 2 + s["d"] * s["sigma"] ** 2))
    upper = lhs + 3 * se
    ok = upper <= rhs
    return Verdict("holds" if ok else "refuted", "sampled", margin=(rhs - upper) / rhs,
                   evidence={"points": s["trials"], "setup": s, "rho": rho, "rho_bar": rb, "C1": C1, "C2": C2, "C3": C3,
                             "monte_carlo_mean": lhs, "standard_error": se, "bound": rhs, "F0_minus_Fstar": gap,
                             "upsilon2": ups2, "margin_unit": "(bound - (mean + 3 SE)) / bound"},
                   counterexample=None if ok else {"mean_plus_3se": upper, "bound": rhs})
