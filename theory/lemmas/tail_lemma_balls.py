r"""The tail lemma's margins as Arb balls (002 Lemma B.3 = 000 Lemma D.1, and its moments (13), (14)): the
functions :func:`numerics.certify.certify` runs branch and bound on, named as ``module:function``.

They live apart from :mod:`theory.lemmas.certificates` (which turns a certificate into a ledger verdict) so
that this module's source closure is this file and :mod:`numerics` only: the certificates' boxes are cached
by the sweep runner under that closure (issue 34), so editing the ledger, a claim's metadata or the verdict
wording never recomputes a certificate, while editing a margin or an enclosure always does.

Coordinates: :math:`q = \tau\,q_{cap}(\lambda,\sigma)`, :math:`q_{cap} = e^{-\lambda/\sigma^2}/\sigma`,
:math:`\tau \in [0, 1]` (the hypothesis :math:`\lambda \le \sigma^2\ln(1/(q\sigma))` of 002 L518 becomes
:math:`\tau \le 1`; see :mod:`theory.lemmas.certificates`).
"""
from __future__ import annotations


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
    return lemma_b3_bound(lam, sigma, q) - sigma2_log_a_over_q2(q, sigma, lam + 1)


def lemma_b3_bound(lam, sigma, q):
    r"""The bound side of :func:`lemma_b3_margin` at the tightest constants, times :math:`\sigma^2/q^2`:
    :math:`\lambda(\lambda+1)/(1-q) + (r/r_0)\,q\lambda^2(\lambda+1)/((1-q)^2\sigma)`."""
    u0, u1 = big_u(lam, sigma, q)
    lam_term = lam * (lam + 1)
    return lam_term / (1 - q) + r_over_r0(sigma, u0, u1) * q * lam * lam_term / ((1 - q) ** 2 * sigma)


def lemma_b3_constraints(lam, sigma, tau):
    r"""Hypotheses of 002 Lemma B.3 not built into the coordinates, each an enclosure that must be
    >= 0: :math:`U_0, U_1 < 1` at the tightest :math:`r_0 = q\sigma` (L524). (:math:`r_0 < 1`,
    :math:`q \le r_0/\sigma` and :math:`\lambda \le \sigma^2\ln(1/(q\sigma))` hold by the coordinates;
    :math:`\sigma \ge 216/215` is the lower end of the sigma coordinate for seed 002.)"""
    u0, u1 = big_u(lam, sigma, q_of_tau(lam, sigma, tau))
    return [1 - u0, 1 - u1]


# --- seed 002 Lemma B.3: the tail (13) ----------------------------------------------------------------

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
