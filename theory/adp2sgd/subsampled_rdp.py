r"""Seed 001, Lemma 2 (L526-528): Gaussian RDP and the subsampled bound :math:`5\gamma^2\alpha\Delta^2/\sigma^2`.

Lemma 2 (cited from Mironov 2017; Wang, Balle, Kasiviswanathan 2019; Wang, Jayaraman, Evans, Gu 2019):
the Gaussian mechanism is :math:`(\alpha, \alpha\Delta^2/(2\sigma^2))`-RDP, and on a subset drawn uniformly
WITHOUT replacement at rate gamma it is :math:`(\alpha, 5\gamma^2\alpha\Delta^2/\sigma^2)`-RDP when
:math:`\sigma^2/\Delta^2 \ge 1.5` and :math:`\alpha \le \log(1/(\gamma(1+\sigma^2/\Delta^2)))`.

We write ``s2`` for :math:`\sigma^2/\Delta^2`. Two independent references:

* upper: Wang, Balle, Kasiviswanathan (AISTATS 2019, arXiv:1808.00087v2) Theorem 9, the RDP of a
  mechanism run on a subset drawn without replacement, under replace-one adjacency, evaluated at the
  Gaussian's :math:`\epsilon(j) = j/(2 s_2)` and :math:`\epsilon(\infty) = \infty` (integer orders);
* lower: a realizable pair. A record whose contribution is Delta away from the one it replaces, in a data
  set whose other records contribute the same vector as the replacement, gives (translated)
  :math:`P = (1-\gamma)N(0,\sigma^2) + \gamma N(\Delta,\sigma^2)` against :math:`Q = N(0,\sigma^2)` for a
  fixed-size batch; :math:`D_\alpha(P\|Q)` is the Poisson A-moment ``numerics.rdp.log_a`` (the same pair).
"""
from __future__ import annotations

import math

import mpmath
import numpy as np
import sympy as sp

from numerics.errors import InvalidParameter
from numerics.precision import MP_DPS
from numerics.rdp import log_a
from theory.adp2sgd.paper_values import LEMMA_2
from theory.ledger import Verdict, claim

S2_FLOOR = LEMMA_2["variance_ratio_floor"].value        # 1.5 (L528)
FACTOR = LEMMA_2["factor"].value                         # 5 (L528)


def lemma2_bound(gamma, s2, alpha):
    r"""Lemma 2's subsampled RDP :math:`5\gamma^2\alpha/s_2` (L528)."""
    return FACTOR * gamma ** 2 * alpha / s2


def alpha_cap(gamma, s2):
    r"""Lemma 2's largest order :math:`\log(1/(\gamma(1+s_2)))` (L528)."""
    return math.log(1.0 / (gamma * (1.0 + s2)))


def in_region(gamma, s2, alpha) -> bool:
    return s2 >= S2_FLOOR and alpha <= alpha_cap(gamma, s2)


def wbk_upper(gamma, s2, alpha: int):
    r"""WBK 2019 Theorem 9 for the Gaussian base mechanism, an upper bound on the subsampled RDP (mpmath).

    :math:`\frac{1}{\alpha-1}\log\big(1 + \gamma^2\binom{\alpha}{2}\min\{4(e^{\epsilon(2)}-1), 2e^{\epsilon(2)}\}
    + \sum_{j=3}^{\alpha} 2\gamma^j\binom{\alpha}{j} e^{(j-1)\epsilon(j)}\big)`, :math:`\epsilon(j) = j/(2s_2)`.
    """
    if int(alpha) != alpha or alpha < 2:
        raise InvalidParameter(f"WBK Theorem 9 is stated for integer orders >= 2, got {alpha!r}")
    alpha = int(alpha)
    with mpmath.workdps(MP_DPS):
        g, s2m = mpmath.mpf(gamma), mpmath.mpf(s2)
        eps = lambda j: j / (2 * s2m)  # noqa: E731
        total = 1 + g ** 2 * mpmath.binomial(alpha, 2) * min(4 * mpmath.expm1(eps(2)), 2 * mpmath.exp(eps(2)))
        for j in range(3, alpha + 1):
            total += 2 * g ** j * mpmath.binomial(alpha, j) * mpmath.exp((j - 1) * eps(j))
        return mpmath.log(total) / (alpha - 1)


def pair_lower(gamma, s2, alpha):
    r""":math:`D_\alpha(P\|Q)` of the realizable fixed-size replace-one pair (a lower bound on the RDP)."""
    return float(log_a(float(gamma), math.sqrt(float(s2)), float(alpha)) / (float(alpha) - 1))


# --- claims -------------------------------------------------------------------------------------------------


@claim(id="001.lemma-2.gaussian-rdp", seed="001", lines="L528",
       statement="The Gaussian mechanism f(x)+N(0, sigma^2 I) is (alpha, alpha Delta_2^2/(2 sigma^2))-RDP.",
       recorded="holds", result="Lemma 2", role="conclusion")
def gaussian_rdp() -> Verdict:
    x = sp.symbols("x", real=True)
    a, s, d = sp.symbols("alpha sigma Delta", positive=True)
    p = sp.exp(-(x - d) ** 2 / (2 * s ** 2)) / sp.sqrt(2 * sp.pi * s ** 2)
    q = sp.exp(-x ** 2 / (2 * s ** 2)) / sp.sqrt(2 * sp.pi * s ** 2)
    # integrand p^a q^(1-a) is a Gaussian kernel: integrate with the exponent collected, a > 1
    integral = sp.integrate(sp.simplify(sp.exp(a * sp.log(p) + (1 - a) * sp.log(q))).rewrite(sp.exp), (x, -sp.oo, sp.oo),
                            conds="none")
    divergence = sp.simplify(sp.log(sp.simplify(integral)) / (a - 1))
    residual = sp.simplify(sp.expand_log(divergence, force=True) - a * d ** 2 / (2 * s ** 2))
    ok = residual == 0
    return Verdict("holds" if ok else "refuted", "symbolic", margin=0.0 if ok else -1.0,
                   evidence={"divergence": str(divergence), "residual": str(residual),
                             "note": "worst case over neighbours is the largest shift, Delta_2 (Definition 3)"},
                   counterexample=None if ok else {"residual": str(residual)}, arithmetic=("sympy",))


#: integer orders covered by the ball-arithmetic certificate of the region.
ALPHA_MAX = 64


def ratio_bound(v, alpha: int, beta=None):
    r"""Arb enclosure of an upper bound on WBK(gamma, 1/v, alpha) / Lemma 2's bound, uniform over the region.

    With :math:`v = 1/s_2 \in (0, 2/3]`, :math:`\log(1+X) \le X`, :math:`\min\{\cdot\} \le 4(e^v-1)` and the
    region's :math:`\gamma \le e^{-\beta}/(1+s_2) = e^{-\beta}v/(1+v)` (each term is increasing in gamma; beta is the
    order the cap is taken at, alpha itself by default; ``fractional_orders`` uses beta = alpha - 1):

    .. math:: \frac{\mathrm{WBK}}{5\gamma^2\alpha v} \le \frac{4\binom\alpha2\varphi(v)
              + \sum_{j=3}^{\alpha} 2\binom\alpha j e^{-\beta(j-2)} v^{j-3}(1+v)^{-(j-2)} e^{(j-1)jv/2}}{5\alpha(\alpha-1)}.
    """
    import flint

    from numerics.enclosures import expm1_over_x

    a = int(alpha)
    b = a if beta is None else int(beta)
    total = 4 * flint.arb(a * (a - 1) // 2) * expm1_over_x(v)
    for j in range(3, a + 1):
        total += (2 * flint.arb(math.comb(a, j)) * flint.arb(-b * (j - 2)).exp() * v ** (j - 3)
                  / (1 + v) ** (j - 2) * (flint.arb((j - 1) * j) / 2 * v).exp())
    return total / (5 * a * (a - 1))


def _certify_order(alpha: int, lo: float, hi: float, depth: int = 0, *, beta=None, level=1) -> tuple[bool, int, float]:
    """(ratio bound <= level on v in [lo, hi], boxes, largest upper end of the enclosures)."""
    import flint

    enc = ratio_bound(flint.arb((lo + hi) / 2, (hi - lo) / 2), alpha, beta)
    if enc <= level:
        return True, 1, float(enc.upper())
    if depth >= 40:
        return False, 1, float(enc.upper())
    mid = (lo + hi) / 2
    a = _certify_order(alpha, lo, mid, depth + 1, beta=beta, level=level)
    b = _certify_order(alpha, mid, hi, depth + 1, beta=beta, level=level) if a[0] else (False, 0, 0.0)
    return a[0] and b[0], a[1] + b[1], max(a[2], b[2])


#: the scan of Lemma 2's region used as a second, independent view: log-spaced gamma and s2, every
#: integer order in the region, WBK evaluated in mpmath without the log(1+X) <= X relaxation.
GAMMAS = np.geomspace(1e-5, 0.3, 16)
S2S = np.geomspace(S2_FLOOR, 1e3, 12)


def _region_points():
    for g in GAMMAS:
        for s2 in S2S:
            cap = alpha_cap(g, s2)
            for a in range(2, int(math.floor(cap)) + 1):
                yield float(g), float(s2), a


@claim(id="001.lemma-2.in-region", seed="001", lines="L528",
       statement="Inside its region (sigma^2/Delta^2 >= 1.5, alpha <= log(1/(gamma(1+sigma^2/Delta^2)))) the subsampled Gaussian is (alpha, 5 gamma^2 alpha Delta^2/sigma^2)-RDP.",
       recorded="holds", result="Lemma 2", role="conclusion")
def in_region_claim() -> Verdict:
    import flint

    boxes, worst_enclosure, failed = 0, 0.0, []
    with flint.ctx.workprec(64):
        for a in range(2, ALPHA_MAX + 1):
            ok, n, top = _certify_order(a, 0.0, 1.0 / S2_FLOOR)
            boxes += n
            worst_enclosure = max(worst_enclosure, top)
            if not ok:
                failed.append(a)
    worst, worst_at, n = -math.inf, None, 0
    for g, s2, a in _region_points():
        ratio = float(wbk_upper(g, s2, a)) / lemma2_bound(g, s2, a)
        n += 1
        if ratio > worst:
            worst, worst_at = ratio, {"gamma": g, "s2": s2, "alpha": a}
    ok = not failed
    return Verdict("holds" if ok else "open", "rigorous", margin=1.0 - worst_enclosure,
                   evidence={"certificate": {"orders": [2, ALPHA_MAX], "s2": "[1.5, infinity) as v = 1/s2 in (0, 2/3]",
                                             "gamma": "every gamma in the region (the bound is uniform in gamma)",
                                             "v_boxes": boxes, "largest_ratio_enclosure": worst_enclosure,
                                             "precision_bits": 64},
                             "reference": "WBK 2019 Thm 9 upper bound (replace-one, sampling without replacement)",
                             "scan": {"points": n, "max_ratio_upper_over_lemma2": worst, "at": worst_at},
                             "scope": "integer orders 2..64; the fractional orders Theorem 2 uses are decided in "
                                      "001.lemma-2.fractional-orders (convexity between these integer-order bounds)",
                             "domain": f"integer orders 2..{ALPHA_MAX}, every s2 >= 1.5 and every gamma in the region "
                                       "(arb certificate, one-sided: the ratio to Lemma 2's bound is <= 1)",
                             "margin_unit": "1 - largest upper end of the ratio enclosures"},
                   reason="" if ok else f"undecided orders {failed}", arithmetic=("arb", "mpmath"))


#: two points outside the alpha cap (s2 at the floor): the first integer orders where the pair exceeds the bound.
OUTSIDE = ({"gamma": 0.1, "s2": 1.5, "alpha": 9}, {"gamma": 0.01, "s2": 1.5, "alpha": 15})


@claim(id="001.lemma-2.region-needed", seed="001", lines="L528",
       statement="Lemma 2's region is needed: outside it a realizable replace-one pair has Renyi divergence above 5 gamma^2 alpha Delta^2/sigma^2.",
       recorded="holds", result="Lemma 2", role="hypothesis")
def region_needed() -> Verdict:
    rows = []
    for pt in OUTSIDE:
        lb, bound = pair_lower(**pt), lemma2_bound(**pt)
        rows.append({**pt, "alpha_cap": alpha_cap(pt["gamma"], pt["s2"]), "pair_lower": lb, "lemma2_bound": bound,
                     "exceeds": lb > bound})
    ok = any(r["exceeds"] for r in rows)
    best = max(r["pair_lower"] / r["lemma2_bound"] for r in rows)
    return Verdict("holds" if ok else "open", "numeric", margin=best - 1.0,
                   evidence={"points": rows, "pair": "(1-gamma)N(0,1)+gamma N(1/sqrt(s2),1) vs N(0,1), mpmath",
                             "margin_unit": "max(lower / Lemma 2 bound) - 1: positive = the bound is exceeded outside"},
                   reason="" if ok else "no tested out-of-region point exceeds the bound", arithmetic=("mpmath",))


# --- fractional orders ------------------------------------------------------------------------------------


def order_one_two_threshold(s2):
    r"""Smallest alpha in (1, 2) that the D_2 argument covers at ``s2``: :math:`0.8\,(e^{v}-1)/v`, v = 1/s2 (arb ball).

    For alpha in (1, 2), convexity of :math:`\alpha \mapsto (\alpha-1)D_\alpha` (zero at alpha = 1) gives
    :math:`D_\alpha \le D_2`, and WBK's order 2 gives :math:`D_2 \le \log(1+4\gamma^2(e^v-1)) \le 4\gamma^2(e^v-1)`
    with no cap on gamma; that is at most Lemma 2's :math:`5\gamma^2\alpha v` iff :math:`\alpha \ge 0.8(e^v-1)/v`."""
    import flint

    from numerics.enclosures import expm1_over_x

    return flint.arb(4) / 5 * expm1_over_x(1 / flint.arb(s2))


def interpolation_level(m: int):
    r""":math:`1 - 1/(4m(m-1))` as a ball: if both integer-order ratios at m and m+1 are at most this, Lemma 2 holds on
    [m, m+1]. With :math:`c = 5\gamma^2/s_2`, convexity gives :math:`(\alpha-1)D_\alpha \le (1-t)(m-1)D_m + t\,m D_{m+1}
    \le R c\,m(m-1+2t)` at :math:`\alpha = m+t`, and :math:`c(\alpha-1)\alpha - Rc\,m(m-1+2t) = c[(1-R)m(m-1+2t) -
    t(1-t)] \ge c[(1-R)m(m-1) - 1/4] \ge 0`."""
    import flint

    return 1 - flint.arb(1) / (4 * m * (m - 1))


def theorem_2_orders(deltas=(1e-3, 1e-5, 1e-6), n_eps: int = 24, n_mu: int = 400) -> list[dict]:
    """(alpha, s2) of Theorem 2 at the CIFAR-10 setting over a scan of its feasible (eps, mu), paper's Delta = 2G/B."""
    from theory.adp2sgd import theorem_2 as t2

    mus = np.linspace(1e-3, 1 - 1e-3, n_mu)
    rows = []
    for delta in deltas:
        for eps in np.geomspace(1.0, 100.0, n_eps):
            for mu in t2.feasible_mus(epsilon=float(eps), delta=delta, mus=mus):
                a = t2.alpha_of(float(eps), delta, float(mu))
                s2 = t2.sigma2(epsilon=float(eps), delta=delta, mu=float(mu), T=t2.CIFAR["T"], K=t2.CIFAR["K"],
                               n1=t2.CIFAR["n1"]) / t2.paper_delta2(G=1.0, B=t2.CIFAR["B"]) ** 2
                rows.append({"delta": delta, "epsilon": float(eps), "mu": float(mu), "alpha": a, "s2": s2})
    return rows


@claim(id="001.lemma-2.fractional-orders", seed="001", lines="L528, L182, L546",
       statement="Inside its region, Lemma 2's subsampled bound 5 gamma^2 alpha Delta^2/sigma^2 also holds at fractional orders: every alpha in [2, 64], and alpha in [0.8 (e^(1/s2) - 1) s2, 2); this covers the order Theorem 2 uses at the CIFAR-10 setting (alpha = 3.30).",
       recorded="holds", result="Lemma 2", role="conclusion")
def fractional_orders() -> Verdict:
    import flint

    failed, boxes, worst = [], 0, {}
    with flint.ctx.workprec(64):
        for m in range(2, ALPHA_MAX):
            level = interpolation_level(m)
            for order in (m, m + 1):                       # alpha in [m, m+1] caps gamma at e^{-m} v/(1+v)
                ok, n, top = _certify_order(order, 0.0, 1.0 / S2_FLOOR, beta=m, level=level)
                boxes += n
                worst[f"{order}@[{m},{m + 1}]"] = top
                if not ok:
                    failed.append((m, order))
        low = order_one_two_threshold(S2_FLOOR)
        low_upper = float(low.upper())
        level_2 = float(interpolation_level(2).lower())
    rows = theorem_2_orders()
    outside = [r for r in rows if not (2 <= r["alpha"] <= ALPHA_MAX or float(order_one_two_threshold(r["s2"]).upper())
                                       <= r["alpha"] <= 2)]
    cifar = {"epsilon": 10.0, "delta": 1e-5, "mu": 0.5}
    from theory.adp2sgd import theorem_2 as t2
    alpha_cifar = t2.alpha_of(**cifar)
    cifar_s2 = t2.sigma2(**cifar, T=t2.CIFAR["T"], K=t2.CIFAR["K"], n1=t2.CIFAR["n1"]) / t2.paper_delta2(
        G=1.0, B=t2.CIFAR["B"]) ** 2
    cifar_covered = 2 <= alpha_cifar <= ALPHA_MAX and in_region(t2.paper_gamma(**{k: t2.CIFAR[k] for k in ("B", "K", "n1")}),
                                                                 cifar_s2, alpha_cifar)
    ok = not failed and cifar_covered
    tightest = max(worst.values())
    return Verdict("holds" if ok else "open", "rigorous", margin=None,
                   evidence={"argument": "alpha -> (alpha-1) D_alpha(P||Q) is convex for every pair (Hoelder), so between "
                                         "integer orders m, m+1 it lies below the chord of WBK Thm 9's integer-order "
                                         "bounds; the chord stays below Lemma 2's c(alpha-1)alpha when both ratios are "
                                         "<= 1 - 1/(4m(m-1)) (interpolation_level); on (1, 2) D_alpha <= D_2",
                             "orders_certified": [2, ALPHA_MAX], "v_boxes": boxes,
                             "largest_ratio_enclosure": tightest, "level_at_m_2": level_2,
                             "order_1_2_threshold_at_s2_1.5": low_upper,
                             "theorem_2_scan": {"points": len(rows), "outside_domain": len(outside),
                                                "outside_points": outside[:12],
                                                "alpha_range": [min(r["alpha"] for r in rows), max(r["alpha"] for r in rows)],
                                                "grid": "CIFAR-10 setting, delta in {1e-3, 1e-5, 1e-6}, 24 eps in "
                                                        "[1, 100] (log), 400 mu, feasible points only"},
                             "theorem_2_cifar_point": {**cifar, "alpha": alpha_cifar, "s2": cifar_s2,
                                                       "covered": cifar_covered},
                             "domain": f"every alpha in [2, {ALPHA_MAX}] inside the region (every s2 >= 1.5, every "
                                       f"gamma under the cap), and alpha in [0.8 (e^(1/s2) - 1) s2, 2) (at most "
                                       f"[{low_upper:.4f}, 2) at s2 = 1.5, all of (1, 2) once s2 >= 2.4); the rest of "
                                       f"(1, {low_upper:.3f}) and alpha > {ALPHA_MAX} undecided",
                             "margin_none": "a certificate on a domain; the ratio enclosures are in the evidence"},
                   reason="" if ok else f"undecided: interpolation orders {failed[:5]}; Theorem 2's CIFAR-10 order "
                                        f"covered: {cifar_covered}",
                   why=f"(alpha-1)D_alpha is convex in alpha, so on [m, m+1] it lies below the chord of WBK's integer-order "
                       f"bounds; with gamma capped at the fractional order's e^(-alpha)/(1+s2) both integer ratios stay "
                       f"<= {tightest:.3f} (arb, orders 2..{ALPHA_MAX}), below the {level_2:.3f} the chord needs at m = 2. "
                       f"On (1, 2), D_alpha <= D_2 covers alpha >= {low_upper:.3f} at s2 = 1.5. Theorem 2's order at "
                       f"the CIFAR-10 point, alpha = {alpha_cifar:.2f}, is covered; of {len(rows)} feasible scan points "
                       f"{len(outside)} lie outside (alpha <= "
                       f"{max([r['alpha'] for r in outside], default=float('nan')):.3f}, eps >= "
                       f"{min([r['epsilon'] for r in outside], default=float('nan')):.0f}), where it is undecided.",
                   arithmetic=("arb", "float"))
