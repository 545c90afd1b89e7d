r"""The real privacy of seed 002's experiments (Tables 3-8, 002_13c470b90c68bab6.txt L1404-1572).

For every configuration the paper trains -- data set size $N$, $K$ gradient computations, constant batch
size $s$, noise $\sigma$ -- the schedule actually run is $T=\lceil K/s\rceil$ rounds (L134: $K=\sum s_i$),
each a subsampled Gaussian step. The paper's algorithm samples a fixed-size batch "uniformly" (L80) while
its analysis treats the Poisson-subsampled Gaussian with rate $q=s/N$ under add/remove adjacency
(footnote 14, L578); we certify that analysed mechanism with ``numerics.pld`` (two-sided bounds) and
compare it with the $\epsilon$ label the paper attaches to the configuration.

Glossary: ``n`` = $N$ ($N_c$ in Tables 3-5), ``k_total`` = $K$, ``s`` = $s$, ``rounds`` = $T$.
"""
from __future__ import annotations

import math

from numerics.sweep import sweep
from theory.ledger import HypothesisFails, Reading, Verdict, agrees_with_printed, claim, printed_tolerance
from theory.proactive_dp.calculators import epsilon_d4, sigma_eq6
from theory.printed import texts
from theory.proactive_dp import paper_values
from theory.proactive_dp.trained_privacy import configuration_epsilon

#: the paper's tables as printed strings (each Printed value's seed line is checked in paper_values)
BUDGET_TABLES, EXPERIMENT_SETTINGS = texts(paper_values.BUDGET_TABLES), texts(paper_values.EXPERIMENT_SETTINGS)


def configurations(table: str) -> list:
    """The trained configurations of ``table`` ("table-3" ... "table-8") with their epsilon labels."""
    if table in EXPERIMENT_SETTINGS:
        spec = EXPERIMENT_SETTINGS[table]
        return [{"n": spec["n"], "k_total": spec["k_total"], "s": s, "sigma": spec["sigma"], "delta": spec["delta"],
                 "label": spec["epsilon"], "line": spec["lines"]} for s in spec["s"]]
    spec = BUDGET_TABLES[int(table.split("-")[1])]
    return [{"n": spec["n"], "k_total": spec["k_total"], "s": s, "sigma": sigma, "delta": spec["delta"],
             "label": label, "line": line} for label, sigma, s, line in spec["rows"]]


def real_privacy(table: str, **sweep_kw) -> list:
    """Every configuration of ``table`` with its certified epsilon (through the sweep runner)."""
    confs = configurations(table)
    pts = [{"n": c["n"], "k_total": c["k_total"], "s": c["s"], "sigma": float(c["sigma"]), "delta": float(c["delta"])}
           for c in confs]
    res = sweep(configuration_epsilon, pts, desc=f"002 {table} real privacy", **sweep_kw)
    return [{**c, **r} for c, r in zip(confs, res)]


def _label_claim(table: str) -> Verdict:
    rows = real_privacy(table)
    worst = min(rows, key=lambda r: float(r["label"]) - r["epsilon_upper"])
    margin = float(worst["label"]) - worst["epsilon_upper"]
    ev = {"rows": rows, "accountant": "numerics.pld.epsilon_pld, Poisson q = s/N, add/remove, T = ceil(K/s)",
          "max_ratio_upper_over_label": max(r["epsilon_upper"] / float(r["label"]) for r in rows)}
    if margin >= 0:
        return Verdict("holds", "numeric", margin=margin, evidence=ev)
    broken = min(rows, key=lambda r: float(r["label"]) - r["epsilon_lower"])
    if float(broken["label"]) < broken["epsilon_lower"]:
        return Verdict("refuted", "numeric", margin=margin, evidence=ev, counterexample=broken)
    return Verdict("open", "numeric", margin=margin, evidence=ev,
                   reason="the label lies inside the certified bracket of some configuration")


_STATEMENT = ("Every configuration trained with the parameters of Table {t} satisfies the (epsilon, delta) label the "
              "paper gives it.")


@claim(id="002.experiments.table-3", seed="002", lines="L1404-1417", statement=_STATEMENT.format(t=3),
       recorded="holds", result="Table 3", role="printed-value")
def check_table_3() -> Verdict:
    return _label_claim("table-3")


@claim(id="002.experiments.table-4", seed="002", lines="L1441-1454", statement=_STATEMENT.format(t=4),
       recorded="holds", result="Table 4", role="printed-value")
def check_table_4() -> Verdict:
    return _label_claim("table-4")


@claim(id="002.experiments.table-5", seed="002", lines="L1465-1478", statement=_STATEMENT.format(t=5),
       recorded="holds", result="Table 5", role="printed-value")
def check_table_5() -> Verdict:
    return _label_claim("table-5")


@claim(id="002.experiments.table-6", seed="002", lines="L1516-1524", statement=_STATEMENT.format(t=6),
       recorded="holds", result="Table 6", role="printed-value")
def check_table_6() -> Verdict:
    return _label_claim("table-6")


@claim(id="002.experiments.table-7", seed="002", lines="L1548-1557", statement=_STATEMENT.format(t=7),
       recorded="holds", result="Table 7", role="printed-value")
def check_table_7() -> Verdict:
    return _label_claim("table-7")


@claim(id="002.experiments.table-8", seed="002", lines="L1563-1572", statement=_STATEMENT.format(t=8),
       recorded="holds", result="Table 8", role="printed-value")
def check_table_8() -> Verdict:
    return _label_claim("table-8")


def _all_rows() -> list:
    """(table, line, epsilon label, sigma printed, delta) for every (epsilon, sigma) pair printed in Tables 3-8."""
    rows = [(t, spec["lines"], spec["epsilon"], spec["sigma"], spec["delta"]) for t, spec in EXPERIMENT_SETTINGS.items()]
    for t, spec in BUDGET_TABLES.items():
        rows += [(f"table-{t}", line, label, sigma, spec["delta"]) for label, sigma, _s, line in spec["rows"]]
    return rows


def recheck_sigma_35(cx: dict) -> float:
    """(sigma - sqrt(2(eps + ln(1/delta))/eps))/that, in plain floats, for a pair printed in Tables 3-8."""
    pairs = {(str(r[2]), str(r[3])) for r in _all_rows()}
    if (str(cx["epsilon"]), str(cx["sigma"])) not in pairs:
        raise HypothesisFails(f"({cx['epsilon']}, {cx['sigma']}) is not a printed pair of Tables 3-8")
    eps, delta = float(cx["epsilon"]), float(cx["delta"])
    need = math.sqrt(2 * (eps + math.log(1 / delta)) / eps)
    return (float(cx["sigma"]) - need) / need


@claim(id="002.experiments.sigma-meets-35", seed="002", lines="L1404-1572, L854", recheck=recheck_sigma_35,
       statement="Every (epsilon, sigma) pair the experiments use satisfies (35), sigma >= sqrt(2(eps + ln(1/delta))/eps), "
                 "as the text says they follow Theorem B.4.",
       recorded="refuted", result="Tables 3-8", role="printed-value", cause="002-tables-sigma-ln-only")
def check_sigma_35() -> Verdict:

    rows = []
    for t, line, label, sigma, delta in _all_rows():
        need = sigma_eq6(float(label), float(delta))
        implied = 2 * math.log(1 / float(delta)) / float(sigma) ** 2
        rows.append({"table": t, "line": line, "epsilon": label, "sigma": sigma, "delta": delta,
                     "sigma_needed_35": need, "meets_35": float(sigma) >= need,
                     "epsilon_2ln_over_sigma2": implied})
    bad = [r for r in rows if not r["meets_35"]]
    ev = {"rows": rows, "violations": len(bad), "checked": len(rows),
          "pattern": "the printed pairs follow epsilon = 2 ln(1/delta)/sigma^2, i.e. (35) without its epsilon term"}
    if not bad:
        return Verdict("holds", "numeric", margin=min((float(r["sigma"]) - r["sigma_needed_35"]) / r["sigma_needed_35"] for r in rows),
                       evidence=ev)
    worst = min(bad, key=lambda r: (float(r["sigma"]) - r["sigma_needed_35"]) / r["sigma_needed_35"])
    ev["margin_unit"] = "relative: (sigma - sigma_needed_35)/sigma_needed_35 of the worst pair"
    follow = [r for r in rows if abs(r["epsilon_2ln_over_sigma2"] - float(r["epsilon"])) <= 0.01 * float(r["epsilon"])]
    why = (f"{len(bad)} of {len(rows)} printed (eps, sigma) pairs of Tables 3-8 have sigma below (35)'s "
           f"sqrt(2(eps + ln(1/delta))/eps), i.e. less noise than Theorem B.4 needs for the row's eps; worst "
           f"{worst['table']} {worst['line']}: sigma = {worst['sigma']} against {worst['sigma_needed_35']:.4f} needed for "
           f"eps = {worst['epsilon']}. {len(follow)} of {len(rows)} pairs satisfy eps = 2 ln(1/delta)/sigma^2 to 1%: the tables "
           f"were computed with (35) without its eps term. The trained configurations still meet their labels by the "
           f"certified accountant (002.experiments.table-*): the labels are not backed by the paper's theorem, not broken.")
    return Verdict("refuted", "numeric", margin=(float(worst["sigma"]) - worst["sigma_needed_35"]) / worst["sigma_needed_35"], evidence=ev,
                   counterexample=worst, why=why)


def _decimals(printed: str) -> int:
    return len(printed.split(".")[1]) if "." in printed else 0


def label_rows(table: int) -> list:
    r"""One row per label of Table ``table``: the epsilon its printed sigma gives by each rule, and whether it
    rounds to the label (the label's own printed precision: "0.25" stands for [0.245, 0.255]).

    Rules: :math:`\epsilon(\sigma)=2\ln(1/\delta)/\sigma^2` (the rule the pairs of Tables 3-8 follow) and the
    paper's own inverse of (6)/(35), :math:`2\ln(1/\delta)/(\sigma^2-2)` (D.4 step 1, L1580).
    """
    spec = BUDGET_TABLES[table]
    rows = []
    for label, sigma, s, line in spec["rows"]:
        sig, delta, lab = float(sigma), float(spec["delta"]), float(label)
        eps_ln = 2 * math.log(1 / delta) / sig ** 2
        eps_35 = epsilon_d4(sig, delta)
        rows.append({"line": line, "label": label, "sigma": sigma, "s": s, "epsilon_from_sigma": eps_ln,
                     "epsilon_from_sigma_eq35": eps_35, "label_tolerance": printed_tolerance(label),
                     "rounds_to_label_ln_only": agrees_with_printed(eps_ln, label),
                     "rounds_to_label_eq35": agrees_with_printed(eps_35, label),
                     "relative_gap_ln_only": (eps_ln - lab) / lab, "budget_met_ln_only": eps_ln <= lab,
                     "agrees": bool(agrees_with_printed(eps_ln, label) or agrees_with_printed(eps_35, label))})
    return rows


def _labels_claim(table: int) -> Verdict:
    r"""Label check at the precision the label is printed with (a label "0.2" agrees with any epsilon that rounds
    to 0.2). The margin is relative: the smallest (half-unit of the label - |epsilon - label|) / label."""
    spec = BUDGET_TABLES[table]
    rows = label_rows(table)
    bad = [r for r in rows if not r["agrees"]]
    ev = {"rows": rows, "rule": "epsilon(sigma) = 2 ln(1/delta)/sigma^2 or 2 ln(1/delta)/(sigma^2 - 2), rounded to the "
                                "label's printed digits", "rows_agreeing": len(rows) - len(bad),
          "rows_budget_exceeded_ln_only": sum(not r["budget_met_ln_only"] for r in rows),
          "margin_unit": "relative to the label: min over rows of the better rule's (half-unit of the label - "
                         "|eps(sigma) - label|)/label"}
    margin = min(max(r["label_tolerance"] - abs(r[key] - float(r["label"])) for key in ("epsilon_from_sigma", "epsilon_from_sigma_eq35"))
                 / float(r["label"]) for r in rows)
    if not bad:
        return Verdict("holds", "numeric", margin=margin, evidence=ev)
    b = max(bad, key=lambda r: abs(r["epsilon_from_sigma"] - float(r["label"])) / float(r["label"]))
    why = (f"{len(rows) - len(bad)} of {len(rows)} labels are the eps of their sigma to the printed digit; {b['line']}: "
           f"sigma = {b['sigma']} gives eps = {b['epsilon_from_sigma']:.4g} (2 ln(1/delta)/sigma^2) or "
           f"{b['epsilon_from_sigma_eq35']:.4g} (inverse of (35)), printed {b['label']}. The label overstates the row's eps "
           f"(as a privacy claim it is conservative: the row is more private than labelled); what is wrong is the "
           f"privacy-utility pairing, the accuracy reported for eps = {b['label']} being that of a smaller eps.")
    return Verdict("refuted", "numeric", margin=margin, evidence=ev, why=why,
                   counterexample={"cell": f"label at {b['line']}", "printed": b["label"], "ours": b["epsilon_from_sigma"],
                                   "ours_eq35": b["epsilon_from_sigma_eq35"], "sigma": b["sigma"], "delta": spec["delta"]})


_LABEL_STATEMENT = ("Each epsilon label of Table {t} is, to the digits it is printed with, the epsilon of its sigma "
                    "(2 ln(1/delta)/sigma^2, or the inverse of (35)).")


def recheck_budget(cx: dict) -> float:
    """(label - 2 ln(1/delta)/sigma^2)/label at the row."""
    label = float(cx["label"])
    return (label - 2 * math.log(1 / float(cx["delta"])) / float(cx["sigma"]) ** 2) / label


@claim(id="002.table-6.budget-L1520", seed="002", lines="L1520", recheck=recheck_budget,
       statement="Table 6's row (0.1, 1e-4) with sigma = 13.06742 meets the budget epsilon <= 0.1 under the rule the "
                 "other rows follow (epsilon = 2 ln(1/delta)/sigma^2).",
       recorded="refuted", result="Table 6", role="printed-value")
def check_budget_l1520() -> Verdict:
    row = next(r for r in label_rows(6) if r["line"] == "L1520")
    ev = {"row": row, "margin_unit": "relative: (label - epsilon(sigma))/label",
          "note": "the label rounds to 0.1 at its printed digit, but as a budget it is exceeded (see why)"}
    margin = (float(row["label"]) - row["epsilon_from_sigma"]) / float(row["label"])
    if row["budget_met_ln_only"]:
        return Verdict("holds", "numeric", margin, ev)
    sigma_for_label = math.sqrt(2 * math.log(1 / float(BUDGET_TABLES[6]["delta"])) / float(row["label"]))
    why = (f"sigma = {row['sigma']} gives eps = 2 ln(1/delta)/sigma^2 = {row['epsilon_from_sigma']:.4f} (and "
           f"{row['epsilon_from_sigma_eq35']:.4f} by (35)), {100 * -margin:.1f}% over the budget 0.1 it is labelled with; the "
           f"rule the other rows follow gives sigma = {sigma_for_label:.4f} for eps = 0.1. The label rounds to 0.1, but as a "
           f"budget it is exceeded under either formula; the certified eps of the trained run is lower "
           f"(002.experiments.table-6 holds).")
    lab = float(row["label"])
    m35 = (lab - row["epsilon_from_sigma_eq35"]) / lab
    readings = (Reading("eps(sigma) = 2 ln(1/delta)/sigma^2, the rule the other rows follow", "L1516-1524", "refuted", margin,
                        f"eps = {row['epsilon_from_sigma']:.4f} > {row['label']}"),
                Reading("eps(sigma) = 2 ln(1/delta)/(sigma^2 - 2), the inverse of (35) (D.4 step 1)", "L854, L1580",
                        "refuted" if m35 < 0 else "holds", m35, f"eps = {row['epsilon_from_sigma_eq35']:.4f} vs {row['label']}"))
    return Verdict("refuted", "numeric", margin, ev, why=why, readings=readings,
                   counterexample={"sigma": row["sigma"], "delta": BUDGET_TABLES[6]["delta"], "label": row["label"],
                                   "epsilon_ln_only": row["epsilon_from_sigma"]})


@claim(id="002.table-6.epsilon-labels", seed="002", lines="L1516-1524", statement=_LABEL_STATEMENT.format(t=6),
       recorded="holds", result="Table 6", role="printed-value", version="2")
def check_labels_6() -> Verdict:
    return _labels_claim(6)


@claim(id="002.table-7.epsilon-labels", seed="002", lines="L1548-1557", statement=_LABEL_STATEMENT.format(t=7),
       recorded="holds", result="Table 7", role="printed-value", version="2")
def check_labels_7() -> Verdict:
    return _labels_claim(7)


def recheck_label(cx: dict) -> float:
    """The better of the two rules: max over eps(sigma) in {2L/sigma^2, 2L/(sigma^2 - 2)} of
    (half-unit of the label - |eps - label|)/label; negative when neither rounds to the label."""
    sigma, delta, label = float(cx["sigma"]), float(cx["delta"]), str(cx["printed"])
    big_l = math.log(1 / delta)
    return max((printed_tolerance(label) - abs(e - float(label))) / float(label)
               for e in (2 * big_l / sigma ** 2, 2 * big_l / (sigma ** 2 - 2)))


@claim(id="002.table-8.epsilon-labels", seed="002", lines="L1563-1572", statement=_LABEL_STATEMENT.format(t=8), recheck=recheck_label,
       recorded="refuted", result="Table 8", role="printed-value", version="2")
def check_labels_8() -> Verdict:
    return _labels_claim(8)
