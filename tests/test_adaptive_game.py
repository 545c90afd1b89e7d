"""numerics.adaptive_game (issue 35; docs/replace_one.md section 7): the per-step adaptive game.

Oracles, independent of numerics: tests/adaptive_oracle.py (tiny fixed-size data sets with scalar
gradients, an exhaustive adaptive adversary over a finite menu of gradient maps, quadrature) and, for the
triangle pairs of the plane, the one-dimensional conditional form of docs section 7a (y2 has the same law
under both hypotheses; given y2 the pair is a three-point pair in y1) evaluated with the oracle's exact
one-dimensional hockey-stick divergence and scipy quadrature. No expected number is typed in: every test
compares two computations, with a tolerance that is stated.
"""
from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import integrate

from numerics import adaptive_game as ag
from numerics import grid_dominance as gd
from numerics.errors import InvalidParameter
from numerics.pld import GridPLD

from . import adaptive_oracle as oracle


# --------------------------------------------------------------------------------------------------
# the engine
# --------------------------------------------------------------------------------------------------

def test_game_over_S_is_the_composition_of_S():
    """With the one-pair menu {S} the game is the plain T-fold composition of S: recomputed by direct
    convolution of the grid PMF (numpy, no FFT) and the hockey-stick sum at the lattice epsilon."""
    g, sigma, steps, h = 0.2, 1.0, 4, 5e-3
    grids = ag.order_grids(g, sigma, h, 1e-14)
    s = grids["S"]
    eps = np.array([0.5, 1.0, 1.5])
    game = ag.game_delta({"S": s}, steps, h, eps, mode="upper")["delta"]
    pmf, k0 = s.pmf.copy(), s.k0
    for _ in range(steps - 1):
        pmf, k0 = np.convolve(pmf, s.pmf), k0 + s.k0
    x = (k0 + np.arange(len(pmf))) * h
    inf_mass = 1.0 - (1.0 - s.inf_mass) ** steps
    for e, d in zip(eps, game):
        k = math.ceil(e / h - 1e-12)  # the game reads the lattice point at or above epsilon
        direct = inf_mass + float(np.sum(pmf[x > k * h] * -np.expm1(k * h - x[x > k * h])))
        assert d >= direct - 1e-12
        assert d <= direct + 1e-9


def test_upper_and_lower_bracket_the_fixed_orders_and_each_other():
    g, sigma, steps, h = 0.5, 1.0, 5, 2e-3
    up = ag.symmetrised_upper(g=g, sigma=sigma, steps=steps, eps=[1.0], h=h)["delta"][0]
    low = ag.orders_lower(g=g, sigma=sigma, steps=steps, eps=[1.0], h=h)["delta"][0]
    fixed = ag.game_delta({"PQ": ag.order_grids(g, sigma, h, 1e-14)["lower"]["PQ"]}, steps, h, [1.0],
                          mode="lower")["delta"][0]
    assert fixed <= low <= up


@pytest.mark.parametrize("g,steps", [(0.5, 5), (0.2, 10)])
def test_upper_is_above_the_realizable_lower_bound_of_numerics_adaptive(g, steps):
    """The game's proven upper bound is >= the certified lower bound of numerics.adaptive (blocked programme),
    and the per-step lower bound is >= the fixed order's certified lower bound reported there."""
    from numerics.adaptive import adaptive_replace_one_delta
    old = adaptive_replace_one_delta(g=g, sigma=1.0, steps=steps, epsilon=1.0)
    h = 2e-3
    up = ag.symmetrised_upper(g=g, sigma=1.0, steps=steps, eps=[1.0], h=h)["delta"][0]
    low = ag.orders_lower(g=g, sigma=1.0, steps=steps, eps=[1.0], h=h)["delta"][0]
    assert up >= old.delta_lower
    assert low >= old.details["fixed_order"]["lower"]


@pytest.mark.parametrize("n,b", [(2, 1), pytest.param(3, 1, marks=pytest.mark.slow),
                                 pytest.param(4, 2, marks=pytest.mark.slow)])
def test_two_steps_bracket_the_exhaustive_adaptive_oracle(n, b):
    """The oracle's adversary chooses, at each of 2 steps, the other records' scalar gradients from
    {-1, 0, 1} (every multiset) as a function of the first output: its value is realizable, so it is
    <= the proven upper bound, and its menu contains both orders (others all -1 / all +1), so it is >=
    our certified per-step lower bound over the two orders (up to the oracle's quadrature, 1e-6)."""
    sigma, eps, steps, h = 1.0, 0.5, 2, 1e-3
    g = b / n
    value = oracle.adaptive_delta(oracle.menu(n, b), sigma, steps, eps)
    up = ag.symmetrised_upper(g=g, sigma=sigma, steps=steps, eps=[eps], h=h)["delta"][0]
    low = ag.orders_lower(g=g, sigma=sigma, steps=steps, eps=[eps], h=h)["delta"][0]
    assert value <= up + 1e-9
    assert low <= value + 1e-6


@pytest.mark.slow
def test_slow_three_steps_bracket_the_exhaustive_adaptive_oracle():
    sigma, eps, steps, h, n, b = 1.0, 0.5, 3, 1e-3, 2, 1
    value = oracle.adaptive_delta(oracle.menu(n, b), sigma, steps, eps)
    up = ag.symmetrised_upper(g=b / n, sigma=sigma, steps=steps, eps=[eps], h=h)["delta"][0]
    low = ag.orders_lower(g=b / n, sigma=sigma, steps=steps, eps=[eps], h=h)["delta"][0]
    assert low <= value + 1e-6
    assert value <= up + 1e-9


def test_bad_input_is_refused():
    s = ag.order_grids(0.2, 1.0, 1e-2, 1e-12)["S"]
    with pytest.raises(InvalidParameter):
        ag.game_delta({"S": s}, 2, 1e-2, [1.0], mode="both")
    with pytest.raises(InvalidParameter):
        ag.game_delta({}, 2, 1e-2, [1.0], mode="upper")
    with pytest.raises(InvalidParameter):
        ag.triangle_atoms(0.2, 1.0, [1.0, 0.0], [1.0, 0.0])


# --------------------------------------------------------------------------------------------------
# triangle pairs
# --------------------------------------------------------------------------------------------------

def _conditional_profile(g, sigma, p, q, alpha):
    """H_alpha of ((1-g)N(0) + gN(p), (1-g)N(0) + gN(q)) in the plane by the section 7a conditional form:
    y2 (along e2, orthogonal to p - q) has law m = (1-g)N(0) + gN(t) under both; given y2 the pair in y1
    is ((1-r)N(0) + rN(x1), (1-r)N(0) + rN(x2)) with r = g phi(y2 - t) / m(y2)."""
    p, q = np.asarray(p, float), np.asarray(q, float)
    e1 = (p - q) / np.linalg.norm(p - q)
    e2 = np.array([-e1[1], e1[0]])
    x1, x2, t = float(p @ e1), float(q @ e1), float(p @ e2)

    def phi(z):
        return math.exp(-0.5 * (z / sigma) ** 2) / (sigma * math.sqrt(2 * math.pi))

    def f(y2):
        m = (1 - g) * phi(y2) + g * phi(y2 - t)
        r = g * phi(y2 - t) / m
        pair = (((0.0, 1 - r), (x1, r)), ((0.0, 1 - r), (x2, r)))
        return m * oracle.hockey_stick(pair, sigma, alpha)
    lim = abs(t) + 12 * sigma
    return integrate.quad(f, -lim, lim, points=(0.0, t), limit=200, epsabs=1e-11, epsrel=1e-9)[0]


@pytest.mark.parametrize("angles", [(math.pi, 0.0), (0.5 * math.pi, 1.5 * math.pi), (2.0, 4.0), (0.7, 3.5)])
def test_triangle_grid_is_below_the_exact_profile_and_close(angles):
    """One step (T = 1): the game's lower value over the triangle's merged lattice pair is a garbling's
    divergence, so <= the exact H_alpha by the conditional quadrature; and it is within 2e-3 of it
    (the discretisation loss at these cells and lattice)."""
    g, sigma, h = 0.3, 1.0, 2e-3
    p, q = ag.triangle_vectors(*angles)
    grid = ag.triangle_grid(g, sigma, *angles, h, cells=(2000, 400))
    for eps in (-0.3, 0.0, 0.4):
        low = ag.game_delta({"K": grid}, 1, h, [eps], mode="lower")["delta"][0]
        exact = _conditional_profile(g, sigma, p, q, math.exp(eps))
        assert low <= exact + 1e-8
        assert low >= exact - 2e-3


def test_triangle_pq_is_the_one_dimensional_pq():
    """The triangle with u opposite w and v = w is PQ: its planar lattice pair and the one-dimensional
    merged grid give the same game value to 1e-4 (both are lower bounds of the same quantity)."""
    g, sigma, steps, h = 0.5, 1.0, 3, 2e-3
    tri = ag.triangle_grid(g, sigma, math.pi, 0.0, h, cells=(2000, 400))
    one = ag.order_grids(g, sigma, h, 1e-14)["lower"]["PQ"]
    a = ag.game_delta({"PQ": tri}, steps, h, [1.0], mode="lower")["delta"][0]
    b = ag.game_delta({"PQ": one}, steps, h, [1.0], mode="lower")["delta"][0]
    assert abs(a - b) <= 1e-4


def test_triangle_menu_contains_both_orders_and_no_mirror_twice():
    menu = ag.triangle_menu(8)
    assert (math.pi, 0.0) in menu and (0.0, math.pi) in menu
    keys = {(round(a, 9), round(b, 9)) for a, b in menu}
    for a, b in menu:
        mirror = (round((-a) % (2 * math.pi), 9), round((-b) % (2 * math.pi), 9))
        assert mirror == (round(a, 9), round(b, 9)) or mirror not in keys


def test_two_orders_do_not_suffice_certified():
    """docs section 7d: the game over the sampled triangle family (a certified LOWER bound on its value)
    exceeds an UPPER bound on the value of the game over the two orders alone (Theorem G with the orders'
    connect-the-dots grids): the conjecture 'the two orders suffice' is false at g = 0.5, sigma = 1, T = 5."""
    g, sigma, steps, h = 0.5, 1.0, 5, 2e-3
    fam = ag.family_lower(g=g, sigma=sigma, steps=steps, eps=[1.0], h=h, m=8, cells=(2000, 400))["delta"][0]
    two = ag.orders_upper(g=g, sigma=sigma, steps=steps, eps=[1.0], h=h)["delta"][0]
    assert fam > two


def test_family_lower_is_below_the_proven_upper_bound():
    g, sigma, steps, h = 0.5, 1.0, 3, 2e-3
    fam = ag.family_lower(g=g, sigma=sigma, steps=steps, eps=[1.0], h=h, m=6, cells=(1000, 200))["delta"][0]
    up = ag.symmetrised_upper(g=g, sigma=sigma, steps=steps, eps=[1.0], h=h)["delta"][0]
    assert fam <= up


# --------------------------------------------------------------------------------------------------
# with-replacement (docs section 7f): the symmetrised copies pair does not dominate
# --------------------------------------------------------------------------------------------------

def test_with_replacement_copies_pair_symmetrised_is_not_dominating():
    """n = 2, b = 2 draws with replacement, sigma = 1: the record's gradient +1 in D, -1 in D', the other
    record 0. Its H_1 exceeds max(H_1(C || N0), H_1(N0 || C)) for the copies pair C = sum_k pi_k N(2k),
    pi = Bin(2, 1/2), computed by the oracle's exact hockey-stick (and by the module)."""
    res = ag.with_replacement_counterexample(b=2, n=2, sigma=1.0, others=(0.0,))
    pi = [0.25, 0.5, 0.25]
    c = tuple((2.0 * k, pi[k]) for k in range(3))
    n0 = ((0.0, 1.0),)
    # the step's laws: two draws, each the target (prob 1/2) or the other record (gradient 0)
    p = ((0.0, 0.25), (1.0, 0.5), (2.0, 0.25))
    q = ((-2.0, 0.25), (-1.0, 0.5), (0.0, 0.25))
    step = oracle.hockey_stick((p, q), 1.0, 1.0)
    dom = max(oracle.hockey_stick((c, n0), 1.0, 1.0), oracle.hockey_stick((n0, c), 1.0, 1.0))
    assert step > dom
    assert abs(res["excess"] - (step - dom)) <= 1e-6


# --------------------------------------------------------------------------------------------------
# the proven cover of the triangle family (docs section 7i)
# --------------------------------------------------------------------------------------------------

def _profile(g, sigma, theta_u, theta_v, alpha):
    """Exact H_alpha of the triangle pair of (theta_u, theta_v) (w at angle 0); the trivial pair if u = v."""
    p, q = ag.triangle_vectors(theta_u, theta_v)
    if np.linalg.norm(p - q) < 1e-12:
        return max(0.0, 1.0 - alpha)
    return _conditional_profile(g, sigma, p, q, alpha)


def _gaussian_profile_oracle(sigma, alpha):
    return oracle.hockey_stick((((2.0, 1.0),), ((0.0, 1.0),)), sigma, alpha)


@pytest.mark.parametrize("s,psi,sigma", [(0.5, 0.3, 1.0), (2.0, 0.1, 1.0), (3.0, 2 * math.pi, 0.7),
                                         (-1.0, 0.2, 1.0), (1.0, 0.0, 2.0)])
def test_wedge_moment_is_an_upper_bound(s, psi, sigma):
    """_wedge_moment >= sup over events A inside the rounded wedge W of |E[f; A]|, f = d^2/dtheta^2 phi(y - u(theta))
    / phi = (Z_t^2 - 1)/sigma^2 - Z_u/sigma, computed independently: the supremum is max(E[f_+; W], E[f_-; W]) (take
    A = W intersected with {f > 0}, resp. {f < 0}), summed over a 3000 x 3000 polar midpoint grid (r < 14) restricted
    to W by its definition (a direction of the arc with <z, e> > s), for 8 placements of the tangent t in the plane
    (the integrand is not radial; the bound must hold for all)."""
    bound = ag._wedge_moment(s, psi, sigma)
    dr, dphi = 14.0 / 3000, 2 * math.pi / 3000
    r = (np.arange(3000) + 0.5)[:, None] * dr
    phi = -math.pi + (np.arange(3000) + 0.5)[None, :] * dphi
    dist = np.clip(np.abs(phi) - psi / 2.0, 0.0, math.pi)  # angular distance to the arc [-psi/2, psi/2]
    inside = r * np.cos(dist) > s
    weight = r * np.exp(-0.5 * r * r) / (2 * math.pi) * dr * dphi
    worst = 0.0
    for rot in np.linspace(0.0, 2 * math.pi, 8, endpoint=False):
        zt, zu = r * np.cos(phi - rot), r * np.sin(phi - rot)
        val = (zt * zt - 1.0) / sigma ** 2 - zu / sigma
        for part in (np.clip(val, 0.0, None), np.clip(-val, 0.0, None)):
            worst = max(worst, float(np.sum(np.where(inside, part * weight, 0.0))))
    assert worst <= bound


def test_cell_lemma_holds_on_sampled_members():
    """Lemma C of section 7i on coarse cells (N = 8, so the slack is large and the interpolation error is
    visible): for members sampled inside the cell and alpha on both sides of 1, the exact profile (conditional
    quadrature) is <= the bilinear mixture of the corners' exact profiles plus the computed slack (alpha >= 1:
    the cell's; alpha < 1: alpha times the swapped cell's at 1/alpha). Sampled: 3 cells x 2 members x 4 alphas."""
    g, sigma, n = 0.3, 1.0, 8
    step = 2 * math.pi / n
    for i, j in [(4, 0), (2, 6), (1, 3)]:
        cu, cv = (i * step, (i + 1) * step), (j * step, (j + 1) * step)
        for a, b in [(0.5, 0.5), (0.2, 0.85)]:
            tu, tv = cu[0] + a * step, cv[0] + b * step
            lam = {(0, 0): (1 - a) * (1 - b), (1, 0): a * (1 - b), (0, 1): (1 - a) * b, (1, 1): a * b}
            for alpha in (math.exp(-1.0), 1.0, math.exp(0.5), math.exp(1.5)):
                mix = sum(w * _profile(g, sigma, cu[x], cv[y], alpha) for (x, y), w in lam.items())
                if alpha >= 1.0:
                    slack = ag.cell_slack(g, sigma, cu, cv, alpha, alpha)
                else:
                    slack = alpha * ag.cell_slack(g, sigma, cv, cu, 1.0 / alpha, 1.0 / alpha)
                assert _profile(g, sigma, tu, tv, alpha) <= mix + slack + 1e-9


def test_cover_inequality_holds_on_sampled_members():
    """Theorem C of section 7i: every member is dominated by the bilinear mixture of its cell's menu pairs
    (1 - tau - eta) K_c + tau G + eta B_inf, with the tau, eta that cover_weights computes (N = 12, g = 0.1);
    checked with exact profiles at sampled members and alphas, including alpha beyond the tau range."""
    g, sigma, n = 0.1, 1.0, 12
    w = ag.cover_weights(g, sigma, n, n_beta=60)
    tau_c = ag._corner_tau(w["tau"])
    step = 2 * math.pi / n
    for i, j in [(6, 0), (3, 9), (0, 5)]:
        tu, tv = (i + 0.37) * step, (j + 0.61) * step
        for alpha in (math.exp(-2.0), math.exp(-0.3), 1.0, math.exp(0.7), math.exp(2.5)):
            hg = _gaussian_profile_oracle(sigma, alpha)
            bound = 0.0
            for x, y, lam in [(0, 0, 0.63 * 0.39), (1, 0, 0.37 * 0.39), (0, 1, 0.63 * 0.61), (1, 1, 0.37 * 0.61)]:
                t = min(float(tau_c[(i + x) % n, (j + y) % n]), 1.0 - w["eta"])
                k = _profile(g, sigma, (i + x) * step, (j + y) * step, alpha)
                bound += lam * ((1.0 - t - w["eta"]) * k + t * hg + w["eta"])
            assert _profile(g, sigma, tu, tv, alpha) <= bound + 1e-9


@pytest.mark.parametrize("angles", [(math.pi, 0.0), (0.5 * math.pi, 1.5 * math.pi), (2.0, 4.0), (0.7, 3.5)])
def test_triangle_upper_grid_dominates_the_exact_profile_and_is_close(angles):
    """One step: the game's upper value over the triangle's dominating grid is >= the exact H_alpha
    (conditional quadrature) and within 2e-4 of it at 1000 x 1000 rectangles, h = 2e-3."""
    g, sigma, h = 0.3, 1.0, 2e-3
    grid = ag.triangle_upper_grid(g, sigma, *angles, h)
    for eps in (-0.3, 0.0, 0.4, 1.5):
        up = ag.game_delta({"K": grid}, 1, h, [eps], mode="upper", window=(-12.0, 12.0))["delta"][0]
        exact = _profile(g, sigma, *angles, math.exp(eps))
        assert exact <= up + 1e-12
        assert up <= exact + 2e-4


@pytest.mark.slow
def test_slow_cover_upper_is_above_every_lower_bound():
    """The proven cover bound lies above the certified lower bounds: the per-step game over the two orders,
    the sampled triangle family (m = 6, including angles off the cover's grid), and the exhaustive
    adaptive oracle (n = 4 records, b = 1, two steps). g = 1/4, sigma = 1, N = 8 cells per angle."""
    g, sigma, steps, eps, h = 0.25, 1.0, 2, 0.5, 2e-3
    up = ag.cover_upper(g=g, sigma=sigma, steps=steps, eps=[eps], h=h, n_cells=8, cells=(400, 400))["delta"][0]
    fam = ag.family_lower(g=g, sigma=sigma, steps=steps, eps=[eps], h=h, m=6, cells=(1000, 200))["delta"][0]
    two = ag.orders_lower(g=g, sigma=sigma, steps=steps, eps=[eps], h=h)["delta"][0]
    value = oracle.adaptive_delta(oracle.menu(4, 1), sigma, steps, eps)
    assert max(fam, two) <= up
    assert value <= up + 1e-9


def test_cover_bad_input_is_refused():
    with pytest.raises(InvalidParameter):
        ag.cover_weights(1.0, 1.0, 8)
    with pytest.raises(InvalidParameter):
        ag.cover_weights(0.2, 1.0, 2)


# --------------------------------------------------------------------------------------------------
# the cover refined where a corner can be the best action (docs section 7j)
# --------------------------------------------------------------------------------------------------

def _refined_partition(base, m):
    """The uniform base x base grid (side m / base) with one cell and its mirror split into four: the small
    cells' corners on the big neighbours' sides are hanging nodes."""
    side = m // base
    cells = {(i * side, j * side, side) for i in range(base) for j in range(base)}
    split = {(3 * side, 0, side), ag._mirror_cell((3 * side, 0, side), m)}
    return (cells - split) | {c for cell in split for c in ag._split(cell)}


def test_refined_cover_inequality_holds_at_hanging_nodes():
    """Theorem C' of section 7j: on a non-uniform partition, every member is dominated by the bilinear mixture of
    ITS cell's corner pairs (1 - tau_c - eta) K_c + tau_c G + eta B_inf, tau_c from partition_corner_weights.
    Exact profiles (conditional quadrature) at members of a small cell, of the big cell next to it (whose side
    carries a hanging node) and of a big cell elsewhere, alpha on both sides of 1 and beyond the tau range."""
    g, sigma, base, m = 0.1, 1.0, 6, 12
    unit = 2 * math.pi / m
    part = _refined_partition(base, m)
    taus = {c: ag.cell_tau(g, sigma, (c[0] * unit, (c[0] + c[2]) * unit), (c[1] * unit, (c[1] + c[2]) * unit),
                           n_beta=60) for c in part}
    corner = ag.partition_corner_weights(part, m, taus)
    eta = ag._eta(g, sigma, 12.0)
    members = [((6, 0, 1), 0.3, 0.8), ((7, 1, 1), 0.6, 0.5), ((4, 0, 2), 0.45, 0.2), ((2, 6, 2), 0.7, 0.35)]
    for cell, a, b in members:
        assert cell in part
        i, j, s = cell
        tu, tv = (i + a * s) * unit, (j + b * s) * unit
        for alpha in (math.exp(-2.0), math.exp(-0.3), 1.0, math.exp(0.7), math.exp(2.5)):
            hg = _gaussian_profile_oracle(sigma, alpha)
            bound = 0.0
            for x, y, lam in [(0, 0, (1 - a) * (1 - b)), (s, 0, a * (1 - b)), (0, s, (1 - a) * b), (s, s, a * b)]:
                t = min(corner[ag._corner_key(((i + x) % m, (j + y) % m), m)], 1.0 - eta)
                k = _profile(g, sigma, (i + x) * unit, (j + y) * unit, alpha)
                bound += lam * ((1.0 - t - eta) * k + t * hg + eta)
            assert _profile(g, sigma, tu, tv, alpha) <= bound + 1e-9


def test_partition_corner_weights_take_the_largest_cell():
    """m = 8: a cell of side 2 at the origin and four of side 1 to its right; (2, 1) lies on the big cell's side."""
    taus = {(0, 0, 2): 0.5, (2, 0, 1): 0.1, (3, 0, 1): 0.2, (2, 1, 1): 0.3, (3, 1, 1): 0.4}
    w = ag.partition_corner_weights(taus, 8, taus)
    assert w[(2, 0)] == 0.5      # a corner of the big cell and of a small one: the larger
    assert w[(3, 1)] == 0.4      # the inner corner of the four small cells
    assert w[(2, 1)] == 0.3      # hanging node: the small cells' largest, nothing from the big cell


@pytest.mark.slow
def test_slow_refined_cover_upper_is_above_every_lower_bound():
    """The refined cover's bound (every round a proven upper bound, section 7j) lies above the certified lower
    bounds and the exhaustive adaptive oracle (n = 4 records, b = 1, two steps), and never above the uniform
    cover it starts from. g = 1/4, sigma = 1, base 8 cells per angle, one refinement round."""
    g, sigma, steps, eps, h = 0.25, 1.0, 2, 0.5, 2e-3
    out = ag.refined_cover_upper(g=g, sigma=sigma, steps=steps, eps=[eps], h=h, base=8, levels=1, rounds=1,
                                 cells=(400, 400))
    up = out["delta"][0]
    fam = ag.family_lower(g=g, sigma=sigma, steps=steps, eps=[eps], h=h, m=6, cells=(1000, 200))["delta"][0]
    two = ag.orders_lower(g=g, sigma=sigma, steps=steps, eps=[eps], h=h)["delta"][0]
    value = oracle.adaptive_delta(oracle.menu(4, 1), sigma, steps, eps)
    assert max(fam, two) <= up
    assert value <= up + 1e-9
    assert up <= out["rounds"][0]["delta"][0]


def test_refined_cover_bad_input_is_refused():
    with pytest.raises(InvalidParameter):
        ag.refined_cover_upper(g=1.0, sigma=1.0, steps=1, eps=[1.0], h=1e-2)
    with pytest.raises(InvalidParameter):
        ag.refined_cover_upper(g=0.2, sigma=1.0, steps=1, eps=[1.0], h=1e-2, base=2)


def test_policy_usage_counts_each_step_once():
    """With one action the policy uses it at every step: its usage is the mass left in the window, at most T and
    close to T for a window of 12 standard deviations; with two actions the usages add up to the same."""
    g, sigma, steps, h = 0.2, 1.0, 4, 1e-2
    grids = ag.order_grids(g, sigma, h, 1e-14)
    one = ag.game_delta({"S": grids["S"]}, steps, h, [1.0], mode="upper", record_policy=True)
    u = ag.policy_usage({"S": grids["S"]}, one)
    assert steps - 1e-6 <= u["S"] + 1e-6 and u["S"] <= steps + 1e-9
    menu = dict(grids["upper"])
    two = ag.game_delta(menu, steps, h, [1.0], mode="upper", record_policy=True)
    assert abs(sum(ag.policy_usage(menu, two).values()) - steps) < 1e-6


# --------------------------------------------------------------------------------------------------
# Theorem C'': the slack charged to symmetrised pairs at higher rates (docs section 7k)
# --------------------------------------------------------------------------------------------------

def _symmetrised_profile_oracle(r, sigma, alpha):
    """Exact profile of S_r: max of the two orders of ((1 - r)N(0) + rN(2), N(0)) (oracle hockey-stick)."""
    p, q = ((0.0, 1.0 - r), (2.0, r)), ((0.0, 1.0),)
    return max(oracle.hockey_stick((p, q), sigma, alpha), oracle.hockey_stick((q, p), sigma, alpha))


def test_charge_floor_is_below_the_exact_advantage_over_members():
    """Section 7k step 1: H_beta(S_r) - H_beta(K) >= floor_k for beta in [beta_k, beta_{k+1}] and every member K;
    and (alpha < 1) H_alpha(S_r) - H_alpha(K) >= alpha floor_k at 1/alpha in the interval. Exact profiles (oracle,
    conditional quadrature) at 4 members spread over the torus, 3 rates including G, 6 betas."""
    g, sigma = 0.1, 1.0
    rates = (0.15, 0.2, 1.0)
    betas, floors = ag.charge_floors(g, sigma, rates, n_beta=60)
    for k in (0, 3, 10, 25):
        for beta in (betas[k], math.sqrt(betas[k] * betas[k + 1])):
            for tu, tv in [(math.pi, 0.0), (0.0, math.pi), (1.9, 5.0), (2.6, 3.4)]:
                for i, r in enumerate(rates):
                    s_hi = _symmetrised_profile_oracle(r, sigma, beta)
                    s_lo = _symmetrised_profile_oracle(r, sigma, 1.0 / beta)
                    assert s_hi - _profile(g, sigma, tu, tv, beta) >= floors[i, k] - 1e-10
                    assert s_lo - _profile(g, sigma, tu, tv, 1.0 / beta) >= floors[i, k] / beta - 1e-10


def _charge_lp_cells():
    """Three cells of the 16 x 16 partition at g = 0.05, sigma = 1.5 with their slack profiles, the floors of four
    charge rates including G, and prices: (cu, cv, slack, floors, cost) per cell."""
    g, sigma = 0.05, 1.5
    betas, floors = ag.charge_floors(g, sigma, (0.0625, 0.1, 0.2, 1.0))
    step = 2 * math.pi / 16
    cost = np.array([1e-3, 6e-3, 4e-2, 2.0])
    for i, j in [(8, 0), (3, 10), (7, 8)]:
        cu, cv = (i * step, (i + 1) * step), (j * step, (j + 1) * step)
        yield cu, cv, ag.cell_slack_profile(g, sigma, cu, cv, betas), floors, cost


def test_charge_weights_cover_the_slack_and_one_pair_is_tau():
    """The weights returned cover the slack on every beta interval (recomputed here), respect the cap when the
    linear programme is feasible, cost no more than any single feasible charge pair; with G alone they give tau."""
    for cu, cv, slack, floors, cost in _charge_lp_cells():
        w = ag.charge_weights(slack, floors, cost)
        assert (w >= 0).all() and (w @ floors >= slack).all()
        singles = [float(np.max(slack / floors[r])) for r in range(len(floors)) if (floors[r] > 0).all()]
        feasible = [cost[r] * s for r, s in enumerate(singles) if s <= 0.5]
        if feasible:
            assert w.sum() <= 0.5 * (1 + 1e-9)
            assert cost @ w <= min(feasible) * (1 + 1e-6)
        tau = ag.cell_tau(0.05, 1.5, cu, cv)
        assert abs(tau - float(np.max(slack / floors[-1]))) <= 1e-9 * tau


def test_charge_weights_do_not_depend_on_the_slacks_scale():
    """Section 7r: the LP is solved scaled, so slacks far below the solver's tolerance (g ~ 1e-3: every slack is)
    get the weights of the same slacks at unit scale, scaled down, never the fallback's dearer answer (unscaled, the
    slacks x 1e-12 took the fallback, 3.1-5.5x dearer, in all three cells). Slacks of three cells x 1e-12 and x 1e-300: the cost, divided by the
    scale, is that at unit scale to 1e-6, and the weights cover the slack."""
    for _, _, slack, floors, cost in _charge_lp_cells():
        ref = cost @ ag.charge_weights(slack, floors, cost)
        for scale in (1e-12, 1e-300):
            w = ag.charge_weights(slack * scale, floors, cost)
            assert (w >= 0).all() and (w @ floors >= slack * scale).all()
            assert abs(cost @ w / scale - ref) <= 1e-6 * ref


def test_cell_slack_vectorised_is_the_per_interval_bound():
    """Section 7r step 6: cell_slack over arrays of beta intervals gives, interval by interval, the bound computed for
    that interval alone (every branch: beta = 1, c <= 1 and c > 1 of step 4, cells where p or d can vanish)."""
    for g, sigma in [(0.05, 1.759), (64 / 60000, 1.1), (0.3, 1.0)]:
        betas = np.exp(np.linspace(0.0, 9.0, 41))
        for n, (i, j) in [(32, (16, 0)), (16, (3, 10)), (8, (0, 0)), (16, (8, 8))]:
            u = 2 * math.pi / n
            cu, cv = (i * u, (i + 1) * u), (j * u, (j + 1) * u)
            vec = ag.cell_slack(g, sigma, cu, cv, betas[:-1], betas[1:])
            one = [ag.cell_slack(g, sigma, cu, cv, betas[k], betas[k + 1]) for k in range(40)]
            assert np.array_equal(vec, np.array(one))


def test_charged_cover_inequality_holds_on_sampled_members():
    """Theorem C'' (section 7k): on a partition with hanging nodes, every member is dominated by the bilinear mixture
    of its cell's corner pairs (1 - sum w - eta) K_c + sum_i w_i S_{r_i} + eta B_inf, w the corner weights of
    partition_corner_weights over cell_weights (several charge pairs, an LP per cell). g = 0.05, sigma = 1.5, cells of
    side 2 pi / 16 with one cell (and its mirror) split, so the LP is feasible and the S_r charges are used. Exact
    profiles of the members, corners and S_r (conditional quadrature, oracle), alpha on both sides of 1 and beyond
    the beta range; members in a split cell, in the big cell whose side carries a hanging node, near PQ and
    elsewhere."""
    g, sigma, base, m = 0.05, 1.5, 16, 32
    rates, cost = (0.0625, 0.1, 0.2, 1.0), (1e-3, 6e-3, 4e-2, 2.0)
    unit = 2 * math.pi / m
    part = _refined_partition(base, m)
    weights = {c: ag.cell_weights(g, sigma, (c[0] * unit, (c[0] + c[2]) * unit), (c[1] * unit, (c[1] + c[2]) * unit),
                                  rates=rates, cost=cost, n_beta=60) for c in part}
    corner = ag.partition_corner_weights(part, m, weights)
    members = [((6, 0, 1), 0.3, 0.8), ((7, 1, 1), 0.6, 0.5), ((4, 0, 2), 0.45, 0.2), ((16, 0, 2), 0.5, 0.5),
               ((8, 24, 2), 0.7, 0.35)]
    used = _assert_charged_cover_dominates(g, sigma, m, part, corner, rates, members)
    assert used > 0.0  # the S_r charges carry weight at these corners


def _assert_charged_cover_dominates(g, sigma, m, part, corner, rates, members, log_beta_max=12.0):
    """Theorem C'' checked at sampled members: for each (cell, a, b) the member at the cell's relative position
    (a, b) has, at five alpha on both sides of 1 and beyond the beta range, an exact profile at most the bilinear
    mixture of its cell's corner pairs (1 - sum w - eta) K_c + sum_i w_i S_{r_i} + eta B_inf (exact profiles of
    members, corners and S_r). Returns the largest weight of the S_r charges (G excluded) met at a corner."""
    unit = 2 * math.pi / m
    eta = ag._eta(g, sigma, log_beta_max)
    used = 0.0
    for cell, a, b in members:
        assert cell in part
        i, j, s = cell
        tu, tv = (i + a * s) * unit, (j + b * s) * unit
        for alpha in (math.exp(-2.0), math.exp(-0.3), 1.0, math.exp(0.7), math.exp(2.5)):
            charge = [_gaussian_profile_oracle(sigma, alpha) if r == 1.0
                      else _symmetrised_profile_oracle(r, sigma, alpha) for r in rates]
            bound = 0.0
            for x, y, lam in [(0, 0, (1 - a) * (1 - b)), (s, 0, a * (1 - b)), (0, s, (1 - a) * b), (s, s, a * b)]:
                w = corner[ag._corner_key(((i + x) % m, (j + y) % m), m)]
                assert w.sum() + eta < 1.0
                used = max(used, float(w[:-1].sum()))
                k = _profile(g, sigma, (i + x) * unit, (j + y) * unit, alpha)
                bound += lam * ((1.0 - w.sum() - eta) * k + float(np.dot(w, charge)) + eta)
            assert _profile(g, sigma, tu, tv, alpha) <= bound + 1e-9
    return used


def test_charge_rates_are_checked():
    with pytest.raises(InvalidParameter):
        ag.charge_grids(0.2, 1.0, (0.1, 1.0), 1e-2)
    with pytest.raises(InvalidParameter):
        ag.charge_grids(0.2, 1.0, (1.5,), 1e-2)


@pytest.mark.slow
def test_slow_charged_cover_upper_is_above_every_lower_bound():
    """Theorem C'' with Theorem G: the uniform cover (16 cells per angle) with the slack charged to S_{1.25g},
    S_{1.5g}, S_{2g} and G (g = 1/4, sigma = 2, T = 2, eps = 0.5; the corner pairs are not the all-G fallback)
    lies above the certified per-step lower bound over the two orders and above the exhaustive adaptive oracle
    (n = 4 records, b = 1, two steps, every other record's gradient in {-1, 0, 1})."""
    g, sigma, steps, eps, h = 0.25, 2.0, 2, 0.5, 2e-3
    out = ag.refined_cover_upper(g=g, sigma=sigma, steps=steps, eps=[eps], h=h, base=16, levels=0, rounds=0,
                                 cells=(400, 400), rates=(0.3125, 0.375, 0.5, 1.0))
    assert out["rounds"][0]["tau_used_max"] < 0.5
    up = out["delta"][0]
    two = ag.orders_lower(g=g, sigma=sigma, steps=steps, eps=[eps], h=h)["delta"][0]
    value = oracle.adaptive_delta(oracle.menu(4, 1), sigma, steps, eps)
    assert two <= up
    assert value <= up + 1e-9


# --------------------------------------------------------------------------------------------------
# the sharper slack of Lemma C: two wedges intersected, f split, orientation kept (docs section 7l)
# --------------------------------------------------------------------------------------------------

def _brute_region_sup(sigma, arcs, thresholds, n=2000, reach=12.0):
    """sup over A inside the intersection of the rounded wedges of |E[f(Z); A]| = max(E[f_+; R], E[f_-; R]), f =
    (Z_t^2 - 1)/sigma^2 - Z_r/sigma with Z_r = r cos(phi), Z_t = r sin(phi), by an n x n polar midpoint grid; a point is
    in a wedge if some direction of the arc (a fine sample of 400 directions plus the ends) has <z, e> > s."""
    dr, dphi = reach / n, 2 * math.pi / n
    r = (np.arange(n) + 0.5)[:, None] * dr
    phi = (np.arange(n) + 0.5)[None, :] * dphi
    val = (r * r * np.sin(phi) ** 2 - 1.0) / sigma ** 2 - r * np.cos(phi) / sigma
    weight = r * np.exp(-0.5 * r * r) / (2 * math.pi) * dr * dphi
    inside = np.ones((n, n), bool)
    for (a0, a1), s in zip(arcs, thresholds):
        best = np.max([np.cos(phi - gam) for gam in np.linspace(a0, a1, 401)], axis=0)
        inside &= r * best > s
    return max(float(np.sum(np.where(inside, np.clip(val, 0, None) * weight, 0.0))),
               float(np.sum(np.where(inside, np.clip(-val, 0, None) * weight, 0.0))))


@pytest.mark.parametrize("sigma,arcs,thresholds", [
    (1.0, [(-0.1, 0.2), (0.5, 0.9)], [(-math.inf, 0.3, 1.0, 2.0), (-1.0, -0.2, 0.5, 0.5)]),
    (1.759, [(math.pi - 0.4, math.pi + 0.2), (2.0, 2.3)], [(-0.5, 0.2, 0.9, 1.6), (-2.0, -1.0, 0.0, 1.0)]),
    (1.5, [(1.4, 1.8), (0.0, 2 * math.pi)], [(0.0, 0.5, 1.5, 3.0), (1.0, 1.0, 1.0, 1.0)]),
    (0.7, [(4.0, 4.1), (3.9, 4.5)], [(0.2, 0.2, 0.8, 2.5), (-math.inf, -math.inf, 0.1, 0.1)]),
])
def test_region_moment_is_an_upper_bound(sigma, arcs, thresholds):
    """_region_moment >= sup over events A inside the intersection of two rounded wedges of |E[f; A]|, computed
    independently on a 2000 x 2000 polar midpoint grid, for several arcs (in the frame of f: the integrand is not
    radial), thresholds from -inf to 3 (both wedges binding in turn), four sigmas."""
    bound = ag._region_moment(sigma, arcs, thresholds)
    for k in range(len(thresholds[0])):
        brute = _brute_region_sup(sigma, arcs, [th[k] for th in thresholds])
        assert brute <= bound[k]


def _optimal_event_curvatures(g, sigma, theta, theta_p, beta, n=900):
    """For the member theta = (theta_u, theta_v) at beta and the point theta' of the cell: g max(int_A f_+ phi,
    int_A f_- phi) over A = the optimal event {p_theta > beta q_theta}, f the second theta-derivative of
    phi(y - u(theta'_u)) over phi (resp. of phi(y - v(theta'_v))), on an n x n Cartesian midpoint grid of
    [-2 - 9 sigma, 2 + 9 sigma]^2. These are lower bounds on the sups the kappas must dominate (A and its parts
    f > 0, f < 0 are events inside the region)."""
    lim = 2.0 + 9.0 * sigma
    x = -lim + (np.arange(n) + 0.5) * (2 * lim / n)
    y1, y2 = np.meshgrid(x, x, indexing="ij")
    da = (2 * lim / n) ** 2

    def dens(angle):
        return np.exp(-0.5 * ((y1 - math.cos(angle)) ** 2 + (y2 - math.sin(angle)) ** 2) / sigma ** 2) \
            / (2 * math.pi * sigma ** 2)
    w = dens(0.0)
    event = (1 - g) * w + g * dens(theta[0]) > beta * ((1 - g) * w + g * dens(theta[1]))
    out = []
    for angle in theta_p:
        zr = ((y1 - math.cos(angle)) * math.cos(angle) + (y2 - math.sin(angle)) * math.sin(angle)) / sigma
        zt = (-(y1 - math.cos(angle)) * math.sin(angle) + (y2 - math.sin(angle)) * math.cos(angle)) / sigma
        f = (zt * zt - 1.0) / sigma ** 2 - zr / sigma
        part = np.where(event, f * dens(angle), 0.0) * da
        out.append(g * max(float(np.clip(part, 0, None).sum()), float(np.clip(-part, 0, None).sum())))
    return out


@pytest.mark.parametrize("g,sigma,n_cells,cell", [(0.05, 1.759, 16, (8, 0)), (0.05, 1.759, 16, (4, 12)),
                                                  (0.3, 1.0, 8, (2, 6)), (0.1, 2.0, 12, (5, 9))])
def test_sharp_kappas_bound_the_curvature_on_optimal_events(g, sigma, n_cells, cell):
    """The curvature bounds of section 7l dominate g max(int_A f_+ phi, int_A f_- phi) for A the optimal event of
    members theta of the cell at beta in [beta_k, beta_{k+1}], f taken at theta' in the cell (corners and centre of the
    cell for both; theta and theta' independent). Cells: G6's PQ cell and a right-triangle cell, two others."""
    step = 2 * math.pi / n_cells
    cu, cv = (cell[0] * step, (cell[0] + 1) * step), (cell[1] * step, (cell[1] + 1) * step)
    betas = np.array([1.0, math.exp(0.3), math.exp(0.6), math.exp(1.2), math.exp(1.5)])
    kappa_u, kappa_q = ag._sharp_kappas(g, sigma, cu, cv, betas)
    points = [(0.0, 0.0), (1.0, 1.0), (0.5, 0.5), (0.0, 1.0)]
    for k in (0, 1, 3):
        for a, b in points:
            theta = (cu[0] + a * step, cv[0] + b * step)
            for ap, bp in points[:3]:
                cu_c, cv_c = _optimal_event_curvatures(g, sigma, theta, (cu[0] + ap * step, cv[0] + bp * step),
                                                       betas[k], n=700)
                assert cu_c <= kappa_u[k] and cv_c <= kappa_q[k]


@pytest.mark.parametrize("g,sigma,n_cells,full", [(0.05, 1.759, 16, False),
                                                  pytest.param(0.3, 1.0, 8, True, marks=pytest.mark.slow)])
def test_sharp_slack_lemma_holds_on_sampled_members(g, sigma, n_cells, full):
    """Lemma C with the sharper slack (cell_slack_profile, sharp): the exact profile (conditional quadrature) of members
    inside the cell is <= the bilinear mixture of the corners' exact profiles plus the slack on the beta interval
    holding alpha (alpha < 1: alpha times the slack at 1/alpha, the profile takes the cell and its swap). Cells: the
    PQ cell, a right-triangle cell, one more (``full``: three cells, two members each); alpha on both sides of 1.
    Sampled."""
    step = 2 * math.pi / n_cells
    h = n_cells // 2
    cells = [(h, 0), (n_cells // 4, 3 * n_cells // 4), (1, 3)] if full else [(h, 0), (n_cells // 4, 3 * n_cells // 4)]
    for i, j in cells:
        cu, cv = (i * step, (i + 1) * step), (j * step, (j + 1) * step)
        for a, b in ([(0.5, 0.5), (0.2, 0.85)] if full else [(0.2, 0.85)]):
            tu, tv = cu[0] + a * step, cv[0] + b * step
            lam = {(0, 0): (1 - a) * (1 - b), (1, 0): a * (1 - b), (0, 1): (1 - a) * b, (1, 1): a * b}
            for alpha in (math.exp(-0.5), 1.0, math.exp(0.4), math.exp(1.0)):
                mix = sum(w * _profile(g, sigma, cu[x], cv[y], alpha) for (x, y), w in lam.items())
                beta = max(alpha, 1.0 / alpha)
                slack = float(ag.cell_slack_profile(g, sigma, cu, cv, np.array([beta, beta]))[0])
                assert ag.cell_slack_profile(g, sigma, cu, cv, np.array([beta, beta]), sharp=False)[0] >= slack
                assert _profile(g, sigma, tu, tv, alpha) <= mix + min(alpha, 1.0) * slack + 1e-10

# menu pruning by profile dominance (docs section 7m, numerics.grid_dominance)
# --------------------------------------------------------------------------------------------------

def _random_grid(rng, n_max=30):
    """A random lattice grid pair: first-law masses on up to n_max lattice points (total < 1) and +inf mass."""
    n = int(rng.integers(1, n_max))
    pmf = rng.random(n) * (rng.random(n) < 0.7)
    pmf = pmf / (pmf.sum() + 1e-300) * rng.uniform(0.5, 1.0)
    return GridPLD(int(rng.integers(-15, 15)), pmf, float(rng.uniform(0.0, 1.0 - pmf.sum())))


def _brute_profile(pair, h, alphas):
    """f(alpha) = sum_j p_j (1 - alpha e^{-jh})_+ + p_inf, term by term (math.fsum of each alpha's terms)."""
    k = pair.k0 + np.arange(len(pair.pmf))
    terms = pair.pmf[None, :] * np.clip(1.0 - np.outer(alphas, np.exp(-k * h)), 0.0, None)
    return np.array([math.fsum(row) for row in terms]) + pair.inf_mass


def test_profile_table_matches_brute_force_and_the_finite_check_is_the_sup():
    """On random small grid pairs: every entry of profile_table is within its stated error (plus 1e-13 for the
    oracle's own rounding) of the term-by-term sum (the entry for alpha -> 0 is the total mass); and the excess bounds f_A - f_B on a dense
    alpha grid (between the kinks, far below and far above them), and is attained at a lattice point up to the
    error bounds."""
    rng = np.random.default_rng(7)
    h = 0.05
    dense = np.exp(np.linspace(-3.0, 3.0, 1501))
    dense = np.concatenate(([1e-12], dense, [1e12]))
    for _ in range(30):
        a, b = _random_grid(rng), _random_grid(rng)
        lo, hi = gd._span((a, b))
        fa, ea = gd.profile_table(a, h, lo, hi)
        lattice = np.exp(np.arange(lo, hi + 1) * h)
        exact = _brute_profile(a, h, lattice)
        assert abs(fa[0] - (a.pmf.sum() + a.inf_mass)) <= ea
        assert np.max(np.abs(fa[1:] - exact)) <= ea + 1e-13
        ex = gd.excess(a, b, h)
        diff = _brute_profile(a, h, dense) - _brute_profile(b, h, dense)
        assert diff.max() <= ex + 1e-13
        at_points = np.concatenate(([a.pmf.sum() + a.inf_mass - b.pmf.sum() - b.inf_mass],
                                    exact - _brute_profile(b, h, lattice)))
        assert ex - at_points.max() <= 2 * ea + 1e-9


def _spread(pair, j, x, h):
    """``pair`` with mass x moved from lattice point j to j - 1 and j + 1, keeping the P-mass and the Q-mass:
    the profile rises only strictly between e^{(j-1)h} and e^{(j+1)h}, by b (1 - e^{-h}) at alpha = e^{jh}, b the
    mass sent up."""
    b = x * (1.0 - math.exp(-h)) / (math.exp(h) - math.exp(-h)) * math.exp(h)
    a = x - b
    pmf = np.concatenate(([0.0], pair.pmf, [0.0]))
    i = j - pair.k0 + 1
    pmf[i] -= x
    pmf[i - 1] += a
    pmf[i + 1] += b
    return GridPLD(pair.k0 - 1, pmf, pair.inf_mass), b * (1.0 - math.exp(-h))


def test_a_pair_violating_dominance_at_one_lattice_alpha_is_kept():
    """A mean-preserving spread of one atom exceeds the original profile only at one lattice alpha (by v,
    computed from the spread): the excess is v up to the error bounds; pruning with eps v/2 keeps it, with eps 2v
    the original (dominated with excess ~0) or the spread is dropped; the original is dropped at eps 1e-9."""
    rng = np.random.default_rng(3)
    h = 0.1
    base = GridPLD(-4, 0.05 + rng.random(9) / 20.0, 0.05)
    spread, v = _spread(base, -1, 0.02, h)
    assert abs(gd.excess(spread, base, h) - v) < 1e-12
    assert gd.excess(base, spread, h) < 1e-12
    kept, dropped = gd.prune_menu({"base": base, "spread": spread}, h, 0.5 * v)
    assert "spread" in kept and "base" in dropped and dropped["base"][0] == "spread"
    kept, _ = gd.prune_menu({"base": base, "spread": spread}, h, 1e-9)
    assert list(kept) == ["spread"]
    # the spread is not dominated by the base at eps v / 2 even when listed first and the base is large elsewhere
    other, _ = _spread(base, 1, 0.03, h)
    kept, dropped = gd.prune_menu({"spread": spread, "other": other}, h, 0.5 * v)
    assert set(kept) == {"spread", "other"} and not dropped


def test_pruned_game_is_above_the_full_game():
    """Upper mode on a small menu (the two orders' upper grids, S, G, two charge mixtures and three triangle
    corner grids, g 0.2, sigma 1.5, T 4): the game over the pruned menu with the step slack is >= the full
    menu's game, and <= it plus T times the slack (the kept pairs are a sub-menu), for eps 0, 1e-4, 1e-3, both
    passes (one dominating pair, a mixture of two)."""
    g, sigma, steps, h = 0.2, 1.5, 4, 1e-2
    grids = ag.order_grids(g, sigma, h, 1e-14)
    full = ag.full_batch_grid(sigma, h, 1e-14)
    menu = dict(grids["upper"], S=grids["S"], G=full)
    for k, (tu, tv) in enumerate([(math.pi, 0.0), (math.pi / 2, 3 * math.pi / 2), (2.0, 4.0)]):
        tri = ag.triangle_upper_grid(g, sigma, tu, tv, h, (120, 120))
        menu[f"tri{k}"] = tri
        menu[f"mix{k}"] = ag.mix_grids([(0.9, tri), (0.1, grids["S"])])
    eps = np.array([0.25, 0.5, 1.0])
    ref = ag.game_delta(menu, steps, h, eps, mode="upper")["delta"]
    for e in (0.0, 1e-4, 1e-3):
        kept, dropped = gd.prune_by_mixtures(menu, *gd.prune_menu(menu, h, e), h, e)
        slack = gd.step_slack(dropped)
        assert slack <= e + 1e-12
        got = ag.game_delta(kept, steps, h, eps, mode="upper", slack=slack)["delta"]
        assert (got >= ref - 1e-13).all()
        assert (got <= ref + steps * slack + 1e-9).all()


def test_a_pair_below_a_mixture_of_two_is_dropped_and_one_above_it_is_kept():
    """A = the public-coin mixture 0.3 B + 0.7 C (profile exactly the mixture's) is dropped by the mixture pass with
    B, C kept and a certified excess <= eps; the spread of A at one lattice point (above the mixture by v there) is
    kept at eps v / 2. B and C are two different spreads of one base, so neither dominates A alone."""
    h = 0.1
    base = GridPLD(-4, 0.05 + np.random.default_rng(5).random(9) / 20.0, 0.05)
    b, _ = _spread(base, -2, 0.02, h)
    c, _ = _spread(base, 2, 0.02, h)
    b, c = GridPLD(c.k0, np.concatenate((b.pmf, [0.0])), b.inf_mass), c  # same support, same k0
    a = ag.mix_grids([(0.3, b), (0.7, c)])
    menu = {"A": a, "B": b, "C": c}
    kept, dropped = gd.prune_menu(menu, h, 1e-10)
    assert set(kept) == {"A", "B", "C"}
    kept, dropped = gd.prune_by_mixtures(menu, kept, dropped, h, 1e-10)
    assert set(kept) == {"B", "C"} and dropped["A"][1] <= 1e-10
    spread, v = _spread(a, 0, 0.02, h)
    menu = {"A": spread, "B": b, "C": c}
    kept, dropped = gd.prune_by_mixtures(menu, *gd.prune_menu(menu, h, 0.5 * v), h, 0.5 * v)
    assert "A" in kept


def test_pruning_bad_input_is_refused():
    h = 0.1
    a = GridPLD(0, np.array([0.5, 0.5]), 0.0)
    with pytest.raises(InvalidParameter):
        gd.prune_menu({"a": a}, h, -1.0)
    with pytest.raises(InvalidParameter):
        gd.prune_menu({}, h, 0.0)
    with pytest.raises(InvalidParameter):
        gd.profile_table(a, h, 1, 1)
    with pytest.raises(InvalidParameter):
        ag.game_delta({"a": a}, 2, h, [0.5], mode="lower", slack=1e-3)


def test_charge_weights_respect_limits_or_still_cover():
    """Section 7s: limits on each charge pair's weight are asked of the LP. Where the LP can meet them its weights do
    and cost at least the unlimited optimum; where it cannot (here: no weight on G at all) the answer still covers the
    slack (soundness never depends on the limits) and the caller sees the excess."""
    met = 0
    for _, _, slack, floors, cost in _charge_lp_cells():
        free = ag.charge_weights(slack, floors, cost)
        limits = np.append(np.full(len(floors) - 1, math.inf), 0.5 * free[-1])
        w = ag.charge_weights(slack, floors, cost, limits=limits)
        assert (w >= 0).all() and (w @ floors >= slack).all()
        if (w <= limits * (1 + 1e-9)).all():
            met += free[-1] > 0.0  # a limit that binds (half the free weight on G) and is met
            assert cost @ w >= cost @ free * (1 - 1e-6)
        none = ag.charge_weights(slack, floors, cost, limits=np.append(np.full(len(floors) - 1, math.inf), 0.0))
        assert (none @ floors >= slack).all()
    assert met >= 1  # the limits' branch was exercised, not skipped
