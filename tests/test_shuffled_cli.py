"""The command line of shuffled batches: an answer naming epochs and Poisson's number, or one line, exit 2."""
from __future__ import annotations

import json

import pytest

import numerics
from numerics import cli
from numerics.schedule import Phase, Schedule

BASE = ("--sampling", "shuffled", "--batch-size", "64", "--dataset-size", "6400", "--sigma", "1.0", "--delta", "1e-5")


def test_epsilon_json_is_the_accountants_bracket(capsys):
    assert cli.main(["epsilon", *BASE, "--epochs", "3", "--adjacency", "replace-one", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    direct = numerics.epsilon(Schedule((Phase.shuffled(batch_size=64, dataset_size=6400, sigma=1.0, steps=300),),
                                       "replace-one"), 1e-5)
    assert out["sampling"] == "shuffled" and out["adjacency"] == "replace-one"
    assert (out["epsilon_lower"], out["epsilon_upper"]) == (direct.epsilon_lower, direct.epsilon_upper)


def test_text_names_epochs_and_poisson(capsys):
    assert cli.main(["epsilon", *BASE, "--steps", "300", "--adjacency", "replace-one"]) == 0
    text = capsys.readouterr().out
    assert "3 epochs of ceil(N/B) = 100 steps" in text and "Poisson sampling at the same B/N" in text


@pytest.mark.parametrize("argv,word", [
    (("epsilon", *BASE, "--steps", "10"), "replace-one"),
    (("epsilon", "--sampling", "shuffled", "--dataset-size", "10", "--sigma", "1", "--steps", "3", "--delta", "1e-5",
      "--adjacency", "replace-one"), "batch-size"),
    (("epsilon", "--sampling", "shuffled", "--batch-size", "11", "--dataset-size", "10", "--sigma", "1", "--steps",
      "3", "--delta", "1e-5", "--adjacency", "replace-one"), "batch_size"),
    (("epsilon", *BASE, "--steps", "10", "--adjacency", "replace-one", "--noise", "laplace"), "Gaussian"),
])
def test_refusals_are_one_line_exit_2(capsys, argv, word):
    assert cli.main(list(argv)) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and word in err and "Traceback" not in err


def test_critical_steps_replace_one_answers(capsys):
    """critical-steps with shuffled batches answers (it once searched the weak lower bound to 10^8 steps and
    failed after minutes): the largest T whose certified upper epsilon meets the target, checked against the
    accountant at T and T + 1, with Poisson's number beside it at the answer."""
    argv = ["critical-steps", "--sampling", "shuffled", "--batch-size", "256", "--dataset-size", "60000",
            "--sigma", "4", "--epsilon", "2", "--delta", "1e-5", "--adjacency", "replace-one", "--json"]
    assert cli.main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    steps = out["steps"]
    assert steps > 0

    def upper(t):
        return numerics.epsilon(Schedule((Phase.shuffled(batch_size=256, dataset_size=60000, sigma=4.0, steps=t),),
                                         "replace-one"), 1e-5)
    at = upper(steps)
    assert at.epsilon_upper <= 2 < upper(steps + 1).epsilon_upper
    assert at.details["poisson_epsilon_upper"] is not None
