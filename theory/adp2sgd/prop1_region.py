r"""Seed 001, Proposition 1 (L166-174): where its T condition does secure Theorem 1's C1 > 0, C2 >= 0, C3 <= 1.

With :math:`\eta = K/(B\sqrt T)` and :math:`T = u\,T_{\min}`, :math:`T_{\min} = L^2K^2 M(K,\tau,\bar\rho)` (M the printed
max, L170), the product :math:`x = \eta B L = 1/\sqrt{uM}` carries all dependence on L, B and T:

.. math:: C_1 = 1 - 24x^2 I,\quad C_3 = \tfrac12 + \frac{x\tau^2}{K} + \Big(6x^2 + Kx + \frac{12x^3\tau^2}{K}\Big)\frac{2\bar\rho}{C_1},
          \quad \frac{K}{\eta B}C_2 = \tfrac12 - \frac{x}{K} - \frac{2x^2\tau^2}{K^2}
          - \Big(4x^2 + \frac{24x^3}{K} + \frac{48x^4\tau^2}{K^2}\Big)\frac{I}{C_1},

:math:`I = \tau(K-1)/K + \bar\rho` (substitution of L159-160). While C1 > 0, C1 decreases and C3 and
:math:`-C_2K/(\eta B)` increase with x, so u = 1 (T = T_min) is the worst case of every T >= T_min.

The printed condition fails for large staleness (``001.prop-1.conditions-imply-c1-c2-c3``). We certify with
ball arithmetic (python-flint ``arb``) the corrected statement: for every integer 2 <= K <= K_MAX, every
integer 0 <= tau <= TAU_PER_K * K and every rho in [0, RHO_MAX], the three conditions hold at T = T_min
(hence for all T >= T_min). sqrt(rho) is covered by boxes, bisected until each is decided.
"""
from __future__ import annotations

import flint

from theory.ledger import Verdict, claim

#: the one error behind the Proposition 1 findings: its T condition does not secure Theorem 1's C3 <= 1
CAUSE_C3 = "001-prop1-c3-not-secured"

K_MAX, TAU_PER_K, RHO_MAX = 12, 9, 0.999
MAX_DEPTH = 30


def _rho_bar(r, K):
    """rho-bar (L162) as a function of r = sqrt(rho) (boxes in r avoid square roots of balls that touch 0)."""
    return flint.arb(K - 1) / K * (1 / (1 - r ** 2) + 2 * r / (1 - r) ** 2)


def margins(K: int, tau: int, r) -> tuple:
    """Enclosures of (C1, C2 K/(eta B), 1 - C3) at T = T_min for an arb ``r`` = sqrt(rho)."""
    K_, t = flint.arb(K), flint.arb(tau)
    rb = _rho_bar(r, K_)
    inner = t * (K_ - 1) / K_ + rb
    third = flint.arb(2) / 3
    terms = (192 * inner, 1024 * K_ ** 2 * rb ** 2, 64 * t ** 2 / K_ ** 2,
             (K_ - 1).sqrt() / K_ ** (flint.arb(1) / 6) * (8 * flint.arb(6).sqrt() * t ** third + 8) ** 2
             * (t + rb * K_ / (K_ - 1)) ** third)
    M = terms[0]
    for term in terms[1:]:
        M = M.max(term)
    x = 1 / M.sqrt()
    C1 = 1 - 24 * x ** 2 * inner
    C3 = flint.arb(1) / 2 + x * t ** 2 / K_ + (6 * x ** 2 + K_ * x + 12 * x ** 3 * t ** 2 / K_) * 2 * rb / C1
    c2 = (flint.arb(1) / 2 - x / K_ - 2 * x ** 2 * t ** 2 / K_ ** 2
          - (4 * x ** 2 + 24 * x ** 3 / K_ + 48 * x ** 4 * t ** 2 / K_ ** 2) * inner / C1)
    return C1, c2, 1 - C3


def _decide(K, tau, lo, hi, depth=0) -> tuple[bool, int]:
    """(all conditions certified on [lo, hi], number of boxes used)."""
    r = flint.arb((lo + hi) / 2, (hi - lo) / 2)
    C1, c2, one_minus_c3 = margins(K, tau, r)
    if C1 > 0 and c2 >= 0 and one_minus_c3 >= 0:
        return True, 1
    if depth >= MAX_DEPTH:
        return False, 1
    mid = (lo + hi) / 2
    a, na = _decide(K, tau, lo, mid, depth + 1)
    b, nb = _decide(K, tau, mid, hi, depth + 1) if a else (False, 0)
    return a and b, na + nb


@claim(id="001.prop-1.region-certificate", seed="001", lines="L153, L159-160, L168-172",
       statement="Corrected Proposition 1: with tau <= 9K (2 <= K <= 12, 0 <= rho <= 0.999) the T condition and eta = K/(B sqrt T) do give C1 > 0, C2 >= 0, C3 <= 1 for every T >= T_min.",
       recorded="holds-with-correction", result="Proposition 1", role="conclusion", cause=CAUSE_C3)
def region_certificate() -> Verdict:
    boxes, failed = 0, []
    with flint.ctx.workprec(64):
        for K in range(2, K_MAX + 1):
            for tau in range(0, TAU_PER_K * K + 1):
                ok, n = _decide(K, tau, 0.0, RHO_MAX ** 0.5 * (1 + 1e-15))
                boxes += n
                if not ok:
                    failed.append({"K": K, "tau": tau})
    ok = not failed
    return Verdict("holds-with-correction" if ok else "open", "rigorous", margin=None,
                   evidence={"K": [2, K_MAX], "tau": f"0..{TAU_PER_K}K", "rho": [0.0, RHO_MAX], "rho_boxes": boxes,
                             "domain": f"integers 2 <= K <= {K_MAX}, 0 <= tau <= {TAU_PER_K}K; rho in [0, {RHO_MAX}] "
                                       "covered by boxes; every T >= T_min (monotone in x)",
                             "pairs": sum(TAU_PER_K * K + 1 for K in range(2, K_MAX + 1)), "precision_bits": 64,
                             "worst_case_in_T": "T = T_min (monotone in x = eta B L, see module docstring)",
                             "correction": f"add tau <= {TAU_PER_K} K to Proposition 1's hypotheses; without it the "
                                           "condition fails (001.prop-1.conditions-imply-c1-c2-c3)"},
                   reason="" if ok else f"undecided boxes at {failed[:5]}",
                   why=f"Proposition 1's T condition does not secure C3 <= 1 for large staleness "
                       f"(001.prop-1.conditions-imply-c1-c2-c3); with tau <= {TAU_PER_K}K added it secures C1 > 0, "
                       f"C2 >= 0 and C3 <= 1 at T = T_min, hence at every larger T, on all "
                       f"{sum(TAU_PER_K * K + 1 for K in range(2, K_MAX + 1))} (K, tau) pairs with 2 <= K <= {K_MAX} "
                       f"and every rho in [0, {RHO_MAX}] ({boxes} arb boxes in sqrt(rho)).",
                   arithmetic=("arb",))
