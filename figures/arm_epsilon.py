"""Each arm's certified epsilon for a figure's caption (async-FL figures of seeds 000 and 002).

Apart from ``figures.common`` (which every figure script imports) so that only the scripts that account
their arms are keyed by the accountants' sources (``numerics.sweep.closure``): an accountant edit stales
those figures, and no other.
"""
from __future__ import annotations

from numerics.sweep import sweep
from repro.epsilon import describe_epsilon, epsilon_point


def certify(results: dict, *, enabled: bool) -> dict:
    """Per arm, the certified epsilon of the sampling it used (``repro.epsilon.epsilon_for_sampling``), from
    the first seed's schedule (all seeds share it); ``None`` for
    an arm without noise or when not ``enabled`` (quick setting)."""
    todo = {lab: rs[0]["privacy"] for lab, rs in results.items() if enabled and rs[0].get("privacy")}
    pts = [{"schedule": p["schedules"][0], "delta": p["delta"], "sampling": p["sampling"]} for p in todo.values()]
    # through the sweep: the arms' accountant calls run on both workers (they ran one by one in the main process
    # while the workers idled) and are cached apart from the training runs
    done = dict(zip(todo, sweep(epsilon_point, pts, desc="arm epsilon"))) if pts else {}
    return {lab: done.get(lab) for lab in results}


def epsilon_caption(results: dict, cert: dict, *, quick: bool) -> str:
    """The caption's ``epsilon``: each arm's epsilon under the sampling it used, or why there is none."""
    parts = []
    for lab, rs in results.items():
        priv = rs[0].get("privacy")
        if not priv:
            phrase = "no DP noise"
        elif cert.get(lab) is None:
            phrase = (f"{priv['sampling']} sampling, epsilon not computed in the quick setting" if quick
                      else f"{priv['sampling']} sampling, no delta given")
        else:
            phrase = describe_epsilon(cert[lab])
        parts.append(f"{lab}: {phrase}")
    return "; ".join(parts)
