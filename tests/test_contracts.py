"""The import contracts of pyproject.toml ([tool.importlinter]) hold: lint-imports exits 0.

Layers figures -> theory -> repro -> numerics; inside theory the report over the paper packages over the
shared results (theory.lemmas) over the ledger; lemmas import no paper; paper packages are independent;
no cycles between sibling modules.
"""
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def test_import_contracts_are_kept():
    lint = Path(sys.executable).with_name("lint-imports")  # installed by the dev extra beside the interpreter
    assert lint.exists(), f"lint-imports not found beside {sys.executable}: install the dev extra (import-linter)"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)}
    done = subprocess.run([str(lint), "--no-cache"], cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"import contracts broken:\n{done.stdout[-4000:]}\n{done.stderr[-2000:]}"
