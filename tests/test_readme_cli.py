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
#: K-norm mixture, calibration searches, every method at once): run by `make test-all`
SLOW = ("--steps 10000", "l2-knorm", "calibrate-sigma", "critical-steps", "--method all", "--sampling fixed-size "
        "--batch-size 256", "--phase", "delta --q")


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
