"""How a reproduced figure's stated outcome is decided: shared by the figure claims of every paper package.

Data. A figure claim reads only the CSV that the figure's full make target wrote
(``figures/out/<name>.csv``), and only when its provenance sidecar shows it fresh
(:func:`repro.provenance.require_fresh`: the code, config, data and CSV digests match the tree). A
missing, stale or quick-setting CSV raises :class:`repro.provenance.StaleFigureData`: the claim fails and
``make report`` exits non-zero; it never silently falls back to another run. ``QUICK=1`` outputs live
in ``figures/out/quick/``, which no claim reads.

Decision rule (:mod:`repro.stats`, one level :data:`repro.stats.SIGNIFICANCE_LEVEL`): an effect ``a > b``
by one-sided Welch t-tests; "the same or better" by a non-inferiority Welch test at a stated margin;
"no difference" only by TOST (two one-sided Welch tests) at a stated margin; a level ``low <= x <= high``
by one-sample t-tests. Every test's record (statistic, p-value, n per arm, seeds) is in the evidence.

Stand-ins. A claim decided on stand-in data (the sidecar's data record names a stand-in) or on a model far
from the paper's is ``not-reproduced``, never ``refuted`` or ``holds``, and names what is missing
(:class:`theory.ledger.Missing`: the data set, or the model family); what the test gives on our setting
is kept as ``evidence["status_on_our_setting"]``. Run length, a grid or the number of seeds are never a
reason: the figure runs the paper's setting.
The claims themselves live in the paper packages (``theory/<paper>/figures.py``).
"""
from __future__ import annotations

from pathlib import Path

from repro import stats
from repro.caption_csv import read_csv
from repro.provenance import StaleFigureData, require_fresh
from theory.ledger import Missing, Verdict

OUT = Path(__file__).resolve().parent.parent / "figures" / "out"
#: the reason of every claim decided on stand-in data
STAND_IN_REASON = ("decided on stand-in data ({names}): the paper's data set is not available offline, so our "
                   "runs cannot decide the paper's statement; on the stand-in the test gives '{status}'")


def load(name: str) -> tuple[list, dict, str]:
    """(rows, sidecar record, source string) of the fresh full-setting ``figures/out/<name>.csv``.

    Raises :class:`StaleFigureData` when the CSV is missing, stale or not made at the full setting."""
    path = OUT / f"{name}.csv"
    rec = require_fresh(path)
    meta, rows = read_csv(path)
    if meta.get("setting") != "full":
        raise StaleFigureData(f"stale figure data: {name}.csv was made at the {meta.get('setting')!r} setting, "
                              f"not the full one (run its make target without QUICK)")
    return rows, rec, f"csv:figures/out/{name}.csv (full setting, code {rec['code']['sha256'][:12]})"


def final_accuracies(name: str, model: str | None = None, *, where=None):
    """``(finals, seeds, source, record)``: per arm label, the final test accuracy and seed of every run
    (the row with the largest round), from the fresh full CSV; ``where(row)`` filters rows further."""
    rows, rec, source = load(name)
    last: dict = {}
    for r in rows:
        if (model is not None and r.get("model") != model) or (where is not None and not where(r)):
            continue
        key = (r["label"], int(r["seed"]))
        if key not in last or int(r["round"]) > int(last[key]["round"]):
            last[key] = r
    finals, seeds = {}, {}
    for (lab, seed), r in sorted(last.items()):
        finals.setdefault(lab, []).append(float(r["test_accuracy"]))
        seeds.setdefault(lab, []).append(seed)
    return finals, seeds, source, rec


def stand_ins(rec: dict) -> list[str]:
    """Names of the stand-in data sets recorded in a sidecar."""
    return sorted(n for n, d in rec.get("data", {}).items() if d.get("kind") == "stand-in")


def data_note(rec: dict) -> dict:
    """The sidecar's data record, for the evidence (real MNIST-5k digest, or the stand-ins' names)."""
    return rec.get("data", {})


def summarize(finals: dict) -> dict:
    import numpy as np

    return {k: {"mean": float(np.mean(v)), "n": len(v), "values": [float(x) for x in v]} for k, v in finals.items()}


def records(comparisons) -> list[dict]:
    """The tests' records for the evidence; an infinite statistic (an exact difference between arms of zero
    variance) is written as the string "inf" / "-inf", since evidence is strict JSON."""
    import math

    out = []
    for c in comparisons:
        d = c.to_dict()
        if isinstance(d["statistic"], float) and not math.isfinite(d["statistic"]):
            d["statistic"] = "inf" if d["statistic"] > 0 else "-inf"
        out.append(d)
    return out


def worst(statuses) -> str:
    """The weakest of several statuses (refuted < open < holds)."""
    order = ("refuted", "open", "holds")
    return min(statuses, key=order.index)


def stand_in_missing(names) -> Missing:
    """What a run on the stand-ins ``names`` lacks: the paper's data sets they imitate."""
    papers = sorted({n.removesuffix("-like") for n in names})
    return Missing("data set", f"{', '.join(papers)} (the paper's data; not available offline, "
                               f"{', '.join(names)} stand in)")


def figure_verdict(status: str, margin: float, evidence: dict, *, rec: dict | None, counterexample=None,
                   reason_open: str = "", substitute: str = "", missing: Missing | None = None) -> Verdict:
    """The claim's verdict: ``status`` from the tests, unless the data were stand-ins (``rec``'s data record)
    or the model is a ``substitute`` far from the paper's (``missing`` names the model family): then
    ``not-reproduced`` with the reason and what is missing, the tests' outcome kept as
    ``evidence["status_on_our_setting"]``."""
    if substitute and missing is None:
        raise ValueError("a substitute model names the missing model family: missing=Missing('model family', ...)")
    names = stand_ins(rec) if rec else []
    evidence = {"margin_unit": "absolute, in the statement's quantity (accuracy or sigma)", **evidence,
                "significance_level": stats.SIGNIFICANCE_LEVEL}
    if names or substitute:
        reason = (STAND_IN_REASON.format(names=", ".join(names), status=status) if names
                  else f"{substitute}; on our setting the test gives '{status}'")
        return Verdict("not-reproduced", "sampled", margin, {**evidence, "status_on_our_setting": status}, None, reason,
                       missing=stand_in_missing(names) if names else missing)
    return Verdict(status, "sampled", margin, evidence, counterexample if status == "refuted" else None,
                   reason_open if status == "open" else "")
