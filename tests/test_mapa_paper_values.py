"""Seed 003: every printed value stands on its cited line; the inventory names only existing claims."""
import os
from pathlib import Path

import pytest

from theory import ledger
from theory.inventory import coverage_counts
from theory.mapa import inventory, paper_values
from theory.printed import Printed

SEED = Path(os.environ.get("DPV_SEEDS_DIR", Path(__file__).resolve().parents[2] / "shared" / "seeds")) / "003_8b45c9baf0227e58.txt"


def _printed(obj):
    if isinstance(obj, Printed):
        yield obj
    elif isinstance(obj, dict):
        for v in obj.values():
            yield from _printed(v)
    elif isinstance(obj, (tuple, list)):
        for v in obj:
            yield from _printed(v)


VALUES = [p for name in dir(paper_values) if name.isupper() for p in _printed(getattr(paper_values, name))]


@pytest.mark.parametrize("p", VALUES, ids=[f"{p.line}:{p.text}" for p in VALUES])
def test_printed_text_stands_on_its_line(p):
    if not SEED.exists():
        pytest.skip("seed file not present")
    lines = SEED.read_text(encoding="utf-8").splitlines()
    first, _, last = p.line[1:].partition("-")
    span = " ".join(lines[int(first) - 1:int(last.lstrip("L") or first)])
    assert p.text in span, f"{p.text!r} not on {p.line}"


def test_inventory_claims_exist_and_nothing_is_uncovered():
    ids = {c.id for c in ledger.load_all()}
    for item in inventory.ITEMS:
        assert set(item.claims) <= ids, f"{item.label}: unknown claim ids {set(item.claims) - ids}"
    assert coverage_counts(inventory.ITEMS)["uncovered"] == 0


def test_every_seed_003_claim_is_in_the_inventory():
    named = {c for item in inventory.ITEMS for c in item.claims}
    mine = {c.id for c in ledger.load_all() if c.seed == "003"}
    assert mine <= named, f"claims missing from the inventory: {sorted(mine - named)}"
