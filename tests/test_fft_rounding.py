"""The proven rounding bound of the FFT compositions (numerics.fft_rounding, issue 29) against
recomputation in extended precision: the true error of every composition must lie below the bound.

The references are the same compositions done in long double (scipy's pocketfft runs in 80-bit
precision, u = 2^-64, 2048 times finer than double): their own error is far below the double bound.
"""
import math

import numpy as np
import pytest
import scipy.fft
from hypothesis import given, settings
from hypothesis import strategies as st

from numerics import pld
from numerics.fft_rounding import SpectralPower, convolution_entry_error, fft_relative_error
from numerics.pld_pairs import MixturePair
from numerics.pld_tilted import chernoff_lambda, compose_tilted

LD = np.longdouble


def _reference(folded: list, counts: list, n: int) -> np.ndarray:
    """The cyclic composition in long double: prod_i rfft(a_i)^T_i, inverse transform."""
    spec = np.ones(n // 2 + 1, dtype=np.clongdouble)
    for a, t in zip(folded, counts):
        f = scipy.fft.rfft(np.asarray(a, dtype=LD))
        spec *= f ** t
    return scipy.fft.irfft(spec, n=n)


def _random_pmf(rng, length: int, mass: float) -> np.ndarray:
    a = rng.random(length) ** 3  # uneven masses
    return a * (mass / a.sum())


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2 ** 31), n=st.sampled_from([96, 1000, 2187, 4096, 15625]),
       phases=st.integers(1, 3), count=st.sampled_from([1, 2, 7, 64, 500, 3000]))
def test_composition_error_is_below_the_bound(seed, n, phases, count):
    rng = np.random.default_rng(seed)
    folded, counts = [], []
    for i in range(phases):
        a = np.zeros(n)
        length = int(rng.integers(2, max(3, n // 8)))
        a[:length] = _random_pmf(rng, length, 1.0 - 1e-3 * rng.random())
        folded.append(a)
        counts.append(max(1, count // (i + 1)))
    power = SpectralPower(n)
    for a, t in zip(folded, counts):
        power.add(a, t)
    c, bound = power.finish()
    err = float(np.max(np.abs(c.astype(LD) - _reference(folded, counts, n))))
    assert err <= bound


def test_a_plain_pld_composition_is_below_its_noise_bound():
    """A Poisson step composed 600 times at a coarse grid, as numerics.pld composes it: the
    entrywise difference to the long-double composition of the same grid PMF is below ``noise``."""
    pair = MixturePair(0.1, 0.5, "remove")
    step = pld.discretise_pessimistic(pair, 0.05, 1e-14)
    c = pld.compose([(step, 600)], 0.05, 1e-14)
    n = len(c.pmf)
    ref = np.roll(_reference([pld.fold(step, n)], [600], n), -(c.k0 % n))
    err = float(np.max(np.abs(c.pmf.astype(LD) - ref)))
    assert 0 < err <= c.noise


def _tilted_reference(step, count: int, h: float, lam: float, n: int):
    """The composition of ``count`` copies of ``step`` in long double, tilted by lam (an independent
    implementation of the identity of numerics.pld_tilted), and a bound on its own rounding per entry
    (the double bound of the tilted composition scaled by 2^-11, then untilted)."""
    k = step.k0 + np.arange(len(step.pmf))
    w = step.pmf.astype(LD) * np.exp(LD(lam) * k.astype(LD) * LD(h))
    log_m = np.log(w.sum())
    w = w / w.sum()
    folded = np.zeros(n, dtype=LD)
    np.add.at(folded, k % n, w)
    tilted_c = np.roll(scipy.fft.irfft(scipy.fft.rfft(folded) ** count, n=n), -(count * step.k0 % n))
    power = SpectralPower(n)
    power.add(folded.astype(float), count)
    err = LD(power.finish()[1] * 2.0 ** -11)
    x = (np.arange(n) + count * step.k0).astype(LD) * LD(h)  # entry m holds loss (count k0 + m) h
    scale = np.exp(LD(count) * log_m - LD(lam) * x)
    return count * step.k0, tilted_c * scale, err * scale


def test_tilted_composition_brackets_the_long_double_one():
    """numerics.pld_tilted: the untilted upper (lower) masses lie above (below) a long-double tilted
    composition of the same grid PMF at every loss above the floor, up to the latter's own rounding."""
    pair = MixturePair(0.1, 0.5, "remove")
    h = 0.05
    step = pld.discretise_pessimistic(pair, h, 1e-16)
    steps = [(step, 300)]
    lam, eps = chernoff_lambda(steps, h, 1e-13)
    window = (pld._window_side(steps, h, 1e-16, -1), pld._window_side(steps, h, 1e-16, +1))
    up, low = compose_tilted(steps, h, 1e-16, window, lam, eps - 5.0)
    n = scipy.fft.next_fast_len(300 * len(step.pmf), real=True)  # the whole support: no wrap-around
    k0, ref, ref_err = _tilted_reference(step, 300, h, lam, n)
    idx = up.k0 + np.arange(1, len(up.pmf)) - k0  # entry 0 of the upper PMF carries the floor mass
    assert np.all(up.pmf[1:].astype(LD) >= ref[idx] - ref_err[idx])
    assert np.all(low.pmf[1:].astype(LD) <= ref[idx] + ref_err[idx])
    near = np.abs((up.k0 + np.arange(1, len(up.pmf))) * h - eps) < 10.0  # where delta(eps) lives
    assert np.all(ref[idx][near] > 1e6 * ref_err[idx][near])  # the comparison is not vacuous there
    assert np.all(up.pmf[1:][near] <= low.pmf[1:][near] * (1 + 1e-6))  # and the bracket is tight


def test_convolution_error_is_below_the_bound():
    import scipy.signal

    rng = np.random.default_rng(7)
    for la, lb in [(500, 40), (5000, 300), (20000, 2000)]:
        a = rng.random(la)
        b = _random_pmf(rng, lb, 1.0)
        out = scipy.signal.fftconvolve(a, b[::-1], mode="valid")
        ref = np.convolve(a.astype(LD), b[::-1].astype(LD), mode="valid")
        err = float(np.max(np.abs(out.astype(LD) - ref)))
        assert err <= convolution_entry_error(2 * (la + lb), float(np.linalg.norm(a)) * (1 + 1e-9),
                                              float(np.linalg.norm(b)) * (1 + 1e-9), 1.0 + 1e-9)


def test_single_fft_normwise_error_is_below_rho():
    """Item 1 of the module docstring on its own: ||fl(FFT x) - FFT x||_2 <= rho(n) ||FFT x||_2."""
    rng = np.random.default_rng(3)
    for n in [64, 1000, 3 ** 7, 5 ** 6, 2 ** 16, 2 * 3 * 5 * 7 * 16]:
        x = rng.standard_normal(n)
        y = scipy.fft.rfft(x)
        ref = scipy.fft.rfft(x.astype(LD))
        err = float(np.linalg.norm((y.astype(np.clongdouble) - ref)))
        assert err <= fft_relative_error(n) * float(np.linalg.norm(ref))


@pytest.mark.slow
def test_reproducer_size_composition_is_below_the_bound():
    """The grid of issue 29's first reproducer (a 4.7-million-point window): the floor of about 5e-19
    per entry the attack found lies below the proven bound."""
    h = -math.log1p(-0.0002820179612234017)
    pair = MixturePair(0.10397952105605365, 0.36128161786110063, "remove")
    step = pld.discretise_pessimistic(pair, h, 1e-22)
    c = pld.compose([(step, 4832)], h, 1e-18)
    n = len(c.pmf)
    ref = np.roll(_reference([pld.fold(step, n)], [4832], n), -(c.k0 % n))
    assert float(np.max(np.abs(c.pmf.astype(LD) - ref))) <= c.noise
