"""The default JSON form of a state: a namedtuple is refused by name, not read back as a tuple without its fields."""

from collections import namedtuple

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fnmcts import GameBase
from fnmcts.protocol import state_from_json, state_to_json
from fnmcts.testing import check_game

Heap = namedtuple("Heap", "stones player")


class NamedTake(GameBase):
    """Take 1 or 2 stones, the last taker wins; a state is a namedtuple its hooks read by field name."""

    num_players = 2

    def start(self):
        return Heap(4, 0)

    def to_move(self, s):
        return s.player if s.stones else None

    def possible_moves(self, s):
        return tuple(m for m in (1, 2) if m <= s.stones)

    def play(self, s, m):
        return Heap(s.stones - m, 1 - s.player)

    def payoff(self, s):
        return (-1, 1) if s.player == 0 else (1, -1)


@given(st.integers(0, 9), st.integers(0, 1))
def test_a_namedtuple_state_is_refused_by_the_default_json_form(stones, player):
    """It was written as a list and read back as a plain tuple: equal to the state, yet ``s.stones`` failed."""
    with pytest.raises(TypeError, match=r"cannot convert Heap \(a namedtuple\) to JSON.*own state_to_json"):
        state_to_json(NamedTake(), Heap(stones, player))


def test_check_game_names_the_json_form_not_the_hook_that_reads_a_field():
    with pytest.raises(AssertionError, match=r"json_round_trip(.|\n)*Heap \(a namedtuple\)"):
        check_game(NamedTake(), max_examples=5, exact=False)


@given(st.recursive(st.integers(), lambda inner: st.tuples(inner, inner) | st.frozensets(st.integers(), max_size=3)
       | st.lists(inner, max_size=3).map(tuple), max_leaves=8))
def test_plain_tuples_sets_and_numbers_still_go_round(state):
    assert state_from_json(NamedTake(), state_to_json(NamedTake(), state)) == state


members = st.one_of(st.integers(-5, 5), st.text("ab", max_size=2), st.tuples(st.integers(0, 2), st.text("a", max_size=1)))


@given(st.frozensets(members, max_size=6), st.randoms(use_true_random=False))
def test_a_set_of_members_that_do_not_compare_goes_to_json_and_back(members_, shuffle):
    """Numbers with strings (or tuples) in one set: a JSON form that reads back, the same whatever the set's order."""
    state = (members_, 0)
    data = state_to_json(GameBase(), state)
    assert state_from_json(GameBase(), data) == state
    again = frozenset(shuffle.sample(sorted(members_, key=repr), len(members_)))
    assert state_to_json(GameBase(), (again, 0)) == data


keys = st.one_of(st.integers(-3, 3), st.text("ab", max_size=2), st.tuples(st.integers(0, 2), st.integers(0, 2)))


@given(st.dictionaries(keys, st.integers(-2, 2) | st.text("xo", max_size=1), max_size=6), st.randoms(use_true_random=False))
def test_a_map_with_keys_that_are_not_strings_goes_to_json_and_back(entries, shuffle):
    """A board as a pmap of (row, col) -> mark: its keys came back as strings ('(0, 1)'), unequal to the state."""
    from pyrsistent import pmap

    state = pmap(entries)
    data = state_to_json(GameBase(), state)
    assert state_from_json(GameBase(), data) == state
    again = pmap(dict(shuffle.sample(sorted(entries.items(), key=repr), len(entries))))  # built in another order
    assert state_to_json(GameBase(), again) == data
