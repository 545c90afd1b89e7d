"""The one sweep runner: map a pure function over parameter points, on Dask, with a results cache.

    sweep(fn, points, *, backend=None, scheduler=None, cache=True, desc=None, on_error="raise",
          stats=None) -> list

``fn`` is a module-level pure function; each point is a dict of keyword arguments and the result for
``points[i]`` is ``fn(**points[i])``, in the points' order, whatever the backend and worker count.

Backends (``backend=``, else the environment variable ``DPV_BACKEND``, else chosen as below):

``serial``   in-process loop (debugging, tiny runs);
``local``    a ``distributed.LocalCluster`` with one single-threaded worker process per core, started
             once per process and reused (nothing to set up);
``cluster``  an existing scheduler, named the way Dask users name it: ``scheduler=ADDRESS`` (the CLIs'
             ``--scheduler``) or Dask's own config key ``scheduler-address``, i.e. the environment
             variable ``DASK_SCHEDULER_ADDRESS``.
Precedence: ``backend=``, then ``scheduler=``, then ``DPV_BACKEND``; with no choice made: ``cluster`` when an address is configured, else ``local`` when at least
:data:`LOCAL_MIN_POINTS` points need computing, else ``serial``.

Inside a Dask worker (a sweep called by a point of another sweep, e.g. a claim that certifies over boxes)
no cluster is ever started: the points go to the cluster that worker belongs to, through
``distributed.worker_client`` (the calling task secedes from the worker's thread pool while it waits, so
every worker, its own included, shares the boxes), unless ``backend="serial"`` is asked or fewer than
:data:`NESTED_MIN_POINTS` points need computing.

Progress: ``progress=`` (a callable taking one line) gets a line at least every :data:`PROGRESS_EVERY`
seconds while the sweep runs: points done, elapsed seconds, an estimate of the seconds left, and the same
for the sweep running inside one of its points (a long claim's boxes): a sweep inside a worker publishes
its counts on the scheduler (metadata key :data:`PROGRESS_KEY`), one inside the same process reports
through its caller's line.

Cache: results are stored with :class:`joblib.Memory` under ``DPV_CACHE_DIR`` (default ``.cache/sweep``
in the working directory). The key is the function's identity (module and qualified name), its
``version`` (set with :func:`versioned`), a digest of the sources of the function module's
:func:`closure`: every module of this suite whose code can run when it is imported and called (what its
import statements take, transitively, and the packages on the way; rules above :class:`InitFacts`), so
editing an accountant invalidates the claims that use it (a cache can never change a verdict) and no
training run that cannot call it; and the point. ``cache=False`` (``make report FRESH=1``) ignores
stored results and overwrites them. Workers write the cache, so finished points survive a failed sweep
and a rerun resumes; on a remote cluster point ``DPV_CACHE_DIR`` at a shared file system.

Timing warnings: a loaded machine makes Dask warn that starting took long (:data:`TIMING_WARNINGS`);
they say nothing about a result, so the cluster start silences exactly those (and pytest's
``filterwarnings = error`` cannot turn them into a failed start).

Faults: a worker that dies mid-sweep costs no result (Dask reassigns its tasks; after Dask's
``allowed-failures`` retries the sweep fails naming the point). A function that raises fails the sweep
with :class:`SweepError` naming the point's parameters, or with ``on_error="record"`` puts a
:class:`SweepFailure` in that point's place and continues. An unreachable scheduler gives a one-line
:class:`SweepError` after ``DPV_CONNECT_TIMEOUT`` seconds (default 10).
"""
from __future__ import annotations

import ast
import hashlib
import json
import math
import os
import re
import sys
import threading
import time
import uuid
import warnings
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from importlib.util import find_spec
from typing import Any, Callable, List, Mapping, Optional, Sequence

#: below this many points to compute, the default backend stays serial (a cluster costs seconds to start)
LOCAL_MIN_POINTS = 16
#: the suite's own packages: their sources form the cache key's dependency digest
OWN_PACKAGES = ("numerics", "theory", "repro", "figures")
BACKENDS = ("serial", "local", "cluster")
#: inside a Dask worker, a sweep with at least this many points to compute shares them with the cluster
NESTED_MIN_POINTS = 2
#: longest silence of a sweep given ``progress=`` (seconds); ``make report`` promises one line per 30 s
PROGRESS_EVERY = float(os.environ.get("DPV_PROGRESS_EVERY", "15"))
#: scheduler metadata key under which a sweep running inside a worker publishes its counts
PROGRESS_KEY = "dpv-sweep-progress"
#: how often such a sweep publishes (seconds; one small scheduler message each time)
PUBLISH_EVERY = 3.0
#: warnings that only say the machine was slow (message prefixes, as Dask words them): silenced where a
#: cluster starts. distributed.core warns when creating a worker's scratch directory takes over 1 s.
TIMING_WARNINGS = (
    (UserWarning, "Creating scratch directories is taking a surprisingly long time"),
)


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
#
# A module's closure holds every suite module whose code can run when the module is imported and its
# functions are called: what its import statements (lazy ones too) reach, transitively, and each package on
# the way, because Python runs a package's __init__ before any of its submodules. An *inert* __init__
# (:func:`init_facts`) runs no suite code when it is imported, so it is hashed (its text decides what
# ``pkg.name`` gives) but what it re-exports is not followed from there; each import statement instead
# names what it takes:
#   ``import a.b as m``; ``from a import b`` with ``b`` a submodule the __init__ binds no other way -> a.b;
#   ``from a import name`` with ``name`` in a's ``_EXPORTS`` table (served by its __getattr__) -> the
#   submodule the table names;
#   anything else (``import a``; ``import a.b``, which binds ``a`` so every ``a.x`` is reachable;
#   ``from a import name`` of a name the __init__ binds; ``from a import *``) -> the package ``a`` whole: its
#   __init__, what it imports and everything its ``_EXPORTS`` table serves.
# A package whose __init__ is not inert is taken whole wherever one of its submodules is.

@lru_cache(maxsize=None)
def _module_source(module_name: str) -> tuple:
    """(bytes of the module's .py file or None, whether it is a package), read once per process."""
    spec = find_spec(module_name)
    if spec is None or not spec.origin or not spec.origin.endswith(".py") or not os.path.exists(spec.origin):
        return None, False
    with open(spec.origin, "rb") as fh:
        return fh.read(), spec.submodule_search_locations is not None


@dataclass(frozen=True)
class InitFacts:
    """What a package's ``__init__.py`` does when imported, read from its syntax tree."""

    #: runs no suite code: docstring, ``__future__`` or third-party imports, literal assignments, and
    #: function definitions whose decorators, defaults and annotations call nothing
    inert: bool
    #: the names it binds (assigned, defined, imported, or served through ``_EXPORTS``)
    bound: frozenset
    #: ``_EXPORTS``: name -> the submodule (relative) that defines it, loaded on first use by ``__getattr__``
    exports: Mapping[str, str]
    #: the top-level statements that make it not inert (line numbers), for the error a test prints
    active_lines: tuple


def _calls_nothing(nodes) -> bool:
    return not any(isinstance(n, ast.Call) for node in nodes if node is not None for n in ast.walk(node))


def _is_literal(node) -> bool:
    try:
        ast.literal_eval(node)
        return True
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False


def _inert_statement(node) -> bool:
    """Whether executing this top-level statement of an __init__ can run code of this suite."""
    if isinstance(node, ast.Expr):
        return isinstance(node.value, ast.Constant)  # the docstring
    if isinstance(node, ast.Import):
        return all(a.name.split(".")[0] not in OWN_PACKAGES for a in node.names)
    if isinstance(node, ast.ImportFrom):
        return node.level == 0 and (node.module or "").split(".")[0] not in OWN_PACKAGES
    if isinstance(node, (ast.Assign, ast.AnnAssign)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        return all(isinstance(t, ast.Name) for t in targets) and node.value is not None and _is_literal(node.value)
    if isinstance(node, ast.FunctionDef):
        a = node.args
        annotations = [x.annotation for x in a.posonlyargs + a.args + a.kwonlyargs + [a.vararg, a.kwarg] if x]
        return _calls_nothing(node.decorator_list + a.defaults + a.kw_defaults + annotations + [node.returns])
    return False


def _bound_names(node) -> set:
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return {(a.asname or a.name).split(".")[0] for a in node.names}
    if isinstance(node, ast.Assign):
        return {t.id for t in node.targets if isinstance(t, ast.Name)}
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        return {node.target.id}
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {node.name}
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}


def _exports_table(body) -> dict:
    for node in body:
        if (isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["_EXPORTS"]
                and _is_literal(node.value)):
            table = ast.literal_eval(node.value)
            if isinstance(table, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in table.items()):
                return table
    return {}


@lru_cache(maxsize=None)
def init_facts(package: str) -> Optional[InitFacts]:
    """:class:`InitFacts` of ``package``'s __init__, or None when ``package`` is not a package of this suite."""
    source, is_package = _module_source(package)
    if source is None or not is_package:
        return None
    body = ast.parse(source).body
    active = tuple(n.lineno for n in body if not _inert_statement(n))
    exports = _exports_table(body)
    bound = set(exports).union(*(_bound_names(n) for n in body))
    return InitFacts(inert=not active, bound=frozenset(bound), exports=exports, active_lines=active)


def _import_candidates(source: bytes, package: str) -> list:
    """Every import statement of ``source`` as one line: ``module a.b`` (``import a.b as m``), ``import a.b``
    (binds ``a``) or ``from a name`` (one per imported name; relative bases made absolute)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [f"{'module' if a.asname else 'import'} {a.name}" for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            found += [f"from {base} {a.name}" for a in node.names]
    return sorted(set(found))


def _resolve(statement: str) -> set:
    """The modules one scanned import statement takes (rules above); names outside the suite included."""
    kind, _, rest = statement.partition(" ")
    if kind == "module":
        return {rest}
    if kind == "import":  # binds the top package: every package on the way is reachable, whole
        parts = rest.split(".")
        return {".".join(parts[:i]) for i in range(1, len(parts) + 1)}
    base, _, name = rest.partition(" ")
    facts = init_facts(base) if base.split(".")[0] in OWN_PACKAGES else None
    if facts is not None and name != "*":
        if name not in facts.bound and find_spec_safe(f"{base}.{name}"):
            return {f"{base}.{name}"}
        if facts.inert and name in facts.exports:
            return {f"{base}.{facts.exports[name]}"}
    return {base}


#: the parsed import statements of each module source seen, on disk next to the results (parsing every
#: module of the suite costs seconds; a warm ``make report`` reads and hashes the files instead)
_SCANS: dict = {}
_SCANS_FILE = "import-scans-v2.json"
#: a worker runs a seceded task's thread beside its pool's: the table is shared between them
_SCANS_LOCK = threading.RLock()


def _scans() -> dict:
    with _SCANS_LOCK:
        return _load_scans()


def _load_scans() -> dict:
    if "table" not in _SCANS:
        path = os.path.join(_cache_dir(), _SCANS_FILE)
        try:
            with open(path, encoding="utf-8") as fh:
                _SCANS["table"] = json.load(fh)
        except (OSError, ValueError):
            _SCANS["table"] = {}
        _SCANS["dirty"] = False
    return _SCANS["table"]


def _save_scans() -> None:
    """Write the scan table when it grew (atomically: workers may write it at the same time)."""
    with _SCANS_LOCK:
        if not _SCANS.get("dirty"):
            return
        _SCANS["dirty"] = False
        table = dict(_SCANS["table"])
    directory = _cache_dir()
    try:
        os.makedirs(directory, exist_ok=True)
        tmp = os.path.join(directory, f".{_SCANS_FILE}.{os.getpid()}.{uuid.uuid4().hex[:6]}")
        with open(tmp, "w", encoding="utf-8") as fh:
            json.dump(table, fh)
        os.replace(tmp, os.path.join(directory, _SCANS_FILE))
    except OSError:  # a read-only cache only costs the parsing again
        pass


def _imported_own_modules(module_name: str) -> set:
    """The suite modules ``module_name``'s import statements take (anywhere, lazily too; rules above); for a
    package, also every submodule its ``_EXPORTS`` table serves."""
    return set(_imported_own_modules_cached(module_name))


@lru_cache(maxsize=None)
def _imported_own_modules_cached(module_name: str) -> frozenset:
    source, is_package = _module_source(module_name)
    if source is None:
        return frozenset()
    package = module_name if is_package else module_name.rpartition(".")[0]
    key = f"{module_name}:{hashlib.sha256(source).hexdigest()}"
    table = _scans()
    statements = table.get(key)
    if statements is None:
        statements = _import_candidates(source, package)
        with _SCANS_LOCK:
            table[key] = statements
            _SCANS["dirty"] = True
    names = set().union(*map(_resolve, statements)) if statements else set()
    if is_package:
        names |= {f"{module_name}.{sub}" for sub in init_facts(module_name).exports.values()}
    return frozenset(n for n in names if n.split(".")[0] in OWN_PACKAGES and find_spec_safe(n))


@lru_cache(maxsize=None)
def find_spec_safe(name: str) -> bool:
    try:
        return find_spec(name) is not None
    except (ImportError, ValueError, AttributeError):
        return False


def _packages_of(module_name: str) -> list:
    parts = module_name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


def closure_parents(module_name: str) -> dict:
    """``module -> (parent, how)`` for every module in ``module_name``'s closure (breadth first, so each
    parent chain is a shortest one): ``how`` is ``"imports"`` (the parent imports it), ``"package"`` (it is
    an inert package of the parent: hashed, its re-exports not followed) or ``"package, not inert"``."""
    parents, todo = {module_name: (None, "")}, [module_name]
    for name in todo:  # todo grows while it is walked: a queue
        found = [(m, "imports") for m in sorted(_imported_own_modules(name))]
        for pkg in _packages_of(name):
            facts = init_facts(pkg)
            found.append((pkg, "package" if facts is not None and facts.inert else "package, not inert"))
        for m, how in found:
            # a package first met on the way (hashed only) is taken whole once a module imports it
            if m not in parents or (parents[m][1] == "package" and how != "package"):
                parents[m] = (name, how)
                if how != "package":
                    todo.append(m)
    _save_scans()
    return parents


def closure(module_name: str) -> frozenset:
    """The suite modules whose sources key ``module_name`` (see the rules above)."""
    return frozenset(closure_parents(module_name))


@lru_cache(maxsize=None)
def source_digest(module_name: str) -> str:
    """SHA-256 over the sources of ``module_name``'s :func:`closure`."""
    h = hashlib.sha256()
    for name in sorted(closure(module_name)):
        source, _ = _module_source(name)
        if source is not None:
            h.update(name.encode())
            h.update(source)
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


@contextmanager
def quiet_timing_warnings():
    """Silence :data:`TIMING_WARNINGS` (exactly those messages) inside the block."""
    with warnings.catch_warnings():
        for category, prefix in TIMING_WARNINGS:
            warnings.filterwarnings("ignore", message=re.escape(prefix), category=category)
        yield


def start_local_cluster(n_workers: int):
    """A ``distributed.LocalCluster`` of ``n_workers`` single-threaded worker processes, started with the
    timing warnings of a loaded machine silenced (the one way this suite and its tests start one)."""
    from distributed import LocalCluster

    with quiet_timing_warnings():
        return LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=True,
                            dashboard_address=":0", silence_logs=40)


def _local_client():
    """One local cluster per process: one single-threaded worker process per core."""
    with _LOCK:
        if "client" not in _LOCAL:
            from distributed import Client

            n = int(os.environ.get("DPV_WORKERS", os.cpu_count() or 1))
            cluster = start_local_cluster(n)
            with quiet_timing_warnings():
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
    """(backend, address) for this sweep, applying the rules in the module docstring; inside a Dask
    worker the backend is ``"nested"`` (the worker's own cluster) or ``"serial"``."""
    if _inside_dask_worker():
        return ("serial" if backend == "serial" or n_todo < NESTED_MIN_POINTS else "nested"), None
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


def _bar(total: int, desc: Optional[str]):
    from tqdm.auto import tqdm

    quiet = bool(os.environ.get("CI")) or not sys.stderr.isatty()
    return tqdm(total=total, desc=desc, disable=quiet, leave=False)


def _counts_text(desc: str, done: int, total: int, elapsed: float, unit: str = "points") -> str:
    """``desc: done/total points, elapsed, about N s left`` (the estimate: the mean time per finished point)."""
    left = f"about {elapsed / done * (total - done):.0f} s left" if done else "no estimate yet"
    return f"{desc}: {done}/{total} {unit} done, {elapsed:.0f} s, {left}"


#: per thread, its running sweeps, outermost first (a sweep called inside a serial point nests here)
_RUNNING = threading.local()


def _active() -> list:
    if not hasattr(_RUNNING, "stack"):
        _RUNNING.stack = []
    return _RUNNING.stack


class _Progress:
    """A sweep's counts: a terminal bar, the ``progress=`` lines (at least every :data:`PROGRESS_EVERY` s,
    with the innermost running sweep's counts), and, inside a Dask worker, counts published on the scheduler."""

    def __init__(self, total: int, desc: str, emit: Optional[Callable[[str], None]], publish: bool,
                 unit: str = "points"):
        self.total, self.desc, self.done, self.unit = total, desc, 0, unit
        self.t0 = self.last = time.monotonic()
        self.published = -math.inf  # a nested sweep shows up on its first tick
        self.emit = emit
        self.root = None if emit is not None or not _active() else _active()[0]
        self.token = f"{desc}-{uuid.uuid4().hex[:8]}" if publish else None
        self.client = None  # the worker's client, for publishing
        self.bar = _bar(total, desc)

    def __enter__(self):
        _active().append(self)
        return self

    def __exit__(self, *exc):
        _active().remove(self)
        self.bar.close()
        self._publish(final=True)

    def text(self) -> str:
        return _counts_text(self.desc, self.done, self.total, time.monotonic() - self.t0, self.unit)

    def update(self, n: int = 1) -> None:
        self.done += n
        self.bar.update(n)
        self.tick()

    def tick(self, inner: Optional[Callable[[], str]] = None) -> None:
        """Emit a line when one is due (``inner`` adds the counts of a sweep running inside a point)."""
        now = time.monotonic()
        if self.token is not None and now - self.published >= PUBLISH_EVERY:
            self._publish()
        if self.root is not None:  # a sweep inside a serial point: the outermost one speaks for both
            self.root.tick(inner=self.text)
        elif self.emit is not None and now - self.last >= PROGRESS_EVERY:
            self.last = now
            inside = inner() if inner else None
            self.emit(self.text() + (f"; inside: {inside}" if inside else ""))

    def _publish(self, final: bool = False) -> None:
        if self.token is None:
            return
        self.published = time.monotonic()
        try:
            if self.client is None:
                from distributed import get_client

                self.client = get_client()
            self.client.set_metadata([PROGRESS_KEY, self.token],
                                     {"desc": self.desc, "done": self.done, "total": self.total, "unit": self.unit,
                                      "elapsed": self.published - self.t0, "finished": final, "at": time.time()})
        except Exception:  # noqa: BLE001 - progress is best effort, never a failed sweep
            self.token = None


def nested_progress(client) -> Optional[str]:
    """The counts of the sweeps running inside workers of ``client``'s cluster (None when there are none)."""
    try:
        table = client.get_metadata([PROGRESS_KEY], default={}) or {}
    except Exception:  # noqa: BLE001 - progress is best effort
        return None
    now = time.time()  # an entry not refreshed for a while belongs to a sweep whose worker died
    running = [v for v in table.values() if isinstance(v, dict) and not v.get("finished")
               and now - v.get("at", 0) < _STALE_AFTER]
    return "; ".join(_counts_text(v["desc"], v["done"], v["total"], v["elapsed"], v.get("unit", "points"))
                     for v in running) or None


#: seconds after which an unrefreshed published count is ignored
_STALE_AFTER = 300.0


def _name(fn) -> str:
    return f"{fn.__module__}.{fn.__qualname__}"


def _fail(fn, point, kind: str, message: str) -> SweepError:
    msg = message.splitlines()[0] if message else ""
    return SweepError(f"{_name(fn)} failed at {point!r}: {kind}: {msg}")


def _run_serial(call, todo, points, fn, on_error, prog):
    out = {}
    for i in todo:
        try:
            out[i] = call(points[i])
        except Exception as exc:  # noqa: BLE001 - named and re-raised, or recorded
            if on_error == "raise":
                raise _fail(fn, points[i], type(exc).__name__, str(exc)) from exc
            out[i] = SweepFailure(points[i], f"{type(exc).__name__}: {exc}")
        prog.update(1)
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


def _chunks(todo, points, workers: int, per_worker: int = 8) -> list:
    """About ``per_worker`` chunks per worker (strided, so costs that grow along the points spread evenly),
    so work balances and progress moves."""
    n = max(1, min(len(todo), per_worker * max(1, workers)))
    return [[(i, points[i]) for i in todo[k::n]] for k in range(n) if todo[k::n]]


#: seconds between two looks at the futures while none finishes (the progress lines' clock)
_POLL = 0.2


def _run_dask(client, call, todo, points, fn, on_error, prog, workers, per_worker=8):
    from distributed import as_completed

    futures = [client.submit(_Chunk(call), chunk, pure=False)
               for chunk in _chunks(todo, points, workers, per_worker)]
    out = {}
    done = as_completed(futures)
    while not done.is_empty():
        batch = done.next_batch(block=False)
        if not batch:
            time.sleep(_POLL)
            prog.tick(inner=lambda: nested_progress(client))
            continue
        for fut in batch:
            if fut.status == "error":  # the task itself failed (e.g. a worker died more often than allowed)
                for other in futures:
                    other.cancel()
                exc = fut.exception()
                raise SweepError(f"{_name(fn)}: a Dask task failed: {type(exc).__name__}: "
                                 f"{str(exc).splitlines()[0] if str(exc) else ''}") from None
            chunk = fut.result()
            for i, r in chunk:
                if isinstance(r, _Raised):
                    if on_error == "raise":
                        for other in futures:
                            other.cancel()
                        raise _fail(fn, points[i], r.kind, r.message)
                    r = SweepFailure(points[i], f"{r.kind}: {r.message}")
                out[i] = r
            prog.update(len(chunk))
    return out


def _run_nested(call, todo, points, fn, on_error, prog):
    """Points of a sweep called inside a Dask task: on that task's cluster, the task seceded meanwhile."""
    from distributed import worker_client

    with worker_client() as client:
        workers = len(client.scheduler_info().get("workers", {}))
        # small chunks: a nested sweep is one long claim's work, its progress lines should move
        return _run_dask(client, call, todo, points, fn, on_error, prog, workers, per_worker=32), workers


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
          on_error: str = "raise", stats: Optional[dict] = None, use_cache: bool = True,
          progress: Optional[Callable[[str], None]] = None, unit: str = "points") -> List[Any]:
    """Return ``[fn(**p) for p in points]``, computed on the chosen backend, through the cache.

    ``cache=False`` recomputes every point (and refreshes the stored results); ``use_cache=False``
    neither reads nor writes the cache. ``stats``, when given, is filled with backend, scheduler,
    workers, wall_time, cache_hits, cache_misses and per-point ``seconds``. ``progress`` receives a
    line at least every :data:`PROGRESS_EVERY` seconds while points compute (see the module docstring),
    counting ``unit`` (what a point is: "points", "claims", "boxes").
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
    with _Progress(len(todo), desc or fn.__qualname__, progress, _inside_dask_worker(), unit) as prog:
        if not todo or chosen == "serial":
            results.update(_run_serial(call, todo, points, fn, on_error, prog))
        elif chosen == "nested":
            done, workers = _run_nested(call, todo, points, fn, on_error, prog)
            results.update(done)
        else:
            if chosen == "local" and "client" not in _LOCAL and progress:
                progress(f"{desc or fn.__qualname__}: starting a local Dask cluster")
            client = _local_client() if chosen == "local" else _remote_client(address)
            try:
                workers = len(client.scheduler_info().get("workers", {}))
                results.update(_run_dask(client, call, todo, points, fn, on_error, prog, workers))
            finally:
                if chosen == "cluster":
                    client.close()
    ordered = [results[i] for i in range(len(points))]
    if stats is not None:
        stats.update(backend=chosen, scheduler=address, workers=workers, cache_hits=hits,
                     cache_misses=len(todo), wall_time=time.perf_counter() - t0,
                     seconds=[None if isinstance(r, SweepFailure) else r[1] for r in ordered])
    return [r if isinstance(r, SweepFailure) else r[0] for r in ordered]
