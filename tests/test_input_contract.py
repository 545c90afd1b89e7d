"""Issue 33, items 2-5: every question a user can put to the accountants is answered or refused in one
line; nothing is silently resolved, and no MemoryError, OverflowError or traceback reaches the user.

The property tests drive random and extreme inputs (values, option orders, repeated and contradicting
options, every sampling, noise and adjacency) through the command line and the Python entry points and
assert exactly that contract; the regression tests replay the invocations quoted in the issue.
"""
import contextlib
import io
import json
import math
import sys

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import numerics
from numerics import Phase, Schedule, cli
from numerics.errors import InvalidParameter
from numerics.pld import AccuracyNotReached

FORBIDDEN = ("Traceback", "MemoryError", "OverflowError", "ZeroDivisionError", "RuntimeWarning")


def run_cli(argv, prog="python -m numerics"):
    out, err = io.StringIO(), io.StringIO()
    argv0 = sys.argv[0]
    sys.argv[0] = "dpverify" if prog == "dpverify" else "numerics/__main__.py"
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = cli.main(list(argv))
    finally:
        sys.argv[0] = argv0
    return status, out.getvalue(), err.getvalue()


def assert_contract(status, out, err, prog="python -m numerics"):
    """0 with an answer naming sampling, noise, adjacency and delta (or epsilon); else one line."""
    assert status in (0, 1, 2), (status, err)
    if status == 0:
        assert err == ""
        for word in ("sampling", "noise", "adjacency"):
            assert word in out, out
        assert "delta" in out or "epsilon=" in out
    else:
        assert out == ""
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"{prog}: error: "), err
        assert not any(word in err for word in FORBIDDEN), err


# --- the property: random and extreme values through the command line ------------------------------

#: numbers as a user types them: ordinary, extreme, malformed
extreme_numbers = st.one_of(
    st.sampled_from(["0", "-1", "1", "0.5", "1e-300", "1e-12", "1e300", "1e309", "inf", "-inf", "nan", "abc",
                     "", "1,5", "0x10", "2.5", "1e6", "1e12", "3"]),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
)
#: values that keep a valid run cheap (the property is about the contract, not about long runs)
cheap_q = st.sampled_from(["1e-9", "0.001", "0.01", "0.5", "1"])
cheap_sigma = st.sampled_from(["1e-9", "1e-3", "0.05", "0.8", "5", "1e8", "1e50"])
cheap_steps = st.sampled_from(["1", "3", "20"])
cheap_delta = st.sampled_from(["1e-15", "1e-5", "0.5"])
cheap_epsilon = st.sampled_from(["0", "1", "1e3"])
cheap_epochs = st.sampled_from(["1", "0.5", "2", "0", "-1", "nan", "inf", "abc"])  # at most 2 ceil(n/b) steps
MECHANISMS = {  # sampling -> options that make a complete, valid mechanism
    "poisson": st.one_of(st.tuples(st.just("--q"), cheap_q).map(lambda t: [t]),
                         st.just([("--batch-size", "10"), ("--dataset-size", "1000")])),
    "fixed-size": st.sampled_from([[("--batch-size", "1"), ("--dataset-size", "100")],
                                   [("--batch-size", "64"), ("--dataset-size", "100")],
                                   [("--q", "0.05"), ("--dataset-size", "100")]]),
    "with-replacement": st.sampled_from([[("--batch-size", "5"), ("--dataset-size", "100")],
                                         [("--batch-size", "200"), ("--dataset-size", "100")]]),
    "full-batch": st.just([]),
    "shuffled": st.sampled_from([[("--batch-size", "10"), ("--dataset-size", "100")],
                                 [("--batch-size", "100"), ("--dataset-size", "100")],
                                 [("--batch-size", "7"), ("--dataset-size", "50")]]),
}
EXTRA = {  # options a user may add, valid or not
    "--q": extreme_numbers, "--sigma": extreme_numbers, "--steps": extreme_numbers, "--delta": extreme_numbers,
    "--epsilon": extreme_numbers, "--batch-size": extreme_numbers, "--dataset-size": extreme_numbers,
    "--epochs": st.one_of(st.sampled_from(["0.01", "1"]), extreme_numbers),
    "--noise": st.sampled_from(["laplace", "l2-knorm", "cauchy"]), "--dimension": st.sampled_from(["1", "8", "0"]),
    "--adjacency": st.sampled_from(["replace-one", "swap"]),
    "--phase": st.sampled_from(["0.01,1,10", "1,10,5", "q=0.5,sigma=2,steps=3", "0.1,x,5", "0.1,1"]),
    "--method": st.sampled_from(["rdp", "gdp-clt", "all", "magic"]),
    "--rel-width": st.sampled_from(["0.3", "0", "2"]), "--scheduler": st.just("tcp://127.0.0.1:1"),
    "--unknown": st.just("1"),
}


@st.composite
def command_lines(draw):
    """A complete command (every required option, cheap but extreme values), then 0-2 changes a user
    makes: one more option (repeated, contradicting or out of range), or one option dropped."""
    command = draw(st.sampled_from(["epsilon", "delta"]))
    sampling = draw(st.sampled_from(sorted(MECHANISMS)))
    options = [("--sampling", sampling)] + draw(MECHANISMS[sampling])
    steps = ("--steps", draw(cheap_steps)) if sampling == "poisson" or draw(st.booleans()) \
        else ("--epochs", draw(cheap_epochs))  # epochs of a Poisson phase are epochs / q steps: not cheap
    options += [("--sigma", draw(cheap_sigma)), steps,
                ("--delta", draw(cheap_delta)) if command == "epsilon" else ("--epsilon", draw(cheap_epsilon))]
    options.append(("--adjacency", draw(st.sampled_from(["add-remove", "replace-one"]))))
    for _ in range(draw(st.integers(0, 2))):
        if draw(st.booleans()) and len(options) > 1:
            options.pop(draw(st.integers(0, len(options) - 1)))
        else:
            name = draw(st.sampled_from(sorted(EXTRA)))
            options.insert(draw(st.integers(0, len(options))), (name, draw(EXTRA[name])))
    return [command] + [x for pair in options for x in pair]


def cheap(argv) -> bool:
    """Whether the answer is a quick accountant run: epochs can mean many steps (one --epochs of a
    cheap_epochs value, with a batch size given, means at most 2 ceil(n/b) steps), and delta() of the
    adaptive fixed-size replace-one accountant (numerics.adaptive) takes minutes at a delta near 0."""
    text = " ".join(argv)
    adaptive_delta = (argv[0] == "delta" and "fixed-size" in text and "replace-one" in text
                      and "laplace" not in text)
    values = [argv[i + 1] for i, a in enumerate(argv[:-1]) if a == "--epochs"]
    epochs_cheap = not values or (len(values) == 1 and values[0] in ("1", "0.5", "2", "0", "-1", "nan", "inf",
                                                                      "abc")
                                  and "--q" not in argv and "--sampling-rate" not in argv
                                  and "--phase" not in argv and "poisson" not in argv
                                  and argv.count("--batch-size") == 1 and argv.count("--dataset-size") == 1
                                  and not any(argv[i + 1] not in ("10", "100", "7", "50")
                                              for i, a in enumerate(argv[:-1])
                                              if a in ("--batch-size", "--dataset-size")))
    return epochs_cheap and "--method all" not in text and not adaptive_delta


SHUFFLED_EPOCHS = ["epsilon", "--sampling", "shuffled", "--batch-size", "10", "--dataset-size", "100", "--sigma",
                   "0.8", "--epochs", "2", "--delta", "1e-5", "--adjacency", "replace-one"]


@settings(max_examples=40)
@given(argv=command_lines(), prog=st.sampled_from(["python -m numerics", "dpverify"]))
@example(argv=SHUFFLED_EPOCHS, prog="dpverify")
@example(argv=["delta", *SHUFFLED_EPOCHS[1:9], "--epochs", "0.5", "--epsilon", "1", "--adjacency", "replace-one"],
         prog="python -m numerics")
@example(argv=SHUFFLED_EPOCHS[:-1] + ["add-remove"], prog="dpverify")
@example(argv=SHUFFLED_EPOCHS[:10] + ["nan"] + SHUFFLED_EPOCHS[11:], prog="dpverify")
def test_random_and_extreme_command_lines_answer_or_fail_in_one_line(argv, prog):
    if not cheap(argv):
        argv = argv + ["--bogus"]  # keep only the validation of these: long runs are tested below
    assert_contract(*run_cli(argv, prog), prog=prog)


def test_the_shuffled_epochs_examples_are_answered():
    """The explicit examples above reach the accountant (cheap) and answer, naming the epochs."""
    assert cheap(SHUFFLED_EPOCHS)
    status, out, _ = run_cli(SHUFFLED_EPOCHS)
    assert status == 0 and "epochs" in out and "shuffled" in out


@settings(max_examples=15)
@given(command=st.sampled_from(["calibrate-sigma", "critical-steps", "frobnicate"]),
       options=st.lists(st.sampled_from(sorted(EXTRA)), min_size=1, max_size=6).flatmap(
           lambda names: st.tuples(*[EXTRA[n].map(lambda v, n=n: (n, v)) for n in names])))
def test_random_search_command_lines_are_validated_in_one_line(command, options):
    """The searches run the accountant dozens of times: their validation is driven here, their answers by
    the tests below and in tests/test_calibrate.py."""
    argv = [command] + [x for pair in options for x in pair] + ["--bogus"]
    status, out, err = run_cli(argv)
    assert status == 2
    assert_contract(status, out, err)


# --- the property through the Python entry points ---------------------------------------------------

extreme_sigma = st.sampled_from([1e-9, 1e-3, 0.05, 0.8, 5.0, 1e8, 1e50])


@st.composite
def phase_fields(draw):
    """Phase fields that make a complete phase of a random sampling and noise (extreme but cheap values),
    then at most one field replaced by a value that contradicts or is out of range."""
    sampling = draw(st.sampled_from(["poisson", "fixed-size", "with-replacement", "full-batch", "shuffled"]))
    noise = draw(st.sampled_from(["gaussian", "gaussian", "laplace", "l2-knorm"]))
    fields = {"q": None, "sigma": draw(extreme_sigma), "steps": draw(st.sampled_from([1, 3, 20])),
              "sampling": sampling, "noise": noise, "dimension": 8 if noise == "l2-knorm" else None}
    if sampling == "poisson":
        fields["q"] = draw(st.sampled_from([1e-9, 1e-3, 0.5, 1.0]))
    elif sampling != "full-batch":
        fields["batch_size"], fields["dataset_size"] = draw(st.sampled_from([(1, 100), (5, 100), (200, 100)]))
    if draw(st.booleans()):
        name = draw(st.sampled_from(["q", "sigma", "steps", "batch_size", "dataset_size", "sampling", "dimension"]))
        fields[name] = draw(st.sampled_from([0.0, -1.0, 0.0125, 1.5, math.inf, math.nan, 2.5, 10 ** 12, 60000,
                                             "shuffled", None]))
    return fields


def api_contract(call):
    try:
        b = call()
    except (InvalidParameter, AccuracyNotReached) as exc:
        assert "\n" not in str(exc) and str(exc)
        return None
    low, up = (b.epsilon_lower, b.epsilon_upper) if hasattr(b, "epsilon_lower") else (b.delta_lower, b.delta_upper)
    assert 0 <= low <= up, b
    return b


def expensive(fields) -> bool:
    """A valid phase whose answer is a long accountant run (10^12 steps through a grid of a mixture)."""
    return fields["steps"] == 10 ** 12 and fields["sampling"] in ("fixed-size", "with-replacement", "shuffled")


@settings(max_examples=40)
@given(fields=phase_fields(), adjacency=st.sampled_from(["add-remove", "replace-one"]),
       target=st.sampled_from([1e-15, 1e-5, 0.3, 0.0, 1.0, 1e3, math.nan]), side=st.sampled_from(["eps", "delta"]))
def test_random_and_extreme_phases_through_the_api(fields, adjacency, target, side):
    if expensive(fields):
        fields = dict(fields, steps=3)
    try:
        schedule = Schedule((Phase(**fields),), adjacency)
    except InvalidParameter as exc:
        assert "\n" not in str(exc)
        return
    if side == "eps":
        api_contract(lambda: numerics.epsilon(schedule, target, rel_width=0.05))
    else:
        api_contract(lambda: numerics.delta(schedule, target, rel_width=0.05))


@settings(max_examples=25)
@given(history=st.lists(st.tuples(st.sampled_from([1e-9, 0.01, 1.0, 1.1, 1e50, math.nan]),
                                  st.sampled_from([1e-6, 0.01, 1.0, 2.0]), st.sampled_from([1, 10, -1])),
                        min_size=1, max_size=3))
def test_random_opacus_histories(history):
    api_contract(lambda: numerics.epsilon(history, 1e-5, rel_width=0.05))


# --- the invocations quoted in the issue ---------------------------------------------------------

BASE = ["--sigma", "1", "--steps", "10", "--delta", "1e-5"]

REFUSED = [
    (["epsilon", "--q", "0.5", "--batch-size", "256", "--dataset-size", "60000", *BASE], "contradicts"),
    (["epsilon", "--q", "0.5", "--q", "0.1", *BASE], "given twice"),
    (["epsilon", "--q", "0.5", "--sampling-rate", "0.1", *BASE], "given twice"),
    (["epsilon", "--sampling", "fixed-size", "--q", "0.0125", "--dataset-size", "100", *BASE], "q*dataset_size"),
    (["epsilon", "--q", "0.01", *BASE[:4], "--delta", "1e-20"], "[1e-15, 0.5]"),
    (["epsilon", "--q", "0.01", *BASE[:4], "--delta", "0.7"], "[1e-15, 0.5]"),
    (["epsilon", "--q", "0.01", *BASE[:4], "--epsilon", "1"], "delta command"),
    (["epsilon", "--q", "0.01", *BASE, "--scheduler", "tcp://x:1"], "no Dask scheduler"),
    (["epsilon", "--q", "0.01", *BASE, "--epochs", "2"], "--steps or --epochs"),
    (["epsilon", "--batch-size", "64", *BASE], "--dataset-size"),
    (["epsilon", "--sampling", "full-batch", "--batch-size", "5", "--dataset-size", "6", *BASE], "full batch"),
]


@pytest.mark.parametrize("argv, words", REFUSED, ids=[" ".join(a[1:5]) for a, _ in REFUSED])
def test_conflicting_and_out_of_range_inputs_are_refused(argv, words):
    status, out, err = run_cli(argv)
    assert status == 2, err
    assert_contract(status, out, err)
    assert words in err


def test_errors_name_the_program_the_user_ran():
    _, _, err = run_cli(["epsilon", "--q", "2", *BASE], prog="dpverify")
    assert err.startswith("dpverify: error: q must lie in (0, 1]")
    _, _, err = run_cli(["epsilon", "--q", "2", *BASE])
    assert err.startswith("python -m numerics: error: ")


def test_phase_refuses_a_rate_that_contradicts_its_sizes():
    with pytest.raises(InvalidParameter, match="contradicts"):
        Phase(0.5, 1, 10, batch_size=64, dataset_size=60000)
    with pytest.raises(InvalidParameter, match="q\\*dataset_size"):
        Phase(0.0125, 1, 10, sampling="fixed-size", dataset_size=100)
    assert Phase(0.02, 1, 10, sampling="fixed-size", dataset_size=100).batch_size == 2
    assert Phase(64 / 60000, 1, 10, batch_size=64, dataset_size=60000).q == 64 / 60000


def test_with_replacement_more_draws_than_records_names_the_sizes_not_q():
    p = Phase.with_replacement(batch_size=200, dataset_size=100, sigma=4.0, steps=2)
    assert p.q == 1.0 and p.batch_size == 200
    status, out, err = run_cli(["epsilon", "--sampling", "with-replacement", "--batch-size", "200",
                                "--dataset-size", "100", "--sigma", "1", "--steps", "10", "--delta", "1e-5"])
    assert_contract(status, out, err)
    assert "q must lie" not in err


def test_tiny_sigma_answers_with_an_upper_bound_and_says_why():
    """--sigma 1e-6 was a MemoryError (362 TiB): now the RDP upper bound, with the range it is outside."""
    status, out, err = run_cli(["epsilon", "--q", "1e-3", "--sigma", "1e-6", "--steps", "10", "--delta", "1e-5",
                                "--json"])
    assert status == 0, err
    j = json.loads(out)
    assert j["method"] == "rdp" and j["epsilon_lower"] == 0 and j["epsilon_upper"] > 1e10
    assert "sigma >= " in j["details"]["note"] and j["sampling"] == "poisson" and j["noise"] == "gaussian"


def test_tiny_sigma_without_a_fallback_fails_in_one_line_naming_sigma():
    status, out, err = run_cli(["epsilon", "--sampling", "fixed-size", "--batch-size", "1", "--dataset-size", "1000",
                                "--sigma", "1e-6", "--steps", "10", "--delta", "1e-5"])
    assert status == 1 and "sigma=1e-06" in err and "sigma >= " in err
    assert_contract(status, out, err)


def test_q_one_is_a_full_batch_in_closed_form():
    """--q 1 --sigma 0.01 --steps 1000 was an OverflowError; --phase 1,10,100 went through the grid."""
    status, out, err = run_cli(["epsilon", "--q", "1", "--sigma", "0.01", "--steps", "1000", "--delta", "1e-5",
                                "--json"])
    assert status == 0, err
    j = json.loads(out)
    assert j["method"] == "analytic-gaussian" and 5.0e6 < j["epsilon_lower"] <= j["epsilon_upper"] < 5.03e6
    as_phase = numerics.epsilon(Schedule((Phase(1.0, 10.0, 100),)), 1e-5)
    full = numerics.epsilon(Schedule((Phase.full_batch(sigma=10.0, steps=100),)), 1e-5)
    assert (as_phase.epsilon_lower, as_phase.epsilon_upper) == (full.epsilon_lower, full.epsilon_upper)
    assert as_phase.relative_width < 1e-9 and "full batch" in as_phase.details["note"]


def test_a_swapped_opacus_history_answers_instead_of_overflowing():
    """[(0.01, 1.0, 1000)] read as (noise_multiplier, sample_rate, steps): sigma 0.01 on full batches."""
    b = numerics.epsilon([(0.01, 1.0, 1000)], 1e-5)
    assert 5.0e6 < b.epsilon_lower <= b.epsilon_upper < 5.03e6


def test_method_all_keeps_every_row_when_one_method_fails():
    status, out, err = run_cli(["epsilon", "--q", "1e-3", "--sigma", "1e-6", "--steps", "10", "--delta", "1e-5",
                                "--method", "all", "--json"])
    assert status == 0, err
    j = json.loads(out)
    assert set(j["methods"]) == {"pld", "rdp", "gdp-clt"}
    assert j["methods"]["rdp"]["epsilon_upper"] > 0
    assert "error" in j["methods"]["gdp-clt"]  # its float range is exceeded: said in its row, one line


def test_every_answer_names_sampling_noise_adjacency_and_delta():
    status, out, _ = run_cli(["epsilon", "--batch-size", "10", "--dataset-size", "1000", "--sigma", "1",
                              "--steps", "10", "--delta", "1e-5"])
    assert status == 0
    assert "sampling poisson q=0.01 (B=10 of N=1000)" in out and "noise gaussian sigma=1" in out
    assert "adjacency add-remove" in out and "delta=1e-05" in out
    status, out, _ = run_cli(["delta", "--sampling", "fixed-size", "--batch-size", "10", "--dataset-size", "1000",
                              "--sigma", "1", "--steps", "10", "--epsilon", "1", "--json"])
    j = json.loads(out)
    assert (j["sampling"], j["noise"], j["adjacency"], j["epsilon"]) == ("fixed-size", "gaussian", "add-remove", 1.0)


def test_epochs_rule_per_sampling():
    steps = {}
    for sampling in ("poisson", "fixed-size", "with-replacement"):
        status, out, err = run_cli(["epsilon", "--sampling", sampling, "--batch-size", "30", "--dataset-size", "100",
                                    "--sigma", "2", "--epochs", "2", "--delta", "1e-5", "--json", "--rel-width", "0.05"])
        assert status == 0, err
        j = json.loads(out)
        steps[sampling] = j["schedule"]["phases"][0]["steps"]
        assert "steps = ceil(epochs" in j["steps_rule"]
    assert steps == {"poisson": 7, "fixed-size": 8, "with-replacement": 8}  # ceil(2/0.3), 2 * ceil(100/30)


def test_repr_of_bounds_is_short():
    b = numerics.epsilon(Schedule.constant(q=0.01, sigma=1.0, steps=10), 1e-5)
    assert "refinements=" not in repr(b) and "details={" in repr(b) and len(repr(b)) < 400


@pytest.mark.parametrize("sampling, adjacency", [("fixed-size", "add-remove"), ("with-replacement", "add-remove"),
                                                 ("full-batch", "replace-one")])
def test_calibrate_sigma_every_sampling_is_certified_with_its_slack(sampling, adjacency):
    extra = [] if sampling == "full-batch" else ["--batch-size", "20", "--dataset-size", "100"]
    status, out, err = run_cli(["calibrate-sigma", "--sampling", sampling, *extra, "--steps", "4", "--delta", "1e-5",
                                "--epsilon", "3", "--adjacency", adjacency, "--json"])
    assert status == 0, err
    j = json.loads(out)
    assert j["epsilon_upper"] <= 3.0 and j["slack"] == 3.0 - j["epsilon_upper"] >= 0
    assert j["sampling"] == sampling and j["adjacency"] == adjacency
    phase = Phase(None if sampling != "full-batch" else 1.0, j["sigma"], 4, sampling, "gaussian",
                  *((20, 100) if extra else (None, None)))
    again = numerics.epsilon(Schedule((phase,), adjacency), 1e-5)
    assert again.epsilon_upper <= 3.0  # re-checked independently


def test_critical_steps_takes_adjacency_and_mechanism():
    status, out, err = run_cli(["critical-steps", "--q", "1", "--sigma", "5", "--delta", "1e-5", "--epsilon", "3",
                                "--adjacency", "replace-one", "--json"])
    assert status == 0, err
    j = json.loads(out)
    # replace-one on full batches is the Gaussian mechanism with shift 2: mu = 2 sqrt(T) / sigma
    from scipy.stats import norm

    def exact_delta(t):
        mu = 2 * math.sqrt(t) / 5.0
        return norm.cdf(-3 / mu + mu / 2) - math.exp(3) * norm.cdf(-3 / mu - mu / 2)
    assert exact_delta(j["steps"]) <= 1e-5 < exact_delta(j["steps_exceeding"])
    assert j["adjacency"] == "replace-one" and j["slack"] >= 0


@pytest.mark.slow
def test_long_run_answers_certified_with_every_method_row():
    """T = 10^6, q = 1e-3, sigma 1, delta 1e-5 (issue 33 item 1): a certified bracket, all three rows."""
    status, out, err = run_cli(["epsilon", "--q", "1e-3", "--sigma", "1", "--steps", "1000000", "--delta", "1e-5",
                                "--method", "all", "--json"])
    assert status == 0, err
    rows = json.loads(out)["methods"]
    pld, rdp = rows["pld"], rows["rdp"]
    assert pld["certified"] and 5.9 < pld["epsilon_lower"] <= pld["epsilon_upper"] < 6.1
    assert pld["epsilon_upper"] <= rdp["epsilon_upper"] and "error" not in rows["gdp-clt"]


@pytest.mark.slow
def test_small_sigma_answers_with_a_certified_bracket():
    """--q .01 --sigma 0.05 was AccuracyNotReached without a hint."""
    status, out, err = run_cli(["epsilon", "--q", ".01", "--sigma", "0.05", "--steps", "1000", "--delta", "1e-5",
                                "--json"])
    assert status == 0, err
    j = json.loads(out)
    assert j["certified"] and 0 < j["epsilon_lower"] <= j["epsilon_upper"]
