"""Shared pieces of the seed-003 figure scripts: running arms through the sweep, noise-mode labels, the
caption's epsilon of every arm from its privacy record (:func:`epsilon_caption`).

Provenance sidecars are written by ``figures.common.write_outputs`` (``repro.provenance``).

Each arm is a dict of ``repro.edge_fl.EdgeConfig`` fields without the seed; :func:`run_arms` runs it
for every seed through ``numerics.sweep.sweep`` (cached) and returns ``label -> [run summaries]``.
"""
from __future__ import annotations

from numerics.sweep import sweep
from repro.edge_fl import run_point


#: relative CPU cost of one iteration by model on MNIST-5k (measured 2026-11-28 single-threaded: LR about
#: 0.1 ms, SVM about 0.35 ms, MLP about 7 ms); only the order of :func:`expected_cost` uses it
COST_PER_ITERATION = {"lr": 1.0, "svm": 3.5, "mlp": 70.0}


def expected_cost(point: dict) -> float:
    """A point's relative run time: iterations x per-iteration cost of its model (edges and data size aside)."""
    return point.get("iterations", 2000) * COST_PER_ITERATION.get(point.get("model", "lr"), 1.0)


def run_arms(arms: dict, seeds, *, desc: str) -> dict:
    """``label -> [run_point(**arm, seed=s) for s in seeds]`` through the sweep runner.

    The points go to the sweep longest first, so the two workers do not end with one long run on one of them
    while the other idles (the sweep's chunks are strided, so each chunk gets its share of the long runs)."""
    labels = list(arms)
    points = [{**arms[lab], "seed": int(s)} for lab in labels for s in seeds]
    order = sorted(range(len(points)), key=lambda i: -expected_cost(points[i]))  # stable: ties keep their order
    results = dict(zip(order, sweep(run_point, [points[i] for i in order], desc=desc)))
    n = len(seeds)
    return {lab: [results[k * n + j] for j in range(n)] for k, lab in enumerate(labels)}


def run_panels(panels: dict, seeds, *, desc: str) -> dict:
    """``panel -> run_arms(panels[panel])``, all panels in ONE sweep: one sweep's tail instead of one per panel."""
    flat = run_arms({(panel, lab): arm for panel, spec in panels.items() for lab, arm in spec.items()}, seeds, desc=desc)
    return {panel: {lab: flat[(panel, lab)] for lab in spec} for panel, spec in panels.items()}


NOISE_LABEL = {"paper-literal": "paper-literal noise (NOT DP)", "k-norm": "K-norm noise (eps-DP per release)",
               "gaussian": "Gaussian (certified accountant)", "none": "no noise"}

#: delta of the Gaussian arms' whole-run (epsilon, delta) statements
DELTA_RUN = 1e-5


def certified_run_epsilon(q: float, sigma: float, steps: int) -> dict:
    """Whole-run (epsilon, delta = DELTA_RUN) of one edge: Poisson-subsampled Gaussian, replace-one (numerics.pld)."""
    from numerics.certified import certified_epsilon
    from numerics.schedule import Schedule

    return certified_epsilon(Schedule.constant(q=q, sigma=sigma, steps=steps, adjacency="replace-one"), DELTA_RUN)


def privacy_records(res: dict, panel: str = "") -> dict:
    """``label -> privacy record`` (repro.edge_fl.privacy_record) of each arm of :func:`run_arms`' result,
    labels prefixed by ``panel``; the seeds of an arm must share one record (it depends on the config only)."""
    out = {}
    for lab, rs in res.items():
        recs = [r["privacy"] for r in rs]
        if any(p != recs[0] for p in recs[1:]):
            raise ValueError(f"arm {lab!r}: its seeds carry different privacy records")
        out[f"{panel}: {lab}" if panel else lab] = recs[0]
    return out


def _arms(labels: list) -> str:
    """Arm labels for a caption: all of them up to three, else the first and how many more."""
    return ", ".join(labels) if len(labels) <= 3 else f"{labels[0]} and {len(labels) - 1} more"


def _by_value(values: dict, fmt) -> str:
    """``label -> value`` grouped by value, each group as ``fmt(value) (its arms)``, in value order; with
    more than three groups only the smallest and the largest, as a range over all arms."""
    groups: dict = {}
    for lab, v in values.items():
        groups.setdefault(v, []).append(lab)
    keys = sorted(groups)
    if len(keys) > 3:
        keys, head = [keys[0], keys[-1]], f"{len(values)} arms, {len(groups)} values, min to max: "
    else:
        head = ""
    return head + ", ".join(f"{fmt(k)} ({_arms(groups[k])})" for k in keys)


def _no_noise(recs: dict) -> str:
    """Arms without noise (CSGD, ASGD)."""
    return f"no DP noise: {_arms(list(recs))}"


def _paper_literal(recs: dict) -> str:
    """Not DP: the paper's noise (003_8b45c9baf0227e58.txt Eq. 6 L173, second moment 2 lambda^2 L811) is
    radial-exponential, whose density is infinite at 0 in dimension >= 2 (repro.edge_noise)."""
    return (f"NOT DP, no epsilon ({_arms(list(recs))}): the paper's literal noise (radial-exponential, density "
            "infinite at 0) is no DP mechanism")


def _k_norm(recs: dict) -> str:
    """Pure eps-DP per release (the eps of Alg. 1 line 5, L404, as the K-norm scale); the run's pure eps per edge,
    ``pure_epsilon_run`` = releases x eps (basic composition, repro.edge_fl.privacy_record)."""
    vals = {lab: (p["pure_epsilon_run"], p["releases_per_edge"], p["epsilon_per_release"]) for lab, p in recs.items()}
    return ("K-norm, pure eps-DP per release (replace-one), whole-run pure eps per edge = releases x eps: "
            + _by_value(vals, lambda v: f"{v[0]:.4g} = {v[1]} x {v[2]:g}"))


def _gaussian(recs: dict) -> str:
    """The certified whole-run (eps, DELTA_RUN) per edge of each arm (:func:`certified_run_epsilon`)."""
    vals = {}
    for lab, p in recs.items():
        c = certified_run_epsilon(p["q"], p["noise_multiplier"], p["releases_per_edge"])
        vals[lab] = (c["epsilon_upper"], p["noise_multiplier"], p["q"], p["releases_per_edge"], c["method"], c["certified"])
    return (f"Gaussian, whole-run (eps, delta {DELTA_RUN:g}) per edge, replace-one, Poisson sampling: "
            + _by_value(vals, lambda v: f"eps <= {v[0]:.3g} [{v[4]}{'' if v[5] else ', NOT certified'}] at sigma {v[1]:g}, "
                                        f"q {v[2]:.3g}, {v[3]} releases"))


#: the caption phrase of each noise mode's arms, in caption order
EPSILON_PHRASE = {"none": _no_noise, "paper-literal": _paper_literal, "k-norm": _k_norm, "gaussian": _gaussian}


def epsilon_caption(records: dict) -> str:
    """The caption's ``epsilon`` (figures.common.caption) of seed-003 arms from their privacy records
    (:func:`privacy_records`), one phrase per noise mode (repro.edge_noise) that grouped arms sharing a value."""
    modes: dict = {}
    for lab, p in records.items():
        modes.setdefault(p["noise"], {})[lab] = p
    unknown = set(modes) - set(EPSILON_PHRASE)
    if unknown:
        raise ValueError(f"no epsilon phrase for noise mode(s) {sorted(unknown)}")
    return "; ".join(EPSILON_PHRASE[m](modes[m]) for m in EPSILON_PHRASE if m in modes)
