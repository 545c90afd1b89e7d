"""Seed 001 Fig. 3 (Case II): accuracy against simulated wall-clock when one learner is 10X slower.

Run: ``make fig-001-3`` or ``python -m figures.run fig-001-3 --quick``.
Paper: 001_53c39e87fd81b1a8.txt Case II (L249-251), Figs. 3, 6, 7 (L260, L361, L363): medium noise.
Stated: "ADPSGD runs significantly faster than SYNC due to its asynchronous nature" (L260).
"""
from __future__ import annotations

from . import common
from .decentralized_straggler import straggler_figure


def main(argv=None) -> None:
    args = common.parse_args(argv, __doc__)
    straggler_figure(args, name="fig_001_3", straggler="one10x",
                     figure="001 Fig. 3: Case II, one learner 10X slower, sigma = 2",
                     paper="001_53c39e87fd81b1a8.txt L249-251, L260, L361-365, L372",
                     stated="ADPSGD runs significantly faster than SYNC (L260)",
                     paper_note="paper: ADPSGD significantly faster than SYNC (L260); no factor printed")


if __name__ == "__main__":
    import sys
    main(sys.argv[1:])
