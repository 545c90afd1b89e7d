"""Seed 002's T ~ 2k^2/eps and "(6) is close to tight" statements (theory/proactive_dp/tightness_text.py)."""
import math

from theory.ledger import get
from theory.proactive_dp import gamma as G


def test_t_about_2k2_counterexample_gamma_far_from_2():
    # recompute gamma of (55) at the counterexample's (sigma, eps/k) by an independent root find of gamma = RHS(eps/(gamma k))
    cx = get("002.thm-3.1.T-about-2k2-over-eps").evaluate().counterexample
    assert cx["epsilon"] < 0.5
    gam = G.gamma_min(cx["epsilon"] / cx["k"], cx["sigma"])
    assert gam / 2 - 1 > 0.1
    assert math.isclose(gam, cx["gamma"], rel_tol=1e-12)


def test_eq6_not_close_to_tight_recomputed():
    from numerics.certified import certified_epsilon
    from numerics.schedule import Schedule

    cx = get("002.thm-3.1.eq6-close-to-tight").evaluate().counterexample
    eps6 = 2 * math.log(1 / cx["delta"]) / (cx["sigma"] ** 2 - 2)  # (6) solved for eps (L1580)
    assert math.isclose(eps6, cx["epsilon_6"], rel_tol=1e-12)
    b = certified_epsilon(Schedule.constant(q=cx["q"], sigma=cx["sigma"], steps=cx["rounds"]), cx["delta"])
    assert 2 * b["epsilon_upper"] < eps6


def test_2k2_rounds_suffice_at_the_tables():
    v = get("002.abstract.T-2k2-suffices").evaluate()
    assert v.status == "holds"
    assert all(r["epsilon_upper"] <= r["epsilon"] for r in v.evidence["rows"])
