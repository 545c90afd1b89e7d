"""Every printed number a paper package compares against stands on the seed line it names.

Walks every ``theory/<paper>/paper_values.py``, finds every :class:`theory.printed.Printed` (recursively in
module-level dicts, tuples and lists) and reads its line(s) in ``../shared/seeds/<seed file>`` (beside the
repository, or ``DPV_SEEDS_DIR``). The seeds are part of CI: without them this test fails, it never skips.
"""
import importlib
import pkgutil
import re
from pathlib import Path

import pytest

import theory
from theory.ledger import SEED_FILES
from theory.printed import Printed

REPO = Path(__file__).resolve().parent.parent
from tests.seeds import SEEDS_DIR  # noqa: E402  (``DPV_SEEDS_DIR`` overrides the place)
#: characters a paper sets between the digits of one number (thousands separators, thin spaces)
_GROUPING = re.compile(r"(?<=\d)[,\u2009\u202f\u00a0 ](?=\d{3}\b)")
_MINUS = str.maketrans({"\u2212": "-", "\u2013": "-", "\u2014": "-"})


def normalise(text: str) -> str:
    """The digits of a number as they read: unicode minus as '-', no grouping, no whitespace."""
    return re.sub(r"\s+", "", _GROUPING.sub("", text.translate(_MINUS)))


def spellings(text: str) -> list:
    """The ways a paper sets one number: as typed, and for ``5.5e-8`` also ``5.5\\cdot 10^{-8}`` and the like."""
    out = [normalise(text)]
    mant, e, exp = text.lower().partition("e")
    if e and exp:
        exp = str(int(exp))
        out += [normalise(f"{mant}{times}10^{{{exp}}}") for times in ("\\cdot", "\\times", "·", "×")]
    return out


def paper_values_modules() -> list:
    """``theory.<paper>.paper_values`` for every package under theory/ that has one."""
    names = [f"theory.{m.name}.paper_values" for m in pkgutil.iter_modules(theory.__path__) if m.ispkg
             and (Path(theory.__path__[0]) / m.name / "paper_values.py").exists()]
    return [importlib.import_module(n) for n in sorted(names)]


def _walk(obj, where: str):
    if isinstance(obj, Printed):
        yield where, obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield from _walk(v, f"{where}[{k!r}]")
    elif isinstance(obj, (tuple, list)):
        for i, v in enumerate(obj):
            yield from _walk(v, f"{where}[{i}]")


def printed_values() -> list:
    """(module, path, Printed) for every Printed value of every paper-values module."""
    out = []
    for mod in paper_values_modules():
        for name, obj in vars(mod).items():
            if not name.startswith("_"):
                out += [(mod, path, p) for path, p in _walk(obj, name)]
    return out


def seed_lines(seed_file: str, span: str) -> str:
    """The text of ``span`` ("L12" or "L10-12") of a seed file, lines joined by a space."""
    path = SEEDS_DIR / seed_file
    if not path.exists():
        pytest.fail(f"seed file {seed_file} not found in {SEEDS_DIR}: the seeds must sit in ../shared/seeds "
                    "beside the repository (CI provides them)")
    lines = path.read_text(encoding="utf-8").splitlines()
    first, _, last = span[1:].partition("-")
    lo, hi = int(first), int(last.lstrip("L") or first)
    assert 1 <= lo <= hi <= len(lines), f"{span} outside the {len(lines)} lines of {seed_file}"
    return " ".join(lines[lo - 1:hi])


def test_seeds_are_present():
    assert SEEDS_DIR.is_dir(), f"{SEEDS_DIR} is missing: the paper-value tests need the seed files beside the repository"


def test_every_paper_package_declares_its_seed():
    mods = paper_values_modules()
    assert {m.__name__ for m in mods} >= {"theory.proactive_dp.paper_values", "theory.async_fl.paper_values"}
    for mod in mods:
        assert getattr(mod, "SEED", None) in SEED_FILES.values(), f"{mod.__name__} must name its seed file in SEED"


def test_printed_values_stand_on_their_lines():
    values = printed_values()
    assert len(values) > 100
    wrong = []
    for mod, path, p in values:
        text = seed_lines(mod.SEED, p.line)
        line_text = normalise(text)
        if not any(form in line_text for form in spellings(p.text)):
            wrong.append(f"{mod.__name__}.{path}: {p.text!r} not on {p.line}")
    assert not wrong, f"{len(wrong)} of {len(values)} printed values not on their line:\n" + "\n".join(wrong)


def test_normalisation_reads_the_usual_spellings():
    assert normalise("N_c = 10,000 records") == "N_c=10000records"
    assert normalise("\u22120.5") == "-0.5"
    assert normalise("5.5e-8") in spellings("5.5e-8")
    assert normalise("5.5 \\cdot 10^{-8}") in spellings("5.5e-8")


def test_plain_and_texts_views_keep_the_shape():
    from theory.printed import plain, text_of, texts

    table = {"a": (Printed("0.1", "L3"), 5, "L3"), "b": [Printed("2", "L4")], "c": ("1/e", "L5")}
    assert texts(table) == {"a": ("0.1", 5, "L3"), "b": ["2"], "c": ("1/e", "L5")}
    assert plain(table)["a"] == (("0.1", "L3"), 5, "L3")
    assert text_of(table["c"]) == "1/e" and text_of(table["b"][0]) == "2"
