"""The entry points a new user meets first, driven through a subprocess as a user would type them."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _run(*args, cwd=ROOT):
    # the timeout is a hang guard, never a speed test: a loaded machine stretches imports 10x
    return subprocess.run([sys.executable, *args], cwd=cwd, capture_output=True, text=True, timeout=600)


def test_figures_help_lists_every_target():
    from figures.run import all_targets

    res = _run("-m", "figures.run", "--help")
    assert res.returncode == 0, res.stderr
    for target in all_targets():
        assert f"  {target}\n" in res.stdout + "\n"


def test_figures_unknown_target_is_one_line_exit_2():
    res = _run("-m", "figures.run", "fig-999-zz")
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1


def test_repro_missing_config_is_one_line_exit_2(tmp_path):
    res = _run("-m", "repro", "run", str(tmp_path / "missing.json"))
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert res.stderr.strip().splitlines() == [f"error: config file {tmp_path / 'missing.json'} does not exist"]


def test_repro_malformed_config_names_the_problem(tmp_path):
    bad_json = tmp_path / "bad.json"
    bad_json.write_text("not json")
    unknown_key = tmp_path / "key.json"
    unknown_key.write_text(json.dumps({"bogus": 1}))
    bad_value = tmp_path / "value.json"
    bad_value.write_text(json.dumps({"sampling": "zzz"}))
    for path, expected in ((bad_json, "not valid JSON"), (unknown_key, "bogus"), (bad_value, "sampling must be one of")):
        res = _run("-m", "repro", "run", str(path))
        assert res.returncode == 2 and "Traceback" not in res.stderr, res.stderr
        assert len(res.stderr.strip().splitlines()) == 1 and expected in res.stderr


def test_make_help_lists_the_targets():
    res = subprocess.run(["make", "-s", "help"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    for target in ("report", "test", "test-all", "figures", "bench", "notebooks"):
        assert f"make {target}" in res.stdout


def test_schedule_from_phases_refuses_a_bare_triple_in_a_user_script(tmp_path):
    # Opacus writes (noise_multiplier, sample_rate, steps): a bare triple is refused, in one line
    script = ("import sys\nfrom numerics.errors import InvalidParameter\nfrom numerics.schedule import Schedule\n"
              "try:\n    Schedule.from_phases([(1.1, 0.01, 1000)])\n"
              "except InvalidParameter as e:\n    print(e); sys.exit(2)\n")
    res = _run("-c", script)
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert "ambiguous" in res.stdout and "noise_multiplier, sample_rate, steps" in res.stdout
