"""Golden playthroughs: the built-in games keep theirs in tests/playthroughs/, and any change shows as a line."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from fnmcts.cli import main
from fnmcts.games import GAMES, Nim, ShutTheBox
from fnmcts.testing import check_playthrough, playthrough, playthrough_seed

FILES = sorted((Path(__file__).parent / "playthroughs").glob("*.txt"))


def test_every_built_in_game_keeps_a_playthrough():
    assert {path.stem for path in FILES} == set(GAMES)


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.stem)
def test_a_built_in_game_plays_as_its_playthrough_says(path):
    text = path.read_text(encoding="utf-8")
    assert check_playthrough(GAMES[path.stem](), text) is None
    assert playthrough_seed(text) == 1


@dataclass(frozen=True)
class ReversedNim(Nim):
    """Nim after a change that lists the moves in the other order (and still prints as Nim)."""

    def possible_moves(self, state):
        return super().possible_moves(state)[::-1]

    def __repr__(self):
        return Nim.__repr__(self).replace("ReversedNim", "Nim")


def test_a_change_in_the_rules_is_the_first_line_that_differs():
    text = (Path(__file__).parent / "playthroughs" / "nim.txt").read_text(encoding="utf-8")
    found = check_playthrough(ReversedNim(), text)
    # the header (5 lines and a blank), '# state 0', its state, render and whose turn: the moves are line 11
    assert found == 'line 11: the file says "moves: 1 2 3", the game gives "moves: 3 2 1"'


def test_a_text_cut_short_or_too_long_is_a_difference():
    text = playthrough(Nim(heap=5), seed=2)
    after = len(text.splitlines()) + 1
    assert check_playthrough(Nim(heap=5), text + "extra\n") == f'line {after}: only the file has "extra"'
    shorter = "\n".join(text.splitlines()[:-1]) + "\n"
    assert check_playthrough(Nim(heap=5), shorter) == f'line {after - 1}: only the game has "{text.splitlines()[-1]}"'
    cut = playthrough(Nim(heap=20), seed=2, max_steps=3)
    assert cut.rstrip().endswith("# cut after 3 steps")
    assert check_playthrough(Nim(heap=20), cut) is None


@pytest.mark.slow
def test_the_text_is_the_same_whatever_python_s_hash_seed():
    # sets of levers print in order, so a playthrough reads the same in every run
    program = "from fnmcts.games import ShutTheBox; from fnmcts.testing import playthrough; " \
              "print(playthrough(ShutTheBox(), 3), end='')"
    texts = {subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True,
                            env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("1", "2")}
    assert texts == {playthrough(ShutTheBox(), 3)}


def test_bad_seeds_and_texts_are_refused():
    with pytest.raises(ValueError, match="seed is a whole number"):
        playthrough(Nim(), -1)
    with pytest.raises(ValueError, match="not an fnmcts playthrough"):
        check_playthrough(Nim(), "hello\n")


def test_the_command_writes_and_checks_a_playthrough(tmp_path, capsys):
    path = tmp_path / "pig.txt"
    assert main(["playthrough", "pig", "--seed", "3", "-o", str(path)]) == 0
    assert capsys.readouterr().out.startswith(f"wrote {path} (Pig(goal=100), seed 3, ")
    assert main(["playthrough", "--check", str(path)]) == 0  # the game is read from the file
    assert capsys.readouterr().out == f"{path}: Pig(goal=100) plays as the file says\n"
    path.write_text(path.read_text().replace("chance: 1 1/6", "chance: 1 1/5", 1))
    assert main(["playthrough", "--check", str(path)]) == 1
    assert 'the file says "chance: 1 1/5 |' in capsys.readouterr().out


@pytest.mark.parametrize("argv, message", [
    (["playthrough"], "give the GAME to play"),
    (["playthrough", "--check", "no-such-file.txt"], "cannot read no-such-file.txt"),
    (["playthrough", "nim", "--check", "x.txt", "-o", "y.txt"], "not both"),
    (["playthrough", "chess"], "unknown game 'chess'"),
])
def test_command_errors_are_one_line(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


@pytest.mark.slow
def test_a_file_of_a_built_in_game_with_other_parameters_names_its_game(tmp_path, capsys):
    path = tmp_path / "box.txt"
    path.write_text(playthrough(ShutTheBox(levers=4), 1))
    assert main(["playthrough", "--check", str(path)]) == 0
    assert capsys.readouterr().out == f"{path}: {ShutTheBox(levers=4)!r} plays as the file says\n"


def test_a_file_of_a_users_game_names_its_game_from_the_current_folder_or_its_own(tmp_path, capsys, monkeypatch):
    from cli_run import write_user_game

    spec = write_user_game(tmp_path, monkeypatch, "playthrough_take_away")  # the current folder: tmp_path
    assert main(["playthrough", spec, "--seed", "3", "-o", "game.txt"]) == 0
    assert main(["playthrough", "--check", "game.txt"]) == 0
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)  # the file's own folder holds the game's module
    assert main(["playthrough", "--check", str(tmp_path / "game.txt")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == f"{tmp_path / 'game.txt'}: TakeAway(stones=5) plays as the file says"
    (tmp_path / "game.txt").write_text((tmp_path / "game.txt").read_text().replace("TakeAway(stones=5)", "Gone(stones=5)"))
    assert main(["playthrough", "--check", str(tmp_path / "game.txt")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "plays Gone(stones=5), which is no built-in game" in err


@given(st.integers(1, 30), st.integers(1, 5), st.booleans())
@settings(max_examples=30, deadline=None)
def test_nims_end_screen_offers_nothing_to_take(heap, max_take, misere):
    game = Nim(heap=heap, max_take=max_take, misere=misere)
    end = game.state(0, 1)
    assert game.to_move(end) is None
    assert game.render(end) == "There are no matchsticks left."
    assert "Take" in game.render(game.state(1, 0))  # a heap with matchsticks still says what to take
