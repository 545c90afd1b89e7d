"""Issue 29: numerics.knorm's bounds are Arb enclosures; here they are held against mpmath at 50 digits (an
oracle with its own incomplete gamma and erfc) on random and narrow inputs: the upper side must be at or
above the mpmath value of the same expression, the lower side at or below it, and the returned epsilon
ends must pass the same checks in mpmath (delta_upper(eps_upper) <= delta < delta_lower(eps_lower))."""
import mpmath
import numpy as np
import pytest

from numerics.enclose import ball_to_floats
from numerics.knorm import KNorm, _delta_gdp_ball
from numerics.proven_ends import arb_precision

mp = mpmath.mp


def _mp_sf(x):
    return mpmath.erfc(x / mpmath.sqrt(2)) / 2


def _mp_delta_gdp(eps, s):
    mu = mpmath.sqrt(mpmath.mpf(s))
    e = mpmath.mpf(eps)
    return _mp_sf(e / mu - mu / 2) - mpmath.exp(e) * _mp_sf(e / mu + mu / 2)


def _mp_exact(m):
    k, theta, d2 = mpmath.mpf(m.k), 2 * mpmath.mpf(m.sigma) ** 2, mpmath.mpf(m.shift) ** 2
    ey = d2 / (theta * (k - 1))
    return k, theta, d2, ey, ey ** 2 / (k - 2)


def _mp_tail(m, s, c, ell):
    """The Chernoff tail bound of numerics.knorm at (s, c, l), in mpmath."""
    k, theta, d2, ey, var_y = _mp_exact(m)
    c, ell, steps = mpmath.mpf(c), mpmath.mpf(ell), m.steps
    p_big = steps * mpmath.gammainc(k, 0, d2 / (c * theta), regularized=True)
    x = -ell * (mpmath.mpf(s) - steps * ey) + steps * mpmath.log(1 + var_y * ell ** 2 * mpmath.exp(ell * (c - ey)) / 2)
    return p_big + mpmath.exp(min(x, 0))


def _mp_delta_upper(m, eps):
    g = [_mp_delta_gdp(eps, s) for s in m._s_grid]
    t = [mpmath.mpf(float(x)) for x in m._tails]
    return g[0] + sum((g[i + 1] - g[i]) * t[i] for i in range(len(g) - 1)) + t[-1]


def _mp_delta_lower_at(m, eps, c):
    v, _ = m._cells()
    k, theta, _, _, _ = _mp_exact(m)
    shape = m.steps * k
    q = [mpmath.gammainc(shape, mpmath.mpf(x) / theta, mpmath.inf, regularized=True) for x in v]
    a = mpmath.mpf(c) - m.steps * m.shift
    p1, p0 = mpmath.mpf(0), (1 - q[0]) + q[-1]
    for j in range(len(v) - 1):
        mass = q[j] - q[j + 1]
        p1 += mass * _mp_sf(a / mpmath.sqrt(v[j] if a > 0 else v[j + 1]))
        p0 += mass * _mp_sf(mpmath.mpf(c) / mpmath.sqrt(v[j + 1] if c > 0 else v[j]))
    return p1 - mpmath.exp(mpmath.mpf(eps)) * p0


@pytest.fixture(autouse=True)
def _restore_mpmath_precision():
    """The tests below raise mpmath's global precision; restore it, so that no later test in this worker
    runs at 50-60 digits (a claim whose hypothesis holds with equality flipped under it)."""
    saved = mp.prec
    yield
    mp.prec = saved

def _models(seed, count):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        d = int(rng.integers(4, 60))
        sigma = float(rng.uniform(0.3, 3.0))
        steps = int(rng.integers(1, 30))
        adjacency = "replace-one" if rng.random() < 0.5 else "add-remove"
        yield KNorm(sigma, d, steps, adjacency), float(rng.uniform(0.0, 3.0))


@pytest.mark.parametrize("seed", [0, 1])
def test_tail_bounds_enclose_their_mpmath_value(seed):
    mp.dps = 50
    for m, _ in _models(seed, 4):
        for s in m._s_grid[::40]:
            arg = m._tail_parameters(float(s))
            if arg is None:
                continue
            with arb_precision(200):
                lo, hi = ball_to_floats(m._tail_ball(float(s), *arg))
            truth = _mp_tail(m, s, *arg)
            assert lo <= truth <= hi
            assert m._tail(float(s)) >= min(truth, 1)


@pytest.mark.parametrize("seed", [2, 3])
def test_delta_upper_is_above_its_mpmath_value_and_the_gdp_ball_encloses(seed):
    mp.dps = 50
    for m, eps in _models(seed, 3):
        assert m.delta_upper(eps) >= min(_mp_delta_upper(m, eps), 1)
        for s in (m._s_grid[0], m._s_grid[-1]):
            from flint import arb
            with arb_precision(200):
                lo, hi = ball_to_floats(_delta_gdp_ball(arb(eps), arb(float(s))))
            assert lo <= _mp_delta_gdp(eps, s) <= hi


@pytest.mark.parametrize("seed", [4, 5])
def test_delta_lower_is_below_its_mpmath_value(seed):
    mp.dps = 50
    for m, eps in _models(seed, 2):
        c, _ = m._threshold(eps)
        got = m.delta_lower(eps)
        assert got <= max(_mp_delta_lower_at(m, eps, c), 0)


@pytest.mark.parametrize("eps", [0.0, 1e-9, 40.0])
def test_narrow_inputs_keep_their_sides(eps):
    """Tiny epsilon (delta near its largest, both sides cancel least) and a large one (delta ~ 1e-20 and
    below, where e^eps meets tiny tails): each side against mpmath."""
    mp.dps = 60
    m = KNorm(0.5, 6, 3, "replace-one")
    assert m.delta_upper(eps) >= min(_mp_delta_upper(m, eps), 1)
    c, _ = m._threshold(eps)
    assert m.delta_lower(eps) <= max(_mp_delta_lower_at(m, eps, c), 0)


@pytest.mark.parametrize("delta", [1e-5, 1e-12])
def test_epsilon_ends_pass_their_checks_in_mpmath(delta):
    mp.dps = 50
    m = KNorm(5.0, 400, 200, "add-remove")  # large enough for the mixture bound to beat basic composition
    low, up = m.epsilon_bounds(delta)
    assert 0 < low <= up < m.steps * m.shift / m.sigma
    assert _mp_delta_upper(m, up) <= delta
    c, _ = m._threshold(low)
    assert _mp_delta_lower_at(m, low, c) > delta

