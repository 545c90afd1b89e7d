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

Floating point (issue 29)
-------------------------
Every number that decides a returned bound is an Arb ball (python-flint, precision
numerics.precision.KNORM_ARB_PREC, raised where a ball is wider than KNORM_ARB_RTOL of its value), and
the float returned is the ball's upper end rounded up (upper side) or lower end rounded down (lower
side) (numerics.enclose.ball_to_floats):

* upper: each tail bound :math:`t_i \ge P(S > s_i)` is the upper end of the Chernoff expression above at a
  float (c, l) (any c >= EY and l > 0 is valid, so the float search that picks them needs no bound; c >= EY
  is checked in Arb), with :math:`P(Y > c) = P(k, \Delta^2/(c\theta)) = 1 - Q(k, \cdot)` from Arb's
  regularised upper incomplete gamma; :math:`g(s_i)` is :math:`\delta_{GDP}` through Arb's erfc and exp at the
  float grid points (any grid is valid); the sum :math:`g(s_0) + \sum_i (g(s_{i+1}) - g(s_i)) t_i + t_M` is
  formed in Arb (each difference's ball contains the true, nonnegative difference, so its product with
  :math:`t_i \ge P(S > s_i)` bounds the true term);
* lower: the V cells' masses are differences of Arb's Q at the float cell edges (any edges are valid),
  :math:`\bar\Phi` at the cell ends through erfc, the sums and :math:`e^\varepsilon` in Arb; the mass outside
  the cells counts 0 in P(W_1 > c) and 1 in P(W_0 > c).

Floats (scipy ``ndtr``, ``gammainc``, ``log_ndtr``) only steer: the threshold c, the Chernoff parameters, and
the bisections of :func:`KNorm.epsilon_bounds`, whose end points are then checked in Arb (and moved
outward until the check passes). ``epsilon_bounds`` returns epsilon_lower with delta_lower(epsilon_lower) >
delta proven and epsilon_upper with delta_upper(epsilon_upper) <= delta proven.
"""
from __future__ import annotations

import math

import numpy as np
from scipy import optimize, special

from .enclose import up
from .errors import InvalidParameter, check_delta, check_epsilon
from .gdp import delta_gdp
from .proven_ends import bisect_monotone, proven_end, tight_end
from .results import DeltaBounds, EpsilonBounds

_CELLS = 600



def _normal_sf(x):
    r""":math:`\bar\Phi(x) = \mathrm{erfc}(x/\sqrt2)/2` of an Arb ball."""
    from flint import arb
    return (x / arb(2).sqrt()).erfc() / 2


def _delta_gdp_ball(eps, s):
    r""":math:`\delta_{GDP}(\varepsilon; \mu) = \bar\Phi(\varepsilon/\mu - \mu/2) - e^\varepsilon \bar\Phi(\varepsilon/\mu + \mu/2)`
    at :math:`\mu = \sqrt s` (numerics.gdp.delta_gdp's formula), for Arb balls eps and s > 0."""
    mu = s.sqrt()
    return _normal_sf(eps / mu - mu / 2) - eps.exp() * _normal_sf(eps / mu + mu / 2)


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
        self._v_cells = None

    def _exact(self):
        """Arb balls (k, theta, Delta^2, EY, Var Y) of the model's exact reals (k = (d+1)/2 and the shift
        are exact floats; theta = 2 sigma^2 of the float sigma)."""
        from flint import arb
        k, theta, d2 = arb(self.k), 2 * arb(self.sigma) ** 2, arb(self.shift) ** 2
        ey = d2 / (theta * (k - 1))
        return k, theta, d2, ey, ey ** 2 / (k - 2)

    # --- upper ----------------------------------------------------------------------------------
    def _tail_parameters(self, s: float):
        """(c, l) minimising the float value of the Chernoff tail bound at s (module docstring), or None
        when the trivial bound 1 is as good. Floats steer only: any c >= EY, l > 0 gives a valid bound."""
        if s <= self.mean_s:
            return None
        best, arg = 1.0, None
        var_y = self.ey ** 2 / (self.k - 2)  # E[Y^2] - E[Y]^2 without cancellation
        ells = np.geomspace(1e-4, 1e2, 300) * (s - self.mean_s) / max(self.steps * var_y, 1e-300)
        for r in (0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 1.0):
            c = self.ey * (1.0 + r)
            p_big = self.steps * float(special.gammainc(self.k, self.shift ** 2 / (c * self.theta)))
            # centred: e^x <= 1 + x + x^2 e^{max(x, 0)} / 2, E[Y ^ c] <= E[Y], E[(Y ^ c - EY)^2] <= Var Y
            log_mgf = np.logaddexp(0.0, math.log(0.5 * var_y) + 2 * np.log(ells) + ells * (c - self.ey))
            chern = np.exp(np.minimum(-ells * (s - self.mean_s) + self.steps * log_mgf, 0.0))
            i = int(np.argmin(chern))
            if p_big + float(chern[i]) < best:
                best, arg = p_big + float(chern[i]), (c, float(ells[i]))
        return arg

    def _tail(self, s: float) -> float:
        """Proven upper bound on P(S > s): the Chernoff bound at the float-chosen (c, l), in Arb."""
        arg = self._tail_parameters(s)
        if arg is None:
            return 1.0
        return min(1.0, tight_end(lambda: self._tail_ball(s, *arg), "upper"))

    def _tail_ball(self, s: float, c: float, ell: float):
        r""":math:`T P(Y > c) + e^{\min(0, x)}`, :math:`x = -\ell(s - T\,EY) + T \log(1 + \ell^2 \mathrm{Var}Y\, e^{\ell(c - EY)}/2)`,
        as an Arb ball, :math:`P(Y > c) = 1 - Q(k, \Delta^2/(c\theta))` (module docstring)."""
        from flint import arb
        k, theta, d2, ey, var_y = self._exact()
        cb, lb, steps = arb(c), arb(ell), arb(self.steps)
        if not (cb >= ey and lb > 0):
            return arb(1)
        p_big = steps * (1 - (d2 / (cb * theta)).gamma_upper(k, regularized=1))
        x = -lb * (arb(s) - steps * ey) + steps * (1 + var_y * lb ** 2 * (lb * (cb - ey)).exp() / 2).log()
        return p_big + (arb(1) if not x < 0 else x.exp())

    def delta_upper(self, eps: float) -> float:
        """Proven upper bound on delta(eps): E[g(S)] through the grid of s (module docstring), in Arb."""
        return min(1.0, tight_end(lambda: self._delta_upper_ball(eps), "upper"))

    def _delta_upper_ball(self, eps: float):
        from flint import arb
        e = arb(eps)
        g = [_delta_gdp_ball(e, arb(s)) for s in self._s_grid]
        total = g[0] + arb(float(self._tails[-1]))
        for i in range(len(g) - 1):
            total += (g[i + 1] - g[i]) * arb(float(self._tails[i]))
        return total

    def _delta_upper_estimate(self, eps: float) -> float:
        """The same sum in double precision: steers the bisection only."""
        g = np.array([delta_gdp(eps, math.sqrt(s)) for s in self._s_grid])
        return min(1.0, float(g[0] + np.sum(np.diff(g) * self._tails[:-1]) + self._tails[-1]))

    # --- lower ----------------------------------------------------------------------------------
    def _cells(self):
        """Float edges of the V cells (V ~ Gamma(T k, theta)) and their float masses (steering only)."""
        shape = self.steps * self.k
        mean, sd = shape * self.theta, math.sqrt(shape) * self.theta
        v = mean + sd * np.linspace(-14, 14, _CELLS + 1)
        v = v[v > 0]
        cdf = special.gammainc(shape, v / self.theta)
        return v, np.diff(cdf)

    def _upper_gamma_balls(self):
        """Arb balls Q(T k, v_j / theta) at the float cell edges v_j (cached per precision)."""
        from flint import arb, ctx
        if self._v_cells is None or self._v_cells[0] != ctx.prec:
            k, theta, _, _, _ = self._exact()
            shape = arb(self.steps) * k
            v, _ = self._cells()
            self._v_cells = (ctx.prec, v, [(arb(x) / theta).gamma_upper(shape, regularized=1) for x in v])
        return self._v_cells[1], self._v_cells[2]

    def _delta_lower_ball(self, eps: float, c: float):
        r""":math:`P(W_1 > c) - e^\varepsilon P(W_0 > c)` bounded below as an Arb ball: the first sum over the
        cells at each cell's smaller :math:`\bar\Phi`, the second at its larger one plus the mass outside."""
        from flint import arb
        v, tails = self._upper_gamma_balls()
        cb = arb(c)
        a = cb - arb(self.steps) * arb(self.shift)  # exact: W_1 > c  <=>  sqrt(V) Z > a
        p1, p0 = arb(0), (1 - tails[0]) + tails[-1]
        for j in range(len(v) - 1):
            mass = tails[j] - tails[j + 1]
            small_v = v[j] if a > 0 else v[j + 1]   # sf(a / sqrt(v)) is smallest there
            large_v = v[j + 1] if c > 0 else v[j]   # sf(c / sqrt(v)) is largest there
            p1 += mass * _normal_sf(a / arb(small_v).sqrt())
            p0 += mass * _normal_sf(cb / arb(large_v).sqrt())
        return p1 - arb(eps).exp() * p0

    def _delta_lower_estimate_at(self, eps: float, c: float) -> float:
        """The same bound in double precision (cell masses from scipy): steers the threshold only."""
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

    def _threshold(self, eps: float) -> tuple[float, float]:
        """(c, estimate): the threshold with the largest float estimate (any threshold is valid)."""
        mean_v = self.steps * self.k * self.theta
        t_shift = self.steps * self.shift
        c_star = mean_v * eps / t_shift + t_shift / 2.0
        spread = 10.0 * math.sqrt(mean_v)  # search near the optimum
        res = optimize.minimize_scalar(lambda c: -self._delta_lower_estimate_at(eps, c), method="bounded",
                                       bounds=(c_star - spread, c_star + spread))
        return max(((float(res.x), self._delta_lower_estimate_at(eps, float(res.x))),
                    (c_star, self._delta_lower_estimate_at(eps, c_star))), key=lambda t: t[1])

    def _delta_lower_estimate(self, eps: float) -> float:
        return max(self._threshold(eps)[1], 0.0)

    def delta_lower(self, eps: float) -> float:
        """Proven lower bound on delta(eps) at the threshold the float estimate picks (0 if none helps)."""
        c, _ = self._threshold(eps)
        return max(tight_end(lambda: self._delta_lower_ball(eps, c), "lower"), 0.0)

    # --- epsilon ---------------------------------------------------------------------------------
    def epsilon_bounds(self, delta: float) -> tuple[float, float]:
        """(low, up) with delta_lower(low) > delta (or low = 0) and delta_upper(up) <= delta, both proven:
        float bisections, then each end checked in Arb and moved outward until it passes."""
        top = float(up(up(self.steps * self.shift / self.sigma)))  # basic composition of pure DP: delta = 0
        up_end = bisect_monotone(lambda e: self._delta_upper_estimate(e) <= delta, 0.0, top)[1]
        # the lower end is the last point where the realizable pair's delta still exceeds the target
        low = bisect_monotone(lambda e: not self._delta_lower_estimate(e) > delta, 0.0, top)[0]
        return proven_end(low, lambda e: self.delta_lower(e) > delta, -1.0, 0.0), \
            proven_end(up_end, lambda e: self.delta_upper(e) <= delta, 1.0, top)


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
