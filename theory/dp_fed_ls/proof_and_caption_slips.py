r"""Seed 004: slips that change no result but a referee would mark.

* The captions of Tables 3 and 6 (L331, L373) list DP-Fed-LS's smoothing factors as "sigma = 0,5,1,1.5"; the rows are
  sigma = 0 (DP-Fed), 0.5, 1.0, 1.5 (L334-L337, L376-L379): "0,5" stands for 0.5.
* The last display of the proof of Theorem 5 (L941) caps the step at :math:`1/(8K\beta(1+B^2))`; the proof's step (28)
  needs :math:`\eta_l \le \Lambda_{\min}/(8K\beta\eta_g(1+B^2))` (L861-L863) and Theorem 5 (L501) states
  :math:`\Lambda_{\min}/(8K\beta(1+B^2))`. For sigma > 0 the printed cap is :math:`1/\Lambda_{\min}` (up to 1 + 4 sigma)
  times too large. The proof sets the right cap at L932 and its final bound (L943) carries the (1 + 4 sigma) that comes
  from :math:`\Lambda_{\min}`: a typo in the last line.
"""
from __future__ import annotations

from fractions import Fraction

from theory.dp_fed_ls.paper_values import CAPTION_SIGMAS, TABLES
from theory.ledger import HypothesisFails, Verdict, claim


def _caption_recheck(cx: dict) -> float:
    """Share of the caption's sigma values that are no row of the table (negative: a listed sigma has no row)."""
    listed, rows = {Fraction(x) for x in cx["caption"]}, {Fraction(x) for x in cx["rows"]}
    return -len(listed - rows) / len(listed)


@claim(id="004.tables-3-6.caption-sigma-list", seed="004", lines="L331, L373, L334-L337, L376-L379",
       statement="The captions of Tables 3 and 6 list the smoothing factors of their rows: 'DP-Fed-LS (sigma = 0,5,1,1.5)'.",
       recorded="refuted", result="Table 3", role="typo", recheck=_caption_recheck)
def caption_sigma_list() -> Verdict:
    out = {}
    for table in (3, 6):
        caption = [p.text for p in CAPTION_SIGMAS[table]]
        rows = [str(Fraction(str(s))) for s in TABLES[table]["rows"]]
        out[table] = {"caption": caption, "rows": rows, "margin": _caption_recheck({"caption": caption, "rows": rows})}
    worst = min(out, key=lambda t: out[t]["margin"])
    cx = {"table": worst, **{k: out[worst][k] for k in ("caption", "rows")}}
    margin = out[worst]["margin"]
    why = (f"the captions list sigma = {', '.join(out[3]['caption'])} while the rows are sigma = "
           f"{', '.join(str(float(Fraction(r))) for r in out[3]['rows'])} (both tables): no row has sigma = 5; "
           "'0,5' is 0.5 with a comma, a typo that changes no number")
    return Verdict("refuted", "exact", margin, why=why, arithmetic=("rational",), counterexample=cx,
                   evidence={"tables": out, "correction": "sigma = 0.5, 1, 1.5 (DP-Fed-LS); sigma = 0 is DP-Fed",
                             "domain": "the two captions and their row labels",
                             "margin_unit": "minus the share of listed sigma values without a row"})


def _cap_recheck(cx: dict) -> float:
    """(proof's requirement - L941's cap)/L941's cap at Lambda_min = 1/(1 + 4 sigma) (even d)."""
    sigma = Fraction(cx["sigma"])
    if sigma <= 0:
        raise HypothesisFails("sigma must be positive (at sigma = 0 the two caps agree)")
    lam_min = 1 / (1 + 4 * sigma)
    printed, required = Fraction(1), lam_min            # both over 8 K beta (1 + B^2)
    return float((required - printed) / printed)


@claim(id="004.thm-5.proof-final-step-cap", seed="004", lines="L941, L501, L861-L863",
       statement="The proof of Theorem 5 concludes (L941) with eta~ = min{sqrt(D/(H T K^2)), cbrt(D/(Q1 T K^3)), 1/(8K beta(1+B^2))} (L941), within the step the proof requires (eta~ <= Lambda_min/(8K beta(1+B^2)), (28)).",
       recorded="refuted", result="Theorems 4-6", role="typo", recheck=_cap_recheck)
def theorem5_final_cap() -> Verdict:
    cx = {"sigma": 1, "d": "even", "Lambda_min": 0.2}
    margin = _cap_recheck(cx)
    why = ("at sigma = 1 (even d, Lambda_min = 1/5) the cap at L941, 1/(8K beta(1+B^2)), is 5 times the "
           "Lambda_min/(8K beta(1+B^2)) that (28) needs (L861-L863), that the proof itself sets at L932 and Theorem 5 "
           "states (L501); the final bound (L943) keeps the factor (1 + 4 sigma) that comes from Lambda_min: a dropped "
           "Lambda_min in the last line")
    return Verdict("refuted", "exact", margin, why=why, arithmetic=("rational",), counterexample=cx,
                   evidence={"correction": "min{..., Lambda_min/(8K beta(1+B^2))}, as in Theorem 5 (L501)",
                             "domain": "one exact point (sigma = 1, even d)",
                             "margin_unit": "(required cap - printed cap)/printed cap"})


def _noise_coeff_recheck(cx: dict) -> float:
    """(Algorithm 1's coefficient - the printed one)/printed, on the noise in w^{t+1} - w*: eta_g/S against eta_g^2/S."""
    eta_g = Fraction(cx["eta_g"])
    if eta_g <= 1:
        raise HypothesisFails("eta_g = 1 makes the two coefficients equal; the theorems allow any eta_g >= 1")
    return float((eta_g - eta_g ** 2) / eta_g ** 2)


@claim(id="004.thm-4.proof-noise-coefficient", seed="004", lines="L819-L822, L104, L801",
       statement="Proof of Theorem 4, (24) (L820): the noise enters w^{t+1} - w* as A_sigma^{-1} eta_g^2 n/S.",
       recorded="refuted", result="Theorems 4-6", role="typo", recheck=_noise_coeff_recheck)
def theorem4_noise_coefficient() -> Verdict:
    cx = {"eta_g": 2}
    margin = _noise_coeff_recheck(cx)
    why = ("Algorithm 1's server step (L104) and the proof's own Delta^t (L801) put eta_g n/S on the noise; (24) prints "
           "eta_g^2 n/S (at eta_g = 2: 4n/S against 2n/S). The proof's later lines and E_dp use eta_g (through "
           "eta_g L = eta~ K L_Lip), so the slip changes no bound")
    return Verdict("refuted", "exact", margin, why=why, arithmetic=("rational",), counterexample=cx,
                   evidence={"correction": "A_sigma^{-1} eta_g n(L)/S", "domain": "one exact point (eta_g = 2)",
                             "margin_unit": "(eta_g - eta_g^2)/eta_g^2: Algorithm 1's coefficient against the printed"})


def _l842_recheck(cx: dict) -> float:
    """At grad f(w^t) = 0, f(w^t) = f*, G = 0 (only the drift term X > 0 left): (L844 - L842)/L842 for the drift term."""
    eta, k, beta, x = (Fraction(cx[n]) for n in ("eta", "K", "beta", "X"))
    if not (0 < eta < 1 and k >= 1 and beta > 0 and x > 0):
        raise HypothesisFails(f"need 0 < eta~ < 1, K >= 1, beta > 0, X > 0: {cx}")
    l842, l844 = 2 * eta * k * beta ** 2 * x, 2 * eta ** 2 * k * beta ** 2 * x
    return float((l844 - l842) / l842)


@claim(id="004.thm-4.proof-l842-step-size-power", seed="004", lines="L836-L845",
       statement="Proof of Theorem 4, (26): L842's bound (drift term 2 eta~ K beta^2/N sum E||w_j^{t,i} - w^t||^2) is at most L844's (drift term 2 eta~^2 K beta^2/N sum ...).",
       recorded="refuted", result="Theorems 4-6", role="typo", recheck=_l842_recheck)
def theorem4_l842() -> Verdict:
    cx = {"eta": Fraction(1, 16), "K": 1, "beta": 1, "X": 1, "grad_f": 0, "G": 0}
    margin = _l842_recheck(cx)
    cx["eta"] = float(cx["eta"])
    why = ("L840 and L844 carry the drift term with eta~^2, L842 between them with eta~: at a point where grad f(w^t) = 0, "
           "f(w^t) = f* and G = 0 only the drift term is left, and at eta~ = 1/16, K = beta = 1, X = 1 L842 is 1/8 "
           "against L844's 1/128, so L842 <= L844 fails. L840 <= L844 holds directly: a dropped square at L842")
    return Verdict("refuted", "exact", margin, why=why, arithmetic=("rational",), counterexample=cx,
                   evidence={"correction": "2 eta~^2 K beta^2/N sum_j sum_i E||w_j^{t,i} - w^t||^2 at L842",
                             "domain": "one exact point", "margin_unit": "(L844 - L842)/L842 (drift term only)"})
