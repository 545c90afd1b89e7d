"""Seed 000's running-text statements (theory/async_fl/running_text.py): counterexamples recomputed."""
import math

from theory.ledger import get


def test_fig1b_slope_differs_from_example3_at_printed_digits():
    cx = get("000.fig1b.slope-L234").evaluate().counterexample
    assert abs(float(cx["printed_L234"]) - cx["example3_N_c_q"]) > 0.0005  # beyond half a unit of 1.348's last digit
    assert 16 + math.ceil(1.348 * 100) != 16 + math.ceil(cx["example3_N_c_q"] * 100)


def test_m_zero_gives_an_empty_first_round():
    cx = get("000.text.m-range").evaluate().counterexample
    assert cx["N_c"] * cx["q"] * (0 + cx["m"]) ** cx["p"] == 0  # s_{0,c} = N_c q m^p = 0 at m = 0 (L1967 allows m >= 0)


def test_summation_ranges_give_different_round_counts():
    cx = get("000.text.summation-ranges").evaluate().counterexample
    rate = lambda i: cx["N_c"] * cx["q"] * (i + cx["m"]) ** cx["p"]  # noqa: E731
    total, t = 0.0, 0
    while total + rate(t) < cx["K"]:
        total += rate(t)
        t += 1
    rounds_0_to_t_minus_1 = t + 1  # rounds i = 0..t reach K: t + 1 rounds
    assert rounds_0_to_t_minus_1 == cx["T"]["rounds i = 0..T-1"]
    assert len(set(cx["T"].values())) > 1


def test_l1782_rounded_coefficient_does_not_give_the_printed_q():
    cx = get("000.example-5.L1782-rounded-q").evaluate().counterexample
    assert (0.214 / 5) ** 3 > 1.03 * float(cx["printed"])
    assert math.isclose((0.21158875536302124 / 5) ** 3, float(cx["printed"]), rel_tol=1e-12)
