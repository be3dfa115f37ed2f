"""The test run's own settings: hypothesis is derandomised under CI, and the slow checks are marked, not lost."""

import importlib.util
import os
from pathlib import Path

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parent.parent


def _root_conftest():
    spec = importlib.util.spec_from_file_location("root_conftest", ROOT / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    "environ, profile",
    [
        ({}, "dev"),
        ({"CI": "true"}, "ci"),
        ({"CI": "1"}, "ci"),
        ({"CI": "false"}, "dev"),
        ({"CI": ""}, "dev"),
        ({"CI": "true", "HYPOTHESIS_PROFILE": "dev"}, "dev"),
        ({"HYPOTHESIS_PROFILE": "ci"}, "ci"),
    ],
)
def test_the_profile_follows_the_environment(environ, profile):
    assert _root_conftest().hypothesis_profile(environ) == profile


def test_the_ci_profile_draws_the_same_examples_every_run():
    ci, dev = settings.get_profile("ci"), settings.get_profile("dev")
    assert ci.derandomize and ci.database is None
    assert not dev.derandomize
    assert ci.max_examples == dev.max_examples and ci.deadline is None and dev.deadline is None


def test_the_dev_profile_stays_random_when_the_settings_load_twice_under_ci(monkeypatch):
    """Registering the profiles again while "ci" is loaded must not hand "dev" ci's derandomisation."""
    monkeypatch.setenv("HYPOTHESIS_PROFILE", "ci")
    try:
        _root_conftest()  # registers both profiles and loads "ci"
        _root_conftest()  # again, now that "ci" is the loaded profile
        assert not settings.get_profile("dev").derandomize
        assert settings.get_profile("ci").derandomize
    finally:
        monkeypatch.undo()
        settings.load_profile(_root_conftest().hypothesis_profile(os.environ))


def test_ci_runs_the_readme_s_test_command_verbatim_then_the_slow_checks_and_the_site():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    commands = [line for line in readme.split("```sh\n", 1)[1].split("```", 1)[0].splitlines() if line.strip()]
    assert len(commands) == 2 and commands[1].endswith(".venv/bin/python -m pytest")
    lines = [line.strip() for line in ci.splitlines()]
    at = lines.index(commands[1])  # the README's test command, verbatim, on a line of its own
    slow = lines.index(".venv/bin/python -m pytest -m slow")
    site = next(i for i, line in enumerate(lines) if "mkdocs build --strict" in line)
    assert at < slow < site
    assert ci.count("pytest_status") >= 4  # every pytest step: exit 5 (no tests) fails the run


def test_the_readme_s_first_command_installs_fnmcts_alone_with_hypothesis_a_core_dependency():
    tomllib = pytest.importorskip("tomllib")  # Python 3.11 on

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first = [line for line in readme.split("```sh\n", 1)[1].split("```", 1)[0].splitlines() if line.strip()][0]
    assert ".venv/bin/pip install -q -e . &&" in first and "[" not in first, first  # no extra: the classroom's install
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    core = {dependency.split(">")[0].split("=")[0].strip() for dependency in project["dependencies"]}
    assert "hypothesis" in core  # fnmcts check, fnmcts exercise check and fnmcts.testing's strategies draw with it
    assert not core & {"numpy", "numba", "selenium", "matplotlib", "dask", "open_spiel"}
