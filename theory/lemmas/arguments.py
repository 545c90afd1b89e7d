"""Argument checks shared by the lemmas' functions: lambda, q in (0, 1), positive reals as mpf.

Exact inputs (mpf, int, Fraction) reach mpmath without a detour through float.
"""
from __future__ import annotations

import numbers
from fractions import Fraction

import mpmath

from numerics.errors import InvalidParameter, check_epsilon, check_q, check_sigma, check_steps


def check_q_open(q) -> float:
    """q in (0, 1): the lemma divides by 1 - q."""
    x = check_q(q)
    if x >= 1.0:
        raise InvalidParameter(f"q must lie in (0, 1), got {q!r}")
    return x


def check_lam(lam) -> int:
    """lambda: a positive integer (the proof expands (1 + x)^(lambda + 1) binomially)."""
    if isinstance(lam, numbers.Real) and not isinstance(lam, numbers.Integral) and not float(lam).is_integer():
        raise InvalidParameter(f"lam must be a positive integer, got {lam!r}")
    return check_steps(lam, "lam")


def check_u(u, name: str) -> float:
    """u0, u1 in [0, 1): the geometric series 1/(1-u) must converge."""
    x = check_epsilon(u, name)
    if x >= 1.0:
        raise InvalidParameter(f"{name} must lie in [0, 1), got {u!r}")
    return x


def as_mpf(value, checked: float):
    """The value as mpf without a detour through float when it is already exact (mpf, int, Fraction)."""
    if isinstance(value, mpmath.mpf):
        return value
    if isinstance(value, Fraction):
        return mpmath.mpf(value.numerator) / value.denominator
    if isinstance(value, numbers.Integral):
        return mpmath.mpf(int(value))
    return mpmath.mpf(checked)


def positive_mpf(value, name: str = "sigma"):
    """A finite positive real, as mpf."""
    return as_mpf(value, check_sigma(value, name))


def q_open_mpf(value):
    """q in (0, 1), as mpf."""
    return as_mpf(value, check_q_open(value))
