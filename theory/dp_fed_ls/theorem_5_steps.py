r"""Seed 004, proof of Theorem 5 (general convex), (31)-(32) (L922-L930).

(31) is (29) at :math:`\mu_\sigma = 0` (Lemma 8 with :math:`\mu = 0` is the convex, :math:`\beta`-smooth case). Summed
over t = 0..T it telescopes to :math:`\frac{2}{\tilde\eta K}(E_0 - E_{T+1}) \le \frac{2}{\tilde\eta K}D_\sigma`; divided by
T + 1 (at most T, as printed) and with Jensen for the convex f at :math:`\bar w = \frac{1}{T+1}\sum_t w^t`, the constant
term :math:`2\tilde\eta K(H_\sigma + 12\tilde\eta K\beta G^2)` is :math:`2\tilde\eta KH_\sigma + Q_1\tilde\eta^2K^2` with
:math:`Q_1 = 24\beta G^2` (sympy).
"""
from __future__ import annotations

import sympy

from theory.ledger import Verdict, claim

#: the telescoping is checked as a sympy identity for T = 0..T_MAX
T_MAX = 8


def checks() -> dict:
    eta, K, H, beta, G, D = sympy.symbols("eta_tilde K H_sigma beta G D_sigma", positive=True)
    e = sympy.symbols(f"E0:{T_MAX + 2}", nonnegative=True)
    telescoping = all(sympy.simplify(sum(2 / (eta * K) * (e[t] - e[t + 1]) for t in range(T + 1))
                                     - 2 / (eta * K) * (e[0] - e[T + 1])) == 0 for T in range(T_MAX + 1))
    constant = sympy.simplify(2 * eta * K * (H + 12 * eta * K * beta * G ** 2)
                              - (2 * eta * K * H + 24 * beta * G ** 2 * eta ** 2 * K ** 2)) == 0
    T = sympy.symbols("T", positive=True)
    divide = sympy.simplify(2 * D / (eta * T * K) - 2 * D / (eta * (T + 1) * K))          # >= 0: 1/T >= 1/(T+1)
    mu = sympy.symbols("mu_sigma", nonnegative=True)
    eq29 = 2 / (eta * K) * (1 - eta * mu * K / 2) * e[0] - 2 / (eta * K) * e[1]
    eq31 = 2 / (eta * K) * e[0] - 2 / (eta * K) * e[1]
    at_mu0 = sympy.simplify(eq29.subs(mu, 0) - eq31) == 0
    return {"telescoping": telescoping, "constant_Q1": constant, "divide_by_T_plus_1_le_T": str(sympy.factor(divide)),
            "divide_ok": bool(sympy.factor(divide).is_nonnegative), "eq29_at_mu_0_is_eq31": at_mu0}


@claim(id="004.thm-5.proof-31-32", seed="004", lines="L922-L930",
       statement="Proof of Theorem 5: (31) is (29) at mu = 0, and summing it over t = 0..T and averaging gives (32): E f(w_bar) - f* <= 2D_sigma/(eta~ T K) + Q1 eta~^2 K^2 + 2 eta~ K H_sigma with Q1 = 24 beta G^2.",
       recorded="holds", result="Theorems 4-6", role="proof-step")
def thm5_31_32() -> Verdict:
    c = checks()
    ok = c["telescoping"] and c["constant_Q1"] and c["divide_ok"] and c["eq29_at_mu_0_is_eq31"]
    why = "" if ok else f"a step did not verify: {c}"
    return Verdict("holds" if ok else "open", "symbolic", 0.0 if ok else None, why=why, reason="" if ok else why,
                   arithmetic=("sympy",),
                   evidence={**c, "domain": f"symbolic; the telescoping for T <= {T_MAX} (an identity in T)",
                             "jensen": "f convex (Assumption 4), so f(w_bar) <= the average of f(w^t)",
                             "rests_on": "(29), i.e. the recursion of 004.thm-4.proof-recursion, which rests on (25)"})
