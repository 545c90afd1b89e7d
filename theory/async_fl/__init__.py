"""Seed 000: asynchronous FL with increasing sample sizes and DP (000_d613b97385d90362.txt).

One submodule per concept holding all of this paper's claims; they register on import and
:func:`theory.ledger.load_all` finds them by a scan of theory/ (no list to edit). Printed numbers live in
:mod:`theory.async_fl.paper_values`; results shared with other papers in :mod:`theory.lemmas`.
"""

#: the paper as the report names it (seed file L1, L3-4)
TITLE = ("Asynchronous Federated Learning with Reduced Number of Rounds and with Differential Privacy from "
         "Less Aggregated Gaussian Noise")
AUTHORS = "Marten van Dijk, Nhuong V. Nguyen, Toan N. Nguyen, Lam M. Nguyen, Quoc Tran-Dinh, Phuong Ha Nguyen"
SEED = "000_d613b97385d90362.txt"
import importlib  # noqa: E402

#: the issue's public entry point theory.async_fl.r0(sigma, p), served on first use so that importing one
#: submodule (runs, paper_values) runs no other claim module (numerics.sweep.closure reads this table)
_EXPORTS = {"r0": "r0_sigma"}


def __getattr__(name):
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{_EXPORTS[name]}"), name)
