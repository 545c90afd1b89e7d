"""bench.bench_cover.excess_partition's screen (issue 35; docs/replace_one.md section 7t).

The screen only steers which partition is built (any partition is a cover, section 7j): what must hold is that the
cells at every corner the screen flags are split down to side 1, that a corner is measured only when it is strong
and charged and only again when its weights change, and that a screen that flags nothing changes nothing."""
from __future__ import annotations

import math

import numpy as np

from bench.bench_cover import _chi, excess_partition
from numerics import adaptive_game as ag

_G, _SIGMA, _M, _RATES = 0.05, 1.5, 8, (0.0625, 0.1, 0.2, 1.0)
_COSTS = np.array([1e-3, 6e-3, 4e-2, 2.0])
_SLACKS: dict = {}  # the cells' slack profiles, shared by the tests (they depend on the setting only)


def _partition(screen=None, screen_chi=0.0):
    return excess_partition(_G, _SIGMA, _M, 2, math.inf, 0.0, rates=_RATES, costs=_COSTS, log_beta_max=12.0,
                            n_beta=60, slacks=_SLACKS, screen=screen, screen_target=0.0, screen_chi=screen_chi)


def test_flagged_corners_are_refined_to_side_one_and_measured_once_per_weights():
    pq = ag._corner_key((_M // 2, 0), _M)
    calls = []

    def screen(cw):
        calls.append(dict(cw))
        return {c: (1.0 if c == pq else 0.0) for c in cw}

    chi_pq = math.exp(4.0 / _SIGMA ** 2) - 1.0
    part, _, corner_w = _partition(screen, screen_chi=0.5)
    at_pq = [cell for cell in part if pq in {ag._corner_key(c, _M) for c in ag._cell_corners(cell, _M)}]
    assert at_pq and all(cell[2] == 1 for cell in at_pq)
    assert any(cell[2] == 2 for cell in part)  # cells away from the flagged corner were left alone
    seen = set()
    for cw in calls:
        for c, w in cw.items():
            assert _chi(c, _M, _SIGMA) / chi_pq >= 0.5 and float(_COSTS @ np.atleast_1d(w)) > 0.0
            key = (c, tuple(np.atleast_1d(w)))
            assert key not in seen
            seen.add(key)
    assert pq in corner_w and len(calls) >= 2  # PQ's corner was measured again after each split


def test_a_screen_that_flags_nothing_changes_nothing():
    plain = _partition()
    quiet = _partition(lambda cw: {c: 0.0 for c in cw})
    assert plain[0] == quiet[0]
    assert all(np.array_equal(plain[2][c], quiet[2][c]) for c in plain[2])
