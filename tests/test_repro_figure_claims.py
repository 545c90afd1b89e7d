"""The figure claims: fresh full-setting CSVs only (stale ones fail loudly), repro.stats decisions, stand-ins
never refuted, and their recomputable counterexamples (issues 16, 17, 22)."""
import numpy as np
import pytest

from repro import experiments as E
from repro.provenance import StaleFigureData, sidecar_path
from theory import figure_evidence as F
from theory.async_fl import figures as F000
from theory.async_fl import runs as R0
from theory.proactive_dp import figures as F002


def test_fig3_counterexample_recomputes():
    rounds = {k: len(v) for k, v in R0.rounds_per_method(20_000).items()}
    # 000 L1893 lists O(i/ln i) among the fewest-round methods; c = 0.75 needs fewer rounds
    assert rounds["c=0.75"] < rounds["i/ln i"]
    v = F000.fig3_i_over_log_i()
    assert v.status == "refuted" and "c=0.75" in v.counterexample["beats_i_over_log_i"] and v.margin < 0
    assert 0 < v.evidence["smallest_grid_c_not_worse"] <= 0.75


def test_sigma_at_fraction_interpolates():
    assert E.sigma_at_fraction([0, 1, 2, 3], [1.0, 0.95, 0.85, 0.8]) == pytest.approx(1.5)
    assert E.sigma_at_fraction([0, 1], [1.0, 0.95]) == 1.0
    assert E.sigma_at_fraction([0, 1], [0.5, 0.4]) == 0.0


def _write(tmp_path, rows, *, quick=False, data=None):
    from figures import common

    cap = common.caption(figure="f", paper="p", changes="c", stated="s", ours="o", quick=quick, epsilon=common.NO_DP)
    common.write_outputs(tmp_path, "fig_002_s_sweep", rows, cap,
                         data={"a9a-like": {"kind": "stand-in", "name": "a9a-like"}} if data is None else data)


ROWS = [{"model": "strongly-convex", "label": lab, "seed": s, "round": r, "iterations": 10 * r,
         "test_accuracy": acc + 0.01 * s + (0.1 if r == 2 else 0.0), "test_loss": 0.5}
        for lab, acc in (("s=1", 0.5), ("s=26", 0.7)) for s in range(5) for r in (0, 2, 1)]


def test_claims_read_the_fresh_full_csv_and_stand_ins_are_not_reproduced(tmp_path, monkeypatch):
    monkeypatch.setattr(F, "OUT", tmp_path)
    _write(tmp_path, ROWS)
    finals, seeds, source, rec = F.final_accuracies("fig_002_s_sweep", "strongly-convex")
    assert source.startswith("csv:") and finals.keys() == {"s=1", "s=26"} and seeds["s=1"] == [0, 1, 2, 3, 4]
    np.testing.assert_allclose(finals["s=26"], [0.8, 0.81, 0.82, 0.83, 0.84])
    v = F002.fig7_larger_s()
    # the Welch test says s = 26 is better, but on a stand-in that is not the paper's result
    assert v.status == "not-reproduced" and v.evidence["status_on_our_setting"] == "holds"
    assert v.margin == pytest.approx(0.2) and "stand-in" in v.reason
    assert v.evidence["tests"][0]["test"] == "welch" and v.evidence["tests"][0]["n"] == [5, 5]
    # the same numbers on real data decide the claim
    from repro.data import mnist_5k_provenance

    _write(tmp_path, ROWS, data={"mnist-5k": mnist_5k_provenance()})
    assert F002.fig7_larger_s().status == "holds"


def test_stale_quick_or_missing_csv_fails_loudly(tmp_path, monkeypatch):
    monkeypatch.setattr(F, "OUT", tmp_path)
    with pytest.raises(StaleFigureData, match="does not exist"):
        F002.fig7_larger_s()
    _write(tmp_path, ROWS)
    csv = tmp_path / "fig_002_s_sweep.csv"
    csv.write_text(csv.read_text().replace("0.5", "0.6", 1))
    with pytest.raises(StaleFigureData, match="changed after"):
        F002.fig7_larger_s()
    _write(tmp_path, ROWS)
    sidecar_path(csv).unlink()
    with pytest.raises(StaleFigureData, match="no provenance sidecar"):
        F002.fig7_larger_s()
    _write(tmp_path, ROWS, quick=True)  # a quick CSV is never evidence for a full claim
    with pytest.raises(StaleFigureData, match="setting"):
        F002.fig7_larger_s()


def test_no_figure_claim_is_refuted_or_holds_on_stand_in_data():
    """Every run-backed figure claim whose sidecar names a stand-in is not-reproduced (the one exception,
    002.fig4.smaller-c, is decided by an argument that holds for any data and says so)."""
    from theory import ledger

    for c in ledger.load_all():
        if ".fig" not in c.id or c.id.startswith("000.fig3"):
            continue
        v = c.evaluate()
        data = v.evidence.get("data")
        if not isinstance(data, dict):  # a claim that does not read a sidecar (other papers' own readers)
            continue
        stand = [n for n, d in data.items() if isinstance(d, dict) and d.get("kind") == "stand-in"]
        if stand and "argument" not in v.evidence:
            assert v.status == "not-reproduced", (c.id, v.status)


FULL = [("fig_002_s_sweep", ["002.fig7.larger-s-better"]),
        ("fig_002_eps_sweep", ["002.fig11.eps-0.04945-loss-about-10pct", "002.fig11.eps-0.1-close-to-non-dp"]),
        ("fig_002_utility", ["002.fig4.sigma-range-c-0.1", "002.fig4.smaller-c-tolerates-larger-sigma",
                             "002.fig6.mnist-sigma-12-at-c-0.025"]),
        ("fig_000_1a", ["000.fig1a.diminishing-increasing-same-accuracy"]),
        ("fig_000_1b", ["000.fig1b.increasing-better-under-dp"]),
        ("fig_000_4", ["000.fig4.fast-sequences-keep-accuracy"]),
        ("fig_000_10", ["000.fig10.biased-no-difference", "000.fig10.biased-no-difference.ours-4-9"])]


@pytest.mark.slow
@pytest.mark.parametrize("script, claim_ids", FULL)
def test_full_run_reproduces_the_recorded_verdicts(script, claim_ids, tmp_path, monkeypatch):
    """Regenerate a figure at its full setting (minutes) and recompute its claims from the fresh CSV."""
    import importlib

    from theory import ledger

    importlib.import_module(f"figures.{script}").main(["--out", str(tmp_path)])
    monkeypatch.setattr(F, "OUT", tmp_path)
    for cid in claim_ids:
        c = ledger.get(cid)
        v = c.evaluate()
        assert v.evidence["source"].startswith("csv:")
        assert v.status == c.recorded, (cid, v.status, v.margin)


def test_a_stale_csv_is_a_stale_row_of_the_report(tmp_path, monkeypatch):
    """Issue 16: a stale figure CSV makes its claim a ``stale`` problem row, which makes ``make report`` exit 1."""
    from theory import ledger, report

    monkeypatch.setattr(F, "OUT", tmp_path)
    monkeypatch.setenv("DPV_CACHE_DIR", str(tmp_path / "cache"))
    _write(tmp_path, ROWS)
    csv = tmp_path / "fig_002_s_sweep.csv"
    csv.write_text(csv.read_text() + "\n")
    entries, _ = report.evaluate([ledger.get("002.fig7.larger-s-better")], fresh=True, backend="serial")
    assert entries[0]["status"] == report.STALE, entries[0]
    assert report.problem_of(entries[0]) == report.STALE  # a problem: make report exits 1


def test_the_report_cache_key_follows_the_figure_data(tmp_path, monkeypatch):
    from theory import report

    monkeypatch.setattr(report, "ROOT", tmp_path)
    (tmp_path / "figures" / "out").mkdir(parents=True)
    _write(tmp_path / "figures" / "out", ROWS)
    key = report._figure_state("figures/out/fig_002_s_sweep.png")
    assert key == report._figure_state("figures/out/fig_002_s_sweep.png")
    _write(tmp_path / "figures" / "out", ROWS[:-1])
    assert report._figure_state("figures/out/fig_002_s_sweep.png") != key
