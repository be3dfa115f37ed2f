"""Flags typed before GAME (``fnmcts search --dives 200 nim``) are read as if typed after it, on every verb."""

import pytest

from cli_run import run, write_user_game
from test_cli_verbs import _steady

# each verb with its flags (a small budget, a seed: the output is a function of the arguments) and its words after GAME
FIRST = {
    "simulate": (("--games", "50", "--seed", "3", "--json"), ()),
    "search": (("--dives", "50", "--seed=3", "--json"), ()),
    "solve": (("--json",), ()),
    "move": (("--ai", "random", "--seed", "1", "--json"), ()),
    "tournament": (("--games", "4", "--seed", "2", "--json"), ("perfect", "random")),
    "count": (("--depth", "2", "--json"), ()),
    "playthrough": (("--seed", "4"), ()),
    "table": (("-o", "-"), ()),
}


@pytest.mark.parametrize("spec", ["nim(heap=4)", "kayles(pins=4)"])
@pytest.mark.parametrize("verb", sorted(FIRST))
def test_flags_before_the_game_mean_what_they_mean_after_it(capsys, verb, spec):
    flags, after = FIRST[verb]
    typed_after = run(capsys, verb, spec, *after, *flags)
    typed_before = run(capsys, verb, *flags, spec, *after)
    assert typed_after[0] == 0, typed_after
    assert _steady(typed_before) == _steady(typed_after)


def test_flags_before_a_users_game_are_read_too(capsys, tmp_path, monkeypatch):
    spec = write_user_game(tmp_path, monkeypatch, "flags_first_take_away")
    assert _steady(run(capsys, "search", "--dives", "50", "--seed", "3", "--json", spec)) == _steady(
        run(capsys, "search", spec, "--dives", "50", "--seed", "3", "--json"))


@pytest.mark.parametrize("argv", [("search", "--dives", "50", "chess"), ("search", "--bogus", "3", "nim"),
                                  ("tournament", "--games", "3")])
def test_flags_before_no_game_are_one_line_naming_the_order(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and f"fnmcts {argv[0]} GAME [flags]" in err, err


@pytest.mark.parametrize("verb", ["search", "solve", "move"])
def test_flags_before_a_built_in_games_name_are_read(capsys, verb):
    flags = {"search": ("--dives", "50", "--seed", "3", "--json"), "solve": ("--heap", "5", "--json"),
             "move": ("--heap", "5", "--seed", "1", "--json")}[verb]
    assert _steady(run(capsys, verb, *flags, "nim")) == _steady(run(capsys, verb, "nim", *flags))
    assert run(capsys, verb, "nim", *flags)[0] == 0
