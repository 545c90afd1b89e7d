"""Seed 000 Fig 3: number of communication rounds per sampling method (pure counting, no training).

Run: ``make fig-000-3``. Paper: 000_d613b97385d90362.txt Fig 3 (L1871), methods L1885-L1891
(s_i = a i^c + b and s_i = a i/ln i + b with a = 50, b = 0, K = 20000 total iterations, 5 clients);
stated outcome L1893: O(i) with c = 1 and O(i/ln i) give fewer rounds than the other settings.
Rounds count until the sizes ceil(s_i) sum to K, from i = 0 (i/ln i from i = 2, undefined at i = 1).
"""
from __future__ import annotations

import numpy as np

from theory.async_fl import runs as R
from theory.async_fl.runs import rounds_per_method

from . import common

NAME = "fig_000_3"
TOTAL = 20_000  # 000 L1893


def main(argv=None) -> None:
    args = common.parse_args(argv, __doc__)
    sizes = rounds_per_method(TOTAL)
    fig, (ax1, ax2) = common.figure_axes(2)
    labels = list(sizes)
    ax1.bar(labels, [len(sizes[k]) for k in labels])
    ax1.set_ylabel("communication rounds to K = 20000")
    ax1.set_title("rounds per sampling method (a = 50, b = 0)", fontsize=9)
    for k in labels:
        ax2.plot(np.cumsum(sizes[k]), label=k)
    ax2.set_xlabel("round")
    ax2.set_ylabel("iterations done")
    common.style.legend_below(ax2, ncol=2)
    ax1.tick_params(axis="x", labelrotation=30)
    rows = [{"method": k, "round": i, "size": s, "cumulative": int(c)}
            for k in labels for i, (s, c) in enumerate(zip(sizes[k], np.cumsum(sizes[k])))]
    cap = common.caption(
        figure="000 Fig 3: communication rounds by sampling method",
        paper="000_d613b97385d90362.txt L1871, L1885-L1893",
        changes="none (exact counting); integer sizes ceil(s_i); i/ln i starts at i = 2",
        stated="O(i) with c = 1 and O(i/ln i) give fewer communication rounds than the other settings (L1893)",
        ours="rounds: " + ", ".join(f"{k} {len(sizes[k])}" for k in labels), epsilon=common.NO_DP,
        quick=args.quick)
    common.write_outputs(args.out, NAME, rows, cap, fig, config={"total": TOTAL, "methods": R.SAMPLING_METHODS})


if __name__ == "__main__":
    import sys
    main(sys.argv[1:])
