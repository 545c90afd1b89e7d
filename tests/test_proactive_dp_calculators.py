"""Seed 002 calculators D.4 and E.1 (theory/proactive_dp/calculators.py) and Tables 6-11."""
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from numerics.errors import InvalidParameter
from theory.ledger import get
from theory.proactive_dp import calculators as C
from theory.proactive_dp.gamma import gamma_rhs
from theory.printed import texts
from theory.proactive_dp import paper_values
from tests.strategies import deltas

#: the paper's tables as printed strings (each Printed value's seed line is checked in paper_values)
BUDGET_TABLES, CALCULATOR_TABLES = texts(paper_values.BUDGET_TABLES), texts(paper_values.CALCULATOR_TABLES)

CLAIMS = ["002.calc-D4.step1", "002.calc-D4.stopping-rule", "002.calc-E1.s-column",
          "002.table-6.sigma-column", "002.table-7.sigma-column", "002.table-8.sigma-column"]
TABLE_CLAIMS = ["002.table-9.cells", "002.table-10.cells", "002.table-11.cells"]


@pytest.mark.parametrize("cid", CLAIMS)
def test_claim_recomputes_recorded_status(cid):
    c = get(cid)
    v = c.evaluate()
    assert v.status == c.recorded


@given(st.floats(min_value=1.5, max_value=200.0), deltas)
def test_d4_step1_inverts_eq6(sigma, delta):
    eps = C.epsilon_d4(sigma, delta)
    assert C.sigma_eq6(eps, delta) == pytest.approx(sigma, rel=1e-12)


@pytest.mark.parametrize("table", sorted(CALCULATOR_TABLES))
def test_d4_outputs_are_consistent(table):
    inp = CALCULATOR_TABLES[table]["inputs"]
    r = C.calculator_d4(sigma=float(inp["sigma"]), n=inp["n"], k=inp["k"])
    assert r.solved and r.delta == 1.0 / inp["n"]
    assert r.t_min * r.s_max == pytest.approx(r.k * r.n)
    assert r.t_min / r.t_min_asym == pytest.approx(2 * r.gamma)
    # literal stopping rule keeps the first update RHS(eps / (2k)) (see module docstring)
    assert r.gamma == gamma_rhs(r.epsilon / (2.0 * r.k), r.sigma)
    assert len(r.gamma_iterates) == 3


def test_d4_condition_7_exit():
    # k = 1 violates (7) for delta = 1e-4: (2/e)^2 = 0.54 < 0.5 + ln(1e4)
    r = C.calculator_d4(sigma=19.29962, n=10_000, k=1)
    assert not r.solved and r.gamma_iterates == (2.0,)


def test_e1_first_block_alpha_bar_is_s_over_n():
    spec = BUDGET_TABLES[7]
    st_ = C.e1_step(s=370, k_j=spec["k_total"], n=spec["n"], epsilon_target=1.0)
    assert st_.theta == 1.0 and st_.s_bar == 370
    # eps = gamma theta^2 s_bar K / N^2 at the kept gamma (step 3)
    assert st_.epsilon == pytest.approx(st_.gamma * 370 * spec["k_total"] / spec["n"] ** 2, rel=1e-12)
    assert st_.sigma == pytest.approx(C.sigma_eq6(st_.epsilon, 1 / spec["n"]), rel=1e-12)


def test_e1_later_block_uses_sigma_j_and_theta():
    past = ((20, 2500.0),)  # K_0 = 50_000 at s_0 = 20
    st_ = C.e1_step(s=40, k_j=50_000, n=10_000, epsilon_target=2.0, past=past, sigma_j=8.0)
    assert st_.sigma == 8.0
    assert st_.s_bar == pytest.approx(100_000 / (2500 + 1250))
    assert st_.theta == pytest.approx(40 / st_.s_bar)
    assert st_.epsilon >= C.epsilon_d4(8.0, 1e-4)
    with pytest.raises(InvalidParameter):
        C.e1_step(s=40, k_j=50_000, n=10_000, epsilon_target=2.0, past=past)


def test_e1_scan_returns_last_valid_and_none_when_impossible():
    out = C.calculator_e1(k_j=50_000, n=10_000, epsilon_target=0.05, s_limit=200)
    assert out is not None and out.valid and out.epsilon <= 0.05
    nxt = C.e1_step(s=out.s + 1, k_j=50_000, n=10_000, epsilon_target=0.05)
    assert not nxt.valid
    assert C.calculator_e1(k_j=50_000, n=10_000, epsilon_target=1e-4) is None


def test_table6_counterexample_recomputed():
    ce = get("002.table-6.sigma-column").evaluate().counterexample
    spec = BUDGET_TABLES[6]
    st_ = C.e1_step(s=26, k_j=spec["k_total"], n=spec["n"], epsilon_target=math.inf)
    assert st_.sigma == pytest.approx(ce["ours"]) and abs(st_.sigma - float(ce["printed"])) > 1e-3


@pytest.mark.slow
@pytest.mark.parametrize("table", sorted(BUDGET_TABLES))
def test_full_e1_scan_stops_below_printed_s(table):
    # literal E.1 scan s = 1, 2, ... for each label: where the claim found s invalid, the scan stops earlier
    spec = BUDGET_TABLES[table]
    for label, _sigma, s, _line in spec["rows"]:
        out = C.calculator_e1(k_j=spec["k_total"], n=spec["n"], epsilon_target=float(label))
        at_s = C.e1_step(s=s, k_j=spec["k_total"], n=spec["n"], epsilon_target=float(label))
        if not at_s.valid:
            assert out is None or out.s < s


@pytest.mark.parametrize("cid", TABLE_CLAIMS)
def test_table_claims(cid):
    c = get(cid)
    v = c.evaluate()
    assert v.status == c.recorded
    bad = [r for r in v.evidence["cells"] if not r["agrees"]]
    # every mismatch sits in the asym column's f-DP cells and is explained by 2k epochs
    assert all(r["column"] == "T_min,asym" and r["cell"] in ("epsilon_fdp", "factor") for r in bad)
    assert v.evidence["mismatches_explained_by_2k_epochs"]


def test_l1598_counterexample_is_certified():
    v = get("002.calc-D4.L1598").evaluate()
    assert v.status == get("002.calc-D4.L1598").recorded
    ce = v.counterexample
    assert ce["epsilon_upper"] < ce["epsilon_target"]  # the target IS achieved at T_min,asym rounds


def test_critical_rounds_brackets_the_target():
    c = C.certified_columns(9)
    crit = c["critical"]
    assert crit["epsilon_upper"] <= c["epsilon_target"] < crit["epsilon_lower_at_one_fewer"]
    assert crit["exact"] and crit["rounds"] < c["t_min"]


@pytest.mark.parametrize("cid", ["002.calc-E1.scan-later-block", "002.calc-E1.guarantee-two-blocks"])
def test_two_block_claims(cid):
    c = get(cid)
    assert c.evaluate().status == c.recorded


def test_later_block_counterexample_recomputed():
    sc = C.two_block_scenario()
    assert sc["literal"] is None  # the printed scan gives up at s_j = 1 ...
    s = max(sc["valid_s"])        # ... although a valid s_j exists
    st_ = C.e1_step(s=s, k_j=C.TWO_BLOCK["k1"], n=C.TWO_BLOCK["n"], epsilon_target=C.TWO_BLOCK["target1"],
                    past=((sc["block0"].s, sc["block0"].rounds),), sigma_j=sc["sigma1"])
    assert st_.valid and st_.epsilon <= C.TWO_BLOCK["target1"]


def _redirect_out(monkeypatch, tmp_path, module):
    monkeypatch.setattr(module, "OUT", tmp_path)
    monkeypatch.setattr(module, "QUICK_OUT", tmp_path)


def test_table_9_script_writes_printed_beside_ours(monkeypatch, tmp_path):
    import csv

    import figures.tables_002 as T
    from figures import table_002_9

    _redirect_out(monkeypatch, tmp_path, T)
    table_002_9.main(["--quick"])
    rows = list(csv.reader((tmp_path / "table_002_9.csv").open()))
    assert rows[0] == ["cell", "column", "line", "printed", "ours", "agrees"]
    s_row = next(r for r in rows if r[0] == "s" and r[1] == "T_min")
    assert s_row[3] == "26" and s_row[4] == "26" and s_row[5] == "True"
    assert (tmp_path / "table_002_9.md").exists()


@pytest.mark.slow
@pytest.mark.parametrize("table", [6, 7, 8, 10, 11])
def test_other_table_scripts_run(monkeypatch, tmp_path, table):
    import importlib

    import figures.tables_002 as T

    _redirect_out(monkeypatch, tmp_path, T)
    importlib.import_module(f"figures.table_002_{table}").main(["--quick"])
    assert (tmp_path / f"table_002_{table}.csv").stat().st_size > 0


@pytest.mark.slow
def test_privacy_curve_script_runs(monkeypatch, tmp_path):
    import figures.fig_002_privacy_curve as F

    _redirect_out(monkeypatch, tmp_path, F)
    F.main(["--quick"])
    assert (tmp_path / "fig_002_privacy_curve.png").stat().st_size > 0
    assert (tmp_path / "fig_002_privacy_curve.csv").read_text().count("\n") > 10


def test_d4_keeps_gamma_on_the_safe_side_of_55():
    # the signed stopping rule keeps RHS(55) at gamma = 2, an upper bound on the solution (L1018): T_min never too small
    from theory.ledger import get

    v = get("002.calc-D4.t-min-meets-8").evaluate()
    assert v.status == "holds" and v.margin > 0
    assert all(r["t_min"] >= r["t_needed_8"] for r in v.evidence["rows"])
