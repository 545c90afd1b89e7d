r"""Theorem 4 (L343-L355) and its proof (A.3, L803-L915): AUDP with a constant step converges to a ball.

Statement: if :math:`\gamma^{-1}\ge2L(\tau_{max}+1)` (13), then
:math:`\frac1T\sum_{t=1}^T\mathbb E\lVert\nabla f(x_t)\rVert^2\le\frac{2(f(x_1)-f^*)}{T\gamma}+2\Delta_bL\gamma` (14), with
:math:`\Delta_b=\sigma^2/b+2\Delta S^2/\varepsilon^2` (Table I L123-L124, L811).

* proof algebra (sympy): with :math:`\gamma=1/(2L(\tau+1))` the dropped coefficient is
  :math:`-(\tau^2+3\tau+1)/(8L(\tau+1)^3)<0`, negative for every smaller gamma too, and
  :math:`2L^2\gamma^3\tau\le L\gamma^2`;
* L864 justifies (31) by ":math:`\lVert a\rVert^2\le\lVert a-b\rVert^2+\lVert b\rVert^2`" (false); (31) uses the true
  :math:`\lVert a\rVert^2\le2\lVert a-b\rVert^2+2\lVert b\rVert^2`;
* the bound itself, for the noise of Eq. (6) whose true second moment is :math:`N(N+1)\lambda^2`
  (claim 003.eq-6.second-moment): on :math:`f(x)=\frac L2\lVert x\rVert^2` with cyclic delay tau the
  iteration is linear, so :math:`\mathbb E\lVert\nabla f(x_t)\rVert^2` follows EXACTLY (rational arithmetic) from a
  covariance recursion. With the printed Delta_b the bound fails; with the true one it holds.

The quadratic's gradient is unbounded on R^N, so Assumption 1's G-bound (Eq. 2) fails globally; the
proof of Theorem 4 (A.3) never uses G. :func:`huber_monte_carlo` repeats the check with a convex,
1-smooth Huber loss whose gradient IS bounded (a sampled confirmation, in the tests).
"""
from __future__ import annotations

import dataclasses
from fractions import Fraction

import numpy as np
import sympy

from numerics.errors import InvalidParameter
from theory.ledger import Reading, Verdict, claim
from theory.mapa import CAUSE_LAPLACE_1D
from theory.mapa.decide import status

L_, tau, g_ = sympy.symbols("L tau gamma", positive=True)


def dropped_coefficient(gamma=None):
    r""":math:`\gamma^2(L/2+L^2\tau\sum_{\rho=1}^{\tau}\gamma)-\gamma/2` for a constant step (L901)."""
    gamma = g_ if gamma is None else gamma
    return gamma ** 2 * (L_ / 2 + L_ ** 2 * tau * tau * gamma) - gamma / 2


def expected_grad_norms(*, dim: int, delay: int, L: Fraction, gamma: Fraction, noise_second_moment: Fraction,
                        steps: int) -> list:
    r"""Exact :math:`\mathbb E\lVert\nabla f(x_t)\rVert^2`, t = 1..steps, for :math:`f=\frac L2\lVert x\rVert^2`, :math:`x_1=0`,
    :math:`x_{t+1}=x_t-\gamma(\nabla f(x_{t-\tau})+\eta_t)` with cyclic delay ``delay`` (iterates before t = 1 are x_1).

    The noise is isotropic with :math:`\mathbb E\lVert\eta\rVert^2` = ``noise_second_moment`` (true of the K-norm and
    Gaussian noises); every coordinate evolves independently, so one (tau+1)x(tau+1) covariance suffices.
    """
    if dim < 1 or delay < 0 or steps < 1:
        raise InvalidParameter(f"need dim >= 1, delay >= 0, steps >= 1; got {dim!r}, {delay!r}, {steps!r}")
    k = delay + 1
    v = Fraction(noise_second_moment) / dim
    cov = [[Fraction(0)] * k for _ in range(k)]  # state (x_t, x_{t-1}, ..., x_{t-tau}); x_1 = 0 exactly
    out = []
    for _ in range(steps):
        out.append(L * L * dim * cov[0][0])
        a = [[Fraction(0)] * k for _ in range(k)]  # transition matrix
        a[0][0] += 1
        a[0][k - 1] -= gamma * L
        for i in range(1, k):
            a[i][i - 1] = Fraction(1)
        ac = [[sum((a[i][m] * cov[m][j] for m in range(k)), Fraction(0)) for j in range(k)] for i in range(k)]
        cov = [[sum((ac[i][m] * a[j][m] for m in range(k)), Fraction(0)) for j in range(k)] for i in range(k)]
        cov[0][0] += gamma * gamma * v
    return out


def theorem4_rhs(*, f_gap, T, gamma, delta_b, L):
    """Right-hand side of (14)."""
    return 2 * f_gap / (T * gamma) + 2 * delta_b * L * gamma


#: the exact counterexample point: N = 10, tau = 4 (K = 5 edges), L = 1, gamma = 1/(2L(tau+1)), lambda = 1, sigma = 0.
POINT = {"dim": 10, "delay": 4, "L": Fraction(1), "lambda": Fraction(1), "steps": 200}


def exact_check(point=POINT):
    """(average E||grad f||^2, bound with the printed Delta_b, bound with the true Delta_b) at ``point``."""
    n, L, lam = point["dim"], point["L"], point["lambda"]
    gamma = 1 / (2 * L * (point["delay"] + 1))
    true_m2 = n * (n + 1) * lam ** 2
    vals = expected_grad_norms(dim=n, delay=point["delay"], L=L, gamma=gamma, noise_second_moment=true_m2,
                               steps=point["steps"])
    avg = sum(vals, Fraction(0)) / len(vals)
    printed = theorem4_rhs(f_gap=0, T=point["steps"], gamma=gamma, delta_b=2 * lam ** 2, L=L)
    true = theorem4_rhs(f_gap=0, T=point["steps"], gamma=gamma, delta_b=true_m2, L=L)
    return avg, printed, true, gamma


def huber_monte_carlo(*, dim=10, delay=4, steps=200, reps=400, lam=1.0, huber=50.0, seed=0):
    r"""Monte Carlo of the left side of (14) for :math:`f(x)=\sum_i\mathrm{huber}_h(x_i)` (convex, 1-smooth,
    :math:`\lVert\nabla f\rVert\le h\sqrt N`) under K-norm noise of scale ``lam``; returns (mean, standard error)."""
    from repro.edge_noise import sample_k_norm

    rng = np.random.default_rng(seed)
    gamma = 1.0 / (2.0 * (delay + 1))
    hist = np.zeros((delay + 1, reps, dim))  # ring buffer of past iterates, x_1 = 0
    acc = np.zeros(reps)
    x = np.zeros((reps, dim))
    for t in range(steps):
        stale = hist[(t - delay) % (delay + 1)] if t >= delay else hist[0] * 0.0
        acc += np.sum(np.clip(x, -huber, huber) ** 2, axis=1)
        hist[t % (delay + 1)] = x
        eta = sample_k_norm(rng, dim, lam, reps)
        x = x - gamma * (np.clip(stale, -huber, huber) + eta)
    avg = acc / steps
    return float(avg.mean()), float(avg.std(ddof=1) / np.sqrt(reps))


def impulse_coefficients(*, delay: int, L: Fraction, gamma: Fraction, steps: int) -> list:
    r"""``c[t-1]`` = {s: c_{t,s}}: :math:`x_t=\sum_{s<t}c_{t,s}\eta_s` for :math:`f=\frac L2\lVert x\rVert^2`, :math:`x_1=0`,
    :math:`x_{t+1}=x_t-\gamma(L x_{t-\tau}+\eta_t)` (iterates before t = 1 are x_1), t = 1..steps (exact)."""
    c = [{}]
    for t in range(1, steps):
        new = dict(c[t - 1])
        for s, v in c[max(t - delay, 1) - 1].items():
            new[s] = new.get(s, Fraction(0)) - gamma * L * v
        new[t] = new.get(t, Fraction(0)) - gamma
        c.append(new)
    return c


def _ceil_sqrt(n: int) -> int:
    import math

    r = math.isqrt(n)
    return r if r * r == n else r + 1


def huber_lower_bound(point=POINT, huber: int = 100) -> dict:
    r"""An exact lower bound on :math:`\frac1T\sum_t\mathbb E\lVert\nabla f(x_t)\rVert^2` for the Huber loss
    :math:`f(x)=\sum_i\mathrm{huber}_h(x_i)` (convex, 1-smooth, :math:`\lVert\nabla F\rVert\le G=h\sqrt N`: Assumption 1 holds)
    under AUDP with cyclic delay and K-norm noise of scale lambda, at ``point`` (L = 1, x_1 = x* = 0, sigma = 0).

    Coupling: on the event A that every quadratic iterate :math:`x_1..x_T` stays in the box :math:`\lVert x\rVert_\infty\le h`, the
    Huber and quadratic runs coincide (same noise), so :math:`\mathrm{LHS}_H\ge\mathbb E X-\sqrt{\mathbb E X^2}\sqrt{P(A^c)}` with X
    the quadratic run's average. :math:`\lVert x_t\rVert\le Y_t=\sum_s|c_{t,s}|r_s`, :math:`r_s\sim\Gamma(N,\lambda)`:
    Chernoff at :math:`\theta=1/(2\lambda\max|c|)` with :math:`-\log(1-u)\le u/(1-u)` gives
    :math:`P(Y_t>h)\le e^{E}`, :math:`E=2N\theta\lambda C-\theta h` (:math:`C=\max_t\sum_s|c_{t,s}|`), and :math:`e^{E}<2^{\lceil 10E/7\rceil}`
    (ln 2 < 7/10, E < 0); Jensen gives :math:`\mathbb E X^2\le C^4\,\mathbb E r^4`, :math:`\mathbb E r^4=N(N+1)(N+2)(N+3)\lambda^4`.
    Every step is rational arithmetic; square roots are rounded up.
    """
    import math

    n, L, lam, T = point["dim"], point["L"], point["lambda"], point["steps"]
    if L != 1 or lam != 1:
        raise InvalidParameter("the Huber bound is written for L = 1, lambda = 1")
    gamma = 1 / (2 * L * (point["delay"] + 1))
    avg = exact_check(point)[0]
    c = impulse_coefficients(delay=point["delay"], L=L, gamma=gamma, steps=T)
    c_sum = max(sum((abs(v) for v in ct.values()), Fraction(0)) for ct in c)
    c_max = max(abs(v) for ct in c for v in ct.values())
    theta = 1 / (2 * c_max)
    exponent = 2 * n * theta * c_sum - theta * huber  # theta c_max = 1/2: u/(1-u) <= 2u
    if exponent >= 0:
        raise InvalidParameter(f"Huber threshold {huber} too small for the Chernoff bound")
    k = math.ceil(exponent * Fraction(10, 7))
    sqrt_p_exit = Fraction(_ceil_sqrt(T)) * Fraction(2) ** math.ceil(Fraction(k, 2))  # sqrt(T 2^k), rounded up
    sqrt_ex2 = c_sum ** 2 * _ceil_sqrt(n * (n + 1) * (n + 2) * (n + 3))
    lower = avg - sqrt_ex2 * sqrt_p_exit
    return {"huber_threshold": huber, "G": f"{huber} sqrt({n})", "quadratic_average": avg, "sum_abs_coeff_max": c_sum,
            "coeff_max": c_max, "chernoff_exponent": exponent, "exit_probability_at_most_T_2^k_with_k": k,
            "correction": sqrt_ex2 * sqrt_p_exit, "lower_bound": lower}


def recheck_bound_printed(cx: dict) -> float:
    """(printed - lhs)/printed of (14) from cx: the hypotheses (step condition (13), Huber threshold large enough for
    the coupling bound, x_1 = x*) and the left side by a float covariance recursion of the quadratic run (numpy)."""
    from theory.ledger import HypothesisFails

    n, tau, L, T = int(cx["N"]), int(cx["tau"]), float(cx["L"]), int(cx["T"])
    gamma, lam, h = float(Fraction(cx["gamma"])), float(cx["lambda=DeltaS/eps"]), float(cx["huber_h"])
    if not gamma <= 1 / (2 * L * (tau + 1)) * (1 + 1e-12):
        raise HypothesisFails("the step violates (13)")
    if h < 100 or cx["x_1 = x*"] != 0 or float(cx["sigma"]) != 0:
        raise HypothesisFails("the coupling bound is written for h >= 100, x_1 = x* = 0, sigma = 0")
    k = tau + 1
    a = np.eye(k, k, -1)
    a[0, 0], a[0, k - 1] = 1.0, a[0, k - 1] - gamma * L
    cov, total = np.zeros((k, k)), 0.0
    for _ in range(T):
        total += L * L * n * cov[0, 0]
        cov = a @ cov @ a.T
        cov[0, 0] += gamma * gamma * (n + 1) * lam ** 2  # per-coordinate variance of the K-norm noise
    printed = 2 * (2 * lam ** 2) * L * gamma  # 2 Delta_b L gamma, Delta_b = 2 lambda^2 (sigma = 0), f(x_1) = f*
    return (printed - total / T) / printed


# --- claims ---------------------------------------------------------------------------------------

@claim(id="003.thm-4.proof-coefficients", seed="003", lines="L896-L914",
       statement="With gamma = 1/(2L(tau_max+1)) the coefficient gamma^2(L/2 + L^2 tau sum gamma) - gamma/2 is negative and 2L^2 gamma^3 tau <= L gamma^2.",
       recorded="holds", result="Theorem 4", role="proof-step")
def proof_coefficients() -> Verdict:
    g0 = 1 / (2 * L_ * (tau + 1))
    coeff = sympy.factor(sympy.simplify(dropped_coefficient(g0)))
    closed = -(tau ** 2 + 3 * tau + 1) / (8 * L_ * (tau + 1) ** 3)
    same = sympy.simplify(coeff - closed) == 0
    # for any 0 < gamma <= g0: coefficient = gamma * (increasing function of gamma) and is < 0 at g0
    inner = sympy.simplify(dropped_coefficient() / g_)
    increasing = sympy.simplify(sympy.diff(inner, g_))
    ratio = sympy.simplify((2 * L_ ** 2 * g0 ** 3 * tau) / (L_ * g0 ** 2))
    final = sympy.simplify((2 * sympy.Symbol("D") + sympy.Symbol("Db") * sympy.Symbol("T") * 2 * L_ * g_ ** 2) / (sympy.Symbol("T") * g_)
                           - (2 * sympy.Symbol("D") / (sympy.Symbol("T") * g_) + 2 * sympy.Symbol("Db") * L_ * g_))
    return Verdict("holds" if same and ratio == tau / (tau + 1) and final == 0 else "open", "symbolic", margin=0.0,
                   evidence={"coefficient_at_gamma0": str(coeff), "equals": str(closed), "identity": bool(same),
                             "d(coefficient/gamma)/dgamma": str(increasing), "2L^2g^3tau/(Lg^2)": str(ratio),
                             "last_step_(14)_identity": bool(final == 0)},
                   arithmetic=("sympy",))


@claim(id="003.thm-4.eq-31-justification", seed="003", lines="L861-L864",
       statement="Eq. (31) follows from ||a||^2 = ||a-b+b||^2 <= ||a-b||^2 + ||b||^2.",
       recorded="holds-with-correction", result="Theorem 4", role="typo")
def eq31_justification() -> Verdict:
    a, b = sympy.symbols("a b", real=True)  # one coordinate suffices for the identity
    gap = sympy.expand(2 * (a - b) ** 2 + 2 * b ** 2 - a ** 2 - (a - 2 * b) ** 2)
    a0, b0 = 2, 1  # one coordinate: the printed inequality at a = 2, b = 1
    lhs, rhs = a0 ** 2, (a0 - b0) ** 2 + b0 ** 2
    return Verdict(status(printed_holds=lhs <= rhs, corrected_holds=gap == 0), "symbolic", margin=0.0,
                   evidence={"printed_inequality_fails_at": {"a": a0, "b": b0, "||a||^2": lhs, "||a-b||^2+||b||^2": rhs},
                             "true_inequality": "||a||^2 <= 2||a-b||^2 + 2||b||^2 since the gap is ||a-2b||^2",
                             "gap_identity_holds": bool(gap == 0)},
                   reason="correction: the justification needs the factor 2 that (31) does use; (31) itself is right.",
                   why=(f"The stated ||a||^2 <= ||a-b||^2 + ||b||^2 fails (a = {a0}, b = {b0}: {lhs} > {rhs}); the true "
                        "||a||^2 <= 2||a-b||^2 + 2||b||^2 holds since the gap is ||a - 2b||^2 (sympy identity: "
                        f"{bool(gap == 0)}), and it is the inequality (31) actually uses: a slip in the justification, no "
                        "change to the proof."),
                   arithmetic=("sympy",))


@claim(id="003.thm-4.bound-printed-variance", seed="003", lines="L343-L352, L811, L123-L124",
       statement="For AUDP with the noise of Eq. (6), (1/T) sum E||grad f(x_t)||^2 <= 2(f(x_1)-f*)/(T gamma) + 2 Delta_b L gamma with Delta_b = sigma^2/b + 2 Delta S^2/epsilon^2 (Theorem 4).",
       recorded="refuted", result="Theorem 4", role="conclusion", cause=CAUSE_LAPLACE_1D,
       recheck=recheck_bound_printed)
def bound_printed_variance() -> Verdict:
    from theory.mapa.noise import RADIAL_LINES, RADIAL_READING, VECTOR_LINES, VECTOR_READING

    avg, printed, true, gamma = exact_check()
    hub = huber_lower_bound()
    lower = hub["lower_bound"]
    p = POINT
    # the left side is linear in the noise variance per step (x_1 = x*): c * variance, c = avg / (N(N+1) lambda^2)
    per_unit = avg / (p["dim"] * (p["dim"] + 1) * p["lambda"] ** 2)
    smallest_n = next(n for n in range(1, p["dim"] + 1) if per_unit * n * (n + 1) * p["lambda"] ** 2 > printed)
    # sampling noise sigma^2/b adds c sigma^2/b to the left and 2 L gamma sigma^2/b to the right (c < 2 L gamma)
    sigma2_b_max = (avg - printed) / (2 * p["L"] * gamma - per_unit)
    v = Verdict(status(printed_holds=lower <= printed), "exact", margin=float((printed - lower) / printed),
                evidence={"method": ("exact covariance recursion in rational arithmetic (f = L/2 ||x||^2, x_1 = x* = 0, sigma = 0), "
                                     "then an exact lower bound for the Huber loss that meets Assumption 1 (huber_lower_bound)"),
                          "average_E||grad f||^2_quadratic": float(avg), "huber_lower_bound": float(lower),
                          "huber_correction_at_most": float(hub["correction"]), "huber_threshold_h": hub["huber_threshold"],
                          "smallest_N_refuted_at_this_tau_gamma_T": smallest_n,
                          "refuted_while_sigma^2/b_below": float(sigma2_b_max),
                          "bound_printed_Delta_b": float(printed),
                          "bound_true_Delta_b_N(N+1)lambda^2": float(true), "holds_with_true_Delta_b": bool(avg <= true),
                          "domain": (f"one point: N = {p['dim']}, tau = {p['delay']}, L = 1, gamma = {gamma}, lambda = 1, "
                                     f"sigma = 0, T = {p['steps']}, Huber loss with h = {hub['huber_threshold']}"),
                          "margin_unit": "relative to the printed right side (rhs - lhs)/rhs"},
                counterexample={"N": p["dim"], "tau": p["delay"], "L": 1, "gamma": str(gamma), "lambda=DeltaS/eps": 1,
                                "sigma": 0, "T": p["steps"], "f": "sum_i huber_h(x_i)", "huber_h": hub["huber_threshold"],
                                "G": hub["G"], "x_1 = x*": 0, "lhs_at_least": float(lower), "printed_rhs": float(printed)},
                why=(f"With the K-norm noise of Eq. (6) in N = {p['dim']} dimensions, E||eta||^2 = N(N+1) lambda^2 = "
                     f"{p['dim'] * (p['dim'] + 1)} lambda^2, not the printed 2 lambda^2. On the Huber loss f = sum huber_h(x_i) "
                     f"(h = {hub['huber_threshold']}: convex, 1-smooth, ||grad F|| <= G; x_1 = x*, sigma = 0) with tau = "
                     f"{p['delay']}, gamma = {gamma}, T = {p['steps']}, the left side of (14) is at least {float(lower):.4f} "
                     f"(exact: quadratic run {float(avg):.4f} minus a coupling correction <= {float(hub['correction']):.1e}), "
                     f"{float(lower / printed):.1f} times the printed bound {float(printed):g}; with the true second moment the "
                     f"bound is {float(true):g} and holds (claim 003.thm-4.bound-true-variance). The left side is linear in the "
                     f"noise variance, so at this tau, gamma, T the printed bound fails from N = {smallest_n} on, and with "
                     f"isotropic sampling noise added for every sigma^2/b < {float(sigma2_b_max):.1f} lambda^2 (the "
                     "sampling variance is counted right, so sigma = 0 is the hardest case)."),
                arithmetic=("rational",))
    radial = expected_grad_norms(dim=p["dim"], delay=p["delay"], L=p["L"], gamma=gamma,
                                 noise_second_moment=2 * p["lambda"] ** 2, steps=p["steps"])
    radial_avg = sum(radial, Fraction(0)) / len(radial)
    coeff = proof_coefficients()
    true_v = bound_true_variance()
    radial_status = status(printed_holds=radial_avg <= printed and coeff.status == "holds")
    readings = (Reading(VECTOR_READING + "; Delta_0 = 2 Delta S^2/epsilon^2 literally", VECTOR_LINES + ", L123, L811",
                        v.status, v.margin, v.why),
                Reading(RADIAL_READING, RADIAL_LINES, radial_status, float((printed - radial_avg) / printed),
                        f"the noise's second moment is then the printed 2 lambda^2; at the same point the exact left side is "
                        f"{float(radial_avg):.4f} <= {float(printed):g}, and the proof algebra checks ({coeff.status}); but this "
                        "noise is not DP for any epsilon (claim 003.thm-1.radial-reading-not-dp)."),
                Reading("Delta_0 stands for the noise's true variance bound ('maximal noise variance', Table I; the result "
                        "'holds for any noise with zero mean and bounded variance')", "L123, L268", true_v.status,
                        true_v.margin, true_v.why))
    return dataclasses.replace(v, readings=readings)


@claim(id="003.thm-4.bound-true-variance", seed="003", lines="L343-L352, L803-L915",
       statement="Theorem 4 holds when Delta_b carries the true second moment of the noise (N(N+1) Delta S^2/epsilon^2 for Eq. (6)).",
       recorded="holds-with-correction", result="Theorem 4", role="conclusion", cause=CAUSE_LAPLACE_1D)
def bound_true_variance() -> Verdict:
    avg, printed, true, _ = exact_check()
    coeff = proof_coefficients()
    return Verdict(status(printed_holds=avg <= printed, corrected_holds=avg <= true and coeff.status == "holds"), "symbolic", margin=float((true - avg) / true),
                   evidence={"proof_algebra": coeff.evidence, "proof_uses_only": "E eta = 0 and E||eta||^2 <= Delta_0",
                             "exact_point": {"lhs": float(avg), "rhs_true": float(true)}},
                   reason="correction: Delta_0 = N(N+1) Delta S^2/epsilon_k^2 for the K-norm noise (the variance the A.3 proof needs).",
                   why=("The A.3 proof uses only E eta = 0 and E||eta||^2 <= Delta_0, and its algebra checks symbolically "
                        f"({coeff.status}); with Delta_0 = N(N+1) Delta S^2/epsilon^2, the K-norm noise's true second moment, "
                        f"the exact left side {float(avg):.4f} is below the bound {float(true):g} at the point where the printed "
                        f"bound {float(printed):g} fails. Every step size and stage length built from Delta_b (Algorithm 1) "
                        "changes accordingly."),
                   arithmetic=("sympy", "rational"))
