"""Every printed number of seed 004 stands verbatim on the line its paper_values entry names."""
import os
from pathlib import Path

import pytest

from theory.dp_fed_ls import paper_values
from theory.printed import Printed

SEEDS_DIR = Path(os.environ.get("DPV_SEEDS_DIR", Path(__file__).resolve().parents[2] / "shared" / "seeds"))


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
    path = SEEDS_DIR / paper_values.SEED
    if not path.exists():
        pytest.skip(f"seed file {path} not present (clean checkout without the shared seeds)")
    return path.read_text(encoding="utf-8").splitlines()


@pytest.mark.parametrize("p", list(_all_printed()), ids=lambda p: f"{p.line}:{p.text}")
def test_printed_value_stands_on_its_line(p, seed_lines):
    first, _, last = p.line[1:].partition("-")
    text = " ".join(seed_lines[int(first) - 1:int(last or first)])
    assert p.text in text
