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
