"""The data set numbers of Sec. 7.1.3 (L457): each split adds up to the stated total (issue 31)."""
from __future__ import annotations

from theory.ledger import Verdict, claim
from theory.mapa.decide import status
from theory.mapa.paper_values import DATA


@claim(id="003.sec-7-1-3.dataset-splits", seed="003", lines="L457",
       statement="USPS has 9,298 images (7,291 train, 2,007 test) and MNIST 70,000 (60,000 train, 10,000 test).",
       recorded="holds", result="L457", role="printed-value")
def dataset_splits() -> Verdict:
    rows = {}
    for name in ("usps", "mnist"):
        total = int(DATA[f"{name}_images"].value)
        parts = int(DATA[f"{name}_train"].value) + int(DATA[f"{name}_test"].value)
        rows[name] = {"total": total, "train+test": parts}
    ok = all(r["total"] == r["train+test"] for r in rows.values())
    return Verdict(status(printed_holds=ok), "exact", margin=0.0 if ok else -1.0, evidence={
        "rows": rows, "domain": "the two printed splits", "source": "USPS and MNIST's standard splits (also in repro.data)"},
        counterexample=None if ok else rows, arithmetic=("integer",))
