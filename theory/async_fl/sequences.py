r"""Sample-size sequences of seed 000 and its Lemma B.3 (the sample-size lemma, not the privacy lemma).

Seed ``000_d613b97385d90362.txt``. Notation (this paper reuses letters; see the glossary in
``shared/notes/seed-000-async-fl.md`` §0.3): :math:`s_i` is the number of gradient iterations in
round :math:`i` (over all clients unless a client index is given), :math:`m` is the *offset* of a
sequence (not the number of training samples), :math:`d` is the wait threshold of property (2), and
:math:`\tau(t)` is the permissible delay function.

Property (2)/(3) (L136-L138, L416-L418): there is a threshold :math:`d` such that for all
:math:`i \ge d+1`, :math:`\tau(\sum_{j=0}^{i} s_j) \ge \sum_{j=i-d}^{i} s_j`.

Lemma B.3 (L434-L444): for :math:`g > 1` and :math:`\gamma` increasing, :math:`\ge 1` and with
:math:`\gamma(z) \ge z\gamma'(z)\,g/(g-1)` on :math:`z \ge 0`, the delay
:math:`\tau(x) = M_1 + ((x+M_0)/\gamma(x+M_0))^{1/g}` with :math:`M_0 \ge ((m+1)(g-1)/g)^{g/(g-1)}`,
:math:`M_1 \ge d+1` admits :math:`s_i = \lceil S((m+i+1)/(d+1))/(d+1) \rceil` where
:math:`S(x) = ((x/\omega(x))(g-1)/g)^{1/(g-1)}` and :math:`\omega(x) = \gamma((x(g-1)/g)^{g/(g-1)})`.

Round-count convention: :func:`rounds_for_budget` returns the *number of rounds* :math:`R` (the smallest
with :math:`\sum_{i<R} s_i \ge K`). The paper's :math:`T` in :math:`K=\sum_{j=0}^{T}s_j` (L158) is
:math:`R - 1`; D.3 (L1067) sums :math:`i = 1..T`. Callers state which one they compare with.

Every sequence here is a tuple of Python ints. Where a term is the ceiling of a transcendental number
it is evaluated in mpmath at ``numerics.precision.MP_DPS`` digits and the ceiling is accepted only if
the value is farther than ``_CEIL_GUARD`` from an integer (else :class:`InvalidParameter`), so a
sequence is never silently off by one.
"""
from __future__ import annotations

import bisect
import math
import numbers
from fractions import Fraction
from typing import Callable, Sequence, Tuple

import mpmath
import sympy as sp

from numerics.errors import InvalidParameter, check_steps
from numerics.precision import MP_DPS
from theory.async_fl.paper_values import EXAMPLE3_PRINTED, EXPERIMENT_PRINTED, L733_PRINTED, TABLE3_PRINTED
from theory.ledger import HypothesisFails, Verdict, claim
from theory.printed import plain

#: a transcendental term closer than this to an integer is ambiguous at MP_DPS digits.
_CEIL_GUARD = mpmath.mpf(10) ** (-(MP_DPS - 15))

Seq = Tuple[int, ...]


# --- exact helpers ------------------------------------------------------------------------------

def as_fraction(x, name: str) -> Fraction:
    """A printed decimal (str, int, Fraction or float) as an exact Fraction; floats via their repr."""
    if isinstance(x, bool):
        raise InvalidParameter(f"{name} must be a real number, got {x!r}")
    if isinstance(x, (Fraction, numbers.Integral)):
        return Fraction(x)
    if isinstance(x, str):
        try:
            return Fraction(x)
        except ValueError:
            raise InvalidParameter(f"{name} must be a decimal number, got {x!r}") from None
    if isinstance(x, numbers.Real) and math.isfinite(float(x)):
        return Fraction(repr(float(x)))
    raise InvalidParameter(f"{name} must be a finite real number, got {x!r}")


def certain_ceil(x) -> int:
    """Ceiling of an mpmath number, refusing values too close to an integer to decide."""
    x = mpmath.mpf(x)
    nearest = mpmath.nint(x)
    if abs(x - nearest) < _CEIL_GUARD:
        raise InvalidParameter(f"term {mpmath.nstr(x, 20)} is too close to an integer to round at {MP_DPS} digits")
    return int(mpmath.ceil(x))


def ceil_scaled_power(coef: Fraction, base: Fraction, expo: Fraction, shift: Fraction) -> int:
    r"""Exact :math:`\lceil \mathrm{coef}\cdot\mathrm{base}^{\mathrm{expo}} + \mathrm{shift} \rceil` for rationals coef, base, expo >= 0.

    With expo = u/v the test :math:`c\,b^{u/v} \le k - \mathrm{shift}` is the rational comparison
    :math:`c^v b^u \le (k - \mathrm{shift})^v` (both sides >= 0), so no rounding is involved.
    """
    if expo == 0:
        return math.ceil(coef + shift)
    u, v = expo.numerator, expo.denominator

    def at_most(k: int) -> bool:                  # coef * base**expo + shift <= k ?
        rhs = k - shift
        return rhs >= 0 and coef ** v * base ** u <= rhs ** v

    k = math.ceil(float(coef) * float(base) ** float(expo) + float(shift))
    while not at_most(k):
        k += 1
    while at_most(k - 1):
        k -= 1
    return k


def _length(n) -> int:
    return check_steps(n, "n")


# --- the sequences -------------------------------------------------------------------------------

def constant(s, n) -> Seq:
    """``n`` rounds of constant size ``s`` (the original-FL baseline, Table 3 L1853-L1857)."""
    s = check_steps(s, "s")
    return (s,) * _length(n)


def linear(a, b, n) -> Seq:
    r""":math:`s_i = \lceil a\,i + b \rceil`, :math:`i = 0..n-1` (E.2.2 L1887 with c = 1), exact."""
    fa, fb = as_fraction(a, "a"), as_fraction(b, "b")
    if fa < 0 or fb < 0:
        raise InvalidParameter(f"a, b must be >= 0 (L1887), got a={a!r}, b={b!r}")
    return _positive(tuple(math.ceil(fa * i + fb) for i in range(_length(n))), "linear", allow_zero=True)


def power(a, c, n, *, b=0) -> Seq:
    r""":math:`s_i = \lceil a\,i^c + b \rceil`, :math:`i = 0..n-1`, with :math:`0^0 = 1` (the O(i) method of E.2.2 L1887; b = 0 gives an empty round 0).

    Exact for every rational c in [0, 1] (:func:`ceil_scaled_power`).
    """
    fa, fb, fc = as_fraction(a, "a"), as_fraction(b, "b"), as_fraction(c, "c")
    if fa < 0 or fb < 0 or not 0 <= fc <= 1:
        raise InvalidParameter(f"need a, b >= 0 and c in [0, 1] (L1887), got a={a!r}, b={b!r}, c={c!r}")
    terms = tuple(ceil_scaled_power(fa, Fraction(i), fc, fb) for i in range(_length(n)))
    return _positive(terms, "power", allow_zero=True)


def i_over_log_i(a, n, *, b=0, start=2) -> Seq:
    r""":math:`s_i = \lceil a\,i/\ln i + b \rceil` for :math:`i = \mathrm{start}, \dots` (E.2.2 L1891).

    The printed form starts nowhere: it is undefined at i = 1 (ln 1 = 0) and 0 at i = 0, so the first
    index is an explicit argument (>= 2).
    """
    start = check_steps(start, "start")
    if start < 2:
        raise InvalidParameter(f"start must be >= 2 (a*i/ln i is undefined at i = 1), got {start!r}")
    fa, fb = as_fraction(a, "a"), as_fraction(b, "b")
    with mpmath.workdps(MP_DPS):
        ma, mb = mpmath.mpf(fa.numerator) / fa.denominator, mpmath.mpf(fb.numerator) / fb.denominator
        return _positive(tuple(certain_ceil(ma * i / mpmath.log(i) + mb) for i in range(start, start + _length(n))),
                         "i_over_log_i")


def papers_sequence(N_c, q, m, p, n) -> Seq:
    r"""Per-client :math:`s_{i,c} = \lceil N_c\,q\,(i+m)^p \rceil`, :math:`i = 0..n-1` (Thm 3.2 L196, L216).

    :math:`q_i = q(i+m)^p` is the per-round sampling ratio; :math:`s_{0,c} = N_c q m^p`. Exact for
    every rational ``p >= 0`` (:func:`ceil_scaled_power`). Printed decimals may be passed as strings to keep
    them exact.
    """
    fN, fq, fm, fp = (as_fraction(v, k) for v, k in ((N_c, "N_c"), (q, "q"), (m, "m"), (p, "p")))
    if fN <= 0 or fN.denominator != 1:
        raise InvalidParameter(f"N_c must be a positive integer, got {N_c!r}")
    if not 0 < fq <= 1:
        raise InvalidParameter(f"q must lie in (0, 1], got {q!r}")
    if fm < 0 or fp < 0:
        raise InvalidParameter(f"m and p must be >= 0 (L196), got m={m!r}, p={p!r}")
    terms = tuple(ceil_scaled_power(fN * fq, i + fm, fp, Fraction(0)) for i in range(_length(n)))
    return _positive(terms, "papers_sequence")


def lemma_b3_sequence(S: Callable, m: int, d: int, n) -> Seq:
    r"""Lemma B.3 (L444): :math:`s_i = \lceil S((m+i+1)/(d+1))/(d+1) \rceil` for a given S (mpmath callable)."""
    m, d = _offset(m, "m"), _offset(d, "d")
    with mpmath.workdps(MP_DPS):
        return tuple(certain_ceil(S(mpmath.mpf(m + i + 1) / (d + 1)) / (d + 1)) for i in range(_length(n)))


# --- the concrete C.2.2 instance: g = 2, gamma(z) = 4 ln z ---------------------------------------

def c22_S(x):
    r""":math:`S(x) = x/(16\ln(x/2))`: Lemma B.3's S for g = 2, :math:`\gamma(z) = 4\ln z` (L711, L731)."""
    return x / (16 * mpmath.log(x / 2))


def c22_sequence(m: int, d: int, n) -> Seq:
    r"""Theorem C.2.2's :math:`s_i = \lceil (m+i+1)/(16(d+1)^2 \ln((m+i+1)/(2(d+1)))) \rceil` (L731, L764).

    Defined (positive) only for :math:`m + 1 > 2(d+1)`; below that the logarithm is <= 0 (claim
    ``000.sequences.c22-domain``), which raises :class:`InvalidParameter`.
    """
    m, d = _offset(m, "m"), _offset(d, "d")
    if not m + 1 > 2 * (d + 1):
        raise InvalidParameter(f"m must satisfy m + 1 > 2(d + 1) = {2 * (d + 1)} (else ln <= 0), got m={m}")
    return lemma_b3_sequence(c22_S, m, d, n)


def c22_M0(m: int) -> Fraction:
    r""":math:`M_0 = ((m+1)(g-1)/g)^{g/(g-1)} = (m+1)^2/4` for g = 2 (L717)."""
    return Fraction((_offset(m, "m") + 1) ** 2, 4)


def c22_M1(m: int, d: int, *, L_alpha_over_mu=0) -> mpmath.mpf:
    r""":math:`M_1 = \max\{d+1, 2L\alpha/\mu, \tfrac12 s_0\}` (L713), :math:`s_0` the first C.2.2 term."""
    s0 = c22_sequence(m, d, 1)[0]
    return max(mpmath.mpf(d + 1), 2 * mpmath.mpf(L_alpha_over_mu), mpmath.mpf(s0) / 2)


def c22_tau(t, m: int, M1) -> mpmath.mpf:
    r""":math:`\tau(t) = M_1 + \sqrt{(t+M_0)/(4\ln(t+M_0))}` (L721)."""
    M0 = c22_M0(m)
    x = mpmath.mpf(t) + mpmath.mpf(M0.numerator) / M0.denominator
    return mpmath.mpf(M1) + mpmath.sqrt(x / (4 * mpmath.log(x)))


# --- properties ---------------------------------------------------------------------------------

def prefix_sums(seq: Sequence[int]) -> Tuple[int, ...]:
    """:math:`(s_0, s_0+s_1, \\dots)`."""
    out, acc = [], 0
    for s in seq:
        acc += s
        out.append(acc)
    return tuple(out)


def rounds_for_budget(seq: Sequence[int], K: int) -> int:
    """Smallest number of rounds R with ``sum(seq[:R]) >= K`` (see the module's round-count convention)."""
    K = check_steps(K, "K")
    sums = prefix_sums(seq)
    if not sums or sums[-1] < K:
        raise InvalidParameter(f"seq is too short: its total {sums[-1] if sums else 0} < K = {K}")
    return bisect.bisect_left(sums, K) + 1


def property_2_slack(seq: Sequence[int], tau: Callable, d: int) -> Tuple[mpmath.mpf, int]:
    r"""Smallest slack :math:`\tau(\sum_{j\le i}s_j) - \sum_{j=i-d}^{i}s_j` over :math:`i = d+1..len-1`, and its i.

    Property (2) holds on the given prefix iff the slack is >= 0. ``tau`` is evaluated in mpmath.
    """
    d = _offset(d, "d")
    if len(seq) < d + 2:
        raise InvalidParameter(f"seq needs at least d + 2 = {d + 2} terms, got {len(seq)}")
    sums = prefix_sums(seq)
    best, where = None, None
    with mpmath.workdps(MP_DPS):
        for i in range(d + 1, len(seq)):
            window = sums[i] - (sums[i - d - 1] if i - d - 1 >= 0 else 0)
            slack = tau(sums[i]) - window
            if best is None or slack < best:
                best, where = slack, i
    return best, where


def _offset(x, name: str) -> int:
    if isinstance(x, bool) or not isinstance(x, numbers.Integral) or x < 0:
        raise InvalidParameter(f"{name} must be an integer >= 0, got {x!r}")
    return int(x)


def _positive(terms: Seq, what: str, *, allow_zero: bool = False) -> Seq:
    low = 0 if allow_zero else 1
    if any(t < low for t in terms):
        raise InvalidParameter(f"{what}: a sample size must be >= {low}, got a term {min(terms)}")
    return terms


# =================================================================================================
# Ledger claims
# =================================================================================================

#: grid on which the C.2.2 sequence's property (2) is evaluated (offsets per d; i < C22_ROUNDS).
C22_GRID_OFFSETS = (0, 2, 6, 50, 500, 2900)
C22_ROUNDS = 1000


def _g_positive():
    """Symbols with g = 1 + h, h > 0, so that sympy knows every exponent involved is positive."""
    h = sp.Symbol("h", positive=True)
    return h, 1 + h


@claim(id="000.lemma-B3.integral-identity", seed="000", result="Lemma B.3", role="proof-step", lines="L467",
       statement=r"For g > 1, \int_0^X (z(g-1)/g)^{1/(g-1)} dz = (X(g-1)/g)^{g/(g-1)}.",
       recorded="holds")
def integral_identity() -> Verdict:
    h, g = _g_positive()
    z, X = sp.symbols("z X", positive=True)
    a = (g - 1) / g
    integral = sp.integrate((z * a) ** (1 / (g - 1)), (z, 0, X), conds="none")
    ratio = sp.simplify(sp.powsimp(sp.expand_power_base(integral / (X * a) ** (g / (g - 1)), force=True), force=True))
    ok = ratio == 1
    return Verdict("holds" if ok else "refuted", "symbolic", margin=0.0 if ok else None, arithmetic=("sympy",),
                   evidence={"ratio": str(ratio), "assumptions": "g = 1 + h, h > 0, X > 0"},
                   counterexample=None if ok else {"ratio": str(ratio)})


@claim(id="000.lemma-B3.final-reduction", seed="000", result="Lemma B.3", role="proof-step", lines="L490-L502",
       statement="Raising (L492) to the power g reduces it to omega(x) >= gamma(Y), Y = omega^{-1/(g-1)}(x(g-1)/g)^{g/(g-1)}.",
       recorded="holds")
def final_reduction() -> Verdict:
    h, g = _g_positive()
    x, omega, gamma_Y = sp.symbols("x omega gamma_Y", positive=True)
    a = (g - 1) / g
    Y = omega ** (-1 / (g - 1)) * (x * a) ** (g / (g - 1))
    lhs_pow_g = Y / gamma_Y                              # ((Y/gamma(Y))^{1/g})^g
    S_pow_g = ((x / omega) * a) ** (g / (g - 1))         # S(x)^g
    ratio = sp.simplify(sp.powsimp(sp.expand_power_base(lhs_pow_g / S_pow_g, force=True), force=True))
    ok = sp.simplify(ratio - omega / gamma_Y) == 0
    return Verdict("holds" if ok else "refuted", "symbolic", margin=0.0 if ok else None, arithmetic=("sympy",),
                   evidence={"lhs^g / S(x)^g": str(ratio)},
                   counterexample=None if ok else {"ratio": str(ratio)})


@claim(id="000.lemma-B3.reindexed-sum", seed="000", result="Lemma B.3", role="proof-step", lines="L460-L461",
       statement="sum_{j=m}^{i+m} S((j+1)/(d+1))/(d+1) = sum_{j=0}^{i+m} S((j+1)/(d+1))/(d+1) - sum_{j=0}^{m-1} S(j+1).",
       recorded="holds-with-correction")
def reindexed_sum() -> Verdict:
    # Any S works for an identity of sums; S(x) = x/2 (gamma = 1, g = 2) keeps it in exact arithmetic.
    def S(x):
        return Fraction(x) / 2
    m, d, i = 3, 1, 2
    f = [S(Fraction(j + 1, d + 1)) / (d + 1) for j in range(i + m + 1)]
    lhs = sum(f[m:i + m + 1])
    printed = sum(f) - sum(S(j + 1) for j in range(m))
    corrected = sum(f) - sum(f[:m])
    if lhs == corrected and lhs != printed:
        why = (f"At m = {m}, d = {d}, i = {i} with S(x) = x/2 the left side is {lhs}; the printed right side subtracts "
               f"sum_{{j<m}} S(j+1) and gives {printed}, the corrected one subtracts sum_{{j<m}} S((j+1)/(d+1))/(d+1) and "
               f"gives {corrected}. The next line (L462) already uses the corrected form, so the proof is unaffected.")
        return Verdict("holds-with-correction", "exact", margin=float(printed - lhs), why=why, arithmetic=("rational",),
                       evidence={"correction": "subtract sum_{j<m} S((j+1)/(d+1))/(d+1), not sum_{j<m} S(j+1)",
                                 "domain": "one point (m, d, i) = (3, 1, 2), S(x) = x/2: a witness against an identity",
                                 "margin_unit": "absolute: printed right side - left side at the point",
                                 "point": {"m": m, "d": d, "i": i, "S": "x/2"},
                                 "lhs": str(lhs), "printed_rhs": str(printed), "corrected_rhs": str(corrected),
                                 "effect": "the next line (L462) uses the corrected form, so the proof is unaffected"})
    status = "holds" if lhs == printed else "refuted"
    return Verdict(status, "exact", evidence={"lhs": str(lhs), "printed_rhs": str(printed), "domain": "one point"},
                   counterexample=None if status == "holds" else {"m": m, "d": d, "i": i}, arithmetic=("rational",),
                   why="" if status == "holds" else f"left side {lhs} != printed {printed}")


def gamma_one_sequence(m: int, d: int, n) -> Seq:
    r"""Lemma B.3's sequence for the admissible instance g = 2, :math:`\gamma \equiv 1`: :math:`\lceil (m+i+1)/(2(d+1)^2) \rceil`."""
    m, d = _offset(m, "m"), _offset(d, "d")
    return tuple(math.ceil(Fraction(m + i + 1, 2 * (d + 1) ** 2)) for i in range(_length(n)))


def gamma_one_tau_at_least(X: int, W: int, *, M0: Fraction, M1: int) -> bool:
    r"""Exact test of :math:`\tau(X) = M_1 + \sqrt{X + M_0} \ge W` (g = 2, :math:`\gamma \equiv 1`)."""
    return W - M1 <= 0 or X + M0 >= (W - M1) ** 2


def gamma_one_property_2_failures(m: int, d: int, n: int, *, M0: Fraction, M1: int):
    """All i in d+1..n-1 at which property (3) fails for the gamma = 1 instance (exact)."""
    seq = gamma_one_sequence(m, d, n)
    sums = prefix_sums(seq)
    return [i for i in range(d + 1, n)
            if not gamma_one_tau_at_least(sums[i], sums[i] - sums[i - d - 1] if i > d else sums[i], M0=M0, M1=M1)]


@claim(id="000.lemma-B3.conclusion-exact", seed="000", result="Lemma B.3", role="conclusion", lines="L434-L444",
       statement="Lemma B.3's s_i satisfies property (3) for the admissible instance g = 2, gamma = 1 with the smallest allowed M0, M1.",
       recorded="holds")
def lemma_b3_conclusion_exact(m_max: int = 24, d_max: int = 3, n: int = 200) -> Verdict:
    failures, cases = [], 0
    for d in range(d_max + 1):
        for m in range(m_max + 1):
            M0 = c22_M0(m)   # ((m+1)(g-1)/g)^{g/(g-1)} at g = 2, the smallest allowed M0
            for M0_used in ((M0, Fraction(0)) if m == 0 else (M0,)):   # L440: "M0 = 0 if m = 0"
                cases += 1
                bad = gamma_one_property_2_failures(m, d, n, M0=M0_used, M1=d + 1)
                if bad:
                    failures.append({"m": m, "d": d, "M0": str(M0_used), "i": bad[0]})
    evidence = {"instance": "g=2, gamma(z)=1, S(x)=x/2, M1=d+1", "m": [0, m_max], "d": [0, d_max],
                "rounds": n, "cases": cases,
                "domain": f"exhaustive for 0 <= m <= {m_max}, 0 <= d <= {d_max}, rounds i < {n} (instance g = 2, gamma = 1)"}
    if failures:
        return Verdict("refuted", "exact", margin=-1.0, evidence={**evidence, "margin_unit": "indicator: -1 = the stated identity/condition fails (no natural scale)"},
                       counterexample=failures[0], arithmetic=("rational", "integer"),
                       why=f"property (3) fails at {failures[0]}")
    return Verdict("holds", "exact", margin=0.0, evidence=evidence, arithmetic=("rational", "integer"))


@claim(id="000.lemma-B3.c22-hypotheses", seed="000", result="Theorem C.2.2", role="hypothesis", lines="L436, L711",
       statement="g = 2 and gamma(z) = 4 ln z satisfy Lemma B.3's hypotheses (gamma >= 1 and gamma >= 2 z gamma' for z >= 0).",
       recorded="refuted")
def c22_hypotheses() -> Verdict:
    z = sp.Symbol("z", positive=True)
    gamma = 4 * sp.log(z)
    ge_one = sp.solve_univariate_inequality(gamma >= 1, z, relational=False)
    ratio_cond = sp.solve_univariate_inequality(gamma >= z * sp.diff(gamma, z) * 2, z, relational=False)
    z0 = 1
    at_z0 = {"gamma": str(gamma.subs(z, z0)), "2 z gamma'": str((2 * z * sp.diff(gamma, z)).subs(z, z0))}
    holds_everywhere = ge_one == sp.Interval.open(0, sp.oo) and ratio_cond == sp.Interval.open(0, sp.oo)
    two_z_gamma_prime = "2 z gamma'"
    why = (f"Lemma B.3 needs gamma >= 1 and gamma >= z gamma' g/(g-1) = 2 z gamma' for all z >= 0 (L436); C.2.2 takes "
           f"g = 2, gamma(z) = 4 ln z (L711), for which gamma >= 1 holds only on {ge_one} and gamma >= 2 z gamma' only on "
           f"{ratio_cond} (at z = 1: gamma = {at_z0['gamma']}, 2 z gamma' = {at_z0[two_z_gamma_prime]}). The lemma therefore "
           f"does not cover the C.2.2 sequence; property (2) for it is checked directly (000.lemma-B3.c22-property-2, holds "
           f"on its grid), so Theorem C.2.2's use of the sequence survives.")
    # relative to the required 1: gamma(z0) - 1 at z0 = 1 (gamma(1) = 0), negative when refuted
    return Verdict("holds" if holds_everywhere else "refuted", "symbolic", arithmetic=("sympy",),
                   why="" if holds_everywhere else why,
                   margin=0.0 if holds_everywhere else float(gamma.subs(z, z0)) - 1.0,
                   evidence={"gamma>=1 on": str(ge_one), "gamma>=2z*gamma' on": str(ratio_cond),
                             "margin_unit": "gamma(z0) - 1 at z0 = 1 (the hypothesis gamma >= 1 in units of its bound)",
                             "gamma(0)": "undefined (ln 0)",
                             "note": "the C.2.2 sequence is therefore not covered by the lemma; "
                                     "see 000.lemma-B3.c22-property-2 for a direct check"},
                   counterexample=None if holds_everywhere else {"z": z0, **at_z0})


@claim(id="000.lemma-B3.c22-S", seed="000", result="Theorem C.2.2", role="proof-step", lines="L711-L731",
       statement="For g = 2, gamma = 4 ln z: S(x) = x/(16 ln(x/2)) and S((m+i+1)/(d+1))/(d+1) is the printed s_i (L731).",
       recorded="holds")
def c22_S_closed_form() -> Verdict:
    x, y, d = sp.symbols("x y d", positive=True)
    g = sp.Integer(2)
    gamma = lambda u: 4 * sp.log(u)  # noqa: E731
    omega = gamma((x * (g - 1) / g) ** (g / (g - 1)))
    S = ((x / omega) * (g - 1) / g) ** (1 / (g - 1))
    d1 = sp.expand_log(sp.simplify(S - x / (16 * sp.log(x / 2))), force=True)
    printed_si = y / (16 * (d + 1) ** 2 * sp.log(y / (2 * (d + 1))))          # y = m + i + 1
    d2 = S.subs(x, y / (d + 1)) / (d + 1) - printed_si
    d1, d2 = sp.simplify(sp.expand_log(d1, force=True)), sp.simplify(sp.expand_log(d2, force=True))
    ok = d1 == 0 and d2 == 0
    return Verdict("holds" if ok else "refuted", "symbolic", margin=0.0 if ok else None, arithmetic=("sympy",),
                   evidence={"S(x)": str(sp.simplify(S)), "S - printed": str(d1), "s_i - printed": str(d2)},
                   counterexample=None if ok else {"S - printed": str(d1), "s_i - printed": str(d2)})


@claim(id="000.lemma-B3.c22-property-2", seed="000", result="Theorem C.2.2", role="proof-step", lines="L729-L731, L136-L138",
       statement="The C.2.2 sequence s_i satisfies property (2) with tau of L721 and the smallest M1 = d+1.",
       recorded="holds")
def c22_property_2(rounds: int = C22_ROUNDS) -> Verdict:
    worst = None
    points = []
    for d in (0, 1, 2):
        for m in sorted({max(offset, 2 * (d + 1)) for offset in C22_GRID_OFFSETS}):  # m + 1 > 2(d+1)
            seq = c22_sequence(m, d, rounds)
            slack, i = property_2_slack(seq, lambda t, m=m, d=d: c22_tau(t, m, d + 1), d)
            points.append({"m": m, "d": d, "min_slack": float(slack), "at_i": i})
            if worst is None or slack < worst[0]:
                worst = (slack, {"m": m, "d": d, "i": i})
    evidence = {"rounds": rounds, "M1": "d+1", "points": points, "dps": MP_DPS,
                "where": "d in {0,1,2}, offsets m of C22_GRID_OFFSETS (m + 1 > 2(d+1)), every round i < rounds"}
    if worst[0] < 0:
        return Verdict("refuted", "numeric", margin=float(worst[0]), evidence=evidence, counterexample=worst[1])
    # a grid of (m, d): sampled, not a proof for every offset
    return Verdict("holds", "sampled", margin=float(worst[0]), evidence=evidence)


def recheck_c22_domain(cx: dict) -> float:
    """The first logarithm's argument (m+1)/(2(d+1)) at the counterexample: -1 when it is <= 1 (s_0 undefined or
    not positive), else 0."""
    m, d = int(cx["m"]), int(cx["d"])
    if m < 0 or d < 0:
        raise HypothesisFails("L440 admits m >= 0, d >= 0")
    return -1.0 if Fraction(m + 1, 2 * (d + 1)) <= 1 else 0.0


def recheck_i_over_ln_i(cx: dict) -> float:
    """ln(i) at the counterexample's round: -1 when it is 0 (s_i divides by zero), else 0."""
    if int(cx["i"]) < 0:
        raise HypothesisFails("rounds are counted from 0")
    return -1.0 if sp.log(sp.Integer(int(cx["i"]))) == 0 else 0.0


@claim(id="000.sequences.c22-domain", seed="000", recheck=recheck_c22_domain, result="Theorem C.2.2", role="definition", lines="L764, L440",
       statement="The C.2.2 sequence is a positive sample-size sequence for every integer offset m >= 0.",
       recorded="refuted")
def c22_domain() -> Verdict:
    with mpmath.workdps(MP_DPS):
        d = 0
        bad = []
        for m in range(0, 2 * (d + 1)):
            arg = Fraction(m + 1, 2 * (d + 1))        # the first logarithm's argument, m + i + 1 at i = 0
            if arg <= 1:
                # ln(arg) < 0 for arg < 1 makes s_0 = ceil(positive/negative) <= 0; ln 1 = 0 divides by zero
                bad.append({"m": m, "d": d, "log_argument": str(arg),
                            "s_0": "division by zero (ln 1 = 0)" if arg == 1 else "not positive (ln of the argument < 0)"})
    ev = {"needs": "m + 1 > 2(d + 1)", "failures": bad, "domain": "m in {0, 1} at d = 0 (witnesses; decided in rationals)",
          "margin_unit": "indicator: -1 = the stated identity/condition fails (no natural scale)"}
    if bad:
        why = (f"s_i = ceil((m+i+1)/(16(d+1)^2) / ln((m+i+1)/(2(d+1)))) (L764) needs (m+1)/(2(d+1)) > 1 at i = 0: at d = 0, "
               f"m = 0 the argument is {bad[0]['log_argument']}, so s_0 is {bad[0]['s_0']}"
               + (f", and at m = {bad[1]['m']} the argument is {bad[1]['log_argument']} ({bad[1]['s_0']})" if len(bad) > 1 else "")
               + ". The sequence is a sample-size sequence only for m + 1 > 2(d + 1), not for every m >= 0 (L440); the "
                 "examples and experiments use large m, so no printed number changes.")
        return Verdict("refuted", "exact", margin=-1.0, evidence=ev, counterexample=bad[0], why=why, arithmetic=("rational",))
    return Verdict("holds", "exact", evidence=ev, arithmetic=("rational",))


def smallest_offset_for_s0(s0: int, d: int, *, m_hi: int = 10 ** 7) -> int:
    """Smallest offset m (m + 1 > 2(d+1)) whose C.2.2 sequence starts at ``s0`` or above (bisection; s_0 is non-decreasing in m once x/ln x increases)."""
    lo = max(2 * (d + 1), math.ceil(2 * (d + 1) * math.e))   # x/ln x is increasing for x >= e
    hi = m_hi
    if c22_sequence(hi, d, 1)[0] < s0:
        raise InvalidParameter(f"s0 = {s0} needs m > {m_hi}")
    while lo < hi:
        mid = (lo + hi) // 2
        if c22_sequence(mid, d, 1)[0] >= s0:
            hi = mid
        else:
            lo = mid + 1
    return lo


def recheck_c22_s0(cx: dict) -> float:
    """The C.2.2 sequence's first size at the printed offset m = 2(d+1)*1450 minus the printed s_0 = 50."""
    d, m = int(cx["d"]), int(cx["m"])
    if m != 2 * (d + 1) * int(L733_PRINTED["m_over_2d_plus_2"].text):
        raise HypothesisFails("m is not the printed offset 2(d+1)*1450")
    return float(c22_sequence(m, d, 1)[0] - int(L733_PRINTED["s0"].text))


@claim(id="000.sequences.c22-s0-of-m", seed="000", recheck=recheck_c22_s0, result="Theorem C.2.2", role="printed-value", lines="L733",
       statement="In the C.2.2 sequence, s_0 = 50 corresponds to m = 2(d+1)*1450.",
       recorded="refuted")
def c22_s0_of_m() -> Verdict:
    s0_printed, factor = int(L733_PRINTED["s0"].text), int(L733_PRINTED["m_over_2d_plus_2"].text)
    rows = []
    for d in (0, 1, 2):
        m = 2 * (d + 1) * factor
        rows.append({"d": d, "m": m, "s_0": c22_sequence(m, d, 1)[0],
                     "smallest_m_with_s0_50": smallest_offset_for_s0(s0_printed, d)})
    wrong = [r for r in rows if r["s_0"] != s0_printed]
    if wrong:
        why = (f"L733 says s_0 = {s0_printed} corresponds to m = 2(d+1)*{factor}; the C.2.2 sequence at that m starts at "
               + ", ".join(f"s_0 = {r['s_0']} (d = {r['d']})" for r in rows)
               + f"; s_0 = {s0_printed} needs m >= " + ", ".join(f"{r['smallest_m_with_s0_50']} (d = {r['d']})" for r in rows)
               + ". A wrong printed offset; no result uses it.")
        return Verdict("refuted", "numeric", margin=float(wrong[0]["s_0"] - s0_printed),
                       evidence={"rows": rows, "printed": plain(L733_PRINTED),
                                 "margin_unit": "absolute, in samples: s_0 at the printed m - the printed s_0"},
                       counterexample=wrong[0], why=why)
    return Verdict("holds", "numeric", evidence={"rows": rows})


@claim(id="000.sequences.table3-rounds", seed="000", result="Table 3", role="printed-value", lines="L1853-L1857",
       statement="With 20000 total iterations over 5 clients, constant per-client sizes 50..1000 take 80, 40, 20, 8, 6, 4 rounds.",
       recorded="holds")
def table3_rounds() -> Verdict:
    K, clients = int(TABLE3_PRINTED["K"].text), int(TABLE3_PRINTED["clients"].text)
    sizes = [int(p.text) for p in TABLE3_PRINTED["sizes"]]
    printed = [p.text for p in TABLE3_PRINTED["rounds"]]
    computed = [rounds_for_budget(constant(clients * s, math.ceil(K / (clients * s)) + 1), K) for s in sizes]
    mismatch = [(s, c, int(p)) for s, c, p in zip(sizes, computed, printed) if c != int(p)]
    evidence = {"computed": computed, "printed": list(printed), "convention": "per-client size s, rounds R = ceil(K/(5 s))"}
    evidence["domain"] = "the six printed sizes (the whole table)"
    if mismatch:
        return Verdict("refuted", "exact", evidence=evidence, arithmetic=("integer",),
                       counterexample={"size": mismatch[0][0], "computed": mismatch[0][1], "printed": mismatch[0][2]},
                       why=f"size {mismatch[0][0]} needs {mismatch[0][1]} rounds, printed {mismatch[0][2]}")
    return Verdict("holds", "exact", margin=0.0, evidence=evidence, arithmetic=("integer",))


#: how many rounds of the printed sequences are compared (Example 3 needs fewer than 200).
EXAMPLE3_ROUNDS = 400


@claim(id="000.sequences.example3-form", seed="000", result="Example 3", role="example", lines="L1662, L1682",
       statement="With Example 3's q and m = s_{0,c}/(N_c q), ceil(N_c q (i+m)) = 16 + ceil(1.3216327772100012 i).",
       recorded="holds")
def example3_form() -> Verdict:
    N = int(EXAMPLE3_PRINTED["N_c"].text)
    q, s0 = Fraction(EXAMPLE3_PRINTED["q"].text), int(EXAMPLE3_PRINTED["s0"].text)
    m = Fraction(s0) / (N * q)                         # the paper's definition of m from s_{0,c} (L216)
    ours = papers_sequence(N, q, m, 1, EXAMPLE3_ROUNDS)
    coef = Fraction(EXAMPLE3_PRINTED["coef"].text)
    printed = tuple(s0 + math.ceil(coef * i) for i in range(EXAMPLE3_ROUNDS))
    m_printed = Fraction(EXAMPLE3_PRINTED["m"].text)
    evidence = {"rounds_compared": EXAMPLE3_ROUNDS, "N_c q": str(N * q),
                "N_c q m_printed - 16": float(N * q * m_printed - s0),
                "note": "the printed 17-digit m makes N_c q m exceed 16 by 6e-16, so taken literally s_0 = 17; "
                        "m is defined as s_{0,c}/(N_c q), which gives exactly 16",
                "rounds to K = 25000": rounds_for_budget(ours, 25000)}
    diff = [i for i in range(EXAMPLE3_ROUNDS) if ours[i] != printed[i]]
    evidence["domain"] = f"rounds i < {EXAMPLE3_ROUNDS} (Example 3 needs fewer than 200)"
    if diff:
        return Verdict("refuted", "exact", evidence=evidence, arithmetic=("rational", "integer"),
                       counterexample={"i": diff[0], "ceil(N_c q (i+m))": ours[diff[0]], "printed": printed[diff[0]]},
                       why=f"the sequences differ first at i = {diff[0]}")
    return Verdict("holds", "exact", margin=0.0, evidence=evidence, arithmetic=("rational", "integer"))


def _rounds_to(value: Fraction, printed: str) -> bool:
    """Exact: ``value`` rounds to the printed decimal (half a unit of its last digit)."""
    decimals = len(printed.split(".")[1]) if "." in printed else 0
    return abs(value - Fraction(printed)) <= Fraction(1, 2 * 10 ** decimals)


@claim(id="000.sequences.experiment-form", seed="000", result="L1967", role="printed-value", lines="L1967",
       statement="The printed N_c = 10000, q = 0.000132, m = 12.106, p = 1 (rounded) and s_{i,c} = 1.322 i + 16 are roundings of one sequence N_c q (i+m)^p with N_c q m = s_{0,c} = 16.",
       recorded="holds")
def experiment_form() -> Verdict:
    P = {k: v.text for k, v in EXPERIMENT_PRINTED.items()}
    N, K = int(P["N_c"]), int(P["K"])
    # witness: Example 3's exact q (L1662) and m = s_{0,c}/(N_c q) (L216), the setting L1967 cites
    q = Fraction(EXAMPLE3_PRINTED["q"].text)
    m = Fraction(int(P["offset"])) / (N * q)
    checks = {"q rounds to 0.000132": _rounds_to(q, P["q"]), "m rounds to 12.106": _rounds_to(m, P["m"]),
              "N_c q rounds to 1.322": _rounds_to(N * q, P["coef"]), "N_c q m = 16": N * q * m == int(P["offset"])}
    literal = papers_sequence(N, P["q"], P["m"], Fraction(P["p"]), EXAMPLE3_ROUNDS)
    printed = tuple(math.ceil(Fraction(P["coef"]) * i + int(P["offset"])) for i in range(EXAMPLE3_ROUNDS))
    ex3 = papers_sequence(N, q, m, 1, EXAMPLE3_ROUNDS)
    evidence = {"witness": {"q": str(q), "m": float(m), "source": "Example 3, L1662"}, "checks": checks,
                "rounds to K": {"ceil(N_c q (i+m)), printed q, m taken literally": rounds_for_budget(literal, K),
                                "ceil(1.322 i + 16)": rounds_for_budget(printed, K),
                                "ceil(N_c q (i+m)), witness": rounds_for_budget(ex3, K)},
                "literal_reading": {"N_c q": str(N * Fraction(P["q"])), "N_c q m": str(N * Fraction(P["q"]) * Fraction(P["m"])),
                                    "note": "taken as exact, 0.000132 and 12.106 give 1.32 i + 15.98 (one more round): "
                                            "a reproduction must use Example 3's q, not the rounded one"}}
    evidence["domain"] = "the printed values of L1967 with Example 3's q as witness (one setting)"
    if all(checks.values()):
        return Verdict("holds", "exact", margin=0.0, evidence=evidence, arithmetic=("rational", "integer"))
    return Verdict("refuted", "exact", evidence=evidence, counterexample={k: v for k, v in checks.items() if not v},
                   arithmetic=("rational", "integer"), why=f"failed: {[k for k, v in checks.items() if not v]}")


#: budgets at which the C.2.2 round count is compared with sqrt(K), per offset m (d = 0).
ROUNDS_BUDGETS = {2: (10 ** 4, 10 ** 5), 2900: (10 ** 4, 10 ** 5, 10 ** 6)}


def _rounds_rows(m: int, d: int, budgets) -> list:
    s = c22_sequence(m, d, 14_500 if m > 100 else 5_000)
    rows = []
    for K in budgets:
        T = rounds_for_budget(s, K)
        rows.append({"K": K, "T": T, "T/sqrt(K)": T / math.sqrt(K), "T/sqrt(K ln K)": T / math.sqrt(K * math.log(K)),
                     "constant s_0 rounds": math.ceil(K / s[0])})
    return rows


@claim(id="000.sequences.rounds-vs-budget", seed="000", result="L158", role="conclusion", lines="L39, L158",
       statement="For the Theorem 2.2 sequence, forgetting the ln i factor, the number of rounds T for K gradient computations grows like sqrt(K), versus K/s for a constant sample size.",
       recorded="holds")
def rounds_vs_budget() -> Verdict:
    d = 0
    rows = {m: _rounds_rows(m, d, budgets) for m, budgets in ROUNDS_BUDGETS.items()}
    small = rows[2]
    ln_scaled = [r["T/sqrt(K ln K)"] for r in small]
    grows = all(r2["T/sqrt(K)"] > r1["T/sqrt(K)"] for r1, r2 in zip(small, small[1:]))
    stable = max(ln_scaled) / min(ln_scaled) < 1.1
    fewer = all(r["T"] < r["constant s_0 rounds"] for rs in rows.values() for r in rs)
    evidence = {"d": d, "rows_by_m": {str(m): rs for m, rs in rows.items()},
                "points": sum(len(rs) for rs in rows.values()), "where": {str(m): list(b) for m, b in ROUNDS_BUDGETS.items()},
                "T/sqrt(K) grows with K": grows,
                "precise_rate": "T = Theta(sqrt(K ln K)): sum_{i<T} s_i ~ T^2/(32(d+1)^2 ln T), so T/sqrt(K) grows like "
                                "sqrt(ln K) while T/sqrt(K ln K) is stable (about 4.4 for m = 2); the paper says it forgets "
                                "this ln (L158; 'up to a factor', L39). With a large offset (m = 2900, s_0 = 25) the "
                                "sequence is nearly constant for the first thousands of rounds",
                "rounds_convention": "number of rounds R with sum_{i<R} s_i >= K (paper's T = R - 1)"}
    if fewer and stable:
        return Verdict("holds", "sampled", evidence=evidence)
    return Verdict("refuted", "sampled", evidence=evidence, counterexample={"rows": small})


@claim(id="000.lemma-B3.omega-derivative", seed="000", result="Lemma B.3", role="proof-step", lines="L448-L456",
       statement="z/omega(z) is increasing when gamma(y) >= y gamma'(y) g/(g-1): z omega'(z) = y gamma'(y) g/(g-1) at y = (z(g-1)/g)^{g/(g-1)}.",
       recorded="holds")
def omega_derivative() -> Verdict:
    h, g = _g_positive()
    z = sp.Symbol("z", positive=True)
    gamma = sp.Function("gamma")
    a = (g - 1) / g
    y = (z * a) ** (g / (g - 1))
    omega = gamma(y)
    lhs = z * sp.diff(omega, z)
    rhs = (y * g / (g - 1)) * sp.Subs(sp.Derivative(gamma(sp.Symbol("u")), sp.Symbol("u")), sp.Symbol("u"), y).doit()
    diff = sp.simplify(sp.powsimp(sp.expand_power_base(sp.simplify(lhs / rhs), force=True), force=True))
    quotient_rule = sp.simplify(sp.diff(z / omega, z) - (1 / omega) * (1 - z * sp.diff(omega, z) / omega))
    ok = diff == 1 and quotient_rule == 0
    return Verdict("holds" if ok else "refuted", "symbolic", margin=0.0 if ok else None, arithmetic=("sympy",),
                   evidence={"z omega' / (y gamma'(y) g/(g-1))": str(diff), "quotient rule residual": str(quotient_rule)},
                   counterexample=None if ok else {"ratio": str(diff)})


@claim(id="000.sequences.i-over-ln-i-domain", seed="000", recheck=recheck_i_over_ln_i, result="Fig 3", role="typo", lines="L1883-L1893",
       statement="The O(i/ln i) method s_i = a i/ln(i) + b defines a sample size for every round i = 0, 1, 2, ...",
       recorded="refuted")
def i_over_ln_i_domain() -> Verdict:
    # ln 1 = 0 exactly, so i = 1 divides by zero; at i = 0, i/ln i -> 0 (a round of size b).
    z = sp.Symbol("i", positive=True)
    at_one = sp.log(sp.Integer(1))
    at_zero = sp.limit(z / sp.log(z), z, 0, "+")
    evidence = {"ln(1)": str(at_one), "lim_{i->0+} i/ln i": str(at_zero),
                "fix": "start at i = 2 (sequences.i_over_log_i(start=2)) or use (i+2)/ln(i+2)"}
    evidence["domain"] = "i = 1 (a witness)"
    if at_one == 0:
        why = (f"s_i = a i/ln(i) + b (L1883-1893) divides by ln(1) = {at_one} at i = 1 (and at i = 0 only the limit "
               f"i/ln i -> {at_zero} exists): the method is defined from i = 2 on. The suite starts it at i = 2 "
               f"(sequences.i_over_log_i(start=2)); a slip in the definition that changes no printed number.")
        return Verdict("refuted", "exact", margin=-1.0, evidence={**evidence, "margin_unit": "indicator: -1 = the stated identity/condition fails (no natural scale)"},
                       counterexample={"i": 1, "a": 50, "b": 0, "s_i": "50*1/ln(1): division by zero"}, why=why,
                       arithmetic=("sympy",))
    return Verdict("holds", "exact", evidence=evidence, arithmetic=("sympy",))


# --- an admissible family for Lemma B.3: gamma(z) = (1+z)^beta, 0 <= beta <= (g-1)/g ------------------

def power_gamma_instance(g, beta, m: int, d: int):
    r"""Lemma B.3's S, tau for :math:`\gamma(z) = (1+z)^\beta`, the smallest :math:`M_0`, and :math:`M_1 = d+1`.

    Admissible: :math:`\gamma \ge 1`, :math:`\gamma' \ge 0`, and :math:`z\gamma'(z)/\gamma(z) = \beta z/(1+z) < \beta
    \le (g-1)/g` gives :math:`\gamma \ge z\gamma' g/(g-1)` (L436).
    """
    g, beta = mpmath.mpf(g), mpmath.mpf(beta)
    if not (g > 1 and 0 <= beta <= (g - 1) / g):
        raise InvalidParameter(f"need g > 1 and 0 <= beta <= (g-1)/g, got g={g}, beta={beta}")
    a = (g - 1) / g
    gamma = lambda z: (1 + z) ** beta  # noqa: E731
    omega = lambda x: gamma((x * a) ** (g / (g - 1)))  # noqa: E731
    S = lambda x: ((x / omega(x)) * a) ** (1 / (g - 1))  # noqa: E731
    M0 = ((m + 1) * a) ** (g / (g - 1))
    tau = lambda X: (d + 1) + ((X + M0) / gamma(X + M0)) ** (1 / g)  # noqa: E731
    return S, tau


#: the grid of 000.lemma-B3.conclusion-family (g, beta as a fraction of (g-1)/g, offsets m, thresholds d).
FAMILY_G = ("1.5", "2", "3")
FAMILY_BETA_FRACTION = ("0.25", "0.5", "1")   # beta = 0 is the exact gamma = 1 case (conclusion-exact)
FAMILY_M, FAMILY_D, FAMILY_ROUNDS = (0, 3, 20), (0, 1, 2), 120


@claim(id="000.lemma-B3.conclusion-family", seed="000", result="Lemma B.3", role="conclusion", lines="L434-L444",
       statement="Lemma B.3's s_i satisfies property (3) for admissible gamma(z) = (1+z)^beta (0 <= beta <= (g-1)/g), g in {1.5, 2, 3}.",
       recorded="holds")
def lemma_b3_conclusion_family() -> Verdict:
    worst, where, points = None, None, 0
    with mpmath.workdps(MP_DPS):
        for g in FAMILY_G:
            for frac in FAMILY_BETA_FRACTION:
                beta = mpmath.mpf(frac) * (mpmath.mpf(g) - 1) / mpmath.mpf(g)
                for m in FAMILY_M:
                    for d in FAMILY_D:
                        S, tau = power_gamma_instance(g, beta, m, d)
                        seq = lemma_b3_sequence(S, m, d, FAMILY_ROUNDS)
                        slack, i = property_2_slack(seq, tau, d)
                        points += 1
                        if worst is None or slack < worst:
                            worst, where = slack, {"g": g, "beta": float(beta), "m": m, "d": d, "i": i}
    evidence = {"points": points, "rounds": FAMILY_ROUNDS, "min_slack_at": where,
                "grid": {"g": list(FAMILY_G), "beta/((g-1)/g)": list(FAMILY_BETA_FRACTION), "m": list(FAMILY_M),
                         "d": list(FAMILY_D)}, "M0": "smallest allowed", "M1": "d+1"}
    if worst < 0:
        return Verdict("refuted", "numeric", margin=float(worst), evidence=evidence, counterexample=where)
    return Verdict("holds", "sampled", margin=float(worst), evidence=evidence)  # a grid, not every admissible gamma
