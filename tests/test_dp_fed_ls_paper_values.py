"""Every printed number of seed 004 stands verbatim on the line its paper_values entry names (fails without
the seeds, never skips)."""
import pytest

from theory.dp_fed_ls import paper_values
from theory.printed import Printed
from tests.seeds import seed_path


def _walk(obj):
    if isinstance(obj, Printed):
        yield obj
    elif isinstance(obj, dict):
        for v in obj.values():
            yield from _walk(v)
    elif isinstance(obj, (tuple, list)):
        for v in obj:
            yield from _walk(v)


def _all_printed():
    for name in dir(paper_values):
        if name.isupper():
            yield from _walk(getattr(paper_values, name))


@pytest.fixture(scope="module")
def seed_lines():
    return seed_path(paper_values.SEED).read_text(encoding="utf-8").splitlines()


@pytest.mark.parametrize("p", list(_all_printed()), ids=lambda p: f"{p.line}:{p.text}")
def test_printed_value_stands_on_its_line(p, seed_lines):
    first, _, last = p.line[1:].partition("-")
    text = " ".join(seed_lines[int(first) - 1:int(last or first)])
    assert p.text in text
