"""Seed 004's MNIST experiments (Table 2 analogue, Fig. 6 analogue) as data and one run per sweep point.

Paper settings come from :mod:`theory.dp_fed_ls.paper_values` (Sec. 6.1, L310); what we change for CPU scale
(real MNIST-5k instead of 60k: 800 clients of 5 images so that S = tau N = 40 clients a round, close to the
paper's 50; batch 5 for 5-image clients) is stated in :data:`CHANGES`. The figure scripts
(``figures/table_004_2.py``, ``figures/fig_004_6.py``) sweep these; the claims of
:mod:`theory.dp_fed_ls.figures` read the CSVs they write. The runs use the closed-form noise alone
(:mod:`theory.dp_fed_ls.noise_formula`); their certified epsilon is :mod:`theory.dp_fed_ls.run_privacy`'s, so
the runs' sweep cache is not keyed by the accountant (``numerics.sweep.closure``).
"""
from __future__ import annotations

from repro import data, fed_ls
from theory.dp_fed_ls import noise_formula as nf
from theory.dp_fed_ls.paper_values import SETTINGS

_S = SETTINGS["mnist-uniform"]
#: the fraction of clients a round (L310)
TAU = _S["tau"].value
_TR = SETTINGS["mnist-training"]
#: clients over the 4000 MNIST-5k training images (paper: 1000 uniform / 500 Poisson over 50k)
CLIENTS = 800
#: local batch size for 5-image clients (paper: 10 for 50-image clients)
BATCH = 5
LOCAL_EPOCHS = int(_TR["local_epochs"].value)
CHANGES = (f"{CLIENTS} IID clients of 5 images (paper: 1000 of 50 / 500 of 100), b = {BATCH} (paper: 10); "
           f"tau, T, E, clip, learning rate, decay and weight decay as the paper (L310); the server divides by the "
           f"fixed tau N; parameters flattened in PyTorch order")


def config(sampling: str, rounds: int) -> fed_ls.FedConfig:
    return fed_ls.FedConfig(clients=CLIENTS, tau=TAU, rounds=rounds, local_epochs=LOCAL_EPOCHS,
                            batch=BATCH, clip=_S["clip"].value, lr=_TR["lr"].value, lr_decay=_TR["lr_decay"].value,
                            weight_decay=_TR["weight_decay"].value, sampling=sampling)


def _mnist():
    ds = data.load("mnist-5k", seed=0)
    return ds, data.partition_iid(len(ds.y_train), CLIENTS, seed=0)


def closed_form_nu1(eps: float, sampling: str, rounds: int):
    """Theorem 1 (uniform) or Theorem 2 (Poisson) noise per unit clip at our setting; None if infeasible."""
    s = nf.UNIFORM if sampling == "uniform" else nf.POISSON
    found = nf.closed_form_noise(eps, nf.delta_of(CLIENTS), TAU, rounds, s)
    return None if found is None else found[0]


def run_point(eps: float, sigma: float, sampling: str, seed: int, rounds: int) -> dict:
    """Final test accuracy of one run (smoothing ``sigma``) at the closed-form noise (its epsilon: :func:`theory.dp_fed_ls.run_privacy.run_epsilon`)."""
    nu1 = closed_form_nu1(eps, sampling, rounds)
    if nu1 is None:
        return {"feasible": False}
    ds, shards = _mnist()
    cfg = config(sampling, rounds)
    r = fed_ls.train(ds.x_train, ds.y_train, ds.x_test, ds.y_test, shards, cfg, nu=nu1 * cfg.clip, ls_sigma=sigma,
                     seed=seed)
    return {"feasible": True, "accuracy": r["final_accuracy"], "nu_over_clip": nu1}


#: Fig. 6 analogue arms: (private?, smoothing sigma), uniform sampling at eps = MIA_EPS
MIA_ARMS = {"non-DP": (False, 0.0), "DP-Fed": (True, 0.0), "DP-Fed-LS": (True, 1.0)}
MIA_EPS = 6.0


def mia_auc(arm: str, seed: int, rounds: int) -> float:
    """Loss-threshold membership AUC (Mann-Whitney U / (n1 n2)) of members (training images) against non-members."""
    from scipy.stats import mannwhitneyu

    private, sigma = MIA_ARMS[arm]
    nu1 = closed_form_nu1(MIA_EPS, "uniform", rounds) if private else 0.0
    ds, shards = _mnist()
    cfg = config("uniform", rounds)
    w = fed_ls.train(ds.x_train, ds.y_train, ds.x_test, ds.y_test, shards, cfg, nu=nu1 * cfg.clip, ls_sigma=sigma,
                     seed=seed)["weights"]
    members = -fed_ls.per_example_loss(w, ds.x_train, ds.y_train)        # low loss = "member"
    others = -fed_ls.per_example_loss(w, ds.x_test, ds.y_test)
    return float(mannwhitneyu(members, others).statistic / (len(members) * len(others)))
