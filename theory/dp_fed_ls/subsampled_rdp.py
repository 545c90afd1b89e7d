r"""Lemmas 2 and 3 (L180-200): closed-form RDP of the subsampled Gaussian, over their stated regions.

Lemma 2 (uniform, fixed size, replace-one): :math:`\rho(\alpha) \le 3.5\tau^2\alpha/\nu^2` when
:math:`\nu^2 \ge 2/3` and :math:`\alpha - 1 \le \frac23\nu^2\ln\frac{1}{\alpha\tau(1+\nu^2)}`.
Lemma 3 (Poisson, add/remove): :math:`\rho(\alpha) \le 2\tau^2\alpha/\nu^2` when :math:`\nu^2 \ge 5/9` and
the same condition on :math:`\alpha`. Sensitivity 1; :math:`\alpha > 1` real (Theorems 1-2 apply them at
:math:`\alpha = \log(1/\delta)/((1-\lambda)\varepsilon) + 1`, fractional in general).

Lemma 3 is compared with the EXACT RDP of the Poisson-subsampled Gaussian (``numerics.rdp.log_a``, integer
and fractional orders). Lemma 2 is compared with WBK's proven upper bound (:mod:`theory.dp_fed_ls.wbk`): if
Lemma 2's value is above it everywhere checked, Lemma 2 is a (looser) valid bound there; it is also compared
with the exact Poisson RDP, which lower-bounds the fixed-size replace-one RDP (a realizable pair).

Lemma 3's margin is smallest on the edge of its region, :math:`\tau = \tau_{\max}(\alpha, \nu^2)`, at
:math:`\nu^2 = 5/9`: :func:`lemma3_boundary_minimum` minimises it there (grid, then scipy's bounded scalar
minimisation). Lemma 2 at fractional orders rests on the convexity of :math:`\alpha \mapsto (\alpha-1)D_\alpha`
(WBK Corollary 10) and on :math:`D_\alpha \le D_2` on (1, 2) (:func:`alpha0_below_two`); the claim that decides it
at the orders Theorem 1 uses lives in :mod:`theory.dp_fed_ls.closed_form`, beside those orders.
"""
from __future__ import annotations

import math

import mpmath
import numpy as np

from numerics.precision import MP_DPS
from numerics.rdp import log_a
from theory.dp_fed_ls import wbk
from theory.dp_fed_ls.paper_values import LEMMA
from theory.ledger import Verdict, claim

#: grid of the sampled checks: sampling ratios, nu^2 (log-spaced from the lemma's lower end), orders per (tau, nu^2)
TAUS = (0.001, 0.05, 0.5)
NU2_POINTS = 8
NU2_MAX = 400.0
ORDERS_PER_POINT = 4
#: digits of the exact RDP in the scans (a relative margin of 1e-3 needs far fewer than MP_DPS)
SCAN_DPS = 15


def alpha_max(tau: float, nu2: float) -> float:
    r"""Largest :math:`\alpha` with :math:`\alpha-1 \le \frac23\nu^2\ln\frac{1}{\alpha\tau(1+\nu^2)}` (bisection;
    the right side minus the left decreases in alpha); 1 when no alpha > 1 qualifies."""
    def gap(a):
        arg = a * tau * (1 + nu2)
        return -math.inf if arg >= 1 else 2 / 3 * nu2 * math.log(1 / arg) - (a - 1)
    lo, hi = 1.0, 1 / (tau * (1 + nu2))
    if hi <= 1 or gap(1.0 + 1e-12) <= 0:
        return 1.0
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if gap(mid) > 0 else (lo, mid)
    return lo


def region_points(nu2_min: float, *, integer_only: bool = False):
    r"""(tau, nu^2, alpha) grid points inside a lemma's region: fractional orders spread over (1, alpha_max]
    and every integer order in it."""
    for tau in TAUS:
        for nu2 in np.geomspace(nu2_min, NU2_MAX, NU2_POINTS):
            amax = alpha_max(tau, float(nu2))
            if amax <= 1.0:
                continue
            fractional = np.linspace(1.0 + (amax - 1) / ORDERS_PER_POINT, amax, ORDERS_PER_POINT)
            orders = set(range(2, int(amax) + 1)) | (set() if integer_only else set(fractional.tolist()))
            for a in sorted(orders):
                yield tau, float(nu2), float(a)


def exact_poisson_rdp(tau: float, nu2: float, alpha: float) -> float:
    """Exact RDP of the Poisson-subsampled Gaussian (sensitivity 1, noise nu), add/remove."""
    return float(log_a(tau, math.sqrt(nu2), alpha, dps=SCAN_DPS)) / (alpha - 1)


def _worst(points, bound, reference):
    worst = None
    for tau, nu2, a in points:
        b, r = bound(tau, nu2, a), reference(tau, nu2, a)
        rel = (b - r) / r
        if worst is None or rel < worst[0]:
            worst = (rel, {"tau": tau, "nu2": nu2, "alpha": a, "bound": b, "reference": r})
    return worst


def tau_on_boundary(alpha: float, nu2: float) -> float:
    r"""The largest :math:`\tau` allowed at (alpha, nu^2): :math:`\alpha - 1 = \frac23\nu^2\ln\frac{1}{\alpha\tau(1+\nu^2)}`
    solved for :math:`\tau` (the region is :math:`\tau` below it)."""
    return math.exp(-1.5 * (alpha - 1) / nu2) / (alpha * (1 + nu2))


def _lemma3_margin(tau: float, nu2: float, alpha: float) -> float:
    bound = float(LEMMA["lemma3_rdp_constant"].text) * tau * tau * alpha / nu2
    exact = exact_poisson_rdp(tau, nu2, alpha)
    return (bound - exact) / exact


#: the boundary search of Lemma 3's margin: nu^2 values (the lemma's lower end first), the alpha bracket and
#: grid (the minimum lies on tau = tau_on_boundary; the scan of region_points and a denser off-line scan,
#: 25 nu^2 x 60 alpha x 3 tau fractions, found no smaller margin inside the region)
BOUNDARY_NU2 = (5 / 9, 0.6, 1.0)
BOUNDARY_ALPHA = (1.02, 6.0)
BOUNDARY_GRID = 16


def lemma3_boundary_minimum(nu2: float, *, refine: bool = True) -> dict:
    """Lemma 3's smallest margin along the region's tau boundary at fixed nu^2: a grid over alpha, then a bounded
    scalar minimisation (scipy) between the best grid point's neighbours."""
    from scipy.optimize import minimize_scalar

    grid = np.linspace(*BOUNDARY_ALPHA, BOUNDARY_GRID)
    vals = [_lemma3_margin(tau_on_boundary(a, nu2), nu2, a) for a in grid]
    i = int(np.argmin(vals))
    best = {"alpha": float(grid[i]), "margin": float(vals[i])}
    if refine:
        lo, hi = grid[max(i - 1, 0)], grid[min(i + 1, len(grid) - 1)]
        r = minimize_scalar(lambda a: _lemma3_margin(tau_on_boundary(a, nu2), nu2, a), bounds=(lo, hi),
                            method="bounded", options={"xatol": 1e-4})
        if r.fun < best["margin"]:
            best = {"alpha": float(r.x), "margin": float(r.fun)}
    return {"nu2": nu2, "tau": tau_on_boundary(best["alpha"], nu2), **best}


@claim(id="004.lemma-3.vs-exact-rdp", seed="004", lines="L198-L200",
       statement="Lemma 3: the Poisson-subsampled Gaussian is (alpha, 2 tau^2 alpha/nu^2)-RDP whenever nu^2 >= 5/9 and alpha-1 <= (2/3)nu^2 ln(1/(alpha tau (1+nu^2))).",
       recorded="holds", version="2", result="Lemma 3", role="conclusion")
def lemma3_vs_exact() -> Verdict:
    c = float(LEMMA["lemma3_rdp_constant"].text)
    pts = list(region_points(5 / 9))
    rel, at = _worst(pts, lambda t, v, a: c * t * t * a / v, exact_poisson_rdp)
    boundary = [lemma3_boundary_minimum(v, refine=(v == BOUNDARY_NU2[0])) for v in BOUNDARY_NU2]
    low = min(boundary, key=lambda b: b["margin"])
    margin = min(rel, low["margin"])
    n_boundary = len(BOUNDARY_NU2) * BOUNDARY_GRID
    edges = ", ".join(f"{b['margin']:.3f} at nu^2 = {b['nu2']:.3g}" for b in boundary)
    why = (f"the exact RDP (MTZ 2019) stays below 2 tau^2 alpha/nu^2 over the region; the tightest point found is on the "
           f"region's edge at nu^2 = 5/9, alpha = {low['alpha']:.3f}, tau = {low['tau']:.5f} (margin {low['margin']:.3f}); "
           f"along that edge the margin grows with nu^2 ({edges})")
    return Verdict("holds" if margin >= 0 else "refuted", "sampled", margin,
                   evidence={"points": len(pts) + n_boundary,
                             "where": f"grid: tau in {TAUS}, {NU2_POINTS} log-spaced nu^2 in [5/9, {NU2_MAX}], "
                                      f"{ORDERS_PER_POINT} fractional orders in (1, alpha_max] plus every integer order "
                                      f"in the region; edge: tau = tau_max(alpha, nu^2) for nu^2 in "
                                      f"{[round(v, 4) for v in BOUNDARY_NU2]}, {BOUNDARY_GRID} alpha in "
                                      f"{list(BOUNDARY_ALPHA)}, then a bounded scalar minimisation at nu^2 = 5/9",
                             "domain": "tau in (0, 1), nu^2 >= 5/9, 1 < alpha <= alpha_max(tau, nu^2) (the lemma's region)",
                             "tightest_grid_point": at, "grid_margin": rel, "edge_minima": boundary,
                             "tightest_point": {"tau": low["tau"], "nu2": low["nu2"], "alpha": low["alpha"]},
                             "reference": "exact RDP, numerics.rdp.log_a (MTZ 2019), integer and fractional orders"},
                   why=why, arithmetic=("mpmath", "float"),
                   counterexample=None if margin >= 0 else {"tau": low["tau"], "nu2": low["nu2"], "alpha": low["alpha"]})


def lemma2_bound(tau, nu2, alpha):
    return float(LEMMA["lemma2_rdp_constant"].text) * tau * tau * alpha / nu2


def wbk_upper(tau, nu2, alpha):
    return wbk.rdp_upper(tau, math.sqrt(nu2), alpha)


@claim(id="004.lemma-2.integer-orders", seed="004", lines="L180-L186, L603-L642",
       statement="Lemma 2 at integer orders: the fixed-size (uniform without replacement, replace-one) subsampled Gaussian is (alpha, 3.5 tau^2 alpha/nu^2)-RDP whenever nu^2 >= 2/3 and alpha-1 <= (2/3)nu^2 ln(1/(alpha tau (1+nu^2))).",
       recorded="holds", result="Lemma 2", role="conclusion")
def lemma2_integer_orders() -> Verdict:
    pts = list(region_points(2 / 3, integer_only=True))
    rel, at = _worst(pts, lemma2_bound, wbk_upper)
    return Verdict("holds" if rel >= 0 else "open", "sampled", rel,
                   evidence={"points": len(pts), "where": f"tau in {TAUS}, {NU2_POINTS} log-spaced nu^2 in "
                             f"[2/3, {NU2_MAX}], every integer order in the region", "tightest_point": at,
                             "logic": "Lemma 2 >= WBK Theorem 9 (a proven upper bound) at every point checked",
                             "proof_chain": "at integer orders the S1 proof is checked step by step: (16) rigorous "
                                            "(004.eq-16.threshold), (17)-(19) symbolic given (18) (004.eq-19.given-18), "
                                            "then log(1 + 7 tau^2 C(alpha,2)/nu^2) <= 7 tau^2 C(alpha,2)/nu^2"},
                   arithmetic=("mpmath", "float"),
                   reason="" if rel >= 0 else "below WBK's upper bound somewhere: not implied by it")


def alpha0_below_two() -> mpmath.mpf:
    r"""The order from which Lemma 2 lies above WBK's bound on the whole region for :math:`\alpha \in (1, 2)`.

    There :math:`(\alpha-1)D_\alpha` is convex in :math:`\alpha` (a log-moment) and vanishes at 1, so
    :math:`D_\alpha \le D_2 \le \log(1+\tau^2 m)` with :math:`m = \min\{4(e^{1/\nu^2}-1), 2e^{1/\nu^2}\}`
    (WBK Theorem 9 at order 2; Corollary 10's interpolation is this chord). Lemma 2's
    :math:`3.5\tau^2\alpha/\nu^2` is at least that once :math:`\alpha \ge \nu^2\log(1+\tau^2m)/(3.5\tau^2)`,
    which is below :math:`\nu^2 m/3.5` (log(1+x) < x). With :math:`x = 1/\nu^2 \in (0, 3/2]`,
    :math:`\nu^2 m = m/x` is :math:`4(e^x-1)/x` (increasing) on :math:`(0, \ln 2]` and :math:`2e^x/x` (falling on
    :math:`[\ln 2, 1]`, rising on :math:`[1, 3/2]`) above it, so its largest value is the larger of
    :math:`4/\ln 2` and :math:`2e^{3/2}/(3/2)` (compared in :func:`alpha0_endpoints`); the latter wins, giving
    :math:`\frac23\cdot 2e^{3/2}/3.5 = 8e^{3/2}/21`."""
    with mpmath.workdps(MP_DPS):
        return 8 * mpmath.exp(mpmath.mpf(3) / 2) / 21


def alpha0_endpoints() -> dict:
    """The two candidates for the largest nu^2 m over nu^2 >= 2/3 (see :func:`alpha0_below_two`)."""
    with mpmath.workdps(MP_DPS):
        return {"at_nu2_2/3": 2 * mpmath.exp(mpmath.mpf(3) / 2) / (mpmath.mpf(3) / 2),
                "at_branch_switch_nu2_1/ln2": 4 / mpmath.log(2)}


def lemma2_scan_above_two() -> tuple:
    """Lemma 2 against WBK Corollary 10 at fractional orders in [2, alpha_max] over the grid of region_points."""
    pts = [p for p in region_points(2 / 3) if p[2] > 2 and not float(p[2]).is_integer()]
    rel, at = _worst(pts, lemma2_bound, wbk_upper)
    return len(pts), rel, at


def wbk_cor10_arb(tau: float, nu2: float, alpha: float):
    r"""WBK's bound at real ``alpha`` > 1 as an Arb ball: Theorem 9's :math:`(j-1)\rho'(j)` (L607-L609) at the integer
    orders around alpha, interpolated linearly (Corollary 10; 0 at order 1). ``tau``, ``nu2``, ``alpha`` are taken as
    the exact binary values of the floats given."""
    from flint import arb

    t, x = arb(tau), 1 / arb(nu2)

    def log_moment(j: int):
        if j == 1:
            return arb(0)
        first = t ** 2 * math.comb(j, 2) * min_ball(4 * (x.exp() - 1), 2 * x.exp())
        rest = sum((t ** i * math.comb(j, i) * 2 * (arb((i - 1) * i) / 2 * x).exp() for i in range(3, j + 1)), arb(0))
        return (1 + first + rest).log()

    lo = math.floor(alpha)
    frac = arb(alpha) - lo
    return ((1 - frac) * log_moment(lo) + frac * log_moment(lo + 1)) / (arb(alpha) - 1)


def min_ball(a, b):
    """The smaller of two Arb balls when their order is certain; their union's lower part otherwise."""
    if a < b:
        return a
    if b < a:
        return b
    return a.union(b)
