"""docs/referee/coverage_001.md and coverage_004.md (issue 31) stay true to the ledger and to the readers' statement
lists: one row per listed statement (a row "101-109" stands for a range), every claim id a row names exists in the
ledger, and the counts in each header equal the rows' outcomes."""
import re
from pathlib import Path

import pytest

from theory import ledger

DOCS = Path(__file__).resolve().parent.parent / "docs" / "referee"
ROW = re.compile(r"^\| (\d+)(?:-(\d+))? \| ([^|]*) \| ([^|]*) \| ([^|]*) \|$")
OUTCOMES = (("added", "covered by a claim added here (alone or beside existing ones)"),
            ("covered", "already covered by an existing claim"),
            ("not-checkable", "not checkable (reason given in the row)"),
            ("uncovered", "uncovered (checkable, not done; the row says why)"))


def _rows(seed: str) -> list:
    text = (DOCS / f"coverage_{seed}.md").read_text(encoding="utf-8")
    return [m for m in (ROW.match(line) for line in text.splitlines()) if m]


def _outcome(coverage: str) -> str:
    c = coverage.strip()
    if "added:" in c or c.startswith("covered + added"):
        return "added"
    for name, prefix in (("covered", "covered"), ("not-checkable", "not checkable"), ("uncovered", "uncovered")):
        if c.startswith(prefix):
            return name
    raise AssertionError(f"row outcome not recognised: {c[:60]!r}")


def _numbers(m) -> list:
    lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
    return list(range(lo, hi + 1))


@pytest.mark.parametrize("seed", ["001", "004"])
def test_one_row_per_listed_statement(seed):
    listed = [int(m.group(1)) for m in (re.match(r"^(\d+)\. L", line) for line in
                                        (DOCS / f"statements_{seed}.md").read_text(encoding="utf-8").splitlines()) if m]
    assert [n for m in _rows(seed) for n in _numbers(m)] == listed


@pytest.mark.parametrize("seed", ["001", "004"])
def test_every_named_claim_exists(seed):
    ids = {c.id for c in ledger.load_all()}
    pattern = re.compile(rf"\b{seed}\.[A-Za-z0-9][\w.\-]*[A-Za-z0-9](?![\w.\-*])")
    named = {i for m in _rows(seed) for i in pattern.findall(m.group(5))}
    assert named and not sorted(named - ids)


@pytest.mark.parametrize("seed", ["001", "004"])
def test_header_counts_match_the_rows(seed):
    text = (DOCS / f"coverage_{seed}.md").read_text(encoding="utf-8")
    counts = {name: 0 for name, _ in OUTCOMES}
    for m in _rows(seed):
        counts[_outcome(m.group(5))] += len(_numbers(m))
    for name, label in OUTCOMES:
        found = re.search(rf"^\| {re.escape(label)} \| (\d+) \|$", text, re.M)
        assert found, f"coverage_{seed}.md: no header row {label!r}"
        assert int(found.group(1)) == counts[name], f"coverage_{seed}.md: {label}: header {found.group(1)}, rows {counts[name]}"
