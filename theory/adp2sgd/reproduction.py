r"""Seed 001: the reproduced figures' stated outcomes as ledger claims (fig_001_1..3, table_001_1).

Where the numbers come from: ``figures/out/fig_001_<n>.csv`` written by the figure's make target at the
full setting (5 seeds per arm), read only when its provenance sidecar shows it fresh
(theory.figure_evidence.load); a missing, stale or quick CSV fails the claim, never a fallback run. Data: real MNIST-5k (repro.data "mnist-5k"), not a stand-in; the model, K and
the number of epochs are far smaller than the paper's (see repro.decentralized_experiments).

Decisions (repro.decentralized_experiments): "similar utility" holds when TOST shows equivalence within
EQUIVALENCE_MARGIN at every noise level, is refuted when a one-sided Welch test shows the difference
beyond the margin at some level, and is open otherwise. "Faster" holds when the one-sided Welch test of
A(DP)2's accuracy against SYNC's at the same simulated time gives p < ALPHA.
"""
from __future__ import annotations

import numpy as np

from repro import decentralized_experiments as X
from theory.figure_evidence import load
from theory.ledger import Missing, Verdict, claim


def _rows(name: str) -> tuple[list[dict], str]:
    """Rows and source of the fresh full-setting ``figures/out/<name>.csv`` (theory.figure_evidence.load:
    a missing, stale or quick CSV raises; no claim silently falls back to another run)."""
    rows, _, source = load(name)
    return rows, source


def _finals(rows: list[dict]) -> dict:
    last = {}
    for r in rows:
        key = (r["algorithm"], float(r["sigma"]), r["seed"])
        if key not in last or float(r["epoch"]) > float(last[key]["epoch"]):
            last[key] = r
    out: dict = {}
    for (alg, sig, _), r in sorted(last.items()):
        out.setdefault((alg, sig), []).append(float(r["test_accuracy"]))
    return out


#: what the paper's own Figs. 1-3 need: its data sets (and models); ours run real MNIST-5k with an MLP
PAPER_DATA = Missing("data set", "CIFAR-10 (9 CNNs) and SWB300 (an LSTM), the paper's tasks (L212); neither is "
                                 "available offline, and the suite trains no CNN or LSTM")
OURS = "ours: real MNIST-5k, an MLP, K = 8, 10 epochs (CPU scale), in place of the paper's CIFAR-10/SWB300 models"


def _paper(ours: Verdict, figure: str) -> Verdict:
    """The paper's figure claim: not reproduced (its data sets are missing); our variant's outcome is kept."""
    return Verdict("not-reproduced", "sampled", evidence={"points": ours.evidence.get("points", 0),
                                                          "status_on_our_setting": ours.status,
                                                          "our_variant": f"{figure}.ours-mnist-5k"},
                   reason=f"the paper's data sets are not available offline; our variant on MNIST-5k gives "
                          f"'{ours.status}' (claim {figure}.ours-mnist-5k)", missing=PAPER_DATA)


@claim(id="001.fig-1.similar-utility", seed="001", lines="L236, L247, L359",
       statement="Under the same noise level, SYNC and A(DP)2SGD reach a similar level of utility (Figs. 1, 5; CIFAR-10 "
                 "CNNs and SWB300).",
       recorded="not-reproduced", figure="figures/out/fig_001_1.png", result="Fig 1", role="figure")
def similar_utility_paper() -> Verdict:
    return _paper(similar_utility(), "001.fig-1.similar-utility")


@claim(id="001.fig-1.similar-utility.ours-mnist-5k", seed="001", lines="L236, L247, L359",
       statement="Our variant, not the paper's setting (real MNIST-5k, an MLP, K = 8): under the same noise level, SYNC "
                 "and A(DP)2SGD reach a similar level of utility.",
       recorded="open", figure="figures/out/fig_001_1.png", result="Fig 1", role="figure")
def similar_utility() -> Verdict:
    rows, source = _rows("fig_001_1")
    fin = _finals(rows)
    per, refuted = [], False
    for sig in sorted({s for _, s in fin}):
        a, b = fin[("adpsgd", sig)], fin[("sync", sig)]
        t = X.tost(a, b, X.EQUIVALENCE_MARGIN)
        beyond = min(X.welch_greater(np.asarray(a) - X.EQUIVALENCE_MARGIN, b),
                     X.welch_greater(b, np.asarray(a) + X.EQUIVALENCE_MARGIN))
        refuted |= beyond < X.ALPHA
        per.append({"sigma": sig, **t, "p_difference_beyond_margin": beyond})
    status = "holds" if all(p["equivalent"] for p in per) else "refuted" if refuted else "open"
    margin = min(X.EQUIVALENCE_MARGIN - abs(p["difference"]) for p in per) / X.EQUIVALENCE_MARGIN
    return Verdict(status, "sampled", margin=margin,
                   evidence={"points": sum(p["n"][0] + p["n"][1] for p in per), "source": source, "per_sigma": per,
                             "test": f"TOST (two one-sided Welch tests), margin {X.EQUIVALENCE_MARGIN} accuracy, alpha {X.ALPHA}",
                             "data": "real MNIST-5k; MLP, K=8, 10 epochs (CPU scale)", "setting": OURS,
                             "margin_unit": "min over sigma of (equivalence margin - |difference|) / margin"},
                   counterexample=[p for p in per if p["p_difference_beyond_margin"] < X.ALPHA] if status == "refuted" else None,
                   reason="" if status != "open" else "neither equivalence nor a difference beyond the margin is shown at some sigma")


def _faster(name: str, straggler: str) -> Verdict:
    rows, source = _rows(name)
    arms: dict = {}
    for r in rows:
        arms.setdefault(r["algorithm"], {}).setdefault(r["seed"], []).append(r)
    ends = {alg: float(np.mean([max(float(r["time"]) for r in rs) for rs in seeds.values()])) for alg, seeds in arms.items()}
    budget = ends["adpsgd"]
    adp = [X.accuracy_at(rs, budget) for rs in arms["adpsgd"].values()]
    sync = [X.accuracy_at(rs, budget) for rs in arms["sync"].values()]
    p = X.welch_greater(adp, sync)
    p_rev = X.welch_greater(sync, adp)
    status = "holds" if p < X.ALPHA else "refuted" if p_rev < X.ALPHA else "open"
    return Verdict(status, "sampled", margin=float(np.mean(adp) - np.mean(sync)),
                   evidence={"points": len(adp) + len(sync), "source": source, "straggler": straggler,
                             "time_budget": budget, "sync_end_time": ends["sync"], "end_time_ratio": ends["sync"] / budget,
                             "adpsgd_accuracy_at_budget": float(np.mean(adp)), "sync_accuracy_at_budget": float(np.mean(sync)),
                             "p_welch_one_sided": p, "test": "Welch one-sided, accuracy at A(DP)2's mean finishing time",
                             "margin_unit": "accuracy difference at the time budget", "setting": OURS},
                   counterexample={"p_sync_greater": p_rev} if status == "refuted" else None,
                   reason="" if status != "open" else "no significant difference at the time budget")


@claim(id="001.fig-2.case-1-faster", seed="001", lines="L244, L258, L372",
       statement="With a random learner 2X slower each iteration, A(DP)2SGD converges faster in wall-clock than SYNC, which "
                 "slows down by 2X (CIFAR-10 CNNs and SWB300).",
       recorded="not-reproduced", figure="figures/out/fig_001_2.png", result="Fig 2", role="figure")
def case_1_faster_paper() -> Verdict:
    return _paper(case_1_faster(), "001.fig-2.case-1-faster")


@claim(id="001.fig-2.case-1-faster.ours-mnist-5k", seed="001", lines="L244, L258, L372",
       statement="Our variant, not the paper's setting (real MNIST-5k, an MLP, K = 8): with a random learner 2X slower "
                 "each iteration, A(DP)2SGD reaches a higher accuracy than SYNC at A(DP)2SGD's finishing time.",
       recorded="holds", figure="figures/out/fig_001_2.png", result="Fig 2", role="figure")
def case_1_faster() -> Verdict:
    return _faster("fig_001_2", "random2x")


@claim(id="001.fig-3.case-2-faster", seed="001", lines="L251, L260, L361-365, L372",
       statement="With one learner 10X slower, A(DP)2SGD runs significantly faster than SYNC (Figs. 3, 6, 7; CIFAR-10 "
                 "CNNs and SWB300).",
       recorded="not-reproduced", figure="figures/out/fig_001_3.png", result="Fig 3", role="figure")
def case_2_faster_paper() -> Verdict:
    return _paper(case_2_faster(), "001.fig-3.case-2-faster")


@claim(id="001.fig-3.case-2-faster.ours-mnist-5k", seed="001", lines="L251, L260, L361-365, L372",
       statement="Our variant, not the paper's setting (real MNIST-5k, an MLP, K = 8): with one learner 10X slower, "
                 "A(DP)2SGD reaches a higher accuracy than SYNC at A(DP)2SGD's finishing time.",
       recorded="holds", figure="figures/out/fig_001_3.png", result="Fig 3", role="figure")
def case_2_faster() -> Verdict:
    return _faster("fig_001_3", "one10x")


#: final accuracy below which a run counts as collapsed (chance on 10 classes is 0.1)
COLLAPSED = 0.2


@claim(id="001.fig-4.large-batch", seed="001", lines="L253-255, L262-265",
       statement="With 2X batch and 2X learning rate and small noise, SYNC collapses while A(DP)2SGD converges (Fig. 4).",
       recorded="not-reproduced", figure="figures/out/fig_001_4.png", result="Fig 4", role="figure")
def large_batch() -> Verdict:
    rows, source = _rows("fig_001_4")
    last: dict = {}
    for r in rows:
        key = (r["algorithm"], int(r["batch"]), r["seed"])
        if key not in last or float(r["epoch"]) > float(last[key]["epoch"]):
            last[key] = r
    fin: dict = {}
    for (alg, b, _), r in sorted(last.items()):
        fin.setdefault(f"{alg}_batch{b}", []).append(float(r["test_accuracy"]))
    big = max(int(k.rsplit("batch", 1)[1]) for k in fin)
    small = min(int(k.rsplit("batch", 1)[1]) for k in fin)
    sync_collapsed = all(a < COLLAPSED for a in fin[f"sync_batch{big}"])
    adp_converged = all(a >= COLLAPSED for a in fin[f"adpsgd_batch{big}"])
    # the paper's collapse is on CIFAR-10 / SWB300 with EfficientNet-B0 / an LSTM (L255): our MLP on MNIST-5k is a
    # substitute, so whatever it gives is reported, never the paper's verdict (theory.figure_evidence, Stand-ins)
    ours = "holds" if sync_collapsed and adp_converged else "open"
    means = {k: sum(v) / len(v) for k, v in fin.items()}
    return Verdict("not-reproduced", "sampled", margin=None,
                   evidence={"points": sum(len(v) for v in fin.values()), "source": source,
                             "final_accuracy": {k: [float(x) for x in v] for k, v in fin.items()},
                             "collapse_threshold": COLLAPSED, "status_on_our_setting": ours},
                   reason="the paper reports the collapse on CIFAR-10 (EfficientNet-B0) and SWB300 (an LSTM), L255: "
                          "neither data set is available offline and the suite trains no CNN or LSTM. On our substitute "
                          f"(an MLP on MNIST-5k) SYNC {'collapses' if sync_collapsed else 'does not collapse'} at "
                          f"{small}->{big} batch and 2X learning rate (mean final accuracy SYNC "
                          f"{means[f'sync_batch{big}']:.3f}, A(DP)2SGD {means[f'adpsgd_batch{big}']:.3f}; per-sample "
                          f"clipping bounds every step): our setting gives '{ours}'",
                   missing=Missing(
                       "data set", "CIFAR-10 and SWB300, on which the paper reports the collapse (EfficientNet-B0 and an "
                                   "LSTM, L255); neither is available offline, and the suite trains no CNN or LSTM"))
