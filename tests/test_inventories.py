"""Every paper package's inventory: well-formed, every named claim exists, every line exists in its seed.

Inventories are discovered: each ``theory/<paper>/inventory.py`` beside a ``paper_values.py`` naming its
``SEED`` file (the seed's three-digit prefix is the claims' seed).
"""
import os
import re
from pathlib import Path

import pytest

from theory import ledger
from theory.inventory import coverage_counts

SEEDS_DIR = Path(os.environ.get("DPV_SEEDS_DIR", Path(__file__).resolve().parents[2] / "shared" / "seeds"))


def _discover() -> dict:
    import importlib
    import pkgutil

    import theory

    found = {}
    for info in pkgutil.iter_modules(theory.__path__):
        if not info.ispkg:
            continue
        try:
            values = importlib.import_module(f"theory.{info.name}.paper_values")
        except ModuleNotFoundError:
            continue
        if (Path(theory.__path__[0]) / info.name / "inventory.py").exists():
            found[values.SEED[:3]] = f"theory.{info.name}.inventory"
    return found


INVENTORIES = _discover()


def test_inventories_are_found_for_every_paper_package_with_values():
    assert {"000", "002"} <= set(INVENTORIES), INVENTORIES


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
