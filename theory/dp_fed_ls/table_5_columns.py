r"""Seed 004 Table 5 (L356-L361) against Table 3 (L331-L337): "BCWH is the one reported in the paper" (L356).

Table 5's BCWH columns (uniform, then Poisson) are the flattening order of every other experiment, at the budgets
its caption states (7.838 uniform, 4.24 Poisson); they should repeat Table 3's sigma > 0 cells at eps = 7.84
(uniform) and 4.24 (Poisson), and the caption's DP-Fed accuracies (85.18, 85.53) Table 3's sigma = 0 cells there.
Compared digit for digit as printed (exact rationals).
"""
from __future__ import annotations

from fractions import Fraction

from theory.dp_fed_ls.paper_values import TABLES
from theory.ledger import Verdict, claim


def _q(p) -> Fraction:
    return Fraction(p.text)


def _column(table: int, eps_text: str, poisson: bool) -> int:
    """Index of Table ``table``'s column whose printed epsilon is ``eps_text`` on the uniform (0-3) or Poisson (4-7) side."""
    header = TABLES[table]["epsilon"]
    side = range(4, 8) if poisson else range(4)
    hits = [i for i in side if Fraction(header[i].text) == Fraction(eps_text)]   # eps_text: '7.84' or '196/25'
    if len(hits) != 1:
        raise LookupError(f"Table {table}: epsilon {eps_text} on the {'Poisson' if poisson else 'uniform'} side: {hits}")
    return hits[0]


@claim(id="004.table-5.bcwh-equals-table-3", seed="004", lines="L356-L361, L333-L337",
       statement="Table 5: BCWH, 'the one reported in the paper', repeats Table 3's cells at eps = 7.84 (uniform) and 4.24 (Poisson), and the caption's DP-Fed accuracies 85.18 and 85.53 are Table 3's sigma = 0 cells there.",
       recorded="holds", result="Table 5", role="printed-value")
def table5_bcwh() -> Verdict:
    t5, t3 = TABLES[5], TABLES[3]
    uni_eps = str(round(Fraction(t5["epsilon_uniform"].text), 2))   # 7.838 -> 196/25 = 7.84, the value Table 3 prints
    cols = {"uniform": (_column(3, uni_eps, False), 0), "poisson": (_column(3, t5["epsilon_poisson"].text, True), 4)}
    pairs = []
    for side, (c3, c5) in cols.items():
        for s, row in t5["rows"].items():
            pairs.append((f"{side} sigma={s}", row[c5].text, t3["rows"][s][c3].text))
        pairs.append((f"{side} DP-Fed", t5["baseline"][0 if side == "uniform" else 1].text, t3["rows"][0.0][c3].text))
    bad = [p for p in pairs if Fraction(p[1]) != Fraction(p[2])]
    ok = not bad
    why = "" if ok else f"{len(bad)} of {len(pairs)} cells differ: {bad}"
    return Verdict("holds" if ok else "refuted", "exact", 0.0 if ok else -len(bad) / len(pairs), why=why,
                   arithmetic=("rational",), counterexample=None if ok else {"cells": bad},
                   evidence={"pairs": pairs, "table3_columns": {k: v[0] for k, v in cols.items()},
                             "caption_uniform_epsilon": t5["epsilon_uniform"].text,
                             "domain": "the 8 compared cells (6 LS, 2 DP-Fed), exact"})
