"""``check_against``: two implementations of a game in lockstep, reported at the shortest line where they differ."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from small_games import TableGame, table_games

from fnmcts import GameBase
from fnmcts.games import Nim, Piles, TicTacToe
from fnmcts.protocol import CHANCE
from fnmcts.testing import (
    check_against,
    describe_difference,
    find_difference,
    nim_games,
    piles_games,
    shut_the_box_games,
)


@settings(max_examples=30)
@given(st.one_of(table_games(), nim_games(max_heap=10), piles_games(max_piles=3, max_pile=3),
                 shut_the_box_games(max_levers=4)))
def test_a_game_agrees_with_itself(game):
    assert find_difference(game, game, depth=6, max_examples=0) is None  # every line of up to 6 steps


def test_walks_find_nothing_between_a_game_and_itself():
    for game in (Nim(heap=30, max_take=4), Piles((2, 3, 4))):
        assert find_difference(game, game, depth=2, max_examples=30) is None


def _shortest_to(table, bad) -> int | None:
    """The fewest steps from node 0 to a node in ``bad`` (breadth-first over the table): the independent answer."""
    queue, seen = deque([(0, 0)]), {0}
    while queue:
        node, steps = queue.popleft()
        if node in bad:
            return steps
        entry = table[node]
        children = entry[2] if entry[0] == "move" else [c for c, _ in entry[1]] if entry[0] == "chance" else []
        for child in children:
            if child not in seen:
                seen.add(child)
                queue.append((child, steps + 1))
    return None


@st.composite
def altered_games(draw):
    """A table game and a copy with the payoff of one end changed."""
    game = draw(table_games(players=2))
    ends = [i for i, entry in enumerate(game.table) if entry[0] == "end"]
    node = draw(st.sampled_from(ends))
    x = game.table[node][1][0]
    other = draw(st.sampled_from([y for y in (1, 0, -1) if y != x]))
    table = game.table[:node] + (("end", (other, -other)),) + game.table[node + 1:]
    return game, TableGame(table, 2), node


@settings(max_examples=60)
@given(altered_games())
def test_the_difference_is_found_at_the_shortest_line_to_the_changed_end(games):
    game, altered, node = games
    found = find_difference(game, altered, depth=20, max_examples=0)
    steps = _shortest_to(game.table, {node})
    if steps is None:  # the changed end cannot be reached: nothing differs
        assert found is None
    else:
        assert found is not None and found.what == "payoff" and len(found.path) == steps
        assert found.state_a == node == found.state_b


def test_moves_only_in_one_game_are_listed_in_each_game_s_terms():
    found = find_difference(Nim(heap=7, max_take=3), Nim(heap=7, max_take=2))
    assert (found.path, found.what, found.only_in_a, found.only_in_b) == ((), "moves", (3,), ())
    # the shortest line to a heap where 'take 3' matters in b but is missing in a: none, b has fewer; reversed:
    found = find_difference(Nim(heap=7, max_take=2), Nim(heap=7, max_take=3))
    assert found.only_in_a == () and found.only_in_b == (3,)


@dataclass(frozen=True)
class OffsetNim(Nim):
    """Nim whose moves are written 10 more than the number taken: the same game under other names."""

    def possible_moves(self, state):
        return tuple(m + 10 for m in super().possible_moves(state))

    def play(self, state, move):
        return super().play(state, move - 10)


def test_translate_names_a_move_of_a_as_b_knows_it():
    assert find_difference(Nim(heap=9), OffsetNim(heap=9)).what == "moves"
    assert find_difference(Nim(heap=9), OffsetNim(heap=9), translate=lambda m: m + 10) is None


def test_chance_distributions_are_compared_outcome_by_outcome():
    fair = TableGame((("chance", ((1, Fraction(1, 2)), (2, Fraction(1, 2)))), ("end", (1, -1)), ("end", (-1, 1))))
    loaded = TableGame((("chance", ((1, Fraction(2, 3)), (2, Fraction(1, 3)))), ("end", (1, -1)), ("end", (-1, 1))))
    found = find_difference(fair, loaded)
    assert found.what == "chance" and found.path == ()
    assert found.only_in_a == ((0, Fraction(1, 2)), (1, Fraction(1, 2)))
    assert found.only_in_b == ((0, Fraction(2, 3)), (1, Fraction(1, 3)))


def test_whose_turn_and_a_game_that_raises_are_differences():
    first = TableGame((("move", 0, (1,)), ("end", (1, -1))))
    second = TableGame((("move", 1, (1,)), ("end", (1, -1))))
    assert find_difference(first, second).what == "to_move"

    @dataclass(frozen=True)
    class Fragile(Nim):
        def play(self, state, move):
            assert state["heap"] != 5, "no take at five"
            return super().play(state, move)

    found = find_difference(Nim(heap=7), Fragile(heap=7))
    assert found.what == "raised" and found.path == (2, 1)  # the first line to a heap of 5, then a move
    assert "AssertionError: no take at five" in found.b


def test_check_against_raises_a_report():
    with pytest.raises(AssertionError) as report:
        check_against(Piles((1, 2)), Piles((1, 2), misere=False))
    text = str(report.value)
    assert "differ in their payoffs" in text and "a: payoff" in text and "b: payoff" in text


# -- the exit test: a hand-written Connect Four against OpenSpiel's -----------------------------

ROWS, COLUMNS = 6, 7


def _four(columns, column) -> bool:
    """True when the disc just dropped in ``column`` makes four in a row."""
    row = len(columns[column]) - 1
    mark = columns[column][row]
    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        run = 1
        for sign in (1, -1):
            c, r = column + sign * dc, row + sign * dr
            while 0 <= c < COLUMNS and 0 <= r < len(columns[c]) and columns[c][r] == mark:
                run, c, r = run + 1, c + sign * dc, r + sign * dr
        if run >= 4:
            return True
    return False


@dataclass(frozen=True)
class ConnectFour(GameBase):
    """Connect Four by hand: a state is (columns bottom-up, player to move, result); a move is a column.

    With ``last_move_bug``, a full board is checked before four in a row, so a win
    on the last move is scored as a draw.
    """

    last_move_bug: bool = False
    num_players = 2

    def start(self):
        return (((),) * COLUMNS, 0, None)

    def to_move(self, state):
        return None if state[2] is not None else state[1]

    def possible_moves(self, state):
        return () if state[2] is not None else tuple(c for c in range(COLUMNS) if len(state[0][c]) < ROWS)

    def play(self, state, move):
        columns, player, _ = state
        columns = columns[:move] + (columns[move] + (player,),) + columns[move + 1:]
        full = all(len(c) == ROWS for c in columns)
        if self.last_move_bug and full:
            result = "draw"
        elif _four(columns, move):
            result = player
        else:
            result = "draw" if full else None
        return (columns, 1 - player, result)

    def payoff(self, state):
        return (0, 0) if state[2] == "draw" else ((1, -1) if state[2] == 0 else (-1, 1))


@pytest.fixture
def openspiel_connect_four():
    pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: pip install 'fnmcts[openspiel]'")
    from fnmcts.openspiel import from_openspiel

    return from_openspiel("connect_four")


def test_a_hand_written_connect_four_agrees_with_openspiel_s(openspiel_connect_four):
    assert find_difference(ConnectFour(), openspiel_connect_four, depth=3, max_examples=40) is None


def test_a_win_on_the_last_move_scored_as_a_draw_is_found_at_the_shortest_such_line(openspiel_connect_four):
    game = openspiel_connect_four
    # about 1 walk in 30 that avoids ending the game reaches such a board; seed 2 finds one early (seeds 0-4 all
    # find it, in 2 to 11 s on a busy machine)
    found = find_difference(ConnectFour(last_move_bug=True), game, seed=2)
    assert found is not None and found.what == "payoff"
    # the bug shows only when the 42nd disc fills the board and makes four: no line of fewer steps differs
    assert len(found.path) == ROWS * COLUMNS
    assert found.a == "payoff (0, 0)" and found.b in ("payoff (1, -1)", "payoff (-1, 1)")
    native = game.native_state(found.state_b)
    assert native.is_terminal() and native.returns()[0] != 0
    before = game.native_state(game.start())
    for move in found.path[:-1]:
        before.apply_action(move)
    assert not before.is_terminal()  # the game went on to the last disc
    report = describe_difference(ConnectFour(last_move_bug=True), game, found)
    assert report.splitlines()[1].startswith("  after 42 steps: (")


def test_tic_tac_toe_agrees_with_openspiel_s():
    pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: pip install 'fnmcts[openspiel]'")
    from fnmcts.openspiel import from_openspiel

    assert find_difference(TicTacToe(), from_openspiel("tic_tac_toe"), depth=4, max_examples=60) is None
