"""Seed 004, (25) on the convex class (theory/dp_fed_ls/eq_25_convex.py): recompute the counterexample."""
import pytest
import sympy

from repro.smoothing import ls_matrix
from theory import ledger
from theory.dp_fed_ls import eq_25_convex as m
from theory.ledger import HypothesisFails


def test_counterexample_rechecks_negative():
    cx = ledger.get("004.thm-4-5.proof-eq-25").evaluate().counterexample
    assert m._recheck(cx) < 0


def test_every_case_violates_25():
    for name, mu, prof in m.CASES:
        r = m.evaluate({**m.POINT, "mu": mu, "profile": prof})
        assert r["A3"] > r["B1"] + r["B2"] and r["step_size"]["realized"], name


def test_quadratic_excess_equals_closed_form():
    """For f = (u.w)^2/2 + mu|w|^2/2 and K = 2, A3 - B1 - B2 = -2 eta~^2 eta_l s^2 v^T H A^-1 v exactly (sympy)."""
    mu, s = sympy.Rational(m.MU_SC), sympy.Rational(m.POINT["s"])
    u, v = sympy.Matrix(m.POINT["u"]), sympy.Matrix(m.POINT["v"])
    a_inv = sympy.Matrix(ls_matrix(2, m.POINT["ls_sigma"]).astype(int).tolist()).inv()
    lam_min = min(a_inv.eigenvals())
    beta = (u.T * u)[0] + mu
    eta = lam_min / (8 * m.POINT["K"] * beta * 2)
    h = u * u.T + mu * sympy.eye(2)
    excess = -2 * eta ** 3 * s ** 2 * (v.T * h * a_inv * v)[0]
    r = m.evaluate({**m.POINT, "mu": m.MU_SC, "profile": "square"})
    assert excess > 0 and m.quadratic_excess_any_law({**m.POINT, "mu": m.MU_SC, "profile": "square"}) == excess
    assert float(r["A3"] - r["B1"] - r["B2"]) == pytest.approx(float(excess), rel=1e-20)


def test_sigma_zero_k2_holds():
    """A_sigma = I: the monotone-gradient proof of the module docstring; (25) holds at the sigma = 0 point."""
    for _, mu, prof in m.CASES:
        r = m.evaluate({**m.POINT_SIGMA_0, "mu": mu, "profile": prof})
        assert r["A3"] <= r["B1"] + r["B2"]


def test_bad_input_is_refused():
    with pytest.raises(HypothesisFails):
        m.evaluate({**m.POINT, "mu": "-1", "profile": "square"})
    with pytest.raises(HypothesisFails):
        m.evaluate({**m.POINT, "u": (1, 2, 3), "mu": "0", "profile": "log-cosh"})


def test_repaired_recursion_gaps_nonnegative():
    """The corrected recursion's coefficient gaps, sampled on a grid of x = t Lambda_min in (0, 1] and B."""
    r = m.repaired_recursion()
    x, b = sympy.symbols("x B", positive=True)
    for xv in (sympy.Rational(1, 100), sympy.Rational(1, 2), 1):
        for bv in (0, 1, 5):
            assert r["f_gap"].subs({x: xv}) >= 0 and r["X_gap"].subs({x: xv, b: bv}) >= 0
    assert r["L868_residual"] == 0
