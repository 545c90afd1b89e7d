"""Command line of the accountants: ``python -m numerics <command> ...``.

Commands (``--json`` prints one JSON object instead of text)::

    epsilon         --q Q --sigma S --steps T --delta D     epsilon bounds at delta
                    [--phase q,sigma,steps]...              (a heterogeneous schedule instead of Q, S, T)
                    [--adjacency add-remove|replace-one] [--method pld|rdp|gdp-clt|all] [--rel-width W]
                    [--sampling poisson|fixed-size|with-replacement|full-batch]
                    [--batch-size B --dataset-size N]       (b of n; with Poisson, q = B/N)
                    [--noise gaussian|laplace|l2-knorm] [--dimension D]
    delta           --q Q --sigma S --steps T --epsilon E   delta bounds at epsilon (same mechanism options)
    calibrate-sigma --q Q --steps T --delta D --epsilon E   smallest sigma with certified eps_upper <= E
    critical-steps  --q Q --sigma S --delta D --epsilon E   largest T with certified eps_upper <= E

``--noise-multiplier`` and ``--sampling-rate`` are aliases of ``--sigma`` and ``--q``; ``--version``
prints the version. ``pld`` (the default method) is numerics.epsilon / numerics.delta: the certified
accountant that the dispatch table of numerics.accounting picks for the mechanism.

``--scheduler ADDRESS`` (global) names a Dask scheduler; none of these commands sweeps today, so the
address is only recorded in the output.

Every number printed says which side of the truth it is on (STYLE 1): a certified lower or upper
bound, or an uncertified estimate (the GDP central limit theorem).

Bad input (NaN, sigma <= 0, q outside (0, 1], delta outside (0, 1), non-integer or non-positive steps,
a malformed --phase, an unknown method, a missing option) exits with status 2 and one line on stderr
naming the parameter and its allowed range: the parameters are validated (numerics.errors) before any
accountant runs, and the accountants are imported only inside the command that needs them.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
from typing import List, Optional

from .errors import InvalidParameter, check_delta, check_epsilon, check_q, check_sigma, check_steps
from .precision import PLD_RELATIVE_WIDTH
from .schedule import ADJACENCIES, NOISES, SAMPLINGS, Phase, Schedule

PROG = "python -m numerics"
METHODS = ("pld", "rdp", "gdp-clt")
EXIT_BAD_INPUT = 2
EXIT_FAILURE = 1


class _OneLineParser(argparse.ArgumentParser):
    """argparse whose own errors are one line on stderr and exit status 2 (no usage block)."""

    def error(self, message):  # noqa: D401 - argparse API
        raise InvalidParameter(message.replace("\n", " "))


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
    return check_sigma(_number("sigma", text, "a noise multiplier > 0"))


def _delta(text):
    return check_delta(_number("delta", text, "a number in (0, 1)"))


def _epsilon(text):
    return check_epsilon(_number("epsilon", text, "a number >= 0"))


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


def _mechanism_phase(args) -> Phase:
    """The single phase of --sampling/--noise/--q/--batch-size/--dataset-size/--sigma/--steps."""
    sampling = _choice("sampling", getattr(args, "sampling", "poisson"), SAMPLINGS)
    noise = _choice("noise", getattr(args, "noise", "gaussian"), NOISES)
    b = _size("batch-size", getattr(args, "batch_size", None))
    n = _size("dataset-size", getattr(args, "dataset_size", None))
    d = _size("dimension", getattr(args, "dimension", None))
    sigma, steps = _sigma(args.sigma), _steps(args.steps)
    if sampling == "full-batch":
        if args.q is not None and _q(args.q) != 1.0:
            raise InvalidParameter(f"full-batch sampling has q = 1, got --q {args.q}")
        return Phase.full_batch(sigma=sigma, steps=steps, noise=noise, dimension=d)
    if sampling == "poisson":
        if args.q is None and b is not None and n is not None:
            return Phase(b / n, sigma, steps, noise=noise, dataset_size=n, batch_size=b, dimension=d)
        return Phase(_q(args.q), sigma, steps, noise=noise, dimension=d)
    if b is None and args.q is not None and n is not None:
        b = round(_q(args.q) * n)
    if b is None or n is None:
        raise InvalidParameter(f"{sampling} sampling needs --batch-size B and --dataset-size N")
    make = Phase.fixed_size if sampling == "fixed-size" else Phase.with_replacement
    return make(batch_size=b, dataset_size=n, sigma=sigma, steps=steps, noise=noise, dimension=d)


def _schedule(args) -> Schedule:
    """The schedule of --phase options, or the single phase of the mechanism options (never both)."""
    adjacency = _adjacency(args.adjacency)
    if args.phase:
        given = [f"--{n}" for n in ("q", "sigma", "steps") if getattr(args, n) is not None]
        if given:
            raise InvalidParameter(f"--phase replaces --q/--sigma/--steps; got both --phase and {given[0]}")
        if getattr(args, "sampling", "poisson") != "poisson" or getattr(args, "noise", "gaussian") != "gaussian":
            raise InvalidParameter("--phase describes Poisson Gaussian phases only; use --sampling/--noise "
                                   "with --q/--sigma/--steps")
        return Schedule(tuple(_phase(p) for p in args.phase), adjacency)
    return Schedule((_mechanism_phase(args),), adjacency)


def _methods(text: str) -> tuple:
    if text == "all":
        return METHODS
    if text not in METHODS:
        raise InvalidParameter(f"method must be one of {', '.join(METHODS + ('all',))}, got {text!r}")
    return (text,)


def _rel_width(text: str) -> float:
    width = _number("rel-width", text, "a relative width in (0, 1)")
    if not 0.0 < width < 1.0:
        raise InvalidParameter(f"rel-width must lie in (0, 1), got {text!r}")
    return width


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


def _epsilon_bounds(method: str, schedule: Schedule, delta: float, rel_width: float):
    if method == "pld":
        from .accounting import epsilon
        return epsilon(schedule, delta, rel_width=rel_width)
    if method == "rdp":
        from .conversions import epsilon_rdp
        return epsilon_rdp(schedule, delta)
    from .gdp import epsilon_gdp_clt
    return epsilon_gdp_clt(schedule, delta)


def _describe(b) -> str:
    """Say which side of the truth each printed number is on."""
    if not b.certified:
        kind = "estimate, not a certified bound"
    elif b.epsilon_lower > 0:
        kind = "certified lower and upper bounds"
    else:
        kind = "certified upper bound; the lower bound is the trivial 0"
    text = (f"{b.method:8s} epsilon_lower={b.epsilon_lower:.6g}  epsilon_upper={b.epsilon_upper:.6g}  "
            f"({kind}; adjacency {b.adjacency}, delta={b.delta:g})")
    note = b.details.get("note") if isinstance(b.details, dict) else None
    return text + (f"\n         note: {note}" if note and b.certified else "")


def _one_of_all(method: str, schedule: Schedule, delta: float, rel_width: float):
    """With --method all, a method that does not cover this schedule (e.g. an adjacency it does not
    support) is reported as such; the input itself was validated already."""
    try:
        return _epsilon_bounds(method, schedule, delta, rel_width)
    except InvalidParameter as exc:
        return {"method": method, "error": str(exc)}


def cmd_epsilon(args) -> dict:
    schedule = _schedule(args)
    delta = _delta(args.delta)
    methods = _methods(args.method)
    rel_width = _rel_width(args.rel_width)
    if len(methods) == 1:
        b = _epsilon_bounds(methods[0], schedule, delta, rel_width)
        out = dict(jsonable(b.to_dict()), schedule=schedule.to_dict())
        return {"json": out, "text": _describe(b)}
    results = {m: _one_of_all(m, schedule, delta, rel_width) for m in methods}
    objs = {m: r if isinstance(r, dict) else dict(jsonable(r.to_dict())) for m, r in results.items()}
    text = "\n".join(f"{m:8s} not applicable: {r['error']}" if isinstance(r, dict) else _describe(r)
                     for m, r in results.items())
    out = {"delta": delta, "adjacency": schedule.adjacency, "methods": objs, "schedule": schedule.to_dict()}
    return {"json": out, "text": text}


def cmd_delta(args) -> dict:
    schedule = _schedule(args)
    epsilon = _epsilon(args.epsilon)
    from .accounting import delta
    b = delta(schedule, epsilon)
    out = dict(jsonable(b.to_dict()), schedule=schedule.to_dict())
    kind = "certified lower and upper bounds" if b.certified else "estimate, not a certified bound"
    text = (f"{b.method:8s} delta_lower={b.delta_lower:.6g}  delta_upper={b.delta_upper:.6g}  "
            f"({kind}; adjacency {b.adjacency}, epsilon={b.epsilon:g})")
    return {"json": out, "text": text}


def cmd_calibrate_sigma(args) -> dict:
    q, steps = _q(args.q), _steps(args.steps)
    delta, epsilon = _delta(args.delta), _epsilon(args.epsilon)
    adjacency = _adjacency(args.adjacency)
    from .calibrate import calibrate_sigma
    sigma = calibrate_sigma(q=q, steps=steps, delta=delta, epsilon=epsilon, adjacency=adjacency)
    out = {"sigma": float(sigma), "q": q, "steps": steps, "delta": delta, "epsilon": epsilon,
           "adjacency": adjacency}
    text = (f"sigma={float(sigma):.6g}  (smallest noise multiplier whose certified epsilon_upper <= "
            f"{epsilon:g} at delta={delta:g}; q={q:g}, steps={steps}, adjacency {adjacency})")
    return {"json": out, "text": text}


def cmd_critical_steps(args) -> dict:
    q, sigma = _q(args.q), _sigma(args.sigma)
    delta, epsilon = _delta(args.delta), _epsilon(args.epsilon)
    from .calibrate import critical_steps
    steps = int(critical_steps(q=q, sigma=sigma, delta=delta, epsilon=epsilon))
    out = {"steps": steps, "q": q, "sigma": sigma, "delta": delta, "epsilon": epsilon,
           "adjacency": "add-remove"}
    text = (f"steps={steps}  (largest number of steps whose certified epsilon_upper <= {epsilon:g} at "
            f"delta={delta:g}; q={q:g}, sigma={sigma:g}, adjacency add-remove)")
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
    "phase": "one phase of a heterogeneous schedule, q,sigma,steps or q=..,sigma=..,steps=.. (repeat; replaces "
             "--q/--sigma/--steps)",
    "delta": "target delta, in (0, 1)",
    "epsilon": "epsilon (>= 0)",
    "adjacency": "add-remove (default) or replace-one",
}


def _subcommand(sub, name: str, help: str, run, options: tuple) -> argparse.ArgumentParser:
    """One command with the named options (in this order) plus --json and --scheduler; every option is
    read as text and validated by the command (so a bad value gets the range message)."""
    p = sub.add_parser(name, help=help)
    for option in options:
        if option == "phase":
            p.add_argument("--phase", action="append", metavar="q,sigma,steps", help=_HELP["phase"])
        elif option == "adjacency":
            p.add_argument("--adjacency", default="add-remove", help=_HELP["adjacency"])
        elif option == "q":
            p.add_argument("--q", "--sampling-rate", dest="q", help=_HELP["q"])
        elif option == "sigma":
            p.add_argument("--sigma", "--noise-multiplier", dest="sigma", help=_HELP["sigma"])
        elif option == "sampling":
            p.add_argument("--sampling", default="poisson", help=_HELP["sampling"])
        elif option == "noise":
            p.add_argument("--noise", default="gaussian", help=_HELP["noise"])
        elif option in ("batch-size", "dataset-size"):
            p.add_argument(f"--{option}", dest=option.replace("-", "_"), help=_HELP[option])
        else:
            p.add_argument(f"--{option}", help=_HELP[option])
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--scheduler", default=argparse.SUPPRESS, metavar="ADDRESS",
                   help="Dask scheduler address (recorded; these commands do not sweep)")
    p.set_defaults(run=run)
    return p


_MECHANISM = ("sampling", "batch-size", "dataset-size", "noise", "dimension")


def build_parser() -> argparse.ArgumentParser:
    parser = _OneLineParser(prog=PROG, description="Certified privacy accountants for noisy sums with "
                            "Poisson, fixed-size, with-replacement or full-batch sampling.")
    from . import __version__
    parser.add_argument("--version", action="version", version=f"dpverify {__version__}")
    parser.add_argument("--scheduler", default=None, metavar="ADDRESS",
                        help="Dask scheduler address (recorded; these commands do not sweep)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    p = _subcommand(sub, "epsilon", "epsilon bounds at a given delta", cmd_epsilon,
                    ("q", "sigma", "steps", "phase", "delta", "adjacency") + _MECHANISM)
    p.add_argument("--method", default="pld", help="pld (default), rdp, gdp-clt or all")
    p.add_argument("--rel-width", dest="rel_width", default=str(PLD_RELATIVE_WIDTH),
                   help=f"PLD target relative width (upper-lower)/upper (default {PLD_RELATIVE_WIDTH:g})")
    _subcommand(sub, "delta", "delta bounds at a given epsilon (PLD)", cmd_delta,
                ("q", "sigma", "steps", "phase", "epsilon", "adjacency") + _MECHANISM)
    _subcommand(sub, "calibrate-sigma", "smallest sigma with certified epsilon_upper <= target",
                cmd_calibrate_sigma, ("q", "steps", "delta", "epsilon", "adjacency"))
    _subcommand(sub, "critical-steps", "largest steps with certified epsilon_upper <= target",
                cmd_critical_steps, ("q", "sigma", "delta", "epsilon"))
    return parser


_VALUE_OPTIONS = ("--q", "--sigma", "--steps", "--delta", "--epsilon", "--rel-width", "--phase",
                  "--sampling-rate", "--noise-multiplier", "--batch-size", "--dataset-size", "--dimension")


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


def _fail(message: str, status: int) -> int:
    print(f"{PROG}: error: {' '.join(str(message).split())}", file=sys.stderr)
    return status


def main(argv: Optional[List[str]] = None) -> int:
    """Run one command; return the exit status (0 ok, 2 bad input, 1 the accountant failed)."""
    parser = build_parser()
    try:
        args = parser.parse_args(_attach_negative_values(list(sys.argv[1:] if argv is None else argv)))
        if args.command is None:
            raise InvalidParameter("a command is required: epsilon, delta, calibrate-sigma or critical-steps")
        result = args.run(args)
    except InvalidParameter as exc:
        return _fail(str(exc), EXIT_BAD_INPUT)
    except ImportError as exc:
        return _fail(f"accountant not available: {exc}", EXIT_FAILURE)
    except Exception as exc:  # noqa: BLE001 - the CLI contract: one line, never a traceback
        return _fail(f"{type(exc).__name__}: {exc}", EXIT_FAILURE)
    if args.json:
        payload = dict(result["json"], scheduler=args.scheduler)
        print(json.dumps(payload, sort_keys=True))
    else:
        print(result["text"])
    return 0
