"""Seed 002's reproduced figures (Figs 4, 6, 7, 11) as ledger claims, decided by the runs (issue 6).

How the runs decide a claim (data source, effect and noise, statuses) is :mod:`theory.figure_evidence`.
Statuses below were set from what the code computed.
"""
from __future__ import annotations

import numpy as np

from repro import experiments as E
from theory.proactive_dp import runs as R
from theory.figure_evidence import A9A, full_rows, final_accuracies, effect, decide, figure_verdict, run_evidence
from theory.ledger import Verdict, claim
from theory.proactive_dp.paper_values import FIGURE_STATEMENTS as FS


# --- seed 002 Figs 7-8: constant sample size s ---------------------------------------------------

@claim(id="002.fig7.larger-s-better", seed="002", lines="L1428-L1430",
       statement="Under DP at the Table 3 setting (sigma = 19.29962, C = 0.1, same K), s = 26 reaches a higher "
                 "test accuracy than s = 1 (strongly convex).",
       recorded="holds", figure="figures/out/fig_002_s_sweep.png")
def fig7_larger_s():
    finals, source = final_accuracies("fig_002_s_sweep", R.s_sweep, "strongly-convex")
    diff, noise = effect(finals["s=26"], finals["s=1"])
    ev = run_evidence(source, finals, A9A, diff=diff, noise=noise)
    return figure_verdict(decide(diff, noise), diff, ev, {"setting": source, "s": [1, 26]},
                    "the s = 26 vs s = 1 difference is within the seed spread")


# --- seed 002 Figs 11-12: privacy budgets -------------------------------------------------------

def _eps_drop(label: str):
    finals, source = final_accuracies("fig_002_eps_sweep", R.eps_sweep, "strongly-convex")
    drop, noise = effect(finals["non-DP"], finals[label])
    return finals, source, drop, noise


def _calibrated_note(finals: dict, label: str, limit: float) -> dict:
    """The same budget with sigma calibrated by our accountant (full setting only): not the paper's run."""
    cal = [k for k in finals if k.startswith(label + ",") and k.endswith("calibrated")]
    if not cal:
        return {}
    drop, noise = effect(finals["non-DP"], finals[cal[0]])
    return {"arm": cal[0], "drop": drop, "noise": noise, "status": decide(limit - drop, noise)}


def _budget_verdict(label: str, limit: float, reason: str) -> Verdict:
    """Decide at the printed (epsilon, sigma) of Table 6's row ``label``; if that fails but the run at the sigma
    our accountant calibrates to the printed epsilon passes, the statement holds with that correction."""
    printed_sigma, s = next((sig, s) for lab, sig, s in R.TABLE6 if f"eps={lab}" == label)
    finals, source, drop, noise = _eps_drop(label)
    cal = _calibrated_note(finals, label, limit)
    ev = run_evidence(source, finals, A9A, drop=drop, noise=noise, limit=limit,
                       with_sigma_calibrated_to_the_printed_epsilon=cal)
    status = decide(limit - drop, noise)
    if status != "holds" and cal.get("status") == "holds":
        ev["correction"] = (f"sigma from exact accounting ({cal['arm']}) instead of the printed {printed_sigma}: "
                            f"at the printed sigma the comparison is {status}")
        return Verdict("holds-with-correction", "sampled", limit - cal["drop"], ev)
    return figure_verdict(status, limit - drop, ev, {"setting": source, "epsilon_label": label.split("=")[1],
                                               "sigma": printed_sigma, "s": s, "drop": drop}, reason)


@claim(id="002.fig11.eps-0.04945-loss-about-10pct", seed="002", lines="L1496",
       statement="At epsilon = 0.04945 (Table 6 row 1) the test accuracy is at most about 10 points below "
                 "non-DP (strongly convex; L276: 86 % vs 93 %).",
       recorded="holds-with-correction", figure="figures/out/fig_002_eps_sweep.png")
def fig11_eps_small():
    # "about 10 %" (L1496), read as percentage points of accuracy
    return _budget_verdict("eps=0.04945", FS["fig11_loss_percent"].value / 100, "the drop is within the seed spread of 10 points")


@claim(id="002.fig11.eps-0.1-close-to-non-dp", seed="002", lines="L1496, L276",
       statement="At epsilon = 0.1 (Table 6 row 2) the test accuracy comes very close to non-DP (L276: 91 % vs "
                 "93 %, i.e. within about 3 points).",
       recorded="refuted", figure="figures/out/fig_002_eps_sweep.png")
def fig11_eps_01():
    # L276's 2-point gap plus one point of rounding slack: our reading of "very close"
    return _budget_verdict("eps=0.1", 0.03, "the drop is within the seed spread of 3 points")


# --- seed 002 Figs 4-5: utility graph -----------------------------------------------------------

def _utility_sigmas(model: str = "strongly-convex"):
    rows = full_rows("fig_002_utility")
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
    setting = R.utility(quick=True, model=model)
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
    clip, low, high = (FS[k].value for k in ("fig4_clip", "fig4_sigma_low", "fig4_sigma_high"))
    m, spread, n = _sigma_level(sig, clip)
    inside = min(m - low, high - m)
    ev = {"source": source, "sigma_at_0.9": _sigma_table(sig),
          "noise": spread, "points": n, "data": "a9a-shaped synthetic stand-in; w* from clipped SGD"}
    return figure_verdict(decide(inside, spread), inside, ev, {"setting": source, "C": clip, "sigma_at_0.9": m},
                    "the measured sigma is within the seed spread of the interval's edge")


@claim(id="002.fig4.smaller-c-tolerates-larger-sigma", seed="002", lines="L1381",
       statement="A smaller clipping constant tolerates a larger sigma: the sigma at accuracy fraction 0.9 is larger "
                 "for C = 0.075 than for C = 0.1.",
       recorded="holds", figure="figures/out/fig_002_utility.png")
def fig4_smaller_c():
    sig, source = _utility_sigmas()
    diff, noise = effect(sig[FS["fig4_smaller_clip"].value], sig[FS["fig4_clip"].value])
    ev = {"source": source, "sigma_at_0.9": _sigma_table(sig),
          "diff": diff, "noise": noise, "points": int(len(sig[FS["fig4_clip"].value]) * len(sig)),
          "note": "the noise is N(0, C^2 sigma^2 I), so the tolerated sigma scales as 1/C by construction"}
    return figure_verdict(decide(diff, noise), diff, ev, {"setting": source}, "difference within seed spread")


# --- seed 002 Fig 6: non-convex utility --------------------------------------------------------

@claim(id="002.fig6.mnist-sigma-12-at-c-0.025", seed="002", lines="L1383",
       statement="Non-convex (MNIST, stand-in: digits with an MLP): with C = 0.025 a noise level sigma <= 12 keeps the "
                 "accuracy fraction acc(w*+n)/acc(w*) at or above 0.9.",
       recorded="refuted", figure="figures/out/fig_002_utility.png")
def fig6_non_convex():
    sig, source = _utility_sigmas("non-convex")
    clip, sigma_max = FS["fig6_clip"].value, FS["fig6_sigma_max"].value
    m, spread, n = _sigma_level(sig, clip)
    ev = {"source": source, "sigma_at_0.9": _sigma_table(sig),
          "noise": spread, "points": n, "data": "scikit-learn digits, 32-unit MLP (stand-in for MNIST/LeNet)"}
    return figure_verdict(decide(m - sigma_max, spread), m - sigma_max, ev, {"setting": source, "C": clip, "sigma_at_0.9": m},
                    "the measured sigma is within the seed spread of 12")
