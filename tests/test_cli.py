"""The CLI contract (issue 3, section 3): JSON keys, bounds with their direction, and bad input that
exits with status 2 and one line naming the parameter, never a traceback and never a number."""
import contextlib
import io
import json
import math
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from numerics import cli
from tests.strategies import invalid_deltas, invalid_q_rates, invalid_sigmas, invalid_steps, q_rates, sigmas

BASE = ["--q", "0.01", "--sigma", "1", "--steps", "100"]


def run(capsys, *argv):
    status = cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


# --- bad input: validated before any accountant is imported, so these run without the accountants ---

BAD = [
    (["epsilon", "--q", "0.01", "--sigma", "nan", "--steps", "10", "--delta", "1e-5"], "sigma"),
    (["epsilon", "--q", "0.01", "--sigma", "0", "--steps", "10", "--delta", "1e-5"], "sigma"),
    (["epsilon", "--q", "0.01", "--sigma", "-1", "--steps", "10", "--delta", "1e-5"], "sigma"),
    (["epsilon", "--q", "0", "--sigma", "1", "--steps", "10", "--delta", "1e-5"], "q"),
    (["epsilon", "--q", "1.5", "--sigma", "1", "--steps", "10", "--delta", "1e-5"], "q"),
    (["epsilon", "--q", "nan", "--sigma", "1", "--steps", "10", "--delta", "1e-5"], "q"),
    (["epsilon", *BASE[:4], "--steps", "10.5", "--delta", "1e-5"], "steps"),
    (["epsilon", *BASE[:4], "--steps", "0", "--delta", "1e-5"], "steps"),
    (["epsilon", *BASE[:4], "--steps", "-3", "--delta", "1e-5"], "steps"),
    (["epsilon", *BASE[:4], "--steps", "ten", "--delta", "1e-5"], "steps"),
    (["epsilon", *BASE, "--delta", "0"], "delta"),
    (["epsilon", *BASE, "--delta", "1"], "delta"),
    (["epsilon", *BASE, "--delta", "nan"], "delta"),
    (["epsilon", *BASE], "delta"),                                   # missing required option
    (["epsilon", "--sigma", "1", "--steps", "10", "--delta", "1e-5"], "q"),
    (["epsilon", *BASE, "--delta", "1e-5", "--method", "moments"], "method"),
    (["epsilon", *BASE, "--delta", "1e-5", "--adjacency", "swap"], "adjacency"),
    (["epsilon", *BASE, "--delta", "1e-5", "--rel-width", "0"], "rel-width"),
    (["epsilon", "--phase", "0.1,1", "--delta", "1e-5"], "phase"),
    (["epsilon", "--phase", "0.1,1,5,7", "--delta", "1e-5"], "phase"),
    (["epsilon", "--phase", "0.1,x,5", "--delta", "1e-5"], "sigma"),
    (["epsilon", "--phase", "noise_multiplier=1,q=0.1,steps=5", "--delta", "1e-5"], "phase"),
    (["epsilon", "--phase", "q=0.1,1,steps=5", "--delta", "1e-5"], "phase"),
    (["epsilon", "--phase", "0.1,1,5", *BASE, "--delta", "1e-5"], "phase"),
    (["delta", *BASE, "--epsilon", "-1"], "epsilon"),
    (["delta", *BASE], "epsilon"),
    (["calibrate-sigma", "--q", "0.01", "--steps", "100", "--delta", "2", "--epsilon", "1"], "delta"),
    (["calibrate-sigma", "--q", "0.01", "--steps", "1.5", "--delta", "1e-5", "--epsilon", "1"], "steps"),
    (["critical-steps", "--q", "0.01", "--sigma", "inf", "--delta", "1e-5", "--epsilon", "1"], "sigma"),
    (["critical-steps", "--q", "0.01", "--sigma", "1", "--delta", "1e-5"], "epsilon"),
    (["epsilon", *BASE, "--delta", "1e-5", "--unknown-flag"], "unknown-flag"),
    (["frobnicate"], "frobnicate"),
    ([], "command"),
]


@pytest.mark.parametrize("argv,name", BAD, ids=[" ".join(a) or "no-command" for a, _ in BAD])
def test_bad_input_exits_2_with_one_line(capsys, argv, name):
    status, out, err = run(capsys, *argv)
    assert status == 2
    assert out == ""                                    # never a number
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert name in lines[0]
    assert "Traceback" not in err


def test_bad_input_messages_state_the_allowed_range(capsys):
    _, _, err = run(capsys, "epsilon", "--q", "2", "--sigma", "1", "--steps", "1", "--delta", "0.1")
    assert "(0, 1]" in err
    _, _, err = run(capsys, "epsilon", *BASE, "--delta", "1.5")
    assert "[1e-15, 0.5]" in err
    _, _, err = run(capsys, "epsilon", *BASE[:2], "--sigma", "-2", "--steps", "1", "--delta", "0.1")
    assert "> 0" in err
    _, _, err = run(capsys, "epsilon", *BASE[:4], "--steps", "2.5", "--delta", "0.1")
    assert "positive integer" in err


def test_module_entry_point_bad_input_is_one_line_exit_2():
    # the timeout is a hang guard, never a speed test: a loaded machine stretches imports 10x
    proc = subprocess.run([sys.executable, "-m", "numerics", "epsilon", "--q", "0.5", "--sigma", "nan",
                           "--steps", "10", "--delta", "1e-5", "--json"],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert len(proc.stderr.strip().splitlines()) == 1 and "sigma" in proc.stderr


# --- happy path: the accountants --------------------------------------------------------------------

def _json(capsys, *argv):
    status, out, err = run(capsys, *argv, "--json")
    assert status == 0, err
    return json.loads(out)


def test_epsilon_pld_json_matches_the_accountant(capsys):
    from numerics import pld
    from numerics.schedule import Schedule

    got = _json(capsys, "epsilon", *BASE, "--delta", "1e-5", "--method", "pld")
    for key in ("epsilon_lower", "epsilon_upper", "delta", "method", "adjacency", "certified"):
        assert key in got
    import numerics
    direct = numerics.epsilon(Schedule.constant(q=0.01, sigma=1.0, steps=100), 1e-5, rel_width=1e-3)
    assert got["epsilon_upper"] == direct.epsilon_upper
    assert got["epsilon_lower"] == direct.epsilon_lower
    other = pld.epsilon_pld(Schedule.constant(q=0.01, sigma=1.0, steps=100), 1e-5, rel_width=1e-3)
    assert other.epsilon_lower <= got["epsilon_upper"] and got["epsilon_lower"] <= other.epsilon_upper
    assert got["certified"] is True and got["adjacency"] == "add-remove"
    assert 0 < got["epsilon_lower"] <= got["epsilon_upper"]


def test_epsilon_method_all_gives_one_object_per_method(capsys):
    got = _json(capsys, "epsilon", *BASE, "--delta", "1e-5", "--method", "all")
    assert set(got["methods"]) == {"pld", "rdp", "gdp-clt"}
    for name, obj in got["methods"].items():
        assert obj["method"]
        assert obj["epsilon_lower"] <= obj["epsilon_upper"]
    assert got["methods"]["gdp-clt"]["certified"] is False
    # an upper bound (RDP) never lies below a certified lower bound (PLD)
    assert got["methods"]["rdp"]["epsilon_upper"] >= got["methods"]["pld"]["epsilon_lower"]


def test_epsilon_heterogeneous_phases_and_adjacency(capsys):
    one = _json(capsys, "epsilon", "--phase", "0.01,2,50", "--delta", "1e-5")
    two = _json(capsys, "epsilon", "--phase", "0.01,2,50", "--phase", "0.02,1,50", "--delta", "1e-5")
    assert len(two["schedule"]["phases"]) == 2
    assert two["epsilon_lower"] > one["epsilon_upper"]            # more steps, more privacy loss
    ro = _json(capsys, "epsilon", "--phase", "0.01,2,50", "--delta", "1e-5", "--adjacency", "replace-one")
    assert ro["adjacency"] == "replace-one"
    assert ro["epsilon_upper"] >= one["epsilon_lower"]


def test_epsilon_human_output_says_which_side(capsys):
    status, out, _ = run(capsys, "epsilon", *BASE, "--delta", "1e-5")
    assert status == 0
    assert "epsilon_lower=" in out and "epsilon_upper=" in out and "certified" in out
    assert "add-remove" in out and "pld" in out


def test_delta_json(capsys):
    got = _json(capsys, "delta", *BASE, "--epsilon", "1.0")
    assert 0 <= got["delta_lower"] <= got["delta_upper"] < 1


def test_calibrate_sigma_and_critical_steps_json(capsys):
    got = _json(capsys, "calibrate-sigma", "--q", "0.01", "--steps", "1000", "--delta", "1e-5",
                "--epsilon", "1.0")
    sigma = got["sigma"]
    assert math.isfinite(sigma) and sigma > 0
    check = _json(capsys, "epsilon", "--q", "0.01", "--sigma", repr(sigma), "--steps", "1000",
                  "--delta", "1e-5")
    assert check["epsilon_upper"] <= 1.0                     # the calibrated sigma is private
    got = _json(capsys, "critical-steps", "--q", "0.01", "--sigma", "1", "--delta", "1e-5", "--epsilon", "1.0")
    assert isinstance(got["steps"], int) and got["steps"] >= 1
    check = _json(capsys, "epsilon", "--q", "0.01", "--sigma", "1", "--steps", str(got["steps"]),
                  "--delta", "1e-5")
    assert check["epsilon_upper"] <= 1.0


# --- property: any single invalid value exits 2 with one line naming it -----------------------------
VALID = {"q": "0.01", "sigma": "1", "steps": "10", "delta": "1e-5"}


@given(name_value=st.one_of(invalid_q_rates.map(lambda v: ("q", v)), invalid_sigmas.map(lambda v: ("sigma", v)),
                            invalid_deltas.map(lambda v: ("delta", v)), invalid_steps.map(lambda v: ("steps", v))))
def test_any_invalid_value_exits_2_naming_the_parameter(name_value):
    name, value = name_value
    opts = dict(VALID, **{name: repr(value) if isinstance(value, float) else str(value)})
    argv = ["epsilon"] + [x for k, v in opts.items() for x in (f"--{k}", v)]
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()) as out:
        status = cli.main(argv)
    assert status == 2, (argv, err.getvalue())
    assert out.getvalue() == ""
    lines = err.getvalue().strip().splitlines()
    assert len(lines) == 1 and name in lines[0]
    assert "got" in lines[0]            # the validator's message (value and range), not argparse's


@given(q=q_rates, sigma=sigmas)
def test_valid_phase_strings_parse_to_the_same_schedule(q, sigma):
    from numerics.schedule import Schedule

    args = cli.build_parser().parse_args(["epsilon", "--phase", f"{q!r},{sigma!r},7", "--delta", "0.1"])
    assert cli._schedule(args) == Schedule.constant(q=q, sigma=sigma, steps=7)


@pytest.mark.parametrize("adjacency", ["add-remove", "replace-one"])
def test_clt_and_rdp_text_say_which_side(capsys, adjacency):
    """STYLE 1: the CLT number is printed as an estimate, never as a bound; RDP as an upper bound only."""
    status, out, _ = run(capsys, "epsilon", *BASE, "--delta", "1e-5", "--method", "gdp-clt",
                         "--adjacency", adjacency)
    assert status == 0 and "estimate, not a certified bound" in out and adjacency in out
    status, out, _ = run(capsys, "epsilon", *BASE, "--delta", "1e-5", "--method", "rdp", "--adjacency", adjacency)
    assert status == 0 and "certified upper bound; the lower bound is the trivial 0" in out


# --- issue 18: mechanisms, aliases, version, the three invocations that used to fail ----------------

MECH_BAD = [
    (["epsilon", "--sampling", "shuffle", *BASE, "--delta", "1e-5"], "sampling"),
    (["epsilon", "--noise", "cauchy", *BASE, "--delta", "1e-5"], "noise"),
    (["epsilon", "--sampling", "fixed-size", "--sigma", "1", "--steps", "3", "--delta", "1e-5"], "batch-size"),
    (["epsilon", "--sampling", "fixed-size", "--batch-size", "9", "--dataset-size", "4", "--sigma", "1",
      "--steps", "3", "--delta", "1e-5"], "batch_size"),
    (["epsilon", "--sampling", "poisson", "--noise", "laplace", *BASE, "--delta", "1e-5", "--adjacency",
      "replace-one"], "laplace"),
    (["epsilon", "--sampling", "full-batch", "--noise", "l2-knorm", "--sigma", "1", "--steps", "3",
      "--delta", "1e-5"], "dimension"),
    (["epsilon", "--sampling", "full-batch", "--q", "0.5", "--sigma", "1", "--steps", "3", "--delta", "1e-5"], "q"),
    (["epsilon", "--noise", "laplace", "--dimension", "3", *BASE, "--delta", "1e-5"], "dimension"),
]


@pytest.mark.parametrize("argv,name", MECH_BAD, ids=[" ".join(a[:4]) for a, _ in MECH_BAD])
def test_mechanism_bad_input_exits_2_with_one_line(capsys, argv, name):
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and name in err


def test_aliases_and_dataset_size_give_the_same_schedule(capsys):
    _, a, _ = run(capsys, "epsilon", "--q", "0.01", "--sigma", "1", "--steps", "100", "--delta", "1e-5", "--json")
    _, b, _ = run(capsys, "epsilon", "--sampling-rate", "0.01", "--noise-multiplier", "1", "--steps", "100",
                  "--delta", "1e-5", "--json")
    _, c, _ = run(capsys, "epsilon", "--batch-size", "10", "--dataset-size", "1000", "--sigma", "1",
                  "--steps", "100", "--delta", "1e-5", "--json")
    ja, jb, jc = json.loads(a), json.loads(b), json.loads(c)
    assert ja["epsilon_upper"] == jb["epsilon_upper"] == jc["epsilon_upper"]


def test_fixed_size_replace_one_json(capsys):
    status, out, _ = run(capsys, "epsilon", "--sampling", "fixed-size", "--batch-size", "10", "--dataset-size",
                         "1000", "--sigma", "1.1", "--steps", "200", "--delta", "1e-5", "--adjacency", "replace-one",
                         "--json")
    j = json.loads(out)
    assert status == 0 and 0 < j["epsilon_lower"] < j["epsilon_upper"]
    assert j["schedule"]["phases"][0]["sampling"] == "fixed-size" and j["adjacency"] == "replace-one"


def test_version(capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out.startswith("dpverify ")


@pytest.mark.parametrize("argv", [
    ["epsilon", "--q", "0.01", "--sigma", "0.3", "--steps", "1000", "--delta", "1e-5", "--method", "all", "--json"],
    ["delta", "--q", "0.01", "--sigma", "1", "--steps", "1000", "--epsilon", "0", "--json"],
])
def test_invocations_that_used_to_raise(capsys, argv):
    status, out, err = run(capsys, *argv)
    assert status == 0, err
    j = json.loads(out)
    if "methods" in j:
        assert all("error" not in m for m in j["methods"].values())
    else:
        assert 0 < j["delta_lower"] <= j["delta_upper"] < 1   # the total-variation distance


@pytest.mark.slow
def test_sigma_03_one_hundred_thousand_steps(capsys):
    status, out, err = run(capsys, "epsilon", "--q", "0.01", "--sigma", "0.3", "--steps", "100000",
                           "--delta", "1e-5", "--json")
    assert status == 0, err
    j = json.loads(out)
    assert 0 < j["epsilon_lower"] <= j["epsilon_upper"] < math.inf


def test_a_phase_may_name_its_fields_in_any_order(capsys):
    plain = _json(capsys, "epsilon", "--phase", "0.01,2,50", "--delta", "1e-5")
    named = _json(capsys, "epsilon", "--phase", "sigma=2,steps=50,q=0.01", "--delta", "1e-5")
    assert named["epsilon_upper"] == plain["epsilon_upper"] and named["schedule"] == plain["schedule"]


def test_critical_steps_never_calls_an_uncertified_bracket_certified(capsys, monkeypatch):
    """A29C: critical-steps said 'certified epsilon_upper' for a bracket with certified false (then Laplace noise,
    enclosed since h29e) and its JSON had no flag. No route is uncertified today, so the bracket is made so."""
    import dataclasses

    from numerics import calibrate

    real = calibrate.critical_steps_bracket

    def uncertified(**kw):
        got = real(**kw)
        return dict(got, bounds=dataclasses.replace(got["bounds"], certified=False))

    monkeypatch.setattr(calibrate, "critical_steps_bracket", uncertified)
    argv = ("critical-steps", "--sampling", "full-batch", "--noise", "laplace", "--sigma", "20", "--delta", "1e-5",
            "--epsilon", "1")
    assert _json(capsys, *argv)["certified"] is False
    code, out, _ = run(capsys, *argv)
    assert code == 0 and "certified epsilon_upper" not in out and "whose epsilon_upper" in out
