"""The one sweep runner (STUB: serial only; the Dask backends and the cache land with issue 11).

API (stable; every package codes against it):

    sweep(fn, points, *, backend=None, scheduler=None, cache=True, desc=None, on_error="raise") -> list

``fn`` is a module-level pure function; each point is a dict of keyword arguments (``fn(**point)``).
Results come back in the points' order. ``fn.version`` (default "1"), set with :func:`versioned`, is
part of the cache key, so bumping it invalidates the function's cached results.
"""
from __future__ import annotations

from typing import Any, Callable, List, Mapping, Sequence


def versioned(version: str):
    """Decorator: attach a cache version to a sweep function."""
    def mark(fn):
        fn.version = str(version)
        return fn
    return mark


def sweep(fn: Callable[..., Any], points: Sequence[Mapping[str, Any]], *, backend=None, scheduler=None,
          cache: bool = True, desc: str | None = None, on_error: str = "raise") -> List[Any]:
    out = []
    for p in points:
        try:
            out.append(fn(**p))
        except Exception as exc:  # noqa: BLE001 - re-raised with the point named
            raise RuntimeError(f"sweep of {fn.__module__}.{fn.__qualname__} failed at {dict(p)!r}: {exc}") from exc
    return out
