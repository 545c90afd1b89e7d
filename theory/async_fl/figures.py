"""Seed 000's reproduced figures (Figs 1a, 1b, 3, 4, 10) as ledger claims, decided by the runs (issue 6).

How the runs decide a claim (data source, effect and noise, statuses) is :mod:`theory.figure_evidence`.
Statuses below were set from what the code computed.
"""
from __future__ import annotations

import numpy as np

from theory.async_fl import runs as R
from theory.figure_evidence import A9A, full_rows, final_accuracies, effect, decide, figure_verdict, summarize, run_evidence, worst_of
from theory.ledger import Verdict, claim


# --- seed 000 Fig 3: pure counting --------------------------------------------------------------

@claim(id="000.fig3.i-over-log-i-fewer-rounds", seed="000", lines="L1885-L1893",
       statement="For K = 20000, a = 50, b = 0 the O(i/ln i) sequence needs fewer communication rounds than "
                 "the O(i^c) sequences with c < 1.",
       recorded="refuted", figure="figures/out/fig_000_3.png")
def fig3_i_over_log_i():
    rounds = {k: len(v) for k, v in R.rounds_per_method(20_000).items()}
    worse = {k: r for k, r in rounds.items() if k.startswith("c=") and k != "c=1" and r <= rounds["i/ln i"]}
    margin = float(min(r for k, r in rounds.items() if k.startswith("c=") and k != "c=1") - rounds["i/ln i"])
    ev = {"rounds": rounds, "rule": "rounds until sum of ceil(s_i) reaches K; i/ln i from i = 2"}
    return Verdict("refuted" if worse else "holds", "exact", margin, ev,
                   {"K": 20000, "a": 50, "b": 0, "beats_i_over_log_i": worse} if worse else None)


@claim(id="000.fig3.linear-fewest-rounds", seed="000", lines="L1885-L1893",
       statement="For K = 20000, a = 50, b = 0 the O(i) sequence with c = 1 needs the fewest communication "
                 "rounds of the listed sampling methods.",
       recorded="holds", figure="figures/out/fig_000_3.png")
def fig3_linear():
    rounds = {k: len(v) for k, v in R.rounds_per_method(20_000).items()}
    others = min(r for k, r in rounds.items() if k != "c=1")
    status = "holds" if rounds["c=1"] < others else "refuted"
    return Verdict(status, "exact", float(others - rounds["c=1"]), {"rounds": rounds},
                   {"rounds": rounds} if status == "refuted" else None)


# --- seed 000 Fig 1a/6/7: step-size schemes -----------------------------------------------------

#: "the same accuracy" read as within one accuracy point (our margin; the paper gives none)
SAME_MARGIN = 0.01


def _non_inferior(finals, arm, reference):
    diff, noise = effect(finals[arm], finals[reference])
    return diff + SAME_MARGIN, noise


@claim(id="000.fig1a.diminishing-increasing-same-accuracy", seed="000", lines="L226, L1929",
       statement="Diminishing steps eta_0/(1 + 0.001 t) with eta_0 = 0.1 and linearly increasing sample sizes reach, "
                 "in 9 rounds, the same or better accuracy than constant eta = 0.0025 and s = 200 in 20 rounds "
                 "(both diminishing1 and diminishing2; strongly convex).",
       recorded="holds-with-correction", figure="figures/out/fig_000_1a.png")
def fig1a_schemes():
    finals, source = final_accuracies("fig_000_1a", R.fig000_1a)
    ref = "constant eta=0.0025, s=200/client"
    per = {}
    for eta0 in ("0.1", "0.01"):
        per[eta0] = {clock: _non_inferior(finals, f"{clock} eta0={eta0}, linear s", ref)
                     for clock in ("diminishing1", "diminishing2")}
    status = {eta0: min((decide(x, n) for x, n in v.values()), key=("refuted", "open", "holds").index)
              for eta0, v in per.items()}
    margin = min(x for x, _ in per["0.1"].values())
    ev = run_evidence(source, finals, A9A, same_margin=SAME_MARGIN,
                       margin_plus_diff={e: {c: x for c, (x, _) in v.items()} for e, v in per.items()},
                       noise={e: {c: n for c, (_, n) in v.items()} for e, v in per.items()})
    ev["rounds"] = {"constant": 20, "linear": 9}
    ev["status_per_eta0"] = status
    if status["0.1"] != "holds" and status["0.01"] == "holds":
        ev["correction"] = (f"eta_0 = 0.01 instead of the paper's 0.1 (at 0.1 the comparison is {status['0.1']}: "
                            "the run oscillates or diverges on some seeds)")
        return Verdict("holds-with-correction", "sampled", min(x for x, _ in per["0.01"].values()), ev)
    return figure_verdict(status["0.1"], margin, ev, {"setting": source, "eta0": 0.1},
                    "the diminishing schemes are within the seed spread of the constant one")


# --- seed 000 Fig 1b/12: DP with increasing sample sizes -----------------------------------------

def _certified_from_csv(name):
    rows = full_rows(name)
    if rows is None:
        return None
    return {f'{r.get("model", "")}: {r["label"]}': float(r["epsilon_upper"]) for r in rows if r.get("epsilon_upper")}


@claim(id="000.fig1b.increasing-better-under-dp", seed="000", lines="L234, L1968",
       statement="Under DP with the same privacy guarantee (sigma = 8 for the increasing schedule s_{i,c} = N_c q (i + m), "
                 "C = 0.1, K = 25000), diminishing steps with increasing sample sizes reach a higher test accuracy than "
                 "constant s = 16 with constant steps (strongly and plain convex).",
       recorded="refuted", figure="figures/out/fig_000_1b.png")
def fig1b_dp():
    """The fair comparison is at equal certified epsilon: the full setting has a constant arm whose sigma
    is calibrated to the increasing arm's certified epsilon; the quick fallback only has sigma = 8 arms."""
    inc = "increasing s, eta0=0.15"
    per, summ, sources = {}, {}, []
    for model in ("strongly-convex", "plain-convex"):
        finals, source = final_accuracies("fig_000_1b", R.fig000_1b, model)
        if not finals:
            continue
        sources.append(source)
        summ[model] = summarize(finals)
        matched = [k for k in finals if "same certified eps" in k]
        sigma8 = max((k for k in finals if k != inc and k not in matched), key=lambda k: np.mean(finals[k]))
        for ref in matched + [sigma8]:
            per[f"{model}: vs {ref}"] = effect(finals[inc], finals[ref])
    fair = {k: v for k, v in per.items() if "same certified eps" in k} or per
    worst = min(fair, key=lambda k: fair[k][0] + fair[k][1])
    diff, noise = fair[worst]
    ev = {"source": sources[0], "final_accuracy": summ,
          "diff_noise": {k: {"diff": d, "noise": n, "status": decide(d, n)} for k, (d, n) in per.items()},
          "decided_on": "equal certified epsilon" if fair is not per else "sigma = 8 arms only (quick fallback)",
          "points": sum(len(v["values"]) for m in summ.values() for v in m.values()),
          "data": "w8a-shaped synthetic stand-in",
          "certified_epsilon_upper_at_delta_5.5e-8": _certified_from_csv("fig_000_1b")}
    return figure_verdict(decide(diff, noise), diff, ev, {"setting": sources[0], "comparison": worst},
                    "the accuracy difference is within the seed spread")


# --- seed 000 Figs 4-5: sampling methods --------------------------------------------------------

@claim(id="000.fig4.fast-sequences-keep-accuracy", seed="000", lines="L1893",
       statement="O(i) with c = 1 and O(i/ln i) (a = 50, K = 20000) keep the accuracy of the constant sequence "
                 "s_i = 50 (within one point) while needing far fewer rounds (strongly convex).",
       recorded="holds", figure="figures/out/fig_000_4.png")
def fig4_methods():
    finals, source = final_accuracies("fig_000_4", R.fig000_4, "strongly-convex")
    per = {arm: _non_inferior(finals, arm, "c=0") for arm in ("c=1", "i/ln i")}
    worst, x, noise = worst_of(per)
    ev = run_evidence(source, finals, A9A, same_margin=SAME_MARGIN,
                       margin_plus_diff={a: v[0] for a, v in per.items()}, noise=noise)
    ev["rounds"] = {k: len(v) for k, v in R.rounds_per_method(20_000).items()}
    return figure_verdict(decide(x, noise), x, ev, {"setting": source, "arm": worst},
                    "the accuracy difference is within the seed spread of the one-point margin")


# --- seed 000 Fig 10: biased vs unbiased clients ------------------------------------------------

@claim(id="000.fig10.biased-no-difference", seed="000", lines="L239, L1947",
       statement="With two clients holding only digit 0 and only digit 1 the final accuracy does not differ "
                 "significantly (within one point) from i.i.d. clients (strongly and plain convex).",
       recorded="holds", figure="figures/out/fig_000_10.png")
def fig10_biased():
    per, sources, summ = {}, [], {}
    for model in ("strongly-convex", "plain-convex"):
        finals, source = final_accuracies("fig_000_10", R.fig000_10, model)
        diff, noise = effect(finals["biased (one digit per client)"], finals["unbiased (iid)"])
        per[model] = (SAME_MARGIN - abs(diff), noise)
        sources.append(source)
        summ[model] = summarize(finals)
    worst, x, noise = worst_of(per)
    ev = {"source": sources[0], "final_accuracy": summ, "same_margin": SAME_MARGIN,
          "margin_minus_abs_diff": {m: v[0] for m, v in per.items()}, "noise": noise,
          "points": sum(len(v) for s in summ.values() for v in s.values()),
          "data": "scikit-learn digits 0 and 1 (8x8); both settings are nearly separable, so this is a weak test"}
    return figure_verdict(decide(x, noise), x, ev, {"setting": sources[0], "model": worst},
                    "the difference is within the seed spread of the one-point margin")
