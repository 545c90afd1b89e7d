"""Command line: ``python -m repro run <config.json> [--out result.json] [--seeds 0,1,2]``.

``python -m repro config > run.json`` prints the default configuration (every RunConfig field) to
start from.

Runs one configured training (or one per seed, through numerics.sweep) and prints the final test
accuracy, the rounds, and with DP the certified epsilon interval; ``--out`` saves the full result
with its config (STYLE 11). Bad input exits with status 2 and one line naming the parameter.
"""
from __future__ import annotations

import argparse
import json
import sys

from numerics.errors import InvalidParameter
from numerics.sweep import sweep

from .async_fl import run_point
from .epsilon import certify_run
from .config import RunConfig


def _summary(res: dict) -> str:
    line = (f"seed {res['config']['seed']}: rounds {res['rounds']}, iterations {res['iterations']}, "
            f"final test accuracy {res['final_test_accuracy']:.4f}")
    cert = res.get("privacy", {}).get("certified")
    if cert:
        line += (f", certified epsilon in [{cert['epsilon_lower']:.6g}, {cert['epsilon_upper']:.6g}] "
                 f"at delta {cert['delta']:.3g} ({res['privacy']['sampling']} sampling, {cert['method']})")
    return line


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m repro")
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="run one configured training")
    r.add_argument("config", help="JSON file with RunConfig fields")
    r.add_argument("--seeds", help="comma-separated seeds (overrides the config's seed)")
    r.add_argument("--out", help="write the full results (JSON) here")
    sub.add_parser("config", help="print the default run configuration as JSON")
    args = ap.parse_args(argv)
    if args.cmd == "config":
        print(json.dumps(RunConfig().to_dict(), indent=1))
        return 0
    try:
        cfg = RunConfig.from_json(args.config)
        seeds = [int(s) for s in args.seeds.split(",")] if args.seeds else [cfg.seed]
        runs = sweep(run_point, [cfg.replace(seed=s).to_dict() for s in seeds], desc="repro run")
        results = [certify_run(r) for r in runs]
    except InvalidParameter as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except RuntimeError as exc:
        if isinstance(exc.__cause__, InvalidParameter):
            print(f"error: {exc.__cause__}", file=sys.stderr)
            return 2
        raise
    for res in results:
        print(_summary(res))
    if args.out:
        with open(args.out, "w") as fh:
            json.dump(results, fh, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
