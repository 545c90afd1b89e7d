"""numerics.certified.certified_epsilon: the one certified-epsilon entry point (PLD, optional RDP fallback)."""
import pytest

from numerics import pld
from numerics.certified import certified_epsilon
from numerics.conversions import epsilon_rdp
from numerics.errors import InvalidParameter
from numerics.schedule import Schedule

SCHED = Schedule.constant(q=0.05, sigma=2.0, steps=20)


def test_is_the_pld_bracket():
    got = certified_epsilon(SCHED, 1e-5)
    b = pld.epsilon_pld(SCHED, 1e-5)
    assert got == {"epsilon_lower": b.epsilon_lower, "epsilon_upper": b.epsilon_upper, "delta": 1e-5,
                   "method": b.method, "certified": b.certified}
    assert 0 < got["epsilon_lower"] <= got["epsilon_upper"]


def test_rdp_fallback_only_when_asked(monkeypatch):
    def unreachable(*args, **kwargs):
        raise pld.AccuracyNotReached("grid budget")

    monkeypatch.setattr(pld, "epsilon_pld", unreachable)
    with pytest.raises(pld.AccuracyNotReached):
        certified_epsilon(SCHED, 1e-5)
    got = certified_epsilon(SCHED, 1e-5, rdp_fallback=True)
    assert got["method"] == "rdp" and got["epsilon_lower"] == 0.0
    assert got["epsilon_upper"] == epsilon_rdp(SCHED, 1e-5).epsilon_upper


@pytest.mark.parametrize("delta", [0.0, 1.0, float("nan")])
def test_bad_delta_is_one_line(delta):
    with pytest.raises(InvalidParameter):
        certified_epsilon(SCHED, delta)
