"""numerics.conversions: RDP -> (epsilon, delta) upper bounds."""
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import optimize, special

from numerics.conversions import delta_rdp, epsilon_rdp
from numerics.errors import InvalidParameter
from numerics.rdp import rdp_epsilon
from numerics.schedule import Schedule
from tests.strategies import deltas, moderate_sigmas, small_q_rates, small_schedules

C1 = Schedule.constant(q=0.01, sigma=1.0, steps=1000)
#: a short order grid for the property tests (the properties hold on any grid; keeps them fast)
SHORT_GRID = [1.5, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 128, 256]


def analytic_gaussian_epsilon(mu: float, delta: float) -> float:
    r"""Exact epsilon(delta) of the Gaussian mechanism with sensitivity/sigma = mu (Balle & Wang 2018,
    arXiv:1805.06530, Thm. 8): delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2), solved for eps.
    An oracle written here with scipy, independent of numerics.gdp."""
    def log_delta(eps):
        a, b = special.log_ndtr(-eps / mu + mu / 2), eps + special.log_ndtr(-eps / mu - mu / 2)
        return a + math.log1p(-math.exp(b - a)) - math.log(delta)
    return optimize.brentq(log_delta, 0.0, 10 * mu * mu + 10 * mu + 10, xtol=1e-14, rtol=1e-14)


@pytest.mark.parametrize("sigma,steps,delta", [(1.0, 1, 1e-5), (2.0, 100, 1e-6), (10.0, 1000, 1e-5),
                                               (0.8, 10, 1e-3), (50.0, 10_000, 1e-8)])
def test_rdp_at_q_one_is_above_the_exact_gaussian(sigma, steps, delta):
    """T Gaussian steps = one Gaussian with mu = sqrt(T)/sigma; the RDP bound must not undercut it."""
    schedule = Schedule.constant(q=1.0, sigma=sigma, steps=steps)
    exact = analytic_gaussian_epsilon(math.sqrt(steps) / sigma, delta)
    bound = epsilon_rdp(schedule, delta).epsilon_upper
    assert bound >= exact
    assert bound <= 1.6 * exact + 0.5  # and it is not absurdly loose (RDP is within tens of % here)


@settings(max_examples=6)
@given(q=small_q_rates, sigma=moderate_sigmas, steps=st.integers(1, 5000), delta=deltas)
def test_classic_is_never_below_improved(q, sigma, steps, delta):
    schedule = Schedule.constant(q=q, sigma=sigma, steps=steps)
    classic = epsilon_rdp(schedule, delta, orders=SHORT_GRID, conversion="classic").epsilon_upper
    improved = epsilon_rdp(schedule, delta, orders=SHORT_GRID).epsilon_upper
    assert classic >= improved


def test_single_order_matches_the_formulas():
    """With one order there is nothing to optimise: the value is the conversion formula itself."""
    order, delta = 8.0, 1e-5
    rho = rdp_epsilon(C1, [order])[0]
    classic = rho + math.log(1 / delta) / (order - 1)
    improved = rho + math.log((order - 1) / order) - (math.log(delta) + math.log(order)) / (order - 1)
    assert epsilon_rdp(C1, delta, orders=[order], conversion="classic").epsilon_upper == pytest.approx(classic, rel=1e-14)
    assert epsilon_rdp(C1, delta, orders=[order]).epsilon_upper == pytest.approx(improved, rel=1e-14)


def test_grid_optimum_and_edge_warning():
    full = epsilon_rdp(C1, 1e-5)
    assert full.method == "rdp" and full.certified and full.epsilon_lower == 0.0
    assert not full.details["order_at_grid_edge"] and "warning" not in full.details
    # the optimiser's answer is no worse than every single order of the grid it reports on
    for order in (2.0, 5.0, 7.0, 7.5, 8.0, 9.0, 16.0):
        assert full.epsilon_upper <= epsilon_rdp(C1, 1e-5, orders=[order]).epsilon_upper
    edge = epsilon_rdp(Schedule.constant(q=0.001, sigma=20.0, steps=50_000), 1e-5, orders=[2, 3, 4])
    assert edge.details["order"] == 4.0 and edge.details["order_at_grid_edge"]
    assert "edge" in edge.details["warning"]


def test_refinement_between_grid_points():
    grid = epsilon_rdp(C1, 1e-5)
    refined = epsilon_rdp(C1, 1e-5, refine=True)
    assert refined.details["refined"] and refined.epsilon_upper <= grid.epsilon_upper
    assert abs(refined.details["order"] - grid.details["order"]) <= 0.1 + 1e-12  # between grid neighbours
    single = epsilon_rdp(C1, 1e-5, orders=[refined.details["order"]])  # the reported order reproduces it
    assert single.epsilon_upper == refined.epsilon_upper


def test_delta_round_trip():
    for conversion in ("improved", "classic"):
        eps = epsilon_rdp(C1, 1e-5, conversion=conversion)
        back = delta_rdp(C1, eps.epsilon_upper, conversion=conversion)
        assert back.delta_lower == 0.0 and back.delta_upper <= 1e-5 * (1 + 1e-9)
        assert back.delta_upper >= 1e-5 * (1 - 1e-3)  # same order, same formula: nearly exact inverse
    assert 1.0 >= delta_rdp(C1, 0.0).delta_upper > delta_rdp(C1, 1.0).delta_upper > delta_rdp(C1, 3.0).delta_upper


@settings(max_examples=6)
@given(q=small_q_rates, sigma=moderate_sigmas, steps=st.integers(1, 3000))
def test_monotone_in_steps_and_delta(q, sigma, steps):
    short = epsilon_rdp(Schedule.constant(q=q, sigma=sigma, steps=steps), 1e-5, orders=SHORT_GRID)
    long = epsilon_rdp(Schedule.constant(q=q, sigma=sigma, steps=2 * steps), 1e-5, orders=SHORT_GRID)
    looser = epsilon_rdp(Schedule.constant(q=q, sigma=sigma, steps=steps), 1e-3, orders=SHORT_GRID)
    assert long.epsilon_upper >= short.epsilon_upper >= looser.epsilon_upper


def test_replace_one_not_below_add_remove():
    add_remove = epsilon_rdp(C1, 1e-5, orders=SHORT_GRID).epsilon_upper
    replace = epsilon_rdp(Schedule.constant(q=0.01, sigma=1.0, steps=1000, adjacency="replace-one"), 1e-5,
                          orders=SHORT_GRID)
    assert replace.adjacency == "replace-one" and replace.epsilon_upper >= add_remove


@pytest.mark.parametrize("kwargs,name", [({"delta": 0.0}, "delta"), ({"delta": 1.0}, "delta"),
                                         ({"delta": float("nan")}, "delta"),
                                         ({"delta": 1e-5, "conversion": "best"}, "conversion"),
                                         ({"delta": 1e-5, "orders": [1.0, 2.0]}, "orders"),
                                         ({"delta": 1e-5, "orders": []}, "orders")])
def test_bad_input(kwargs, name):
    with pytest.raises(InvalidParameter, match=name):
        epsilon_rdp(C1, **kwargs)
    with pytest.raises(InvalidParameter, match="epsilon"):
        delta_rdp(C1, -1.0)


# --- soundness against the certified PLD: an RDP "upper bound" below a certified lower bound would be an
# optimistic accountant. The default order grid (the tightest RDP we report) makes the check sharpest;
# the PLD runs at a coarse width because only its certified lower side is used.
PLD_LOWER_REL_WIDTH = 0.05


def _certified_pld(fn, schedule, value):
    """The PLD's certified bounds, or reject the example when the PLD cannot certify the width there
    (tiny epsilon, where a relative width is meaningless; that is the PLD's own test matter, not RDP's)."""
    from hypothesis import reject

    from numerics.pld import AccuracyNotReached

    try:
        return fn(schedule, value, rel_width=PLD_LOWER_REL_WIDTH)
    except AccuracyNotReached:
        reject()


@settings(max_examples=6)
@given(schedule=small_schedules, delta=deltas)
def test_rdp_epsilon_upper_is_never_below_the_certified_pld_lower(schedule, delta):
    from numerics.pld import epsilon_pld

    pld = _certified_pld(epsilon_pld, schedule, delta)
    rdp = epsilon_rdp(schedule, delta)
    assert rdp.adjacency == pld.adjacency == schedule.adjacency
    assert rdp.epsilon_upper >= pld.epsilon_lower


@settings(max_examples=6)
@given(schedule=small_schedules.filter(lambda s: s.adjacency == "add-remove"), delta=deltas)
def test_rdp_delta_upper_is_never_below_the_certified_pld_lower(schedule, delta):
    """Same, in the delta direction, at the epsilon where the PLD's delta is near ``delta`` (so it is
    neither 0 nor 1 and the comparison has teeth)."""
    from numerics.pld import delta_pld, epsilon_pld

    epsilon = _certified_pld(epsilon_pld, schedule, delta).epsilon_lower
    pld = _certified_pld(delta_pld, schedule, epsilon)
    assert delta_rdp(schedule, epsilon).delta_upper >= pld.delta_lower > 0


@pytest.mark.parametrize("conversion", ["improved", "classic"])
def test_conversion_bounds_the_high_precision_formula(conversion):
    """The conversion works at numerics.precision.RDP_CONVERSION_DPS digits; its float answer must bound the
    same formula evaluated at 50 digits from above (epsilon and delta), including at small epsilon where
    the formula's terms cancel."""
    import mpmath

    from numerics.rdp import rdp_epsilon_order

    for schedule, delta in ((C1, 1e-5), (Schedule.constant(q=1e-3, sigma=8.0, steps=10), 1e-2),
                            (Schedule.constant(q=0.2, sigma=0.7, steps=300), 1e-9)):
        for order in (1.5, 2, 8, 64):
            with mpmath.workdps(50):
                rho, a = rdp_epsilon_order(schedule, order, dps=50), mpmath.mpf(order)
                if conversion == "classic":
                    exact = rho - mpmath.log(delta) / (a - 1)
                else:
                    exact = rho + mpmath.log((a - 1) / a) - (mpmath.log(delta) + mpmath.log(a)) / (a - 1)
                got = epsilon_rdp(schedule, delta, orders=[order], conversion=conversion).epsilon_upper
                assert got >= max(exact, 0)
                eps = max(float(exact), 0.0) / 2
                log_delta = ((a - 1) * (rho - eps) if conversion == "classic"
                             else (a - 1) * (rho - eps + mpmath.log((a - 1) / a)) - mpmath.log(a))
                assert delta_rdp(schedule, eps, orders=[order], conversion=conversion).delta_upper >= \
                    min(mpmath.exp(log_delta), 1)
