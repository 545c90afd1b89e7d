"""`make report` on a tiny fake ledger: the three files, their keys, error rows, the changed-status
mark, figure thumbnails and the cache."""
import json

import pytest

from theory import ledger, report


def _holds():
    return ledger.Verdict("holds", "numeric", margin=0.25, evidence={"points": 3, "worst": 0.75})


def _refuted():
    return ledger.Verdict("refuted", "exact", margin=-1.0, evidence={"lhs": 2, "rhs": 1},
                          counterexample={"q": 0.5, "sigma": 1.0})


def _raises():
    raise ArithmeticError("boom at sigma=0.5")


FAKE = [
    ledger.Claim("numerics.fake.holds", "numerics", "L1", "A claim that holds | with a pipe.", "holds",
                 _holds, figure="figures/out/fake.png"),
    ledger.Claim("002.fake.refuted", "002", "L10-12", "A refuted claim.", "refuted", _refuted),
    ledger.Claim("002.fake.changed", "002", "L20", "A claim whose verdict changed.", "holds", _refuted),
    ledger.Claim("000.fake.raises", "000", "L5", "A claim whose check raises.", "holds", _raises),
]


@pytest.fixture
def fake_ledger(monkeypatch, tmp_path):
    monkeypatch.setenv("DPV_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(report, "claims", lambda: list(FAKE))
    monkeypatch.setattr(report, "import_claim_modules", lambda: {"theory.fake_broken": "SyntaxError: x"})
    return tmp_path / "out"


def test_report_writes_three_files_with_the_right_keys(fake_ledger):
    entries = report.build(fresh=True, backend="serial", out_dir=fake_ledger)
    verdicts = json.loads((fake_ledger / "verdicts.json").read_text())
    assert [v["id"] for v in verdicts] == sorted(v["id"] for v in verdicts)
    assert len(verdicts) == len(FAKE) + 1 == len(entries)        # the broken module is a row too
    required = {"id", "seed", "lines", "statement", "status", "margin", "evidence", "counterexample",
                "evidence_kind", "recorded", "reason", "seconds"}
    for v in verdicts:
        assert required <= set(v)
    by_id = {v["id"]: v for v in verdicts}
    assert by_id["numerics.fake.holds"]["status"] == "holds"
    assert by_id["numerics.fake.holds"]["evidence"] == {"points": 3, "worst": 0.75}
    assert by_id["002.fake.refuted"]["counterexample"] == {"q": 0.5, "sigma": 1.0}
    assert by_id["000.fake.raises"]["status"] == "error"
    assert "boom at sigma=0.5" in by_id["000.fake.raises"]["reason"]
    assert by_id["theory.fake_broken"]["status"] == "error"

    run = json.loads((fake_ledger / "run.json").read_text())
    for key in ("backend", "scheduler", "workers", "wall_time", "cache_hits", "cache_misses",
                "seconds_per_claim"):
        assert key in run
    assert run["backend"] == "serial" and run["cache_hits"] == 0 and run["cache_misses"] == len(FAKE)
    assert set(run["seconds_per_claim"]) == {c.id for c in FAKE}

    md = (fake_ledger / "VERDICTS.md").read_text()
    assert "## Seed 002 (002_13c470b90c68bab6.txt)" in md and "## Seed numerics" in md
    assert "5 claims: 2 error, 1 holds, 2 refuted;" in md                     # counts per status
    assert "holds by evidence: 0 symbolic, 0 exact, 0 rigorous, 1 numeric, 0 sampled" in md
    assert "ledger records holds" in md                                       # 002.fake.changed
    assert "![](../figures/out/fake.png)" in md
    assert "with a pipe" in md and "\\|" in md                                # table not broken
    changed_row = next(line for line in md.splitlines() if "002.fake.changed" in line)
    assert "⚠" in changed_row
    refuted_row = next(line for line in md.splitlines() if "`002.fake.refuted`" in line)
    assert "⚠" not in refuted_row and '"sigma":1.0' in refuted_row


def test_report_main_exits_nonzero_on_error_and_prints_one_summary_line(fake_ledger, capsys):
    status = report.main(["--fresh", "--backend", "serial", "--out", str(fake_ledger)])
    out, err = capsys.readouterr()
    assert status == 1
    assert len(out.strip().splitlines()) == 1 and "claims" in out
    assert "000.fake.raises" in err


def test_second_report_takes_cached_verdicts_and_fresh_ignores_them(fake_ledger):
    first = report.build(backend="serial", out_dir=fake_ledger)
    second = report.build(backend="serial", out_dir=fake_ledger)
    run = json.loads((fake_ledger / "run.json").read_text())
    assert run["cache_hits"] == 3 and run["cache_misses"] == 1               # a raising check is not cached
    strip = [{k: v for k, v in e.items() if k != "seconds"} for e in first]
    assert strip == [{k: v for k, v in e.items() if k != "seconds"} for e in second]
    report.build(fresh=True, backend="serial", out_dir=fake_ledger)
    assert json.loads((fake_ledger / "run.json").read_text())["cache_hits"] == 0


def test_unreachable_scheduler_is_one_line_not_a_traceback(fake_ledger, monkeypatch, capsys):
    from numerics.sweep import SweepError

    def unreachable(*args, **kwargs):
        raise SweepError("cannot reach the Dask scheduler at 'tcp://127.0.0.1:1' within 1 s")

    monkeypatch.setattr(report, "sweep", unreachable)
    status = report.main(["--scheduler", "tcp://127.0.0.1:1", "--out", str(fake_ledger)])
    _, err = capsys.readouterr()
    assert status == 1
    assert len(err.strip().splitlines()) == 1 and "tcp://127.0.0.1:1" in err
