r"""Seed 004's figure claims: our Table 2 and Fig. 6 analogues (``make table-004-2``, ``make fig-004-6``, real
MNIST-5k, settings in :mod:`theory.dp_fed_ls.runs`), decided from the CSVs the full runs wrote. Table 2 at the
paper's setting needs MNIST's 50K training images (not-reproduced, naming them); our MNIST-5k variant is a claim of
its own (``004.table-2.reproduction.ours-mnist-5k``).

The CSV is the full-setting run committed in ``figures/out/table_004_2.csv`` (10 seeds per arm, Welch's t-test
of each sigma > 0 against sigma = 0 at the same eps and sampling). A (sampling, eps) setting counts as "LS
beats DP-Fed" when some sigma > 0 has a higher mean with Welch p < 0.05.
"""
from __future__ import annotations

from theory.figure_evidence import load
from theory.ledger import Missing, Verdict, claim

ALPHA = 0.05


def settings_won(rows):
    """{(sampling, eps): (LS significantly better?, best gain in accuracy points)} over the feasible settings."""
    out = {}
    for r in rows:
        if r["feasible"] != "True":
            continue
        key = (r["sampling"], float(r["eps"]))
        base = next(float(b["mean_accuracy"]) for b in rows
                    if (b["sampling"], float(b["eps"]), float(b["sigma"])) == (key[0], key[1], 0.0))
        if float(r["sigma"]) == 0.0:
            out.setdefault(key, (False, float("-inf")))
            continue
        gain = 100 * (float(r["mean_accuracy"]) - base)
        won = gain > 0 and float(r["welch_p_vs_sigma0"]) < ALPHA
        prev = out.get(key, (False, float("-inf")))
        out[key] = (prev[0] or won, max(prev[1], gain))
    return out


def local_steps_per_run(clients: int, tau: float, rounds: int, local_epochs: int, per_client: int, batch: int) -> int:
    """Local SGD steps of one training run of Algorithm 1: tau N clients a round, E epochs of ceil(n_i/b) batches."""
    return round(tau * clients) * rounds * local_epochs * -(-per_client // batch)


def _compute_at_paper_scale() -> dict:
    """Local steps per run at the paper's Table 2 setting (L310) against ours (theory.dp_fed_ls.runs): the paper's
    runs are a few times ours, so compute is not what keeps us from its setting (computed from the printed values)."""
    from repro import data as D
    from theory.dp_fed_ls import runs
    from theory.dp_fed_ls.paper_values import DATA, SETTINGS

    tr = SETTINGS["mnist-training"]
    paper = {m: local_steps_per_run(int(DATA[f"mnist_clients_{m}"].value), SETTINGS[f"mnist-{m}"]["tau"].value,
                                    int(SETTINGS[f"mnist-{m}"]["rounds"].value), int(tr["local_epochs"].value),
                                    int(DATA[f"mnist_per_client_{m}"].value), int(tr["batch"].value))
             for m in ("uniform", "poisson")}
    n_train = len(D.load("mnist-5k", seed=0).y_train)
    ours = local_steps_per_run(runs.CLIENTS, SETTINGS["mnist-uniform"]["tau"].value,
                               int(SETTINGS["mnist-uniform"]["rounds"].value), runs.LOCAL_EPOCHS,
                               n_train // runs.CLIENTS, runs.BATCH)
    return {"paper_local_steps_per_run": paper, "our_local_steps_per_run": ours,
            "ratio": max(paper.values()) / ours, "our_training_images": n_train,
            "paper_training_images": int(DATA["mnist_split"].value) * 1000}


def _won_counts(rows) -> dict:
    """Settings where some sigma > 0 is significantly above sigma = 0, and where every sigma > 0 is below it with
    Welch p < ALPHA (a significant loss of LS in that setting)."""
    won = settings_won(rows)
    lost = []
    for key in won:
        cells = [r for r in rows if r["feasible"] == "True" and (r["sampling"], float(r["eps"])) == key]
        base = next(float(r["mean_accuracy"]) for r in cells if float(r["sigma"]) == 0.0)
        ls = [r for r in cells if float(r["sigma"]) > 0]
        if ls and all(float(r["mean_accuracy"]) < base and float(r["welch_p_vs_sigma0"]) < ALPHA for r in ls):
            lost.append(key)
    return {"won": won, "lost": lost}


def _ours_table2():
    """(verdict on our MNIST-5k variant, evidence): holds when LS wins at least 3/4 of the settings, else open (the
    settings where LS is significantly worse are counted in the reason)."""
    rows, rec, source = load("table_004_2")
    c = _won_counts(rows)
    won = c["won"]
    n_won = sum(w for w, _ in won.values())
    gains_by = {m: [g for (mm, _), (_, g) in sorted(won.items()) if mm == m] for m in ("uniform", "poisson")}
    ev = {"points": len(rows), "source": source, "settings_won": n_won, "settings": len(won),
          "settings_lost_significantly": [f"{k[0]} eps={k[1]:g}" for k in c["lost"]],
          "best_gain_points": {f"{k[0]} eps={k[1]:g}": round(g, 2) for k, (_, g) in won.items()},
          "gain_decreases_with_eps": {m: all(a > b for a, b in zip(g, g[1:])) for m, g in gains_by.items()},
          "margin_unit": "fraction of settings won minus 3/4"}
    margin = n_won / len(won) - 0.75
    if n_won >= 0.75 * len(won):
        return Verdict("holds", "sampled", margin, evidence=ev), ev
    return Verdict("open", "sampled", margin, evidence=ev, reason=(
        f"LS is significantly better (Welch p < {ALPHA}) in {n_won} of {len(won)} settings and significantly worse "
        f"in {len(c['lost'])} at our scale ({ev['points']} arms of {'/'.join(sorted({r['seeds'] for r in rows}))} "
        "seeds each)")), ev


@claim(id="004.table-2.reproduction", seed="004", lines="L310-L320",
       statement="At the paper's setting (MNIST: 50K training images in 1000 IID clients of 50 / 500 of 100, b = 10, E = 5, T = 30, tau = 0.05), DP-Fed-LS's test accuracy exceeds DP-Fed's in almost all (sampling, eps) settings of Table 2.",
       recorded="not-reproduced", result="Table 2", role="figure")
def table2_reproduction() -> Verdict:
    """The paper's setting needs MNIST's 50K training images (L310); only the 5,000-image MNIST-5k ships offline.
    Compute is not the obstacle (:func:`_compute_at_paper_scale`, in the evidence); our variant is the claim
    ``.ours-mnist-5k``."""
    ours, ev = _ours_table2()
    scale = _compute_at_paper_scale()
    return Verdict("not-reproduced", "sampled", None,
                   evidence={"points": ev["points"], "compute": scale, "status_on_our_setting": ours.status},
                   reason=(f"the paper's 50K-image MNIST training split (L310) is not available offline, and MNIST-5k "
                           f"({scale['our_training_images']} training images) cannot form 1000 clients of 50; compute "
                           f"is not the obstacle: a paper-scale run is {scale['paper_local_steps_per_run']['uniform']} "
                           f"local steps of logistic regression, {scale['ratio']:.3g} x ours. Our variant on MNIST-5k "
                           f"gives '{ours.status}' (004.table-2.reproduction.ours-mnist-5k)"),
                   missing=Missing("data set", "MNIST's 50K training images split into 1000 clients of 50 (L310); "
                                               "only the 5,000-image MNIST-5k ships offline"))


@claim(id="004.table-2.reproduction.ours-mnist-5k", seed="004", lines="L310-L320",
       statement="Ours (make table-004-2: real MNIST-5k, 800 IID clients of 5, b = 5, T = 30, 10 seeds): DP-Fed-LS beats DP-Fed (some sigma > 0 significantly above sigma = 0) in almost all (at least 3/4 of the) (sampling, eps) settings.",
       recorded="open", result="Table 2", role="figure")
def table2_ours() -> Verdict:
    return _ours_table2()[0]


@claim(id="004.fig-6.membership-inference", seed="004", lines="L386-L398",
       statement="Fig. 6: the non-DP model leaks membership (loss-threshold AUC well above 0.5), DP lowers the AUC, and DP-Fed-LS may lower it further.",
       recorded="not-reproduced", result="Fig 6", role="figure")
def fig6_membership() -> Verdict:
    rows, rec, source = load("fig_004_6")
    by: dict = {}
    for r in rows:
        by.setdefault(r["arm"], []).append(float(r["auc"]))
    means = {a: sum(v) / len(v) for a, v in by.items()}
    return Verdict("not-reproduced", "sampled", None,
                   evidence={"points": len(rows), "mean_auc": means, "source": source},
                   reason="the paper attacks its SVHN CNN (L386-L398): SVHN is not available offline and the suite "
                          "trains no CNN. Our stand-in (a linear model on MNIST-5k) barely overfits: even its non-DP AUC "
                          f"is {means.get('non-DP', float('nan')):.3f}, so there is no leakage for DP to remove and it "
                          "decides nothing",
                   missing=Missing("data set", "SVHN (Fig. 6 attacks the paper's SVHN CNN, L386-L398); not available "
                                               "offline, and the suite trains no CNN"))
