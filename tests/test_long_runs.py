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


def test_swamp_read_from_the_pessimistic_side_alone():
    """epsilon at delta: when the plain composition's rounding share at the Chernoff epsilon exceeds the
    limit, the direction is composed tilted without the optimistic plain side. The full test would keep a
    plain bracket that already meets the width (here it does); both brackets are certified, so each
    lower end lies below the other's upper end, and the tilted one meets the width too."""
    s = Schedule((Phase(1e-2, 1.0, 10 ** 4),), "add-remove")
    delta, rel_width = 1e-5, 1e-3
    h, tail = P._initial_step(s, rel_width, delta), delta * rel_width * 1e-6
    gated = P.Swamped(P.eps_swamp_test(delta, rel_width), share_limit=0.1 * rel_width * delta)
    full = P.Swamped(P.eps_swamp_test(delta, rel_width))
    a = P._compose_direction(s, "remove", h, tail, {"delta": delta}, gated)
    b = P._compose_direction(s, "remove", h, tail, {"delta": delta}, full)
    assert gated.seen and a.tilted
    lo_a, up_a = P._eps_lower(a.lower, delta), P._eps_upper(a.upper, delta)
    lo_b, up_b = P._eps_lower(b.lower, delta), P._eps_upper(b.upper, delta)
    assert lo_a <= up_b and lo_b <= up_a
    assert up_a - lo_a <= rel_width * up_a
