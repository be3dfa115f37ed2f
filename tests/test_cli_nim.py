"""The Nim commands: play, tournament, move, solve; JSON keys, exit codes, input handling."""

import contextlib
import io
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fnmcts import io as fnmcts_io
from fnmcts import theory
from fnmcts.agents import perfect_agent, random_agent
from fnmcts.cli import main
from fnmcts.cli.play import interactive_nim, parse_human_move
from fnmcts.games import Nim, Piles
from fnmcts.games.piles import piles_mover_wins
from fnmcts.rng import make_rng

from cli_run import run, run_json


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
        assert not piles_mover_wins(piles, misere=True)
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


@pytest.mark.slow
@pytest.mark.parametrize("heap", [2, 3, 4, 6, 7, 8, 14, 22, 30])
def test_move_perfect_and_exact_play_the_winning_move(capsys, heap):
    for ai in ("perfect", "exact"):
        data = run_json(capsys, "move", "nim", "--state", str(heap), "--ai", ai, "--seed", "1")
        if heap % 4 != 1:
            assert data["move"] == (heap - 1) % 4


@pytest.mark.slow
def test_move_piles_and_montecarlo(capsys):
    data = run_json(capsys, "move", "piles", "--state", "1,3,5,6", "--ai", "exact")
    assert data["move"] == [0, 1]
    a = run_json(capsys, "move", "nim", "--state", "7", "--ai", "montecarlo", "--dives", "500", "--seed", "4")
    b = run_json(capsys, "move", "nim", "--state", "7", "--ai", "montecarlo", "--dives", "500", "--seed", "4")
    assert a == b and a["move"] in (1, 2, 3)


def test_move_mcts(capsys):
    pytest.importorskip("fnmcts.mcts")
    data = run_json(capsys, "move", "nim", "--state", "6", "--ai", "mcts", "--dives", "2000", "--seed", "1")
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
    fnmcts_io.save_ai(qlearning.train(200, seed=1, game=Piles((1, 2))), path)
    data = run_json(capsys, "move", "piles", "--piles", "1,2", "--state", "1,2", "--ai", "q", "--q-table", str(path))
    assert tuple(data["move"]) in Piles((1, 2)).possible_moves(Piles((1, 2)).start())
    code, _, err = run(capsys, "move", "piles", "--piles", "1,3,5,7", "--state", "1,3,5,7", "--ai", "q",
                       "--q-table", str(path))
    assert code == 2 and "trained on" in err


@pytest.fixture(scope="module")
def q_tables(tmp_path_factory):
    qlearning = pytest.importorskip("fnmcts.qlearning")
    folder = tmp_path_factory.mktemp("q")
    piles, nim = folder / "piles.json", folder / "nim.json"
    fnmcts_io.save_ai(qlearning.train(3_000, seed=1, game=Piles((1, 2))), piles)
    fnmcts_io.save_ai(qlearning.train(3_000, seed=2, game=Nim(heap=9, max_take=3)), nim)
    return {"piles": str(piles), "nim": str(nim)}


def test_q_plays_the_tables_game_when_no_game_is_given(capsys, q_tables):
    """Without --piles/--heap the game is the Q table's, so any state that fits it gets an answer."""
    data = run_json(capsys, "move", "piles", "--state", "0,2", "--ai", "q", "--q-table", q_tables["piles"])
    assert tuple(data["move"]) in theory.winning_moves(Piles((1, 2)), Piles((1, 2)).state((0, 2)))
    data = run_json(capsys, "move", "nim", "--state", "7", "--ai", "q", "--q-table", q_tables["nim"])
    assert data["move"] == 2  # misère, K = 3: leave 5 = 1 mod 4


@pytest.mark.parametrize(
    "kind, state", [("piles", "2,2"), ("piles", "1,2,0"), ("piles", "1"), ("nim", "10"), ("nim", "30")]
)
@pytest.mark.slow
def test_q_refuses_a_state_its_game_cannot_reach(capsys, q_tables, kind, state):
    code, out, err = run(capsys, "move", kind, "--state", state, "--ai", "q", "--q-table", q_tables[kind])
    assert code == 2 and out == "" and "Q table's game" in err and "cannot reach" in err
    assert len(err.strip().splitlines()) == 1


def test_a_q_table_of_the_other_game_is_refused(capsys, q_tables):
    code, _, err = run(capsys, "move", "nim", "--state", "1", "--ai", "q", "--q-table", q_tables["piles"])
    assert code == 2 and "trained on" in err and len(err.strip().splitlines()) == 1
    code, _, err = run(capsys, "tournament", "piles", "q", "random", "--q-table", q_tables["nim"], "--games", "2")
    assert code == 2 and "trained on" in err


# -- --state and the game ----------------------------------------------------------------


def test_without_heap_or_piles_the_game_starts_at_the_state(capsys):
    data = run_json(capsys, "solve", "piles", "--state", "2,3,5,7")
    assert data["game"]["piles"] == [2, 3, 5, 7] and data["state"]["piles"] == [2, 3, 5, 7]
    assert data["winner"] == "mover"  # 2^3^5^7 = 3, not 0 (Bouton)
    data = run_json(capsys, "solve", "nim", "--state", "30", "--normal")
    assert data["game"]["heap"] == 30 and data["winning_moves"] == [2]  # leave 28 = 0 mod 4
    data = run_json(capsys, "move", "piles", "--state", "1,3", "--ai", "exact")
    assert data["move"] == [1, 3]  # misère 1,3: leave 1,0, the opponent takes the last


@pytest.mark.parametrize(
    "argv",
    [
        ("move", "nim", "--heap", "21", "--state", "30"),
        ("move", "nim", "--heap", "5", "--state", '{"heap": 6, "player": 1}'),
        ("move", "piles", "--piles", "1,3,5,7", "--state", "1,3"),
        ("move", "piles", "--piles", "1,3,5,7", "--state", "2,3,5,7"),
        ("move", "piles", "--piles", "1,3,5,7", "--state", "1,3,5,7,1"),
        ("solve", "piles", "--piles", "1,3,5,7", "--state", "2,3,5,7"),
        ("solve", "nim", "--heap", "3", "--state", "4"),
    ],
)
def test_a_state_the_given_game_cannot_reach_is_refused(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and "cannot reach" in err and len(err.strip().splitlines()) == 1


@pytest.mark.slow
@given(st.lists(st.integers(0, 4), min_size=1, max_size=4), st.lists(st.integers(0, 4), min_size=1, max_size=4))
@settings(max_examples=40, deadline=None)
def test_move_answers_iff_the_state_fits_the_given_piles(start, piles):
    fits = len(piles) == len(start) and all(p <= s for p, s in zip(piles, start))
    argv = ["move", "piles", "--piles", ",".join(map(str, start)), "--state", ",".join(map(str, piles)),
            "--ai", "random", "--seed", "1"]
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    if not fits:
        assert code == 2 and "cannot reach" in err.getvalue()
    elif any(piles):
        assert code == 0, err.getvalue()
    else:
        assert code == 2 and "game is over" in err.getvalue()


# -- empty games and empty fields ------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ("play", "nim", "--heap", "0"),
        ("play", "piles", "--piles", "0,0"),
        ("tournament", "nim", "random", "random", "--heap", "0", "--games", "3"),
        ("tournament", "piles", "perfect", "random", "--piles", "0", "--games", "3"),
    ],
)
def test_an_empty_game_is_refused(capsys, monkeypatch, argv):
    code, out, err = run(capsys, *argv, stdin="1\n", monkeypatch=monkeypatch)
    assert code == 2 and out == "" and "nothing to play" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("misere", [True, False])
def test_solve_an_empty_game_says_it_is_over(capsys, misere):
    rule = "--misere" if misere else "--normal"
    code, out, _ = run(capsys, "solve", "nim", "--heap", "0", rule)
    assert code == 0 and "the game is over" in out and "to move wins" not in out and "to move loses" not in out
    data = run_json(capsys, "solve", "piles", "--piles", "0,0", rule)
    assert data["over"] is True and data["winner"] is None and data["winning_moves"] == []
    # nobody took the last item: player 1 "to move" wins under misère (the payoff rule), loses under normal play
    assert data["won"] == (1 if misere else 2)


@pytest.mark.parametrize(
    "argv",
    [
        ("solve", "piles", "--piles", "1,,3"),
        ("play", "piles", "--piles", "1,3,"),
        ("move", "piles", "--state", "1,,3"),
        ("move", "piles", "--piles", "1,,3", "--state", "1,3"),
    ],
)
def test_an_empty_pile_field_is_refused(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and "empty field" in err and len(err.strip().splitlines()) == 1


# -- agents in --help, agents and options that do not fit -------------------------------------------


@pytest.mark.parametrize("kind", ["nim", "piles"])
def test_help_lists_the_agents_in_a_fixed_order(capsys, monkeypatch, kind):
    monkeypatch.setenv("COLUMNS", "400")  # no line wrapping inside "montecarlo-perfect"
    code, out, _ = run(capsys, "move", kind, "--help")
    assert code == 0
    flat = " ".join(out.split())
    assert "random, perfect, montecarlo, montecarlo-perfect, mcts, exact, q" in flat


def test_shut_the_box_lists_only_its_agents(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "400")
    code, out, _ = run(capsys, "move", "shut-the-box", "--help")
    flat = " ".join(out.split())
    assert code == 0 and "the agent: random, montecarlo, montecarlo-perfect, mcts, exact (default exact)" in flat
    state = '{"box": [1, 2, 3], "roll": 3}'
    for ai in ("perfect", "q"):
        code, out, err = run(capsys, "move", "shut-the-box", "--state", state, "--ai", ai)
        assert code == 2 and "cannot play shut-the-box" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "argv, flag",
    [
        (("move", "nim", "--state", "5", "--ai", "random", "--q-table", "t.json"), "--q-table"),
        (("move", "nim", "--state", "5", "--ai", "mcts", "--trials", "5"), "--trials"),
        (("move", "nim", "--state", "5", "--ai", "exact", "--dives", "5"), "--dives"),
        (("move", "nim", "--state", "5", "--ai", "montecarlo", "--rule", "tutorial"), "--rule"),
        (("move", "nim", "--state", "5", "--ai", "perfect", "--c", "1"), "--c"),
        (("move", "piles", "--state", "1,2", "--ai", "perfect", "--final", "mean"), "--final"),
        (("play", "nim", "--ai", "perfect", "--no-solver"), "--no-solver"),
        (("tournament", "nim", "random", "perfect", "--trials", "5"), "--trials"),
    ],
)
def test_an_option_no_chosen_agent_takes_is_refused(capsys, argv, flag):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and err.startswith(f"fnmcts: error: {flag} applies to")
    assert len(err.strip().splitlines()) == 1


def test_an_option_one_of_two_agents_takes_is_accepted(capsys):
    data = run_json(capsys, "tournament", "nim", "montecarlo", "perfect", "--trials", "5", "--games", "4",
                    "--heap", "5", "--seed", "1")
    assert data["games"] == 4


# -- the exact agent's size limit ---------------------------------------------------------------------


def test_exact_refuses_a_game_too_large_to_solve(capsys):
    code, out, err = run(capsys, "move", "piles", "--state", "50,50,50,50", "--ai", "exact")
    assert code == 2 and out == "" and "--ai perfect" in err and "6,765,201" in err  # 51 ** 4 states
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "argv",
    [
        ("move", "piles", "--state", "1,3,5,7", "--ai", "exact"),
        ("move", "nim", "--heap", "100", "--state", "10", "--ai", "exact"),
        ("tournament", "piles", "exact", "random", "--games", "2"),
        ("play", "nim", "--heap", "100", "--ai", "exact"),
    ],
)
@pytest.mark.slow
def test_the_exact_limit_counts_the_games_states(capsys, monkeypatch, argv):
    """Piles 1,3,5,7 have 2*4*6*8 = 384 positions, Nim(100) 101: refused above a limit of 50, run at 384."""
    monkeypatch.setattr("fnmcts.cli._board._EXACT_LIMIT", 50)
    code, out, err = run(capsys, *argv, stdin="", monkeypatch=monkeypatch)
    assert code == 2 and "--ai perfect" in err and len(err.strip().splitlines()) == 1
    monkeypatch.setattr("fnmcts.cli._board._EXACT_LIMIT", 384)
    code, out, err = run(capsys, *argv, stdin="", monkeypatch=monkeypatch)
    assert code == 0, err
    if argv[:2] == ("move", "nim"):
        assert out.strip() == "exact: take 1"  # misère: leave 9 = 1 mod 4


# -- the interactive game's cosmetics ------------------------------------------------------------------


def test_a_single_choice_reads_take_1():
    lines = []
    interactive_nim(Nim(heap=1), perfect_agent, make_rng(1), human=0, read=None, write=lines.append)
    assert "There are 1 matchstick(s). Take 1." in lines
    assert not any("1-1" in line for line in lines)
    lines = []
    answers = iter(["1"] * 5)
    interactive_nim(Nim(heap=5), random_agent, make_rng(1), human=0, read=lambda p: next(answers),
                    write=lines.append)
    assert "There are 5 matchstick(s). Take 1-3." in lines


def test_after_ctrl_c_the_summary_starts_on_a_new_line(capsys, monkeypatch):
    def interrupted(prompt):
        sys.stdout.write(prompt)  # as input() does: the cursor waits after the prompt
        raise KeyboardInterrupt

    monkeypatch.setattr("fnmcts.cli.play.read_line", interrupted)
    code, out, _ = run(capsys, "play", "nim", "--seed", "1")
    assert code == 130
    last = out.splitlines()[-1]
    assert last.startswith("games 0, wins 0, losses 0; stopped (interrupted)")


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
    assert lines[2] == "type a number from 1 to 3 (or q to stop)" and lines[-1] == "Player 1 wins! You win."

    def interrupt(prompt):
        raise KeyboardInterrupt

    summary = interactive_nim(game, perfect_agent, make_rng(1), human=0, read=interrupt, write=lines.append, games=3)
    assert summary["stopped"] == "interrupted" and summary["games"] == 0


@pytest.mark.parametrize("typed", ["q", "quit", " Exit "])
def test_typing_q_stops_the_games_and_the_summary_says_so(typed):
    lines, answers = [], iter([typed, "1"])
    summary = interactive_nim(Nim(heap=4), random_agent, make_rng(1), human=0, read=lambda prompt: next(answers),
                              write=lines.append, games=3)
    assert summary == {"games": 0, "wins": 0, "losses": 0, "stopped": "quit"}


@pytest.mark.parametrize("text", ["0", "4", "", "1 2", "two"])
def test_parse_human_move_rejects(text):
    with pytest.raises(ValueError):
        parse_human_move(Nim(), Nim().state(10), text)


def test_parse_human_move_piles():
    game = Piles((1, 3))
    assert parse_human_move(game, game.start(), "1, 3") == (1, 3)
    with pytest.raises(ValueError):
        parse_human_move(game, game.start(), "0 2")


@pytest.mark.slow
def test_tournament_on_worker_processes_matches_one_process(capsys):
    pytest.importorskip("fnmcts.mcts")
    argv = ("tournament", "nim", "mcts", "montecarlo", "--games", "120", "--dives", "30", "--seed", "5")
    one = run_json(capsys, *argv)
    two = run_json(capsys, *argv, "--workers", "2")
    assert one == two and one["games"] == 120


@pytest.mark.slow
def test_mcts_options_reach_the_search(capsys):
    pytest.importorskip("fnmcts.mcts")
    for extra in (("--rule", "tutorial"), ("--final", "mean"), ("--no-solver",), ("--c", "0.7")):
        data = run_json(capsys, "move", "nim", "--state", "7", "--ai", "mcts", "--dives", "3000", "--seed", "2",
                        *extra)
        assert data["move"] == 2, extra  # leave 5 = 1 mod 4
    for bad in (("--c", "-1"), ("--c", "x"), ("--rule", "ucb9"), ("--final", "best")):
        code, _, err = run(capsys, "move", "nim", "--state", "7", "--ai", "mcts", *bad)
        assert code == 2 and len(err.strip().splitlines()) == 1
