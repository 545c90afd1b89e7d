"""Seed 003 figure scripts at their --quick setting write PNG + CSV + caption + provenance sidecar."""
import importlib
import json

import pytest

from figures import common
from repro import provenance


def _run(name, tmp_path):
    importlib.import_module(f"figures.{name}").main(["--quick", "--out", str(tmp_path)])
    meta, rows = common.read_csv(tmp_path / f"{name}.csv")
    assert (tmp_path / f"{name}.png").stat().st_size > 1000 and rows
    assert meta["setting"].startswith("quick") and all(meta[k].strip() for k in ("paper", "changes", "stated", "ours"))
    prov = json.loads((tmp_path / f"{name}.provenance.json").read_text())
    assert prov["data"] and prov["config"]["seeds"] is not None
    assert provenance.check_fresh(tmp_path / f"{name}.csv")[0]
    return meta, rows


def test_fig_003_4_quick(tmp_path):
    meta, rows = _run("fig_003_4", tmp_path)
    assert {r["noise"] for r in rows} == {"paper-literal", "k-norm"} and "NOT DP" in meta["changes"]


@pytest.mark.slow
@pytest.mark.parametrize("name", ["fig_003_5", "fig_003_6", "fig_003_7"])
def test_fig_003_slow_quick(name, tmp_path):
    meta, _ = _run(name, tmp_path)
    assert "NOT DP" in meta["changes"] or "not DP" in meta["changes"]


def test_run_panels_keeps_labels_and_seeds(monkeypatch):
    """run_arms sends the points longest first; each label still gets its own runs, in seed order."""
    from figures import edge_common

    sent = []

    def fake_sweep(fn, points, desc):
        sent.extend(points)
        return [dict(p) for p in points]

    monkeypatch.setattr(edge_common, "sweep", fake_sweep)
    panels = {"a": {"short": {"model": "lr", "iterations": 10}, "svm": {"model": "svm", "iterations": 10}},
              "b": {"long": {"model": "lr", "iterations": 1000}}}
    out = edge_common.run_panels(panels, range(2), desc="t")
    assert [p["iterations"] for p in sent][:2] == [1000, 1000] and sent[2]["model"] == "svm"
    for panel, spec in panels.items():
        for lab, arm in spec.items():
            assert out[panel][lab] == [{**arm, "seed": s} for s in range(2)]
