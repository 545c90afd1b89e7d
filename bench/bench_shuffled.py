"""Shuffled batches beside Poisson and fixed-size for the same B/N (issue 33, item 8).

Run: ``python -m bench bench_shuffled`` (splices its section into bench/RESULTS.md).

Every row is ``numerics.epsilon`` under replace-one (the one relation numerics.shuffled proves its bound
for) at delta = 1e-5, sigma = 1, B = 256 of N = 60000, for 1 and 10 epochs (ceil(N/B) = 235 steps each;
Poisson runs the same number of steps at q = B/N). The shuffled row is a certified bracket whose width is
the open gap between the proven upper bound (one Gaussian per epoch) and the realizable lower bound
(max-of-batch test); the other two are accountants refined to the default width.
"""
from __future__ import annotations

import sys

from bench.bench_pld import _measure, _row, _table

B, N, SIGMA, DELTA = 256, 60000, 1.0, 1e-5
EPOCHS = (1, 10)


def _eps(sampling: str, steps: int):
    import numerics
    from numerics import Phase, Schedule
    q = B / N if sampling == "poisson" else None  # fixed-size and shuffled take q from B and N
    phase = Phase(q, SIGMA, steps, sampling, batch_size=B, dataset_size=N)
    b = numerics.epsilon(Schedule((phase,), "replace-one"), DELTA)
    return b.epsilon_lower, b.epsilon_upper


def run() -> str:
    k = -(-N // B)
    rows = []
    for epochs in EPOCHS:
        steps = epochs * k
        name = f"{epochs} epoch{'s' if epochs > 1 else ''} ({steps} steps)"
        for sampling in ("poisson", "fixed-size", "shuffled"):
            rows.append(_row(name, f"{sampling} (numerics.epsilon)", *_measure(lambda: _eps(sampling, steps)), True))
    print(_table(rows), file=sys.stderr, flush=True)
    return "\n".join([
        "## Shuffled batches beside Poisson and fixed-size (bench_shuffled, issue 33)\n",
        f"B = {B} of N = {N}, sigma = {SIGMA}, delta = {DELTA:g}, replace-one; ceil(N/B) = {k} steps per epoch. "
        "Shuffled: upper = one Gaussian per epoch (proven, numerics.shuffled), lower = max-of-batch test of a "
        "realizable pair; the gap between them is open (no tighter proven bound is implemented).\n",
        _table(rows)])


if __name__ == "__main__":
    print(run())
