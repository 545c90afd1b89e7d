"""Seed 004 Fig. S9(c): the ordering of the printed fits over the stated windows, and which accountant the printed
line is (theory.dp_fed_ls.fig_s9c)."""
import math

import pytest

from theory import ledger
from theory.dp_fed_ls import fig_s9c as s9
from theory.dp_fed_ls.paper_values import FIG_S9C, SETTINGS


def _window(lo, hi, slope_gap, intercept_gap):
    return {"lo": lo, "hi": hi, "points": 5, "slope_theorem": -0.8, "slope_accountant": -0.8 - slope_gap,
            "intercept_theorem": 3.0, "intercept_accountant": 3.0 - intercept_gap, "slope_gap": slope_gap,
            "intercept_gap": intercept_gap}


def test_printed_ordering_is_theorem_steeper_and_above():
    assert s9.printed_sign() == (-1.0, 1.0)


def test_every_window_flipped_is_refuted_with_the_windows_as_counterexample():
    # the printed ordering is slope gap < 0 and intercept gap > 0: both windows break it
    wins = [_window(12.0, 30.0, +0.05, 0.3), _window(15.0, 40.0, -0.02, -0.1)]
    v = s9.slopes_verdict(wins, 1.0, "test curves")
    assert v.status == "refuted" and v.margin < 0 and v.why.strip()
    assert v.counterexample == {"windows": [{"lo": 12.0, "hi": 30.0}, {"lo": 15.0, "hi": 40.0}], "sens_factor": 1.0}
    assert v.margin == pytest.approx(-0.05)  # the least-broken window: min(-0.05, 0.3) vs min(0.02, -0.1)


def test_mixed_windows_are_open_with_a_reason_and_all_kept_holds():
    kept, flipped = _window(12.0, 30.0, -0.03, 0.9), _window(15.0, 30.0, +0.07, 0.8)
    v = s9.slopes_verdict([kept, flipped], 1.0, "test curves")
    assert v.status == "open" and "1 of 2" in v.reason and "[15, 30]" in v.reason
    assert "slope ordering is what flips" in v.reason
    assert s9.slopes_verdict([kept], 1.0, "test curves").status == "holds"


def test_recheck_recomputes_the_fits_of_the_named_windows():
    # on the paper's curves (accountant at nu/L) [15, 30] flips the slope ordering and [12, 30] keeps it
    assert s9.recheck_slopes({"windows": [{"lo": 15.0, "hi": 30.0}], "sens_factor": 1.0}) < 0
    assert s9.recheck_slopes({"windows": [{"lo": 12.0, "hi": 30.0}], "sens_factor": 1.0}) > 0
    with pytest.raises(ledger.HypothesisFails):
        s9.recheck_slopes({"windows": [{"lo": 11.0, "hi": 30.0}], "sens_factor": 1.0})


def test_halving_the_sensitivity_shifts_only_the_accountant_intercept_by_log_2():
    one, two = s9.s9_windows(1.0), s9.s9_windows(2.0)
    for a, b in zip(one, two):
        assert a["slope_accountant"] == pytest.approx(b["slope_accountant"], abs=1e-6)
        assert b["intercept_accountant"] - a["intercept_accountant"] == pytest.approx(math.log(2), abs=1e-6)


@pytest.mark.peers
def test_printed_accountant_line_is_wbk_at_multiplier_nu_over_L_by_dp_accounting():
    """Independent oracle: dp_accounting's replace-one RDP accountant for sampling without replacement at the
    printed line's noise: taken as the multiplier it certifies about the target eps; as nu/(2L) far more."""
    from dp_accounting import dp_event
    from dp_accounting.privacy_accountant import NeighboringRelation
    from dp_accounting.rdp import rdp_privacy_accountant as rdp

    st = SETTINGS["s9c"]
    n, tau, rounds = int(st["clients"].value), st["tau"].value, int(st["rounds"].value)
    delta = n ** -1.1

    def eps(z):
        acc = rdp.RdpAccountant(orders=list(range(2, 65)), neighboring_relation=NeighboringRelation.REPLACE_ONE)
        acc.compose(dp_event.SelfComposedDpEvent(dp_event.SampledWithoutReplacementDpEvent(
            n, int(round(tau * n)), dp_event.GaussianDpEvent(z)), rounds))
        return acc.get_epsilon(delta)

    p = {k: float(FIG_S9C[k].text) for k in FIG_S9C}
    for target in (14.0, 20.0, 28.0):
        nu = math.exp(p["intercept_accountant"] + p["slope_accountant"] * math.log(target))
        assert 0.9 < eps(nu) / target < 1.1
        assert eps(nu / 2) / target > 2



def test_the_reading_does_not_depend_on_where_the_fit_is_taken_to_lie():
    by_tol = s9.reading_by_tolerance()
    assert set(by_tol) == {f"{t:g}" for t in s9.S9_ON_FIT_RANGE} and set(by_tol.values()) == {1.0}
    narrow, wide = s9.on_fit_points(min(s9.S9_ON_FIT_RANGE)), s9.on_fit_points(max(s9.S9_ON_FIT_RANGE))
    assert 0 < len(narrow) <= len(wide)


def test_equal_sensitivity_constant_is_below_the_printed_one():
    v = ledger.get("004.fig-s9c.accountant-sensitivity").evaluate()
    printed = math.exp(float(FIG_S9C["intercept_theorem"].text) - float(FIG_S9C["intercept_accountant"].text))
    lo, hi = v.evidence["ratio_at_equal_sensitivity_ours"]
    assert 1 <= lo <= hi < printed and v.margin < 0
