"""A number as a seed paper prints it: the digits and the seed line they stand on.

Paper values are INPUTS to compare against, never outputs of our code. Each paper package keeps its
printed numbers in its ``paper_values`` module as :class:`Printed` values (anywhere in module-level
dicts, tuples or lists); a test walks those modules and checks that ``text`` stands on ``line`` of the
paper's seed file, so a mistyped digit or a wrong line fails loudly.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Printed:
    """``text``: the number exactly as printed (e.g. ``"0.0495"``, ``"5.5e-8"``); ``line``: ``"L1338"``."""

    text: str
    line: str
    note: str = ""

    def __post_init__(self):
        float(self.text.replace(",", ""))  # a printed value must parse as a number
        if not (self.line.startswith("L") and self.line[1:].split("-")[0].isdigit()):
            raise ValueError(f"line must read like 'L123' or 'L123-130', got {self.line!r}")

    @property
    def value(self) -> float:
        return float(self.text.replace(",", ""))


def plain(obj):
    """``obj`` with every :class:`Printed` (in dicts, tuples, lists) replaced by its ``(text, line)`` pair: the
    shape a verdict's evidence records."""
    if isinstance(obj, Printed):
        return (obj.text, obj.line)
    if isinstance(obj, dict):
        return {k: plain(v) for k, v in obj.items()}
    if isinstance(obj, (tuple, list)):
        return type(obj)(plain(v) for v in obj)
    return obj


def text_of(value) -> str:
    """The printed text of a :class:`Printed` number or of a printed expression's ``(text, line)`` pair
    (expressions such as ``"1/e"`` are not numbers, so they are not Printed values)."""
    return value.text if isinstance(value, Printed) else value[0]


def texts(obj):
    """``obj`` with every :class:`Printed` (in dicts, tuples, lists) replaced by its text: the plain view of a
    paper-values table for code that compares with the printed strings (the lines stay checked at the source)."""
    if isinstance(obj, Printed):
        return obj.text
    if isinstance(obj, dict):
        return {k: texts(v) for k, v in obj.items()}
    if isinstance(obj, (tuple, list)):
        return type(obj)(texts(v) for v in obj)
    return obj
