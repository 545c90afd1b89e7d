"""Long runs (issue 33): the route order for very long Poisson runs and the shared tilting exponent of
numerics.pld, against the per-side search of numerics.pld_tilted."""
from __future__ import annotations

import numerics.pld as P
from numerics import accounting
from numerics.pld_tilted import chernoff_lambda, tilted
from numerics.schedule import Phase, Schedule


def _names(steps):
    s = Schedule((Phase(1e-3, 1.0, steps),), "add-remove")
    return [name for name, _ in accounting._routes(s, accounting.accountant_for(s), "epsilon")]


def test_long_runs_try_numerics_pld_first():
    assert _names(10 ** 6)[0] == "pld (numerics.pld composition)"
    assert _names(1000)[-1] == "pld (numerics.pld composition)"


def _grids(h=2e-3):
    s = Schedule((Phase(0.01, 1.0, 1000),), "add-remove")
    pairs = P._pairs(s, "remove")
    tail = 1e-12
    per_step = tail / s.total_steps
    upper = [(P.discretise_pessimistic(pr, h, per_step), t) for pr, t in pairs]
    lower = [(P.discretise_optimistic(pr, h, per_step), t) for pr, t in pairs]
    window = (P._window_side(lower, h, tail, -1), P._window_side(upper, h, tail, +1))
    return s, upper, lower, window, h, tail


def test_chernoff_lambda_is_as_good_as_the_120_point_search():
    _, upper, _, _, h, _ = _grids()
    for delta in (1e-5, 1e-10):
        lam, eps = P._chernoff_lambda(upper, h, delta)
        lam_ref, eps_ref = chernoff_lambda(upper, h, delta)
        assert eps <= eps_ref * (1 + 1e-3)


def test_shared_exponent_bracket_overlaps_the_per_side_one():
    """Both brackets are certified: each lower end lies below the other's upper end, and they agree
    to well within the grid's width."""
    s, upper, lower, window, h, tail = _grids()
    delta = 1e-10
    new = P._compose_direction(s, "remove", h, tail, {"delta": delta}, None)
    old_up = tilted(upper, h, tail, window=window, delta=delta)[0]
    old_low = tilted(lower, h, tail, window=window, delta=delta)[1]
    lo_new, up_new = P._eps_lower(new.lower, delta), P._eps_upper(new.upper, delta)
    lo_old, up_old = P._eps_lower(old_low, delta), P._eps_upper(old_up, delta)
    assert new.tilted and lo_new <= up_old and lo_old <= up_new
    assert abs(up_new - up_old) <= 1e-3 * up_old and abs(lo_new - lo_old) <= 1e-3 * up_old
