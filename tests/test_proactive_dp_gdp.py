"""Seed 002 Appendix C (theory/proactive_dp/gdp_appendix.py): (65), C.1-C.3 claims."""
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from numerics.errors import InvalidParameter
from theory.ledger import get
from theory.lemmas import gdp as GL

CLAIMS = ["002.appC.tau-first-order", "002.appC.C2-tau-at-Tmin", "002.appC.C3-bounded-leakage"]
GDP_CLAIMS = ["002.appC.C1-inversion", "002.appC.mu-65-vs-numerics", "002.appC.clt-not-exact-L1598", "002.appC.C1-delta-approx",
              "002.appC.gdp-tradeoff-dominates"]


@pytest.mark.parametrize("cid", CLAIMS)
def test_claim_recomputes_recorded_status(cid):
    c = get(cid)
    assert c.evaluate().status == c.recorded


@pytest.mark.parametrize("cid", GDP_CLAIMS)
def test_gdp_claims(cid):
    c = get(cid)
    assert c.evaluate().status == c.recorded


@given(st.floats(min_value=2.0, max_value=100.0))
def test_tau_inverse_is_first_order_in_one_over_sigma(sigma):
    # tau^{-1} sigma = 1 + 0.3989/sigma + O(sigma^-2) (claim tau-first-order); a crude two-sided envelope
    r = GL.tau_inverse(sigma) * sigma
    assert 1.0 < r < 1.0 + 1.0 / sigma


def test_mu_65_scales_with_sqrt_steps():
    a = GL.mu_clt_65(q=0.01, steps=100, sigma=5.0)
    b = GL.mu_clt_65(q=0.01, steps=400, sigma=5.0)
    assert b == pytest.approx(2 * a, rel=1e-12)


def test_tradeoff_eps_delta_is_a_tradeoff_function():
    xs = [i / 200 for i in range(201)]
    f = [GL.tradeoff_eps_delta(x, 0.5, 1e-3) for x in xs]
    assert all(a >= b for a, b in zip(f, f[1:]))                      # non-increasing
    assert all(v <= 1 - x + 1e-15 for v, x in zip(f, xs))              # below 1 - alpha
    assert all(f[i - 1] + f[i + 1] >= 2 * f[i] - 1e-12 for i in range(1, 200))  # convex


def test_c2_counterexample_recomputed():
    ce = get("002.appC.C2-tau-at-Tmin").evaluate().counterexample
    c = math.sqrt(ce["epsilon"] / ce["gamma"])
    assert c * math.sqrt(2 * ce["Lprime"]) / ce["epsilon"] == pytest.approx(ce["derived_tau"])
    assert ce["derived_tau"] == pytest.approx(math.sqrt(2) * ce["printed_tau"])


@pytest.mark.parametrize("bad", [dict(q=0.0, steps=10, sigma=1.0), dict(q=0.1, steps=-1, sigma=1.0),
                                 dict(q=0.1, steps=10, sigma=float("nan"))])
def test_bad_input(bad):
    with pytest.raises(InvalidParameter):
        GL.mu_clt_65(**bad)
