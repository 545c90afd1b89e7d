r"""Moments of the Poisson-subsampled Gaussian pair: the exact mixture moments :math:`M_t`, Abadi's bound (14)
on them, the tail (13) made of them, and the exact log moment :math:`\alpha(\lambda)=\ln A_{\lambda+1}`.

These are the moments the tail lemma (:mod:`theory.lemmas.tail_lemma`: 002 Lemma B.3 = 000 Lemma D.1)
rests on (``002_13c470b90c68bab6.txt L562-604``; ``000_d613b97385d90362.txt L866-873``). Notation as
there: ``q`` is :math:`s_i/N`, ``sigma`` is :math:`\sigma_i`, :math:`\mu_j=\mathcal N(j,\sigma^2)`,
:math:`\mu=(1-q)\mu_0+q\mu_1`.
"""
from __future__ import annotations

import math

import mpmath

from numerics.errors import InvalidParameter, check_q, check_sigma, check_steps
from numerics.precision import MP_DPS
from theory.lemmas.arguments import check_lam, check_q_open, as_mpf, positive_mpf, q_open_mpf

#: extra digits for A - 1 - binom(lam+1, 2) M_2, which cancels the leading terms of A.
TAIL_GUARD_DPS = 40


def moment_bound_14(t, q, sigma):
    r"""Abadi's bound (14) on :math:`M_t = \mathbb E_{z\sim\nu_1}[((\nu_0(z)-\nu_1(z))/\nu_1(z))^t]`, first line
    (002 L602; 000 L873), for both directions :math:`(\nu_0,\nu_1)\in\{(\mu_0,\mu),(\mu,\mu_0)\}`, t >= 3:

    .. math::

        \frac{(2q)^t(t-1)!!}{2(1-q)^{t-1}\sigma^t} + \frac{q^t}{(1-q)^t\sigma^{2t}}
        + \frac{(2q)^t e^{(t^2-t)/(2\sigma^2)}(\sigma^t(t-1)!! + t^t)}{2(1-q)^{t-1}\sigma^{2t}}.
    """
    t = check_steps(t, "t")
    s, qq = positive_mpf(sigma), q_open_mpf(q)
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
    s, qq = as_mpf(sigma, check_sigma(sigma)), as_mpf(q, check_q(q))
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
    lam = check_lam(lam)
    check_q_open(q)
    moments = mixture_moments(lam + 1, q, sigma)
    with mpmath.workdps(MP_DPS):
        return +mpmath.fsum(math.comb(lam + 1, t) * moments[t] for t in range(3, lam + 2))


def exact_tail_13_from_a(lam, q, sigma):
    r"""The same tail (13) as :func:`exact_tail_13`, from the accountant: :math:`A_{\lambda+1} - 1 - \binom{\lambda+1}{2}M_2`.

    Fast (the accountant's sum has positive terms); the subtraction cancels the leading 1 + O(q^2), so
    :math:`\ln A` is taken with ``TAIL_GUARD_DPS`` extra digits.
    """
    from numerics.rdp import alpha_moment

    lam = check_lam(lam)
    qq = q_open_mpf(q)
    with mpmath.workdps(MP_DPS + TAIL_GUARD_DPS):
        a = mpmath.exp(alpha_moment(float(q), float(sigma), lam, dps=MP_DPS + TAIL_GUARD_DPS))
        m2 = qq ** 2 * (mpmath.exp(1 / positive_mpf(sigma) ** 2) - 1)
        tail = a - 1 - math.comb(lam + 1, 2) * m2
    with mpmath.workdps(MP_DPS):
        return +tail


def exact_alpha(lam, sigma, q):
    r"""Exact :math:`\alpha(\lambda) = \ln A_{\lambda+1}` from the accountant :func:`numerics.rdp.alpha_moment`."""
    from numerics.rdp import alpha_moment  # imported here: the accountant is the single source of A

    return alpha_moment(q, sigma, lam, dps=MP_DPS)
