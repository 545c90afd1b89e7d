"""The source closure behind every cache key and figure digest (numerics.sweep.closure) is sound and precise.

Sound: every suite module that runs when a module is imported is in its static closure (a fresh interpreter
per module; a missed module would let an edit of it through the digest). Precise: a package __init__ runs
no suite code when imported (the hypothesis under which ``from pkg import sub`` takes ``pkg.sub`` alone), and
the training functions run through the sweep are not keyed by an accountant they cannot call.
"""
import json
import pathlib
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

from numerics import sweep as sw

ROOT = pathlib.Path(__file__).resolve().parents[1]

#: every package of the suite (a directory with an __init__.py under one of the four layers)
PACKAGES = sorted(".".join(p.parent.relative_to(ROOT).parts) for top in sw.OWN_PACKAGES
                  for p in (ROOT / top).rglob("__init__.py") if "__pycache__" not in p.parts)

#: the training functions' modules (their sweep functions: async_fl/decentralized/edge_fl.run_point,
#: experiments.utility_fractions, dp_fed_ls.runs.run_point/mia_auc), accountant sweeps, and figure scripts
#: of each seed, among them the ones whose chains were long (fig_001_2 through figures.decentralized_plots)
SAMPLE = ("repro.async_fl", "repro.decentralized", "repro.edge_fl", "repro.experiments", "theory.dp_fed_ls.runs",
          "theory.proactive_dp.calculators", "figures.fig_000_1a", "figures.fig_001_2", "figures.fig_002_eps_sweep",
          "figures.fig_003_7", "figures.table_004_2")

#: accountant modules that a training function cannot call (the brief's edits of issue hclosure)
ACCOUNTANTS = ("numerics.knorm", "numerics.location_pairs", "numerics.location_onestep", "numerics.pld",
               "numerics.pld_onestep", "numerics.accounting", "numerics.certified", "numerics.calibrate")

_LOADED = ("import importlib, json, sys; importlib.import_module(sys.argv[1]); "
           "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in {tops})))")


def test_the_packages_were_found():
    assert {"numerics", "repro", "theory", "figures", "theory.async_fl", "theory.lemmas"} <= set(PACKAGES)


@pytest.mark.parametrize("package", PACKAGES)
def test_every_package_init_is_inert(package):
    """Docstring, third-party imports, literal assignments and plain defs only: importing the package runs
    no suite code, so a submodule's digest need not follow what the package re-exports."""
    facts = sw.init_facts(package)
    assert facts is not None and facts.inert, (
        f"{package}/__init__.py runs code at line(s) {facts.active_lines if facts else '?'}: re-export it "
        "through _EXPORTS and __getattr__ (see numerics/__init__.py) instead")


@pytest.mark.parametrize("package", [p for p in PACKAGES if sw.init_facts(p).exports])
def test_exports_name_submodules_and_are_served(package):
    """_EXPORTS maps each name to a submodule that defines it, shadows no submodule, and __getattr__ serves it."""
    import importlib

    pkg = importlib.import_module(package)
    for name, sub in sw.init_facts(package).exports.items():
        assert sw.find_spec_safe(f"{package}.{sub}") and not sw.find_spec_safe(f"{package}.{name}")
        assert getattr(pkg, name) is getattr(importlib.import_module(f"{package}.{sub}"), name)


def _loaded(module: str) -> set:
    code = _LOADED.format(tops=set(sw.OWN_PACKAGES))
    out = subprocess.run([sys.executable, "-c", code, module], cwd=ROOT, capture_output=True, text=True,
                         check=True, timeout=120)
    return set(json.loads(out.stdout))


def test_what_an_import_runs_is_inside_the_static_closure():
    """In a fresh interpreter per module, the suite modules in sys.modules after importing it are a subset
    of its closure (two at a time: each takes a few seconds)."""
    with ThreadPoolExecutor(2) as pool:
        loaded = dict(zip(SAMPLE, pool.map(_loaded, SAMPLE)))
    missed = {m: sorted(loaded[m] - sw.closure(m)) for m in SAMPLE}
    assert not any(missed.values()), missed
    assert all(m in loaded[m] for m in SAMPLE)


def _figure_modules() -> list:
    return sorted(f"figures.{p.stem}" for p in (ROOT / "figures").glob("*.py") if p.stem.startswith(("fig_", "table_")))


@pytest.mark.parametrize("module", list(SAMPLE) + ["theory.dp_fed_ls.certified"])
def test_the_closure_is_closed(module):
    """Every module taken whole has its imports inside the closure, and a package kept as hashed-only is
    imported by none of them (one met first as a package on the way and imported later is taken whole)."""
    parents = sw.closure_parents(module)
    whole = [m for m, (_, how) in parents.items() if how != "package"]
    imported = set().union(*(sw._imported_own_modules(m) for m in whole))
    assert imported <= set(parents)
    assert not {m for m, (_, how) in parents.items() if how == "package"} & imported


def test_every_figure_closure_is_closed():
    """The same for every figure script (static only: fast)."""
    for module in _figure_modules():
        parents = sw.closure_parents(module)
        whole = [m for m, (_, how) in parents.items() if how != "package"]
        imported = set().union(*(sw._imported_own_modules(m) for m in whole))
        assert imported <= set(parents) and not {m for m, (_, h) in parents.items() if h == "package"} & imported, module


def test_the_static_closure_sees_an_accountant_where_a_module_can_call_it():
    """The precise rule keeps the accountants where they can run: a module that calls numerics.epsilon
    through ``import numerics`` and the caption code that certifies an arm."""
    assert "numerics.accounting" in sw.closure("theory.lemmas.adaptive_gap")  # import numerics; numerics.epsilon
    assert "numerics.certified" in sw.closure("figures.arm_epsilon")
    assert "numerics.accounting" in sw.closure("numerics")  # the package itself: all that it serves
    # import numerics after numerics.errors met the package on the way: taken whole all the same
    assert "numerics.accounting" in sw.closure("theory.dp_fed_ls.certified")


@pytest.mark.parametrize("module", ["repro.async_fl", "repro.decentralized", "repro.edge_fl", "repro.experiments",
                                    "theory.dp_fed_ls.runs"])
def test_training_keys_cover_no_accountant(module):
    """A training run calls no accountant (repro.epsilon certifies afterwards), so an accountant edit keeps
    its cached runs."""
    assert not set(ACCOUNTANTS) & sw.closure(module)


def test_import_forms_resolve_as_documented():
    """``from pkg import sub`` -> pkg.sub; ``from pkg import name`` via _EXPORTS -> its submodule;
    ``import pkg.sub`` (binds pkg) -> pkg whole; ``import pkg.sub as m`` -> pkg.sub."""
    assert sw._resolve("from numerics sweep") == {"numerics.sweep"}
    assert sw._resolve("from numerics epsilon") == {"numerics.accounting"}
    assert sw._resolve("from numerics __version__") == {"numerics"}
    assert sw._resolve("import numerics.pld") == {"numerics", "numerics.pld"}
    assert sw._resolve("module numerics.pld") == {"numerics.pld"}
    assert sw._resolve("from numerics.sweep sweep") == {"numerics.sweep"}
