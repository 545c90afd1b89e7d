r"""Cancellation-free ball-arithmetic (Arb) enclosures of the accountants' quantities.

Naive enclosures of :math:`A_\alpha` blow up: in the binomial sum the :math:`k=0,1` terms cancel the
leading order in :math:`q`, so a ball in :math:`q` gives an enclosure wider than the value itself. We
use forms whose terms are all positive and carry their true order (issue 12):

.. math::

    A_\alpha - 1 = q^2 S_\alpha(q,\sigma),\qquad
    \sigma^2 S_\alpha = \sum_{k=2}^{\alpha}\binom{\alpha}{k}(1-q)^{\alpha-k}q^{k-2}\,
        \tfrac{k(k-1)}{2}\,\varphi\Big(\frac{k(k-1)}{2\sigma^2}\Big),\qquad \varphi(x) = \frac{e^x-1}{x},

which follows from :math:`\sum_k\binom\alpha k(1-q)^{\alpha-k}q^k = 1` (the :math:`k=0,1` terms of
:math:`A_\alpha - 1` vanish), for integer :math:`\alpha \ge 2`, with :math:`A_\alpha` as in
:func:`numerics.rdp.log_a` (Mironov et al. 2019, add/remove, sensitivity 1). Two monotone functions
are enclosed from their values at a ball's ends (monotonicity proven here, not assumed):

* :math:`\varphi(x) = \sum_{n\ge0} x^n/(n+1)!` is increasing on :math:`x \ge 0` (positive coefficients);
  scaling by :math:`\sigma^2` this way removes the dependency between :math:`\sigma^2` and
  :math:`e^{c/\sigma^2}` that a plain ball evaluation suffers;
* :math:`L(y) = \ln(1+y)/y` is decreasing on :math:`y \ge 0`
  (:math:`L' = (y/(1+y) - \ln(1+y))/y^2 < 0`), so :math:`\ln A_\alpha = q^2 S_\alpha L(q^2 S_\alpha)`.

The mixture moments :math:`M_t = q^t m_t(x)`, :math:`x = 1/\sigma^2`, of seed 002 (L562-604) have
:math:`m_t(x) = \sum_{j=0}^t\binom tj(-1)^{t-j}e^{j(j-1)x/2}`, an alternating sum. Expanding the
exponential, :math:`m_t(x) = \sum_{n\ge0}\frac{(x/2)^n}{n!}\,\Delta^t[(j(j-1))^n](0)`; since
:math:`(j(j-1))^n = 2^n\binom j2^n` is a product of binomial polynomials, it has non-negative
coefficients in the basis :math:`\binom jm`, and :math:`\Delta^t\binom jm(0) = [m=t]`. So every
coefficient is :math:`\ge 0`: :math:`m_t \ge 0` and :math:`m_t` is increasing in :math:`x`, i.e.
decreasing in :math:`\sigma`. Over a ball of :math:`\sigma` it is enclosed by its values at the two
ends, each evaluated as a point ball at a precision raised until the cancellation is paid for.

All functions take ``flint.arb`` balls (or numbers) and return balls that contain the exact value for
every point of the inputs.
"""
from __future__ import annotations

import math
from functools import lru_cache


def _arb(x):
    from flint import arb

    return x if isinstance(x, arb) else arb(x)


def _check_order(alpha) -> int:
    if int(alpha) != alpha or alpha < 2:
        raise ValueError(f"alpha must be an integer >= 2, got {alpha!r}")
    return int(alpha)


def expm1_over_x(x):
    r""":math:`\varphi(x) = (e^x - 1)/x` (with :math:`\varphi(0) = 1`) over a ball of non-negative ``x``, by monotonicity."""
    from flint import arb

    x = _arb(x)
    lo, hi = x.lower(), x.upper()
    if lo < 0:
        lo = arb(0)

    def at(v):
        return arb(1) if v == 0 else v.expm1() / v

    return at(lo).union(at(hi))  # increasing: smallest value at the lower end


def log1p_over_x(y):
    r""":math:`L(y)=\ln(1+y)/y` (with :math:`L(0)=1`) over a ball of non-negative ``y``, by monotonicity."""
    from flint import arb

    y = _arb(y)
    lo, hi = y.lower(), y.upper()
    if lo < 0:
        lo = arb(0)

    def at(v):
        return arb(1) if v == 0 else (v.log1p() / v)

    upper, lower = at(lo), at(hi)  # decreasing: largest value at the lower end
    return lower.union(upper)


#: the truncation test runs every this many terms, and stops the sum once the ratio bound is below this
_TRUNCATE_EVERY = 4
_TRUNCATE_RHO = 0.5
#: ... and the remainder bound is below this fraction of the sum so far (point enclosures stay tight)
_TRUNCATE_REL = 2.0 ** -40


@lru_cache(maxsize=1024)
def _binomial_weights(alpha: int) -> tuple:
    """The exact integers binom(alpha, k) k(k-1)/2, k = 0..alpha: computed once per order, not once per box
    (a bignum binomial per term was a third of a certificate's time; the products are the same integers)."""
    return tuple(math.comb(alpha, k) * (k * (k - 1) // 2) for k in range(alpha + 1))


def sigma2_a_excess_over_q2(q, sigma, alpha: int):
    r""":math:`\sigma^2 S_\alpha = \sigma^2(A_\alpha - 1)/q^2`, a sum of non-negative terms; ``q`` in [0, 1].

    :math:`\varphi(c_k x)`, :math:`c_k = k(k-1)/2`, :math:`x = 1/\sigma^2`, is enclosed by its values at
    the ends :math:`x_{lo}, x_{hi}` of x's ball (increasing); there :math:`e^{c_k x}` is built by the
    recurrence :math:`e^{c_{k+1}x} = e^{c_k x}e^{kx}`, :math:`e^{kx} = e^{(k-1)x}e^x` (exact point balls,
    so the recurrence only multiplies rounding radii; no exp per term). Powers of q and 1 - q likewise.

    Truncation with a rigorous remainder: consecutive terms satisfy
    :math:`T_{k+1}/T_k = \frac{\alpha-k}{k+1}\frac{q}{1-q}\frac{\mathrm{expm1}(c_{k+1}x)}{\mathrm{expm1}(c_kx)}
    \le \frac{\alpha-k}{k-1}\frac{q}{1-q}e^{kx} \le \rho_K := \frac{\alpha-K}{K-1}\frac{q}{1-q}e^{\alpha x}`
    for :math:`k \ge K` (using :math:`\varphi(b) = \int_0^1 e^{bs}ds \le e^{b-a}\varphi(a)` for
    :math:`b \ge a`, and :math:`c_{k+1} - c_k = k`), so once :math:`\rho_K < 1/2` (and the remainder is negligible) the terms after
    :math:`K` sum to at most :math:`T_K\rho_K/(1-\rho_K)`, added as the ball :math:`[0, \cdot]`.
    """
    from flint import arb

    alpha = _check_order(alpha)
    q, sigma = _arb(q), _arb(sigma)
    x = 1 / (sigma * sigma)
    ends = [x.lower(), x.upper()]
    if ends[0] < 0:
        ends[0] = arb(0)
    (x0, x1), one = ends, arb(1)
    zero0, zero1 = x0 == 0, x1 == 0
    ex0, ex1 = x0.exp(), x1.exp()  # e^x at both ends
    ek0, ek1 = ex0, ex1  # e^{(k-1) x}, k = 2
    ec0, ec1 = ex0, ex1  # e^{c_k x}, c_2 = 1
    one_minus_q = 1 - q
    p_pows = [arb(1)]  # (1-q)^j, j = 0..alpha-2
    for _ in range(alpha - 2):
        p_pows.append(p_pows[-1] * one_minus_q)
    total = arb(0)
    q_pow = arb(1)  # q^(k-2)
    # ratio bound for the truncation (see the docstring): q/(1-q) e^{alpha x} at the box's worst corner
    ratio_base = (arb(q.upper()) / (1 - arb(q.upper())) * (alpha * ends[1]).exp()) if q.upper() < 1 else None
    weights = _binomial_weights(alpha)
    for k in range(2, alpha + 1):
        c = k * (k - 1) // 2
        phi0 = one if zero0 else (ec0 - 1) / (c * x0)  # the two ends unrolled: this loop is a certificate's hot spot
        phi1 = one if zero1 else (ec1 - 1) / (c * x1)
        term = weights[k] * p_pows[alpha - k] * q_pow * phi0.union(phi1)
        total += term
        if ratio_base is not None and k < alpha and k % _TRUNCATE_EVERY == 0:
            rho = (alpha - k) * ratio_base / (k - 1)
            if rho.upper() < _TRUNCATE_RHO:
                # terms k+1..alpha: at most term_k (rho + rho^2 + ...) = term_k rho/(1 - rho), and >= 0
                rest = arb(term.upper()) * arb(rho.upper()) / (1 - arb(rho.upper()))
                if rest.upper() < _TRUNCATE_REL * total.lower():
                    return total + arb(0).union(arb(rest.upper()))
        q_pow *= q
        ek0, ek1 = ek0 * ex0, ek1 * ex1  # e^{k x}
        ec0, ec1 = ec0 * ek0, ec1 * ek1  # e^{c_{k+1} x} = e^{c_k x} e^{k x}
    return total


def a_excess_over_q2(q, sigma, alpha: int):
    r""":math:`S_\alpha = (A_\alpha - 1)/q^2`, a sum of non-negative terms; valid for balls with ``q`` in [0, 1]."""
    sigma = _arb(sigma)
    return sigma2_a_excess_over_q2(q, sigma, alpha) / (sigma * sigma)


def sigma2_log_a_over_q2(q, sigma, alpha: int):
    r""":math:`\sigma^2\ln A_\alpha / q^2 = \sigma^2 S_\alpha\,L(q^2 S_\alpha)`: positive terms, finite at :math:`q = 0`."""
    q, sigma = _arb(q), _arb(sigma)
    s2s = sigma2_a_excess_over_q2(q, sigma, alpha)
    return s2s * log1p_over_x(q * q * s2s / (sigma * sigma))


def log_a_over_q2(q, sigma, alpha: int):
    r""":math:`\ln A_\alpha / q^2 = S_\alpha\,L(q^2 S_\alpha)`: positive terms only, finite at :math:`q=0`."""
    sigma = _arb(sigma)
    return sigma2_log_a_over_q2(q, sigma, alpha) / (sigma * sigma)


def log_a(q, sigma, alpha: int):
    r""":math:`\ln A_\alpha` (integer order) as a ball."""
    q = _arb(q)
    return q * q * log_a_over_q2(q, sigma, alpha)


# --- mixture moments m_t(1/sigma^2) ----------------------------------------------------------------

#: relative radius the point evaluations of m_t must reach before the precision stops rising
_MOMENT_REL_RAD = 2.0 ** -60


@lru_cache(maxsize=4096)
def _moments_at_point(t_max: int, sigma: float) -> tuple:
    r"""Point balls :math:`m_0,\dots,m_{t_{max}}` at the exact binary ``sigma`` (alternating sums,
    evaluated at rising precision until each has relative radius below ``_MOMENT_REL_RAD``).
    Cached: branch and bound revisits the same box ends."""
    from flint import arb, ctx

    old = ctx.prec
    prec = max(old, 128)
    try:
        while True:
            ctx.prec = prec
            x2 = 1 / (2 * arb(sigma) ** 2)
            exps = [(j * (j - 1) * x2).exp() for j in range(t_max + 1)]
            out = []
            for t in range(t_max + 1):
                out.append(sum((math.comb(t, j) * (-1) ** (t - j) * exps[j] for j in range(t + 1)), arb(0)))
            if all(m.rad() <= _MOMENT_REL_RAD * abs(m.mid()) for m in out[2:]) or prec > 20_000:
                return tuple(out)
            prec *= 2
    finally:
        ctx.prec = old


def mixture_moments_over_qt(t_max: int, sigma) -> list:
    r""":math:`[m_0,\dots,m_{t_{max}}]`, :math:`m_t = M_t/q^t`, over a ball of ``sigma > 0``: each
    :math:`m_t \in [m_t(\sigma_{hi}), m_t(\sigma_{lo})]` (decreasing in :math:`\sigma`, see the module
    docstring), clamped at 0 from below (:math:`m_t \ge 0`)."""
    from flint import arb

    sigma = _arb(sigma)
    # float() rounds to nearest: step one ulp outwards so the float box contains the ball
    lo = math.nextafter(float(sigma.lower()), 0.0)
    hi = math.nextafter(float(sigma.upper()), math.inf)
    if not lo > 0:
        raise ValueError("sigma ball must be positive")
    small, large = _moments_at_point(int(t_max), hi), _moments_at_point(int(t_max), lo)
    return [arb(s.lower()).nonnegative_part().union(arb(g.upper())) for s, g in zip(small, large)]


def mixture_moment_over_qt(t: int, sigma):
    r"""One :math:`m_t = M_t/q^t` over a ball of ``sigma`` (see :func:`mixture_moments_over_qt`)."""
    return mixture_moments_over_qt(t, sigma)[int(t)]
