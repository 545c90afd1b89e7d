"""Seed 002 Table 8 regenerated (run: `make table-002-8` or `python -m figures.run table-002-8 [--quick]`).

Writes figures/out/table_002_8.csv and .md; see figures/tables_002.py for what each column is.
"""
from figures.tables_002 import main_for


def main(argv=None):
    main_for(8, argv)
