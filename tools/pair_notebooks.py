"""Regenerate a derivation notebook (.ipynb) from its jupytext source (.py), deterministically.

    python tools/pair_notebooks.py [--execute] SOURCE.py OUTPUT.ipynb

The .py file is the source of truth. Jupytext gives each new cell a random id; this script numbers the
cells instead (``cell-0``, ``cell-1``, ...), so the output-free .ipynb committed beside the .py is a pure
function of it (``make clean-notebooks`` writes it, a test checks it). ``--execute`` runs the notebook
with nbclient before writing it (``make notebooks`` writes the executed copy outside the tree); a failing
cell (an assertion on what the notebook shows) exits non-zero.
"""
import sys
from pathlib import Path


def notebook_text(source: Path) -> str:
    """The output-free notebook of a jupytext percent-format source, with numbered cell ids."""
    import jupytext
    import nbformat

    nb = jupytext.read(str(source))
    for i, cell in enumerate(nb.cells):
        cell["id"] = f"cell-{i}"
        if cell.get("cell_type") == "code":
            cell["outputs"], cell["execution_count"] = [], None
    return nbformat.writes(nb) + "\n"


def executed_text(text: str, cwd: Path) -> str:
    """The notebook ``text`` after running every cell with nbclient in ``cwd`` (raises on a failing cell)."""
    import nbclient
    import nbformat

    nb = nbformat.reads(text, as_version=4)
    nbclient.NotebookClient(nb, timeout=1800, resources={"metadata": {"path": str(cwd)}}).execute()
    return nbformat.writes(nb) + "\n"


def main(argv=None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    execute = "--execute" in args
    args = [a for a in args if a != "--execute"]
    if len(args) != 2:
        print("usage: python tools/pair_notebooks.py [--execute] SOURCE.py OUTPUT.ipynb", file=sys.stderr)
        return 2
    source, output = Path(args[0]), Path(args[1])
    text = notebook_text(source)
    if execute:
        text = executed_text(text, source.parent)
    output.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
