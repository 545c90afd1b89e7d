r"""Seed 002 Lemma B.3 (L516-530) certified over bounded regions: ball-arithmetic proofs (issue 12).

Each claim here strengthens a sampled claim of the same id without the ``.certified`` suffix
(:mod:`theory.proactive_dp.lemma_b3`). The margins, their cancellation-free forms and the coordinates live
in :mod:`theory.lemmas.certificates`; branch and bound is :func:`numerics.certify.certify` (Arb balls,
tasks through the sweep runner, cached).

Statuses: ``holds`` = certified on the stated bounded region (beyond it the claim is open: no symbolic
argument here covers lambda or sigma past the region's ends); ``refuted`` = the certifier found a point
of the hypothesis region where the margin's ball is certainly negative (a test recomputes it with
mpmath at 50 digits); ``open`` = the budget ran out (the evidence lists boxes left).

The region's size comes from :func:`theory.lemmas.certificates.region_scale` (``DPV_CERTIFY_SCALE``).
"""
from __future__ import annotations

from theory.ledger import Verdict, claim
from theory.lemmas import certificates as tc
from theory.lemmas.certificates import BEYOND, certificate_verdict, certifier_budget, lemma_point


@claim(id="002.lemma-B3.conclusion.certified", seed="002", lines="L516-530",
       statement="alpha(lam) = ln A_{lam+1} <= q^2 lam(lam+1)/((1-q) sigma^2) + (r/r0) q^3 lam^2(lam+1)/((1-q)^2 sigma^3) "
                 "for every integer lam, sigma, q of the stated bounded part of the lemma's hypothesis region "
                 "(sigma >= 216/215, r0 < 1, q <= r0/sigma, lam <= sigma^2 ln(1/(q sigma)), U_0, U_1 < 1).",
       recorded="holds", result="Lemma B.3", role="conclusion")
def check_lemma_b3_conclusion() -> Verdict:
    sc = tc.region_scale()
    cert = tc.certify_lemma_b3(sc["lam_max"], sc["sigma_max"], **certifier_budget())
    region = {"lam": [1, sc["lam_max"]], "sigma": [tc.SIGMA_MIN_002, sc["sigma_max"]],
              "q": "all of (0, exp(-lam/sigma^2)/sigma] with U_0, U_1 < 1 (coordinate tau = q/q_cap in [0, 1])"}
    note = ("margin sigma^2 (bound - alpha)/q^2 at the tightest constants r0 = q sigma, u_j = U_j(lam) (this covers "
            "every admissible r0, u_j: theory.lemmas.certificates.lemma_b3_margin); exact side from positive terms only, each "
            "enclosed over a box by its factors' ends, the bound by its two monotone corners (theory.lemmas.tail_lemma_hull); "
            + BEYOND)
    cex = lemma_point(cert.counterexample["lam"], cert.counterexample["sigma"], cert.counterexample["tau"]) \
        if cert.status == "refuted" else None
    return certificate_verdict(cert, region, note, cex)


@claim(id="002.lemma-B3.tail-13.certified", seed="002", lines="L596-598, L650",
       statement="The exact binomial tail (13) of the direction (mu, mu0), sum_{t=3}^{lam+1} binom(lam+1,t) M_t, is at most "
                 "(r/r0) q^3 lam^2(lam+1)/((1-q)^2 sigma^3) on the stated bounded part of seed 002's hypothesis region.",
       recorded="holds", result="Lemma B.3", role="proof-step")
def check_tail_13() -> Verdict:
    sc = tc.region_scale()
    cert = tc.certify_tail_13(sc["tail_lam_max"], sc["sigma_max"], **certifier_budget())
    region = {"lam": [2, sc["tail_lam_max"]], "sigma": [tc.SIGMA_MIN_002, sc["sigma_max"]],
              "q": "all of (0, exp(-lam/sigma^2)/sigma] with U_0, U_1 < 1"}
    note = ("margin (tail bound - tail)/q^3, tightest constants; M_t/q^t = m_t(sigma) >= 0 enclosed by monotonicity "
            "in sigma (numerics.enclosures, proof in its docstring); lam = 1 has an empty tail; smaller lam_max than "
            "the conclusion's because the alternating moment sums need high precision; " + BEYOND)
    cex = lemma_point(cert.counterexample["lam"], cert.counterexample["sigma"], cert.counterexample["tau"]) \
        if cert.status == "refuted" else None
    v = certificate_verdict(cert, region, note, cex)
    # one-sided: the moments M_t are those of the direction (mu, mu0); (13) for (mu0, mu) is not enclosed here
    v.evidence["direction"] = ("one side only: the tail of the direction (nu0, nu1) = (mu, mu0), whose moment is A_{lam+1}; "
                               "the other direction (mu0, mu) is checked by quadrature at sample points in the tests, not certified")
    return v


@claim(id="002.lemma-B3.moment-14.certified", seed="002", lines="L598-604",
       statement="Abadi's moment bound (14) holds for the exact moments M_t of the direction (mu, mu0), for every "
                 "integer 3 <= t <= t_max, sigma in [216/215, sigma_max] and q in [0, 1).",
       recorded="holds", result="Lemma B.3", role="proof-step")
def check_moment_14() -> Verdict:
    sc = tc.region_scale()
    cert = tc.certify_moment_14(sc["moment_t_max"], sc["sigma_max"], **certifier_budget())
    region = {"t": [3, sc["moment_t_max"]], "sigma": [tc.SIGMA_MIN_002, sc["sigma_max"]], "q": "[0, 1)"}
    note = ("margin ((14) - M_t)/q^t; every term of (14)/q^t is increasing in q and M_t/q^t does not depend on q, so the "
            "certificate at q = 0 (branch and bound over sigma) covers every q in [0, 1); the other direction (mu0, mu) is not enclosed here; "
            + BEYOND)
    cex = None
    if cert.status == "refuted":
        cex = {"t": cert.counterexample["t"], "sigma": cert.counterexample["sigma"], "q": 0.0}
    return certificate_verdict(cert, region, note, cex)


__all__ = ["check_lemma_b3_conclusion", "check_tail_13", "check_moment_14"]
