"""Seed 002's running-text and appendix-text claims (running_text, theorem_b4_proof, gdp_appendix tau-c-over-2)."""
import math

from scipy.optimize import brentq
from scipy.stats import norm

from theory.ledger import get


def test_caption_of_table_10_is_table_4s_setting():
    from theory.proactive_dp.paper_values import EXPERIMENT_SETTINGS

    cx = get("002.tables-10-11.caption-reference").evaluate().counterexample
    t3, t4 = EXPERIMENT_SETTINGS["table-3"], EXPERIMENT_SETTINGS["table-4"]
    assert cx["inputs"]["n"] != t3["n"] and cx["inputs"]["n"] == t4["n"]
    assert cx["inputs"]["sigma"] == t4["sigma"].text != t3["sigma"].text


def test_350000_is_k_not_rounds():
    cx = get("002.text.L280-T-350000").evaluate().counterexample
    assert cx["K"] / 50000 == 7 and math.ceil(cx["K"] / cx["s"]) == cx["T"] < cx["K"]


def test_percentage_arithmetic():
    cx = get("002.text.L286-percentages").evaluate().counterexample
    assert abs((74.74 - 60) - 14.14) > 0.5 and cx["printed"] == "14.14"


def test_eq39_smaller_than_b2_r():
    cx = get("002.thmB4.eq39").evaluate().counterexample
    a, s = cx["alpha"], cx["sigma"]
    assert a <= 1 / (math.e * s) and s > 2 * math.e * math.sqrt(a) / (1 - a)  # (37) holds at the point
    r0 = a * s
    u0 = 2 * math.sqrt(r0 * s) / (s - r0)
    u1 = u0 * math.e / s
    r_b2 = r0 * 8 * (1 / (1 - u0) + math.e ** 3 / ((1 - u1) * s ** 3)) * math.exp(3 / s ** 2)
    r_39 = 8 * (s / (1 - math.sqrt(a)) ** 2 + math.e ** 3 / (s ** 2 * (1 - a))) * math.exp(3 / s ** 2) * (1 - a) * a
    assert r_39 < 0.8 * r_b2


def test_tau_c_over_2_is_half_the_exact_tau():
    # independent: solve delta(eps; mu) = delta of (64) with scipy's normal CDF, then compare the printed L1242 form
    eps, delta = 0.5, 1e-6
    d64 = lambda mu: norm.cdf(-eps / mu + mu / 2) - math.exp(eps) * norm.cdf(-eps / mu - mu / 2) - delta  # noqa: E731
    mu = brentq(d64, 1e-3, 1.0, xtol=1e-14)
    inner = math.log(1 / delta) + math.log(mu ** 3 / (math.sqrt(2 * math.pi) * (eps ** 2 - mu ** 4 / 4)))
    printed = 0.5 * math.sqrt(2 * inner) / (eps - mu ** 2 / 2)
    assert abs(printed * mu - 0.5) < 0.02  # printed tau (c = 1) is half of 1/mu
    v = get("002.appC.tau-c-over-2").evaluate()
    assert v.status == "holds-with-correction"


def test_theta_685_counterexample():
    cx = get("002.thm-3.1.theta-6.85").evaluate().counterexample
    assert cx["2.4/gamma"] > cx["e sigma/(gamma theta)"]  # the max is the other branch at sigma = 6, theta = 6.85
    assert 2.4 * 6.85 / math.e > 6


def test_h_values_l1090():
    h = lambda x: (math.sqrt(1 + (math.e / x) ** 2) - math.e / x) ** 2  # noqa: E731
    assert round(h(6), 2) == 0.42 and round(h(10), 2) == 0.58
    assert get("002.thm-3.1.L1090-h-values").evaluate().status == "holds"


def test_l66_and_l188():
    assert math.exp(0.5) < 1.65
    from theory.proactive_dp.paper_values import EXPERIMENT_SETTINGS

    ks = [spec["k_total"] / spec["n"] for spec in EXPERIMENT_SETTINGS.values()]
    assert max(ks) < 50  # the paper's own runs use 5-7 epochs
    assert get("002.text.L188-k-epochs").evaluate().counterexample["k_min"] == min(ks)
