"""A game of one's own whose states are frozen dataclasses (no JSON form of their own): the text reports still run."""

import pytest
from cli_run import run

STRIP = '''
from dataclasses import dataclass
from fnmcts import GameBase

@dataclass(frozen=True)
class Strip:
    cells: str
    player: int

@dataclass(frozen=True)
class StripTac(GameBase):
    length: int = 4
    num_players = 2
    def start(self): return Strip("." * self.length, 0)
    def _won(self, cells): return next((m for m in "XO" if m * 3 in cells), None)
    def to_move(self, state):
        return None if self._won(state.cells) or "." not in state.cells else state.player
    def possible_moves(self, state):
        if self.to_move(state) is None:
            return ()
        return tuple("abcd"[i] for i, c in enumerate(state.cells) if c == ".")
    def play(self, state, move):
        i = "abcd".index(move)
        return Strip(state.cells[:i] + "XO"[state.player] + state.cells[i + 1:], 1 - state.player)
    def payoff(self, state):
        won = self._won(state.cells)
        return (0, 0) if won is None else (1, -1) if won == "X" else (-1, 1)
'''


def _spec(tmp_path, monkeypatch):
    (tmp_path / "strip_states.py").write_text(STRIP)
    monkeypatch.syspath_prepend(str(tmp_path))
    return "strip_states:StripTac"


@pytest.mark.parametrize("argv", [("search", "--dives", "50", "--seed", "1"), ("move", "--dives", "50", "--seed", "1"),
                                  ("solve",)])
def test_search_move_solve_print_their_text_for_dataclass_states(capsys, tmp_path, monkeypatch, argv):
    code, out, err = run(capsys, argv[0], _spec(tmp_path, monkeypatch), *argv[1:])
    assert (code, err) == (0, "")
    assert out.strip()


def test_json_report_names_the_missing_json_hook(capsys, tmp_path, monkeypatch):
    code, out, err = run(capsys, "solve", _spec(tmp_path, monkeypatch), "--json")
    assert code == 1 and out == ""
    assert "give the game its own state_to_json and state_from_json" in err and len(err.strip().splitlines()) == 1


def test_play_shows_a_dataclass_state_by_its_repr(capsys, tmp_path, monkeypatch):
    code, out, err = run(capsys, "play", _spec(tmp_path, monkeypatch), stdin="1\n1\n", monkeypatch=monkeypatch)
    assert code == 0, err
    assert "Strip(cells='....', player=0)" in out and "draw" in out.lower()


def test_playthrough_blames_the_games_missing_json_hook_not_fnmcts(capsys, tmp_path, monkeypatch):
    code, out, err = run(capsys, "playthrough", _spec(tmp_path, monkeypatch))
    assert code == 1 and out == ""
    assert err.startswith("fnmcts: error: the game's state_to_json raised TypeError: cannot convert Strip to JSON")
    assert "fnmcts failed here" not in err and len(err.strip().splitlines()) == 1
