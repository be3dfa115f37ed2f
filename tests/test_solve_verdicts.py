"""``fnmcts solve`` on games with chance: the chance of winning and the best moves, a verdict only when certain."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from fnmcts.cli import main
from fnmcts.cli import solve as solve_cli
from fnmcts.exact import best_moves, solve
from fnmcts.games import Pig


def run(capsys, *argv):
    try:
        code = main(list(argv))
    except SystemExit as exit_:
        code = exit_.code
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("goal, typed, state", [
    (30, "0,25,0,1", (0, 0, 25, 0, 0)),
    (20, None, None),
])
@pytest.mark.slow
def test_pig_gets_its_chance_of_winning_not_a_verdict(capsys, goal, typed, state):
    game = Pig(goal=goal)
    state = game.start() if state is None else state
    extra = [] if typed is None else ["--state", typed]
    code, out, _ = run(capsys, "solve", "pig", "--goal", str(goal), *extra, "--json")
    assert code == 0
    data = json.loads(out)
    solution = solve(game, state)
    mover = solution[state][0]
    assert data["certain"] is False and data["winner"] is None and data["winning_player"] is None
    assert data["winning_moves"] == []
    assert data["win_probability"] == pytest.approx([(1 + mover) / 2, (1 - mover) / 2], abs=1e-12)
    assert data["best_moves"] == list(best_moves(game, solution, state))
    code, text, _ = run(capsys, "solve", "pig", "--goal", str(goal), *extra)
    assert "wins" not in text.replace("winning", "") and "loses" not in text
    assert f"Player 1 {(1 + mover) / 2:.4f}" in text and "best moves: roll" in text


def test_the_issue_s_pig_position_still_leaves_player_1_a_chance(capsys):
    code, out, _ = run(capsys, "solve", "pig", "--goal", "30", "--state", "0,25,0,1")
    assert code == 0
    assert "Player 1 0.2966, Player 2 0.7034" in out  # (1 - 0.40672) / 2: not "Player 2 wins"


def test_a_sure_win_with_dice_is_a_verdict(capsys):
    code, out, _ = run(capsys, "solve", "any", "--game", "small_games:SURE_WITH_DICE", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["certain"] is True and data["winner"] == "mover" and data["winning_player"] == 1
    assert data["win_probability"] == [1.0, 0.0] and data["winning_moves"] == [0]
    code, text, _ = run(capsys, "solve", "any", "--game", "small_games:SURE_WITH_DICE")
    assert "the player to move wins (whatever the dice)" in text


def test_a_game_with_dice_and_draws_gets_its_expected_payoff(capsys):
    code, out, _ = run(capsys, "solve", "any", "--game", "small_games:DRAWS_WITH_DICE", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["certain"] is False and data["winner"] is None and data["win_probability"] is None
    assert data["value"] == [0.5, -0.5]
    code, text, _ = run(capsys, "solve", "any", "--game", "small_games:DRAWS_WITH_DICE")
    assert "the expected payoff, with best play by both" in text and "Player 1 0.5" in text


def test_games_without_dice_keep_their_verdicts(capsys):
    code, out, _ = run(capsys, "solve", "tic-tac-toe", "--state", "010001002", "--json")
    data = json.loads(out)
    assert data["certain"] is True and data["winner"] == "mover" and data["win_probability"] is None


def test_a_pig_too_large_to_solve_says_what_it_would_hold_and_how_to_go_on(capsys, monkeypatch):
    code, _, err = run(capsys, "solve", "pig")
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "would hold up to 2,021,201 states" in err and "a goal of at most 46" in err
    assert "--force goes on regardless" in err
    monkeypatch.setattr(solve_cli, "STATE_LIMIT", 100)  # a small limit: the same refusal, then --force
    code, _, err = run(capsys, "solve", "pig", "--goal", "8")
    assert code == 2 and "--force goes on regardless" in err
    code, out, _ = run(capsys, "solve", "pig", "--goal", "8", "--force", "--json")
    assert code == 0
    value = solve(Pig(goal=8), limit=None)[Pig(goal=8).start()][0]
    assert json.loads(out)["win_probability"][0] == pytest.approx(float((1 + Fraction(value)) / 2), abs=1e-12)
