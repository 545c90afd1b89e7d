"""Seed 002 Table 7 regenerated (run: `make table-002-7` or `python -m figures.run table-002-7 [--quick]`).

Writes figures/out/table_002_7.csv and .md; see figures/tables_002.py for what each column is.
"""
from figures.tables_002 import main_for


def main(argv=None):
    main_for(7, argv)
