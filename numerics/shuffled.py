r"""Shuffled batches (what a PyTorch DataLoader with ``shuffle=True`` does): a certified bracket.

The mechanism
-------------
A phase with ``sampling="shuffled"``, batch size b and data set size n: every epoch draws a uniformly
random permutation of the n record indices, independent of the data, and cuts it into
k = ceil(n/b) consecutive batches (the last one has n - (k-1) b records: ``drop_last=False``, the
DataLoader default). Step t adds N(0, sigma^2 C^2 I) to the sum of the clipped gradients (norm <= C)
of its batch. T steps are ceil(T/k) epochs, the last possibly partial. A schedule of several shuffled
phases is accepted only when every phase but the last is a whole number of its epochs (so each phase
starts on an epoch boundary, as with a new DataLoader iterator); otherwise it is refused.

Neighbouring relation: replace-one only
---------------------------------------
D and D' have the same n indices and differ in the record at one index i*. Add/remove is refused:
with one record more or less the number of batches and the cut points of the permutation change, so
every later batch of the neighbour holds different records; the coupling below does not exist and we
have no proof for it.

Upper bound (theorem)
---------------------
For replace-one, eps(delta) of the phases is at most that of the Gaussian pair (N(mu,1), N(0,1)),
mu = 2 sqrt(sum_i E_i / sigma_i^2), E_i = ceil(T_i / k_i) the epochs phase i touches.

Proof. Let M output the T noisy sums and M+ output also the permutations pi. The permutations have
the same law under D and D', and M is the projection of M+ (post-processing), so for every
alpha = e^eps the hockey-stick divergence satisfies
H_alpha(M(D) || M(D')) <= H_alpha(M+(D) || M+(D')) = E_pi[ H_alpha(M(D) | pi || M(D') | pi) ].
Fix pi. Step t's output, given the earlier outputs, is N(f_t + g_t, sigma^2 C^2 I) where f_t (the other
records' clipped gradients at the current parameters) is the same function of the past under D and D'
and g_t is the clipped gradient of the record at i* if i* is in batch t, else 0. So a step whose batch
does not hold i* has the same conditional law under both (it is a 0-GDP step), and a step whose batch
holds it is a Gaussian mechanism of sensitivity ||g(x) - g(x')|| <= 2C, i.e. (2/sigma)-GDP. Under pi,
i* lies in exactly one batch of each full epoch and in at most one of a partial epoch, hence in at most
E_i steps of phase i (each phase starts an epoch, above). By the adaptive composition theorem of
Gaussian differential privacy (Dong, Roth & Su 2022, JRSS-B, Cor. 3.3; the same theorem
numerics.analytic_gaussian uses), the conditional mechanism is mu-GDP with mu as stated, i.e. its
hockey-stick divergence is at most the Gaussian pair's at every alpha; averaging over pi keeps it. The
Gaussian pair is symmetric, so the bound holds in both orders of (D, D') and against an adversary that
picks the order step by step. QED. Its epsilon is evaluated by numerics.analytic_gaussian (certified
bracket of the closed form); the upper end is ours.

Lower bound (a realizable pair)
-------------------------------
Take a linear loss whose per-record clipped gradient does not depend on the parameters: in D the
record at i* has gradient +C e_1, in D' it has -C e_1 (a replace-one pair), every other record has
gradient 0. Then epochs are independent, and within one full epoch the normalised outputs
Y_j / (sigma C) projected on e_1 are Z_j + (s/sigma) 1[j = J], s = +1 (D) or -1 (D'), J the batch
holding i*, Z iid N(0,1). Post-processing each epoch to its maximum M_e = max_j (...) can only lower
the divergence (data processing), and P(M_e <= t) = Phi(t - s/sigma) Phi(t)^(k-1), whatever the batch
sizes (every batch position gives the same law of the maximum). For a threshold tau and a count m, the
event S = {#{e : M_e > tau} >= m} has P(S) = P(Bin(E, p) >= m), Q(S) = P(Bin(E, q) >= m) with
p, q = 1 - P(M_e <= tau) under D, D'. Then delta(eps) >= P(S) - e^eps Q(S) for every eps, so
eps(delta) >= log((P(S) - delta) / Q(S)). If T < k (less than one epoch), the single partial epoch of r
= T steps is used: i* is in one of them with probability W = min(r b, n)/n and
P(M <= t) = Phi(t)^(r-1) (W Phi(t - s/sigma) + (1 - W) Phi(t)). Several phases: the best phase alone
(dropping the other phases' outputs is post-processing).
The pair (tau, m) is searched in double precision; the chosen pair is then evaluated in mpmath at
``_DPS`` digits and the result lowered by a relative ``_LOW_MARGIN`` (rounding on the low side), so the
lower end is a true lower bound for this realizable pair, hence for the mechanism. This is the
max-of-batch test of shuffled DP-SGD audits (Chua et al. 2024, "How private are DP-SGD
implementations?", ICML, and "Scalable DP-SGD: shuffling vs. Poisson subsampling", NeurIPS 2024, who
evaluate such a statistic); the exact divergence of the mixture pair lies between our two ends (tests
check it by quadrature on tiny data).

The gap, and what would close it (issue 33, 2026-11-27; nothing below is implemented)
---------------------------------------------------------------------------------------
On the README's example (B = 256 of N = 60000, sigma = 1, 3 epochs, delta = 1e-5) the bracket is
[0.362, 20.1] (its note: Poisson sampling at the same B/N, replace-one, epsilon <= 0.924; the lower witness
used one threshold, m = 1 of 3 epochs). What is known, and where each end stands:

* Lower end. The pair above (+C e_1 against -C e_1, every other gradient 0) is the one the literature
  uses for shuffled batches (Chua et al., ICML 2024, single epoch; Chua et al., NeurIPS 2024, arXiv
  2411.04205, several epochs, persistent and dynamic shuffling); the audit of arXiv 2411.10614 ("To shuffle
  or not to shuffle") measures leakage empirically, which certifies nothing. No stronger realizable pair is
  known to us. What is weak is the test, not the pair: for E > 1 epochs we count the epochs whose maximum
  exceeds one threshold, while the epochs are independent, so the best test based on the E maxima is the
  likelihood-ratio test of the E-fold product of the one-epoch pair of the maximum, whose CDFs are closed
  forms, F_s(t) = Phi(t - s/sigma) Phi(t)^(k-1). Its divergence is a composition of one 1-d pair: the lower
  grid of numerics.pld (interval masses from enclosed differences of F_s, mixed to grid losses as in
  numerics.pld_onestep) composed E times would give it, certified. For E = 1 the threshold on the maximum
  is already that test if the maximum's likelihood ratio is increasing in t (not proven here). A stronger
  statistic than the maximum (the per-epoch log-likelihood ratio log sum_j e^{Y_j/sigma} - log sum_j
  e^{-Y_j/sigma}, a sufficient statistic of the epoch) has no closed-form law; sampling it certifies nothing.
* Upper end. One Gaussian per epoch ignores that i* is hidden among k batches. Proven amplification for
  shuffled batches in f-DP exists in a regime (arXiv 2605.06259: sigma >= sqrt(3 / ln M), M steps per
  epoch, closed-form bounds via Berry-Esseen, composed over epochs); adopting it needs its hypotheses
  (its clipping and neighbouring relation) checked against this mechanism's, then its bound coded with
  its constants. Until then the upper end stays the proven GDP bound above and the gap is reported.
"""
from __future__ import annotations

import math

import numpy as np

from .errors import InvalidParameter, check_delta, check_epsilon
from .results import DeltaBounds, EpsilonBounds

#: mpmath digits for the certified evaluation of the lower bound's test event
_DPS = 50
#: relative margin by which the certified lower end is lowered after the mpmath evaluation
_LOW_MARGIN = 1e-12
#: thresholds searched per phase (in units of sigma C, between -1 and 1/sigma + 8)
_N_TAU = 241
#: largest number of counts m searched per threshold (evenly spaced over 1..E)
_N_COUNTS = 4000

METHOD = "shuffled (GDP upper, max-of-batch lower)"


def steps_per_epoch(phase) -> int:
    """k = ceil(n/b): a DataLoader with drop_last=False."""
    return -(-phase.dataset_size // phase.batch_size)


def epochs(phase) -> int:
    """Epochs the phase's steps touch (the last possibly partial): ceil(T/k)."""
    return -(-phase.steps // steps_per_epoch(phase))


def check_schedule(schedule) -> None:
    """Refuse, in one line, what the upper bound is not proven for (module docstring)."""
    if schedule.adjacency != "replace-one":
        raise InvalidParameter("shuffled sampling is accounted under replace-one only (under add-remove the "
                               "neighbour's batch boundaries shift; no proven bound): use adjacency replace-one")
    for i, p in enumerate(schedule.phases):
        if p.sampling != "shuffled" or p.noise != "gaussian":
            raise InvalidParameter("shuffled phases cannot be composed with phases of another kind; account "
                                   "them separately")
        if i < len(schedule.phases) - 1 and p.steps % steps_per_epoch(p):
            raise InvalidParameter(f"shuffled phase {i} has {p.steps} steps, not a whole number of epochs of "
                                   f"ceil(n/b) = {steps_per_epoch(p)} steps: only the last phase may end "
                                   f"mid-epoch")


def mu_upper(schedule) -> float:
    """mu = 2 sqrt(sum_i E_i / sigma_i^2) of the upper bound's Gaussian pair."""
    return 2.0 * math.sqrt(sum(epochs(p) / p.sigma ** 2 for p in schedule.phases))


def _segment(phase):
    """(E, r, W): E independent epochs of r steps in which i* is present with probability W."""
    k = steps_per_epoch(phase)
    full = phase.steps // k
    if full >= 1:
        return full, k, 1.0
    r = phase.steps
    return 1, r, min(r * phase.batch_size, phase.dataset_size) / phase.dataset_size


def _tail_float(tau, r, w, shift):
    """log P(M > tau) in double precision (the search only)."""
    from scipy.special import log_ndtr
    log_f = (r - 1) * log_ndtr(tau) + np.logaddexp(np.log(w) + log_ndtr(tau - shift),
                                                 (np.log1p(-w) if w < 1 else -np.inf) + log_ndtr(tau))
    return np.log(-np.expm1(log_f))


def _search(phase, x: float, side: str, first_only: bool = False):
    """(tau, m) maximising the lower bound in double precision, or None if no event helps (m = 1 only
    when ``first_only``: the fallback when mpmath's incomplete beta does not converge)."""
    from scipy.stats import binom
    E, r, w = _segment(phase)
    shift = 1.0 / phase.sigma
    taus = np.linspace(-1.0, shift + 8.0, _N_TAU)
    ms = np.array([1]) if first_only else np.unique(np.linspace(1, E, min(E, _N_COUNTS)).round().astype(int))
    best, arg = -np.inf, None
    with np.errstate(all="ignore"):
        for tau in taus:
            p = float(np.exp(_tail_float(tau, r, w, shift)))
            q = float(np.exp(_tail_float(tau, r, w, -shift)))
            lp, lq = binom.logsf(ms - 1, E, p), binom.logsf(ms - 1, E, q)
            if side == "epsilon":
                val = np.log(np.clip(np.exp(lp) - x, 0, None)) - lq
            else:
                val = np.exp(lp) - np.exp(x + lq)
            val = np.where(np.isfinite(val), val, -np.inf)
            i = int(np.argmax(val))
            if val[i] > best:
                best, arg = val[i], (float(tau), int(ms[i]))
    return arg


def _event_mp(phase, tau: float, m: int):
    """(P(S), Q(S)) of the test event in mpmath at _DPS digits."""
    import mpmath
    E, r, w = _segment(phase)
    with mpmath.workdps(_DPS):
        shift = mpmath.mpf(1) / mpmath.mpf(phase.sigma)
        t, W = mpmath.mpf(tau), mpmath.mpf(w)

        def tail(s):
            f = mpmath.ncdf(t) ** (r - 1) * (W * mpmath.ncdf(t - s) + (1 - W) * mpmath.ncdf(t))
            return 1 - f

        def binsf(p):  # P(Bin(E, p) >= m) = I_p(m, E - m + 1); m = 1: 1 - (1 - p)^E
            if m == 1:
                return -mpmath.expm1(E * mpmath.log1p(-p))
            return mpmath.betainc(m, E - m + 1, 0, p, regularized=True)

        return binsf(tail(shift)), binsf(tail(-shift))


def _certified_event(phase, x: float, side: str):
    """(tau, m), P(S), Q(S) of the best event found; m = 1 (a closed form) when mpmath's incomplete beta
    does not converge for the best m (very many epochs)."""
    import mpmath
    for first_only in (False, True):
        arg = _search(phase, x, side, first_only)
        if arg is None:
            return None, None, None
        try:
            return (arg, *_event_mp(phase, *arg))
        except (ValueError, ArithmeticError, mpmath.libmp.NoConvergence):
            continue
    return None, None, None


def epsilon_lower(schedule, delta: float) -> tuple:
    """(certified lower end, its witness): the best phase's test event (module docstring)."""
    import mpmath
    best, witness = 0.0, None
    for phase in schedule.phases:
        arg, P, Q = _certified_event(phase, delta, "epsilon")
        if arg is None:
            continue
        with mpmath.workdps(_DPS):
            if not P > delta or not Q > 0:
                continue
            eps = float(mpmath.log((P - delta) / Q))
        eps -= _LOW_MARGIN * abs(eps) + 1e-300
        if eps > best:
            best, witness = eps, {"tau": arg[0], "m": arg[1], "epochs_used": _segment(phase)[0]}
    return best, witness


def delta_lower(schedule, epsilon: float) -> tuple:
    import mpmath
    best, witness = 0.0, None
    for phase in schedule.phases:
        arg, P, Q = _certified_event(phase, epsilon, "delta")
        if arg is None:
            continue
        with mpmath.workdps(_DPS):
            d = float(P - mpmath.exp(epsilon) * Q)
        d -= _LOW_MARGIN * abs(d) + 1e-300
        if d > best:
            best, witness = d, {"tau": arg[0], "m": arg[1], "epochs_used": _segment(phase)[0]}
    return best, witness


def _details(schedule, mu, witness) -> dict:
    p = schedule.phases
    k = [steps_per_epoch(x) for x in p]
    note = (f"shuffled batches: {', '.join(f'{x.steps} steps = {epochs(x)} epochs of ceil(N/B) = {kk} steps' for x, kk in zip(p, k))}"
            f"; upper: one Gaussian per epoch (mu = {mu:.6g}), lower: max-of-batch test of a realizable pair")
    return {"mu": mu, "steps_per_epoch": k, "epochs": [epochs(x) for x in p], "lower_witness": witness,
            "note": note}


def epsilon_shuffled(schedule, delta: float, rel_width=None) -> EpsilonBounds:
    """Certified bracket of eps(delta) for shuffled Gaussian phases under replace-one (module docstring).
    ``rel_width`` is ignored: the width is the gap between the two proven ends, reported as is."""
    from .analytic_gaussian import epsilon_analytic
    delta = check_delta(delta)
    check_schedule(schedule)
    mu = mu_upper(schedule)
    upper = epsilon_analytic(mu, delta, "replace-one").epsilon_upper
    lower, witness = epsilon_lower(schedule, delta)
    return EpsilonBounds(min(lower, upper), upper, delta, METHOD, "replace-one", True,
                         _details(schedule, mu, witness))


def delta_shuffled(schedule, epsilon: float, rel_width=None) -> DeltaBounds:
    from .analytic_gaussian import delta_analytic
    epsilon = check_epsilon(epsilon)
    check_schedule(schedule)
    mu = mu_upper(schedule)
    upper = delta_analytic(mu, epsilon, "replace-one").delta_upper
    lower, witness = delta_lower(schedule, epsilon)
    return DeltaBounds(max(0.0, min(lower, upper)), upper, epsilon, METHOD, "replace-one", True,
                       _details(schedule, mu, witness))

