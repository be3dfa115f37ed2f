"""``--batch K`` on ``search`` and ``move``: one tree, K dives a step, the library's ``mcts_move(..., batch=K)``."""

from concurrent.futures import ThreadPoolExecutor

import pytest

from cli_run import run, run_json
from fnmcts.games import Nim, TicTacToe
from fnmcts.mcts import mcts_move, visits as visits_of
from fnmcts.protocol import describe_move
from fnmcts.rng import make_rng

SEARCH = ("search", "nim", "--heap", "9", "--dives", "300", "--no-solver", "--seed")
MOVE = ("move", "tic-tac-toe", "--ai", "mcts", "--state", "120000000", "--dives", "200", "--no-solver", "--seed")


@pytest.mark.parametrize("seed, batch", [(3, 2), (5, 8)])
def test_search_with_batch_is_the_library_s_batched_search(capsys, seed, batch):
    game = Nim(heap=9)
    shown = run_json(capsys, *SEARCH, str(seed), "--batch", str(batch))
    with ThreadPoolExecutor(2) as pool:  # anywhere: the same tree
        found = mcts_move(game, game.start(), 300, make_rng(seed), solver=False, batch=batch, executor=pool)
    visits = {describe_move(game, game.start(), move): visits_of(record) for move, record in found.children}
    assert shown["batch"] == batch and shown["dives_run"] == found.iterations == 300
    assert shown["best_move"] == describe_move(game, game.start(), found.move)
    assert shown["moves"] and all(row["visits"] == visits[row["move"]] for row in shown["moves"])


def test_move_with_batch_plays_the_batched_search_s_move(capsys):
    board = TicTacToe()
    state = board.parse_state("120000000")
    shown = run_json(capsys, *MOVE, "2", "--batch", "4")
    assert shown["batch"] == 4 and shown["move"] == mcts_move(board, state, 200, make_rng(2), solver=False, batch=4).move


@pytest.mark.parametrize(
    "argv, line",
    [
        ((*SEARCH, "1", "--batch", "4", "--trees", "2"), "give --trees N (independent trees) or --batch K"),
        ((*MOVE, "1", "--batch", "4", "--seconds", "1"), "--batch runs on --dives alone: drop --seconds"),
        ((*MOVE, "1", "--batch", "4", "--root", "gumbel"), "--root plans the dives of one search: drop it, or --batch"),
        (("move", "tic-tac-toe", "--ai", "exact", "--batch", "2"), "--batch applies to --ai mcts only, not exact"),
        (("search", "--game", "shut-the-box", "--dives", "50", "--batch", "2"), "--batch K searches from a state where"),
        ((*SEARCH, "1", "--batch", "0"), "--batch"),
        ((*SEARCH, "1", "--batch", "4", "--rule", "tutorial"), "a batched search (batch=) does not support rule="),
    ],
)
def test_what_a_batched_search_cannot_take_is_one_line(capsys, argv, line):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, err
    assert line in err
