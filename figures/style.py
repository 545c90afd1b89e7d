"""One look for every figure: sizes, a colour-blind-safe palette, fonts, legends off the data, PNG + PDF.

* Palette: Okabe & Ito's eight colours ("Color Universal Design", 2008), distinguishable under the
  common colour-vision deficiencies; line styles cycle too, so arms differ in grey print.
* Legends sit outside the axes (below them), and the figure is saved with a tight bounding box, so a
  legend never covers data. :func:`overlaps` checks it on the rendered figure, and every text element
  (legends, titles, axis and tick labels, annotations) against every other.
* :func:`save` writes ``<name>.png`` (raster, for the markdown caption) and ``<name>.pdf`` (vector).
* The paper's own values are drawn as black open markers (:data:`PAPER_STYLE`) beside ours.
"""
from __future__ import annotations

from pathlib import Path

#: Okabe-Ito, ordered for contrast on white (yellow last): blue, orange, bluish green, vermillion, sky blue,
#: reddish purple, black, yellow
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#56B4E9", "#CC79A7", "#000000", "#F0E442")
LINESTYLES = ("-", "--", "-.", ":")
#: one panel's size in inches, and the font sizes
PANEL = (4.2, 3.2)
FONT_SIZE, SMALL_FONT_SIZE = 8, 7
PNG_DPI = 130
#: how the paper's reported values are drawn beside ours
PAPER_STYLE = dict(marker="D", markersize=6, markerfacecolor="none", markeredgecolor="black", linestyle="none",
                   zorder=5)
#: seed-to-seed spread band opacity
BAND_ALPHA = 0.2
#: legend entries are wrapped at this many characters, so that the legends of neighbouring panels never meet
LEGEND_WRAP = 46


def rc() -> dict:
    from cycler import cycler

    n = len(PALETTE)
    return {"font.family": "DejaVu Sans", "font.size": FONT_SIZE, "axes.titlesize": FONT_SIZE,
            "axes.labelsize": FONT_SIZE, "legend.fontsize": SMALL_FONT_SIZE, "xtick.labelsize": SMALL_FONT_SIZE,
            "ytick.labelsize": SMALL_FONT_SIZE, "lines.linewidth": 1.4,
            "axes.prop_cycle": cycler(color=list(PALETTE)) + cycler(linestyle=[LINESTYLES[i % 4] for i in range(n)]),
            "pdf.fonttype": 42, "svg.fonttype": "none"}


def figure(n_panels: int = 1, *, rows: int = 1, width: float | None = None):
    """A figure of ``rows x n_panels`` panels in the suite's style (``width``: one panel's width in inches,
    default :data:`PANEL`); returns (fig, flat list of axes)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    matplotlib.rcParams.update(rc())  # titles and labels set later by the scripts take the style too
    fig, axes = plt.subplots(rows, n_panels, figsize=((width or PANEL[0]) * n_panels, PANEL[1] * rows), squeeze=False)
    fig.set_layout_engine("constrained")
    for ax in axes.ravel():
        ax.set_prop_cycle(rc()["axes.prop_cycle"])
    return fig, list(axes.ravel())


def legend_below(ax, **kw):
    """The axes' legend, centred below the plotting area (never over the data) and below the x-axis label:
    anchored a fixed distance in points under the axes (tick labels, then one line per x-label line), so
    that however short constrained layout makes the axes, the legend never meets the label."""
    import textwrap

    from matplotlib.transforms import offset_copy

    handles, labels = ax.get_legend_handles_labels()
    if not handles:
        return None
    labels = ["\n".join(textwrap.wrap(lab, LEGEND_WRAP)) for lab in labels]
    xlabel_lines = max(1, len(ax.get_xlabel().splitlines()))
    # ticks (3.5) + pad (3.5) + tick labels + label pad (4) + the label's lines, and a gap of 4 points
    drop = 3.5 + 3.5 + 1.3 * SMALL_FONT_SIZE + 4 + 1.3 * FONT_SIZE * xlabel_lines + 4
    anchor = offset_copy(ax.transAxes, fig=ax.figure, x=0, y=-drop, units="points")
    return ax.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, 0.0), bbox_transform=anchor,
                     ncol=kw.pop("ncol", 1), frameon=False, fontsize=SMALL_FONT_SIZE, **kw)


#: the least height of a plotting area (inches): :func:`fit_height` grows the figure until every panel has it
MIN_AXES_HEIGHT = 1.9


def fit_height(fig, min_height: float = MIN_AXES_HEIGHT, rounds: int = 8) -> None:
    """Grow ``fig`` (constrained layout) until its shortest plotting area is ``min_height`` inches tall:
    long legends below the axes and the image header take their room from the figure, never from the data
    (a squashed panel crowds its own tick labels). When constrained layout gives up (its decorations, e.g.
    tall legends under several rows of panels, leave the axes no height: matplotlib then keeps the default
    positions, and a legend hides under the next row), the figure grows to the height the decorations need."""
    import warnings

    for _ in range(rounds):
        with warnings.catch_warnings(record=True) as caught:  # a squashed layout is what this grows out of
            warnings.simplefilter("always")
            fig.canvas.draw()
        axes = [ax for ax in fig.axes if ax.get_visible() and ax.axison]
        if not axes:
            return
        if any("constrained_layout not applied" in str(w.message) for w in caught):
            fig.set_figheight(max(1.25 * fig.get_figheight(), _needed_height(fig, axes, min_height)))
            continue
        heights = [ax.get_position().height * fig.get_figheight() for ax in axes]
        short = min_height - min(heights)
        if short <= 0.02:
            return
        n_rows = len({round(ax.get_position().y0, 3) for ax in axes})
        fig.set_figheight(fig.get_figheight() + 1.05 * short * n_rows)


def _needed_height(fig, axes, min_height: float) -> float:
    """The figure height (inches) that gives every row of panels ``min_height`` plus its decorations (the
    tallest extent of a row's axes, legends and labels beyond its plotting area), and the header its room,
    measured on the figure as drawn."""
    renderer = fig.canvas.get_renderer()
    dpi, rows = fig.dpi, {}
    for ax in axes:
        deco = (ax.get_tightbbox(renderer).height - ax.get_window_extent(renderer).height) / dpi
        key = round(ax.get_position().y0, 3)
        rows[key] = max(rows.get(key, 0.0), deco)
    sup = getattr(fig, "_suptitle", None)
    header = sup.get_window_extent(renderer).height / dpi if sup is not None and sup.get_text() else 0.0
    return 1.1 * (sum(rows.values()) + len(rows) * min_height + header) + 0.3


def save(fig, out: Path, name: str) -> dict:
    """Write ``name``.png and ``name``.pdf into ``out``; returns their paths."""
    paths = {"png": Path(out) / f"{name}.png", "pdf": Path(out) / f"{name}.pdf"}
    fig.savefig(paths["png"], dpi=PNG_DPI, bbox_inches="tight")
    # no creation date in the PDF: a rerun on an unchanged tree writes the same bytes
    fig.savefig(paths["pdf"], bbox_inches="tight", metadata={"CreationDate": None})
    return paths


# --- the overlap check -----------------------------------------------------------------------------

def _data_points(ax, pixel_step: float = 2.0):
    """Display coordinates of the plotted data of ``ax`` that lie inside its plotting area: line
    vertices and points every ``pixel_step`` pixels along each segment, scatter points, bar tops."""
    import numpy as np
    from matplotlib.collections import PathCollection

    pts = []
    for line in ax.get_lines():
        xy = np.column_stack(line.get_data(orig=False)).astype(float)
        xy = ax.transData.transform(xy[np.all(np.isfinite(xy), axis=1)])
        if len(xy) > 1 and line.get_linestyle() not in ("None", "none", ""):
            # points every ``pixel_step`` display pixels along each segment
            seg = [np.linspace(a, b, max(2, int(np.hypot(*(b - a)) / pixel_step) + 2)) for a, b in zip(xy[:-1], xy[1:])]
            xy = np.concatenate(seg)
        pts.append(xy)
    for coll in ax.collections:
        if isinstance(coll, PathCollection) and len(coll.get_offsets()):
            pts.append(coll.get_offset_transform().transform(np.asarray(coll.get_offsets(), float)))
    for patch in ax.patches:
        bb = patch.get_window_extent()
        pts.append(np.array([[bb.x0, bb.y1], [bb.x1, bb.y1], [(bb.x0 + bb.x1) / 2, bb.y1]]))
    if not pts:
        return np.empty((0, 2))
    pts = np.concatenate(pts)
    box = ax.get_window_extent()
    keep = (pts[:, 0] >= box.x0) & (pts[:, 0] <= box.x1) & (pts[:, 1] >= box.y0) & (pts[:, 1] <= box.y1)
    return pts[keep]


def _text_boxes(fig, renderer) -> list:
    """``(name, bbox)`` of every visible, non-empty text element of ``fig``: per axes its legend (one box),
    title(s), axis labels, offset texts, the tick labels inside the view limits and its text artists
    (annotations); figure-level texts, suptitle and legends."""
    out = []

    def add(name, artist):
        if artist is not None and artist.get_visible() and (not hasattr(artist, "get_text") or artist.get_text().strip()):
            out.append((name, artist.get_window_extent(renderer)))

    for k, ax in enumerate(fig.axes):
        if not ax.get_visible():
            continue
        add(f"axes {k} legend", ax.get_legend())
        for t in ax.texts:
            add(f"axes {k} text {t.get_text()[:30]!r}", t)
        for which, t in (("title", ax.title), ("left title", ax._left_title), ("right title", ax._right_title)):
            add(f"axes {k} {which} {t.get_text()[:30]!r}", t)
        if not ax.axison:
            continue
        for axis_name, axis in (("x", ax.xaxis), ("y", ax.yaxis)):
            add(f"axes {k} {axis_name}-label {axis.label.get_text()[:30]!r}", axis.label)
            add(f"axes {k} {axis_name} offset text", axis.get_offset_text())
            lo, hi = sorted(axis.get_view_interval())
            tol = 1e-9 * max(abs(lo), abs(hi), 1e-300)
            for kind, ticks in (("tick", axis.get_major_ticks()), ("minor tick", axis.get_minor_ticks())):
                for tick in ticks:
                    if lo - tol <= tick.get_loc() <= hi + tol:
                        for lab in (tick.label1, tick.label2):
                            if lab.get_visible():
                                add(f"axes {k} {axis_name} {kind} label {lab.get_text()[:20]!r}", lab)
    sup = getattr(fig, "_suptitle", None)
    for t in fig.texts:
        if t is not sup:
            add(f"figure text {t.get_text()[:30]!r}", t)
    if sup is not None:
        add(f"figure suptitle {sup.get_text()[:30]!r}", sup)
    for i, leg in enumerate(fig.legends):
        add(f"figure legend {i}", leg)
    return out


def _meet(b1, b2, margin: float = 0.5) -> bool:
    """Whether two display boxes share an area (more than ``margin`` pixels each way; touching is fine)."""
    return (min(b1.x1, b2.x1) - max(b1.x0, b2.x0) > margin) and (min(b1.y1, b2.y1) - max(b1.y0, b2.y0) > margin)


def overlaps(fig) -> list[str]:
    """What a reader would see collide: legends and text labels over plotted data, and any two text
    elements over each other.

    Checked on the rendered figure: every axes' legend and every text artist added to an axes
    (annotations) against the plotted points of that axes; then every pair among all text elements of
    the figure (:func:`_text_boxes`: legends, titles, axis labels, tick labels, offset texts,
    annotations, figure texts and suptitle), across panels too.
    """
    import numpy as np

    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    bad = []
    for k, ax in enumerate(fig.axes):
        pts = _data_points(ax)
        boxes = []
        if ax.get_legend() is not None:
            boxes.append((f"axes {k} legend", ax.get_legend().get_window_extent(renderer)))
        boxes += [(f"axes {k} text {t.get_text()[:30]!r}", t.get_window_extent(renderer)) for t in ax.texts
                  if t.get_visible() and t.get_text()]
        for name, bb in boxes:
            inside = ((pts[:, 0] > bb.x0) & (pts[:, 0] < bb.x1) & (pts[:, 1] > bb.y0) & (pts[:, 1] < bb.y1))
            if np.any(inside):
                bad.append(f"{name} covers {int(inside.sum())} data points")
    every = _text_boxes(fig, renderer)
    for i, (n1, b1) in enumerate(every):
        for n2, b2 in every[i + 1:]:
            if _meet(b1, b2):
                bad.append(f"{n1} collides with {n2}")
    return bad
