"""An independent reference for delta(epsilon) in the tail: exponential tilting in long double.

Not the accountant's code: the tilt is found by bisection on the tilted mean (not a Chernoff grid
search), every operation runs in long double (u = 2^-64), the composition is one cyclic FFT on a window
of +-14 tilted standard deviations around epsilon, and no rounding bound is applied (the result is a
value, not a bound). On the connect-the-dots (pessimistic) grid of a dominating pair it gives a value
above the truth; on the interval-quantised (optimistic) grid of a realizable pair one below it, up to
the grid only. A certified lower end above the former, or an upper end below the latter, is a defect.
"""
from __future__ import annotations

import numpy as np
import scipy.fft

from numerics import pld

LD = np.longdouble


def _tilted_moments(steps, h: float, lam):
    """Sum over phases of T_i times the mean and variance (in loss units) of the lam-tilted step."""
    mean = var = LD(0)
    for step, t in steps:
        x = (step.k0 + np.arange(len(step.pmf))).astype(LD) * LD(h)
        w = step.pmf.astype(LD) * np.exp(lam * (x - x.max()))
        w = w / w.sum()
        m = (w * x).sum()
        mean += t * m
        var += t * (w * (x - m) ** 2).sum()
    return mean, var


def _lambda_at(steps, h: float, eps: float):
    """The tilt whose composed mean is eps (bisection on the increasing tilted mean)."""
    lo, hi = LD(0), LD(1)
    while _tilted_moments(steps, h, hi)[0] < eps:
        lo, hi = hi, 2 * hi
    for _ in range(80):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if _tilted_moments(steps, h, mid)[0] < eps else (lo, mid)
    return (lo + hi) / 2


def delta_reference(steps, h: float, eps: float) -> float:
    """delta(eps) of the composition of ``steps`` ((GridPLD, count) pairs, the +inf mass included)."""
    survive = np.prod([(1 - LD(s.inf_mass)) ** t for s, t in steps])
    top = sum(t * (s.k0 + len(s.pmf) - 1) * h for s, t in steps)
    if top <= eps:  # no finite loss above eps
        return float(1 - survive)
    lam = _lambda_at(steps, h, eps)
    _, var = _tilted_moments(steps, h, lam)
    width = int(28 * np.sqrt(float(var)) / h) + 2 * max(len(s.pmf) for s, _ in steps)
    n = scipy.fft.next_fast_len(width, real=True)
    start = int(round(eps / h)) - n // 2  # entry m of the window holds loss (start + m) h
    spectrum = np.ones(n // 2 + 1, dtype=np.clongdouble)
    log_m_total = LD(0)
    for step, t in steps:
        k = step.k0 + np.arange(len(step.pmf))
        w = step.pmf.astype(LD) * np.exp(lam * k.astype(LD) * LD(h))
        log_m_total += t * np.log(w.sum())
        folded = np.zeros(n, dtype=LD)
        np.add.at(folded, k % n, w / w.sum())
        spectrum *= scipy.fft.rfft(folded) ** t
    tilted = np.roll(scipy.fft.irfft(spectrum, n=n), -(start % n))
    x = (start + np.arange(n)).astype(LD) * LD(h)
    above = x > LD(eps)
    mass = tilted[above] * np.exp(log_m_total - lam * x[above])
    return float((mass * -np.expm1(LD(eps) - x[above])).sum() + (1 - survive))


def poisson_delta_reference(phases, adjacency: str, h: float, eps: float, tail: float = 1e-20):
    """(below, above) the truth of a Poisson-Gaussian schedule ``phases`` = [(q, sigma, T)]: the
    reference on the optimistic and on the pessimistic grids at step h, worst direction."""
    from numerics.pld_pairs import MixturePair

    directions = ("replace",) if adjacency == "replace-one" else ("remove", "add")
    lows, ups = [], []
    for d in directions:
        pairs = [(MixturePair(q, s, d), t) for q, s, t in phases]
        per = tail / sum(t for _, _, t in phases)
        lows.append(delta_reference([(pld.discretise_optimistic(p, h, per), t) for p, t in pairs], h, eps))
        ups.append(delta_reference([(pld.discretise_pessimistic(p, h, per), t) for p, t in pairs], h, eps))
    return max(lows), max(ups)
