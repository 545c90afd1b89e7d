"""Agreement between the fresh readers' verdicts (docs/referee/fresh_reader_<seed>.md) and the ledger.

    .venv/bin/python tools/reader_agreement.py

Each reader (an independent referee who had not seen the suite's claims) decided a random sample of the
ledger's claim statements from the paper alone. A reader's status cell may qualify itself ("holds (as
printed)", "refuted (reading std = zL); holds if ..."): its first status word is the one compared. Prints,
per paper, the claims where the reader's status differs from the ledger's recorded one, and the counts.
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from theory import ledger  # noqa: E402

STATUS_WORDS = sorted(ledger.STATUSES, key=len, reverse=True)  # "holds-with-correction" before "holds"


def reader_rows(path: Path):
    for line in path.read_text(encoding="utf-8").splitlines():
        cells = [c.strip().strip("`") for c in line.strip().strip("|").split("|")]
        if len(cells) >= 2 and re.fullmatch(r"\d{3}\.[\w.\-]+", cells[0]):
            status = next((s for s in STATUS_WORDS if cells[1].lower().replace(" ", "-").startswith(s)), cells[1])
            yield cells[0], status


def main() -> int:
    recorded = {c.id: c.recorded for c in ledger.load_all()}
    total = agree = 0
    for path in sorted((ROOT / "docs" / "referee").glob("fresh_reader_*.md")):
        rows = list(reader_rows(path))
        same = [cid for cid, s in rows if recorded.get(cid) == s]
        for cid, s in rows:
            if recorded.get(cid) != s:
                print(f"  {cid}: ledger {recorded.get(cid)}, reader {s}")
        print(f"{path.stem}: {len(same)} of {len(rows)} statuses agree")
        total, agree = total + len(rows), agree + len(same)
    print(f"all: {agree} of {total} ({100 * agree / max(total, 1):.0f} %)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
