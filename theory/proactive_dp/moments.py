r"""Sample-size moments of seed 002: :math:`\hat S_j`, :math:`S_j`, :math:`S'_j`, :math:`\rho`, :math:`\hat\rho`.

Definitions (``002_13c470b90c68bab6.txt``):

* :math:`\hat S_j = \frac1T\sum_{i<T}\frac{s_i^j}{N(N-s_i)^{j-1}}` (L474, L670), :math:`j = 1, 2, 3`;
* :math:`S_j = \sum_{i<T}\frac{s_i^j}{N(N-s_i)^{j-1}\sigma_i^j}` and
  :math:`S'_j = \frac1T\sum_{i<T}\frac{s_i^j\sigma_i^j}{N(N-s_i)^{j-1}}` (L682);
* :math:`\rho \ge \hat S_1\hat S_3/\hat S_2^2` and :math:`\hat\rho \ge \hat S_1^2/\hat S_2` (L474); the functions
  below return the smallest admissible values (the equalities chosen at L914 and L926).

(The product card's "S-tilde moments" are these :math:`\hat S_j`; the paper has no tilde.) With integer
sample sizes and rational :math:`\sigma_i` everything is computed in exact rational arithmetic
(:class:`fractions.Fraction`). The claims check every identity and inequality the proofs use about them.
"""
from __future__ import annotations

import math
import random
from fractions import Fraction
from typing import Sequence

import sympy as sp

from numerics.errors import InvalidParameter
from theory.ledger import Verdict, claim

# --- definitions -----------------------------------------------------------------------------------

def _check_sizes(sizes: Sequence[int], n: int):
    if not sizes:
        raise InvalidParameter("sizes must be a non-empty sequence of sample sizes, got an empty one")
    if isinstance(n, bool) or not isinstance(n, int) or n < 2:
        raise InvalidParameter(f"n must be an integer >= 2, got {n!r}")
    for s in sizes:
        if isinstance(s, bool) or not isinstance(s, int) or not 0 < s < n:
            raise InvalidParameter(f"sample sizes must be integers in [1, n-1], got {s!r} with n={n}")


def _exact(x) -> Fraction:
    return x if isinstance(x, Fraction) else Fraction(x)


def s_hat(sizes: Sequence[int], n: int, j: int) -> Fraction:
    r""":math:`\hat S_j = \frac1T\sum_i s_i^j/(N(N-s_i)^{j-1})` (L474, L670), exact."""
    _check_sizes(sizes, n)
    return sum(Fraction(s ** j, n * (n - s) ** (j - 1)) for s in sizes) / len(sizes)


def s_j(sizes: Sequence[int], n: int, sigmas: Sequence, j: int) -> Fraction:
    r""":math:`S_j = \sum_i s_i^j/(N(N-s_i)^{j-1}\sigma_i^j)` (L682), exact for rational sigmas."""
    _check_sizes(sizes, n)
    return sum(Fraction(s ** j, n * (n - s) ** (j - 1)) / _exact(sg) ** j for s, sg in zip(sizes, sigmas, strict=True))


def s_prime_j(sizes: Sequence[int], n: int, sigmas: Sequence, j: int) -> Fraction:
    r""":math:`S'_j = \frac1T\sum_i s_i^j\sigma_i^j/(N(N-s_i)^{j-1})` (L682), exact for rational sigmas."""
    _check_sizes(sizes, n)
    return sum(Fraction(s ** j, n * (n - s) ** (j - 1)) * _exact(sg) ** j
               for s, sg in zip(sizes, sigmas, strict=True)) / len(sizes)


def rho(sizes: Sequence[int], n: int) -> Fraction:
    r"""Smallest admissible :math:`\rho = \hat S_1\hat S_3/\hat S_2^2` (L474, L914)."""
    return s_hat(sizes, n, 1) * s_hat(sizes, n, 3) / s_hat(sizes, n, 2) ** 2


def rho_hat(sizes: Sequence[int], n: int) -> Fraction:
    r"""Smallest admissible :math:`\hat\rho = \hat S_1^2/\hat S_2` (L474, L926)."""
    return s_hat(sizes, n, 1) ** 2 / s_hat(sizes, n, 2)


# --- sequences ------------------------------------------------------------------------------------

def constant_sequence(s: int, rounds: int) -> list:
    """s_i = s for T rounds (Tables 3-8)."""
    return [int(s)] * int(rounds)


def polynomial_sequence(s0: int, rounds: int, p: float, growth: float) -> list:
    r"""Increasing sizes :math:`s_i = \lceil s_0 + \text{growth}\cdot i^p\rceil` (the family of L1122-1124)."""
    return [math.ceil(s0 + growth * i ** p) for i in range(int(rounds))]


def sample_sequences(seed: int = 2, count: int = 60):
    """Deterministic mix of constant, increasing and random sequences (n, sizes) used by the claims."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        n = rng.choice([50, 100, 1000, 10_000, 60_000])
        rounds = rng.randint(1, 40)
        kind = rng.choice(["constant", "poly", "random"])
        if kind == "constant":
            sizes = constant_sequence(rng.randint(1, n - 1), rounds)
        elif kind == "poly":
            sizes = [min(s, n - 1) for s in polynomial_sequence(rng.randint(1, max(1, n // 20)), rounds,
                                                               rng.choice([0.5, 1.0, 2.0]), rng.random() * 3)]
        else:
            sizes = [rng.randint(1, n - 1) for _ in range(rounds)]
        out.append((n, sizes))
    return out


# --- claims ----------------------------------------------------------------------------------------

Q, S, N_, TT = sp.symbols("q s N T", positive=True)


@claim(id="002.moments.constant-closed-forms", seed="002", lines="L474, L806",
       statement="For a constant sequence s_i = s (q = s/N): S-hat_j = q^j/(1-q)^{j-1}, rho = 1, rho-hat = 1-q and "
                 "sqrt(S-hat_2) = q/sqrt(1-q).",
       recorded="holds", result="Theorem B.2", role="constant")
def check_constant_closed_forms() -> Verdict:
    # the average of T equal terms is the term; write s = qN
    sh = {j: (S ** j / (N_ * (N_ - S) ** (j - 1))).subs(S, Q * N_) for j in (1, 2, 3)}
    p = sp.symbols("p", positive=True)  # p = 1 - q > 0
    checks = {
        "S-hat_j": [sp.simplify(sh[j] - Q ** j / (1 - Q) ** (j - 1)) == 0 for j in (1, 2, 3)],
        "rho": sp.simplify(sh[1] * sh[3] / sh[2] ** 2 - 1) == 0,
        "rho-hat": sp.simplify(sh[1] ** 2 / sh[2] - (1 - Q)) == 0,
        "sqrt(S-hat_2)": sp.simplify((sp.sqrt(sh[2]) - Q / sp.sqrt(1 - Q)).subs(Q, 1 - p)) == 0,
    }
    exact_pt = constant_sequence(26, 7)
    exact = {"rho(26 of 10000)": str(rho(exact_pt, 10_000)), "rho_hat(26 of 10000)": str(rho_hat(exact_pt, 10_000))}
    ok = all(checks["S-hat_j"]) and checks["rho"] and checks["rho-hat"] and checks["sqrt(S-hat_2)"]
    return Verdict("holds" if ok else "refuted", "symbolic", arithmetic=("sympy", "rational"), margin=0.0,
                   evidence={"checks": checks, "exact_example": exact},
                   counterexample=None if ok else {"checks": checks})


@claim(id="002.moments.S1-hat", seed="002", lines="L940, L968-970",
       statement="S-hat_1 = K/(T N) for every sequence, and s_i/N <= alpha gives 1/beta = S-hat_1 <= alpha.",
       recorded="holds", result="Theorem B.4", role="proof-step")
def check_s1_hat() -> Verdict:
    bad, n_seq = [], 0
    for n, sizes in sample_sequences():
        n_seq += 1
        k, t = sum(sizes), len(sizes)
        alpha = Fraction(max(sizes), n)
        if s_hat(sizes, n, 1) != Fraction(k, t * n) or s_hat(sizes, n, 1) > alpha:
            bad.append({"n": n, "sizes": sizes})
    # symbolically: (1/T) sum s_i/N = (sum s_i)/(T N), the sum being linear
    i = sp.symbols("i", integer=True)
    s_ = sp.IndexedBase("s")
    lhs = sp.Sum(s_[i] / N_, (i, 0, TT - 1)) / TT
    rhs = sp.Sum(s_[i], (i, 0, TT - 1)) / (TT * N_)
    sym_ok = sp.simplify(lhs - rhs) == 0
    ok = not bad and sym_ok
    return Verdict("holds" if ok else "refuted", "symbolic", arithmetic=("sympy", "rational"), margin=0.0,
                   evidence={"symbolic_identity": sym_ok, "exact_sequences_checked": n_seq},
                   counterexample=bad[0] if bad else (None if ok else {"symbolic": str(sp.simplify(lhs - rhs))}))


@claim(id="002.moments.constant-sigma-relations", seed="002", lines="L724, L734, L744-746, L788",
       statement="For constant sigma: S_j = T S-hat_j/sigma^j, S'_1 = S_1 sigma^2/T, S_1 S'_1 = T S-hat_1^2, "
                 "S_1 S_3/S_2^2 = S-hat_1 S-hat_3/S-hat_2^2 and S_1^2/S_2 = T S-hat_1^2/S-hat_2.",
       recorded="holds", result="Theorem B.2", role="proof-step")
def check_constant_sigma_relations() -> Verdict:
    bad, n_seq = [], 0
    for idx, (n, sizes) in enumerate(sample_sequences()):
        sigma = Fraction(3 + idx, 2 + idx % 3)  # rational sigmas: exact arithmetic
        sig = [sigma] * len(sizes)
        t = len(sizes)
        sh = {j: s_hat(sizes, n, j) for j in (1, 2, 3)}
        sj = {j: s_j(sizes, n, sig, j) for j in (1, 2, 3)}
        sp1 = s_prime_j(sizes, n, sig, 1)
        rel = {
            "S_j": all(sj[j] == t * sh[j] / sigma ** j for j in (1, 2, 3)),
            "S'_1": sp1 == sj[1] * sigma ** 2 / t,
            "S_1 S'_1": sj[1] * sp1 == t * sh[1] ** 2,
            "ratio_3": sj[1] * sj[3] / sj[2] ** 2 == sh[1] * sh[3] / sh[2] ** 2,
            "ratio_1": sj[1] ** 2 / sj[2] == t * sh[1] ** 2 / sh[2],
        }
        n_seq += 1
        if not all(rel.values()):
            bad.append({"n": n, "sizes": sizes, "sigma": str(sigma), "relations": rel})
    ok = not bad
    # exact arithmetic, but on finitely many sampled sequences of a for-all identity: sampled evidence
    return Verdict("holds" if ok else "refuted", "sampled", margin=0.0,
                   evidence={"points": n_seq, "where": "the exact sequences of sample_sequences() "
                             "(constant/increasing/random), one rational sigma each",
                             "sequences": n_seq, "arithmetic": "fractions.Fraction, rational sigma",
                             "note": "each relation is termwise (a constant factor sigma^j leaves the sum)"},
                   counterexample=bad[0] if bad else None)


@claim(id="002.moments.S-prime-1-le-r0", seed="002", lines="L682-684",
       statement="s_i/N <= r0/sigma_i for all i implies S'_1 <= r0 (also for round-dependent sigma_i).",
       recorded="holds", result="Theorem B.2", role="proof-step")
def check_s_prime_le_r0() -> Verdict:
    rng = random.Random(20)
    worst, n_seq = None, 0
    for n, sizes in sample_sequences():
        sigmas = [Fraction(rng.randint(100, 5000), 100) for _ in sizes]
        r0 = max(Fraction(s, n) * sg for s, sg in zip(sizes, sigmas))  # the smallest r0 the hypothesis allows
        gap = r0 - s_prime_j(sizes, n, sigmas, 1)
        n_seq += 1
        if worst is None or gap < worst["gap"]:
            worst = {"gap": gap, "n": n, "T": len(sizes)}
    ok = worst["gap"] >= 0
    return Verdict("holds" if ok else "refuted", "sampled", margin=float(worst["gap"]),
                   evidence={"points": n_seq, "where": "60 exact sequences (constant/increasing/random) with random "
                             "rational sigma_i and the tightest r0 = max_i s_i sigma_i/N",
                             "proof": "S'_1 is the average of s_i sigma_i/N, each <= r0",
                             "smallest_gap": {k: float(v) if isinstance(v, Fraction) else v for k, v in worst.items()}},
                   counterexample=None if ok else {k: str(v) for k, v in worst.items()})


@claim(id="002.moments.S-hat-j-le-alpha", seed="002", lines="L940-942",
       statement="s_i/N <= alpha < 1 for all i implies S-hat_j <= alpha^j/(1-alpha)^{j-1}, j = 1, 2, 3.",
       recorded="holds", result="Theorem B.4", role="proof-step")
def check_s_hat_le_alpha() -> Verdict:
    # each term x^j/(1-x)^{j-1} (x = s_i/N) is increasing in x on (0, 1): derivative check, then average
    x = sp.symbols("x", positive=True)
    mono = [sp.simplify(sp.diff(x ** j / (1 - x) ** (j - 1), x) - (j * x ** (j - 1) * (1 - x) + (j - 1) * x ** j)
                        / (1 - x) ** j) == 0 for j in (1, 2, 3)]
    worst, n_seq = None, 0
    for n, sizes in sample_sequences():
        alpha = Fraction(max(sizes), n)
        for j in (1, 2, 3):
            gap = alpha ** j / (1 - alpha) ** (j - 1) - s_hat(sizes, n, j)
            n_seq += 1
            if worst is None or gap < worst["gap"]:
                worst = {"gap": gap, "n": n, "j": j}
    ok = all(mono) and worst["gap"] >= 0
    return Verdict("holds" if ok else "refuted", "symbolic", arithmetic=("sympy", "rational"), margin=float(worst["gap"]),
                   evidence={"derivative_positive_form": mono, "exact_sequence_checks": n_seq,
                             "note": "d/dx x^j/(1-x)^{j-1} = (j x^{j-1}(1-x) + (j-1)x^j)/(1-x)^j > 0 on (0,1)"},
                   counterexample=None if ok else {k: str(v) for k, v in worst.items()})


@claim(id="002.moments.cauchy-schwarz", seed="002", lines="L474, L914, L926",
       statement="The optimal constants satisfy rho = S-hat_1 S-hat_3/S-hat_2^2 >= 1 and "
                 "rho-hat = S-hat_1^2/S-hat_2 <= 1 - min_i s_i/N <= 1 (equality for constant sequences).",
       recorded="holds", result="Theorem B.2", role="constant")
def check_cauchy_schwarz() -> Verdict:
    # rho >= 1: Cauchy-Schwarz on a_i = s_i/N, w_i = a_i/(1-a_i): (sum a w)^2 <= (sum a)(sum a w^2).
    # rho-hat: S-hat_2 = avg(a^2/(1-a)) >= avg(a^2)/(1 - a_min) >= S-hat_1^2/(1 - a_min).
    worst_rho, worst_rho_hat, n_seq = None, None, 0
    for n, sizes in sample_sequences():
        n_seq += 1
        g1 = rho(sizes, n) - 1
        g2 = (1 - Fraction(min(sizes), n)) - rho_hat(sizes, n)
        if worst_rho is None or g1 < worst_rho:
            worst_rho = g1
        if worst_rho_hat is None or g2 < worst_rho_hat:
            worst_rho_hat = g2
    ok = worst_rho >= 0 and worst_rho_hat >= 0
    return Verdict("holds" if ok else "refuted", "sampled", margin=float(min(worst_rho, worst_rho_hat)),
                   evidence={"points": n_seq, "where": "60 exact sequences (constant/increasing/random)",
                             "min_rho_minus_1": float(worst_rho), "min_gap_rho_hat": float(worst_rho_hat),
                             "proof": "Cauchy-Schwarz and Jensen, see the comment in the code"},
                   counterexample=None if ok else {"min_rho_minus_1": str(worst_rho), "min_gap": str(worst_rho_hat)})
