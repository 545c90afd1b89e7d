r"""Orders and comparisons the text reads off Theorem 2 and Algorithm 1 (issue 31): contribution 1 (L28),
Remark 1 (L272), Remark 2 (L276-L290), Theorem 2's bounded-iterate hypothesis (L255), Sec. 6.2's radius remark
(L357), and the step-size explanations of Sec. 7.2 (L509, L546).

Theorem 2's printed bound (L262-L263) is

.. math:: B(T,\tau)=\frac{RG\tau}{T}+\frac{L(\Delta_b+G^2)}{2(\Delta_b+1)}\frac{(\tau+1)^2\log T}{T}
          +\frac{(4+R^2)\sqrt{\Delta_b+1}+R^2/\gamma_1}{2\sqrt T},\qquad \gamma_1^{-1}=L(\tau+1)+\sqrt{\Delta_b+1}.

Its last term holds :math:`R^2L(\tau+1)/(2\sqrt T)`, a delay term of order :math:`\tau/\sqrt T` that contribution 1
and Remark 2 drop when they read orders off the theorem (cause :data:`CAUSE_GAMMA1_TERM`). Every limit below is a
sympy limit of the printed expressions; nothing is typed in but the paper's own inputs (paper_values).
"""
from __future__ import annotations

import dataclasses
import math

import sympy

from theory.ledger import HypothesisFails, Reading, Verdict, claim
from theory.mapa.decide import status
from theory.mapa.paper_values import FIG6, FIG7, REMARKS, SETTINGS
from theory.mapa.stages import default_schedule
from theory.mapa.theorem3 import defaults, delta_s0

#: the one error behind the orders of L28, L280 and L288-L290: Theorem 2's R^2/gamma_1 term (R^2 L (tau+1)/(2 sqrt T)) dropped
CAUSE_GAMMA1_TERM = "003-theorem-2-delay-term-over-sqrt-T-dropped"

T_, R_, G_, L_, tau_, db_, sig_, b_, u_, eps_ = sympy.symbols("T R G L tau Delta_b sigma b u epsilon", positive=True)


def theorem2_bound(tau=tau_, db=db_, inv_gamma1=None):
    """Theorem 2's right side (L262-L263), symbolic; ``inv_gamma1`` defaults to step size (10) at t = 1."""
    g1 = L_ * (tau + 1) + sympy.sqrt(db + 1) if inv_gamma1 is None else inv_gamma1
    return (R_ * G_ * tau / T_ + L_ * (db + G_ ** 2) / (2 * (db + 1)) * (tau + 1) ** 2 * sympy.log(T_) / T_
            + ((4 + R_ ** 2) * sympy.sqrt(db + 1) + R_ ** 2 * g1) / (2 * sympy.sqrt(T_)))


def remark2_display(tau=tau_):
    """Remark 2's simplification without DP (L278)."""
    return R_ * G_ * tau / T_ + L_ * G_ ** 2 * (tau + 1) ** 2 * sympy.log(T_) / T_ + R_ ** 2 * sig_ / sympy.sqrt(b_ * T_)


def _delay_growth():
    """tau_max = T^(1/k) with k the printed root (L280)."""
    return T_ ** sympy.Rational(1, int(REMARKS["remark2_delay_root"].value))


_UNIT_POINT = {R_: 1, G_: 1, L_: 1, sig_: 1, b_: 1}


def _scaled_values(expr, Ts):
    """sqrt(T) * expr at the points Ts (R = G = L = sigma = b = 1, Delta_b = sigma^2/b): a bounded sequence if O(1/sqrt T)."""
    f = sympy.lambdify(T_, (sympy.sqrt(T_) * expr).subs(_UNIT_POINT).subs(db_, 1), "mpmath")
    return [float(f(t)) for t in Ts]


def recheck_growth(cx: dict) -> float:
    """(first - last)/last of sqrt(T) * (the named bound) at the counterexample's T values: < 0 when it keeps growing."""
    which = cx["bound"]
    q = _delay_growth()
    expr = theorem2_bound(tau=q, db=db_) if which == "theorem-2" else remark2_display(tau=q)
    vals = _scaled_values(expr, [float(t) for t in cx["T"]])
    if any(b <= a for a, b in zip(vals, vals[1:])):
        raise HypothesisFails("sqrt(T) times the bound does not increase along the T values")
    return (vals[0] - vals[-1]) / vals[-1]


_TS = (1e4, 1e8, 1e16, 1e32)


@claim(id="003.rem-2.tau-quarter-rate", seed="003", lines="L276-L280",
       statement="Without DP the average error of Theorem 2 is O(1/sqrt T) as long as tau_max = O(T^(1/4)); the delay penalty is asymptotically negligible (Remark 2).",
       recorded="refuted", result="Remark 2", role="conclusion", cause=CAUSE_GAMMA1_TERM, recheck=recheck_growth)
def tau_quarter_rate() -> Verdict:
    q = _delay_growth()
    thm = theorem2_bound(tau=q, db=sig_ ** 2 / b_)
    disp = remark2_display(tau=q)
    lim_thm = sympy.limit(sympy.sqrt(T_) * thm, T_, sympy.oo)
    rate_thm = sympy.limit(sympy.sqrt(T_) * thm / q, T_, sympy.oo)  # sqrt(T) B grows like T^(1/4) times this
    lim_disp = sympy.limit(sympy.sqrt(T_) * disp, T_, sympy.oo)
    rate_disp = sympy.limit(sympy.sqrt(T_) * disp / sympy.log(T_), T_, sympy.oo)
    slower = q / sympy.sqrt(sympy.log(T_))
    lim_disp_fixed = sympy.limit(sympy.sqrt(T_) * remark2_display(tau=slower), T_, sympy.oo)
    lim_thm_fixed = sympy.limit(sympy.sqrt(T_) * theorem2_bound(tau=slower, db=sig_ ** 2 / b_), T_, sympy.oo)
    thm_ok, disp_ok = lim_thm.is_finite, lim_disp.is_finite
    vals_thm = _scaled_values(theorem2_bound(tau=q, db=db_), _TS)
    vals_disp = _scaled_values(disp, _TS)
    why_thm = (f"Put tau_max = T^(1/{int(REMARKS['remark2_delay_root'].value)}) into Theorem 2's bound (L262-L263, Delta_b = "
               f"sigma^2/b): its last term carries R^2/gamma_1 = R^2 (L(tau+1) + sqrt(Delta_b+1)), so sqrt(T) times the "
               f"bound tends to {lim_thm} and grows like T^(1/4) * {rate_thm} (sympy limits): the bound is of order "
               f"T^(-1/4), not 1/sqrt T (at R = G = L = sigma = b = 1, sqrt(T) B = "
               f"{', '.join(f'{v:.3g}' for v in vals_thm)} at T = 1e4, 1e8, 1e16, 1e32). The remark's simplification (L278) "
               "drops this term.")
    why_disp = (f"Even the remark's own display (L278) is not O(1/sqrt T) at tau_max = T^(1/4): its second term is "
                f"L G^2 (T^(1/4)+1)^2 log T/T, so sqrt(T) times the display tends to {lim_disp}, growing like log T * "
                f"{rate_disp}. tau_max = O(T^(1/4)/sqrt(log T)) makes the display O(1/sqrt T) (limit {lim_disp_fixed}) but "
                f"not Theorem 2's printed bound (limit {lim_thm_fixed}); that also needs the tight form R^2/(2 gamma_T T) "
                "of the proof's telescoping term (claim 003.thm-2.eq-28), whose delay part is R^2 L (tau+1)/(2T).")
    st = status(printed_holds=bool(thm_ok))
    v = Verdict(st, "symbolic", margin=None,
                evidence={"limit_sqrtT_theorem2_bound_at_tau=T^(1/4)": str(lim_thm),
                          "growth_theorem2": f"T^(1/4) * {rate_thm}",
                          "limit_sqrtT_remark2_display_at_tau=T^(1/4)": str(lim_disp),
                          "growth_display": f"log T * {rate_disp}",
                          "correction": "tau_max = O(T^(1/4)/sqrt(log T)) and the telescoping term R^2/(2 gamma_T T)",
                          "margin_none": "an O(.) statement has no finite slack: sqrt(T) times the bound is unbounded"},
                counterexample={"bound": "theorem-2", "tau_max": "T^(1/4)", "R": 1, "G": 1, "L": 1, "sigma": 1, "b": 1,
                                "T": list(_TS), "sqrtT_times_bound": vals_thm},
                why=why_thm + " " + why_disp, arithmetic=("sympy", "mpmath"))
    readings = (Reading("'the average error of Theorem 2' is Theorem 2's printed bound", "L262-L263, L276", st, None, why_thm),
                Reading("the rate is read off Remark 2's simplified display", "L278-L280", status(printed_holds=bool(disp_ok)),
                        None, why_disp))
    return dataclasses.replace(v, readings=readings)


def recheck_contribution1(cx: dict) -> float:
    """-1 when the ratio of Theorem 2's bound to L28's order grows without bound along tau = T^(1/4) (sympy)."""
    u = sympy.Symbol("DeltaS_over_eps", positive=True)
    db = sig_ ** 2 / b_ + 2 * u ** 2
    q = _delay_growth()
    printed = (sig_ / sympy.sqrt(b_) + u) / sympy.sqrt(T_) + q ** 2 * sympy.log(T_) / T_
    lim = sympy.limit(theorem2_bound(tau=q, db=db) / printed, T_, sympy.oo)
    if lim.is_finite:
        raise HypothesisFails("the ratio stays bounded")
    return -1.0


@claim(id="003.contrib-1.order", seed="003", lines="L28",
       statement="The average error bound after T iterations is dominated by O((1/sqrt T)(sigma/sqrt b + Delta S/epsilon) + tau_max^2 log T/T) (Theorem 2).",
       recorded="refuted", result="L28", role="conclusion", cause=CAUSE_GAMMA1_TERM, recheck=recheck_contribution1)
def contribution1_order() -> Verdict:
    u = sympy.Symbol("DeltaS_over_eps", positive=True)
    db = sig_ ** 2 / b_ + 2 * u ** 2
    printed = (sig_ / sympy.sqrt(b_) + u) / sympy.sqrt(T_) + tau_ ** 2 * sympy.log(T_) / T_
    q = _delay_growth()
    ratio = (theorem2_bound(tau=q, db=db) / printed.subs(tau_, q))
    lim_delay = sympy.limit(ratio, T_, sympy.oo)
    lim_fixed = sympy.limit(theorem2_bound(tau=tau_, db=db) / printed, T_, sympy.oo)
    ok = bool(lim_delay.is_finite)
    why = (f"Theorem 2's last term holds R^2/(2 gamma_1 sqrt T) >= R^2 L (tau+1)/(2 sqrt T), a delay term of order tau/sqrt T "
           f"that neither (1/sqrt T)(sigma/sqrt b + Delta S/epsilon) nor tau^2 log T/T dominates: along tau_max = T^(1/4) the "
           f"ratio of the bound to the printed order tends to {lim_delay} (sympy; it grows like T^(1/4)/log T). With tau and "
           f"every other parameter fixed the ratio tends to {lim_fixed}, finite: the order holds in T alone, but then the "
           "tau^2 log T/T term it displays is itself negligible and the display says nothing about the delay.")
    v = Verdict(status(printed_holds=ok), "symbolic", margin=None,
                evidence={"limit_ratio_tau=T^(1/4)": str(lim_delay), "limit_ratio_tau_fixed": str(lim_fixed),
                          "margin_none": "an O(.) statement has no finite slack: the ratio is unbounded"},
                counterexample={"bound": "theorem-2 / printed order", "tau_max": "T^(1/4)", "limit": str(lim_delay)},
                why=why, arithmetic=("sympy",))
    readings = (Reading("the order holds with tau_max growing with T (the display keeps tau_max)", "L28", v.status, None, why),
                Reading("T -> infinity with tau_max and every other parameter fixed", "L28",
                        status(printed_holds=bool(lim_fixed.is_finite)), None,
                        f"the ratio tends to {lim_fixed}: holds, with the delay term absorbed in the constant"))
    return dataclasses.replace(v, readings=readings)




def recheck_rem2_46(cx: dict) -> float:
    """(first - last)/last of (tau+1)^2 * bound_(11)/bound_[46] at the counterexample's tau values: < 0 when growing."""
    T, R, L, sig, b = (float(cx[k]) for k in ("T", "R", "L", "sigma", "b"))
    vals = []
    for tau in cx["tau"]:
        ours = R * R * L * ((tau + 1) ** 2 + 1) / (2 * T)  # the proof's telescoping term with (11), tight form
        theirs = L * R * R * (tau + 1) ** 2 / T + R * sig / math.sqrt(b * T)
        vals.append((tau + 1) ** 2 * ours / theirs)
    if any(y <= x for x, y in zip(vals, vals[1:])):
        raise HypothesisFails("the scaled ratio does not grow along the tau values")
    return (vals[0] - vals[-1]) / vals[-1]


@claim(id="003.rem-2.better-than-46", seed="003", lines="L282-L290",
       statement="With step size (11) the result becomes O(RG tau_max/T + R sigma/sqrt(bT)), better than [46]'s O(L R^2 (tau_max+1)^2/T + R sigma/sqrt(bT)) by the factor (tau_max+1)^2.",
       recorded="refuted", result="Remark 2", role="remark", cause=CAUSE_GAMMA1_TERM, recheck=recheck_rem2_46)
def better_than_46() -> Verdict:
    inv_g1_11 = L_ * ((tau_ + 1) ** 2 + 1) + sympy.sqrt(db_ + 1)  # (11) at t = 1
    # the proof's telescoping term over T: printed form R^2/(2 gamma_1 sqrt T) (Theorem 2's last term), tight form
    # R^2/(2 gamma_T T) (Abel summation, claim 003.thm-2.eq-28); both hold L R^2 ((tau+1)^2+1)/2 over sqrt T or T
    tight = R_ ** 2 * (L_ * ((tau_ + 1) ** 2 + 1) + sympy.sqrt(db_ + 1) * sympy.sqrt(T_)) / (2 * T_)
    printed_form = R_ ** 2 * inv_g1_11 / (2 * sympy.sqrt(T_))
    theirs = L_ * R_ ** 2 * (tau_ + 1) ** 2 / T_ + R_ * sig_ / sympy.sqrt(b_ * T_)
    claimed = R_ * G_ * tau_ / T_ + R_ * sig_ / sympy.sqrt(b_ * T_)
    lim_tight_vs_46 = sympy.limit(tight / theirs, tau_, sympy.oo)
    lim_printed_vs_46 = sympy.limit(printed_form / theirs, tau_, sympy.oo)
    lim_vs_claimed = sympy.limit(tight / claimed, tau_, sympy.oo)
    ok = bool(lim_vs_claimed.is_finite) and lim_tight_vs_46 == 0
    taus = [1, 10, 100, 1000]
    cx = {"T": 10000, "R": 1, "L": 1, "sigma": 1, "b": 1, "tau": taus}
    why = (f"With (11), 1/gamma_1 = L((tau+1)^2 + 1) + sqrt(Delta_b + 1), and the proof keeps the telescoping term "
           f"sum (1/(2 gamma_t))(||x_t - x*||^2 - ||x_{{t+1}} - x*||^2)/T, whose tight value is R^2/(2 gamma_T T) (claim "
           f"003.thm-2.eq-28) and whose printed form is R^2/(2 gamma_1 sqrt T): both carry L R^2 ((tau+1)^2 + 1)/2, the same "
           f"(tau+1)^2 term as [46]. As tau_max grows, the tight term over [46]'s bound tends to {lim_tight_vs_46} and the "
           f"printed form over it to {lim_printed_vs_46} (sympy), not to 0 like 1/(tau+1)^2; and the term over the remark's "
           f"O(RG tau/T + R sigma/sqrt(bT)) tends to {lim_vs_claimed}. Removing log T (the step (11) does that, claim "
           "003.rem-2.eq-11) moves the delay into the telescoping term; it does not remove the factor (tau+1)^2.")
    return Verdict(status(printed_holds=ok), "symbolic", margin=None,
                   evidence={"limit_tight_over_46": str(lim_tight_vs_46), "limit_printed_form_over_46": str(lim_printed_vs_46),
                             "limit_tight_over_remark_order": str(lim_vs_claimed),
                             "margin_none": "an O(.) comparison has no finite slack: (tau+1)^2 times the ratio is unbounded"},
                   counterexample=cx, why=why, arithmetic=("sympy",))


@claim(id="003.rem-1.order", seed="003", lines="L270-L272",
       statement="To achieve epsilon-DP the error bound of AUDP has the order O(Delta S^2/epsilon^2), derived from sqrt((Delta_b+1)/T) (Remark 1).",
       recorded="holds-with-correction", result="Remark 1", role="conclusion")
def remark1_order() -> Verdict:
    k = int(REMARKS["remark1_order_power"].value)
    # Delta_b = sigma^2/b + Delta_0 with Delta_0 = c u^2, u = Delta S/epsilon (c = 2 printed, N(N+1) true: same power)
    bound = theorem2_bound(tau=tau_, db=sig_ ** 2 / b_ + 2 * u_ ** 2)
    lim_printed = sympy.limit(bound / u_ ** k, u_, sympy.oo)
    lim_one = sympy.limit(bound / u_, u_, sympy.oo)
    printed_is_order = bool(lim_printed.is_finite and lim_printed.is_positive)
    one_is_order = bool(lim_one.is_finite and lim_one.is_positive)
    why = (f"As u = Delta S/epsilon grows, Theorem 2's bound over u^{k} tends to {lim_printed} and over u to {lim_one} "
           f"(sympy): the bound grows like Delta S/epsilon, as sqrt((Delta_b+1)/T) itself does and as contribution 1 "
           f"writes (L28), not like Delta S^2/epsilon^2. Read as an upper bound only, O(Delta S^2/epsilon^2) is true but "
           f"loose by the factor Delta S/epsilon.")
    v = Verdict(status(printed_holds=printed_is_order, corrected_holds=one_is_order), "symbolic", margin=0.0,
                evidence={"limit_bound_over_u^2": str(lim_printed), "limit_bound_over_u": str(lim_one),
                          "correction": "O(Delta S/epsilon)"},
                reason="correction: the order is Delta S/epsilon (the power 1, not 2)", why=why, arithmetic=("sympy",))
    readings = (Reading("'has the order of' is the growth rate, 'derived from sqrt((Delta_b+1)/T)'", "L272", v.status, 0.0, why),
                Reading("O(.) as an upper bound only", "L272", status(printed_holds=bool(lim_printed.is_finite)), None,
                        f"bound/u^{k} tends to {lim_printed}: an upper bound, loose by Delta S/epsilon"))
    return dataclasses.replace(v, readings=readings)


@claim(id="003.sec-6-2.delta0-inverse-b", seed="003", lines="L357",
       statement="Due to Theorem 3, Delta_0 is inversely proportional to b (as sigma^2/b is), so a larger mini-batch shrinks the radius of Theorem 4's ball.",
       recorded="holds-with-correction", result="Theorem 4", role="remark")
def delta0_inverse_b() -> Verdict:
    dl = sympy.Symbol("delta", positive=True)
    ds0 = delta_s0(sig_, b_, dl, lib=sympy)  # Theorem 3's Delta S (Eq. 12 on its branch), the initial Delta S of MAPA
    delta0 = 2 * ds0 ** 2 / eps_ ** 2
    times_b = sympy.simplify(delta0 * b_)
    times_b2 = sympy.simplify(delta0 * b_ ** 2)
    inverse_b = sympy.diff(times_b, b_) == 0
    inverse_b2 = sympy.diff(times_b2, b_) == 0
    shrinks = bool(sympy.ask(sympy.Q.negative(sympy.diff(sig_ ** 2 / b_ + delta0, b_)),
                             sympy.Q.positive(sig_) & sympy.Q.positive(b_) & sympy.Q.positive(eps_)
                             & sympy.Q.positive(1 - sympy.sqrt(1 - dl))))
    why = (f"Theorem 3's Delta S = {ds0} is proportional to 1/b, so Delta_0 = 2 Delta S^2/epsilon^2 = {sympy.simplify(delta0)} "
           f"is proportional to 1/b^2 (b Delta_0 depends on b: {not inverse_b}; b^2 Delta_0 does not: {inverse_b2}); Theorem "
           f"1's Delta S = 2G/b gives the same. The conclusion stands: Delta_b decreases in b (sympy: {shrinks}), faster "
           "than the text says.")
    return Verdict(status(printed_holds=bool(inverse_b), corrected_holds=bool(inverse_b2) and shrinks), "symbolic", margin=0.0,
                   evidence={"Delta_0": str(sympy.simplify(delta0)), "b*Delta_0": str(times_b), "b^2*Delta_0": str(times_b2),
                             "d Delta_b/db < 0": shrinks, "correction": "inversely proportional to b^2"},
                   reason="correction: Delta_0 is inversely proportional to b^2", why=why, arithmetic=("sympy",))


def recheck_bounded_iterates(cx: dict) -> float:
    """Minus P(|x_2 - x*| > R) for AUDP from x_1 = x* with sigma = 0 and N = 1 Laplace noise of scale lambda."""
    lam, gamma, R = float(cx["lambda"]), float(cx["gamma_1"]), float(cx["R"])
    if not (lam > 0 and gamma > 0 and R > 0 and cx["N"] == 1):
        raise HypothesisFails("needs lambda, gamma_1, R > 0 and N = 1")
    return -math.exp(-R / (gamma * lam))


@claim(id="003.thm-2.bounded-iterates", seed="003", lines="L255, L173, L188",
       statement="Theorem 2's hypothesis ||x_t - x*|| <= R for every iterate (L255) can hold almost surely for AUDP's iterates (noise of Eq. 6, no projection).",
       recorded="refuted", result="Theorem 2", role="hypothesis", recheck=recheck_bounded_iterates)
def bounded_iterates() -> Verdict:
    r, lam, n = sympy.symbols("r lambda N", positive=True)
    # the noise norm: Gamma(N, lambda) under the vector reading, Exp(lambda) under the radial one; both have full tails
    tail_vector = sympy.uppergamma(n, r / lam) / sympy.gamma(n)
    tail_radial = sympy.exp(-r / lam)
    positive = bool(tail_radial.is_positive) and bool(sympy.uppergamma(3, r / lam).is_positive)
    cx = {"N": 1, "lambda": 1, "gamma_1": 0.1, "R": 1, "x_1": "x*", "sigma": 0}
    p = -recheck_bounded_iterates(cx)
    from theory.mapa.theorem2 import quadratic_check

    ms = quadratic_check()
    why = (f"x_2 = x_1 - gamma_1 (g + eta) with eta of Eq. (6) and no projection (L188). From x_1 = x* with sigma = 0 (g = 0), "
           f"x_2 - x* = -gamma_1 eta, and P(||eta|| > r) = {tail_radial} (radius Exp(lambda)) or {tail_vector} (vector "
           f"density: Gamma(N, lambda)) is positive for every r (sympy: {positive}). So for every R the hypothesis fails at "
           f"t = 2 with positive probability ({p:.3g} at lambda = 1, gamma_1 = 1/10, R = 1): read almost surely, no run of "
           f"AUDP meets it and Theorem 2 is vacuous. Read in mean square (E||x_t - x*||^2 <= R^2, the surrogate of claim "
           f"003.thm-2.quadratic-check) the bound is met at every scanned point ({ms.status}); the proof's (20) then needs "
           f"E[||grad f(x_t)|| ||x_t - x*||] <= RG, which G = L R gives by smoothness.")
    v = Verdict(status(printed_holds=not positive), "numeric", margin=-p,
                evidence={"tail_radial": str(tail_radial), "tail_vector": str(tail_vector), "tails_positive_for_every_r": positive,
                          "margin_unit": "absolute: minus the probability that ||x_2 - x*|| > R at the counterexample"},
                counterexample=cx, why=why, arithmetic=("sympy", "float"))
    readings = (Reading("||x_t - x*|| <= R almost surely (as written, no expectation)", "L255", v.status, v.margin, why),
                Reading("E||x_t - x*||^2 <= R^2 (mean square)", "L255, L701-L704",
                        status(printed_holds=False, corrected_holds=ms.status == "holds"), 0.0,
                        "satisfiable; the proof's (20) goes through in expectation with G = L R (holds-with-correction: "
                        "the theorem does not say so)"))
    return dataclasses.replace(v, readings=readings)


def _gammas_by_stage(K: int, n_stages: int):
    return [st.gamma for st in default_schedule(n_stages=n_stages, tau=K, eps0=FIG7["epsilon"].value)]


def recheck_linear_lr(cx: dict) -> float:
    """(ratio - predicted)/predicted of MAPA's step at K_small over K_large at one stage (Table II, L560 defaults)."""
    ks, kl, s = int(cx["K_small"]), int(cx["K_large"]), int(cx["stage"])
    g_small, g_large = _gammas_by_stage(ks, s + 1)[s], _gammas_by_stage(kl, s + 1)[s]
    predicted = (kl + 1) / (ks + 1)
    return (g_small / g_large - predicted) / predicted


@claim(id="003.sec-7-2-3.mapa-lr-linear-in-k", seed="003", lines="L546, L469-L470, L449",
       statement="MAPA uses a learning rate decaying linearly in K (i.e. tau_max), ASGD one decaying quadratically (explanation of Fig. 7 at K = 100 and 1000).",
       recorded="refuted", result="Fig 7", role="remark", recheck=recheck_linear_lr)
def lr_linear_in_k() -> Verdict:
    p_raw = 8 * db_ / ((tau_ + 1) * b_ ** 2 * sympy.Symbol("DeltaS_s", positive=True) ** 2 * sympy.Symbol("theta", positive=True) ** 2)
    gamma_unclamped = 1 / (2 * p_raw * L_ * (tau_ + 1))
    free_of_tau = sympy.diff(gamma_unclamped, tau_) == 0
    edges = [int(k.value) for k in FIG7["edges"]]
    n_stages = 12
    table = {k: _gammas_by_stage(k, n_stages) for k in edges}
    rows, worst_by_pair = [], {}
    for small, large in zip(edges, edges[1:]):
        predicted = (large + 1) / (small + 1)
        for s in range(n_stages):
            ratio = table[small][s] / table[large][s]
            m = (ratio - predicted) / predicted
            rows.append({"K": [small, large], "stage": s, "gamma_ratio": ratio, "linear_prediction": predicted})
            if (small, large) not in worst_by_pair or m < worst_by_pair[(small, large)][0]:
                worst_by_pair[(small, large)] = (m, s, ratio, predicted)
    (small, large), (m, s, ratio, predicted) = min(worst_by_pair.items(), key=lambda kv: kv[1][0])
    ok = m >= -1e-9
    cx = {"K_small": small, "K_large": large, "stage": s, "gamma_ratio": ratio, "linear_prediction": predicted}
    clamped = {k: [st.index for st in default_schedule(n_stages=n_stages, tau=k, eps0=FIG7["epsilon"].value) if st.clamped]
               for k in edges}
    pairs = "; ".join(f"K = {a} over K = {c}: {r:.3g} at stage {st}, {table[a][0] / table[c][0]:.3g} at stage 0 "
                      f"(linear: {pr:.3g})" for (a, c), (_, st, r, pr) in worst_by_pair.items())
    why = (f"Table II sets gamma = 1/(2PL(tau+1)) with P = max(8 Delta_b/((tau+1) b^2 Delta S_s^2 theta^2), 1). While P is not "
           f"clamped, gamma = {sympy.simplify(gamma_unclamped)}, free of tau (sympy: {free_of_tau}): the delay cancels. P grows "
           f"as Delta S_s shrinks, so later stages are unclamped even at large K. At the L560 defaults with epsilon = "
           f"{FIG7['epsilon'].text} (L540) and tau = K (L449), the smallest ratio of MAPA's step at the smaller K to the one "
           f"at the larger K over stages 0-{n_stages - 1} is: {pairs}. A linear decay in K holds only in the stages where "
           f"P is clamped at 1 (stages {', '.join(f'{ss} at K = {k}' for k, ss in clamped.items())}); ASGD's step decays "
           "like 1/(tau+1)^2 at every t. Which stages the Fig. 7 runs reach depends on f(x_1) - f* and the thresholds, "
           "which the paper does not state.")
    return Verdict(status(printed_holds=ok), "numeric", margin=m,
                   evidence={"gamma_free_of_tau_when_unclamped": bool(free_of_tau), "rows": rows,
                             "parameters": "testbed defaults (L560) stand in for the simulation's unstated sigma, L, delta",
                             "margin_unit": "relative: (actual ratio - linear prediction)/linear prediction, smallest over stages and K pairs"},
                   counterexample=cx, why=why, arithmetic=("sympy", "float"))


def recheck_lr_vs_asgd(cx: dict) -> float:
    """(gamma_MAPA - gamma_ASGD)/gamma_ASGD at t = 1 for the counterexample's R (Table II)."""
    R = float(cx["R"])
    if R <= 0:
        raise HypothesisFails("R > 0")
    L, tau, sigma, b = float(cx["L"]), int(cx["tau"]), float(cx["sigma"]), float(cx["b"])
    g_mapa = default_schedule(n_stages=1, tau=tau, eps0=float(cx["epsilon"]))[0].gamma
    g_asgd = 1 / (L * (tau + 1) ** 2 + math.sqrt(2) * sigma / (R * math.sqrt(b)))
    return (g_mapa - g_asgd) / g_asgd


@claim(id="003.sec-7-2-2.mapa-lr-larger-than-asgd", seed="003", lines="L509, L469-L474, L463",
       statement="MAPA has a larger learning rate than ASGD at the beginning phase (the reason given for MAPA's LR accuracy in Fig. 6).",
       recorded="refuted", result="Fig 6", role="remark", recheck=recheck_lr_vs_asgd)
def lr_vs_asgd() -> Verdict:
    eps, b, sigma, _ = defaults()
    L = SETTINGS["default_L"].value
    tau = int(SETTINGS["edges_default"].value)  # K = 5 (L463), tau_max = K (L449)
    st = default_schedule(n_stages=1, tau=tau, eps0=eps)[0]
    asgd_floor = 1 / (L * (tau + 1) ** 2)  # ASGD's gamma_1 for every R: at most 1/(L(tau+1)^2)
    # MAPA's step is below ASGD's once sqrt(2) sigma/(R sqrt b) < 1/gamma_MAPA - L(tau+1)^2
    gap = 1 / st.gamma - L * (tau + 1) ** 2
    r_min = math.sqrt(2) * sigma / (math.sqrt(b) * gap) if gap > 0 else float("inf")
    cx = {"R": 1.0, "L": L, "tau": tau, "sigma": sigma, "b": b, "epsilon": eps}
    m = recheck_lr_vs_asgd(cx)
    eps_hi = FIG6["epsilon_high"].value  # Fig. 6's upper end (L503)
    st_hi = default_schedule(n_stages=1, tau=tau, eps0=eps_hi)[0]
    why = (f"Table II: MAPA's first step is 1/(2PL(tau+1)) = {st.gamma:.4g} (P = {st.p:.4g} at epsilon = {eps:g}, sigma = "
           f"{sigma:g}, b = {b}, L = {L:g}, tau = K = {tau}), ASGD's gamma_1 = 1/(L(tau+1)^2 + sqrt(2) sigma/(R sqrt b)) <= "
           f"{asgd_floor:.4g} for every R. So at epsilon = {eps:g} MAPA's step is the smaller one for every R > {r_min:.3g} "
           f"(R = 1: relative difference {m:.3f}). At epsilon = {eps_hi:g} P is clamped at {st_hi.p:g} and MAPA's step "
           f"{st_hi.gamma:.4g} is the larger one: the explanation holds only at the larger budgets of Fig. 6.")
    return Verdict(status(printed_holds=m > 0), "numeric", margin=m,
                   evidence={"gamma_mapa": st.gamma, "gamma_asgd_upper": asgd_floor, "R_threshold": r_min,
                             "gamma_mapa_at_eps_0.5": st_hi.gamma,
                             "parameters": "testbed defaults (L560) stand in for the simulation's unstated sigma, L; R is not stated",
                             "margin_unit": "relative: (gamma_MAPA - gamma_ASGD)/gamma_ASGD at t = 1, R = 1"},
                   counterexample=cx, why=why, arithmetic=("float",))


def _stage_gammas(theta: float, n_stages: int = 10):
    """Algorithm 1's step per stage at the L560 defaults (tau = K = 5, L463) with reduction ratio theta."""
    from repro.edge_fl import stage_schedule

    eps, b, sigma, dl = defaults()
    return [st.gamma for st in stage_schedule(delta_s0_value=float(delta_s0(sigma, b, dl)), sigma=sigma, b=b, eps0=eps,
                                              L=SETTINGS["default_L"].value, tau=int(SETTINGS["edges_default"].value),
                                              theta=theta, f_gap=1.0, n_stages=n_stages)]


def recheck_reduction_ratio(cx: dict) -> float:
    """(gamma at the larger theta - gamma at the smaller)/gamma at the smaller, stage by stage, smallest: the claim
    says a larger ratio makes the step smaller, so a positive value refutes it; returns minus that."""
    lo, hi = float(cx["theta_small"]), float(cx["theta_large"])
    if not (0 < lo < hi < 1):
        raise HypothesisFails("needs 0 < theta_small < theta_large < 1")
    g_lo, g_hi = _stage_gammas(lo), _stage_gammas(hi)
    return -min((h - l) / l for l, h in zip(g_lo, g_hi))


@claim(id="003.sec-7-3-2.reduction-ratio-lr", seed="003", lines="L562, L375, L560, L585",
       statement="A larger reduction ratio gives lower accuracy because the learning rate is adjusted too small to achieve it (according to Theorem 4) (Fig. 9(f) explanation).",
       recorded="refuted", result="Fig 9", role="remark", recheck=recheck_reduction_ratio)
def reduction_ratio_lr() -> Verdict:
    th = sympy.Symbol("theta", positive=True)
    ds = sympy.Symbol("DeltaS_s", positive=True)
    gamma_unclamped = 1 / (2 * (8 * db_ / ((tau_ + 1) * b_ ** 2 * ds ** 2 * th ** 2)) * L_ * (tau_ + 1))
    d_theta = sympy.simplify(sympy.diff(gamma_unclamped, th))
    increasing = bool(sympy.ask(sympy.Q.positive(d_theta), sympy.Q.positive(th) & sympy.Q.positive(ds)
                                & sympy.Q.positive(db_) & sympy.Q.positive(b_) & sympy.Q.positive(L_)))
    theta0 = SETTINGS["theta"].value
    lo, hi = theta0, (1 + theta0) / 2  # the default and a larger ratio halfway to 1
    cx = {"theta_small": lo, "theta_large": hi}
    g_lo, g_hi = _stage_gammas(lo), _stage_gammas(hi)
    m = -recheck_reduction_ratio(cx)  # smallest relative increase of the step from theta_small to theta_large
    cx.update({"gamma_theta_small": g_lo, "gamma_theta_large": g_hi})
    why_theta = (f"Fig. 9's panels follow L560's parameter list, so Fig. 9(f)'s 'reduction ratio' is theta (Delta S <- theta "
                 f"Delta S, L375, L426). Table II's step is gamma = 1/(2PL(tau+1)) with P = max(8 Delta_b/((tau+1) b^2 Delta S_s^2 "
                 f"theta^2), 1); unclamped, gamma = {sympy.simplify(gamma_unclamped)}, increasing in theta (sympy: {increasing}), "
                 f"and Delta S_s = theta^s Delta S_0 is larger too. At the L560 defaults the step at theta = {hi:g} is larger "
                 f"than at theta = {lo:g} at every stage (smallest relative increase {m:.3g}): a larger ratio gives a LARGER "
                 "step, the opposite of the explanation. What a larger theta does cost is more stages to reach a given "
                 "Delta S (theta^s shrinks slower).")
    v = Verdict(status(printed_holds=m < 0), "numeric", margin=-m,
                evidence={"d gamma/d theta (unclamped)": str(d_theta), "increasing_in_theta": increasing,
                          "margin_unit": "relative: minus the smallest stage-wise (gamma(theta_large) - gamma(theta_small))/gamma(theta_small)"},
                counterexample=cx, why=why_theta, arithmetic=("sympy", "float"))
    readings = (Reading("'reduction ratio' is theta (the factor Delta S is multiplied by)", "L375, L426, L560, L585",
                        v.status, v.margin, why_theta),
                Reading("'reduction ratio' is 1 - theta (the fraction Delta S loses per stage)", "L562",
                        status(printed_holds=m > 0), m,
                        "a larger 1 - theta is a smaller theta, whose P is larger and step smaller: the explanation holds"))
    return dataclasses.replace(v, readings=readings)
