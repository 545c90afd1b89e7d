"""Seed 003 Fig. 6 analogue: test accuracy against the privacy budget for CSGD, ASGD, AUDP and MAPA.

Run: ``make fig-003-6``. Paper: 003_8b45c9baf0227e58.txt L503-L523: five edges, epsilon per iteration
0.1-0.5, LR (15,000 iterations), SVM (10,000), CNN (25,000) on MNIST and USPS. Stated: accuracy rises with
epsilon; MAPA beats AUDP at every epsilon, most at small epsilon (up to 20 % in 6(c), 100 % in 6(f));
MAPA approaches non-private ASGD.
Ours: LR and SVM on MNIST-5k (real MNIST subset) at the paper's iteration counts (LR 15,000, SVM 10,000), LR
on the 8x8 digits (USPS STAND-IN, 15,000) and the MLP (CNN stand-in) on MNIST-5k at 2,000 iterations (the
paper's CNN runs 25,000; the MLP panel is the slowest part of make figures and its claims are not-reproduced
for the missing CNN whatever its length); on LR/MNIST-5k, MAPA and AUDP clip 3 (paper-literal noise) again
with each of the constants the paper leaves unstated moved one at a time (:data:`CONSTANTS`: L, sigma, R;
the clip is varied by the AUDP tuning grid), and non-private ASGD likewise, rows of panel
``lr/mnist-5k constants``; AUDP at the paper's Fig. 5 middle bound (clip 3) and AUDP tuned (best of
clips 0.2/1/3/15 on the reported metric: an optimistic AUDP, tuning not accounted); three noise modes:
paper-literal (NOT DP), K-norm (eps-DP per release) and Gaussian (Poisson sampling, certified
accountant; its arms sit at their certified whole-run epsilon, not at a per-iteration one).
"""
from __future__ import annotations

import numpy as np

from repro import stats
from theory.mapa.paper_values import FIG6, SETTINGS

from . import common
from .edge_common import DELTA_RUN, NOISE_LABEL, certified_run_epsilon, epsilon_caption, privacy_records, run_panels

NAME = "fig_003_6"
# The MLP panel (a stand-in for the paper's CNN; 100 runs, about 13.5 CPU s each at 2,000 iterations, measured
# 2026-11-27 under load: about 1,350 CPU s, 11 minutes on two workers) is left out of the default run: it decides
# no claim that the real-MNIST LR/SVM panels do not, and with it the cold make figures would leave little of its
# 60-minute budget. ("mnist-5k", "mlp") can be added back here. The SVM panel (the paper's 10,000 iterations;
# 190 runs of about 4.8 CPU s, about 920 CPU s in all) is in.
PANELS = (("mnist-5k", "lr"), ("mnist-5k", "svm"), ("digits", "lr"))
AUDP_CLIPS = (0.2, 1.0, 3.0, 15.0)
PAPER_AUDP_CLIP = 3.0
GAUSSIAN_SIGMAS = (0.6, 1.0, 2.0)


#: the caption's word for repro.stats.effect_status of "MAPA > AUDP"
DECISION = {"holds": "greater", "refuted": "less", "open": "inconclusive"}


def decision(a, b) -> dict:
    return {"decision": DECISION[stats.effect_status(a, b)[0]]}


#: iterations per run at the full setting: the paper's (L503) for LR and SVM; the MLP (CNN stand-in, paper
#: 25,000) stays at 2,000, the most expensive part of make figures (docs/figure_times.md)
ITERATIONS = {"quick": {"lr": 200, "svm": 200, "mlp": 200},
              "full": {"lr": int(FIG6["iterations_lr"].text.replace(",", "")),
                       "svm": int(FIG6["iterations_svm"].text.replace(",", "")), "mlp": 2000}}
#: the paper leaves R, L and sigma unstated (repro.edge_fl defaults L = 10, sigma = 30, R = 1): each is moved
#: alone over this range on LR/MNIST-5k (paper-literal, MAPA and AUDP clip 3), so a decision can say whether
#: its sign holds across them
CONSTANTS = ({"L": 5.0}, {"L": 20.0}, {"sigma": 10.0}, {"sigma": 100.0}, {"R": 0.5}, {"R": 2.0})
CONSTANTS_PANEL = "lr/mnist-5k constants"


def grid(quick: bool):
    lo, hi = FIG6["epsilon_low"].value, FIG6["epsilon_high"].value
    return (lo, hi) if quick else (lo, round((lo + hi) / 2, 10), hi)


def clips_for(model: str, quick: bool) -> tuple:
    """AUDP clip bounds tried: the tuning grid for LR/SVM; the MLP (slowest) only at the paper's bound."""
    return (PAPER_AUDP_CLIP,) if quick or model == "mlp" else AUDP_CLIPS


def constants_label(alg: str, eps: float, const: dict) -> str:
    return f"{alg} | paper-literal | eps {eps:g} | " + ", ".join(f"{k} {v:g}" for k, v in const.items())


def constant_arms(quick: bool) -> dict:
    """MAPA and AUDP clip 3 (paper-literal noise) and non-private ASGD on LR/MNIST-5k, each :data:`CONSTANTS`
    entry in turn."""
    base = {**arms("mnist-5k", "lr", quick)["CSGD"]}
    base.pop("algorithm"), base.pop("noise")
    out = {}
    for const in (CONSTANTS[:1] if quick else CONSTANTS):
        out["ASGD | " + ", ".join(f"{k} {v:g}" for k, v in const.items())] = {**base, **const, "algorithm": "asgd",
                                                                             "noise": "none"}
        for eps in grid(quick):
            out[constants_label("MAPA", eps, const)] = {**base, **const, "algorithm": "mapa", "noise": "paper-literal",
                                                        "epsilon": eps}
            out[constants_label(f"AUDP clip {PAPER_AUDP_CLIP:g}", eps, const)] = {
                **base, **const, "algorithm": "audp", "noise": "paper-literal", "epsilon": eps, "clip": PAPER_AUDP_CLIP}
    return out


def arms(dataset: str, model: str, quick: bool) -> dict:
    its = ITERATIONS["quick" if quick else "full"][model]
    base = {"dataset": dataset, "model": model, "edges": int(SETTINGS["edges_default"].value),
            "batch": int(SETTINGS["batch"].value), "iterations": its, "eval_every": its // 4,
            "theta": SETTINGS["theta"].value}
    out = {"CSGD": {**base, "algorithm": "csgd", "noise": "none"}, "ASGD": {**base, "algorithm": "asgd", "noise": "none"}}
    for noise in ("paper-literal", "k-norm"):
        for eps in grid(quick):
            for c in clips_for(model, quick):
                out[f"AUDP clip {c:g} | {noise} | eps {eps:g}"] = {**base, "algorithm": "audp", "noise": noise, "epsilon": eps, "clip": c}
            out[f"MAPA | {noise} | eps {eps:g}"] = {**base, "algorithm": "mapa", "noise": noise, "epsilon": eps}
    for s in (GAUSSIAN_SIGMAS if not quick else GAUSSIAN_SIGMAS[:1]):
        out[f"AUDP clip {PAPER_AUDP_CLIP:g} | gaussian | sigma {s:g}"] = {**base, "algorithm": "audp", "noise": "gaussian",
                                                                        "clip": PAPER_AUDP_CLIP, "gaussian_sigma": s}
        out[f"MAPA | gaussian | sigma {s:g}"] = {**base, "algorithm": "mapa", "noise": "gaussian", "gaussian_sigma": s}
    return out


def finals(rs) -> list:
    return [r["final_accuracy"] for r in rs]


def summarise(res: dict, quick: bool, model: str) -> tuple[list, dict]:
    """Rows (label, noise, algorithm, eps axis, seed, accuracy) and the Welch comparisons MAPA vs AUDP."""
    rows, tests = [], {}
    for lab, rs in res.items():
        cfg = rs[0]["config"]
        priv = rs[0]["privacy"]
        for r in rs:
            rows.append({"label": lab, "algorithm": cfg["algorithm"], "noise": cfg["noise"], "clip": cfg["clip"],
                         "epsilon_per_iteration": cfg["epsilon"] if cfg["noise"] in ("paper-literal", "k-norm") else "",
                         "pure_epsilon_run": priv.get("pure_epsilon_run", ""), "gaussian_sigma": cfg["gaussian_sigma"],
                         "seed": r["config"]["seed"], "final_accuracy": r["final_accuracy"], "dp": priv["dp"]})
    for noise in ("paper-literal", "k-norm"):
        for eps in grid(quick):
            mapa = finals(res[f"MAPA | {noise} | eps {eps:g}"])
            clips = clips_for(model, quick)
            audp = {c: finals(res[f"AUDP clip {c:g} | {noise} | eps {eps:g}"]) for c in clips}
            best = max(clips, key=lambda c: np.mean(audp[c]))
            tests[(noise, eps)] = {"vs_paper_audp": decision(mapa, audp[PAPER_AUDP_CLIP]), "vs_tuned_audp": decision(mapa, audp[best]),
                                   "tuned_clip": best, "mapa_mean": float(np.mean(mapa)),
                                   "audp_paper_mean": float(np.mean(audp[PAPER_AUDP_CLIP])), "audp_tuned_mean": float(np.mean(audp[best]))}
    return rows, tests


def main(argv=None) -> None:
    args = common.parse_args(argv, __doc__)
    seeds = range(2) if args.quick else range(5)
    panels = PANELS[:1] if args.quick else PANELS
    cols = min(2, len(panels))  # a 2x2 grid at full setting: four panels side by side are unreadable at page width
    fig, axes = common.figure_axes(cols, rows=-(-len(panels) // cols), width=4.4)
    axes = np.atleast_1d(axes)
    for ax in axes[len(panels):]:  # e.g. three panels in the 2 x 2 grid: no empty frame
        ax.set_visible(False)
    all_rows, ours, records = [], [], {}
    spec_all = {f"{model}/{dataset}": arms(dataset, model, args.quick) for dataset, model in panels}
    spec_all[CONSTANTS_PANEL] = constant_arms(args.quick)
    res_all = run_panels(spec_all, seeds, desc=NAME)  # one sweep, longest runs first: both workers busy to the end
    for ax, (dataset, model) in zip(axes, panels):
        res = res_all[f"{model}/{dataset}"]
        records.update(privacy_records(res, f"{model}/{dataset}"))
        rows, tests = summarise(res, args.quick, model)
        n_k = res["CSGD"][0]["config"]["iterations"]
        for r in rows:
            r["panel"] = f"{model}/{dataset}"
        eps = grid(args.quick)
        for lab in ("CSGD", "ASGD"):
            ax.axhline(np.mean(finals(res[lab])), ls=":", color="grey" if lab == "ASGD" else "black", label=f"{lab} (no DP)")
        for noise, style in (("paper-literal", "-"), ("k-norm", "--")):
            ax.plot(eps, [tests[(noise, e)]["mapa_mean"] for e in eps], "o" + style, label=f"MAPA, {NOISE_LABEL[noise]}")
            ax.plot(eps, [tests[(noise, e)]["audp_paper_mean"] for e in eps], "s" + style, label=f"AUDP clip 3, {noise}")
            ax.plot(eps, [tests[(noise, e)]["audp_tuned_mean"] for e in eps], "^" + style, label=f"AUDP tuned, {noise}")
        gauss = []
        for s in (GAUSSIAN_SIGMAS if not args.quick else GAUSSIAN_SIGMAS[:1]):
            for alg in ("MAPA", f"AUDP clip {PAPER_AUDP_CLIP:g}"):
                rs = res[f"{alg} | gaussian | sigma {s:g}"]
                p = rs[0]["privacy"]
                cert = certified_run_epsilon(p["q"], s, p["releases_per_edge"])
                gauss.append((alg, s, cert, float(np.mean(finals(rs)))))
                for r in rows:
                    if r["label"] == f"{alg} | gaussian | sigma {s:g}":
                        r["certified_epsilon_run_upper"] = cert["epsilon_upper"]
        ax.set_title(f"{model.upper()} on {dataset}{' (USPS stand-in)' if dataset == 'digits' else ''}\n"
                     f"K = 5, {n_k} iterations; Gaussian arms in the caption", fontsize=7)
        ax.set_xlabel("epsilon per iteration")
        ax.set_ylabel("test accuracy (mean of seeds)")
        common.style.legend_below(ax)
        all_rows += rows
        ours.append(f"{model}/{dataset}: " + "; ".join(
            f"{n} eps {e:g}: MAPA {t['mapa_mean']:.3f} vs AUDP(3) {t['audp_paper_mean']:.3f} [{t['vs_paper_audp']['decision']}]"
            f" vs AUDP tuned({t['tuned_clip']:g}) {t['audp_tuned_mean']:.3f} [{t['vs_tuned_audp']['decision']}]"
            for (n, e), t in tests.items()) + "; Gaussian (whole-run eps, delta 1e-5): " + "; ".join(
            f"{a} sigma {s:g}: eps<={c['epsilon_upper']:.3g} acc {m:.3f}" for a, s, c, m in gauss))
    const_res = res_all[CONSTANTS_PANEL]
    for lab, rs in const_res.items():
        cfg = rs[0]["config"]
        all_rows += [{"panel": CONSTANTS_PANEL, "label": lab, "algorithm": cfg["algorithm"], "noise": cfg["noise"],
                      "clip": cfg["clip"], "dp": rs[0]["privacy"]["dp"],
                      "epsilon_per_iteration": cfg["epsilon"] if cfg["noise"] == "paper-literal" else "",
                      "constants": f"L {cfg['L']:g}, sigma {cfg['sigma']:g}, R {cfg['R']:g}",
                      "seed": r["config"]["seed"], "final_accuracy": r["final_accuracy"]} for r in rs]
    const_means = {lab: float(np.mean(finals(rs))) for lab, rs in const_res.items()}
    ours.append("lr/mnist-5k, unstated constants moved one at a time (paper-literal): " + "; ".join(
        f"{lab.split(' | ', 3)[3]} eps {lab.split(' | ')[2][4:]}: MAPA {m:.3f} vs AUDP(3) "
        f"{const_means[lab.replace('MAPA', f'AUDP clip {PAPER_AUDP_CLIP:g}', 1)]:.3f}"
        for lab, m in const_means.items() if lab.startswith("MAPA")))
    keys = sorted({k for r in all_rows for k in r})
    all_rows = [{k: r.get(k, "") for k in keys} for r in all_rows]
    cap = common.caption(
        figure="003 Fig. 6 analogue: accuracy vs privacy budget (MNIST-5k real subset; digits = USPS stand-in)",
        paper="003_8b45c9baf0227e58.txt L503-L523 (the paper's curves are images; its stated numbers: +20 % in 6(c), +100 % in 6(f), L507)",
        changes=(f"iterations {ITERATIONS['quick' if args.quick else 'full']} per model (paper: LR 15,000, SVM 10,000, CNN 25,000), "
                 "MNIST-5k (4000 train) not 60,000, "
                 + ("MLP stands in for the CNN, the MLP panel runs AUDP at clip 3 only (no tuning grid: CPU budget), "
                    if any(m == "mlp" for _, m in panels) else "no CNN panel (the paper's CNN is not available; its MLP "
                    "stand-in, about 1,350 CPU s, is left out of the default run), ")
                 + "digits 8x8 for USPS; L = 10, sigma = 30, R = 1 "
                 f"(unstated by the paper; LR/MNIST-5k rerun with each moved: {list(CONSTANTS)}); Welch one-sided at 0.05 over seeds "
                 f"{list(seeds)}; whole-run pure eps of a K-norm arm = releases per edge x eps (its pure_epsilon_run column); paper-literal arms are NOT DP"),
        stated="accuracy increases with eps; MAPA beats AUDP at every eps, most at small eps; MAPA approaches ASGD (L505-L509)",
        ours=" || ".join(ours), epsilon=epsilon_caption(records), quick=args.quick)
    common.write_outputs(args.out, NAME, all_rows, cap, fig, config={"arms": spec_all, "seeds": list(seeds), "delta_run": DELTA_RUN},
                         data=common.data_record(*{d for d, _ in panels}))


if __name__ == "__main__":
    import sys
    main(sys.argv[1:])
