"""Run a figure or table script by its make target name.

``python -m figures.run fig-000-1a [--quick]`` imports ``figures.fig_000_1a`` and calls its
``main(argv)``; ``python -m figures.run all`` runs every ``figures/fig_*.py`` and ``figures/table_*.py``.
Each script writes PNG and/or CSV to ``figures/out/``.
"""
from __future__ import annotations

import importlib
import pkgutil
import sys
import time
from pathlib import Path

OUT = Path(__file__).resolve().parent / "out"


def module_for(target: str) -> str:
    return "figures." + target.replace("-", "_")


def all_targets() -> list[str]:
    here = Path(__file__).resolve().parent
    names = [m.name for m in pkgutil.iter_modules([str(here)])]
    return sorted(n.replace("_", "-") for n in names if n.startswith(("fig_", "table_")))


def run(target: str, argv: list[str]) -> None:
    importlib.import_module(module_for(target)).main(argv)


USAGE = "usage: python -m figures.run TARGET|all [--quick]"


def help_text() -> str:
    """The usage line and every target, one per line (``python -m figures.run --help``)."""
    return "\n".join([USAGE, "", "Runs one paper figure/table script (or all); output in figures/out/ (PNG, PDF, CSV, caption,",
                      "provenance sidecar).", "--quick runs the smoke-test setting into figures/out/quick/ (git-ignored, never read "
                      "by a claim).", "", "targets:"]
                     + [f"  {t}" for t in all_targets()] + ["  all"])


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in ("-h", "--help", "help"):
        print(help_text())
        return 0
    if not argv:
        print(USAGE, file=sys.stderr)
        return 2
    target, rest = argv[0], argv[1:]
    targets = all_targets() if target == "all" else [target]
    for t in targets:
        if t not in all_targets():
            print(f"unknown figure target {t!r}; known: {', '.join(all_targets())}", file=sys.stderr)
            return 2
        print(f"[figures] {t}", flush=True)
        t0 = time.perf_counter()
        run(t, rest)
        print(f"[figures] {t} done in {time.perf_counter() - t0:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
