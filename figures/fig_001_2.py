"""Seed 001 Fig. 2 (Case I): accuracy against simulated wall-clock when a random learner is 2X slower.

Run: ``make fig-001-2`` or ``python -m figures.run fig-001-2 --quick``.
Paper: 001_53c39e87fd81b1a8.txt Case I (L242-244), Fig. 2 (L258): medium noise (sigma = 2).
Stated: SYNC slows down by a factor of 2, ADPSGD remains largely undisturbed (L244).
"""
from __future__ import annotations

from . import common
from .decentralized_straggler import straggler_figure


def main(argv=None) -> None:
    args = common.parse_args(argv, __doc__)
    straggler_figure(args, name="fig_001_2", straggler="random2x",
                     figure="001 Fig. 2: Case I, a random learner 2X slower each iteration, sigma = 2",
                     paper="001_53c39e87fd81b1a8.txt L242-244, L258, L372",
                     stated="in SYNC the whole system slows down by a factor of 2; ADPSGD remains largely undisturbed (L244)",
                     paper_note="paper: SYNC slows down by a factor of 2, ADPSGD largely undisturbed (L244)")


if __name__ == "__main__":
    import sys
    main(sys.argv[1:])
