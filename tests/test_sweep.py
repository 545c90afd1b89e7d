"""The sweep runner: equal results on every backend, cache behaviour, faults, bad input (issue 11)."""
import os
import signal
import threading
import time

import pytest

from numerics import sweep as sw
from tests import sweep_fns as f

POINTS = [{"x": float(i), "y": 0.5 * i} for i in range(24)]
EXPECTED = [f.square_plus(**p) for p in POINTS]


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("DPV_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.fixture(scope="module")
def local_two():
    """A 2-worker local cluster started by the test (the runner's own local cluster is reused)."""
    os.environ["DPV_WORKERS"] = "2"
    yield
    sw.close_local_cluster()
    os.environ.pop("DPV_WORKERS", None)


def test_serial_matches_direct_calls(cache_dir):
    stats = {}
    assert sw.sweep(f.square_plus, POINTS, backend="serial", stats=stats) == EXPECTED
    assert stats["backend"] == "serial" and stats["cache_misses"] == len(POINTS)


def test_local_cluster_matches_serial_bit_for_bit(cache_dir, local_two):
    stats = {}
    assert sw.sweep(f.square_plus, POINTS, backend="local", use_cache=False, stats=stats) == EXPECTED
    assert stats["backend"] == "local" and stats["workers"] == 2


def test_existing_scheduler_by_address_matches_serial(cache_dir):
    with sw.start_local_cluster(2) as cluster:
        stats = {}
        got = sw.sweep(f.square_plus, POINTS, scheduler=cluster.scheduler_address, use_cache=False,
                       stats=stats)
    assert got == EXPECTED and stats["backend"] == "cluster"


def test_env_address_selects_cluster(monkeypatch):
    monkeypatch.setenv("DASK_SCHEDULER_ADDRESS", "tcp://127.0.0.1:1")
    monkeypatch.delenv("DPV_BACKEND", raising=False)
    import dask

    dask.config.refresh()
    try:
        assert sw.resolve_backend(None, None, 1) == ("cluster", "tcp://127.0.0.1:1")
    finally:
        monkeypatch.delenv("DASK_SCHEDULER_ADDRESS")
        dask.config.refresh()


def test_unreachable_scheduler_is_one_line_error(monkeypatch):
    monkeypatch.setenv("DPV_CONNECT_TIMEOUT", "1")
    with pytest.raises(sw.SweepError) as e:
        sw.sweep(f.square_plus, POINTS[:2], scheduler="tcp://127.0.0.1:9", use_cache=False)
    assert "\n" not in str(e.value) and "127.0.0.1:9" in str(e.value) and "within 1 s" in str(e.value)


def test_connect_timeout_is_handed_to_dask(monkeypatch):
    """DPV_CONNECT_TIMEOUT reaches the Client (checked without a clock: a loaded machine cannot flake it)."""
    import distributed

    seen = {}

    def refuse(address, timeout=None):
        seen.update(address=address, timeout=timeout)
        raise OSError("refused")

    monkeypatch.setattr(distributed, "Client", refuse)
    monkeypatch.setenv("DPV_CONNECT_TIMEOUT", "3")
    with pytest.raises(sw.SweepError, match="within 3 s"):
        sw.sweep(f.square_plus, POINTS[:2], scheduler="tcp://127.0.0.1:9", use_cache=False)
    assert seen == {"address": "tcp://127.0.0.1:9", "timeout": 3.0}


def test_failure_names_the_point(cache_dir):
    pts = [{"x": i} for i in range(5)]
    with pytest.raises(sw.SweepError, match=r"\{'x': 3\}.*three is not allowed"):
        sw.sweep(f.fails_at_three, pts, backend="serial")


def test_failure_recorded_and_others_cached(cache_dir):
    pts = [{"x": i} for i in range(5)]
    out = sw.sweep(f.fails_at_three, pts, backend="serial", on_error="record")
    assert isinstance(out[3], sw.SweepFailure) and out[3].point == {"x": 3}
    assert [o for i, o in enumerate(out) if i != 3] == [0, 1, 2, 4]
    stats = {}
    sw.sweep(f.fails_at_three, pts, backend="serial", on_error="record", stats=stats)
    assert stats["cache_hits"] == 4 and stats["cache_misses"] == 1  # finished points resume


def test_failure_on_local_cluster_names_the_point(cache_dir, local_two):
    pts = [{"x": i} for i in range(5)]
    with pytest.raises(sw.SweepError, match=r"\{'x': 3\}"):
        sw.sweep(f.fails_at_three, pts, backend="local", use_cache=False)


def test_cache_hits_fresh_and_version(cache_dir, monkeypatch):
    stats = {}
    first = sw.sweep(f.square_plus, POINTS, backend="serial", stats=stats)
    assert stats["cache_misses"] == len(POINTS)
    second = sw.sweep(f.square_plus, POINTS, backend="serial", stats=stats)
    assert stats["cache_hits"] == len(POINTS) and stats["cache_misses"] == 0
    assert first == second == EXPECTED  # a cache can never change a result
    sw.sweep(f.square_plus, POINTS, backend="serial", cache=False, stats=stats)  # FRESH=1
    assert stats["cache_hits"] == 0 and stats["cache_misses"] == len(POINTS)
    monkeypatch.setattr(f.square_plus, "version", "2")
    sw.sweep(f.square_plus, POINTS, backend="serial", stats=stats)
    assert stats["cache_hits"] == 0  # a new version invalidates the old entries


def test_source_digest_follows_imports():
    assert len(sw.source_digest("numerics.sweep")) == 64
    assert "numerics.errors" in sw._imported_own_modules("numerics.schedule")


def test_worker_killed_mid_sweep_costs_no_result(cache_dir, local_two):
    """Kill one worker of the 2-worker local cluster while tasks run; every result still arrives."""
    client = sw._local_client()
    pts = [{"x": float(i), "delay": 0.2} for i in range(20)]

    pids = client.run(os.getpid)  # {worker address: pid}
    assert len(pids) == 2

    def kill_one():
        time.sleep(0.8)
        os.kill(next(iter(pids.values())), signal.SIGKILL)

    killer = threading.Thread(target=kill_one)
    killer.start()
    try:
        got = sw.sweep(f.slow_square, pts, backend="local", use_cache=False)
    finally:
        killer.join()
    assert got == [p["x"] ** 2 for p in pts]


def test_bad_backend_and_on_error():
    with pytest.raises(sw.SweepError):
        sw.sweep(f.square_plus, POINTS, backend="threads")
    with pytest.raises(sw.SweepError):
        sw.sweep(f.square_plus, POINTS, on_error="ignore")
    with pytest.raises(sw.SweepError):
        sw.resolve_backend("cluster", None, 1)


def test_slow_cluster_start_warning_never_fails_a_start(monkeypatch):
    """Issue 34: on a loaded machine Dask warns that creating scratch directories took over 1 s, and
    ``filterwarnings = error`` turned that into a failed cluster start. Make the warning fire every time:
    the start must still succeed, and a warning that is not about timing must still be an error."""
    import warnings

    import distributed.core
    from distributed.utils import warn_on_duration

    monkeypatch.setattr(distributed.core, "warn_on_duration", lambda duration, msg: warn_on_duration(0, msg))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with sw.start_local_cluster(1) as cluster:
            assert cluster.scheduler_address
        with sw.quiet_timing_warnings(), pytest.raises(UserWarning, match="not about timing"):
            warnings.warn("not about timing", UserWarning)


def test_sweep_inside_a_point_shares_the_workers(cache_dir, local_two):
    """A point that sweeps (a claim certifying over boxes) spreads its points over every worker of the
    cluster it runs on, instead of computing them alone; results come back in order."""
    stats = {}
    (pids,) = sw.sweep(f.inner_sweep_pids, [{"n": 8}], backend="local", use_cache=False, stats=stats)
    assert stats["workers"] == 2 and len(pids) == 8
    assert len(set(pids)) == 2, pids


def test_progress_lines_name_the_sweep_inside_a_point(cache_dir, local_two, monkeypatch):
    """While a long point runs, ``progress`` gets lines with the counts of the sweep inside it."""
    monkeypatch.setattr(sw, "PROGRESS_EVERY", 0.3)
    lines = []
    sw.sweep(f.inner_sweep_pids, [{"n": 12, "delay": 0.4}], backend="local", use_cache=False,
             progress=lines.append, desc="outer", unit="claims")
    assert lines and all(line.startswith("outer: ") for line in lines)
    assert any("inside: inner: " in line and "/12 points done" in line for line in lines), lines


def test_progress_lines_in_process(cache_dir, monkeypatch):
    """Serially, the outer sweep's line carries the inner sweep's counts too; silent sweeps stay silent."""
    monkeypatch.setattr(sw, "PROGRESS_EVERY", 0.1)
    lines = []
    sw.sweep(f.inner_sweep_pids, [{"n": 4, "delay": 0.1}] * 2, backend="serial", use_cache=False,
             progress=lines.append, desc="outer")
    assert any(line.startswith("outer: ") and "inside: inner: " in line and "left" in line for line in lines), lines
    assert sw.sweep(f.square_plus, POINTS, backend="serial", use_cache=False) == EXPECTED


def test_certificate_boxes_are_keyed_without_the_ledger(monkeypatch):
    """Issue 34: a certificate's boxes are cached under the certifier's and the margins' own sources, so an
    edit to theory/ledger.py or to a claim's metadata recomputes verdicts but no certificate box."""
    import numerics.certify
    from theory.lemmas import certificates as tc

    seen = []

    def record(fn, points, **kwargs):
        seen.extend(points)
        return [{"status": "certified", "boxes": 1, "certified_boxes": 1, "skipped_boxes": 0, "min_margin": 1.0,
                 "counterexample": None, "open_boxes": []} for _ in points]

    monkeypatch.setattr(numerics.certify, "sweep", record)
    tc.certify_lemma_b3(2, 4.0)
    margins = {p["margin_ref"].partition(":")[0] for p in seen}
    assert margins == {"theory.lemmas.tail_lemma_hull"}
    assert {p["digest"] for p in seen} == {sw.source_digest("theory.lemmas.tail_lemma_hull")}
    keyed = sw.closure("numerics.certify") | sw.closure("theory.lemmas.tail_lemma_hull")
    margin_modules = {"theory.lemmas.tail_lemma_balls", "theory.lemmas.tail_lemma_hull"}
    # the packages on the way (theory, theory.lemmas) are hashed: inert __init__s, docstrings only
    assert not {m for m in keyed if m.startswith("theory.") and m not in margin_modules
                and not (sw.init_facts(m) and sw.init_facts(m).inert)}, keyed
