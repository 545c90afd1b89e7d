"""Which suite files every figure's provenance digest covers (editing one stales those figures).

    python tools/figure_closure.py              # each covered file, with how many figure scripts cover it
    python tools/figure_closure.py FILE ...     # for each FILE: the figure scripts it would stale

A figure's sidecar records ``numerics.sweep.source_digest`` of its script: the script and every suite
module it imports, transitively. Any edit to one of those files makes ``repro.provenance.check_fresh``
report the figure stale, and the figure claims that read it fail until it is regenerated.
"""
import collections
import pathlib
import sys

from numerics import sweep

ROOT = pathlib.Path(__file__).resolve().parents[1]


def closure(module: str) -> set:
    seen, todo = set(), [module]
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(sweep._imported_own_modules(name) - seen)
    return seen


def module_file(name: str) -> str:
    base = ROOT.joinpath(*name.split("."))
    return str((base / "__init__.py" if base.is_dir() else base.with_suffix(".py")).relative_to(ROOT))


def covering() -> dict:
    """file -> sorted figure scripts whose digest covers it."""
    out = collections.defaultdict(set)
    for script in sorted((ROOT / "figures").glob("*.py")):
        if script.stem.startswith(("fig_", "table_")):
            for name in closure(f"figures.{script.stem}"):
                out[module_file(name)].add(script.stem)
    return {k: sorted(v) for k, v in out.items()}


if __name__ == "__main__":
    table = covering()
    if len(sys.argv) > 1:
        for f in sys.argv[1:]:
            figs = table.get(str(pathlib.Path(f)), [])
            print(f"{f}: {len(figs)} figure(s){': ' + ' '.join(figs) if figs else ''}")
    else:
        for f, figs in sorted(table.items()):
            print(f"{len(figs):3d}  {f}")
