r"""Seed 000, the parameter standards the paper sets itself and the examples that use them: delta against 1/N_c
(L208, L1554, L1558) in Example 4 (L1736-1738), and the range of r0 (L182, L840, L923, L1073) against the examples'
r0 = 1/e (L1626, L1748) (000_d613b97385d90362.txt).
"""
from __future__ import annotations

from fractions import Fraction

import sympy

from theory.async_fl.paper_values import DELTA_STANDARD, EXAMPLES, R0_RANGE
from theory.ledger import HypothesisFails, Reading, Verdict, claim


def recheck_delta_standard(cx: dict) -> float:
    """(threshold - N_c delta)/threshold with the lenient threshold N_c delta < 1 (L1558, L208)."""
    n_c, delta = int(cx["N_c"]), Fraction(cx["delta"])
    if not (n_c > 0 and 0 < delta < 1):
        raise HypothesisFails("needs N_c > 0 and 0 < delta < 1")
    limit = Fraction(cx["threshold"])
    return float((limit - n_c * delta) / limit)


@claim(id="000.example-4.delta-standard", seed="000", recheck=recheck_delta_standard, result="Example 4", role="example",
       lines="L1736-1738, L1554, L1558, L208",
       statement="Example 4's delta = 6.24e-5 with N_c = 25,000 ('N_c delta = 1.5603, which fits somewhat', L1738) meets "
                 "the paper's own standard for delta: below 1/(100 N_c) (L1554), or at least N_c delta < 1 (L1558, L208).",
       recorded="refuted")
def check_delta_standard() -> Verdict:
    ex4 = EXAMPLES[4]
    n_c, delta = int(ex4["inputs"]["n_c"].text), Fraction(ex4["printed"]["delta"].text)
    product = n_c * delta
    hundred, one = Fraction(DELTA_STANDARD["hundred"].text), Fraction(DELTA_STANDARD["one"].text)
    strict_limit, lenient_limit = 1 / hundred, one  # N_c delta < 1/100 (L1554), N_c delta < 1 (L1558, L208)
    m_strict = float((strict_limit - product) / strict_limit)
    m_lenient = float((lenient_limit - product) / lenient_limit)
    ev = {"N_c": n_c, "delta_L1736": ex4["printed"]["delta"].text, "N_c_delta": float(product),
          "N_c_delta_printed_L1738": ex4["printed"]["n_c_delta"].text,
          "limits": {"L1554: N_c delta < 1/100": float(strict_limit), "L1558/L208: N_c delta < 1": float(lenient_limit)},
          "margin_unit": "relative: (limit - N_c delta)/limit, with the lenient limit N_c delta < 1",
          "domain": "Example 4's printed delta and N_c (exact rationals)"}
    readings = (Reading("N_c delta < 1 (L1558 accepts 0.0032 as 'less than 1'; L208 'delta preferably smaller than 1/N_c')",
                        "L1558, L208", "holds" if m_lenient >= 0 else "refuted", m_lenient),
                Reading("delta < 1/(100 N_c) (L1554: 'we want delta to be smaller than 1/(100*N_c)')", "L1554",
                        "holds" if m_strict >= 0 else "refuted", m_strict))
    if m_lenient >= 0:
        return Verdict("holds", "exact", m_lenient, ev, arithmetic=("rational",), readings=readings)
    why = (f"Example 4 ends with delta = {float(delta):.4g} for N_c = {n_c}: N_c delta = {float(product):.5g} (printed "
           f"{ex4['printed']['n_c_delta'].text}, L1738), above both standards the paper sets: N_c delta < 1/100 (L1554, "
           f"exceeded {float(product / strict_limit):.0f}-fold) and N_c delta < 1 (L1558, L208, exceeded by {-m_lenient:.0%}). "
           f"The mechanism that publishes each record independently with probability delta is (0, delta)-DP and at "
           f"this delta publishes {float(product):.3g} of the client's records in expectation, so 'fits somewhat' does "
           f"not hold under either standard; Example 1 in the same situation "
           f"(N_c delta = 1029, L1554) raises epsilon instead.")
    return Verdict("refuted", "exact", m_lenient, ev, why=why, arithmetic=("rational",), readings=readings,
                   counterexample={"N_c": n_c, "delta": ex4["printed"]["delta"].text, "threshold": str(lenient_limit)})


def _admits(hypothesis: str, r0) -> bool:
    """Whether a printed range such as "r0 < 1/e" admits the value r0 (exact, sympy)."""
    rel = sympy.sympify(hypothesis.replace("e", "E").replace("r0", "r"), locals={"r": sympy.Symbol("r"), "E": sympy.E})
    return bool(rel.subs(sympy.Symbol("r"), r0))


def recheck_r0_range(cx: dict) -> float:
    """The example's r0 against Theorem 3.1's printed range: -1 when the range excludes it (indicator), else 0."""
    r0 = sympy.sympify(cx["r0"], locals={"e": sympy.E})
    if not r0 > 0:
        raise HypothesisFails("r0 > 0")
    return 0.0 if _admits(cx["hypothesis"], r0) else -1.0


@claim(id="000.text.r0-range", seed="000", recheck=recheck_r0_range, result="Theorem 3.1", role="typo",
       lines="L182, L840, L923, L1073, L1015, L1626, L1748",
       statement="Examples 3 and 5 take r0 = 1/e (L1626, L1748) within Theorem 3.1's hypothesis r0 < 1/e (L182); the "
                 "proof (L923) and (15) (L1073) state r0 <= 1/e, Lemma D.1 r0 < 1 (L840).",
       recorded="refuted")
def check_r0_range() -> Verdict:
    r0 = 1 / sympy.E  # Examples 3 and 5 (L1626, L1748): "we will use r0 = 1/e"
    admitted = {k: _admits(t, r0) for k, (t, _) in R0_RANGE.items()}
    ev = {"hypotheses": {k: f"{t} ({line})" for k, (t, line) in R0_RANGE.items()}, "examples_r0": "1/e (L1626, L1748)",
          "admits_1/e": admitted, "proof_uses": "ln(1/r0) >= 1 (L1015), true at r0 = 1/e with equality",
          "margin_unit": "indicator: -1 = an example's r0 lies outside Theorem 3.1's stated range",
          "domain": "r0 = 1/e, the value of Examples 3 and 5 (exact)"}
    if all(admitted.values()):
        return Verdict("holds", "exact", 0.0, ev, arithmetic=("sympy",))
    excluded = [f"{R0_RANGE[k][0]} ({R0_RANGE[k][1]})" for k, ok in admitted.items() if not ok]
    why = (f"Examples 3 and 5 use r0 = 1/e (L1626, L1748), which {', '.join(excluded)} excludes; the proof of Theorem 3.1 "
           f"states {R0_RANGE['proof_d2'][0]} (L923), Theorem D.3's (15) {R0_RANGE['theorem_d3_(15)'][0]} (L1073), Lemma "
           f"D.1 {R0_RANGE['lemma_d1'][0]} (L840), and the proof only uses ln(N_c/(s sigma)) >= ln(1/r0) >= 1 (L1015), which "
           f"holds at r0 = 1/e with equality. So the strict '<' of L182 is a typo for '<=': no number changes.")
    return Verdict("refuted", "exact", -1.0, ev, why=why, arithmetic=("sympy",),
                   counterexample={"r0": "1/e", "hypothesis": R0_RANGE["theorem_3.1"][0], "example": 3})
