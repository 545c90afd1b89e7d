"""The hull enclosure of Lemma B.3's conclusion margin (theory.lemmas.tail_lemma_hull, issue 34): the same function
as theory.lemmas.tail_lemma_balls.lemma_b3_margin (checked against mpmath through it at points), and over boxes it
contains every point value inside the hypotheses (a box that may reach U_j = 1 gets a lower bound, as the plain ball)."""
import random

import mpmath
import pytest
from flint import arb, ctx
from hypothesis import given, settings, strategies as st

from numerics.certify import _ball
from numerics.enclosures import sigma2_a_excess_over_q2
from theory.lemmas import tail_lemma as tl
from theory.lemmas.tail_lemma_balls import lemma_b3_constraints, lemma_b3_margin
from theory.lemmas.tail_lemma_hull import lemma_b3_margin_hull, sigma2_a_excess_hull

DPS = 50


@settings(max_examples=25)
@given(st.integers(1, 400), st.floats(216 / 215, 100.0), st.floats(0.0, 1.0))
def test_at_points_the_hull_is_the_plain_margin(lam, sigma, tau):
    a, b = lemma_b3_margin(lam, arb(sigma), arb(tau)), lemma_b3_margin_hull(lam, arb(sigma), arb(tau))
    assert a.overlaps(b)
    if all(bool(h > 0) for h in lemma_b3_constraints(lam, arb(sigma), arb(tau))):
        assert float(b.rad()) <= 4 * float(a.rad()) + 1e-25 * (1 + abs(float(b.mid()))), (a, b)  # no wider at a point


@settings(max_examples=20)
@given(st.integers(1, 60), st.floats(216 / 215, 50.0), st.floats(0.01, 1.0))
def test_hull_is_the_scaled_margin_of_the_tail_lemma(lam, sigma, tau):
    with mpmath.workdps(DPS):
        q = mpmath.mpf(tau) * mpmath.exp(-lam / mpmath.mpf(sigma) ** 2) / sigma
        u0, u1 = tl.tail_u(lam, sigma, q * sigma)
        if u0 >= 1 or u1 >= 1:
            return  # outside the hypotheses
        exact = tl.lemma_b3_margin(lam, sigma, q, q * sigma) * sigma ** 2 / q ** 2
    ball = lemma_b3_margin_hull(lam, arb(sigma), arb(tau))
    tol = mpmath.mpf("1e-12") * (1 + abs(exact))
    assert mpmath.mpf(ball.lower().str(40, radius=False)) - tol <= exact <= mpmath.mpf(ball.upper().str(40, radius=False)) + tol


@pytest.mark.parametrize("lam", [1, 7, 60, 400])
def test_over_a_box_the_hull_contains_every_point_inside_the_hypotheses(lam):
    rng = random.Random(lam)
    old, ctx.prec = ctx.prec, 128
    try:
        for _ in range(25):
            s0, t0 = rng.uniform(216 / 215, 90.0), rng.uniform(0.0, 0.95)
            s1, t1 = s0 * rng.uniform(1.001, 1.5), min(1.0, t0 + rng.uniform(0.001, 0.3))
            box = lemma_b3_margin_hull(lam, _ball(s0, s1), _ball(t0, t1))
            # a box that may reach U_j = 1 gets a lower bound only (r/r0 at u_j's lower end, as the plain ball)
            inside = all(bool(h > 0) for h in lemma_b3_constraints(lam, _ball(s0, s1), _ball(t0, t1)))
            for _ in range(6):
                s, t = rng.uniform(s0, s1), rng.uniform(t0, t1)
                if not all(bool(h > 0) for h in lemma_b3_constraints(lam, arb(s), arb(t))):
                    continue  # outside the hypotheses the margin has one-sided constants
                point = lemma_b3_margin(lam, arb(s), arb(t))
                assert bool(box.lower() <= point.upper()), (lam, s, t)
                assert bool(point.lower() <= box.upper()) or not inside, (lam, s, t)
    finally:
        ctx.prec = old


def test_the_sum_hull_is_narrower_than_the_midpoint_radius_sum_on_a_wide_box():
    """A box of the kind that made ~1,400 boxes per lambda (lambda = 400, sigma in [27, 32]): the hull's lower end is
    far above the midpoint-radius sum's (20x here), its upper end no higher, and it contains the sum at points."""
    lam, sig, q = 400, _ball(27.42, 31.66), _ball(0.0085, 0.0102)
    old, ctx.prec = ctx.prec, 128
    try:
        plain, hull = sigma2_a_excess_over_q2(q, sig, lam + 1), sigma2_a_excess_hull(q, sig, lam + 1)
        assert bool(hull.lower() > 10 * plain.lower()) and bool(hull.upper() <= plain.upper())
        for s, qq in [(27.42, 0.0085), (31.66, 0.0102), (29.0, 0.009)]:
            point = sigma2_a_excess_over_q2(arb(qq), arb(s), lam + 1)
            assert bool(hull.lower() <= point.lower()) and bool(point.upper() <= hull.upper())
    finally:
        ctx.prec = old
