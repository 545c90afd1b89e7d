"""Seed 004: recompute the verdicts' key numbers independently (the ledger test runs every claim)."""
import math

import numpy as np
import pytest

from numerics.errors import InvalidParameter
from theory.dp_fed_ls import closed_form as cf
from theory.dp_fed_ls import inventory, tables, wbk
from theory import ledger


def test_eq21_counterexample_by_plain_floats():
    nu2 = ledger.get("004.eq-21.region").evaluate().counterexample["nu2"]
    assert math.exp(1 / nu2) > 3.5 / nu2 and nu2 >= 5 / 9


def test_eq16_threshold_below_two_thirds_by_scipy():
    from scipy.optimize import brentq
    x = brentq(lambda t: math.exp(t) - 3 * t, 1.4, 1.6)
    assert 1 / x < 2 / 3 and abs(1 / x - 0.6613168113) < 1e-9


@pytest.mark.peers
def test_wbk_theorem27_matches_dp_accounting():
    from dp_accounting.rdp import rdp_privacy_accountant as rdp
    for q, z, a in ((0.05, 1.5, 4), (0.2, 1.0, 2), (0.05, 0.75, 7)):
        ours = float(wbk.log_moment_int(q, z, a, variant="theorem-27")) / (a - 1)
        peer = rdp._compute_rdp_sample_wor_gaussian(q, z, [a])[0]
        assert ours == pytest.approx(peer, rel=1e-9)


def test_wbk_fast_matches_mpmath():
    for a in (2, 5, 17):
        assert wbk.log_moment_int_fast(0.05, 1.3, a) == pytest.approx(float(wbk.log_moment_int(0.05, 1.3, a)), rel=1e-10)


def test_lemma7_young_counterexample():
    cx = ledger.get("004.lemma-7.young-step").evaluate().counterexample
    assert cx["lhs"] > cx["rhs"]


def test_table3_ls_counterexample_cell():
    cx = ledger.get("004.table-3.ls-beats-every-cell").evaluate().counterexample
    sigma, col = cx["cells_sigma_column"][0]
    from theory.dp_fed_ls.paper_values import TABLES
    assert TABLES[3]["rows"][sigma][col].value <= TABLES[3]["rows"][0.0][col].value


def test_uniform_certified_counterexample_is_the_realizable_pair_recomputed():
    """The refuted printed uniform epsilons: recompute the fixed-order realizable pair (others at -L e_1, the
    replaced client +L e_1 -> -L e_1, i.e. (1-tau)N(0,z^2) + tau N(2, z^2) against N(0, z^2), and its swap) by an
    independent code path, numerics.pld: that pair in both orders is exactly the Poisson add/remove pair at noise
    multiplier z/2, whose certified delta LOWER bound at the printed epsilon exceeds the target delta."""
    from numerics.pld import delta_pld
    from numerics.schedule import Schedule
    for table in (3, 4, 6):
        v = ledger.get(f"004.table-{table}.uniform-certified").evaluate()
        assert v.status == "refuted" and v.margin < 0
        cx, st = v.counterexample, tables.setting(table)
        # the same pair is the Poisson add/remove pair at noise multiplier z/2 (shift 2 in units of z)
        d = delta_pld(Schedule.constant(q=st["tau"], sigma=cx["z"] / 2, steps=st["rounds"]), float(cx["printed"]))
        assert d.delta_lower > st["delta"]


def test_closed_form_conditions_hold_at_its_noise():
    st = cf.mnist_setting(cf.UNIFORM)
    nu1, lam, _ = cf.closed_form_noise(6.0, st["delta"], st["tau"], st["rounds"], cf.UNIFORM)
    assert cf.conditions_hold(nu1, lam, 6.0, st["delta"], st["tau"], cf.UNIFORM)
    assert cf.closed_form_noise(5.0, st["delta"], st["tau"], st["rounds"], cf.UNIFORM) is None


def test_inventory_claims_exist_and_nothing_uncovered():
    ids = {c.id for c in ledger.load_all()}
    for item in inventory.ITEMS:
        assert set(item.claims) <= ids, item.label
        assert item.coverage != "uncovered", item.label


def test_ls_solve_bad_sigma_is_one_line():
    from repro.smoothing import ls_solve
    with pytest.raises(InvalidParameter):
        ls_solve(np.zeros(3), -1.0)


def test_table1_factor_counterexample():
    cx = ledger.get("004.table-1.nonconvex-curvature-factor").evaluate().counterexample
    s = cx["sigma"]
    assert 1 + 4 * s * s < 1 + 4 * s and cx["table1_factor"] == 1 + 4 * s * s


def test_remark3_threshold_by_floats():
    assert math.sqrt(8 / 3) < 8 / 3 and abs(math.sqrt(8 / 3) ** 2 / 4 - 2 / 3) < 1e-15


def test_lemma9_poisson_exact_variance_by_monte_carlo():
    rng = np.random.default_rng(0)
    xs = np.array([3, -1, 4, 1, -5, 9], float)
    m = rng.random((400_000, 6)) < 0.5
    m = m[m.any(axis=1)]                                   # conditioned on a non-empty subset, as the claim
    means = (m * xs).sum(axis=1) / m.sum(axis=1)
    v = ledger.get("004.lemma-9.poisson").evaluate().evidence["exact_variance_poisson"]
    assert abs(np.mean((means - xs.mean()) ** 2) - v) < 0.02 * v


def test_certified_schedule_is_fixed_size_replace_one_never_poisson():
    from theory.dp_fed_ls import certified
    s = certified.schedule("uniform", 2000, 0.05, 1.1, 200)
    assert s.adjacency == "replace-one" and s.phases[0].sampling == "fixed-size" and s.phases[0].batch_size == 100
    with pytest.raises(InvalidParameter):
        certified.schedule("uniform", 999, 0.05, 1.1, 10)           # tau N not a whole number of clients
    with pytest.raises(InvalidParameter):
        certified.schedule("shuffle", 1000, 0.05, 1.1, 10)


def test_theorem_1_noise_certified_below_target_by_numerics_epsilon():
    """004.thm-1.certified-at-table-2 recomputed through the public entry point numerics.epsilon."""
    import numerics
    from numerics.schedule import Phase, Schedule
    st = cf.mnist_setting(cf.UNIFORM)
    for eps in (6.0, 9.0):
        nu1 = cf.closed_form_noise(eps, st["delta"], st["tau"], st["rounds"], cf.UNIFORM)[0]
        phase = Phase.fixed_size(batch_size=round(st["tau"] * st["n"]), dataset_size=st["n"], sigma=nu1,
                                 steps=st["rounds"])
        b = numerics.epsilon(Schedule((phase,), adjacency="replace-one"), st["delta"])
        assert b.epsilon_lower <= b.epsilon_upper < eps
    assert ledger.get("004.thm-1.certified-at-table-2").evaluate().status == "holds"


def test_table5_caption_uniform_budget_below_realizable_pair():
    v = ledger.get("004.table-5.caption-certified").evaluate()
    cx = v.counterexample
    assert v.status == "refuted" and float(cx["printed"]) < cx["realizable_pair_epsilon"]
    poisson = next(r for r in v.evidence["rows"] if r["column"] == "poisson")
    assert poisson["upper"] <= float(poisson["printed"])             # the Poisson budget itself is conservative
