"""The decision rule of run-backed claims (repro.stats): Welch, TOST, bootstrap, and their statuses."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy import stats as sps

from numerics.errors import InvalidParameter
from repro import stats as S

A = [0.80, 0.82, 0.81, 0.79, 0.83]
B = [0.70, 0.71, 0.69, 0.72, 0.70]
SEEDS = (0, 1, 2, 3, 4)


def test_welch_is_scipys_unequal_variance_test():
    r = S.welch(A, B, seeds=SEEDS)
    ref = sps.ttest_ind(A, B, equal_var=False)
    assert r.statistic == pytest.approx(ref.statistic) and r.p_value == pytest.approx(ref.pvalue)
    assert r.n == (5, 5) and r.seeds == SEEDS and r.alpha == S.SIGNIFICANCE_LEVEL
    assert r.diff == pytest.approx(np.mean(A) - np.mean(B)) and r.significant
    d = r.to_dict()
    assert d["test"] == "welch" and d["seeds"] == list(SEEDS)


def test_effect_status_directions():
    assert S.effect_status(A, B)[0] == "holds"
    assert S.effect_status(B, A)[0] == "refuted"
    assert S.effect_status(A, [0.81, 0.80, 0.82, 0.80, 0.82])[0] == "open"


def test_tost_agrees_with_the_welch_confidence_interval():
    # TOST at level alpha rejects iff the (1 - 2 alpha) Welch CI of the difference lies inside (-m, m)
    a, b = np.array(A), np.array(A) + 0.002
    for m in (0.001, 0.01, 0.05):
        ci = sps.ttest_ind(a, b, equal_var=False).confidence_interval(confidence_level=1 - 2 * S.SIGNIFICANCE_LEVEL)
        assert S.tost(a, b, margin=m).significant == (-m < ci.low and ci.high < m)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.floats(0.0, 1.0), min_size=3, max_size=8), st.lists(st.floats(0.0, 1.0), min_size=3, max_size=8),
       st.floats(0.005, 0.5))
def test_tost_is_the_confidence_interval_inclusion(a, b, m):
    a, b = np.array(a), np.array(b)
    if np.ptp(a) == 0 or np.ptp(b) == 0:
        return  # scipy's CI needs a spread in some arm; the zero-variance branch is tested separately
    ci = sps.ttest_ind(a, b, equal_var=False).confidence_interval(confidence_level=1 - 2 * S.SIGNIFICANCE_LEVEL)
    inside = -m < ci.low and ci.high < m
    # away from the boundary (float ties), the decisions agree
    if min(abs(ci.low + m), abs(m - ci.high)) > 1e-9:
        assert S.tost(a, b, margin=m).significant == inside


def test_equivalence_status():
    close = [x + 0.001 for x in A]
    assert S.equivalence_status(A, close, margin=0.02)[0] == "holds"
    assert S.equivalence_status(A, B, margin=0.02)[0] == "refuted"
    noisy = [0.5, 0.9, 0.7, 0.95, 0.6]
    assert S.equivalence_status(A, noisy, margin=0.02)[0] == "open"


def test_non_inferiority_status():
    assert S.non_inferiority_status([x - 0.005 for x in A], A, margin=0.05)[0] == "holds"
    assert S.non_inferiority_status(B, A, margin=0.02)[0] == "refuted"


def test_zero_variance_arms_give_an_exact_difference():
    r = S.welch([1.0, 1.0, 1.0], [0.9, 0.9, 0.9], alternative="greater")
    assert r.p_value == 0.0 and r.statistic == np.inf and "zero variance" in r.note
    assert S.welch([1.0, 1.0], [1.0, 1.0], alternative="greater").p_value == 1.0
    # identical saturated arms (every run at accuracy 1.0) are equivalent at any margin, exactly
    assert S.tost([1.0] * 5, [1.0] * 5, margin=0.01).significant
    assert S.bootstrap_ci([1.0] * 3, [0.5] * 3).ci == (0.5, 0.5)
    # one saturated arm against a nearly saturated one: Welch with an exact zero variance, no warning
    r = S.welch([1.0] * 40, [1.0] * 38 + [0.995, 0.99], alternative="greater")
    assert r.p_value < 0.2 and r.note == "one arm has zero variance"
    # the same p as Welch's formula with var_a = 0: t = diff / sqrt(var_b / n_b), df = n_b - 1
    b = np.array([1.0] * 38 + [0.995, 0.99])
    t = (1.0 - b.mean()) / np.sqrt(b.var(ddof=1) / 40)
    assert r.statistic == pytest.approx(t) and r.p_value == pytest.approx(sps.t.sf(t, 39))


def test_bootstrap_ci_is_deterministic_and_covers_the_difference():
    r1, r2 = S.bootstrap_ci(A, B, seeds=SEEDS), S.bootstrap_ci(A, B, seeds=SEEDS)
    assert r1.ci == r2.ci and r1.ci[0] < r1.diff < r1.ci[1]
    assert r1.ci[0] > 0  # the arms are 0.1 apart with spread 0.01


def test_bad_input():
    with pytest.raises(InvalidParameter):
        S.welch([0.5], [0.4, 0.3])
    with pytest.raises(InvalidParameter):
        S.tost(A, B, margin=0.0)
    with pytest.raises(InvalidParameter):
        S.welch(A, B, alternative="bigger")
    with pytest.raises(InvalidParameter):
        S.welch([0.1, float("nan")], B)


def test_interval_status_and_one_sample():
    v = [5.1, 5.3, 5.2, 5.0, 5.25]
    assert S.interval_status(v, low=18, high=22)[0] == "refuted"
    assert S.interval_status(v, low=4, high=6)[0] == "holds"
    assert S.interval_status([4.0, 7.0, 5.0, 6.5, 3.5], low=5, high=5.5)[0] == "open"
    r = S.one_sample(v, value=5.0, alternative="greater")
    assert r.p_value == pytest.approx(sps.ttest_1samp(v, 5.0, alternative="greater").pvalue)
    assert S.one_sample([3.0, 3.0], value=2.0, alternative="greater").p_value == 0.0
    with pytest.raises(InvalidParameter):
        S.one_sample([1.0], value=0.0, alternative="greater")


def test_mann_whitney_is_scipys_one_sided_rank_test():
    a, b = [9.0, 7.0, 8.0, 6.0], [1.0, 3.0, 2.0, 4.0]
    c = S.mann_whitney(a, b)
    assert c.p_value == sps.mannwhitneyu(a, b, alternative="greater").pvalue and c.significant
    assert not S.mann_whitney(b, a).significant
