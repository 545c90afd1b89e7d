"""The fixed-order vs adaptive claims of seeds 001 and 004 (issue 25, item 6), recomputed independently.

The claims read everything from ``numerics.epsilon`` (method ``pld-adaptive``). Here the two ends that decide
them come from other entry points: the adaptive lower bound from ``numerics.adaptive.adaptive_replace_one_epsilon``
called directly, and the fixed order from the Poisson add/remove accountant (``numerics.epsilon`` on
``Schedule.constant``): the pair (P, Q) = ((1-g)N(0, z^2) + gN(2, z^2), N(0, z^2)) is the Poisson "remove" pair
at rate g and noise z/2, and (Q, P) its "add" pair, so the add/remove bracket is a second certified bracket of
the best fixed order (numerics/adaptive.py, ``step_pair``).
"""
import pytest

import numerics
from numerics.adaptive import adaptive_replace_one_epsilon
from numerics.schedule import Schedule
from theory import ledger
from theory.lemmas.adaptive_gap import understatement_verdict

CLAIMS = {c.id: c for c in ledger.load_all()}
IDS = ("001.privacy.fixed-order-vs-adaptive", "004.privacy.fixed-order-vs-adaptive")


@pytest.fixture(scope="module")
def verdicts():
    return {cid: CLAIMS[cid].evaluate() for cid in IDS}


def _fixed_order_add_remove(row):
    """The independent bracket, at a width finer than the row's gap (a coarser one cannot confirm the gap)."""
    g = row["batch_size"] / row["dataset_size"]
    width = min(1e-3, row["gap_relative"] / 4)
    return numerics.epsilon(Schedule.constant(q=g, sigma=row["sigma"] / 2.0, steps=row["steps"]), row["delta"],
                            rel_width=width)


def _adaptive_direct(row):
    return adaptive_replace_one_epsilon(g=row["batch_size"] / row["dataset_size"], sigma=row["sigma"],
                                        steps=row["steps"], delta=row["delta"])


def _deciding_rows(verdict):
    """The rows with the largest and the smallest positive gap (the claim holds through them)."""
    decided = [r for r in verdict.evidence["rows"] if r["gap"] > 0]
    return [max(decided, key=lambda r: r["gap_relative"]), min(decided, key=lambda r: r["gap_relative"])]


@pytest.mark.parametrize("cid", IDS)
def test_adaptive_lower_clears_an_independent_fixed_order_upper_bound(verdicts, cid):
    v = verdicts[cid]
    assert v.status == "holds" and v.margin > 0
    for row in _deciding_rows(v):
        direct = _adaptive_direct(row)
        fixed = _fixed_order_add_remove(row)
        # the claim's adaptive lower bound is the accountant's, unchanged on the way to the ledger
        assert direct.epsilon_lower == pytest.approx(row["adaptive_lower"], rel=1e-9)
        # two certified brackets of the best fixed order must intersect
        assert fixed.epsilon_lower <= row["fixed_order_upper"] and row["fixed_order_lower"] <= fixed.epsilon_upper
        # the decision, on the independent fixed-order upper bound
        assert direct.epsilon_lower > fixed.epsilon_upper, row
        assert direct.epsilon_lower <= direct.epsilon_upper


@pytest.mark.parametrize("cid", IDS)
def test_rows_are_ordered_brackets_and_the_gap_is_what_it_says(verdicts, cid):
    for row in verdicts[cid].evidence["rows"]:
        assert row["method"] == "pld-adaptive"
        assert row["fixed_order_lower"] <= row["fixed_order_upper"]
        assert row["fixed_order_lower"] <= row["adaptive_lower"] <= row["certified_upper"]
        assert row["gap"] == row["adaptive_lower"] - row["fixed_order_upper"]
        assert row["gap_relative"] == row["gap"] / row["fixed_order_upper"]


def test_no_gap_anywhere_leaves_the_claim_open():
    """Adaptive lower bounds that do not clear the fixed-order upper end decide nothing: open, never refuted."""
    rows = [{"fixed_order_lower": 1.0, "fixed_order_upper": 1.1, "adaptive_lower": 1.05, "certified_upper": 1.3,
             "gap": 1.05 - 1.1, "gap_relative": (1.05 - 1.1) / 1.1, "method": "pld-adaptive"}]
    v = understatement_verdict(rows)
    assert v.status == "open" and v.margin < 0 and v.reason
