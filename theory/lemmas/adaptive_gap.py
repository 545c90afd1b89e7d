r"""How far one fixed order of the replace-one pair falls below the adaptive adversary (issue 25, item 6).

Setting: ``steps`` Gaussian steps on fixed-size batches of ``batch_size`` of ``dataset_size`` records (clip 1,
noise multiplier ``sigma``) under replace-one adjacency. ``numerics.epsilon`` returns for it (method
``pld-adaptive``, numerics/adaptive.py, docs/replace_one.md):

* ``fixed_order``: the certified bracket of the best FIXED order, i.e. :math:`P = (1-g)N(0,\sigma^2) +
  gN(2,\sigma^2)` against :math:`Q = N(0,\sigma^2)` or the reverse, the same order in every step, composed
  (g = batch_size / dataset_size). This is what a naive fixed-pair analysis reports;
* ``adaptive_lower``: a certified LOWER bound on the true epsilon, the value of a realizable adaptive
  adversary that picks the order per block of steps from the running privacy loss;
* ``certified_upper``: the proven UPPER bound (Dong-Roth-Su symmetrised pair composed).

The fixed-order composition understates the privacy loss in a setting, PROVABLY, when
``adaptive_lower > fixed_order_upper``: the gap (absolute, and relative to the fixed-order upper end) is then a
certified lower bound on the understatement. When the adaptive lower bound does not clear the fixed-order upper
end the accountant does not decide the setting (the true epsilon may still exceed the fixed order; the
certified upper end says by at most how much), so no verdict "refuted" is possible from these numbers.
"""
from __future__ import annotations

import numerics
from numerics.schedule import Phase, Schedule
from theory.ledger import Verdict


def gap_point(*, batch_size: int, dataset_size: int, sigma: float, steps: int, delta: float) -> dict:
    """One setting's numbers (a ``numerics.sweep.sweep`` point function): the fixed-order bracket, the adaptive
    lower bound, the certified upper bound, and the gap adaptive lower - fixed-order upper (absolute, relative)."""
    phase = Phase.fixed_size(batch_size=batch_size, dataset_size=dataset_size, sigma=sigma, steps=steps)
    b = numerics.epsilon(Schedule((phase,), "replace-one"), delta)
    fixed = b.details["fixed_order"]
    gap = b.epsilon_lower - fixed["upper"]
    return {"batch_size": batch_size, "dataset_size": dataset_size, "sigma": sigma, "steps": steps, "delta": delta,
            "method": b.method, "fixed_order_lower": fixed["lower"], "fixed_order_upper": fixed["upper"],
            "adaptive_lower": b.epsilon_lower, "certified_upper": b.epsilon_upper,
            "gap": gap, "gap_relative": gap / fixed["upper"],
            "understatement_at_most_relative": (b.epsilon_upper - fixed["lower"]) / fixed["lower"]}


def understatement_verdict(rows: list, **evidence) -> Verdict:
    """Verdict on "one fixed order understates the privacy loss in these settings" from the rows of
    :func:`gap_point` (each may carry labels such as ``setting``): holds when some row's adaptive lower bound
    exceeds its fixed-order upper end (margin: the largest relative gap); open otherwise (margin: the largest,
    non-positive, relative gap). Evidence kind numeric: a certified accountant at the stated points."""
    decided = [r for r in rows if r["gap"] > 0]
    best = max(rows, key=lambda r: r["gap_relative"])
    ev = {"rows": rows, "decided_settings": len(decided), "settings": len(rows),
          "largest_gap": {k: best[k] for k in best if k not in ("method",)},
          "reading": "gap = adaptive lower - fixed-order upper: > 0 proves the fixed order understates epsilon; "
                     "understatement_at_most_relative = certified upper / fixed-order lower - 1", **evidence}
    if decided:
        return Verdict("holds", "numeric", best["gap_relative"], evidence=ev)
    return Verdict("open", "numeric", best["gap_relative"], evidence=ev,
                   reason="in no setting does the adaptive lower bound clear the fixed-order upper end; the true "
                          "epsilon may still exceed the fixed order by up to understatement_at_most_relative")
