"""One error type for bad input, and the validators that raise it.

Every public entry point of the suite validates its parameters here, so a NaN, a negative sigma or a
q outside (0, 1] gives one clear line naming the parameter and its allowed range (the CLI turns it into
exit status 2), never a silent wrong number.
"""
from __future__ import annotations

import math
import numbers


class InvalidParameter(ValueError):
    """A parameter outside its allowed range; the message is one line naming both."""


def _real(name: str, value) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise InvalidParameter(f"{name} must be a real number, got {value!r}")
    x = float(value)
    if math.isnan(x):
        raise InvalidParameter(f"{name} must be a real number, got NaN")
    return x


def check_q(q, name: str = "q") -> float:
    """Sampling rate: q in (0, 1]."""
    x = _real(name, q)
    if not 0.0 < x <= 1.0:
        raise InvalidParameter(f"{name} must lie in (0, 1], got {q!r}")
    return x


def check_sigma(sigma, name: str = "sigma") -> float:
    """Noise multiplier: sigma in (0, inf)."""
    x = _real(name, sigma)
    if not 0.0 < x < math.inf:
        raise InvalidParameter(f"{name} must be a finite number > 0, got {sigma!r}")
    return x


def check_delta(delta, name: str = "delta") -> float:
    """Target delta: delta in (0, 1)."""
    x = _real(name, delta)
    if not 0.0 < x < 1.0:
        raise InvalidParameter(f"{name} must lie in (0, 1), got {delta!r}")
    return x


#: the delta range the accountants' command line certifies (README "The accountant CLI"): below 1e-15 the
#: FFT's rounding is not bounded relative to delta; above 0.5 epsilon(delta) is 0 or close to it for every
#: mechanism a user would run, and a delta that large is no privacy guarantee.
ACCOUNTANT_DELTA_MIN, ACCOUNTANT_DELTA_MAX = 1e-15, 0.5


#: the largest noise multiplier the accountants take: far beyond any useful one (epsilon is 0 to double
#: precision long before), and small enough that sigma^4 stays a finite double
ACCOUNTANT_SIGMA_MAX = 1e50


def check_accountant_sigma(sigma, name: str = "sigma") -> float:
    """Noise multiplier of the accountants: sigma in (0, 1e50]."""
    x = check_sigma(sigma, name)
    if x > ACCOUNTANT_SIGMA_MAX:
        raise InvalidParameter(f"{name} must lie in (0, {ACCOUNTANT_SIGMA_MAX:g}], got {sigma!r}")
    return x


def check_accountant_delta(delta, name: str = "delta") -> float:
    """Target delta of the accountants' command line: delta in [1e-15, 0.5]."""
    x = _real(name, delta)
    if not ACCOUNTANT_DELTA_MIN <= x <= ACCOUNTANT_DELTA_MAX:
        raise InvalidParameter(f"{name} must lie in [{ACCOUNTANT_DELTA_MIN:g}, {ACCOUNTANT_DELTA_MAX:g}], "
                               f"got {delta!r}")
    return x


def check_epsilon(epsilon, name: str = "epsilon") -> float:
    """Target epsilon: epsilon in [0, inf)."""
    x = _real(name, epsilon)
    if not 0.0 <= x < math.inf:
        raise InvalidParameter(f"{name} must be a finite number >= 0, got {epsilon!r}")
    return x


def check_steps(steps, name: str = "steps") -> int:
    """Number of compositions: a positive integer (an integral float such as 1e3 is accepted)."""
    if isinstance(steps, bool):
        raise InvalidParameter(f"{name} must be a positive integer, got {steps!r}")
    if isinstance(steps, numbers.Integral):
        n = int(steps)
    elif isinstance(steps, numbers.Real) and math.isfinite(float(steps)) and float(steps).is_integer():
        n = int(steps)
    else:
        raise InvalidParameter(f"{name} must be a positive integer, got {steps!r}")
    if n < 1:
        raise InvalidParameter(f"{name} must be a positive integer, got {steps!r}")
    return n


def check_order(order, name: str = "order") -> float:
    """Renyi order lambda: a real number > 1."""
    x = _real(name, order)
    if not 1.0 < x < math.inf:
        raise InvalidParameter(f"{name} must be a finite number > 1, got {order!r}")
    return x
