r"""Fig. 7's statements about the non-private baselines (L542, L546), issue 31: CSGD needs far fewer iterations than
the asynchronous algorithms, and MAPA is about two orders of magnitude faster than ASGD at K = 100 and 1000.

Both read the rows of ``figures/out/fig_003_7.csv`` (iterations to the caption's loss threshold per run; a run
that never reaches it is censored at the iteration budget and counts as the budget, a lower bound on its count),
through :func:`theory.mapa.experiments._fig7_hits`, as the other Fig. 7 claims do. A statement holds when a
one-sided Mann-Whitney test finds the stated direction on every panel; otherwise
:func:`theory.mapa.experiments._shortfall` decides (issue 32): ``open`` when it falls short on real MNIST with the
paper's model, ``not-reproduced`` naming the missing data set when only on the USPS stand-in.
"""
from __future__ import annotations

import math

import numpy as np

from theory.ledger import Verdict, claim
from theory.mapa.experiments import _fig7_hits, _missing, _shortfall, mann_whitney_greater
from theory.mapa.paper_values import FIG7

NOISES = ("paper-literal", "k-norm")


@claim(id="003.fig-7.csgd-fewer-iterations", seed="003", lines="L542",
       statement="The centralised CSGD needs much fewer iterations to reach the loss threshold than the asynchronous algorithms (ASGD, AUDP, MAPA).",
       recorded="not-reproduced", result="Fig 7", role="figure")
def csgd_fewer() -> Verdict:
    got = _fig7_hits()
    if got is None:
        return _missing("fig_003_7")
    hits, ks = got
    tests = []
    for p in sorted({p for p, _ in hits}):
        csgd = hits[(p, "CSGD")]
        for alg in ("ASGD",) + tuple(f"{a} | {n}" for n in NOISES for a in ("AUDP clip 3", "MAPA")):
            arm = hits[(p, f"{alg} | K {ks[0]}")]
            tests.append({"panel": p, "arm": alg, "K": ks[0], "median_arm": float(np.median(arm)),
                          "median_CSGD": float(np.median(csgd)), **mann_whitney_greater(arm, csgd)})
    ok = bool(tests) and all(t["greater"] for t in tests)
    status, reason, missing = ("holds", "", None) if ok else _shortfall([t["panel"] for t in tests if not t["greater"]])
    return Verdict(status, "sampled",
                   evidence={"points": sum(len(v) for v in hits.values()), "tests": tests,
                             "comparison": f"each asynchronous arm at the smallest K of the grid ({ks[0]}) against CSGD",
                             "censoring": "runs that never reach the threshold count as the iteration budget"},
                   reason=reason and reason + " (censored runs tie at the budget)", missing=missing)


@claim(id="003.fig-7.mapa-faster-than-asgd", seed="003", lines="L546",
       statement="MAPA needs about two orders of magnitude fewer iterations than ASGD to reach the loss threshold at K = 100 and 1000.",
       recorded="open", result="Fig 7", role="figure")
def mapa_faster_than_asgd() -> Verdict:
    got = _fig7_hits()
    if got is None:
        return _missing("fig_003_7")
    hits, ks = got
    stated = [int(k.value) for k in FIG7["edges"][1:]]  # K = 100 and 1000 (L540, L546)
    ours = [k for k in ks if k in stated] or ks[-1:]
    tests = []
    for p in sorted({p for p, _ in hits}):
        for k in ours:
            asgd = hits[(p, f"ASGD | K {k}")]
            for n in NOISES:
                mapa = hits[(p, f"MAPA | {n} | K {k}")]
                orders = math.log10(float(np.median(asgd)) / float(np.median(mapa)))
                tests.append({"panel": p, "noise": n, "K": k, "median_ASGD": float(np.median(asgd)),
                              "median_MAPA": float(np.median(mapa)), "log10_ratio": orders,
                              **mann_whitney_greater(asgd, mapa)})
    short = [t["panel"] for t in tests if not (t["greater"] and t["log10_ratio"] >= 1)]
    ok = bool(tests) and not short
    status, reason, missing = ("holds", "", None) if ok else _shortfall(short)
    return Verdict(status, "sampled",
                   evidence={"points": sum(len(v) for v in hits.values()), "tests": tests,
                             "K_compared": ours, "K_stated": stated,
                             "rule": "ASGD significantly slower (Mann-Whitney) and at least one order of magnitude in medians",
                             "censoring": "censored runs count as the budget: ASGD's counts are lower bounds"},
                   reason=reason and (reason + f" at K = {ours} (censored runs tie at the budget; the figure's K grid "
                                      f"has no K = {max(stated)}: run it)"), missing=missing)
