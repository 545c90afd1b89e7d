r"""Seed 001: what the adversary observes, and lower bounds on delta(eps) under each reading.

Theorem 2 (L180-186) and Remark 1 (L190-192) leave open WHICH outputs the adversary sees:

* ``every exchanged model``: the paper's threat model is a worker that watches the model variables exchanged
  during training (L86: "the workers still can infer some information ... given the execution over the shared
  model variables ... we apply differential privacy to the exchanged model variables"), and its proof composes
  the per-iteration mechanisms M_t over all T iterations (L546, Lemma 3 L530-532): every iteration's output is
  accounted, so every w_k^t is observed and W^{t+1} - W^t A_t (L380-381) reveals k^t and g~^t;
* ``final models``: only the output of Algorithm 1 (L98, "(eps, delta)-differentially private local models"),
  the K models after T iterations;
* ``one model w_k^t``: Remark 1's object (L192), a single intermediate model.

The lower bounds use linear losses :math:`f(w;\xi) = \langle w, \xi\rangle`, :math:`\|\xi\|\le G` (G-Lipschitz,
gradient independent of w), so every released model is a linear function of the noisy gradients, and the
realizable fixed-size replace-one pair: the record's gradient v against v', every other record at v'. In units of
the per-step noise std, one use of the record shifts the noised quantity by m (m = 2G/sigma for noise on the SUM,
Algorithm 1 L103; m = (2G/B)/sigma for noise on the MEAN, the sensitivity the proof uses at L544).

* :func:`mixture_delta`: exact :math:`\delta(\epsilon)` of :math:`P = (1-\gamma)N(0,1)+\gamma N(m,1)` against
  :math:`Q = N(0,1)` (the privacy loss is increasing in x, so the optimal event is a half-line; closed form).
* :func:`sum_delta_lower`: a lower bound on :math:`\delta(\epsilon)` when the adversary sees only
  :math:`S = \sum_t \tilde g^t` (the average of the final models, :math:`\theta^T = w^0 - \frac{\eta}{K}S`, L385-386):
  :math:`P = \sum_c \mathrm{Bin}(T,p)(c)\,N(cm, T)` against :math:`Q = N(0,T)`, c the number of steps that use the
  record (worker drawn w.p. 1/K, record in its batch w.p. B/n_k). Any half-line event gives a valid lower bound;
  dropping binomial mass below 1e-15 only lowers P, so the bound stays a lower bound.
"""
from __future__ import annotations

import math

import numpy as np
from scipy.optimize import brentq
from scipy.stats import binom, norm


def mixture_delta(gamma: float, m: float, eps: float) -> float:
    r"""Exact :math:`\delta(\epsilon)` of :math:`(1-\gamma)N(0,1)+\gamma N(m,1)` vs :math:`N(0,1)`, m > 0, eps >= 0.

    The likelihood ratio :math:`1-\gamma+\gamma e^{mx-m^2/2}` crosses :math:`e^\epsilon` at
    :math:`x^* = (\log((e^\epsilon-1+\gamma)/\gamma) + m^2/2)/m`; :math:`\delta = \gamma\bar\Phi(x^*-m) -
    (e^\epsilon-1+\gamma)\bar\Phi(x^*)` (the two (1-gamma) terms combined to avoid cancellation)."""
    x = (math.log((math.expm1(eps) + gamma) / gamma) + m * m / 2) / m
    return float(max(0.0, gamma * norm.sf(x - m) - (math.expm1(eps) + gamma) * norm.sf(x)))


def _count_weights(T: int, p: float):
    lo, hi = int(binom.ppf(1e-15, T, p)), int(binom.isf(1e-15, T, p)) + 1
    c = np.arange(lo, hi + 1)
    return c, binom.pmf(c, T, p)


def sum_delta_lower(*, T: int, p: float, m: float, eps: float, grid: int = 4001) -> float:
    r"""Lower bound on :math:`\delta(\epsilon)` from :math:`S = \sum_t \tilde g^t` alone (module docstring).

    Units: per-step noise std 1, so S has noise std sqrt(T); one use of the record shifts S by m. The events
    are half-lines {S > t} on a grid of t; each gives :math:`P(S>t) - e^\epsilon Q(S>t)`, a valid lower bound."""
    c, w = _count_weights(T, p)
    s = math.sqrt(T)
    ts = np.linspace(0.0, (c[-1] * m) + 10 * s, grid)
    p_tail = (w[None, :] * norm.sf((ts[:, None] - c[None, :] * m) / s)).sum(axis=1)
    vals = p_tail - np.exp(np.minimum(eps + norm.logsf(ts / s), 700.0))
    return float(max(0.0, vals.max()))


def sum_epsilon_lower(*, T: int, p: float, m: float, delta: float) -> float:
    """The largest eps at which :func:`sum_delta_lower` still exceeds ``delta`` (a lower bound on eps(delta))."""
    f = lambda e: sum_delta_lower(T=T, p=p, m=m, eps=e) - delta  # noqa: E731
    if f(0.0) <= 0:
        return 0.0
    hi = 1.0
    while f(hi) > 0:
        hi *= 2
    e = float(brentq(f, 0.0, hi, xtol=1e-7))
    while e > 0 and f(e) <= 0:                 # step below the root until the bound is attained (a lower bound)
        e = max(0.0, e - 1e-6)
    return e
