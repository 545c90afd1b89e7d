r"""Sample-size sequences: how many gradient evaluations each round of training performs.

Each sequence maps the round index ``i`` to a real size; :func:`round_sizes` turns it into integer
round sizes (ceiling, at least 0) until a budget of ``total`` evaluations is spent, the last round cut
to the budget. Seed 000 names the families (000_d613b97385d90362.txt L1885-L1891, Tables 1-2 L1832):

* ``constant``: :math:`s_i = s`;
* ``power`` ("O(i) method"): :math:`s_i = a\,i^c + b` with :math:`c \in [0, 1]`, :math:`0^0 = 1`
  (``c = 1`` is the "linear" sequence of Figs 1a, 6-11);
* ``i_over_log_i``: :math:`s_i = a\,i/\ln i + b`, defined from ``i = 2`` (undefined at ``i = 1``);
* ``proactive``: :math:`s_{i,c} = N_c\,q\,(i+m)^p` (000 Thm 3.2 L194-L214; Fig 12, L1968);
* ``exponential``: :math:`s_i = a\,r^i` (named as a bad choice, L1893).

Whether ``s_i`` counts one client's evaluations or all clients' is the caller's choice; seed 000's
Fig 3 counts all clients' (L1883), Figs 12 and seed 002 count one client's.
"""
from __future__ import annotations

import math
from typing import Callable

from numerics.errors import InvalidParameter


def _finite(name: str, value, lo: float = -math.inf) -> float:
    x = float(value)
    if not (math.isfinite(x) and x >= lo):
        raise InvalidParameter(f"{name} must be a finite number >= {lo}, got {value!r}")
    return x


def sequence(kind: str, **p) -> Callable[[int], float]:
    """The size function ``i -> s_i`` of a named family (parameters as in the module docstring)."""
    if kind == "constant":
        s = _finite("s", p["s"], 0.0)
        return lambda i: s
    if kind == "power":
        a, c, b = _finite("a", p["a"], 0.0), _finite("c", p["c"], 0.0), _finite("b", p.get("b", 0.0), 0.0)
        return lambda i: a * (1.0 if i == 0 and c == 0 else float(i) ** c) + b
    if kind == "i_over_log_i":
        a, b = _finite("a", p["a"], 0.0), _finite("b", p.get("b", 0.0), 0.0)
        return lambda i: a * i / math.log(i) + b if i >= 2 else math.nan
    if kind == "proactive":
        n_c, q = _finite("n_c", p["n_c"], 1.0), _finite("q", p["q"], 0.0)
        m, pw = _finite("m", p["m"], 0.0), _finite("p", p["p"], 0.0)
        return lambda i: n_c * q * (i + m) ** pw
    if kind == "exponential":
        a, r = _finite("a", p["a"], 0.0), _finite("r", p["r"], 1.0)
        return lambda i: a * r ** i
    raise InvalidParameter(f"sequence kind must be constant, power, i_over_log_i, proactive or exponential, got {kind!r}")


def round_sizes(kind: str, *, total: int, start: int = 0, max_rounds: int = 10_000_000, **p) -> list[int]:
    """Integer round sizes ``ceil(s_i)`` for ``i = start, start+1, ...`` until ``total`` is spent.

    The last round is cut so the sizes sum to exactly ``total``; rounds of size 0 (e.g. ``s_0 = 0``
    for ``a i``) are kept, because the paper's round counts include them.
    """
    if int(total) != total or total < 1:
        raise InvalidParameter(f"total must be a positive integer, got {total!r}")
    f, sizes, spent, i = sequence(kind, **p), [], 0, int(start)
    while spent < total:
        v = f(i)
        if not math.isfinite(v):
            raise InvalidParameter(f"sequence {kind} is undefined at round index {i}; choose start >= 2")
        s = min(int(math.ceil(v - 1e-12)), total - spent)
        sizes.append(s)
        spent += s
        i += 1
        if len(sizes) > max_rounds:
            raise InvalidParameter(f"sequence {kind} with {p} does not spend total={total} in {max_rounds} rounds")
    return sizes
