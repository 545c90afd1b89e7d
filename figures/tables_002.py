"""Seed 002 Tables 6-11 regenerated from their inputs, the printed value beside ours in every cell.

Shared by ``figures/table_002_6.py`` ... ``table_002_11.py`` (``make table-002-9`` etc.). Each writes
``figures/out/table_002_<N>.csv`` and ``.md``. Heavy loops (certified accountant calls) go through the
sweep runner inside theory.proactive_dp. ``--quick`` skips the full E.1 s-scan of Tables 6-8.
Runtimes on one core: about 5 s per table (quick: about 2 s).
"""
from __future__ import annotations

import argparse
import csv
import math
from pathlib import Path

from figures import common
from numerics.sweep import sweep, versioned
from theory.proactive_dp import calculators as C
from theory.proactive_dp.experiments import real_privacy
from theory.printed import texts
from theory.proactive_dp import paper_values

#: the paper's tables as printed strings (each Printed value's seed line is checked in paper_values)
BUDGET_TABLES, CALCULATOR_TABLES = texts(paper_values.BUDGET_TABLES), texts(paper_values.CALCULATOR_TABLES)


#: output folders (figures.common's): the full setting, and the git-ignored quick one no claim reads
OUT, QUICK_OUT = common.OUT, common.QUICK_OUT


def _fmt(x) -> str:
    if isinstance(x, float):
        return f"{x:.8g}"
    return "" if x is None else str(x)


def write_table(name: str, header: list, rows: list, title: str, *, quick: bool = False) -> tuple[Path, Path]:
    """Write ``rows`` (lists aligned with ``header``) to name.csv, name.md and the provenance sidecar in
    figures/out (quick: figures/out/quick, which no claim reads)."""
    out = QUICK_OUT if quick else OUT
    out.mkdir(parents=True, exist_ok=True)
    csv_path, md_path = out / f"{name}.csv", out / f"{name}.md"
    with csv_path.open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(header)
        w.writerows([[_fmt(x) for x in r] for r in rows])
    lines = [f"# {title}", "", "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_fmt(x) for x in r) + " |" for r in rows]
    md_path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    common.provenance.write_sidecar(csv_path, module=f"figures.{name}", config={"setting": "quick" if quick else "full",
                                                                              "title": title}, data={})
    return csv_path, md_path


def budget_table(table: int, *, quick: bool = False) -> tuple[Path, Path]:
    """Tables 6-8: printed (label, sigma, s); our sigma (literal E.1 and the ln-only form), E.1's maximal s
    for the label, and the certified epsilon of the trained schedule."""
    spec = BUDGET_TABLES[table]
    cert = real_privacy(f"table-{table}")
    header = ["line", "epsilon label", "s", "sigma printed", "sigma E.1 (35)", "sigma ln-only",
              "epsilon E.1 at s", "E.1 max s for label", "rounds T", "certified eps lower", "certified eps upper",
              "label / certified upper"]
    rows = []
    for (label, sigma_p, s, line), c in zip(spec["rows"], cert):
        lit = C.e1_step(s=s, k_j=spec["k_total"], n=spec["n"], epsilon_target=math.inf)
        alt = C.e1_step(s=s, k_j=spec["k_total"], n=spec["n"], epsilon_target=math.inf, sigma_form="ln-only")
        scan = None
        if not quick:
            best = C.calculator_e1(k_j=spec["k_total"], n=spec["n"], epsilon_target=float(label))
            scan = best.s if best else "none"
        rows.append([line, label, s, sigma_p, lit.sigma, alt.sigma if alt.valid else "diverged", lit.epsilon, scan,
                     c["rounds"], c["epsilon_lower"], c["epsilon_upper"], float(label) / c["epsilon_upper"]])
    return write_table(f"table_002_{table}", header, rows, quick=quick, title=
                       f"Seed 002 Table {table} ({spec['lines']}): N={spec['n']}, K={spec['k_total']}, delta={spec['delta']}")


def calculator_table(table: int, *, quick: bool = False) -> tuple[Path, Path]:
    """Tables 9-11: every printed cell beside the D.4 calculator's value, plus certified columns."""
    header = ["cell", "column", "line", "printed", "ours", "agrees"]
    values = sweep(C.table_9_11_values, [{"table": table}], desc=f"002 table {table} D.4 values")[0]
    rows = [[r["cell"], r["column"], r["line"], r["printed"], r["ours"], r["agrees"]]
            for r in C.compare_table_9_11(table, values)]
    rows.append(["epsilon_fdp at 2k epochs", "T_min,asym", "", CALCULATOR_TABLES[table]["cells"]["epsilon_fdp"][1],
                 values["epsilon_fdp_asym_2k"], ""])
    rows.append(["factor at 2k epochs", "T_min,asym", "", CALCULATOR_TABLES[table]["cells"]["factor"][1],
                 values["factor_asym_2k"], ""])
    rows.append(["gamma used (first update) / fixed point of (55)", "", "", "",
                 f"{values['gamma']:.6g} / {values['gamma_fixed_point']:.6g}", ""])
    cc = sweep(_certified_columns, [{"table": table}], desc=f"002 table {table} certified columns")[0]
    for col in ("T_min", "T_min,asym"):
        c = cc["certified"][col]
        rows.append([f"certified eps [lower, upper] at s={c['s']}, T={c['rounds']}", col, "", "", f"[{c['epsilon_lower']:.6g}, {c['epsilon_upper']:.6g}]", ""])
        rows.append(["epsilon_target / certified upper", col, "", "", cc["epsilon_target"] / c["epsilon_upper"], ""])
    crit = cc["critical"]
    rows.append(["exact critical T (fixed K, certified)", "", "", "", crit["rounds"], "exact" if crit["exact"] else ""])
    rows.append(["T_min / critical T", "", "", "", cc["t_min_over_critical"], ""])
    rows.append(["critical T / T_min,asym", "", "", "", cc["critical_over_t_min_asym"], ""])
    inp = CALCULATOR_TABLES[table]["inputs"]
    return write_table(f"table_002_{table}", header, rows, quick=quick, title=
                       f"Seed 002 Table {table} ({CALCULATOR_TABLES[table]['caption']}): sigma={inp['sigma']}, "
                       f"N={inp['n']}, k={inp['k']}, theta=1, delta=1/N")


@versioned("1")
def _certified_columns(*, table: int) -> dict:
    inp = CALCULATOR_TABLES[table]["inputs"]
    return {**C.certified_columns(table), "n": inp["n"], "k": inp["k"]}



def main_for(table: int, argv=None) -> None:
    ap = argparse.ArgumentParser(description=f"Regenerate seed 002 Table {table}")
    ap.add_argument("--quick", action="store_true", help="smoke-test setting (skips the full E.1 s-scan)")
    args = ap.parse_args(argv or [])
    fn = budget_table if table in BUDGET_TABLES else calculator_table
    for p in fn(table, quick=args.quick):
        print(p)
