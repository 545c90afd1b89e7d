"""How a reproduced figure's stated outcome is decided: shared by the figure claims of every paper package.

Where the numbers come from: the CSV that the figure's make target wrote (``figures/out/<name>.csv``)
when it exists and was made at the full setting, otherwise the figure's quick setting run now (a few
seconds; ``theory/<paper>/runs.py`` holds both settings). ``evidence["source"]`` says which.

How an effect is decided: over seeds, ``diff = mean(a) - mean(b)`` and ``noise = 2 * SE(diff)`` with
``SE = sqrt(var_a/n_a + var_b/n_b)``, floored at :data:`NOISE_FLOOR` (a few seeds estimate a spread
poorly). A claimed effect ``a > b`` holds when ``diff > noise``, is refuted when ``diff < -noise``,
and is open in between. A level claim (``x <= L``) holds when ``x + noise <= L``, is refuted when
``x - noise > L``. The data are stand-ins (repro.data): a "refuted" here means the stated outcome does
not reproduce on the stand-in at the stated setting; the counterexample names that setting.
The claims themselves live in the paper packages (``theory/<paper>/figures.py``).
"""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from repro import experiments as E
from repro.caption_csv import read_csv
from theory.ledger import Verdict

OUT = Path(__file__).resolve().parent.parent / "figures" / "out"
#: smallest effect (accuracy, absolute) we call distinguishable from seed noise
NOISE_FLOOR = 0.005
#: the stand-in data of the seed-002 and seed-000 runs on a9a (repro.data)
A9A = "a9a-shaped synthetic stand-in"


def full_rows(name: str):
    """The rows of ``figures/out/<name>.csv`` if it exists and was made at the full setting, else None."""
    path = OUT / f"{name}.csv"
    if not path.exists():
        return None
    meta, rows = read_csv(path)
    return rows if meta.get("setting") == "full" else None


def _finals_from_csv(name: str, model: str | None):
    rows = full_rows(name)
    if rows is None:
        return None
    last: dict = {}
    for r in rows:
        if model is not None and r.get("model") != model:
            continue
        key = (r["label"], r["seed"])
        if key not in last or int(r["round"]) > int(last[key]["round"]):
            last[key] = r
    finals: dict = {}
    for (lab, _), r in sorted(last.items()):
        finals.setdefault(lab, []).append(float(r["test_accuracy"]))
    return finals, f"csv:figures/out/{name}.csv (full setting)"


def final_accuracies(name: str, builder, model: str | None = None):
    """``label -> [final accuracy per seed]`` and a source string (CSV of the full run, or quick run now)."""
    got = _finals_from_csv(name, model)
    if got is not None:
        return got
    kwargs = {"quick": True} if model is None else {"quick": True, "model": model}
    exp = builder(**kwargs)
    return E.final_accuracies(E.run(exp)), f"quick setting run now ({exp.changes})"


def effect(a, b) -> tuple[float, float]:
    """``(mean(a) - mean(b), noise)`` with noise = max(2 SE, NOISE_FLOOR)."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    var = (a.var(ddof=1) / len(a) if len(a) > 1 else 0.0) + (b.var(ddof=1) / len(b) if len(b) > 1 else 0.0)
    return float(a.mean() - b.mean()), max(2.0 * math.sqrt(var), NOISE_FLOOR)


def decide(x: float, noise: float) -> str:
    """``holds`` if x > noise, ``refuted`` if x < -noise, else ``open`` (x is the claimed-positive margin)."""
    return "holds" if x > noise else "refuted" if x < -noise else "open"


def figure_verdict(status, margin, evidence, counterexample, reason_open, kind="sampled"):
    return Verdict(status, kind, margin, evidence, counterexample if status == "refuted" else None,
                   reason_open if status == "open" else "")


def summarize(finals: dict) -> dict:
    return {k: {"mean": float(np.mean(v)), "values": [float(x) for x in v]} for k, v in finals.items()}


def run_evidence(source: str, finals: dict, data: str, **extra) -> dict:
    """Evidence of a claim decided on final accuracies: source, per-arm summary, ``extra``, seed count."""
    return {"source": source, "final_accuracy": summarize(finals), **extra,
            "points": sum(len(v) for v in finals.values()), "data": data}


def worst_of(per: dict):
    """The key whose ``(margin, noise)`` is closest to refuted (smallest margin - noise), and that pair."""
    worst = min(per, key=lambda k: per[k][0] - per[k][1])
    return worst, *per[worst]
