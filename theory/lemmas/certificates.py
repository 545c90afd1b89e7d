r"""Ball-arithmetic certificates of the tail lemma (002 Lemma B.3 = 000 Lemma D.1) and its moments.

Each claim of the form :math:`f \le g` over a region gets a module-level *margin* function (an Arb
enclosure of :math:`g - f`, possibly multiplied by a positive factor, in a cancellation-free form) and a
*constraints* function (the hypotheses as enclosures that must be :math:`\ge 0`), both in
:mod:`theory.lemmas.tail_lemma_balls` (re-exported here; that module imports only :mod:`numerics`, so a
certificate's cached boxes survive edits to the ledger and to this module); Lemma B.3's conclusion is certified
through :mod:`theory.lemmas.tail_lemma_hull`, the same margin with a tighter enclosure over wide boxes (issue 34).
:func:`numerics.certify.certify` runs branch and bound over them through the sweep runner. The claim
modules (``lemma_b3_certified`` of seed 002, ``certified`` of seed 000) call the ``certify_*`` functions
and record ``evidence_kind="rigorous"`` with the region covered, the number of boxes, the smallest
certified margin and the time (:func:`certificate_verdict`).

The bounded part of each region that is certified is chosen by :func:`region_scale`: the full stated
region by default (``make report``), a reduced one when ``DPV_CERTIFY_SCALE=ci`` (the CI test run);
the verdict's evidence always names the region actually covered.

Coordinates of the tail lemma (seed 002 Lemma B.3 = seed 000 Lemma D.1). The hypothesis
:math:`\lambda \le \sigma^2\ln(1/(q\sigma))` (002 L518) is :math:`q \le q_{cap}(\lambda,\sigma) =
e^{-\lambda/\sigma^2}/\sigma`, a curve along which boxes in :math:`(\sigma, q)` would have to be split
down to tiny sizes (for :math:`\lambda/\sigma^2` large, :math:`q_{cap}` spans hundreds of orders of
magnitude). We use :math:`q = \tau\,q_{cap}(\lambda,\sigma)` with :math:`\tau \in [0, 1]` instead: that
hypothesis becomes the box :math:`\tau \le 1`, and :math:`r_0 = q\sigma = \tau e^{-\lambda/\sigma^2} < 1`
and :math:`q < 1/\sigma \le 215/216` follow. The remaining hypotheses :math:`U_0, U_1 < 1` are constraints.
"""
from __future__ import annotations

import os

import mpmath

from numerics.certify import Certificate, Coordinate, certify
from theory.ledger import Verdict
from theory.lemmas import tail_lemma_balls as balls
from theory.lemmas import tail_lemma_hull as hull
# the margins are re-exported: callers and tests name them here (their home is tail_lemma_balls, see there why)
from theory.lemmas.tail_lemma_balls import (big_u, lemma_b3_constraints, lemma_b3_margin,  # noqa: F401
                                           moment_14_margin, moment_14_margin_at_q0, q_of_tau, r_over_r0,
                                           tail_13_margin)

#: bounded parts certified, per scale. "full": Lemma B.3's conclusion on the issue's target (lambda <= 400,
#: sigma in [216/215, 100]; ~7 CPU minutes, see bench/bench_certify.py) and the largest parts of the other claims
#: that keep the cold report's certificates near 10 minutes on 2 cores; "ci": < 5 s per claim.
SCALES = {
    "full": {"lam_max": 400, "sigma_max": 100.0, "tail_lam_max": 40, "moment_t_max": 40, "d1_lam_max": 20},
    "ci": {"lam_max": 12, "sigma_max": 8.0, "tail_lam_max": 8, "moment_t_max": 12, "d1_lam_max": 4},
}
#: seed 002's lower end of sigma (L516)
SIGMA_MIN_002 = 216 / 215


def region_scale() -> dict:
    """The bounded region to certify: ``DPV_CERTIFY_SCALE`` = ``full`` (default) or ``ci``."""
    name = os.environ.get("DPV_CERTIFY_SCALE", "full")
    if name not in SCALES:
        raise ValueError(f"DPV_CERTIFY_SCALE must be one of {sorted(SCALES)}, got {name!r}")
    return dict(SCALES[name], name=name)


def _lemma_coords(sigma_min: float, sigma_max: float):
    return [Coordinate("sigma", sigma_min, sigma_max, "log"), Coordinate("tau", 0.0, 1.0)]


def certify_lemma_b3(lam_max: int, sigma_max: float, *, sigma_min: float = SIGMA_MIN_002, lam_min: int = 1,
                     **kwargs) -> Certificate:
    """Certify (or refute) the conclusion for integer lam_min <= lambda <= lam_max,
    sigma_min <= sigma <= sigma_max, 0 < q <= q_cap (the lemma's whole q range), U_0, U_1 < 1."""
    kwargs.setdefault("initial_splits", 2)
    # the same margin as balls.lemma_b3_margin, its exact side enclosed term by term by the factors' ends
    # (issue 34: midpoint-radius powers of q made ~1,400 boxes per lambda at lambda = 400)
    return certify(f"{hull.__name__}:lemma_b3_margin_hull", _lemma_coords(sigma_min, sigma_max),
                   discrete={"lam": list(range(lam_min, lam_max + 1))},
                   constraints_ref=f"{balls.__name__}:lemma_b3_constraints", **kwargs)


# --- seed 002 Lemma B.3: the tail (13) against the lemma's bound on it ------------------------------

def certify_tail_13(lam_max: int, sigma_max: float, **kwargs) -> Certificate:
    """Certify the tail bound for 2 <= lambda <= lam_max (lambda = 1 has an empty tail) on seed 002's region."""
    kwargs.setdefault("initial_splits", 2)
    return certify(f"{balls.__name__}:tail_13_margin", _lemma_coords(SIGMA_MIN_002, sigma_max),
                   discrete={"lam": list(range(2, lam_max + 1))},
                   constraints_ref=f"{balls.__name__}:lemma_b3_constraints", **kwargs)


# --- seed 002 (14): Abadi's moment bound ---------------------------------------------------------------

def certify_moment_14(t_max: int, sigma_max: float, **kwargs) -> Certificate:
    """Certify (14) for integer 3 <= t <= t_max, 216/215 <= sigma <= sigma_max and every q in [0, 1): the
    branch and bound runs over sigma at q = 0, which covers every q (see :func:`moment_14_margin`)."""
    coords = [Coordinate("sigma", SIGMA_MIN_002, sigma_max, "log")]
    return certify(f"{balls.__name__}:moment_14_margin_at_q0", coords, discrete={"t": list(range(3, t_max + 1))}, **kwargs)


# --- from a certificate to a verdict (the rigorous claims of the paper packages) ---------------------

#: per-task budgets: generous (a claim that needs more is reported open, never certified)
MAX_BOXES = 200_000
MAX_SECONDS = 600.0
#: open boxes listed in a verdict's evidence
OPEN_BOXES_SHOWN = 10


def _certificate_evidence(cert: Certificate, region: dict, note: str) -> dict:
    return {"region": region, "scale": region_scale()["name"], "boxes": cert.boxes,
            "certified_boxes": cert.certified_boxes, "skipped_boxes": cert.skipped_boxes,
            "min_certified_margin": cert.min_margin, "tasks": cert.tasks,  # timings: report/run.json
            "open_boxes_left": cert.open_boxes[:OPEN_BOXES_SHOWN], "note": note}


#: what every certificate computes with: Arb balls (python-flint), floats only to choose the boxes
ARITHMETIC = ("arb",)


def certificate_verdict(cert: Certificate, region: dict, note: str, counterexample=None) -> Verdict:
    """The verdict a certificate supports: holds (certified region), refuted (a certainly negative ball), open."""
    ev = _certificate_evidence(cert, region, note)
    if cert.status == "certified":
        return Verdict("holds", "rigorous", margin=cert.min_margin, evidence=ev, arithmetic=ARITHMETIC)
    if cert.status == "refuted":
        return Verdict("refuted", "rigorous", margin=cert.counterexample.get("margin_upper"), evidence=ev,
                       counterexample=counterexample or cert.counterexample, arithmetic=ARITHMETIC,
                       why=f"a ball of the region whose margin is certainly negative (upper end "
                           f"{cert.counterexample.get('margin_upper')}) violates the statement there")
    return Verdict("open", "rigorous", margin=cert.min_margin, evidence=ev, arithmetic=ARITHMETIC,
                   reason=f"budget ran out with {len(cert.open_boxes)} boxes left (listed under open_boxes_left)")


def lemma_point(lam: int, sigma: float, tau: float) -> dict:
    """The lemma's (q, r0, U_0, U_1) at a certifier point (exact binary sigma, tau), as 30-digit strings."""
    with mpmath.workdps(50):
        s, t = mpmath.mpf(sigma), mpmath.mpf(tau)
        q = t * mpmath.exp(-lam / s ** 2) / s
        u0 = 2 * mpmath.sqrt(lam * q) / (s * (1 - q))
        return {"lam": int(lam), "sigma": float(sigma), "tau": float(tau), "q": mpmath.nstr(q, 30),
                "r0": mpmath.nstr(q * s, 30), "u0": mpmath.nstr(u0, 30), "u1": mpmath.nstr(u0 * mpmath.e / s, 30)}


def certifier_budget() -> dict:
    """Per-task budgets of a claim's certificate: generous; a claim that needs more is reported open."""
    return {"max_boxes": MAX_BOXES, "max_seconds": MAX_SECONDS}


#: what a certificate on a bounded part leaves open
BEYOND = "beyond the stated region (larger lambda or sigma) the claim stays open: no symbolic argument here covers it"
