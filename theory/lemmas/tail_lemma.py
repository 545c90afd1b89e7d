r"""The tail lemma: seed 002 Lemma B.3 = seed 000 Lemma D.1 (one lemma, two papers).

The lemma bounds the :math:`\lambda`-th log moment of one round of the Poisson-subsampled Gaussian
mechanism (add/remove adjacency, sensitivity 1 after normalising by C) with an explicit third-order term:

.. math::

    \alpha_i(\lambda) \le \frac{q^2\lambda(\lambda+1)}{(1-q)\sigma^2}
        + \frac{r}{r_0}\,\frac{q^3\lambda^2(\lambda+1)}{(1-q)^2\sigma^3},\qquad q = s_i/N,

(``002_13c470b90c68bab6.txt L516-530``; ``000_d613b97385d90362.txt L838-852``). This module holds the
lemma's objects as functions: its hypotheses as code, :math:`U_0, U_1` (L522 / 000 L846), :math:`r`
((17), L526/L660 / 000 L850), the tail (13) and its claimed bound (L598, L650 / 000 L866, L915), Abadi's
moment bound (14) (L602 / 000 L873), and the margin of the conclusion against the exact log moment from
:mod:`numerics.rdp`; the moments themselves (exact :math:`M_t`, (14), the tail (13)) are in
:mod:`theory.lemmas.mixture_moments`, and the point functions the region scans sweep are at the end. The proof
replay (each step as a ledger claim) lives in seed 002's package (``lemma_b3``); seed 000's claims reuse these
functions.

Notation. ``lam`` is the paper's integer :math:`\lambda`; ``q`` is :math:`s_i/N`; ``sigma`` is
:math:`\sigma_i`; the exact log moment is :math:`\alpha(\lambda) = \ln A_{\lambda+1}` (Mironov's
:math:`A_\alpha` at order :math:`\alpha=\lambda+1`).

The two papers state the same lemma except that seed 002 adds the hypothesis
:math:`\sigma_i \ge 216/215` (002 L516, used at L618 to get :math:`c\le 2`); ``variant`` selects which.
"""
from __future__ import annotations

import mpmath

from numerics.errors import InvalidParameter, check_epsilon
from numerics.precision import MP_DPS
from numerics.sweep import versioned
from theory.lemmas.arguments import check_lam, check_u, as_mpf, positive_mpf, q_open_mpf
from theory.lemmas.mixture_moments import exact_alpha, exact_tail_13_from_a

#: seed 002 adds this lower bound on sigma (L516); 216 = 2^3 * 3^3 comes from the t = 3 term (L606-618).
SIGMA_MIN_002 = mpmath.mpf(216) / 215
VARIANTS = ("002", "000")
#: cap on lam in the point scans, so that each exact moment stays fast ("integer lambda up to the hundreds").
LAM_CAP = 600


# --- the lemma's definitions -----------------------------------------------------------------------

def tail_u(lam, sigma, r0):
    r""":math:`(U_0(\lambda), U_1(\lambda))` of 002 L522 (000 L846).

    :math:`U_0 = \frac{2\sqrt{\lambda r_0/\sigma}}{\sigma - r_0}`,
    :math:`U_1 = \frac{2e\sqrt{\lambda r_0/\sigma}}{(\sigma-r_0)\sigma}`. Needs :math:`\sigma > r_0`.
    """
    lam = check_lam(lam)
    s, r = positive_mpf(sigma), positive_mpf(r0, "r0")
    if s <= r:
        raise InvalidParameter(f"sigma must exceed r0 (U0, U1 divide by sigma - r0), got sigma={sigma!r}, r0={r0!r}")
    with mpmath.workdps(MP_DPS):
        root = mpmath.sqrt(lam * r / s)
        u0 = 2 * root / (s - r)
        return +u0, +(u0 * mpmath.e / s)


def lemma_b3_r(r0, u0, u1, sigma):
    r"""The constant :math:`r` of (17): 002 L526 and L660 (Theorem B.2: L466), 000 L850.

    :math:`r = r_0\,2^3\big(\frac{1}{1-u_0} + \frac{1}{1-u_1}\frac{e^3}{\sigma^3}\big)e^{3/\sigma^2}`.
    Hypotheses: :math:`0 \le u_0, u_1 < 1`, :math:`\sigma > 0`, :math:`r_0 > 0`.
    """
    r, s = positive_mpf(r0, "r0"), positive_mpf(sigma)
    u0, u1 = as_mpf(u0, check_u(u0, "u0")), as_mpf(u1, check_u(u1, "u1"))
    with mpmath.workdps(MP_DPS):
        inner = 1 / (1 - u0) + mpmath.e ** 3 / ((1 - u1) * s ** 3)
        return +(r * 8 * inner * mpmath.exp(3 / s ** 2))


def lemma_b3_hypotheses(lam, sigma, q, r0, u0, u1, *, variant: str = "002") -> dict:
    r"""The lemma's hypotheses as named booleans (002 L516-524; 000 L840-848).

    ``variant="002"`` adds :math:`\sigma \ge 216/215` (002 L516), absent from 000's Lemma D.1.
    The key ``"all"`` is their conjunction. Bad types or NaN raise ``InvalidParameter``; values outside
    the region give ``False`` entries, not errors.
    """
    if variant not in VARIANTS:
        raise InvalidParameter(f"variant must be one of {VARIANTS}, got {variant!r}")
    lam = check_lam(lam)
    s, qq, r = positive_mpf(sigma), q_open_mpf(q), positive_mpf(r0, "r0")
    u0, u1 = as_mpf(u0, check_epsilon(u0, "u0")), as_mpf(u1, check_epsilon(u1, "u1"))
    with mpmath.workdps(MP_DPS):
        h = {
            "r0 < 1": r < 1,
            "q <= r0/sigma": qq * s <= r,
            # 002 L518 / 000 L842: lambda <= sigma^2 ln(N / (s_i sigma_i)) = sigma^2 ln(1/(q sigma))
            "lam <= sigma^2 ln(1/(q sigma))": lam <= s ** 2 * mpmath.log(1 / (qq * s)),
        }
        if s > r:
            big_u0, big_u1 = tail_u(lam, s, r)
            h.update({"U0(lam) <= u0": big_u0 <= u0, "U1(lam) <= u1": big_u1 <= u1})
        else:
            h.update({"U0(lam) <= u0": False, "U1(lam) <= u1": False})
        h.update({"u0 < 1": u0 < 1, "u1 < 1": u1 < 1})
        if variant == "002":
            h["sigma >= 216/215"] = s >= SIGMA_MIN_002
    h = {k: bool(v) for k, v in h.items()}
    h["all"] = all(h.values())
    return h


# --- the conclusion ------------------------------------------------------------------------------

def second_order_term(lam, sigma, q):
    r"""Abadi's :math:`t=2` bound, the lemma's first summand: :math:`\frac{q^2\lambda(\lambda+1)}{(1-q)\sigma^2}`
    (002 L530, L594; 000 L852)."""
    lam, s, qq = check_lam(lam), positive_mpf(sigma), q_open_mpf(q)
    with mpmath.workdps(MP_DPS):
        return +(qq ** 2 * lam * (lam + 1) / ((1 - qq) * s ** 2))


def tail_bound(lam, sigma, q, r0, u0, u1):
    r"""The lemma's bound on the tail (13): :math:`\frac{r}{r_0}\frac{q^3\lambda^2(\lambda+1)}{(1-q)^2\sigma^3}`
    (002 L530 and L650; 000 L852 and L915)."""
    lam, s, qq = check_lam(lam), positive_mpf(sigma), q_open_mpf(q)
    with mpmath.workdps(MP_DPS):
        ratio = lemma_b3_r(r0, u0, u1, s) / positive_mpf(r0, "r0")
        return +(ratio * qq ** 3 * lam ** 2 * (lam + 1) / ((1 - qq) ** 2 * s ** 3))


def lemma_b3_bound(lam, sigma, q, r0, u0, u1):
    r"""Right-hand side of the conclusion (002 L530, 000 L852), as an mpmath number.

    This is a formula only; whether the hypotheses hold is :func:`lemma_b3_hypotheses`' business.
    """
    with mpmath.workdps(MP_DPS):
        return +(second_order_term(lam, sigma, q) + tail_bound(lam, sigma, q, r0, u0, u1))


def tightest_u(lam, sigma, r0):
    """The smallest admissible constants: u0 = U0(lam), u1 = U1(lam) (002 L524: U_j(lam) <= u_j)."""
    return tail_u(lam, sigma, r0)


def lemma_b3_margin(lam, sigma, q, r0):
    r"""Conclusion margin: bound minus exact :math:`\alpha(\lambda)`, with the tightest
    :math:`u_j = U_j(\lambda)`. Non-negative exactly when the conclusion (002 L530) holds at this point.

    The caller is responsible for the hypotheses (:func:`lemma_b3_hypotheses`); the certifier of another
    module encloses this function over boxes of (lam, sigma, q, r0).
    """
    u0, u1 = tightest_u(lam, sigma, r0)
    with mpmath.workdps(MP_DPS):
        return +(lemma_b3_bound(lam, sigma, q, r0, u0, u1) - exact_alpha(lam, sigma, q))


def lemma_b3_ratio(lam, sigma, q, r0):
    r"""Exact :math:`\alpha(\lambda)` divided by the lemma's bound (tightest :math:`u_j`); <= 1 iff it holds."""
    u0, u1 = tightest_u(lam, sigma, r0)
    with mpmath.workdps(MP_DPS):
        return +(exact_alpha(lam, sigma, q) / lemma_b3_bound(lam, sigma, q, r0, u0, u1))


def max_lambda(sigma, q) -> int:
    r"""Largest integer :math:`\lambda` allowed by :math:`\lambda \le \sigma^2\ln(1/(q\sigma))` (002 L518); 0 if none."""
    s, qq = positive_mpf(sigma), q_open_mpf(q)
    with mpmath.workdps(MP_DPS):
        cap = s ** 2 * mpmath.log(1 / (qq * s))
        return max(0, int(mpmath.floor(cap)))


# --- point functions (module level, for the sweep runner) -------------------------------------

@versioned("1")
def conclusion_point(lam, sigma, q, r0) -> dict:
    """Exact alpha(lam) / lemma bound (tightest u_j) and the margin bound - alpha, as floats."""
    return {"ratio": float(lemma_b3_ratio(lam, sigma, q, r0)), "margin": float(lemma_b3_margin(lam, sigma, q, r0))}


@versioned("1")
def tail_point(lam, sigma, q, r0) -> dict:
    """Exact tail (13) / the lemma's tail bound (tightest u_j)."""
    u0, u1 = tightest_u(lam, sigma, r0)
    with mpmath.workdps(MP_DPS):
        return {"ratio": float(exact_tail_13_from_a(lam, q, sigma) / tail_bound(lam, sigma, q, r0, u0, u1))}


def _log_bases(lam, sigma, q):
    r"""log of the bases' common factors: :math:`x_t = a e^{(t-1)/(2\sigma^2)}`, :math:`y_t = b e^{(t-1)/(2\sigma^2)}` (16)."""
    s, qq = mpmath.mpf(sigma), mpmath.mpf(q)
    log_a = mpmath.log(2 * lam * qq / ((1 - qq) * s))
    return log_a, log_a + 1 - mpmath.log(s)  # y_t = x_t * e / sigma


@versioned("1")
def step_634_point(lam, sigma, q, r0) -> dict:
    r"""max over t of x_t / U_0 and y_t / U_1 (L634, L638); the max is at t = lam + 1."""
    with mpmath.workdps(MP_DPS):
        log_a, log_b = _log_bases(lam, sigma, q)
        u0, u1 = tail_u(lam, sigma, r0)
        top = mpmath.mpf(lam) / (2 * mpmath.mpf(sigma) ** 2)
        return {"x_over_u0": float(mpmath.exp(log_a + top) / u0), "y_over_u1": float(mpmath.exp(log_b + top) / u1)}


@versioned("1")
def geometric_point(lam, sigma, q, r0) -> dict:
    r"""log of [sum_{t=3}^{lam+1} x_t^t] / [x_3^3/(1-U_0)] (and for y): the geometric-series step (L640-646)."""
    if lam < 3:  # at most one term (t = 3): the step holds with equality or the sum is empty
        return {"log_ratio_x": None, "log_ratio_y": None}
    with mpmath.workdps(MP_DPS):
        s2 = 2 * mpmath.mpf(sigma) ** 2
        u0, u1 = tail_u(lam, sigma, r0)
        out = {}
        for name, log_base, u in zip(("x", "y"), _log_bases(lam, sigma, q), (u0, u1)):
            terms = [t * (log_base + (t - 1) / s2) for t in range(3, lam + 2)]
            log_sum = terms[0] + mpmath.log(mpmath.fsum(mpmath.exp(v - terms[0]) for v in terms))
            out["log_ratio_" + name] = float(log_sum - terms[0] + mpmath.log(1 - u))
        return out


__all__ = [
    "SIGMA_MIN_002", "tail_u", "lemma_b3_r", "lemma_b3_hypotheses", "second_order_term", "tail_bound",
    "lemma_b3_bound", "tightest_u",
    "lemma_b3_margin", "lemma_b3_ratio", "max_lambda", "LAM_CAP", "conclusion_point", "tail_point",
    "step_634_point", "geometric_point",
]
