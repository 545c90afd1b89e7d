r"""Fixed-size (sampling without replacement) Gaussian steps under replace-one, against an adaptive adversary.

One step: a batch of ``b`` of ``n`` records drawn uniformly without replacement, clipped sum (clip norm
C = 1) plus :math:`N(0, \sigma^2 I)`; :math:`g = b/n`. The two data sets D, D' differ in record i
(contributions u under D, v under D', :math:`|u|, |v| \le 1`). The extreme step pairs are

* ``PQ``  :math:`P = (1-g)N(0,\sigma^2) + gN(2,\sigma^2)` against :math:`Q = N(0,\sigma^2)`,
* ``QP``  the same two distributions in the other order, (Q, P),
* ``pm1`` :math:`(1-g)N(0,\sigma^2) + gN(1,\sigma^2)` against :math:`(1-g)N(0,\sigma^2) + gN(-1,\sigma^2)`.

All three are realised by one pair of neighbouring data sets (realizability, below). The full argument
with every step is in ``docs/replace_one.md``; its conclusions:

Bounds returned (for :math:`\delta^*(\varepsilon)`, the supremum over adaptive adversaries of the
hockey-stick divergence of the T-step transcripts of D and D')
--------------------------------------------------------------------------------------------------
* **Lower** (certified): the value of a restricted adaptive adversary that chooses, at the start of each
  of B blocks of consecutive steps, one of ``PQ``, ``QP``, ``pm1`` for the whole block, as a function of
  the running privacy loss rounded down to the grid. It is computed by dynamic programming over the
  running loss with masses, losses and the value function all rounded in the safe (downward) direction,
  so it is below the value of a policy an adversary can actually run, hence below :math:`\delta^*`.
  It is never below the best fixed order (one block). Restricting the adversary to blocks only lowers
  the bound; it never invalidates it.
* **Upper** (certified): every one-step pair of the family (differing record and all other records
  anywhere in the unit ball, any dimension, any history) has
  :math:`H_\alpha \le \max(H_\alpha(P\|Q), H_\alpha(Q\|P))` for every :math:`\alpha > 0` (proof in the
  docs, by advanced joint convexity), so each step, given the history, is a Blackwell garbling of the
  symmetrised pair S whose privacy profile is that maximum (Dong, Roth, Su 2022, the subsampling
  theorem's :math:`C_p(f)`); by the adaptive f-DP composition theorem the transcript is dominated by
  :math:`S^{\otimes T}`, which is composed here on a connect-the-dots grid (an upper bound at every grid
  step).
* **Not proven, refuted**: that every one-step pair is a garbling of ``PQ`` or of ``QP`` (issue 25,
  item 2). ``pm1`` is realizable and exceeds ``PQ`` at some :math:`\alpha < 1` and ``QP`` at some
  :math:`\alpha > 1` (:func:`garbling_counterexample`). So the dynamic programme over the two orders is
  NOT an upper bound, and the interval between the lower and the upper bound is not closed here.

Realizability (the gradient map of the lower bound's adversary)
----------------------------------------------------------------
Model dimension d = T + 1, coordinates :math:`e_1, \dots, e_T`. At step t every record's clipped
gradient lies on :math:`e_t`: the target record gives :math:`+e_t` in D and :math:`-e_t` in D'; every
other record gives :math:`c_t e_t` with :math:`c_t \in \{-1, 0, +1\}`. The released noisy sum's
coordinate t, minus :math:`c_t b`, is then distributed as (after the scaling z -> z + c_t b) ``PQ`` for
:math:`c_t = -1`, as ``QP`` mirrored for :math:`c_t = +1`, as ``pm1`` for :math:`c_t = 0`. The parameter
after step t keeps every earlier released coordinate exactly (plain SGD: :math:`\theta_{t+1} = \theta_t -
\eta y_t`, each step writing a fresh coordinate), so :math:`c_t` may be any function of the earlier
outputs: the adversary's loss function is :math:`\ell(\theta, x) = \langle \theta, e_t\rangle\, s(x,
\theta)` with the sign :math:`s` read from :math:`\theta`'s earlier coordinates through the policy. The step
index t is public (the optimiser's step counter). This is an ordinary differentiable loss, so the
adaptive value is a true lower bound for DP-SGD with fixed-size batches.

Floating point: as in numerics.pld (FFT noise measured and moved to the safe side; the dynamic
programme's FFT correlations: the standard bound u log2(n) ||a|| ||b|| (times 8) subtracted per block).
"""
from __future__ import annotations

import math
import time

import numpy as np
import scipy.signal

from .errors import InvalidParameter, check_delta, check_epsilon, check_q, check_sigma, check_steps
from .pld import (ComposedPLD, GridPLD, _delta_upper, _eps_upper, compose, discretise_optimistic,
                  discretise_pessimistic, epsilon_pld)
from .pld_pairs import MixturePair
from .precision import PLD_RELATIVE_WIDTH
from .results import DeltaBounds, EpsilonBounds
from .schedule import Schedule

#: the actions of the lower bound's adversary (module docstring)
ACTIONS = ("PQ", "QP", "pm1")
#: FFT correlation error per entry allowed for, in units of u log2(n) ||a||_2 ||b||_2 (u = 2^-53, the
#: standard error bound of an FFT-based convolution, with a factor 8 spare)
_FFT_ERR = 8.0 * 2.0 ** -53


def step_pair(action: str, g: float, sigma: float) -> MixturePair:
    """The one-step pair of ``action`` as a numerics.pld_pairs.MixturePair (loss increasing in z).

    ``PQ`` is the ``remove`` pair at noise sigma/2 (divide the output by 2), ``QP`` the ``add`` pair at
    sigma/2 (divide by -2), ``pm1`` the ``replace`` pair at sigma.
    """
    if action == "PQ":
        return MixturePair(g, sigma / 2.0, "remove")
    if action == "QP":
        return MixturePair(g, sigma / 2.0, "add")
    if action == "pm1":
        return MixturePair(g, sigma, "replace")
    raise InvalidParameter(f"action must be one of {ACTIONS}, got {action!r}")


# --------------------------------------------------------------------------------------------------
# upper bound: the symmetrised pair S, profile max(H(P||Q), H(Q||P)), on a connect-the-dots grid
# --------------------------------------------------------------------------------------------------

def grid_profile(step: GridPLD, h: float, j: np.ndarray) -> np.ndarray:
    r"""Hockey-stick divergence of a grid PLD at :math:`\varepsilon = j h` for the integer array j."""
    x = (step.k0 + np.arange(len(step.pmf))) * h
    out = np.empty(len(j))
    for i, jj in enumerate(j):
        above = x > jj * h
        out[i] = step.inf_mass + float(np.sum(step.pmf[above] * -np.expm1(jj * h - x[above])))
    return out


def _profile_on(step: GridPLD, h: float, lo: int, hi: int) -> np.ndarray:
    """Grid profile at every j in [lo, hi] in O(n): D_j = inf + A_j - B_j (suffix sums, see pld)."""
    pmf = np.zeros(hi - lo + 1)
    pmf[step.k0 - lo:step.k0 - lo + len(step.pmf)] = step.pmf
    x = np.arange(lo, hi + 1) * h
    rel = x[-1] - x  # <= 700 for the windows used here (checked by the caller)
    a = np.concatenate([np.cumsum(pmf[::-1])[::-1][1:], [0.0]])
    w = np.concatenate([np.cumsum((pmf * np.exp(rel))[::-1])[::-1][1:], [0.0]])
    return step.inf_mass + a - w * np.exp(-rel)


def symmetrised_grid(g: float, sigma: float, h: float, tail: float) -> GridPLD:
    r"""A grid PLD whose profile at every grid point is :math:`\max(D_{PQ}, D_{QP})` of the two orders'
    connect-the-dots grids, and linear in :math:`e^\varepsilon` between grid points; it dominates S.

    Where the maximum is one order's profile at j-1, j and j+1, the mass at j is that order's mass
    (the masses are second differences of the profile); elsewhere (the crossing, near 0) it is the
    second difference itself, raised by a float margin (extra mass only raises every divergence).
    """
    pq = discretise_pessimistic(step_pair("PQ", g, sigma), h, tail)
    qp = discretise_pessimistic(step_pair("QP", g, sigma), h, tail)
    lo = min(pq.k0, qp.k0) - 1
    hi = max(pq.k0 + len(pq.pmf), qp.k0 + len(qp.pmf)) + 1
    if (hi - lo) * h > 700.0:
        raise InvalidParameter("symmetrised_grid: loss window wider than 700 nats")
    d1, d2 = _profile_on(pq, h, lo, hi), _profile_on(qp, h, lo, hi)
    d = np.maximum(d1, d2)
    inf_mass = max(pq.inf_mass, qp.inf_mass)

    def masses(step):
        m = np.zeros(hi - lo + 1)
        m[step.k0 - lo:step.k0 - lo + len(step.pmf)] = step.pmf
        return m

    m1, m2 = masses(pq), masses(qp)
    first = d1 >= d2
    both1 = np.zeros_like(first)
    both1[1:-1] = first[:-2] & first[1:-1] & first[2:]
    both2 = np.zeros_like(first)
    both2[1:-1] = ~first[:-2] & ~first[1:-1] & ~first[2:]
    # second differences: S_j = (D'_{j-1} - D'_j) / (1 - e^{-h}), m_j = S_j - e^{-h} S_{j+1}
    dp = d - inf_mass
    s = np.zeros(len(d) + 1)
    s[1:len(d)] = (dp[:-1] - dp[1:]) / (-math.expm1(-h))
    second = s[:-1] - math.exp(-h) * s[1:]
    pmf = np.where(both1, m1, np.where(both2, m2, np.maximum(second, 0.0) + 1e-13))
    pmf[0] = 0.0
    pmf[0] = max(1.0 - inf_mass - float(pmf.sum()), 0.0)  # the rest at the lowest point (profile below)
    return GridPLD(lo, pmf, inf_mass)


def _upper_composed(g, sigma, steps, h, tail) -> ComposedPLD:
    per_step = tail / steps
    return compose([(symmetrised_grid(g, sigma, h, per_step), steps)], h, tail)


# --------------------------------------------------------------------------------------------------
# lower bound: dynamic programme over the running loss, by blocks of fixed action
# --------------------------------------------------------------------------------------------------

def _block_lower(step: GridPLD, count: int, h: float, tail: float, ratio: int):
    """(K0, entrywise lower masses, wrap bound) of ``count`` compositions of an optimistic grid PLD on
    the fine grid h, the composed losses then rounded DOWN to the coarse grid H = ratio * h."""
    c = compose([(step, count)], h, tail)
    fine = np.maximum(c.pmf - c.noise, 0.0)
    k = c.k0 + np.arange(len(fine))
    coarse = np.floor_divide(k, ratio)
    return int(coarse[0]), np.bincount(coarse - coarse[0], weights=fine), c.wrap_mass


def _expect(v: np.ndarray, kmin: int, k0: int, m: np.ndarray) -> np.ndarray:
    """out[K - kmin] = sum_i m_i v~(K + k0 + i), v~ = 0 below the window and v[-1] above it."""
    n = len(v)
    lo_ext, hi_ext = kmin + k0, kmin + n - 1 + k0 + len(m) - 1
    ext = np.zeros(hi_ext - lo_ext + 1)
    a = max(kmin, lo_ext)
    b = min(kmin + n - 1, hi_ext)
    if a <= b:
        ext[a - lo_ext:b - lo_ext + 1] = v[a - kmin:b - kmin + 1]
    top = kmin + n - 1
    if hi_ext > top:
        ext[max(top + 1, lo_ext) - lo_ext:] = v[-1]
    out = scipy.signal.fftconvolve(ext, m[::-1], mode="valid")
    return out - _FFT_ERR * math.log2(len(ext) + len(m)) * float(np.linalg.norm(ext) * np.linalg.norm(m))


def block_lengths(steps: int, blocks: int) -> list[int]:
    """``blocks`` (at most ``steps``) consecutive block lengths summing to ``steps``, as equal as possible."""
    blocks = max(1, min(blocks, steps))
    base, extra = divmod(steps, blocks)
    return [base + 1] * extra + [base] * (blocks - extra)


def adaptive_lower_profile(g: float, sigma: float, steps: int, h: float, eps_range: tuple[float, float],
                           *, ratio: int = 1, blocks: int = 8, actions=ACTIONS, tail: float = 1e-15,
                           top: float = 3.0):
    r"""Certified lower bounds on :math:`\delta^*(\varepsilon)` at the coarse-grid values
    :math:`\varepsilon = -K H` (H = ``ratio`` * h) in ``eps_range``: returns ``(eps, delta_lower, chosen)``.

    Each block's loss is composed on the fine grid h (optimistic one-step grids, numerics.pld) and
    rounded down to H. Terminal value :math:`(1 - e^{-L})_+` on L = K H, K in [kmin, kmax]; starting
    from L = -eps the programme's value at time 0 is a lower bound on :math:`\delta^*` at eps. Below kmin
    the value is taken as 0, above kmax as the value at kmax (the adversary tracks the clamped state;
    docs/replace_one.md, section 3). ``chosen[a]``: number of blocks where action a is taken at the
    state read for the middle of ``eps_range`` (a diagnostic, not part of the bound).
    """
    per_step = tail / steps
    big_h = ratio * h
    lows = {a: discretise_optimistic(step_pair(a, g, sigma), h, per_step) for a in actions}
    lengths = block_lengths(steps, blocks)
    sd = math.sqrt(steps * max(_variance(s, h) for s in lows.values()))
    kmin = math.floor((-eps_range[1] - 6.0 * sd - 0.5) / big_h)
    kmax = math.ceil(top / big_h)
    x = np.arange(kmin, kmax + 1) * big_h
    v = np.clip(-np.expm1(-np.maximum(x, 0.0)), 0.0, 1.0)
    cache = {}
    chosen = {a: 0 for a in actions}
    k_read = min(max(int(round(-0.5 * (eps_range[0] + eps_range[1]) / big_h)) - kmin, 0), len(v) - 1)
    for length in reversed(lengths):
        vals = []
        for a in actions:
            if (a, length) not in cache:
                cache[(a, length)] = _block_lower(lows[a], length, h, tail / len(lengths), ratio)
            k0, m, wrap = cache[(a, length)]
            vals.append(_expect(v, kmin, k0, m) - wrap)
        vals = np.array(vals)
        chosen[actions[int(np.argmax(vals[:, k_read]))]] += 1
        v = np.clip(vals.max(axis=0), 0.0, 1.0)
    ks = np.arange(math.ceil(-eps_range[1] / big_h), math.floor(-eps_range[0] / big_h) + 1)
    return -ks * big_h, v[ks - kmin], chosen


def _variance(step: GridPLD, h: float) -> float:
    x = (step.k0 + np.arange(len(step.pmf))) * h
    m = step.pmf.sum()
    mean = float(np.dot(step.pmf, x) / m)
    return float(np.dot(step.pmf, (x - mean) ** 2) / m)
