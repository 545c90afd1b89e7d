"""A claim that reads a figure's CSV is re-evaluated when that CSV is regenerated, whether or not it declares
``figure=`` (the 003 Fig. 7 claims kept a verdict computed on the old K grid after fig_003_7 was regenerated)."""
from theory import report


def test_the_fig7_claims_module_is_keyed_by_fig_003_7():
    assert "fig_003_7" in report.figures_read("theory.mapa.fig7_baselines")
    assert "fig_003_7" in report.figures_read("theory.mapa.experiments")


def test_a_module_naming_no_figure_reads_none():
    assert report.figures_read("numerics.gdp") == ()


def test_the_key_changes_with_the_csv(tmp_path, monkeypatch):
    out = tmp_path / "figures" / "out"
    out.mkdir(parents=True)
    (out / "fig_009_1.csv").write_text("a\n1\n")
    monkeypatch.setattr(report, "ROOT", tmp_path)
    first = report._figure_state("figures/out/fig_009_1.png")
    (out / "fig_009_1.csv").write_text("a\n2\n")
    assert report._figure_state("figures/out/fig_009_1.png") != first
