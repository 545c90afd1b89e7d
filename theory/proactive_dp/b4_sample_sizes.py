r"""Seed 002's sample sizes against Theorem B.4's own constraints (002_13c470b90c68bab6.txt, issue 31).

The running text calls 26, 370 and 689 "the upper bound for constant sample sizes ... see Theorem B.4" (L1428,
L1430, L1490; footnote 12 at L282: "a larger s violates this lower bound"), and says the simulations use
parameters that satisfy (32)-(34) of Theorem B.4 (L128; Table 6 "based on Theorem B.4", L1494). Both are
checked here against (32)-(34) with $\gamma$ the smallest solution of (55) (L1012-1018), $\theta=1$ (constant
$s$, $\bar s=s$), $k=K/N$. For a constant $s$ the round condition (34) reads $s\le\epsilon N/(\gamma k)$ and
(32) reads $s\le g(\sigma_{35})N$; (33) does not involve $s$.

Glossary: ``n`` = $N$, ``k_total`` = $K$, ``k`` = $k=K/N$, ``s`` = constant sample size.
"""
from __future__ import annotations

import math

from theory.ledger import HypothesisFails, Reading, Verdict, claim
from theory.printed import texts
from theory.proactive_dp import paper_values
from theory.proactive_dp.calculators import calculator_d4, calculator_e1, epsilon_d4, sigma_eq6
from theory.proactive_dp.gamma import g, gamma_min, h
from theory.proactive_dp.theorems import thm_b4_hypotheses

EXPERIMENT_SETTINGS = texts(paper_values.EXPERIMENT_SETTINGS)
BUDGET_TABLES = texts(paper_values.BUDGET_TABLES)
CALCULATOR_TABLES = texts(paper_values.CALCULATOR_TABLES)
S_TEXT = texts(paper_values.S_UPPER_BOUND_TEXT)

#: the Tables 9-11 whose caption inputs (sigma, N, k) are the setting of Tables 3-5 (claim 002.tables-10-11.caption-reference)
_D4_TABLE = {"table-3": 9, "table-4": 10, "table-5": 11}
_B4_KEYS = ("(32) s-bar <= g(sigma35) N/theta", "(33) eps <= gamma h(sigma) k", "(34) eps >= gamma theta^2 k s-bar/N")


def b4_largest_s(*, n: int, k_total: int, sigma: float, epsilon: float) -> dict:
    """The largest constant s meeting (32)-(34) of Theorem B.4 at (N, K, sigma, eps), gamma the smallest solution of (55)."""
    k = k_total / n
    gam = gamma_min(epsilon / k, sigma)
    bound_34 = epsilon * n / (gam * k)
    bound_32 = g(sigma_eq6(epsilon, 1.0 / n)) * n
    return {"gamma": gam, "s_bound_34": bound_34, "s_bound_32": bound_32,
            "meets_33": epsilon <= gam * h(sigma) * k, "s_largest": math.floor(min(bound_34, bound_32))}


def b4_constraints(*, n: int, k_total: int, sigma: float, epsilon: float, s: float) -> dict:
    """(32)-(34) at a constant s (theta = 1, T = K/s), from theorems.thm_b4_hypotheses; (35) is left out."""
    hyp = thm_b4_hypotheses(n=n, epsilon=epsilon, delta=1.0 / n, k=k_total / n, theta=1.0, rounds=k_total / s,
                            sigma=sigma)
    return {key: hyp[key] for key in _B4_KEYS}


def text_rows() -> list:
    """Each setting the text names with its printed 'upper bound' s, Theorem B.4's largest s (two readings of eps) and
    what the paper's calculators give for the same (sigma, N, K)."""
    rows = []
    for setting, printed in (("table-3", S_TEXT["table-3"]), ("table-4", S_TEXT["table-4"]), ("table-5", S_TEXT["table-5"])):
        spec = EXPERIMENT_SETTINGS[setting]
        n, k_total, sigma = spec["n"], spec["k_total"], float(spec["sigma"])
        eps35 = epsilon_d4(sigma, 1.0 / n)  # (35) with equality at the printed sigma (D.4 step 1)
        at35 = b4_largest_s(n=n, k_total=k_total, sigma=sigma, epsilon=eps35)
        at_label = b4_largest_s(n=n, k_total=k_total, sigma=sigma, epsilon=float(spec["epsilon"]))
        d4 = calculator_d4(sigma=sigma, n=n, k=k_total / n)
        e1 = calculator_e1(k_j=k_total, n=n, epsilon_target=float(spec["epsilon"]), sigma_form="ln-only",
                           s_limit=2 * int(printed))
        rows.append({"setting": setting, "printed_s": int(printed), "line": {"table-3": "L1428", "table-4": "L1430",
                                                                               "table-5": "L1490"}[setting],
                     "n": n, "k_total": k_total, "sigma": spec["sigma"], "epsilon_label": spec["epsilon"],
                     "epsilon_35": eps35, "gamma_55": at35["gamma"], "b4_largest_s": at35["s_largest"],
                     "b4_s_bound_34": at35["s_bound_34"], "b4_meets_33": at35["meets_33"],
                     "b4_largest_s_label_eps": at_label["s_largest"], "b4_s_bound_34_label_eps": at_label["s_bound_34"],
                     "d4_gamma_kept": d4.gamma, "d4_s_max": d4.s_max,
                     "d4_table": _D4_TABLE[setting],
                     "d4_printed_s_max": CALCULATOR_TABLES[_D4_TABLE[setting]]["cells"]["s"][0],
                     "e1_signed_stop_s": e1.s if e1 else None, "e1_gamma_kept": e1.gamma if e1 else None})
    return rows


def recheck_s_upper(cx: dict) -> float:
    """(printed s - s)/s when a constant s above the printed 'upper bound' meets (32)-(35) of Theorem B.4, else +1."""
    spec = EXPERIMENT_SETTINGS[cx["setting"]]
    printed, s = int(S_TEXT[cx["setting"]]), int(cx["s"])
    if s <= printed:
        raise HypothesisFails(f"s = {s} is not larger than the printed {printed}")
    n, k_total, sigma = spec["n"], spec["k_total"], float(spec["sigma"])
    eps = epsilon_d4(sigma, 1.0 / n)
    hyp = thm_b4_hypotheses(n=n, epsilon=eps, delta=1.0 / n, k=k_total / n, theta=1.0, rounds=k_total / s, sigma=sigma)
    return (printed - s) / s if hyp["all"] else 1.0


@claim(id="002.text.s-upper-bound-B4", seed="002", lines="L282, L1428, L1430, L1490", recheck=recheck_s_upper,
       statement="The constant sample sizes the text gives as Theorem B.4's upper bound (s = 26 for N = 10000, eps ~ 0.05, "
                 "where 'a larger s violates' the bound on T; s = 370 for N = 60000, eps ~ 0.15; s <= 689 for N = 50000, "
                 "eps ~ 0.5) are the largest s meeting (32)-(35) with gamma the smallest solution of (55).",
       recorded="refuted", result="L1428", role="printed-value", cause="002-gamma-signed-stop")
def check_s_upper_bound() -> Verdict:
    rows = text_rows()
    for r in rows:
        r["margin"] = (r["printed_s"] - r["b4_largest_s"]) / r["b4_largest_s"]
        r["printed_meets_32_34"] = all(b4_constraints(n=r["n"], k_total=r["k_total"], sigma=float(r["sigma"]),
                                                      epsilon=r["epsilon_35"], s=r["printed_s"]).values())
    worst = min(rows, key=lambda r: r["margin"])
    ev = {"rows": rows, "margin_unit": "relative: (printed s - largest s of Theorem B.4)/(largest s of Theorem B.4), worst setting",
          "eps": "eps from (35) with equality at the printed sigma (D.4 step 1), where (35) holds; the label eps gives the "
                 "b4_*_label_eps columns (there (35) fails, claim 002.experiments.sigma-meets-35)",
          "domain": "the three settings the text names (Tables 3-5), theta = 1, delta = 1/N"}
    bad = [r for r in rows if r["printed_s"] != r["b4_largest_s"]]
    below = all(r["printed_meets_32_34"] for r in rows)
    readings_rest = (
        Reading("'meets the upper bound' read as 'satisfies it' (s <= the largest s of Theorem B.4)", "L1428, L1430",
                "holds" if below else "refuted", min((r["b4_largest_s"] - r["printed_s"]) / r["b4_largest_s"] for r in rows),
                "every printed s meets (32)-(34) at its setting" if below else "a printed s breaks (32)-(34)"),
        Reading("the bound is the paper's own D.4 s_max for the same (sigma, N, k) (Tables 9-11)", "L1601, L1609, L1617",
                "refuted" if any(abs(r["printed_s"] - r["d4_s_max"]) >= 1 for r in rows) else "holds",
                min((r["d4_s_max"] - r["printed_s"]) / r["d4_s_max"] for r in rows),
                "; ".join(f"{r['printed_s']} against D.4's {r['d4_s_max']:.1f} (printed {r['d4_printed_s_max']})" for r in rows)),
    )
    if not bad:
        return Verdict("holds", "numeric", margin=0.0, evidence=ev)
    w = worst
    why = (f"with gamma the smallest solution of (55), Theorem B.4's (32)-(35) allow every constant s up to "
           + ", ".join(f"{r['b4_largest_s']} (printed {r['printed_s']}, {r['line']})" for r in rows)
           + f"; e.g. at Table 3's setting (sigma = 19.29962, eps = {rows[0]['epsilon_35']:.5f} from (35), gamma = "
           f"{rows[0]['gamma_55']:.4f}) s = {rows[0]['printed_s'] + 1} meets (32)-(35), so footnote 12's 'a larger s violates "
           f"this lower bound' is false. The printed values are the calculators' outputs under the signed stopping rule "
           f"(cause of 002.calc-D4.stopping-rule): 26 is D.4's s_max (Table 9, gamma kept at RHS(55) at gamma = 2, "
           f"{rows[0]['d4_gamma_kept']:.4f}); 370 and 689 are E.1's stop ({rows[1]['e1_signed_stop_s']}, "
           f"{rows[2]['e1_signed_stop_s']} with the tables' sigma form) plus one. The two calculators also disagree with each "
           f"other: for the same (sigma, N, k) D.4 prints s_max = {rows[1]['d4_printed_s_max']} and "
           f"{rows[2]['d4_printed_s_max']} (Tables 10-11), below the text's 370 and 689. Worst gap {w['line']}: "
           f"{w['printed_s']} against {w['b4_largest_s']}. The error is on the safe side (the printed s meet the "
           f"constraints); the text understates how large s may be, and with it overstates the rounds needed.")
    return Verdict("refuted", "numeric", margin=worst["margin"], evidence=ev, why=why,
                   counterexample={"setting": "table-3", "s": rows[0]["printed_s"] + 1, "printed_s": rows[0]["printed_s"],
                                   "b4_largest_s": rows[0]["b4_largest_s"], "epsilon_35": rows[0]["epsilon_35"],
                                   "gamma_55": rows[0]["gamma_55"]},
                   readings=(Reading("the largest s Theorem B.4 allows (footnote 12: 'a larger s violates'; L1490: 'we can "
                                     "choose s <= 689')", "L282, L1490", "refuted", worst["margin"],
                                     f"B.4's largest s is {', '.join(str(r['b4_largest_s']) for r in rows)}"),) + readings_rest)


# --- (32)-(34) at every configuration of Tables 3-8 ---------------------------------------------------------

def experiment_rows() -> list:
    """(table, line, eps label, sigma, delta, N, K, s) for every trained configuration of Tables 3-8."""
    rows = []
    for t, spec in EXPERIMENT_SETTINGS.items():
        rows += [(t, spec["lines"], spec["epsilon"], spec["sigma"], spec["n"], spec["k_total"], s) for s in spec["s"]]
    for t, spec in BUDGET_TABLES.items():
        rows += [(f"table-{t}", line, label, sigma, spec["n"], spec["k_total"], s) for label, sigma, s, line in spec["rows"]]
    return rows


def recheck_b4_34(cx: dict) -> float:
    """(eps - gamma k s/N)/(gamma k s/N) for a printed configuration of Tables 3-8, gamma the smallest solution of (55)."""
    key = (cx["table"], str(cx["epsilon"]), str(cx["sigma"]), int(cx["s"]))
    if key not in {(r[0], str(r[2]), str(r[3]), int(r[6])) for r in experiment_rows()}:
        raise HypothesisFails(f"{key} is not a configuration printed in Tables 3-8")
    n, k_total = int(cx["n"]), int(cx["k_total"])
    eps, sigma, k = float(cx["epsilon"]), float(cx["sigma"]), k_total / n
    need = gamma_min(eps / k, sigma) * k * int(cx["s"]) / n
    return (eps - need) / need


@claim(id="002.experiments.B4-32-34", seed="002", lines="L128, L1494, L1404-1572", recheck=recheck_b4_34,
       statement="Every configuration the experiments train (Tables 3-8) satisfies (32), (33) and (34) of Theorem B.4 at "
                 "its epsilon label (theta = 1, gamma the smallest solution of (55)), as L128 and L1494 say.",
       recorded="refuted", result="Tables 3-8", role="printed-value")
def check_b4_32_34() -> Verdict:
    rows = []
    for t, line, label, sigma, n, k_total, s in experiment_rows():
        eps, k = float(label), k_total / n
        need34 = gamma_min(eps / k, float(sigma)) * k * s / n
        c = b4_constraints(n=n, k_total=k_total, sigma=float(sigma), epsilon=eps, s=s)
        eps35 = epsilon_d4(float(sigma), 1.0 / n)
        c35 = b4_constraints(n=n, k_total=k_total, sigma=float(sigma), epsilon=eps35, s=s)
        rows.append({"table": t, "line": line, "epsilon": label, "sigma": sigma, "s": s, "n": n, "k_total": k_total,
                     **{key.split(" ")[0]: val for key, val in c.items()}, "epsilon_needed_34": need34,
                     "margin_34": (eps - need34) / need34, "all_at_eps_35": all(c35.values()), "epsilon_35": eps35})
    bad = [r for r in rows if not (r["(32)"] and r["(33)"] and r["(34)"])]
    section4 = [r for r in rows if r["table"] in ("table-3", "table-4", "table-6", "table-7")]
    s4_bad = [r for r in section4 if not (r["(32)"] and r["(33)"] and r["(34)"])]
    ev = {"rows": rows, "violations": len(bad), "checked": len(rows),
          "margin_unit": "relative: (eps - eps needed by (34))/(eps needed by (34)), worst configuration",
          "domain": "every configuration printed in Tables 3-8 (Tables 3-5: every trained s), theta = 1, s-bar = s",
          "not_checked_here": "(35)/(62): claim 002.experiments.sigma-meets-35"}
    worst = min(rows, key=lambda r: r["margin_34"])
    if not bad:
        return Verdict("holds", "numeric", margin=worst["margin_34"], evidence=ev)
    b = min(bad, key=lambda r: r["margin_34"])
    at35_ok = all(r["all_at_eps_35"] for r in bad)
    at35_rows = ", ".join(f"{r['line']}: eps = {r['epsilon_35']:.4f}" for r in bad)
    readings = (
        Reading("every experiment of the paper (L1494: Table 6 'based on Theorem B.4'; Tables 7-8 are set the same way, "
                "L1512, and their s column is E.1's, the B.4 calculator, L1655)", "L1494, L1512, L1655", "refuted",
                b["margin_34"], f"{len(bad)} of {len(rows)} configurations break a constraint"),
        Reading("L128 literally: the simulations of Section 4 (LIBSVM and MNIST: Tables 3, 4, 6, 7)", "L128, L237",
                "refuted" if s4_bad else "holds", min(r["margin_34"] for r in section4),
                f"{len(s4_bad)} of {len(section4)} Section 4 configurations break a constraint"),
        Reading("eps the inverse of (35) at the printed sigma (D.4 step 1) instead of the label", "L1580",
                "holds" if at35_ok else "refuted", None,
                f"at that (larger) eps the failing rows meet (32)-(34) ({at35_rows}), "
                f"but then the row's guarantee is that eps, not its label"),
    )
    why = (f"{len(bad)} of {len(rows)} configurations break (32)-(34) at their label: {b['table']} {b['line']} (eps = "
           f"{b['epsilon']}, sigma = {b['sigma']}, s = {b['s']}, K/N = {b['k_total'] // b['n']}) needs eps >= gamma k s/N = "
           f"{b['epsilon_needed_34']:.4f} for (34), above its label. Every configuration of Section 4 (Tables 3, 4, 6, 7) "
           f"meets (32)-(34); the failing row is CIFAR10's Table 8, which L128 does not name but which is set like Table 6. "
           f"The row is still (3.0, 2e-5)-DP by the certified accountant (claim 002.experiments.table-8): the paper's theorem "
           f"does not certify it, nothing is leaked. Independent of the (35) failure of the same tables (claim "
           f"002.experiments.sigma-meets-35).")
    return Verdict("refuted", "numeric", margin=b["margin_34"], evidence=ev, why=why, readings=readings,
                   counterexample={k: b[k] for k in ("table", "line", "epsilon", "sigma", "s", "n", "k_total",
                                                     "epsilon_needed_34")})
