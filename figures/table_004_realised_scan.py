"""Seed 004, Algorithm 1 with the realised denominator |S_t| over Theorem 2's range (run: `make
table-004-realised-scan`); see figures/table_004_realised.py."""
from figures.table_004_realised import main_for


def main(argv=None):
    main_for("scan", "table_004_realised_scan", argv)
