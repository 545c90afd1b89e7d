"""Trust in a verdict, checked over the whole ledger (issue 16, "Trust").

- Margin (theory.ledger.MARGIN_DEFINITION): negative means the statement is violated. A refuted claim
  carries a negative margin (or None with the reason under ``evidence['margin_none']``); a claim that
  holds carries a margin >= 0 when it gives one.
- Every refuted claim's counterexample is recomputed: through the claim's ``recheck`` (which checks the
  hypotheses at the counterexample and returns the conclusion's margin there, negative), else at least
  the counterexample is concrete, JSON-able and the margin negative.
- An ``exact`` or ``rigorous`` verdict states what it covered under ``evidence['domain']``.

The allowlists below name today's violators, one id each. They may only shrink: an allowlisted claim
that now complies fails the test until its id is removed (so the lists track the audit, issue 17).
The verdicts come from tests/ledger_verdicts.py (each claim evaluated once per test process).
"""
import json

import pytest

from theory import ledger

from tests.ledger_verdicts import BY_ID, CLAIMS, per_claim, verdict

#: refuted claims whose margin is >= 0 (the audit, issue 17, emptied it)
KNOWN_MARGIN_SIGN_VIOLATIONS = frozenset()
#: refuted claims with margin None and no evidence['margin_none'] (emptied by the audit, issue 17)
KNOWN_MISSING_MARGIN_REASONS = frozenset()
#: exact/rigorous claims without evidence['domain'] (for the audit, issue 17, and the paper owners to empty)
KNOWN_MISSING_DOMAIN = frozenset({
    "002.lemma-B3.conclusion.certified", "002.lemma-B3.moment-14.certified", "002.lemma-B3.tail-13.certified",
})
#: refuted claims without claim(recheck=) (for the audit, issue 17, and the paper owners to empty)
KNOWN_WITHOUT_RECHECK = frozenset({
    "000.alg.C1-sign", "000.alg.noise-sign", "000.alg.wait-equality", "000.coverage.recursion",
    "000.example-1.comparison", "000.example-1.constants", "000.example-3.comparison", "000.example-3.main-text",
    "000.example-4.comparison", "000.example-4.constants", "000.example-5.L1782-rounded-q",
    "000.example-5.comparison", "000.fig1b.increasing-better-under-dp", "000.lemma-B3.c22-hypotheses",
    "000.title.noise-metric-step-sizes", "001.thm-2.guarantee-given-sensitivity", "002.appC.clt-not-exact-L1598",
    "002.calc-D4.L1598", "002.calc-E1.s-column", "002.calc-E1.scan-later-block",
    "002.fig11.eps-0.1-close-to-non-dp", "002.fig4.sigma-range-c-0.1", "002.fig6.mnist-sigma-12-at-c-0.025",
    "002.table-10.cells", "002.table-11.cells", "002.table-6.sigma-column", "002.table-7.sigma-column",
    "002.table-8.sigma-column", "002.table-9.cells", "002.thm-3.1.eq6-close-to-tight",
    "002.thm-3.2.factor-2gamma-tables", "002.thm-3.2.factor-4-abstract",
})

ALLOWLISTS = {"KNOWN_MARGIN_SIGN_VIOLATIONS": KNOWN_MARGIN_SIGN_VIOLATIONS,
              "KNOWN_MISSING_MARGIN_REASONS": KNOWN_MISSING_MARGIN_REASONS,
              "KNOWN_MISSING_DOMAIN": KNOWN_MISSING_DOMAIN,
              "KNOWN_WITHOUT_RECHECK": KNOWN_WITHOUT_RECHECK}


def _allowed(allowlist_name: str, claim_id: str, complies: bool, problem: str) -> None:
    """Fail on a violation outside the allowlist, and on an allowlisted claim that now complies."""
    allowlist = ALLOWLISTS[allowlist_name]
    if complies:
        assert claim_id not in allowlist, f"{claim_id} now complies: remove it from {allowlist_name}"
    else:
        assert claim_id in allowlist, f"{claim_id}: {problem}"


@pytest.mark.parametrize("name", sorted(ALLOWLISTS))
def test_allowlists_name_only_claims_of_the_ledger(name):
    unknown = sorted(ALLOWLISTS[name] - set(BY_ID))
    assert not unknown, f"{name} names claims that are not in the ledger: {unknown}"


@per_claim()
def test_margin_sign_follows_the_one_definition(c):
    v = verdict(c.id)
    if v.margin is not None:
        assert isinstance(v.margin, (int, float)) and v.margin == v.margin, f"{c.id}: margin {v.margin!r}"
    if v.status == "refuted":
        if v.margin is None:
            reason = v.evidence.get("margin_none")
            _allowed("KNOWN_MISSING_MARGIN_REASONS", c.id, isinstance(reason, str) and bool(reason.strip()),
                     "refuted with margin None: give a negative margin or evidence['margin_none'] (why none)")
        else:
            _allowed("KNOWN_MARGIN_SIGN_VIOLATIONS", c.id, v.margin < 0,
                     f"refuted with margin {v.margin} >= 0; negative means the statement is violated")
    elif v.status == "holds" and v.margin is not None:
        assert v.margin >= 0, f"{c.id}: holds with negative margin {v.margin}"
    unit = v.evidence.get("margin_unit") if isinstance(v.evidence, dict) else None
    assert unit is None or (isinstance(unit, str) and unit.strip()), f"{c.id}: margin_unit must be a string"


def recheck_counterexample(c: ledger.Claim, v: ledger.Verdict) -> None:
    """Assert that a refuted verdict's counterexample satisfies the claim's hypotheses and violates its
    conclusion, through ``c.recheck``; without one, only that the counterexample is concrete."""
    assert v.status == "refuted" and v.counterexample, f"{c.id}: refuted without a counterexample"
    json.dumps(v.counterexample, allow_nan=False)
    if c.recheck is None:
        _allowed("KNOWN_WITHOUT_RECHECK", c.id, False,
                 "refuted without claim(recheck=): give a function counterexample -> margin")
        return
    _allowed("KNOWN_WITHOUT_RECHECK", c.id, True, "")
    try:
        margin = c.recheck(dict(v.counterexample))
    except ledger.HypothesisFails as exc:
        pytest.fail(f"{c.id}: the counterexample does not satisfy the claim's hypotheses: {exc}")
    assert margin < 0, f"{c.id}: recheck of the counterexample gives margin {margin} >= 0 (conclusion holds)"


@per_claim([c for c in CLAIMS if c.recorded == "refuted"])
def test_refuted_counterexample_is_recomputed(c):
    recheck_counterexample(c, verdict(c.id))


def _square_claim(recheck):
    """A toy refuted claim "x**2 <= x for x >= 0" with counterexample x = 2 (relative margin (x - x**2)/x**2)."""
    return ledger.Claim("002.toy.square", "002", "L1", "x**2 <= x for x >= 0", "refuted", lambda: None,
                        recheck=recheck)


def _square_margin(cx):
    if cx["x"] < 0:
        raise ledger.HypothesisFails(f"x = {cx['x']} < 0")
    return (cx["x"] - cx["x"] ** 2) / cx["x"] ** 2


def test_recheck_accepts_a_true_counterexample_and_rejects_false_ones():
    refuted = ledger.Verdict("refuted", "exact", margin=-0.5, counterexample={"x": 2},
                             evidence={"domain": "one point"})
    recheck_counterexample(_square_claim(_square_margin), refuted)
    with pytest.raises(pytest.fail.Exception, match="hypotheses"):
        recheck_counterexample(_square_claim(_square_margin),
                               ledger.Verdict("refuted", "exact", margin=-0.5, counterexample={"x": -1}))
    with pytest.raises(AssertionError, match="conclusion holds"):
        recheck_counterexample(_square_claim(_square_margin),
                               ledger.Verdict("refuted", "exact", margin=-0.5, counterexample={"x": 0.5}))


@per_claim([c for c in CLAIMS])
def test_exact_and_rigorous_verdicts_state_their_domain(c):
    v = verdict(c.id)
    if v.evidence_kind not in ("exact", "rigorous"):
        return
    domain = v.evidence.get("domain")
    _allowed("KNOWN_MISSING_DOMAIN", c.id, isinstance(domain, str) and bool(domain.strip()),
             f"{v.evidence_kind} evidence without evidence['domain'] ('whole stated domain', "
             "'exhaustive for lambda <= 120', 'one-sided: upper', ...)")
