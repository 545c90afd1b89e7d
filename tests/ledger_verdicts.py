"""Every claim evaluated once per test process, shared by the tests that walk the ledger.

``tests/test_ledger.py`` and ``tests/test_trust.py`` check different things about the same verdicts; the
cache makes them evaluate each claim once. Under pytest-xdist the per-claim tests carry the mark
``xdist_group(<claim id>)`` (see :func:`per_claim`) and ``make test`` runs ``--dist loadgroup``, so all
tests of one claim land on the same worker and share its cached verdict.
"""
import functools

import pytest

from theory import ledger

CLAIMS = ledger.load_all()
BY_ID = {c.id: c for c in CLAIMS}


@functools.lru_cache(maxsize=None)
def verdict_and_seconds(claim_id: str):
    """``(Verdict, CPU seconds)`` of one claim, computed on first use. CPU time of this process, not wall
    time: on a loaded machine a claim's wall time grows with the load and a ceiling on it flakes (issue 34);
    the tests run the claims in-process (serial backend), so the CPU time is all of the claim's work."""
    import time

    t0 = time.process_time()
    v = BY_ID[claim_id].evaluate()
    return v, time.process_time() - t0


def verdict(claim_id: str) -> ledger.Verdict:
    return verdict_and_seconds(claim_id)[0]


def per_claim(claims=None):
    """``pytest.mark.parametrize`` over claims, each grouped by its id for ``--dist loadgroup``."""
    claims = CLAIMS if claims is None else claims
    return pytest.mark.parametrize(
        "c", [pytest.param(c, id=c.id, marks=pytest.mark.xdist_group(c.id)) for c in claims])
