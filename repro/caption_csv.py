"""Reading the figures' CSV format: ``# key: value`` caption lines, then a header row and data rows.

``figures.common.write_outputs`` writes it; the figure scripts' tests and the figure claims
(``theory/<paper>/figures.py``) read it back. The reader lives here, below both, because ``theory`` must
not import ``figures``.
"""
from __future__ import annotations

import csv


def read_csv(path) -> tuple[dict, list[dict]]:
    """The caption (``key -> value``) and the rows (``column -> str``) of a captioned CSV."""
    meta, lines = {}, []
    with open(path) as fh:
        for line in fh:
            if line.startswith("# "):
                k, _, v = line[2:].partition(": ")
                meta[k] = v.rstrip("\n")
            else:
                lines.append(line)
    return meta, list(csv.DictReader(lines))
