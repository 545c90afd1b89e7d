r"""Opt-in proven upper bound for fixed-size batches under replace-one against an adaptive adversary: the cover
of Theorem C″ played through blocks (issue 35; docs/replace_one.md §7k-§7n, §7q).

The dispatch table of numerics.accounting brackets this mechanism by [the adaptive lower end of numerics.adaptive,
the symmetrised pair {S} composed]; the upper end is the subsampling theorem of Dong, Roth and Su (the literature's
best). This module computes a second proven upper end, below {S} at the seeds' settings where the cover pays
(004 MNIST: 1.95 vs 2.01; 001 CIFAR: 6.04 vs 6.30), and returns the bracket [accounting's lower end, min(both
upper ends)]: the minimum of two proven upper bounds is one.

What it computes, in order (each piece proven in the docs; every rounding on the upper side):

1. Lemma C's slack profile of every cell of the uniform ``n_cells`` x ``n_cells`` partition of the angle torus
   (§7i, §7l) — a sweep over rows of cells, cached (it depends only on g, σ, N and the β grid);
2. the charge weights of Theorem C″ (§7k, an LP per cell, steered by first-order prices: any feasible weights are
   proven) and the corner members' dominating grids (a sweep over chunks of corners, cached per lattice);
3. the menu, pruned by certified profile dominance (§7m: the game pays the certified per-step slack);
4. the game over the menu played for one block of ``block`` steps and read at every ε, turned into one pair and
   composed ⌈T/block⌉ times (Lemma B, §7n).
Steps 2-4 are one cached point: a repeated query (the same mechanism, any δ or ε that the stored curve covers)
costs the lower end only. A cold query costs minutes at 004's settings and tens of minutes at 001's (see
bench/RESULTS.md, bench_block); it is therefore not in ``--method all`` and not in the default accountant.

Hypotheses: one phase, fixed-size batches of b of n records (g = b/n), Gaussian noise σ (clip norm 1), replace-one
adjacency, T steps, any adaptive adversary (the threat model of numerics.adaptive).
"""
from __future__ import annotations

import math
import operator
import time

import numpy as np

from . import adaptive_game as ag
from .block_game import block_composition_upper
from .errors import InvalidParameter
from .grid_dominance import prune_by_mixtures, prune_menu, step_slack
from .results import DeltaBounds, EpsilonBounds
from .sweep import sweep, versioned

#: cells per side of the uniform partition (N); 32 is below {S} at 004 MNIST, 001 CIFAR needs 48 (docs §7n)
DEFAULT_CELLS = 32
#: the longest block played as a game (Lemma B): longer blocks are tighter and cost proportionally more
BLOCK_MAX = 100
#: charge pairs S_r at these multiples of g (those below 1), plus the full batch G (§7k)
RATE_MULTIPLES = (1.25, 1.5, 2.0, 4.0)
#: the far tails beyond the β grid are charged to the pair at +infinity with weight η per step (§7i step 7): the
#: grid reaches the smallest integer log β_max with T η <= this
ETA_BUDGET = 1e-12
#: intervals of the β grid per unit of log β, and their range (the G3 run of §7n used 200 per unit, G6's 20)
BETA_DENSITY, BETA_INTERVALS = 100, (240, 1200)
#: tolerance of the menu pruning (§7m; the game pays at most this per step; above the float floor ~2e-11)
PRUNE = 3e-11
#: relative width the lattice step is chosen for (numerics.adaptive.choose_grid)
GRID_WIDTH = 1e-3
#: the stored ε curve reaches this multiple of the {S} upper end (plus 1): later δ queries inside it are free
CURVE_REACH = 1.5
#: corners per sweep point when the corner members' grids are built
CORNERS_PER_POINT = 16
#: quadrature cells of a corner member's upper grid (numerics.adaptive_game.triangle_upper_grid; as
#: block_game.charged_cover_menu)
MEMBER_CELLS = (600, 600)


def _mechanism(schedule):
    """(b, n, σ, T) of a one-phase fixed-size Gaussian schedule under replace-one; else a one-line error."""
    phases = getattr(schedule, "phases", None)
    if phases is None or len(phases) != 1:
        raise InvalidParameter("method cover: one phase only (a fixed-size replace-one schedule)")
    p = phases[0]
    if p.sampling != "fixed-size" or p.noise != "gaussian" or schedule.adjacency != "replace-one":
        raise InvalidParameter(f"method cover covers fixed-size batches with Gaussian noise under replace-one only, got "
                               f"{p.sampling} sampling, {p.noise} noise, {schedule.adjacency}")
    return int(p.batch_size), int(p.dataset_size), float(p.sigma), int(p.steps)


@versioned("1")
def cell_slack_row(*, g: float, sigma: float, n_cells: int, row: int, log_beta_max: float,
                   n_beta: int) -> dict:
    """{column j: Lemma C's slack profile of cell (row, j)} for the cells of the row that are their mirror class's
    first member (numerics.adaptive_game.cell_slack_profile; the mirror image has the same pairs, §7j)."""
    betas = np.exp(np.linspace(0.0, log_beta_max, n_beta + 1))
    unit = 2.0 * math.pi / n_cells
    return {j: ag.cell_slack_profile(g, sigma, (row * unit, (row + 1) * unit), (j * unit, (j + 1) * unit), betas)
            for j in range(n_cells) if _first_of_mirror((row, j, 1), n_cells)}


def _first_of_mirror(cell: tuple, n_cells: int) -> bool:
    return cell <= ag._mirror_cell(cell, n_cells)


@versioned("1")
def corner_grids(*, g: float, sigma: float, h: float, n_cells: int, keys: tuple, cells: tuple) -> list:
    """The dominating upper grid of each corner member ``keys`` (units 2π/n_cells; §7i step 3)."""
    unit = 2.0 * math.pi / n_cells
    return [ag.triangle_upper_grid(g, sigma, i * unit, j * unit, h, cells) for i, j in keys]


def beta_grid(g: float, sigma: float, steps: int) -> tuple[float, int]:
    """(log β_max, intervals) of Theorem C″'s β grid: the tail beyond it costs T η <= ETA_BUDGET in δ."""
    log_beta_max = next(x for x in range(1, 200) if steps * ag._eta(g, sigma, float(x)) <= ETA_BUDGET)
    return float(log_beta_max), int(np.clip(BETA_DENSITY * log_beta_max, *BETA_INTERVALS))


def cover_weights(g: float, sigma: float, n_cells: int, rates, costs, log_beta_max: float, n_beta: int) -> dict:
    """Theorem C″'s charge weights of every cell (i, j, 1): numerics.adaptive_game.fill_cell_weights with the slack
    profiles from the cached rows (the LPs are cheap)."""
    rows = sweep(cell_slack_row, [dict(g=g, sigma=sigma, n_cells=n_cells, row=i, log_beta_max=log_beta_max,
                                       n_beta=n_beta) for i in range(n_cells)],
                 desc="cover: slack of Lemma C per row of cells")
    slacks = {(i, j, 1): slack for i, row in enumerate(rows) for j, slack in row.items()}
    weights: dict = {}
    ag.fill_cell_weights(weights, sorted({(i, j, 1) for i in range(n_cells) for j in range(n_cells)}), n_cells, g,
                         sigma, rates=rates, costs=costs, log_beta_max=log_beta_max, n_beta=n_beta, slacks=slacks)
    return weights


@versioned("1")
def cover_curve(*, batch_size: int, dataset_size: int, sigma: float, steps: int, h: float, block: int,
                n_cells: int, eps_focus: float, eps_top: float) -> dict:
    """The proven upper curve δ(ε) at every lattice ε in [0, eps_top] (steps 2-4 of the module docstring), with
    what it cost. ``eps_focus`` only steers the LP's prices (any feasible weights are proven)."""
    started = time.process_time()
    g = batch_size / dataset_size
    rates = tuple(x * g for x in RATE_MULTIPLES if x * g < 1.0) + (1.0,)
    costs = ag.charge_costs(g, sigma, steps, eps_focus, 8 * h, ag.charge_grids(g, sigma, rates, 8 * h))
    log_beta_max, n_beta = beta_grid(g, sigma, steps)
    corner_w = ag.partition_corner_weights(
        {(i, j, 1) for i in range(n_cells) for j in range(n_cells)}, n_cells,
        cover_weights(g, sigma, n_cells, rates, costs, log_beta_max, n_beta))
    eta = ag._eta(g, sigma, log_beta_max)
    menu = ag.corner_menu(corner_w, n_cells, g, sigma, h, MEMBER_CELLS, ag.charge_grids(g, sigma, rates, h), eta,
                          ag.full_batch_grid(sigma, h, 1e-14), grids=_member_grids(g, sigma, h, n_cells, corner_w, eta))
    kept, dropped = prune_by_mixtures(menu, *prune_menu(menu, h, PRUNE), h, PRUNE)
    eps = np.arange(0, math.ceil(eps_top / h) + 1) * h
    res = block_composition_upper(kept, steps, min(block, steps), h, eps, slack=step_slack(dropped))
    return {"eps": res["eps"], "delta": np.minimum(res["delta"], 1.0), "menu": len(menu), "kept": len(kept),
            "blocks": res["blocks"], "tail": res["tail"], "cpu_seconds": time.process_time() - started}


def _member_grids(g, sigma, h, n_cells, corner_w, eta) -> dict:
    """{corner key: its member's upper grid}, for corners whose pair keeps the member (a sweep over chunks)."""
    keys = sorted(k for k, w in corner_w.items() if float(np.sum(w)) + eta < 1.0)
    chunks = [tuple(keys[i:i + CORNERS_PER_POINT]) for i in range(0, len(keys), CORNERS_PER_POINT)]
    built = sweep(corner_grids, [dict(g=g, sigma=sigma, h=h, n_cells=n_cells, keys=c, cells=MEMBER_CELLS)
                                 for c in chunks], desc="cover: corner members' grids")
    return {k: grid for chunk, grids in zip(chunks, built) for k, grid in zip(chunk, grids)}


def _integer(name: str, value, lo: int, hi: int) -> int:
    try:
        out = operator.index(value)
    except TypeError:
        raise InvalidParameter(f"{name} must be an integer in [{lo}, {hi}], got {value!r}") from None
    if not lo <= out <= hi:
        raise InvalidParameter(f"{name} must be an integer in [{lo}, {hi}], got {value!r}")
    return out


def _grid_step(g: float, sigma: float, steps: int, delta: float) -> float:
    """The lattice step: numerics.adaptive.choose_grid's, rounded down to a power of 2 so that nearby queries
    (other δ, other T) share the cached slack rows' lattice-free parts and often the grids (a finer step is
    never less tight)."""
    from .adaptive import choose_grid
    h = choose_grid(g, sigma, steps, delta, GRID_WIDTH)[0]
    return 2.0 ** math.floor(math.log2(h))


def _curve(schedule, delta_for_grid: float, eps_focus: float, n_cells: int, block) -> dict:
    b, n, sigma, steps = _mechanism(schedule)
    n_cells = _integer("cells", n_cells, 2, 256)
    block = _integer("block", min(BLOCK_MAX, steps) if block is None else block, 1, steps)
    h = _grid_step(b / n, sigma, steps, delta_for_grid)
    focus = math.ceil(eps_focus * 10.0) / 10.0  # steering only; rounded so that nearby queries share the cache
    point = dict(batch_size=b, dataset_size=n, sigma=sigma, steps=steps, h=h, block=block, n_cells=n_cells,
                 eps_focus=focus, eps_top=math.ceil(CURVE_REACH * focus + 1.0))
    stats: dict = {}
    curve = sweep(cover_curve, [point], backend="serial", stats=stats,
                  desc="cover: the block game")[0]
    return dict(curve, h=h, block=block, n_cells=n_cells, cached=bool(stats.get("cache_hits")))


def epsilon(schedule, delta: float, *, n_cells: int = DEFAULT_CELLS, block: int | None = None) -> EpsilonBounds:
    r"""Proven bracket on :math:`\varepsilon^*(\delta)` for fixed-size replace-one against an adaptive adversary:
    numerics.accounting's (lower end, {S} upper end), the upper end lowered to the cover's when that is smaller.
    ``details`` holds both upper ends, the cover's lattice, block, cells, menu sizes, CPU seconds and whether the
    curve came from the cache."""
    from .accounting import epsilon as base_epsilon
    base = base_epsilon(schedule, delta)
    curve = _curve(schedule, delta, base.epsilon_upper, n_cells, block)
    ok = curve["eps"][curve["delta"] <= delta]
    cover = float(ok.min()) if len(ok) else math.inf
    return EpsilonBounds(base.epsilon_lower, min(base.epsilon_upper, cover), delta, "cover", schedule.adjacency,
                         base.certified, _details(base.epsilon_upper, cover, curve, base.method))


def delta(schedule, epsilon: float, *, n_cells: int = DEFAULT_CELLS, block: int | None = None) -> DeltaBounds:
    r"""Proven bracket on :math:`\delta^*(\varepsilon)`, as :func:`epsilon`: the cover's δ is read at the lattice ε
    at or below ``epsilon`` (δ* is nonincreasing in ε, so that is an upper bound)."""
    from .accounting import delta as base_delta
    base = base_delta(schedule, epsilon)
    curve = _curve(schedule, max(base.delta_upper, 1e-15), epsilon, n_cells, block)
    at = curve["eps"] <= epsilon  # lattice points k h, exact in floating point (h is a power of 2)
    cover = float(curve["delta"][at][-1]) if at.any() and epsilon <= curve["eps"][-1] else 1.0
    return DeltaBounds(base.delta_lower, min(base.delta_upper, cover), epsilon, "cover", schedule.adjacency,
                       base.certified, _details(base.delta_upper, cover, curve, base.method))


def _details(symmetrised: float, cover: float, curve: dict, base_method: str) -> dict:
    """What the answer rests on; the note names both upper ends (printed with 7 digits: the bound itself is the
    smaller of the two stored values, never the printed ones)."""
    how = (f"cover of Theorem C'' ({curve['n_cells']}x{curve['n_cells']} cells, {curve['blocks']} blocks of "
           f"{curve['block']} steps, lattice {curve['h']:.3g}; docs/replace_one.md 7k-7n)")
    return {"symmetrised_upper": symmetrised, "cover_upper": cover, "lower_end": base_method,
            "h": curve["h"], "block": curve["block"], "blocks": curve["blocks"], "cells": curve["n_cells"],
            "menu": curve["menu"], "menu_kept": curve["kept"], "tail": curve["tail"],
            "cpu_seconds": curve["cpu_seconds"], "cached": curve["cached"],
            "note": f"upper end = min(symmetrised pair {{S}}: {symmetrised:.7g}, {how}: {cover:.7g}); "
                    f"lower end: {base_method}{'; cover curve from the cache' if curve['cached'] else ''}"}
