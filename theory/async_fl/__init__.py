"""Seed 000: asynchronous FL with increasing sample sizes and DP (000_d613b97385d90362.txt).

One submodule per concept; claims register on import (see theory.ledger.CLAIM_MODULES).
"""
