"""Seed 002 Table 6 regenerated (run: `make table-002-6` or `python -m figures.run table-002-6 [--quick]`).

Writes figures/out/table_002_6.csv and .md; see figures/tables_002.py for what each column is.
"""
from figures.tables_002 import main_for


def main(argv=None):
    main_for(6, argv)
