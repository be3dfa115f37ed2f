"""Tic-tac-toe: the rules, the state space, exact values checked by a plain negamax, the text forms."""

from __future__ import annotations

import copy
import itertools
import json
import random
from collections import deque
from fractions import Fraction
from functools import lru_cache

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fnmcts.agents import random_agent
from fnmcts.matches import play_game
from fnmcts.exact import best_moves, evaluate_policy, move_values, random_policy, solve, value
from fnmcts.games import GAMES, TicTacToe
from fnmcts.games.tictactoe import LINES
from fnmcts.montecarlo import playout
from fnmcts.testing import reachable_states  # check_game on tic-tac-toe: tests/test_builtin_game_laws.py

GAME = TicTacToe()
START = GAME.start()

# -- the rules written out again, plainly, without fnmcts ---------------------------------

PLAIN_LINES = [(r, r + 1, r + 2) for r in (0, 3, 6)] + [(c, c + 3, c + 6) for c in (0, 1, 2)] + [(0, 4, 8), (2, 4, 6)]


def plain_lines(board) -> set:
    """The marks that fill a line."""
    return {board[a] for a, b, c in PLAIN_LINES if board[a] and board[a] == board[b] == board[c]}


def plain_mark_to_move(board) -> int:
    return 1 if board.count(1) == board.count(2) else 2


@lru_cache(maxsize=None)
def negamax(board) -> int:
    """+1, 0 or -1: the value of ``board`` for the mark whose turn it is by the counts."""
    if plain_lines(board):
        return -1  # the mark that just moved made the line
    if 0 not in board:
        return 0
    mark = plain_mark_to_move(board)
    return max(-negamax(board[:i] + (mark,) + board[i + 1 :]) for i in range(9) if board[i] == 0)


@lru_cache(maxsize=None)
def random_play_odds(board) -> tuple:
    """(X wins, O wins, draw): the exact chances when both players pick empty cells at random."""
    lines = plain_lines(board)
    if lines or 0 not in board:
        return (Fraction(1 in lines), Fraction(2 in lines), Fraction(not lines))
    mark, empty = plain_mark_to_move(board), [i for i in range(9) if board[i] == 0]
    children = [random_play_odds(board[:i] + (mark,) + board[i + 1 :]) for i in empty]
    return tuple(sum(odds) / len(empty) for odds in zip(*children))


def plain_value(board) -> tuple:
    """The value for (X, O) under perfect play."""
    v = negamax(board) if plain_mark_to_move(board) == 1 else -negamax(board)
    return (v, -v)


def reachable(game) -> dict:
    """Every state reachable from the start by the protocol, breadth first, with its depth."""
    depth, queue = {game.start(): 0}, deque([game.start()])
    while queue:
        state = queue.popleft()
        for move in game.possible_moves(state):
            child = game.play(state, move)
            if child not in depth:
                depth[child] = depth[state] + 1
                queue.append(child)
    return depth


REACHABLE = reachable(GAME)
SOLUTION = solve(GAME)
states = reachable_states(GAME)


def is_legal(board) -> bool:
    try:
        GAME.check_state(board)
    except ValueError:
        return False
    return True


# -- the game as a value ----------------------------------------------------------------


def test_registered_under_its_command_line_name():
    assert GAMES["tic-tac-toe"] is TicTacToe
    assert GAME.name == "tic-tac-toe" and GAME.num_players == 2
    assert TicTacToe() == GAME and hash(TicTacToe()) == hash(GAME)
    assert GAME.payoff_range() == (-1, 1)


def test_the_lines_are_the_rows_columns_and_diagonals():
    assert sorted(LINES) == sorted(PLAIN_LINES)


# -- the state space --------------------------------------------------------------------


def test_5478_states_are_reachable_4520_decisions_and_958_ends():
    decisions = [s for s in REACHABLE if GAME.to_move(s) is not None]
    assert len(REACHABLE) == 5478
    assert len(decisions) == 4520
    assert len(REACHABLE) - len(decisions) == 958


def test_the_legal_boards_are_exactly_the_reachable_ones():
    boards = itertools.product((0, 1, 2), repeat=9)
    assert {b for b in boards if is_legal(b)} == set(REACHABLE)


def test_the_depth_of_a_state_is_its_number_of_marks():
    assert all(depth == 9 - s.count(0) for s, depth in REACHABLE.items())


# -- exact values -----------------------------------------------------------------------


def test_perfect_play_draws():
    assert value(SOLUTION, START) == (0, 0)
    assert negamax(START) == 0


def test_random_play_wins_for_x_737_times_in_1260():
    assert random_play_odds(START) == (Fraction(737, 1260), Fraction(121, 420), Fraction(8, 63))
    values = evaluate_policy(GAME, random_policy, opponent=random_policy)
    assert all(values[s][0] == random_play_odds(s)[0] - random_play_odds(s)[1] for s in REACHABLE)


def test_the_solver_agrees_with_a_plain_negamax_on_every_reachable_state():
    assert set(SOLUTION) == set(REACHABLE)
    assert all(SOLUTION[s] == plain_value(s) for s in REACHABLE)


def test_o_must_take_6_where_8_loses():
    # O to move with cells 6 and 8 empty: 6 draws; 8 lets X complete the left column
    state = (1, 2, 1, 1, 2, 2, 0, 1, 0)
    assert GAME.to_move(state) == 1
    assert value(SOLUTION, state) == (0, 0)
    assert dict(move_values(GAME, SOLUTION, state)) == {6: (0, 0), 8: (1, -1)}
    assert GAME.play(GAME.play(state, 8), 6) == (1, 2, 1, 1, 2, 2, 1, 1, 2)
    assert GAME.payoff(GAME.play(GAME.play(state, 8), 6)) == (1, -1)


def test_o_wins_only_by_taking_the_corner_6():
    state = (0, 1, 0, 0, 0, 1, 0, 0, 2)
    assert GAME.to_move(state) == 1
    assert value(SOLUTION, state) == (-1, 1)
    assert best_moves(GAME, SOLUTION, state) == (6,)
    assert [m for m, v in move_values(GAME, SOLUTION, state) if v == (-1, 1)] == [6]


def test_x_must_block_at_7():
    state = (1, 2, 1, 1, 0, 0, 2, 0, 2)
    assert GAME.to_move(state) == 0
    assert dict(move_values(GAME, SOLUTION, state)) == {4: (-1, 1), 5: (-1, 1), 7: (0, 0)}
    assert best_moves(GAME, SOLUTION, state) == (7,)


# -- rules as properties over reachable states ------------------------------------------


@given(states)
def test_terminal_iff_a_line_or_a_full_board(reached):
    state = reached.state
    over = bool(plain_lines(state)) or 0 not in state
    assert (GAME.to_move(state) is None) == over
    assert (GAME.possible_moves(state) == ()) == over


@given(states)
def test_payoffs_are_zero_sum_and_name_the_line(reached):
    state = reached.state
    if GAME.to_move(state) is not None:
        with pytest.raises(ValueError, match="not over"):
            GAME.payoff(state)
        return
    pay = GAME.payoff(state)
    assert sum(pay) == 0
    assert pay == {frozenset({1}): (1, -1), frozenset({2}): (-1, 1), frozenset(): (0, 0)}[frozenset(plain_lines(state))]


@given(states)
def test_x_moves_first_and_the_players_alternate(reached):
    state = reached.state
    if GAME.to_move(state) is not None:
        assert GAME.to_move(state) == len(reached.path) % 2
        assert GAME.possible_moves(state) == tuple(i for i in range(9) if state[i] == 0)


@given(states)
def test_play_marks_one_cell_and_never_changes_its_input(reached):
    state = reached.state
    before = copy.deepcopy(state)
    for move in GAME.possible_moves(state):
        after = GAME.play(state, move)
        assert state == before
        assert [i for i in range(9) if after[i] != state[i]] == [move]
        assert after[move] == 1 + GAME.to_move(state)
        assert GAME.check_state(after) is after


@given(states)
def test_play_refuses_taken_cells_and_anything_but_an_empty_cell(reached):
    state = reached.state
    for move in [i for i in range(9) if state[i]] + [-1, 9, 4.0, "4", True, None, (4,)]:
        with pytest.raises(ValueError, match="illegal move"):
            GAME.play(state, move)
    if GAME.to_move(state) is None:
        for move in range(9):
            with pytest.raises(ValueError, match="game is over"):
                GAME.play(state, move)


@given(states)
def test_json_round_trip(reached):
    state = reached.state
    data = GAME.state_to_json(state)
    assert data == list(state)
    assert GAME.state_from_json(json.loads(json.dumps(data))) == state


@given(states, st.randoms(use_true_random=False))
def test_the_random_playout_kernel_draws_as_playout_does(reached, rng):
    seed = rng.getrandbits(32)
    fast, slow = random.Random(seed), random.Random(seed)
    assert GAME.random_payoff(reached.state, fast) == GAME.payoff(playout(GAME, reached.state, slow, random_agent))
    assert fast.getstate() == slow.getstate()


# -- checking states --------------------------------------------------------------------


@pytest.mark.parametrize(
    "board, problem",
    [
        ([0] * 9, "tuple of 9 cells"),
        ((0,) * 8, "tuple of 9 cells"),
        ((0,) * 10, "tuple of 9 cells"),
        ("000000000", "tuple of 9 cells"),
        ((3, 0, 0, 0, 0, 0, 0, 0, 0), "got 3"),
        ((True, 0, 0, 0, 0, 0, 0, 0, 0), "got True"),
        ((1.0, 0, 0, 0, 0, 0, 0, 0, 0), "got 1.0"),
        ((2, 0, 0, 0, 0, 0, 0, 0, 0), "X has 0 marks and O has 1"),
        ((1, 1, 0, 0, 0, 0, 0, 0, 0), "X has 2 marks and O has 0"),
        ((1, 1, 1, 2, 2, 2, 0, 0, 0), "both X and O"),
        ((1, 1, 1, 2, 2, 0, 2, 0, 0), "X has three in a row"),
        ((2, 2, 2, 1, 1, 0, 1, 0, 1), "O has three in a row"),
    ],
)
def test_check_state_names_the_problem(board, problem):
    with pytest.raises(ValueError, match=problem):
        GAME.check_state(board)


@given(st.tuples(*[st.sampled_from((0, 1, 2))] * 9))
def test_check_state_accepts_exactly_the_reachable_boards_and_returns_them(board):
    if board in REACHABLE:
        assert GAME.check_state(board) is board
    else:
        with pytest.raises(ValueError):
            GAME.check_state(board)


@pytest.mark.parametrize("data", [[1, 2], {"cells": [0] * 9}, "000000000", [1, 1, 0, 0, 0, 0, 0, 0, 0], None])
def test_state_from_json_refuses_bad_data(data):
    with pytest.raises(ValueError):
        GAME.state_from_json(data)


# -- the text forms ---------------------------------------------------------------------


@st.composite
def written_states(draw):
    """A reachable state and one of the ways of writing it."""
    state = draw(states).state
    form = draw(st.sampled_from(["commas", "digits", "json", "board", "lines"]))
    if form == "commas":
        return state, draw(st.sampled_from([",", ", ", " , "])).join(map(str, state))
    if form == "digits":
        return state, "".join(map(str, state))
    if form == "json":
        return state, json.dumps(list(state))
    empty = draw(st.sampled_from(".-_0"))
    cells = [empty if c == 0 else draw(st.sampled_from("xX" if c == 1 else "oO")) for c in state]
    if form == "board":
        return state, "".join(cells)
    return state, "\n".join(" ".join(cells[r : r + 3]) for r in (0, 3, 6))


@given(written_states())
def test_parse_state_reads_every_written_form(written):
    state, text = written
    assert GAME.parse_state(text) == state
    assert GAME.parse_state(f"  {text}\n") == state


def test_parse_state_reads_the_forms_of_a_bug_report():
    expected = (1, 2, 1, 1, 2, 2, 0, 1, 0)
    forms = ["1,2,1,1,2,2,0,1,0", "121122010", "[1, 2, 1, 1, 2, 2, 0, 1, 0]", "XOXXOO.X.", "xoxxoo-x_", "XOXXOO0X0"]
    for text in forms:
        assert GAME.parse_state(text) == expected


@pytest.mark.parametrize(
    "text",
    ["", "12", "1212121212", "XOXXOO.X", "XOXXOO.X..", "abcdefghi", "1,2,1,1,2,2,0,1", "1,2,1,1,2,2,0,1,0,",
     "3,0,0,0,0,0,0,0,0", "XO1XOO.X.", "[1, 2", "[1, 2]", "[[1], 2, 1, 1, 2, 2, 0, 1, 0]"],
)
def test_parse_state_refuses_bad_text_and_shows_the_forms(text):
    with pytest.raises(ValueError) as error:
        GAME.parse_state(text)
    assert "121122010" in str(error.value) or "JSON" in str(error.value)


@pytest.mark.parametrize("text", ["111111111", "XXX......", "1,1,1,2,2,2,0,0,0"])
def test_parse_state_refuses_positions_play_cannot_reach(text):
    with pytest.raises(ValueError, match="X has|both X and O"):
        GAME.parse_state(text)


@given(st.text(max_size=30))
def test_parse_state_gives_a_legal_state_or_a_value_error(text):
    try:
        state = GAME.parse_state(text)
    except ValueError:
        return
    assert state in REACHABLE


def test_parse_state_wants_text():
    with pytest.raises(TypeError):
        GAME.parse_state((1, 2, 1, 1, 2, 2, 0, 1, 0))


@given(states)
def test_parse_move_reads_the_empty_cells_as_typed(reached):
    state = reached.state
    for move in GAME.possible_moves(state):
        assert GAME.parse_move(state, f" {move}\n") == move


@pytest.mark.parametrize("text", ["", "0", "7", "9", "-1", "6.0", "six", "6 8", "\u0666"])
def test_parse_move_refuses_anything_but_an_empty_cell(text):
    with pytest.raises(ValueError, match="empty cell: 6 or 8"):
        GAME.parse_move((1, 2, 1, 1, 2, 2, 0, 1, 0), text)


def test_parse_move_at_the_end():
    with pytest.raises(ValueError, match="game is over"):
        GAME.parse_move((1, 1, 1, 2, 2, 0, 0, 0, 0), "5")


# -- words and pictures -----------------------------------------------------------------


@given(states)
def test_render_shows_the_marks_and_the_numbers_of_the_empty_cells(reached):
    state = reached.state
    rows = GAME.render(state).split("\n")
    assert len(rows) == 3
    cells = [cell for row in rows for cell in row.split(" | ")]
    assert cells == ["XO"[c - 1] if c else str(i) for i, c in enumerate(state)]


def test_render_of_the_start():
    assert GAME.render(START) == "0 | 1 | 2\n3 | 4 | 5\n6 | 7 | 8"


def test_describe_move_and_transcript_line():
    assert GAME.describe_move(START, 4) == "X at 4"
    assert GAME.describe_move(GAME.play(START, 4), 0) == "O at 0"
    assert GAME.describe_move(None, 4) == "cell 4"
    assert GAME.transcript_line(0, 4, GAME.play(START, 4)) == "Player 1 (X) plays 4."
    assert GAME.transcript_line(1, 0, (2, 0, 0, 0, 1, 0, 0, 0, 0)) == "Player 2 (O) plays 0."


def test_a_whole_game_between_agents_ends_in_a_legal_state():
    record = play_game(GAME, random_agent, random_agent, seed=7)
    assert GAME.to_move(record.end) is None and record.end in REACHABLE
    assert record.payoff == GAME.payoff(record.end)
