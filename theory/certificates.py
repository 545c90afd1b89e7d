r"""Margins and regions of the inequality claims that the certifier proves (issue 12).

Each claim of the form :math:`f \le g` over a region gets here a module-level *margin* function
(an Arb enclosure of :math:`g - f`, possibly divided by a positive factor that is common to both sides,
in a cancellation-free form) and a *constraints* function (the hypotheses as enclosures that must be
:math:`\ge 0`). :func:`numerics.certify.certify` runs branch and bound over them through the sweep
runner. The claim modules call the ``certify_*`` functions and record ``evidence_kind="rigorous"``
with the region covered, the number of boxes, the smallest certified margin and the time.

The bounded part of each region that is certified is chosen by :func:`region_scale`: the full stated
region by default (``make report``), a reduced one when ``DPV_CERTIFY_SCALE=ci`` (the CI test run);
the verdict's evidence always names the region actually covered.
"""
from __future__ import annotations

import os

from numerics.certify import Certificate, Coordinate, certify

#: bounded parts certified, per scale: the issue's target region, and a reduced one for CI
SCALES = {
    "full": {"lam_max": 400, "sigma_max": 100.0},
    "ci": {"lam_max": 12, "sigma_max": 8.0},
}


def region_scale() -> dict:
    """The bounded region to certify: ``DPV_CERTIFY_SCALE`` = ``full`` (default) or ``ci``."""
    return dict(SCALES[os.environ.get("DPV_CERTIFY_SCALE", "full")], name=os.environ.get("DPV_CERTIFY_SCALE", "full"))


# --- seed 002 Lemma B.3 = seed 000 Lemma D.1: the conclusion ----------------------------------------

def _u0_u1(lam, sigma, q):
    r"""Tightest admissible constants: :math:`r_0 = q\sigma`, :math:`u_j = U_j(\lambda)` (002 L522)."""
    from flint import arb

    r0 = q * sigma
    u0 = 2 * (lam * r0 / sigma).nonnegative_part().sqrt() / (sigma - r0)  # r0 >= 0; keep rounding from going below
    return r0, u0, u0 * arb.const_e() / sigma


def lemma_b3_margin_over_q2(lam, sigma, q):
    r"""(bound - exact :math:`\alpha(\lambda)`) / :math:`q^2` for 002 L530 (= 000 L852), tightest constants.

    Why the tightest constants cover the whole lemma: with :math:`q \le r_0/\sigma` and
    :math:`U_j(\lambda) \le u_j`, the bound is increasing in :math:`u_0, u_1` (through
    :math:`1/(1-u_j)`), :math:`r/r_0` depends on :math:`r_0` only through them, and :math:`U_j` is
    increasing in :math:`r_0` on :math:`r_0 < \sigma`; so every admissible :math:`(r_0, u_0, u_1)` gives a
    bound at least the one at :math:`r_0 = q\sigma, u_j = U_j(\lambda)`, whose hypotheses are implied.
    Exact side: :math:`\alpha(\lambda) = \ln A_{\lambda+1}` via :func:`numerics.enclosures.log_a_over_q2`.
    """
    from numerics.enclosures import log_a_over_q2
    from flint import arb

    _, u0, u1 = _u0_u1(lam, sigma, q)
    # On boxes that straddle the boundary U_j = 1 the bound is unbounded above; since it is increasing
    # in u_j (see above), its value at the lower end of u_j's ball is a valid LOWER bound there, which
    # is all a certificate needs. Inside the region (u_j certainly < 1) the enclosure is two-sided.
    u0, u1 = (u if u.upper() < 1 else arb(u.lower()) for u in (u0, u1))
    e = arb.const_e()
    r_over_r0 = 8 * (1 / (1 - u0) + e ** 3 / ((1 - u1) * sigma ** 3)) * (3 / sigma ** 2).exp()
    lam_term = arb(lam * (lam + 1))
    bound_q2 = lam_term / ((1 - q) * sigma ** 2) + r_over_r0 * q * lam * lam_term / ((1 - q) ** 2 * sigma ** 3)
    return bound_q2 - log_a_over_q2(q, sigma, lam + 1)


def lemma_b3_constraints(lam, sigma, q):
    r"""Hypotheses of 002 Lemma B.3 at the tightest constants, each as an enclosure that must be >= 0:
    :math:`r_0 = q\sigma < 1`, :math:`\lambda \le \sigma^2\ln(1/(q\sigma))`, :math:`U_0, U_1 < 1`,
    :math:`\sigma \ge 216/215` (002 L516-524)."""
    from flint import arb

    r0, u0, u1 = _u0_u1(lam, sigma, q)
    return [1 - r0, sigma ** 2 * (1 / r0).log() - lam, 1 - u0, 1 - u1, sigma - arb(216) / 215]


def certify_lemma_b3(lam_max: int, sigma_max: float, **kwargs) -> Certificate:
    """Certify the conclusion for integer 1 <= lambda <= lam_max, 216/215 <= sigma <= sigma_max, 0 < q."""
    coords = [Coordinate("sigma", 216 / 215, sigma_max, "log"), Coordinate("q", 0.0, 215 / 216)]
    kwargs.setdefault("initial_splits", 2)
    return certify(f"{__name__}:lemma_b3_margin_over_q2", coords,
                   discrete={"lam": list(range(1, lam_max + 1))},
                   constraints_ref=f"{__name__}:lemma_b3_constraints", **kwargs)
