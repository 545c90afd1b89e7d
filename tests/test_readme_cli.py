"""The README's CLI examples are run and their printed lines compared with the README's text (issue 33,
item 6): a number in the README that the tool no longer prints fails here, so the README cannot drift.

Every command of the ```sh block under "The accountant CLI" is run in-process (numerics.cli.main, with
the program name the README uses); the ``# `` lines right under a command are its expected output, line
by line: equal, or a prefix where the README line ends in "..." (a long note shortened).
"""
import re
import shlex
import sys
from pathlib import Path

import pytest

from numerics import cli

README = Path(__file__).resolve().parent.parent / "README.md"
#: examples that take more than a few seconds on 2 cores (the adaptive fixed-size replace-one run, the
#: K-norm mixture, calibration searches, every method at once, the cover accountant cold): run by `make test-all`
SLOW = ("--steps 10000", "l2-knorm", "calibrate-sigma", "critical-steps", "--method all", "--sampling fixed-size "
        "--batch-size 256", "--phase", "delta --q",
        "--method cover")


def examples():
    """(program, argv, expected lines) of every command in the README's CLI block."""
    text = README.read_text()
    start = text.index("## The accountant CLI")
    block = text[text.index("```sh\n", start) + 6:]
    block = block[:block.index("```")]
    out, lines, i = [], block.splitlines(), 0
    while i < len(lines):
        line = lines[i]
        if line.startswith(("python -m numerics", "dpverify")):
            command = line
            while command.endswith("\\"):
                i += 1
                command = command[:-1] + " " + lines[i].strip()
            expected = []
            while i + 1 < len(lines) and lines[i + 1].startswith("# "):
                i += 1
                expected.append(lines[i][2:])
            words = shlex.split(command)
            prog, argv = ("dpverify", words[1:]) if words[0] == "dpverify" else ("python -m numerics", words[3:])
            out.append((prog, argv, expected))
        i += 1
    return out


EXAMPLES = examples()


def _param(example):
    prog, argv, expected = example
    marks = [pytest.mark.slow] if any(s in " ".join(argv) for s in SLOW) else []
    return pytest.param(prog, argv, expected, marks=marks, id=" ".join(argv)[:80])


def test_the_readme_block_has_examples_with_output():
    assert len(EXAMPLES) >= 10
    assert sum(1 for _, _, e in EXAMPLES if e) >= 10


def _matches(expected: str, got: str) -> bool:
    if expected.endswith("..."):
        return got.startswith(expected[:-3].rstrip())
    return got == expected


@pytest.mark.parametrize("prog, argv, expected", [_param(e) for e in EXAMPLES])
def test_readme_example_prints_what_the_readme_says(prog, argv, expected, capsys, monkeypatch):
    monkeypatch.setattr(sys, "argv", ["dpverify" if prog == "dpverify" else "numerics/__main__.py"])
    try:
        status = cli.main(argv)
    except SystemExit as exc:  # --version
        status = exc.code
    out, err = capsys.readouterr()
    printed = (out + err).strip().splitlines()
    if expected and expected[0].startswith(prog + ": error"):
        assert status == 2
    else:
        assert status == 0, err
    assert len(printed) == len(expected) or not expected, (printed, expected)
    for want, got in zip(expected, printed):
        assert _matches(want, got), f"README says\n  {want}\nthe tool prints\n  {got}"


def test_numbers_in_the_readme_lines_are_compared():
    """The comparison is on the printed text, so every number of the README's lines takes part."""
    numbers = [n for _, _, e in EXAMPLES for line in e for n in re.findall(r"=\d[\d.e+-]*", line)]
    assert len(numbers) >= 20


# --- the drop-in accountants' Python examples (issue 33, item 7: "the README shows each in five lines") ---

def dropin_examples():
    """The ```python blocks of the README's drop-in paragraph (from "Drop-in accountants" to the next
    paragraph that is not a block or its introduction, i.e. up to "`Phase(q, sigma, steps)`")."""
    text = README.read_text()
    start = text.index("Drop-in accountants (numerics.dropin)")
    part = text[start:text.index("`Phase(q, sigma, steps)`", start)]
    blocks = part.split("```python\n")[1:]
    return [b[:b.index("```")] for b in blocks]


def test_the_readme_shows_both_dropins_in_five_lines():
    blocks = dropin_examples()
    assert len(blocks) == 2
    assert "CertifiedPrivacyAccountant" in blocks[0] and "OpacusAccountant" in blocks[1]
    assert all(len(b.strip().splitlines()) <= 5 for b in blocks)


@pytest.mark.parametrize("index", [0, 1])
def test_readme_dropin_example_runs_and_prints_the_certified_upper_end(index, capsys):
    import dp_accounting  # noqa: F401  (a missing peer must fail, not skip)
    namespace: dict = {}
    exec(compile(dropin_examples()[index], f"README drop-in example {index + 1}", "exec"), namespace)
    printed = capsys.readouterr().out
    upper = float(printed.split()[0])
    bounds = namespace["accountant"].epsilon_bounds(1e-5) if index == 0 \
        else namespace["accountant"].get_epsilon_bounds(1e-5)
    assert upper == bounds.epsilon_upper and bounds.epsilon_lower <= upper
