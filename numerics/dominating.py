r"""Per-step dominating and realizable pairs for every (sampling, noise, adjacency) the suite accounts.

Units: per-record contributions have norm at most C = 1 (the clip norm), the noise multiplier
:math:`\sigma` is the noise scale over C (numerics.schedule), so a Gaussian step with shift s is the pair
:math:`N(s, \sigma^2)` against :math:`N(0, \sigma^2)`, and :math:`N(2, \sigma^2)` is the same pair as
:math:`N(1, (\sigma/2)^2)` (``MixturePair(g, sigma / 2, ...)`` below). Each function returns, per order,
a numerics.pld_general.StepModel: ``upper`` a grid pair dominating the step for that order whatever the
earlier outputs (so it composes adaptively, ZDW22 Thm. 10), ``lower`` a grid pair dominated by the
output pair of one fixed realizable pair of data sets. Proofs:

Two facts used throughout
-------------------------
(F1) *Shorter shifts are post-processings.* For :math:`\|u\| \le \Delta` the kernel
:math:`K(z) = (\|u\|/\Delta)z + N(0, \sigma^2(1 - \|u\|^2/\Delta^2))` (in the direction of u, the other
coordinates untouched) maps :math:`N(0)` to :math:`N(0)` and :math:`N(\Delta e)` to :math:`N(u)`; applied
to a mixture whose other components sit at 0 it maps :math:`(1-g)N(0)+gN(\Delta e)` to
:math:`(1-g)N(0)+gN(u)`. In d dimensions the coordinates orthogonal to u have the same law under both
hypotheses, so one dimension suffices. For the Laplace law (scalar records) the same holds by the
Blackwell-Sherman-Stein theorem for dichotomies, because the trade-off function of
(Lap(0), Lap(s)) decreases in s (monotone likelihood ratio of the log-concave Laplace family);
tests/test_accounting.py checks the ordering numerically.
(F2) *Joint convexity.* If :math:`P = \sum_i \pi_i P_i`, :math:`Q = \sum_i \pi_i Q_i` with the same weights,
:math:`H_\alpha(P\|Q) \le \max_i H_\alpha(P_i\|Q_i)` for every :math:`\alpha`.

Fixed-size batches (b of n without replacement, g = b/n)
----------------------------------------------------------
*Add-remove.* Let D have n records, D' = D minus x (the batch is drawn from each set; n is the size of
the larger one, numerics.schedule). Couple: draw a uniform b-subset B' of D' and a uniform y in B'. The
batch of D' is B'; the batch of D is B' with probability 1 - g and :math:`B'\setminus\{y\}\cup\{x\}` with
probability g (both are uniform b-subsets of D, the second the ones containing x). So, with s the sum
over B', :math:`M(D) = E[(1-g)N(s) + gN(s + v_x - v_y)]`, :math:`M(D') = E[N(s)]`, and by (F2), a common
translation and (F1) with :math:`\|v_x - v_y\| \le 2` the step is dominated by
:math:`A = ((1-g)N(0)+gN(2),\ N(0))` (order ``remove``) and by its reverse B (order ``add``). The order is
the same in every step (the larger data set is the mixture side), so each order composes separately
and the larger epsilon is reported. *A is realizable*: all records of D' at :math:`-e`, x at :math:`+e`,
so :math:`v_x - v_y = 2e` always: the bounds are tight up to the grid (width ``rel_width``).
The fraction g = b/n is a float that rounds either way (64/60000 up, 3/7 down): the upper grids take it
rounded up and the lower ones rounded down (Phase.q_bounds), since a larger fraction dominates a smaller
one in either order (resample the output from N(0) with probability 1 - g'/g: a post-processing).

*Replace-one.* Dong, Roth & Su 2022 (JRSS-B, arXiv:1905.02383), Theorem 4.2 (the subsampling
theorem, neighbours differ by one replaced record): if M is f-DP on data sets of size b then
:math:`M \circ \mathrm{Sample}_b` is :math:`C_g(f)`-DP with :math:`C_g(f) = \min\{f_g, f_g^{-1}\}^{**}`,
:math:`f_g = g f + (1-g)\mathrm{Id}`. Here M (the noisy batch sum) has replace sensitivity 2, hence
:math:`f = G_{2/\sigma}`, and :math:`f_g = T(A)` up to orientation. The conjugate of a convex hull of a
minimum is the maximum of the conjugates, and the privacy profile of a trade-off function is
:math:`\delta_f(\varepsilon) = 1 + f^*(-e^\varepsilon)` (DRS Prop. 2.12), so the profile of :math:`C_g(f)` is
:math:`\max(\delta_A, \delta_B)`: for every :math:`\varepsilon \in \mathbb{R}`, every step, both orders and
every adaptively chosen step, :math:`H_{e^\varepsilon} \le \max(\delta_A(\varepsilon), \delta_B(\varepsilon))`.
:func:`symmetrised` builds a grid pair whose profile is at least that maximum at every
:math:`\varepsilon` (proof there); it dominates every step in both orders, hence composes adaptively
(ZDW22 Thm. 10). The lower bound composes A, realizable as above with the same two data sets in every
step (a fixed order). The gap between the two is the price of not knowing the adversary's order.
No per-step dominating pair can do better: a pair dominating both A and B has a profile at least
:math:`\max(\delta_A, \delta_B)`, and the profile determines the pair up to equivalence, so the
symmetrised pair is the least one (up to the grid). A tighter upper bound has to use how the
adversary can choose the order (an adaptive analysis, numerics.adaptive; the table of
numerics.accounting is where to point this mechanism at it).

With-replacement batches (b independent uniform draws)
------------------------------------------------------
Let K ~ Bin(b, 1/n) be the number of draws of the replaced slot, :math:`\pi_k` its law,
:math:`\gamma = 1 - \pi_0`. Couple: draw b indices :math:`J_1..J_b` uniformly among the other n - 1
records and K independently; the batch is :math:`J_1..J_{b-K}` plus K copies of the slot (the same law
as b uniform draws). Given J, with :math:`m_k = \sum_{i \le b-k} v_{J_i}`, the step is
:math:`P_J = \sum_k \pi_k N(m_k + k v_x)`, :math:`Q_J = \sum_k \pi_k N(m_k + k v_{x'})`. Reveal a label k'
drawn from :math:`\pi_k/\gamma` (k >= 1), equal to K when K >= 1 and independent of everything when
K = 0: marginalising it gives back P and Q, so (F2) bounds the step by the maximum over J and the
:math:`\pi_k/\gamma`-mixture over k of :math:`((1-\gamma)N(m_0) + \gamma N(p_k),\ (1-\gamma)N(m_0) + \gamma N(q_k))`,
three points pairwise within 2k. That pair is :math:`M_k \circ \mathrm{Sample}` for the fixed-size
sampling with probability :math:`\gamma` (a rational number) of a batch mechanism with replace
sensitivity 2k, so DRS Thm. 4.2 bounds its profile by that of :math:`C_\gamma(G_{2k/\sigma})`; the mixture over k
of :func:`symmetrised` grid pairs dominates the step in both orders. Components with k beyond the
point where the remaining weight is below the tail go to the +infinity atom. *Lower:* all records at
:math:`-e`, x at :math:`+e`, x' at :math:`-e`: :math:`P = \sum_k \pi_k N(2k e)`, :math:`Q = N(0)`.
*Add-remove* (D has n records, D' = D minus x; n is the larger size): a draw from D is x with
probability 1/n and otherwise uniform on D', so the same coupling (D' draws :math:`J_1..J_b`, D keeps
:math:`J_1..J_{b-K}` and adds K copies of x) gives, after translating by :math:`m_0`,
:math:`P_J = \sum_k \pi_k N(u_k)` against :math:`Q_J = N(0)` with :math:`u_k = \sum_{i > b-k}(v_x - v_{J_i})`,
:math:`\|u_k\| \le 2k`. *Gaussian noise: the copies pair dominates.* Under :math:`Q_J` the likelihood ratio is
:math:`L = \sum_k \pi_k Y_k`, :math:`Y_k = \exp(\langle u_k, z\rangle/\sigma^2 - \|u_k\|^2/2\sigma^2)`, a mean-one
lognormal with parameter :math:`s_k = \|u_k\|/\sigma \le s_k^* = 2k/\sigma`; for the copies pair
:math:`P^* = \sum_k \pi_k N(2ke)` it is :math:`L^* = \sum_k \pi_k g_k(G)` with :math:`g_k(G) = e^{s_k^* G - s_k^{*2}/2}`
increasing in one standard normal G. (i) :math:`Y_k^* = Y_k W` in law, W an independent mean-one lognormal
(parameter :math:`\sqrt{s_k^{*2} - s_k^2}`), so by Jensen :math:`E(\pi_k Y_k - d_k)_+ \le E(\pi_k Y_k^* - d_k)_+`
for every :math:`d_k`. (ii) :math:`(\sum x_k - \sum d_k)_+ \le \sum (x_k - d_k)_+`. (iii) For :math:`\alpha > \pi_0`
take :math:`z_\alpha` with :math:`\sum_k \pi_k g_k(z_\alpha) = \alpha` and :math:`d_k = \pi_k g_k(z_\alpha)`: every term
:math:`\pi_k g_k(G) - d_k` has the sign of :math:`G - z_\alpha`, so (ii) is an equality for :math:`L^*`. Hence
:math:`H_\alpha(P_J\|Q_J) = E(L - \alpha)_+ \le E(L^* - \alpha)_+ = H_\alpha(P^*\|N(0))`; for :math:`\alpha \le \pi_0`
both equal :math:`1 - \alpha` (L, :math:`L^* \ge \pi_0`). The reverse order follows from
:math:`H_\alpha(Q\|P) = 1 - \alpha + \alpha E_Q(L - 1/\alpha)_+`. By (F2) over J, :math:`(P^*, N(0))` dominates the
step in both orders (a convex-order argument: :math:`L \le_{cx} L^*`, the comonotone sum of larger marginals),
and it is realizable (records of D' at :math:`-e`, x at :math:`+e`): the bracket is tight up to the grid.
Components beyond :math:`K_{max}` are revealed and sent to the +infinity atom (upper) or dropped (lower).
*Laplace noise* (no such convex order is used): revealing k' as above leaves
:math:`((1-\gamma)N(m_0) + \gamma N(p_k),\ N(m_0))` with :math:`\|p_k - m_0\| \le 2k`, dominated by
:math:`A_{\gamma,2k} = ((1-\gamma)F(0) + \gamma F(2k), F(0))` through (F1) alone (the order is fixed for the run,
so no symmetrisation): the upper grid is the :math:`\pi_k/\gamma`-mixture of their connect-the-dots grids
(order ``remove``; their reverses for ``add``), the lower one the realizable copies pair and its reverse.

Laplace noise (scalar records, density ~ exp(-|z| / sigma))
-----------------------------------------------------------
Every argument above uses the Gaussian only through (F1) and the f-DP of the batch mechanism, so the
same pairs with Laplace components are dominating and realizable: Poisson add-remove
:math:`((1-q)L(0)+qL(1), L(0))` and its reverse (ZDW22 Sec. 5); fixed-size with shift 2; full batch
:math:`(L(s), L(0))`, symmetric under the mirror z -> s - z.

Weights in floating point (issue 29)
------------------------------------
The pairs are built with float weights (1 - q, binomial probabilities) that only steer the grids; each
numerics.location_pairs pair also carries its exact weights as fractions (``exact_weights``; the binomial
:math:`\pi_k = \binom{b}{k}(n-1)^{b-k}/n^b`), which every enclosure uses. The upper grids round up: the
with-replacement weight :math:`\gamma = 1 - \pi_0` is replaced by the least float above it (a pair with a
larger mixture weight :math:`\gamma' \ge \gamma` dominates: the kernel that keeps a point with probability
:math:`\gamma/\gamma'` and else redraws it from F(0) maps :math:`A_{\gamma'}` to :math:`A_\gamma`), and
:func:`mixture` takes upper ends of its weights and rounds every product and sum up.

Full batch (q = 1)
------------------
The Gaussian pair :math:`(N(s), N(0))`, s = 1 (add-remove) or 2 (replace-one), is exact and symmetric;
numerics.accounting uses the closed form (numerics.analytic_gaussian) when every phase is a full-batch
Gaussian, and these grids when full-batch phases are mixed with others.
"""
from __future__ import annotations

import functools
import math
from fractions import Fraction
from typing import Dict, List

import numpy as np
from scipy import stats

from . import pld
from .enclose import up
from .errors import InvalidParameter
from .location_pairs import LocationMixturePair
from .pld_contraction import discretise_merged
from .pld_general import StepModel
from .pld_pairs import MixturePair
from .schedule import Phase

# --------------------------------------------------------------------------------------------------
# grid constructions
# --------------------------------------------------------------------------------------------------


def symmetrised(pair, reverse, h: float, tail: float) -> "pld.GridPLD":
    r"""A grid pair whose privacy profile is at least :math:`\max(\delta_A, \delta_B)` at every epsilon, for
    A = ``pair`` and B = ``reverse`` (A's reverse, mirrored so that its loss increases: the ``add`` pair of a
    ``remove`` pair; mirroring leaves a profile unchanged).

    Each order's connect-the-dots grid is proven to dominate it (numerics.pld_onestep, every mass enclosed),
    and numerics.adaptive.symmetrised_grid returns a grid proven (numerics.profile_max.dominate_max:
    rigorous bounds at the grid points, linearity in :math:`e^\varepsilon` below the overlap, convexity
    between grid points) to have a profile at least the larger of the two grids' at every real epsilon,
    hence at least :math:`\max(\delta_A, \delta_B)`. By the composition lemma of numerics.profile_max
    (profiles suffice, for positive measures of any total mass) it composes as a dominating pair.
    """
    from .adaptive import symmetrised_grid
    return symmetrised_grid(pld.discretise_pessimistic(pair, h, tail), pld.discretise_pessimistic(reverse, h, tail), h)


def mixture(parts, extra_inf: float = 0.0) -> "pld.GridPLD":
    """The grid pair 'draw i with weight w_i, then pair i': PMFs and +infinity atoms mix linearly.

    An upper grid: the weights must be upper ends of the true ones (:func:`_float_above`), and every
    product and sum is rounded up one ulp, so the result is pointwise at least the exact mixture (a larger
    positive measure raises delta at every epsilon, under composition too)."""
    k0 = min(g.k0 for _, g in parts)
    k1 = max(g.k0 + len(g.pmf) for _, g in parts)
    pmf = np.zeros(k1 - k0)
    inf_mass = extra_inf
    for w, g in parts:
        sl = slice(g.k0 - k0, g.k0 - k0 + len(g.pmf))
        pmf[sl] = up(pmf[sl] + up(w * g.pmf))
        inf_mass = float(up(inf_mass + up(w * g.inf_mass)))
    return pld.GridPLD(k0, pmf, inf_mass)


# --------------------------------------------------------------------------------------------------
# pairs of one step
# --------------------------------------------------------------------------------------------------


def shift_pair(noise: str, weight: float, sigma: float, shift: float, direction: str):
    r"""``remove``: :math:`((1-w)F(0) + wF(s), F(0))`; ``add``: its reverse, mirrored so the loss increases."""
    if noise == "gaussian":
        return MixturePair(weight, sigma / shift, direction)
    mix = ((1.0 - weight, 0.0), (weight, shift)) if weight < 1 else ((1.0, shift),)
    exact = (1 - Fraction(weight), Fraction(weight)) if weight < 1 else (Fraction(1),)  # 1 - w rounds in floats
    if direction == "remove":
        return LocationMixturePair("laplace", sigma, mix, ((1.0, 0.0),), (exact, (Fraction(1),)))
    mirrored = tuple((w, -m) for w, m in mix)
    return LocationMixturePair("laplace", sigma, ((1.0, 0.0),), mirrored, ((Fraction(1),), exact))


def _binomial_copies(b: int, n: int, tail: float):
    """Law of the number of copies K ~ Bin(b, 1/n): (pi_k for k = 0..K_max, weight beyond K_max), floats
    (steering) and exact fractions (bounds): pi_k = C(b, k) (n - 1)^(b - k) / n^b."""
    dist = stats.binom(b, 1.0 / n)
    k_max = 1
    while k_max < b and float(dist.sf(k_max)) > tail:
        k_max += 1
    exact, beyond = _binomial_exact(b, n, k_max)
    return dist.pmf(np.arange(k_max + 1)), float(dist.sf(k_max)), exact, beyond


@functools.lru_cache(maxsize=64)
def _binomial_exact(b: int, n: int, k_max: int):
    """(pi_0..pi_{K_max}, 1 - their sum) as fractions; cached, since with n^b of 10^5 digits and more (b = 10^4 of
    n = 10^5: 0.6 s; b = 5 10^4 of 6 10^4: 27 s) the big-integer arithmetic dominates a run."""
    exact = tuple(Fraction(math.comb(b, k) * (n - 1) ** (b - k), n ** b) for k in range(k_max + 1))
    return exact, 1 - sum(exact)


def _float_above(x: Fraction) -> float:
    """The least float >= the exact rational x."""
    f = float(x)
    return f if Fraction(f) >= x else float(np.nextafter(f, np.inf))


def _lower_grid(pair, h: float, tail: float) -> "pld.GridPLD":
    """A grid pair dominated by ``pair`` (numerics.pld_contraction: merged intervals, second-order tight
    except where mass piles up within one grid step, as a subsampled pair's does above log(1 - q))."""
    return discretise_merged(pair, h, tail)


def _tight(pair, steps, scale, floor=None, realizable=None) -> StepModel:
    """Upper grid of ``pair``, lower grid of ``realizable`` (default ``pair``): the same pair but for its
    sampling fraction, rounded up in ``pair`` and down in ``realizable`` (Phase.q_bounds)."""
    low = pair if realizable is None else realizable
    return StepModel(lambda h, t: pld.discretise_pessimistic(pair, h, t),
                     lambda h, t: _lower_grid(low, h, t), steps, scale, None, floor)


def _floor(phase: Phase):
    """log(1 - q): the infimum of a subsampled remove pair's loss (StepModel.loss_floor)."""
    return math.log1p(-phase.q) if phase.q < 1 else None


def _scale(phase: Phase, shift: float):
    sigma = phase.sigma / shift if phase.noise == "gaussian" else phase.sigma / (shift * math.sqrt(2.0))
    return (phase.q, sigma)


def add_remove_models(phase: Phase, shift: float) -> Dict[str, StepModel]:
    """Orders ``remove`` and ``add`` of a pair that is both dominating and realizable (module docstring)."""
    lo, hi = phase.q_bounds  # b/n of a fixed-size phase is a rounded float: each side rounds its own way
    return {d: _tight(shift_pair(phase.noise, hi, phase.sigma, shift, d), phase.steps, _scale(phase, shift),
                      _floor(phase), shift_pair(phase.noise, lo, phase.sigma, shift, d)) for d in ("remove", "add")}


def poisson_add_remove(phase: Phase) -> Dict[str, StepModel]:
    return add_remove_models(phase, 1.0)


def fixed_size_add_remove(phase: Phase) -> Dict[str, StepModel]:
    if phase.batch_size >= phase.dataset_size:  # the smaller data set could not fill the batch
        raise InvalidParameter(f"fixed-size sampling under add-remove needs batch_size < dataset_size, got "
                               f"{phase.batch_size} of {phase.dataset_size}")
    return add_remove_models(phase, 2.0)


def full_batch(phase: Phase, adjacency: str) -> Dict[str, StepModel]:
    """q = 1: the pair (F(s), F(0)) with s = 1 or 2 is exact; it is its own reverse (mirror)."""
    if adjacency == "add-remove":
        return add_remove_models(phase, 1.0)
    pair = shift_pair(phase.noise, 1.0, phase.sigma, 2.0, "remove")
    return {"replace": _tight(pair, phase.steps, _scale(phase, 2.0))}


def fixed_size_replace_one(phase: Phase) -> Dict[str, StepModel]:
    """DRS Thm. 4.2 upper (symmetrised), fixed-order realizable lower (module docstring)."""
    lo, hi = phase.q_bounds
    pair = shift_pair(phase.noise, hi, phase.sigma, 2.0, "remove")
    reverse = shift_pair(phase.noise, hi, phase.sigma, 2.0, "add")
    realizable = shift_pair(phase.noise, lo, phase.sigma, 2.0, "remove")
    return {"replace": StepModel(lambda h, t: symmetrised(pair, reverse, h, t),
                                 lambda h, t: _lower_grid(realizable, h, t),
                                 phase.steps, _scale(phase, 2.0),
                                 lambda h, t: pld.discretise_pessimistic(pair, h, t), _floor(phase))}


def with_replacement_replace_one(phase: Phase) -> Dict[str, StepModel]:
    """Mixture over the copy count k of DRS-symmetrised pairs (upper), the copies pair (lower)."""
    b, n, sigma = phase.batch_size, phase.dataset_size, phase.sigma
    gamma = _float_above(1 - _binomial_exact(b, n, 0)[0][0])  # a larger weight gives a dominating pair

    def upper(h, t):
        pi, _, exact, beyond = _binomial_copies(b, n, t)
        parts = [(_float_above(exact[k] / Fraction(gamma)),
                  symmetrised(shift_pair(phase.noise, gamma, sigma, 2.0 * k, "remove"),
                              shift_pair(phase.noise, gamma, sigma, 2.0 * k, "add"), h, t))
                 for k in range(1, len(pi))]
        return mixture(parts, extra_inf=_float_above(beyond / Fraction(gamma)))

    def lower(h, t):  # dropping the far components lowers P: still a lower bound
        return _lower_grid(_copies_pair(phase.noise, sigma, *_binomial_copies(b, n, t)[::2], "remove"), h, t)

    def reference(h, t):
        return pld.discretise_pessimistic(_copies_pair(phase.noise, sigma, *_binomial_copies(b, n, t)[::2],
                                                       "remove"), h, t)

    return {"replace": StepModel(upper, lower, phase.steps, (gamma, sigma / 2.0), reference,
                                 math.log1p(-gamma))}


def _copies_pair(noise: str, sigma: float, pi, exact, direction: str, scale: Fraction = Fraction(1)):
    r"""The copies pair :math:`(\sum_k w_k F(2k), F(0))` (``remove``) or its mirrored reverse (``add``), with
    :math:`w_k = \pi_k / \text{scale}` (floats for steering, exact fractions for the bounds)."""
    ks = [k for k in range(len(pi)) if pi[k] > 0]
    comps = tuple((float(pi[k] / float(scale)), 2.0 * k) for k in ks)
    weights = tuple(exact[k] / scale for k in ks)
    if direction == "remove":
        return LocationMixturePair(noise, sigma, comps, ((1.0, 0.0),), (weights, (Fraction(1),)))
    return LocationMixturePair(noise, sigma, ((1.0, 0.0),), tuple((w, -m) for w, m in comps),
                               ((Fraction(1),), weights))


def with_replacement_add_remove(phase: Phase) -> Dict[str, StepModel]:
    """Gaussian: the copies pair dominates and is realizable (module docstring, convex order), so upper and
    lower are its two grids. Laplace: the mixture over the copy count k of shift-2k pairs per order (upper)."""
    b, n, sigma, noise = phase.batch_size, phase.dataset_size, phase.sigma, phase.noise
    gamma = _float_above(1 - _binomial_exact(b, n, 0)[0][0])  # a larger weight gives a dominating pair

    def copies_pair(t, direction, normalised=False):
        pi, _, exact, beyond = _binomial_copies(b, n, t)
        # normalised: the law of K given K <= K_max
        return _copies_pair(noise, sigma, pi, exact, direction, 1 - beyond if normalised else Fraction(1))

    def model(direction):
        def upper(h, t):
            pi, _, exact, beyond = _binomial_copies(b, n, t)
            if noise == "gaussian":  # K > K_max revealed: its mass goes to the +infinity atom
                return mixture([(_float_above(1 - beyond),
                                 pld.discretise_pessimistic(copies_pair(t, direction, True), h, t))],
                               extra_inf=_float_above(beyond))
            parts = [(_float_above(exact[k] / Fraction(gamma)),
                      pld.discretise_pessimistic(shift_pair(noise, gamma, sigma, 2.0 * k, direction), h, t))
                     for k in range(1, len(pi))]
            return mixture(parts, extra_inf=_float_above(beyond / Fraction(gamma)))
        reference = None if noise == "gaussian" else \
            (lambda h, t: pld.discretise_pessimistic(copies_pair(t, direction), h, t))
        return StepModel(upper, lambda h, t: _lower_grid(copies_pair(t, direction), h, t), phase.steps,
                         (gamma, sigma / 2.0), reference, math.log1p(-gamma))
    return {d: model(d) for d in ("remove", "add")}


def orders_of(models: List[Dict[str, StepModel]]) -> Dict[str, List[StepModel]]:
    """Phase models -> {order: [StepModel per phase]} (every phase must offer the same orders)."""
    names = set(models[0])
    if any(set(m) != names for m in models):
        raise InvalidParameter("these phases cannot be composed together (their neighbouring pairs differ in "
                               "kind); split the schedule")
    return {name: [m[name] for m in models] for name in sorted(names, reverse=True)}
