"""One DP-Fed / DP-Fed-LS training run per sweep point, shared by table-004-2 and fig-004-6 (kept apart from the
plotting code so that editing a figure script does not invalidate the sweep cache of these runs)."""
from __future__ import annotations

from repro import data, fed_ls
from theory.dp_fed_ls import closed_form as cf

#: 800 clients of 5 images: S = tau N = 40 clients a round (paper: 50), the ratio that sets noise/S
CLIENTS = 800
BATCH, LOCAL_EPOCHS = 5, 5


def run_point(eps: float, sigma: float, sampling: str, seed: int, rounds: int) -> dict:
    """Final test accuracy of one run at the closed-form noise of Theorem 1 (uniform) or 2 (Poisson), and the
    certified epsilon of the sampling it used."""
    ds = data.load("mnist-5k", seed=0)
    shards = data.partition_iid(len(ds.y_train), CLIENTS, seed=0)
    cfg = fed_ls.FedConfig(clients=CLIENTS, rounds=rounds, sampling=sampling, batch=BATCH, local_epochs=LOCAL_EPOCHS)
    s = cf.UNIFORM if sampling == "uniform" else cf.POISSON
    delta = cf.delta_of(CLIENTS)
    found = cf.closed_form_noise(eps, delta, cfg.tau, rounds, s)
    if found is None:
        return {"feasible": False}
    nu1 = found[0]
    r = fed_ls.train(ds.x_train, ds.y_train, ds.x_test, ds.y_test, shards, cfg, nu=nu1 * cfg.clip, ls_sigma=sigma, seed=seed)
    return {"feasible": True, "accuracy": r["final_accuracy"], "nu_over_clip": nu1,
            "certified_eps": cf.certified_epsilon(nu1, cfg.tau, rounds, delta, s)}
