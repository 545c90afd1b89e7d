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

Realizability and threat model of each end (issue 29)
-----------------------------------------------------
The lower bound's adversary picks, at every step t, which of ``PQ``, ``QP``, ``pm1`` the step is, as a
function of the earlier outputs: every record's clipped gradient lies on one direction; the target
record gives :math:`+u` in D and :math:`-u` in D', every other record :math:`c_t u` with
:math:`c_t \in \{-1, 0, +1\}`, and the released noisy sum's component along u, minus :math:`c_t b`, is
distributed as ``PQ`` for :math:`c_t = -1`, ``QP`` (mirrored) for :math:`c_t = +1`, ``pm1`` for
:math:`c_t = 0`. This is realizable in the **interactive adaptive game**, the model of the upper bound:
the adversary chooses each step's gradient map after seeing the earlier outputs, and every
intermediate model is released (so the differences of iterates give each step's output). It is NOT
shown to be realizable by DP-SGD with one fixed loss function: isotropic noise reaches every
coordinate at every step, so a "fresh coordinate per step" does not isolate the steps, and one loss
function cannot read the step counter (an earlier version of this docstring and of docs/replace_one.md
section 4a claimed it; the claim does not follow). So:

* **upper end**: every replace-one pair of data sets, any gradient maps chosen adaptively, every
  intermediate model released (the strongest of the threat models here; holds for all weaker ones);
* **lower end**: realizable in the interactive adaptive game; under a fixed loss function the
  defensible lower end is the fixed order's, ``details["fixed_order"]["lower"]`` (one pair of data
  sets whose every step is ``PQ``: realizable by any loss whose clipped gradients are +-u).

Floating point: every composition carries the proven rounding bound of numerics.fft_rounding (tilted
where it would swamp delta, numerics.pld_tilted); the dynamic programme's FFT correlations subtract
the derived bound of :func:`numerics.fft_rounding.convolution_entry_error` per block. Every value of the
programme is rounded down (issue 29 audit A29F): a block's coarse masses are the composed entries minus
their proven error, then each bin's float sum of ``count`` terms lowered by 2 count u (:class:`_Blocks`);
terminal and above-window values :math:`(1 - e^{-KH})_+` at the exact H = ratio h from an enclosure of the
exponential (:func:`_terminal`); each subtraction (error bound, wrap mass) one ulp down; the reported
epsilon one ulp below its exact grid point (:func:`grid_eps`), and ``delta`` read at the least exact grid
point at or above epsilon (rational arithmetic, :func:`_index_at_or_above`). Not bounded: the float log-MGF
of the Chernoff windows (:class:`_Chernoff`), which sets the wrap allowance 2 tail, as in
numerics.pld_compose._window_side (docs/certified.md).
"""
from __future__ import annotations

import math
import time

import numpy as np
import scipy.signal

from .errors import InvalidParameter, check_delta, check_epsilon, check_q, check_sigma, check_steps
from .enclose import down, up
from .fft_rounding import U, convolution_entry_error
from .pld import (ComposedPLD, GridPLD, _check_rel_width, _delta_lower, _delta_upper, _eps_at, _eps_lower,
                  _eps_upper, _initial_step, _window_side, compose, discretise_optimistic, discretise_pessimistic,
                  plain_delta, rounding_share)
from .pld_tilted import tilted
from . import profile_max
from .pld_pairs import MixturePair
from .precision import PLD_DELTA_TAIL, PLD_RELATIVE_WIDTH, TILT_BELOW_DELTA
from .results import DeltaBounds, EpsilonBounds
from .schedule import Schedule

#: which threat model each end holds under (module docstring), appended to every note of this accountant
THREAT_MODEL = ("threat model: the upper end holds against an adversary that picks each step's gradient map "
                "adaptively with every intermediate model released; the lower end is realizable in that "
                "interactive game; under one fixed loss function the defensible lower end is the fixed order's "
                "(details.fixed_order.lower)")
#: the actions of the lower bound's adversary (module docstring)
ACTIONS = ("PQ", "QP", "pm1")


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


def one_step_profile(action: str, g: float, sigma: float, alpha: float) -> float:
    r""":math:`H_\alpha` of one step of ``action``: the loss is increasing in z, so the optimal set is
    {z > z*} with :math:`\ell(z^*) = \log\alpha` and :math:`H_\alpha = P(z > z^*) - \alpha Q(z > z^*)`."""
    pair = step_pair(action, g, sigma)
    lo, hi = pair.loss_range()
    t = math.log(alpha)
    if t >= hi:
        return 0.0
    z = -math.inf if t <= lo else float(pair.z_of_loss(t))
    log_p, log_q = pair.interval_log_masses_pq(np.array([z]), np.array([math.inf]))
    return max(float(np.exp(log_p[0]) - alpha * np.exp(log_q[0])), 0.0)


def garbling_counterexample(g: float = 0.5, sigma: float = 1.0) -> dict:
    r"""The refutation of issue 25 item 2 (docs/replace_one.md, section 5): the realizable pair ``pm1``
    has a larger :math:`H_\alpha` than ``PQ`` at some :math:`\alpha < 1` and than ``QP`` at some
    :math:`\alpha > 1`, so it is a Blackwell garbling of neither. Returns the best such alpha on a grid
    of log-alpha in [-4, 4] and the two excesses (both > 0 for a counterexample)."""
    logs = np.linspace(-4.0, 4.0, 801)
    ex_pq = [one_step_profile("pm1", g, sigma, math.exp(t)) - one_step_profile("PQ", g, sigma, math.exp(t))
             for t in logs]
    ex_qp = [one_step_profile("pm1", g, sigma, math.exp(t)) - one_step_profile("QP", g, sigma, math.exp(t))
             for t in logs]
    i, j = int(np.argmax(ex_pq)), int(np.argmax(ex_qp))
    return {"g": g, "sigma": sigma, "alpha_vs_PQ": math.exp(logs[i]), "excess_vs_PQ": ex_pq[i],
            "alpha_vs_QP": math.exp(logs[j]), "excess_vs_QP": ex_qp[j]}


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


def symmetrised_grid(pq: GridPLD, qp: GridPLD, h: float) -> GridPLD:
    r"""A grid PLD whose profile at every grid point is :math:`\max(D_{PQ}, D_{QP})` of the two orders'
    connect-the-dots grids, and linear in :math:`e^\varepsilon` between grid points; it dominates S.

    Candidate: where the maximum is one order's profile at j-1, j and j+1, the mass at j is that order's
    mass (the masses are second differences of the profile); elsewhere (the crossing, near 0) it is the
    second difference itself, raised by a float margin. The candidate's float second differences cancel
    (it was 1.9e-11 relative below the truth at epsilon -4.65 on the README case), so it only steers:
    numerics.profile_max.dominate_max keeps (P,Q)'s masses above the two grids' overlap and (Q,P)'s below
    it, checks the result against both orders' profiles with rigorous bounds at every epsilon and scales
    it up where a check fails (README case: by 5.3e-11).
    """
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
    # the float second differences above only steer: the grid returned is checked against both orders'
    # profiles with rigorous bounds and repaired (numerics.profile_max)
    return profile_max.dominate_max(pq, qp, GridPLD(lo, pmf, inf_mass), h)[0]


def _log_mgf(step: GridPLD, h: float, lam: np.ndarray, chunk: int = 2048) -> np.ndarray:
    """log sum_k p_k e^{lam x_k} for each lam (either sign), exactly up to rounding: the grid is cut into
    chunks, the sums inside each chunk are one matrix product with e^{lam (x - x_chunk)} (no overflow for
    |lam| chunk h <= 700), and the chunks are combined in log space."""
    n = len(step.pmf)
    pad = np.zeros(-(-n // chunk) * chunk)
    pad[:n] = step.pmf
    inner = np.exp(np.outer(np.arange(chunk) * h, lam))
    sums = pad.reshape(-1, chunk) @ inner
    offset = (step.k0 + np.arange(sums.shape[0]) * chunk) * h
    with np.errstate(divide="ignore"):
        e = np.log(sums) + offset[:, None] * lam[None, :]
    top = e.max(axis=0)
    return top + np.log(np.exp(e - top[None, :]).sum(axis=0))


def _log_mgf_error(step: GridPLD, h: float, lam: np.ndarray, chunk: int = 2048) -> np.ndarray:
    """A bound on the absolute rounding error of :func:`_log_mgf` at each lam (issue 29 audit), so the windows
    of :class:`_Chernoff` are proven. With B = max |log p| + |lam| max |x| over the positive entries: each
    e^{lam j h} has exponent |lam j h| <= B rounded once (uB) and exp to 1 ulp, so (2B + 1)u relative; the
    products by p and the chunk's sum of at most n nonnegative terms add u + gamma_n; log of a chunk sum
    (1 ulp of |log| <= 2B) plus the offset's product and sum (2uB) and the outer log-sum-exp over the chunks
    (shift 2uB, exps 2u, gamma_chunks, log and sum 2u + u|K|) give at most (9B + 2n + 12 + |K|)u. Taken as
    1.01 (10B + 2n + 80)u (|K| <= B)."""
    pos = step.pmf > 0
    if not pos.any():
        return np.zeros(len(lam))
    x = (step.k0 + np.nonzero(pos)[0]) * h
    big = float(np.max(np.abs(np.log(step.pmf[pos])))) + np.abs(lam) * max(abs(float(x[0])), abs(float(x[-1])))
    return 1.01 * (10.0 * big + 2.0 * int(pos.sum()) + 80.0) * U


class _Chernoff:
    """Chernoff windows of compositions of one grid PLD, its (binned) log-MGF computed once."""

    def __init__(self, step: GridPLD, h: float, tail: float):
        self.step, self.h, self.tail = step, h, tail
        var = max(_variance(step, h), 1e-300)
        # parameters spanning the Gaussian optimum for 1 to 1e7 compositions (any lam > 0 is valid);
        # |lam| * chunk * h <= 700 keeps the chunked sums finite
        star = math.sqrt(2.0 * math.log(1.0 / tail) / var)
        self.lam = np.geomspace(max(star * 3e-4, 1e-3), min(2.0 * star, 300.0 / (2048 * h)), 32)
        with np.errstate(over="ignore", invalid="ignore"):
            both = np.concatenate([self.lam, -self.lam])
            k = _log_mgf(step, h, both) + _log_mgf_error(step, h, both)  # at or above the exact log-MGF
        k_up, k_down = k[:len(self.lam)], k[len(self.lam):]
        # every lam > 0 gives a valid Chernoff bound: drop those whose log-MGF overflowed (very small noise)
        up, down = np.isfinite(k_up), np.isfinite(k_down)
        if not up.any() or not down.any():
            raise InvalidParameter("the privacy loss of this step is too heavy-tailed for the adaptive grid "
                                   "(noise multiplier too small for its batch fraction); no certified bracket")
        self.lam_up, self.k_up = self.lam[up], k_up[up]
        self.lam_down, self.k_down = self.lam[down], k_down[down]

    def window(self, count: int) -> tuple[int, int]:
        """Grid indices outside of which the ``count``-fold composition has mass <= tail on each side."""
        log_tail = math.log(self.tail)
        # the products by count, the differences, quotients and the division by h: moved 8u outward (as
        # numerics.pld_compose._window_side), on top of the log-MGF's own bound (_log_mgf_error)
        k_up = count * self.k_up
        k_down = count * self.k_down
        hi = float(np.min((k_up + 4.0 * U * np.abs(k_up) - log_tail) / self.lam_up)) / self.h
        lo = float(np.max((log_tail - k_down - 4.0 * U * np.abs(k_down)) / self.lam_down)) / self.h
        return math.floor(lo - 4.0 * U * abs(lo)), math.ceil(hi + 4.0 * U * abs(hi))

    def compose(self, count: int, target: dict | None = None, upper: bool = True) -> ComposedPLD:
        """The ``count``-fold composition; with ``target`` ({"delta": d} or {"epsilon": e}) composed with
        exponential tilting where the plain composition's proven rounding bound swamps the answer
        (numerics.pld_tilted), returning the ``upper`` (pessimistic) or lower side of it."""
        return _composed([(self.step, count)], self.h, self.tail, self.window(count), target, upper)

    def bound(self, count: int, target: dict, upper: bool, read) -> float:
        """:func:`_bound` of the ``count``-fold composition (the better of plain and tilted)."""
        return _bound([(self.step, count)], self.h, self.tail, self.window(count), target, upper, read)


class _Blocks:
    """Lower grid PMFs of blocks of one action: one fine FFT composition per distinct block length."""

    def __init__(self, step: GridPLD, h: float, tail: float, ratio: int):
        self.chernoff, self.ratio, self.cache = _Chernoff(step, h, tail), ratio, {}

    def lower(self, count: int):
        """(K0, entrywise lower masses on the coarse grid H = ratio h, wrap bound, ||masses||_2) of
        ``count`` steps: composed on the fine grid, FFT noise removed, losses rounded DOWN to H."""
        if count not in self.cache:
            c = self.chernoff.compose(count)
            fine = np.maximum(down(c.pmf - c.noise), 0.0)  # each entry's proven error removed, rounded down
            coarse = np.floor_divide(c.k0 + np.arange(len(fine)), self.ratio)
            idx = coarse - coarse[0]
            # a bin sums at most `count` entries: relative error below (count - 1) u, removed rounded down
            m = np.maximum(down(np.bincount(idx, weights=fine) * (1.0 - 2.0 * U * np.bincount(idx))), 0.0)
            self.cache[count] = (int(coarse[0]), m, c.wrap_mass, float(np.linalg.norm(m)))
        return self.cache[count]


def _composed(steps, h: float, tail: float, window, target: dict | None, upper: bool) -> ComposedPLD:
    """``steps`` composed on ``window`` (None: its Chernoff window): plainly, or tilted at ``target`` when
    delta is below TILT_BELOW_DELTA or the rounding bound would take more than 1e-4 of delta."""
    if window is None:
        window = (_window_side(steps, h, tail, -1), _window_side(steps, h, tail, +1))
    if target is None or target.get("delta", 1.0) >= TILT_BELOW_DELTA:
        c = compose(steps, h, tail, window=window, wrap_mass=2.0 * tail)
        if target is None or not _swamped(c, target):
            return c
    return tilted(steps, h, tail, window=window, **target)[0 if upper else 1]


def _bound(steps, h: float, tail: float, window, target: dict, upper: bool, read) -> float:
    """``read(composed)`` for the plain composition and, where its rounding bound swamps ``target``
    (or delta is below TILT_BELOW_DELTA), for the tilted one: both are valid bounds of the same side,
    so the better one is returned (the smaller upper bound, the larger lower bound)."""
    if window is None:
        window = (_window_side(steps, h, tail, -1), _window_side(steps, h, tail, +1))
    values = []
    if target.get("delta", 1.0) >= TILT_BELOW_DELTA:
        c = compose(steps, h, tail, window=window, wrap_mass=2.0 * tail)
        values.append(read(c))
        if not _swamped(c, target):
            return values[0]
    values.append(read(tilted(steps, h, tail, window=window, **target)[0 if upper else 1]))
    return min(values) if upper else max(values)


def _swamped(c: ComposedPLD, target: dict) -> bool:
    if "delta" in target:
        eps = _eps_at(c, np.maximum(c.pmf, 0.0), target["delta"], True)
        return math.isfinite(eps) and rounding_share(c, eps) > 1e-4 * target["delta"]
    return rounding_share(c, target["epsilon"]) > 1e-4 * plain_delta(c, target["epsilon"])


def _terminal(ks: np.ndarray, ratio: int, h: float) -> np.ndarray:
    r"""Floats :math:`\le (1 - e^{-K H})_+` with H = ratio h exactly (K integers): the upper end of the
    enclosure of :math:`e^{-K\,\mathrm{ratio}\,h}` (numerics.pld_onestep.exp_bounds), the difference rounded
    down. The float product ratio * h and libm's expm1 enter no value (issue 29 audit A29F)."""
    from .pld_onestep import exp_bounds
    ks = np.asarray(ks, dtype=np.int64)
    out = np.zeros(len(ks))
    pos = ks > 0
    if pos.any():
        _, hi = exp_bounds(-(ks[pos] * ratio).astype(float), h)
        out[pos] = np.clip(down(1.0 - hi), 0.0, 1.0)
    return out


def _expect(v: np.ndarray, kmin: int, ratio: int, h: float, k0: int, m: np.ndarray, m_norm: float) -> np.ndarray:
    """out[K - kmin] <= sum_i m_i v~(K + k0 + i) minus the FFT error bound, where v~ = v on the window,
    0 below it and 1 - e^{-K' H} (H = ratio h, :func:`_terminal`) above it (a lower bound on every continuation
    value there: E_P[(1 - e^{-(L+S)})_+] >= 1 - e^{-L} E_P[e^{-S}] >= 1 - e^{-L}, docs/replace_one.md section 3)."""
    n = len(v)
    lo_ext, hi_ext = kmin + k0, kmin + n - 1 + k0 + len(m) - 1
    ext = np.zeros(hi_ext - lo_ext + 1)
    a = max(kmin, lo_ext)
    b = min(kmin + n - 1, hi_ext)
    if a <= b:
        ext[a - lo_ext:b - lo_ext + 1] = v[a - kmin:b - kmin + 1]
    top = kmin + n - 1
    if hi_ext > top:
        k = np.arange(max(top + 1, lo_ext), hi_ext + 1)
        ext[k - lo_ext] = _terminal(k, ratio, h)
    out = scipy.signal.fftconvolve(ext, m[::-1], mode="valid")
    # the proven entrywise bound of an FFT convolution (numerics.fft_rounding; norms rounded up, m >= 0)
    grow = 1.0 + 2.0 * (len(ext) + len(m)) * 2.0 ** -53
    return down(out - convolution_entry_error(2 * (len(ext) + len(m)), float(np.linalg.norm(ext)) * grow,
                                              m_norm * grow, float(m.sum()) * grow))


def grid_eps(ks, ratio: int, h: float, side: int) -> np.ndarray:
    """Floats on the ``side`` (-1: below, +1: above) of the exact coarse-grid losses ks * ratio * h (one
    correctly rounded product of the integer ks * ratio by h, moved one ulp): what the programme's values
    are proven at is the exact grid point, and a lower end must not be reported above it."""
    x = np.asarray(ks, dtype=np.int64) * ratio * h
    return down(x) if side < 0 else up(x)


def block_lengths(steps: int, blocks: int, adaptive_share: float = 1.0) -> list[int]:
    """Block lengths in time order summing to ``steps``: a first block of the non-adaptive share, then
    ``blocks`` - 1 equal blocks covering ``adaptive_share`` of the steps (1: all blocks equal). Two
    distinct lengths keep the number of fine compositions at two per action. Any split is valid."""
    blocks = max(1, min(blocks, steps))
    if blocks == 1:
        return [steps]
    if adaptive_share >= 1.0:
        base, extra = divmod(steps, blocks)
        return [base + extra] + [base] * (blocks - 1)
    unit = max(1, int(steps * adaptive_share) // (blocks - 1))
    return [steps - unit * (blocks - 1)] + [unit] * (blocks - 1)


def adaptive_lower_profile(lows: dict, steps: int, h: float, eps_range: tuple[float, float], *,
                           ratio: int = 1, blocks: int = 8, adaptive_share: float = 1.0,
                           tail: float = 1e-10, top: float = 3.0):
    r"""Certified lower bounds on :math:`\delta^*(\varepsilon)` at the coarse-grid values
    :math:`\varepsilon = -K H` (H = ``ratio`` * h) in ``eps_range``: returns ``(eps, delta_lower, chosen)``.

    ``lows``: action -> optimistic one-step grid PLD (numerics.pld.discretise_optimistic) at step h.
    Each block's loss is composed on the fine grid h and rounded down to H. Terminal value
    :math:`(1 - e^{-L})_+` on L = K H, K in [kmin, kmax]; starting from L = -eps the programme's value at
    time 0 is a lower bound on :math:`\delta^*` at eps. Below kmin the value is taken as 0, above kmax as
    :math:`1 - e^{-L}` (both below every continuation value; docs/replace_one.md, section 3). ``tail``:
    the Chernoff mass allowed outside each block's window (subtracted per block). ``chosen[a]``: number
    of blocks where action a is taken at the state read for the middle of ``eps_range`` (a diagnostic).
    """
    actions = tuple(lows)
    big_h = ratio * h
    lengths = block_lengths(steps, blocks, adaptive_share)
    blocks_of = {a: _Blocks(lows[a], h, tail / len(lengths), ratio) for a in actions}
    sd = math.sqrt(steps * max(_variance(s, h) for s in lows.values()))
    kmin = math.floor((-eps_range[1] - 6.0 * sd - 0.5) / big_h)
    kmax = math.ceil(top / big_h)
    v = _terminal(np.arange(kmin, kmax + 1), ratio, h)
    chosen = {a: 0 for a in actions}
    k_read = min(max(int(round(-0.5 * (eps_range[0] + eps_range[1]) / big_h)) - kmin, 0), len(v) - 1)
    for length in reversed(lengths):
        vals = []
        for a in actions:
            k0, m, wrap, m_norm = blocks_of[a].lower(length)
            vals.append(down(_expect(v, kmin, ratio, h, k0, m, m_norm) - wrap))
        vals = np.array(vals)
        chosen[actions[int(np.argmax(vals[:, k_read]))]] += 1
        v = np.clip(vals.max(axis=0), 0.0, 1.0)
    ks = np.arange(math.ceil(-eps_range[1] / big_h), math.floor(-eps_range[0] / big_h) + 1)
    return grid_eps(-ks, ratio, h, -1), v[ks - kmin], chosen


def _variance(step: GridPLD, h: float) -> float:
    x = (step.k0 + np.arange(len(step.pmf))) * h
    m = step.pmf.sum()
    mean = float(np.dot(step.pmf, x) / m)
    return float(np.dot(step.pmf, (x - mean) ** 2) / m)


# --------------------------------------------------------------------------------------------------
# the accountant
# --------------------------------------------------------------------------------------------------

def _fraction_bounds(g) -> tuple:
    """``g`` as (lo, hi): a float is exact, a pair is already its bounds."""
    return (g, g) if isinstance(g, (int, float)) else tuple(g)


def _check(g, sigma, steps):
    """(g as floats (lo, hi), sigma, steps); ``g`` a float (exact) or floats lo <= g <= hi (the b/n of a
    fixed-size phase, Phase.q_bounds): the dominating grids take hi, the realizable ones lo (a larger
    fraction dominates a smaller one in every action: resample from N(0) with probability 1 - lo/hi)."""
    lo, hi = _fraction_bounds(g)
    lo, hi = check_q(lo, "g"), check_q(hi, "g")
    if lo > hi:
        raise InvalidParameter(f"g bounds must satisfy lo <= hi, got {g!r}")
    return (lo, hi), check_sigma(sigma), check_steps(steps)


class _Grids:
    """Every one-step grid PLD of the accountant at one grid step h (each computed once).

    ``tail``: per-step truncation mass (optimistic: dropped; pessimistic: below -> lowest point,
    above -> +infinity, which counts fully in delta) and Chernoff mass outside each FFT window.
    """

    def __init__(self, g, sigma: float, steps: int, h: float, tail: float, actions=("PQ", "QP")):
        g = _fraction_bounds(g)
        self.g, self.sigma, self.steps, self.h, self.tail = g, sigma, steps, h, tail
        per_step = tail / steps
        self.actions = tuple(actions)
        g_lo, g_hi = g  # realizable grids at the fraction rounded down, dominating ones rounded up (_check)
        self.low = {a: discretise_optimistic(step_pair(a, g_lo, sigma), h, per_step)
                    for a in dict.fromkeys(("PQ",) + self.actions)}
        self.high = {a: discretise_pessimistic(step_pair(a, g_hi, sigma), h, per_step) for a in ("PQ", "QP")}

    def fixed_order(self, delta: float) -> tuple[float, float]:
        """Certified bracket of the best fixed order's epsilon (both orders composed ``steps`` times)."""
        lows, ups = [], []
        target = {"delta": delta}
        for a in ("PQ", "QP"):
            ups.append(_Chernoff(self.high[a], self.h, self.tail).bound(self.steps, target, True,
                                                                        lambda c: _eps_upper(c, delta)))
            if a in self.low:
                lows.append(_Chernoff(self.low[a], self.h, self.tail).bound(self.steps, target, False,
                                                                            lambda c: _eps_lower(c, delta)))
        return max(lows), max(ups)

    def symmetrised_step(self) -> GridPLD:
        """One step of the symmetrised pair S on the connect-the-dots grid (dominates every step)."""
        return symmetrised_grid(self.high["PQ"], self.high["QP"], self.h)

    def symmetrised(self, target: dict, read) -> float:
        """``read`` of the symmetrised pair S composed ``steps`` times (pessimistic: an upper bound), the
        better of plain and tilted at ``target`` (:func:`_bound`)."""
        return _Chernoff(self.symmetrised_step(), self.h, self.tail).bound(self.steps, target, True, read)


def choose_grid(g, sigma: float, steps: int, delta: float, rel_width: float) -> tuple[float, list]:
    r"""Grid step h at which the fixed order (P, Q) is expected to be certified to ``rel_width``.

    One probe at a coarse step h1 measures the width w1 of the (P, Q) bracket; the width falls roughly
    as :math:`h^{1.9}` (connect-the-dots and offset-optimistic grids are second order), so
    :math:`h = h_1 (0.8\,\text{rel\_width} / w_1)^{1/1.9}`, within [h1/30, h1]. The bounds are valid at
    any h; h only sets their accuracy (the achieved width is reported).
    """
    schedule = Schedule.constant(q=_fraction_bounds(g)[1], sigma=sigma / 2.0, steps=steps)
    # the old (first-order) width model: the adaptive grids' lower sides round atoms down (issue 33's mixed
    # lower grid is numerics.pld's only); the second-order model's coarser h made the (P, Q) lower end looser
    h1 = _initial_step(schedule, rel_width, delta, rounded_lower=True) / 2.0
    grids = _Grids(g, sigma, steps, h1, delta * rel_width * 1e-6, actions=("PQ",))
    target = {"delta": delta}
    low = _Chernoff(grids.low["PQ"], h1, grids.tail).bound(steps, target, False, lambda c: _eps_lower(c, delta))
    up = _Chernoff(grids.high["PQ"], h1, grids.tail).bound(steps, target, True, lambda c: _eps_upper(c, delta))
    w1 = (up - low) / up if up > 0 else 0.0
    probe = [{"h": h1, "lower": low, "upper": up, "relative_width": w1}]
    if w1 <= rel_width:
        return h1, probe
    return h1 * min(max((0.8 * rel_width / w1) ** (1 / 1.9), 1 / 30), 1.0), probe


def _delta_grids(g, sigma, steps, epsilon, rel_width, h, actions, blocks, max_refinements: int = 6):
    """(grids, ratio): grids at the first step h (from ``h`` down) where the fixed order (P, Q)'s certified
    delta bracket at ``epsilon`` is a quarter of ``rel_width`` wide (second-order refinement as in
    :func:`choose_grid`), each step aligned so that epsilon is a point of the coarse grid ratio * h."""
    for _ in range(max_refinements + 1):
        ratio = _coarse_ratio(h, epsilon, rel_width, min(blocks, steps))
        if epsilon > 0:
            h = _aligned_step(epsilon, ratio, h)
        grids = _Grids(g, sigma, steps, h, PLD_DELTA_TAIL, actions)
        target = {"epsilon": epsilon}
        low = _Chernoff(grids.low["PQ"], h, grids.tail).bound(steps, target, False,
                                                               lambda c: _delta_lower(c, epsilon))
        up = _Chernoff(grids.high["PQ"], h, grids.tail).bound(steps, target, True, lambda c: _delta_upper(c, epsilon))
        width = (up - low) / up if up > 0 else 0.0
        if width <= rel_width / 4.0:  # the programme's blocks add their own rounding: a finer target
            break
        h *= min(max((0.2 * rel_width / width) ** (1 / 1.9), 0.1), 0.7)
    grids.fixed_delta = (low, up)
    return grids, ratio


def _aligned_step(epsilon: float, ratio: int, h: float) -> float:
    """A step near ``h`` with m ratio h >= epsilon exactly (rational arithmetic) for m = ceil(eps / (ratio h)),
    at most a few ulps above the float epsilon / (ratio m): then epsilon's grid point is m, not m + 1."""
    from fractions import Fraction
    m = math.ceil(epsilon / (ratio * h))
    h = epsilon / (ratio * m)
    while Fraction(h) * (ratio * m) < Fraction(epsilon):
        h = math.nextafter(h, math.inf)
    return h


def _index_at_or_above(epsilon: float, ratio: int, h: float) -> int:
    """The least integer k with k ratio h >= epsilon, decided in exact rational arithmetic."""
    from fractions import Fraction
    return math.ceil(Fraction(epsilon) / (ratio * Fraction(h)))


def _coarse_ratio(h: float, eps: float, rel_width: float, blocks: int) -> int:
    """Coarse grid H = ratio * h of the programme: rounding each block's loss down to H costs at most
    blocks * H nats; aim at a quarter of the target width on average (half of blocks * H)."""
    return max(1, int(rel_width * max(eps, 1e-3) / (2.0 * blocks * h)))


def adaptive_replace_one_epsilon(*, g: float, sigma: float, steps: int, delta: float,
                                 rel_width: float = PLD_RELATIVE_WIDTH, blocks: int = 32,
                                 adaptive_share: float = 0.5, actions=("PQ", "QP")) -> EpsilonBounds:
    r"""Certified bounds on the optimal epsilon at ``delta`` of ``steps`` fixed-size Gaussian steps under
    replace-one against an adaptive adversary (module docstring): ``g`` = batch size / data set size,
    ``sigma`` the noise multiplier (clip norm 1).

    ``epsilon_lower``: the blocked adaptive programme (``blocks`` decision points; the last
    ``adaptive_share`` of the steps split into equal blocks), never below the best fixed order.
    ``epsilon_upper``: the symmetrised pair composed (proved, docs/replace_one.md). ``rel_width`` is the
    discretisation target (of the fixed-order bracket at the chosen grid); the gap between the two ends
    is structural and NOT bounded by it (``details["note"]``). ``details``: ``fixed_order`` (certified
    bracket of the best fixed order), ``h``, ``H``, ``blocks``, ``adaptive_gain`` (lower / fixed-order
    lower - 1), ``seconds``, ``cpu_seconds``.
    """
    g, sigma, steps = _check(g, sigma, steps)
    delta = check_delta(delta)
    rel_width = _check_rel_width(rel_width)
    started, cpu = time.perf_counter(), time.process_time()
    h, probe = choose_grid(g, sigma, steps, delta, rel_width)
    grids = _Grids(g, sigma, steps, h, delta * rel_width * 1e-6, actions)
    fixed_low, fixed_up = grids.fixed_order(delta)
    upper = grids.symmetrised({"delta": delta}, lambda c: _eps_upper(c, delta))
    ratio = _coarse_ratio(h, fixed_up, rel_width, min(blocks, steps))
    lows = {a: grids.low[a] for a in grids.actions}
    eps, dl, chosen = adaptive_lower_profile(lows, steps, h, (fixed_low, max(upper, fixed_low)),
                                             ratio=ratio, blocks=blocks, adaptive_share=adaptive_share,
                                             tail=delta * rel_width * 1e-3)
    above = eps[dl > delta]
    lower = max(float(above.max()) if len(above) else -math.inf, fixed_low)
    details = {"fixed_order": {"lower": fixed_low, "upper": fixed_up}, "h": h, "H": ratio * h,
               "blocks": block_lengths(steps, blocks, adaptive_share), "chosen_at_mid": chosen,
               "adaptive_gain": lower / fixed_low - 1.0 if fixed_low > 0 else 0.0, "probe": probe,
               "upper_method": "symmetrised pair max(H(P||Q), H(Q||P)) composed (Dong-Roth-Su C_p)",
               "note": ("lower: blocked adaptive adversary over the orders (P,Q), (Q,P); upper: symmetrised "
                        "pair; the two orders do not dominate the family (the +-1 pair is a garbling of "
                        f"neither), so the gap is not closed (docs/replace_one.md); {THREAT_MODEL}"),
               "seconds": time.perf_counter() - started, "cpu_seconds": time.process_time() - cpu}
    return EpsilonBounds(lower, upper, delta, "pld-adaptive", "replace-one", True, details)


def adaptive_replace_one_delta(*, g: float, sigma: float, steps: int, epsilon: float,
                               rel_width: float = PLD_RELATIVE_WIDTH, blocks: int = 32,
                               adaptive_share: float = 0.5, actions=("PQ", "QP"),
                               grid_delta: float = 1e-5) -> DeltaBounds:
    r"""Certified bounds on the optimal delta at ``epsilon`` (same adversary and pairs as
    :func:`adaptive_replace_one_epsilon`); the grid is the one chosen for ``grid_delta``."""
    g, sigma, steps = _check(g, sigma, steps)
    epsilon = check_epsilon(epsilon)
    rel_width = _check_rel_width(rel_width)
    started = time.perf_counter()
    h, _ = choose_grid(g, sigma, steps, grid_delta, rel_width)
    grids, ratio = _delta_grids(g, sigma, steps, epsilon, rel_width, h, actions, blocks)
    h = grids.h
    upper = grids.symmetrised({"epsilon": epsilon}, lambda c: _delta_upper(c, epsilon))
    big_h = ratio * h
    k = _index_at_or_above(epsilon, ratio, h)  # delta is nonincreasing: read it at a grid point >= epsilon
    lows = {a: grids.low[a] for a in grids.actions}
    _, dl, chosen = adaptive_lower_profile(lows, steps, h, ((k - 0.5) * big_h, (k + 0.5) * big_h),
                                           ratio=ratio, blocks=blocks, adaptive_share=adaptive_share,
                                           tail=PLD_DELTA_TAIL)
    # the fixed order is one policy of the adversary: its certified lower delta is a lower bound too
    lower = max(float(dl[0]) if len(dl) else 0.0, grids.fixed_delta[0])
    details = {"h": h, "H": big_h, "chosen_at_mid": chosen,
               "fixed_order_PQ": {"lower": grids.fixed_delta[0], "upper": grids.fixed_delta[1]},
               "fixed_order": {"lower": grids.fixed_delta[0], "upper": grids.fixed_delta[1]},
               "note": f"lower: blocked adaptive adversary; upper: symmetrised pair (docs/replace_one.md); {THREAT_MODEL}",
               "seconds": time.perf_counter() - started}
    return DeltaBounds(max(lower, 0.0), upper, epsilon, "pld-adaptive", "replace-one", True, details)


def adaptive_replace_one_epsilon_phases(*, phases, delta: float, rel_width: float = PLD_RELATIVE_WIDTH,
                                        blocks: int = 32, adaptive_share: float = 0.5) -> EpsilonBounds:
    r"""Certified bounds for a schedule of fixed-size phases ``(g, sigma, steps)`` under replace-one.

    Upper: the symmetrised grid pairs of all phases composed (section 3 of docs/replace_one.md holds
    step by step, whatever the pair of each step). Lower: the larger of (i) the fixed order (P, Q) in
    every step, composed, and (ii) the adaptive lower bound of each phase alone (a sub-schedule's
    transcript is a post-processing of the whole one, so its epsilon is a lower bound). One phase:
    :func:`adaptive_replace_one_epsilon`.
    """
    checked = [_check(*p) for p in phases]
    if not checked:
        raise InvalidParameter("phases must contain at least one (g, sigma, steps) phase")
    if len(checked) == 1:
        g, sigma, steps = checked[0]
        return adaptive_replace_one_epsilon(g=g, sigma=sigma, steps=steps, delta=delta, rel_width=rel_width,
                                            blocks=blocks, adaptive_share=adaptive_share)
    delta = check_delta(delta)
    rel_width = _check_rel_width(rel_width)
    started = time.perf_counter()
    h = min(choose_grid(g, s, t, delta, rel_width)[0] for g, s, t in checked)
    total = sum(t for _, _, t in checked)
    tail = delta * rel_width * 1e-6
    grids = [(_Grids(g, s, total, h, tail, ("PQ",)), t) for g, s, t in checked]
    target = {"delta": delta}
    upper = _bound([(gr.symmetrised_step(), t) for gr, t in grids], h, tail, None, target, True,
                   lambda c: _eps_upper(c, delta))
    fixed_low = _bound([(gr.low["PQ"], t) for gr, t in grids], h, tail, None, target, False,
                       lambda c: _eps_lower(c, delta))
    fixed_up = _bound([(gr.high["PQ"], t) for gr, t in grids], h, tail, None, target, True,
                      lambda c: _eps_upper(c, delta))
    alone = [adaptive_replace_one_epsilon(g=g, sigma=s, steps=t, delta=delta, rel_width=rel_width, blocks=blocks,
                                          adaptive_share=adaptive_share).epsilon_lower for g, s, t in checked]
    lower = max(fixed_low, max(alone))
    details = {"fixed_order": {"lower": fixed_low, "upper": fixed_up}, "h": h, "phase_lowers": alone,
               "upper_method": "symmetrised pairs of every phase composed",
               "note": ("lower: max of the all-(P,Q) composition and each phase's adaptive lower bound; "
                        f"upper: symmetrised pairs; the gap is structural (docs/replace_one.md); {THREAT_MODEL}"),
               "seconds": time.perf_counter() - started}
    return EpsilonBounds(lower, upper, delta, "pld-adaptive", "replace-one", True, details)
