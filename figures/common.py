"""Shared helpers of the figure scripts: arguments, statistics, CSV with caption, plots, certificates.

Every figure writes ``figures/out/<name>.csv`` (the plotted data, long format, with the caption as
``# key: value`` header lines), ``<name>.md`` (the same caption), ``<name>.png`` and ``<name>.pdf``
(figures/style.py), and ``<name>.provenance.json`` (repro.provenance: code, config and data digests).
A caption names the paper figure and seed line, what we changed for CPU scale, the paper's stated
outcome, ours, and the epsilon of each DP arm under the sampling it used. ``--quick`` writes to
``figures/out/quick/`` (git-ignored), which no claim reads: it never touches the full-scale outputs.

The image itself carries a header (:func:`image_header`): the data it trained on (with the MNIST digest),
the setting (a quick output says QUICK in the image, the caption title and the sidecar), and the epsilon
of each arm, so a reader of the PNG alone knows what it shows.
"""
from __future__ import annotations

import argparse
import csv
import os
from pathlib import Path

import numpy as np

from repro import provenance
from repro.caption_csv import read_csv  # noqa: F401  (re-exported: the reader of write_outputs' CSV)

from . import style

OUT = Path(__file__).resolve().parent / "out"
QUICK_OUT = OUT / "quick"
CAPTION_KEYS = ("figure", "paper", "data", "changes", "epsilon", "stated", "ours", "setting")
#: the caption's epsilon entry of a figure whose arms add no DP noise
NO_DP = "no arm adds DP noise (no epsilon)"


def parse_args(argv, doc: str) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=doc.strip().splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small CI smoke-test setting (seconds)")
    ap.add_argument("--out", default=None, help="output directory (default figures/out, quick: figures/out/quick)")
    args = ap.parse_args(list(argv or []))
    args.out = Path(args.out) if args.out else (QUICK_OUT if args.quick else OUT)
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


def caption(*, figure: str, paper: str, changes: str, stated: str, ours: str, quick: bool, epsilon: str) -> dict:
    """The caption: ``changes`` says what we changed for CPU scale, ``epsilon`` each DP arm's epsilon under
    the sampling it used (``figures.arm_epsilon.epsilon_caption``), or :data:`NO_DP`. ``epsilon`` has no default: every
    figure states it, so a figure with noisy arms can never be captioned "no DP" by omission."""
    if not epsilon or not epsilon.strip():
        raise ValueError(f"caption of {figure!r}: state each arm's epsilon (or figures.common.NO_DP)")
    return {"figure": figure, "paper": paper, "changes": changes, "epsilon": epsilon, "stated": stated, "ours": ours,
            "setting": "quick (CI smoke test)" if quick else "full"}


def experiment_config(*exps) -> dict:
    """The config a sidecar records for experiments: each one's arms (RunConfig dicts), seeds and changes."""
    return {e.name: {"arms": {lab: cfg.to_dict() for lab, cfg in e.arms.items()}, "seeds": list(e.seeds),
                     "changes": e.changes} for e in exps}


def provenance_key(name: str) -> str:
    """The sidecar ``data`` key that covers data set ``name`` (a ``repro.data.load`` name): ``mnist-5k`` for
    MNIST-5k and its digit pairs (one file, one digest), the name itself for everything else."""
    return "mnist-5k" if name == "mnist-5k" or name.startswith("mnist-5k-") else name


def data_record(*names: str) -> dict:
    """What the runs trained on, for the sidecar: real MNIST-5k with its digest, or the stand-in's name."""
    from repro.data import mnist_5k_provenance

    out = {}
    for n in sorted(set(names)):
        if provenance_key(n) == "mnist-5k":
            out["mnist-5k"] = mnist_5k_provenance()
        else:
            out[n] = {"kind": "stand-in", "name": n}
    return out


def describe_data(data: dict) -> str:
    """The caption's ``data`` entry: real data with its digest, stand-ins labelled as such."""
    if not data:
        return "no training data (computed from the paper's parameters)"
    parts = []
    for n, rec in sorted(data.items()):
        if n == "mnist-5k":
            parts.append(f"real MNIST-5k ({rec['package']} {rec['version']}, {rec['file']}, sha256 {rec['sha256'][:12]})")
        elif rec.get("kind") == "synthetic":
            parts.append(f"SYNTHETIC {rec['name']}")
        else:
            parts.append(f"STAND-IN {n} (the paper's data set is not available offline)")
    return "; ".join(parts)


QUICK_MARK = "QUICK SETTING (CI smoke test, not the paper-scale run: its numbers decide nothing)"


def short_data(data: dict) -> str:
    """The data in a few words for the image header: MNIST-5k with its digest, stand-ins named as such."""
    if not data:
        return "no training data (computed from the paper's parameters)"
    return "; ".join(f"real MNIST-5k ({rec['package']} {rec['version']}, sha256 {rec['sha256'][:12]})" if n == "mnist-5k"
                     else f"SYNTHETIC {n} (ours)" if rec.get("kind") == "synthetic" else f"STAND-IN {n}"
                     for n, rec in sorted(data.items()))


def image_header(fig, cap: dict, data: dict, *, epsilon: str | None = None) -> None:
    """The header of the image (the figure's suptitle, which constrained layout makes room for): QUICK when
    quick, the data, the setting and each arm's epsilon (``epsilon`` replaces the caption's, e.g. "in
    each legend entry" where the legend states it), wrapped to the figure's width."""
    import textwrap

    width = max(60, int(fig.get_figwidth() * 72 / (0.56 * style.SMALL_FONT_SIZE)))
    quick = cap["setting"].startswith("quick")
    lines = [QUICK_MARK] if quick else []
    lines += [f"data: {short_data(data)}", f"setting: {cap['setting']}",
              f"epsilon: {epsilon or ' '.join(str(cap['epsilon']).split())}"]
    wrapped = [w for line in lines for w in textwrap.wrap(line, width)]
    # the header's room is added to the figure, so that constrained layout never takes it from the panels
    fig.set_figheight(fig.get_figheight() + 1.3 * style.SMALL_FONT_SIZE * len(wrapped) / 72)
    fig.suptitle("\n".join(wrapped), fontsize=style.SMALL_FONT_SIZE, color="#B00000" if quick else "black")


def write_outputs(out: Path, name: str, rows: list[dict], cap: dict, fig=None, *, config=None,
                  data: dict | None = None, image_epsilon: str | None = None) -> dict:
    """Write ``name``.csv (caption header + rows), ``name``.md, its provenance sidecar and, when given,
    ``name``.png and ``name``.pdf with the header of :func:`image_header` (``image_epsilon``: what it
    says of epsilon, default the caption's). ``config``/``data`` go into the sidecar (repro.provenance);
    the producing module is ``figures.<name>``. The returned dict has the paths and ``overlaps``: legends
    or labels that cover data, or text elements that meet (figures/style.py; the tests require it empty)."""
    paths = {"csv": out / f"{name}.csv", "md": out / f"{name}.md"}
    cap = {**cap, "data": describe_data(data or {})}
    tmp = paths["csv"].with_suffix(".csv.tmp")
    with open(tmp, "w", newline="") as fh:
        for k in CAPTION_KEYS:
            fh.write(f"# {k}: {' '.join(str(cap[k]).split())}\n")
        if rows:
            w = csv.DictWriter(fh, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)
    os.replace(tmp, paths["csv"])
    paths["provenance"] = provenance.write_sidecar(
        paths["csv"], module=f"figures.{name}", config={"setting": cap["setting"], **(config or {})},
        data=data or {})
    quick = cap["setting"].startswith("quick")
    md = [f"# {'QUICK (smoke test) -- ' if quick else ''}{cap['figure']}", ""] + [f"- **{k}**: {cap[k]}" for k in CAPTION_KEYS[1:]]
    paths["overlaps"] = []
    if fig is not None:
        image_header(fig, cap, data or {}, epsilon=image_epsilon)
        style.fit_height(fig)
        paths["overlaps"] = style.overlaps(fig)
        paths.update(style.save(fig, out, name))
        md += ["", f"![{name}]({name}.png)", "", f"Vector version: [{name}.pdf]({name}.pdf)"]
        import matplotlib.pyplot as plt

        plt.close(fig)
        record_layout(paths["provenance"], paths["png"], paths["overlaps"])
    paths["md"].write_text("\n".join(md) + "\n")
    print(f"[{name}] {cap['ours']}")
    for o in paths["overlaps"]:
        print(f"[{name}] WARNING: {o}")
    return paths


def record_layout(sidecar: Path, png: Path, found: list[str]) -> None:
    """Add to the sidecar what the overlap check (figures/style.py ``overlaps``) found on the very figure
    that was saved, with the digest of the PNG it wrote: tests/test_figures_layout.py reads it for every
    committed full-scale output, so a full figure's layout is checked without recomputing its runs (whose
    legends, arm counts and header lengths the quick setting does not have)."""
    import hashlib
    import json

    rec = json.loads(sidecar.read_text())
    rec["layout"] = {"checked_by": "figures.style.overlaps at save time", "overlaps": list(found),
                     "png": png.name, "png_sha256": hashlib.sha256(png.read_bytes()).hexdigest()}
    sidecar.write_text(json.dumps(rec, indent=1, sort_keys=True, default=str) + "\n")


def figure_axes(n_panels: int = 1, *, rows: int = 1, width: float | None = None):
    """(fig, axes) in the suite's style (figures/style.py): ``rows x n_panels`` panels, axes row by row;
    ``width``: one panel's width in inches (default the style's)."""
    return style.figure(n_panels, rows=rows, width=width)


def plot_curves(ax, results: dict, *, x: str = "iterations", y: str = "test_accuracy", title: str = "",
                band: str = "sd") -> None:
    """Mean over seeds with the seed-to-seed spread as a band (``sd``: one standard deviation, ``range``:
    min to max over seeds), one line per arm; the legend below the axes."""
    for lab, rs in results.items():
        xs = np.asarray(rs[0]["curve"][x], float)
        ys = np.array([r["curve"][y] for r in rs], float)
        m = ys.mean(axis=0)
        if band == "range":
            lo, hi = ys.min(axis=0), ys.max(axis=0)
        else:
            s = ys.std(axis=0, ddof=1) if len(rs) > 1 else np.zeros(ys.shape[1])
            lo, hi = m - s, m + s
        (line,) = ax.plot(xs, m, label=f"{lab} ({rs[0]['rounds']} rounds, {len(rs)} seeds)")
        ax.fill_between(xs, lo, hi, alpha=style.BAND_ALPHA, color=line.get_color(), linewidth=0)
    ax.set_xlabel("iterations (gradient evaluations)" if x == "iterations" else x)
    ax.set_ylabel(y.replace("_", " "))
    ax.set_title(title)
    style.legend_below(ax)


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


def draw_paper(ax, xs, ys, printed, *, what: str) -> None:
    """The paper's own values beside ours: black open diamonds at (xs, ys), labelled with what they are
    and the seed lines of the ``printed`` values (theory.printed.Printed) they come from."""
    lines = sorted({p.line for p in printed})
    ax.plot(xs, ys, label=f"paper: {what} ({', '.join(lines)})", **style.PAPER_STYLE)


def draw_paper_interval(ax, low, high, y, printed, *, what: str) -> None:
    """A printed interval [low, high] at height ``y`` (e.g. the sigma range of a utility-graph statement)."""
    lines = sorted({p.line for p in printed})
    ax.errorbar([(low + high) / 2], [y], xerr=[[(high - low) / 2]], color="black", capsize=4, lw=1.2,
                marker="D", mfc="none", ls="none", label=f"paper: {what} ({', '.join(lines)})", zorder=5)
