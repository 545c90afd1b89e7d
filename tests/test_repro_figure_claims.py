"""The figure claims' decision rule and their recomputable counterexamples."""
import numpy as np
import pytest

from repro import experiments as E
from theory.async_fl import runs as R0
from theory.proactive_dp import runs as R2
from theory import figure_evidence as F
from theory.async_fl import figures as F000
from theory.proactive_dp import figures as F002


def test_effect_and_decision_rule():
    diff, noise = F.effect([0.8, 0.82, 0.81], [0.7, 0.71, 0.69])
    assert diff == pytest.approx(0.11) and noise == pytest.approx(max(2 * ((0.0001 + 0.0001) / 3) ** 0.5, F.NOISE_FLOOR))
    assert F.decide(diff, noise) == "holds"
    assert F.decide(-diff, noise) == "refuted"
    assert F.decide(0.001, noise) == "open"
    # identical single values: only the floor separates them
    assert F.effect([0.5], [0.5]) == (0.0, F.NOISE_FLOOR)


def test_fig3_counterexample_recomputes():
    rounds = {k: len(v) for k, v in R0.rounds_per_method(20_000).items()}
    # 000 L1893 lists O(i/ln i) among the fewest-round methods; c = 0.75 needs fewer rounds
    assert rounds["c=0.75"] < rounds["i/ln i"]
    v = F000.fig3_i_over_log_i()
    assert v.status == "refuted" and "c=0.75" in v.counterexample["beats_i_over_log_i"]


def test_sigma_at_fraction_interpolates():
    assert E.sigma_at_fraction([0, 1, 2, 3], [1.0, 0.95, 0.85, 0.8]) == pytest.approx(1.5)
    assert E.sigma_at_fraction([0, 1], [1.0, 0.95]) == 1.0
    assert E.sigma_at_fraction([0, 1], [0.5, 0.4]) == 0.0


@pytest.mark.parametrize("fn", [F002.fig7_larger_s, F002.fig11_eps_small, F002.fig11_eps_01, F002.fig4_sigma_range, F002.fig6_non_convex,
                                F002.fig4_smaller_c])
def test_run_backed_claims_state_their_source(fn):
    v = fn()
    assert v.evidence["source"].startswith(("csv:", "quick setting"))
    if v.status == "refuted":
        assert v.counterexample["setting"] == v.evidence["source"]


def test_claims_read_the_full_csv_when_present(tmp_path, monkeypatch):
    from figures import common

    rows = [{"model": "strongly-convex", "label": lab, "seed": s, "round": r, "iterations": 10 * r,
             "test_accuracy": acc + (0.1 if r == 2 else 0.0), "test_loss": 0.5}
            for lab, acc in (("s=1", 0.5), ("s=26", 0.7)) for s in (0, 1) for r in (0, 2, 1)]
    cap = common.caption(figure="f", paper="p", changes="c", stated="s", ours="o", quick=False)
    common.write_outputs(tmp_path, "fig_002_s_sweep", rows, cap)
    monkeypatch.setattr(F, "OUT", tmp_path)
    finals, source = F.final_accuracies("fig_002_s_sweep", R2.s_sweep, "strongly-convex")
    assert source.startswith("csv:") and finals.keys() == {"s=1", "s=26"}
    np.testing.assert_allclose(finals["s=1"], [0.6, 0.6])
    np.testing.assert_allclose(finals["s=26"], [0.8, 0.8])
    v = F002.fig7_larger_s()
    assert v.status == "holds" and v.margin == pytest.approx(0.2)
    # a CSV written at the quick setting is not used as evidence for the full claim
    common.write_outputs(tmp_path, "fig_002_s_sweep", rows, {**cap, "setting": "quick (CI smoke test)"})
    assert F._finals_from_csv("fig_002_s_sweep", "strongly-convex") is None


FULL = [("fig_002_s_sweep", ["002.fig7.larger-s-better"]),
        ("fig_002_eps_sweep", ["002.fig11.eps-0.04945-loss-about-10pct", "002.fig11.eps-0.1-close-to-non-dp"]),
        ("fig_002_utility", ["002.fig4.sigma-range-c-0.1", "002.fig4.smaller-c-tolerates-larger-sigma",
                             "002.fig6.mnist-sigma-12-at-c-0.025"]),
        ("fig_000_1a", ["000.fig1a.diminishing-increasing-same-accuracy"]),
        ("fig_000_1b", ["000.fig1b.increasing-better-under-dp"]),
        ("fig_000_4", ["000.fig4.fast-sequences-keep-accuracy"]),
        ("fig_000_10", ["000.fig10.biased-no-difference"])]


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
