"""Long runs (issue 33, item 1): T = 10^6 identical Poisson Gaussian steps, q = 1e-3, sigma = 1, delta = 1e-5.

Run: ``python -m bench bench_long_runs`` (splices its section into bench/RESULTS.md).

Rows: ``numerics.epsilon`` (the public entry: the dispatch table's route first, then numerics.pld's own
composition, coarser widths and the RDP bound; its note says which route answered), ``numerics.pld.
epsilon_pld`` alone (the route that answers this run: T identical steps are one characteristic function
raised to the power T, so the cost grows with the window, not with T), dp_accounting's PLD at its
default discretisation (pessimistic = its upper bound, optimistic = its lower estimate) and RDP, and
prv_accountant with eps_error chosen for a 0.1 % width. The peers' helpers are bench_pld's.

prv_accountant takes about 1000 s and 5 GB here: its row is the one measured by this bench on 2026-11-27
16:40 (PRV_KEPT, marked "kept" in the table) unless ``BENCH_LONG_PRV=1`` asks for a new run.
"""
from __future__ import annotations

import os
import resource
import sys

from bench.bench_pld import (MEMORY_CAP_BYTES, _dp_accounting_pld, _dp_accounting_rdp, _measure, _prv, _ratio,
                             _row, _table)

CASE = ([(1e-3, 1.0, 10 ** 6)], 1e-5, 1e-3)  # phases (q, sigma, steps), delta, target relative width
#: prv_accountant's row as this bench measured it (bench/RESULTS.md, run of 2026-11-27 16:40, same CASE)
PRV_KEPT = {"method": "prv_accountant eps_error=0.0024 (kept: run of 2026-11-27 16:40, timed under tracemalloc)",
            "low": 6.02343,
            "up": 6.02886, "seconds": 1056.76, "peak": 5072.0}


def _ours_public(phases, delta, target):
    import numerics
    from numerics import Phase, Schedule
    b = numerics.epsilon(Schedule(tuple(Phase(q, s, t) for q, s, t in phases)), delta, rel_width=target)
    _ours_public.note = b.details.get("note", "")
    return b.epsilon_lower, b.epsilon_upper


def _ours_pld(phases, delta, target):
    from numerics import Phase, Schedule
    from numerics.pld import epsilon_pld
    b = epsilon_pld(Schedule(tuple(Phase(q, s, t) for q, s, t in phases)), delta, rel_width=target)
    return b.epsilon_lower, b.epsilon_upper


def _timed(fn):
    """(result, wall seconds, peak MB) with the time of a run WITHOUT tracemalloc (it slows code with many
    small Python allocations, such as the enclosed one-step masses, several-fold) and the peak of a second,
    traced run; the CPU seconds of the untraced run go to _timed.cpu."""
    import time
    wall, cpu = time.perf_counter(), time.process_time()
    try:
        fn()
    except Exception:  # noqa: BLE001  (the traced run reports it)
        pass
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    _timed.cpu.append(cpu)
    out, _, peak = _measure(fn)
    return out, wall, peak


_timed.cpu = []


def run() -> str:
    phases, delta, target = CASE
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if soft == resource.RLIM_INFINITY or soft > MEMORY_CAP_BYTES:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP_BYTES, hard))
    name = "L1"
    _ours_public(phases, delta, 1e-1)  # imports and first-call set-up out of the timed runs
    _timed.cpu = []
    rows = [_row(name, "ours (numerics.pld.epsilon_pld)", *_timed(lambda: _ours_pld(phases, delta, target)), True),
            _row(name, "ours (numerics.epsilon, public entry)", *_timed(lambda: _ours_public(phases, delta, target)),
                 True),
            _row(name, "dp_accounting PLD 1e-4 (default)", *_timed(lambda: _dp_accounting_pld(phases, delta, 1e-4)),
                 True),
            _row(name, "dp_accounting RDP", *_timed(lambda: _dp_accounting_rdp(phases, delta)), False)]
    cpu = dict(zip((r["method"] for r in rows), _timed.cpu))
    if os.environ.get("BENCH_LONG_PRV") == "1":
        eps_error = 0.4 * target * rows[0].get("up", 6.0)  # bench_pld: measured width ~ 2.3 eps_error / eps
        rows.append(_row(name, f"prv_accountant eps_error={eps_error:.2g}",
                         *_measure(lambda: _prv(phases, delta, eps_error)), True))
    else:
        kept = PRV_KEPT
        rows.append(_row(name, kept["method"], (kept["low"], kept["up"]), kept["seconds"], kept["peak"], True))
    print(_table(rows), file=sys.stderr, flush=True)
    note = getattr(_ours_public, "note", "") or "(none: the first route tried answered at the requested width)"
    public = rows[1]
    return "\n".join([
        "## Long runs (bench_long_runs, issue 33)\n",
        "T = 10^6 identical Poisson Gaussian steps, q = 1e-3, sigma = 1, delta = 1e-5 (the run that used to exit "
        "with AccuracyNotReached). Same columns as bench_pld; wall times on the shared 2-core machine are noisy, "
        "compare ratios within this run.\n",
        f"- {name} {CASE[:2]}: {_ratio([public] + rows[2:], target)} (ours = the public entry)",
        f"- the public entry `numerics.epsilon` took {public['seconds']:.2f} s, numerics.pld alone "
        f"{rows[0]['seconds']:.2f} s (for runs whose coarsened window outgrows the grid budget the public entry "
        f"tries numerics.pld's composition first); its note: \"{note[:300]}\"",
        f"- against dp_accounting's PLD (an upper end only, {rows[2].get('up', float('nan')):.6g}; ours "
        f"{public.get('up', float('nan')):.6g}): ours / dp_accounting wall "
        f"{public['seconds'] / max(rows[2]['seconds'], 1e-9):.1f}x, CPU "
        f"{cpu[public['method']] / max(cpu[rows[2]['method']], 1e-9):.1f}x",
        "- CPU seconds of the same untraced runs (this process; the wall times of the table include waiting for "
        "the shared cores): " + "; ".join(f"{m} {c:.2f}" for m, c in cpu.items()),
        "- times: a run without tracemalloc; peak MB: a second, traced run (tracemalloc slows code with many small "
        "Python allocations several-fold)",
        "",
        _table(rows)])


if __name__ == "__main__":
    print(run())
