"""Rigorous claims (issue 12): statuses at the CI scale, counterexamples recomputed with mpmath, full region (slow)."""
import math

import mpmath
import pytest

from theory.async_fl import certified as c000
from theory.lemmas import certificates as tc
from theory.proactive_dp import lemma_b3_certified as c002
from theory.ledger import _REGISTRY

DPS = 80


def _lemma_sides(lam, sigma, q):
    """(bound, exact alpha(lam)) of 002 L530 / 000 L852 from scratch: tightest r0 = q sigma, u_j = U_j(lam),
    exact = ln sum_k binom(lam+1,k)(1-q)^(lam+1-k) q^k e^{k(k-1)/(2 sigma^2)} (Mironov's A_{lam+1})."""
    s, e = mpmath.mpf(sigma), mpmath.e
    r0 = q * s
    u0 = 2 * mpmath.sqrt(lam * r0 / s) / (s - r0)
    u1 = u0 * e / s
    r = r0 * 8 * (1 / (1 - u0) + e ** 3 / ((1 - u1) * s ** 3)) * mpmath.exp(3 / s ** 2)
    bound = q ** 2 * lam * (lam + 1) / ((1 - q) * s ** 2) + r / r0 * q ** 3 * lam ** 2 * (lam + 1) / ((1 - q) ** 2 * s ** 3)
    a = lam + 1
    exact = mpmath.log(mpmath.fsum(math.comb(a, k) * (1 - q) ** (a - k) * q ** k * mpmath.exp(k * (k - 1) / (2 * s ** 2))
                                   for k in range(a + 1)))
    hyp = {"r0 < 1": r0 < 1, "lam <= sigma^2 ln(1/(q sigma))": lam <= s ** 2 * mpmath.log(1 / (q * s)),
           "U0 < 1": u0 < 1, "U1 < 1": u1 < 1}
    return bound, exact, hyp


@pytest.mark.parametrize("fn, status", [(c002.check_lemma_b3_conclusion, "holds"), (c002.check_tail_13, "holds"),
                                        (c002.check_moment_14, "holds"), (c000.check_lemma_d1_conclusion, "refuted"),
                                        (c000.check_u_threshold, "holds"), (c000.check_sqrt_bound, "holds")])
def test_ci_scale_statuses_and_evidence(fn, status):
    v = fn()
    assert v.status == status == _REGISTRY[fn.claim_id].recorded
    assert v.evidence_kind == "rigorous" and v.evidence["scale"] == "ci"
    assert v.evidence["boxes"] >= v.evidence["certified_boxes"] + v.evidence["skipped_boxes"] > 0
    if status == "holds":
        assert v.margin > 0 and not v.evidence["open_boxes_left"]


def test_d1_counterexample_recomputed_with_mpmath():
    v = c000.check_lemma_d1_conclusion()
    ce = v.counterexample
    with mpmath.workdps(DPS):
        sigma, tau = mpmath.mpf(ce["sigma"]), mpmath.mpf(ce["tau"])
        q = tau * mpmath.exp(-ce["lam"] / sigma ** 2) / sigma
        assert abs(q / mpmath.mpf(ce["q"]) - 1) < mpmath.mpf(10) ** -25
        bound, exact, hyp = _lemma_sides(ce["lam"], sigma, q)
        assert all(hyp.values()), hyp
        assert sigma < tc.SIGMA_MIN_002  # seed 002's extra hypothesis is what excludes it
        assert exact > bound  # the conclusion fails at this point of seed 000's region


def test_d1_failure_is_the_small_q_limit_below_the_root_of_exp():
    """Independent of the certifier: at sigma = 0.8 and q = 1e-12 (inside D.1's region) the bound loses."""
    with mpmath.workdps(DPS):
        bound, exact, hyp = _lemma_sides(1, mpmath.mpf("0.8"), mpmath.mpf("1e-12"))
        assert all(hyp.values()) and exact > bound
        bound, exact, hyp = _lemma_sides(1, mpmath.mpf(216) / 215, mpmath.mpf("1e-12"))
        assert all(hyp.values()) and exact < bound


@pytest.mark.slow
def test_full_region_lemma_b3_conclusion(monkeypatch):
    """The issue's target region: lambda <= 400, sigma in [216/215, 100]."""
    cert = tc.certify_lemma_b3(400, 100.0, max_boxes=200_000, max_seconds=3600.0)
    assert cert.status == "certified" and cert.min_margin > 0


@pytest.mark.slow
@pytest.mark.parametrize("fn", [c002.check_lemma_b3_conclusion, c002.check_tail_13, c002.check_moment_14,
                                c000.check_lemma_d1_conclusion, c000.check_u_threshold, c000.check_sqrt_bound])
def test_full_scale_claims_match_the_ledger(monkeypatch, fn):
    monkeypatch.setenv("DPV_CERTIFY_SCALE", "full")
    assert fn().status == _REGISTRY[fn.claim_id].recorded


def test_u_threshold_fails_just_below_the_printed_sigma():
    """The certified threshold is tight: at sigma = 1.12 and r0 = (sqrt3-1)/16, u1 >= 1 (mpmath)."""
    with mpmath.workdps(DPS):
        r0, s = (mpmath.sqrt(3) - 1) / 16, mpmath.mpf("1.12")
        u0 = 2 * mpmath.sqrt(r0 * s) / (s - r0)
        assert max(u0, u0 * mpmath.e / s) >= 1
