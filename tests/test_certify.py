"""The ball-arithmetic certifier proves, refutes, and stays open honestly (issue 12)."""
import math

import mpmath
from hypothesis import given, strategies as st

from numerics.certify import Coordinate, certify, resolve, _ball

F = "tests.certify_fns:"


def test_proves_log1p_below_x():
    cert = certify(F + "log1p_below_x", [Coordinate("x", 1e-3, 10.0)], backend="serial", use_cache=False)
    assert cert.status == "certified" and cert.counterexample is None
    assert cert.min_margin > 0 and cert.certified_boxes >= 1


def test_refutes_wrong_claim_with_counterexample():
    cert = certify(F + "sin_below_half", [Coordinate("x", 0.0, 3.0)], backend="serial", use_cache=False)
    assert cert.status == "refuted"
    x = cert.counterexample["x"]
    assert 0.5 - math.sin(x) < 0  # recomputed independently


def test_open_with_remaining_boxes_when_budget_too_small():
    cert = certify(F + "log1p_below_x", [Coordinate("x", 1e-3, 10.0, "log")], max_boxes=2,
                   backend="serial", use_cache=False)
    assert cert.status == "open" and cert.open_boxes


def test_discrete_parameters_and_region_constraints():
    coords = [Coordinate("x", 0.0, 1.0), Coordinate("y", 0.0, 1.0)]
    cert = certify(F + "product_bound", coords, discrete={"n": [2, 3, 4]}, strict=False,
                   initial_splits=2, backend="serial", use_cache=False)
    assert cert.status == "certified" and cert.tasks == 12
    bad = certify(F + "refuted_below_diagonal", coords, discrete={"n": [1]},
                  constraints_ref=F + "only_above_diagonal", backend="serial", use_cache=False)
    ce = bad.counterexample
    assert bad.status == "refuted" and ce["y"] > ce["x"] and ce["y"] - ce["x"] - 0.5 < 0


def test_tasks_run_through_the_sweep_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("DPV_CACHE_DIR", str(tmp_path))
    stats = {}
    args = (F + "log1p_below_x", [Coordinate("x", 1e-3, 10.0)])
    first = certify(*args, initial_splits=4, backend="serial", stats=stats)
    assert stats["cache_misses"] == 4
    second = certify(*args, initial_splits=4, backend="serial", stats=stats)
    assert stats["cache_hits"] == 4 and second.status == first.status == "certified"


@given(st.floats(1e-3, 9.0), st.floats(1e-6, 1.0))
def test_enclosures_contain_the_50_digit_value(lo, w):
    hi = lo + w
    ball = resolve(F + "log1p_below_x")(_ball(lo, hi))
    for t in (0.0, 0.37, 1.0):
        x = mpmath.mpf(lo) + t * (mpmath.mpf(hi) - mpmath.mpf(lo))
        with mpmath.workdps(50):
            exact = x - mpmath.log1p(x)
        assert float(ball.lower()) <= exact <= float(ball.upper())


# --- every enclosure of numerics.enclosures contains the mpmath value (50 digits) inside its box -------

from hypothesis import settings  # noqa: E402
from flint import arb  # noqa: E402

from numerics import enclosures as enc  # noqa: E402
from tests.strategies import integer_orders  # noqa: E402

DPS = 50


def _mp_a_minus_1(q, sigma, alpha):
    """A_alpha - 1 = sum_k binom(alpha,k) (1-q)^(alpha-k) q^k (e^{k(k-1)/(2 sigma^2)} - 1) (positive terms)."""
    return mpmath.fsum(math.comb(alpha, k) * (1 - q) ** (alpha - k) * q ** k * mpmath.expm1(k * (k - 1) / (2 * sigma ** 2))
                       for k in range(2, alpha + 1))


def _mp_moment(t, sigma):
    """m_t = sum_j binom(t,j)(-1)^(t-j) e^{j(j-1)/(2 sigma^2)} at enough digits for the cancellation."""
    with mpmath.workdps(DPS + t + int(t * t / (2 * sigma ** 2) / 2.3) + 10):
        return +mpmath.fsum(math.comb(t, j) * (-1) ** (t - j) * mpmath.exp(j * (j - 1) / (2 * mpmath.mpf(sigma) ** 2))
                            for j in range(t + 1))


def _inside(ball, value) -> bool:
    return mpmath.mpf(ball.lower().str(40, radius=False)) - mpmath.mpf(10) ** -35 * (1 + abs(value)) <= value \
        <= mpmath.mpf(ball.upper().str(40, radius=False)) + mpmath.mpf(10) ** -35 * (1 + abs(value))


def _box_point(lo, hi, t):
    return mpmath.mpf(lo) + t * (mpmath.mpf(hi) - mpmath.mpf(lo))


box_fracs = st.floats(0.0, 1.0)


@settings(max_examples=25)
@given(st.floats(1e-6, 0.5), st.floats(0.0, 0.05), st.floats(0.9, 60.0), st.floats(0.0, 0.1), integer_orders, box_fracs)
def test_log_a_enclosures_contain_the_50_digit_value(q_lo, q_w, s_lo, s_w, alpha, t):
    alpha = min(alpha, 120)  # keep the mpmath oracle fast
    q_hi, s_hi = q_lo + q_w * q_lo, s_lo * (1 + s_w)
    qb, sb = _ball(q_lo, q_hi), _ball(s_lo, s_hi)
    with mpmath.workdps(DPS):
        q, s = _box_point(q_lo, q_hi, t), _box_point(s_lo, s_hi, 1 - t)
        excess = _mp_a_minus_1(q, s, alpha)
        assert _inside(enc.sigma2_a_excess_over_q2(qb, sb, alpha), excess * s * s / q ** 2)
        assert _inside(enc.a_excess_over_q2(qb, sb, alpha), excess / q ** 2)
        assert _inside(enc.log_a_over_q2(qb, sb, alpha), mpmath.log1p(excess) / q ** 2)
        assert _inside(enc.sigma2_log_a_over_q2(qb, sb, alpha), mpmath.log1p(excess) * s * s / q ** 2)
        assert _inside(enc.log_a(qb, sb, alpha), mpmath.log1p(excess))


@given(st.floats(0.0, 30.0), st.floats(0.0, 2.0), box_fracs)
def test_monotone_enclosures_contain_the_50_digit_value(lo, w, t):
    hi = lo + w
    b = _ball(lo, hi)
    with mpmath.workdps(DPS):
        x = _box_point(lo, hi, t)
        assert _inside(enc.expm1_over_x(b), mpmath.expm1(x) / x if x else mpmath.mpf(1))
        assert _inside(enc.log1p_over_x(b), mpmath.log1p(x) / x if x else mpmath.mpf(1))


@settings(max_examples=15)
@given(st.integers(0, 40), st.floats(0.9, 80.0), st.floats(0.0, 0.2), box_fracs)
def test_mixture_moment_enclosures_contain_the_50_digit_value(t_moment, s_lo, s_w, t):
    s_hi = s_lo * (1 + s_w)
    s = _box_point(s_lo, s_hi, t)
    ball = enc.mixture_moments_over_qt(t_moment, _ball(s_lo, s_hi))[t_moment]
    assert _inside(ball, _mp_moment(t_moment, s))


def test_truncated_sum_stays_tight_and_sound_at_large_order():
    """alpha = 401 at sigma = 100 stops early (rho < 1/2); the enclosure still contains the full sum."""
    with mpmath.workdps(DPS):
        q, s = mpmath.mpf(2) ** -10, mpmath.mpf(100)
        exact = _mp_a_minus_1(q, s, 401) * s * s / q ** 2
    ball = enc.sigma2_a_excess_over_q2(arb(2.0 ** -10), arb(100.0), 401)
    assert _inside(ball, exact) and ball.rad() < 2.0 ** -30 * abs(ball.mid())  # remainder bound <= 2^-40 of the sum
