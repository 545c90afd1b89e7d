"""docs/referee/coverage_000.md (issue 31): every claim id it names exists in the ledger with the status it states,
every statement of docs/referee/statements_000.md has one row, and the counts add up."""
import re
from pathlib import Path

from theory import ledger

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "referee" / "coverage_000.md"
STATEMENTS = ROOT / "docs" / "referee" / "statements_000.md"
CLAIMS = {c.id: c for c in ledger.load_all() if c.seed == "000"}


def _rows():
    return [line for line in DOC.read_text().splitlines() if re.match(r"^\| \d+ \|", line)]


def test_one_row_per_listed_statement():
    listed = [int(m.group(1)) for m in re.finditer(r"^(\d+)\. L", STATEMENTS.read_text(), re.M)]
    assert [int(r.split("|")[1]) for r in _rows()] == listed


def test_named_claims_exist_with_the_stated_status():
    for row in _rows():
        for claim_id, status in re.findall(r"`(000\.[^`]+)`(?: \(added\))? ([a-z-]+)", row):
            assert claim_id in CLAIMS, f"{claim_id} is not a claim of seed 000"
            assert CLAIMS[claim_id].recorded == status, f"{claim_id}: the doc says {status}, the ledger records {CLAIMS[claim_id].recorded}"


def test_counts_add_up():
    text = DOC.read_text()
    coverage = [r.split("|")[4].strip() for r in _rows()]
    n = {k: coverage.count(k) for k in ("covered", "claim added", "not checkable")}
    assert f"statements listed: {len(coverage)}" in text
    assert f"already covered by claims: {n['covered']}" in text
    assert f"covered by claims added in this pass: {n['claim added']} statements" in text
    assert f"not checkable (reason given): {n['not checkable']}" in text
    assert sum(n.values()) == len(coverage)
