"""Seed 001 simulator (repro.decentralized) and figure scripts: determinism, the protocol's invariants,
and the quick settings of fig_001_1..3 and table_001_1."""
import importlib

import pytest

from figures import common
from numerics.errors import InvalidParameter
from repro import decentralized_experiments as X
from repro.decentralized import DecentralizedConfig, simulate

TINY = {"learners": 4, "batch": 16, "epochs": 0.25, "evals_per_epoch": 4}


def test_runs_are_deterministic():
    a = simulate(DecentralizedConfig(algorithm="adpsgd", sigma=1.0, seed=3, **TINY))
    b = simulate(DecentralizedConfig(algorithm="adpsgd", sigma=1.0, seed=3, **TINY))
    assert a["curve"] == b["curve"] and a["steps_per_learner"] == b["steps_per_learner"]


def test_straggler_cases_shape_the_clock_and_the_work():
    one = simulate(DecentralizedConfig(algorithm="adpsgd", straggler="one10x", **TINY))
    steps = one["steps_per_learner"]
    assert steps[0] * 5 < min(steps[1:])                       # the 10x learner does about a tenth of the work
    sync = simulate(DecentralizedConfig(algorithm="sync", straggler="random2x", **TINY))
    rounds = sync["steps_per_learner"][0]
    assert sync["end_time"] == 2.0 * rounds                    # Case I: every SYNC round waits for a 2x learner
    assert len(set(sync["steps_per_learner"])) == 1


def test_total_minibatches_and_epochs():
    r = simulate(DecentralizedConfig(algorithm="adpsgd", **TINY))
    assert sum(r["steps_per_learner"]) == r["curve"][-1]["minibatches"]
    assert r["curve"][-1]["epoch"] >= TINY["epochs"] - 1e-9


@pytest.mark.parametrize("bad", [{"algorithm": "async"}, {"learners": 3}, {"straggler": "slow"}, {"sigma": -1.0}])
def test_bad_configs_raise_one_line(bad):
    with pytest.raises(InvalidParameter):
        DecentralizedConfig(**{**TINY, **bad})


def test_tost_and_welch_on_degenerate_and_clear_samples():
    assert X.welch_greater([0.5, 0.5], [0.1, 0.1]) == 0.0
    assert X.tost([0.80, 0.81, 0.80], [0.80, 0.80, 0.81], 0.05)["equivalent"]
    assert not X.tost([0.9, 0.91, 0.9], [0.5, 0.51, 0.5], 0.05)["equivalent"]


@pytest.mark.parametrize("name", [pytest.param("fig_001_2", marks=pytest.mark.slow), "table_001_1"])
def test_figure_script_quick(name, tmp_path):
    importlib.import_module(f"figures.{name}").main(["--quick", "--out", str(tmp_path)])
    meta, rows = common.read_csv(tmp_path / f"{name}.csv")
    assert rows and meta["setting"].startswith("quick")
    assert all(meta[k].strip() for k in ("paper", "changes", "stated", "ours"))
    if name.startswith("fig"):
        assert (tmp_path / f"{name}.png").stat().st_size > 1000
    else:
        assert {"eps_fixed_lower", "eps_fixed_upper", "eps_fixed_upper_wbk", "eps_poisson_what_if_upper"} <= set(rows[0])
