"""Seed 000: asynchronous FL with increasing sample sizes and DP (000_d613b97385d90362.txt).

One submodule per concept; claims register on import (see theory.ledger.CLAIM_MODULES).
"""
from .r0_sigma import r0  # noqa: E402,F401  (the issue's public entry point theory.async_fl.r0(sigma, p))
