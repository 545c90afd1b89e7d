"""Seed 002 Table 10 regenerated (run: `make table-002-10` or `python -m figures.run table-002-10 [--quick]`).

Writes figures/out/table_002_10.csv and .md; see figures/tables_002.py for what each column is.
"""
from figures.tables_002 import main_for


def main(argv=None):
    main_for(10, argv)
