r"""Seed 004, the non-convex bounds at the averaged iterate: Theorem 6 (L509-L517), Theorem 3 (non-convex part,
L268-L269) and Corollary 2 (non-convex part, L530-L533) bound :math:`\mathbb E\|\nabla f(\bar w^T)\|^2_{A_\sigma^{-1}}`
with :math:`\bar w^T = \sum_t a_t w^t`, :math:`a_t = 1/(T+1)` (Algorithm 1's output, L106; Theorem 6's hypothesis,
L509). The proof (S3.4, L993-L1001: "summing the above inequality from t = 0 to t = T and taking average") bounds
:math:`\frac{1}{T+1}\sum_t \|\nabla f(w^t)\|^2_{A_\sigma^{-1}}`, the average of the squared gradients along the
path. Without convexity nothing carries that over to the gradient at the average of the path (Jensen needs
:math:`\|\nabla f(\cdot)\|^2` convex in :math:`w`).

The counterexample satisfies every hypothesis of Theorem 6: :math:`f(w) = \cos w` on :math:`\mathbb R` (d = 1;
:math:`\beta = 1`-smooth, 1-Lipschitz, bounded below), one client (N = S = 1, tau = 1), identical data (G = 0,
B = 1), exact gradients (:math:`\varsigma = 0`), K = 1, :math:`\eta_g = 1`, sigma = 0 (A = I), no privacy noise
(:math:`\nu_1 = 0`: Theorem 6 is stated for every noise level, which enters only through :math:`\tilde H_\sigma`),
and :math:`\tilde\eta = \Lambda_{\min}/(8K\beta(1+B^2)) = 1/16` (the other two arguments of Theorem 6's min are
infinite at :math:`\tilde H_\sigma = Q_2 = 0`). Started :math:`10^{-30}` from the maximum at 0, gradient descent
stays near 0 for about a thousand rounds, then runs to the minimum at :math:`\pi` and stays: the average of the
path sits near :math:`\pi/2`, where :math:`\sin^2 \approx 0.84`, while the printed bound is
:math:`8F_0/(\tilde\eta T K) = 128 F_0/T`. The path average of the squared gradients (what the proof bounds) stays
below the printed bound, which shows where the proof breaks.
"""
from __future__ import annotations

import mpmath

from theory.ledger import HypothesisFails, Reading, Verdict, claim

#: the counterexample: f(w) = cos w; start w^0 = 10^-W0_EXPONENT; step eta~ = 1/16 (Theorem 6's cap at beta = B = 1,
#: K = 1, Lambda_min = 1); rounds T scanned up to T_MAX, the worst T kept
W0_EXPONENT, T_MAX, DPS = 30, 4000, 60
CAUSE = "004-nonconvex-averaged-iterate"


def _hypotheses(beta, b, k, lam_min, eta_g, eta_tilde) -> None:
    """Theorem 6's hypotheses at the counterexample (f = cos: beta = 1, Lipschitz 1; G = varsigma = nu_1 = 0)."""
    if not (beta >= 1 and b >= 1 and k >= 1 and eta_g >= 1 and 0 < lam_min <= 1):
        raise HypothesisFails(f"beta = {beta}, B = {b}, K = {k}, eta_g = {eta_g}, Lambda_min = {lam_min}")
    cap = mpmath.mpf(lam_min) / (8 * k * beta * (1 + b * b))
    if not 0 < eta_tilde <= cap:
        raise HypothesisFails(f"eta~ = {eta_tilde} above Theorem 6's cap {cap}")


def path(w0, eta, rounds: int) -> list:
    """w^0..w^rounds of Algorithm 1 at the counterexample: w <- w + eta sin w (one client, K = 1, eta_g = 1, A = I,
    no noise). The clip radius L = eta_l K L_Lip = eta never binds (|eta sin w| <= eta)."""
    ws = [w0]
    for _ in range(rounds):
        ws.append(ws[-1] + eta * mpmath.sin(ws[-1]))
    return ws


def at_rounds(ws: list, rounds: int, eta) -> dict:
    """At T = rounds: ||grad f(w_bar)||^2, the path average of ||grad f(w^t)||^2, and Theorem 6's bound 8 F0/(eta T K)
    (G = varsigma = nu_1 = 0, so E_var = E_dp = E_hete = 0)."""
    head = ws[:rounds + 1]
    w_bar = mpmath.fsum(head) / (rounds + 1)
    f0 = mpmath.cos(ws[0]) - (-1)                       # F0 = f(w^0) - min f, min cos = -1
    return {"w_bar": w_bar, "grad_sq_at_average": mpmath.sin(w_bar) ** 2,
            "average_grad_sq": mpmath.fsum(mpmath.sin(w) ** 2 for w in head) / (rounds + 1),
            "bound": 8 * f0 / (eta * rounds), "F0": f0}


def worst_rounds() -> tuple:
    """(T, values at T) minimising the relative slack (bound - ||grad f(w_bar)||^2)/||grad f(w_bar)||^2 over T <= T_MAX."""
    with mpmath.workdps(DPS):
        eta = mpmath.mpf(1) / 16
        ws = path(mpmath.mpf(10) ** (-W0_EXPONENT), eta, T_MAX)
        best = None
        csum, gsum = mpmath.mpf(0), mpmath.mpf(0)
        f0 = mpmath.cos(ws[0]) + 1
        for t, w in enumerate(ws):
            csum, gsum = csum + w, gsum + mpmath.sin(w) ** 2
            if t == 0:
                continue
            lhs, bound = mpmath.sin(csum / (t + 1)) ** 2, 8 * f0 / (eta * t)
            slack = (bound - lhs) / lhs
            if best is None or slack < best[0]:
                best = (slack, t)
        return best[1], at_rounds(ws, best[1], eta)


def _recheck(cx: dict) -> float:
    """Margin of Theorem 6's non-convex bound at the counterexample's (w0 exponent, T), recomputed from the path."""
    with mpmath.workdps(DPS):
        eta = mpmath.mpf(cx["eta_num"]) / cx["eta_den"]
        _hypotheses(cx["beta"], cx["B"], cx["K"], cx["Lambda_min"], cx["eta_g"], eta)
        ws = path(mpmath.mpf(10) ** (-int(cx["w0_exponent"])), eta, int(cx["T"]))
        v = at_rounds(ws, int(cx["T"]), eta)
        return float((v["bound"] - v["grad_sq_at_average"]) / v["grad_sq_at_average"])


def _counterexample(t: int, v: dict) -> dict:
    return {"f": "cos(w), d = 1", "w0_exponent": W0_EXPONENT, "eta_num": 1, "eta_den": 16, "T": t, "K": 1, "beta": 1,
            "B": 1, "Lambda_min": 1, "eta_g": 1, "N": 1, "S": 1, "G": 0, "varsigma": 0, "nu_1": 0, "sigma": 0,
            "w_bar": float(v["w_bar"]), "grad_sq_at_average": float(v["grad_sq_at_average"]),
            "average_grad_sq": float(v["average_grad_sq"]), "bound": float(v["bound"])}


def _readings(t: int, v: dict) -> tuple:
    at_avg = float((v["bound"] - v["grad_sq_at_average"]) / v["grad_sq_at_average"])
    path_avg = float((v["bound"] - v["average_grad_sq"]) / v["bound"])
    return (Reading("w_bar = sum_t a_t w^t with a_t = 1/(T+1), the averaged iterate Algorithm 1 outputs",
                    "L106, L509, L1001", "refuted", at_avg,
                    f"||grad f(w_bar)||^2 = {float(v['grad_sq_at_average']):.4f} > bound {float(v['bound']):.4f}"),
            Reading("the output is a uniformly random iterate w^tau, tau ~ U{0..T} (the standard non-convex output; "
                    "then E||grad f||^2 is the path average the proof bounds)", "L993-L1001 (the proof's average)",
                    "holds" if path_avg >= 0 else "refuted", path_avg,
                    f"path average {float(v['average_grad_sq']):.4f} <= bound {float(v['bound']):.4f}"))


@claim(id="004.thm-6.averaged-iterate", seed="004", lines="L509-L517, L993-L1016",
       statement="Theorem 6 (non-convex): under Assumptions 1, 2, 5, 6, eta_g >= 1, a_t = 1/(T+1) and eta~ = min{sqrt(F0/(H~ T beta K^2)), cbrt(F0/(Q2 T K^3)), Lambda_min/(8K beta(1+B^2))}, Algorithm 1 satisfies E||grad f(w_bar^T)||^2_{A^-1} <= E_init + E_var + E_dp + E_hete with E_init = 8F0/(eta~ T K).",
       recorded="refuted", result="Theorem 6", role="conclusion", cause=CAUSE, recheck=_recheck)
def theorem6_averaged_iterate() -> Verdict:
    t, v = worst_rounds()
    cx = _counterexample(t, v)
    with mpmath.workdps(DPS):
        _hypotheses(1, 1, 1, 1, 1, mpmath.mpf(1) / 16)
    margin = _recheck(cx)
    readings = _readings(t, v)
    why = (f"f(w) = cos w satisfies Assumptions 1, 2, 5, 6 (beta = 1, Lipschitz 1, G = 0, B = 1, varsigma = 0); with "
           f"N = S = K = eta_g = 1, sigma = 0 and no noise, Theorem 6's step is eta~ = 1/16 and its bound is "
           f"8F0/(eta~ T K) = {cx['bound']:.4f} at T = {t} (F0 = {float(v['F0']):.4f}). Started 1e-{W0_EXPONENT} from "
           f"the maximum, the path lingers near 0, then settles at pi: w_bar = {cx['w_bar']:.4f} and "
           f"||grad f(w_bar)||^2 = sin^2(w_bar) = {cx['grad_sq_at_average']:.4f}, {cx['grad_sq_at_average'] / cx['bound']:.1f}x "
           f"the bound. The proof (L993-L1001) bounds the path average of ||grad f(w^t)||^2 "
           f"(= {cx['average_grad_sq']:.4f} here, below the bound) and writes it as the gradient at the averaged iterate, "
           "which needs convexity (Jensen). Read with a uniformly random output iterate, the bound holds here")
    return Verdict("refuted", "numeric", margin, why=why, readings=readings, arithmetic=("mpmath",),
                   counterexample=cx,
                   evidence={"margin_unit": "(bound - ||grad f(w_bar)||^2)/||grad f(w_bar)||^2 at the worst T",
                             "scan": f"T = 1..{T_MAX}, mpmath at {DPS} digits", "worst_T": t,
                             "survives": "as a bound on the average over t of E||grad f(w^t)||^2 (a random iterate)"})


def _averaging_step_verdict(where: str) -> Verdict:
    """The step 'path average of ||grad f(w^t)||^2 <= X, so ||grad f(w_bar)||^2 <= X' at the Theorem 6 counterexample."""
    t, v = worst_rounds()
    cx = _counterexample(t, v)
    margin = float((v["average_grad_sq"] - v["grad_sq_at_average"]) / v["grad_sq_at_average"])
    why = (f"{where} takes Theorem 6's bound on the path average of ||grad f(w^t)||^2_(A^-1) as a bound at "
           f"w_bar = sum a_t w^t; for non-convex f the two need not be related (the longer the path lingers at 0, the smaller the path average): at 004.thm-6.averaged-iterate's path "
           f"(f = cos, T = {t}) the path average is {cx['average_grad_sq']:.4f} and ||grad f(w_bar)||^2 = "
           f"{cx['grad_sq_at_average']:.4f}. The rate survives for a uniformly random output iterate, not for w_bar")
    return Verdict("refuted", "numeric", margin, why=why, arithmetic=("mpmath",), counterexample=cx,
                   evidence={"margin_unit": "(path average of ||grad f(w^t)||^2 - ||grad f(w_bar)||^2)/||grad f(w_bar)||^2",
                             "step": "E||grad f(w_bar)||^2 <= (1/(T+1)) sum_t E||grad f(w^t)||^2 (Jensen; needs convexity)"})


def _step_recheck(cx: dict) -> float:
    with mpmath.workdps(DPS):
        eta = mpmath.mpf(cx["eta_num"]) / cx["eta_den"]
        ws = path(mpmath.mpf(10) ** (-int(cx["w0_exponent"])), eta, int(cx["T"]))
        v = at_rounds(ws, int(cx["T"]), eta)
        return float((v["average_grad_sq"] - v["grad_sq_at_average"]) / v["grad_sq_at_average"])


@claim(id="004.thm-3.nonconvex-averaged-iterate", seed="004", lines="L268-L269, L519, L993-L1001",
       statement="Theorem 3 (non-convex part): its bound on ||grad f(w_bar)||^2_{A^-1} follows from Theorem 6, whose proof bounds the path average (1/(T+1)) sum_t ||grad f(w^t)||^2_{A^-1}; the step takes that as a bound at the averaged iterate w_bar.",
       recorded="refuted", result="Theorem 3", role="proof-step", cause=CAUSE, recheck=_step_recheck)
def theorem3_nonconvex_step() -> Verdict:
    return _averaging_step_verdict("Theorem 3's non-convex part (via Theorem 6, L519)")


@claim(id="004.cor-2.nonconvex-averaged-iterate", seed="004", lines="L530-L533, L1045-L1050",
       statement="Corollary 2 (non-convex part): E||grad f(w_bar^T)||^2_{A^-1} <= sqrt((varsigma^2/K + 4(1-tau)G^2 + d~_sigma) F0 beta L^2 log(1/delta))/(eps N), obtained from Theorem 6's path-average bound read at the averaged iterate w_bar.",
       recorded="refuted", result="Corollary 2", role="proof-step", cause=CAUSE, recheck=_step_recheck)
def corollary2_nonconvex_step() -> Verdict:
    return _averaging_step_verdict("Corollary 2's non-convex part (L530-L533, L1045-L1050)")


@claim(id="004.cor-2.conclusion", seed="004", lines="L521-L533, L1018-L1052",
       statement="Corollary 2: under log(1/delta) >= eps, eta_g >= sqrt(S), Theorems 4-6's conditions and Theorem 1's, with T = eps^2 N^2/(C0 L^2 S log(1/delta)), Algorithm 1 with uniform subsampling is (eps, delta)-DP and meets the strongly convex, general convex and non-convex bounds printed.",
       recorded="open", result="Corollary 2", role="conclusion")
def corollary2_conclusion() -> Verdict:
    step = corollary2_nonconvex_step().status
    reason = ("the strongly convex bound is an O~ rate; the general convex and non-convex bounds have explicit constants "
              "but rest on Theorems 5-6 with the private noise of Theorem 1 (random iterates), which the suite does not "
              "run; the DP substitution is checked (004.thm-3.dp-term), and the non-convex part's proof step from the "
              f"path average to the averaged iterate is {step} (004.cor-2.nonconvex-averaged-iterate), so the "
              "non-convex bound is unproven as stated")
    return Verdict("open", "numeric", None, reason=reason, why=reason, arithmetic=("mpmath",),
                   evidence={"steps": {"004.cor-2.nonconvex-averaged-iterate": step}})


def _gc_values(cx: dict) -> dict:
    """At the cos path: f(w_bar) - min f against Theorem 5's E_init = 2 D_sigma/(eta~ T K), D_sigma = (w^0 - pi)^2 (the
    nearest minimiser; G = varsigma = nu_1 = 0, so E_var = E_dp = E_hete = 0)."""
    with mpmath.workdps(DPS):
        eta = mpmath.mpf(cx["eta_num"]) / cx["eta_den"]
        _hypotheses(cx["beta"], cx["B"], cx["K"], cx["Lambda_min"], cx["eta_g"], eta)
        ws = path(mpmath.mpf(10) ** (-int(cx["w0_exponent"])), eta, int(cx["T"]))
        t = int(cx["T"])
        w_bar = mpmath.fsum(ws[:t + 1]) / (t + 1)
        gap = mpmath.cos(w_bar) + 1
        bound = 2 * (ws[0] - mpmath.pi) ** 2 / (eta * t)
        return {"gap": gap, "bound": bound}


def _gc_recheck(cx: dict) -> float:
    v = _gc_values(cx)
    return float((v["bound"] - v["gap"]) / v["gap"])


@claim(id="004.thm-3.gc-convexity-omitted", seed="004", lines="L264-L266, L500-L505",
       statement="Theorem 3's general convex bound is stated 'under Assumption 1, 2, 5, 6' (no Assumption 4, convexity); Theorem 5, which it restates, assumes 1, 2, 4, 5, 6.",
       recorded="refuted", result="Theorem 3", role="typo", recheck=_gc_recheck)
def theorem3_gc_convexity() -> Verdict:
    t, v = worst_rounds()
    cx = _counterexample(t, v)
    g = _gc_values(cx)
    margin = _gc_recheck(cx)
    cx.update({"f_gap_at_average": float(g["gap"]), "theorem5_bound": float(g["bound"])})
    why = (f"without convexity the bound fails: on the non-convex path of 004.thm-6.averaged-iterate (f = cos, which "
           f"satisfies Assumptions 1, 2, 5, 6) Theorem 5's bound 2 D_sigma/(eta~ T K) is {float(g['bound']):.4f} at T = {t} "
           f"(D_sigma = (w^0 - pi)^2), while f(w_bar) - min f = {float(g['gap']):.4f}. Theorem 5 (L500) and the case's "
           "name ('General-Convex') include convexity: the list at L264 omits Assumption 4, a typo")
    return Verdict("refuted", "numeric", margin, why=why, arithmetic=("mpmath",), counterexample=cx,
                   evidence={"correction": "Under Assumption 1, 2, 4, 5, 6 (as Theorem 5, L500)",
                             "margin_unit": "(Theorem 5's bound - (f(w_bar) - min f))/(f(w_bar) - min f) without convexity"})
