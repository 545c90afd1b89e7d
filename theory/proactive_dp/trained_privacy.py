r"""The certified privacy of the schedule one of seed 002's configurations trains.

A configuration -- data set size $N$, $K$ gradient computations, constant batch size $s$, noise $\sigma$ --
runs $T=\lceil K/s\rceil$ rounds (``002_13c470b90c68bab6.txt L134``: $K=\sum s_i$), each a Poisson-subsampled
Gaussian step at $q=s/N$ (the mechanism the analysis treats, footnote 14, L578), add/remove adjacency.
Used by the experiment claims (Tables 3-8), the calculator claims (Tables 9-11) and Appendix C.
"""
from __future__ import annotations

import math

from numerics.certified import certified_epsilon
from numerics.schedule import Schedule
from numerics.sweep import versioned


@versioned("1")
def configuration_epsilon(*, n, k_total, s, sigma, delta) -> dict:
    r"""Certified $[\epsilon_{lower},\epsilon_{upper}]$ of $\lceil K/s\rceil$ Poisson-subsampled Gaussian rounds
    at $q=s/N$, noise $\sigma$, at $\delta$ (add/remove), from :func:`numerics.certified.certified_epsilon`."""
    rounds = math.ceil(float(k_total) / float(s))
    q = float(s) / float(n)
    b = certified_epsilon(Schedule.constant(q=q, sigma=float(sigma), steps=rounds), float(delta))
    return {"rounds": rounds, "q": q, "epsilon_lower": b["epsilon_lower"], "epsilon_upper": b["epsilon_upper"]}
