"""Seed 002 gamma chain (theory/proactive_dp/gamma.py): h, g, gamma_min and the gamma claims."""
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from numerics.errors import InvalidParameter
from theory.ledger import get
from theory.proactive_dp import gamma as G
from tests.strategies import sigmas

GAMMA_CLAIMS = [
    "002.gamma.h-equivalence", "002.gamma.formula-thm31-L140", "002.gamma.formula-thmB4-L844",
    "002.gamma.formula-calculators", "002.gamma.L1004-from-B2-r", "002.gamma.monotone",
    "002.gamma.smallest-solution", "002.gamma.asymptotic-L1026", "002.gamma.g-38-vs-B4",
]


@pytest.mark.parametrize("cid", GAMMA_CLAIMS)
def test_claim_recomputes_recorded_status(cid):
    c = get(cid)
    v = c.evaluate()
    assert v.status == c.recorded
    if v.status == "refuted":
        assert v.counterexample


@given(sigmas)
def test_h_is_the_boundary_of_53(sigma):
    # (53) sigma (1 - a) - 2 e sqrt(a) > 0 holds just below h(sigma) and fails just above it.
    hs = G.h(sigma)
    assert 0.0 < hs < 1.0
    below, above = hs * (1 - 1e-9), min(hs * (1 + 1e-9), 1.0)
    assert sigma * (1 - below) - 2 * math.e * math.sqrt(below) > 0
    assert sigma * (1 - above) - 2 * math.e * math.sqrt(above) < 0


@given(sigmas, sigmas)
def test_h_increasing_and_g_is_min(s1, s2):
    lo, hi = sorted((s1, s2))
    assert G.h(lo) <= G.h(hi)
    assert G.g(lo) == min(1 / (math.e * lo), G.h(lo))


@given(st.floats(min_value=1.5, max_value=100.0), st.floats(min_value=1e-4, max_value=0.5))
def test_gamma_min_solves_55_and_obeys_upper_bound(sigma, frac):
    x = 2.0 * frac * G.h(sigma)  # so that x / 2 < h(sigma), the hypothesis of L1018-1020
    gam = G.gamma_min(x, sigma)
    assert gam >= 2.0
    # gam satisfies (55) ...
    assert gam >= G.gamma_rhs(x / gam, sigma)
    # ... and is the smallest solution on the domain: slightly smaller values violate it
    smaller = gam * (1 - 1e-9)
    assert smaller < G.gamma_rhs(x / smaller, sigma)
    # L1018: at most the right-hand side with gamma replaced by its lower bound 2
    assert gam <= G.gamma_rhs(x / 2.0, sigma)


def test_literal_definition_has_spurious_solutions():
    # any gamma < x makes alpha_bar > 1 and the printed right-hand side negative (claim smallest-solution)
    sigma, x = 19.29962, 0.00994
    gam = x / 2
    assert G._rhs_raw(x / gam, sigma, "eq55") < gam


def test_iteration_stops_by_the_signed_rule():
    its = G.gamma_iterate(0.00994, 19.29962)
    assert its[0] == 2.0 and its[1] > its[0]
    # the map gamma -> RHS(x / gamma) is decreasing, so the second update is below the first and the
    # printed signed test gamma_new - gamma <= 1e-4 gamma stops there
    assert len(its) == 3 and its[2] < its[1]


def test_forms_differ_at_counterexample():
    v = get("002.gamma.formula-thm31-L140").evaluate()
    ce = v.counterexample
    assert G._rhs_raw(ce["alpha_bar"], ce["sigma"], "thm31_L140") != pytest.approx(
        G.gamma_rhs(ce["alpha_bar"], ce["sigma"]), rel=1e-6)


def test_l1004_printed_below_b2():
    ce = get("002.gamma.L1004-from-B2-r").evaluate().counterexample
    assert G.gamma_rhs(ce["alpha"], ce["sigma"]) < G._rhs_raw(ce["alpha"], ce["sigma"], "from_B2_r")


@pytest.mark.parametrize("bad", [
    dict(x=float("nan"), sigma=10.0), dict(x=0.0, sigma=10.0), dict(x=0.01, sigma=-1.0),
    dict(x=0.01, sigma=float("nan")),
])
def test_bad_input(bad):
    with pytest.raises(InvalidParameter):
        G.gamma_min(**bad)


def test_rhs_outside_domain_raises():
    with pytest.raises(InvalidParameter):
        G.gamma_rhs(G.h(10.0), 10.0)
    with pytest.raises(InvalidParameter):
        G.gamma_rhs(0.01, 10.0, form="nope")


def test_g38_counterexample_meets_the_hypotheses_and_differs():
    # recomputed in plain floats from the printed (38) (L884) and B.4's g (L840): eps > 0, 0 < delta < 1
    cx = get("002.gamma.g-38-vs-B4").evaluate().counterexample
    eps, delta = cx["epsilon"], cx["delta"]
    assert eps > 0 and 0 < delta < 1
    big_l = math.log(1 / delta)
    sigma = math.sqrt(2 * (eps + big_l) / eps)
    first = math.sqrt(eps) / (math.e * math.sqrt(2 * (eps + big_l)))
    second = (math.sqrt(1 + math.e ** 2 * eps / (2 * (eps + big_l))) - math.e * math.sqrt(eps) / sigma) ** 2
    g_b4 = min(1 / (math.e * sigma), (math.sqrt(1 + (math.e / sigma) ** 2) - math.e / sigma) ** 2)
    assert min(first, second) > 1.4 * g_b4  # (38) admits larger alpha than Theorem B.4: the optimistic side


@pytest.mark.parametrize("sigma, frac", [(3.0, 0.9), (12.10881, 0.3), (50.0, 0.05), (3.0, 1.5)])
def test_55_has_one_crossing_on_the_paper_domain(sigma, frac):
    # on gamma >= max(2, x/h(sigma)) (L970-1000) gamma - RHS(x/gamma) changes sign once: gamma_min is the only root
    x = 2.0 * frac * G.h(sigma)
    lo = max(2.0, x / G.h(sigma))
    gam = G.gamma_min(x, sigma)
    hi = 64 * max(lo, G.gamma_rhs(x / 2.0, sigma)) if x / 2.0 < G.h(sigma) else 64 * gam
    assert G._crossings(x, sigma, lo, hi) == 1
    assert gam - G.gamma_rhs(x / gam, sigma) >= 0 > gam * (1 - 1e-9) - G.gamma_rhs(x / (gam * (1 - 1e-9)), sigma)
    # below the domain (alpha_bar > 1) the printed inequality is met too: the reading the paper excludes
    assert G._literal_solutions_below(x, sigma, lo)


def test_printed_gamma_forms_never_exceed_the_grid_guarantee():
    # Theorem 3.1 with the L140 gamma (smaller than (55)'s) is still (eps, 1/N)-DP at the CI grid (certified)
    from theory.proactive_dp.theorems import printed_gamma_effect

    rows = printed_gamma_effect("thm31_L140")
    assert any(r["gamma_printed"] < r["gamma_55"] for r in rows)
    assert all(r["eps_upper_over_eps"] <= 1 for r in rows)
