"""Shared helpers of the figure scripts: arguments, statistics, CSV with caption, plots, certificates.

Every figure writes ``figures/out/<name>.csv`` (the plotted data, long format, with the caption as
``# key: value`` header lines), ``<name>.md`` (the same caption) and ``<name>.png``. A caption names
the paper figure and seed line, what we changed for CPU scale, the paper's stated outcome, and ours.
"""
from __future__ import annotations

import argparse
import csv
import os
from pathlib import Path

import numpy as np

from repro.caption_csv import read_csv  # noqa: F401  (re-exported: the reader of write_outputs' CSV)

OUT = Path(__file__).resolve().parent / "out"
CAPTION_KEYS = ("figure", "paper", "changes", "stated", "ours", "setting")


def parse_args(argv, doc: str) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=doc.strip().splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small CI smoke-test setting (seconds)")
    ap.add_argument("--out", default=str(OUT), help="output directory (default figures/out)")
    args = ap.parse_args(list(argv or []))
    args.out = Path(args.out)
    args.out.mkdir(parents=True, exist_ok=True)
    return args


def models(quick: bool) -> tuple:
    """The objectives a figure runs: strongly convex only in the quick setting, plain convex too in the full."""
    return ("strongly-convex",) if quick else ("strongly-convex", "plain-convex")


def run_changes(exp) -> str:
    """The caption's ``changes``: what the experiment changed for CPU scale, and its seeds."""
    return exp.changes + f"; seeds {list(exp.seeds)}"


def mean_std(values) -> tuple[float, float]:
    """Mean and sample standard deviation (0 for a single value)."""
    v = np.asarray(values, float)
    return float(v.mean()), float(v.std(ddof=1)) if len(v) > 1 else 0.0


def caption(*, figure: str, paper: str, changes: str, stated: str, ours: str, quick: bool) -> dict:
    return {"figure": figure, "paper": paper, "changes": changes, "stated": stated, "ours": ours,
            "setting": "quick (CI smoke test)" if quick else "full"}


def write_outputs(out: Path, name: str, rows: list[dict], cap: dict, fig=None) -> dict:
    """Write ``name``.csv (caption header + rows), ``name``.md and, when given, ``name``.png."""
    paths = {"csv": out / f"{name}.csv", "md": out / f"{name}.md"}
    tmp = paths["csv"].with_suffix(".csv.tmp")
    with open(tmp, "w", newline="") as fh:
        for k in CAPTION_KEYS:
            fh.write(f"# {k}: {' '.join(str(cap[k]).split())}\n")
        if rows:
            w = csv.DictWriter(fh, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)
    os.replace(tmp, paths["csv"])
    md = [f"# {cap['figure']}", ""] + [f"- **{k}**: {cap[k]}" for k in CAPTION_KEYS[1:]]
    if fig is not None:
        paths["png"] = out / f"{name}.png"
        fig.savefig(paths["png"], dpi=110, bbox_inches="tight")
        md += ["", f"![{name}]({name}.png)"]
        import matplotlib.pyplot as plt

        plt.close(fig)
    paths["md"].write_text("\n".join(md) + "\n")
    print(f"[{name}] {cap['ours']}")
    return paths


def figure_axes(n_panels: int = 1, *, width: float = 5.0):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, n_panels, figsize=(width * n_panels, 3.8), squeeze=False)
    return fig, list(axes[0])


def plot_curves(ax, results: dict, *, x: str = "iterations", y: str = "test_accuracy", title: str = "") -> None:
    """Mean over seeds with a one-standard-deviation band, one line per arm."""
    for lab, rs in results.items():
        xs = np.asarray(rs[0]["curve"][x], float)
        ys = np.array([r["curve"][y] for r in rs], float)
        m, s = ys.mean(axis=0), ys.std(axis=0, ddof=1) if len(rs) > 1 else np.zeros(ys.shape[1])
        ax.plot(xs, m, label=f"{lab} ({rs[0]['rounds']} rounds)")
        ax.fill_between(xs, m - s, m + s, alpha=0.2)
    ax.set_xlabel("iterations (gradient evaluations)" if x == "iterations" else x)
    ax.set_ylabel(y.replace("_", " "))
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=7)


def certify(results: dict, *, enabled: bool) -> dict:
    """Certified epsilon (numerics.pld) per arm, from the first seed's schedule (all seeds share it); ``None``
    for an arm without noise or whose sampling is not Poisson (``repro.dp.epsilon_for_sampling``)."""
    from repro import dp
    from numerics.schedule import Schedule

    out = {}
    for lab, rs in results.items():
        priv = rs[0].get("privacy")
        if not priv or not enabled:
            out[lab] = None
            continue
        sched = Schedule.from_phases([(p["q"], p["sigma"], p["steps"]) for p in priv["schedules"][0]["phases"]])
        eps = dp.epsilon_for_sampling(sched, priv["delta"], priv["sampling"])
        out[lab] = eps if eps["accounted"] else None
    return out


def final_summary(results: dict) -> dict:
    """``label -> (mean, std)`` of the final test accuracy over seeds."""
    return {lab: mean_std([r["final_test_accuracy"] for r in rs]) for lab, rs in results.items()}


def certified_rows(model: str, curve_rows: list[dict], cert: dict) -> list[dict]:
    """Curve rows tagged with ``model`` and their arm's certified epsilon bounds (empty when not certified)."""
    rows = []
    for r in curve_rows:
        c = cert[r["label"]] or {}
        rows.append({"model": model, **r, "epsilon_lower": c.get("epsilon_lower", ""),
                     "epsilon_upper": c.get("epsilon_upper", "")})
    return rows
