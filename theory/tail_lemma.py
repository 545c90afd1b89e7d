r"""The tail lemma: seed 002 Lemma B.3 = seed 000 Lemma D.1 (one lemma, two papers).

The lemma bounds the :math:`\lambda`-th log moment of one round of the Poisson-subsampled Gaussian
mechanism (add/remove adjacency, sensitivity 1 after normalising by C) with an explicit third-order term:

.. math::

    \alpha_i(\lambda) \le \frac{q^2\lambda(\lambda+1)}{(1-q)\sigma^2}
        + \frac{r}{r_0}\,\frac{q^3\lambda^2(\lambda+1)}{(1-q)^2\sigma^3},\qquad q = s_i/N,

(``002_13c470b90c68bab6.txt L516-530``; ``000_d613b97385d90362.txt L838-852``). This module holds the
lemma's objects as functions: its hypotheses as code, :math:`U_0, U_1` (L522 / 000 L846), :math:`r`
((17), L526/L660 / 000 L850), the tail (13) and its claimed bound (L598, L650 / 000 L866, L915), Abadi's
moment bound (14) (L602 / 000 L873), the exact mixture moments the tail is made of, and the margin of
the conclusion against the exact log moment from :mod:`numerics.rdp`. The proof replay (each step as a
ledger claim) lives in :mod:`theory.proactive_dp.lemma_b3`; seed 000's claims reuse these functions.

Notation. ``lam`` is the paper's integer :math:`\lambda`; ``q`` is :math:`s_i/N`; ``sigma`` is
:math:`\sigma_i`; the exact log moment is :math:`\alpha(\lambda) = \ln A_{\lambda+1}` (Mironov's
:math:`A_\alpha` at order :math:`\alpha=\lambda+1`).

The two papers state the same lemma except that seed 002 adds the hypothesis
:math:`\sigma_i \ge 216/215` (002 L516, used at L618 to get :math:`c\le 2`); ``variant`` selects which.
"""
from __future__ import annotations

import math
import numbers
from fractions import Fraction

import mpmath

from numerics.errors import InvalidParameter, check_epsilon, check_q, check_sigma, check_steps
from numerics.precision import MP_DPS

#: seed 002 adds this lower bound on sigma (L516); 216 = 2^3 * 3^3 comes from the t = 3 term (L606-618).
SIGMA_MIN_002 = mpmath.mpf(216) / 215
VARIANTS = ("002", "000")
#: extra digits for A - 1 - binom(lam+1, 2) M_2, which cancels the leading terms of A.
TAIL_GUARD_DPS = 40


# --- validation ----------------------------------------------------------------------------------

def _check_q_open(q) -> float:
    """q in (0, 1): the lemma divides by 1 - q."""
    x = check_q(q)
    if x >= 1.0:
        raise InvalidParameter(f"q must lie in (0, 1), got {q!r}")
    return x


def _check_lam(lam) -> int:
    """lambda: a positive integer (the proof expands (1 + x)^(lambda + 1) binomially)."""
    if isinstance(lam, numbers.Real) and not isinstance(lam, numbers.Integral) and not float(lam).is_integer():
        raise InvalidParameter(f"lam must be a positive integer, got {lam!r}")
    return check_steps(lam, "lam")


def _check_u(u, name: str) -> float:
    """u0, u1 in [0, 1): the geometric series 1/(1-u) must converge."""
    x = check_epsilon(u, name)
    if x >= 1.0:
        raise InvalidParameter(f"{name} must lie in [0, 1), got {u!r}")
    return x


def _num(value, checked: float):
    """The value as mpf without a detour through float when it is already exact (mpf, int, Fraction)."""
    if isinstance(value, mpmath.mpf):
        return value
    if isinstance(value, Fraction):
        return mpmath.mpf(value.numerator) / value.denominator
    if isinstance(value, numbers.Integral):
        return mpmath.mpf(int(value))
    return mpmath.mpf(checked)


def _pos(value, name: str = "sigma"):
    """A finite positive real, as mpf."""
    return _num(value, check_sigma(value, name))


def _q_open_mp(value):
    """q in (0, 1), as mpf."""
    return _num(value, _check_q_open(value))


# --- the lemma's definitions -----------------------------------------------------------------------

def tail_u(lam, sigma, r0):
    r""":math:`(U_0(\lambda), U_1(\lambda))` of 002 L522 (000 L846).

    :math:`U_0 = \frac{2\sqrt{\lambda r_0/\sigma}}{\sigma - r_0}`,
    :math:`U_1 = \frac{2e\sqrt{\lambda r_0/\sigma}}{(\sigma-r_0)\sigma}`. Needs :math:`\sigma > r_0`.
    """
    lam = _check_lam(lam)
    s, r = _pos(sigma), _pos(r0, "r0")
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
    r, s = _pos(r0, "r0"), _pos(sigma)
    u0, u1 = _num(u0, _check_u(u0, "u0")), _num(u1, _check_u(u1, "u1"))
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
    lam = _check_lam(lam)
    s, qq, r = _pos(sigma), _q_open_mp(q), _pos(r0, "r0")
    u0, u1 = _num(u0, check_epsilon(u0, "u0")), _num(u1, check_epsilon(u1, "u1"))
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
    lam, s, qq = _check_lam(lam), _pos(sigma), _q_open_mp(q)
    with mpmath.workdps(MP_DPS):
        return +(qq ** 2 * lam * (lam + 1) / ((1 - qq) * s ** 2))


def tail_bound(lam, sigma, q, r0, u0, u1):
    r"""The lemma's bound on the tail (13): :math:`\frac{r}{r_0}\frac{q^3\lambda^2(\lambda+1)}{(1-q)^2\sigma^3}`
    (002 L530 and L650; 000 L852 and L915)."""
    lam, s, qq = _check_lam(lam), _pos(sigma), _q_open_mp(q)
    with mpmath.workdps(MP_DPS):
        ratio = lemma_b3_r(r0, u0, u1, s) / _pos(r0, "r0")
        return +(ratio * qq ** 3 * lam ** 2 * (lam + 1) / ((1 - qq) ** 2 * s ** 3))


def lemma_b3_bound(lam, sigma, q, r0, u0, u1):
    r"""Right-hand side of the conclusion (002 L530, 000 L852), as an mpmath number.

    This is a formula only; whether the hypotheses hold is :func:`lemma_b3_hypotheses`' business.
    """
    with mpmath.workdps(MP_DPS):
        return +(second_order_term(lam, sigma, q) + tail_bound(lam, sigma, q, r0, u0, u1))


# --- the moments and the tail (13) ----------------------------------------------------------------

def moment_bound_14(t, q, sigma):
    r"""Abadi's bound (14) on :math:`M_t = \mathbb E_{z\sim\nu_1}[((\nu_0(z)-\nu_1(z))/\nu_1(z))^t]`, first line
    (002 L602; 000 L873), for both directions :math:`(\nu_0,\nu_1)\in\{(\mu_0,\mu),(\mu,\mu_0)\}`, t >= 3:

    .. math::

        \frac{(2q)^t(t-1)!!}{2(1-q)^{t-1}\sigma^t} + \frac{q^t}{(1-q)^t\sigma^{2t}}
        + \frac{(2q)^t e^{(t^2-t)/(2\sigma^2)}(\sigma^t(t-1)!! + t^t)}{2(1-q)^{t-1}\sigma^{2t}}.
    """
    t = check_steps(t, "t")
    s, qq = _pos(sigma), _q_open_mp(q)
    with mpmath.workdps(MP_DPS):
        dfact = mpmath.fac2(t - 1)
        e_t = mpmath.exp(mpmath.mpf(t * t - t) / (2 * s ** 2))
        first = (2 * qq) ** t * dfact / (2 * (1 - qq) ** (t - 1) * s ** t)
        second = qq ** t / ((1 - qq) ** t * s ** (2 * t))
        third = (2 * qq) ** t * e_t * (s ** t * dfact + mpmath.mpf(t) ** t) / (2 * (1 - qq) ** (t - 1) * s ** (2 * t))
        return +(first + second + third)


def mixture_moments(t_max, q, sigma):
    r"""Exact :math:`M_0,\dots,M_{t_{max}}` in the direction :math:`(\nu_0,\nu_1)=(\mu,\mu_0)`,
    :math:`\mu=(1-q)\mu_0+q\mu_1`, :math:`\mu_j=\mathcal N(j,\sigma^2)` (the reduction of 002 L562-576):

    .. math:: M_t = \mathbb E_{\mu_0}[(q(e^{(2z-1)/(2\sigma^2)}-1))^t]
                  = q^t\sum_{j=0}^t\binom tj(-1)^{t-j}e^{(j^2-j)/(2\sigma^2)}.

    The alternating sum cancels badly: its terms reach :math:`2^t e^{t^2/(2\sigma^2)}` while the result can
    be hundreds of orders of magnitude smaller (e.g. :math:`t=401,\sigma=100`), so no guard-digit formula
    fixed in advance is safe. The sum is evaluated at increasing precision until two successive
    precisions agree to ``MP_DPS`` digits for every :math:`t`. Returns mpf values at ``MP_DPS``.
    """
    t_max = int(t_max)
    if t_max < 0:
        raise InvalidParameter(f"t_max must be a non-negative integer, got {t_max!r}")
    s, qq = _num(sigma, check_sigma(sigma)), _num(q, check_q(q))
    guard = int(t_max * 0.302 + t_max * t_max / (2 * float(s) ** 2) / 2.302) + 10
    previous = _alternating_moments(t_max, qq, s, MP_DPS + guard)
    while True:
        guard *= 2
        current = _alternating_moments(t_max, qq, s, MP_DPS + guard)
        with mpmath.workdps(MP_DPS + 5):
            stable = all(a == b or abs(a - b) <= abs(b) * mpmath.mpf(10) ** (-MP_DPS) for a, b in zip(previous, current))
        if stable:
            with mpmath.workdps(MP_DPS):
                return [+m for m in current]
        previous = current


def _alternating_moments(t_max, q, s, dps):
    """:math:`M_0..M_{t_{max}}` by the alternating binomial sum at ``dps`` digits (see mixture_moments)."""
    with mpmath.workdps(dps):
        s2 = 2 * s ** 2
        exps = [mpmath.exp(mpmath.mpf(j * j - j) / s2) for j in range(t_max + 1)]
        out, q_pow = [], mpmath.mpf(1)
        for t in range(t_max + 1):
            binoms = [math.comb(t, j) * (-1) ** (t - j) for j in range(t + 1)]
            out.append(q_pow * mpmath.fsum(b * e for b, e in zip(binoms, exps)))
            q_pow *= q
        return out


def mixture_moment(t, q, sigma):
    r"""One exact moment :math:`M_t` (see :func:`mixture_moments`)."""
    return mixture_moments(t, q, sigma)[t]


def exact_tail_13(lam, q, sigma):
    r"""The tail (13) (002 L598; 000 L866) evaluated exactly in the direction :math:`(\mu,\mu_0)`:
    :math:`\sum_{t=3}^{\lambda+1}\binom{\lambda+1}{t}M_t`. This is the direction whose moment is
    :math:`A_{\lambda+1}`, so the tail equals :math:`A_{\lambda+1} - 1 - \binom{\lambda+1}{2}M_2`.
    """
    lam = _check_lam(lam)
    _check_q_open(q)
    moments = mixture_moments(lam + 1, q, sigma)
    with mpmath.workdps(MP_DPS):
        return +mpmath.fsum(math.comb(lam + 1, t) * moments[t] for t in range(3, lam + 2))


def exact_tail_13_from_a(lam, q, sigma):
    r"""The same tail (13) as :func:`exact_tail_13`, from the accountant: :math:`A_{\lambda+1} - 1 - \binom{\lambda+1}{2}M_2`.

    Fast (the accountant's sum has positive terms); the subtraction cancels the leading 1 + O(q^2), so
    :math:`\ln A` is taken with ``TAIL_GUARD_DPS`` extra digits.
    """
    from numerics.rdp import alpha_moment

    lam = _check_lam(lam)
    qq = _q_open_mp(q)
    with mpmath.workdps(MP_DPS + TAIL_GUARD_DPS):
        a = mpmath.exp(alpha_moment(float(q), float(sigma), lam, dps=MP_DPS + TAIL_GUARD_DPS))
        m2 = qq ** 2 * (mpmath.exp(1 / _pos(sigma) ** 2) - 1)
        tail = a - 1 - math.comb(lam + 1, 2) * m2
    with mpmath.workdps(MP_DPS):
        return +tail


# --- the conclusion against the exact log moment -------------------------------------------------

def exact_alpha(lam, sigma, q):
    r"""Exact :math:`\alpha(\lambda) = \ln A_{\lambda+1}` from the accountant :func:`numerics.rdp.alpha_moment`."""
    from numerics.rdp import alpha_moment  # imported here: the accountant is the single source of A

    return alpha_moment(q, sigma, lam, dps=MP_DPS)


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
    s, qq = _pos(sigma), _q_open_mp(q)
    with mpmath.workdps(MP_DPS):
        cap = s ** 2 * mpmath.log(1 / (qq * s))
        return max(0, int(mpmath.floor(cap)))


__all__ = [
    "SIGMA_MIN_002", "tail_u", "lemma_b3_r", "lemma_b3_hypotheses", "second_order_term", "tail_bound",
    "lemma_b3_bound", "moment_bound_14", "mixture_moments", "mixture_moment", "exact_tail_13", "exact_tail_13_from_a", "exact_alpha", "tightest_u",
    "lemma_b3_margin", "lemma_b3_ratio", "max_lambda",
]
