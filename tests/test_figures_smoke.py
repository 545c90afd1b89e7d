"""Every figure script runs at its --quick setting and writes PNG + PDF + CSV with a caption and a fresh
provenance sidecar, and no legend or text label covers plotted data (issue 22); no two text elements of an
image meet, every image states QUICK, its data and its epsilon, and a script that loads a data set records
it in its sidecar (issue 32)."""
import importlib
import json

import pytest

from figures import common, style
from repro import provenance

SCRIPTS = ["fig_000_3", "fig_000_1a", "fig_000_1b", "fig_000_4", "fig_000_10", "fig_000_aggregated_noise",
           "fig_002_utility", "fig_002_s_sweep", "fig_002_eps_sweep", "fig_002_privacy_curve",
           "fig_001_1", "fig_001_2", "fig_001_3", "fig_001_4", "table_001_1",
           "fig_003_4", "fig_003_5", "fig_003_6", "fig_003_7",
           "fig_004_6", "fig_004_s9", "fig_004_s14", "fig_004_s15", "table_004_2", "table_004_3", "table_004_6",
           "table_004_realised", "table_004_realised_scan"]


@pytest.mark.parametrize("name", SCRIPTS)
def test_figure_script_quick(name, tmp_path, monkeypatch):
    from repro import data, decentralized

    found, headers = [], []
    check = style.overlaps

    def watched(fig):
        headers.append(fig._suptitle.get_text() if fig._suptitle is not None else "")
        found.append(check(fig))
        return found[-1]

    monkeypatch.setattr(style, "overlaps", watched)
    # an empty cache of its own, in this process: every run the script asks for runs here, so every data
    # set it trains on passes through repro.data.load here (a cached run would load nothing), and is noted
    monkeypatch.setenv("DPV_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("DPV_BACKEND", "serial")
    loaded, load = [], data.load

    def recorded_load(dataset, *a, **kw):  # every run reaches its data through repro.data.load
        loaded.append(dataset)
        return load(dataset, *a, **kw)

    monkeypatch.setattr(data, "load", recorded_load)
    decentralized._dataset.cache_clear()  # its per-process memo of loaded sets would hide a load
    importlib.import_module(f"figures.{name}").main(["--quick", "--out", str(tmp_path)])
    assert found == [[]] * len(found), found  # no text covers data, no two text elements meet
    for h in headers:  # the image says what it shows: quick, its data, its setting and epsilon
        h = " ".join(h.split())
        assert h.startswith(common.QUICK_MARK[:14]) and "data: " in h and "setting: quick" in h and "epsilon: " in h, h
    side = json.loads(provenance.sidecar_path(tmp_path / f"{name}.csv").read_text())
    loaded = {common.provenance_key(n) for n in loaded}
    assert loaded <= set(side["data"]), f"{name} loaded {sorted(loaded)} but its sidecar records {sorted(side['data'])}"
    assert side["config"]["setting"].startswith("quick")
    assert found or name.startswith("table_"), "a figure script drew no figure"
    if found:  # a figure was drawn (most tables draw none)
        assert (tmp_path / f"{name}.pdf").stat().st_size > 1000
        assert (tmp_path / f"{name}.png").stat().st_size > 1000
        assert side["layout"]["overlaps"] == found[-1] and side["layout"]["png"] == f"{name}.png"  # what the check saw
    ok, reason = provenance.check_fresh(tmp_path / f"{name}.csv")
    assert ok, reason
    meta, rows = common.read_csv(tmp_path / f"{name}.csv")
    assert (tmp_path / f"{name}.md").read_text().startswith("# ")
    assert rows, "the CSV must hold the plotted data"
    assert set(common.CAPTION_KEYS) <= set(meta) and meta["setting"].startswith("quick")
    assert (tmp_path / f"{name}.md").read_text().startswith("# QUICK")
    if "mnist-5k" in side["data"]:
        assert "MNIST-5k" in meta["data"] and side["data"]["mnist-5k"]["sha256"][:12] in meta["data"]
    assert all(meta[k].strip() for k in ("paper", "changes", "epsilon", "stated", "ours"))


def test_quick_never_writes_the_full_scale_outputs():
    args = common.parse_args(["--quick"], "x")
    assert args.out == common.QUICK_OUT and common.parse_args([], "x").out == common.OUT


def test_the_overlap_check_sees_a_legend_over_data():
    fig, (ax,) = style.figure(1)
    ax.plot([0, 1], [0, 1], label="a line through the middle")
    ax.legend(loc="center")
    assert style.overlaps(fig)
    ax.get_legend().remove()
    style.legend_below(ax)
    assert style.overlaps(fig) == []
    ax.text(0.5, 0.5, "label on the data")
    assert any("label on the data" in o for o in style.overlaps(fig))


def test_the_overlap_check_sees_colliding_legends():
    fig, axes = style.figure(2)
    fig.set_layout_engine("none")  # constrained layout would shrink the axes to make room
    for ax in axes:
        ax.plot([0, 1], [0, 1], label="a very long arm label " * 5)
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2))  # unwrapped: wider than its panel
    assert any("collides" in o for o in style.overlaps(fig))
    for ax in axes:
        ax.get_legend().remove()
        style.legend_below(ax)  # wrapped
    assert style.overlaps(fig) == []


def test_a_caption_must_state_epsilon():
    kw = dict(figure="f", paper="p", changes="c", stated="s", ours="o", quick=True)
    with pytest.raises(TypeError):
        common.caption(**kw)  # no default: a figure with noisy arms is never captioned "no DP" by omission
    with pytest.raises(ValueError, match="epsilon"):
        common.caption(**kw, epsilon=" ")
    assert common.caption(**kw, epsilon=common.NO_DP)["epsilon"] == common.NO_DP


def test_the_overlap_check_sees_every_text_element():
    fig, (ax,) = style.figure(1)
    ax.plot([0, 1], [0, 1], label="a line")
    ax.set_xlabel("x label")
    style.legend_below(ax)
    assert style.overlaps(fig) == []  # the legend sits below the x label
    ax.get_legend().remove()
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.1))  # the old fixed anchor: over the x label
    assert any("x-label" in o and "legend" in o for o in style.overlaps(fig)), style.overlaps(fig)
    ax.get_legend().remove()
    ax.annotate("a note on a tick label", (0.0, 0.0), xytext=(0.0, -0.03), textcoords="axes fraction",
                annotation_clip=False)
    assert any("tick label" in o and "a note" in o for o in style.overlaps(fig)), style.overlaps(fig)


def test_every_mnist_name_is_covered_by_the_mnist_record():
    assert common.provenance_key("mnist-5k-49") == "mnist-5k" == common.provenance_key("mnist-5k")
    assert common.provenance_key("a9a-like") == "a9a-like"
    assert set(common.data_record("mnist-5k-01", "a9a-like")) == {"mnist-5k", "a9a-like"}
