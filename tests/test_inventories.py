"""The inventories of seeds 000 and 002: well-formed, every named claim exists, every line exists in its seed."""
import os
import re
from pathlib import Path

import pytest

from theory import ledger
from theory.inventory import coverage_counts

SEEDS_DIR = Path(os.environ.get("DPV_SEEDS_DIR", Path(__file__).resolve().parents[2] / "shared" / "seeds"))
INVENTORIES = {"000": "theory.async_fl.inventory", "002": "theory.proactive_dp.inventory"}


def _items(seed):
    import importlib

    return importlib.import_module(INVENTORIES[seed]).ITEMS


@pytest.mark.parametrize("seed", sorted(INVENTORIES))
def test_every_named_claim_exists_and_belongs_to_the_seed(seed):
    ids = {c.id for c in ledger.load_all()}
    for item in _items(seed):
        for cid in item.claims:
            assert cid in ids, f"{item.label}: unknown claim {cid}"
            assert cid.startswith(seed + "."), f"{item.label}: {cid} is not a claim of seed {seed}"


@pytest.mark.parametrize("seed", sorted(INVENTORIES))
def test_item_lines_exist_in_the_seed(seed):
    seed_file = SEEDS_DIR / ledger.SEED_FILES[seed]
    assert seed_file.exists(), f"seed file {seed_file} missing: set DPV_SEEDS_DIR"
    n = len(seed_file.read_text(encoding="utf-8").splitlines())
    for item in _items(seed):
        for part in item.lines.split(","):
            m = re.match(r"^\s*L(\d+)(?:-L?(\d+))?\s*$", part)
            assert m, f"{item.label}: lines {item.lines!r}"
            assert 1 <= int(m.group(1)) <= int(m.group(2) or m.group(1)) <= n


@pytest.mark.parametrize("seed", sorted(INVENTORIES))
def test_every_claim_of_the_seed_is_in_its_inventory(seed):
    named = {cid for item in _items(seed) for cid in item.claims}
    missing = [c.id for c in ledger.load_all() if c.seed == seed and c.id not in named]
    assert not missing, f"claims of seed {seed} no inventory item names: {missing}"


@pytest.mark.parametrize("seed", sorted(INVENTORIES))
def test_coverage_counts_add_up(seed):
    counts = coverage_counts(_items(seed))
    assert sum(counts.values()) == len(_items(seed))
