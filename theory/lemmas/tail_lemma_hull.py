r"""A tighter enclosure of the tail lemma's conclusion margin (002 Lemma B.3 = 000 Lemma D.1) over wide boxes,
for the certificate of :mod:`theory.proactive_dp.lemma_b3_certified` (issue 34).

The margin is the one of :func:`theory.lemmas.tail_lemma_balls.lemma_b3_margin` (same function, same
coordinates): only its enclosure over a box differs, in three places: the range of :math:`q` (:func:`q_range`),
the bound (:func:`_bound_hull`, two monotone corners) and the exact side's sum, below. There, :math:`\sigma^2 S_\alpha =
\sum_{k=2}^{\alpha} w_k (1-q)^{\alpha-k} q^{k-2}\varphi(c_k x)` (:func:`numerics.enclosures.sigma2_a_excess_over_q2`,
:math:`w_k = \binom\alpha k c_k`, :math:`c_k = k(k-1)/2`, :math:`x = 1/\sigma^2`) is summed in midpoint-radius
balls, and a power :math:`q^{n}` of a ball of relative radius :math:`r` comes out with relative radius
:math:`(1+r)^n - 1`: at :math:`\lambda = 400` on a box :math:`\sigma \in [27, 32]` the exact side's ball was
:math:`[-1.9\cdot10^5, 3.5\cdot10^5]` around a value near :math:`10^5` (negative lower ends of a sum of
positive terms), which forced about 1,400 boxes per :math:`\lambda`.

Here every term is enclosed by its values at the ends of its factors' ranges: with :math:`q \in [q_0, q_1]
\subset [0, 1)` and :math:`x \in [x_0, x_1] \subset [0, \infty)`, each factor is positive and monotone
(:math:`q^{k-2}` increasing, :math:`(1-q)^{\alpha-k}` decreasing in :math:`q`; :math:`\varphi` increasing, as
proven in :mod:`numerics.enclosures`), so

.. math:: w_k (1-q_1)^{\alpha-k} q_0^{k-2}\varphi(c_k x_0) \;\le\; T_k \;\le\; w_k (1-q_0)^{\alpha-k} q_1^{k-2}\varphi(c_k x_1),

every end computed as a point ball (exact binary ends, so only rounding radii), and the sum lies between
the sums of the lower and of the upper ends. This treats :math:`q` and :math:`x` as independent (they are
not: both depend on :math:`\sigma`), so it is still an over-approximation, but the interval hull of each
term instead of a midpoint-radius blow-up.

Truncation with a rigorous remainder, as in :func:`numerics.enclosures.sigma2_a_excess_over_q2`: the upper
ends :math:`U_k` satisfy :math:`U_{k+1}/U_k = \frac{\alpha-k}{k-1}\frac{q_1}{1-q_0}
\frac{\varphi(c_{k+1}x_1)}{\varphi(c_kx_1)}\frac{c_{k+1}}{c_k}\frac{c_k}{c_{k+1}}
\le \frac{\alpha-k}{k-1}\frac{q_1}{1-q_1}e^{kx_1} \le \rho_K := \frac{\alpha-K}{K-1}\frac{q_1}{1-q_1}e^{\alpha x_1}`
for :math:`k \ge K` (:math:`w_{k+1}/w_k = (\alpha-k)/(k-1)`; :math:`\varphi(b')\le e^{b'-b}\varphi(b)` for
:math:`b' \ge b`, :math:`c_{k+1}-c_k = k`), so once :math:`\rho_K < 1/2` the upper ends after :math:`K` sum to
at most :math:`U_K\rho_K/(1-\rho_K)`, added to the upper sum; the lower sum just drops them (terms
:math:`\ge 0`). The sum stops when that remainder is below :math:`2^{-40}` of the lower sum or below
:math:`2^{-20}` of the hull's own width (a remainder far below the width changes no decision).

Imports only :mod:`numerics` and :mod:`theory.lemmas.tail_lemma_balls` (whose closure is :mod:`numerics`), so
the certificate's cached boxes depend on the margins and the certifier only.
"""
from __future__ import annotations

from numerics.enclosures import _binomial_weights, _check_order, log1p_over_x
from theory.lemmas.tail_lemma_balls import big_u, lemma_b3_bound as _bound

#: the truncation test runs every this many terms; it needs the ratio bound below this ...
_TRUNCATE_EVERY = 4
_TRUNCATE_RHO = 0.5
#: ... and the remainder below this fraction of the lower sum, or below _WIDTH_REL of the hull's width
_TRUNCATE_REL = 2.0 ** -40
_WIDTH_REL = 2.0 ** -20


def _ends(ball):
    """The ends of a ball of non-negative reals as exact point balls (the lower one clipped at 0)."""
    from flint import arb

    lo, hi = ball.lower(), ball.upper()
    return (arb(0) if lo < 0 else lo), hi


def sigma2_a_excess_hull(q, sigma, alpha: int):
    r""":math:`\sigma^2 S_\alpha = \sigma^2(A_\alpha - 1)/q^2` over balls ``q`` (in [0, 1)) and ``sigma`` (> 0),
    enclosed term by term by its factors' ends (module docstring). Returns a ball."""
    from flint import arb

    alpha = _check_order(alpha)
    x = 1 / (sigma * sigma)
    x0, x1 = _ends(x)
    q0, q1 = _ends(q)
    if not q1 < 1:
        return arb("nan")
    one = arb(1)
    # (1-q)^j at both ends, j = 0..alpha-2 (upper ends from q0, lower ends from q1)
    pl, pu = 1 - q1, 1 - q0
    pl_pows, pu_pows = [one], [one]
    for _ in range(alpha - 2):
        pl_pows.append(pl_pows[-1] * pl)
        pu_pows.append(pu_pows[-1] * pu)
    weights = _binomial_weights(alpha)
    zero0, zero1 = x0 == 0, x1 == 0
    ex0, ex1 = x0.exp(), x1.exp()
    ek0, ek1 = ex0, ex1  # e^{(k-1) x} at both ends, k = 2
    ec0, ec1 = ex0, ex1  # e^{c_k x}, c_2 = 1
    low, up = arb(0), arb(0)
    ql_pow, qu_pow = one, one  # q0^(k-2), q1^(k-2)
    ratio_base = q1 / (1 - q1) * (alpha * x1).exp()
    for k in range(2, alpha + 1):
        c = k * (k - 1) // 2
        phi0 = one if zero0 else (ec0 - 1) / (c * x0)
        phi1 = one if zero1 else (ec1 - 1) / (c * x1)
        w = weights[k]
        term_up = w * pu_pows[alpha - k] * qu_pow * phi1
        low += w * pl_pows[alpha - k] * ql_pow * phi0
        up += term_up
        if k < alpha and k % _TRUNCATE_EVERY == 0:
            rho = (alpha - k) * ratio_base / (k - 1)
            if rho.upper() < _TRUNCATE_RHO:
                rest = arb(term_up.upper()) * arb(rho.upper()) / (1 - arb(rho.upper()))
                width = up.upper() - low.lower()
                if rest.upper() < _TRUNCATE_REL * low.lower() or rest.upper() < _WIDTH_REL * width:
                    up += rest
                    break
        ql_pow *= q0
        qu_pow *= q1
        ek0, ek1 = ek0 * ex0, ek1 * ex1  # e^{k x}
        ec0, ec1 = ec0 * ek0, ec1 * ek1  # e^{c_{k+1} x} = e^{c_k x} e^{k x}
    return arb(low.lower()).union(arb(up.upper()))


def _bound_hull(lam, sigma, q):
    r""":func:`theory.lemmas.tail_lemma_balls.lemma_b3_bound` over balls ``sigma``, ``q``, by its values at two
    corners. Where :math:`U_0, U_1 < 1`
    (every factor positive) it is increasing in :math:`q` (:math:`1/(1-q)`, :math:`q/(1-q)^2` and
    :math:`U_j = 2\sqrt{\lambda q}/(\sigma(1-q))\cdot(1, e/\sigma)` increase, and :math:`r/r_0` increases with
    :math:`U_j`) and decreasing in :math:`\sigma` (:math:`U_j`, :math:`e^3/\sigma^3`, :math:`e^{3/\sigma^2}` and
    :math:`1/\sigma` decrease), so it lies between its values at :math:`(q_0, \sigma_1)` and :math:`(q_1, \sigma_0)`.
    When :math:`U_j` may reach 1 at the upper corner, the plain ball (with its one-sided :math:`r/r_0`) is used."""
    from flint import arb

    (q0, q1), (s0, s1) = _ends(q), _ends(sigma)
    hi_u0, hi_u1 = big_u(lam, s0, q1)
    if not (hi_u0.upper() < 1 and hi_u1.upper() < 1 and q1 < 1):
        return _bound(lam, sigma, q)
    return arb(_bound(lam, s1, q0).lower()).union(arb(_bound(lam, s0, q1).upper()))


def q_range(lam, sigma, tau):
    r""":math:`q = \tau g(x)` over balls ``sigma`` (> 0) and ``tau`` (>= 0), :math:`g(x) = \sqrt{x}e^{-\lambda x}`,
    :math:`x = 1/\sigma^2` (the coordinate change :func:`theory.lemmas.tail_lemma_balls.q_of_tau`). :math:`g` rises
    on :math:`x < 1/(2\lambda)` and falls after (:math:`(\ln g)' = 1/(2x) - \lambda`), so its range over
    :math:`[x_0, x_1]` is between its values at the ends and, when :math:`1/(2\lambda)` may lie inside, its peak
    there; :math:`\tau \ge 0` scales it. A plain ball evaluation multiplies the ranges of :math:`e^{-\lambda x}` and
    :math:`1/\sigma`, which move in opposite directions (about three times wider at :math:`\lambda = 400`,
    :math:`\sigma \approx 20`), and the powers :math:`q^{k-2}` of the sum raise that width to the power."""
    from flint import arb

    x = 1 / (sigma * sigma)
    x0, x1 = _ends(x)

    def g(v):
        return v.sqrt() * (-lam * v).exp()

    vals = g(x0).union(g(x1))
    peak = arb(1) / (2 * lam)
    if not (peak < x0 or peak > x1):  # the peak may be inside: include it
        vals = vals.union(g(peak))
    t0, t1 = _ends(tau)
    return (t0 * arb(vals.lower())).union(t1 * arb(vals.upper()))


def lemma_b3_margin_hull(lam, sigma, tau):
    r"""The conclusion margin of :func:`theory.lemmas.tail_lemma_balls.lemma_b3_margin` (the same function of
    :math:`\lambda, \sigma, \tau`, the same proof that the tightest constants cover the lemma), with its
    exact side :math:`\sigma^2\ln A_{\lambda+1}/q^2 = \sigma^2 S\,L(q^2 S)` enclosed through
    :func:`sigma2_a_excess_hull`; :math:`L(y) = \ln(1+y)/y` decreasing, by its ends
    (:func:`numerics.enclosures.log1p_over_x`). On a point it agrees with the other enclosure to the
    rounding; on a box it is at least as narrow, up to rounding, wherever the powers of :math:`q` dominate."""
    q = q_range(lam, sigma, tau)
    bound = _bound_hull(lam, sigma, q)
    s2s = sigma2_a_excess_hull(q, sigma, lam + 1)
    exact = s2s * log1p_over_x(q * q * s2s / (sigma * sigma))
    return bound - exact
