"""Seed 000 title claim (L206-214): schedules, certified rate quantisation, sigma calibration, claims."""
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from numerics.calibrate import calibrate_sigma
from numerics.errors import InvalidParameter
from numerics.pld import epsilon_pld
from theory import ledger
from theory.async_fl import aggregated_noise as an
from theory.async_fl import examples as ex

S = an.SETTING


def test_schedules_of_the_setting():
    const = an.schedule_sizes(0.0, s0=S["s0"], m=S["m"], k=S["k"])
    assert set(const) == {16} and len(const) == math.ceil(25000 / 16)
    lin = an.schedule_sizes(1.0, s0=S["s0"], m=S["m"], k=S["k"])
    # p = 1 is example 3's final sequence 16 + ceil(1.3216 i): same rounds as the examples module counts
    assert len(lin) == ex.hypotheses(3)["rounds_real"] == 183
    assert sum(lin[:-1]) < S["k"] <= sum(lin)


@pytest.mark.parametrize("kw", [dict(p=-0.1, s0=16, m=12.0, k=100), dict(p=1.0, s0=16, m=0.0, k=100),
                                dict(p=math.nan, s0=16, m=12.0, k=100)])
def test_schedule_sizes_rejects_bad_input(kw):
    with pytest.raises(InvalidParameter):
        an.schedule_sizes(kw.pop("p"), **kw)


@settings(max_examples=20)
@given(qs=st.lists(st.floats(min_value=1e-4, max_value=0.05), min_size=1, max_size=60),
       levels=st.integers(2, 10))
def test_quantisation_brackets_every_rate(qs, levels):
    up = an.quantized_schedule(qs, 2.0, levels, "up")
    down = an.quantized_schedule(qs, 2.0, levels, "down")
    assert up.total_steps == down.total_steps == len(qs)
    ups = sorted(q for ph in up.phases for q in [ph.q] * ph.steps)
    downs = sorted(q for ph in down.phases for q in [ph.q] * ph.steps)
    for u, q, d in zip(ups, sorted(qs), downs):
        assert d <= q * (1 + 1e-12) and q <= u * (1 + 1e-12)


def test_quantised_schedules_bracket_the_true_epsilon():
    sizes = an.schedule_sizes(1.0, s0=16, m=S["m"], k=3000)
    qs = [s / S["n_c"] for s in sizes]
    from numerics.schedule import Schedule
    true = epsilon_pld(Schedule.per_round(qs, [2.0] * len(qs)), 1e-6, rel_width=0.02)
    up = epsilon_pld(an.quantized_schedule(qs, 2.0, 4, "up"), 1e-6, rel_width=0.02)
    down = epsilon_pld(an.quantized_schedule(qs, 2.0, 4, "down"), 1e-6, rel_width=0.02)
    assert down.epsilon_lower <= true.epsilon_upper and true.epsilon_lower <= up.epsilon_upper


def test_sigma_min_of_a_constant_schedule_matches_calibrate_sigma():
    qs = [0.01] * 200
    got = an.sigma_min(qs, delta=1e-5, epsilon=1.0, levels=4, rtol=0.01, rel_width=0.01)
    ref = calibrate_sigma(q=0.01, steps=200, delta=1e-5, epsilon=1.0, rtol=0.01)
    assert got["sigma_upper"] == pytest.approx(ref, rel=0.03)
    assert got["sigma_lower"] is None or got["sigma_lower"] < got["sigma_upper"]
    assert epsilon_pld(an.quantized_schedule(qs, got["sigma_upper"], 4, "up"), 1e-5, rel_width=0.01).epsilon_upper <= 1.0


@pytest.mark.parametrize("cid", ["000.title.less-aggregated-noise", "000.title.rounds-not-growth"])
def test_title_claims_compute_recorded_status(cid):
    c = ledger.get(cid)
    v = c.evaluate()
    assert v.status == c.recorded
    if cid.endswith("less-aggregated-noise"):
        # the constant schedule is certified not private at the increasing schedule's aggregated noise
        assert v.evidence["constant_tests"][0]["eps_lower"] > 1.0


@pytest.mark.slow
def test_every_increasing_schedule_beats_the_constant_one():
    """L212-214 over p in {0.25, ..., 1}: each needs less aggregated noise than p = 0 (certified ends)."""
    rows = an.comparison(an.P_VALUES, control=False)
    base = rows[0]["noise_lower"]
    assert base is not None
    assert all(r["noise_upper"] < base for r in rows[1:])
