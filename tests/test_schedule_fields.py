"""Schedule.from_phases / from_dict: phases by named fields only; a bare tuple's order is ambiguous."""
import pytest
from hypothesis import given, strategies as st

from numerics.errors import InvalidParameter
from numerics.schedule import Phase, Schedule


@pytest.mark.parametrize("bad", [(0.01, 1.1, 1000), (1.1, 0.01, 1000), [0.01, 1.1, 1000]])
def test_a_bare_triple_is_refused_whatever_its_order(bad):
    with pytest.raises(InvalidParameter, match="ambiguous"):
        Schedule.from_phases([bad])


def test_named_fields_build_the_same_schedule_as_phases():
    a = Schedule.from_phases([{"q": 0.01, "sigma": 1.1, "steps": 1000}])
    assert a == Schedule.from_phases([Phase(q=0.01, sigma=1.1, steps=1000)])


@pytest.mark.parametrize("bad, word", [({"q": 0.01, "sigma": 1.1, "step": 10}, "'step'"),
                                       ({"q": 0.01, "steps": 10}, "'sigma'"),
                                       ({"noise_multiplier": 1.1, "q": 0.01, "steps": 10}, "'noise_multiplier'")])
def test_a_wrong_or_missing_field_is_named(bad, word):
    with pytest.raises(InvalidParameter, match=word):
        Schedule.from_phases([bad])


@given(q=st.floats(1e-4, 1.0), sigma=st.floats(0.3, 20), steps=st.integers(1, 10**6),
       b=st.integers(1, 500), extra=st.integers(0, 5000), adjacency=st.sampled_from(["add-remove", "replace-one"]))
def test_to_dict_round_trips_for_every_sampling(q, sigma, steps, b, extra, adjacency):
    n = b + extra
    phases = (Phase(q=q, sigma=sigma, steps=steps),
              Phase.fixed_size(batch_size=b, dataset_size=n, sigma=sigma, steps=steps),
              Phase.with_replacement(batch_size=b, dataset_size=n, sigma=sigma, steps=steps),
              Phase.full_batch(sigma=sigma, steps=steps, noise="l2-knorm", dimension=b))
    s = Schedule(phases, adjacency)
    assert Schedule.from_dict(s.to_dict()) == s


def test_from_dict_refuses_unknown_keys():
    with pytest.raises(InvalidParameter, match="'phase'"):
        Schedule.from_dict({"phase": [], "adjacency": "add-remove", "phases": []})
