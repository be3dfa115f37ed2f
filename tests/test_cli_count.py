"""``fnmcts count GAME``: the counts of ``fnmcts.testing.count`` at the command line."""

from __future__ import annotations

import json

import pytest
from cli_run import run

from fnmcts.cli import main


def _json(capsys, argv):
    status = main(argv)
    return status, json.loads(capsys.readouterr().out)


def test_count_tic_tac_toe_to_the_end_and_up_to_symmetry(capsys):
    status, data = _json(capsys, ["count", "tic-tac-toe", "--json"])
    assert status == 0 and (data["states"], data["histories"], data["games"]) == (5478, 549946, 255168)
    assert main(["count", "tic-tac-toe", "--up-to-symmetry"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "TicTacToe(): to the end (9 plies), states up to symmetry"
    assert lines[12].split()[:2] == ["all", "765"]  # the title, the heads, plies 0-9, then all


def test_count_with_a_depth_and_divide(capsys):
    status, data = _json(capsys, ["count", "nim", "--depth", "3", "--divide", "--json"])
    assert status == 0 and data["depth"] == 3 and not data["complete"]
    # from 21 taking 1-3: 3 first moves, each with 3 x 3 histories two plies further
    assert [(d["step"], d["histories"]) for d in data["divide"]] == [(1, 9), (2, 9), (3, 9)]


def test_count_a_game_of_one_s_own(tmp_path, monkeypatch, capsys):
    (tmp_path / "mine.py").write_text(
        "from dataclasses import dataclass\nfrom fnmcts import GameBase\n"
        "@dataclass(frozen=True)\nclass Two(GameBase):\n    num_players = 2\n"
        "    def start(self): return 2\n    def to_move(self, s): return None if s == 0 else s % 2\n"
        "    def possible_moves(self, s): return (1,) if s else ()\n    def play(self, s, m): return s - m\n"
        "    def payoff(self, s): return (1, -1)\n")
    monkeypatch.chdir(tmp_path)
    status, data = _json(capsys, ["count", "mine:Two", "--json"])
    assert status == 0 and data["states"] == 3 and data["games"] == 1


@pytest.mark.parametrize("argv, message", [
    (["count", "pig"], "may come back to a state seen before (may_repeat): give a depth"),
    (["count", "tic-tac-toe", "--depth", "9", "--limit", "100"], "more than 100 distinct states"),
    (["count", "tic-tac-toe", "--limit", "100"], "would find up to 5,478 states (its size_hint), beyond the limit of "
                                                 "100: give a depth; --force goes on regardless"),
    (["count", "chess"], "unknown game 'chess'"),
])
def test_count_errors_are_one_line(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_a_bad_depth_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["count", "nim", "--depth", "-1"])
    assert stopped.value.code == 2 and "expected a non-negative number" in capsys.readouterr().err


PIG_WITHOUT_MAY_REPEAT = '''
from dataclasses import dataclass
from fractions import Fraction
from fnmcts import GameBase, CHANCE

@dataclass(frozen=True)
class Pig10(GameBase):
    num_players = 2
    def start(self): return (0, 0, 0, 0, False)  # scores, the turn's total, the player, rolling
    def to_move(self, s):
        return None if max(s[:2]) >= 10 else CHANCE if s[4] else s[3]
    def possible_moves(self, s): return ("roll", "hold") if self.to_move(s) in (0, 1) else ()
    def chance_outcomes(self, s):
        return tuple((d, Fraction(1, 6)) for d in range(1, 7)) if self.to_move(s) is CHANCE else ()
    def play(self, s, m):
        a, b, t, p, rolling = s
        if rolling:
            return (a, b, 0, 1 - p, False) if m == 1 else (a, b, t + m, p, False)
        if m == "roll":
            return (a, b, t, p, True)
        return (a + t, b, 0, 1, False) if p == 0 else (a, b + t, 0, 0, False)
    def payoff(self, s): return (1, -1) if s[0] >= 10 else (-1, 1)
'''


def test_a_cycle_without_may_repeat_is_told_at_once_not_counted_for_hours(capsys, tmp_path, monkeypatch):
    (tmp_path / "pig_cycle.py").write_text(PIG_WITHOUT_MAY_REPEAT)
    monkeypatch.syspath_prepend(str(tmp_path))
    code, out, err = run(capsys, "count", "pig_cycle:Pig10")  # it counted ply after ply until its plies passed its states
    assert (code, out) == (1, "")
    assert err.startswith("fnmcts: error: no end: from (0, 0, 0, 0, False), the moves ('hold', 'hold') come back to")
    assert "may_repeat()" in err and len(err.splitlines()) == 1
