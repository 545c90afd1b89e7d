"""Seed 004 Table 6, privacy columns re-accounted (run: `make table-004-6`); see figures/tables_004.py."""
from figures.tables_004 import main_for


def main(argv=None):
    main_for(6, argv)
