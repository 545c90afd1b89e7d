"""Seed 003 stage design: Algorithm 1's schedule is monotone; Table II's update equals theta Delta S unclamped."""
import math

from hypothesis import given
from hypothesis import strategies as st

from repro.edge_fl import stage_schedule


@given(eps0=st.floats(0.01, 5), sigma=st.floats(0.1, 100), b=st.integers(1, 256), L=st.floats(0.1, 100),
       tau=st.integers(0, 100), theta=st.floats(0.05, 0.95), ds0=st.floats(0.01, 1e3))
def test_schedule_monotone(eps0, sigma, b, L, tau, theta, ds0):
    st_ = stage_schedule(delta_s0_value=ds0, sigma=sigma, b=b, eps0=eps0, L=L, tau=tau, theta=theta, f_gap=1.0, n_stages=6)
    for a, c in zip(st_, st_[1:]):
        assert c.delta_s < a.delta_s and c.delta_b <= a.delta_b
        assert c.p >= a.p * (1 - 1e-12) and c.gamma <= a.gamma * (1 + 1e-12) and c.length >= a.length
        if not a.clamped:
            table2 = 2 * math.sqrt(2 * a.delta_b / (a.p * (tau + 1))) / b
            assert math.isclose(table2, theta * a.delta_s, rel_tol=1e-9)
