r"""Tables 2-6 (L314-379): the privacy columns re-accounted, and the arithmetic behind "LS beats DP-Fed".

Tables 3 and 6 print epsilon for noise multipliers z (L329, L369) from autodp (uniform, WBK) and
TF-privacy (Poisson, RDP) (L302 footnotes). We regenerate them (a) as the paper did: WBK Theorem 27 at
noise multiplier z (i.e. sensitivity = clip L; :mod:`theory.dp_fed_ls.wbk`, the paper's own accountant), and the
exact Poisson RDP on TF-privacy's order grid with the classic conversion; (b) certified, for what the algorithm
runs (:mod:`theory.dp_fed_ls.certified`, ``numerics.epsilon``): fixed-size sampling under replace-one at noise std
zL (the accountant shifts by 2L), Poisson under add/remove.
"""
from __future__ import annotations

import math

from numerics.rdp import log_a
from theory.dp_fed_ls import certified, wbk
from theory.dp_fed_ls.closed_form import delta_of
from theory.dp_fed_ls.paper_values import SETTINGS, TABLES
from theory.ledger import Verdict, agrees_with_printed, claim

#: TF-privacy's default order grid of the time (rdp_accountant examples)
TF_ORDERS = tuple([1 + x / 10.0 for x in range(1, 100)] + list(range(12, 64)))
#: integer orders for WBK (the optimum sits at small orders in every setting here)
WBK_ORDERS = tuple(range(2, 12))
TABLE_SETTING = {3: "svhn", 4: "svhn", 6: "shakespeare"}  # Table 4 repeats the SVHN setting (L350)


def setting(table: int) -> dict:
    st = SETTINGS[TABLE_SETTING[table]]
    n = int(st["clients"].value)
    return {"n": n, "tau": st["tau"].value, "rounds": int(st["rounds"].value), "delta": delta_of(n),
            "z": [p.value for p in st["noise_multipliers"]]}


def poisson_epsilon_tf(tau, z, rounds, delta) -> float:
    """Exact Poisson RDP on TF-privacy's order grid, eps = rdp + log(1/delta)/(alpha-1) (the paper's accountant).

    eps(alpha) is unimodal along the grid here, so a hill climb from the best integer order finds the grid
    minimum with a handful of (slow) fractional-order evaluations."""
    cache: dict = {}

    def eps(a):
        if a not in cache:
            cache[a] = rounds * float(log_a(tau, z, a, dps=15)) / (a - 1) + math.log(1 / delta) / (a - 1)
        return cache[a]

    grid = sorted(TF_ORDERS)
    i = grid.index(float(min(range(2, 24), key=eps)))
    for step in (-1, 1):
        while 0 <= i + step < len(grid) and eps(grid[i + step]) < eps(grid[i]):
            i += step
    return eps(grid[i])


def uniform_epsilon_paper(tau, z, rounds, delta) -> float:
    """WBK (Theorem 27) at noise multiplier z: what autodp returns when z is taken relative to the clip L."""
    return wbk.epsilon_upper(tau, z, rounds, delta, orders=WBK_ORDERS, variant="theorem-27")[0]


def _printed_eps(table: int):
    row = TABLES[table]["epsilon"]
    return row[:4], row[4:]


def _as_printed_claim(table: int) -> Verdict:
    st = setting(table)
    uni_p, poi_p = _printed_eps(table)
    rows, worst, mismatches = [], math.inf, []
    for z, pu, pp in zip(st["z"], uni_p, poi_p):
        eu = uniform_epsilon_paper(st["tau"], z, st["rounds"], st["delta"])
        ep = poisson_epsilon_tf(st["tau"], z, st["rounds"], st["delta"])
        for name, ours, printed in (("uniform", eu, pu), ("poisson", ep, pp)):
            ok = agrees_with_printed(ours, printed.text)
            if not ok:
                mismatches.append({"z": z, "column": name, "ours": ours, "printed": printed.text})
            worst = min(worst, -abs(ours - printed.value) / printed.value if not ok else 0.0)
        rows.append({"z": z, "uniform_wbk_at_z": eu, "poisson_tf_rdp": ep, "printed": [pu.text, pp.text]})
    status = "holds" if not mismatches else "holds-with-correction"
    return Verdict(status, "numeric", worst, evidence={"setting": st, "rows": rows, "mismatches": mismatches,
                   "reading": "uniform: WBK Theorem 27 with noise multiplier z relative to sensitivity L (not 2L)"},
                   reason="" if not mismatches else "printed cells that do not round from the accountant: "
                   + "; ".join(f"{m['column']} z={m['z']}: {m['ours']:.4f} vs {m['printed']}" for m in mismatches))


@claim(id="004.table-3.epsilon-as-printed", seed="004", lines="L302, L329, L331-L333",
       statement="Table 3's epsilons (SVHN: N = 2000, tau = 0.05, T = 200, z = 1.5, 1.3, 1.1, 1.0) are what the paper's accountants give: autodp/WBK for uniform, TF-privacy RDP for Poisson.",
       recorded="holds")
def table3_as_printed() -> Verdict:
    return _as_printed_claim(3)


@claim(id="004.table-6.epsilon-as-printed", seed="004", lines="L302, L369, L373-L375",
       statement="Table 6's epsilons (Shakespeare: N = 975, tau = 0.2, T = 100, z = 1.6, 1.4, 1.2, 1.0) are what the paper's accountants give.",
       recorded="holds-with-correction")
def table6_as_printed() -> Verdict:
    return _as_printed_claim(6)


#: the realizable pair behind each sampling's certified lower bound (theory.dp_fed_ls.certified)
REALIZABLE_PAIR = {"fixed-size": "replace-one: the other clients' clipped updates are -L e_1, the replaced client's "
                                 "+L e_1 becomes -L e_1",
                   "poisson": "add/remove: one client whose clipped update is L e_1, all others 0"}


def certified_rows(table: int, sampling: str, printed) -> list:
    """Per noise multiplier z of ``table``: the printed epsilon and our certified bracket (noise std zL)."""
    st = setting(table)
    return [{"z": z, "printed": p.text,
             **certified.epsilon_bounds(sampling, st["n"], st["tau"], z, st["rounds"], st["delta"])}
            for z, p in zip(st["z"], printed)]


def bracket_verdict(rows: list, **evidence) -> Verdict:
    """Printed epsilons against certified brackets: one below its LOWER bound refutes the printed guarantee (the
    realizable pair's epsilon is the counterexample); all at or above their UPPER bound hold (conservatively);
    otherwise open. Margin: relative gap of the worst cell to the side that decides."""
    gap_low = [(float(r["printed"]) - r["lower"]) / float(r["printed"]) for r in rows]
    gap_up = [(float(r["printed"]) - r["upper"]) / float(r["printed"]) for r in rows]
    ev = {"rows": rows, **evidence}
    if min(gap_low) < 0:
        worst = rows[gap_low.index(min(gap_low))]
        below = [r["z"] for r, g in zip(rows, gap_low) if g < 0]
        return Verdict("refuted", "numeric", min(gap_low), evidence={**ev, "printed_below_certified_lower_at_z": below},
                       counterexample={"z": worst["z"], "printed": worst["printed"],
                                       "realizable_pair_epsilon": worst["lower"],
                                       "pair": REALIZABLE_PAIR[worst["sampling"]]})
    if min(gap_up) >= 0:
        return Verdict("holds", "numeric", min(gap_up), evidence={**ev, "one_sided": "printed >= certified upper: "
                                                                  "valid, conservative"})
    return Verdict("open", "numeric", min(gap_up), evidence=ev,
                   reason="a printed epsilon lies inside the certified bracket: neither proved nor refuted")


def _uniform_certified_claim(table: int) -> Verdict:
    uni_p, _ = _printed_eps(table)
    return bracket_verdict(certified_rows(table, "uniform", uni_p), setting=setting(table),
                           noise_reading="noise std z*L in both columns (one z list for both, L329/L369)",
                           why="the paper's accountant (autodp/WBK at noise multiplier z) takes the sensitivity to be L; "
                               "under replace-one a replaced client moves the clipped sum by 2L")


@claim(id="004.table-3.uniform-certified", seed="004", lines="L188-L192, L329-L333, L443-L455",
       statement="Table 3's uniform-sampling epsilons are (eps, 1/2000^1.1)-DP guarantees for fixed-size client sampling under replace-one adjacency at noise std zL.",
       recorded="refuted")
def table3_uniform_certified() -> Verdict:
    return _uniform_certified_claim(3)


@claim(id="004.table-6.uniform-certified", seed="004", lines="L188-L192, L369-L375, L443-L455",
       statement="Table 6's uniform-sampling epsilons are (eps, 1/975^1.1)-DP guarantees for fixed-size client sampling under replace-one adjacency at noise std zL.",
       recorded="refuted")
def table6_uniform_certified() -> Verdict:
    return _uniform_certified_claim(6)


# --- the "LS beats DP-Fed" sentences: exact arithmetic on the printed cells ------------------------------

def _cells(table: int):
    rows = TABLES[table]["rows"]
    base = [p.value for p in rows[0.0]]
    ls = {s: [p.value for p in r] for s, r in rows.items() if s != 0.0}
    return base, ls


def beats_counts(table: int) -> dict:
    """Per column: does the best sigma > 0 beat sigma = 0, and how many of the (sigma > 0) cells do."""
    base, ls = _cells(table)
    n_cols = len(base)
    best = [max(r[c] for r in ls.values()) > base[c] for c in range(n_cols)]
    every = [(s, c) for s, r in ls.items() for c in range(n_cols) if r[c] <= base[c]]
    gain = [round(max(r[c] for r in ls.values()) - base[c], 2) for c in range(n_cols)]
    return {"columns_best_ls_wins": sum(best), "columns": n_cols, "ls_cells_not_above_dpfed": every,
            "ls_cells": n_cols * len(ls), "best_gain_per_column": gain}


def _beats_claim(table: int, every_cell: bool) -> Verdict:
    c = beats_counts(table)
    fails = len(c["ls_cells_not_above_dpfed"]) if every_cell else c["columns"] - c["columns_best_ls_wins"]
    if fails == 0:
        return Verdict("holds", "exact", 0.0, evidence=c)
    return Verdict("refuted", "exact", -fails / (c["ls_cells"] if every_cell else c["columns"]), evidence=c,
                   counterexample={"cells_sigma_column": c["ls_cells_not_above_dpfed"]})


@claim(id="004.table-2.ls-beats-almost-all", seed="004", lines="L312, L314-L320",
       statement="Table 2: DP-Fed-LS outperforms DP-Fed in almost all settings (best sigma > 0 above sigma = 0 in every column), most at small eps.",
       recorded="holds")
def table2_beats() -> Verdict:
    c = beats_counts(2)
    ok = c["columns_best_ls_wins"] == c["columns"]
    gains = c["best_gain_per_column"]
    small_eps_largest = gains[0] == max(gains[:4]) and gains[4] == max(gains[4:])
    c["largest_gain_at_smallest_eps_each_sampling"] = small_eps_largest
    return Verdict("holds" if ok and small_eps_largest else "refuted", "exact", 0.0, evidence=c,
                   counterexample=None if ok and small_eps_largest else {"gains": gains})


@claim(id="004.table-3.ls-beats-every-cell", seed="004", lines="L344, L331-L337",
       statement="Table 3: DP-Fed-LS yields higher accuracy than DP-Fed with both subsamplings and every DP guarantee (every sigma > 0 cell above sigma = 0).",
       recorded="refuted")
def table3_beats() -> Verdict:
    return _beats_claim(3, every_cell=True)


@claim(id="004.table-6.ls-beats-every-cell", seed="004", lines="L371, L373-L379",
       statement="Table 6: DP-Fed-LS provides better utility than DP-Fed (every sigma > 0 cell above sigma = 0).",
       recorded="holds")
def table6_beats() -> Verdict:
    return _beats_claim(6, every_cell=True)


@claim(id="004.table-5.consistently-better", seed="004", lines="L354-L361",
       statement="Table 5: DP-Fed-LS with every flattening order is consistently better than DP-Fed (85.18 uniform, 85.53 Poisson).",
       recorded="holds")
def table5_beats() -> Verdict:
    base = [p.value for p in TABLES[5]["baseline"]]
    bad = [(s, c) for s, r in TABLES[5]["rows"].items() for c, p in enumerate(r) if p.value <= base[c // 4]]
    if not bad:
        return Verdict("holds", "exact", 0.0, evidence={"cells": 24, "baseline": base})
    return Verdict("refuted", "exact", -len(bad) / 24, evidence={"baseline": base}, counterexample={"cells": bad})


@claim(id="004.table-4.js-th-below-ls", seed="004", lines="L345-L352",
       statement="Table 4: the James-Stein and soft-thresholding estimators perform worse than Laplacian smoothing in Table 3 (every cell below every sigma > 0 cell of its column).",
       recorded="holds")
def table4_below() -> Verdict:
    _, ls = _cells(3)
    bad = [(k, c) for k, r in TABLES[4]["rows"].items() for c, p in enumerate(r)
           if p.value >= min(row[c] for row in ls.values())]
    if not bad:
        return Verdict("holds", "exact", 0.0, evidence={"cells": 16})
    return Verdict("refuted", "exact", -len(bad) / 16, evidence={}, counterexample={"cells": bad})


def _poisson_certified_claim(table: int) -> Verdict:
    _, poi_p = _printed_eps(table)
    return bracket_verdict(certified_rows(table, "poisson", poi_p), setting=setting(table),
                           adjacency="add/remove, sensitivity L, fixed denominator",
                           note="the printed RDP value is a valid but loose guarantee; see 004.thm-2.realised-denominator "
                                "for the realised |S_t|")


@claim(id="004.table-3.poisson-certified", seed="004", lines="L329-L333",
       statement="Table 3's Poisson epsilons are (eps, 1/2000^1.1)-DP guarantees (add/remove, noise std zL) by a certified accountant.",
       recorded="holds")
def table3_poisson_certified() -> Verdict:
    return _poisson_certified_claim(3)


@claim(id="004.table-6.poisson-certified", seed="004", lines="L369-L375",
       statement="Table 6's Poisson epsilons are (eps, 1/975^1.1)-DP guarantees (add/remove, noise std zL) by a certified accountant.",
       recorded="holds")
def table6_poisson_certified() -> Verdict:
    return _poisson_certified_claim(6)


@claim(id="004.table-5.caption-epsilon", seed="004", lines="L356, L329",
       statement="Table 5's caption budgets (4.24, 1/2000^1.1) Poisson and (7.838, 1/2000^1.1) uniform are Table 3's z = 1.1 column.",
       recorded="holds-with-correction")
def table5_caption() -> Verdict:
    st = setting(3)
    z = st["z"][2]
    ours = {"poisson": poisson_epsilon_tf(st["tau"], z, st["rounds"], st["delta"]),
            "uniform": uniform_epsilon_paper(st["tau"], z, st["rounds"], st["delta"])}
    printed = {"poisson": TABLES[5]["epsilon_poisson"], "uniform": TABLES[5]["epsilon_uniform"]}
    bad = {k: (ours[k], printed[k].text) for k in ours if not agrees_with_printed(ours[k], printed[k].text)}
    margin = min(0.0, *(-abs(ours[k] - printed[k].value) / printed[k].value for k in bad)) if bad else 0.0
    return Verdict("holds" if not bad else "holds-with-correction", "numeric", margin,
                   evidence={"ours": ours, "z": z, "mismatch": {k: list(v) for k, v in bad.items()}},
                   reason="" if not bad else "; ".join(f"{k}: accountant gives {v[0]:.5f}, printed {v[1]} (truncated, "
                                                       "not rounded; Table 3 prints 7.84)" for k, v in bad.items()))


@claim(id="004.table-4.uniform-certified", seed="004", lines="L345-L350, L329",
       statement="Table 4's uniform-sampling epsilon header (5.23 6.34 7.84 8.66, the SVHN setting of Table 3) are (eps, 1/2000^1.1)-DP guarantees for fixed-size client sampling under replace-one at noise std zL.",
       recorded="refuted")
def table4_uniform_certified() -> Verdict:
    return _uniform_certified_claim(4)


@claim(id="004.table-5.caption-certified", seed="004", lines="L356, L329",
       statement="Table 5's caption budgets are guarantees of its runs (SVHN setting, z = 1.1): (7.838, 1/2000^1.1)-DP for fixed-size sampling under replace-one and (4.24, 1/2000^1.1)-DP for Poisson under add/remove.",
       recorded="refuted")
def table5_caption_certified() -> Verdict:
    st = setting(3)
    z = st["z"][2]
    rows = []
    for sampling, printed in (("uniform", TABLES[5]["epsilon_uniform"]), ("poisson", TABLES[5]["epsilon_poisson"])):
        rows.append({"z": z, "column": sampling, "printed": printed.text,
                     **certified.epsilon_bounds(sampling, st["n"], st["tau"], z, st["rounds"], st["delta"])})
    return bracket_verdict(rows, setting=st)


@claim(id="004.sec-6.split-arithmetic", seed="004", lines="L310, L329, L369, L392",
       statement="Section 6's splits add up: 50K MNIST images = 1000 clients x 50 = 500 clients x 100 (10K of 60K left for validation); SVHN 73,257 + 531,131 images over 2,000 clients is about 300 each; Shakespeare fractions 0.7 + 0.1 + 0.2 = 1; 64K over 500 clients.",
       recorded="holds")
def split_arithmetic() -> Verdict:
    from fractions import Fraction

    from theory.dp_fed_ls.paper_values import DATA

    v = {k: (tuple(Fraction(p.text) for p in x) if isinstance(x, tuple) else Fraction(x.text.replace(",", "")))
         for k, x in DATA.items()}
    per_svhn = (v["svhn_train"] + v["svhn_extra"]) / v["svhn_clients"]
    checks = {
        "mnist_uniform": v["mnist_clients_uniform"] * v["mnist_per_client_uniform"] == v["mnist_split"] * 1000,
        "mnist_poisson": v["mnist_clients_poisson"] * v["mnist_per_client_poisson"] == v["mnist_split"] * 1000,
        "mnist_validation": v["mnist_train"] - v["mnist_split"] == v["mnist_validation"],
        "svhn_about_300": abs(per_svhn - v["svhn_per_client"]) / v["svhn_per_client"] < Fraction(1, 100),
        "shakespeare_fractions": sum(v["shakespeare_fractions"]) == 1,
    }
    ok = all(checks.values())
    return Verdict("holds" if ok else "refuted", "exact", 0.0 if ok else -1.0,
                   evidence={"checks": checks, "svhn_per_client": float(per_svhn),
                             "mia_per_client": float(v["mia_records"] * 1000 / v["mia_clients"])},
                   counterexample=None if ok else {k: c for k, c in checks.items() if not c})
