r"""The decision rule of every run-backed (figure) claim: Welch t-tests, bootstrap CI, TOST equivalence.

One level for the whole suite, :data:`SIGNIFICANCE_LEVEL`; change it here and every figure verdict
follows. The tests are scipy's (``scipy.stats.ttest_ind(equal_var=False)``, ``scipy.stats.bootstrap``);
nothing here evaluates a t distribution by hand.

* :func:`welch`: is ``mean(a) - mean(b)`` different from ``shift`` (two-sided, or one side)?
* :func:`tost`: two one-sided Welch tests (Schuirmann's TOST) that ``|mean(a) - mean(b)| < margin``.
  "No difference" is claimed only when TOST rejects both one-sided nulls at the level; "not
  significant" is never evidence of equality.
* :func:`mann_whitney`: a rank test that ``a`` tends to exceed ``b`` (for censored counts entered at a budget).
* :func:`bootstrap_ci`: percentile bootstrap CI of ``mean(a) - mean(b)`` at level ``1 - alpha``, with a
  fixed generator seed so the record is reproducible.
* :func:`effect_status`, :func:`non_inferiority_status`, :func:`equivalence_status`: map a claim
  ("a > b", "a >= b - margin", "|a - b| < margin") onto ``holds`` / ``refuted`` / ``open``.

Every function returns a :class:`Comparison` record: the test, its statistic, p-value or CI, the
difference of means, ``n`` per arm and the seeds, ready for a verdict's evidence.

Hypotheses: the arms' values are independent draws (one per seed), approximately normal means; Welch
does not assume equal variances. Arms whose values are all identical (zero variance) have no t
statistic; there the record says so and the difference is exact (p = 0 on the side it lies, 1 on
the other).
"""
from __future__ import annotations

import warnings
from dataclasses import asdict, dataclass

import numpy as np
from scipy import stats as sps

from numerics.errors import InvalidParameter

#: the one significance level of every run-backed verdict (two one-sided tests each at this level in TOST)
SIGNIFICANCE_LEVEL = 0.05
#: bootstrap resamples of :func:`bootstrap_ci` (percentile method)
BOOTSTRAP_RESAMPLES = 9999
#: seed of the bootstrap generator: the CI is a deterministic function of the data
BOOTSTRAP_SEED = 20240601
#: fewest values per arm a test accepts (a variance needs two)
MIN_PER_ARM = 2


@dataclass(frozen=True)
class Comparison:
    """One test's record, as stored in a verdict's evidence."""

    test: str
    alternative: str
    statistic: float
    p_value: float | None
    diff: float
    n: tuple
    seeds: tuple
    alpha: float
    margin: float | None = None
    ci: tuple | None = None
    note: str = ""

    @property
    def significant(self) -> bool:
        return self.p_value is not None and self.p_value < self.alpha

    def to_dict(self) -> dict:
        d = asdict(self)
        d["n"], d["seeds"] = list(self.n), list(self.seeds)
        d["ci"] = list(self.ci) if self.ci is not None else None
        return d


def _arms(a, b):
    a, b = np.asarray(a, float), np.asarray(b, float)
    if a.ndim != 1 or b.ndim != 1 or min(len(a), len(b)) < MIN_PER_ARM:
        raise InvalidParameter(f"each arm needs at least {MIN_PER_ARM} values (one per seed), got {len(a)} and {len(b)}")
    if not (np.all(np.isfinite(a)) and np.all(np.isfinite(b))):
        raise InvalidParameter("arm values must be finite")
    return a, b


def _one_welch(a, b, shift: float, alternative: str) -> tuple[float, float, str]:
    """(statistic, p) of Welch's test of ``mean(a) - mean(b) = shift`` against ``alternative``."""
    if np.ptp(a) == 0.0 and np.ptp(b) == 0.0:  # no spread: the difference is exact, t is undefined
        d = float(a[0] - b[0] - shift)
        side = {"greater": d > 0, "less": d < 0, "two-sided": d != 0}[alternative]
        return float(np.sign(d) * np.inf) if d else 0.0, 0.0 if side else 1.0, "zero variance in both arms: exact difference"
    if np.ptp(a) == 0.0 or np.ptp(b) == 0.0:
        # one arm is constant (e.g. every seed at accuracy 1.0): its variance is exactly 0, which Welch
        # handles; scipy's "precision loss" warning is about values that are nearly, not exactly, equal
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message="Precision loss occurred in moment calculation",
                                    category=RuntimeWarning)
            res = sps.ttest_ind(a - shift, b, equal_var=False, alternative=alternative)
        return float(res.statistic), float(res.pvalue), "one arm has zero variance"
    res = sps.ttest_ind(a - shift, b, equal_var=False, alternative=alternative)
    return float(res.statistic), float(res.pvalue), ""


def welch(a, b, *, alternative: str = "two-sided", shift: float = 0.0, seeds=(), alpha: float = SIGNIFICANCE_LEVEL) -> Comparison:
    """Welch's t-test of ``mean(a) - mean(b) = shift`` (``alternative``: two-sided, greater, less)."""
    if alternative not in ("two-sided", "greater", "less"):
        raise InvalidParameter(f"alternative must be two-sided, greater or less, got {alternative!r}")
    a, b = _arms(a, b)
    t, p, note = _one_welch(a, b, shift, alternative)
    return Comparison("welch", alternative, t, p, float(a.mean() - b.mean()), (len(a), len(b)), tuple(seeds),
                      alpha, margin=shift or None, note=note)


def tost(a, b, *, margin: float, seeds=(), alpha: float = SIGNIFICANCE_LEVEL) -> Comparison:
    """TOST: equivalence ``-margin < mean(a) - mean(b) < margin`` by two one-sided Welch tests.

    p-value = the larger of the two one-sided p-values; ``statistic`` is that test's t.
    """
    if not margin > 0:
        raise InvalidParameter(f"equivalence margin must be > 0, got {margin!r}")
    a, b = _arms(a, b)
    lo = _one_welch(a, b, -margin, "greater")
    hi = _one_welch(a, b, margin, "less")
    t, p, note = max(lo, hi, key=lambda r: r[1])
    return Comparison("tost-welch", f"|diff| < {margin:g}", t, p, float(a.mean() - b.mean()), (len(a), len(b)),
                      tuple(seeds), alpha, margin=float(margin), note=note or lo[2] or hi[2])


def mann_whitney(a, b, *, alternative: str = "greater", seeds=(), alpha: float = SIGNIFICANCE_LEVEL) -> Comparison:
    """Mann-Whitney U test (``scipy.stats.mannwhitneyu``) that ``a`` is stochastically greater (``alternative``)
    than ``b``. Rank-based: a censored value entered at the budget only needs the right order, not its size."""
    if alternative not in ("two-sided", "greater", "less"):
        raise InvalidParameter(f"alternative must be two-sided, greater or less, got {alternative!r}")
    a, b = _arms(a, b)
    res = sps.mannwhitneyu(a, b, alternative=alternative)
    return Comparison("mann-whitney-u", alternative, float(res.statistic), float(res.pvalue), float(a.mean() - b.mean()),
                      (len(a), len(b)), tuple(seeds), alpha)


def bootstrap_ci(a, b, *, seeds=(), alpha: float = SIGNIFICANCE_LEVEL,
                 n_resamples: int = BOOTSTRAP_RESAMPLES) -> Comparison:
    """Percentile bootstrap CI (level ``1 - alpha``) of ``mean(a) - mean(b)``, arms resampled independently."""
    a, b = _arms(a, b)

    def diff(x, y, axis=-1):
        return np.mean(x, axis=axis) - np.mean(y, axis=axis)

    if np.ptp(a) == 0.0 and np.ptp(b) == 0.0:
        d = float(a[0] - b[0])
        ci, note = (d, d), "zero variance in both arms: exact difference"
    else:
        res = sps.bootstrap((a, b), diff, n_resamples=n_resamples, confidence_level=1 - alpha, method="percentile",
                            vectorized=True, random_state=np.random.default_rng(BOOTSTRAP_SEED))
        ci, note = (float(res.confidence_interval.low), float(res.confidence_interval.high)), ""
    return Comparison("bootstrap-percentile", "two-sided", float(diff(a, b)), None, float(diff(a, b)),
                      (len(a), len(b)), tuple(seeds), alpha, ci=ci, note=note)


# --- claims onto statuses --------------------------------------------------------------------------

def effect_status(a, b, *, seeds=(), alpha: float = SIGNIFICANCE_LEVEL) -> tuple[str, list[Comparison]]:
    """Claim ``mean(a) > mean(b)``: holds if Welch (greater) rejects, refuted if Welch (less) rejects, else open."""
    up = welch(a, b, alternative="greater", seeds=seeds, alpha=alpha)
    down = welch(a, b, alternative="less", seeds=seeds, alpha=alpha)
    return ("holds" if up.significant else "refuted" if down.significant else "open"), [up, down]


def non_inferiority_status(a, b, *, margin: float, seeds=(), alpha: float = SIGNIFICANCE_LEVEL):
    """Claim ``mean(a) >= mean(b) - margin`` ("the same or better"): holds if Welch rejects
    ``diff <= -margin``; refuted if Welch rejects ``diff >= -margin``; else open."""
    up = welch(a, b, alternative="greater", shift=-margin, seeds=seeds, alpha=alpha)
    down = welch(a, b, alternative="less", shift=-margin, seeds=seeds, alpha=alpha)
    return ("holds" if up.significant else "refuted" if down.significant else "open"), [up, down]


def equivalence_status(a, b, *, margin: float, seeds=(), alpha: float = SIGNIFICANCE_LEVEL):
    """Claim ``|mean(a) - mean(b)| < margin`` ("no difference"): holds if TOST shows equivalence;
    refuted if a one-sided Welch test shows the difference beyond the margin on either side; else open."""
    eq = tost(a, b, margin=margin, seeds=seeds, alpha=alpha)
    above = welch(a, b, alternative="greater", shift=margin, seeds=seeds, alpha=alpha)
    below = welch(a, b, alternative="less", shift=-margin, seeds=seeds, alpha=alpha)
    status = "holds" if eq.significant else "refuted" if (above.significant or below.significant) else "open"
    return status, [eq, above, below]


def one_sample(values, *, value: float, alternative: str, seeds=(), alpha: float = SIGNIFICANCE_LEVEL) -> Comparison:
    """One-sample t-test (``scipy.stats.ttest_1samp``) of ``mean(values) = value`` against ``alternative``."""
    if alternative not in ("two-sided", "greater", "less"):
        raise InvalidParameter(f"alternative must be two-sided, greater or less, got {alternative!r}")
    v = np.asarray(values, float)
    if v.ndim != 1 or len(v) < MIN_PER_ARM or not np.all(np.isfinite(v)):
        raise InvalidParameter(f"need at least {MIN_PER_ARM} finite values (one per seed), got {len(v)}")
    if np.ptp(v) == 0.0:
        d = float(v[0] - value)
        side = {"greater": d > 0, "less": d < 0, "two-sided": d != 0}[alternative]
        t, p, note = (float(np.sign(d) * np.inf) if d else 0.0), (0.0 if side else 1.0), "zero variance: exact mean"
    else:
        res = sps.ttest_1samp(v, value, alternative=alternative)
        t, p, note = float(res.statistic), float(res.pvalue), ""
    return Comparison("t-1samp", f"{alternative} than {value:g}", t, p, float(v.mean() - value), (len(v),),
                      tuple(seeds), alpha, note=note)


def interval_status(values, *, low: float, high: float, seeds=(), alpha: float = SIGNIFICANCE_LEVEL):
    """Claim ``low <= mean(values) <= high``: holds if one-sample t-tests show the mean above ``low`` and
    below ``high``; refuted if one shows it below ``low`` or above ``high``; else open."""
    above_low = one_sample(values, value=low, alternative="greater", seeds=seeds, alpha=alpha)
    below_high = one_sample(values, value=high, alternative="less", seeds=seeds, alpha=alpha)
    under = one_sample(values, value=low, alternative="less", seeds=seeds, alpha=alpha)
    over = one_sample(values, value=high, alternative="greater", seeds=seeds, alpha=alpha)
    if above_low.significant and below_high.significant:
        status = "holds"
    elif under.significant or over.significant:
        status = "refuted"
    else:
        status = "open"
    return status, [above_low, below_high, under, over]
