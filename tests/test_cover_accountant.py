"""The opt-in cover accountant for fixed-size replace-one (numerics.cover_accountant; docs/replace_one.md §7q):
its bracket against the exhaustive adaptive adversary of tests/adaptive_oracle.py, its two upper ends, its cache,
and its refusals (library and CLI)."""
from __future__ import annotations

import json

import pytest

from numerics import cli
from numerics import cover_accountant as ca
from numerics.errors import InvalidParameter
from numerics.schedule import Phase, Schedule

from . import adaptive_oracle as oracle


def _fixed(b: int, n: int, sigma: float, steps: int, adjacency: str = "replace-one") -> Schedule:
    return Schedule((Phase(q=b / n, sigma=sigma, steps=steps, sampling="fixed-size", batch_size=b, dataset_size=n),),
                    adjacency)


@pytest.fixture
def small(monkeypatch):
    """A coarse β grid and member quadrature, so that the whole chain runs in seconds (every setting is proven;
    these only cost tightness)."""
    monkeypatch.setattr(ca, "BETA_INTERVALS", (60, 60))
    monkeypatch.setattr(ca, "MEMBER_CELLS", (300, 300))


def test_cover_bracket_contains_the_exhaustive_adversary(small):
    """n = 4 records, b = 1 (g = 1/4), sigma 1, two steps: the exhaustive adaptive adversary's delta at eps 0.5 lies
    inside the cover accountant's bracket, and the upper end is the smaller of the two proven ones."""
    b = ca.delta(_fixed(1, 4, 1.0, 2), 0.5, n_cells=8)
    value = oracle.adaptive_delta(oracle.menu(4, 1), 1.0, 2, 0.5)
    assert b.delta_lower <= value + 1e-9 <= b.delta_upper + 2e-9
    assert value <= b.details["cover_upper"] + 2e-9
    d = b.details
    assert b.delta_upper == min(d["symmetrised_upper"], d["cover_upper"])
    assert b.method == "cover" and d["cells"] == 8 and d["block"] == 2


def test_cover_epsilon_is_read_from_the_cached_curve(small):
    """A second query of the same mechanism comes from the cache and gives the same bracket; the cover's upper
    end is a lattice epsilon whose upper delta is at most the target."""
    s = _fixed(1, 4, 1.0, 2)
    first = ca.epsilon(s, 0.05, n_cells=8)
    again = ca.epsilon(s, 0.05, n_cells=8)
    assert again.details["cached"] and (again.epsilon_lower, again.epsilon_upper) == (
        first.epsilon_lower, first.epsilon_upper)
    assert first.epsilon_lower <= first.epsilon_upper <= first.details["symmetrised_upper"]


@pytest.mark.parametrize("schedule, kwargs, match", [
    (_fixed(1, 4, 1.0, 2, "add-remove"), {}, "replace-one"),
    (Schedule((Phase(q=0.25, sigma=1.0, steps=2),), "replace-one"), {}, "fixed-size"),
    (_fixed(1, 4, 1.0, 2), {"n_cells": 1}, "cells"),
    (_fixed(1, 4, 1.0, 2), {"block": 3}, "block"),
])
def test_cover_refuses_what_it_does_not_cover(schedule, kwargs, match):
    with pytest.raises(InvalidParameter, match=match):
        ca.epsilon(schedule, 1e-3, **kwargs)


_MECH = ["--sampling", "fixed-size", "--batch-size", "1", "--dataset-size", "4", "--sigma", "1", "--steps", "2",
         "--adjacency", "replace-one"]


@pytest.mark.parametrize("argv, words", [
    (["epsilon", "--delta", "1e-3", "--cells", "8"] + _MECH, "--cells applies to --method cover only"),
    (["epsilon", "--delta", "1e-3", "--method", "cover", "--cells", "x"] + _MECH, "cells must be an integer"),
    (["delta", "--epsilon", "1", "--method", "rdp"] + _MECH, "method must be one of pld, cover"),
    (["epsilon", "--delta", "1e-3", "--method", "cover", "--sampling", "poisson", "--q", "0.25", "--sigma", "1",
      "--steps", "2", "--adjacency", "replace-one"], "fixed-size"),
])
def test_cli_cover_bad_input_exits_2_with_one_line(capsys, argv, words):
    assert cli.main(argv) == cli.EXIT_BAD_INPUT
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and words in err


def test_cli_cover_delta_json_names_both_upper_ends(capsys, small):
    assert cli.main(["delta", "--epsilon", "0.5", "--method", "cover", "--cells", "8", "--json"] + _MECH) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["method"] == "cover" and out["adjacency"] == "replace-one"
    assert out["delta_upper"] == min(out["details"]["symmetrised_upper"], out["details"]["cover_upper"])


def test_method_all_leaves_the_cover_out():
    assert "cover" not in cli._methods("all") and cli._methods("cover") == ("cover",)


@pytest.mark.slow
@pytest.mark.parametrize("n, b, sigma, steps, eps", [(3, 1, 1.0, 2, 0.3), (4, 2, 1.5, 2, 0.2), (4, 1, 0.8, 2, 1.0)])
def test_cover_bracket_contains_the_exhaustive_adversary_more_settings(small, n, b, sigma, steps, eps):
    """The same check at other tiny settings (n <= 4, T = 2: the oracle at T = 3 takes over 10 CPU min)."""
    bounds = ca.delta(_fixed(b, n, sigma, steps), eps, n_cells=8)
    value = oracle.adaptive_delta(oracle.menu(n, b), sigma, steps, eps)
    assert bounds.delta_lower <= value + 1e-9
    assert value <= bounds.details["cover_upper"] + 2e-9 and value <= bounds.delta_upper + 2e-9
