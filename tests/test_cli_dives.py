"""One word, one flag: ``--dives`` is a search's budget on every verb that searches; the old spellings warn.

``--iterations`` (every verb) and ``plot``'s ``--budget`` still work for one
release, with the same effect as the new flag and one line on standard error
naming it; they are hidden from ``--help``. The search's options for experts
sit in an "advanced" group of ``--help``.
"""

from __future__ import annotations

import json

import pytest

from fnmcts.cli.plot import RUN_FLAGS
from fnmcts.cli._search_flags import COURSE_FLAGS, search_fields

from cli_run import run

SEARCHING = {
    # verb: (arguments before the budget, the budget's value, arguments after)
    "search": (["search", "nim(heap=7)", "--seed", "1", "--json"], "40"),
    "move": (["move", "nim(heap=7)", "--ai", "mcts", "--seed", "1", "--json"], "40"),
    "tournament": (["tournament", "nim(heap=7)", "mcts", "random", "--games", "2", "--seed", "1", "--json"], "40"),
    "explore": (["explore", "nim(heap=7)", "--seed", "1", "-o", "-", "--json"], "12"),
    "plot": (["plot", "nim(heap=7)", "--points", "2", "--seed", "1", "--json"], "40"),
}


def _timeless(out: str):
    """The output without its clock readings (a JSON object's keys naming seconds or time), to compare two runs."""
    try:
        data = json.loads(out)
    except ValueError:
        return out
    return {key: value for key, value in data.items() if "second" not in key and "time" not in key}


@pytest.mark.slow
@pytest.mark.parametrize("verb", sorted(SEARCHING))
def test_dives_is_the_budget_and_iterations_is_its_old_spelling_with_a_warning(capsys, verb, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    argv, budget = SEARCHING[verb]
    code, new_out, new_err = run(capsys, *argv, "--dives", budget)
    assert code == 0, new_err
    assert "deprecated" not in new_err
    code, old_out, old_err = run(capsys, *argv, "--iterations", budget)
    assert code == 0, old_err
    assert _timeless(old_out) == _timeless(new_out)  # the same run: the same dest, the same value
    assert "fnmcts: --iterations is deprecated and goes in the next release: use --dives" in old_err.splitlines()
    code, _, err = run(capsys, *argv, "--dives", "many")
    assert code == 2 and "--dives" in err and "many" in err  # the flag is read, as a budget
    if verb in ("search", "explore", "plot"):  # these report their dives: another budget, another run
        assert _timeless(run(capsys, *argv, "--dives", str(int(budget) + 1))[1]) != _timeless(new_out)


@pytest.mark.parametrize("verb", sorted(SEARCHING))
def test_help_shows_dives_and_hides_the_old_spellings(capsys, verb):
    argv = SEARCHING[verb][0][:2]
    code, out, _ = run(capsys, *argv, "--help")
    assert code == 0 and "--dives" in out
    assert "--iterations" not in out and "--budget" not in out


def test_the_play_verb_takes_dives_for_its_mcts_agent(capsys, monkeypatch):
    code, out, err = run(capsys, "play", "nim(heap=3)", "--ai", "mcts", "--dives", "30", "--seed", "1",
                         stdin="1\n", monkeypatch=monkeypatch)
    assert code == 0 and "deprecated" not in err
    code, out, err = run(capsys, "play", "nim(heap=3)", "--ai", "mcts", "--iterations", "30", "--seed", "1",
                         stdin="1\n", monkeypatch=monkeypatch)
    assert code == 0 and "use --dives" in err


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(RUN_FLAGS))
def test_plot_budget_is_the_old_spelling_of_each_kind_s_own_flag(capsys, kind, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    argv = ["plot", "nim(heap=5)", "--what", kind, "--seed", "1", "--json"]
    if kind != "tournament":
        argv += ["--points", "2"]
    new = run(capsys, *argv, RUN_FLAGS[kind], "12")
    old = run(capsys, *argv, "--budget", "12")
    assert new[0] == old[0] == 0, (new[2], old[2])
    assert json.loads(new[1])["budget"] == 12 and old[1] == new[1]
    assert "use --dives (search), --games (tournament, qlearning) or --trials (flat-mc, simulate)" in old[2]
    both = run(capsys, *argv, RUN_FLAGS[kind], "12", "--budget", "12")
    assert both[0] == 2 and f"give {RUN_FLAGS[kind]} or the old --budget, not both" in both[2]


def test_plot_refuses_games_on_a_kind_that_plays_no_games(capsys):
    code, _, err = run(capsys, "plot", "nim(heap=5)", "--games", "3", "--json")
    assert code == 2 and "--games belongs to --what tournament or qlearning, not search" in err


def test_the_experts_options_are_in_an_advanced_group(capsys):
    code, out, _ = run(capsys, "move", "nim(heap=5)", "--help")  # move: every search flag, --root and --final too
    assert code == 0
    course, _, advanced = out.partition("\noptions:\n")[2].partition("\nadvanced:\n")  # the usage lines left out
    assert advanced, "no advanced group in --help"
    experts = [name for name, *_ in search_fields() if name not in COURSE_FLAGS and name != "rollout"]
    assert set(experts) >= {"rave", "bounds", "proofs"}
    for name in experts:
        flag = "--" + name.replace("_", "-")
        assert flag in advanced and flag not in course, flag
    for name in COURSE_FLAGS:
        flag = "--no-solver" if name == "solver" else "--" + name
        assert flag in course and flag not in advanced, flag


def test_workers_and_games_keep_their_names(capsys):
    code, out, _ = run(capsys, "tournament", "nim", "--help")
    assert code == 0 and "--games" in out and "--workers" in out


@pytest.mark.slow
@pytest.mark.parametrize("columns", ["60", "80", "120"])
def test_the_light_top_level_help_is_the_full_parser_s(monkeypatch, columns):
    from fnmcts.cli import build, top_parser

    monkeypatch.setenv("COLUMNS", columns)
    assert top_parser().format_help() == build().parser.format_help()


def test_the_top_level_help_imports_no_verb(capsys):
    import subprocess
    import sys

    code = ("import sys; from fnmcts.cli import main; status = main(['--help']); "
            "print(sorted(m for m in sys.modules if m.startswith('fnmcts.') and m != 'fnmcts.play'), status)")
    # fnmcts.play: the placeholder module import fnmcts registers for the deprecated name, nothing loaded
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines()[-1] == "['fnmcts.cli'] 0"
    assert "usage: fnmcts [-h] [--version] COMMAND ..." in done.stdout
