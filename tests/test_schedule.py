"""The schedule value and input validation."""
import math

import pytest

from numerics.errors import InvalidParameter
from numerics.schedule import Phase, Schedule


@pytest.mark.parametrize("kw", [dict(q=0.0, sigma=1, steps=1), dict(q=1.5, sigma=1, steps=1),
                                dict(q=math.nan, sigma=1, steps=1), dict(q=0.1, sigma=-1, steps=1),
                                dict(q=0.1, sigma=0, steps=1), dict(q=0.1, sigma=1, steps=2.5),
                                dict(q=0.1, sigma=1, steps=0), dict(q=0.1, sigma=math.inf, steps=1)])
def test_bad_phase_rejected_with_one_line(kw):
    with pytest.raises(InvalidParameter) as e:
        Phase(**kw)
    assert "\n" not in str(e.value)


def test_empty_schedule_rejected():
    with pytest.raises(InvalidParameter):
        Schedule(())


def test_per_round_merges_equal_rounds():
    s = Schedule.per_round([0.1, 0.1, 0.2], [1.0, 1.0, 1.0])
    assert s.phases == (Phase(0.1, 1.0, 2), Phase(0.2, 1.0, 1))
    assert s.total_steps == 3


def test_schedule_is_hashable_and_immutable():
    s = Schedule.constant(q=0.01, sigma=1.0, steps=10)
    assert hash(s) == hash(Schedule.constant(q=0.01, sigma=1.0, steps=10))
    with pytest.raises(Exception):
        s.adjacency = "replace-one"
