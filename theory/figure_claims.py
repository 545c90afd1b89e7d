"""Each reproduced figure's stated outcome as a ledger claim, decided by the runs (issue 6).

Where the numbers come from: the CSV that the figure's make target wrote (``figures/out/<name>.csv``)
when it exists and was made at the full setting, otherwise the figure's quick setting run now (a few
seconds; repro.experiments holds both settings). ``evidence["source"]`` says which.

How an effect is decided: over seeds, ``diff = mean(a) - mean(b)`` and ``noise = 2 * SE(diff)`` with
``SE = sqrt(var_a/n_a + var_b/n_b)``, floored at :data:`NOISE_FLOOR` (a few seeds estimate a spread
poorly). A claimed effect ``a > b`` holds when ``diff > noise``, is refuted when ``diff < -noise``,
and is open in between. A level claim (``x <= L``) holds when ``x + noise <= L``, is refuted when
``x - noise > L``. The data are stand-ins (repro.data): a "refuted" here means the stated outcome does
not reproduce on the stand-in at the stated setting; the counterexample names that setting.
Statuses below were set from what the code computed.
"""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from repro import experiments as E
from repro.caption_csv import read_csv
from .ledger import Verdict, claim

OUT = Path(__file__).resolve().parent.parent / "figures" / "out"
#: smallest effect (accuracy, absolute) we call distinguishable from seed noise
NOISE_FLOOR = 0.005
#: the stand-in data of the seed-002 and seed-000 runs on a9a (repro.data)
A9A = "a9a-shaped synthetic stand-in"


def _full_rows(name: str):
    """The rows of ``figures/out/<name>.csv`` if it exists and was made at the full setting, else None."""
    path = OUT / f"{name}.csv"
    if not path.exists():
        return None
    meta, rows = read_csv(path)
    return rows if meta.get("setting") == "full" else None


def _finals_from_csv(name: str, model: str | None):
    rows = _full_rows(name)
    if rows is None:
        return None
    last: dict = {}
    for r in rows:
        if model is not None and r.get("model") != model:
            continue
        key = (r["label"], r["seed"])
        if key not in last or int(r["round"]) > int(last[key]["round"]):
            last[key] = r
    finals: dict = {}
    for (lab, _), r in sorted(last.items()):
        finals.setdefault(lab, []).append(float(r["test_accuracy"]))
    return finals, f"csv:figures/out/{name}.csv (full setting)"


def final_accuracies(name: str, builder, model: str | None = None):
    """``label -> [final accuracy per seed]`` and a source string (CSV of the full run, or quick run now)."""
    got = _finals_from_csv(name, model)
    if got is not None:
        return got
    kwargs = {"quick": True} if model is None else {"quick": True, "model": model}
    exp = builder(**kwargs)
    return E.final_accuracies(E.run(exp)), f"quick setting run now ({exp.changes})"


def effect(a, b) -> tuple[float, float]:
    """``(mean(a) - mean(b), noise)`` with noise = max(2 SE, NOISE_FLOOR)."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    var = (a.var(ddof=1) / len(a) if len(a) > 1 else 0.0) + (b.var(ddof=1) / len(b) if len(b) > 1 else 0.0)
    return float(a.mean() - b.mean()), max(2.0 * math.sqrt(var), NOISE_FLOOR)


def decide(x: float, noise: float) -> str:
    """``holds`` if x > noise, ``refuted`` if x < -noise, else ``open`` (x is the claimed-positive margin)."""
    return "holds" if x > noise else "refuted" if x < -noise else "open"


def _verdict(status, margin, evidence, counterexample, reason_open, kind="sampled"):
    return Verdict(status, kind, margin, evidence, counterexample if status == "refuted" else None,
                   reason_open if status == "open" else "")


def _summ(finals: dict) -> dict:
    return {k: {"mean": float(np.mean(v)), "values": [float(x) for x in v]} for k, v in finals.items()}


def _run_evidence(source: str, finals: dict, data: str, **extra) -> dict:
    """Evidence of a claim decided on final accuracies: source, per-arm summary, ``extra``, seed count."""
    return {"source": source, "final_accuracy": _summ(finals), **extra,
            "points": sum(len(v) for v in finals.values()), "data": data}


def _worst(per: dict):
    """The key whose ``(margin, noise)`` is closest to refuted (smallest margin - noise), and that pair."""
    worst = min(per, key=lambda k: per[k][0] - per[k][1])
    return worst, *per[worst]


# --- seed 000 Fig 3: pure counting --------------------------------------------------------------

@claim(id="000.fig3.i-over-log-i-fewer-rounds", seed="000", lines="L1885-L1893",
       statement="For K = 20000, a = 50, b = 0 the O(i/ln i) sequence needs fewer communication rounds than "
                 "the O(i^c) sequences with c < 1.",
       recorded="refuted", figure="figures/out/fig_000_3.png")
def fig3_i_over_log_i():
    rounds = {k: len(v) for k, v in E.rounds_per_method(20_000).items()}
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
    rounds = {k: len(v) for k, v in E.rounds_per_method(20_000).items()}
    others = min(r for k, r in rounds.items() if k != "c=1")
    status = "holds" if rounds["c=1"] < others else "refuted"
    return Verdict(status, "exact", float(others - rounds["c=1"]), {"rounds": rounds},
                   {"rounds": rounds} if status == "refuted" else None)


# --- seed 002 Figs 7-8: constant sample size s ---------------------------------------------------

@claim(id="002.fig7.larger-s-better", seed="002", lines="L1428-L1430",
       statement="Under DP at the Table 3 setting (sigma = 19.29962, C = 0.1, same K), s = 26 reaches a higher "
                 "test accuracy than s = 1 (strongly convex).",
       recorded="holds", figure="figures/out/fig_002_s_sweep.png")
def fig7_larger_s():
    finals, source = final_accuracies("fig_002_s_sweep", E.s_sweep, "strongly-convex")
    diff, noise = effect(finals["s=26"], finals["s=1"])
    ev = _run_evidence(source, finals, A9A, diff=diff, noise=noise)
    return _verdict(decide(diff, noise), diff, ev, {"setting": source, "s": [1, 26]},
                    "the s = 26 vs s = 1 difference is within the seed spread")


# --- seed 002 Figs 11-12: privacy budgets -------------------------------------------------------

def _eps_drop(label: str):
    finals, source = final_accuracies("fig_002_eps_sweep", E.eps_sweep, "strongly-convex")
    drop, noise = effect(finals["non-DP"], finals[label])
    return finals, source, drop, noise


def _calibrated_note(finals: dict, label: str, limit: float) -> dict:
    """The same budget with sigma calibrated by our accountant (full setting only): not the paper's run."""
    cal = [k for k in finals if k.startswith(label + ",") and k.endswith("calibrated")]
    if not cal:
        return {}
    drop, noise = effect(finals["non-DP"], finals[cal[0]])
    return {"arm": cal[0], "drop": drop, "noise": noise, "status": decide(limit - drop, noise)}


def _budget_verdict(label: str, limit: float, printed_sigma: float, s: int, reason: str) -> Verdict:
    """Decide at the printed (epsilon, sigma); if that fails but the run at the sigma our accountant
    calibrates to the printed epsilon passes, the statement holds with that correction."""
    finals, source, drop, noise = _eps_drop(label)
    cal = _calibrated_note(finals, label, limit)
    ev = _run_evidence(source, finals, A9A, drop=drop, noise=noise, limit=limit,
                       with_sigma_calibrated_to_the_printed_epsilon=cal)
    status = decide(limit - drop, noise)
    if status != "holds" and cal.get("status") == "holds":
        ev["correction"] = (f"sigma from exact accounting ({cal['arm']}) instead of the printed {printed_sigma}: "
                            f"at the printed sigma the comparison is {status}")
        return Verdict("holds-with-correction", "sampled", limit - cal["drop"], ev)
    return _verdict(status, limit - drop, ev, {"setting": source, "epsilon_label": label.split("=")[1],
                                               "sigma": printed_sigma, "s": s, "drop": drop}, reason)


@claim(id="002.fig11.eps-0.04945-loss-about-10pct", seed="002", lines="L1496",
       statement="At epsilon = 0.04945 (Table 6 row 1) the test accuracy is at most about 10 points below "
                 "non-DP (strongly convex; L276: 86 % vs 93 %).",
       recorded="holds-with-correction", figure="figures/out/fig_002_eps_sweep.png")
def fig11_eps_small():
    # "about 10 %" (L1496), read as percentage points of accuracy
    return _budget_verdict("eps=0.04945", 0.10, 19.29962, 26, "the drop is within the seed spread of 10 points")


@claim(id="002.fig11.eps-0.1-close-to-non-dp", seed="002", lines="L1496, L276",
       statement="At epsilon = 0.1 (Table 6 row 2) the test accuracy comes very close to non-DP (L276: 91 % vs "
                 "93 %, i.e. within about 3 points).",
       recorded="refuted", figure="figures/out/fig_002_eps_sweep.png")
def fig11_eps_01():
    # L276's 2-point gap plus one point of rounding slack: our reading of "very close"
    return _budget_verdict("eps=0.1", 0.03, 13.06742, 55, "the drop is within the seed spread of 3 points")


# --- seed 002 Figs 4-5: utility graph -----------------------------------------------------------

def _utility_sigmas(model: str = "strongly-convex"):
    rows = _full_rows("fig_002_utility")
    if rows is not None:
        per: dict = {}
        for r in rows:
            if r["model"] == model:
                per.setdefault((float(r["clip"]), int(r["seed"])), []).append((float(r["sigma"]), float(r["fraction"])))
        out: dict = {}
        for (c, _), pts in sorted(per.items()):
            s, f = zip(*sorted(pts))
            out.setdefault(c, []).append(E.sigma_at_fraction(s, f))
        return out, "csv:figures/out/fig_002_utility.csv (full setting)"
    setting = E.utility(quick=True, model=model)
    res = E.run_utility(setting)
    out = {c: [E.sigma_at_fraction(r["sigmas"], r["fraction"][k]) for r in res] for k, c in enumerate(res[0]["clips"])}
    return out, f"quick setting run now ({setting['changes']})"


def _sigma_level(sig: dict, clip: float):
    """Mean over seeds of the sigma at fraction 0.9 for ``clip``, its spread (2 SD, at least 0.25), seeds."""
    vals = np.asarray(sig[clip])
    return float(vals.mean()), max(2.0 * float(vals.std(ddof=1)) if len(vals) > 1 else 0.0, 0.25), int(len(vals))


def _sigma_table(sig: dict) -> dict:
    return {str(c): [float(x) for x in v] for c, v in sig.items()}


@claim(id="002.fig4.sigma-range-c-0.1", seed="002", lines="L1381",
       statement="With C = 0.1 the largest sigma that keeps the accuracy fraction acc(w*+n)/acc(w*) at or above "
                 "0.9 lies in [18, 22] (strongly convex).",
       recorded="refuted", figure="figures/out/fig_002_utility.png")
def fig4_sigma_range():
    sig, source = _utility_sigmas()
    m, spread, n = _sigma_level(sig, 0.1)
    inside = min(m - 18.0, 22.0 - m)
    ev = {"source": source, "sigma_at_0.9": _sigma_table(sig),
          "noise": spread, "points": n, "data": "a9a-shaped synthetic stand-in; w* from clipped SGD"}
    return _verdict(decide(inside, spread), inside, ev, {"setting": source, "C": 0.1, "sigma_at_0.9": m},
                    "the measured sigma is within the seed spread of the interval's edge")


@claim(id="002.fig4.smaller-c-tolerates-larger-sigma", seed="002", lines="L1381",
       statement="A smaller clipping constant tolerates a larger sigma: the sigma at accuracy fraction 0.9 is larger "
                 "for C = 0.075 than for C = 0.1.",
       recorded="holds", figure="figures/out/fig_002_utility.png")
def fig4_smaller_c():
    sig, source = _utility_sigmas()
    diff, noise = effect(sig[0.075], sig[0.1])
    ev = {"source": source, "sigma_at_0.9": _sigma_table(sig),
          "diff": diff, "noise": noise, "points": int(len(sig[0.1]) * len(sig)),
          "note": "the noise is N(0, C^2 sigma^2 I), so the tolerated sigma scales as 1/C by construction"}
    return _verdict(decide(diff, noise), diff, ev, {"setting": source}, "difference within seed spread")


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
    finals, source = final_accuracies("fig_000_1a", E.fig000_1a)
    ref = "constant eta=0.0025, s=200/client"
    per = {}
    for eta0 in ("0.1", "0.01"):
        per[eta0] = {clock: _non_inferior(finals, f"{clock} eta0={eta0}, linear s", ref)
                     for clock in ("diminishing1", "diminishing2")}
    status = {eta0: min((decide(x, n) for x, n in v.values()), key=("refuted", "open", "holds").index)
              for eta0, v in per.items()}
    margin = min(x for x, _ in per["0.1"].values())
    ev = _run_evidence(source, finals, A9A, same_margin=SAME_MARGIN,
                       margin_plus_diff={e: {c: x for c, (x, _) in v.items()} for e, v in per.items()},
                       noise={e: {c: n for c, (_, n) in v.items()} for e, v in per.items()})
    ev["rounds"] = {"constant": 20, "linear": 9}
    ev["status_per_eta0"] = status
    if status["0.1"] != "holds" and status["0.01"] == "holds":
        ev["correction"] = (f"eta_0 = 0.01 instead of the paper's 0.1 (at 0.1 the comparison is {status['0.1']}: "
                            "the run oscillates or diverges on some seeds)")
        return Verdict("holds-with-correction", "sampled", min(x for x, _ in per["0.01"].values()), ev)
    return _verdict(status["0.1"], margin, ev, {"setting": source, "eta0": 0.1},
                    "the diminishing schemes are within the seed spread of the constant one")


# --- seed 000 Fig 1b/12: DP with increasing sample sizes -----------------------------------------

def _certified_from_csv(name):
    rows = _full_rows(name)
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
        finals, source = final_accuracies("fig_000_1b", E.fig000_1b, model)
        if not finals:
            continue
        sources.append(source)
        summ[model] = _summ(finals)
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
    return _verdict(decide(diff, noise), diff, ev, {"setting": sources[0], "comparison": worst},
                    "the accuracy difference is within the seed spread")


# --- seed 000 Figs 4-5: sampling methods --------------------------------------------------------

@claim(id="000.fig4.fast-sequences-keep-accuracy", seed="000", lines="L1893",
       statement="O(i) with c = 1 and O(i/ln i) (a = 50, K = 20000) keep the accuracy of the constant sequence "
                 "s_i = 50 (within one point) while needing far fewer rounds (strongly convex).",
       recorded="holds", figure="figures/out/fig_000_4.png")
def fig4_methods():
    finals, source = final_accuracies("fig_000_4", E.fig000_4, "strongly-convex")
    per = {arm: _non_inferior(finals, arm, "c=0") for arm in ("c=1", "i/ln i")}
    worst, x, noise = _worst(per)
    ev = _run_evidence(source, finals, A9A, same_margin=SAME_MARGIN,
                       margin_plus_diff={a: v[0] for a, v in per.items()}, noise=noise)
    ev["rounds"] = {k: len(v) for k, v in E.rounds_per_method(20_000).items()}
    return _verdict(decide(x, noise), x, ev, {"setting": source, "arm": worst},
                    "the accuracy difference is within the seed spread of the one-point margin")


# --- seed 000 Fig 10: biased vs unbiased clients ------------------------------------------------

@claim(id="000.fig10.biased-no-difference", seed="000", lines="L239, L1947",
       statement="With two clients holding only digit 0 and only digit 1 the final accuracy does not differ "
                 "significantly (within one point) from i.i.d. clients (strongly and plain convex).",
       recorded="holds", figure="figures/out/fig_000_10.png")
def fig10_biased():
    per, sources, summ = {}, [], {}
    for model in ("strongly-convex", "plain-convex"):
        finals, source = final_accuracies("fig_000_10", E.fig000_10, model)
        diff, noise = effect(finals["biased (one digit per client)"], finals["unbiased (iid)"])
        per[model] = (SAME_MARGIN - abs(diff), noise)
        sources.append(source)
        summ[model] = _summ(finals)
    worst, x, noise = _worst(per)
    ev = {"source": sources[0], "final_accuracy": summ, "same_margin": SAME_MARGIN,
          "margin_minus_abs_diff": {m: v[0] for m, v in per.items()}, "noise": noise,
          "points": sum(len(v) for s in summ.values() for v in s.values()),
          "data": "scikit-learn digits 0 and 1 (8x8); both settings are nearly separable, so this is a weak test"}
    return _verdict(decide(x, noise), x, ev, {"setting": sources[0], "model": worst},
                    "the difference is within the seed spread of the one-point margin")


@claim(id="002.fig6.mnist-sigma-12-at-c-0.025", seed="002", lines="L1383",
       statement="Non-convex (MNIST, stand-in: digits with an MLP): with C = 0.025 a noise level sigma <= 12 keeps the "
                 "accuracy fraction acc(w*+n)/acc(w*) at or above 0.9.",
       recorded="refuted", figure="figures/out/fig_002_utility.png")
def fig6_non_convex():
    sig, source = _utility_sigmas("non-convex")
    m, spread, n = _sigma_level(sig, 0.025)
    ev = {"source": source, "sigma_at_0.9": _sigma_table(sig),
          "noise": spread, "points": n, "data": "scikit-learn digits, 32-unit MLP (stand-in for MNIST/LeNet)"}
    return _verdict(decide(m - 12.0, spread), m - 12.0, ev, {"setting": source, "C": 0.025, "sigma_at_0.9": m},
                    "the measured sigma is within the seed spread of 12")
