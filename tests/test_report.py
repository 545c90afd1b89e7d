"""`make report` on a tiny injected ledger: the files and their keys, the problems that make it fail (a
check that raises, stale figure data, a status mismatch, a claim module that fails to import) listed
first, byte-identical reruns, per-paper sections, the HTML site's links, progress lines and the cache."""
import json
import os
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from theory import ledger, report

REPO = Path(__file__).resolve().parent.parent


def _holds():
    return ledger.Verdict("holds", "numeric", margin=0.25, evidence={"points": 3, "worst": 0.75})


def _refuted():
    return ledger.Verdict("refuted", "exact", margin=-1.0, evidence={"lhs": 2, "rhs": 1, "domain": "q = 0.5"},
                          counterexample={"q": 0.5, "sigma": 1.0 / 3.0}, arithmetic=("rational",),
                          why="lhs = 2 exceeds rhs = 1 at q = 1/2 (zebra-why)",
                          readings=(ledger.Reading("noise std z*L", "L10", "refuted", -1.0),
                                    ledger.Reading("noise std 2z*L", "L11", "holds", 0.5)))


def _raises():
    raise ArithmeticError("boom at sigma=0.5")


class StaleFigureData(RuntimeError):
    """Stands in for repro.provenance.StaleFigureData: the report matches the class by its name."""


def _stale():
    raise StaleFigureData("figures/out/fake.csv: code digest differs from its sidecar")


GOOD = [
    ledger.Claim("numerics.fake.holds", "numerics", "L1", "A claim that holds | with a pipe.", "holds",
                 _holds, figure="figures/out/fake.png"),
    ledger.Claim("002.fake.refuted", "002", "L10-12", "A refuted claim.", "refuted", _refuted,
                 result="Theorem 1", role="proof-step", cause="002-one-error"),
    ledger.Claim("002.table-1.refuted", "002", "L13", "A refuted table value.", "refuted", _refuted,
                 result="Table 1", role="printed-value", cause="002-one-error"),
    ledger.Claim("002.thm-1.refuted", "002", "L14", "A refuted theorem.", "refuted", _refuted,
                 result="Theorem 1", role="conclusion"),
]
CHANGED = ledger.Claim("002.fake.changed", "002", "L20", "A claim whose verdict changed.", "holds", _refuted)
RAISES = ledger.Claim("000.fake.raises", "000", "L5", "A claim whose check raises.", "holds", _raises)
STALE = ledger.Claim("000.fig9.stale", "000", "L6", "A figure claim on stale data.", "holds", _stale)


@pytest.fixture
def out(monkeypatch, tmp_path):
    """An injected ledger (the GOOD claims, no broken module), a private cache and a fake figure."""
    monkeypatch.setenv("DPV_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(report, "ROOT", tmp_path)
    (tmp_path / "figures" / "out").mkdir(parents=True)
    (tmp_path / "figures" / "out" / "fake.png").write_bytes(b"\x89PNG fake")
    use(monkeypatch, GOOD)
    return tmp_path / "out"


def use(monkeypatch, claims, broken=None):
    monkeypatch.setattr(report, "claims", lambda: list(claims))
    monkeypatch.setattr(report, "import_claim_modules", lambda: dict(broken or {}))


def run_main(out_dir, *extra):
    return report.main(["--backend", "serial", "--out", str(out_dir), *extra])


def test_a_clean_ledger_exits_zero_and_writes_the_files(out, capsys):
    assert run_main(out, "--fresh") == 0
    stdout, _ = capsys.readouterr()
    assert "4 claims: 1 holds, 3 refuted" in stdout and "0 problem(s)" in stdout
    verdicts = json.loads((out / "verdicts.json").read_text())
    assert [v["id"] for v in verdicts] == sorted(v["id"] for v in verdicts)
    required = {"id", "seed", "lines", "statement", "status", "margin", "evidence", "counterexample",
                "evidence_kind", "recorded", "reason", "severity", "problem"}
    for v in verdicts:
        assert required <= set(v) and "seconds" not in v                 # timings live in run.json
    by_id = {v["id"]: v for v in verdicts}
    assert by_id["002.fake.refuted"]["counterexample"] == {"q": 0.5, "sigma": 0.333333333333}
    assert by_id["002.thm-1.refuted"]["severity"] == "result-fails"
    assert by_id["002.table-1.refuted"]["severity"] == "table-or-figure-value"
    assert by_id["002.fake.refuted"]["severity"] == "wrong-constant-or-step"
    assert by_id["numerics.fake.holds"]["severity"] is None
    run = json.loads((out / "run.json").read_text())
    for key in ("backend", "scheduler", "workers", "wall_time", "cache_hits", "cache_misses",
                "seconds_per_claim"):
        assert key in run
    assert run["backend"] == "serial" and run["cache_hits"] == 0 and run["cache_misses"] == len(GOOD)
    assert set(run["seconds_per_claim"]) == {c.id for c in GOOD}


def test_markdown_has_definitions_paper_sections_and_findings_by_severity(out):
    report.build(fresh=True, backend="serial", out_dir=out)
    md = (out / "VERDICTS.md").read_text()
    assert md.index("<summary>Definitions") < md.index("## Problems") < md.index("## Seed 002")
    assert ledger.MARGIN_DEFINITION in md and ledger.SEVERITY_RULE in md
    for kind in ledger.EVIDENCE_KINDS + ledger.SEVERITIES + ledger.ROLES:
        assert f"`{kind}`" in md
    assert "Seed file: `002_13c470b90c68bab6.txt`" in md
    assert "inventory coverage: no inventory" in md                     # the fake claims' package has none
    section = md[md.index("## Seed 002"):]
    order = [section.index(f"`{cid}`") for cid in ("002.thm-1.refuted", "002.fake.refuted", "002.table-1.refuted")]
    assert order == sorted(order)                                        # result > its step > table
    assert "**Why:** lhs = 2 exceeds rhs = 1" in section
    assert "refuted under noise std z*L (L10); holds under noise std 2z*L (L11)" in section
    assert "3 findings from 2 causes" in section                        # one cause shared by two findings
    assert "#### Theorem 1: conclusion refuted" in section
    assert "q = 0.5<br>sigma = 0.333333" in section                     # the counterexample as named values
    assert "[figure PNG](../figures/out/fake.png)" in md and "![" not in md  # a link, no thumbnail
    assert "with a pipe" in md and "\\|" in md                           # the table is not broken


@pytest.mark.parametrize("bad, problem, status", [(RAISES, "error", "error"), (STALE, "stale", "stale"),
                                                  (CHANGED, "mismatch", "refuted")])
def test_each_problem_fails_the_report_and_is_listed_first(out, monkeypatch, capsys, bad, problem, status):
    use(monkeypatch, GOOD + [bad])
    assert run_main(out, "--fresh") == 1
    _, err = capsys.readouterr()
    assert f"{bad.id} ({problem})" in err
    entry = next(v for v in json.loads((out / "verdicts.json").read_text()) if v["id"] == bad.id)
    assert entry["status"] == status and entry["problem"] == problem
    md = (out / "VERDICTS.md").read_text()
    problems = md[md.index("## Problems"):md.index("## Seed")]
    assert f"`{bad.id}` ({problem})" in problems
    section = md[md.index(f"## Seed {bad.seed}"):]
    rows = [line for line in section.splitlines() if line.startswith("| <a id=")]
    assert bad.id in rows[0]                                             # first row of its paper too


def test_a_broken_claim_module_fails_the_report(out, monkeypatch, capsys):
    use(monkeypatch, GOOD, broken={"theory.fake_broken": "SyntaxError: invalid syntax"})
    assert run_main(out, "--fresh") == 1
    _, err = capsys.readouterr()
    assert "theory.fake_broken (import-error)" in err
    md = (out / "VERDICTS.md").read_text()
    assert "`theory.fake_broken` (import-error): SyntaxError" in md


def test_discovery_of_a_broken_module_through_a_subprocess(tmp_path):
    """The real discovery (DPV_CLAIM_PACKAGES points it at a temporary package): a module with a syntax
    error beside a good claim module makes ``python -m theory.report`` exit 1 naming the module."""
    pkg = tmp_path / "fakeclaims"
    pkg.mkdir()
    (pkg / "__init__.py").write_text('TITLE = "A fake paper"\nAUTHORS = "Nobody"\n')
    (pkg / "good.py").write_text(
        "from theory.ledger import Verdict, claim\n\n"
        "@claim(id='003.fake.good', seed='003', lines='L1', statement='One is one.', recorded='holds')\n"
        "def good():\n    return Verdict('holds', 'symbolic', margin=0.0)\n")
    (pkg / "broken.py").write_text("def broken(:\n")
    (pkg / "inventory.py").write_text(
        "from theory.inventory import Item\n"
        "ITEMS = (Item('theorem', 'Theorem 1', 'L1', claims=('003.fake.good',)),\n"
        "         Item('table', 'Table 2', 'L9'), Item('definition', 'Definition 1', 'L2', reason='a definition'))\n")
    env = dict(os.environ, DPV_CLAIM_PACKAGES="fakeclaims", DPV_CACHE_DIR=str(tmp_path / "cache"),
               PYTHONPATH=os.pathsep.join([str(tmp_path), str(REPO)]))
    # the timeout is a hang guard, never a speed test: a loaded machine stretches imports 10x
    proc = subprocess.run([sys.executable, "-m", "theory.report", "--backend", "serial", "--out",
                           str(tmp_path / "out")], env=env, cwd=tmp_path, capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 1, proc.stderr
    assert "fakeclaims.broken (import-error)" in proc.stderr
    assert "report: [1/1] seed 003: 1 claims" in proc.stdout             # progress under a pipe
    md = (tmp_path / "out" / "VERDICTS.md").read_text()
    assert "## A fake paper" in md and "Nobody." in md
    assert "inventory coverage: 1 covered, 1 not-checkable, 1 uncovered of 3 items" in md
    assert "uncovered items: Table 2 (L9)" in md


def test_a_rerun_rewrites_identical_bytes_and_run_json_is_git_ignored(out):
    report.build(fresh=True, backend="serial", out_dir=out)
    files = sorted(p for p in out.rglob("*") if p.is_file() and p.name != "run.json")
    first = {p: p.read_bytes() for p in files}
    report.build(fresh=True, backend="serial", out_dir=out)
    assert {p: p.read_bytes() for p in files} == first
    assert b"seconds" not in first[out / "verdicts.json"]
    ignored = subprocess.run(["git", "check-ignore", "-q", "report/run.json"], cwd=REPO)
    assert ignored.returncode == 0, "report/run.json (timings, host facts) must be git-ignored"


class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.refs, self.ids = [], set()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        for key in ("href", "src"):
            if attrs.get(key):
                self.refs.append(attrs[key])


def _parse(path: Path) -> _Links:
    parser = _Links()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def test_every_link_and_image_of_the_html_report_resolves(out, monkeypatch):
    use(monkeypatch, GOOD + [CHANGED, STALE], broken={"theory.fake_broken": "SyntaxError: x"})
    report.build(fresh=True, backend="serial", out_dir=out)
    html = out / "html"
    pages = sorted(html.glob("*.html"))
    assert {p.name for p in pages} == {"index.html", "paper-000.html", "paper-002.html", "paper-numerics.html"}
    parsed = {p: _parse(p) for p in pages}
    for page, links in parsed.items():
        assert links.refs, f"{page.name} links nothing"
        for ref in links.refs:
            parts = urlsplit(ref)
            assert not parts.scheme, f"{page.name}: external link {ref}"
            target = (page.parent / parts.path).resolve() if parts.path else page
            assert target.is_file(), f"{page.name}: {ref} does not resolve"
            if parts.fragment:
                assert parts.fragment in parsed[target].ids, f"{page.name}: no #{parts.fragment} in {target.name}"
    paper = parsed[html / "paper-002.html"]
    assert {"002.fake.changed", "002.thm-1.refuted"} <= paper.ids            # every claim linkable by id
    assert any(r.endswith("fake.png") for r in parsed[html / "paper-numerics.html"].refs)  # figure inline
    index = (html / "index.html").read_text()
    assert index.index("002.fake.changed") < index.index("Papers")          # problems first


def test_second_report_takes_cached_verdicts_and_fresh_ignores_them(out, monkeypatch):
    use(monkeypatch, GOOD + [RAISES])
    first = report.build(backend="serial", out_dir=out)
    second = report.build(backend="serial", out_dir=out)
    run = json.loads((out / "run.json").read_text())
    assert run["cache_hits"] == len(GOOD) and run["cache_misses"] == 1      # a raising check is not cached
    assert first == second
    report.build(fresh=True, backend="serial", out_dir=out)
    assert json.loads((out / "run.json").read_text())["cache_hits"] == 0


def test_unreachable_scheduler_is_one_line_not_a_traceback(out, monkeypatch, capsys):
    from numerics.sweep import SweepError

    def unreachable(*args, **kwargs):
        raise SweepError("cannot reach the Dask scheduler at 'tcp://127.0.0.1:1' within 1 s")

    monkeypatch.setattr(report, "sweep", unreachable)
    status = report.main(["--scheduler", "tcp://127.0.0.1:1", "--out", str(out)])
    _, err = capsys.readouterr()
    assert status == 1
    assert len(err.strip().splitlines()) == 1 and "tcp://127.0.0.1:1" in err


def test_the_committed_html_report_links_resolve():
    """The report/html committed in the tree (written by make report): every link and image resolves."""
    html = REPO / "report" / "html"
    pages = sorted(html.glob("*.html"))
    assert (html / "index.html") in pages, "report/html/index.html missing: run make report and commit"
    parsed = {p: _parse(p) for p in pages}
    for page, links in parsed.items():
        for ref in links.refs:
            parts = urlsplit(ref)
            target = (page.parent / parts.path).resolve() if parts.path else page
            assert not parts.scheme and target.is_file(), f"{page.name}: {ref} does not resolve"
            if parts.fragment and target.suffix == ".html":
                assert parts.fragment in parsed[target].ids, f"{page.name}: no #{parts.fragment} in {target.name}"


def test_the_committed_verdicts_hold_no_timings():
    """verdicts.json is a pure function of the tree: seconds (which vary from run to run) live in run.json."""
    root = Path(__file__).resolve().parent.parent

    def keys(x):
        if isinstance(x, dict):
            for k, v in x.items():
                yield k
                yield from keys(v)
        elif isinstance(x, list):
            for v in x:
                yield from keys(v)

    found = {k for k in keys(json.loads((root / "report" / "verdicts.json").read_text()))
             if k in ("seconds", "wall", "elapsed") or k.endswith("_seconds")}
    assert not found, found


def test_html_rows_carry_their_why_for_the_filter_and_sort_lines_by_number(out):
    """The filter searches a row's text, so the why must be inside the row; ids break only at dots; the lines
    column sorts by the first line number; definitions are folded; the index shows each paper's top findings."""
    import re

    report.build(fresh=True, backend="serial", out_dir=out)
    page = (out / "html" / "paper-002.html").read_text()
    row = page[page.index('<tr id="002.fake.refuted"'):]
    row = row[:row.index("</tr>\n")]
    assert "zebra-why" in row and "Reading:" in row and "002-one-error" in row
    assert '<table class="cx">' in row and "<th>sigma</th>" in row
    assert '<td data-value="10.0">L10-12</td>' in row
    assert re.search(r'<span class="idp">002\.</span><wbr><span class="idp">fake\.</span><wbr>', row)
    assert "<details><summary>Definitions" in page and "<details open>" not in page
    index = (out / "html" / "index.html").read_text()
    assert "zebra-why" in index                                           # top findings with their why
    js = (out / "html" / "report.js").read_text()
    assert "row.textContent" in js


def test_heartbeat_speaks_when_nothing_else_does():
    """Issue 34: a line at least every 30 s, also while a claim computes in this process and prints nothing."""
    import time

    lines = []
    with report._Heartbeat(lines.append, every=0.2) as progress:
        progress("report: first")
        time.sleep(1.5)
    assert lines[0] == "report: first"
    assert any(line.startswith("report: still running") and line.endswith("last: report: first") for line in lines[1:])
