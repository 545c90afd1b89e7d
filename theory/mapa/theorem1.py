"""Theorem 1's conclusion (L203-L219) under its readings: which density Eq. (6) is, and which neighbours.

The verdict combines the K-norm pair of :mod:`theory.mapa.noise` (the vector reading, and the radial
reading) with the with-replacement data-set neighbours of :mod:`theory.mapa.sensitivity`; it lives apart
from both so that neither imports the other.
"""
from __future__ import annotations

import dataclasses

from theory.ledger import Reading, Verdict, claim
from theory.mapa import CAUSE_LAPLACE_1D
from theory.mapa.noise import (VECTOR_LINES, VECTOR_READING, RADIAL_LINES, RADIAL_READING, _k_norm_dp_verdict,
                               _radial_verdict, _readings)
from theory.mapa.sensitivity import dataset_neighbours_with_replacement


@claim(id="003.thm-1.k-norm-dp", seed="003", lines="L203-L219",
       statement="With Delta S = 2G/b and noise drawn from Eq. (6), the t-th iteration of AUDP is epsilon_k(t)-DP (Theorem 1).",
       recorded="holds-with-correction", result="Theorem 1", role="conclusion", cause=CAUSE_LAPLACE_1D)
def k_norm_dp() -> Verdict:
    v = _k_norm_dp_verdict()
    ds = dataset_neighbours_with_replacement()
    readings = _readings(v, (VECTOR_READING + "; neighbours are mini-batches differing in one sample (Def. 2)",
                             VECTOR_LINES + ", L147"),
                         _radial_verdict(), (RADIAL_READING, RADIAL_LINES))
    readings += (Reading("neighbours are data sets differing in one sample (Def. 1) and the edge draws its batch with "
                         "replacement", "L104, L133", ds.status, ds.margin, ds.why),)
    return dataclasses.replace(v, readings=readings)
