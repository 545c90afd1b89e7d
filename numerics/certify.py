r"""Branch-and-bound certificates for inequalities over boxes, in Arb ball arithmetic (python-flint).

A claim of the form :math:`f(x) \le g(x)` for all :math:`x` in a region is certified by evaluating an
enclosure of the *margin* :math:`g - f` over boxes:

* a box whose margin enclosure is certainly positive (``strict``) or non-negative is **certified**;
* a box that certainly violates a hypothesis (some constraint enclosure certainly negative) is
  **skipped**: it lies wholly outside the region;
* otherwise, when the enclosure's centre is negative (or the enclosure is not finite), the box's
  midpoint is evaluated as a point ball: if every hypothesis certainly holds there and the margin is
  certainly negative, the claim is **refuted** with that midpoint as a counterexample;
* otherwise the box is halved (geometrically for ``log`` coordinates) along the coordinate whose
  collapse to a point narrows the margin enclosure most, and both halves are queued, until a budget (boxes, seconds) or the minimum relative width is reached;
  what is left stays **open** and is listed.

Discrete parameters (an integer order, a step count) are enumerated; each discrete combination times
an initial grid of the continuous box is one task of :func:`numerics.sweep.sweep`, so certificates run
on Dask and are cached. The margin and constraint functions are named as ``"module:qualname"`` strings,
so tasks are picklable and their cache key carries the source digest of the module that defines them.

Soundness rests on Arb: every arithmetic operation returns a ball containing the exact result for
every point of its input balls. Boxes are made from binary floats, so their ends are exact.
Cancellation is the caller's business: write margins in forms whose terms are all positive (see
issue 12), otherwise the enclosures stay wide and the certifier reports ``open`` -- never a wrong
``certified``.
"""
from __future__ import annotations

import importlib
import itertools
import math
import time
from dataclasses import asdict, dataclass, field
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from .sweep import source_digest, sweep, versioned

#: default working precision of the enclosures, in bits
DEFAULT_PREC = 128


@dataclass(frozen=True)
class Coordinate:
    """A continuous coordinate of the region: ``name`` in ``[lo, hi]``, split linearly or in log scale."""

    name: str
    lo: float
    hi: float
    scale: str = "lin"

    def __post_init__(self):
        if not (math.isfinite(self.lo) and math.isfinite(self.hi) and self.lo <= self.hi):
            raise ValueError(f"coordinate {self.name}: need finite lo <= hi, got [{self.lo}, {self.hi}]")
        if self.scale not in ("lin", "log") or (self.scale == "log" and self.lo <= 0):
            raise ValueError(f"coordinate {self.name}: scale 'log' needs lo > 0, 'lin' otherwise")


@dataclass
class Certificate:
    """The outcome over a whole region (or one task's part of it)."""

    status: str  # "certified" | "refuted" | "open"
    boxes: int = 0
    certified_boxes: int = 0
    skipped_boxes: int = 0
    min_margin: Optional[float] = None  # smallest certified lower bound of the margin
    counterexample: Optional[dict] = None
    open_boxes: List[dict] = field(default_factory=list)
    seconds: float = 0.0
    tasks: int = 1

    def to_dict(self) -> dict:
        return asdict(self)


def resolve(ref: str) -> Callable:
    """The function named ``"module:qualname"``."""
    module, _, name = ref.partition(":")
    obj = importlib.import_module(module)
    for part in name.split("."):
        obj = getattr(obj, part)
    return obj


def _ball(lo: float, hi: float):
    from flint import arb

    return arb(lo) if lo == hi else arb(lo).union(arb(hi))


def _half(lo: float, hi: float, scale: str) -> float:
    return math.sqrt(lo * hi) if scale == "log" else 0.5 * (lo + hi)


def _widest(box, scales, initial) -> str:
    """The coordinate widest relative to its width in the task's initial box (scale-free)."""
    def frac(n):
        lo, hi = box[n]
        ilo, ihi = initial[n]
        if ihi == ilo:
            return 0.0
        return math.log(hi / lo) / math.log(ihi / ilo) if scales[n] == "log" else (hi - lo) / (ihi - ilo)

    return max(box, key=frac)


def _split_choice(margin, fixed, box, scales) -> str:
    """The coordinate whose collapse to its midpoint narrows the margin enclosure most (a 'smear'
    heuristic: it spends the splits where the enclosure is sensitive, e.g. on a tiny q range near 0
    rather than on a wide but harmless sigma range)."""
    def radius_if_fixed(name):
        lo, hi = box[name]
        if lo == hi:
            return math.inf
        mid = _half(lo, hi, scales[name])
        args = dict(fixed, **{n: _ball(*((mid, mid) if n == name else v)) for n, v in box.items()})
        m = margin(**args)
        return float(m.rad()) if m.is_finite() else math.inf

    widths = {n: radius_if_fixed(n) for n in box}
    best = min(widths.values())
    if math.isinf(best):  # no collapse helps: halve the relatively widest coordinate
        return max(box, key=lambda n: _rel_width({n: box[n]}, scales))
    return min(widths, key=widths.get)


def _split(box: Dict[str, Tuple[float, float]], scales: Dict[str, str], name: str):
    """Halve coordinate ``name`` (geometrically for log coordinates); None when it cannot split."""
    lo, hi = box[name]
    mid = _half(lo, hi, scales[name])
    if not lo < mid < hi:
        return None
    return name, dict(box, **{name: (lo, mid)}), dict(box, **{name: (mid, hi)})


def _rel_width(box, scales) -> float:
    return max((math.log(hi / lo) if scales[n] == "log" else (hi - lo) / max(1.0, abs(lo), abs(hi)))
               for n, (lo, hi) in box.items()) if box else 0.0


def _midpoint(box, scales) -> dict:
    return {n: (math.sqrt(lo * hi) if scales[n] == "log" else 0.5 * (lo + hi)) for n, (lo, hi) in box.items()}


def _evaluate(margin, constraints, fixed, box):
    """(margin ball, list of constraint balls) over ``box`` with the discrete values ``fixed``."""
    args = dict(fixed, **{n: _ball(lo, hi) for n, (lo, hi) in box.items()})
    return margin(**args), (constraints(**args) if constraints else [])


def _positive(ball, strict: bool) -> bool:
    return bool(ball > 0) if strict else bool(ball >= 0)


@versioned("2")
def certify_task(margin_ref: str, constraints_ref: Optional[str], digest: str, fixed: dict, box: dict,
                 scales: dict, strict: bool, max_boxes: int, max_seconds: float, min_rel_width: float,
                 prec: int, split_rule: str = "widest") -> dict:
    """Branch and bound on one box with fixed discrete values; returns a :class:`Certificate` dict.

    ``digest`` (the source digest of the margin's module) is unused here but keys the cache.
    """
    from flint import ctx

    margin = resolve(margin_ref)
    constraints = resolve(constraints_ref) if constraints_ref else None
    box = {n: tuple(v) for n, v in box.items()}
    old_prec, ctx.prec = ctx.prec, prec
    t0 = time.perf_counter()
    cert = Certificate(status="open")
    queue = [box]
    try:
        while queue:
            if cert.boxes >= max_boxes or time.perf_counter() - t0 > max_seconds:
                break
            b = queue.pop()
            cert.boxes += 1
            m, hs = _evaluate(margin, constraints, fixed, b)
            if any(bool(h < 0) for h in hs):
                cert.skipped_boxes += 1
                continue
            if _positive(m, strict):
                cert.certified_boxes += 1
                low = float(m.lower())
                cert.min_margin = low if cert.min_margin is None else min(cert.min_margin, low)
                continue
            # look for a counterexample only where the enclosure leans negative (its centre is < 0):
            # as boxes shrink the enclosure tends to the value, so a violated claim still gets there,
            # and a claim with a positive margin costs one evaluation per box instead of two
            if not (m.is_finite() and m.mid() >= 0):
                mid = _midpoint(b, scales)
                mm, mh = _evaluate(margin, constraints, fixed, {n: (v, v) for n, v in mid.items()})
                if all(bool(h > 0) for h in mh) and bool(mm < 0):
                    cert.status = "refuted"
                    cert.counterexample = dict(fixed, **mid, margin_upper=float(mm.upper()))
                    break
            name = _split_choice(margin, fixed, b, scales) if split_rule == "smear" else _widest(b, scales, box)
            parts = _split(b, scales, name) if _rel_width(b, scales) > min_rel_width else None
            if parts is None:
                cert.open_boxes.append(dict(fixed, **{n: list(v) for n, v in b.items()}))
                continue
            queue.extend(parts[1:])
    finally:
        ctx.prec = old_prec
    if cert.status != "refuted":
        for b in queue[:50]:
            cert.open_boxes.append(dict(fixed, **{n: list(v) for n, v in b.items()}))
        left = len(queue) + len(cert.open_boxes)
        cert.status = "certified" if left == 0 and not cert.open_boxes else "open"
    cert.open_boxes = cert.open_boxes[:50]
    cert.seconds = time.perf_counter() - t0
    return cert.to_dict()


def _initial_boxes(coords: Sequence[Coordinate], splits: int) -> List[dict]:
    """An initial grid: ``splits`` pieces per continuous coordinate (log-spaced for log coordinates)."""
    def pieces(c: Coordinate):
        if c.lo == c.hi or splits <= 1:
            return [(c.lo, c.hi)]
        if c.scale == "log":
            edges = [c.lo * (c.hi / c.lo) ** (i / splits) for i in range(splits + 1)]
        else:
            edges = [c.lo + (c.hi - c.lo) * i / splits for i in range(splits + 1)]
        edges[0], edges[-1] = c.lo, c.hi
        return list(zip(edges[:-1], edges[1:]))

    grids = [pieces(c) for c in coords]
    return [{c.name: iv for c, iv in zip(coords, combo)} for combo in itertools.product(*grids)]


def merge(parts: Sequence[dict], seconds: float) -> Certificate:
    """Combine task certificates: refuted if any is, certified if all are, else open."""
    refuted = [p for p in parts if p["status"] == "refuted"]
    margins = [p["min_margin"] for p in parts if p["min_margin"] is not None]
    status = "refuted" if refuted else ("certified" if all(p["status"] == "certified" for p in parts) else "open")
    return Certificate(
        status=status,
        boxes=sum(p["boxes"] for p in parts),
        certified_boxes=sum(p["certified_boxes"] for p in parts),
        skipped_boxes=sum(p["skipped_boxes"] for p in parts),
        min_margin=min(margins) if margins else None,
        counterexample=refuted[0]["counterexample"] if refuted else None,
        open_boxes=[b for p in parts for b in p["open_boxes"]][:100],
        seconds=seconds,
        tasks=len(parts),
    )


def certify(margin_ref: str, coords: Sequence[Coordinate], *, discrete: Optional[Dict[str, Sequence]] = None,
            constraints_ref: Optional[str] = None, strict: bool = True, initial_splits: int = 1,
            max_boxes: int = 20_000, max_seconds: float = 60.0, min_rel_width: float = 1e-9,
            prec: int = DEFAULT_PREC, **sweep_kwargs) -> Certificate:
    """Certify ``margin > 0`` (``>= 0`` when ``strict=False``) on the region, or refute it, or say open.

    ``margin_ref`` / ``constraints_ref`` name module-level functions ``f(**args) -> arb`` and
    ``h(**args) -> list[arb]`` (hypotheses: the region is where every ``h >= 0``; a counterexample must
    satisfy every ``h > 0``). Continuous coordinates arrive as ``arb`` balls, discrete ones as Python
    values. Budgets (``max_boxes``, ``max_seconds``) apply per task; tasks go through the sweep runner
    (``sweep_kwargs`` are passed on: backend, scheduler, cache, stats).
    """
    coords = list(coords)
    discrete = dict(discrete or {})
    scales = {c.name: c.scale for c in coords}
    digest = source_digest(margin_ref.partition(":")[0])
    names = sorted(discrete)
    combos = [dict(zip(names, vals)) for vals in itertools.product(*(discrete[n] for n in names))] or [{}]
    points = [dict(margin_ref=margin_ref, constraints_ref=constraints_ref, digest=digest, fixed=fixed,
                   box={n: list(v) for n, v in box.items()}, scales=scales, strict=strict,
                   max_boxes=max_boxes, max_seconds=max_seconds, min_rel_width=min_rel_width, prec=prec)
              for fixed in combos for box in _initial_boxes(coords, initial_splits)]
    t0 = time.perf_counter()
    parts = sweep(certify_task, points, desc=f"certify {margin_ref}", unit="boxes", **sweep_kwargs)
    return merge(parts, time.perf_counter() - t0)
