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


# --- seed 002 Lemma B.3 (helper s002-proofs) --------------------------------------------------------
@st.composite
def lemma_b3_points(draw, lam_cap: int = 300):
    """(lam, sigma, q, r0) inside seed 002 Lemma B.3's hypothesis region (u_j = U_j(lam))."""
    from hypothesis import assume

    from theory.proactive_dp.lemma_b3 import lam_max_admissible

    sigma = draw(st.floats(min_value=1.01, max_value=100.0, allow_nan=False))
    r0 = draw(st.floats(min_value=1e-4, max_value=0.95, allow_nan=False))
    frac = draw(st.floats(min_value=1e-3, max_value=1.0, allow_nan=False))
    q = frac * r0 / sigma * (1 - 1e-12)
    top = min(lam_max_admissible(sigma, q, r0), lam_cap)
    assume(top >= 1)
    lam = draw(st.integers(min_value=1, max_value=top))
    return lam, sigma, q, r0


# --- invalid inputs (helper cli): values every validator must reject ---------------------------------
_nan = st.just(float("nan"))
invalid_q_rates = st.one_of(st.floats(max_value=0.0), st.floats(min_value=1.0, exclude_min=True), _nan)
invalid_sigmas = st.one_of(st.floats(max_value=0.0), st.just(float("inf")), _nan)
invalid_deltas = st.one_of(st.floats(max_value=0.0), st.floats(min_value=1.0), _nan)
invalid_steps = st.one_of(st.integers(max_value=0),
                          st.floats(allow_nan=True).filter(lambda x: not (x == x and x.is_integer() and x >= 1)))


# --- soundness of the RDP / GDP accountants against the certified PLD (reviewer review-numerics) ------
#: small heterogeneous schedules in either adjacency (1-2 phases, <= 300 steps each): cheap for the PLD
small_schedules = st.builds(
    lambda ps, adjacency: Schedule(tuple(ps), adjacency),
    st.lists(st.builds(Phase, q=small_q_rates, sigma=moderate_sigmas, steps=st.integers(1, 300)),
             min_size=1, max_size=2),
    st.sampled_from(["add-remove", "replace-one"]))

# numerics.pld: deltas whose certified epsilon the PLD reaches at 1 % width without hitting the FFT's
# double-precision noise floor (below ~1e-9 the per-entry FFT noise is comparable to delta; the accountant
# then raises AccuracyNotReached rather than return a wide bracket)
pld_deltas = st.floats(min_value=1e-8, max_value=0.1, allow_nan=False)
