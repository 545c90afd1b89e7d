"""repro.provenance: sidecars beside figure CSVs and the freshness check claims rely on (issue 16)."""
import json

import pytest

from repro import provenance as P


def _made(tmp_path, data=None):
    csv = tmp_path / "fig_x.csv"
    csv.write_text("# setting: full\na,b\n1,2\n")
    P.write_sidecar(csv, module="repro.stats", config={"setting": "full", "seeds": [0, 1]}, data=data or {})
    return csv


def _edit_sidecar(csv, fn):
    side = P.sidecar_path(csv)
    rec = json.loads(side.read_text())
    fn(rec)
    side.write_text(json.dumps(rec))


def test_fresh_after_writing_and_the_sidecar_is_deterministic(tmp_path):
    csv = _made(tmp_path)
    assert P.sidecar_path(csv).name == "fig_x.provenance.json"
    ok, reason = P.check_fresh(csv)
    assert ok, reason
    first = P.sidecar_path(csv).read_text()
    _made(tmp_path)
    assert P.sidecar_path(csv).read_text() == first  # no timestamps: a rerun writes the same bytes
    rec = P.require_fresh(csv)
    assert rec["code"]["module"] == "repro.stats" and set(P.PACKAGES) == set(rec["packages"])


def test_missing_sidecar_and_edited_csv_are_stale(tmp_path):
    csv = _made(tmp_path)
    csv.write_text(csv.read_text() + "3,4\n")
    ok, reason = P.check_fresh(csv)
    assert not ok and "changed after" in reason
    P.sidecar_path(csv).unlink()
    assert "no provenance sidecar" in P.check_fresh(csv)[1]
    with pytest.raises(P.StaleFigureData, match="stale figure data"):
        P.require_fresh(csv)


def test_changed_code_config_or_data_is_stale(tmp_path):
    csv = _made(tmp_path)
    _edit_sidecar(csv, lambda r: r["code"].update(sha256="0" * 64))
    assert "code changed" in P.check_fresh(csv)[1]
    csv = _made(tmp_path)
    _edit_sidecar(csv, lambda r: r["config"].update(seeds=[0]))
    assert "config" in P.check_fresh(csv)[1]
    from repro.data import mnist_5k_provenance

    csv = _made(tmp_path, data={"mnist-5k": mnist_5k_provenance()})
    assert P.check_fresh(csv)[0]
    _edit_sidecar(csv, lambda r: r["data"]["mnist-5k"].update(sha256="f" * 64))
    assert "data mnist-5k changed" in P.check_fresh(csv)[1]
