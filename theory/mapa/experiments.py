"""The stated outcomes of seed 003's Figs. 4-7 as ledger claims, decided from our reproductions.

Numbers come from ``figures/out/fig_003_<n>.csv`` written by ``make fig-003-<n>`` at the full setting
(a quick or missing CSV leaves the claim ``open``: run the target). Rule (``repro.stats``): Welch
one-sided at 0.05 over seeds for accuracies and gradient norms, TOST for "about the same", one-sided
Mann-Whitney for censored iteration counts. Data: MNIST-5k is real MNIST (a 5,000-image subset);
the 8x8 digits stand in for USPS and the MLP for the CNN. A claim is ``refuted`` only by a significant
opposite effect on real MNIST with the paper's own model (LR or SVM) at the paper's iteration count (Fig. 6:
LR 15,000, SVM 10,000, L503) AND a stated, computed argument why our setting decides it
(``evidence["why_small_setting_decides"]``); an opposite effect measured before the paper's count is
``open`` (run the paper's count) with ``evidence["why_small_setting_does_not_decide"]``. A stated effect
that is not significant on a real-MNIST panel is ``open``; one that falls short only on stand-in panels is
``not-reproduced`` and names what is missing (:data:`STAND_IN_PANELS`: USPS, the CNN). Each claim says which
noise mode (paper-literal = the paper's analysis, NOT DP; K-norm = epsilon-DP) and which AUDP it is about.
"""
from __future__ import annotations

import json
import math
from collections import defaultdict
from pathlib import Path
from typing import Optional

import numpy as np

from repro.caption_csv import read_csv
from repro.provenance import require_fresh
from repro.edge_fl import EdgeConfig, step_schedule_summary
from repro import stats
from theory.ledger import Missing, Reading, Verdict, claim
from theory.mapa.paper_values import FIG4, FIG6, FIG7

OUT = Path(__file__).resolve().parents[2] / "figures" / "out"
REAL_PANELS = ("lr/mnist-5k", "svm/mnist-5k")
#: rows of fig_003_6 with the unstated constants (L, sigma, R) moved one at a time (LR/MNIST-5k, paper-literal)
CONSTANTS_PANEL = "lr/mnist-5k constants"
#: correlation with the original above which a recovered image counts as "approximately restored", below which "blurred"
RESTORED, BLURRED = 0.5, 0.1
#: TOST margin for "about the same final gradient norm", relative to the reference arm's mean
TOST_RELATIVE_MARGIN = 0.10


def _rows(name: str):
    path = OUT / f"{name}.csv"
    if not path.exists():
        return None
    require_fresh(path)  # a stale CSV (code, config, data or contents changed) fails loudly, never passes for fresh
    meta, rows = read_csv(path)
    return rows if meta.get("setting") == "full" else None


def _missing(name: str) -> Verdict:
    return Verdict("open", "sampled", evidence={"points": 0},
                   reason=f"no full-setting figures/out/{name}.csv: run make {name.replace('_', '-')}")


def _by(rows, *keys, value="final_accuracy") -> dict:
    out = defaultdict(list)
    for r in rows:
        out[tuple(r[k] for k in keys)].append(float(r[value]))
    return out


def welch(a, b) -> dict:
    """One-sided Welch tests both ways (``repro.stats.effect_status``): decision greater, less or inconclusive."""
    status, (up, down) = stats.effect_status(a, b)
    return {"diff": up.diff, "p_greater": up.p_value, "p_less": down.p_value, "n_a": up.n[0], "n_b": up.n[1],
            "decision": {"holds": "greater", "refuted": "less", "open": "inconclusive"}[status]}


def tost(a, b, margin: float) -> dict:
    """TOST equivalence at ``margin`` (``repro.stats.tost``)."""
    c = stats.tost(a, b, margin=margin)
    return {"diff": c.diff, "margin": c.margin, "p": c.p_value, "equivalent": c.significant}


def mann_whitney_greater(a, b) -> dict:
    """One-sided Mann-Whitney U that ``a`` tends to exceed ``b`` (``repro.stats.mann_whitney``)."""
    c = stats.mann_whitney(a, b, alternative="greater")
    return {"p": c.p_value, "greater": c.significant}


#: what a panel run on a stand-in lacks (a shortfall there is ``not-reproduced``, never a finding)
STAND_IN_PANELS = {
    "lr/digits": Missing("data set", "USPS (the paper's second data set, Figs. 5, 6(d)-(f), 7; not available "
                                     "offline, scikit-learn's 8x8 digits stand in)"),
    "mlp/mnist-5k": Missing("model family", "the paper's CNN (Figs. 6(c), 6(f)); the suite trains no CNN, a "
                                             "784-hidden-10 MLP stands in"),
}


def _stand_in(panel: str) -> Optional[Missing]:
    """The Missing of a stand-in panel (matched on its prefix: Fig. 5 panels append the noise mode)."""
    return next((m for p, m in STAND_IN_PANELS.items() if panel.startswith(p)), None)


def _shortfall(panels, compared=()) -> tuple[str, str, Optional[Missing]]:
    """Status, reason and Missing when the stated effect is not significant in the comparisons of ``panels``:
    ``open`` if one of them is on real MNIST with the paper's model (nothing is missing there; the test did not
    decide), else ``not-reproduced`` naming the missing data set or model family of the stand-in panels (the
    reason says the effect holds on real MNIST only when ``compared``, every panel tested, holds one)."""
    real = sorted({p for p in panels if _stand_in(p) is None})
    if real:
        return "open", (f"the stated effect is not significant on {', '.join(real)} (real MNIST, the paper's model; "
                        "see evidence), and no significant opposite effect there"), None
    missing = [_stand_in(p) for p in sorted(set(panels))]
    first = missing[0]
    what = "; ".join(dict.fromkeys(m.what for m in missing if m.kind == first.kind))
    real_compared = sorted({p for p in compared if _stand_in(p) is None})
    tail = (f"on real MNIST with the paper's model ({', '.join(real_compared)}) it holds" if real_compared
            else "no real-MNIST panel is compared")
    return "not-reproduced", ("the stated effect is not significant only on stand-in panels "
                              f"({', '.join(sorted(set(panels)))}); {tail}"), Missing(first.kind, what)


def _decide(comparisons: list) -> tuple[str, str, Optional[Missing]]:
    """comparisons: (panel, welch result). All greater -> holds; a 'less' on a real panel -> refuted; else
    :func:`_shortfall` of the panels where the effect is not significant."""
    if comparisons and all(c["decision"] == "greater" for _, c in comparisons):
        return "holds", "", None
    bad = [(p, c) for p, c in comparisons if c["decision"] == "less" and p in REAL_PANELS]
    if bad:
        return "refuted", "", None
    return _shortfall([p for p, c in comparisons if c["decision"] != "greater"], [p for p, _ in comparisons])


def _verdict(comparisons, extra: dict, counter_key: str = "less") -> Verdict:
    status, reason, missing = _decide(comparisons)
    ev = {"points": sum(c["n_a"] + c["n_b"] for _, c in comparisons), "comparisons": [
        {"panel": p, **{k: v for k, v in c.items()}} for p, c in comparisons],
          "margin_unit": "absolute: the smallest difference of the two arms' means (accuracy, or final gradient norm for Fig. 5)",
          **extra}
    cx = None
    if status == "refuted":
        cx = {"significant_opposite": [{"panel": p, **c} for p, c in comparisons if c["decision"] == "less" and p in REAL_PANELS]}
    margin = min(c["diff"] for _, c in comparisons) if comparisons else None
    return Verdict(status, "sampled", margin=margin, evidence=ev, counterexample=cx, reason=reason, missing=missing)


def _cohens_d(a, b) -> float | None:
    """Standardised mean difference (pooled standard deviation) of two arms' per-seed values; None if both are constant."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    pooled = math.sqrt(((len(a) - 1) * a.var(ddof=1) + (len(b) - 1) * b.var(ddof=1)) / (len(a) + len(b) - 2))
    return float((a.mean() - b.mean()) / pooled) if pooled > 0 else None


def _our_iterations(name: str, panel: str) -> int:
    """The fewest iterations any arm of ``panel`` ran, from the figure's provenance sidecar."""
    arms = json.loads((OUT / f"{name}.provenance.json").read_text())["config"]["arms"][panel]
    its = {int(a["iterations"]) for a in arms.values()}
    return min(its)


def _horizon_facts(noise: str, eps_labels, other: dict, ours: int, paper: int) -> dict:
    """Step-size schedules of MAPA and the compared arm on LR/MNIST-5k at our horizon and at the paper's."""
    facts = {}
    for e in eps_labels:
        base = {"dataset": "mnist-5k", "model": "lr", "epsilon": float(e)}
        cfgs = {"MAPA": EdgeConfig(algorithm="mapa", noise=noise, **base), **{k: EdgeConfig(**base, **v) for k, v in other.items()}}
        facts[f"eps {e}"] = {k: {str(t): v for t, v in step_schedule_summary(c, (ours, paper)).items()} for k, c in cfgs.items()}
    return facts


def _short_horizon(v: Verdict, name: str, noise: str, other: dict, eps_labels) -> Verdict:
    """A refutation on real MNIST-5k measured before the paper's iteration count (LR 15,000, SVM 10,000,
    L503) is ``open`` until the figure runs the paper's count: the gap at our horizon does not fix its sign at
    the paper's, and run length is never a reason for ``not-reproduced`` (nothing we cannot have is missing)."""
    if v.status != "refuted":
        return v
    panels = sorted({c["panel"] for c in v.counterexample["significant_opposite"]})
    paper = {p: int(FIG6[f"iterations_{p.split('/')[0]}"].text.replace(",", "")) for p in panels}
    ours = {p: _our_iterations(name, p) for p in panels}
    if all(ours[p] >= paper[p] for p in panels):
        return v
    acc = _by(_rows(name), "panel", "label")
    csgd = float(np.mean(acc[("lr/mnist-5k", "CSGD")]))
    room = {}
    for e in eps_labels:
        mapa = float(np.mean(acc[("lr/mnist-5k", f"MAPA | {noise} | eps {e}")]))
        room[f"MAPA | {noise} | eps {e}"] = {"mapa_mean": mapa, "csgd_mean": csgd, "mapa_below_csgd": mapa < csgd}
    ev = {**v.evidence, "observed_opposite_at_our_horizon": v.counterexample,
          "why_small_setting_does_not_decide": {
              "our_iterations": ours, "paper_iterations": paper,
              "step_schedules_lr_mnist_5k": _horizon_facts(noise, eps_labels, other, _our_iterations(name, "lr/mnist-5k"),
                                                           int(FIG6["iterations_lr"].text.replace(",", ""))),
              "lr_mnist_5k_mapa_vs_non_private_csgd_at_our_horizon": room,
              "argument": ("data size, K = 5, b = 12, theta, the eps grid and the cyclic delay are the paper's or do not "
                           "enter the step sizes and noise; the iteration count does: MAPA's stage schedule (Eqs. 15-16) "
                           "puts it in another stage with another step size at the paper's horizon (step_schedules), and "
                           "MAPA's accuracy at ours is compared with non-private CSGD's (room left to improve), so the "
                           "measured gap is not shown to keep its sign at the paper's horizon; our runs do not reach it")}}
    return Verdict("open", v.evidence_kind, margin=v.margin, evidence=ev, counterexample=None,
                   reason=(f"significantly opposite on real MNIST-5k at {min(ours.values())} iterations, but the paper "
                           f"runs {paper} iterations: run the figure at the paper's count "
                           "(evidence: why_small_setting_does_not_decide)"))


# --- Fig. 6 -----------------------------------------------------------------------------------------

def _fig6_comparisons(noise: str, against: str):
    rows = _rows("fig_003_6")
    if rows is None:
        return None
    acc = _by(rows, "panel", "label")
    panels = sorted({r["panel"] for r in rows} - {CONSTANTS_PANEL})
    out, tuned = [], {}
    for p in panels:  # each panel's own eps grid (the MLP panel runs the two ends only: CPU budget)
        for e in sorted({r["epsilon_per_iteration"] for r in rows
                         if r["panel"] == p and r["noise"] == noise and r["epsilon_per_iteration"]}, key=float):
            e_lab = f"{float(e):g}"
            mapa = acc[(p, f"MAPA | {noise} | eps {e_lab}")]
            audps = {r["clip"]: acc[(p, r["label"])] for r in rows
                     if r["panel"] == p and r["algorithm"] == "audp" and r["noise"] == noise and r["epsilon_per_iteration"] == e}
            if not acc.get((p, f"MAPA | {noise} | eps {e_lab}")) or not audps:
                continue  # a panel that does not run this noise mode at this eps (panels differ in their arms)
            if against == "paper":
                ref = acc.get((p, f"AUDP clip 3 | {noise} | eps {e_lab}"))
                if not ref:
                    continue
            else:
                best = max(audps, key=lambda c: np.mean(audps[c]))
                tuned[(p, e_lab)] = best
                ref = audps[best]
            ref_label = f"AUDP clip 3 | {noise} | eps {e_lab}" if against == "paper" else \
                next(r["label"] for r in rows if r["panel"] == p and r["algorithm"] == "audp" and r["noise"] == noise
                     and r["epsilon_per_iteration"] == e and r["clip"] == tuned[(p, e_lab)])
            out.append((p, {**welch(mapa, ref), "epsilon": e_lab, "cohens_d": _cohens_d(mapa, ref),
                            "mapa_label": f"MAPA | {noise} | eps {e_lab}", "reference_label": ref_label}))
    return out, tuned


def _fig6_claim(noise: str, against: str) -> Verdict:
    got = _fig6_comparisons(noise, against)
    if got is None:
        return _missing("fig_003_6")
    comps, tuned = got
    extra = {"noise_mode": noise, "dp": noise == "k-norm",
             "audp": "clip 3 (the paper's Fig. 5 middle bound)" if against == "paper" else "best of clips 0.2/1/3/15 per panel and eps (oracle-tuned, tuning not accounted)"}
    if tuned:
        extra["tuned_clips"] = {f"{p} eps {e}": c for (p, e), c in tuned.items()}
    v = _verdict(comps, extra)
    if noise == "k-norm" and v.status == "open":
        v = _k_norm_at_chance(v, _rows("fig_003_6"), sorted({p for p, _ in comps}),
                              sorted({c["epsilon"] for _, c in comps}, key=float))
    if noise == "paper-literal" and v.status == "refuted":
        v = _constants_hold_sign(v, "AUDP clip 3", paper_words="'MAPA can effectively improve the prediction "
                                 "accuracy of AUDP in all sub-figures for different eps' (L507)",
                                 compared="AUDP clip 3" if against == "paper" else "a tuned AUDP")
    return _short_horizon(v, "fig_003_6", noise,
                          {"AUDP clip 3": {"algorithm": "audp", "noise": noise, "clip": 3.0}},
                          sorted({c["epsilon"] for p, c in comps if p == "lr/mnist-5k"}, key=float))


def recheck_fig6(cx: dict) -> float:
    """The counterexample's margin from the CSV rows directly: for each comparison it names, the hypotheses (a real
    MNIST panel with the paper's model, run at least the paper's iteration count, L503; MAPA significantly below the
    reference by a one-sided Welch test) and the difference of the two arms' mean final accuracies; the largest
    (every named comparison violates the statement when it is negative)."""
    from scipy import stats as sps

    from theory.ledger import HypothesisFails

    rows = _rows("fig_003_6")
    diffs = []
    for c in cx["significant_opposite"]:
        p = c["panel"]
        if p not in REAL_PANELS:
            raise HypothesisFails(f"{p} is not real MNIST with the paper's model")
        paper = int(FIG6[f"iterations_{p.split('/')[0]}"].text.replace(",", ""))
        if _our_iterations("fig_003_6", p) < paper:
            raise HypothesisFails(f"{p} ran fewer than the paper's {paper} iterations")
        pick = lambda lab: np.array([float(r["final_accuracy"]) for r in rows if r["panel"] == p and r["label"] == lab])
        mapa, ref = pick(c["mapa_label"]), pick(c["reference_label"])
        if sps.ttest_ind(mapa, ref, equal_var=False, alternative="less").pvalue >= stats.SIGNIFICANCE_LEVEL:
            raise HypothesisFails(f"{p} {c['mapa_label']}: not significantly below {c['reference_label']}")
        diffs.append(float(mapa.mean() - ref.mean()))
    return max(diffs)


for _noise in ("paper-literal", "k-norm"):
    claim(id=f"003.fig-6.mapa-beats-audp.{_noise}", recheck=recheck_fig6, seed="003", lines="L505-L507",
          statement=f"MAPA's accuracy exceeds AUDP's (clip 3) at every per-iteration eps in 0.1-0.5 ({_noise} noise).",
          recorded={"paper-literal": "refuted", "k-norm": "open"}[_noise], result="Fig 6", role="figure")(
        (lambda n: lambda: _fig6_claim(n, "paper"))(_noise))
    claim(id=f"003.fig-6.mapa-beats-tuned-audp.{_noise}", recheck=recheck_fig6, seed="003", lines="L505-L507",
          statement=f"MAPA's accuracy exceeds a tuned AUDP's at every per-iteration eps in 0.1-0.5 ({_noise} noise).",
          recorded={"paper-literal": "refuted", "k-norm": "open"}[_noise], result="Fig 6", role="figure")(
        (lambda n: lambda: _fig6_claim(n, "tuned"))(_noise))


def _constants_comparisons(against: str, eps=None, algorithms=("MAPA",)) -> list:
    """MAPA vs ``against`` ("AUDP clip 3" at the same eps, or "ASGD") by Welch on LR/MNIST-5k, paper-literal
    noise, at each eps (or those in ``eps``) and each setting of the unstated constants (L, sigma, R moved one at
    a time: figures/fig_003_6.py CONSTANTS). ``moves_result``: False when both arms' per-seed accuracies are
    identical to the default constants' run on LR/MNIST-5k (the constant does not enter those arms: e.g. R enters
    only the CSGD/ASGD step sizes), so the setting varies nothing and is not counted as a variation."""
    rows = _rows("fig_003_6")
    acc = _by([r for r in rows if r["panel"] == CONSTANTS_PANEL], "constants", "label")
    default = _by([r for r in rows if r["panel"] == "lr/mnist-5k"], "label")
    out = []
    for (const, lab), mapa in sorted(acc.items()):
        if not lab.startswith("MAPA |"):
            continue
        e = lab.split(" | ")[2][4:]
        if eps is not None and e not in eps:
            continue
        ref_lab = (lab.replace("MAPA", against, 1) if against != "ASGD"
                   else "ASGD | " + lab.split(" | ", 3)[3])
        base = lambda lb: default.get((lb.rsplit(" | ", 1)[0],))  # noqa: E731  the label without the constants suffix
        same = base(lab) == mapa and base(ref_lab) == acc[(const, ref_lab)]
        out.append({"constants": const, "epsilon": e, "against": against, "moves_result": not same,
                    **welch(mapa, acc[(const, ref_lab)])})
    return out


def _range_text(comps: list) -> str:
    """The constants' range as the CSV has it, split into settings that change the compared arms and those that
    leave both arms' per-seed accuracies identical to the default run (computed, :func:`_constants_comparisons`)."""
    moved = sorted({c["constants"] for c in comps if c["moves_result"]})
    inert = sorted({c["constants"] for c in comps if not c["moves_result"]})
    text = (f"settings that change the compared arms: {'; '.join(moved) or 'none'} (one constant moved at a time from "
            f"L 10, sigma 30, R 1) on LR/MNIST-5k at the paper's {FIG6['iterations_lr'].text} iterations "
            f"({FIG6['iterations_lr'].line}); the clip by the AUDP grid 0.2/1/3/15")
    if inert:
        text += (f"; settings that leave both arms' per-seed accuracies identical to the default run (the constant does "
                 f"not enter their step sizes or noise), so they vary nothing and are not counted: {'; '.join(inert)}")
    return text


def _constants_hold_sign(v: Verdict, against: str = "AUDP clip 3", eps=None, paper_words: str = "",
                         compared: str = "") -> Verdict:
    """A refutation stands only if MAPA is significantly below ``against`` at every eps under every setting of
    the constants the paper leaves unstated that changes the compared arms (the sign does not change over the
    stated range); otherwise the claim is ``open``. The comparisons are kept as ``evidence["unstated_constants"]``."""
    comps = _constants_comparisons(against, eps)
    varied = [c for c in comps if c["moves_result"]]
    ev = {**v.evidence, "unstated_constants": {
        "range": _range_text(comps), "comparisons": comps,
        "sign_unchanged": bool(varied) and all(c["decision"] == "less" for c in varied)}}
    if ev["unstated_constants"]["sign_unchanged"]:
        opp = v.counterexample["significant_opposite"]
        models = sorted({c["panel"].split("/")[0] for c in opp})
        counts = ", ".join(f"{m.upper()} {FIG6[f'iterations_{m}'].text}" for m in models)
        moved = sorted({c["constants"] for c in varied})
        why = (f"On real MNIST-5k with the paper's own model{'s' if len(models) > 1 else ''} at the paper's iteration "
               f"count{'s' if len(models) > 1 else ''} ({counts}, {FIG6[f'iterations_{models[0]}'].line}), "
               f"MAPA's final accuracy is significantly below {compared or against}'s "
               f"({v.evidence.get('audp', 'no DP')}), "
               f"the opposite of {paper_words}: " + "; ".join(
                   f"{c['panel']}{' ' + c['noise_mode'] if 'noise_mode' in c else ''} eps {c.get('epsilon', '0.5')}: "
                   f"{c['diff']:+.3f} (Welch p = {c['p_less']:.2g})" for c in opp)
               + f". The sign is the same under every setting of the unstated constants that changes the compared arms "
               f"({len(varied)} comparisons of MAPA against {against} on LR/MNIST-5k under {'; '.join(moved)}, largest "
               f"p = {max(c['p_less'] for c in varied):.2g}; evidence['unstated_constants']). Paper-literal noise is the "
               "paper's analysis (not DP).")
        return Verdict(v.status, v.evidence_kind, margin=v.margin, evidence=ev, counterexample=v.counterexample,
                       why=why)
    changed = [f"{c['constants']} eps {c['epsilon']}: {c['decision']}" for c in varied if c["decision"] != "less"]
    return Verdict("open", v.evidence_kind, margin=v.margin, evidence=ev,
                   reason=("MAPA is significantly below AUDP at the default constants, but not under every setting of the "
                           "unstated constants: " + "; ".join(changed or ["no constant rows"])))


def _majority_rate(panel: str, seeds) -> float:
    """The test split's majority-class rate of ``panel``'s task (LR: digits 0-4 vs 5-9), mean over ``seeds``: the
    accuracy of a model that learned nothing."""
    from repro import data as D

    rates = []
    for s in seeds:
        ds = D.load(panel.split("/", 1)[1], seed=int(s))
        y = (ds.y_test >= 5) if panel.startswith("lr/") else ds.y_test
        rates.append(float(np.max(np.bincount(np.asarray(y, dtype=np.int64))) / len(y)))
    return float(np.mean(rates))


def _at_chance(rows, panel: str, labels) -> dict:
    """Each arm's mean accuracy against the majority-class rate (one-sided t-test, above): which arms learned (an
    arm the panel does not run is skipped: panels differ in their arms and eps grids)."""
    acc = _by([r for r in rows if r["panel"] == panel], "label")
    seeds = sorted({r["seed"] for r in rows if r["panel"] == panel})
    rate = _majority_rate(panel, seeds)
    out = {}
    for lab in (lab for lab in labels if acc.get((lab,))):
        c = stats.one_sample(acc[(lab,)], value=rate, alternative="greater")
        out[lab] = {"mean": float(np.mean(acc[(lab,)])), "p_above_majority": c.p_value, "above_majority": c.significant}
    return {"majority_rate": rate, "arms": out}


def k_norm_noise_to_signal(panel: str, eps: float, iterations: int) -> dict:
    """Why eps-DP K-norm arms sit at chance at the paper's setting (b = 12, per-iteration eps 0.1-0.5, L456, L486):
    the rms norm of one release's noise over the clip bound (the largest norm of the clipped gradient it perturbs),
    per release and after averaging ``iterations`` releases (signal adds up linearly at best, independent noise as
    sqrt(T)); beside it the same for the paper-literal noise. Scale lambda = 2 clip/(b eps) (repro.edge_fl), the
    dimension that of the panel's model (LR 2-way, SVM 10-way)."""
    from repro.edge_fl import EdgeConfig, _noise_scale, load_task
    from repro.edge_noise import noise_second_moment

    model, data = panel.split("/", 1)
    cfg = EdgeConfig(algorithm="audp", model=model, dataset=data, epsilon=eps)
    dim = load_task(cfg)[1].n_params
    scale = _noise_scale(cfg, 1.0)  # per unit clip: the scale the runs use
    out = {"dimension": dim, "batch": cfg.batch, "epsilon_per_iteration": eps, "iterations": iterations}
    for mode in ("k-norm", "paper-literal"):
        rms = math.sqrt(noise_second_moment(mode, dim, scale))
        out[mode] = {"noise_rms_over_clip_per_release": rms, "over_clip_after_averaging": rms / math.sqrt(iterations)}
    return out


def _noise_facts_text(facts: list) -> str:
    """One sentence from :func:`k_norm_noise_to_signal` rows: the K-norm and paper-literal ranges."""
    k = [f["k-norm"] for f in facts]
    pl = [f["paper-literal"] for f in facts]
    rng = lambda xs, key: f"{min(x[key] for x in xs):.3g}-{max(x[key] for x in xs):.3g}"  # noqa: E731
    return (f"at the paper's b = {facts[0]['batch']} and per-iteration eps {min(f['epsilon_per_iteration'] for f in facts):g}-"
            f"{max(f['epsilon_per_iteration'] for f in facts):g} the eps-DP K-norm noise of one release has rms norm "
            f"{rng(k, 'noise_rms_over_clip_per_release')} x the clip bound (dimension "
            f"{'/'.join(str(d) for d in sorted({f['dimension'] for f in facts}))}), still "
            f"{rng(k, 'over_clip_after_averaging')} x the largest averaged gradient after the "
            f"{'/'.join(str(t) for t in sorted({f['iterations'] for f in facts}))} iterations, against "
            f"{rng(pl, 'over_clip_after_averaging')} for the paper's own (non-DP) noise")


def _k_norm_facts(panels, eps_labels) -> list:
    """:func:`k_norm_noise_to_signal` on each real panel at each eps, at the panel's own iteration count."""
    return [k_norm_noise_to_signal(p, float(e), _our_iterations("fig_003_6", p))
            for p in panels if p in REAL_PANELS for e in eps_labels]


def _k_norm_at_chance(v: Verdict, rows, panels, eps_labels) -> Verdict:
    """An open K-norm verdict with the arms' accuracies against the majority-class rate in its evidence, and, where
    no MAPA or AUDP (clip 3) arm of a real panel is significantly above it, the reason says so (computed)."""
    labels = [f"{alg} | k-norm | eps {e}" for alg in ("MAPA", "AUDP clip 3") for e in eps_labels]
    learned = {p: _at_chance(rows, p, labels) for p in panels}
    flat = [p for p in panels if p in REAL_PANELS and not any(a["above_majority"] for a in learned[p]["arms"].values())]
    reason = v.reason
    facts = _k_norm_facts(flat, eps_labels)
    if flat:
        reason += (". No K-norm arm learned on " + ", ".join(
            f"{p} (mean accuracies {min(a['mean'] for a in learned[p]['arms'].values()):.3f}-"
            f"{max(a['mean'] for a in learned[p]['arms'].values()):.3f}, none significantly above the majority-class rate "
            f"{learned[p]['majority_rate']:.3f})" for p in flat)
            + f": {_noise_facts_text(facts)}. The setting is the paper's (its eps, b, K and iteration count); only the "
              "noise is eps-DP, and at these eps it swamps any gradient, so MAPA and AUDP both stay at chance and the "
              "comparison has nothing to decide (the paper's own noise: the .paper-literal claim)")
    return Verdict(v.status, v.evidence_kind, margin=v.margin,
                   evidence={**v.evidence, "learned": learned, "noise_to_signal": facts}, reason=reason, missing=v.missing)


def _rises_with_eps(noise: str) -> Verdict:
    """Accuracy at the largest eps of the grid against the smallest (Welch, :func:`_verdict`); beside it, every
    adjacent pair of the grid, the same comparisons under each setting of the unstated constants that changes the arm
    (paper-literal: the constants panel), and (K-norm) whether any arm learned at all (above the majority-class
    rate). The reason of an ``open`` verdict names what the CSV shows (computed)."""
    rows = _rows("fig_003_6")
    if rows is None:
        return _missing("fig_003_6")
    acc = _by(rows, "panel", "label")
    eps = sorted({r["epsilon_per_iteration"] for r in rows if r["noise"] == noise and r["epsilon_per_iteration"]}, key=float)
    labs = [f"{float(e):g}" for e in eps]
    lo, hi = labs[0], labs[-1]
    comps, adjacent = [], []
    panels = sorted({r["panel"] for r in rows} - {CONSTANTS_PANEL})
    for p in panels:
        # each panel's own eps grid (panels differ: a regenerated CSV may run another grid on another model)
        p_labs = [f"{float(e):g}" for e in sorted({r["epsilon_per_iteration"] for r in rows if r["panel"] == p
                                                   and r["noise"] == noise and r["epsilon_per_iteration"]}, key=float)]
        for alg in ("MAPA", "AUDP clip 3"):
            if len(p_labs) < 2 or not all(acc.get((p, f"{alg} | {noise} | eps {e}")) for e in p_labs):
                continue
            comps.append((p, {**welch(acc[(p, f"{alg} | {noise} | eps {p_labs[-1]}")],
                                      acc[(p, f"{alg} | {noise} | eps {p_labs[0]}")]),
                              "algorithm": alg, "eps": [p_labs[0], p_labs[-1]]}))
            for e0, e1 in zip(p_labs, p_labs[1:]):
                adjacent.append({"panel": p, "algorithm": alg, "eps": [e0, e1],
                                 **welch(acc[(p, f"{alg} | {noise} | eps {e1}")], acc[(p, f"{alg} | {noise} | eps {e0}")])})
    extra = {"noise_mode": noise, "comparison": f"accuracy at each panel's largest eps vs its smallest (grid {lo}-{hi})",
             "adjacent_eps": adjacent}
    if noise == "paper-literal" and any(r["panel"] == CONSTANTS_PANEL for r in rows):
        crow = [r for r in rows if r["panel"] == CONSTANTS_PANEL]
        cacc = _by(crow, "constants", "label")
        default = _by([r for r in rows if r["panel"] == "lr/mnist-5k"], "label")
        const = []
        for c in sorted({r["constants"] for r in crow}):
            for alg in ("MAPA", "AUDP clip 3"):
                lab = lambda e: next((l for cc, l in cacc if cc == c and l.startswith(f"{alg} | {noise} | eps {e} |")), None)  # noqa: E731
                if lab(hi) is None or lab(lo) is None:
                    continue
                same = all(cacc[(c, lab(e))] == default.get((f"{alg} | {noise} | eps {e}",)) for e in labs if lab(e))
                const.append({"constants": c, "algorithm": alg, "moves_result": not same,
                              **welch(cacc[(c, lab(hi))], cacc[(c, lab(lo))]),
                              "adjacent": [{"eps": [e0, e1], **welch(cacc[(c, lab(e1))], cacc[(c, lab(e0))])}
                                           for e0, e1 in zip(labs, labs[1:]) if lab(e0) and lab(e1)]})
        extra["unstated_constants"] = {"comparisons": const, "range": "L, sigma, R moved one at a time (figures/fig_003_6.py "
                                       "CONSTANTS); a setting identical to the default run for an arm varies nothing"}
    if noise == "k-norm":
        extra["learned"] = {p: _at_chance(rows, p, [f"{alg} | {noise} | eps {e}" for alg in ("MAPA", "AUDP clip 3") for e in labs])
                            for p in panels if any(acc.get((p, f"MAPA | {noise} | eps {e}")) for e in labs)}
    v = _verdict(comps, extra)
    if v.status != "open":
        return v
    real = [p for p in panels if p in REAL_PANELS]
    notes = []
    for t in adjacent:
        if t["panel"] in real and t["decision"] != "inconclusive":
            notes.append(f"{t['panel']} {t['algorithm']} eps {t['eps'][0]} -> {t['eps'][1]}: {t['diff']:+.3f} ({t['decision']}, "
                         f"Welch p = {min(t['p_greater'], t['p_less']):.2g})")
    for c in extra.get("unstated_constants", {}).get("comparisons", []):
        if c["moves_result"]:
            signs = ", ".join(f"eps {a['eps'][0]} -> {a['eps'][1]} {a['diff']:+.3f} {a['decision']}" for a in c["adjacent"])
            notes.append(f"{c['algorithm']} under {c['constants']}: {signs}")
    learned = extra.get("learned", {})
    flat = [p for p, d in learned.items() if p in real and not any(a["above_majority"] for a in d["arms"].values())]
    if flat:
        notes.insert(0, "no K-norm arm learned on " + ", ".join(
            f"{p} (every mean accuracy {min(a['mean'] for a in learned[p]['arms'].values()):.3f}-"
            f"{max(a['mean'] for a in learned[p]['arms'].values()):.3f}, none significantly above the majority-class rate "
            f"{learned[p]['majority_rate']:.3f})" for p in flat)
            + f": {_noise_facts_text(_k_norm_facts(flat, labs))}, so the accuracies carry no eps trend to test")
    reason = v.reason + (". What the CSV shows: " + "; ".join(notes) if notes else "")
    if any(c["moves_result"] for c in extra.get("unstated_constants", {}).get("comparisons", [])):
        reason += " (the sign depends on the unstated constants: undecided under issue 32's rule)"
    return Verdict(v.status, v.evidence_kind, margin=v.margin, evidence=v.evidence, reason=reason, missing=v.missing)


for _noise in ("paper-literal", "k-norm"):
    claim(id=f"003.fig-6.accuracy-rises-with-eps.{_noise}", seed="003", lines="L505",
          statement=f"The accuracy of MAPA and AUDP increases with the per-iteration eps ({_noise} noise).",
          recorded={"paper-literal": "open", "k-norm": "open"}[_noise], result="Fig 6", role="figure")(
        (lambda n: lambda: _rises_with_eps(n))(_noise))


@claim(id="003.fig-6.headline-improvements", seed="003", lines="L507",
       statement="MAPA's largest improvement over AUDP is 20% on CNN/MNIST (Fig. 6(c)) and 100% on CNN/USPS (Fig. 6(f)).",
       recorded="not-reproduced", result="Fig 6", role="figure")
def headline_improvements() -> Verdict:
    rows = _rows("fig_003_6")
    if rows is None:
        return _missing("fig_003_6")
    acc = _by(rows, "panel", "label")
    rel = {}
    for (p, lab), v in acc.items():
        if lab.startswith("MAPA |") and "eps" in lab and p != CONSTANTS_PANEL:
            ref = acc.get((p, lab.replace("MAPA", "AUDP clip 3")))
            if ref:
                rel[f"{p} {lab[7:]}"] = float(np.mean(v) / np.mean(ref) - 1.0)
    return Verdict("not-reproduced", "sampled", evidence={"points": len(rows), "relative_improvement_mapa_over_audp_clip3": rel},
                   reason="both printed numbers are CNN panels (6(c) CNN/MNIST, 6(f) CNN/USPS); relative improvements of our arms are listed",
                   missing=Missing("model family", "the paper's CNN (both numbers are read off its panels 6(c), 6(f); 6(f) is "
                                                   "also on USPS); the suite trains no CNN"))


@claim(id="003.fig-6.mapa-vs-asgd", seed="003", lines="L509", recheck=recheck_fig6,
       statement="For LR, MAPA's accuracy is even higher than non-private ASGD's.",
       recorded="refuted", result="Fig 6", role="figure")
def mapa_vs_asgd() -> Verdict:
    rows = _rows("fig_003_6")
    if rows is None:
        return _missing("fig_003_6")
    acc = _by(rows, "panel", "label")
    comps = []
    for p in ("lr/mnist-5k", "lr/digits"):
        for noise in ("paper-literal", "k-norm"):
            mapa, asgd = acc[(p, f"MAPA | {noise} | eps 0.5")], acc[(p, "ASGD")]
            comps.append((p, {**welch(mapa, asgd), "noise_mode": noise, "cohens_d": _cohens_d(mapa, asgd),
                              "mapa_label": f"MAPA | {noise} | eps 0.5", "reference_label": "ASGD"}))
    v = _verdict(comps, {"comparison": "MAPA at eps 0.5 vs ASGD (no DP)"})
    if v.status == "refuted":
        v = _constants_hold_sign(v, "ASGD", eps=("0.5",), paper_words="'for LR, the prediction accuracy of MAPA is "
                                 "even higher than ASGD' (L509)")
    return _short_horizon(v, "fig_003_6", "paper-literal",
                          {"ASGD": {"algorithm": "asgd", "noise": "none"}}, ["0.5"])


# --- Fig. 5 -----------------------------------------------------------------------------------------

def _fig5_finals():
    rows = _rows("fig_003_5")
    if rows is None:
        return None
    last = max(int(r["iteration"]) for r in rows)
    return _by([r for r in rows if int(r["iteration"]) == last], "label", value="grad_norm")


def _fig5_verdict(by_noise: dict, margin: float, evidence: dict) -> Verdict:
    """Fig. 5 is LR on USPS with K = 100 edges (L486): USPS is not available offline, so the claim is
    ``not-reproduced`` naming it (:data:`STAND_IN_PANELS`), whatever the digits stand-in gives. ``by_noise``: the
    status on the stand-in per noise mode; the paper's algorithms with its own noise (paper-literal) are the ones
    the statement is about, the eps-DP K-norm arms (ours) are reported beside."""
    from theory.figure_evidence import STAND_IN_REASON

    reason = (STAND_IN_REASON.format(names="scikit-learn's 8x8 digits for USPS, LR, K = 100",
                                     status=by_noise["paper-literal"])
              + f" with the paper's noise (paper-literal), '{by_noise['k-norm']}' with our eps-DP K-norm noise")
    return Verdict("not-reproduced", "sampled", margin=margin, reason=reason, missing=STAND_IN_PANELS["lr/digits"],
                   evidence={**evidence, "status_on_our_setting": by_noise["paper-literal"],
                             "status_on_our_setting_by_noise": by_noise})


@claim(id="003.fig-5.audp-extreme-clips-hurt", seed="003", lines="L486",
       statement="AUDP with a too high (15) or too low (0.2) fixed clip bound ends at a larger gradient norm than with an appropriate one (3).",
       recorded="not-reproduced", result="Fig 5", role="figure")
def audp_extreme_clips() -> Verdict:
    """Per noise mode on the stand-in: holds if both extreme clips end significantly above clip 3 (one-sided
    Welch), refuted-on-the-stand-in if one ends significantly below, else open; decided by :func:`_fig5_verdict`."""
    g = _fig5_finals()
    if g is None:
        return _missing("fig_003_5")
    comps, by_noise = [], {}
    for noise in ("paper-literal", "k-norm"):
        mid = g[(f"AUDP clip 3 | {noise}",)]
        tests = [{**welch(g[(f"AUDP clip {c} | {noise}",)], mid), "clip": c, "noise": noise} for c in ("15", "0.2")]
        decisions = {t["decision"] for t in tests}
        by_noise[noise] = "holds" if decisions == {"greater"} else "refuted" if "less" in decisions else "open"
        comps += tests
    margin = min(t["diff"] for t in comps if t["noise"] == "paper-literal")
    return _fig5_verdict(by_noise, margin, {
        "points": sum(t["n_a"] + t["n_b"] for t in comps), "comparisons": comps, "metric": "final ||grad f||",
        "data": "digits (USPS stand-in)",
        "margin_unit": "absolute final gradient norm: the smaller (extreme clip - clip 3) difference of means, "
                       "paper-literal noise"})


@claim(id="003.fig-5.mapa-insensitive-to-initial-clip", seed="003", lines="L486",
       statement="MAPA reaches about the same final gradient norm whatever its initial clip bound (200, 100 or 10).",
       recorded="not-reproduced", result="Fig 5", role="figure")
def mapa_initial_clip() -> Verdict:
    """Per noise mode on the stand-in: holds if TOST shows the initial clips 200 and 100 equivalent to 10 at the
    margin :data:`TOST_RELATIVE_MARGIN` x the clip-10 mean, else open (a failed equivalence test decides nothing);
    decided by :func:`_fig5_verdict`."""
    g = _fig5_finals()
    if g is None:
        return _missing("fig_003_5")
    tests, by_noise = [], {}
    for noise in ("paper-literal", "k-norm"):
        ref = g[(f"MAPA initial clip 10 | {noise}",)]
        mine = [{"noise": noise, "clip": c, **tost(g[(f"MAPA initial clip {c} | {noise}",)], ref,
                                                  TOST_RELATIVE_MARGIN * float(np.mean(ref)))} for c in ("200", "100")]
        by_noise[noise] = "holds" if all(t["equivalent"] for t in mine) else "open"
        tests += mine
    margin = min(t["margin"] - abs(t["diff"]) for t in tests if t["noise"] == "paper-literal")
    return _fig5_verdict(by_noise, margin, {
        "points": sum(len(v) for v in g.values()), "tost": tests, "data": "digits (USPS stand-in)",
        "margin_rule": f"{TOST_RELATIVE_MARGIN:g} x mean of the initial-clip-10 arm",
        "margin_unit": "absolute gradient norm: the smallest TOST margin minus |difference of means|, paper-literal "
                       "noise"})


# --- Fig. 7 -----------------------------------------------------------------------------------------

def _fig7_hits():
    rows = _rows("fig_003_7")
    if rows is None:
        return None
    out = defaultdict(list)
    for r in rows:
        v = r["iterations_to_threshold"] or r["censored_at"]
        out[(r["panel"], r["label"])].append(float(v))
    return out, sorted({int(r["edges"]) for r in rows if r["label"] != "CSGD"})


#: the asynchronous arms with the paper's own noise (its analysis; paper-literal, NOT DP) and the ones with our
#: eps-DP K-norm noise (ours: reported beside, never deciding a Fig. 7 statement about the paper's algorithms)
FIG7_PAPER_ARMS = ("ASGD", "AUDP clip 3 | paper-literal", "MAPA | paper-literal")
FIG7_OURS_ARMS = ("AUDP clip 3 | k-norm", "MAPA | k-norm")


def _fig7_grid(ks) -> tuple[list, bool]:
    """The K values a Fig. 7 claim compares: the paper's grid (FIG7 edges, L540) where the CSV has at least two of
    them, else our grid (flagged: not the paper's setting)."""
    paper = [int(e.value) for e in FIG7["edges"]]
    on = [k for k in paper if k in ks]
    return (on, True) if len(on) >= 2 else (list(ks), False)


def _records_per_edge(ks) -> dict:
    """Training records per edge at each K: ours (MNIST-5k's training split) and the paper's (60,000, L457)."""
    from repro import data as D
    from theory.mapa.paper_values import DATA

    n = len(D.load("mnist-5k", seed=0).y_train)
    paper = int(DATA["mnist_train"].text.replace(",", ""))
    return {str(k): {"ours": n // k, "paper": paper // k} for k in ks}


def _censored(rows, panel: str, label: str) -> int:
    return sum(1 for r in rows if r["panel"] == panel and r["label"] == label and not r["iterations_to_threshold"])


def _grow_tests(hits, rows, arms, grid) -> list:
    """Mann-Whitney one-sided both ways between each adjacent pair of K in ``grid`` for each arm and panel (an arm
    absent at a K, e.g. the K-norm arms where an edge holds fewer records than a batch, is skipped there)."""
    tests = []
    for p in sorted({p for p, _ in hits}):
        for alg in arms:
            present = [k for k in grid if (p, f"{alg} | K {k}") in hits]
            for lo, hi in zip(present, present[1:]):
                a, b = hits[(p, f"{alg} | K {hi}")], hits[(p, f"{alg} | K {lo}")]
                tests.append({"panel": p, "arm": alg, "K": [lo, hi], "median_low_K": float(np.median(b)),
                              "median_high_K": float(np.median(a)),
                              "censored_low_K": _censored(rows, p, f"{alg} | K {lo}"),
                              "censored_high_K": _censored(rows, p, f"{alg} | K {hi}"),
                              # growth is shown only against observed counts at the smaller K: a censored one is a
                              # lower bound, and a larger K's longer budget would make growth an artefact
                              "greater": mann_whitney_greater(a, b)["greater"] and _censored(rows, p, f"{alg} | K {lo}") == 0,
                              "p": mann_whitney_greater(a, b)["p"],
                              "p_fewer_at_high_K": mann_whitney_greater(b, a)["p"],
                              "fewer_at_high_K": mann_whitney_greater(b, a)["greater"]})
    return tests


def _grow_status(tests: list, paper_grid: bool) -> tuple:
    """(status, opposite tests) of "iterations grow with K" over ``tests``: holds when every test grows
    significantly on the paper's grid; refuted when some arm needs significantly fewer iterations at the larger K on
    a real panel with every run of that pair observed; else open."""
    opposite = [t for t in tests if t["fewer_at_high_K"] and t["panel"] in REAL_PANELS
                and t["censored_low_K"] == 0 and t["censored_high_K"] == 0]
    if tests and paper_grid and all(t["greater"] for t in tests):
        return "holds", []
    if opposite and paper_grid:
        return "refuted", opposite
    return "open", []


def recheck_grow(cx: dict) -> float:
    """The counterexample's margin from the CSV rows directly: for each (panel, arm, K pair) it names, the
    hypotheses (the caption's threshold, both K of the paper's grid, every run observed, significantly fewer
    iterations at the larger K by a one-sided Mann-Whitney test) and log10 of the larger-K over the smaller-K median
    count; the largest (each is negative where the statement fails)."""
    from scipy import stats as sps

    from theory.ledger import HypothesisFails

    rows = _rows("fig_003_7")
    paper = {int(e.value) for e in FIG7["edges"]}
    margins = []
    for t in cx["fewer_at_high_K"]:
        lo, hi = t["K"]
        if not {lo, hi} <= paper:
            raise HypothesisFails(f"K {lo}, {hi} are not both of the paper's grid")
        pick = lambda k: [r for r in rows if r["panel"] == t["panel"] and r["label"] == f"{t['arm']} | K {k}"]
        a, b = pick(lo), pick(hi)
        if any(r["threshold"] != FIG7["threshold_lr_mnist"].text for r in a + b):
            raise HypothesisFails(f"threshold differs from the caption's {FIG7['threshold_lr_mnist'].text}")
        if not a or not b or any(not r["iterations_to_threshold"] for r in a + b):
            raise HypothesisFails("a run is censored or missing: its count is not observed")
        x = np.array([float(r["iterations_to_threshold"]) for r in a])
        y = np.array([float(r["iterations_to_threshold"]) for r in b])
        if sps.mannwhitneyu(x, y, alternative="greater").pvalue >= 0.05:
            raise HypothesisFails("not significantly fewer iterations at the larger K")
        margins.append(math.log10(np.median(y) / np.median(x)))
    return max(margins)


@claim(id="003.fig-7.iterations-grow-with-k", seed="003", lines="L542", recheck=recheck_grow,
       statement="The iterations the asynchronous algorithms (ASGD, AUDP, MAPA) need to reach the loss threshold grow with the number of edges K.",
       recorded="open", result="Fig 7", role="figure")
def iterations_grow() -> Verdict:
    """Decided on the paper's algorithms with the paper's noise (FIG7_PAPER_ARMS) at each adjacent pair of the
    paper's K grid: holds if every pair grows significantly (one-sided Mann-Whitney; a run censored at its budget
    counts as the budget, a lower bound, so a censored run at the larger K never makes growth look larger than it
    is when the budget exceeds every count observed at the smaller K); refuted if an arm needs significantly
    fewer iterations at the larger K of a pair on a real panel with every run of that pair observed; else open
    (or not-reproduced on stand-in panels only). The K-norm arms (ours) are reported beside."""
    got = _fig7_hits()
    if got is None:
        return _missing("fig_003_7")
    hits, ks = got
    rows = _rows("fig_003_7")
    grid, paper_grid = _fig7_grid(ks)
    tests = _grow_tests(hits, rows, FIG7_PAPER_ARMS, grid)
    ours = _grow_tests(hits, rows, FIG7_OURS_ARMS, grid)
    status, opposite = _grow_status(tests, paper_grid)
    if status in ("holds", "refuted"):
        reason, missing = "", None
    else:
        status, reason, missing = _shortfall([t["panel"] for t in tests if not t["greater"]] or ["lr/mnist-5k"],
                                             [t["panel"] for t in tests])
        not_grown = [f"{t['panel']} {t['arm']} K {t['K'][0]} -> {t['K'][1]} (medians {t['median_low_K']:g} -> "
                     f"{t['median_high_K']:g}, p = {t['p']:.2g})" for t in tests if not t["greater"]]
        reason = (reason + ": no significant growth for " + "; ".join(not_grown) if not_grown else reason)
        if not paper_grid:
            reason += f"; the CSV's K grid {ks} holds fewer than two of the paper's K (L540): run make fig-003-7"
    why = ""
    if status == "refuted":
        why = ("On real MNIST-5k with the paper's LR model, the caption's threshold and the paper's K grid, "
               + "; ".join(f"{t['arm']} needs significantly fewer iterations at K = {t['K'][1]} than at K = {t['K'][0]} "
                           f"(medians {t['median_high_K']:g} vs {t['median_low_K']:g}, Mann-Whitney p = "
                           f"{t['p_fewer_at_high_K']:.2g}, every run observed)" for t in opposite)
               + ", the opposite of 'the number of iterations for all asynchronous algorithms increases with K' (L542).")
    margin = None
    if status == "refuted":
        margin = max(math.log10(t["median_high_K"] / t["median_low_K"]) for t in opposite)
    elif tests:
        margin = min(math.log10(t["median_high_K"] / t["median_low_K"]) for t in tests)
    ends = _grow_tests(hits, rows, FIG7_PAPER_ARMS, [grid[0], grid[-1]]) if len(grid) > 2 else tests
    end_status, _ = _grow_status(ends, paper_grid)
    end_text = "; ".join(f"{t['arm']} K {t['K'][0]} -> {t['K'][1]}: medians {t['median_low_K']:g} -> "
                         f"{t['median_high_K']:g} ({'grows' if t['greater'] else 'no significant growth'}, p = "
                         f"{t['p']:.2g})" for t in ends)
    readings = (Reading(f"monotone: every adjacent pair of the K grid {grid} grows", "L540, L542", status, margin,
                        why or reason or "every adjacent pair grows significantly"),
                Reading(f"endpoints: K = {grid[-1]} needs more iterations than K = {grid[0]}", "L542", end_status,
                        min(math.log10(t["median_high_K"] / t["median_low_K"]) for t in ends) if ends else None,
                        end_text))
    if status == "open" and end_status != status:
        reason += f". Read as the endpoints of the grid (K = {grid[0]} vs {grid[-1]}) it {end_status}: {end_text}"
    return Verdict(status, "sampled", margin=margin, readings=readings, evidence={
        "margin_unit": "log10 of the larger-K over the smaller-K median iterations (the smallest over the tests; "
                       "censored counts at their budget)", "endpoint_tests": ends,
        "points": sum(len(v) for v in hits.values()), "tests": tests, "K_grid": grid, "paper_K_grid": paper_grid,
        "decided_on": "ASGD and the paper-literal AUDP (clip 3) and MAPA: the paper's algorithms with the paper's noise",
        "records_per_edge": _records_per_edge(grid),
        "data_note": "each edge draws its batch of 12 with replacement from its own records (paper-literal, ASGD): at the "
                     "largest K our edges hold fewer records than the paper's",
        "ours_k_norm": {"tests": ours, "note": "eps-DP K-norm noise (ours): reported, not deciding"},
        "censoring": "a run that never reaches the threshold counts as its arm's budget (a lower bound on its count)"},
        counterexample={"fewer_at_high_K": opposite} if status == "refuted" else None, why=why,
        reason=reason, missing=missing)


def recheck_mapa_faster(cx: dict) -> float:
    """The counterexample's margin from the CSV rows directly: for each (panel, noise, K) it names, the
    hypotheses (the caption's threshold, every AUDP run observed) and the log10 AUDP/MAPA median ratio of
    iterations to the threshold, censored MAPA runs at the budget (a lower bound, favouring MAPA)."""
    from scipy import stats

    from theory.ledger import HypothesisFails

    rows = _rows("fig_003_7")
    margins = []
    for t in cx["audp_significantly_faster"]:
        pick = lambda alg: [r for r in rows if r["panel"] == t["panel"] and r["label"] == f"{alg} | {t['noise']} | K {t['K']}"]
        audp, mapa = pick("AUDP clip 3"), pick("MAPA")
        if any(r["threshold"] != FIG7["threshold_lr_mnist"].text for r in audp + mapa):
            raise HypothesisFails(f"threshold differs from the caption's {FIG7['threshold_lr_mnist'].text}")
        if any(not r["iterations_to_threshold"] for r in audp):
            raise HypothesisFails("an AUDP run is censored: its count is not observed")
        a = np.array([float(r["iterations_to_threshold"]) for r in audp])
        m = np.array([float(r["iterations_to_threshold"] or r["censored_at"]) for r in mapa])
        if stats.mannwhitneyu(m, a, alternative="greater").pvalue >= 0.05:
            raise HypothesisFails("AUDP is not significantly faster here")
        margins.append(math.log10(np.median(a) / np.median(m)))
    return min(margins)


@claim(id="003.fig-7.mapa-faster-than-audp", seed="003", lines="L544", recheck=recheck_mapa_faster,
       statement="MAPA needs fewer iterations than AUDP to reach the loss threshold at K = 10 and 100 (1-2 orders of magnitude).",
       recorded="refuted", result="Fig 7", role="figure")
def mapa_faster() -> Verdict:
    got = _fig7_hits()
    if got is None:
        return _missing("fig_003_7")
    hits, ks = got
    tests = []
    for p in sorted({p for p, _ in hits}):
        for noise in ("paper-literal", "k-norm"):
            for k in (10, 100):
                if (p, f"MAPA | {noise} | K {k}") not in hits:
                    continue
                a, m = hits[(p, f"AUDP clip 3 | {noise} | K {k}")], hits[(p, f"MAPA | {noise} | K {k}")]
                tests.append({"panel": p, "noise": noise, "K": k, "median_ratio_audp_over_mapa": float(np.median(a) / np.median(m)),
                              "mapa_faster": mann_whitney_greater(a, m), "audp_faster": mann_whitney_greater(m, a)})
    why, missing = None, None
    if tests and all(t["mapa_faster"]["greater"] for t in tests):
        status, reason, cx = "holds", "", None
    else:
        opposite = [t for t in tests if t["audp_faster"]["greater"] and t["panel"] in REAL_PANELS]
        why = _fig7_why(opposite) if opposite else None
        if why is not None and not why["decides"]:
            opposite = []
        status, reason, missing = ("refuted", "", None) if opposite else _shortfall(
            [t["panel"] for t in tests if not t["mapa_faster"]["greater"]], [t["panel"] for t in tests])
        cx = {"audp_significantly_faster": opposite} if opposite else None
    return Verdict(status, "sampled", margin=min(math.log10(t["median_ratio_audp_over_mapa"]) for t in tests) if tests else None,
                   evidence={"points": sum(len(v) for v in hits.values()), "tests": tests,
                             "audp": "clip 3 (the paper's Fig. 5 middle bound)", "unit_of_margin": "log10 of the AUDP/MAPA median ratio",
                             "margin_unit": "log10 of the AUDP/MAPA median ratio of iterations to the threshold (negative: AUDP faster)",
                             **({"why_small_setting_decides": why} if why is not None else {})},
                   counterexample=cx, reason=reason, why=_fig7_finding(cx) if status == "refuted" else "", missing=missing)


def _fig7_finding(cx: dict) -> str:
    """The why of a refuted Fig. 7 claim, from the counterexample's comparisons."""
    parts = [f"{t['panel']} {t['noise']} K = {t['K']}: AUDP/MAPA median ratio {t['median_ratio_audp_over_mapa']:.3g} "
             f"(Mann-Whitney p = {t['audp_faster']['p']:.2g})" for t in cx["audp_significantly_faster"]]
    return ("On real MNIST-5k with the paper's LR model, the caption's loss threshold and the paper's K, AUDP (clip 3) "
            "reaches the threshold significantly sooner than MAPA, the opposite of 'MAPA saves 1-2 orders of magnitude': "
            + "; ".join(parts) + ". Censored MAPA runs count at the budget, which can only favour MAPA; the paper leaves "
            "R, f(x_1) - f* and the LR class pair unstated (fixed as stated in repro.edge_fl), and MAPA's stage schedule "
            "depends on f(x_1) - f* through (15).")


def _fig7_why(opposite: list) -> dict:
    """Why the small setting decides "MAPA faster than AUDP" where AUDP is significantly faster on LR/MNIST-5k:
    the same threshold (caption) and K, every AUDP run of those comparisons observed (not censored), MAPA's
    censored runs entered at the budget, a LOWER bound on their count (censoring can only favour MAPA)."""
    rows = _rows("fig_003_7")
    cells = {(t["panel"], t["noise"], t["K"]) for t in opposite}
    runs = defaultdict(list)
    for r in rows:
        for p, noise, k in cells:
            if r["panel"] == p and r["label"] in (f"AUDP clip 3 | {noise} | K {k}", f"MAPA | {noise} | K {k}"):
                runs[(r["label"].split(" ")[0], p, noise, k)].append(r)
    audp_censored = sum(1 for (alg, *_), rs in runs.items() if alg == "AUDP" for r in rs if not r["iterations_to_threshold"])
    mapa_censored = sum(1 for (alg, *_), rs in runs.items() if alg == "MAPA" for r in rs if not r["iterations_to_threshold"])
    thresholds = {r["threshold"] for rs in runs.values() for r in rs}
    same_threshold = thresholds == {FIG7["threshold_lr_mnist"].text}
    paper_ks = {10, 100}  # the two K of the statement (L544), both run here
    decides = audp_censored == 0 and same_threshold and {k for *_, k in cells} <= paper_ks
    return {"decides": decides, "threshold_ours": sorted(thresholds), "threshold_paper": FIG7["threshold_lr_mnist"].text,
            "K_compared": sorted({k for *_, k in cells}), "audp_runs_censored": audp_censored,
            "mapa_runs_censored_at_budget": mapa_censored,
            "effect": [{"panel": t["panel"], "noise": t["noise"], "K": t["K"], "median_ratio_audp_over_mapa": t["median_ratio_audp_over_mapa"],
                        "mann_whitney_p_audp_faster": t["audp_faster"]["p"]} for t in opposite],
            "argument": ("the statement is about iterations to the caption's loss threshold at K = 10 and 100: both K and the "
                         "threshold are the paper's, and the hit time is a property of the optimisation path (12 samples per "
                         "iteration; the step sizes and noise do not involve the data size), so the smaller training set does "
                         "not enter; every AUDP run is observed, and a censored MAPA run is entered at the budget, below its "
                         "true count, so censoring can only make MAPA look faster. Residual differences (the paper leaves R, "
                         "f(x_1) - f* and the LR class pair unstated) are the paper's unknowns, fixed as stated in repro.edge_fl")}


# --- Fig. 4 -----------------------------------------------------------------------------------------

#: fig_003_4's stage of the paper's setting (gradients released during MAPA training) and of ours (untrained)
TRAINING, UNTRAINED = "mapa training", "untrained"


def _correlations(row) -> np.ndarray:
    """A fig_003_4 cell's correlations over its noise draws (the CSV keeps them to 3 decimals)."""
    return np.array([float(v) for v in row["correlations"].split()])


def _inversion_setting(cells: dict) -> dict:
    """One model under one setting of the constants, paper-literal noise; ``cells``: eps -> the rows of its
    (checkpoint, image) cells. Stated (L484): every image blurred at eps 0.01, some restored at eps 1.
    Blurred: every cell's mean correlation significantly below BLURRED (one-sided t-tests, each at alpha: an
    intersection-union test, level alpha for "every cell" with no correction). Restored: some cell significantly
    above RESTORED (Bonferroni over the cells). The opposites: some cell at eps 0.01 significantly above
    BLURRED (Bonferroni), or every cell at eps 1 significantly below RESTORED (intersection-union)."""
    lo, hi = cells[min(cells)], cells[max(cells)]
    a = stats.SIGNIFICANCE_LEVEL
    test = lambda rs, value, alt, alpha: [stats.one_sample(_correlations(r), value=value, alternative=alt, alpha=alpha)  # noqa: E731
                                          for r in rs]
    blurred, not_blurred = test(lo, BLURRED, "less", a), test(lo, BLURRED, "greater", a / len(lo))
    restored, not_restored = test(hi, RESTORED, "greater", a / len(hi)), test(hi, RESTORED, "less", a)
    holds = all(c.significant for c in blurred) and any(c.significant for c in restored)
    refuted = any(c.significant for c in not_blurred) or all(c.significant for c in not_restored)
    means = {e: [float(r["mean_correlation"]) for r in rs] for e, rs in ((min(cells), lo), (max(cells), hi))}
    return {"status": "holds" if holds else "refuted" if refuted else "open",
            "margin": min(max(means[max(cells)]) - RESTORED, BLURRED - max(means[min(cells)])),
            f"eps {min(cells):g}": {"cells": len(lo), "max_mean_correlation": max(means[min(cells)]),
                                    "largest_p_below_blurred": max(c.p_value for c in blurred),
                                    "releases_restored_fraction": float(np.mean(np.concatenate(
                                        [_correlations(r) for r in lo]) > RESTORED)),
                                    "cells_significantly_above_blurred": sum(c.significant for c in not_blurred)},
            f"eps {max(cells):g}": {"cells": len(hi), "max_mean_correlation": max(means[max(cells)]),
                                    "cells_significantly_above_restored": sum(c.significant for c in restored),
                                    "bonferroni_alpha": a / len(hi),
                                    "smallest_p_above_restored": min(c.p_value for c in restored),
                                    "cells_mean_above_restored": sum(m > RESTORED for m in means[max(cells)])},
            "clip_bound_range": [min(float(r["clip"]) for r in lo + hi), max(float(r["clip"]) for r in lo + hi)],
            "checkpoints": sorted({int(r["iteration"]) for r in lo + hi})}


def _inversion_settings(rows) -> dict:
    """(model, constants) -> :func:`_inversion_setting` over fig_003_4's during-training paper-literal cells."""
    cells: dict = defaultdict(lambda: defaultdict(list))
    for r in rows:
        if r["stage"] == TRAINING and r["noise"] == "paper-literal":
            cells[(r["model"], r["constants"])][float(r["epsilon_per_iteration"])].append(r)
    return {k: _inversion_setting(v) for k, v in sorted(cells.items())}


def _k_norm_note(rows) -> dict:
    """The eps-DP K-norm runs at the default constants: largest mean correlation per model and budget."""
    out: dict = {}
    for r in rows:
        if r["stage"] == TRAINING and r["noise"] == "k-norm" and r["constants"] == "default":
            key = f"{r['model']} eps {float(r['epsilon_per_iteration']):g}"
            out[key] = max(out.get(key, -1.0), float(r["mean_correlation"]))
    return out


def _fraction_range(settings: dict) -> str:
    """The range over ``settings`` of the share of single eps-0.01 releases restored (in percent)."""
    fr = [v[k]["releases_restored_fraction"] for v in settings.values() for k in v if k.startswith("eps") and
          "releases_restored_fraction" in v[k]]
    return f"{100 * min(fr):.1f}-{100 * max(fr):.1f} % over the settings"


def recheck_fig4(cx: dict) -> float:
    """The counterexample's margin from the CSV rows directly: the setting it names is recomputed
    (:func:`_inversion_setting`); it must still be refuted; its margin (negative) is returned."""
    from theory.ledger import HypothesisFails

    got = _inversion_settings(_rows("fig_003_4")).get((cx["model"], cx["constants"]))
    if got is None or got["status"] != "refuted":
        raise HypothesisFails(f"{cx['model']} {cx['constants']}: not refuted by the CSV")
    return got["margin"]


@claim(id="003.fig-4.eps-1-restores", seed="003", lines="L484", recheck=recheck_fig4, version="2",
       statement="Gradient inversion ([58]) of the gradients released during MAPA training (LR and SVM on MNIST, 2,000 to 14,000 iterations) gives totally blurred images at eps = 0.01 per iteration and approximately restored ones at eps = 1.",
       recorded="holds", result="Fig 4", role="figure")
def inversion_paper() -> Verdict:
    """The paper's setting (L484): MAPA trains LR and SVM on MNIST-5k at each budget; at iterations 2,000 to
    14,000 the first training image of each digit is attacked through the releasing edge's model at MAPA's clip
    bound G_t, noise 2 G_t/eps (paper-literal, the paper's analysis, NOT DP; figures/fig_003_4.py). Decided per
    model and setting of the unstated constants by :func:`_inversion_setting`: holds if it holds for both models
    under every setting; refuted if a model is refuted at the default constants and under every other setting;
    else open."""
    rows = _rows("fig_003_4")
    if rows is None:
        return _missing("fig_003_4")
    settings = _inversion_settings(rows)
    if not settings:
        return Verdict("open", "sampled", evidence={"points": 0},
                       reason="figures/out/fig_003_4.csv has no during-training rows: run make fig-003-4")
    models = sorted({m for m, _ in settings})
    points = sum(int(r["repetitions"]) for r in rows if r["stage"] == TRAINING and r["noise"] == "paper-literal")
    ev = {"points": points, "settings": {f"{m} | {c}": v for (m, c), v in settings.items()},
          "thresholds": {"restored_above": RESTORED, "blurred_below": BLURRED},
          "k_norm_max_mean_correlation": _k_norm_note(rows),
          "margin_unit": ("absolute correlation: over every model and setting, the smaller of (largest eps-1 cell mean "
                          "minus 0.5) and (0.1 minus largest eps-0.01 cell mean)"),
          "reading": ("one sample's gradient at the releasing edge's model, clipped at MAPA's G_t, noise 2 G_t/eps (a "
                      "batch of one); inside MAPA's batch of 12 the sample's share g/12 meets noise 2 G_t/(12 eps), the "
                      "same ratio, with 11 other images mixed into the recovery: this reading is the attacker's best "
                      "case for one image"),
          "draws": ("100 noise draws per cell, seeded by (training seed, iteration): every budget and mode sees the same "
                    "draws (common random numbers), so where the noise swamps the gradient the recoveries, and the K-norm "
                    "maxima, coincide across budgets"),
          "per_release": ("releases_restored_fraction: the share of single releases at eps 0.01 whose recovery has "
                          f"correlation above 0.5 ({_fraction_range(settings)}): the paper-literal radius is Exponential, "
                          "so a few releases carry little noise; the statement is about the typical image, but the noise "
                          "is not DP"),
          "note": "under the eps-DP K-norm noise nothing is restored at any budget (k_norm_max_mean_correlation)"}
    margin = min(v["margin"] for v in settings.values())
    if all(v["status"] == "holds" for v in settings.values()):
        return Verdict("holds", "sampled", margin=margin, evidence=ev)
    bad = [m for m in models if all(v["status"] == "refuted" for (mm, _), v in settings.items() if mm == m)]
    if bad:
        return Verdict("refuted", "sampled", margin=margin, evidence=ev,
                       counterexample={"model": bad[0], "constants": "default", **settings[(bad[0], "default")]},
                       why=(f"{bad[0].upper()} on real MNIST-5k during MAPA training (iterations "
                            f"{settings[(bad[0], 'default')]['checkpoints']}, L484) contradicts the statement under every "
                            "setting of the unstated constants (evidence['settings']); paper-literal noise (not DP)"))
    return Verdict("open", "sampled", margin=margin, evidence=ev,
                   reason=("not decided under every setting of the unstated constants: " + "; ".join(
                       f"{m} {c}: {v['status']}" for (m, c), v in settings.items() if v["status"] != "holds")))


@claim(id="003.fig-4.eps-1-restores.ours-untrained", seed="003", lines="L484",
       statement="Ours (make fig-003-4: one gradient of an UNTRAINED LR/SVM, batch of one, clip 3): gradient inversion gives blurred images at eps = 0.01 per iteration and approximately restored ones at eps = 1.",
       recorded="holds", result="Fig 4", role="figure")
def inversion() -> Verdict:
    rows = _rows("fig_003_4")
    if rows is None:
        return _missing("fig_003_4")
    rows = [r for r in rows if r["stage"] == UNTRAINED]
    cell = {(r["model"], r["noise"], float(r["epsilon_per_iteration"])): float(r["mean_correlation"]) for r in rows}
    literal_ok = all(cell[(m, "paper-literal", 0.01)] < BLURRED and cell[(m, "paper-literal", 1.0)] > RESTORED for m in ("lr", "svm"))
    knorm_restores = any(cell[(m, "k-norm", 1.0)] > RESTORED for m in ("lr", "svm"))
    return Verdict("holds" if literal_ok else "open", "sampled",
                   margin=min(cell[(m, "paper-literal", 1.0)] for m in ("lr", "svm")) - RESTORED,
                   evidence={"points": int(sum(int(r["repetitions"]) for r in rows)), "correlations": {f"{k[0]} {k[1]} eps {k[2]:g}": v for k, v in cell.items()},
                             "thresholds": {"restored_above": RESTORED, "blurred_below": BLURRED},
                             "margin_unit": "absolute correlation: the smaller paper-literal eps-1 correlation minus the 0.5 'restored' threshold",
                             "decided_on": "paper-literal noise (the second moment the paper's analysis uses)",
                             "k_norm_restores_at_eps_1": knorm_restores,
                             "note": "under the eps-DP K-norm noise nothing is restored even at eps = 1: the paper's restoration reflects its non-DP noise"},
                   reason="" if literal_ok else "the paper-literal correlations do not cross the stated thresholds")
