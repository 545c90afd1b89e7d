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
from theory.mapa.experiments import _fig7_hits, _missing, _records_per_edge, _rows, _shortfall, mann_whitney_greater
from theory.mapa.paper_values import FIG7

NOISES = ("paper-literal", "k-norm")


@claim(id="003.fig-7.csgd-fewer-iterations", seed="003", lines="L542",
       statement="The centralised CSGD needs much fewer iterations to reach the loss threshold than the asynchronous algorithms (ASGD, AUDP, MAPA).",
       recorded="holds", result="Fig 7", role="figure")
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
    status, reason, missing = ("holds", "", None) if ok else _shortfall([t["panel"] for t in tests if not t["greater"]],
                                                                           [t["panel"] for t in tests])
    return Verdict(status, "sampled",
                   evidence={"points": sum(len(v) for v in hits.values()), "tests": tests,
                             "comparison": f"each asynchronous arm at the smallest K of the grid ({ks[0]}) against CSGD",
                             "censoring": "runs that never reach the threshold count as the iteration budget"},
                   reason=reason and reason + " (censored runs tie at the budget)", missing=missing)


@claim(id="003.fig-7.mapa-faster-than-asgd", seed="003", lines="L546",
       statement="MAPA needs about two orders of magnitude fewer iterations than ASGD to reach the loss threshold at K = 100 and 1000.",
       recorded="holds", result="Fig 7", role="figure")
def mapa_faster_than_asgd() -> Verdict:
    got = _fig7_hits()
    if got is None:
        return _missing("fig_003_7")
    hits, ks = got
    rows = _rows("fig_003_7")
    stated = [int(k.value) for k in FIG7["edges"][1:]]  # K = 100 and 1000 (L540, L546)
    ours = [k for k in ks if k in stated]

    def test(p, k, n):
        asgd, mapa = hits[(p, f"ASGD | K {k}")], hits[(p, f"MAPA | {n} | K {k}")]
        orders = math.log10(float(np.median(asgd)) / float(np.median(mapa)))
        cen = lambda lab: sum(1 for r in rows if r["panel"] == p and r["label"] == lab and not r["iterations_to_threshold"])
        return {"panel": p, "noise": n, "K": k, "median_ASGD": float(np.median(asgd)), "median_MAPA": float(np.median(mapa)),
                "ASGD_censored": cen(f"ASGD | K {k}"), "MAPA_censored": cen(f"MAPA | {n} | K {k}"),
                "log10_ratio": orders, **mann_whitney_greater(asgd, mapa)}

    panels = sorted({p for p, _ in hits})
    tests = [test(p, k, "paper-literal") for p in panels for k in ours if (p, f"MAPA | paper-literal | K {k}") in hits]
    k_norm = [test(p, k, "k-norm") for p in panels for k in ours if (p, f"MAPA | k-norm | K {k}") in hits]
    # a censored MAPA count is below its true count (would overstate the ratio): such a test cannot hold
    short = [t["panel"] for t in tests if not (t["greater"] and t["log10_ratio"] >= 1 and t["MAPA_censored"] == 0)]
    ok = bool(tests) and not short and ours == stated
    status, reason, missing = ("holds", "", None) if ok else _shortfall(short or ["lr/mnist-5k"], [t["panel"] for t in tests])
    if not ok and ours != stated:
        reason += f" (the CSV's K grid {ks} lacks K = {sorted(set(stated) - set(ours))} of the statement: run make fig-003-7)"
    elif not ok:
        reason += " (ASGD's censored counts are lower bounds; a censored MAPA run cannot support the statement)"
    return Verdict(status, "sampled", margin=min(t["log10_ratio"] for t in tests) - 1 if tests else None,
                   evidence={"points": sum(len(v) for v in hits.values()), "tests": tests,
                             "K_compared": ours, "K_stated": stated,
                             "decided_on": "paper-literal MAPA (the paper's noise) against ASGD",
                             "records_per_edge": _records_per_edge(ours),
                             "ours_k_norm": {"tests": k_norm, "note": "eps-DP K-norm MAPA (ours): reported, not deciding"},
                             "rule": "ASGD significantly slower (Mann-Whitney) and at least one order of magnitude in medians, "
                                     "every MAPA run observed",
                             "margin_unit": "log10 of the ASGD/MAPA median ratio minus 1 (one order of magnitude)",
                             "censoring": "a censored ASGD run counts at its budget, below its true count: the ratio is a "
                                          "lower bound, so a holds is not an artefact of censoring"},
                   reason=reason, missing=missing)
