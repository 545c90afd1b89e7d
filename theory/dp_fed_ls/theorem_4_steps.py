r"""Seed 004, steps of the proof of Theorem 4 (S3.1) checked as algebra or at exact points.

* A1 (L824-L828) by Lemma 8 with :math:`h = f_j`, :math:`x = w_j^{t,i}`, :math:`y = w^*`, :math:`z = w^t`:
  :math:`\langle\nabla f_j(w_j^{t,i}), w^t - w^*\rangle \ge f_j(w^t) - f_j(w^*) + \frac{\mu_\sigma}{4}\|w^t - w^*\|^2_{A_\sigma}
  - \beta\|w^t - w_j^{t,i}\|^2`; negated and summed over i = 1..K and averaged over j it is L828 (sympy, with
  :math:`f = \frac1N\sum_j f_j`). Lemma 8 itself: 004.lemma-8.conclusion.
* (27) (L849-L851): the gradient noise of the local steps is a martingale difference sequence within a client and
  independent across clients, so the cross terms vanish and
  :math:`B_2 = \tilde\eta^2\frac{1}{S^2}\sum_j\sum_i\mathbb E\|g_j - \nabla f_j\|^2_{A^{-1}} \le \tilde\eta^2K\varsigma^2/S`
  in expectation over the uniform draw. Checked exactly (rational arithmetic) on two clients with K = 3 local steps of a
  quadratic whose gradient noise depends on the iterate (:math:`\xi = \pm s(1 + w^2)`, so later noise depends on earlier
  noise through w): the second moment of the noise sum equals the sum of the variances, and that is at most
  :math:`K\varsigma^2/S` with :math:`\varsigma^2` the largest conditional variance met.
* L853-L868: A1, A2 (Lemma 5), (25)-(27) and the cap :math:`\tilde\eta \le \Lambda_{\min}/(8K\beta(1+B^2))` assemble
  into the recursion L855-L857 (the coefficient gaps of :math:`f(w^t) - f^*` and of the drift are non-negative), and with
  (28) into L867-L868 (an identity); (25) holds for convex quadratics at sigma = 0, fails with smoothing sigma > 0 even
  for strongly convex quadratics (004.thm-4-5.proof-eq-25) and without convexity (004.thm-6.proof-eq-25).
"""
from __future__ import annotations

import itertools
from fractions import Fraction

import sympy

from theory.ledger import Verdict, claim


def a1_matches_l828() -> tuple:
    """(ok, residual): Lemma 8 instantiated, negated, summed over K local steps and averaged over N = 2 clients, against
    L828's right side (sympy; two clients with their own values, every quantity a symbol)."""
    eta, K, mu, beta, D = sympy.symbols("eta_tilde K mu_sigma beta D", positive=True)   # D = ||w^t - w*||_A^2
    f_t = sympy.symbols("f1_t f2_t")          # f_j(w^t)
    f_s = sympy.symbols("f1_s f2_s")          # f_j(w*)
    drift = sympy.symbols("X1 X2", nonnegative=True)   # sum_i ||w_j^{t,i} - w^t||^2 for client j
    n = 2
    # per client: sum_i <w* - w^t, grad f_j(w_j^{t,i})> <= K (f_j(w*) - f_j(w^t)) + beta X_j - K mu D/4 (Lemma 8, negated)
    lemma8_sum = sum(K * (f_s[j] - f_t[j]) + beta * drift[j] - K * mu * D / 4 for j in range(n))
    a1_bound = 2 * eta / n * lemma8_sum                                            # L827 after summing
    f_w, f_star = sum(f_t) / n, sum(f_s) / n
    l828 = -2 * eta * K * (f_w - f_star) + 2 * eta * beta / n * sum(drift) - eta * mu * K / 2 * D
    residual = sympy.simplify(a1_bound - l828)
    return residual == 0, residual


def b2_exact(s: Fraction, eta: Fraction, k: int = 3, beta: Fraction = Fraction(1, 2)) -> tuple:
    """(E||sum_j sum_i xi_j^i||^2 / S^2, (1/S^2) sum_j sum_i E||xi_j^i||^2, the largest conditional variance) for S = 2
    clients, K local steps of f_j(w) = (beta/2)(w - c_j)^2 whose gradient noise depends on the iterate,
    xi = e s (1 + w^2) with a fair sign e (conditionally mean zero: a martingale difference sequence); exact rationals
    over the 2^(S K) sign outcomes."""
    cs, S = (Fraction(1), Fraction(-2)), 2
    total, variances, worst, outcomes = Fraction(0), Fraction(0), Fraction(0), 0
    for signs in itertools.product((1, -1), repeat=S * k):
        acc = Fraction(0)
        for j in range(S):
            w = Fraction(0)
            for i in range(k):
                scale = s * (1 + w * w)
                xi = signs[j * k + i] * scale
                variances += scale * scale
                worst = max(worst, scale * scale)
                acc += xi
                w -= eta * (beta * (w - cs[j]) + xi)
        total += acc ** 2
        outcomes += 1
    return total / outcomes / S ** 2, variances / outcomes / S ** 2, worst


@claim(id="004.thm-4.proof-a1-and-27", seed="004", lines="L824-L828, L849-L851",
       statement="Proof of Theorem 4: A1 <= -2 eta~ K (f(w^t) - f*) + (2 eta~ beta/N) sum_j sum_i ||w_j^{t,i} - w^t||^2 - (eta~ mu_sigma K/2)||w^t - w*||^2_A by Lemma 8 (L828), and (27): B2 <= eta~^2 K varsigma^2/S.",
       recorded="holds", result="Theorems 4-6", role="proof-step")
def a1_and_27() -> Verdict:
    ok_a1, residual = a1_matches_l828()
    noise_sum, variances, worst = b2_exact(Fraction(1), Fraction(1, 16))
    k, S = 3, 2
    ok_27 = noise_sum == variances and variances <= k * worst / S          # = by the martingale, <= K varsigma^2/S
    ok = ok_a1 and ok_27
    why = "" if ok else f"A1 residual {residual}; (27) at the point: {noise_sum} against {variances}"
    return Verdict("holds" if ok else "refuted", "exact", 0.0 if ok else -1.0, why=why,
                   arithmetic=("sympy", "rational"),
                   counterexample=None if ok else {"a1_residual": str(residual), "noise_sum": float(noise_sum),
                                                   "variances": float(variances)},
                   evidence={"a1_residual": str(residual),
                             "b2_point": {"noise_second_moment": str(noise_sum), "sum_of_variances": str(variances),
                                          "K_varsigma2_over_S": str(k * worst / S)},
                             "domain": "A1: symbolic (Lemma 8 granted: 004.lemma-8.conclusion); (27): the martingale "
                                       "argument, checked exactly at S = 2, K = 3, state-dependent noise "
                                       "+-(1 + w^2), eta~ = 1/16",
                             "note": "(25), the step between them, is refuted without convexity (004.thm-6.proof-eq-25) "
                                     "and, for sigma > 0, on the convex class (004.thm-4-5.proof-eq-25)"})


def recursion_gaps() -> dict:
    r"""L855-L857 and L867-L868 assembled from their pieces, as sympy expressions in
    :math:`\tilde\eta = t\Lambda_{\min}/(8K\beta(1+B^2))` (t in (0, 1], the step-size cap): the coefficient gaps (printed
    minus assembled) of f(w^t) - f* and of X = (1/N) sum_j sum_i ||w_j^{t,i} - w^t||^2 in L855, and the residual of L867-L868
    against L855 with (28) substituted."""
    K, beta, B, lam, t, S, N, G, vs, Lp, nu, d, eg = sympy.symbols(
        "K beta B Lambda_min t S N G varsigma L nu_1 d_sigma eta_g", positive=True)
    eta = t * lam / (8 * K * beta * (1 + B ** 2))
    el = eta / eg
    # pieces: A1 (L828), B1 (L844-L845), B2 (L851); the A2 and D terms are carried unchanged
    f_assembled = -2 * eta * K + 8 * eta ** 2 * K ** 2 * (1 + B ** 2) * beta
    x_assembled = 2 * eta * beta + 2 * eta ** 2 * K * beta ** 2
    gaps = {"f_coefficient": sympy.factor(sympy.simplify(-eta * K - f_assembled)),        # printed - assembled
            "X_coefficient": sympy.factor(sympy.simplify(3 * eta * beta - x_assembled))}
    # L867-L868 = L855 with C replaced by (28)'s last line
    l855_rest = (eta ** 2 * K / S * vs ** 2 + eg ** 2 * el ** 2 * K ** 2 * Lp ** 2 * nu ** 2 * d / S ** 2
                 + 4 * eta ** 2 * K ** 2 / S * (1 - S / N) * G ** 2)
    c28 = 12 * eta ** 3 * K ** 3 * beta * G ** 2 + eta ** 2 * K / eg ** 2 * vs ** 2      # plus (1/2) eta K (f - f*)
    l868 = eta ** 2 * K ** 2 * ((1 / (eg ** 2 * K) + 1 / (S * K)) * vs ** 2 + Lp ** 2 * nu ** 2 * d / S ** 2
                                + 4 / S * (1 - S / N) * G ** 2 + 12 * eta * K * beta * G ** 2)
    gaps["L868_residual"] = sympy.simplify(l855_rest + c28 - l868)
    gaps["f_after_28"] = sympy.simplify(-eta * K + eta * K / 2 - (-eta * K / 2))
    return gaps


@claim(id="004.thm-4.proof-recursion", seed="004", lines="L853-L868",
       statement="Proof of Theorem 4: A1 (L828), A2 (Lemma 5), (25)-(27) and eta~ <= Lambda_min/(8K beta(1+B^2)) give the one-round recursion L855-L857, and with (28) L867-L868.",
       recorded="holds", result="Theorems 4-6", role="proof-step")
def recursion() -> Verdict:
    gaps = recursion_gaps()
    t, lam = sympy.symbols("t Lambda_min", positive=True)
    # the gaps must be >= 0 (printed >= assembled) for every t, Lambda_min in (0, 1]: they factor as
    # Lambda_min t (1 - Lambda_min t)/(8 beta (1+B^2)) and Lambda_min t (4(1+B^2) - Lambda_min t)/(32 K (1+B^2)^2),
    # both visibly >= 0; the signs are also sampled on a grid below as a check
    grid = [(tt, ll, bb) for tt in (sympy.Rational(1, 3), 1) for ll in (sympy.Rational(1, 5), 1) for bb in (0, 1, 3)]
    B, K, beta = sympy.symbols("B K beta", positive=True)
    signs_ok = all(float(gaps[k].subs({t: tt, lam: ll, B: bb, K: 2, beta: 1})) >= 0
                   for k in ("f_coefficient", "X_coefficient") for tt, ll, bb in grid)
    ok = signs_ok and gaps["L868_residual"] == 0 and gaps["f_after_28"] == 0
    why = "" if ok else f"gaps: {gaps}"
    return Verdict("holds" if ok else "refuted", "symbolic", 0.0 if ok else -1.0, why=why,
                   arithmetic=("sympy", "float"), counterexample=None if ok else {k: str(v) for k, v in gaps.items()},
                   evidence={**{k: str(v) for k, v in gaps.items()},
                             "reading": "f - f* >= 0 and X >= 0, so non-negative coefficient gaps make L855 an upper "
                                        "bound of the assembled sum",
                             "rests_on": "(25), which holds for convex quadratics at sigma = 0 and fails for "
                                         "sigma > 0 on the convex class (004.thm-4-5.proof-eq-25) and without "
                                         "convexity (004.thm-6.proof-eq-25); Lemma 7 (004.lemma-7.conclusion), (28) "
                                         "(004.thm-4.step-28)",
                             "domain": "symbolic in every parameter; the signs of the two gaps also sampled at "
                                       f"{len(grid)} points (t, Lambda_min, B)"})
