"""Seed 002's reproduced figures (Figs 4, 6, 7, 11) as ledger claims, decided by the runs (issues 6, 22).

How the runs decide a claim (fresh full CSV only, Welch/TOST tests, stand-ins never refuted) is
:mod:`theory.figure_evidence`. Statuses below were set from what the code computed.
"""
from __future__ import annotations

from repro import experiments as E
from repro import stats
from theory.figure_evidence import data_note, figure_verdict, final_accuracies, load, records, summarize
from theory.ledger import Missing, Verdict, claim
from theory.proactive_dp import runs as R
from theory.proactive_dp.paper_values import FIGURE_STATEMENTS as FS

#: the accuracy-fraction level of the utility graph statements ("at most about 10 % loss", L1381)
FRACTION_LEVEL = 0.9
#: why the non-convex utility graph cannot decide the paper's LeNet statement (002 L1383)
LENET_REASON = ("real MNIST-5k, but a 784-32-10 MLP instead of the paper's LeNet: acc(w* + n) under noise on every "
                "weight depends on the architecture (number and scale of the weights), so our model cannot decide "
                "the paper's value")


# --- seed 002 Figs 7-8: constant sample size s ---------------------------------------------------

@claim(id="002.fig7.larger-s-better", seed="002", lines="L1428-L1430",
       statement="Under DP at the Table 3 setting (sigma = 19.29962, C = 0.1, same K), s = 26 reaches a higher "
                 "test accuracy than s = 1 (strongly convex).",
       recorded="not-reproduced", result="Fig 7", role="figure", figure="figures/out/fig_002_s_sweep.png")
def fig7_larger_s():
    finals, seeds, source, rec = final_accuracies("fig_002_s_sweep", "strongly-convex")
    st, tests = stats.effect_status(finals["s=26"], finals["s=1"], seeds=seeds["s=26"])
    ev = {"source": source, "data": data_note(rec), "final_accuracy": summarize(finals), "tests": records(tests),
          "points": len(finals["s=26"]) + len(finals["s=1"])}
    return figure_verdict(st, tests[0].diff, ev, rec=rec, counterexample={"setting": source, "s": [1, 26]},
                          reason_open="the s = 26 vs s = 1 difference is not significant")


# --- seed 002 Figs 11-12: privacy budgets -------------------------------------------------------

def _budget_verdict(label: str, limit: float, reason: str) -> Verdict:
    """Accuracy at Table 6's row ``label`` at most ``limit`` below non-DP: non-inferiority (Welch) at the
    printed (epsilon, sigma), and, as a second verdict, at the sigma our accountant calibrates to the
    printed epsilon (same s, N_c, K, delta)."""
    printed_sigma, s = next((sig, s) for lab, sig, s in R.TABLE6 if f"eps={lab}" == label)
    finals, seeds, source, rec = final_accuracies("fig_002_eps_sweep", "strongly-convex")
    st, tests = stats.non_inferiority_status(finals[label], finals["non-DP"], margin=limit, seeds=seeds[label])
    ev = {"source": source, "data": data_note(rec), "final_accuracy": summarize(finals), "limit": limit,
          "printed_sigma": {"sigma": printed_sigma, "s": s, "status": st, "tests": records(tests)},
          "points": sum(len(v) for v in finals.values())}
    cal = [k for k in finals if k.startswith(label + ",") and k.endswith("calibrated")]
    if cal:
        st_c, tests_c = stats.non_inferiority_status(finals[cal[0]], finals["non-DP"], margin=limit, seeds=seeds[cal[0]])
        ev["sigma_calibrated_to_the_printed_epsilon"] = {"arm": cal[0], "status": st_c, "tests": records(tests_c)}
    return figure_verdict(st, tests[0].diff + limit, ev, rec=rec,
                          counterexample={"setting": source, "epsilon_label": label.split("=")[1],
                                          "sigma": printed_sigma, "s": s}, reason_open=reason)


@claim(id="002.fig11.eps-0.04945-loss-about-10pct", seed="002", lines="L1496",
       statement="At epsilon = 0.04945 (Table 6 row 1) the test accuracy is at most about 10 points below "
                 "non-DP (strongly convex; L276: 86 % vs 93 %).",
       recorded="not-reproduced", result="Fig 11", role="figure", figure="figures/out/fig_002_eps_sweep.png")
def fig11_eps_small():
    # "about 10 %" (L1496), read as percentage points of accuracy
    return _budget_verdict("eps=0.04945", FS["fig11_loss_percent"].value / 100,
                           "the non-inferiority test at 10 points is not significant either way")


@claim(id="002.fig11.eps-0.1-close-to-non-dp", seed="002", lines="L1496, L276",
       statement="At epsilon = 0.1 (Table 6 row 2) the test accuracy comes very close to non-DP (L276: 91 % vs "
                 "93 %, i.e. within about 3 points).",
       recorded="not-reproduced", result="Fig 11", role="figure", figure="figures/out/fig_002_eps_sweep.png")
def fig11_eps_01():
    # L276's 2-point gap plus one point of rounding slack: our reading of "very close"
    return _budget_verdict("eps=0.1", 0.03, "the non-inferiority test at 3 points is not significant either way")


# --- seed 002 Figs 4-6: utility graph -----------------------------------------------------------

def _utility_sigmas(model: str):
    """``clip -> [sigma at fraction 0.9 per seed]``, seeds, source and sidecar of the fresh full CSV."""
    rows, rec, source = load("fig_002_utility")
    per: dict = {}
    for r in rows:
        if r["model"] == model:
            per.setdefault((float(r["clip"]), int(r["seed"])), []).append((float(r["sigma"]), float(r["fraction"])))
    out, seeds = {}, {}
    for (c, seed), pts in sorted(per.items()):
        s, f = zip(*sorted(pts))
        out.setdefault(c, []).append(E.sigma_at_fraction(s, f, FRACTION_LEVEL))
        seeds.setdefault(c, []).append(seed)
    return out, seeds, source, rec


def _sigma_table(sig: dict) -> dict:
    return {str(c): [float(x) for x in v] for c, v in sig.items()}


@claim(id="002.fig4.sigma-range-c-0.1", seed="002", lines="L1381",
       statement="With C = 0.1 the largest sigma that keeps the accuracy fraction acc(w*+n)/acc(w*) at or above "
                 "0.9 lies in [18, 22] (strongly convex).",
       recorded="not-reproduced", result="Fig 4", role="figure", figure="figures/out/fig_002_utility.png")
def fig4_sigma_range():
    sig, seeds, source, rec = _utility_sigmas("strongly-convex")
    clip, low, high = (FS[k].value for k in ("fig4_clip", "fig4_sigma_low", "fig4_sigma_high"))
    st, tests = stats.interval_status(sig[clip], low=low, high=high, seeds=seeds[clip])
    m = float(sum(sig[clip]) / len(sig[clip]))
    ev = {"source": source, "data": data_note(rec), "sigma_at_0.9": _sigma_table(sig), "tests": records(tests),
          "points": len(sig[clip])}
    return figure_verdict(st, min(m - low, high - m), ev, rec=rec,
                          counterexample={"setting": source, "C": clip, "sigma_at_0.9": m},
                          reason_open="the mean sigma is not significantly inside or outside [18, 22]")


@claim(id="002.fig4.smaller-c-tolerates-larger-sigma", seed="002", lines="L1381",
       statement="A smaller clipping constant tolerates a larger sigma: the sigma at accuracy fraction 0.9 is larger "
                 "for C = 0.075 than for C = 0.1.",
       recorded="holds", result="Fig 4", role="figure", figure="figures/out/fig_002_utility.png")
def fig4_smaller_c():
    """Decided by construction, whatever the data: n = C sigma z, so acc(w* + n) depends on C sigma only and
    the sigma at a given fraction scales as 1/C. The runs (stand-in data, common noise draws z across C)
    illustrate it; a one-sided Welch test on them is recorded."""
    sig, seeds, source, rec = _utility_sigmas("strongly-convex")
    small, big = FS["fig4_smaller_clip"].value, FS["fig4_clip"].value
    st, tests = stats.effect_status(sig[small], sig[big], seeds=seeds[small])
    ev = {"source": source, "data": data_note(rec), "sigma_at_0.9": _sigma_table(sig), "tests": records(tests),
          "points": len(sig[small]) + len(sig[big]),
          "argument": "n ~ N(0, C^2 sigma^2 I): the fraction is a function of C sigma, so sigma_0.9(C) = const / C; "
                      "the data (a stand-in here) cannot change the direction, which is why this claim is decided "
                      "although the data are stand-ins"}
    return figure_verdict(st, tests[0].diff, ev, rec=None, counterexample={"setting": source},
                          reason_open="difference not significant")


# --- seed 002 Fig 6: non-convex utility on real MNIST-5k ----------------------------------------

@claim(id="002.fig6.mnist-sigma-12-at-c-0.025", seed="002", lines="L1383",
       statement="Non-convex (MNIST, LeNet): with C = 0.025 a noise level sigma <= 12 keeps the accuracy fraction "
                 "acc(w*+n)/acc(w*) at or above 0.9.",
       recorded="not-reproduced", result="Fig 6", role="figure", figure="figures/out/fig_002_utility.png")
def fig6_non_convex():
    sig, seeds, source, rec = _utility_sigmas("non-convex")
    clip, sigma_max = FS["fig6_clip"].value, FS["fig6_sigma_max"].value
    # the statement holds when the sigma at fraction 0.9 is at least 12: one-sided t-tests against 12
    up = stats.one_sample(sig[clip], value=sigma_max, alternative="greater", seeds=seeds[clip])
    down = stats.one_sample(sig[clip], value=sigma_max, alternative="less", seeds=seeds[clip])
    st = "holds" if up.significant else "refuted" if down.significant else "open"
    ev = {"source": source, "data": data_note(rec), "sigma_at_0.9": _sigma_table(sig), "tests": records([up, down]),
          "points": len(sig[clip]), "model": "784-32-10 MLP (the paper: LeNet)"}
    # rec=None: the figure's sidecar also records the a9a-like stand-in of its convex panels, which this
    # real-MNIST claim does not read; what it lacks is the paper's model (LeNet)
    return figure_verdict(st, up.diff, ev, rec=None, substitute=LENET_REASON,
                          missing=Missing("model family", "LeNet (the paper's CNN for Fig. 6); the suite trains no CNN"),
                          counterexample={"setting": source, "C": clip}, reason_open="not significant")
