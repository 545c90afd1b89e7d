"""docs/referee/coverage_002.md (issue 31) stays true to the ledger and to the reader's statement list: one row per
statement of statements_002.md, every claim id it names exists, and the counts in its header add up to its rows."""
import re
from pathlib import Path

from theory import ledger

DOCS = Path(__file__).resolve().parent.parent / "docs" / "referee"
ROW = re.compile(r"^\| (\d+) \| [^|]* \| [^|]* \| .* \| (covered|added|not-checkable) \| (.*) \|$")
ID = re.compile(r"\b002\.[A-Za-z0-9][\w.\-]*[A-Za-z0-9](?![\w.\-*])")  # "002.fig4.*" names a family, not an id


def _rows():
    return [m for m in (ROW.match(line) for line in (DOCS / "coverage_002.md").read_text(encoding="utf-8").splitlines()) if m]


def test_one_row_per_listed_statement():
    listed = [int(m.group(1)) for m in (re.match(r"^(\d+)\. L", line) for line in
                                        (DOCS / "statements_002.md").read_text(encoding="utf-8").splitlines()) if m]
    assert [int(m.group(1)) for m in _rows()] == listed


def test_every_named_claim_exists():
    ids = {c.id for c in ledger.load_all()}
    named = {i for m in _rows() for i in ID.findall(m.group(3))}
    assert named and not sorted(named - ids)


def test_header_counts_match_the_rows():
    text = (DOCS / "coverage_002.md").read_text(encoding="utf-8")
    m = re.search(r"Counts: (\d+) statements listed; (\d+) already covered by existing claims; (\d+) covered by the "
                  r"\d+ claims\s+added for issue 31; (\d+) not checkable", text)
    assert m, "the header's counts sentence is missing"
    cats = [r.group(2) for r in _rows()]
    assert [int(x) for x in m.groups()] == [len(cats), cats.count("covered"), cats.count("added"), cats.count("not-checkable")]
