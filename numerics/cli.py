"""Command line of the accountants: ``python -m numerics <command> ...`` (installed as ``dpverify``).

Commands (``--json`` prints one JSON object instead of text)::

    epsilon         --q Q --sigma S --steps T --delta D     epsilon bounds at delta
                    [--phase q,sigma,steps]...              (a heterogeneous schedule instead of Q, S, T)
                    [--adjacency add-remove|replace-one] [--method pld|rdp|gdp-clt|all|cover] [--rel-width W]
                    [--cells N] [--block M]                 (--method cover only, see below)
                    [--sampling poisson|fixed-size|with-replacement|shuffled|full-batch]
                    [--batch-size B --dataset-size N]       (b of n; with Poisson, q = B/N)
                    [--noise gaussian|laplace|l2-knorm] [--dimension D]
                    [--epochs E]                            (instead of --steps, see below)
    delta           --q Q --sigma S --steps T --epsilon E   delta bounds at epsilon (same mechanism options)
                    [--method pld|cover] [--cells N] [--block M]
    calibrate-sigma --q Q --steps T --delta D --epsilon E   smallest sigma with certified eps_upper <= E
                                                            (same mechanism options)
    critical-steps  --q Q --sigma S --delta D --epsilon E   largest T with certified eps_upper <= E
                                                            (same mechanism options)

``--noise-multiplier`` and ``--sampling-rate`` are aliases of ``--sigma`` and ``--q``; ``--version``
prints the version. ``pld`` (the default method) is numerics.epsilon / numerics.delta: the certified
accountant that the dispatch table of numerics.accounting picks for the mechanism, with its fallbacks
(coarser widths, other certified routes, an upper bound alone) when the requested width is out of reach.

``cover`` (opt-in, not in ``all``; fixed-size batches, Gaussian noise, replace-one, one phase): numerics.cover_accountant,
``pld``'s bracket with its upper end lowered to a second proven one, the cover of Theorem C'' played through blocks
(docs/replace_one.md 7k-7n), when smaller. ``--cells N`` (default 32) cells per side, ``--block M`` steps per block
(default min(T, 100)). A cold query takes minutes (tens of minutes at T in the thousands); the result is cached under
``DPV_CACHE_DIR`` and a repeated one takes seconds.

``--epochs E`` replaces ``--steps``: steps = ceil(E * ceil(N/B)) for fixed-size, with-replacement
and shuffled batches (shuffled: a DataLoader with drop_last=False, ceil(N/B) steps per epoch; accounted
under replace-one only, numerics.shuffled), ceil(E / q) for Poisson sampling (one epoch is 1/q expected batches), E for full batches;
the output states the rule.

Every number printed says which side of the truth it is on (STYLE 1): a certified lower or upper
bound, or an uncertified estimate (the GDP central limit theorem); every answer names the sampling,
the noise, the adjacency and delta (text and JSON).

Bad input exits with status 2 and one line on stderr naming the parameter and its allowed range: NaN,
sigma <= 0, q outside (0, 1], delta outside [1e-15, 0.5], non-integer or non-positive steps, a
malformed --phase, an unknown method, a missing option, an option given twice, and inputs that
contradict each other (--q against --batch-size/--dataset-size, a fixed-size q*N that is not an
integer, --steps with --epochs). The parameters are validated (numerics.errors, numerics.schedule)
before any accountant runs, and the accountants are imported only inside the command that needs them.
An accountant that cannot answer exits with status 1 and one line saying why.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import sys
from typing import List, Optional

from .errors import (ACCOUNTANT_DELTA_MAX, ACCOUNTANT_DELTA_MIN, ACCOUNTANT_SIGMA_MAX, InvalidParameter,
                     check_accountant_delta, check_accountant_sigma, check_epsilon, check_q, check_steps)
from .precision import PLD_RELATIVE_WIDTH
from .schedule import ADJACENCIES, NOISES, SAMPLINGS, Phase, Schedule

METHODS = ("pld", "rdp", "gdp-clt")
#: methods that ``all`` leaves out: minutes per cold query (numerics.cover_accountant)
OPT_IN_METHODS = ("cover",)
EXIT_BAD_INPUT = 2
EXIT_FAILURE = 1


def prog() -> str:
    """The name the user typed: ``dpverify`` (the installed script) or ``python -m numerics``."""
    name = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    return "dpverify" if name.startswith("dpverify") else "python -m numerics"


class _OneLineParser(argparse.ArgumentParser):
    """argparse whose own errors are one line on stderr and exit status 2 (no usage block)."""

    def error(self, message):  # noqa: D401 - argparse API
        raise InvalidParameter(message.replace("\n", " "))


class _Once(argparse.Action):
    """A value option that may be given once: a repeated ``--q`` (or ``--q`` and its alias
    ``--sampling-rate``) is ambiguous, so it is refused instead of keeping the last value."""

    def __call__(self, parser, namespace, values, option_string=None):
        given = dict(getattr(namespace, "given_options", None) or {})
        if self.dest in given:
            raise InvalidParameter(f"{option_string} given twice ({given[self.dest]} and {option_string} {values}); "
                                   f"give it once")
        given[self.dest] = f"{option_string} {values}"
        namespace.given_options = given
        setattr(namespace, self.dest, values)


# --- parsing of option strings into validated values ------------------------------------------------

def _number(name: str, text: Optional[str], allowed: str) -> float:
    if text is None:
        raise InvalidParameter(f"--{name} is required: {allowed}")
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if math.isnan(value):
        raise InvalidParameter(f"{name} must be a real number ({allowed}), got {text!r}")
    return value


def _steps(text: Optional[str], name: str = "steps") -> int:
    allowed = "a positive integer"
    if text is None:
        raise InvalidParameter(f"--{name} is required: {allowed}")
    try:
        value = int(text)
    except ValueError:
        try:
            value = float(text)
        except ValueError:
            raise InvalidParameter(f"{name} must be {allowed}, got {text!r}") from None
    return check_steps(value, name)


def _q(text):
    return check_q(_number("q", text, "a sampling rate in (0, 1]"))


def _sigma(text):
    return check_accountant_sigma(_number("sigma", text, f"a noise multiplier in (0, {ACCOUNTANT_SIGMA_MAX:g}]"))


def _delta(text):
    return check_accountant_delta(_number("delta", text, f"a number in [{ACCOUNTANT_DELTA_MIN:g}, "
                                                         f"{ACCOUNTANT_DELTA_MAX:g}]"))


def _epsilon(text):
    return check_epsilon(_number("epsilon", text, "a number >= 0"))


def _epochs(text) -> float:
    x = _number("epochs", text, "a number of epochs > 0")
    if not 0.0 < x < math.inf:
        raise InvalidParameter(f"epochs must be a finite number > 0, got {text!r}")
    return x


def _phase(text: str) -> Phase:
    """``q,sigma,steps`` (in this order) or ``q=..,sigma=..,steps=..`` (any order: a user with an Opacus
    history, which writes (noise_multiplier, sample_rate, steps), can name the fields instead)."""
    parts = [p.strip() for p in text.split(",")]
    named = dict(p.split("=", 1) for p in parts if "=" in p)
    if len(parts) != 3 or (named and (len(named) != 3 or set(named) != {"q", "sigma", "steps"})):
        raise InvalidParameter(f"--phase must be q,sigma,steps or q=..,sigma=..,steps=.. with q in (0, 1], "
                               f"sigma > 0 and steps a positive integer, got {text!r}")
    q, sigma, steps = (named["q"], named["sigma"], named["steps"]) if named else parts
    return Phase(_q(q.strip()), _sigma(sigma.strip()), _steps(steps.strip()))


def _adjacency(text: str) -> str:
    if text not in ADJACENCIES:
        raise InvalidParameter(f"adjacency must be one of {', '.join(ADJACENCIES)}, got {text!r}")
    return text


def _choice(name: str, text: str, allowed) -> str:
    if text not in allowed:
        raise InvalidParameter(f"{name} must be one of {', '.join(allowed)}, got {text!r}")
    return text


def _size(name: str, text) -> Optional[int]:
    return None if text is None else _steps(text, name)


def _template(args, sigma: float) -> Phase:
    """The phase of --sampling/--noise/--q/--batch-size/--dataset-size at one step and noise ``sigma``.

    q, B and N must agree (numerics.schedule.Phase refuses a contradiction and a fixed-size q*N that is
    not an integer); nothing is silently resolved."""
    sampling = _choice("sampling", getattr(args, "sampling", None) or "poisson", SAMPLINGS)
    noise = _choice("noise", getattr(args, "noise", None) or "gaussian", NOISES)
    b = _size("batch-size", getattr(args, "batch_size", None))
    n = _size("dataset-size", getattr(args, "dataset_size", None))
    d = _size("dimension", getattr(args, "dimension", None))
    q = None if args.q is None else _q(args.q)
    if sampling in ("fixed-size", "with-replacement", "shuffled") and (n is None or (b is None and q is None)):
        raise InvalidParameter(f"{sampling} sampling needs --batch-size B and --dataset-size N (or --q with "
                               f"--dataset-size, q*N an integer)")
    if sampling == "poisson":
        if b is not None and n is None:
            raise InvalidParameter("--batch-size needs --dataset-size (Poisson rate q = B/N), or give --q alone")
        if q is None and b is None:
            raise InvalidParameter("--q is required: a sampling rate in (0, 1] (or --batch-size B and "
                                   "--dataset-size N, q = B/N)")
        if q is None:
            q = b / n
    return Phase(q, sigma, 1, sampling, noise, b, n, d)


def steps_per_epoch(phase: Phase) -> tuple:
    """(steps per epoch, the rule in words): ceil(N/B) batches for fixed-size and with-replacement
    sampling, 1/q expected batches for Poisson sampling, one for a full batch."""
    if phase.sampling in ("fixed-size", "with-replacement", "shuffled"):
        k = -(-phase.dataset_size // phase.batch_size)
        return k, f"steps = ceil(epochs * ceil(N/B)) = ceil(epochs * {k})"
    if phase.sampling == "full-batch":
        return 1, "steps = epochs (full batch)"
    return 1.0 / phase.q, f"steps = ceil(epochs / q) = ceil(epochs / {phase.q:g}) (Poisson: 1/q expected batches)"


def _steps_of(args, template: Phase) -> tuple:
    """(steps, rule or None) from --steps or --epochs (exactly one)."""
    steps, epochs = getattr(args, "steps", None), getattr(args, "epochs", None)
    if steps is not None and epochs is not None:
        raise InvalidParameter("give --steps or --epochs, not both")
    if epochs is None:
        return _steps(steps), None
    per, rule = steps_per_epoch(template)
    total = _epochs(epochs) * per
    if not total < 1e18:
        raise InvalidParameter(f"epochs must give fewer than 1e18 steps, got {epochs} epochs ({rule})")
    return max(1, math.ceil(total * (1 - 1e-12))), rule


def _mechanism_phase(args) -> tuple:
    """(the single phase of the mechanism options, the epochs rule or None)."""
    template = _template(args, _sigma(args.sigma))
    steps, rule = _steps_of(args, template)
    return dataclasses.replace(template, steps=steps), rule


def _schedule(args) -> Schedule:
    return _schedule_and_rule(args)[0]


def _schedule_and_rule(args) -> tuple:
    """The schedule of --phase options, or the single phase of the mechanism options (never both)."""
    adjacency = _adjacency(args.adjacency)
    if args.phase:
        given = [f"--{n}" for n in ("q", "sigma", "steps", "epochs", "batch_size", "dataset_size")
                 if getattr(args, n, None) is not None]
        if given:
            raise InvalidParameter(f"--phase replaces --q/--sigma/--steps; got both --phase and "
                                   f"{given[0].replace('_', '-')}")
        if (getattr(args, "sampling", None) or "poisson") != "poisson" or \
                (getattr(args, "noise", None) or "gaussian") != "gaussian":
            raise InvalidParameter("--phase describes Poisson Gaussian phases only; use --sampling/--noise "
                                   "with --q/--sigma/--steps")
        return Schedule(tuple(_phase(p) for p in args.phase), adjacency), None
    phase, rule = _mechanism_phase(args)
    return Schedule((phase,), adjacency), rule


def _methods(text: str) -> tuple:
    if text == "all":
        return METHODS
    if text not in METHODS + OPT_IN_METHODS:
        raise InvalidParameter(f"method must be one of {', '.join(METHODS + ('all',) + OPT_IN_METHODS)}, got {text!r}")
    return (text,)


def _cover_options(args) -> dict:
    """--cells and --block (integers; only with --method cover, which checks their ranges)."""
    out = {}
    for name, key in (("cells", "n_cells"), ("block", "block")):
        text = getattr(args, name, None)
        if text is None:
            continue
        if getattr(args, "method", "pld") != "cover":
            raise InvalidParameter(f"--{name} applies to --method cover only")
        try:
            out[key] = int(text)
        except ValueError:
            raise InvalidParameter(f"{name} must be an integer, got {text!r}") from None
    return out


def _rel_width(text: str) -> float:
    width = _number("rel-width", text, "a relative width in (0, 1)")
    if not 0.0 < width < 1.0:
        raise InvalidParameter(f"rel-width must lie in (0, 1), got {text!r}")
    return width


# --- what every answer names: sampling, noise, adjacency, delta ---------------------------------------

def _phase_text(p: Phase) -> str:
    if p.sampling == "poisson":
        sampling = f"poisson q={p.q:g}" + (f" (B={p.batch_size} of N={p.dataset_size})" if p.batch_size else "")
        if p.q == 1.0:
            sampling += " (every record: a full batch)"
    elif p.sampling == "full-batch":
        sampling = "full-batch"
    else:
        sampling = f"{p.sampling} B={p.batch_size} of N={p.dataset_size}"
    noise = f"noise {p.noise} sigma={p.sigma:g}" + (f" dimension={p.dimension}" if p.noise == "l2-knorm" else "")
    return f"sampling {sampling}, {noise}, {p.steps} steps"


def mechanism_text(schedule: Schedule, rule: Optional[str] = None) -> str:
    """One line: every phase's sampling and noise (the first three and a count), then the adjacency."""
    phases = [_phase_text(p) for p in schedule.phases[:3]]
    more = f"; ... {len(schedule.phases)} phases in all" if len(schedule.phases) > 3 else ""
    epochs = f" [{rule}]" if rule else ""
    return f"{'; '.join(phases)}{more}{epochs}; adjacency {schedule.adjacency}"


def _kinds(schedule: Schedule, field: str):
    values = [getattr(p, field) for p in schedule.phases]
    return values[0] if len(set(values)) == 1 else values


def mechanism_json(schedule: Schedule, rule: Optional[str] = None) -> dict:
    out = {"sampling": _kinds(schedule, "sampling"), "noise": _kinds(schedule, "noise"),
           "adjacency": schedule.adjacency, "schedule": schedule.to_dict()}
    if rule:
        out["steps_rule"] = rule
    return out


# --- the commands ----------------------------------------------------------------------------------

def jsonable(value):
    """Accountant details may hold numpy or mpmath numbers; make them plain JSON values."""
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if hasattr(value, "tolist"):  # numpy scalar or array
        return jsonable(value.tolist())
    try:
        return jsonable(float(value))  # mpmath.mpf and friends
    except (TypeError, ValueError):
        return str(value)


def _epsilon_bounds(method: str, schedule: Schedule, delta: float, rel_width: float, cover=None):
    if method == "cover":
        from .cover_accountant import epsilon as cover_epsilon
        return cover_epsilon(schedule, delta, **(cover or {}))
    if method == "pld":
        from .accounting import epsilon
        return epsilon(schedule, delta, rel_width=rel_width)
    if method == "rdp":
        from .conversions import epsilon_rdp
        return epsilon_rdp(schedule, delta)
    from .gdp import epsilon_gdp_clt
    return epsilon_gdp_clt(schedule, delta)


def _kind(b, lower: float) -> str:
    if not b.certified and _unbounded(b):
        return "lower and upper bounds, not certified: a rounding is not bounded, see the note"
    if not b.certified:
        return "estimate, not a certified bound"
    if lower > 0:
        return "certified lower and upper bounds"
    return "certified upper bound; the lower bound is the trivial 0"


def _note_lines(b) -> str:
    note = b.details.get("note") if isinstance(b.details, dict) else None
    return f"\n         note: {note}" if note and (b.certified or _unbounded(b)) else ""


def _unbounded(b) -> bool:
    """Whether ``b`` is a bracket whose only gap to certified is an unbounded rounding (numerics.pld_general)."""
    return isinstance(b.details, dict) and bool(b.details.get("unbounded_rounding"))


def _out(x: float, side: str) -> str:
    """``x`` to 6 significant digits rounded outward (``"down"`` for a lower end, ``"up"`` for an upper one),
    so a printed bound is on the same side of the truth as the bound itself (nearest rounding could print an
    upper end below it: 4.072832 as 4.07283)."""
    from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal

    if not math.isfinite(x) or x == 0:
        return f"{x:.6g}"
    d = Decimal(x)
    q = d.quantize(Decimal(1).scaleb(d.adjusted() - 5), rounding=ROUND_CEILING if side == "up" else ROUND_FLOOR)
    return f"{float(q):.6g}"


def _describe(b, label: Optional[str] = None) -> str:
    """Say which side of the truth each printed number is on, and through which accountant."""
    label = label or b.method
    via = f"{b.method}: " if b.method != label else ""
    text = (f"{label:8s} epsilon_lower={_out(b.epsilon_lower, 'down')}  epsilon_upper={_out(b.epsilon_upper, 'up')}  "
            f"({via}{_kind(b, b.epsilon_lower)}; delta={b.delta:g})")
    return text + _note_lines(b)


def _one_of_all(method: str, schedule: Schedule, delta: float, rel_width: float):
    """With --method all, a method that cannot answer (an adjacency or sampling it does not cover, a grid
    out of reach, a float range exceeded) is reported in its row; the other rows stay."""
    try:
        return _epsilon_bounds(method, schedule, delta, rel_width)
    except InvalidParameter as exc:
        return {"method": method, "error": str(exc), "applicable": False}
    except Exception as exc:  # noqa: BLE001 - one row fails, in one line; the other rows stay
        return {"method": method, "error": f"{type(exc).__name__}: {' '.join(str(exc).split())}",
                "applicable": True}


def cmd_epsilon(args) -> dict:
    schedule, rule = _schedule_and_rule(args)
    delta = _delta(args.delta)
    methods = _methods(args.method)
    rel_width = _rel_width(args.rel_width)
    cover = _cover_options(args)
    where = f"\nmechanism: {mechanism_text(schedule, rule)}; delta={delta:g}"
    if len(methods) == 1:
        b = _epsilon_bounds(methods[0], schedule, delta, rel_width, cover)
        out = dict(jsonable(b.to_dict()), **mechanism_json(schedule, rule))
        return {"json": out, "text": _describe(b, methods[0]) + where}
    results = {m: _one_of_all(m, schedule, delta, rel_width) for m in methods}
    objs = {m: r if isinstance(r, dict) else dict(jsonable(r.to_dict())) for m, r in results.items()}
    text = "\n".join((f"{m:8s} {'not applicable' if not r['applicable'] else 'failed'}: {r['error']}"
                      if isinstance(r, dict) else _describe(r, m)) for m, r in results.items())
    out = {"delta": delta, "methods": objs, **mechanism_json(schedule, rule)}
    return {"json": out, "text": text + where}


def cmd_delta(args) -> dict:
    schedule, rule = _schedule_and_rule(args)
    epsilon = _epsilon(args.epsilon)
    method = args.method
    if method not in ("pld", "cover"):
        raise InvalidParameter(f"method must be one of pld, cover for delta, got {method!r}")
    cover = _cover_options(args)
    if method == "cover":
        from .cover_accountant import delta
        b = delta(schedule, epsilon, **cover)
    else:
        from .accounting import delta
        b = delta(schedule, epsilon)
    out = dict(jsonable(b.to_dict()), **mechanism_json(schedule, rule))
    via = f"{b.method}: " if b.method != method else ""
    text = (f"{method:8s} delta_lower={_out(b.delta_lower, 'down')}  delta_upper={_out(b.delta_upper, 'up')}  "
            f"({via}{_kind(b, b.delta_lower)}; epsilon={b.epsilon:g})" + _note_lines(b)
            + f"\nmechanism: {mechanism_text(schedule, rule)}; epsilon={epsilon:g}")
    return {"json": out, "text": text}


def _calibration_method(args) -> str:
    method = getattr(args, "method", None) or "pld"
    if method not in ("pld", "rdp"):
        raise InvalidParameter(f"method must be one of pld, rdp for calibration, got {method!r}")
    return method


def _mechanism_fields(template: Phase) -> dict:
    return {k: getattr(template, k) for k in ("sampling", "noise", "batch_size", "dataset_size", "dimension")}


def _upper_word(b) -> str:
    """'certified epsilon_upper', or 'epsilon_upper (not certified: ...)' when the bracket's flag is false
    (a rounding not bounded, numerics.pld_general._label): calibration never claims more than its bracket."""
    return "certified epsilon_upper" if b.certified else "epsilon_upper (not certified: see the note)"


def cmd_calibrate_sigma(args) -> dict:
    template = _template(args, 1.0)
    steps, rule = _steps_of(args, template)
    delta, epsilon = _delta(args.delta), _epsilon(args.epsilon)
    adjacency, method = _adjacency(args.adjacency), _calibration_method(args)
    from .calibrate import calibrate_sigma_certified
    got = calibrate_sigma_certified(q=template.q, steps=steps, delta=delta, epsilon=epsilon, adjacency=adjacency,
                                    method=method, mechanism=_mechanism_fields(template))
    sigma, b = float(got["sigma"]), got["bounds"]
    schedule = Schedule((got["phase"],), adjacency)
    slack = epsilon - b.epsilon_upper
    out = {"sigma": sigma, "steps": steps, "delta": delta, "epsilon": epsilon, "method": b.method,
           "epsilon_upper": b.epsilon_upper, "epsilon_lower": b.epsilon_lower, "slack": slack,
           "certified": b.certified, **mechanism_json(schedule, rule)}
    text = (f"sigma={_out(sigma, 'up')}  (smallest noise multiplier, to a factor 1e-4, whose {_upper_word(b)} <= "
            f"{epsilon:g} at delta={delta:g})\n"
            f"         at sigma={_out(sigma, 'up')}: epsilon_upper={_out(b.epsilon_upper, 'up')} (slack {slack:.3g} below the "
            f"target), epsilon_lower={_out(b.epsilon_lower, 'down')} ({b.method})" + _note_lines(b)
            + f"\nmechanism: {mechanism_text(schedule, rule)}; delta={delta:g}")
    return {"json": out, "text": text}


def cmd_critical_steps(args) -> dict:
    template = _template(args, _sigma(args.sigma))
    delta, epsilon = _delta(args.delta), _epsilon(args.epsilon)
    adjacency, method = _adjacency(args.adjacency), _calibration_method(args)
    from .calibrate import critical_steps_bracket
    got = critical_steps_bracket(q=template.q, sigma=template.sigma, delta=delta, epsilon=epsilon,
                                 adjacency=adjacency, method=method, mechanism=_mechanism_fields(template))
    steps, b = int(got["steps"]), got["bounds"]
    per, rule = steps_per_epoch(template)
    schedule = Schedule((dataclasses.replace(template, steps=max(steps, 1)),), adjacency)
    out = {"steps": steps, "steps_exceeding": got["steps_exceeding"], "epochs": steps / per, "epochs_rule": rule,
           "delta": delta, "epsilon": epsilon, **mechanism_json(schedule)}
    if b is not None:
        out.update(epsilon_upper=b.epsilon_upper, slack=epsilon - b.epsilon_upper, method=b.method,
                   certified=b.certified)
    word = "certified " if b is None or b.certified else ""
    exceeding = (f"; at {got['steps_exceeding']} steps the {word}epsilon_lower exceeds it"
                 if got["steps_exceeding"] else "")
    at = (f"\n         at {steps} steps: epsilon_upper={_out(b.epsilon_upper, 'up')} (slack {epsilon - b.epsilon_upper:.3g}), "
          f"{steps / per:.4g} epochs [{rule}]") if b is not None else "\n         not even one step meets the target"
    text = (f"steps={steps}  (largest number of steps whose {word}epsilon_upper <= {epsilon:g} at "
            f"delta={delta:g}{exceeding})" + at + (_note_lines(b) if b is not None and not b.certified else "")
            + f"\nmechanism: {mechanism_text(schedule).replace(f', {max(steps, 1)} steps', '')}; delta={delta:g}")
    return {"json": out, "text": text}


# --- parser ----------------------------------------------------------------------------------------

_HELP = {
    "q": "Poisson sampling rate, in (0, 1] (alias --sampling-rate)",
    "sigma": "noise multiplier = noise scale / per-record sensitivity, > 0 (alias --noise-multiplier)",
    "sampling": f"batch sampling: {', '.join(SAMPLINGS)} (default poisson)",
    "noise": f"noise: {', '.join(NOISES)} (default gaussian)",
    "batch-size": "batch size B (fixed-size, with-replacement; with poisson q = B/N)",
    "dataset-size": "data set size N (with --batch-size, an alternative to --q)",
    "dimension": "dimension of the l2-knorm noise",
    "steps": "number of steps (positive integer)",
    "epochs": "number of epochs instead of --steps (> 0): steps = ceil(epochs * ceil(N/B)) for fixed-size and "
              "with-replacement, ceil(epochs / q) for poisson",
    "phase": "one phase of a heterogeneous schedule, q,sigma,steps or q=..,sigma=..,steps=.. (repeat; replaces "
             "--q/--sigma/--steps)",
    "delta": f"target delta, in [{ACCOUNTANT_DELTA_MIN:g}, {ACCOUNTANT_DELTA_MAX:g}]",
    "epsilon": "epsilon (>= 0)",
    "adjacency": "add-remove (default) or replace-one",
}

_FLAGS = {"q": ("--q", "--sampling-rate"), "sigma": ("--sigma", "--noise-multiplier")}


def _subcommand(sub, name: str, help: str, run, options: tuple) -> argparse.ArgumentParser:
    """One command with the named options (in this order) plus --json; every option is read as text,
    given at most once, and validated by the command (so a bad value gets the range message)."""
    p = sub.add_parser(name, help=help)
    for option in options:
        if option == "phase":
            p.add_argument("--phase", action="append", metavar="q,sigma,steps", help=_HELP["phase"])
        else:
            flags = _FLAGS.get(option, (f"--{option}",))
            p.add_argument(*flags, dest=option.replace("-", "_"), action=_Once, help=_HELP[option],
                           default="add-remove" if option == "adjacency" else None)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run)
    return p


_MECHANISM = ("sampling", "batch-size", "dataset-size", "noise", "dimension", "adjacency")


def build_parser() -> argparse.ArgumentParser:
    parser = _OneLineParser(prog=prog(), description="Certified privacy accountants for noisy sums with "
                            "Poisson, fixed-size, with-replacement or full-batch sampling.")
    from . import __version__
    parser.add_argument("--version", action="version", version=f"dpverify {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    p = _subcommand(sub, "epsilon", "epsilon bounds at a given delta", cmd_epsilon,
                    ("q", "sigma", "steps", "epochs", "phase", "delta") + _MECHANISM)
    p.add_argument("--method", default="pld", action=_Once,
                   help="pld (default), rdp, gdp-clt, all, or cover (opt-in, fixed-size replace-one)")
    p.add_argument("--rel-width", dest="rel_width", default=str(PLD_RELATIVE_WIDTH), action=_Once,
                   help=f"PLD target relative width (upper-lower)/upper (default {PLD_RELATIVE_WIDTH:g})")
    _cover_arguments(p)
    p = _subcommand(sub, "delta", "delta bounds at a given epsilon (PLD)", cmd_delta,
                    ("q", "sigma", "steps", "epochs", "phase", "epsilon") + _MECHANISM)
    p.add_argument("--method", default="pld", action=_Once, help="pld (default) or cover (opt-in, fixed-size "
                   "replace-one)")
    _cover_arguments(p)
    p = _subcommand(sub, "calibrate-sigma", "smallest sigma with certified epsilon_upper <= target",
                    cmd_calibrate_sigma, ("q", "steps", "epochs", "delta", "epsilon") + _MECHANISM)
    p.add_argument("--method", default="pld", action=_Once, help="pld (default) or rdp")
    p = _subcommand(sub, "critical-steps", "largest steps with certified epsilon_upper <= target",
                    cmd_critical_steps, ("q", "sigma", "delta", "epsilon") + _MECHANISM)
    p.add_argument("--method", default="pld", action=_Once, help="pld (default) or rdp")
    return parser


def _cover_arguments(p) -> None:
    p.add_argument("--cells", action=_Once, help="--method cover: cells per side of the cover (default 32)")
    p.add_argument("--block", action=_Once, help="--method cover: steps per block (default min(steps, 100))")


_VALUE_OPTIONS = ("--q", "--sigma", "--steps", "--epochs", "--delta", "--epsilon", "--rel-width", "--phase",
                  "--sampling-rate", "--noise-multiplier", "--batch-size", "--dataset-size", "--dimension",
                  "--cells", "--block")


def _attach_negative_values(argv: List[str]) -> List[str]:
    """``--sigma -1e-3`` -> ``--sigma=-1e-3``: argparse takes '-1e-3' or '-inf' for an option, which would
    hide the real problem (a value out of range) behind "expected one argument"."""
    out: List[str] = []
    i = 0
    while i < len(argv):
        tok = argv[i]
        nxt = argv[i + 1] if i + 1 < len(argv) else None
        if tok in _VALUE_OPTIONS and nxt is not None and nxt.startswith("-") and not nxt.startswith("--"):
            out.append(f"{tok}={nxt}")
            i += 2
        else:
            out.append(tok)
            i += 1
    return out


#: what an unrecognized option most likely meant, by command
_HINTS = {
    ("epsilon", "--epsilon"): "the epsilon command takes --delta; for delta at a given epsilon use the delta "
                              "command (delta --epsilon E)",
    ("delta", "--delta"): "the delta command takes --epsilon; for epsilon at a given delta use the epsilon "
                          "command (epsilon --delta D)",
    (None, "--scheduler"): "the accountant commands run in-process and use no Dask scheduler (--scheduler "
                           "belongs to python -m theory.report and make figures)",
    (None, "--rel-width"): "--rel-width is an option of the epsilon command only",
}


def _hint(argv: List[str], message: str) -> str:
    if "unrecognized arguments" not in message:
        return message
    command = next((a for a in argv if not a.startswith("-")), None)
    for token in argv:
        flag = token.split("=", 1)[0]
        for (cmd, option), hint in _HINTS.items():
            if flag == option and cmd in (None, command):
                return f"{message}: {hint}"
    return message


def _fail(message: str, status: int) -> int:
    print(f"{prog()}: error: {' '.join(str(message).split())}", file=sys.stderr)
    return status


def main(argv: Optional[List[str]] = None) -> int:
    """Run one command; return the exit status (0 ok, 2 bad input, 1 the accountant failed)."""
    argv = _attach_negative_values(list(sys.argv[1:] if argv is None else argv))
    try:
        parser = build_parser()
        try:
            args = parser.parse_args(argv)
        except InvalidParameter as exc:
            raise InvalidParameter(_hint(argv, str(exc))) from None
        if args.command is None:
            raise InvalidParameter("a command is required: epsilon, delta, calibrate-sigma or critical-steps")
        result = args.run(args)
    except InvalidParameter as exc:
        return _fail(str(exc), EXIT_BAD_INPUT)
    except ImportError as exc:
        return _fail(f"accountant not available: {exc}", EXIT_FAILURE)
    except Exception as exc:  # noqa: BLE001 - the CLI contract: one line, never a traceback
        return _fail(f"{type(exc).__name__}: {exc}", EXIT_FAILURE)
    print(json.dumps(result["json"], sort_keys=True) if args.json else result["text"])
    return 0
