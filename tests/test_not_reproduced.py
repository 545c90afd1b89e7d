"""A ``not-reproduced`` verdict names what is missing, and only what the suite cannot have (issue 32).

The ledger (:class:`theory.ledger.Missing`) allows three kinds: a data set not available offline, a model
family the suite does not train, or compute beyond what it can run with a measured estimate. Run length, a
grid, the number of seeds or a constant the paper leaves unstated are never missing: the paper's setting is
run (unstated constants varied over a stated range), so a claim naming one of them fails here.
"""
import re

import pytest

from tests.ledger_verdicts import CLAIMS, per_claim, verdict
from theory.ledger import MISSING_KINDS, Missing, Verdict

#: words that name an obstacle the suite can remove itself (run length, grid, seeds, unstated constants)
NOT_MISSING = re.compile(r"iteration|horizon|run length|epoch|rounds?\b|\bgrid|seeds?\b|unstated|not stated|"
                         r"budget|too (slow|long)|step size", re.IGNORECASE)

NOT_REPRODUCED = [c for c in CLAIMS if c.recorded == "not-reproduced"]


def test_ledger_refuses_not_reproduced_without_missing():
    with pytest.raises(ValueError, match="names what is missing"):
        Verdict("not-reproduced", "sampled", evidence={"points": 1}, reason="stand-in data")
    with pytest.raises(ValueError, match="only a not-reproduced verdict"):
        Verdict("open", "sampled", evidence={"points": 1}, reason="r", missing=Missing("data set", "USPS"))
    v = Verdict("not-reproduced", "sampled", evidence={"points": 1}, reason="r", missing=Missing("data set", "USPS"))
    assert v.missing.kind == "data set"


def test_missing_kinds_and_compute_estimate():
    with pytest.raises(ValueError, match="missing kind"):
        Missing("iterations", "15,000 iterations")
    with pytest.raises(ValueError, match="name what"):
        Missing("data set", " ")
    with pytest.raises(ValueError, match="measured estimate"):
        Missing("compute", "the paper's 50k-image runs")
    assert Missing("compute", "x", estimate="12 s per run measured x 4000 runs = 13 CPU-hours").estimate


def test_the_rule_rejects_run_length_grid_seeds_and_unstated_constants():
    for what in ("the paper's 15,000 iterations", "the epsilon grid of Fig. S9", "more seeds",
                 "the unstated constants R, L, sigma", "a longer run budget"):
        assert NOT_MISSING.search(what), what
    for what in ("USPS (not available offline)", "the paper's CNN", "SVHN", "CIFAR-10 and SWB300"):
        assert not NOT_MISSING.search(what), what


@pytest.mark.skipif(not NOT_REPRODUCED, reason="no claim is recorded not-reproduced")
@per_claim(NOT_REPRODUCED)
def test_not_reproduced_names_what_is_missing(c):
    v = verdict(c.id)
    assert v.status == "not-reproduced", (c.id, v.status)
    assert isinstance(v.missing, Missing) and v.missing.kind in MISSING_KINDS, c.id
    text = f"{v.missing.what} {v.missing.estimate}"
    assert not NOT_MISSING.search(text), (c.id, "names an obstacle the suite can remove", text)


def test_the_report_shows_what_is_missing():
    from pathlib import Path

    from theory import report

    e = {"statement": "s", "status": "not-reproduced", "reason": "r", "why": "", "readings": [],
         "missing": {"kind": "compute", "what": "the paper's runs", "estimate": "12 s x 4000 = 13 CPU-hours"}}
    assert report.missing_text(e) == "compute: the paper's runs (estimate: 12 s x 4000 = 13 CPU-hours)"
    assert "**Missing:** compute: the paper's runs" in report._argument_markdown(e, Path("."))
    assert report.missing_text({**e, "missing": None}) == ""
    assert any("**Missing**" in line for line in report.definitions_markdown())
