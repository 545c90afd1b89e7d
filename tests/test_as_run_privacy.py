"""The as-run privacy claims (theory/async_fl/as_run_privacy.py, theory/proactive_dp/as_run_privacy.py):
each verdict's deciding number recomputed through another call path or a simpler pair."""
import math

import numpy as np
import pytest
from scipy import integrate, stats

import numerics
from numerics import Phase, Schedule
from numerics.pld import epsilon_pld
from theory.async_fl import as_run_privacy as ar0
from theory.proactive_dp import as_run_privacy as ar2
from theory.proactive_dp.paper_values import BUDGET_TABLES

# --- seed 002: fixed-size batches (Algorithm 1, L79) ------------------------------------------------


def _poisson_half_sigma(r):
    """Fixed-size add/remove with noise multiplier sigma is the pair ((1-q)N(0) + qN(2), N(0)) (and its reverse),
    i.e. the Poisson pair at sigma/2 (shift 2 = shift 1 at half the noise): the Poisson accountant recomputes it."""
    return epsilon_pld(Schedule((Phase(r["s"] / r["n"], r["sigma"] / 2, math.ceil(r["k_total"] / r["s"])),)),
                       r["delta"], rel_width=0.01)


@pytest.mark.parametrize("table", sorted(BUDGET_TABLES))
def test_table_labels_hold_by_the_poisson_half_sigma_route(table):
    for r in ar2.rows(table):
        b = _poisson_half_sigma(r)
        assert b.epsilon_upper <= float(r["label"]), r["line"]


def test_footnote_5_counterexample_recomputed():
    v = ar2.footnote_5()
    assert v.status == "refuted" and v.margin < 0
    c = v.counterexample
    r = {"n": c["n"], "k_total": c["k_total"], "s": c["s"], "sigma": c["sigma"], "delta": c["delta"]}
    fixed = _poisson_half_sigma(r)
    poisson = epsilon_pld(Schedule((Phase(c["s"] / c["n"], c["sigma"], c["rounds"]),)), c["delta"], rel_width=0.01)
    assert fixed.epsilon_lower > poisson.epsilon_upper
    # the ratio the evidence reports, within both widths
    assert fixed.epsilon_lower / poisson.epsilon_upper == pytest.approx(c["fixed_lower"] / c["poisson_upper"], rel=0.03)
    assert fixed.epsilon_lower / poisson.epsilon_upper > 2


# --- seed 000: with-replacement draws (Algorithm 2.1, L94) -------------------------------------------


def _hockey_stick_copies(b, n, sigma, eps):
    """delta of the realizable one-round pair (sum_k Bin(b, 1/n)_k N(2k, sigma^2), N(0, sigma^2)) at eps, by quadrature."""
    k = np.arange(0, 12)
    w = stats.binom(b, 1 / n).pmf(k)

    def integrand(z):
        p = float(np.sum(w * stats.norm.pdf(z, 2 * k, sigma)))
        return max(p - math.exp(eps) * stats.norm.pdf(z, 0, sigma), 0.0)

    return integrate.quad(integrand, -10 * sigma, 24 + 10 * sigma, limit=400, points=[0, 2, 4])[0]


def test_with_replacement_lower_bound_is_realizable_by_quadrature():
    b, n, sigma, delta = 200, 1000, 2.0, 1e-3
    e = numerics.epsilon(Schedule((Phase.with_replacement(batch_size=b, dataset_size=n, sigma=sigma, steps=1),)), delta)
    assert _hockey_stick_copies(b, n, sigma, e.epsilon_lower) >= delta * (1 - 1e-6)


def test_rounding_sizes_up_bounds_the_exact_schedule():
    sizes = [16, 18, 21, 25, 30, 36]
    exact = numerics.epsilon(ar0.with_replacement([(s, 1) for s in sizes], 2000, 4.0), 1e-6)
    up = numerics.epsilon(ar0.with_replacement(ar0.rounded_up(sizes, 2), 2000, 4.0), 1e-6)
    assert ar0.rounded_up(sizes, 2) == [(21, 3), (36, 3)]
    assert up.epsilon_upper >= exact.epsilon_upper * (1 - 1e-9)
    assert exact.epsilon_lower <= up.epsilon_upper


@pytest.mark.parametrize("key", ["example-3", "main-text"])
def test_holding_guarantees_hold_even_with_every_round_at_the_largest_size(key):
    """A coarser dominating schedule (one phase, every round at the largest size) still meets the printed eps."""
    g = ar0.guarantee(key)
    one = numerics.epsilon(ar0.with_replacement([(max(g["sizes"]), len(g["sizes"]))], g["n_c"], g["sigma"]),
                           float(g["delta"]), rel_width=0.05)
    assert one.epsilon_upper <= float(g["epsilon"])
    v = ar0.as_run_verdict(key)
    assert v.status == "holds"
    assert v.evidence["upper"]["epsilon_upper"] <= one.epsilon_upper * (1 + 0.05)


def test_main_text_sequence_is_the_printed_one():
    g = ar0.guarantee("main-text")
    assert len(g["sizes"]) == 195 and g["sizes"][:4] == [16, 18, 19, 20] and g["n_c"] == 10_000


def test_example_5_holds_with_the_tight_with_replacement_bound():
    # the copies pair dominates (numerics.dominating): the upper bound of the rounded-up schedule is below eps = 2
    v = ar0.as_run_verdict("example-5")
    assert v.status == "holds"
    assert v.evidence["lower"]["epsilon_lower"] <= v.evidence["upper"]["epsilon_upper"] < 2


@pytest.mark.slow
def test_example_5_exact_schedule_is_below_the_printed_epsilon():
    """Every real round at its exact size (356 phases, minutes): the exact schedule is below eps = 2 as well."""
    g = ar0.guarantee("example-5")
    e = numerics.epsilon(ar0.with_replacement([(s, 1) for s in g["sizes"]], g["n_c"], g["sigma"]), float(g["delta"]))
    assert e.epsilon_lower <= e.epsilon_upper < 2
