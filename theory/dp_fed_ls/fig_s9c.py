r"""Fig. S9(c) (004_da72e1d6878ba772.txt L1054-L1066): Theorem 1's closed-form noise against the moment accountant
[56] at T = 1000, tau = 0.05, N = 2000, and the least-squares lines its caption prints (L1066: slopes -0.80 and
-0.73, intercepts 3.31 and 2.29, "differ ... only by a small constant e^{3.31-2.29}").

Two questions, two claims:

* which accountant the printed line is: each reading of the paper's accountant (sensitivity one clip L, as autodp
  takes a noise multiplier; the replace-one sensitivity 2L of Theorem 1, L439; add/remove Poisson; another delta)
  is evaluated AT the printed line, where the printed Theorem-1 line meets our Theorem 1 (the one curve both sides
  compute alike, so the points where the paper fitted). The reading whose epsilon is the target is the paper's.
* the printed ordering of the fits (Theorem 1 steeper, higher intercept), with the paper's curves: the eps grid is
  not stated, so the fits are taken on every window of a stated range (:data:`S9_WINDOWS`) and the ordering is
  decided only where its sign is the same on all of them (issue 32).

Units: noise per unit clip nu/L, natural logs.
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Callable, Optional

import numpy as np

from theory.dp_fed_ls import closed_form as cf
from theory.dp_fed_ls import tables, wbk
from theory.dp_fed_ls.paper_values import FIG_S9C, SETTINGS
from theory.ledger import HypothesisFails, Verdict, agrees_with_printed, claim

#: Fig. S9's epsilon grid is not stated: fits on every window [lo, hi] of :data:`S9_WINDOWS` over these points; lo
#: starts just above Theorem 1's feasibility threshold (about 10.41 here)
S9_EPS_POINTS = tuple(np.geomspace(10.5, 100.0, 16))
S9_WINDOWS = {"lo": (10.5, 12.0, 15.0, 20.0), "hi": (30.0, 40.0, 60.0, 100.0)}
#: fewest grid points a window's least-squares fit uses
S9_MIN_POINTS = 4
#: a point lies where the paper fitted when the printed Theorem-1 line is within this relative distance of our
#: Theorem 1 there (a least-squares line leaves residuals of this order on a bent curve, and beyond the fitted range
#: it leaves the curve fast: Theorem 1 hits its floor). The tolerance is not the paper's: the reading is decided at
#: S9_ON_FIT and must come out the same at every tolerance of S9_ON_FIT_RANGE (else the claim is open)
S9_ON_FIT = 0.10
S9_ON_FIT_RANGE = (0.05, 0.10, 0.20)


def _setting() -> tuple:
    st = SETTINGS["s9c"]
    n = int(st["clients"].value)
    return st["tau"].value, int(st["rounds"].value), cf.delta_of(n)


def _printed() -> dict:
    """The caption's slopes and intercepts (L1066) as floats."""
    return {k: float(FIG_S9C[k].text) for k in FIG_S9C}


def printed_line(which: str, eps: float) -> float:
    """The caption's least-squares line ("theorem" or "accountant") at ``eps`` (L1066)."""
    p = _printed()
    return math.exp(p[f"intercept_{which}"] + p[f"slope_{which}"] * math.log(eps))


def theorem_noise(eps: float) -> float:
    """Theorem 1's closed-form nu/L at ``eps`` (nan where its conditions cannot be met)."""
    tau, rounds, delta = _setting()
    got = cf.closed_form_noise(eps, delta, tau, rounds, cf.UNIFORM)
    return got[0] if got else float("nan")


@dataclass(frozen=True)
class AccountantReading:
    """One reading of "the moment accountant [56]" of Fig. S9: its epsilon at a noise nu/L and, for the WBK ones,
    the sensitivity in clips the noise multiplier is taken against (nu/L = sens_factor x multiplier)."""

    name: str
    lines: str
    epsilon: Callable[[float], float]
    sens_factor: Optional[float]


def _readings() -> tuple:
    tau, rounds, delta = _setting()
    return (
        AccountantReading("WBK (autodp, Theorem 27) at noise multiplier nu/L: sensitivity one clip L, the reading "
                          "that reproduces Tables 3-6's epsilons (004.table-3.epsilon-as-printed)", "L302, L1058",
                          lambda nu: tables.uniform_epsilon_paper(tau, nu, rounds, delta), 1.0),
        AccountantReading("WBK (Theorem 9) at noise multiplier nu/(2L): replace-one moves the clipped sum by 2L, "
                          "the sensitivity of Theorem 1's proof", "L439, L1058",
                          lambda nu: wbk.epsilon_upper_fast(tau, nu / 2, rounds, delta)[0], 2.0),
        AccountantReading("Poisson-subsampled Gaussian (add/remove neighbours, TF-privacy RDP) at nu/L",
                          "L302, L1058", lambda nu: tables.poisson_epsilon_tf(tau, nu, rounds, delta), None),
    )


def on_fit_points(tolerance: float = S9_ON_FIT) -> list:
    """(eps, our Theorem 1, printed Theorem-1 line) at the points of :data:`S9_EPS_POINTS` where the two agree
    within ``tolerance``: where the paper's least-squares fit lay."""
    out = []
    for e in S9_EPS_POINTS:
        ours = theorem_noise(e)
        if not math.isnan(ours) and abs(printed_line("theorem", e) / ours - 1) <= tolerance:
            out.append((float(e), ours, printed_line("theorem", e)))
    return out


def implied_delta(eps: float, nu: float) -> float:
    """The delta at which the replace-one WBK accountant (multiplier nu/(2L)) certifies ``eps`` at noise ``nu``:
    min over integer orders 2..64 of exp(-(alpha-1)(eps - T rho(alpha))) (Lemma 1's conversion solved for delta,
    L166); above 1 no delta does."""
    tau, rounds, _ = _setting()
    return min(math.exp(min(700.0, -(a - 1) * (eps - rounds * wbk.log_moment_int_fast(tau, nu / 2, a) / (a - 1))))
               for a in range(2, 65))


@functools.lru_cache(maxsize=None)
def _reading_ratio(index: int, eps: float) -> float:
    """Reading ``index``'s epsilon at the printed accountant line at ``eps``, over ``eps`` (cached: both claims and
    every tolerance evaluate the same points)."""
    return _readings()[index].epsilon(printed_line("accountant", eps)) / eps


def reading_by_tolerance() -> dict:
    """The paper's reading (its sensitivity in clips, None for Poisson) at each tolerance of
    :data:`S9_ON_FIT_RANGE`."""
    return {f"{t:g}": accountant_readings(on_fit_points(t))["paper_reading"]["sens_factor"] for t in S9_ON_FIT_RANGE}


def accountant_readings(pts: list) -> dict:
    """Each reading's epsilon at the printed accountant line over ``pts`` (:func:`on_fit_points`), as a ratio to the
    target eps; the delta a replace-one 2L accountant would need; and the paper's reading (the smallest largest
    |log ratio|)."""
    rows = []
    for i, r in enumerate(_readings()):
        ratio = [_reading_ratio(i, e) for e, _, _ in pts]
        rows.append({"reading": r.name, "lines": r.lines, "sens_factor": r.sens_factor,
                     "eps_ratio_range": [min(ratio), max(ratio)],
                     "max_abs_log_ratio": max(abs(math.log(x)) for x in ratio)})
    deltas = [implied_delta(e, printed_line("accountant", e)) for e, _, _ in pts]
    paper = min(rows, key=lambda r: r["max_abs_log_ratio"])
    return {"points": [e for e, _, _ in pts], "readings": rows, "paper_reading": paper,
            "delta_reading": {"reading": "replace-one WBK at nu/(2L) with a delta other than 1/N^1.1 (L302)",
                              "delta_paper": _setting()[2], "implied_delta_range": [min(deltas), max(deltas)]}}


def _readings_text(acc: dict) -> str:
    parts = [f"{r['reading'].split(':')[0]}: eps {r['eps_ratio_range'][0]:.2f}-{r['eps_ratio_range'][1]:.2f} x the "
             f"target" for r in acc["readings"]]
    d = acc["delta_reading"]
    lo, hi = d["implied_delta_range"]
    need = f"no delta does (it would need {lo:.3g}-{hi:.3g} > 1)" if lo > 1 else f"it would need delta {lo:.3g}-{hi:.3g}"
    parts.append(f"replace-one 2L at another delta than the paper's 1/N^1.1 = {d['delta_paper']:.3g}: {need}")
    return "; ".join(parts)


@claim(id="004.fig-s9c.accountant-sensitivity", seed="004", lines="L1054-L1066, L439",
       statement="Fig. S9(c) compares Theorem 1 with the accountant [56] at the same neighbouring relation, so the closed form exceeds the accountant's noise by the constant e^{3.31-2.29} of the printed lines.",
       recorded="holds-with-correction", result="Fig S9", role="figure", cause=tables.CAUSE_UNIFORM_EPS)
def accountant_sensitivity() -> Verdict:
    """Decide the paper's reading from the printed accountant line (:func:`accountant_readings`); where it is not
    the sensitivity of Theorem 1 (2L), give the constant at equal sensitivity, computed from our two curves and from
    the printed lines with the accountant's rescaled."""
    pts = on_fit_points()
    acc = accountant_readings(pts)
    paper = acc["paper_reading"]
    by_tol = reading_by_tolerance()
    if len(set(by_tol.values())) > 1:
        return Verdict("open", "numeric", None, evidence={"accountant_readings": acc, "reading_by_tolerance": by_tol},
                       reason="the reading the printed accountant line matches depends on where the paper's fit is taken "
                              f"to lie: {by_tol}", arithmetic=("mpmath", "float"))
    printed_gap = float(FIG_S9C["intercept_theorem"].text) - float(FIG_S9C["intercept_accountant"].text)
    theorem_sens = cf.UNIFORM.sens_factor
    ev = {"accountant_readings": acc, "printed_constant": math.exp(printed_gap), "theorem_sensitivity_clips": theorem_sens,
          "reading_by_tolerance": by_tol, "units": "nu per unit clip, natural logs"}
    if paper["sens_factor"] == theorem_sens:
        return Verdict("holds", "numeric", math.log(paper["eps_ratio_range"][1]), evidence=ev,
                       arithmetic=("mpmath", "float"))
    if paper["sens_factor"] is None:
        return Verdict("open", "numeric", None, evidence=ev, arithmetic=("mpmath", "float"),
                       reason="the printed accountant line is closest to the Poisson reading, another mechanism: no "
                              "constant at equal sensitivity is computed for it here")
    tau, rounds, delta = _setting()
    ours = [t / wbk.calibrate_nu1(e, delta, tau, rounds, sens_factor=theorem_sens) for e, t, _ in pts]
    lines = [line / (printed_line("accountant", e) * theorem_sens / paper["sens_factor"])
             for e, _, line in pts]
    corrected = [min(ours + lines), max(ours + lines)]
    ev.update({"ratio_at_equal_sensitivity_ours": [min(ours), max(ours)],
               "ratio_at_equal_sensitivity_printed_lines": [min(lines), max(lines)],
               "margin_unit": "largest ratio at equal sensitivity over the printed constant, minus 1 (negative: the "
                              "printed constant overstates the gap)"})
    eps = acc["points"]
    why = (f"The printed accountant line is the {paper['reading'].split(':')[0]} reading: at the points where the paper "
           f"fitted (eps {eps[0]:.3g}-{eps[-1]:.3g}, where the printed Theorem-1 line is within {S9_ON_FIT:.0%} of ours; "
           f"the same reading at every tolerance {', '.join(f'{t:.0%}' for t in S9_ON_FIT_RANGE)}) "
           f"it certifies {paper['eps_ratio_range'][0]:.2f}-{paper['eps_ratio_range'][1]:.2f} x the target eps; the "
           f"other readings miss it ({_readings_text(acc)}). Theorem 1 prices replace-one at sensitivity "
           f"{theorem_sens:g}L (L439), the accountant at {paper['sens_factor']:g}L, so the figure compares two "
           f"mechanisms and the constant e^{{{printed_gap:.2f}}} = {math.exp(printed_gap):.2f} carries the factor "
           f"{theorem_sens / paper['sens_factor']:g}. Corrected: at equal sensitivity the closed form exceeds the "
           f"accountant's noise by {min(ours):.2f}-{max(ours):.2f} (our curves) or {min(lines):.2f}-{max(lines):.2f} "
           f"(the printed lines, accountant x {theorem_sens / paper['sens_factor']:g}) on that range: the bound is "
           f"tighter than the caption says. The same convention makes the uniform epsilons of Tables 3-6 optimistic "
           f"(004.table-3.uniform-certified); here it only misstates the constant")
    return Verdict("holds-with-correction", "numeric", corrected[1] / math.exp(printed_gap) - 1, evidence=ev, why=why,
                   arithmetic=("mpmath", "float"))


def _fit(e, y) -> tuple:
    slope, intercept = np.polyfit(np.log(e), np.log(y), 1)
    return float(slope), float(intercept)


def s9_windows(sens_factor: float) -> list:
    """Least-squares log-log fits of Theorem 1 and of the WBK accountant at multiplier nu/(sens_factor L) on each
    window of :data:`S9_WINDOWS` with at least :data:`S9_MIN_POINTS` feasible points."""
    tau, rounds, delta = _setting()
    pts = [(float(e), theorem_noise(e)) for e in S9_EPS_POINTS]
    pts = [(e, t, wbk.calibrate_nu1(e, delta, tau, rounds, sens_factor=sens_factor)) for e, t in pts if not math.isnan(t)]
    out = []
    for lo in S9_WINDOWS["lo"]:
        for hi in S9_WINDOWS["hi"]:
            w = [p for p in pts if lo * (1 - 1e-9) <= p[0] <= hi * (1 + 1e-9)]
            if len(w) < S9_MIN_POINTS:
                continue
            e = [p[0] for p in w]
            (st, it), (sa, ia) = _fit(e, [p[1] for p in w]), _fit(e, [p[2] for p in w])
            out.append({"lo": lo, "hi": hi, "points": len(w), "slope_theorem": st, "slope_accountant": sa,
                        "intercept_theorem": it, "intercept_accountant": ia, "slope_gap": st - sa,
                        "intercept_gap": it - ia})
    return out


def printed_sign() -> tuple:
    """Signs of the printed slope gap (theorem - accountant) and intercept gap (L1066)."""
    p = _printed()
    return (math.copysign(1, p["slope_theorem"] - p["slope_accountant"]),
            math.copysign(1, p["intercept_theorem"] - p["intercept_accountant"]))


def window_margin(w: dict) -> float:
    """The smaller of the window's slope and intercept gaps, each signed so that positive is the printed ordering."""
    s = printed_sign()
    return min(w["slope_gap"] * s[0], w["intercept_gap"] * s[1])


def recheck_slopes(cx: dict) -> float:
    """The counterexample's margin recomputed: the fits of the windows it names at its sensitivity; the largest
    window margin (negative on every window: the printed ordering fails on the whole stated range)."""
    wins = {(w["lo"], w["hi"]): w for w in s9_windows(cx["sens_factor"])}
    named = [(w["lo"], w["hi"]) for w in cx["windows"]]
    if not named or any(k not in wins for k in named):
        raise HypothesisFails("a named window has too few feasible points or is not in the stated range")
    return max(window_margin(wins[k]) for k in named)


def slopes_verdict(wins: list, sens_factor: float, reading: str) -> Verdict:
    """holds when every window keeps the printed ordering, refuted when none does (the windows are the
    counterexample), open when the sign depends on the window (the unstated grid)."""
    margins = [window_margin(w) for w in wins]
    kept = [w for w, m in zip(wins, margins) if m >= 0]
    p = _printed()
    ordering = (f"Theorem 1's slope {p['slope_theorem']:g} steeper than the accountant's {p['slope_accountant']:g}, "
                f"intercept {p['intercept_theorem']:g} above {p['intercept_accountant']:g}")
    span = f"windows [lo, hi] with lo in {S9_WINDOWS['lo']}, hi in {S9_WINDOWS['hi']}"
    ev = {"windows": wins, "accountant_reading": reading, "sens_factor": sens_factor,
          "range": {**{k: list(v) for k, v in S9_WINDOWS.items()}, "points": [float(e) for e in S9_EPS_POINTS],
                    "min_points_per_window": S9_MIN_POINTS},
          "windows_with_printed_sign": len(kept),
          "margin_unit": "the smaller of the signed slope and intercept gaps (positive: the printed ordering), the "
                         "smallest over the windows (refuted: the largest)"}
    if len(kept) == len(wins):
        return Verdict("holds", "numeric", min(margins), evidence=ev, arithmetic=("mpmath", "float"))
    if not kept:
        why = (f"On every one of the {len(wins)} {span}, the fits of the paper's own two curves ({reading}) break the "
               f"printed ordering ({ordering}): largest signed gap {max(margins):.3g}")
        return Verdict("refuted", "numeric", max(margins), evidence=ev, why=why, arithmetic=("mpmath", "float"),
                       counterexample={"windows": [{"lo": w["lo"], "hi": w["hi"]} for w in wins],
                                       "sens_factor": sens_factor})
    flips = ", ".join(f"[{w['lo']:g}, {w['hi']:g}]" for w in wins if w not in kept)
    slope_only = all(w["intercept_gap"] * printed_sign()[1] >= 0 for w in wins)
    reason = (f"the printed ordering ({ordering}) keeps its sign on {len(kept)} of {len(wins)} {span} of the paper's "
              f"own curves ({reading}) and flips on {flips}"
              + (" (the intercept ordering holds on every window; the slope ordering is what flips)" if slope_only else "")
              + ": the sign depends on the unstated eps grid (issue 32: undecided)")
    return Verdict("open", "numeric", min(margins), evidence=ev, reason=reason, arithmetic=("mpmath", "float"))


@claim(id="004.fig-s9c.slopes", seed="004", lines="L1058-L1066", recheck=recheck_slopes,
       statement="Fig. S9(c) (T = 1000, tau = 0.05, N = 2000): least-squares slopes of log nu vs log eps are -0.80 (Theorem 1) and -0.73 (accountant), intercepts 3.31 and 2.29: Theorem 1's line is steeper and above the accountant's.",
       recorded="open", result="Fig S9", role="figure")
def fig_s9c() -> Verdict:
    """The printed ordering, fitted on the paper's own curves: Theorem 1 and the accountant under the reading the
    printed line identifies (:func:`accountant_readings`; only WBK readings have a calibrator here). Beside it, the
    window closest to the printed Theorem-1 fit and whether its four numbers round to the printed ones."""
    acc = accountant_readings(on_fit_points())
    paper = acc["paper_reading"]
    if paper["sens_factor"] is None:
        return Verdict("open", "numeric", None, evidence={"accountant_readings": acc},
                       reason="the printed accountant line is closest to the Poisson reading, for which no calibrator "
                              "is wired here")
    wins = s9_windows(paper["sens_factor"])
    per = "L" if paper["sens_factor"] == 1 else f"({paper['sens_factor']:g}L)"
    v = slopes_verdict(wins, paper["sens_factor"], f"the accountant at noise multiplier nu/{per}, the printed line's "
                       "reading, calibrated by WBK Theorem 9")
    p = _printed()
    best = min(wins, key=lambda w: abs(w["slope_theorem"] - p["slope_theorem"])
               + abs(w["intercept_theorem"] - p["intercept_theorem"]))
    v.evidence.update({"accountant_readings": acc, "closest_window_to_printed_theorem_fit": best,
                       "closest_window_rounds_to_printed": {k: agrees_with_printed(best[k], FIG_S9C[k].text)
                                                            for k in FIG_S9C},
                       "theorem1_feasible_only_for_eps_above": cf.feasible_epsilon_min(
                           _setting()[2], _setting()[0], _setting()[1], cf.UNIFORM, hi=200.0),
                       "printed_constant": (f"caption ends at 'e^{{{FIG_S9C['intercept_theorem'].text}-"
                                            f"{FIG_S9C['intercept_accountant'].text}}}=' (value missing); the constant "
                                            "itself is decided in 004.fig-s9c.accountant-sensitivity")})
    if v.status == "open":
        v.reason += (f". The window closest to the printed Theorem-1 fit, [{best['lo']:g}, {best['hi']:g}], gives slopes "
                     f"{best['slope_theorem']:.2f} and {best['slope_accountant']:.2f}, intercepts "
                     f"{best['intercept_theorem']:.2f} and {best['intercept_accountant']:.2f}")
    return v
