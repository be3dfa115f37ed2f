"""A game's parameters mistyped in GAME(...): the message names the parameters the game has, and a right example."""

import pytest
from cli_run import run, write_user_game


@pytest.mark.parametrize("spec, said", [
    ("nim(hea=3)", "(did you mean 'heap'?); Nim's parameters: heap, max_take, misere"),
    ("pig(goal=x)", "must be keyword=literal pairs, e.g. pig(goal=5)"),  # it said e.g. pig(heap=5): Pig has no heap
    ("tic-tac-toe(3)", "tic-tac-toe takes no parameters: write it as tic-tac-toe"),
])
def test_a_built_in_games_parameters_are_named(capsys, spec, said):
    code, out, err = run(capsys, "solve", spec)
    assert (code, out) == (2, "")
    assert err.rstrip().endswith(said) and len(err.splitlines()) == 1


def test_a_game_of_ones_own_is_told_its_parameters(capsys, tmp_path, monkeypatch):
    write_user_game(tmp_path, monkeypatch, "take_params")
    code, out, err = run(capsys, "solve", "take_params:TakeAway(stone=3)")
    assert (code, out) == (2, "")
    assert err.rstrip().endswith("(did you mean 'stones'?); TakeAway's parameters: stones")


def test_empty_parentheses_still_name_the_game(capsys):
    assert run(capsys, "solve", "tic-tac-toe()")[0] == 0
