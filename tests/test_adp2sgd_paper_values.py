"""Every printed value of seed 001 stands, digit for digit, on the line its Printed value cites."""
import os
from pathlib import Path

import pytest

from theory.adp2sgd import paper_values as pv
from theory.printed import Printed

SEED = Path(os.environ.get("DPV_SEEDS_DIR", Path(__file__).resolve().parents[2] / "shared" / "seeds")) / \
    "001_53c39e87fd81b1a8.txt"


def _walk(value):
    if isinstance(value, Printed):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _walk(v)
    elif isinstance(value, (tuple, list)):
        for v in value:
            yield from _walk(v)


PRINTED = [p for name in dir(pv) if name.isupper() for p in _walk(getattr(pv, name))]


def test_there_are_printed_values():
    assert len(PRINTED) > 100


@pytest.mark.parametrize("p", PRINTED, ids=[f"{p.line}:{p.text}" for p in PRINTED])
def test_printed_text_stands_on_its_line(p):
    if not SEED.exists():
        pytest.skip("seed file not present")
    lines = SEED.read_text(encoding="utf-8").splitlines()
    first, _, last = p.line[1:].partition("-")
    span = " ".join(lines[int(first) - 1:int(last or first)])
    assert p.text in span
