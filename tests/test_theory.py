"""The closed forms (fnmcts.games.nim, fnmcts.games.piles, through fnmcts.theory) agree with the exact solver."""

from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fnmcts import theory
from fnmcts.exact import best_moves, solve, value
from fnmcts.games import Nim, Piles, ShutTheBox
from fnmcts.games import nim as subtraction
from fnmcts.games import piles as bouton


def _exact_mover_wins(game, solution, state):
    player = game.to_move(state)
    if player is None:  # the end: the payoff of the player who would move now
        return game.payoff(state)[state["player"]] > 0
    return value(solution, state)[player] > 0


def _exact_winning_moves(game, solution, state):
    return best_moves(game, solution, state) if _exact_mover_wins(game, solution, state) else ()


@pytest.mark.parametrize("misere", [True, False])
@pytest.mark.parametrize("max_take", [1, 2, 3, 4, 5, 7])
def test_subtraction_game_matches_exact_on_every_heap_up_to_40(max_take, misere):
    game = Nim(heap=40, max_take=max_take, misere=misere)
    solution = solve(game, *(game.state(n, p) for n in range(41) for p in (0, 1)))
    for n, p in product(range(41), (0, 1)):
        state = game.state(n, p)
        assert subtraction.subtraction_mover_wins(n, max_take, misere) == _exact_mover_wins(game, solution, state)
        assert theory.winning_moves(game, state) == _exact_winning_moves(game, solution, state)


@st.composite
def subtraction_positions(draw):
    return draw(st.integers(0, 60)), draw(st.integers(1, 9)), draw(st.booleans())


@given(subtraction_positions())
def test_subtraction_winning_move_leaves_a_lost_position(position):
    heap, k, misere = position
    moves = subtraction.subtraction_winning_moves(heap, k, misere)
    assert len(moves) <= 1
    assert bool(moves) == (heap > 0 and subtraction.subtraction_mover_wins(heap, k, misere))
    for m in moves:
        assert 1 <= m <= min(k, heap)
        assert not subtraction.subtraction_mover_wins(heap - m, k, misere)
    if heap > 0 and not moves:  # every move from a lost position hands the opponent a win
        assert all(subtraction.subtraction_mover_wins(heap - m, k, misere) for m in range(1, min(k, heap) + 1))


@pytest.mark.slow
@pytest.mark.parametrize("misere", [True, False])
@pytest.mark.parametrize("shape", [(1, 3, 5, 7), (4, 4, 4), (2, 2, 2, 2, 2), (6, 5), (1, 1, 1, 1, 9)])
def test_piles_match_exact_on_every_state_below_a_shape(shape, misere):
    """Every position with piles[i] <= shape[i] (the whole [1, 3, 5, 7] game among them)."""
    game = Piles(shape, misere=misere)
    states = [game.state(piles, p) for piles in product(*(range(s + 1) for s in shape)) for p in (0, 1)]
    solution = solve(game, *states)
    for state in states:
        assert theory.mover_wins(game, state) == _exact_mover_wins(game, solution, state), state
        assert theory.winning_moves(game, state) == _exact_winning_moves(game, solution, state), state


@st.composite
def pile_positions(draw):
    piles = tuple(draw(st.lists(st.integers(0, 12), min_size=1, max_size=6)))
    return piles, draw(st.booleans())


@given(pile_positions())
def test_piles_winning_moves_are_legal_and_leave_lost_positions(position):
    piles, misere = position
    moves = bouton.piles_winning_moves(piles, misere)
    assert bool(moves) == (any(piles) and bouton.piles_mover_wins(piles, misere))
    assert list(moves) == sorted(moves)
    for i, j in moves:
        assert 1 <= j <= piles[i]
        after = piles[:i] + (piles[i] - j,) + piles[i + 1 :]
        assert not bouton.piles_mover_wins(after, misere)


@given(pile_positions())
def test_normal_play_is_the_nim_sum_rule(position):
    piles, _ = position
    xor = 0
    for p in piles:
        xor ^= p
    assert bouton.nim_sum(piles) == xor
    assert bouton.piles_mover_wins(piles, misere=False) == (xor != 0)


@given(pile_positions())
def test_one_pile_is_the_subtraction_game_without_a_limit(position):
    piles, misere = position
    heap = piles[0]
    assert bouton.piles_mover_wins((heap,), misere) == subtraction.subtraction_mover_wins(heap, max(heap, 1), misere)


def test_winner_names():
    assert theory.winner(Nim(heap=21, misere=True), Nim(heap=21).start()) == theory.OTHER == "other"
    assert theory.winner(Nim(heap=21, misere=False), Nim(heap=21).start()) == theory.MOVER == "mover"
    assert bouton.piles_winner((1, 3, 5, 7), misere=False) == "other"  # nim-sum 0


def test_no_closed_form_for_other_games():
    assert not theory.has_closed_form(ShutTheBox())
    with pytest.raises(TypeError, match="no closed form"):
        theory.winning_moves(ShutTheBox(), ShutTheBox().start())


@pytest.mark.parametrize(
    "call",
    [
        lambda: subtraction.subtraction_mover_wins(-1, 3),
        lambda: subtraction.subtraction_mover_wins(5, 0),
        lambda: bouton.piles_mover_wins((1, -2)),
    ],
)
def test_bad_sizes_are_value_errors(call):
    with pytest.raises(ValueError):
        call()


@pytest.mark.parametrize(
    "call",
    [lambda: subtraction.subtraction_mover_wins(2.5, 3), lambda: bouton.nim_sum(7), lambda: bouton.nim_sum(("a",))],
)
def test_bad_types_are_type_errors(call):
    with pytest.raises(TypeError):
        call()
