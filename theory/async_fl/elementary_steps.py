r"""Seed 000, elementary steps the proofs state without derivation: the binomial and factorial bounds of Lemma D.1's
proof (L878-880) and M_0 of the C.2.2 construction (L717) (000_d613b97385d90362.txt).
"""
from __future__ import annotations

from fractions import Fraction
from math import comb, factorial

import sympy

from theory.ledger import Verdict, claim

#: the exhaustive range of the exact scans (the symbolic argument covers the rest; both are stated in the evidence)
LAM_MAX, T_MAX = 80, 80


def _double_factorial(n: int) -> int:
    return 1 if n <= 0 else n * _double_factorial(n - 2)


@claim(id="000.lemma-D1.L878-880-bounds", seed="000", result="Lemma D.1", role="proof-step", lines="L876-880",
       statement="For integers lam >= 1, 1 <= t <= lam+1: binom(lam+1, t) <= ((lam+1)/lam) lam^t/t!; and (t-1)!!/t! <= 1, "
                 "t^t/t! <= e^t for t >= 1.",
       recorded="holds")
def check_l878_880() -> Verdict:
    # binom(lam+1, t) = (lam+1) lam (lam-1) ... (lam-t+2)/t! <= (lam+1) lam^(t-1)/t!: each of the t-1 factors after
    # lam+1 is at most lam. (t-1)!! <= t!. e^t = sum_k t^k/k! >= t^t/t!.
    worst_binom, worst_at = None, None
    for lam in range(1, LAM_MAX + 1):
        for t in range(1, lam + 2):
            slack = Fraction(lam + 1, lam) * Fraction(lam ** t, factorial(t)) - comb(lam + 1, t)
            rel = slack / comb(lam + 1, t)
            if worst_binom is None or rel < worst_binom:
                worst_binom, worst_at = rel, {"lam": lam, "t": t}
    dbl = min(1 - Fraction(_double_factorial(t - 1), factorial(t)) for t in range(1, T_MAX + 1))
    tt = sympy.Symbol("t", positive=True)
    series_term = sympy.exp(tt) - sympy.Sum(tt ** sympy.Symbol("k") / sympy.factorial(sympy.Symbol("k")),
                                            (sympy.Symbol("k"), 0, sympy.oo)).doit()
    exp_ok = all(sympy.Rational(t) ** t / sympy.factorial(t) <= sympy.exp(t) for t in range(1, T_MAX + 1))
    ev = {"binom_min_relative_slack": float(worst_binom), "binom_min_at": worst_at, "double_factorial_min_slack": float(dbl),
          "exp_series_identity": str(sympy.simplify(series_term)), "t^t/t! <= e^t on scan": exp_ok,
          "argument": "binom: t-1 factors each <= lam; (t-1)!! <= t!; t^t/t! is one term of e^t's series",
          "domain": f"all integers by the argument; exhaustive exact scan lam <= {LAM_MAX}, t <= {T_MAX}",
          "margin_unit": "smallest relative slack of the binomial bound on the scan"}
    if worst_binom >= 0 and dbl >= 0 and exp_ok and sympy.simplify(series_term) == 0:
        return Verdict("holds", "exact", float(worst_binom), ev, arithmetic=("rational", "integer", "sympy"))
    return Verdict("refuted", "exact", float(min(worst_binom, dbl)), ev, arithmetic=("rational", "integer", "sympy"),
                   why=f"a bound fails on the scan: {ev}", counterexample=worst_at)


@claim(id="000.C22.M0", seed="000", result="Theorem C.2.2", role="constant", lines="L717, L440",
       statement="For g = 2, Lemma B.3's smallest M_0 = ((m+1)(g-1)/g)^(g/(g-1)) equals (m+1)^2/4.",
       recorded="holds")
def check_m0() -> Verdict:
    m, g = sympy.symbols("m g", positive=True)
    general = ((m + 1) * (g - 1) / g) ** (g / (g - 1))
    diff = sympy.simplify(general.subs(g, 2) - (m + 1) ** 2 / 4)
    ev = {"M0_at_g_2_minus_printed": str(diff), "domain": "all m >= 0 (symbolic)"}
    if diff == 0:
        return Verdict("holds", "symbolic", 0.0, ev, arithmetic=("sympy",))
    return Verdict("refuted", "symbolic", None, {**ev, "margin_none": "a symbolic difference"}, arithmetic=("sympy",),
                   why=f"M0 at g = 2 minus (m+1)^2/4 = {diff}", counterexample=ev)
