"""Test-run settings for the whole suite: hypothesis profiles, and doctests of optional extras.

Hypothesis runs under one of two profiles (``hypothesis_profile`` picks it):

- ``dev``, the default: new examples every run, remembered in ``.hypothesis/``
  so a failure found once is tried first next time;
- ``ci``, under continuous integration (``CI`` set) or when asked for with
  ``HYPOTHESIS_PROFILE=ci``: derandomised (each test draws the same examples on
  every run and every machine) and without the example database, so a CI run
  can be repeated exactly.

Both give every test as long as it needs (no deadline: the machine is shared)
and 60 examples unless the test says otherwise.
"""

import os
import sys
from importlib.util import find_spec

import pytest
from hypothesis import HealthCheck, settings

# Both from hypothesis's own defaults, never from the profile loaded now (this file may run twice).
settings.register_profile(
    "dev",
    parent=settings.get_profile("default"),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    max_examples=60,
    derandomize=False,
)
settings.register_profile(
    "ci", parent=settings.get_profile("dev"), derandomize=True, database=None, print_blob=True
)


def hypothesis_profile(environ) -> str:
    """The hypothesis profile for a run with the environment ``environ``.

    >>> hypothesis_profile({}), hypothesis_profile({"CI": "true"})
    ('dev', 'ci')
    >>> hypothesis_profile({"CI": "true", "HYPOTHESIS_PROFILE": "dev"})
    'dev'
    """
    chosen = environ.get("HYPOTHESIS_PROFILE")
    if chosen:
        return chosen
    return "ci" if environ.get("CI", "").strip().lower() not in ("", "0", "false", "no") else "dev"


settings.load_profile(hypothesis_profile(os.environ))

# Compiled bytecode is written even where the environment says not to (PYTHONDONTWRITEBYTECODE): the suite
# starts hundreds of fnmcts processes and imports its test modules once per worker, and without it each one
# compiles every module again (0.8 s for a command that takes 0.3 s with it).
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

# No search of the suite starts a process to compile the rules loop (``_rules_kernel.compile_elsewhere``): the suite
# compiles it itself, and its own test (tests/test_compile_elsewhere.py) clears this in the process it starts.
os.environ["FNMCTS_COMPILE_ELSEWHERE"] = "0"

# the site's mkdocs hooks need mkdocs (the docs extra), and are no module of fnmcts: never collected
collect_ignore = ["docs/hooks.py"]
collect_ignore_glob = ["fnmcts/exercises/files/*.py"]  # the exercise files: stubs for students to copy, not modules of fnmcts
if find_spec("numba") is None:  # the compiled loop's body imports Numba (the fast extra): without it, nothing to collect
    collect_ignore += ["fnmcts/mcts/_compiled.py", "fnmcts/games/_breakthrough_rules.py"]

# file, from the top of the repository (or one doctest, by name) -> (the package its doctests need, the extra that installs it)
OPTIONAL = {"fnmcts/openspiel.py": ("pyspiel", "openspiel"), "docs/openspiel.md": ("pyspiel", "openspiel"),
            "docs/search-options.md": ("pyspiel", "openspiel"),  # its decisive playouts' example is OpenSpiel's hex
            # one doctest of a module that needs no extra, by its name: its example is an OpenSpiel game
            "fnmcts.mcts._options.kind_defaults": ("pyspiel", "openspiel")}


SLOW_DOCTESTS = {
    "docs/getting-started.md::getting-started.md",
    "docs/judging-policies.md::judging-policies.md",
    "docs/mcts.md::mcts.md",
    "docs/monte-carlo-lab.md::monte-carlo-lab.md",
    "docs/mutation.md::mutation.md",
    "docs/qlearning.md::qlearning.md",
    "docs/search-options.md::search-options.md",
    "docs/shut-the-box.md::shut-the-box.md",
    "docs/test-your-game.md::test-your-game.md",
    "docs/testing.md::testing.md",
    "fnmcts/cli/_old_plots.py::fnmcts.cli._old_plots.plot_old",
    "fnmcts/lab.py::fnmcts.lab.exact_difference_variances",
    "fnmcts/lab.py::fnmcts.lab.variance_factors",
    "fnmcts/plots.py::fnmcts.plots.draw",
    "fnmcts/plots.py::fnmcts.plots.mcts_data",
    "fnmcts/tables.py::fnmcts.tables",
    "fnmcts/tables.py::fnmcts.tables.best_move_table",
    "fnmcts/tables.py::fnmcts.tables.build_tree",
    "fnmcts/tables.py::fnmcts.tables.parse_best_move_table",
    "fnmcts/testing/mutate.py::fnmcts.testing.mutate.mutate",
    "fnmcts/testing/strategies.py::fnmcts.testing.strategies.decision_states",
    "fnmcts/testing/strategies.py::fnmcts.testing.strategies.random_games",
    "fnmcts/testing/strategies.py::fnmcts.testing.strategies.seeded_games",
    "fnmcts/testing/strategies.py::fnmcts.testing.strategies.table_games",
}
"""Doctests of a second or more each (``pytest --durations``): they run in CI's slow step, with the tests marked slow."""


@pytest.hookimpl(tryfirst=True)  # before ``-m`` selects by marker
def pytest_collection_modifyitems(config, items):
    """Long doctests are marked slow; doctests of files behind an optional extra skip when it is not installed."""
    for item in items:
        if item.nodeid in SLOW_DOCTESTS:
            item.add_marker(pytest.mark.slow)
        try:
            where = item.path.relative_to(config.rootpath).as_posix()
        except ValueError:  # a file outside the repository
            continue
        needed = OPTIONAL.get(where) or OPTIONAL.get(item.name)
        if needed is not None and find_spec(needed[0]) is None:
            package, extra = needed
            item.add_marker(pytest.mark.skip(reason=f"{package} is not installed: pip install 'fnmcts[{extra}]'"))
