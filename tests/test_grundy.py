"""The Sprague-Grundy solver and Kayles: against the exact solver, Bouton's theorem and OEIS A002186."""

from __future__ import annotations

from dataclasses import dataclass
from functools import reduce
from operator import xor

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fnmcts.exact import solve
from fnmcts.games import Kayles, Nim, Piles, ShutTheBox
from fnmcts.grundy import grundy, grundy_values, mex, nim_sum
from fnmcts.testing import check_game, golden, reachable_states


@given(st.lists(st.integers(0, 12), max_size=12))
def test_mex_is_the_least_whole_number_missing(values):
    m = mex(values)
    assert m not in values and all(k in values for k in range(m))


@given(st.lists(st.integers(0, 64), max_size=8))
def test_nim_sum_is_the_xor(values):
    assert nim_sum(values) == reduce(xor, values, 0)
    assert nim_sum(values + values) == 0


@dataclass(frozen=True)
class WholeKayles(Kayles):
    """Kayles that does not say it is a sum: its Grundy values come from the mex recursion alone."""

    def components(self, state):
        return (state,)


@st.composite
def kayles_states(draw):
    game = Kayles(tuple(draw(st.lists(st.integers(0, 7), min_size=1, max_size=3))))
    return draw(reachable_states(game, max_depth=8))


@settings(max_examples=60)
@given(kayles_states())
def test_the_player_to_move_wins_kayles_exactly_when_the_grundy_value_is_not_zero(reached):
    game, state = reached.game, reached.state
    who = game.to_move(state)
    value = solve(game, state)[state]
    if who is None:
        assert grundy(game, state) == 0
    else:
        assert (grundy(game, state) != 0) == (value[who] == 1)


@pytest.mark.slow
@settings(max_examples=40)
@given(st.lists(st.integers(0, 9), min_size=1, max_size=3))
def test_the_value_of_a_sum_is_the_xor_of_its_parts(rows):
    # the components hook xors the rows' values; the plain recursion over the whole position agrees
    assert grundy(Kayles(tuple(rows))) == grundy(WholeKayles(tuple(rows))) == nim_sum(grundy(Kayles(r)) for r in rows)


@settings(max_examples=40)
@given(st.lists(st.integers(0, 5), min_size=1, max_size=3))
def test_bouton_a_nim_position_is_worth_the_xor_of_its_piles(piles):
    assert grundy(Piles(tuple(piles), misere=False)) == reduce(xor, piles, 0)


@settings(max_examples=30)
@given(st.integers(0, 30), st.integers(1, 5))
def test_a_subtraction_game_is_worth_its_heap_mod_one_more_than_the_most_taken(heap, most):
    assert grundy(Nim(heap=heap, max_take=most, misere=False)) == heap % (most + 1)


def test_kayles_is_oeis_a002186_for_rows_up_to_104():
    expected = list(golden("kayles")["values"])
    game = Kayles()
    assert list(grundy_values(game, [game.row(n) for n in range(105)])) == expected
    assert grundy(Kayles(104)) == expected[104]  # in one call, from nothing known


def test_chance_is_refused():
    with pytest.raises(ValueError, match="games without chance"):
        grundy(ShutTheBox(levers=3))


@pytest.mark.slow
def test_kayles_keeps_every_game_law():
    assert check_game(Kayles((2, 5)), max_examples=40)
    assert check_game(Kayles(0), max_examples=5)


@settings(max_examples=40)
@given(kayles_states())
def test_kayles_moves_take_one_or_two_pins(reached):
    game, state = reached.game, reached.state
    for move in game.possible_moves(state):
        after = game.play(state, move)
        assert sum(state[0]) - sum(after[0]) == move[2] in (1, 2)
        assert len(after[0]) - len(state[0]) in (-1, 0, 1)


def test_kayles_refuses_bad_pins_and_moves():
    with pytest.raises(ValueError, match="0 pins or more"):
        Kayles((3, -1))
    with pytest.raises(ValueError, match="a number of pins or a tuple"):
        Kayles("five")
    with pytest.raises(ValueError, match="no row of 4 pins"):
        Kayles(3).play(Kayles(3).start(), (4, 0, 1))
    with pytest.raises(ValueError, match="inside the row"):
        Kayles(3).play(Kayles(3).start(), (3, 2, 2))
