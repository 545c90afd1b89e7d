"""Seed 004 simulator and figure scripts: determinism, bad input, quick runs."""
import importlib

import numpy as np
import pytest

from figures import common
from numerics.errors import InvalidParameter
from repro import fed_ls


def _tiny():
    rng = np.random.default_rng(0)
    x = rng.random((200, 6))
    y = (x[:, 0] > 0.5).astype(int) + (x[:, 1] > 0.5).astype(int)
    shards = np.array_split(np.arange(200), 20)
    return x, y, shards


def test_fed_ls_is_deterministic_and_smoothing_changes_the_run():
    x, y, shards = _tiny()
    cfg = fed_ls.FedConfig(clients=20, tau=0.25, rounds=3, local_epochs=1, batch=5, clip=0.3, lr=0.1, lr_decay=0.99,
                           weight_decay=0.0)
    a = fed_ls.train(x, y, x, y, shards, cfg, nu=0.5, ls_sigma=1.0, seed=3)
    b = fed_ls.train(x, y, x, y, shards, cfg, nu=0.5, ls_sigma=1.0, seed=3)
    c = fed_ls.train(x, y, x, y, shards, cfg, nu=0.5, ls_sigma=0.0, seed=3)
    assert a["curve"] == b["curve"] and np.array_equal(a["weights"], b["weights"])
    assert a["curve"] != c["curve"]


def test_fed_ls_rejects_unknown_sampling():
    with pytest.raises(InvalidParameter):
        fed_ls.FedConfig(clients=2, tau=0.5, rounds=1, local_epochs=1, batch=1, clip=1.0, lr=0.1, lr_decay=1.0,
                         weight_decay=0.0, sampling="shuffle")


@pytest.mark.parametrize("name", ["fig_004_s15", "fig_004_s14"])
def test_figure_quick(name, tmp_path):
    importlib.import_module(f"figures.{name}").main(["--quick", "--out", str(tmp_path)])
    meta, rows = common.read_csv(tmp_path / f"{name}.csv")
    assert rows and (tmp_path / f"{name}.png").stat().st_size > 1000
    assert meta["setting"].startswith("quick")
