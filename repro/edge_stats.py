"""The statistical rule behind seed 003's figure verdicts (to be swapped for ``repro.stats`` once it lands).

Welch's t-test (``scipy.stats.ttest_ind(equal_var=False)``) on per-seed final values of two arms,
one-sided in the claimed direction at level :data:`ALPHA`: ``greater`` when the mean difference is
positive and significant, ``less`` when it is negative and significant, ``inconclusive`` otherwise.
"""
from __future__ import annotations

import numpy as np
from scipy import stats

ALPHA = 0.05


def welch(a, b) -> dict:
    """Welch test of mean(a) vs mean(b): difference, two-sided p, and the one-sided decision at ALPHA."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    diff = float(a.mean() - b.mean())
    if len(a) < 2 or len(b) < 2 or (a.std() == 0 and b.std() == 0):
        p = 0.0 if diff != 0 else 1.0
    else:
        p = float(stats.ttest_ind(a, b, equal_var=False).pvalue)
    one_sided = p / 2
    decision = "inconclusive" if one_sided >= ALPHA else ("greater" if diff > 0 else "less")
    return {"diff": diff, "p_two_sided": p, "decision": decision, "n_a": int(len(a)), "n_b": int(len(b))}


def tost(a, b, margin: float) -> dict:
    """Two one-sided Welch tests of |mean(a) - mean(b)| < ``margin``: equivalent when both reject at ALPHA."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    upper = stats.ttest_ind(a - margin, b, equal_var=False, alternative="less").pvalue
    lower = stats.ttest_ind(a + margin, b, equal_var=False, alternative="greater").pvalue
    p = float(max(upper, lower))
    return {"diff": float(a.mean() - b.mean()), "margin": float(margin), "p": p, "equivalent": bool(p < ALPHA)}


def mann_whitney_greater(a, b) -> dict:
    """One-sided Mann-Whitney U test that ``a`` tends to exceed ``b`` (for censored iteration counts)."""
    res = stats.mannwhitneyu(np.asarray(a, float), np.asarray(b, float), alternative="greater")
    return {"p": float(res.pvalue), "greater": bool(res.pvalue < ALPHA)}
