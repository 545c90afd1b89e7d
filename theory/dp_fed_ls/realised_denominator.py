r"""Algorithm 1 under Poisson sampling with the realised denominator :math:`S = |S_t|` (seed 004, L98-L104).

The server releases :math:`w^{t+1} = w^t + (\eta_g/S)A_\sigma^{-1}(\Sigma + N(0,\nu^2 I))` (L102), with
:math:`\Sigma` the sum of the sampled clients' clipped updates (norm at most :math:`\mathcal L`, L92-L95) and
S the realised number of sampled clients (L100). Theorem 2 (L206-L210) is proved with the sensitivity
:math:`\mathcal L/S` "with S fixed" (L461-L466). :math:`w^t`, :math:`\eta_g` and :math:`A_\sigma` are public and
:math:`A_\sigma` is invertible, so round t releases the same information as :math:`Y = (\Sigma + Z)/S`.
Units below: noise in units of the clip, :math:`\nu_1 = \nu/\mathcal L`.

Upper bound: a dominating pair of one round (proof)
---------------------------------------------------
Add/remove: D' = D plus client x (N clients in D', N - 1 others). Releasing :math:`(S, \Sigma + Z)` is at least as
informative as Y (Y is a function of it; when S = 0 whatever the server does is a function of it too). Fix the
others' updates :math:`u_j` (any, chosen adaptively from the past: they are functions of :math:`w^t`) and x's
update :math:`\Delta`. Draw a uniformly random order :math:`\pi` of the others, independent of everything, and
write :math:`s_k = \sum_{i \le k} u_{\pi_i}`: the first k of a uniform order are a uniform k-subset, so under D
(Q) :math:`(S, \Sigma) = (k, s_k)` with probability :math:`b(k) = \mathrm{Bin}(N-1,\tau)(k)`, and under D' (P)
:math:`(k, s_k)` with probability :math:`(1-\tau)b(k)` and :math:`(k, s_{k-1} + \Delta)` with probability
:math:`\tau b(k-1)`. So :math:`P = E_\pi P_\pi`, :math:`Q = E_\pi Q_\pi` with

.. math:: Q_\pi(k, y) = b(k)\varphi(y - s_k), \qquad
          P_\pi(k, y) = (1-\tau)b(k)\varphi(y - s_k) + \tau b(k-1)\varphi(y - s_k - v_k),
          \quad v_k = \Delta - u_{\pi_k},\ \|v_k\| \le 2\mathcal L.

The hockey-stick divergence :math:`H_\alpha` is jointly convex (a supremum of linear functionals), so
:math:`H_\alpha(P\|Q) \le \sup_\pi H_\alpha(P_\pi\|Q_\pi)` for every :math:`\alpha > 0`, both orders. For fixed
:math:`\pi` a translation by :math:`s_k` and a rotation taking :math:`v_k` to :math:`\|v_k\|e_1` on each slice
k are bijections, and the coordinates orthogonal to :math:`e_1` have the same law under both, so
:math:`H_\alpha(P_\pi\|Q_\pi) = \sum_k \int (P_k(y) - \alpha Q_k(y))_+ dy` on the line, where each term is
:math:`a H_{c/a}(N(r_k)\|N(0))` or :math:`a H_{c/a}(N(0)\|N(r_k))` for positive constants a, c (the reverse order
likewise), increasing in :math:`r_k = \|v_k\|/\nu`. Hence both orders are dominated, for every :math:`\alpha`
(so also against an adaptive adversary, ZDW22 Thm. 10), by :math:`r_k = 2/\nu_1` for every k:

.. math:: P^*(k, y) = m(k)\big[(1 - \tfrac kN)\varphi(y) + \tfrac kN \varphi(y - 2/\nu_1)\big],\qquad
          Q^*(k, y) = b(k)\varphi(y),

with :math:`m = \mathrm{Bin}(N,\tau)` (:math:`(1-\tau)b(k) + \tau b(k-1) = m(k)` and :math:`\tau b(k-1)/m(k) = k/N`):
the count, and given the count a subsampled Gaussian at rate k/N with sensitivity :math:`2\mathcal L`; the
loss is :math:`c_k + \ell_k(y)` with :math:`c_k = \log(m(k)/b(k)) = \log(N(1-\tau)/(N-k))`. This is twice the
sensitivity Theorem 2 uses: a present client both adds :math:`\Delta` and raises the denominator, which moves
the mean by :math:`(\Delta - \bar u)/S`, up to :math:`2\mathcal L/S`. The pair is the release
:math:`(S, \Sigma + Z)` of the data sets below, so it is the least dominating pair of that release.

Lower bound: a realizable pair (the release Y itself)
------------------------------------------------------
Others' updates :math:`-\mathcal L e_1` (every round, e.g. linear local losses: the clipped update is
:math:`-\mathcal L e_1`), x's :math:`+\mathcal L e_1`: :math:`Y + \mathcal L e_1 = (2\mathcal L B e_1 + Z)/S` with
:math:`B = 1[x \in S_t]`. In dimension d the sufficient statistic is :math:`a = Y_1'/\nu \cdot` (first
coordinate) and :math:`\rho = \|Y_{2..d}\|^2/\nu^2 = \chi^2_{d-1}/S^2`: given S = k, :math:`a \sim N(2B/(\nu_1 k),
1/k^2)` and the count is only blurred by :math:`\chi^2_{d-1}`. Its exact loss (sums over the count) is
:func:`release_loss`; :func:`release_delta_lower` estimates :math:`\delta(\varepsilon) =
E_P[(1 - e^{\varepsilon - L})_+]` of the T-fold composition by Monte Carlo and turns it into a one-sided
lower confidence bound (the summand lies in [0, 1]: a uniform draw below it is a Bernoulli trial with the same
mean, so Clopper-Pearson applies exactly). Discarding coordinates is a post-processing, so a lower bound at d
holds at every larger d.
"""
from __future__ import annotations

import math

import numpy as np
from scipy import special, stats

from numerics import pld, pld_general
from numerics.dominating import mixture
from numerics.errors import InvalidParameter
from numerics.pld_contraction import discretise_merged
from numerics.pld_general import StepModel
from numerics.pld_pairs import MixturePair
from theory.dp_fed_ls.paper_values import MNIST_IMAGE_SIDE, MNIST_LAST_DIGIT, SETTINGS, TABLES

#: the MNIST logistic regression's dimension, weights only (28 x 28 pixels x 10 classes, L310); a bias adds 10,
#: and a lower bound at d holds at every larger d (discarding coordinates is a post-processing)
MNIST_DIMENSION = int(MNIST_IMAGE_SIDE.value) ** 2 * (int(MNIST_LAST_DIGIT.value) + 1)

#: the count's double-precision binomial weights and the mixture over it are not enclosed (docs/certified.md)
UNBOUNDED = "the mixture over the realised count S (binomial weights and their sums in double precision)"


def _check(clients, tau, nu1, rounds):
    if not (isinstance(clients, int) and clients >= 2):
        raise InvalidParameter(f"clients must be an integer >= 2, got {clients!r}")
    if not (0 < tau < 1) or not (nu1 > 0) or not (isinstance(rounds, int) and rounds >= 1):
        raise InvalidParameter(f"need 0 < tau < 1, nu1 > 0, rounds >= 1; got tau={tau}, nu1={nu1}, rounds={rounds}")


def count_laws(clients: int, tau: float):
    """(k, log m(k), log b(k)) for k = 0..N: m = Bin(N, tau) (S with x), b = Bin(N-1, tau) (S without)."""
    k = np.arange(clients + 1)
    return k, stats.binom.logpmf(k, clients, tau), stats.binom.logpmf(k, clients - 1, tau)


def _shifted(g: "pld.GridPLD", c: float, h: float, up: bool) -> "pld.GridPLD":
    """The grid pair with every loss moved by c, rounded up (dominating) or down (dominated) to the grid."""
    m = math.ceil(c / h) if up else math.floor(c / h)
    m += 1 if up and m * h < c else (-1 if not up and m * h > c else 0)  # float safety: the grid value decides
    return pld.GridPLD(g.k0 + m, g.pmf, g.inf_mass)


def count_revealed_grid(clients, tau, nu1, direction, h, tail, upper: bool) -> "pld.GridPLD":
    r"""Grid PMF of one round of :math:`(P^*, Q^*)` (``remove``: P = with x; ``add``: the reverse), a mixture
    over the count k of the subsampled pair at rate k/N, sensitivity 2 (noise nu1/2 per unit shift), its loss
    moved by :math:`\pm c_k`. ``upper``: connect-the-dots grids, losses rounded up, counts whose weight is below
    ``tail`` sent to +infinity; else merged grids, losses rounded down, those counts dropped."""
    k, log_m, log_b = count_laws(clients, tau)
    weights = np.exp(log_m if direction == "remove" else log_b)
    sign = 1.0 if direction == "remove" else -1.0
    keep = weights > tail / (clients + 1)
    parts, lost = [], float(weights[~keep].sum())
    for kk in k[keep]:
        c = sign * (log_m[kk] - log_b[kk]) if kk < clients else math.inf
        if not math.isfinite(c):        # k = N: only with x (remove: loss +infinity; add: P has no mass)
            lost += weights[kk] if direction == "remove" else 0.0
            continue
        if kk == 0:                     # nobody sampled: the count alone, an atom at c_0
            parts.append((weights[kk], _shifted(pld.GridPLD(0, np.ones(1), 0.0), c, h, upper)))
            continue
        pair = MixturePair(kk / clients, nu1 / 2.0, direction)
        g = pld.discretise_pessimistic(pair, h, tail) if upper else discretise_merged(pair, h, tail)
        parts.append((weights[kk], _shifted(g, c, h, upper)))
    return mixture(parts, extra_inf=lost if upper else 0.0)


def step_models(clients: int, tau: float, nu1: float, rounds: int) -> dict:
    """{"remove", "add"}: StepModels of ``rounds`` rounds of the count-revealed pair (dominating Algorithm 1)."""
    _check(clients, tau, nu1, rounds)

    def model(direction):
        return StepModel(lambda h, t: count_revealed_grid(clients, tau, nu1, direction, h, t, True),
                         lambda h, t: count_revealed_grid(clients, tau, nu1, direction, h, t, False),
                         rounds, (tau, nu1 / 2.0), None, None, UNBOUNDED)
    return {"remove": [model("remove")], "add": [model("add")]}


def upper_epsilon(clients: int, tau: float, nu1: float, rounds: int, delta: float, rel_width: float = 1e-2):
    r"""EpsilonBounds of ``rounds`` rounds of :math:`(P^*, Q^*)`: ``epsilon_upper`` bounds Algorithm 1 with the
    realised denominator (module docstring); ``epsilon_lower`` is the same pair's lower end (a lower bound for the
    release :math:`(S, \Sigma + Z)`, not for Algorithm 1's Y). ``certified`` is False (:data:`UNBOUNDED`)."""
    return pld_general.epsilon_orders(step_models(clients, tau, nu1, rounds), delta, rel_width,
                                      adjacency="add-remove", method="pld-count-revealed")


# ------------------------------------------------------------------------------------------------------------
# the realizable release Y in dimension d (module docstring, "Lower bound")
# ------------------------------------------------------------------------------------------------------------

#: counts k' summed around the one the norm points at; the terms fall off like exp(-c j^2) away from it, so an
#: edge term below e^-EDGE_NATS of the largest (checked by :func:`release_loss`) leaves the sum exact in double
#: precision (at most N terms of that size, N e^-50 < 1e-16 for N < 1e5)
WINDOW = 20
EDGE_NATS = 50.0


def _log_terms(kp, a, rho, s, clients, d, log_prior):
    """log of prior(k') * density of (a, rho) given k', for the P side (with x) and the Q side (without)."""
    log_chi = stats.chi2.logpdf(kp * kp * rho, d - 1) + 2 * np.log(kp)
    base = np.log(kp) + log_chi
    zero = -0.5 * (kp * a) ** 2
    with np.errstate(divide="ignore"):  # k' = N: every client sampled, x surely among them (log 0 = -inf)
        absent = np.log1p(-kp / clients)
    with_x = np.logaddexp(absent + zero, np.log(kp / clients) - 0.5 * (kp * a - s) ** 2)
    return log_prior[0][kp] + base + with_x, log_prior[1][kp] + base + zero


def release_loss(a, rho, clients, tau, nu1, d, chunk: int = 20_000):
    r"""Exact privacy loss :math:`\log dP/dQ` of one round's sufficient statistic (a, rho) of the realizable pair
    (constants common to both sides cancel), summed over the count :math:`k'` in a window around
    :math:`\sqrt{(d-1)/\rho}`, doubled until its edges are negligible (:data:`EDGE_NATS`)."""
    _, log_m, log_b = count_laws(clients, tau)
    log_b = np.append(log_b[:-1], -np.inf)          # b(N) = 0: N clients only with x
    out = np.empty(len(a))
    for i in range(0, len(a), chunk):
        out[i:i + chunk] = _windowed_loss(a[i:i + chunk], rho[i:i + chunk], clients, nu1, d, (log_m, log_b))
    return out


def _windowed_loss(a, rho, clients, nu1, d, log_prior):
    centre = np.rint(np.sqrt((d - 1) / rho)).astype(int)
    half = WINDOW
    while True:
        kp = np.clip(centre[:, None] + np.arange(-half, half + 1)[None, :], 1, clients)
        lp, lq = _log_terms(kp, a[:, None], rho[:, None], 2.0 / nu1, clients, d, log_prior)
        top = np.maximum(lp.max(axis=1), lq.max(axis=1))
        edge = np.maximum(np.maximum(lp[:, 0], lp[:, -1]), np.maximum(lq[:, 0], lq[:, -1]))
        inner = (kp[:, 0] > 1) | (kp[:, -1] < clients)
        if not np.any(inner & (edge > top - EDGE_NATS)) or 2 * half + 1 >= clients:
            break
        half *= 2
    # a clipped window repeats k' = 1 or N: count each k' once
    dup = np.zeros_like(kp, dtype=bool)
    dup[:, 1:] = kp[:, 1:] == kp[:, :-1]
    lp, lq = np.where(dup, -np.inf, lp), np.where(dup, -np.inf, lq)
    return special.logsumexp(lp, axis=1) - special.logsumexp(lq, axis=1)


def sample_release_losses(clients, tau, nu1, d, rounds, samples, seed):
    """(samples,) composed losses of ``rounds`` rounds of the realizable release, drawn under P (x present);
    a round with S = 0 sets its run's loss to -inf (the run is left out of every test set: a lower bound)."""
    rng = np.random.default_rng(seed)
    total = np.zeros(samples)
    for _ in range(rounds):
        k = rng.binomial(clients, tau, samples)
        b = rng.random(samples) < k / clients
        empty = k == 0
        kk = np.where(empty, 1, k)
        a = (2.0 / nu1 * b + rng.standard_normal(samples)) / kk
        rho = rng.chisquare(d - 1, samples) / kk.astype(float) ** 2
        total += np.where(empty, -np.inf, release_loss(a, rho, clients, tau, nu1, d))
    return total


def release_delta_lower(losses, epsilon: float, confidence: float, seed: int) -> dict:
    r"""One-sided lower confidence bound on :math:`\delta(\varepsilon) = E_P[(1 - e^{\varepsilon - L})_+]` from
    composed losses drawn under P: a uniform U below the summand is a Bernoulli trial of mean delta, and
    Clopper-Pearson (scipy) bounds its mean with probability ``confidence``."""
    y = -np.expm1(np.minimum(epsilon - losses, 0.0))
    u = np.random.default_rng(seed).random(len(losses))
    hits = int(np.sum(u < y))
    ci = stats.binomtest(hits, len(losses)).proportion_ci(confidence_level=2 * confidence - 1, method="exact")
    return {"delta_lower": float(ci.low), "delta_estimate": float(y.mean()), "hits": hits, "samples": len(losses),
            "confidence": confidence}


# ------------------------------------------------------------------------------------------------------------
# Theorem 2's noise, checked against both ends
# ------------------------------------------------------------------------------------------------------------

#: Monte Carlo of the lower end: composed runs, one-sided confidence, and the seeds (reproducible)
MC = {"samples": 100_000, "confidence": 1 - 1e-6, "seed": 2026}
#: relative width of the upper end's PLD bracket (its own lower end shows how tight the pair's grid is)
UPPER_REL_WIDTH = 3e-2


def empty_round_cost(clients: int, tau: float, rounds: int, eps: float) -> float:
    r"""What the release's delta lower bound pays for the runs left out (S = 0 in some round: Algorithm 1 divides
    by zero, L102). Any server convention there differs from the flagged release only on E = {some round has
    S = 0}, so :math:`\delta \ge \delta_{\text{flagged}} - P(E) - e^\varepsilon Q(E)` with
    :math:`P(E) \le T(1-\tau)^N`, :math:`Q(E) \le T(1-\tau)^{N-1}` (union bound over the rounds)."""
    return rounds * (1 - tau) ** clients + math.exp(eps) * rounds * (1 - tau) ** (clients - 1)


def release_lower(clients: int, tau: float, rounds: int, eps: float, nu1: float, d: int, samples: int,
                  confidence: float, seed: int) -> dict:
    """The realizable release's lower confidence bound on delta(eps) after ``rounds`` rounds at noise ``nu1``:
    :func:`release_delta_lower` of :func:`sample_release_losses` (seeds ``seed``, ``seed + 1``) minus
    :func:`empty_round_cost` (``delta_lower``; the bound before it is ``delta_lower_flagged``)."""
    losses = sample_release_losses(clients, tau, nu1, d, rounds, samples, seed)
    low = release_delta_lower(losses, eps, confidence, seed + 1)
    cost = empty_round_cost(clients, tau, rounds, eps)
    return {**low, "delta_lower_flagged": low["delta_lower"], "empty_round_cost": cost,
            "delta_lower": low["delta_lower"] - cost}


def theorem2_point(clients: int, tau: float, rounds: int, eps: float, d: int = MNIST_DIMENSION,
                   samples: int = MC["samples"], confidence: float = MC["confidence"], upper: str = "always") -> dict:
    r"""At Theorem 2's noise for (eps, delta = 1/N^1.1): the realizable release's lower confidence bound on
    delta(eps) in dimension d (:func:`release_lower`) and the upper bound on Algorithm 1's epsilon (count-revealed
    pair; with ``upper="unless-refuted"`` only where the lower end does not already refute); {"feasible": False}
    if the theorem's conditions cannot be met there."""
    from theory.dp_fed_ls.noise_formula import POISSON, closed_form_noise, delta_of

    delta = delta_of(clients)
    found = closed_form_noise(eps, delta, tau, rounds, POISSON)
    if found is None:
        return {"feasible": False}
    nu1 = found[0]
    row = {"feasible": True, "nu_over_clip": nu1, "delta": delta, "dimension": d, "seed": MC["seed"],
           **release_lower(clients, tau, rounds, eps, nu1, d, samples, confidence, MC["seed"])}
    if upper == "always" or row["delta_lower"] <= delta:
        up = upper_epsilon(clients, tau, nu1, rounds, delta, UPPER_REL_WIDTH)
        row.update(upper_epsilon=up.epsilon_upper, upper_pair_lower_epsilon=up.epsilon_lower,
                   upper_certified=up.certified)
    return row


def point_verdict(eps: float, row: dict) -> tuple:
    """(status, margin relative to the target): refuted when the realizable release's delta(eps) lower bound
    exceeds the theorem's delta (margin: delta - that bound, over delta), holds when the upper epsilon is at
    most eps, open in between."""
    if row["delta_lower"] > row["delta"]:
        return "refuted", (row["delta"] - row["delta_lower"]) / row["delta"]
    return ("holds" if row["upper_epsilon"] <= eps else "open"), (eps - row["upper_epsilon"]) / eps


def paper_points() -> list:
    """Theorem 2 at Table 2's MNIST Poisson setting (N, tau, T: L310) and its four budgets (L316)."""
    st = SETTINGS["mnist-poisson"]
    return [{"clients": int(st["clients"].value), "tau": st["tau"].value, "rounds": int(st["rounds"].value),
             "eps": e} for e in sorted({p.value for p in TABLES[2]["epsilon"]})]


#: the theorem-range scan: N clients, tau, T rounds and target eps (delta = 1/N^1.1 as in the paper, L302); the
#: Monte Carlo runs are fewer (a refutation needs only one point) and the confidence per point covers the grid.
#: T = 200 is left out: its Monte Carlo and PLD would take most of the scan's time on 2 shared cores
SCAN = {"clients": (20, 100, 500, 2000), "tau": (0.01, 0.05, 0.2), "rounds": (10, 30), "eps": (2.0, 6.0, 9.0, 20.0),
        "samples": 20_000, "confidence": 1 - 1e-7}


def scan_points() -> list:
    return [{"clients": n, "tau": t, "rounds": r, "eps": e, "samples": SCAN["samples"],
             "confidence": SCAN["confidence"], "upper": "unless-refuted"}
            for n in SCAN["clients"] for t in SCAN["tau"] for r in SCAN["rounds"] for e in SCAN["eps"]]
