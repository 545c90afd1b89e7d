"""b/n of a fixed-size phase is a rounded float (issue 29 audit A29F): the dominating grids must use a
fraction >= b/n and the realizable ones a fraction <= b/n (a subsampled pair with a larger fraction
dominates one with a smaller: numerics.schedule.Phase.q_bounds). 3/7 rounds down, 64/60000 up."""
from fractions import Fraction

import pytest

import numerics
from numerics import adaptive, dominating, pld
from numerics.schedule import Phase, Schedule

CASES = [(3, 7), (64, 60000)]


@pytest.mark.parametrize("b,n", CASES)
def test_q_bounds_enclose_b_over_n(b, n):
    lo, hi = Phase.fixed_size(batch_size=b, dataset_size=n, sigma=1.0, steps=1).q_bounds
    assert Fraction(lo) <= Fraction(b, n) <= Fraction(hi)


def _record(monkeypatch, module, name, seen, key):
    real = getattr(module, name)

    def spy(pair, *args, **kwargs):
        seen.setdefault(key, []).append(Fraction(pair.q))
        return real(pair, *args, **kwargs)
    monkeypatch.setattr(module, name, spy)


@pytest.mark.parametrize("b,n", CASES)
def test_fixed_size_add_remove_grids_round_the_fraction_to_their_side(monkeypatch, b, n):
    seen = {}
    _record(monkeypatch, pld, "discretise_pessimistic", seen, "upper")
    _record(monkeypatch, dominating, "discretise_merged", seen, "lower")
    phase = Phase.fixed_size(batch_size=b, dataset_size=n, sigma=3.0, steps=5)
    for model in dominating.fixed_size_add_remove(phase).values():
        model.upper(0.05, 1e-12)
        model.lower(0.05, 1e-12)
    assert seen["upper"] and min(seen["upper"]) >= Fraction(b, n)
    assert seen["lower"] and max(seen["lower"]) <= Fraction(b, n)


@pytest.mark.parametrize("b,n", CASES)
def test_adaptive_grids_round_the_fraction_to_their_side(monkeypatch, b, n):
    seen = {}
    _record(monkeypatch, adaptive, "discretise_pessimistic", seen, "upper")
    _record(monkeypatch, adaptive, "discretise_optimistic", seen, "lower")
    phase = Phase.fixed_size(batch_size=b, dataset_size=n, sigma=3.0, steps=5)
    b_ = numerics.epsilon(Schedule((phase,), "replace-one"), 1e-5, rel_width=0.1)
    assert b_.certified and b_.epsilon_lower <= b_.epsilon_upper
    assert min(seen["upper"]) >= Fraction(b, n) and max(seen["lower"]) <= Fraction(b, n)
