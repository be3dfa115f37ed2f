"""``--state`` for a game of one's own that is not its JSON form: the message shows the start's form to copy."""

import json

import pytest
from cli_run import TAKE_AWAY, run, write_user_game


@pytest.mark.parametrize("typed", ["5", '{"a": 1}'])
def test_a_wrong_state_is_told_the_starts_json_form(capsys, tmp_path, monkeypatch, typed):
    spec = write_user_game(tmp_path, monkeypatch, "take_state")
    code, out, err = run(capsys, "move", spec, "--state", typed)
    assert code == 2 and out == ""
    assert err.rstrip().endswith("such as the start's [5,0]" if typed.startswith("{") else "[5,0], got '5'")
    assert len(err.strip().splitlines()) == 1
    code, out, err = run(capsys, "move", spec, "--state", "[5,0]", "--ai", "random", "--seed", "1", "--json")
    assert code == 0 and json.loads(out)["move"] in (1, 2)  # the form shown is one --state takes


def test_a_state_without_a_json_form_says_which_hooks_to_give(capsys, tmp_path, monkeypatch):
    (tmp_path / "cell_state.py").write_text(
        TAKE_AWAY + "from collections import namedtuple\nCell = namedtuple('Cell', 'stones player')\n"
        "class CellTake(TakeAway):\n    def start(self): return Cell(self.stones, 0)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    code, out, err = run(capsys, "move", "cell_state:CellTake", "--state", "x")
    assert code == 2 and out == ""
    assert "give the game its own state_to_json and state_from_json" in err


DRAW_SET = '''
from fnmcts import GameBase

class Draw(GameBase):
    """Take numbers 1 to 4 into one shared set, in turn; whoever takes the third wins."""
    num_players = 2
    def start(self): return (frozenset(), 0)
    def to_move(self, state): return None if len(state[0]) >= 3 else state[1]
    def possible_moves(self, state): return tuple(n for n in range(1, 5) if n not in state[0])
    def play(self, state, move): return (state[0] | {move}, 1 - state[1])
    def payoff(self, state): return (1, -1) if state[1] == 1 else (-1, 1)
'''


def test_a_list_where_the_start_has_a_set_is_refused_before_the_search(capsys, tmp_path, monkeypatch):
    (tmp_path / "draw_set.py").write_text(DRAW_SET)
    monkeypatch.syspath_prepend(str(tmp_path))
    code, out, err = run(capsys, "search", "draw_set:Draw", "--state", "[[],0]", "--dives", "50")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "play" not in err and err.rstrip().endswith('such as the start\'s [{"set":[]},0]')
    code, out, err = run(capsys, "search", "draw_set:Draw", "--state", '[{"set":[1]},1]', "--dives", "50")
    assert code == 0, err  # the form shown is one --state takes


def test_search_names_a_state_shaped_unlike_the_start(tmp_path, monkeypatch):
    import random

    from fnmcts import search

    (tmp_path / "draw_set2.py").write_text(DRAW_SET)
    monkeypatch.syspath_prepend(str(tmp_path))
    from draw_set2 import Draw

    with pytest.raises(ValueError, match=r"not a state of .*\(\(\), 0\) holds a tuple at \[0\].*start holds a set"):
        search(Draw(), ((), 0), 50, random.Random(1))
    assert search(Draw(), (frozenset({2}), 1), 50, random.Random(1)) is not None
