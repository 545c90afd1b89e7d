r"""The l2 K-norm mechanism with full batches: certified two-sided epsilon through its Gaussian scale mixture.

Noise with density :math:`\propto \exp(-\|\eta\|_2/\lambda)` on :math:`\mathbb R^d` (Hardt & Talwar 2010 with K the
l2 ball; seed 003's mechanism), :math:`\lambda = \sigma C` (numerics.schedule: sigma is the noise
multiplier), one step per full batch, sensitivity :math:`\Delta` = C (add-remove) or 2C
(replace-one). In units of C: :math:`\lambda = \sigma`, :math:`\Delta \in \{1, 2\}`, and each step is pure
:math:`\Delta/\sigma`-DP (triangle inequality), which numerics.pure_dp composes optimally; the bounds here
are far tighter for large d.

Scale mixture (verified in tests/test_accounting.py, symbolically and by quadrature)
-------------------------------------------------------------------------------------
With :math:`\tau \sim \mathrm{Gamma}(k = (d+1)/2, \theta = 2\lambda^2)`, the law of :math:`\sqrt\tau\,\xi`,
:math:`\xi \sim N(0, I_d)`, has density :math:`\propto \int_0^\infty \tau^{-d/2} e^{-r^2/(2\tau)} \tau^{k-1}
e^{-\tau/\theta} d\tau = \int_0^\infty \tau^{-1/2} e^{-a/\tau - b\tau} d\tau = \sqrt{\pi/b}\, e^{-2\sqrt{ab}}` with
:math:`a = r^2/2`, :math:`b = 1/\theta`, and :math:`2\sqrt{ab} = r/\lambda`: exactly :math:`\propto e^{-\|\eta\|/\lambda}`.

Upper bound (a dominating pair)
-------------------------------
Revealing :math:`\tau_t` with each output is a pair of which the true step is a post-processing
(marginalise :math:`\tau_t`); given :math:`\tau_t` the step is a Gaussian pair with shift of norm at most
:math:`\Delta`, dominated by the shift-:math:`\Delta` pair (numerics.dominating, fact F1), and the pair is
symmetric. Composing (ZDW22 Thm. 10; the :math:`\tau_t` are independent of the data and of the past)
gives the Gaussian pair with :math:`\mu^2 = S = \sum_t \Delta^2/\tau_t`, mixed over S:
:math:`\delta(\varepsilon) \le E[g(S)]`, :math:`g(s) = \delta_{\mathrm{GDP}}(\varepsilon; \sqrt s)` increasing in s.
On a grid :math:`s_0 < \dots < s_M`, :math:`E[g(S)] \le g(s_0) + \sum_i (g(s_{i+1}) - g(s_i)) P(S > s_i) + P(S > s_M)`,
and each tail is bounded in closed form: with :math:`Y = \Delta^2/\tau` (inverse gamma),
:math:`P(S > s) \le T\,P(Y > c) + e^{-\ell (s - T EY)}\big(1 + \tfrac12 \ell^2 \mathrm{Var}\,Y\, e^{\ell (c - EY)}\big)^T`
for every :math:`\ell > 0` and :math:`c \ge EY` (truncate Y at c; :math:`e^x \le 1 + x + \tfrac12 x^2 e^{\max(x,0)}`,
:math:`E[Y\wedge c] \le EY` and :math:`|Y \wedge c - EY| \le |Y - EY|`), with
:math:`EY = \Delta^2/(\theta(k-1))`, :math:`EY^2 = \Delta^4/(\theta^2(k-1)(k-2))` (so d >= 4 is required) and
:math:`P(Y > c)` a regularized incomplete gamma function.

Lower bound (a realizable pair, post-processed)
-----------------------------------------------
One record at :math:`+\Delta e` (absent, or at :math:`-e` for replace-one) in every step; report only
:math:`W = \sum_t \langle e, y_t\rangle`. Under the two data sets W is :math:`T\Delta + \sqrt V Z` and
:math:`\sqrt V Z` with :math:`V = \sum_t \tau_t \sim \mathrm{Gamma}(Tk, \theta)` (the first coordinate of
:math:`\sqrt\tau\xi` is :math:`\sqrt\tau Z`). For any threshold c, :math:`\delta(\varepsilon) \ge
P(W_1 > c) - e^\varepsilon P(W_0 > c)`; the two probabilities are bounded below and above by splitting V
into cells (incomplete gamma masses) on which :math:`\bar\Phi(x/\sqrt V)` is monotone.
"""
from __future__ import annotations

import math

import numpy as np
from scipy import optimize, special

from .errors import InvalidParameter, check_delta, check_epsilon
from .gdp import delta_gdp
from .results import DeltaBounds, EpsilonBounds

_CELLS = 600


class KNorm:
    """T full-batch steps of the l2 K-norm mechanism in dimension d, noise multiplier sigma."""

    def __init__(self, sigma: float, dimension: int, steps: int, adjacency: str):
        if dimension < 4:
            raise InvalidParameter(f"l2-knorm noise is accounted for dimension >= 4 (its scale-mixture bound "
                                   f"needs E[1/tau^2]), got dimension {dimension}; use laplace for d = 1")
        self.sigma, self.d, self.steps, self.adjacency = sigma, dimension, steps, adjacency
        self.shift = 2.0 if adjacency == "replace-one" else 1.0
        self.k, self.theta = (dimension + 1) / 2.0, 2.0 * sigma ** 2
        self.ey = self.shift ** 2 / (self.theta * (self.k - 1))
        self.ey2 = self.shift ** 4 / (self.theta ** 2 * (self.k - 1) * (self.k - 2))
        self.mean_s = steps * self.ey
        self.sd_s = math.sqrt(steps / (self.k - 2)) * self.ey
        self._s_grid = self.mean_s + self.sd_s * np.concatenate([np.linspace(0, 12, 481), [16, 24, 40, 80]])
        self._tails = np.array([self._tail(s) for s in self._s_grid])

    # --- upper ----------------------------------------------------------------------------------
    def _tail(self, s: float) -> float:
        """Closed-form bound on P(S > s) (module docstring), minimised over the truncation c and ell."""
        best = 1.0
        if s <= self.mean_s:
            return best
        var_y = self.ey ** 2 / (self.k - 2)  # E[Y^2] - E[Y]^2 without cancellation
        ells = np.geomspace(1e-4, 1e2, 300) * (s - self.mean_s) / max(self.steps * var_y, 1e-300)
        for r in (0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 1.0):
            c = self.ey * (1.0 + r)
            p_big = self.steps * float(special.gammainc(self.k, self.shift ** 2 / (c * self.theta)))
            # centred: e^x <= 1 + x + x^2 e^{max(x, 0)} / 2, E[Y ^ c] <= E[Y], E[(Y ^ c - EY)^2] <= Var Y
            log_mgf = np.logaddexp(0.0, math.log(0.5 * var_y) + 2 * np.log(ells) + ells * (c - self.ey))
            chern = np.exp(np.minimum(-ells * (s - self.mean_s) + self.steps * log_mgf, 0.0))
            best = min(best, p_big + float(chern.min()))
        return best

    def delta_upper(self, eps: float) -> float:
        g = np.array([delta_gdp(eps, math.sqrt(s)) for s in self._s_grid])
        return min(1.0, float(g[0] + np.sum(np.diff(g) * self._tails[:-1]) + self._tails[-1]))

    # --- lower ----------------------------------------------------------------------------------
    def _cells(self):
        shape = self.steps * self.k
        mean, sd = shape * self.theta, math.sqrt(shape) * self.theta
        v = mean + sd * np.linspace(-14, 14, _CELLS + 1)
        v = v[v > 0]
        cdf = special.gammainc(shape, v / self.theta)
        return v, np.diff(cdf)

    def _delta_lower_at(self, eps: float, c: float) -> float:
        v, mass = self._cells()
        lo_v, hi_v = v[:-1], v[1:]
        a = c - self.steps * self.shift  # W_1 > c  <=>  sqrt(V) Z > a
        p1 = special.ndtr(-a / np.sqrt(lo_v if a > 0 else hi_v))  # the smaller end of each cell
        # Q(E) in log space: its cells can underflow while e^eps is huge (eps up to hundreds of nats)
        log_p0 = special.log_ndtr(-c / np.sqrt(hi_v if c > 0 else lo_v))  # the larger end of each cell
        outside = max(1.0 - float(mass.sum()), 0.0)
        with np.errstate(divide="ignore"):
            log_q = float(special.logsumexp(np.append(np.log(mass) + log_p0, math.log(outside) if outside > 0 else -np.inf)))
        p_mass = float(np.dot(mass, p1))
        if eps + log_q > 700.0:  # e^eps Q(E) > 1 >= P(E): this threshold gives nothing above 0
            return 0.0
        return p_mass - math.exp(eps + log_q)

    def delta_lower(self, eps: float) -> float:
        mean_v = self.steps * self.k * self.theta
        t_shift = self.steps * self.shift
        c_star = mean_v * eps / t_shift + t_shift / 2.0
        spread = 10.0 * math.sqrt(mean_v)  # any threshold gives a valid bound; search near the optimum
        res = optimize.minimize_scalar(lambda c: -self._delta_lower_at(eps, c), method="bounded",
                                       bounds=(c_star - spread, c_star + spread))
        return max(self._delta_lower_at(eps, float(res.x)), self._delta_lower_at(eps, c_star), 0.0)

    # --- epsilon ---------------------------------------------------------------------------------
    def epsilon_bounds(self, delta: float) -> tuple[float, float]:
        top = self.steps * self.shift / self.sigma  # basic composition of pure DP: delta = 0 there
        up = _bisect(lambda e: self.delta_upper(e) <= delta, 0.0, top)[1]
        # the lower end is the last point where the realizable pair's delta still exceeds the target
        low = _bisect(lambda e: not self.delta_lower(e) > delta, 0.0, top)[0]
        return low, up


def _bisect(ok, lo: float, hi: float) -> tuple[float, float]:
    """(a, b) within 1e-12 relative with ok(b) true and, unless a = lo = 0 with ok(lo), ok(a) false, for
    ok monotone false -> true on [lo, hi] (hi is taken as true: pure-DP basic composition has delta 0)."""
    if ok(lo):
        return lo, lo
    for _ in range(100):
        mid = 0.5 * (lo + hi)
        lo, hi = (lo, mid) if ok(mid) else (mid, hi)
        if hi - lo <= 1e-12 * hi:
            break
    return lo, hi


def _model(schedule) -> KNorm:
    phases = schedule.phases
    if len({(p.sigma, p.dimension) for p in phases}) != 1:
        raise InvalidParameter("l2-knorm phases must share sigma and dimension (heterogeneous K-norm "
                               "schedules are not supported)")
    p = phases[0]
    return KNorm(p.sigma, p.dimension, schedule.total_steps, schedule.adjacency)


def epsilon_knorm(schedule, delta: float) -> EpsilonBounds:
    from .pure_dp import optimal_composition_epsilon
    delta = check_delta(delta)
    m = _model(schedule)
    low, up = m.epsilon_bounds(delta)
    pure = optimal_composition_epsilon([m.shift / m.sigma] * m.steps, delta)
    return EpsilonBounds(low, up, delta, "knorm-scale-mixture", schedule.adjacency, True,
                         {"pure_dp_epsilon": pure.epsilon_upper, "eps0": m.shift / m.sigma,
                          "mu_mean": math.sqrt(m.mean_s),
                          "note": f"beside it, the optimal pure-DP composition of {m.steps} steps of "
                                  f"eps0={m.shift / m.sigma:g} (KOV): epsilon={pure.epsilon_upper:.6g}; upper: tau "
                                  f"revealed (Gaussian scale mixture), lower: linear statistic of a realizable pair"})


def delta_knorm(schedule, epsilon: float) -> DeltaBounds:
    epsilon = check_epsilon(epsilon)
    m = _model(schedule)
    return DeltaBounds(m.delta_lower(epsilon), m.delta_upper(epsilon), epsilon, "knorm-scale-mixture",
                       schedule.adjacency, True, {"note": "upper: tau revealed; lower: linear statistic"})
