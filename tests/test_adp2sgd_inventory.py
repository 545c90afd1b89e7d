"""Seed 001 inventory: every item is covered or says why not, every named claim exists, and every seed-001
claim is named by some item."""
from theory import ledger
from theory.adp2sgd.inventory import ITEMS
from theory.inventory import UNCOVERED, coverage_counts


def test_no_uncovered_item():
    assert coverage_counts(ITEMS)[UNCOVERED] == 0, [i.label for i in ITEMS if i.coverage == UNCOVERED]


def test_named_claims_exist_and_every_claim_is_named():
    ids = {c.id for c in ledger.load_all() if c.seed == "001"}
    named = {cid for item in ITEMS for cid in item.claims}
    assert named <= ids, sorted(named - ids)
    assert ids <= named, sorted(ids - named)


def test_every_numbered_display_is_listed():
    listed = " ".join(i.label for i in ITEMS)
    for n in list(range(1, 10)) + [20, 21, 22, 23, 24, 25]:
        assert f"({n})" in listed or f"({n})-" in listed or any(
            f"({a})-({b})" in listed for a in range(1, n + 1) for b in range(n, 26)), n
