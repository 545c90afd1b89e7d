"""Hypothesis strategies shared by every test, so the suite speaks one domain (STYLE 9)."""
from hypothesis import strategies as st

from numerics.schedule import Phase, Schedule

q_rates = st.floats(min_value=1e-4, max_value=1.0, allow_nan=False)
small_q_rates = st.floats(min_value=1e-4, max_value=0.2, allow_nan=False)
sigmas = st.floats(min_value=0.5, max_value=100.0, allow_nan=False)
moderate_sigmas = st.floats(min_value=0.6, max_value=10.0, allow_nan=False)
step_counts = st.integers(min_value=1, max_value=10_000)
deltas = st.floats(min_value=1e-10, max_value=0.1, allow_nan=False)
integer_orders = st.integers(min_value=2, max_value=400)
fractional_orders = st.floats(min_value=1.05, max_value=200.0, allow_nan=False)

phases = st.builds(Phase, q=small_q_rates, sigma=moderate_sigmas, steps=st.integers(1, 2000))
schedules = st.lists(phases, min_size=1, max_size=3).map(lambda ps: Schedule(tuple(ps)))
