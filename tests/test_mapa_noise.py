"""Seed 003 Eq. (6): the samplers' second moments, the K-norm's exact DP inequality, the normaliser by
quadrature, and the radial-exponential counterexample recomputed by integration."""
import math

import mpmath
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import integrate

from numerics.errors import InvalidParameter
from repro.edge_noise import noise_second_moment, sample_k_norm, sample_radial_exponential
from theory.mapa import noise


@pytest.mark.parametrize("dim", [1, 2, 5, 20])
@pytest.mark.parametrize("mode,sampler", [("k-norm", sample_k_norm), ("paper-literal", sample_radial_exponential)])
def test_sampler_second_moment(dim, mode, sampler):
    rng = np.random.default_rng(dim)
    x = sampler(rng, dim, 0.7, 40_000)
    m2 = np.sum(x * x, axis=1)
    se = m2.std(ddof=1) / math.sqrt(len(m2))
    assert abs(m2.mean() - noise_second_moment(mode, dim, 0.7)) < 5 * se


@pytest.mark.parametrize("dim", [2, 3])
def test_normaliser_by_quadrature(dim):
    lam = 0.8
    radial = integrate.quad(lambda r: r ** (dim - 1) * math.exp(-r / lam), 0, math.inf)[0]
    area = 2 * math.pi ** (dim / 2) / math.gamma(dim / 2)
    closed = float(noise.k_norm_normaliser(dim, lam))
    assert math.isclose(area * radial, closed, rel_tol=1e-9)
    assert not math.isclose(closed, 2 * lam, rel_tol=1e-3)  # the printed normaliser 2 lambda


@given(dim=st.integers(1, 30), seed=st.integers(0, 10_000), eps=st.floats(0.01, 5.0), frac=st.floats(0.0, 1.0))
def test_k_norm_privacy_loss_is_at_most_eps(dim, seed, eps, frac):
    rng = np.random.default_rng(seed)
    delta_s = 1.3
    g = rng.normal(size=dim)
    d = rng.normal(size=dim)
    gp = g + frac * delta_s * d / np.linalg.norm(d)  # ||g - g'|| <= Delta S
    nu = g + rng.standard_cauchy(size=dim)
    lam = delta_s / eps
    loss = noise.k_norm_log_density(nu - g, lam) - noise.k_norm_log_density(nu - gp, lam)
    assert abs(loss[0]) <= eps * np.linalg.norm(g - gp) / delta_s + 1e-9


def test_radial_reading_counterexample_recomputed_by_integration():
    eps, rho = 0.1, 1e-3
    lam = 1.0 / eps
    # density of the radial-exponential noise centred at g' = (1, 0) in R^2, integrated over the ball(0, rho)
    dens = lambda y, x: math.exp(-math.hypot(x - 1, y) / lam) / (2 * math.pi * lam * math.hypot(x - 1, y))  # noqa: E731
    p_gp = integrate.dblquad(dens, -rho, rho, lambda x: -math.sqrt(rho * rho - x * x), lambda x: math.sqrt(rho * rho - x * x))[0]
    p_g = -math.expm1(-rho / lam)
    v = noise.radial_reading_not_dp()
    assert math.log(p_g / p_gp) >= v.counterexample["log P_g(A)/P_g'(A) >="] - 1e-6 > eps


def test_second_moment_symbolic_values():
    assert noise.second_moment().evidence["equals_2lambda^2_only_for_N_in"] == [1]
    with mpmath.workdps(20):
        assert noise.normaliser().counterexample["Z_2"] == "2*pi"


def test_samplers_reject_bad_input():
    with pytest.raises(InvalidParameter):
        sample_k_norm(np.random.default_rng(0), 0, 1.0)
    with pytest.raises(InvalidParameter):
        sample_radial_exponential(np.random.default_rng(0), 3, 0.0)
