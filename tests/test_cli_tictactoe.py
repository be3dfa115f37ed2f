"""The tic-tac-toe commands: play, tournament, move, solve; text and JSON, draws, bad input."""


import pytest

from fnmcts import io as fnmcts_io
from fnmcts.exact import best_moves, solve
from fnmcts.games import TicTacToe

from cli_run import run, run_json

GAME = TicTacToe()
O_WINS_BY_6 = (0, 1, 0, 0, 0, 1, 0, 0, 2)


# -- solve ----------------------------------------------------------------------------------------


def test_solve_the_start_is_a_draw(capsys):
    solution = solve(GAME)
    assert solution[GAME.start()] == (0, 0)
    data = run_json(capsys, "solve", "tic-tac-toe")
    assert data["winner"] == "draw" and data["winning_player"] is None and data["to_move"] == 1
    assert data["value"] == [0, 0] and data["winning_moves"] == []
    assert data["best_moves"] == list(best_moves(GAME, solution, GAME.start())) == list(range(9))
    assert data["state"] == [0] * 9 and data["game"] == {"name": "tic-tac-toe"} and data["solver"] == "exact"
    code, out, _ = run(capsys, "solve", "tic-tac-toe")
    assert code == 0
    assert "Player 1 (X) to move" in out and "a draw: neither player can force a win" in out
    assert "drawing moves: X at 0, X at 1" in out


@pytest.mark.slow
@pytest.mark.parametrize("text", ["010001002", ".X...X..O", "0,1,0,0,0,1,0,0,2", "[0, 1, 0, 0, 0, 1, 0, 0, 2]"])
def test_solve_o_wins_by_6(capsys, text):
    solution = solve(GAME, O_WINS_BY_6)
    assert solution[O_WINS_BY_6] == (-1, 1) and best_moves(GAME, solution, O_WINS_BY_6) == (6,)
    data = run_json(capsys, "solve", "tic-tac-toe", "--state", text)
    assert data["winner"] == "mover" and data["winning_player"] == 2 and data["to_move"] == 2
    assert data["value"] == [-1, 1] and data["winning_moves"] == [6] and data["best_moves"] == [6]
    code, out, _ = run(capsys, "solve", "tic-tac-toe", "--state", text)
    assert code == 0
    assert out.splitlines()[:3] == ["0 | X | 2", "3 | 4 | X", "6 | 7 | O"]
    assert "the player to move wins: Player 2 (O)" in out and "winning moves: O at 6" in out


@pytest.mark.parametrize(
    "state",
    [(1, 1, 0, 2, 2, 0, 0, 0, 0), (1, 2, 1, 1, 2, 2, 0, 1, 0), (1, 0, 0, 0, 2, 0, 0, 0, 0), (1, 2, 0, 0, 0, 0, 0, 0, 0),
     (0, 2, 1, 0, 1, 0, 0, 0, 0)],
)
def test_solve_agrees_with_the_exact_solver(capsys, state):
    solution = solve(GAME, state)
    player = GAME.to_move(state)
    mine, theirs = solution[state][player], solution[state][1 - player]
    expected = "mover" if mine > theirs else "other" if mine < theirs else "draw"
    data = run_json(capsys, "solve", "tic-tac-toe", "--state", "".join(map(str, state)))
    assert data["winner"] == expected
    assert data["value"] == [int(v) for v in solution[state]]
    assert data["best_moves"] == list(best_moves(GAME, solution, state))
    assert data["winning_moves"] == (data["best_moves"] if expected == "mover" else [])


def test_solve_a_lost_position_and_a_finished_board(capsys):
    code, out, _ = run(capsys, "solve", "tic-tac-toe", "--state", "0,2,1,0,1,0,0,0,0")  # O to move, lost
    assert code == 0 and "Player 2 (O) to move" in out
    assert "the player to move loses: Player 1 (X) wins" in out and "winning moves: none" in out
    data = run_json(capsys, "solve", "tic-tac-toe", "--state", "OXXXXOOOX")  # a full board, no line
    assert data["over"] is True and data["won"] is None and data["draw"] is True
    code, out, _ = run(capsys, "solve", "tic-tac-toe", "--state", "XXXOO....")
    assert code == 0 and "the game is over: nobody moves; player 1 has won" in out
    data = run_json(capsys, "solve", "tic-tac-toe", "--state", "XXXOO....")
    assert data["won"] == 1 and data["draw"] is False


# -- move -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("ai, extra", [("exact", ()), ("perfect", ()), ("mcts", ("--dives", "2000"))])
def test_move_plays_the_forced_win(capsys, ai, extra):
    data = run_json(capsys, "move", "tic-tac-toe", "--state", "010001002", "--ai", ai, "--seed", "1", *extra)
    assert data["move"] == 6 and data["describe"] == "O at 6" and data["ai"] == ai
    assert data["state"] == list(O_WINS_BY_6) and data["seed"] == 1
    code, out, _ = run(capsys, "move", "tic-tac-toe", "--state", "XOXXOO.X.", "--ai", ai, "--seed", "1", *extra)
    assert code == 0 and out.strip() == f"{ai}: O at 6"  # 8 lets X complete the left column


@pytest.mark.slow
def test_move_takes_an_immediate_win_and_is_seeded(capsys):
    for ai in ("mcts", "exact"):
        data = run_json(capsys, "move", "tic-tac-toe", "--state", "XX.OO....", "--ai", ai, "--seed", "3")
        assert data["move"] == 2
    a = run_json(capsys, "move", "tic-tac-toe", "--state", "X........", "--ai", "montecarlo", "--trials", "50",
                 "--seed", "4")
    b = run_json(capsys, "move", "tic-tac-toe", "--state", "X........", "--ai", "montecarlo", "--trials", "50",
                 "--seed", "4")
    assert a == b and a["move"] in GAME.possible_moves((1, 0, 0, 0, 0, 0, 0, 0, 0))


@pytest.mark.parametrize(
    "argv",
    [
        ("move", "tic-tac-toe", "--state", "12"),
        ("move", "tic-tac-toe", "--state", "1234567890"),
        ("move", "tic-tac-toe", "--state", "110000000"),  # X has moved twice
        ("move", "tic-tac-toe", "--state", "XXXOOO..."),  # both have a line
        ("move", "tic-tac-toe", "--state", "XXXOO.O.."),  # O moved after X won
        ("move", "tic-tac-toe", "--state", "[1, 2"),
        ("move", "tic-tac-toe", "--state", "XXXOO...."),  # over: no move
        ("move", "tic-tac-toe", "--state", "........."[:8] + "Z"),
        ("move", "tic-tac-toe", "--state", "000000000", "--ai", "alphazero"),
        ("move", "tic-tac-toe", "--state", "000000000", "--ai", "q"),
        ("move", "tic-tac-toe", "--state", "000000000", "--heap", "3"),
        ("solve", "tic-tac-toe", "--state", "220000000"),
        ("solve", "tic-tac-toe", "--misere"),
        ("tournament", "tic-tac-toe", "random", "nobody"),
        ("tournament", "tic-tac-toe", "random", "random", "--games", "-1"),
        ("play", "tic-tac-toe", "--first", "--second"),
        ("play", "tic-tac-toe", "--ai", "nobody"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_q_needs_a_table_trained_on_tic_tac_toe(capsys, tmp_path):
    qlearning = pytest.importorskip("fnmcts.qlearning")
    from fnmcts.games import Piles

    code, _, err = run(capsys, "move", "tic-tac-toe", "--state", "000000000", "--ai", "q")
    assert code == 2 and "--q-table" in err and "tic-tac-toe" in err
    piles = tmp_path / "piles.json"
    fnmcts_io.save_ai(qlearning.train(50, seed=1, game=Piles((1, 2))), piles)
    code, _, err = run(capsys, "move", "tic-tac-toe", "--state", "000000000", "--ai", "q", "--q-table", str(piles))
    assert code == 2 and "trained on" in err and len(err.strip().splitlines()) == 1
    table = tmp_path / "ttt.json"
    fnmcts_io.save_ai(qlearning.train(300, seed=1, game=GAME), table)
    data = run_json(capsys, "move", "tic-tac-toe", "--state", "010001002", "--ai", "q", "--q-table", str(table))
    assert data["move"] in GAME.possible_moves(O_WINS_BY_6)
    data = run_json(capsys, "tournament", "tic-tac-toe", "q", "random", "--q-table", str(table), "--games", "10",
                    "--seed", "1")
    assert data["games"] == 10 and sum(data["wins"].values()) + data["draws"] == 10


# -- tournament -----------------------------------------------------------------------------------


def test_tournament_counts_draws(capsys):
    data = run_json(capsys, "tournament", "tic-tac-toe", "perfect", "exact", "--games", "20", "--seed", "1")
    statistics = {key: data.pop(key) for key in ("score", "interval", "elo", "elo_interval", "los", "verdict")}
    assert data == {
        "games": 20, "wins": {"1": 0, "2": 0}, "draws": 20, "seed": 1,
        "agent1": "perfect", "agent2": "exact", "game": {"name": "tic-tac-toe"},
        "player1_score": 0.5, "player1_score_ci": [0.5, 0.5],  # every game drawn: half the points, no spread
    }
    assert statistics["score"] == 0.5 and statistics["los"] == 0.5 and statistics["verdict"] == "not significant"
    code, out, _ = run(capsys, "tournament", "tic-tac-toe", "exact", "perfect", "--games", "5", "--seed", "1")
    assert code == 0
    assert out.splitlines() == [
        "Player 1 wins 0 games. Player 2 wins 0 games. 5 draws.",
        "Player 1 scores 0.5 of the points (95% CI [0.5, 0.5]; a draw is half a point).",
        "(player 1: exact, player 2: perfect; seed 1)",
    ]


@pytest.mark.slow
def test_tournament_text_always_shows_the_draws(capsys):
    data = run_json(capsys, "tournament", "tic-tac-toe", "random", "random", "--games", "200", "--seed", "3")
    assert data["wins"]["1"] + data["wins"]["2"] + data["draws"] == 200
    assert data["draws"] > 0 and data["wins"]["1"] > data["wins"]["2"] > 0  # X, moving first, wins more
    assert data == run_json(capsys, "tournament", "tic-tac-toe", "random", "random", "--games", "200", "--seed", "3")
    data = run_json(capsys, "tournament", "tic-tac-toe", "perfect", "random", "--games", "30", "--seed", "1")
    assert data["wins"]["2"] == 0  # a perfect player never loses
    code, out, _ = run(capsys, "tournament", "tic-tac-toe", "perfect", "random", "--games", "30", "--seed", "1")
    first = out.splitlines()[0]
    assert code == 0 and first.startswith("Player 1 wins ") and first.endswith(" draws.")


@pytest.mark.slow
def test_tournament_on_worker_processes_matches_one_process(capsys):
    argv = ("tournament", "tic-tac-toe", "mcts", "random", "--games", "120", "--dives", "50", "--seed", "5")
    one = run_json(capsys, *argv, "--workers", "1")
    two = run_json(capsys, *argv, "--workers", "2")
    assert one == two and one["games"] == 120
    assert one["wins"]["1"] + one["wins"]["2"] + one["draws"] == 120


# -- play -----------------------------------------------------------------------------------------


def test_play_a_draw_against_perfect(capsys, monkeypatch):
    """X 4, O answers 0; X 2, O blocks 6; X 3, O blocks 5; X 7, O blocks 1; X's last cell is forced: a draw."""
    code, out, _ = run(capsys, "play", "tic-tac-toe", "--seed", "1", stdin="4\n2\n3\n7\n", monkeypatch=monkeypatch)
    assert code == 0
    lines = out.splitlines()
    assert lines[:4] == ["You are Player 1 (X).", "0 | 1 | 2", "3 | 4 | 5", "6 | 7 | 8"]
    assert "Player 1 (X) plays 4." in lines and "Player 2 (O) plays 0." in lines
    assert "only one choice: X at 8" in lines
    assert lines[-5:] == ["O | O | X", "X | X | O", "O | X | X", "Nobody wins. It is a draw.",
                          "games 1, wins 0, losses 0, draws 1"]


def test_play_reprompts_with_the_hooks_message(capsys, monkeypatch):
    code, out, _ = run(capsys, "play", "tic-tac-toe", "--seed", "1", stdin="9\nx\n\n4\n4\n0\n", monkeypatch=monkeypatch)
    assert code == 0
    assert out.count("type the number of an empty cell: 0, 1, 2, 3, 4, 5, 6, 7 or 8") == 3
    assert out.count("type the number of an empty cell: 1, 2, 3, 5, 6, 7 or 8") == 2  # 4 and 0 are taken
    assert out.rstrip().endswith(
        "games 0, wins 0, losses 0, draws 0; stopped (end of input), the game in progress is not counted"
    )


def test_play_second_and_lose(capsys, monkeypatch):
    """As O against perfect X (who opens in cell 0), 1 then 2 lose: X completes the 0-4-8 diagonal."""
    code, out, _ = run(capsys, "play", "tic-tac-toe", "--second", "--seed", "1", stdin="1\n2\n5\n6\n",
                       monkeypatch=monkeypatch)
    assert code == 0
    assert out.startswith("You are Player 2 (O).\nPlayer 1 (X) plays 0.\n")
    assert "Player 1 wins! You lose." in out and out.rstrip().endswith("games 1, wins 0, losses 1, draws 0")


def test_play_ctrl_c_stops_with_a_summary(capsys, monkeypatch):
    def interrupted(prompt):
        raise KeyboardInterrupt

    monkeypatch.setattr("fnmcts.cli.play.read_line", interrupted)
    code, out, _ = run(capsys, "play", "tic-tac-toe", "--ai", "random", "--seed", "1")
    assert code == 130
    assert out.splitlines()[-1] == (
        "games 0, wins 0, losses 0, draws 0; stopped (interrupted), the game in progress is not counted"
    )


def test_play_several_games_counts_wins_and_draws(capsys, monkeypatch):
    """Two games against random O: each typed sequence wins or draws, and the summary counts both."""
    stdin = "4\n0\n8\n2\n6\n1\n3\n5\n7\n" * 2
    code, out, _ = run(capsys, "play", "tic-tac-toe", "--ai", "random", "--games", "2", "--seed", "2", stdin=stdin,
                       monkeypatch=monkeypatch)
    assert code == 0 and "-- game 2 of 2" in out
    last = out.splitlines()[-1]
    wins, losses, draws = (int(last.split(f"{key} ")[1].split(",")[0]) for key in ("wins", "losses", "draws"))
    assert last.startswith("games 2,") and wins + losses + draws == 2
    assert out.count("It is a draw.") == draws and out.count("You win.") == wins
