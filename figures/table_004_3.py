"""Seed 004 Table 3, privacy columns re-accounted (run: `make table-004-3`); see figures/tables_004.py."""
from figures.tables_004 import main_for


def main(argv=None):
    main_for(3, argv)
