"""The ledger as a referee's report (issue 30): results and roles, severity by rule, why, readings, causes,
evidence kinds held against the arithmetic a computation used.

- Every claim names its paper result and its role there (theory.ledger.ROLES).
- Severity is theory.ledger.severity(role, status, status of the result's conclusion): renaming a claim's
  id never changes it.
- Every verdict that is not ``holds`` carries a why (open and not-reproduced: the reason is the why).
- ``exact`` evidence states its arithmetic and it is integer, rational or symbolic; ``symbolic`` uses
  sympy; ``rigorous`` uses ball arithmetic (theory.ledger.check_arithmetic).
- Every theorem, lemma, proposition and corollary the inventories cover has a conclusion claim.
"""
import importlib

import pytest

from theory import inventory, ledger

from tests.ledger_verdicts import CLAIMS, per_claim, verdict

PAPERS = ("000", "001", "002", "003", "004")
RESULT_KINDS = ("theorem", "lemma", "proposition", "corollary")


def recorded_severity(c: ledger.Claim) -> "str | None":
    """The severity the report gives ``c`` when every claim computes its recorded status."""
    statuses = [d.recorded for d in CLAIMS if d.seed == c.seed and d.result == c.result and d.role == "conclusion"]
    return ledger.severity(c.role, c.recorded, ledger.conclusion_status(statuses))


@pytest.mark.parametrize("c", CLAIMS, ids=lambda c: c.id)
def test_claim_names_its_result_and_role(c):
    assert c.result and c.result.strip(), f"{c.id}: no result (claim(result='Theorem 2', ...))"
    assert c.role in ledger.ROLES, f"{c.id}: role {c.role!r} is not one of {ledger.ROLES}"


@per_claim([c for c in CLAIMS if c.recorded != "holds"])
def test_every_finding_says_why(c):
    v = verdict(c.id)
    if v.status == "holds":
        return
    why = v.why or (v.reason if v.status in ("open", "not-reproduced") else "")
    assert why.strip(), f"{c.id} is {v.status} without a why (Verdict(why=...), computed numbers in it)"


@per_claim([c for c in CLAIMS if c.recorded in ("holds", "refuted", "holds-with-correction")])
def test_evidence_kind_matches_the_arithmetic_used(c):
    v = verdict(c.id)
    if v.evidence_kind in ("exact", "symbolic", "rigorous"):
        assert v.arithmetic, f"{c.id}: {v.evidence_kind} evidence must state Verdict(arithmetic=...)"
    ledger.check_arithmetic(v.evidence_kind, v.arithmetic)


@per_claim([c for c in CLAIMS if c.recorded != "holds"])
def test_readings_lead_with_the_one_the_status_uses(c):
    v = verdict(c.id)
    if v.readings:
        assert v.readings[0].status == v.status
        assert all(r.lines for r in v.readings), f"{c.id}: every reading cites the seed line behind it"


#: results whose verdict rests on a choice the paper leaves open (issue 30): each shows both readings, computed
READING_CLAIMS = ("004.table-3.uniform-certified", "004.table-4.uniform-certified", "004.table-6.uniform-certified",
                  "001.thm-2.guarantee", "001.thm-2.guarantee-given-sensitivity")


@per_claim([c for c in CLAIMS if c.id in READING_CLAIMS])
def test_results_resting_on_an_open_choice_show_every_reading(c):
    v = verdict(c.id)
    assert len(v.readings) >= 2, f"{c.id}: the readings the verdict depends on must be shown"
    assert all(r.why or r.margin is not None for r in v.readings), f"{c.id}: each reading says what it gives"


def test_severity_is_a_function_of_role_and_status_never_of_the_id():
    from theory.report import with_severities

    def entries(rename):
        return [{"id": (c.seed + ".renamed.typo-table-thm-" + str(i)) if rename else c.id, "seed": c.seed,
                 "result": c.result, "role": c.role, "status": c.recorded} for i, c in enumerate(CLAIMS)]

    plain, renamed = with_severities(entries(False)), with_severities(entries(True))
    assert [e["severity"] for e in plain] == [e["severity"] for e in renamed]
    assert any(e["severity"] for e in plain)
    assert ledger.severity("proof-step", "refuted", "holds") == "wrong-constant-or-step"
    assert ledger.severity("proof-step", "refuted", None) == "result-unproven"
    assert ledger.severity("conclusion", "refuted", "refuted") == "result-fails"
    assert ledger.severity("conclusion", "holds-with-correction", None) == "result-needs-correction"
    assert ledger.severity("printed-value", "refuted", None) == "table-or-figure-value"
    assert ledger.severity("method", "refuted", None) is None
    assert ledger.severity("remark", "refuted", None) == "wrong-constant-or-step"
    assert ledger.severity("conclusion", "holds", "holds") is None
    with pytest.raises(ValueError, match="role"):
        ledger.claim(id="002.x.y", seed="002", lines="L1", statement="s", recorded="holds", role="minor")


@pytest.mark.parametrize("claim_id", ["001.prop-1.conditions-imply-c1-c2-c3", "004.lemma-7.young-step",
                                      "003.thm-2.eq-26"])
def test_refuted_steps_of_results_that_survive_are_not_failed_results(claim_id):
    c = next(c for c in CLAIMS if c.id == claim_id)
    assert c.role != "conclusion"
    assert recorded_severity(c) == "wrong-constant-or-step"


def _short(label: str) -> str:
    return label.split(" (")[0].strip()


@pytest.mark.parametrize("seed", PAPERS)
def test_every_covered_result_has_a_conclusion_claim(seed):
    package = {c.seed: c.check.__module__.rsplit(".", 1)[0] for c in CLAIMS if c.seed == seed}[seed]
    items = importlib.import_module(package + ".inventory").ITEMS
    conclusions = {c.result for c in CLAIMS if c.seed == seed and c.role == "conclusion"}
    gaps = [f"{i.label} ({i.lines})" for i in items
            if i.kind in RESULT_KINDS and i.coverage == inventory.COVERED and _short(i.label) not in conclusions]
    assert not gaps, f"seed {seed}: results with claims but no conclusion claim (result=..., role='conclusion'): {gaps}"


def test_arithmetic_rule():
    ledger.check_arithmetic("exact", ("rational", "integer"))
    with pytest.raises(ValueError, match="exact"):
        ledger.check_arithmetic("exact", ("mpmath",))
    with pytest.raises(ValueError, match="symbolic"):
        ledger.check_arithmetic("symbolic", ("float",))
    with pytest.raises(ValueError):
        ledger.Verdict("holds", "exact", arithmetic=("float",))
