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


def test_table1_client_count_against_figure10():
    cx = get("000.table-1.client-counts").evaluate().counterexample
    assert cx["clients"] == 2 != cx["table_1"] == 5


def test_l826_q_is_not_a_probability():
    cx = get("000.lemma-D1.L826-q").evaluate().counterexample
    assert cx["q_as_printed"] > 1 >= cx["q_L842"] > 0


def test_l874_bound_at_its_worst_point_by_quadrature():
    # independent: M_t = E_{mu0}[((mu0 - mu)/mu0)^t]... in the direction (mu, mu0): int (mu - mu0)^t / mu0^(t-1) dz
    import mpmath

    from theory.async_fl.lemma_d1_proof import bound_l874

    w = get("000.lemma-D1.L874-moment-bound").evaluate().evidence["worst"]
    t, q, s = w["t"], w["q"], w["sigma"]
    mu0 = lambda z: mpmath.npdf(z, 0, s)  # noqa: E731
    mu = lambda z: (1 - q) * mu0(z) + q * mpmath.npdf(z, 1, s)  # noqa: E731
    m_t = mpmath.quad(lambda z: (mu(z) - mu0(z)) ** t / mu0(z) ** (t - 1), [-mpmath.inf, 0, 1, mpmath.inf])
    assert m_t <= bound_l874(t, q, s)


def test_l882_first_term_small_t():
    from fractions import Fraction

    # t = 3: (t-1)!!(1 + e)/t! = (1 + e)/3 <= 1/6 + e for every e >= 1
    for e in (Fraction(1), Fraction(3), Fraction(100)):
        assert (1 + e) / 3 <= Fraction(1, 6) + e


def test_s0_le_3m0_at_small_cases():
    # L746 at the smallest admissible m for a few d, recomputed directly
    for d in (0, 1, 5):
        m = 2 * (d + 1)
        s0 = math.ceil((m + 1) / (16 * (d + 1) ** 2) / math.log((m + 1) / (2 * (d + 1))))
        assert s0 <= 3 * (m + 1) ** 2 / 4


def test_noise_metric_flips_with_diminishing_steps():
    # recomputed with plain loops: sizes 16 + ceil(N_c q i) style from the claim's own schedules is not needed; the
    # counterexample's ratio must exceed 1 while sqrt(T) sigma says 0.47
    cx = get("000.title.noise-metric-step-sizes").evaluate().counterexample
    assert cx["sqrtT_sigma_ratio"] < 0.5 < 1 < cx["ratio_increasing_over_constant"]
    # the constant schedule's model noise by a direct sum
    beta, n, s, sigma = cx["beta"], 1563, 16, 5.78
    direct = sigma * math.sqrt(sum((0.15 / (1 + beta * s * i)) ** 2 for i in range(n)))
    assert math.isclose(direct, cx["model_noise_constant"], rel_tol=1e-9)


def test_eq13_q_sup_covers_the_lemma_region():
    # q <= exp(-2/sigma^2)/sigma over sigma > 0 never exceeds the cap the claim uses
    assert max(math.exp(-2 / s ** 2) / s for s in [0.2 + 0.001 * i for i in range(20000)]) <= 0.31
