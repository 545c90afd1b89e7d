"""Seed 003: the inventory names only existing claims and leaves nothing uncovered (printed values: tests/test_paper_values.py)."""
from theory import ledger
from theory.inventory import coverage_counts
from theory.mapa import inventory


def test_inventory_claims_exist_and_nothing_is_uncovered():
    ids = {c.id for c in ledger.load_all()}
    for item in inventory.ITEMS:
        assert set(item.claims) <= ids, f"{item.label}: unknown claim ids {set(item.claims) - ids}"
    assert coverage_counts(inventory.ITEMS)["uncovered"] == 0


def test_every_seed_003_claim_is_in_the_inventory():
    named = {c for item in inventory.ITEMS for c in item.claims}
    mine = {c.id for c in ledger.load_all() if c.seed == "003"}
    assert mine <= named, f"claims missing from the inventory: {sorted(mine - named)}"


def test_item_lines_exist_in_the_seed():
    import os
    import re
    from pathlib import Path

    seeds = Path(os.environ.get("DPV_SEEDS_DIR", Path(__file__).resolve().parents[2] / "shared" / "seeds"))
    n = len((seeds / ledger.SEED_FILES["003"]).read_text(encoding="utf-8").splitlines())
    for item in inventory.ITEMS:
        for part in item.lines.split(","):
            m = re.match(r"^\s*L(\d+)(?:-L?(\d+))?\s*$", part)
            assert m and 1 <= int(m.group(1)) <= int(m.group(2) or m.group(1)) <= n, f"{item.label}: {item.lines!r}"
