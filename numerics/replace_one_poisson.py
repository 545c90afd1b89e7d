r"""Poisson-subsampled Gaussian steps under replace-one: the +-1 pair is a dominating pair (issue 25 item 4).

For rate q and noise multiplier sigma (clip norm 1) every step of every replace-one pair of data sets,
given the history and whatever the adversary's gradient map, is a Blackwell garbling of

    R_q = ( (1-q) N(0, sigma^2) + q N(1, sigma^2),  (1-q) N(0, sigma^2) + q N(-1, sigma^2) ),

the ``replace`` pair of numerics.pld_pairs, which is itself realised (the differing records' clipped
gradients are opposite unit vectors, every other record's gradient is 0). Proof in docs/replace_one.md
section 6: (a) the other records' contribution is a public coin, leaving
:math:`K(u, v) = ((1-q)N(0) + qN(u), (1-q)N(0) + qN(v))`, :math:`|u|, |v| \le 1`; (b) a contraction
reduces it to unit u, v; (c) for unit vectors at correlation :math:`\rho = \langle u, v\rangle` the
hockey-stick divergence is nonincreasing in :math:`\rho` (Price's theorem: the interior terms cancel and
the remaining boundary term is negative), so :math:`\rho = -1`, the +-1 pair, is the worst, for every
alpha. By the adaptive composition theorem (Dong, Roth, Su 2022, Sec. 3) the T-step transcript is
dominated by :math:`R_q^{\otimes T}`, which is realizable: the answer is the composition of the +-1 pair,
exactly, and the bracket below is only the discretisation's (numerics.pld's connect-the-dots upper and
interval-quantised lower grids of the ``replace`` pair).

``numerics.pld.epsilon_pld`` and ``delta_pld`` compose this pair for every replace-one Poisson schedule;
the two functions below are the same computation with the adjacency checked, named after the result.
"""
from __future__ import annotations

from .errors import InvalidParameter
from .pld import delta_pld, epsilon_pld
from .precision import PLD_RELATIVE_WIDTH
from .results import DeltaBounds, EpsilonBounds


def _replace_one(schedule):
    if schedule.adjacency != "replace-one":
        raise InvalidParameter(f"adjacency must be 'replace-one' here, got {schedule.adjacency!r}")
    return schedule


def poisson_replace_one_epsilon(schedule, delta: float, *, rel_width: float = PLD_RELATIVE_WIDTH) -> EpsilonBounds:
    r"""Certified bounds on the optimal epsilon at ``delta`` of a Poisson schedule under replace-one, with
    ``(upper - lower) / upper <= rel_width``: the +-1 pair composed (module docstring), adaptive
    adversaries included."""
    return epsilon_pld(_replace_one(schedule), delta, rel_width=rel_width)


def poisson_replace_one_delta(schedule, epsilon: float, *, rel_width: float = PLD_RELATIVE_WIDTH) -> DeltaBounds:
    r"""Certified bounds on the optimal delta at ``epsilon`` (same pair as :func:`poisson_replace_one_epsilon`)."""
    return delta_pld(_replace_one(schedule), epsilon, rel_width=rel_width)
