"""Benchmark of the opt-in cover accountant (issue 35; numerics.cover_accountant, docs/replace_one.md §7q).

Run: ``python -m bench bench_cover_accountant``. Fixed-size batches under replace-one against an adaptive adversary,
at the seeds' settings of bench_adaptive_game's CASES: the default accountant's bracket ([adaptive lower end,
symmetrised {S} upper end], numerics.accounting) beside the cover accountant's (the same lower end, the upper end
lowered to the cover's proven one where smaller), with the cover's wall seconds cold (an empty sweep cache) and warm
(the same query again). No peer library has a proven replace-one bound for fixed-size batches below {S}: the
comparison is with our own default route, in the same run.
"""
from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.bench_adaptive_game import CASES  # noqa: E402
from numerics import accounting  # noqa: E402
from numerics import cover_accountant as ca  # noqa: E402
from numerics.schedule import Phase, Schedule  # noqa: E402

#: case: cells per side (N); block (None: the accountant's default)
COVER = {"G6": (32, None), "G3": (48, None)}
#: left out of the default run: G3 (T 3663) takes tens of minutes cold
HEAVY = {"G3"}


def _schedule(name: str) -> Schedule:
    b, n, sigma, steps, *_ = CASES[name]
    return Schedule((Phase(q=b / n, sigma=sigma, steps=steps, sampling="fixed-size", batch_size=b,
                           dataset_size=n),), "replace-one")


def run_case(name: str) -> dict:
    *_, delta, source = CASES[name]
    n_cells, block = COVER[name]
    s = _schedule(name)
    t0 = time.perf_counter()
    base = accounting.epsilon(s, delta)
    base_s = time.perf_counter() - t0
    old = os.environ.get("DPV_CACHE_DIR")
    with tempfile.TemporaryDirectory(prefix="bench-cover-") as cache:
        os.environ["DPV_CACHE_DIR"] = cache
        try:
            t0 = time.perf_counter()
            cold = ca.epsilon(s, delta, n_cells=n_cells, block=block)
            cold_s = time.perf_counter() - t0
            t0 = time.perf_counter()
            warm = ca.epsilon(s, delta, n_cells=n_cells, block=block)
            warm_s = time.perf_counter() - t0
        finally:
            os.environ.pop("DPV_CACHE_DIR") if old is None else os.environ.__setitem__("DPV_CACHE_DIR", old)
    assert warm.details["cached"] and warm.epsilon_upper == cold.epsilon_upper
    return {"case": name, "source": source, "delta": delta, "base": base, "base_s": base_s, "cover": cold,
            "cold_s": cold_s, "warm_s": warm_s}


def _table(rows) -> str:
    lines = ["| case | setting | delta | default bracket (lower, {S} upper) | width | s | cover upper (N, blocks x m, h) "
             "| cover bracket | width | cold s (CPU s in the curve) | warm s |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        b, c, d = r["base"], r["cover"], r["cover"].details
        lines.append(
            f"| {r['case']} | {r['source']} | {r['delta']:.4g} | [{b.epsilon_lower:.6g}, {b.epsilon_upper:.6g}] | "
            f"{b.relative_width:.2%} | {r['base_s']:.1f} | {d['cover_upper']:.6g} ({d['cells']}, {d['blocks']} x "
            f"{d['block']}, {d['h']:.3g}) | [{c.epsilon_lower:.6g}, {c.epsilon_upper:.6g}] | {c.relative_width:.2%} | "
            f"{r['cold_s']:.0f} ({d['cpu_seconds']:.0f}) | {r['warm_s']:.1f} |")
    return "\n".join(lines)


def run(cases=None) -> str:
    rows = [run_case(c) for c in (cases or [c for c in COVER if c not in HEAVY])]
    return ("## The cover accountant (bench_cover_accountant, issue 35, docs/replace_one.md section 7q)\n\n"
            "Fixed-size batches under replace-one, adaptive adversary: `dpverify epsilon --method cover` against the "
            "default route. Both upper ends are proven; the cover's is the game over Theorem C''s menu through blocks "
            "(Lemma B). Cold: an empty sweep cache (Lemma C's slack rows and the corner grids on the local Dask "
            "cluster, 2 workers); warm: the same query again (the lower end is recomputed, the cover curve read).\n\n"
            + _table(rows) + "\n")
