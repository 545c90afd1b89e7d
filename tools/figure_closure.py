"""Which suite files every figure's provenance digest covers (editing one stales those figures).

    python tools/figure_closure.py                    # each covered file, with how many figure scripts cover it
    python tools/figure_closure.py FILE ...           # for each FILE: the figure scripts it would stale
    python tools/figure_closure.py --why FILE FIGURE  # the import chain by which FIGURE's digest covers FILE
                                                      # (FIGURE: fig_003_7, figures/fig_003_7.py or any module)
    python tools/figure_closure.py --sweeps FILE ...  # per figure, the functions it runs through the sweep
                                                      # runner and which of them an edit of FILE re-runs

A figure's sidecar records ``numerics.sweep.source_digest`` of its script: the sources of the script's
``numerics.sweep.closure`` (every suite module whose code can run when the script is imported and run, and the
packages on the way). Any edit to one of those files makes ``repro.provenance.check_fresh`` report the figure
stale, and the figure claims that read it fail until it is regenerated. The same closure keys the sweep
cache of a function by its module: ``--why FILE repro.edge_fl`` says why an edit of FILE re-runs
``repro.edge_fl.run_point``.
"""
import ast
import collections
import importlib
import pathlib
import sys

from numerics import sweep

ROOT = pathlib.Path(__file__).resolve().parents[1]


def module_file(name: str) -> str:
    base = ROOT.joinpath(*name.split("."))
    return str((base / "__init__.py" if base.is_dir() else base.with_suffix(".py")).relative_to(ROOT))


def file_module(path: str) -> str:
    """``figures/fig_003_7.py`` or ``fig_003_7`` or ``repro.edge_fl`` -> the module name."""
    p = pathlib.Path(path)
    if p.suffix == ".py":
        parts = p.with_suffix("").parts
        return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
    return path if "." in path else f"figures.{path}"


def figure_scripts() -> list:
    return [s.stem for s in sorted((ROOT / "figures").glob("*.py")) if s.stem.startswith(("fig_", "table_"))]


def covering() -> dict:
    """file -> sorted figure scripts whose digest covers it."""
    out = collections.defaultdict(set)
    for stem in figure_scripts():
        for name in sweep.closure(f"figures.{stem}"):
            out[module_file(name)].add(stem)
    return {k: sorted(v) for k, v in out.items()}


def why(path: str, figure: str) -> str:
    """The chain ``figure -> ... -> path`` (each link: imports, or package of) or the reason there is none."""
    start, target = file_module(figure), file_module(path)
    parents = sweep.closure_parents(start)
    if target not in parents:
        return f"{path} is not in the closure of {start}: an edit of it leaves {start}'s digest unchanged"
    chain, name = [], target
    while parents[name][0] is not None:
        parent, how = parents[name]
        chain.append(f"  {parent} -> {name}" + ("" if how == "imports" else f"  ({name}: {how} of {parent})"))
        name = parent
    return f"{start} covers {path}:\n" + "\n".join(reversed(chain))


def sweep_functions(module: str) -> set:
    """Names of the functions ``module`` passes to ``sweep(...)`` (the call's first argument, evaluated in the
    imported module; ``<dynamic ...>`` when it is a local name, e.g. a parameter)."""
    mod = importlib.import_module(module)
    found = set()
    for node in ast.walk(ast.parse(pathlib.Path(mod.__file__).read_text())):
        called = getattr(node, "func", None)
        if isinstance(node, ast.Call) and getattr(called, "id", getattr(called, "attr", None)) == "sweep" and node.args:
            try:
                fn = eval(compile(ast.Expression(node.args[0]), module, "eval"), vars(mod))  # noqa: S307 - own source
                found.add(f"{fn.__module__}:{fn.__qualname__}")
            except Exception:  # noqa: BLE001 - a local name: reported, not resolved
                found.add(f"{module}:<dynamic {ast.unparse(node.args[0])}>")
    return found


def sweeps_rerun(files: list) -> dict:
    """figure -> {sweep function: the FILEs whose edit changes its cache key (None: not resolved)}; the
    functions are those passed to ``sweep`` anywhere in the figure's closure (outside numerics)."""
    wanted = [str(pathlib.Path(f)) for f in files]
    out = {}
    for stem in figure_scripts():
        fns = set().union(*(sweep_functions(m) for m in sweep.closure(f"figures.{stem}")
                            if not m.startswith("numerics") and sweep.init_facts(m) is None))
        out[stem] = {fn: None if "<dynamic" in fn else
                     [f for f in wanted if f in {module_file(n) for n in sweep.closure(fn.partition(":")[0])}]
                     for fn in sorted(fns)}
    return out


def main(argv: list) -> int:
    if argv[:1] == ["--why"]:
        if len(argv) != 3:
            print("usage: figure_closure.py --why FILE FIGURE", file=sys.stderr)
            return 2
        print(why(argv[1], argv[2]))
        return 0
    if argv[:1] == ["--sweeps"]:
        for stem, fns in sweeps_rerun(argv[1:]).items():
            print(f"{stem}:")
            for fn, hit in fns.items():
                print(f"  {fn}: {'not resolved' if hit is None else 're-runs on ' + ' '.join(hit) if hit else 'kept'}")
        return 0
    table = covering()
    if argv:
        for f in argv:
            figs = table.get(str(pathlib.Path(f)), [])
            print(f"{f}: {len(figs)} figure(s){': ' + ' '.join(figs) if figs else ''}")
    else:
        for f, figs in sorted(table.items()):
            print(f"{len(figs):3d}  {f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
