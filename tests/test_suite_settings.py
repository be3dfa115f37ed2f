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
