"""The one sweep runner: map a pure function over parameter points, on Dask, with a results cache.

    sweep(fn, points, *, backend=None, scheduler=None, cache=True, desc=None, on_error="raise",
          stats=None) -> list

``fn`` is a module-level pure function; each point is a dict of keyword arguments and the result for
``points[i]`` is ``fn(**points[i])``, in the points' order, whatever the backend and worker count.

Backends (``backend=``, else the environment variable ``DPV_BACKEND``, else chosen as below):

``serial``   in-process loop (debugging, tiny runs, and always when already inside a Dask worker, so a
             claim that sweeps internally never nests clusters);
``local``    a ``distributed.LocalCluster`` with one single-threaded worker process per core, started
             once per process and reused (nothing to set up);
``cluster``  an existing scheduler, named the way Dask users name it: ``scheduler=ADDRESS`` (the CLIs'
             ``--scheduler``) or Dask's own config key ``scheduler-address``, i.e. the environment
             variable ``DASK_SCHEDULER_ADDRESS``.
Precedence: ``backend=``, then ``scheduler=``, then ``DPV_BACKEND``; with no choice made: ``cluster`` when an address is configured, else ``local`` when at least
:data:`LOCAL_MIN_POINTS` points need computing, else ``serial``.

Cache: results are stored with :class:`joblib.Memory` under ``DPV_CACHE_DIR`` (default ``.cache/sweep``
in the working directory). The key is the function's identity (module and qualified name), its
``version`` (set with :func:`versioned`), a digest of the source of every module of this suite the
function's module imports, transitively (so editing an accountant invalidates the claims that use it:
a cache can never change a verdict), and the point. ``cache=False`` (``make report FRESH=1``) ignores
stored results and overwrites them. Workers write the cache, so finished points survive a failed sweep
and a rerun resumes; on a remote cluster point ``DPV_CACHE_DIR`` at a shared file system.

Faults: a worker that dies mid-sweep costs no result (Dask reassigns its tasks; after Dask's
``allowed-failures`` retries the sweep fails naming the point). A function that raises fails the sweep
with :class:`SweepError` naming the point's parameters, or with ``on_error="record"`` puts a
:class:`SweepFailure` in that point's place and continues. An unreachable scheduler gives a one-line
:class:`SweepError` after ``DPV_CONNECT_TIMEOUT`` seconds (default 10).
"""
from __future__ import annotations

import ast
import hashlib
import os
import sys
import threading
import time
from dataclasses import dataclass
from functools import lru_cache
from importlib.util import find_spec
from typing import Any, Callable, List, Mapping, Optional, Sequence

#: below this many points to compute, the default backend stays serial (a cluster costs seconds to start)
LOCAL_MIN_POINTS = 16
#: the suite's own packages: their sources form the cache key's dependency digest
OWN_PACKAGES = ("numerics", "theory", "repro", "figures")
BACKENDS = ("serial", "local", "cluster")


class SweepError(RuntimeError):
    """A sweep could not finish; the message is one line naming the point or the scheduler."""


@dataclass(frozen=True)
class SweepFailure:
    """Stands in the result list for a point whose function raised (with ``on_error="record"``)."""

    point: dict
    error: str


def versioned(version: str):
    """Decorator: attach a cache version to a sweep function (bump it to invalidate its results)."""
    def mark(fn):
        fn.version = str(version)
        return fn
    return mark


# --- cache key: the function, its version, its source closure ------------------------------------

def _imported_own_modules(module_name: str) -> set:
    """Names of this suite's modules that ``module_name``'s source imports (anywhere, lazily too)."""
    spec = find_spec(module_name)
    if spec is None or not spec.origin or not spec.origin.endswith(".py"):
        return set()
    with open(spec.origin, "rb") as fh:
        tree = ast.parse(fh.read())
    package = module_name if spec.submodule_search_locations else module_name.rpartition(".")[0]
    found = set()
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            names = [base] + [f"{base}.{a.name}" for a in node.names]
        for name in names:
            if name.split(".")[0] in OWN_PACKAGES and find_spec_safe(name):
                found.add(name)
    return found


def find_spec_safe(name: str) -> bool:
    try:
        return find_spec(name) is not None
    except (ImportError, ValueError, AttributeError):
        return False


@lru_cache(maxsize=None)
def source_digest(module_name: str) -> str:
    """SHA-256 over the sources of ``module_name`` and every suite module it imports, transitively."""
    seen, todo = set(), [module_name]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        todo.extend(_imported_own_modules(name) - seen)
    h = hashlib.sha256()
    for name in sorted(seen):
        spec = find_spec(name)
        if spec is not None and spec.origin and os.path.exists(spec.origin):
            h.update(name.encode())
            with open(spec.origin, "rb") as fh:
                h.update(fh.read())
    return h.hexdigest()


def _cache_dir() -> str:
    return os.environ.get("DPV_CACHE_DIR", os.path.join(os.getcwd(), ".cache", "sweep"))


def _timed_call(fn: Callable, version: str, digest: str, point: dict):
    """What the cache stores: the result and the seconds it took (``version``/``digest`` key it)."""
    t0 = time.perf_counter()
    result = fn(**point)
    return result, time.perf_counter() - t0


@lru_cache(maxsize=None)
def _memorized(location: str):
    import joblib

    return joblib.Memory(location=location, verbose=0).cache(_timed_call)


# --- backends -------------------------------------------------------------------------------------

def _inside_dask_worker() -> bool:
    if "distributed" not in sys.modules:
        return False
    try:
        from distributed import get_worker

        get_worker()
        return True
    except (ValueError, ImportError):
        return False


def _configured_address(scheduler: Optional[str]) -> Optional[str]:
    if scheduler:
        return scheduler
    import dask

    return dask.config.get("scheduler-address", None) or None


_LOCAL = {}
_LOCK = threading.Lock()


def _local_client():
    """One local cluster per process: one single-threaded worker process per core."""
    with _LOCK:
        if "client" not in _LOCAL:
            from distributed import Client, LocalCluster

            n = int(os.environ.get("DPV_WORKERS", os.cpu_count() or 1))
            cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                   dashboard_address=":0", silence_logs=40)
            _LOCAL["cluster"], _LOCAL["client"] = cluster, Client(cluster)
        return _LOCAL["client"]


def close_local_cluster() -> None:
    """Shut the process's local cluster down (tests; otherwise it lives until exit)."""
    with _LOCK:
        client, cluster = _LOCAL.pop("client", None), _LOCAL.pop("cluster", None)
    if client is not None:
        client.close()
        cluster.close()


def _remote_client(address: str):
    from distributed import Client

    timeout = float(os.environ.get("DPV_CONNECT_TIMEOUT", "10"))
    try:
        return Client(address, timeout=timeout)
    except (OSError, TimeoutError) as exc:
        raise SweepError(f"cannot reach the Dask scheduler at {address!r} within {timeout:g} s "
                         f"({type(exc).__name__}); check DASK_SCHEDULER_ADDRESS / --scheduler") from None


def resolve_backend(backend: Optional[str], scheduler: Optional[str], n_todo: int) -> tuple:
    """(backend, address) for this sweep, applying the rules in the module docstring."""
    if _inside_dask_worker():
        return "serial", None
    if backend is None and scheduler:
        backend = "cluster"
    backend = backend or os.environ.get("DPV_BACKEND") or None
    address = _configured_address(scheduler)
    if backend is None:
        backend = "cluster" if address else ("local" if n_todo >= LOCAL_MIN_POINTS else "serial")
    if backend not in BACKENDS:
        raise SweepError(f"backend must be one of {BACKENDS}, got {backend!r}")
    if backend == "cluster" and not address:
        raise SweepError("backend 'cluster' needs a scheduler address (--scheduler or DASK_SCHEDULER_ADDRESS)")
    return backend, (address if backend == "cluster" else None)


def _progress(total: int, desc: Optional[str]):
    from tqdm.auto import tqdm

    quiet = bool(os.environ.get("CI")) or not sys.stderr.isatty()
    return tqdm(total=total, desc=desc, disable=quiet, leave=False)


def _name(fn) -> str:
    return f"{fn.__module__}.{fn.__qualname__}"


def _fail(fn, point, kind: str, message: str) -> SweepError:
    msg = message.splitlines()[0] if message else ""
    return SweepError(f"{_name(fn)} failed at {point!r}: {kind}: {msg}")


def _run_serial(call, todo, points, fn, on_error, bar):
    out = {}
    for i in todo:
        try:
            out[i] = call(points[i])
        except Exception as exc:  # noqa: BLE001 - named and re-raised, or recorded
            if on_error == "raise":
                raise _fail(fn, points[i], type(exc).__name__, str(exc)) from exc
            out[i] = SweepFailure(points[i], f"{type(exc).__name__}: {exc}")
        bar.update(1)
    return out


@dataclass(frozen=True)
class _Raised:
    """A point's exception, carried back from a worker so the client can name the point."""

    kind: str
    message: str


class _Chunk:
    """Runs a few points in one Dask task: per-task overhead (ms) would swamp ms-sized points."""

    def __init__(self, call):
        self.call = call

    def __call__(self, indexed_points):
        out = []
        for i, p in indexed_points:
            try:
                out.append((i, self.call(p)))
            except Exception as exc:  # noqa: BLE001 - returned, then raised or recorded by the client
                out.append((i, _Raised(type(exc).__name__, str(exc))))
        return out


def _chunks(todo, points, workers: int) -> list:
    """About eight chunks per worker, so work balances and progress moves."""
    n = max(1, min(len(todo), 8 * max(1, workers)))
    return [[(i, points[i]) for i in todo[k::n]] for k in range(n) if todo[k::n]]


def _run_dask(client, call, todo, points, fn, on_error, bar, workers):
    from distributed import as_completed

    futures = [client.submit(_Chunk(call), chunk, pure=False) for chunk in _chunks(todo, points, workers)]
    out = {}
    for fut in as_completed(futures):
        if fut.status == "error":  # the task itself failed (e.g. a worker died more often than allowed)
            for other in futures:
                other.cancel()
            exc = fut.exception()
            raise SweepError(f"{_name(fn)}: a Dask task failed: {type(exc).__name__}: "
                             f"{str(exc).splitlines()[0] if str(exc) else ''}") from None
        for i, r in fut.result():
            if isinstance(r, _Raised):
                if on_error == "raise":
                    for other in futures:
                        other.cancel()
                    raise _fail(fn, points[i], r.kind, r.message)
                r = SweepFailure(points[i], f"{r.kind}: {r.message}")
            out[i] = r
            bar.update(1)
    return out


class _Call:
    """Picklable per-point call: through the cache (writes it), or plain."""

    def __init__(self, fn, version, digest, memorized, fresh):
        self.fn, self.version, self.digest, self.memorized, self.fresh = fn, version, digest, memorized, fresh

    def __call__(self, point):
        if self.memorized is None:
            return _timed_call(self.fn, self.version, self.digest, point)
        if self.fresh:
            return self.memorized.call(self.fn, self.version, self.digest, point)[0]
        return self.memorized(self.fn, self.version, self.digest, point)


def sweep(fn: Callable[..., Any], points: Sequence[Mapping[str, Any]], *, backend: Optional[str] = None,
          scheduler: Optional[str] = None, cache: bool = True, desc: Optional[str] = None,
          on_error: str = "raise", stats: Optional[dict] = None, use_cache: bool = True) -> List[Any]:
    """Return ``[fn(**p) for p in points]``, computed on the chosen backend, through the cache.

    ``cache=False`` recomputes every point (and refreshes the stored results); ``use_cache=False``
    neither reads nor writes the cache. ``stats``, when given, is filled with backend, scheduler,
    workers, wall_time, cache_hits, cache_misses and per-point ``seconds``.
    """
    if on_error not in ("raise", "record"):
        raise SweepError(f"on_error must be 'raise' or 'record', got {on_error!r}")
    points = [dict(p) for p in points]
    t0 = time.perf_counter()
    version = str(getattr(fn, "version", "1"))
    memorized = _memorized(_cache_dir()) if use_cache else None
    digest = source_digest(fn.__module__) if fn.__module__.split(".")[0] in OWN_PACKAGES else ""
    results: dict = {}
    if memorized is not None and cache:
        for i, p in enumerate(points):
            if memorized.check_call_in_cache(fn, version, digest, p):
                results[i] = memorized(fn, version, digest, p)
    todo = [i for i in range(len(points)) if i not in results]
    hits = len(results)
    chosen, address = resolve_backend(backend, scheduler, len(todo))
    call = _Call(fn, version, digest, memorized, fresh=not cache)
    workers = 1
    with _progress(len(todo), desc or fn.__qualname__) as bar:
        if not todo or chosen == "serial":
            results.update(_run_serial(call, todo, points, fn, on_error, bar))
        else:
            client = _local_client() if chosen == "local" else _remote_client(address)
            try:
                workers = len(client.scheduler_info().get("workers", {}))
                results.update(_run_dask(client, call, todo, points, fn, on_error, bar, workers))
            finally:
                if chosen == "cluster":
                    client.close()
    ordered = [results[i] for i in range(len(points))]
    if stats is not None:
        stats.update(backend=chosen, scheduler=address, workers=workers, cache_hits=hits,
                     cache_misses=len(todo), wall_time=time.perf_counter() - t0,
                     seconds=[None if isinstance(r, SweepFailure) else r[1] for r in ordered])
    return [r if isinstance(r, SweepFailure) else r[0] for r in ordered]
