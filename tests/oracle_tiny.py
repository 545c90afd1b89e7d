"""The tiny-data oracle (issue 18, item 3): exact batch enumeration and quadrature, no accountant.

Scalar records in [-1, 1] (clip norm C = 1), n <= 6. One step's output on a data set is
``sum(batch) + noise`` with the batch law enumerated exactly (all subsets, all b-subsets, all n^b
sequences, or the full set) and the noise N(0, sigma^2) or Laplace(sigma). The output line is cut
into fine cells; reporting only the cell is a post-processing, so the pair of cell masses (exact, from
the CDF; loss L_i = log P_i / Q_i exact) has a divergence at most the true one, and its T-fold
composition (the same pair in every step, non-adaptive) is summed exactly over the atoms:
delta_T(eps) = sum_{i,j,..} w_i w_j .. (1 - e^{eps - L_i - L_j - ..})_+, by sorting for the last factor.
So ``delta_composed`` is a certified LOWER bound on the truth (up to double rounding), and its gap
to the truth is of second order in the loss variation within a cell (cells of sigma/300 or finer at
T <= 2): far below the accountants' widths.
"""
from __future__ import annotations

import itertools
from collections import defaultdict

import numpy as np
from scipy import special


def batch_sums(records, sampling: str, q: float = 0.0, b: int = 0) -> dict:
    """Law of the batch sum: {sum: probability}."""
    n = len(records)
    law = defaultdict(float)
    if sampling == "full-batch":
        law[round(sum(records), 12)] = 1.0
    elif sampling == "poisson":
        for mask in itertools.product((0, 1), repeat=n):
            k = sum(mask)
            law[round(sum(r for r, m in zip(records, mask) if m), 12)] += q ** k * (1 - q) ** (n - k)
    elif sampling == "fixed-size":
        subsets = list(itertools.combinations(range(n), b))
        for s in subsets:
            law[round(sum(records[i] for i in s), 12)] += 1.0 / len(subsets)
    elif sampling == "with-replacement":
        for seq in itertools.product(range(n), repeat=b):
            law[round(sum(records[i] for i in seq), 12)] += float(n) ** -b
    return dict(law)


def _cdf(x, noise: str):
    if noise == "gaussian":
        return special.ndtr(x)
    return np.where(x < 0, 0.5 * np.exp(np.minimum(x, 0)), 1 - 0.5 * np.exp(-np.maximum(x, 0)))


def loss_atoms(law_p: dict, law_q: dict, sigma: float, noise: str, cells: int):
    """(L_i, w_i): cell losses and P-masses on a fine output grid."""
    means = list(law_p) + list(law_q)
    reach = (13.0 if noise == "gaussian" else 20.0) * sigma
    edges = np.linspace(min(means) - reach, max(means) + reach, cells + 1)
    mid = 0.5 * (edges[:-1] + edges[1:])

    def mass(law):
        # left of the mean a difference of CDFs, right of it of survival functions: no 1 - 1 cancellation
        out = 0.0
        for m, p in law.items():
            x = (edges - m) / sigma
            left, right = np.diff(_cdf(x, noise)), -np.diff(_cdf(-x, noise))
            out = out + p * np.where(x[1:] <= 0, left, np.where(x[:-1] >= 0, right, left))
        return out
    w, v = mass(law_p), mass(law_q)
    keep = (w > 0) & (v > 0)
    return np.log(w[keep]) - np.log(v[keep]), w[keep]


def _suffix(L, w):
    order = np.argsort(L)
    ls, ws = L[order], w[order]
    tail_w = np.concatenate([np.cumsum(ws[::-1])[::-1], [0.0]])
    tail_v = np.concatenate([np.cumsum((ws * np.exp(-ls))[::-1])[::-1], [0.0]])

    def f(s):
        k = np.searchsorted(ls, s, side="right")
        return np.maximum(tail_w[k] - np.exp(s) * tail_v[k], 0.0)
    return f


def delta_composed(law_p, law_q, sigma, noise, steps: int, eps: float) -> float:
    """delta(eps) of the T-fold composition of the pair (T = 1, 2, 3)."""
    cells = {1: 40000, 2: 20000, 3: 4000}[steps]
    L, w = loss_atoms(law_p, law_q, sigma, noise, cells)
    f = _suffix(L, w)
    if steps == 1:
        return float(f(np.array([eps]))[0])
    if steps == 2:
        return float(np.dot(w, f(eps - L)))
    total = 0.0
    for i in range(0, len(L), 250):  # blocks keep the N x N table small
        s = eps - L[i:i + 250, None] - L[None, :]
        total += float(np.sum(w[i:i + 250, None] * w[None, :] * f(s)))
    return total



def delta_two_steps(first: tuple, second: tuple, sigma, noise, eps: float) -> float:
    """delta(eps) of two steps with different pairs (first = (law_p, law_q), second likewise): the
    order of a replace-one pair may flip from one step to the next."""
    L1, w1 = loss_atoms(*first, sigma, noise, 20000)
    L2, w2 = loss_atoms(*second, sigma, noise, 20000)
    return float(np.dot(w1, _suffix(L2, w2)(eps - L1)))
