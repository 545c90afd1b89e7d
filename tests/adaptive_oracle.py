"""Independent oracle for issue 25: tiny fixed-size data sets, an adaptive adversary, quadrature.

Nothing here imports numerics. One step of fixed-size sampling (b of n records, record 0 differs: its
clipped scalar gradient is +1 under D and -1 under D', the others' gradients are chosen by the adversary
in [-1, 1]) is a pair of Gaussian mixtures over the b-subsets. The adversary picks, at each step, one
pair of a finite menu as a function of the earlier outputs; the sup over such policies is
``max_a E_{P_a}[V_{t+1}(L + loss_a(y))]`` (the integrand's pointwise maximum is the best choice on every
cell of any partition of the outputs), evaluated with scipy.integrate.quad; the last step's
hockey-stick divergence is exact (sign changes of p - alpha q located on a dense grid, refined by brentq,
then normal CDF differences).
"""
from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
from scipy import integrate, optimize
from scipy.special import ndtr

_SQ2PI = math.sqrt(2.0 * math.pi)


def step_pair(n: int, b: int, others) -> tuple:
    """(P, Q) as tuples of (mean, weight): the target record's gradient is +1 in D and -1 in D'."""
    subsets = list(itertools.combinations(range(n), b))

    def mix(target):
        grads = (target,) + tuple(others)
        means = {}
        for s in subsets:
            m = sum(grads[i] for i in s)
            means[m] = means.get(m, 0.0) + 1.0 / len(subsets)
        return tuple(sorted(means.items()))
    return mix(1.0), mix(-1.0)


def menu(n: int, b: int, values=(-1.0, 0.0, 1.0)) -> list:
    """Every pair with the other n-1 gradients drawn from ``values`` (as multisets: order is irrelevant)."""
    pairs = {step_pair(n, b, others) for others in itertools.combinations_with_replacement(values, n - 1)}
    return sorted(pairs)


def density(mix, y, sigma):
    y = np.asarray(y, dtype=float)
    return sum(w * np.exp(-0.5 * ((y - m) / sigma) ** 2) for m, w in mix) / (sigma * _SQ2PI)


def _mass(mix, a, b, sigma):
    return sum(w * (ndtr((b - m) / sigma) - ndtr((a - m) / sigma)) for m, w in mix)


def hockey_stick(pair, sigma: float, alpha: float) -> float:
    """H_alpha(P || Q) = integral of (p - alpha q)_+ for one step, exactly (up to root finding)."""
    p_mix, q_mix = pair
    means = [m for m, _ in p_mix + q_mix]
    lo, hi = min(means) - 14.0 * sigma, max(means) + 14.0 * sigma
    # an irrational offset keeps grid points off the symmetric roots (e.g. y = 0)
    y = np.linspace(lo, hi, 1201) + math.pi * 1e-4
    f = density(p_mix, y, sigma) - alpha * density(q_mix, y, sigma)
    edges = [-math.inf]
    for i in np.nonzero(np.sign(f[:-1]) * np.sign(f[1:]) < 0)[0]:
        edges.append(optimize.brentq(lambda t: float(density(p_mix, t, sigma) - alpha * density(q_mix, t, sigma)),
                                     y[i], y[i + 1], xtol=1e-14))
    edges.append(math.inf)
    total = 0.0
    for a, b in zip(edges[:-1], edges[1:]):
        mid = 0.5 * (max(a, lo) + min(b, hi))
        if float(density(p_mix, mid, sigma) - alpha * density(q_mix, mid, sigma)) > 0:
            total += _mass(p_mix, a, b, sigma) - alpha * _mass(q_mix, a, b, sigma)
    return max(total, 0.0)


def adaptive_delta(pairs, sigma: float, steps: int, eps: float) -> float:
    """sup over adaptive policies choosing one of ``pairs`` per step of the transcript's H_{e^eps}."""
    lim = 3.0 + 14.0 * sigma

    def value(t, shift):  # shift = L - eps; the last step is exact
        if t == steps - 1:
            return max(hockey_stick(pr, sigma, math.exp(-shift)) for pr in pairs)
        best = 0.0
        for p_mix, q_mix in pairs:
            def f(y):
                p = float(density(p_mix, y, sigma))
                if p == 0.0:
                    return 0.0
                return p * value(t + 1, shift + math.log(p / float(density(q_mix, y, sigma))))
            with warnings.catch_warnings():  # quadpack's roundoff notes: the tests' tolerances absorb them
                warnings.simplefilter("ignore", integrate.IntegrationWarning)
                tol = 1e-12 if t == steps - 2 else 1e-8  # outer levels of T = 3: coarser, still << tests'
                best = max(best, integrate.quad(f, -lim, lim, points=(-1.0, 0.0, 1.0), limit=100,
                                                epsabs=tol, epsrel=tol)[0])
        return best
    return value(0, -eps)


def poisson_step_pair(n: int, q: float, others) -> tuple:
    """(P, Q) of one Poisson step: every record joins the batch with probability q, independently; the
    target record's gradient is +1 in D and -1 in D'."""
    return _shift_target(n, q, others, 1.0), _shift_target(n, q, others, -1.0)


def poisson_menu(n: int, q: float, values=(-1.0, 0.0, 1.0),
                 targets=((1.0, -1.0), (1.0, 0.0), (0.0, -1.0), (0.5, -0.5))) -> list:
    """Every Poisson step pair with the other n-1 gradients from ``values`` and the target's gradients
    (u under D, v under D') from ``targets`` (points of the scalar ball)."""
    pairs = set()
    for others in itertools.combinations_with_replacement(values, n - 1):
        for u, v in targets:
            pairs.add((_shift_target(n, q, others, u), _shift_target(n, q, others, v)))
    return sorted(pairs)


def _shift_target(n, q, others, target):
    """Law of the noiseless Poisson sum as (mean, weight) pairs, the target record's gradient given."""
    grads = (target,) + tuple(others)
    means = {}
    for included in itertools.product((0, 1), repeat=n):
        w = math.prod(q if i else 1 - q for i in included)
        m = sum(g for g, i in zip(grads, included) if i)
        means[m] = means.get(m, 0.0) + w
    return tuple(sorted(means.items()))
