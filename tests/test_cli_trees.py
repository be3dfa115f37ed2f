"""``--trees N`` on ``search`` and ``move``: root-parallel search from the command line, the serial result anywhere."""

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from cli_run import run, run_json
from executor_matrix import need
from fnmcts.games import Nim, TicTacToe
from fnmcts.mcts import mcts_move, visits as visits_of
from fnmcts.protocol import describe_move
from fnmcts.rng import make_rng

SEARCH = ("search", "nim", "--heap", "9", "--dives", "300", "--no-solver", "--seed")
MOVE = ("move", "tic-tac-toe", "--ai", "mcts", "--state", "120000000", "--dives", "200", "--no-solver", "--seed")


def _unclocked(payload: dict) -> dict:
    return {k: v for k, v in payload.items() if k != "dives_per_second"}


@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(0, 2**32), st.integers(2, 4))
def test_search_with_trees_is_the_library_s_root_parallel_search(capsys, seed, trees):
    game = Nim(heap=9)
    shown = run_json(capsys, *SEARCH, str(seed), "--trees", str(trees))
    found = mcts_move(game, game.start(), 300, make_rng(seed), solver=False, trees=trees, workers=1)
    visits = {describe_move(game, game.start(), move): visits_of(record) for move, record in found.children}
    assert shown["trees"] == trees and shown["dives_run"] == found.iterations == 300
    assert shown["best_move"] == describe_move(game, game.start(), found.move)
    assert shown["moves"] and all(row["visits"] == visits[row["move"]] for row in shown["moves"])


def test_move_with_trees_plays_the_root_parallel_search_s_move(capsys):
    board = TicTacToe()
    state = board.parse_state("120000000")
    for seed in (1, 2):
        shown = run_json(capsys, *MOVE, str(seed), "--trees", "3")
        found = mcts_move(board, state, 200, make_rng(seed), solver=False, trees=3, workers=1)
        assert shown["trees"] == 3 and shown["move"] == found.move


def test_one_tree_is_the_plain_search(capsys):
    plain = run_json(capsys, *SEARCH, "4")
    assert _unclocked(run_json(capsys, *SEARCH, "4", "--trees", "1")) == _unclocked(plain)
    assert plain["trees"] == 1
    assert run_json(capsys, *MOVE, "4", "--trees", "1")["move"] == run_json(capsys, *MOVE, "4")["move"]


@pytest.mark.parametrize(
    "argv, line",
    [
        ((*SEARCH, "1", "--workers", "2"), "--workers and --executor run the trees of a root-parallel search: give --trees N too"),
        ((*MOVE, "1", "--executor", "dask:local:2"), "--workers and --executor run the trees of a root-parallel search"),
        ((*MOVE, "1", "--trees", "2", "--seconds", "1"), "--trees grows fresh trees on --dives alone: drop --seconds"),
        ((*MOVE, "1", "--trees", "2", "--root", "gumbel"), "--root plans the dives of one search: drop it, or --trees"),
        (("move", "tic-tac-toe", "--ai", "exact", "--trees", "2"), "--trees applies to --ai mcts only, not exact"),
        (("move", "tic-tac-toe", "--ai", "exact", "--hints", "mcts", "--trees", "2"), "--trees applies to --ai mcts only"),
        (("search", "--game", "shut-the-box", "--dives", "50", "--trees", "2"), "--trees N searches from a state where a player moves"),
        ((*SEARCH, "1", "--trees", "2", "--workers", "2", "--executor", "processes:2"), "not both"),
        ((*SEARCH, "1", "--trees", "0"), "--trees"),
    ],
)
def test_what_a_search_of_several_trees_cannot_take_is_one_line(capsys, argv, line):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, err
    assert line in err


def test_the_any_game_form_of_move_takes_trees(capsys):
    shown = run_json(capsys, "move", "--game", "nim(heap=9)", "--dives", "300", "--seed", "2", "--trees", "2")
    found = mcts_move(Nim(heap=9), Nim(heap=9).start(), 300, make_rng(2), trees=2, workers=1)
    assert shown["move"] == found.move and shown["trees"] == 2


@pytest.mark.slow
def test_the_trees_give_the_serial_result_on_every_executor(capsys):
    """--workers 2, processes:2 and a Dask LocalCluster: the serial report, move for move and visit for visit."""
    need("distributed", "pip install 'fnmcts[dask]'")
    search = (*SEARCH, "7", "--trees", "4")
    move = (*MOVE, "7", "--trees", "4")
    serial_search, serial_move = _unclocked(run_json(capsys, *search)), run_json(capsys, *move)
    for where in (("--workers", "2"), ("--executor", "processes:2"), ("--executor", "dask:local:2")):
        assert _unclocked(run_json(capsys, *search, *where)) == serial_search, where
        assert run_json(capsys, *move, *where) == serial_move, where
