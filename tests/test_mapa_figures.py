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
