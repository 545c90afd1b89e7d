"""Regenerate a derivation notebook (.ipynb) from its jupytext source (.py), deterministically.

    python tools/pair_notebooks.py SOURCE.py OUTPUT.ipynb

The .py file is the source of truth. Jupytext gives each new cell a random id; this script numbers the
cells instead (``cell-0``, ``cell-1``, ...), so the output-free .ipynb committed beside the .py is a pure
function of it (``make clean-notebooks`` writes it, a test checks it) and ``make notebooks`` executes a
fresh copy outside the tree.
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


def main(argv=None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2:
        print("usage: python tools/pair_notebooks.py SOURCE.py OUTPUT.ipynb", file=sys.stderr)
        return 2
    Path(args[1]).write_text(notebook_text(Path(args[0])), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
