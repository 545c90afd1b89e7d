"""The static HTML report beside the Markdown: ``report/html/index.html`` and one page per paper.

Rendered with Jinja2 from the templates in ``theory/templates/`` (autoescaped; no HTML built by string
concatenation). :mod:`theory.report` prepares a plain view of the verdicts (``site``: definitions,
problems, papers with their summaries and claim rows, figure links relative to the html folder) and
calls :func:`write_site`; this module knows no ledger. Each claim row carries the claim id as its HTML
``id``, so ``paper-002.html#002.lemma-B3.conclusion`` links to it. The claims table sorts by a click on
a column head and filters by text and status with a few lines of vanilla JavaScript (``report.js``).
"""
from __future__ import annotations

from pathlib import Path

TEMPLATES = Path(__file__).resolve().parent / "templates"
#: static files copied beside the pages
ASSETS = ("report.js", "report.css")


def _environment():
    import jinja2

    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)),
                              autoescape=jinja2.select_autoescape(["html"]),
                              undefined=jinja2.StrictUndefined, keep_trailing_newline=True)


def write_site(site: dict, out_dir: Path) -> None:
    """Write ``index.html``, one ``<slug>.html`` per paper and the assets into ``out_dir``."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    env = _environment()
    (out_dir / "index.html").write_text(env.get_template("index.html").render(site=site), encoding="utf-8")
    for paper in site["papers"]:
        page = env.get_template("paper.html").render(site=site, paper=paper)
        (out_dir / f"{paper['slug']}.html").write_text(page, encoding="utf-8")
    for name in ASSETS:
        (out_dir / name).write_text((TEMPLATES / name).read_text(encoding="utf-8"), encoding="utf-8")
