r"""Composition of grid PMFs with exponential tilting around epsilon: the accurate side of every small delta.

The rounding of a double-precision FFT composition is bounded entry by entry (numerics.fft_rounding):
about :math:`T\rho\|a\|_2\|c\|_2` per entry, the same for every entry, so summed over the loss window
above epsilon it can exceed a small delta (issue 29: 4.7 million entries of 5e-19 each against a delta
of 1.7e-12). Tilting moves the region that matters to the top of the distribution: with
:math:`\tilde p_i(x) = p_i(x) e^{\lambda x}/M_i` for each step, the composition of the tilted PMFs is
the tilted composition, :math:`\tilde p^{(T)}(x) = p^{(T)}(x)e^{\lambda x}/\prod_i M_i^{T_i}` (an identity of
convolutions, for any constants :math:`M_i`), and the FFT's error is now relative to the tilted masses,
which are large near :math:`x \approx \varepsilon` when :math:`\lambda` is the Chernoff exponent of
:math:`P(L \ge \varepsilon)`. Untilting multiplies every entry and its error bound by
:math:`\prod_i M_i^{T_i} e^{-\lambda x}`, which decays above epsilon, so delta(epsilon), a sum over losses
above epsilon only, keeps its accuracy.

Soundness of what is returned (the same sides as numerics.pld):

* entries at losses below ``x_floor`` are not used: for the upper PMF their total mass (the composed
  finite mass minus the certified lower masses above ``x_floor``) is put at ``x_floor`` (a loss rounded
  up, which only raises delta); for the lower PMF they are dropped (a sub-probability, which only
  lowers it);
* circular wrap-around: the window holds all but ``tail`` of the untilted mass on each side (Chernoff,
  as numerics.pld); mass from above the window lands at the bottom, below ``x_floor``, unless it comes
  from beyond ``x_floor + n h`` (n is at least the window, grown until this is below ``tail``), whose
  untilted contribution after m wraps is at most
  :math:`e^{\lambda m n h} P(S \ge x_{floor} + mnh) \le e^{\lambda nh + K(\lambda') - \lambda'(x_{floor} + nh)} e^{-(m-1)(\lambda'-\lambda)nh}`
  for every :math:`\lambda' > \lambda` (Chernoff with the grid PMFs' log-MGF K), summed over m and added to
  the wrap-around allowance; mass from below the window lands higher with a factor
  :math:`e^{-\lambda m nh} \le 1`, within ``tail``;
* rounding, every source bounded (issue 29):
  (i) the tilted masses: each computed entry is :math:`\tilde p_{ij}(1 + \theta_{ij})` with
  :math:`|\theta_{ij}| \le \eta_i = 2u(|\log p_{ij}| + 3|\lambda x_j| + |l_{ij}| + |l_{ij} - \log M_i| + 3)`
  (log, products, sums and exp each round by at most u relative, u = 2^-53; :math:`l = \log p + \lambda x`),
  so the exact composition of the exact tilted PMFs lies between :math:`(1+\eta)^{-T}` and
  :math:`(1-\eta)^{-T}` times that of the computed ones (all entries are nonnegative);
  (ii) the FFT composition: the proven entrywise bound E of numerics.fft_rounding, added (upper) or
  subtracted (lower) before untilting;
  (iii) untilting: the exponent :math:`\sum_i T_i\log M_i - \lambda x_j` is computed with absolute error at
  most :math:`\Delta_j = 2u(m+1)\sum_i T_i|\log M_i| + 3u|\lambda x_j| + u|\text{exponent}|` (m phases),
  so each scale factor is within :math:`e^{\pm(\Delta_j + 2u)}`, applied in the safe direction;
  (iv) the sum of the kept lower masses (the floor atom of the upper PMF) is rounded up by
  :math:`(\lceil\log_2 n\rceil + 10)u` relative (numpy's pairwise summation), the finite mass
  :math:`\prod_i (1 - p_{i,\infty})^{T_i}` is rounded up through its log, and the difference one ulp up;
  (v) each kept mass is a sum (difference) and two products, moved 4u to its safe side (A29C: these
  three roundings were not counted); the Chernoff exponents of the window and of the wrap-around
  allowance carry the proven rounding bound of the log-MGF (numerics.pld_compose._log_mgf_error).
"""
from __future__ import annotations

import math

import numpy as np
import scipy.fft
from scipy.special import logsumexp

from .fft_rounding import U, SpectralPower
from .pld_compose import (AccuracyNotReached, ComposedPLD, GridPLD, _log_mgf, _log_mgf_upper, _moments,
                          _window_side, inf_mass_upper)
from .precision import PLD_MAX_GRID_POINTS


def _contamination_lams(steps, h: float, lam: float):
    """(lam' grid above lam, K(lam') summed over the steps with its rounding bound,
    pld_compose._log_mgf_upper): computed once per composition."""
    lams = lam * np.geomspace(1.01, 30.0, 60)
    return lams, _log_mgf_upper(steps, h, lams)


def _contamination(lam: float, lams_k, level: float, shift: float) -> float:
    """Bound on sum_{m >= 1} e^{lam m shift} P(S >= level + (m - 1) shift) (what wraps m times around a
    cyclic window of length ``shift`` onto losses >= level - shift): for every lam' > lam each term is
    at most e^{lam shift + K(lam') - lam' level} e^{-(m-1)(lam' - lam) shift}, a geometric series;
    ``lams_k`` = :func:`_contamination_lams`. The exponent is moved up by its rounding bound (each of its
    terms within 2u, expm1 and log to 1 ulp, its four-term sum 3u) and the exp by 1 ulp; not capped at 1
    (a wrapped mass is multiplied by e^{lam m shift}, so the allowance may exceed 1: then it says so)."""
    lams, k = lams_k
    with np.errstate(divide="ignore"):
        log_series = -np.log(-np.expm1(-(lams - lam) * shift))
    parts = (lam * shift, k, lams * level, log_series)
    exponent = parts[0] + parts[1] - parts[2] + parts[3]
    exponent = exponent + 6.0 * U * sum(np.abs(p) for p in parts) + 4.0 * U
    return math.exp(min(float(np.min(exponent)), 709.0)) * (1.0 + 4.0 * U)


def chernoff_lambda(steps, h: float, delta: float) -> tuple[float, float]:
    """(lambda, epsilon) minimising the Chernoff bound epsilon with P(S >= epsilon) <= delta."""
    lams = np.geomspace(1e-3, 50.0, 120)
    k = sum(t * _log_mgf(s, h, lams) for s, t in steps)
    eps = (k - math.log(delta)) / lams
    i = int(np.argmin(eps))
    return float(lams[i]), float(eps[i])


def chernoff_lambda_at(steps, h: float, epsilon: float) -> float:
    """The lambda minimising the Chernoff bound K(lambda) - lambda epsilon of P(S >= epsilon): the tilt
    that centres the composed PMF at epsilon (for delta at a given epsilon)."""
    lams = np.geomspace(1e-3, 50.0, 120)
    k = sum(t * _log_mgf(s, h, lams) for s, t in steps)
    return float(lams[int(np.argmin(k - lams * epsilon))])


#: coarsening factor of the PMFs on which the Chernoff window is found (64x cheaper; still valid)
_COARSEN = 64


def coarse(step: GridPLD, sign: int) -> GridPLD:
    """The PMF with every atom moved to the next multiple of _COARSEN grid points in direction ``sign``:
    its log-MGF at sign * lam > 0 is at least the original's, so Chernoff bounds on it stay valid."""
    k = step.k0 + np.arange(len(step.pmf))
    c = np.ceil(k / _COARSEN) if sign > 0 else np.floor(k / _COARSEN)
    c = c.astype(np.int64)
    return GridPLD(int(c[0]), np.bincount(c - c[0], weights=step.pmf), step.inf_mass)


def coarse_window(steps, h: float, tail: float) -> tuple[int, int]:
    """Grid indices outside of which the composition of ``steps`` has at most ``tail`` on each side
    (Chernoff on the coarsened PMFs)."""
    hc = h * _COARSEN
    return (_window_side([(coarse(s, -1), t) for s, t in steps], hc, tail, -1) * _COARSEN,
            _window_side([(coarse(s, +1), t) for s, t in steps], hc, tail, +1) * _COARSEN)


def tilted(steps, h: float, tail: float, *, delta: float | None = None, epsilon: float | None = None,
           window: tuple[int, int] | None = None):
    """(upper, lower) composed with exponential tilting: at the Chernoff exponent of ``delta`` (for
    epsilon at delta) or the one that centres the composition at ``epsilon`` (for delta at epsilon).
    ``window``: grid indices holding all but ``tail`` of the mass on each side (default: Chernoff on
    the coarsened PMFs, :func:`coarse_window`)."""
    window = coarse_window(steps, h, tail) if window is None else window
    if epsilon is None:
        lam, eps_guess = chernoff_lambda(steps, h, delta)
    else:
        lam, eps_guess = chernoff_lambda_at(steps, h, epsilon), epsilon
    mean = sum(t * _moments(s, h)[0] for s, t in steps)
    x_floor = max(mean, eps_guess - 40.0 / lam) if eps_guess > mean else mean
    if epsilon is not None:
        x_floor = min(x_floor, epsilon - h)  # delta at epsilon needs every loss above epsilon
    return compose_tilted(steps, h, tail, window, lam, x_floor)


def _tilt_error(step: GridPLD, lp: np.ndarray, log_m: float, lam_x: np.ndarray) -> float:
    """eta_i of the module docstring, item (i), for one step."""
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.abs(np.log(step.pmf)) + 3.0 * np.abs(lam_x) + np.abs(lp) + np.abs(lp - log_m) + 3.0
    terms = terms[step.pmf > 0]
    return 2.0 * U * float(terms.max()) if len(terms) else 0.0


def compose_tilted(steps, h: float, tail: float, window: tuple[int, int], lam: float, x_floor: float):
    """(upper, lower) ComposedPLDs (rounding folded in, see module docstring) for delta at losses >= x_floor."""
    lo, hi = window
    # the FFT length is at least the window (what wraps from below lands higher with a factor
    # e^{-lam n h} <= 1, within ``tail``) and grows by half until what can wrap from above onto the used
    # losses is below ``tail`` (or the budget ends; the allowance then carries the rest)
    n = scipy.fft.next_fast_len(hi - lo + 1, real=True)
    lams_k = _contamination_lams(steps, h, lam)
    while _contamination(lam, lams_k, x_floor + n * h, n * h) > tail and 3 * n // 2 <= PLD_MAX_GRID_POINTS:
        n = scipy.fft.next_fast_len(3 * n // 2, real=True)
    if n > PLD_MAX_GRID_POINTS:
        raise AccuracyNotReached(f"the composed PLD needs {n} grid points at step h={h:.3g}")
    power = SpectralPower(n)
    log_m_total, abs_log_m, log_survive, t_eta = 0.0, 0.0, 0.0, 0.0
    for step, count in steps:
        lam_x = lam * ((step.k0 + np.arange(len(step.pmf))) * h)
        with np.errstate(divide="ignore"):
            lp = np.log(step.pmf) + lam_x
        log_m = float(logsumexp(lp))
        folded = np.bincount((step.k0 + np.arange(len(step.pmf))) % n, weights=np.exp(lp - log_m), minlength=n)
        power.add(folded, count, fold=-(-len(step.pmf) // n))
        t_eta += count * _tilt_error(step, lp, log_m, lam_x)
        log_m_total += count * log_m
        abs_log_m += count * abs(log_m)
        log_survive += count * math.log1p(-step.inf_mass)
    total, noise = power.finish()
    total = np.roll(total, -(lo % n))
    x = (lo + np.arange(n)) * h
    # untilting factors above e^700 would overflow: such low losses join the floor instead
    keep = x >= max(x_floor, (log_m_total - 700.0) / lam)
    exponent = log_m_total - lam * x[keep]
    scale = np.exp(exponent)
    # (i) and (iii) of the module docstring: relative rounding of the tilted masses and of the scale
    d_scale = (2.0 * U * (len(steps) + 1) * abs_log_m + 3.0 * U * np.abs(lam * x[keep])
               + U * np.abs(exponent) + 2.0 * U)
    # (1 - eta)^-T <= 1 / (1 - T eta) (Bernoulli) and (1 + eta)^-T >= e^{-T eta}
    up_factor = np.exp(d_scale) / (1.0 - t_eta) if t_eta < 0.5 else np.full(len(d_scale), np.inf)
    low_factor = np.exp(-d_scale - t_eta)
    # the sum (difference) and the two products round three times: 4u moves them to their safe sides
    up_keep = (total[keep] + noise) * scale * up_factor * (1.0 + 4.0 * U)
    low_keep = np.maximum(total[keep] - noise, 0.0) * scale * low_factor * (1.0 - 4.0 * U)
    # (iv) the finite mass rounded up: log1p to 1 ulp, T log1p and the sum over m phases, then exp to 1 ulp
    finite = min(math.exp(log_survive * (1.0 - 1.01 * (len(steps) + 3) * 2.0 * U)) * (1.0 + 4.0 * U), 1.0)
    if not keep.any():  # the floor is above the window: every finite loss rounds up to its top
        keep[-1] = True
        up_keep, low_keep = np.zeros(1), np.zeros(1)
    k_floor = int(np.argmax(keep))
    upper = np.array(up_keep)
    kept = float(low_keep.sum()) * (1.0 + (math.ceil(math.log2(max(n, 2))) + 10) * U)
    upper[0] += float(np.nextafter(max(finite - kept, 0.0), np.inf))  # the subtraction rounded up
    contamination = _contamination(lam, lams_k, x_floor + n * h, n * h)
    wrap = 2.0 * tail + contamination
    inf_mass = inf_mass_upper(steps)
    k0 = lo + k_floor
    return (ComposedPLD(k0, upper, h, inf_mass, wrap, 0.0),
            ComposedPLD(k0, low_keep, h, inf_mass, wrap, 0.0))
