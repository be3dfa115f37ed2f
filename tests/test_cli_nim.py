"""The Nim commands: play, tournament, move, solve; JSON keys, exit codes, input handling."""

import io
import json

import pytest

from fnmcts import theory
from fnmcts.cli import main
from fnmcts.cli.nim import interactive_nim, parse_human_move
from fnmcts.agents import perfect_agent, random_agent
from fnmcts.games import Nim, Piles
from fnmcts.rng import make_rng


def run(capsys, *argv, stdin=None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    try:
        code = main(list(argv))
    except SystemExit as exit:  # argparse's own errors
        code = exit.code
    out, err = capsys.readouterr()
    return code, out, err


def run_json(capsys, *argv):
    code, out, err = run(capsys, *argv, "--json")
    assert code == 0, err
    lines = out.strip().splitlines()
    assert len(lines) == 1
    return json.loads(lines[0])


@pytest.mark.parametrize("heap", [1, 5, 20, 21, 22, 30])
@pytest.mark.parametrize("rule", ["--misere", "--normal"])
def test_solve_nim_follows_the_closed_form(capsys, heap, rule):
    data = run_json(capsys, "solve", "nim", "--heap", str(heap), rule)
    misere = rule == "--misere"
    expected_winner = "other" if heap % 4 == (1 if misere else 0) else "mover"
    assert data["winner"] == expected_winner
    take = (heap - 1 if misere else heap) % 4
    assert data["winning_moves"] == ([take] if expected_winner == "mover" else [])
    assert data["exact_checked"] is True


def test_solve_piles(capsys):
    data = run_json(capsys, "solve", "piles")
    assert data["winner"] == "other" and data["winning_moves"] == []  # 1^3^5^7 = 0
    data = run_json(capsys, "solve", "piles", "--piles", "1,3,5,6")
    assert data["winner"] == "mover"
    for i, j in data["winning_moves"]:
        piles = [1, 3, 5, 6]
        piles[i] -= j
        assert not theory.piles_mover_wins(piles, misere=True)
    data = run_json(capsys, "solve", "piles", "--state", "0,0,1,1")
    assert data["winning_moves"] == [[2, 1], [3, 1]]
    code, out, _ = run(capsys, "solve", "piles", "--piles", "1 3 5 7")
    assert code == 0 and "loses" in out and "winning moves: none" in out


def test_tournament_json_and_seed(capsys):
    data = run_json(capsys, "tournament", "nim", "random", "perfect", "--games", "50", "--seed", "3")
    assert data["games"] == 50 and data["wins"] == {"1": 0, "2": 50}  # 21 misère: perfect second player
    again = run_json(capsys, "tournament", "nim", "random", "random", "--games", "300", "--seed", "3")
    assert again == run_json(capsys, "tournament", "nim", "random", "random", "--games", "300", "--seed", "3")
    assert sum(again["wins"].values()) == 300
    code, out, _ = run(capsys, "tournament", "nim", "perfect", "perfect", "--heap", "22", "--games", "10", "--seed", "1")
    assert code == 0 and out.startswith("Player 1 wins 10 games. Player 2 wins 0 games.")


def test_tournament_piles_with_budgeted_agents(capsys):
    data = run_json(
        capsys, "tournament", "piles", "montecarlo-perfect", "random", "--piles", "1,2,3", "--games", "6",
        "--trials", "20", "--seed", "1",
    )
    assert data["games"] == 6 and data["game"]["piles"] == [1, 2, 3]


@pytest.mark.parametrize("heap", [2, 3, 4, 6, 7, 8, 14, 22, 30])
def test_move_perfect_and_exact_play_the_winning_move(capsys, heap):
    for ai in ("perfect", "exact"):
        data = run_json(capsys, "move", "nim", "--state", str(heap), "--ai", ai, "--seed", "1")
        if heap % 4 != 1:
            assert data["move"] == (heap - 1) % 4


def test_move_piles_and_montecarlo(capsys):
    data = run_json(capsys, "move", "piles", "--state", "1,3,5,6", "--ai", "exact")
    assert data["move"] == [0, 1]
    a = run_json(capsys, "move", "nim", "--state", "7", "--ai", "montecarlo", "--iterations", "500", "--seed", "4")
    b = run_json(capsys, "move", "nim", "--state", "7", "--ai", "montecarlo", "--iterations", "500", "--seed", "4")
    assert a == b and a["move"] in (1, 2, 3)


def test_move_mcts(capsys):
    pytest.importorskip("fnmcts.mcts")
    data = run_json(capsys, "move", "nim", "--state", "6", "--ai", "mcts", "--iterations", "2000", "--seed", "1")
    assert data["move"] == 1


@pytest.mark.parametrize(
    "argv",
    [
        ("move", "nim", "--state", "many"),
        ("move", "nim", "--state", "0"),
        ("move", "nim", "--state", "5", "--ai", "alphazero"),
        ("move", "piles", "--state", "1,3", "--ai", "q"),
        ("move", "piles", "--state", "1,3", "--ai", "q", "--q-table", "/no/such/file.json"),
        ("tournament", "nim", "random"),
        ("tournament", "nim", "random", "nobody"),
        ("tournament", "nim", "random", "random", "--games", "-3"),
        ("solve", "nim", "--heap", "ten"),
        ("solve", "nim", "--misere", "--normal"),
        ("solve", "piles", "--piles", "1,-2"),
        ("play", "nim", "--first", "--second"),
        ("play", "nim", "--ai", "nobody"),
    ],
)
def test_bad_arguments_are_one_line_and_exit_2(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_bad_q_table_file(capsys, tmp_path):
    bad = tmp_path / "q.json"
    bad.write_text("not json")
    code, _, err = run(capsys, "move", "piles", "--state", "1,3", "--ai", "q", "--q-table", str(bad))
    assert code == 2 and "bad Q table" in err and len(err.strip().splitlines()) == 1


def test_q_table_from_training(capsys, tmp_path):
    qlearning = pytest.importorskip("fnmcts.qlearning")
    path = tmp_path / "q.json"
    qlearning.save_ai(qlearning.train(200, seed=1, game=Piles((1, 2))), path)
    data = run_json(capsys, "move", "piles", "--piles", "1,2", "--state", "1,2", "--ai", "q", "--q-table", str(path))
    assert tuple(data["move"]) in Piles((1, 2)).possible_moves(Piles((1, 2)).start())
    code, _, err = run(capsys, "move", "piles", "--state", "1,3,5,7", "--ai", "q", "--q-table", str(path))
    assert code == 2 and "trained on" in err


def test_play_nim_reprompts_and_stops_at_end_of_input(capsys, monkeypatch):
    code, out, _ = run(capsys, "play", "nim", "--heap", "10", "--seed", "1", stdin="5\nx\n2\n", monkeypatch=monkeypatch)
    assert code == 0
    assert out.count("type a number from 1 to 3") == 2
    assert "Player 1 takes 2 matchstick(s). There are 8 matchstick(s) remaining." in out
    assert out.rstrip().endswith("games 0, wins 0, losses 0; stopped (end of input), the game in progress is not counted")


def test_play_a_whole_game_against_perfect(capsys, monkeypatch):
    """From 21 (misère) the second player wins with perfect play: whatever we type, we lose."""
    code, out, _ = run(capsys, "play", "nim", "--seed", "1", stdin="1\n" * 30, monkeypatch=monkeypatch)
    assert code == 0
    assert "Player 2 wins! You lose." in out and out.rstrip().endswith("games 1, wins 0, losses 1")


def test_play_piles_second(capsys, monkeypatch):
    code, out, _ = run(capsys, "play", "piles", "--second", "--ai", "random", "--seed", "2", stdin="9 9\n",
                       monkeypatch=monkeypatch)
    assert code == 0 and out.startswith("You are Player 2") and "type a pile and a count" in out


def test_interactive_nim_counts_wins_and_interrupts():
    game = Nim(heap=4, max_take=3, misere=True)
    lines, answers = [], iter(["4", "3"])

    def read(prompt):
        return next(answers)

    summary = interactive_nim(game, random_agent, make_rng(1), human=0, read=read, write=lines.append)
    assert summary == {"games": 1, "wins": 1, "losses": 0, "stopped": None}  # 4 -> 1: the agent takes the last
    assert lines[2] == "type a number from 1 to 3" and lines[-1] == "Player 1 wins! You win."

    def interrupt(prompt):
        raise KeyboardInterrupt

    summary = interactive_nim(game, perfect_agent, make_rng(1), human=0, read=interrupt, write=lines.append, games=3)
    assert summary["stopped"] == "interrupted" and summary["games"] == 0


@pytest.mark.parametrize("text", ["0", "4", "", "1 2", "two"])
def test_parse_human_move_rejects(text):
    with pytest.raises(ValueError):
        parse_human_move(Nim(), Nim().state(10), text)


def test_parse_human_move_piles():
    game = Piles((1, 3))
    assert parse_human_move(game, game.start(), "1, 3") == (1, 3)
    with pytest.raises(ValueError):
        parse_human_move(game, game.start(), "0 2")


def test_tournament_on_worker_processes_matches_one_process(capsys):
    pytest.importorskip("fnmcts.mcts")
    argv = ("tournament", "nim", "mcts", "montecarlo", "--games", "120", "--iterations", "30", "--seed", "5")
    one = run_json(capsys, *argv)
    two = run_json(capsys, *argv, "--workers", "2")
    assert one == two and one["games"] == 120


def test_mcts_options_reach_the_search(capsys):
    pytest.importorskip("fnmcts.mcts")
    for extra in (("--rule", "tutorial"), ("--final", "mean"), ("--no-solver",), ("--c", "0.7")):
        data = run_json(capsys, "move", "nim", "--state", "7", "--ai", "mcts", "--iterations", "3000", "--seed", "2",
                        *extra)
        assert data["move"] == 2, extra  # leave 5 = 1 mod 4
    for bad in (("--c", "-1"), ("--c", "x"), ("--rule", "ucb9"), ("--final", "best")):
        code, _, err = run(capsys, "move", "nim", "--state", "7", "--ai", "mcts", *bad)
        assert code == 2 and len(err.strip().splitlines()) == 1
