r"""The privacy a run certifies: the accountant side of the simulators, apart from the training code.

A run records what it did (:class:`repro.dp.PrivacyRecord`: every round's batch size and noise multiplier,
under the sampling the run really performed); this module turns that record into a certified epsilon
with ``numerics.certified.certified_epsilon`` (the PLD accountant for Poisson rounds, the dominating pairs
of ``numerics.dominating`` for fixed-size or with-replacement rounds, never as Poisson), and calibrates a
noise multiplier to a target epsilon. It is a module of its own so that the training functions run
through ``numerics.sweep`` (``repro.async_fl.run_point``, ``repro.edge_fl.run_point``, ...) import no
accountant: their cached runs are keyed by the sources they can execute (``numerics.sweep.closure``), and an
edit of an accountant then re-accounts every figure without re-training one.

Mechanism and adjacency: 002_13c470b90c68bab6.txt Algorithm 1, L72-L92, add/remove (L54); sampling as the
papers' analyses assume it, Poisson (002 footnote 14, L578; 000_d613b97385d90362.txt footnote 5, L182),
against what their algorithms run (002 L79 fixed size; 000 Algorithm 2.1 line 15, L94, with replacement).
"""
from __future__ import annotations

from numerics.calibrate import calibrate_sigma
from numerics.certified import certified_epsilon
from numerics.errors import InvalidParameter
from numerics.schedule import Schedule

from .dp import NUMERICS_SAMPLING, SAMPLINGS
from .sequences import round_sizes


def epsilon_for_sampling(schedule: Schedule, delta: float, sampling: str) -> dict:
    """The certified epsilon of ``schedule`` (whose phases carry the sampling the run used).

    ``{"accounted": True, "sampling": ..., epsilon_lower, epsilon_upper, delta, method, certified}``
    from :func:`numerics.certified.certified_epsilon`: the PLD accountant for Poisson, numerics'
    dispatch table (dominating pairs of numerics.dominating) for fixed-size and with-replacement
    batches. ``sampling`` must name the scheme the schedule's phases describe; a mismatch is refused,
    so a Poisson number is never reported for a batch that was not Poisson-sampled.
    """
    if sampling not in SAMPLINGS:
        raise InvalidParameter(f"sampling must be one of {SAMPLINGS}, got {sampling!r}")
    phases = {p.sampling for p in schedule.phases}
    if phases != {NUMERICS_SAMPLING[sampling]}:
        raise InvalidParameter(f"the run used {sampling!r} sampling but its schedule describes {sorted(phases)}")
    return {"accounted": True, "sampling": sampling, **certified_epsilon(schedule, delta)}


def epsilon_point(schedule: dict, delta: float, sampling: str) -> dict:
    """Module-level entry for ``numerics.sweep.sweep``: :func:`epsilon_for_sampling` of a schedule given as its
    dict (``Schedule.to_dict``), so a figure's arms are accounted on the sweep's workers and cached."""
    return epsilon_for_sampling(Schedule.from_dict(schedule), delta, sampling)


def describe_epsilon(eps: dict | None) -> str:
    """One caption phrase for an arm's epsilon record (``None``: the arm adds no noise)."""
    if eps is None:
        return "no DP noise"
    return (f"epsilon <= {eps['epsilon_upper']:.4g} at delta {eps['delta']:.3g} "
            f"({eps['sampling']} sampling, {'certified' if eps['certified'] else 'not certified'} {eps['method']})")


def certify_run(result: dict) -> dict:
    """A ``repro.async_fl.simulate`` result with, when its config asks (``dp_delta`` set, ``certify``), the
    worst client's certified bracket added as ``privacy["certified"]`` (also ``privacy["epsilon"]``);
    ``result`` itself is not changed. Each distinct client schedule is accounted once."""
    priv, cfg = result.get("privacy"), result["config"]
    if not priv or priv["delta"] is None or not cfg.get("certify", True):
        return result
    unique = {Schedule.from_dict(s) for s in priv["schedules"]}
    brackets = [epsilon_for_sampling(s, priv["delta"], priv["sampling"]) for s in unique]
    worst = max(brackets, key=lambda b: b["epsilon_upper"])
    return {**result, "privacy": {**priv, "certified": worst, "epsilon": worst}}


def calibrated_sigma(*, epsilon: float, s: int, n_c: int, k: int, delta: float) -> float:
    """Noise multiplier whose certified epsilon (numerics.calibrate, PLD) is ``epsilon`` for ``ceil(k/s)``
    rounds at rate ``s/n_c`` (every round counted at the full rate: rounded to the private side)."""
    steps = len(round_sizes("constant", total=k, s=s))
    return float(calibrate_sigma(q=s / n_c, steps=steps, delta=delta, epsilon=epsilon))
