r"""Seed 001, Lemma 4 (L534-536, cited from Mironov 2017 Prop. 3): (alpha, eps)-RDP implies
:math:`(\epsilon + \log(1/\delta)/(\alpha-1), \delta)`-DP.

Checked on the one mechanism whose exact privacy profile is known in closed form, the Gaussian mechanism
with shift/noise ratio 1/s: RDP :math:`\alpha/(2s^2)` (Lemma 2's first part) and exact
:math:`\delta(\epsilon) = \Phi(-\epsilon s + \frac{1}{2s}) - e^\epsilon\Phi(-\epsilon s - \frac{1}{2s})`
(Balle and Wang 2018, Thm 8; scipy.stats.norm). The lemma holds at a point when the exact delta at the
converted epsilon is at most delta.
"""
from __future__ import annotations

import math

import numpy as np
from scipy.stats import norm

from theory.ledger import Verdict, claim

S_GRID = np.geomspace(0.3, 30.0, 12)
ALPHA_GRID = (1.1, 1.5, 2.0, 4.0, 8.0, 32.0, 128.0)
DELTA_GRID = (1e-2, 1e-5, 1e-10)


def gaussian_delta(eps: float, s: float) -> float:
    """Exact delta(eps) of N(1, s^2) vs N(0, s^2) (log-space for the second term)."""
    return float(norm.cdf(-eps * s + 1 / (2 * s)) - math.exp(eps + norm.logcdf(-eps * s - 1 / (2 * s))))


@claim(id="001.lemma-4.conversion", seed="001", lines="L534-536",
       statement="(alpha, eps)-RDP implies (eps + log(1/delta)/(alpha-1), delta)-DP for every delta in (0, 1).",
       recorded="holds", result="Lemma 4", role="conclusion")
def conversion() -> Verdict:
    worst, at, n = -math.inf, None, 0
    for s in S_GRID:
        for a in ALPHA_GRID:
            for d in DELTA_GRID:
                eps = a / (2 * s * s) + math.log(1 / d) / (a - 1)
                ratio = gaussian_delta(eps, s) / d
                n += 1
                if ratio > worst:
                    worst, at = ratio, {"s": float(s), "alpha": a, "delta": d, "converted_epsilon": float(eps)}
    ok = worst <= 1.0
    return Verdict("holds" if ok else "refuted", "sampled", margin=1.0 - worst,
                   evidence={"points": n, "grid": "s in geomspace(0.3, 30, 12) x alpha in {1.1,...,128} x delta in {1e-2,1e-5,1e-10}",
                             "mechanism": "Gaussian, exact profile (Balle-Wang 2018 Thm 8)", "max_exact_delta_over_delta": worst,
                             "at": at, "margin_unit": "1 - max(exact delta / delta)"},
                   counterexample=None if ok else at, arithmetic=("float",))
