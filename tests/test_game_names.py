"""A game needs no ``name``: one comes from its class, and every command, save and load works with it."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

import pytest

from fnmcts import GameBase
from fnmcts.cli import main
from fnmcts.games import GAMES, Nim, TicTacToe
from fnmcts.io import load_tree, save_tree
from fnmcts.mcts import search
from fnmcts.protocol import game_from_json, game_name, game_to_json


@dataclass(frozen=True)
class TakeAway(GameBase):
    """The README's game: take 1 or 2 stones; whoever takes the last stone wins."""

    stones: int = 10
    num_players = 2

    def start(self):
        return (self.stones, 0)

    def to_move(self, state):
        return state[1] if state[0] else None

    def possible_moves(self, state):
        return tuple(m for m in (1, 2) if m <= state[0])

    def play(self, state, move):
        if move not in (1, 2) or move > state[0]:
            raise ValueError(f"cannot take {move} from {state[0]}")
        return (state[0] - move, 1 - state[1])

    def payoff(self, state):
        return (-1, 1) if state[1] == 0 else (1, -1)


@pytest.mark.parametrize("kind, name", [(TakeAway, "take-away"), (TicTacToe, "tic-tac-toe"), (Nim, "nim")])
def test_the_default_name_is_the_class_s_in_lower_case_with_dashes(kind, name):
    # the built-in games' own names follow the same rule, so the default agrees with them
    assert game_name(kind()) == name and kind().name == name


def test_a_user_s_game_goes_to_json_and_back_by_its_class_s_name():
    data = game_to_json(TakeAway(stones=7))
    assert data == {"name": "take-away", "stones": 7}
    assert game_from_json(data, {"take-away": TakeAway}) == TakeAway(stones=7)


def test_a_tree_of_a_user_s_game_is_saved_and_loaded_with_its_class(tmp_path):
    game = TakeAway()
    tree = search(game, game.start(), 200, random.Random(1))
    path = save_tree(game, tree, tmp_path / "tree.json")
    assert load_tree(path, {**GAMES, "take-away": TakeAway}) == (game, tree)
    with pytest.raises(ValueError) as refused:
        load_tree(path, GAMES)
    message = str(refused.value)
    assert "unknown game 'take-away'" in message and "games={..., 'take-away': YourGame}" in message
    assert "--game module:attribute" in message


MODULE = '''
from dataclasses import dataclass
from fnmcts import GameBase

@dataclass(frozen=True)
class TakeAway(GameBase):
    stones: int = 10
    num_players = 2
    def start(self): return (self.stones, 0)
    def to_move(self, state): return state[1] if state[0] else None
    def possible_moves(self, state): return tuple(m for m in (1, 2) if m <= state[0])
    def play(self, state, move):
        if move not in (1, 2) or move > state[0]: raise ValueError(f"cannot take {move} from {state[0]}")
        return (state[0] - move, 1 - state[1])
    def payoff(self, state): return (-1, 1) if state[1] == 0 else (1, -1)

class Plain:
    """The same game without GameBase and without a name."""
    num_players = 2
    def start(self): return (10, 0)
    def to_move(self, state): return state[1] if state[0] else None
    def possible_moves(self, state): return tuple(m for m in (1, 2) if m <= state[0])
    def chance_outcomes(self, state): return ()
    def play(self, state, move): return (state[0] - move, 1 - state[1])
    def payoff(self, state): return (-1, 1) if state[1] == 0 else (1, -1)
    def state_to_json(self, state): return list(state)
    def state_from_json(self, data): return tuple(data)
'''


@pytest.fixture
def user_module(tmp_path, monkeypatch):
    (tmp_path / "my_nameless.py").write_text(MODULE)
    monkeypatch.chdir(tmp_path)
    return "my_nameless"


@pytest.mark.slow
@pytest.mark.parametrize("attribute", ["TakeAway", "Plain"])
def test_every_command_takes_a_game_without_a_name(user_module, attribute, capsys, monkeypatch):
    import io

    spec = f"{user_module}:{attribute}"
    assert main(["solve", "--game", spec, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["winning_moves"] == [1]  # 10 stones: leave a multiple of 3
    assert main(["move", "--game", spec, "--state", "[10, 0]", "--ai", "exact"]) == 0
    assert capsys.readouterr().out == "exact: 1\n"
    assert main(["tournament", "exact", "random", "--game", spec, "--games", "4", "--seed", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["wins"]["1"] == 4  # the first player wins 10 stones
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 10))
    assert main(["play", "--game", spec, "--ai", "exact", "--seed", "1"]) == 0
    assert "games 1, wins 0, losses 1" in capsys.readouterr().out  # always taking 1 loses to perfect play
    assert main(["check", "--game", spec, "--examples", "5"]) == 0
