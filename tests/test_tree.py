"""Hygiene of the tree (issue 16, "Trust"): no machine path in tracked text, no skipping of our own
modules or of the peers, `make test` fails on any pytest failure (exit 5 included), and each derivation
notebook's tracked .ipynb is the deterministic, output-free conversion of its jupytext .py."""
import importlib.util
import re
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
#: a machine path: a home or work directory of the host that ran something (spelled in pieces, so this
#: file does not match itself)
MACHINE_PATH = re.compile("(?<![\\w.])/(?:" + "|".join(["wo" + "rk", "ro" + "ot", "ho" + "me"]) + ")/")
#: files that still carry one (the audit, issue 17, removes them from claim modules)
KNOWN_MACHINE_PATHS: frozenset = frozenset()
TEXT_SUFFIXES = {".py", ".md", ".toml", ".txt", ".json", ".ipynb", ".cfg", ".ini", ".yml", ".yaml", ".html",
                 ".js", ".css", ".csv", ""}
#: our packages and the peers that [peers] installs: a missing one is a failure, never a skip
NEVER_SKIPPED = ("numerics", "repro", "theory", "figures", "dp_accounting", "prv_accountant")


def tracked_text_files():
    out = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, text=True, check=True).stdout
    paths = [REPO / p for p in out.split("\0") if p]
    return [p for p in paths if p.is_file() and p.suffix in TEXT_SUFFIXES and p.stat().st_size < 5_000_000]


def test_no_machine_paths_in_tracked_files():
    offenders = {}
    for path in tracked_text_files():
        rel = path.relative_to(REPO).as_posix()
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        hits = [n for n, line in enumerate(text.splitlines(), 1) if MACHINE_PATH.search(line)]
        if hits and rel not in KNOWN_MACHINE_PATHS:
            offenders[rel] = hits[:5]
        if not hits:
            assert rel not in KNOWN_MACHINE_PATHS, f"{rel} is clean now: remove it from KNOWN_MACHINE_PATHS"
    assert not offenders, f"machine paths (file: line numbers): {offenders}"


def test_no_importorskip_of_our_modules_or_the_peers():
    pattern = re.compile(r"importorskip\(\s*['\"]([\w.]+)")
    found = []
    for path in sorted((REPO / "tests").glob("*.py")):
        for name in pattern.findall(path.read_text(encoding="utf-8")):
            if name.split(".")[0] in NEVER_SKIPPED:
                found.append(f"{path.name}: {name}")
    assert not found, f"import these directly (a missing module must fail): {found}"


def test_no_test_skips_on_missing_seeds():
    found = [f"{p.name}:{n}" for p in sorted((REPO / "tests").glob("test_*.py")) if p.name != "test_tree.py"
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if "pytest.skip(" in line and "seed" in line.lower()]
    assert not found, f"use tests.seeds.seed_path (fails with a clear message) instead of skipping: {found}"


def test_make_test_does_not_map_pytest_exit_5_to_success():
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    recipe = makefile[makefile.index("\ntest:"):makefile.index("\ntest-all:")]
    assert "pytest" in recipe and "-eq 5" not in recipe and "|| true" not in recipe


def _pair_notebooks():
    spec = importlib.util.spec_from_file_location("pair_notebooks", REPO / "tools" / "pair_notebooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("source", sorted((REPO / "theory" / "notebooks").glob("*.py")), ids=lambda p: p.stem)
def test_tracked_notebook_is_the_output_free_conversion_of_its_source(source):
    ipynb = source.with_suffix(".ipynb")
    assert ipynb.is_file(), f"{ipynb.name} missing: run make clean-notebooks"
    assert ipynb.read_text(encoding="utf-8") == _pair_notebooks().notebook_text(source), (
        f"{ipynb.name} differs from the conversion of {source.name}: run make clean-notebooks and commit")


def test_a_missing_seed_fails_with_a_clear_message(monkeypatch, tmp_path):
    from tests import seeds

    monkeypatch.setattr(seeds, "SEEDS_DIR", tmp_path)
    with pytest.raises(AssertionError, match="DPV_SEEDS_DIR"):
        seeds.seed_path("002_13c470b90c68bab6.txt")
