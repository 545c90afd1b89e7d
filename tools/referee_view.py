"""Print a paper's claims as a referee reads them: result, role, status, severity, cause, why.

    .venv/bin/python tools/referee_view.py 004            # ledger metadata, severities from recorded statuses
    .venv/bin/python tools/referee_view.py 004 --eval     # also evaluate each claim and print its why/readings
    .venv/bin/python tools/referee_view.py 004 --eval --ids 004.table-3.uniform-certified,004.lemma-7.young-step

A working aid for annotating claims (issue 30); the report itself is `make report`.
"""
import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from theory import ledger  # noqa: E402


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("seed")
    p.add_argument("--eval", action="store_true")
    p.add_argument("--ids", default="")
    args = p.parse_args()
    claims = [c for c in ledger.load_all() if c.seed == args.seed]
    if args.ids:
        wanted = set(args.ids.split(","))
        claims_shown = [c for c in claims if c.id in wanted]
    else:
        claims_shown = claims
    conclusions = {}
    for c in claims:
        if c.role == "conclusion" and c.result:
            conclusions.setdefault(c.result, []).append(c.recorded)
    missing = [c.id for c in claims if not (c.result and c.role)]
    for c in sorted(claims_shown, key=lambda c: (c.result or "~", c.role != "conclusion", c.id)):
        sev = ledger.severity(c.role, c.recorded, ledger.conclusion_status(conclusions.get(c.result, ())))
        print(f"{c.id}\n    result={c.result!r} role={c.role} recorded={c.recorded} severity={sev} cause={c.cause}")
        if args.eval:
            t0 = time.perf_counter()
            v = c.evaluate()
            print(f"    computed={v.status} kind={v.evidence_kind} arithmetic={v.arithmetic} margin={v.margin} "
                  f"({time.perf_counter() - t0:.1f} s)")
            print(f"    why: {v.why or '(none)'}")
            for r in v.readings:
                print(f"    reading: {r.name} [{r.lines}] -> {r.status} margin={r.margin}: {r.why}")
    print(f"\n{len(claims)} claims of {args.seed}; {len(missing)} without result/role")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
