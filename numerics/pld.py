r"""Certified two-sided privacy loss distribution (PLD) accountant for the Poisson-subsampled Gaussian.

For a schedule of phases :math:`(q_i, \sigma_i, T_i)` the exact optimal
:math:`\varepsilon(\delta)` of the composition is bracketed as
``epsilon_lower <= eps(delta) <= epsilon_upper``; both ends are computed, neither is an estimate.

Why the bounds hold (hypotheses as code: numerics.pld_pairs gives the pairs)
-----------------------------------------------------------------------------
For a pair :math:`(P, Q)` with loss :math:`\ell = \log dP/dQ`, the hockey-stick divergence is
:math:`\delta(\varepsilon) = E_P[(1 - e^{\varepsilon - \ell})_+]`. If a pair :math:`(P', Q')` is a
post-processing (Markov kernel image) of :math:`(P, Q)`, its divergence is smaller for every
:math:`\varepsilon`, and this is preserved by composition (tensor products of kernels).

* **Upper (pessimistic).** The loss axis is cut at the grid :math:`a_k = k h`. Each output z whose loss
  lies in :math:`(a_k, a_{k+1}]` is split between the atoms :math:`a_k` and :math:`a_{k+1}` with weights
  that preserve both its P-mass and its Q-mass ("connect the dots", Doroshenko, Ghazi, Kamath, Kumar,
  Manurangsi 2022, Sec. 3). The true pair is then a post-processing of the grid pair, so the grid pair's
  :math:`\delta` is an upper bound at every :math:`\varepsilon` and every number of compositions. The
  error is of second order in h per step (the mean loss moves up by about :math:`h^2/8` at most), not first
  order as with rounding up, which is what keeps the bound tight at :math:`T = 10^5`.
  Outputs beyond the truncation point go to a loss of :math:`+\infty` (their mass is part of delta);
  those below it are rounded up to the lowest grid point.
* **Lower (optimistic).** The output line is cut into the intervals of z whose loss lies in
  :math:`(a_j - h/2 + s, a_j + h/2 + s]`; reporting only the interval is a post-processing, so the pair
  of interval masses has a smaller divergence. Its losses :math:`\ell_j` are enclosed (pld_onestep)
  and lie near :math:`a_j`; for the Gaussian pairs each interval is first mixed with a fraction of a
  neighbour (a further post-processing, pld_onestep) so that its loss lands just above a grid point. Each
  is then rounded DOWN to the grid, which lowers the sum of losses of every composed outcome and hence
  :math:`\delta` (it is increasing in the loss). Mass beyond the truncation is dropped (loss
  :math:`-\infty`), or rounded down.
* **Composition.** The grid PMFs of all steps are folded modulo N and multiplied in Fourier space
  (``scipy.fft``; the characteristic function raised to the power :math:`T_i`). The window of N points
  is placed by Chernoff bounds on the composed grid PMFs (their log-MGFs are computed from the PMFs
  themselves: upper tail on the pessimistic one, lower tail on the optimistic one, which bound each
  other by the step-wise coupling), so the mass that can wrap around is at most 3 ``tail`` plus the
  +infinity mass: it is added to the upper delta and subtracted from the lower one.
* **Direction.** Add/remove: the worst of the ``remove`` and ``add`` directions (the direction is the
  same in every step, since it is one fixed pair of data sets). Replace-one: the pair of two data sets
  whose records contribute opposite unit vectors (``replace`` in numerics.pld_pairs) occurs, and it
  dominates every replace-one step even against an adaptive adversary (docs/replace_one.md section 6),
  so both bounds are its grids' (:func:`epsilon_pld`, :func:`delta_pld`). An earlier version bounded it above
  by remove-then-add through :math:`D\cap D'`, 18 % wide on the README example.

Floating point: for the Gaussian pairs (numerics.pld_pairs) the one-step masses, edges and atom losses are
enclosed (numerics.pld_onestep: Arb Taylor series per block of nodes with a proven float Horner bound,
numerics.enclose) and rounded to their safe side, with no margin in h (issue 29; docs/certified.md); so are
the pairs of numerics.location_pairs (Laplace, with-replacement copies: numerics.location_onestep). Every
rounding from there on is bounded: the FFT composition by the
proven entrywise bound of numerics.fft_rounding (``ComposedPLD.noise``), added to (upper) or subtracted
from (lower) every composed mass; where that bound would take more than a tenth of the target width
(always below ``TILT_BELOW_DELTA``) both sides are composed with exponential tilting around epsilon
(numerics.pld_tilted), for epsilon and delta alike; the sums that read delta and epsilon off the
composed PMF are rounded outward (:func:`_tail_sums`, :func:`_delta_at`, :func:`_eps_at`). A crossed
bracket is refused with no tolerance (:func:`_refine`).
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np
import scipy.signal
import scipy.special

from .errors import InvalidParameter, check_delta, check_epsilon
from .pld_compose import (AccuracyNotReached, ComposedPLD, CrossedBracket, GridPLD, _log_mgf, _moments,  # noqa: F401
                          _window_side, compose, fold, inf_mass_upper)
from .fft_rounding import U
from . import pld_onestep
from .pld_pairs import MixturePair
from .precision import (PLD_ABSOLUTE_WIDTH, PLD_DELTA_TAIL, PLD_MAX_GRID_POINTS, PLD_RELATIVE_WIDTH,
                        TILT_BELOW_DELTA)
from .results import DeltaBounds, EpsilonBounds
from .schedule import Schedule, require_poisson_gaussian


# --------------------------------------------------------------------------------------------------
# one step: discretisation of the loss of a pair, pessimistic and optimistic
# --------------------------------------------------------------------------------------------------

def _loss_window(pair: MixturePair, tail: float) -> tuple[float, float]:
    z_lo, z_hi = pair.z_range(tail)
    lo, hi = float(pair.loss(z_lo)), float(pair.loss(z_hi))
    inf, sup = pair.loss_range()
    return max(lo, inf), min(hi, sup)


def _edges_z(pair: MixturePair, losses: np.ndarray) -> np.ndarray:
    """z at the given loss values, with -inf/+inf where the loss is below/above the loss range."""
    z = pair.z_of_loss(losses)
    inf, sup = pair.loss_range()
    z = np.where(losses <= inf, -np.inf, z)
    return np.where(losses >= sup, np.inf, z)


def discretise_pessimistic(pair, h: float, tail: float) -> GridPLD:
    """Connect-the-dots grid pair dominating ``pair`` (see module docstring, "Upper"), every mass enclosed
    and rounded up (numerics.pld_onestep.pessimistic, issue 29): the Gaussian pairs (MixturePair) and the
    pairs of numerics.location_pairs (edges proven by numerics.location_onestep)."""
    l_lo, l_hi = _loss_window(pair, tail)
    k_lo, k_hi = math.floor(l_lo / h), math.ceil(l_hi / h)
    k0, pmf, inf_mass = pld_onestep.pessimistic(pair, h, k_lo, k_hi)
    return GridPLD(k0, pmf, inf_mass)


def _interval_atoms(pair: MixturePair, z: np.ndarray):
    """log P and log Q of the intervals (z_i, z_{i+1}]."""
    return pair.edge_log_masses_pq(z)


def discretise_optimistic(pair: MixturePair, h: float, tail: float) -> GridPLD:
    """Interval-quantised pair dominated by ``pair``, losses on the grid (module docstring, "Lower").

    A first pass with interval edges at the grid midpoints gives the residuals r_j = l_j - a_j; each edge
    is then moved by minus the mean residual of its two intervals, so that the second pass has l_j close
    to a_j. For the Gaussian pairs each interval is then mixed with a fraction of a neighbour so that its
    loss is a grid loss (numerics.pld_onestep, lower grid: no first-order rounding left); for the other
    pairs a margin puts l_j slightly above a_j and any interval whose loss still falls below a_j is
    rounded down to a_{j-1}. Either is a lower bound whatever the offsets are; they only make it tight.
    """
    l_lo, l_hi = _loss_window(pair, tail)
    j = np.arange(math.floor(l_lo / h), math.ceil(l_hi / h) + 1)
    edges = (np.append(j, j[-1] + 1) - 0.5) * h
    log_p, log_q = _interval_atoms(pair, _edges_z(pair, edges))
    with np.errstate(invalid="ignore"):
        r = np.nan_to_num(log_p - log_q - j * h, nan=0.0, posinf=0.0, neginf=0.0)
    r = np.clip(r, -0.5 * h, 0.5 * h)
    left, right = np.append(r[:1], r), np.append(r, r[-1:])
    mixed = isinstance(pair, MixturePair)
    margin = 0.0 if mixed else 0.25 * np.maximum(np.abs(left), np.abs(right))
    shift = -(left + right) / 2 + margin
    z = _edges_z(pair, edges + np.clip(shift, -0.45 * h, 0.45 * h))
    z[-1] = np.inf  # the last interval takes the whole upper tail
    if mixed:
        # enclosed masses, mixed neighbours and proven loss floors (numerics.pld_onestep.optimistic_atoms)
        k, mass = pld_onestep.optimistic_atoms(pair, z, h)
        k0 = int(k.min())
        pmf = np.bincount(k - k0, weights=mass)
        count = np.bincount(k - k0)  # a bin sums at most `count` masses: relative error below (count - 1) u
        return GridPLD(k0, np.nextafter(pmf * (1.0 - 2.0 * U * count), -np.inf).clip(min=0.0), 0.0)
    log_p, log_q = _interval_atoms(pair, z)
    keep = np.isfinite(log_p)
    ell = log_p[keep] - log_q[keep]
    # round down; a loss within 1e-9 h above a grid point is sent one point lower (float safety; an
    # estimate for the double-precision pairs of numerics.location_pairs: docs/certified.md)
    k = np.floor(ell / h - 1e-9).astype(np.int64)
    k0 = int(k.min())
    pmf = np.bincount(k - k0, weights=np.exp(log_p[keep]))
    return GridPLD(k0, pmf, 0.0)


# --------------------------------------------------------------------------------------------------
# composition
# --------------------------------------------------------------------------------------------------

# --------------------------------------------------------------------------------------------------
# from the composed PMF to delta(eps) and eps(delta)
# --------------------------------------------------------------------------------------------------

def _tail_sums(c: ComposedPLD, pmf: np.ndarray, upper: bool):
    """For every grid index K: x_K, A_K = sum_{j>K} m_j and D_K = delta(K h) = A_K - B_K with
    B_K = sum_{j>K} m_j e^{-(j-K) h}, D_K moved by its rounding bound towards ``upper``'s side.

    B is the first-order recurrence C_K = m_K + r C_{K+1}, B_K = r C_{K+1}, r = e^{-h} < 1, run by
    ``scipy.signal.lfilter`` (no overflow at any epsilon: B_K <= A_K <= 1, and no float x_j enters it, so
    D_K is delta at the exact grid loss K h). Rounding (u = 2^-53, n entries): a sequential sum of
    nonnegative terms has relative error at most gamma_n; each recurrence step is x + r y, two correctly
    rounded operations (in any order), r = fl(e^{-h}) is within 2u of e^{-h} relative (libm exp: at most
    1 ulp), so its powers up to n within 2nu, and B_K = r C_{K+1} is within gamma_{4n+4} relative
    (:func:`_b_gamma`), plus an absolute 2^-1074 per operation
    for underflow; the difference A - B adds u (a + b). Until issue 29's audit (A29C) B was a
    ``logaddexp.accumulate`` in log space whose per-step rounding is u |log s|, not the 3u the bound
    assumed: at epsilon 1000 with 10^5 tiny increments the lower D came out 9.5e-6 relative above the
    exact one (tests/test_pld_readoff.py).
    """
    n = len(pmf)
    x = (c.k0 + np.arange(n)) * c.h
    a = np.concatenate([np.cumsum(pmf[::-1])[::-1][1:], [0.0]])
    r = math.exp(-c.h)
    carry = scipy.signal.lfilter([1.0], [1.0, -r], pmf[::-1])[::-1]  # C_K = m_K + r C_{K+1}
    b = np.concatenate([r * carry[1:], [0.0]])
    gamma = _b_gamma(n)
    err = 1.01 * n * U * a + gamma * b + U * (a + b) + 4.0 * n * 2.0 ** -1074
    d = np.maximum(a - b + err, 0.0) if upper else np.maximum(a - b - err, 0.0)
    return x, a, b, d


def _b_gamma(n: int) -> float:
    """Relative rounding bound of every B_K of :func:`_tail_sums` over n entries (gamma_{4n+4}, 1 % spare)."""
    return 1.01 * (4 * n + 4) * U


def _delta_at(c: ComposedPLD, pmf: np.ndarray, eps: float, upper: bool | None = None) -> float:
    """sum over x_j > eps of m_j (1 - e^{eps - x_j}); with ``upper`` True/False, rounded outward by the
    bound of numpy's pairwise sum and of each term, (ceil(log2 n) + 14) u relative, and by the float
    grid losses' own error: x_j is within u |x_j| of (k0 + j) h and each term moves by at most that
    much per unit mass (its slope e^{eps - x} <= 1; a term the float puts on the other side of eps is
    at most that too), so u max |x| times the mass above eps - 2 u max |x| is added (subtracted)."""
    x = (c.k0 + np.arange(len(pmf))) * c.h
    above = x > eps
    out = float(np.sum(pmf[above] * -np.expm1(eps - x[above])))
    if upper is None:
        return out
    rel = (math.ceil(math.log2(max(len(pmf), 2))) + 14) * U
    x_err = U * max(abs(float(x[0])), abs(float(x[-1]))) if len(x) else 0.0
    shift = x_err * float(np.sum(pmf[x > eps - 2.0 * x_err])) * (1.0 + rel)
    return out * (1.0 + rel) + shift if upper else max(out * (1.0 - rel) - shift, 0.0)


def _eps_at(c: ComposedPLD, pmf: np.ndarray, delta: float, upper: bool) -> float:
    """Smallest eps >= 0 with sum_j m_j (1 - e^{eps - x_j})_+ <= delta (inf if never); ``upper``: the
    answer is rounded up (else down), every rounding bounded (:func:`_tail_sums`, :func:`_closed_form`)."""
    if delta <= 0:
        return math.inf
    x, a, b, d = _tail_sums(c, pmf, upper)  # d: delta at eps = x_K, rounded to the safe side
    if d[0] <= delta and x[0] <= 0:
        return 0.0 if _delta_at(c, pmf, 0.0, upper) <= delta else _solve_between(c, pmf, delta, upper)
    idx = int(np.argmax(d <= delta))  # first grid point where delta(x_K) <= target
    if d[idx] > delta:
        return math.inf
    if idx == 0:
        return max(_solve_between(c, pmf, delta, upper), 0.0)
    # on (x_{K-1}, x_K] delta(eps) = A - e^eps sum_{j>=K} m_j e^{-x_j}; solve exactly
    # in log space: e^{-x_{K-1}} underflows for epsilon beyond ~700
    a_k, b_k = a[idx - 1], b[idx - 1]
    lo_x, hi_x = float(x[idx - 1]), float(x[idx])
    if b_k <= 0.0 or a_k <= delta:  # flat there, or the rounding leaves no room: the grid point
        return max(float(np.nextafter(hi_x, np.inf)) if upper else float(np.nextafter(lo_x, -np.inf)), 0.0)
    n = len(pmf)
    # relative rounding of a_k - delta and of b_k (as in _tail_sums), as absolute errors of their logs;
    # lo_x is the float of (k0 + idx - 1) h, within u |lo_x| of the exact grid loss
    slack = ((1.01 * n * U * a_k + 2.0 * U * (a_k + delta)) / (a_k - delta) + 1.01 * _b_gamma(n)
             + U * (abs(lo_x) + 2.0) + 8.0 * U)
    eps = math.log(a_k - delta) - math.log(b_k) + lo_x
    eps = eps + slack + 4.0 * U * abs(eps) if upper else eps - slack - 4.0 * U * abs(eps)
    # the float grid losses are within half an ulp of the exact ones: clamp to them moved outward
    lo_x, hi_x = float(np.nextafter(lo_x, -np.inf)), float(np.nextafter(hi_x, np.inf))
    return max(min(max(eps, lo_x), hi_x), 0.0)


def _solve_between(c, pmf, delta, upper: bool = True):
    """Below the window: every grid atom is above eps, delta(eps) = M - e^eps W, solved in closed form
    (rounded outward: pairwise sums and logsumexp to (log2 n + 14) u relative, logs to 4u, the float grid
    losses to u max |x|)."""
    x = (c.k0 + np.arange(len(pmf))) * c.h
    rel = (math.ceil(math.log2(max(len(pmf), 2))) + 14) * U
    m = pmf.sum() * ((1.0 + rel) if upper else (1.0 - rel))
    if m <= delta:
        return -math.inf
    # log W = log sum_j m_j e^{-x_j} in log space: the window may start hundreds of nats below 0
    with np.errstate(divide="ignore"):
        log_w = float(scipy.special.logsumexp(np.log(pmf) - x))
    eps = math.log(m - delta) - log_w
    # the float x_j are within u max|x| of the exact grid losses: log W moves by at most that much
    x_err = U * max(abs(float(x[0])), abs(float(x[-1])))
    slack = (2.0 * U * (m + delta) / (m - delta) + rel * (1.0 + abs(log_w)) + 8.0 * U * (1.0 + abs(eps))
             + 1.01 * x_err)
    return eps + slack if upper else eps - slack


# --------------------------------------------------------------------------------------------------
# the accountant
# --------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Bracket:
    """The composed pessimistic (upper) and optimistic (lower) PLDs of one direction at one grid step."""

    upper: ComposedPLD
    lower: ComposedPLD
    tilted: bool = False


def _pairs(schedule: Schedule, direction: str):
    return [(MixturePair(p.q, p.sigma, direction), p.steps) for p in schedule.phases]


def _check_budget(pairs, h: float, tail: float, max_points: int = PLD_MAX_GRID_POINTS) -> None:
    """Refuse, before any allocation, a grid whose per-step PMF alone exceeds the point budget."""
    for pair, _ in pairs:
        lo, hi = _loss_window(pair, tail)
        if (hi - lo) / h > max_points:
            raise AccuracyNotReached(f"one step's PLD needs {(hi - lo) / h:.3g} grid points at step "
                                     f"h={h:.3g}; the budget is {max_points} (PLD_MAX_GRID_POINTS)")


def _compose_direction(schedule: Schedule, direction: str, h: float, tail: float, tilt: dict | None = None,
                       swamped=None) -> _Bracket:
    """Both sides of one direction composed: plainly, or with exponential tilting (numerics.pld_tilted)
    when ``tilt`` ({"delta": d} or {"epsilon": e}) is given and ``swamped(plain bracket)`` says the
    plain composition's proven rounding bound swamps the answer (or ``swamped`` is None)."""
    pairs = _pairs(schedule, direction)
    per_step_tail = tail / schedule.total_steps
    _check_budget(pairs, h, per_step_tail)
    upper = [(discretise_pessimistic(pr, h, per_step_tail), t) for pr, t in pairs]
    lower = [(discretise_optimistic(pr, h, per_step_tail), t) for pr, t in pairs]
    # one window for both: the pessimistic losses dominate the optimistic ones step by step (coupling),
    # so the upper tail is bounded on the pessimistic PMF and the lower tail on the optimistic one; the
    # other tail of each then also carries the +inf mass (pessimistic) or the dropped mass (optimistic,
    # at most ``tail`` in total)
    window = (_window_side(lower, h, tail, -1), _window_side(upper, h, tail, +1))
    chernoff = None
    if tilt is None or swamped is not None:
        wrap = 3.0 * tail + inf_mass_upper(upper)
        plain_upper = compose(upper, h, tail, window=window, wrap_mass=wrap)
        limit = getattr(swamped, "share_limit", None) if tilt is not None else None
        if limit is not None and "delta" in tilt:
            # the swamp test's share, read at the Chernoff epsilon of the pessimistic PMFs instead of at
            # the plain lower end (below it, where the share is larger): when even that exceeds the
            # limit, the optimistic side and both tail scans are not computed (long runs: seconds).
            # Unlike the full test this does not first ask whether the plain bracket already meets the
            # width; the tilted composition is certified as well, so only the route changes
            chernoff = _chernoff_lambda(upper, h, tilt["delta"])
            if rounding_share(plain_upper, chernoff[1]) > limit:
                swamped.seen = True
        if not getattr(swamped, "seen", False) or tilt is None:
            plain = _Bracket(plain_upper, compose(lower, h, tail, window=window, wrap_mass=wrap))
            if tilt is None or not swamped(plain):
                return plain
    from .pld_tilted import compose_tilted, tilted
    # the tilted composition bounds the wrap-around on each side with this window's ``tail`` and adds
    # the +inf mass to delta itself (ComposedPLD.inf_mass)
    if "delta" not in tilt:
        return _Bracket(tilted(upper, h, tail, window=window, **tilt)[0],
                        tilted(lower, h, tail, window=window, **tilt)[1], True)
    # epsilon at delta: one exponent for both sides, found on the pessimistic PMFs (any exponent is an
    # exact change of measure with its rounding bounded by compose_tilted, so sharing it costs no
    # soundness; only the precision depends on it), instead of a 120-point search per side
    lam, eps_guess = chernoff or _chernoff_lambda(upper, h, tilt["delta"])
    return _Bracket(compose_tilted(upper, h, tail, window, lam, _tilt_floor(upper, h, lam, eps_guess))[0],
                    compose_tilted(lower, h, tail, window, lam, _tilt_floor(lower, h, lam, eps_guess))[1], True)


def _chernoff_lambda(steps, h: float, delta: float) -> tuple[float, float]:
    """(lambda, epsilon) near the minimum over lambda of the Chernoff bound (K(lambda) - log delta) / lambda
    of P(S >= epsilon) <= delta (any lambda is valid; only precision rides on it): 16 lambdas on
    pld_tilted.chernoff_lambda's range [1e-3, 50] (ratio 2.06), then 32 within that ratio of the best (a
    finer grid there than its 120 points, 40 % of the log-MGFs)."""
    def best(lams):
        k = sum(t * _log_mgf(s, h, lams) for s, t in steps)
        eps = (k - math.log(delta)) / lams
        i = int(np.argmin(eps))
        return float(lams[i]), float(eps[i])
    lam, _ = best(np.geomspace(1e-3, 50.0, 16))
    return best(np.geomspace(lam / 2.1, lam * 2.1, 32))


def _tilt_floor(steps, h: float, lam: float, eps_guess: float) -> float:
    """The loss below which the tilted composition keeps no masses (pld_tilted.tilted's rule for epsilon
    at delta): 40/lambda nats below the Chernoff epsilon, and never above the mean."""
    mean = sum(t * _moments(s, h)[0] for s, t in steps)
    return max(mean, eps_guess - 40.0 / lam) if eps_guess > mean else mean


def _upper_pmf(c: ComposedPLD) -> np.ndarray:
    """Entrywise upper bound on the composed grid masses: computed value plus the rounding bound, in [0, 1]."""
    return np.clip(c.pmf + c.noise, 0.0, 1.0)


def _lower_pmf(c: ComposedPLD) -> np.ndarray:
    """Entrywise lower bound on the composed grid masses: computed value minus the rounding bound, >= 0."""
    return np.maximum(c.pmf - c.noise, 0.0)


def _delta_slack(c: ComposedPLD) -> float:
    """Mass that may have wrapped around the FFT window (Chernoff bound, both sides)."""
    return c.wrap_mass


def _eps_upper(c: ComposedPLD, delta: float) -> float:
    return _eps_at(c, _upper_pmf(c), delta - c.inf_mass - _delta_slack(c), True)


def _eps_lower(c: ComposedPLD, delta: float) -> float:
    return _eps_at(c, _lower_pmf(c), delta + _delta_slack(c), False)


def _delta_upper(c: ComposedPLD, eps: float) -> float:
    return min(_delta_at(c, _upper_pmf(c), eps, True) + c.inf_mass + _delta_slack(c), 1.0)


def _delta_lower(c: ComposedPLD, eps: float) -> float:
    return max(_delta_at(c, _lower_pmf(c), eps, False) - _delta_slack(c), 0.0)


def rounding_share(c: ComposedPLD, eps: float) -> float:
    """What the proven rounding bound of the composition (``c.noise`` per entry) adds to delta(eps)."""
    x = (c.k0 + np.arange(len(c.pmf))) * c.h
    return c.noise * float(np.sum(-np.expm1(eps - x[x > eps])))


def plain_delta(c: ComposedPLD, eps: float) -> float:
    """delta(eps) of the computed PMF as it is (no rounding bound): only to decide how to compose."""
    return _delta_at(c, np.maximum(c.pmf, 0.0), eps)


def note_absolute_width(details: dict, low: float, up: float, rel_width: float, abs_width: float) -> None:
    """Say so when a bracket was accepted for its absolute width while its relative width is larger."""
    width = (up - low) / up if up > 0 else 0.0
    if width > rel_width:
        note = (f"accepted at absolute width {up - low:.3g} <= {abs_width:g}; the relative width is {width:.3g} "
                f"(> {rel_width:g})")
        details["note"] = f"{details['note']}; {note}" if details.get("note") else note


def _initial_step(schedule: Schedule, rel_width: float, delta: float, eps_guess: float | None = None,
                  rounded_lower: bool = False) -> float:
    r"""A first grid step, from an error model fitted on the benchmark cases (the refinement corrects it).

    One step's loss has variance about :math:`v_i = \min(1/\sigma_i^2, q_i^2(e^{1/\sigma_i^2}-1))`; the
    composed loss has standard deviation about :math:`s_T = \sqrt{\sum_i T_i v_i}`, and epsilon is of the
    order of :math:`s_T\sqrt{2\log(1/\delta)}/2`. With both one-step grids second order in h (numerics.
    pld_onestep), the measured relative width is about :math:`K\,T h^2 / (s_T\,\varepsilon)`, K between
    0.37 and 0.83 on the long runs T = 1e4..1e6 (q = 1e-3, sigma = 1), bench_pld's C1, C4, C5, C6, the
    README's B-of-N example, a replace-one schedule and q = 1.7e-5, sigma = 12.1 over 360,000 steps, and 4 and
    7.3 on C3 (sigma = 0.8) and C2 (epsilon 25.6); the first pass takes K = KAPPA, so that most runs need
    one pass and the others one refinement.

    ``rounded_lower``: the lower grid rounds its atoms down (the pairs of numerics.location_pairs, through
    numerics.pld_general), a first-order error: the width is then about :math:`c\,T h^2/(s\,\varepsilon)`
    with the per-step :math:`s = s_T/\sqrt T` and c between 0.02 and 0.16, and the first pass aims at three
    times the target width with c = 0.2 (this was every grid's model before issue 33; it took T = 10^6
    a grid 6 times finer than the mixed lower grid needs).
    """
    var = sum(p.steps * min(p.sigma ** -2, p.q ** 2 * math.expm1(min(p.sigma ** -2, 700.0)))
              for p in schedule.phases)
    steps = schedule.total_steps
    if eps_guess is None:
        eps_guess = 0.5 * math.sqrt(var) * math.sqrt(2.0 * math.log(1.0 / delta))
    eps_guess = max(eps_guess, 1e-6)
    if rounded_lower:
        return math.sqrt(3.0 * rel_width * math.sqrt(var / steps) * eps_guess / (0.2 * steps))
    return math.sqrt(rel_width * math.sqrt(var) * eps_guess / (KAPPA * steps))


#: the first pass's constant K of the width model of :func:`_initial_step`
KAPPA = 0.8


def _refine(bracket_of, directions, rel_width: float, max_refinements: int, h0: float,
            abs_width: float = 0.0):
    """Refine the grid until max-over-directions (lower, upper) has relative width <= ``rel_width``.

    ``bracket_of(direction, h) -> (lower, upper, composed)``. A direction whose certified upper bound is
    already below the best lower bound of another cannot be the worst one and is not refined further
    (its last, coarser bounds stay valid). The connect-the-dots error is second order in h, so the next
    step is h * sqrt(0.8 * target / width), kept within [h/10, 0.7 h]. A bracket narrower than
    ``abs_width`` is accepted whatever its relative width.
    """
    h, history, current = h0, [], {}
    active = list(directions)
    for _ in range(max_refinements + 1):
        started = time.perf_counter()
        for d in active:
            try:
                current[d] = bracket_of(d, h)
            except AccuracyNotReached as exc:
                reached = f"; best relative width reached {history[-1]['relative_width']:.3g}" if history else ""
                raise AccuracyNotReached(f"relative width {rel_width:.3g} not reachable: {exc}{reached}") from None
        low = max(v[0] for v in current.values())
        up = max(v[1] for v in current.values())
        crossed = [d for d, v in current.items() if v[0] > v[1]]
        if crossed or low > up:
            # every rounding is bounded, so a crossing is a defect: refuse, per direction (the maximum
            # over directions could hide one), with no tolerance
            raise CrossedBracket(f"the certified sides crossed (lower {low:.6g} > upper {up:.6g} at "
                                     f"h={h:.3g}, directions {crossed or list(current)}): not certified")
        width = (up - low) / up if up > 0 else 0.0
        history.append({"h": h, "lower": low, "upper": up, "relative_width": width,
                        "directions": list(active), "seconds": time.perf_counter() - started})
        if width <= rel_width or up - low <= abs_width:
            return low, up, current, history
        if len(history) > 2 and width > 0.9 * history[-3]["relative_width"]:
            raise AccuracyNotReached(
                f"relative width {rel_width:.3g} not reachable: refining the grid no longer helps "
                f"(width {history[-3]['relative_width']:.3g} -> {width:.3g} at h={h:.3g}); the floor is the "
                f"truncation budget or the bounded rounding against a very small delta")
        active = [d for d in directions if current[d][1] > low]
        h *= min(max(math.sqrt(0.8 * rel_width / width), 0.1), 0.7)
    raise AccuracyNotReached(f"relative width {width:.3g} > target {rel_width:.3g} after "
                             f"{max_refinements} refinements (last grid step h={h:.3g}); "
                             f"raise max_refinements or rel_width")


def _validate_schedule(schedule) -> Schedule:
    if not isinstance(schedule, Schedule):
        raise InvalidParameter(f"schedule must be a numerics.schedule.Schedule, got {type(schedule).__name__}")
    require_poisson_gaussian(schedule, "numerics.pld")
    return schedule


def _check_rel_width(rel_width) -> float:
    ok = isinstance(rel_width, (int, float)) and not isinstance(rel_width, bool)
    x = float(rel_width) if ok else math.nan
    if not 0.0 < x < 1.0:
        raise InvalidParameter(f"rel_width must lie in (0, 1), got {rel_width!r}")
    return x


#: the pair(s) each adjacency composes: add/remove takes the worse of its two directions; replace-one the
#: +-1 pair alone, which dominates every Poisson replace-one step (docs/replace_one.md section 6)
ADD_REMOVE_DIRECTIONS, REPLACE_ONE_DIRECTIONS = ("remove", "add"), ("replace",)


def _directions(schedule: Schedule, max_refinements: int):
    """(directions, first-grid scale, refinements): the +-1 pair's loss range is twice as wide, so its
    first grid is halved and it is allowed two more refinements."""
    if schedule.adjacency == "replace-one":
        return REPLACE_ONE_DIRECTIONS, 0.5, max_refinements + 2
    return ADD_REMOVE_DIRECTIONS, 1.0, max_refinements


def epsilon_pld(schedule: Schedule, delta: float, *, rel_width: float = PLD_RELATIVE_WIDTH,
                max_refinements: int = 6) -> EpsilonBounds:
    r"""Certified bounds on the optimal epsilon at ``delta`` of ``schedule``.

    Returns ``EpsilonBounds`` with ``epsilon_lower <= eps(delta) <= epsilon_upper`` and, for add/remove,
    ``(upper - lower) / upper <= rel_width`` (or ``upper - lower <= PLD_ABSOLUTE_WIDTH``, for epsilon
    near 0): the grid refines itself until the width is met, or
    :class:`AccuracyNotReached` says why not. ``details``: grid step ``h``, ``tail`` (mass allowed
    outside the FFT window and per-step truncation, each side; part of delta), per-direction bounds,
    ``refinements`` (history) and ``seconds``.

    Replace-one: the opposite-vectors (+-1) pair dominates every Poisson replace-one step, adaptively
    (proof in docs/replace_one.md section 6) and is realizable, so both bounds come from its grids and
    ``rel_width`` is enforced as for add/remove.
    """
    schedule = _validate_schedule(schedule)
    delta = check_delta(delta)
    rel_width = _check_rel_width(rel_width)
    directions, h0_scale, max_refinements = _directions(schedule, max_refinements)
    tail = delta * rel_width * 1e-6
    started = time.perf_counter()

    # redo a plain composition tilted where its rounding bound swamps the target (eps_swamp_test)
    swamped = Swamped(eps_swamp_test(delta, rel_width), share_limit=0.1 * rel_width * delta)

    def bracket_of(direction, h):
        tilt = {"delta": delta}
        b = _compose_direction(schedule, direction, h, tail, tilt, None if delta < TILT_BELOW_DELTA else swamped.tilt_only)
        return _eps_lower(b.lower, delta), _eps_upper(b.upper, delta), b

    low, up, current, history = _refine(bracket_of, directions, rel_width, max_refinements,
                                        _initial_step(schedule, rel_width, delta) * h0_scale, PLD_ABSOLUTE_WIDTH)
    details = {"h": history[-1]["h"], "tail": tail, "refinements": history,
               "directions": {d: {"lower": v[0], "upper": v[1]} for d, v in current.items()},
               "tilted": {d: v[2].tilted for d, v in current.items()}}
    details["seconds"] = time.perf_counter() - started
    return EpsilonBounds(low, up, delta, "pld", schedule.adjacency, True, details)


def delta_pld(schedule: Schedule, epsilon: float, *, rel_width: float = PLD_RELATIVE_WIDTH,
              max_refinements: int = 6) -> DeltaBounds:
    r"""Certified bounds on the optimal delta at ``epsilon``: ``delta_lower <= delta(eps) <= delta_upper``.

    The grid refines until ``(upper - lower) / upper <= rel_width``. The mass allowed outside the grid
    is :data:`PLD_DELTA_TAIL` per side, so deltas far below it cannot be certified to ``rel_width``
    (:class:`AccuracyNotReached`). Replace-one: the +-1 pair, as in :func:`epsilon_pld`.
    """
    schedule = _validate_schedule(schedule)
    epsilon = check_epsilon(epsilon)
    rel_width = _check_rel_width(rel_width)
    directions, h0_scale, max_refinements = _directions(schedule, max_refinements)
    started = time.perf_counter()

    # redo a plain composition tilted where its rounding bound swamps the target (delta_swamp_test)
    swamped = Swamped(delta_swamp_test(epsilon, rel_width))

    def bracket_of(direction, h):
        b = _compose_direction(schedule, direction, h, PLD_DELTA_TAIL, {"epsilon": epsilon}, swamped.tilt_only)
        return _delta_lower(b.lower, epsilon), _delta_upper(b.upper, epsilon), b

    eps_guess = max(epsilon, 1e-3) if directions == REPLACE_ONE_DIRECTIONS else epsilon
    low, up, current, history = _refine(bracket_of, directions, rel_width, max_refinements,
                                        _initial_step(schedule, rel_width, 1e-5, eps_guess=eps_guess) * h0_scale)
    details = {"h": history[-1]["h"], "tail": PLD_DELTA_TAIL, "refinements": history,
               "directions": {d: {"lower": v[0], "upper": v[1]} for d, v in current.items()},
               "tilted": {d: v[2].tilted for d, v in current.items()},
               "seconds": time.perf_counter() - started}
    return DeltaBounds(low, up, epsilon, "pld", schedule.adjacency, True, details)


# --------------------------------------------------------------------------------------------------
# the trade-off curve (f-DP) of the exact mechanism
# --------------------------------------------------------------------------------------------------

def _beta_from(c: ComposedPLD, pmf: np.ndarray, extra: float, alphas: np.ndarray, upper: bool) -> np.ndarray:
    r"""sup over eps of 1 - delta(eps) - e^eps alpha, for delta(eps) = grid delta + ``extra``.

    Between grid points the objective is :math:`1 - A + e^\varepsilon(B - \alpha)`, monotone, so the
    supremum over all real eps is attained at a grid point or as eps -> -inf (value 1 - total mass).
    """
    x, _, _, d = _tail_sums(c, pmf, upper)
    total = float(pmf.sum()) + extra
    out = np.empty(len(alphas))
    for i, alpha in enumerate(alphas):
        vals = 1.0 - d - extra - np.exp(np.minimum(x, 700.0)) * alpha
        out[i] = max(float(vals.max()), 1.0 - total)
    return np.clip(out, 0.0, 1.0 - alphas)


def tradeoff_pld(schedule: Schedule, alphas, *, rel_width: float = PLD_RELATIVE_WIDTH,
                 grid_delta: float = 1e-5) -> tuple[np.ndarray, np.ndarray]:
    r"""Certified bounds on the exact trade-off curve :math:`f(\alpha)` of the composed mechanism.

    :math:`f(\alpha) = \min_{\text{directions}} \sup_{\varepsilon \in \mathbb{R}}
    (1 - \delta(\varepsilon) - e^{\varepsilon}\alpha)` (the f-DP / hockey-stick duality, Dong, Roth,
    Su 2022, Prop. 2.12, over both orders of the neighbouring pair). Using the certified upper (lower)
    delta curve gives a lower (upper) bound on f. The grid is the one :func:`epsilon_pld` certifies at
    ``grid_delta`` with ``rel_width``. Returns ``(beta_lower, beta_upper)`` arrays. Add/remove only.
    """
    schedule = _validate_schedule(schedule)
    if schedule.adjacency != "add-remove":
        raise InvalidParameter("tradeoff_pld supports adjacency 'add-remove' only, got 'replace-one'")
    alphas = np.asarray(alphas, dtype=float)
    if alphas.ndim != 1 or alphas.size == 0 or not np.all((alphas >= 0) & (alphas <= 1)):
        raise InvalidParameter("alphas must be a non-empty 1-d sequence of numbers in [0, 1]")
    rel_width = _check_rel_width(rel_width)
    delta = check_delta(grid_delta, "grid_delta")
    tail = delta * rel_width * 1e-6

    def bracket_of(direction, h):
        b = _compose_direction(schedule, direction, h, tail)
        return _eps_lower(b.lower, delta), _eps_upper(b.upper, delta), b

    _, _, current, _ = _refine(bracket_of, ("remove", "add"), rel_width, 6,
                               _initial_step(schedule, rel_width, delta))
    lows, ups = [], []
    for _, _, b in current.values():
        lows.append(_beta_from(b.upper, _upper_pmf(b.upper), b.upper.inf_mass + _delta_slack(b.upper), alphas,
                               True))
        ups.append(_beta_from(b.lower, _lower_pmf(b.lower), -_delta_slack(b.lower), alphas, False))
    return np.minimum.reduce(lows), np.minimum.reduce(ups)


def eps_swamp_test(delta: float, rel_width: float):
    """Whether a plain composition (a bracket with ``upper``/``lower``) should be redone tilted for
    epsilon at ``delta``: its bracket misses ``rel_width`` and the rounding bound's share of delta, at
    the lower epsilon (where it is largest), exceeds a tenth of the target width."""
    def test(b) -> bool:
        low, up = _eps_lower(b.lower, delta), _eps_upper(b.upper, delta)
        if math.isfinite(up) and up - low <= rel_width * up:
            return False
        return rounding_share(b.upper, low) > 0.1 * rel_width * delta
    return test


def delta_swamp_test(epsilon: float, rel_width: float):
    """As :func:`eps_swamp_test`, for delta at ``epsilon``."""
    def test(b) -> bool:
        low, up = _delta_lower(b.lower, epsilon), _delta_upper(b.upper, epsilon)
        if up - low <= rel_width * up:
            return False
        return rounding_share(b.upper, epsilon) > 0.1 * rel_width * plain_delta(b.upper, epsilon)
    return test


class Swamped:
    """``swamped(bracket)`` for :func:`_compose_direction`: ``test(bracket)`` says whether the plain
    composition's rounding bound swamps the answer; once it has, finer grids are composed with tilting
    straight away (a finer grid only has more entries to carry the bound), and ``tilt_only`` (the
    ``swamped`` argument to pass then) is None."""

    def __init__(self, test, share_limit: float | None = None):
        self.test, self.seen = test, False
        #: epsilon at delta: the rounding share beyond which the plain composition is judged swamped
        #: from its pessimistic side alone (see _compose_direction); None: always the full test
        self.share_limit = share_limit

    def __call__(self, bracket) -> bool:
        self.seen = self.seen or bool(self.test(bracket))
        return self.seen

    @property
    def tilt_only(self):
        return None if self.seen else self
