"""numerics.dominating, with-replacement add/remove, Gaussian: the copies pair sum_k pi_k N(2k e) vs N(0)
dominates every configuration of the copy shifts u_k (|u_k - u_{k-1}| <= 2) in both orders (the convex-
order proof in the module docstring). Checked here by quadrature in two dimensions, where the shifts need
not be collinear, on random configurations."""
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

GRID = np.linspace(-9.0, 13.0, 1201)


def _hockey(pi, shifts, sigma, alpha):
    """(H_alpha(P||Q), H_alpha(Q||P)) for P = sum_k pi_k N(u_k, sigma^2 I_2), Q = N(0, sigma^2 I_2), on a grid."""
    x, y = np.meshgrid(GRID * sigma, GRID * sigma, indexing="ij")
    q = stats.norm.pdf(x, scale=sigma) * stats.norm.pdf(y, scale=sigma)
    p = sum(w * stats.norm.pdf(x, u[0], sigma) * stats.norm.pdf(y, u[1], sigma) for w, u in zip(pi, shifts))
    cell = (GRID[1] - GRID[0]) ** 2 * sigma ** 2
    return float(np.sum(np.maximum(p - alpha * q, 0)) * cell), float(np.sum(np.maximum(q - alpha * p, 0)) * cell)


@settings(max_examples=25, deadline=None)
@given(n=st.integers(2, 5), b=st.integers(2, 3), sigma=st.floats(0.6, 2.5), alpha=st.floats(1.0, 6.0),
       steps=st.lists(st.tuples(st.floats(0.0, 2.0), st.floats(0.0, 2 * np.pi)), min_size=3, max_size=3))
def test_the_collinear_copies_pair_dominates_any_shifts(n, b, sigma, alpha, steps):
    pi = stats.binom(b, 1.0 / n).pmf(np.arange(b + 1))
    shifts, u = [np.zeros(2)], np.zeros(2)
    for length, angle in steps[:b]:
        u = u + length * np.array([np.cos(angle), np.sin(angle)])
        shifts.append(u.copy())
    collinear = [np.array([2.0 * k, 0.0]) for k in range(b + 1)]
    got, worst = _hockey(pi, shifts, sigma, alpha), _hockey(pi, collinear, sigma, alpha)
    assert got[0] <= worst[0] + 1e-6 and got[1] <= worst[1] + 1e-6


@settings(max_examples=25, deadline=None)
@given(n=st.integers(2, 50), b=st.integers(1, 6), extra=st.integers(1, 4), sigma=st.floats(0.5, 3.0),
       alpha=st.floats(0.2, 8.0))
def test_the_copies_pair_grows_with_the_batch(n, b, extra, sigma, alpha):
    """theory.async_fl.as_run_privacy rounds batch sizes up: the copies pair of b draws is dominated by b' > b."""
    z = np.linspace(-12.0, 12.0 + 4 * (b + extra), 40001) * sigma
    q = stats.norm.pdf(z, scale=sigma)

    def profile(size):
        pi = stats.binom(size, 1.0 / n).pmf(np.arange(size + 1))
        p = sum(w * stats.norm.pdf(z, 2.0 * k, sigma) for k, w in enumerate(pi))
        dz = z[1] - z[0]
        return float(np.sum(np.maximum(p - alpha * q, 0)) * dz), float(np.sum(np.maximum(q - alpha * p, 0)) * dz)

    small, large = profile(b), profile(b + extra)
    assert small[0] <= large[0] + 1e-7 and small[1] <= large[1] + 1e-7
