"""Replays of the seed papers' derivations and the claims ledger (see theory.ledger)."""
