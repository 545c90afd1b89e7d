"""`python -m bench MODULE` replaces only that module's section of bench/RESULTS.md."""
from bench.__main__ import _splice


def test_a_partial_rerun_replaces_its_section_and_keeps_the_others():
    old = "# Benchmarks\n\npreamble\n\n## A (bench_a)\n\nold a\n\n## B (bench_b)\n\nold b\n"
    new = _splice(old, ["## B (bench_b)\n\nnew b\n", "## C (bench_c)\n\nnew c\n"])
    assert "old a" in new and "old b" not in new and "new b" in new and new.index("new b") < new.index("new c")
    assert new.startswith("# Benchmarks") and new.count("rerun alone") == 2
