r"""Ball-arithmetic certificates of the tail lemma (002 Lemma B.3 = 000 Lemma D.1) and its moments.

Each claim of the form :math:`f \le g` over a region gets here a module-level *margin* function
(an Arb enclosure of :math:`g - f`, possibly multiplied by a positive factor, in a cancellation-free
form) and a *constraints* function (the hypotheses as enclosures that must be :math:`\ge 0`).
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


# --- the tail lemma's objects as balls ----------------------------------------------------------------

def q_of_tau(lam, sigma, tau):
    r""":math:`q = \tau e^{-\lambda/\sigma^2}/\sigma` (the coordinate change of the module docstring)."""
    return tau * (-lam / (sigma * sigma)).exp() / sigma


def big_u(lam, sigma, q):
    r""":math:`(U_0, U_1)` of 002 L522 at the tightest :math:`r_0 = q\sigma`:
    :math:`U_0 = 2\sqrt{\lambda q}/(\sigma(1-q))`, :math:`U_1 = U_0 e/\sigma`."""
    from flint import arb

    u0 = 2 * (lam * q).nonnegative_part().sqrt() / (sigma * (1 - q))
    return u0, u0 * arb.const_e() / sigma


def r_over_r0(sigma, u0, u1):
    r""":math:`r/r_0 = 8(1/(1-u_0) + e^3/((1-u_1)\sigma^3))e^{3/\sigma^2}` ((17), 002 L526).

    On balls that straddle :math:`u_j = 1` the value is unbounded above; it is increasing in
    :math:`u_j`, so its value at the lower end of :math:`u_j`'s ball is a valid LOWER bound there, which
    is all a certificate of "bound - exact >= 0" needs. Inside the region it is two-sided."""
    from flint import arb

    u0, u1 = (u if u.upper() < 1 else arb(u.lower()) for u in (u0, u1))
    e = arb.const_e()
    return 8 * (1 / (1 - u0) + e ** 3 / ((1 - u1) * sigma ** 3)) * (3 / sigma ** 2).exp()


# --- seed 002 Lemma B.3 = seed 000 Lemma D.1: the conclusion ----------------------------------------

def lemma_b3_margin(lam, sigma, tau):
    r""":math:`\sigma^2`(bound - exact :math:`\alpha(\lambda)`)/:math:`q^2` for 002 L530 (= 000 L852) at the
    tightest constants :math:`r_0 = q\sigma`, :math:`u_j = U_j(\lambda)`, :math:`q = \tau q_{cap}`.

    Why the tightest constants cover the whole lemma: with :math:`q \le r_0/\sigma` and
    :math:`U_j(\lambda) \le u_j`, the bound is increasing in :math:`u_0, u_1` (through
    :math:`1/(1-u_j)`), :math:`r/r_0` depends on :math:`r_0` only through them, and :math:`U_j` is
    increasing in :math:`r_0` on :math:`r_0 < \sigma`; so every admissible :math:`(r_0, u_0, u_1)` gives a
    bound at least the one at :math:`r_0 = q\sigma, u_j = U_j(\lambda)`, whose hypotheses are implied.
    Conversely a point where this margin is negative refutes the lemma (those constants are admissible).
    Exact side: :math:`\alpha(\lambda) = \ln A_{\lambda+1}` via
    :func:`numerics.enclosures.sigma2_log_a_over_q2`; bound side:
    :math:`\lambda(\lambda+1)/(1-q) + (r/r_0)\,q\lambda^2(\lambda+1)/((1-q)^2\sigma)`.
    """
    from numerics.enclosures import sigma2_log_a_over_q2

    q = q_of_tau(lam, sigma, tau)
    u0, u1 = big_u(lam, sigma, q)
    lam_term = lam * (lam + 1)
    bound = lam_term / (1 - q) + r_over_r0(sigma, u0, u1) * q * lam * lam_term / ((1 - q) ** 2 * sigma)
    return bound - sigma2_log_a_over_q2(q, sigma, lam + 1)


def lemma_b3_constraints(lam, sigma, tau):
    r"""Hypotheses of 002 Lemma B.3 not built into the coordinates, each an enclosure that must be
    >= 0: :math:`U_0, U_1 < 1` at the tightest :math:`r_0 = q\sigma` (L524). (:math:`r_0 < 1`,
    :math:`q \le r_0/\sigma` and :math:`\lambda \le \sigma^2\ln(1/(q\sigma))` hold by the coordinates;
    :math:`\sigma \ge 216/215` is the lower end of the sigma coordinate for seed 002.)"""
    u0, u1 = big_u(lam, sigma, q_of_tau(lam, sigma, tau))
    return [1 - u0, 1 - u1]


def _lemma_coords(sigma_min: float, sigma_max: float):
    return [Coordinate("sigma", sigma_min, sigma_max, "log"), Coordinate("tau", 0.0, 1.0)]


def certify_lemma_b3(lam_max: int, sigma_max: float, *, sigma_min: float = SIGMA_MIN_002, lam_min: int = 1,
                     **kwargs) -> Certificate:
    """Certify (or refute) the conclusion for integer lam_min <= lambda <= lam_max,
    sigma_min <= sigma <= sigma_max, 0 < q <= q_cap (the lemma's whole q range), U_0, U_1 < 1."""
    kwargs.setdefault("initial_splits", 2)
    return certify(f"{__name__}:lemma_b3_margin", _lemma_coords(sigma_min, sigma_max),
                   discrete={"lam": list(range(lam_min, lam_max + 1))},
                   constraints_ref=f"{__name__}:lemma_b3_constraints", **kwargs)


# --- seed 002 Lemma B.3: the tail (13) against the lemma's bound on it ------------------------------

def tail_13_margin(lam, sigma, tau):
    r"""(tail bound - exact tail (13)) / :math:`q^3`, tightest constants (002 L598, L650):
    :math:`(r/r_0)\lambda^2(\lambda+1)/((1-q)^2\sigma^3) - \sum_{t=3}^{\lambda+1}\binom{\lambda+1}{t}q^{t-3}m_t(\sigma)`,
    with :math:`m_t = M_t/q^t \ge 0` enclosed by :func:`numerics.enclosures.mixture_moments_over_qt`
    (the direction :math:`(\mu,\mu_0)`, whose moments sum to :math:`A_{\lambda+1}`)."""
    import math

    from flint import arb
    from numerics.enclosures import mixture_moments_over_qt

    q = q_of_tau(lam, sigma, tau)
    u0, u1 = big_u(lam, sigma, q)
    bound = r_over_r0(sigma, u0, u1) * lam * lam * (lam + 1) / ((1 - q) ** 2 * sigma ** 3)
    moments = mixture_moments_over_qt(lam + 1, sigma)
    tail, q_pow = arb(0), arb(1)
    for t in range(3, lam + 2):
        tail += math.comb(lam + 1, t) * q_pow * moments[t]
        q_pow *= q
    return bound - tail


def certify_tail_13(lam_max: int, sigma_max: float, **kwargs) -> Certificate:
    """Certify the tail bound for 2 <= lambda <= lam_max (lambda = 1 has an empty tail) on seed 002's region."""
    kwargs.setdefault("initial_splits", 2)
    return certify(f"{__name__}:tail_13_margin", _lemma_coords(SIGMA_MIN_002, sigma_max),
                   discrete={"lam": list(range(2, lam_max + 1))},
                   constraints_ref=f"{__name__}:lemma_b3_constraints", **kwargs)


# --- seed 002 (14): Abadi's moment bound ---------------------------------------------------------------

def moment_14_margin(t, sigma, q):
    r"""((14) - :math:`M_t`) / :math:`q^t` (002 L602), :math:`t \ge 3`:

    .. math:: \frac{2^t(t-1)!!}{2(1-q)^{t-1}\sigma^t} + \frac{1}{(1-q)^t\sigma^{2t}}
              + \frac{2^te^{(t^2-t)/(2\sigma^2)}(\sigma^t(t-1)!!+t^t)}{2(1-q)^{t-1}\sigma^{2t}} - m_t(\sigma).

    Every term of (14)/q^t is increasing in q and m_t does not depend on q, so the margin is increasing
    in q: a certificate at q = 0 holds for every q in [0, 1)."""
    from numerics.enclosures import mixture_moments_over_qt

    dfact = 1
    for j in range(t - 1, 0, -2):
        dfact *= j
    p = 1 - q
    s_t = sigma ** t
    bound = (2 ** t * dfact / (2 * p ** (t - 1) * s_t) + 1 / (p ** t * s_t * s_t)
             + 2 ** t * ((t * t - t) / (2 * sigma ** 2)).exp() * (s_t * dfact + t ** t) / (2 * p ** (t - 1) * s_t * s_t))
    return bound - mixture_moments_over_qt(t, sigma)[t]


def moment_14_margin_at_q0(t, sigma):
    """:func:`moment_14_margin` at q = 0: a lower bound of the margin for every q in [0, 1) (it is increasing in q)."""
    return moment_14_margin(t, sigma, 0)


def certify_moment_14(t_max: int, sigma_max: float, **kwargs) -> Certificate:
    """Certify (14) for integer 3 <= t <= t_max, 216/215 <= sigma <= sigma_max and every q in [0, 1): the
    branch and bound runs over sigma at q = 0, which covers every q (see :func:`moment_14_margin`)."""
    coords = [Coordinate("sigma", SIGMA_MIN_002, sigma_max, "log")]
    return certify(f"{__name__}:moment_14_margin_at_q0", coords, discrete={"t": list(range(3, t_max + 1))}, **kwargs)


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


def certificate_verdict(cert: Certificate, region: dict, note: str, counterexample=None) -> Verdict:
    """The verdict a certificate supports: holds (certified region), refuted (a certainly negative ball), open."""
    ev = _certificate_evidence(cert, region, note)
    if cert.status == "certified":
        return Verdict("holds", "rigorous", margin=cert.min_margin, evidence=ev)
    if cert.status == "refuted":
        return Verdict("refuted", "rigorous", margin=cert.counterexample.get("margin_upper"), evidence=ev,
                       counterexample=counterexample or cert.counterexample)
    return Verdict("open", "rigorous", margin=cert.min_margin, evidence=ev,
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
