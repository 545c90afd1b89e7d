r"""Algorithm 2.1 / Appendix A of seed 000: the index map :math:`\rho`, the wait loop, and Theorem 2.1.

Seed ``000_d613b97385d90362.txt``: Algorithm 2.1 (client with DP) L67-L124; Appendix A (setup L294-L298,
server L302-L311, client L313-L369); Theorem 2.1 L130-L132 with proof B.1 L389-L412; the wait-loop
simplification L136-L140 and B.2 L414-L428.

Objects
-------
* ``a``: the setup's client-assignment table (L298), ``a[i][t'] = c`` for round ``i`` and in-round slot
  ``t'`` in ``0..s_i-1``; clients are ``0..n-1`` here (the paper counts from 1). ``s_i = len(a[i])`` and
  ``s_{i,c}`` is the number of slots of client ``c`` in round ``i``.
* Labels ``(c, i, h)``: client ``c``'s ``h``-th gradient of round ``i``, ``h = 0..s_{i,c}-1`` exactly as in
  MainClient (L339: ``h = 0`` ... ``while h < s_{i,c}``).
* :math:`\rho(c,i,h) = \sum_{l<i}s_l + \min\{t' : h = |\{t \le t' : a(i,t)=c\}|\}` (L393). With
  MainClient's 0-based ``h`` this is off by one (``h = 0`` has no such ``t'`` when ``a(i,0) = c``); the
  corrected map uses ``h + 1`` (:func:`rho`), the printed one is :func:`rho_printed`.
* :math:`t_{glob} = s_0+\dots+s_i-(s_{i,c}-h)-1`, :math:`t_{delay} = s_k+\dots+s_i-(s_{i,c}-h)` (L90, L339).

Consistency (Definition 2.1, L61): the model :math:`\hat w_t` used by update :math:`t` contains every
update :math:`j \le t-\tau(t)-1` (footnote 1: update :math:`j` is "the :math:`(j+1)`-th iteration").

The event simulator below models the models by *which* updates they contain: a model is a dict from
update index to its coefficient (the step size it was applied with), so inclusion is exact.
"""
from __future__ import annotations

import bisect
import itertools
import random
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import sympy as sp

from numerics.errors import InvalidParameter
from theory.ledger import Verdict, claim

Table = Tuple[Tuple[int, ...], ...]
Label = Tuple[int, int, int]


# --- setup and the index map ---------------------------------------------------------------------

def check_table(a: Sequence[Sequence[int]], n: int) -> Table:
    """Validate an assignment table: rounds are sequences of client ids in ``0..n-1``."""
    if not isinstance(n, int) or n < 1:
        raise InvalidParameter(f"n (number of clients) must be a positive integer, got {n!r}")
    table = tuple(tuple(r) for r in a)
    if not table:
        raise InvalidParameter("a (assignment table) must have at least one round")
    for r in table:
        if any((not isinstance(c, int)) or not 0 <= c < n for c in r):
            raise InvalidParameter(f"a: every entry must be a client id in 0..{n - 1}, got round {r!r}")
    return table


def random_table(sizes: Sequence[int], p: Sequence[float], rng: random.Random) -> Table:
    """Setup L298: ``a(i,t) = c`` with probability ``p_c``, independently for every slot."""
    return tuple(tuple(rng.choices(range(len(p)), weights=p, k=s)) for s in sizes)


def round_starts(a: Table) -> Tuple[int, ...]:
    r""":math:`(\sum_{l<i}s_l)_{i}` and, last, the total :math:`\sum_l s_l`."""
    return tuple(itertools.accumulate((len(r) for r in a), initial=0))


def client_size(a: Table, i: int, c: int) -> int:
    """:math:`s_{i,c} = |\\{t : a(i,t) = c\\}|` (L298)."""
    return sum(1 for x in a[i] if x == c)


def labels(a: Table, n: int) -> List[Label]:
    """Every MainClient label ``(c, i, h)``, ``0 <= h < s_{i,c}``."""
    return [(c, i, h) for i in range(len(a)) for c in range(n) for h in range(client_size(a, i, c))]


def rho(a: Table, c: int, i: int, h: int) -> int:
    r"""Corrected :math:`\rho(c,i,h)`: the slot of client ``c``'s :math:`(h+1)`-th assignment in round ``i``."""
    count = 0
    for t_prime, x in enumerate(a[i]):
        count += x == c
        if x == c and count == h + 1:
            return round_starts(a)[i] + t_prime
    raise InvalidParameter(f"label (c={c}, i={i}, h={h}) outside 0 <= h < s_(i,c) = {client_size(a, i, c)}")


def rho_printed(a: Table, c: int, i: int, h: int) -> Optional[int]:
    r""":math:`\rho` exactly as printed (L393); ``None`` where the set it minimises over is empty."""
    count = 0
    for t_prime, x in enumerate(a[i]):
        count += x == c
        if count == h:
            return round_starts(a)[i] + t_prime
    return None


def rho_inverse(a: Table, t: int, *, printed: bool = False) -> Label:
    r"""The inverse procedure of L397: round, slot, client, then the count :math:`h`.

    ``printed=True`` returns the printed count :math:`|\{t \le t' : a(i,t)=c\}|` (1-based); otherwise the
    0-based MainClient ``h`` (that count minus one).
    """
    starts = round_starts(a)
    if not 0 <= t < starts[-1]:
        raise InvalidParameter(f"t must lie in 0..{starts[-1] - 1}, got {t!r}")
    i = bisect.bisect_right(starts, t) - 1          # the largest i with sum_{l<i} s_l <= t
    t_prime = t - starts[i]
    c = a[i][t_prime]
    count = sum(1 for x in a[i][:t_prime + 1] if x == c)
    return (c, i, count if printed else count - 1)


def t_glob(a: Table, c: int, i: int, h: int) -> int:
    """L90/L339: :math:`s_0+\\dots+s_i-(s_{i,c}-h)-1`."""
    return round_starts(a)[i + 1] - (client_size(a, i, c) - h) - 1


def t_delay(a: Table, c: int, i: int, h: int, k: int) -> int:
    """L90/L339: :math:`s_k+\\dots+s_i-(s_{i,c}-h)` (client's last received broadcast counter ``k``)."""
    starts = round_starts(a)
    return starts[i + 1] - starts[k] - (client_size(a, i, c) - h)


# --- the wait rules --------------------------------------------------------------------------------

def may_proceed(rule: str, *, tau: Callable[[int], int], a: Table, c: int, i: int, h: int, k: int, d: int = 0) -> bool:
    """Whether client ``c`` at label ``(c,i,h)`` with broadcast counter ``k`` leaves the wait loop.

    ``"le"``: Appendix A, wait while :math:`\\tau(t_{glob}) \\le t_{delay}` (L341).
    ``"eq"``: Algorithm 2.1, wait while :math:`\\tau(t_{glob}) = t_{delay}` (L90).
    ``"lag"``: B.2's replacement for :math:`i \\ge d+1`, read as "proceed iff :math:`i - k \\le d`" (the
    invariant L420 states); the literal "wait while :math:`i = k + d`" blocks for ever when d = 0 (at
    :math:`i = k`, round :math:`i` can only complete after this client leaves the loop). Rounds
    :math:`i \\le d` keep the ``"le"`` rule.
    """
    if rule == "lag" and i >= d + 1:
        return i - k <= d
    if rule not in ("le", "lag", "eq", "le-own"):
        raise InvalidParameter(f"rule must be 'le', 'eq', 'lag' or 'le-own', got {rule!r}")
    # "le-own" tests tau at the step's own last possible index t_glob + 1 (>= rho(c,i,h), 000.thm-2.1.t-le-tglob)
    tg = tau(t_glob(a, c, i, h) + (1 if rule == "le-own" else 0))
    td = t_delay(a, c, i, h, k)
    if rule == "eq":
        return tg != td
    return not tg <= td


def guaranteed_contents(a: Table, c: int, i: int, h: int, k: int) -> set:
    r"""Updates that :math:`\hat w_{c,i,h}` contains for every message timing with counter ``k``.

    Rounds :math:`< k` (the server invariant L310: :math:`\hat v_k` holds them) and the client's own
    earlier updates of round ``i`` (ISR L327: :math:`\hat w = \hat v - \bar\eta_i U`). An ISR may have
    replaced the model at the start of round ``i`` by a :math:`\hat v_k` that lacks the client's own
    rounds ``k..i-1`` (messages still in flight), so those are not guaranteed -- unless ``k = 0``: no
    ISR has run yet (it needs ``k > kold >= 0``) and the model holds all the client's own updates.
    """
    starts = round_starts(a)
    own = {rho(a, c, i, j) for j in range(h)}
    if k == 0:
        own |= {rho(a, c, ii, j) for ii in range(i) for j in range(client_size(a, ii, c))}
    return set(range(starts[k])) | own


def consistency_failures(a: Table, n: int, tau: Callable[[int], int], rule: str, d: int = 0, limit: int = 1):
    """Labels and counters ``k <= i`` at which the wait rule lets a step through that violates Definition 2.1."""
    bad = []
    for (c, i, h) in labels(a, n):
        t = rho(a, c, i, h)
        need = set(range(max(0, t - tau(t))))          # updates 0..t - tau(t) - 1
        for k in range(i + 1):
            if may_proceed(rule, tau=tau, a=a, c=c, i=i, h=h, k=k, d=d) and not need <= guaranteed_contents(a, c, i, h, k):
                bad.append({"c": c, "i": i, "h": h, "k": k, "t": t, "tau_t": tau(t),
                            "missing": sorted(need - guaranteed_contents(a, c, i, h, k))[:5]})
                if len(bad) >= limit:
                    return bad
    return bad


def property_3(a: Table, tau: Callable[[int], int], d: int) -> bool:
    r"""(3): :math:`\tau(\sum_{j\le i}s_j) \ge \sum_{j=i-d}^{i}s_j` for all :math:`i \ge d+1` (L418)."""
    starts = round_starts(a)
    return all(tau(starts[i + 1]) >= starts[i + 1] - starts[i - d] for i in range(d + 1, len(a)))


def lag_nondecreasing(tau: Callable[[int], int], upto: int) -> bool:
    """Setup's hypothesis: :math:`t - \\tau(t)` is increasing (non-decreasing) in t, checked on -1..upto."""
    lags = [t - tau(t) for t in range(-1, upto + 1)]
    return all(x <= y for x, y in zip(lags, lags[1:]))


# --- small exhaustive domains ----------------------------------------------------------------------

def all_tables(sizes: Sequence[int], n: int):
    """Every assignment table with the given round sizes and ``n`` clients."""
    for flat in itertools.product(range(n), repeat=sum(sizes)):
        it = iter(flat)
        yield tuple(tuple(next(it) for _ in range(s)) for s in sizes)


def tau_family(*, decreasing: bool = True):
    """Integer delay functions with t - tau(t) non-decreasing (named, for evidence).

    Setup only asks that :math:`t - \tau(t)` increase (L73, L298); that allows :math:`\tau` itself to
    drop, e.g. "5 then 0 at t>=3". ``decreasing=False`` keeps only non-decreasing :math:`\tau`.
    """
    for c in range(0, 5):
        yield f"{c}", (lambda t, c=c: c)
        yield f"max(0,t-{c})", (lambda t, c=c: max(0, t - c))
        yield f"{c}+floor(t/2)", (lambda t, c=c: c + max(t, 0) // 2)
    if decreasing:
        for c in range(1, 6):
            yield f"5 then 0 at t>={c}", (lambda t, c=c: 5 if t < c else 0)


#: exhaustive domain: round sizes and client counts (every table is enumerated).
EXHAUSTIVE_SIZES = ((1, 2, 2), (2, 2, 3), (3, 1, 2))
EXHAUSTIVE_CLIENTS = (1, 2)


def _exhaustive_tables():
    for n in EXHAUSTIVE_CLIENTS:
        for sizes in EXHAUSTIVE_SIZES:
            for a in all_tables(sizes, n):
                yield n, a


# --- event simulation of Appendix A (no DP) ------------------------------------------------------

@dataclass
class _Client:
    i: int = 0
    h: int = 0
    k: int = 0
    U: Dict[int, int] = field(default_factory=dict)        # update index -> multiplicity (gradient sum)
    w_hat: Dict[int, Fraction] = field(default_factory=dict)  # update index -> step size applied


@dataclass
class SimulationResult:
    steps: List[dict]
    deadlock: Optional[dict]
    violations: List[dict]


def simulate(a: Table, n: int, *, tau: Callable[[int], int], rule: str, d: int = 0, seed: int = 0,
             eta_bar: Optional[Sequence[Fraction]] = None, server_loop: bool = False,
             max_events: int = 100_000) -> SimulationResult:
    """Run Setup/Server/Client of Appendix A on table ``a`` with random message delays and ordering.

    Each event is chosen uniformly among: a client leaves its wait loop and takes one step (or sends a
    finished round), the server processes one in-flight client message, or a client receives one
    in-flight broadcast. Checks at every event: the server invariant (L310), that each gradient step's
    model contains every update ``<= t - tau(t) - 1`` (Theorem 2.1); at the end the round-sum identity
    (L401-L406) and that the server's model is recursion (1)'s :math:`w_T` (every update once, with its
    round's step size). ``server_loop=True`` replaces the server's "if H has (k,c) for all c" by a loop.
    """
    a = check_table(a, n)
    rng = random.Random(seed)
    R = len(a)
    eta = tuple(eta_bar) if eta_bar is not None else tuple(Fraction(1, i + 2) for i in range(R))
    clients = [_Client() for _ in range(n)]
    v_hat: Dict[int, Fraction] = {}
    server_k, H, sent = 0, set(), {}
    to_server: List[Tuple[int, int, Dict[int, int]]] = []
    to_client: List[Tuple[int, Dict[int, Fraction], int]] = []
    steps, violations = [], []

    def own_partial(cl: _Client) -> Dict[int, Fraction]:
        return {t: eta[cl.i] * mult for t, mult in cl.U.items()}

    for _ in range(max_events):
        moves = []
        for c, cl in enumerate(clients):
            if cl.i >= R:
                continue
            if cl.h == client_size(a, cl.i, c):
                moves.append(("send", c))
            elif may_proceed(rule, tau=tau, a=a, c=c, i=cl.i, h=cl.h, k=cl.k, d=d):
                moves.append(("step", c))
        moves += [("server", j) for j in range(len(to_server))]
        moves += [("deliver", j) for j in range(len(to_client))]
        if not moves:
            done = all(cl.i >= R for cl in clients)
            deadlock = None if done else {"clients": [(cl.i, cl.h, cl.k) for cl in clients], "server_k": server_k,
                                          "H": sorted(H)}
            break
        kind, j = rng.choice(moves)
        if kind == "step":
            c, cl = j, clients[j]
            t = rho(a, c, cl.i, cl.h)
            need = range(max(0, t - tau(t)))
            missing = [u for u in need if u not in cl.w_hat]
            if missing:
                violations.append({"c": c, "i": cl.i, "h": cl.h, "k": cl.k, "t": t, "missing": missing[:5]})
            steps.append({"t": t, "c": c, "i": cl.i, "h": cl.h, "k": cl.k})
            cl.U[t] = cl.U.get(t, 0) + 1                   # U = U + g   (L355)
            cl.w_hat[t] = eta[cl.i]                          # w = w_hat - eta_i g; w_hat = w   (L359)
            cl.h += 1
        elif kind == "send":
            c, cl = j, clients[j]
            to_server.append((cl.i, c, dict(cl.U)))          # send (i, c, U)   (L367)
            sent[(cl.i, c)] = dict(cl.U)
            cl.i, cl.h, cl.U = cl.i + 1, 0, {}
        elif kind == "server":
            i, c, U = to_server.pop(j)
            for t, mult in U.items():                        # v_hat = v_hat - eta_i U   (L310)
                v_hat[t] = v_hat.get(t, 0) + eta[i] * mult
            H.add((i, c))
            while all((server_k, cc) in H for cc in range(n)):
                H -= {(server_k, cc) for cc in range(n)}
                server_k += 1
                to_client += [(cc, dict(v_hat), server_k) for cc in range(n)]
                if not server_loop:
                    break
            expected = {}
            for (ii, cc), UU in sent.items():                # server invariant (L310)
                if ii < server_k or (ii, cc) in H:
                    for t, mult in UU.items():
                        expected[t] = expected.get(t, 0) + eta[ii] * mult
            if expected != v_hat:
                violations.append({"server_invariant": True, "k": server_k})
        else:
            c, vh, k = to_client.pop(j)
            cl = clients[c]
            if k > cl.k and cl.i < R:                        # ISR (L323-L331)
                cl.k = k
                cl.w_hat = {**vh, **own_partial(cl)}
    else:
        deadlock = {"max_events": max_events}
    starts = round_starts(a)
    if deadlock is None:
        for i in range(R):                                    # round-sum identity (L401-L406)
            got = sorted(t for c in range(n) for t in sent.get((i, c), {}))
            if got != list(range(starts[i], starts[i + 1])):
                violations.append({"round_sum": i, "got": got})
        while to_server:                                      # drain: the server ends with every round
            i, c, U = to_server.pop()
            for t, mult in U.items():
                v_hat[t] = v_hat.get(t, 0) + eta[i] * mult
        # recursion (1): w_T = w_0 - sum_t eta_t g_t with eta_t = eta_bar_i for t in round i, each g_t once
        w_T = {t: eta[i] for i in range(R) for t in range(starts[i], starts[i + 1])}
        if v_hat != w_T:
            violations.append({"recursion_1": True})
    return SimulationResult(steps, deadlock, violations)


# =================================================================================================
# Ledger claims
# =================================================================================================

def _first_rho_failure(printed: bool):
    for n, a in _exhaustive_tables():
        images = []
        for (c, i, h) in labels(a, n):
            t = rho_printed(a, c, i, h) if printed else rho(a, c, i, h)
            if t is None or rho_inverse(a, t, printed=printed) != (c, i, h + (1 if printed else 0)):
                return {"n": n, "a": [list(r) for r in a], "label": [c, i, h], "rho": t}
            images.append(t)
        if sorted(images) != list(range(round_starts(a)[-1])):
            return {"n": n, "a": [list(r) for r in a], "images": images}
    return None


def _count_tables() -> int:
    return sum(1 for _ in _exhaustive_tables())


def _domain() -> str:
    """What the exhaustive table checks cover (evidence['domain'] of their exact verdicts)."""
    return (f"exhaustive: every assignment of slots to {' or '.join(map(str, EXHAUSTIVE_CLIENTS))} clients for round sizes "
            f"{', '.join(str(list(s)) for s in EXHAUSTIVE_SIZES)} ({_count_tables()} tables)")


@claim(id="000.thm-2.1.rho-bijection", seed="000", result="Theorem 2.1", role="proof-step", cause="000-B1-h-zero-based", lines="L391-L397",
       statement="rho maps MainClient's labels (c,i,h) bijectively onto the global iteration counts, inverted by the L397 procedure.",
       recorded="holds-with-correction")
def rho_bijection() -> Verdict:
    printed_failure = _first_rho_failure(printed=True)
    corrected_failure = _first_rho_failure(printed=False)
    evidence = {"domain": _domain(), "tables": _count_tables(),
                "printed_counterexample": printed_failure,
                "correction": "use h + 1 in rho (MainClient's h is 0-based) and h = count - 1 in the inverse"}
    if corrected_failure:
        return Verdict("refuted", "exact", evidence=evidence, counterexample=corrected_failure, arithmetic=("integer",))
    if printed_failure:
        pf = printed_failure
        why = (f"MainClient counts h from 0 (L86-94) while rho (L391-397) is written for h counted from 1: on table "
               f"{pf['a']} ({pf['n']} client) the printed rho "
               + (f"is undefined at label (c, i, h) = {tuple(pf['label'])}" if pf.get('rho') is None else
                  f"sends label (c, i, h) = {tuple(pf['label'])} to {pf['rho']}, which the L397 inverse does not map back")
               + f"; with h + 1 in rho (and h = count - 1 in the inverse) rho is a "
               f"bijection onto the global iteration counts on all {_count_tables()} tables checked.")
        return Verdict("holds-with-correction", "exact", margin=0.0, evidence=evidence, counterexample=printed_failure,
                       why=why, arithmetic=("integer",))
    return Verdict("holds", "exact", margin=0.0, evidence=evidence, arithmetic=("integer",))


@claim(id="000.thm-2.1.round-sum", seed="000", result="Theorem 2.1", role="proof-step", lines="L401-L406",
       statement="The labels of round i map under rho onto exactly the iterations s_0+..+s_{i-1} .. s_0+..+s_i-1, so sum_c U_{i,c} is that round's gradient sum.",
       recorded="holds")
def round_sum() -> Verdict:
    for n, a in _exhaustive_tables():
        starts = round_starts(a)
        for i in range(len(a)):
            got = sorted(rho(a, c, ii, h) for (c, ii, h) in labels(a, n) if ii == i)
            if got != list(range(starts[i], starts[i + 1])):
                return Verdict("refuted", "exact", evidence={"domain": _domain()}, counterexample={"a": [list(r) for r in a], "i": i},
                               why=f"round {i} of table {[list(r) for r in a]} does not map onto its iterations",
                               arithmetic=("integer",))
    return Verdict("holds", "exact", margin=0.0, evidence={"tables": _count_tables(), "rho": "corrected (h + 1)",
                                                          "domain": _domain()}, arithmetic=("integer",))


@claim(id="000.thm-2.1.t-le-tglob", seed="000", result="Theorem 2.1", role="proof-step", cause="000-B1-h-zero-based", lines="L410",
       statement="rho(c,i,h) <= t_glob = s_0+..+s_i-(s_{i,c}-h)-1 for every label.",
       recorded="holds-with-correction")
def t_le_tglob() -> Verdict:
    worst, example = None, None
    for n, a in _exhaustive_tables():
        for (c, i, h) in labels(a, n):
            excess = rho(a, c, i, h) - t_glob(a, c, i, h)
            if worst is None or excess > worst:
                worst, example = excess, {"n": n, "a": [list(r) for r in a], "label": [c, i, h],
                                          "rho": rho(a, c, i, h), "t_glob": t_glob(a, c, i, h)}
    evidence = {"max rho - t_glob": worst, "tables": _count_tables(), "domain": _domain(),
                "correction": "rho(c,i,h) <= t_glob + 1 (t_glob + 1 is the last slot client c can occupy)"}
    why = (f"With h counted from 0, t_glob = s_0+..+s_i-(s_{{i,c}}-h)-1 (L90, L410) is one below the index of the update "
           f"being computed: max rho - t_glob = {worst} over the {_count_tables()} tables (table {example['a']}, label "
           f"{tuple(example['label'])}: rho = {example['rho']}, t_glob = {example['t_glob']}); L410's t <= t_glob holds "
           f"as t <= t_glob + 1.")
    if worst <= 0:
        return Verdict("holds", "exact", margin=float(-worst), evidence=evidence, arithmetic=("integer",))
    if worst == 1:
        return Verdict("holds-with-correction", "exact", margin=0.0, evidence=evidence, counterexample=example, why=why,
                       arithmetic=("integer",))
    return Verdict("refuted", "exact", margin=float(-worst), evidence=evidence, counterexample=example, why=why,
                   arithmetic=("integer",))


def _rule_failures_family(rule: str, *, decreasing: bool, d: int = 0, require_property_3: bool = False):
    checked = 0
    for n, a in _exhaustive_tables():
        for name, tau in tau_family(decreasing=decreasing):
            if not lag_nondecreasing(tau, round_starts(a)[-1]):
                continue
            if require_property_3 and not property_3(a, tau, d):
                continue
            checked += 1
            bad = consistency_failures(a, n, tau, rule, d)
            if bad:
                return checked, {"n": n, "a": [list(r) for r in a], "tau": name, "d": d, **bad[0]}
    return checked, None


def reachable_violation(rule: str, *, decreasing: bool, seeds: int = 30, live_under: Optional[str] = None,
                        clients: Sequence[int] = EXHAUSTIVE_CLIENTS, taus: Optional[Sequence[str]] = None):
    """First execution (table, tau, seed) of the event simulator in which ``rule`` breaks consistency.

    The exhaustive state check (:func:`consistency_failures`) finds states that a wait rule lets through;
    this replays the algorithm to show one is reached. With ``live_under``, the same run under that rule
    must finish (so the counterexample is not an artefact of a delay the algorithm cannot serve).
    ``taus`` restricts (and orders) the delay functions tried, by name.
    """
    family = list(tau_family(decreasing=decreasing))
    if taus is not None:
        by_name = dict(family)
        family = [(t, by_name[t]) for t in taus]
    for name, tau in family:
        for n, a in _exhaustive_tables():
            if n not in clients:
                continue
            if not lag_nondecreasing(tau, round_starts(a)[-1]) or not consistency_failures(a, n, tau, rule):
                continue
            for seed in range(seeds):
                res = simulate(a, n, tau=tau, rule=rule, seed=seed)
                if res.violations and (live_under is None
                                       or simulate(a, n, tau=tau, rule=live_under, seed=seed).deadlock is None):
                    return {"n": n, "a": [list(r) for r in a], "tau": name, "seed": seed, "rule": rule,
                            **res.violations[0]}
    return None


def _rule_failures(rule: str, d: int = 0, require_property_3: bool = False):
    return _rule_failures_family(rule, decreasing=True, d=d, require_property_3=require_property_3)


@claim(id="000.thm-2.1.consistency", seed="000", result="Theorem 2.1", role="conclusion", cause="000-B1-h-zero-based", lines="L130-L132, L408-L410, L341",
       statement="With Appendix A's wait loop (wait while tau(t_glob) <= t_delay) every update's model contains all updates up to t - tau(t), for every permissible tau (t - tau(t) increasing) and message timing.",
       recorded="holds-with-correction")
def consistency_le() -> Verdict:
    checked_all, bad_all = _rule_failures_family("le", decreasing=True)
    if bad_all:
        bad_all = reachable_violation("le", decreasing=True) or bad_all    # replay it in the simulator
    checked_inc, bad_inc = _rule_failures_family("le", decreasing=False)
    checked_own, bad_own = _rule_failures_family("le-own", decreasing=True)
    evidence = {"cases": {"le, all tau": checked_all, "le, non-decreasing tau": checked_inc,
                          "le-own, all tau": checked_own},
                "tau_family": [n for n, _ in tau_family()], "k": "every 0 <= k <= i",
                "model": "worst case: rounds < k, own updates of round i, and (k = 0 only) all own updates",
                "printed_rule_counterexample": bad_all,
                "why": "the loop tests tau(t_glob) but the step's index can be t_glob + 1 (000.thm-2.1.t-le-tglob); "
                       "L410's 't - tau(t) <= t_glob - tau(t_glob)' needs t <= t_glob",
                "correction": "holds when tau is also non-decreasing (every tau the paper uses), or for every "
                              "permissible tau when the loop tests tau(t_glob + 1)",
                "domain": _domain() + "; tau from the family tau_family() (constants, c + floor(t/2), and decreasing ones "
                                      "with t - tau(t) non-decreasing); every 0 <= k <= i"}
    if bad_inc or bad_own:
        return Verdict("refuted", "exact", evidence=evidence, counterexample=bad_inc or bad_own, arithmetic=("integer",),
                       why="consistency fails even for non-decreasing tau or with the loop testing tau(t_glob + 1)")
    if bad_all:
        why = (f"The wait loop (L341) tests tau(t_glob), but the update being computed has index t = t_glob + 1 "
               f"(000.thm-2.1.t-le-tglob), and L410's step t - tau(t) <= t_glob - tau(t_glob) needs t <= t_glob: for a "
               f"permissible tau that decreases ({bad_all.get('tau')}) client {bad_all.get('c')} computes update "
               f"t = {bad_all.get('t')} on table {bad_all.get('a')} (seed {bad_all.get('seed')}) from a model missing "
               f"updates {bad_all.get('missing')}. It holds in all {checked_inc} non-decreasing-tau cases (every tau the "
               f"paper uses) and in all {checked_own} cases when the loop tests tau(t_glob + 1).")
        return Verdict("holds-with-correction", "exact", margin=0.0, evidence=evidence, counterexample=bad_all, why=why,
                       arithmetic=("integer",))
    return Verdict("holds", "exact", margin=0.0, evidence=evidence, arithmetic=("integer",))


@claim(id="000.alg.wait-equality", seed="000", result="Theorem 2.1", role="definition", lines="L90, L341",
       statement="Algorithm 2.1's wait condition 'while tau(t_glob) = t_delay' keeps t_delay <= tau(t_glob), hence consistency.",
       recorded="refuted")
def wait_equality() -> Verdict:
    bad = reachable_violation("eq", decreasing=False, live_under="le", clients=(2,), seeds=10,
                              taus=("4", "3", "2", "1", "4+floor(t/2)", "3+floor(t/2)"))
    evidence = {"tau_family": "constants 4..1, then c + floor(t/2)", "search": "event simulator, two clients, 10 seeds per case",
                "why": "t_delay grows by s_{i+1} - s_{i+1,c} at a round boundary and starts at "
                       "s_0 - s_{0,c}, so it can pass tau(t_glob) without ever being equal to it; Appendix A's '<=' "
                       "waits in the same run, which then completes"}
    if bad:
        why = (f"Algorithm 2.1 waits only while tau(t_glob) = t_delay (L90); t_delay jumps by s_{{i+1}} - s_{{i+1,c}} at a "
               f"round boundary and starts at s_0 - s_{{0,c}}, so it can pass tau(t_glob) without ever equalling it. In the "
               f"two-client run on table {bad['a']} with tau = {bad['tau']} (seed {bad['seed']}) client {bad['c']} computes "
               f"update t = {bad['t']} (round {bad['i']}) on the round-{bad['k']} model, which misses updates "
               f"{bad['missing']}: not consistent with tau. Appendix A's 'while tau(t_glob) <= t_delay' (L341) waits in the "
               f"same run, which then completes: the main-text algorithm has '=' where '<=' is meant.")
        return Verdict("refuted", "exact", margin=-1.0, evidence={**evidence, "margin_unit": "indicator: -1 = the stated identity/condition fails (no natural scale)",
                                                                   "domain": "one simulated execution (a witness)"},
                       counterexample=bad, why=why, arithmetic=("integer",))
    return Verdict("holds", "sampled", evidence={**evidence, "points": "all two-client cases x 10 seeds"})


def _invariant_chain_failure(d: int):
    """A state allowed by B.2 (property (3), i - k <= d, i >= d+1) with t_delay > tau(t_glob)."""
    worst = None
    for n, a in _exhaustive_tables():
        for name, tau in tau_family():
            if not lag_nondecreasing(tau, round_starts(a)[-1]) or not property_3(a, tau, d):
                continue
            for (c, i, h) in labels(a, n):
                if i < d + 1:
                    continue
                for k in range(i - d, i + 1):
                    gap = t_delay(a, c, i, h, k) - tau(t_glob(a, c, i, h))
                    if worst is None or gap > worst[0]:
                        worst = (gap, {"n": n, "a": [list(r) for r in a], "tau": name, "d": d,
                                       "label": [c, i, h], "k": k, "t_delay": t_delay(a, c, i, h, k),
                                       "tau(t_glob)": tau(t_glob(a, c, i, h))})
    return worst


@claim(id="000.thm-2.1.wait-invariant", seed="000", result="L140", role="proof-step", lines="L416-L428",
       statement="Under property (3), the wait rule i - k <= d (i >= d+1) implies t_delay <= tau(t_glob).",
       recorded="holds-with-correction")
def wait_invariant() -> Verdict:
    rows = [_invariant_chain_failure(d) for d in (0, 1)]
    gap, example = max(rows, key=lambda r: r[0])
    evidence = {"max t_delay - tau(t_glob)": gap, "per_d": [r[0] for r in rows],
                "why": "L426 writes t_delay = s_k+..+s_i-(s_{i,c}-h)-1, but L339 defines it without the -1",
                "correction": "t_delay <= tau(t_glob) + 1; consistency still follows (000.thm-2.1.wait-consistency)",
                "domain": _domain() + "; d in {0, 1}; tau from tau_family() satisfying property (3)"}
    why = (f"B.2's chain (L426) writes t_delay = s_k+..+s_i-(s_{{i,c}}-h)-1, but Algorithm A defines t_delay without the -1 "
           f"(L339): under property (3) and i - k <= d, t_delay - tau(t_glob) reaches {gap} (per d = 0, 1: {[r[0] for r in rows]}; "
           f"e.g. table {example['a']}, tau = {example['tau']}: t_delay = {example['t_delay']}, tau(t_glob) = "
           f"{example['tau(t_glob)']}). The invariant holds as t_delay <= tau(t_glob) + 1, and L140's conclusion "
           f"(consistency) still follows (000.thm-2.1.wait-consistency).")
    if gap <= 0:
        return Verdict("holds", "exact", margin=float(-gap), evidence=evidence, arithmetic=("integer",))
    if gap == 1:
        return Verdict("holds-with-correction", "exact", margin=0.0, evidence=evidence, counterexample=example, why=why,
                       arithmetic=("integer",))
    return Verdict("refuted", "exact", margin=float(-gap), evidence=evidence, counterexample=example, why=why,
                   arithmetic=("integer",))


@claim(id="000.thm-2.1.wait-consistency", seed="000", result="L140", role="conclusion", lines="L136-L140, L416-L420",
       statement="Under property (3), replacing the wait condition by 'proceed iff i - k <= d' (i >= d+1) still yields a sequence consistent with tau.",
       recorded="holds")
def wait_consistency() -> Verdict:
    checked, bad, per_d = 0, None, {}
    for d in (0, 1):
        c_d, bad = _rule_failures("lag", d=d, require_property_3=True)
        per_d[d], checked = c_d, checked + c_d
        if bad:
            break
    evidence = {"cases": checked, "per_d": per_d,
                "reading": "proceed iff i - k <= d for i >= d+1; the literal 'wait while i = k + d' blocks for ever at "
                           "i = k when d = 0 (round i cannot complete while this client waits)"}
    evidence["domain"] = _domain() + "; d in {0, 1}; tau from tau_family() satisfying property (3); every 0 <= k <= i"
    if bad:
        return Verdict("refuted", "exact", evidence=evidence, counterexample=bad, arithmetic=("integer",),
                       why=f"the lag rule breaks consistency on table {bad.get('a')}")
    return Verdict("holds", "exact", margin=0.0, evidence=evidence, arithmetic=("integer",))


@claim(id="000.alg.broadcast-content", seed="000", result="Algorithm 2.1", role="definition", lines="L77, L310",
       statement="A received broadcast (v_hat, k) includes all updates up to and including round k.",
       recorded="holds-with-correction")
def broadcast_content() -> Verdict:
    # Two clients, one slot each per round; each sends round 0 and round 1 before the server processes round 1.
    a = ((0, 1), (0, 1))
    starts = round_starts(a)
    rounds_sent = [(0, 0), (0, 1), (1, 0)]            # (round, client) processed by the server, in order
    v_hat, k, H = set(), 0, set()
    broadcasts = []
    for i, c in rounds_sent:
        v_hat |= {rho(a, c, i, 0)}
        H.add((i, c))
        if all((k, cc) in H for cc in range(2)):
            H -= {(k, cc) for cc in range(2)}
            k += 1
            broadcasts.append((k, sorted(v_hat)))
    k1, contents = broadcasts[0]
    round_k = set(range(starts[k1], starts[k1 + 1]))
    ok = round_k <= set(contents)
    earlier = set(range(starts[k1])) <= set(contents)     # rounds 0..k-1
    evidence = {"server": "L310: v_hat_k includes rounds 0..k-1", "broadcasts": broadcasts,
                "correction": "with the algorithm's 0-based round index, (v_hat, k) holds rounds 0..k-1; L77's "
                              "'k-th round' is right only when read 1-based",
                "counterexample_for_round_index_k": {"a": [list(r) for r in a], "k": k1, "contents": contents,
                                                     "missing_round_k": sorted(round_k - set(contents))},
                "domain": "one two-client execution of Server (L302-L320) (a witness)"}
    why = (f"The server (L310) broadcasts (v_hat, k) once every client has sent round k-1, so v_hat holds rounds 0..k-1: "
           f"with two clients the first broadcast is k = {k1} with iterations {contents}, without round k's "
           f"{sorted(round_k - set(contents))}. L77's 'all updates up to and including round k' is right only with rounds "
           f"counted from 1; with the algorithm's 0-based index it reads 'up to round k - 1'.")
    if ok:
        return Verdict("holds", "exact", evidence=evidence, arithmetic=("integer",))
    if earlier:
        return Verdict("holds-with-correction", "exact", margin=0.0, evidence=evidence, why=why, arithmetic=("integer",))
    return Verdict("refuted", "exact", evidence=evidence, counterexample=evidence["counterexample_for_round_index_k"],
                   why=why, arithmetic=("integer",))


@claim(id="000.alg.noise-sign", seed="000", result="Algorithm 2.1", role="typo", lines="L118, L310",
       statement="After injecting noise (L118) the client's local model equals its start model minus eta_i times the U the server subtracts.",
       recorded="refuted")
def noise_sign() -> Verdict:
    eta, n, G, w0 = sp.symbols("eta_i n G w_0", real=True)   # G = sum of the round's clipped gradients
    U = G + n                                              # L118: U = U + n
    client_model = w0 - eta * G + eta * n                  # L110 recursion, then w_hat = w_hat + eta n
    server_view = w0 - eta * U                             # L310: v_hat = v_hat - eta_i U
    diff = sp.simplify(client_model - server_view)
    ok = diff == 0
    evidence = {"client - server": str(diff), "effect": "the local model moves by +eta n, the global one by -eta n; "
                "the next ISR overwrites the local model, so only the models between the round's end and that broadcast differ"}
    if ok:
        return Verdict("holds", "symbolic", evidence=evidence, arithmetic=("sympy",))
    why = (f"L118 adds the noise n to U and to the local model as w_hat + eta n, while the server applies v_hat - eta U "
           f"(L310): client - server = {diff}, so the local model moves by +eta n where the global one moves by -eta n. "
           f"The released U is the same, so no privacy or convergence result changes; the local model is wrong only "
           f"until the next broadcast overwrites it (a sign typo).")
    return Verdict("refuted", "symbolic", margin=-1.0, evidence={**evidence, "margin_unit": "indicator: -1 = the stated identity/condition fails (no natural scale)"},
                   counterexample={"eta_i": 1, "n": 1, "G": 0, "w_0": 0, "client": 1, "server": -1}, why=why,
                   arithmetic=("sympy",))


#: random simulations behind 000.thm-2.1.simulation: round sizes, client weights, delay function.
SIM_SIZES = (2, 3, 4, 5, 6)
SIM_WEIGHTS = (0.5, 0.3, 0.2)
SIM_TAU = ("3+floor(t/2)", lambda t: 3 + max(t, 0) // 2)


@claim(id="000.thm-2.1.simulation", seed="000", result="Theorem 2.1", role="conclusion", lines="L130-L134, L302-L369",
       statement="Setup/Server/Client of Appendix A, with random delays and out-of-order delivery, follow recursion (1) (server invariant, round sums, final model) consistently with tau.",
       recorded="holds")
def simulation(runs: int = 40) -> Verdict:
    name, tau = SIM_TAU
    n = len(SIM_WEIGHTS)
    problems, deadlocks, steps = [], 0, 0
    for seed in range(runs):
        a = random_table(SIM_SIZES, SIM_WEIGHTS, random.Random(seed))
        res = simulate(a, n, tau=tau, rule="le", seed=seed)
        steps += len(res.steps)
        deadlocks += res.deadlock is not None
        if res.violations:
            problems.append({"seed": seed, "a": [list(r) for r in a], "violation": res.violations[0]})
    evidence = {"points": runs, "where": {"round_sizes": list(SIM_SIZES), "p": list(SIM_WEIGHTS), "tau": name,
                                          "rule": "le (Appendix A)", "seeds": [0, runs - 1]},
                "gradient_steps": steps, "runs_ending_in_deadlock": deadlocks}
    if problems:
        return Verdict("refuted", "sampled", evidence=evidence, counterexample=problems[0])
    return Verdict("holds", "sampled", margin=0.0, evidence=evidence)


@claim(id="000.alg.C1-sign", seed="000", result="Algorithm C.1", role="typo", lines="L577, L625",
       statement="Algorithm C.1's write 'add eta_t d_xi g_h to entry h of w' implements recursion (7), w_{t+1} = w_t - eta_t d_xi S_u grad f.",
       recorded="refuted")
def c1_sign() -> Verdict:
    w, eta, dxi, g = sp.symbols("w eta_t d_xi g_h", real=True)
    recursion_7 = w - eta * dxi * g
    algorithm_c1 = w + eta * dxi * g
    diff = sp.simplify(algorithm_c1 - recursion_7)
    if diff == 0:
        return Verdict("holds", "symbolic", evidence={"difference": "0"}, arithmetic=("sympy",))
    why = (f"Algorithm C.1 writes 'add eta_t d_xi g_h to entry h of w' (L625) where recursion (7) subtracts it (L577): "
           f"C.1 - (7) = {diff}, an ascent step. A sign typo: the analysis (C.1-C.2) uses (7).")
    return Verdict("refuted", "symbolic", margin=-1.0, evidence={"C.1 - (7)": str(diff), "correction": "subtract eta_t d_xi g_h", "margin_unit": "indicator: -1 = the stated identity/condition fails (no natural scale)"},
                   counterexample={"w": 0, "eta_t": 1, "d_xi": 1, "g_h": 1, "C.1": 1, "(7)": -1}, why=why,
                   arithmetic=("sympy",))
