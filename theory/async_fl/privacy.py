r"""Seed 000, privacy: Lemma D.1, Theorem 3.1 (D.2) and Theorem 3.2 / D.3 (000_d613b97385d90362.txt).

Glossary (seed 000 reuses letters; these are the privacy meanings only, see the reading aid 0.3):

* ``q_i = s_{i,c}/N_c`` sampling ratio of round i; ``n_c`` = :math:`N_c`; ``sample_sizes`` = :math:`s_{i,c}`.
* ``r0``: :math:`r_0`, the bound :math:`q_i \le r_0/\sigma`; ``u0``, ``u1``, ``r``: (14), L947-951.
* Theorem 3.1: :math:`\hat S_j`, :math:`\rho`, :math:`\hat\rho`, :math:`c(x)`, :math:`c_1 = \epsilon/(T\hat S_1^2)`,
  :math:`c_0 = c(c_1)` (L180-190, D.2 L919-1059).
* Theorem D.3 (L1065-1162): ``alpha`` :math:`\ge q(T+m)^p` (a sampling ratio, NOT a log-moment),
  ``gamma`` :math:`\ge m/T`, ``s`` = :math:`N_c q = s_{0,c}/m^p`, ``K`` gradient computations,
  :math:`A, B, K^\pm, K^*`.

The formula functions take a ``lib`` (``mpmath`` for numbers, ``sympy`` for symbols) so that the
numbers the suite prints and the identities it proves come from one expression, not two twins.
Lemma D.1 itself is seed 002's Lemma B.3 and is evaluated through the shared implementation
(:mod:`theory.tail_lemma`); this module only adds seed 000's reading of it.
"""
from __future__ import annotations

import math
from typing import Sequence

import mpmath
import sympy

from numerics.errors import InvalidParameter, check_delta, check_epsilon, check_sigma
from numerics.precision import MP_DPS
from theory.ledger import Verdict, claim

SQRT3_M1_HALF_TEXT = "(sqrt(3)-1)/2"


def _check_nonneg(name: str, value) -> float:
    x = float(value)
    if not (math.isfinite(x) and x >= 0):
        raise InvalidParameter(f"{name} must be a finite number >= 0, got {value!r}")
    return x


# --- (14): u0, u1 and r (L947-951, Lemma D.1 L846-852) ------------------------------------------

def u0(r0, sigma, *, lib=mpmath):
    r"""u_0 = 2\sqrt{r_0\sigma}/(\sigma-r_0) (L951): U_0(\lambda) at \lambda = \sigma^2."""
    return 2 * lib.sqrt(r0 * sigma) / (sigma - r0)


def u1(r0, sigma, *, lib=mpmath):
    r"""u_1 = 2e\sqrt{r_0\sigma}/((\sigma-r_0)\sigma) (L951)."""
    return 2 * lib.e * lib.sqrt(r0 * sigma) / ((sigma - r0) * sigma)


def r_constant(r0, sigma, *, lib=mpmath, u0_value=None, u1_value=None):
    r"""r = r_0 2^3 (1/(1-u_0) + e^3/((1-u_1)\sigma^3)) \exp(3/\sigma^2), (14) L947.

    Hypothesis (L951): u_0 < 1 and u_1 < 1; with numbers, a violation raises InvalidParameter
    (r is then negative or infinite, and the theorem has no content). ``u0_value``/``u1_value``
    override the theorem's choice u_0 = U_0(\sigma^2) (Lemma D.1 allows any u_0 >= U_0(\lambda)).
    """
    return r0 * r_per_r0(r0, sigma, lib=lib, u0_value=u0_value, u1_value=u1_value)


def r_per_r0(r0, sigma, *, lib=mpmath, u0_value=None, u1_value=None):
    r"""r/r_0 = 2^3 (1/(1-u_0) + e^3/((1-u_1)\sigma^3)) \exp(3/\sigma^2), finite at r_0 = 0 (the r_0(\sigma) iteration starts there)."""
    a = u0(r0, sigma, lib=lib) if u0_value is None else u0_value
    b = u1(r0, sigma, lib=lib) if u1_value is None else u1_value
    if lib is mpmath and not (a < 1 and b < 1):
        raise InvalidParameter(f"u0 and u1 must be < 1 (L951), got u0={float(a):.6g}, u1={float(b):.6g}")
    return 8 * (1 / (1 - a) + lib.e ** 3 / ((1 - b) * sigma ** 3)) * lib.exp(3 / sigma ** 2)


# --- Theorem 3.1 (L180-190; D.2 L919-1059) ---------------------------------------------------------

def s_hat(sample_sizes: Sequence[int], n_c: int, j: int):
    r"""\hat S_j = (1/T) \sum_{i=1}^T s_{i,c}^j / (N_c (N_c - s_{i,c})^{j-1}) (L184, L955), in mpmath."""
    if not sample_sizes:
        raise InvalidParameter("sample_sizes must be a non-empty sequence of rounds")
    if any(not 0 < s < n_c for s in sample_sizes):
        raise InvalidParameter(f"each sample size must lie in (0, n_c={n_c}), got {min(sample_sizes)}..{max(sample_sizes)}")
    with mpmath.workdps(MP_DPS):
        total = mpmath.fsum(mpmath.mpf(s) ** j / (n_c * mpmath.mpf(n_c - s) ** (j - 1)) for s in sample_sizes)
        return total / len(sample_sizes)


def c_function(x, r, rho, rho_hat, *, lib=mpmath):
    r"""c(x) = \min\{(\sqrt{2r\rho x+1}-1)/(r\rho x),\ 2/(\hat\rho x)\} (L186, L959)."""
    first = (lib.sqrt(2 * r * rho * x + 1) - 1) / (r * rho * x)
    second = 2 / (rho_hat * x)
    return lib.Min(first, second) if lib is sympy else min(first, second)


def branch_crossing(r, rho, rho_hat):
    r"""\tau = ((2r\rho/\hat\rho+1)^2-1)/(2r\rho) (D.3.1 L1240): c(x) = 2/(\hat\rho x) iff x >= \tau."""
    return ((2 * r * rho / rho_hat + 1) ** 2 - 1) / (2 * r * rho)


def theorem31(sample_sizes: Sequence[int], n_c: int, *, sigma: float, epsilon: float, r0: float) -> dict:
    r"""Evaluate Theorem 3.1 for one client's sample sizes s_{1,c}..s_{T,c} (constant sigma).

    Returns the theorem's quantities with \rho, \hat\rho at their smallest admissible values
    (\hat S_1\hat S_3/\hat S_2^2, \hat S_1^2/\hat S_2), the certified
    \delta = \exp(-c_0\epsilon^2\sigma^2/(4\hat S_2 T)) (the bound L188 solved for delta), the
    proof's \lambda = c_0\epsilon/(2S_2) - 1 (L978, L1027) and every hypothesis as a boolean:
    ``r0_le_1_over_e`` (L947), ``q_le_r0_over_sigma`` (L180), ``u_lt_1`` (L951, absent from L180),
    ``lambda_ge_1`` and ``lambda_integer`` (Abadi's Theorem 2 minimises over positive integers, L967).
    """
    sigma = check_sigma(sigma)
    epsilon = check_epsilon(epsilon)
    with mpmath.workdps(MP_DPS):
        T = len(sample_sizes)
        s1, s2, s3 = (s_hat(sample_sizes, n_c, j) for j in (1, 2, 3))
        rho, rho_hat = s1 * s3 / s2 ** 2, s1 ** 2 / s2
        a, b = u0(r0, sigma), u1(r0, sigma)
        hyp = {"r0_le_1_over_e": bool(r0 <= 1 / mpmath.e),
               "q_le_r0_over_sigma": bool(max(sample_sizes) / n_c <= r0 / sigma),
               "u_lt_1": bool(a < 1 and b < 1)}
        out = {"T": T, "S1": s1, "S2": s2, "S3": s3, "rho": rho, "rho_hat": rho_hat, "u0": a, "u1": b}
        if not hyp["u_lt_1"]:
            return {**out, "hypotheses": hyp, "delta": None}
        r = r_constant(r0, sigma)
        c1 = epsilon / (T * s1 ** 2)
        c0 = c_function(c1, r, rho, rho_hat)
        big_s2 = s2 * T / sigma ** 2  # S_2 = \hat S_2 T / sigma^2 for constant sigma (L1039)
        lam = c0 * epsilon / (2 * big_s2) - 1
        hyp["lambda_ge_1"] = bool(lam >= 1)
        hyp["lambda_integer"] = bool(lam == mpmath.floor(lam))
        log_inv_delta = c0 * epsilon ** 2 * sigma ** 2 / (4 * s2 * T)
        return {**out, "r": r, "c1": c1, "c0": c0, "lambda": lam, "log_inv_delta": log_inv_delta,
                "delta": mpmath.exp(-log_inv_delta), "hypotheses": hyp}


def theorem31_sigma_bound(sample_sizes: Sequence[int], n_c: int, *, epsilon: float, delta: float, r0: float,
                          sigma: float) -> float:
    r"""Right-hand side 2/\sqrt{c_0}\sqrt{\hat S_2 T\ln(1/\delta)}/\epsilon of L188 (c_0 depends on sigma via r)."""
    delta = check_delta(delta)
    t = theorem31(sample_sizes, n_c, sigma=sigma, epsilon=epsilon, r0=r0)
    if t["delta"] is None:
        raise InvalidParameter("u0, u1 must be < 1 for Theorem 3.1 (L951)")
    with mpmath.workdps(MP_DPS):
        return float(2 / mpmath.sqrt(t["c0"]) * mpmath.sqrt(t["S2"] * t["T"] * mpmath.log(1 / delta)) / epsilon)


# --- Theorem D.3 (L1065-1162) and its proof D.3.1 ---------------------------------------------------

def rho_bound(p, alpha, gamma):
    r"""\rho = (2p+1)^2/((p+1)(3p+1)) (1+\gamma)^{2+4p}/(1-\alpha)^2 (L1200)."""
    return (2 * p + 1) ** 2 / ((p + 1) * (3 * p + 1)) * (1 + gamma) ** (2 + 4 * p) / (1 - alpha) ** 2


def rho_hat_bound(p, gamma):
    r"""\hat\rho = (2p+1)/(p+1)^2 (1+\gamma)^{2+2p} (L1201)."""
    return (2 * p + 1) / (p + 1) ** 2 * (1 + gamma) ** (2 + 2 * p)


def a_constant(p, r, alpha, gamma):
    r"""A(p,r_0,\sigma) = (p+1)^{-p/(1+2p)} (r(2p+1)^2/(3p+1) (1+\gamma)^{3(1+2p)}/(1-\alpha)^2)^{(1+p)/(1+2p)} (L1083)."""
    e = (1 + p) / (1 + 2 * p)
    return (p + 1) ** (-p / (1 + 2 * p)) * (r * (2 * p + 1) ** 2 / (3 * p + 1)
                                            * (1 + gamma) ** (3 * (1 + 2 * p)) / (1 - alpha) ** 2) ** e


def crossing_ratio(p, r, alpha, gamma):
    r"""X = 2r(p+1)(2p+1)(1+\gamma)^{2p}/((3p+1)(1-\alpha)^2) + 1 = 2r\rho/\hat\rho + 1 (L1240)."""
    return 2 * r * (p + 1) * (2 * p + 1) * (1 + gamma) ** (2 * p) / ((3 * p + 1) * (1 - alpha) ** 2) + 1


def b_constant(p, r, alpha, gamma):
    r"""B(p,r_0,\sigma) = A (1+\gamma)^{-(1+p)(3+4p)/(1+2p)} (2/(X^2-1))^{(1+p)/(1+2p)} (L1084, L1286)."""
    e = (1 + p) / (1 + 2 * p)
    x = crossing_ratio(p, r, alpha, gamma)
    return a_constant(p, r, alpha, gamma) * (1 + gamma) ** (-(1 + p) * (3 + 4 * p) / (1 + 2 * p)) * (2 / (x ** 2 - 1)) ** e


def k_pm(constant, p, epsilon, n_c, s):
    r"""K^\pm = C \epsilon^{(1+p)/(1+2p)} (N_c/s)^{1/(1+2p)} N_c with C = B (K^-) or A (K^+) (L1097, L1110)."""
    return constant * epsilon ** ((1 + p) / (1 + 2 * p)) * (n_c / s) ** (1 / (1 + 2 * p)) * n_c


def k_star(p, alpha, n_c, s, gamma, *, corrected: bool = False):
    r"""K^* = \alpha^{(1+p)/p}/(p+1) (N_c/s)^{1/p} N_c (1+\gamma)^{\pm(1+p)} (L1080 prints +; the
    derivation L1183-1190 gives -, ``corrected=True``). p > 0."""
    sign = -1 if corrected else 1
    return alpha ** ((1 + p) / p) / (p + 1) * (n_c / s) ** (1 / p) * n_c * (1 + gamma) ** (sign * (1 + p))


def t_bounds(p, k, s, gamma):
    r"""(19) L1212: ((p+1)K/s)^{1/(1+p)}/(1+\gamma) <= T <= ((p+1)K/s)^{1/(1+p)}; returns (lower, upper)."""
    upper = ((p + 1) * k / s) ** (1 / (1 + p))
    return upper / (1 + gamma), upper


def s_hat_upper(j, p, q, t, alpha, gamma):
    r"""Printed upper bound q^j T^{pj}/(pj+1) (1+\gamma)^{1+pj}/(1-\alpha)^{j-1} on \hat S_j (L1195)."""
    return q ** j * t ** (p * j) / (p * j + 1) * (1 + gamma) ** (1 + p * j) / (1 - alpha) ** (j - 1)


def budget(epsilon, delta, *, lib=mpmath):
    r"""Privacy budget \mathcal B = \sqrt{2\ln(1/\delta)/\epsilon} (L216, L1500)."""
    return lib.sqrt(2 * lib.log(1 / delta) / epsilon)


def delta_from_budget(b, epsilon, *, lib=mpmath):
    r"""Inverse of :func:`budget`: \delta = \exp(-\epsilon\mathcal B^2/2)."""
    return lib.exp(-epsilon * b ** 2 / 2)


def case1_factor(p, alpha, gamma, *, lib=mpmath):
    r"""(1+\gamma)^{2+3p}/\sqrt{1-\alpha}: case 1 of Theorem D.3 reads \sigma >= \mathcal B times this (L1102)."""
    return (1 + gamma) ** (2 + 3 * p) / lib.sqrt(1 - alpha)
