"""Every figure script runs at its --quick setting and writes PNG + PDF + CSV with a caption and a fresh
provenance sidecar, and no legend or text label covers plotted data (issue 22)."""
import importlib

import pytest

from figures import common, style
from repro import provenance

SCRIPTS = ["fig_000_3", "fig_000_1a", "fig_000_1b", "fig_000_4", "fig_000_10", "fig_000_aggregated_noise",
           "fig_002_utility", "fig_002_s_sweep", "fig_002_eps_sweep",
           "fig_001_1", "fig_001_2", "fig_001_3", "fig_001_4", "table_001_1",
           "fig_003_4", "fig_003_5", "fig_003_6", "fig_003_7",
           "fig_004_6", "fig_004_s9", "fig_004_s14", "fig_004_s15", "table_004_2", "table_004_3", "table_004_6"]


@pytest.mark.parametrize("name", SCRIPTS)
def test_figure_script_quick(name, tmp_path, monkeypatch):
    found = []
    check = style.overlaps
    monkeypatch.setattr(style, "overlaps", lambda fig: found.append(check(fig)) or found[-1])
    importlib.import_module(f"figures.{name}").main(["--quick", "--out", str(tmp_path)])
    assert found == [[]] * len(found), found  # legends and labels never cover data
    assert found or name.startswith("table_"), "a figure script drew no figure"
    if found:  # a figure was drawn (most tables draw none)
        assert (tmp_path / f"{name}.pdf").stat().st_size > 1000
        assert (tmp_path / f"{name}.png").stat().st_size > 1000
    ok, reason = provenance.check_fresh(tmp_path / f"{name}.csv")
    assert ok, reason
    meta, rows = common.read_csv(tmp_path / f"{name}.csv")
    assert (tmp_path / f"{name}.md").read_text().startswith("# ")
    assert rows, "the CSV must hold the plotted data"
    assert set(common.CAPTION_KEYS) <= set(meta) and meta["setting"].startswith("quick")
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
