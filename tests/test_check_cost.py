"""What a check costs in calls to the game: walks played once a check, and subgame counts that cannot run away."""

from __future__ import annotations

import importlib

import pytest
from hypothesis import given, settings, strategies as st

from fnmcts.testing import check_game, count_states
from fnmcts.testing import check as check_module
from fnmcts.testing._walk import _atomic, fresh


class CountingNim:
    """One heap, take 1..3, the last to take wins; every ``play`` is counted (a list: a test's own)."""

    num_players = 2

    def __init__(self, heap=12):
        self.heap, self.plays = heap, []

    def start(self):
        return (self.heap, 0)

    def to_move(self, state):
        return state[1] if state[0] else None

    def possible_moves(self, state):
        return tuple(range(1, min(3, state[0]) + 1)) if state[0] else ()

    def chance_outcomes(self, state):
        return ()

    def play(self, state, move):
        self.plays.append(move)
        return (state[0] - move, 1 - state[1])

    def payoff(self, state):
        return (-1, 1) if state[1] == 0 else (1, -1)

    def state_to_json(self, state):
        return list(state)

    def state_from_json(self, data):
        return tuple(data)


class Growing(CountingNim):
    """Every move writes a bit at the end of the state, so its states never stop growing; 1, 1 ends the game.

    Random play ends soon (a quarter of the pairs), but there are infinitely many states.
    """

    def start(self):
        return (0,)

    def to_move(self, state):
        return None if state[-2:] == (1, 1) else len(state) % 2

    def possible_moves(self, state):
        return () if self.to_move(state) is None else (0, 1)

    def play(self, state, move):
        self.plays.append(move)
        return state + (move,)

    def payoff(self, state):
        return (1, -1) if len(state) % 2 else (-1, 1)


NO_PLAY_LAWS = ["terminal_iff_nobody_to_move", "chance_probabilities", "payoff_in_range"]
"""Laws that never call ``play``: what a check of them plays is its walks alone."""


def test_the_later_laws_of_a_check_play_no_walk_again():
    one, three = CountingNim(), CountingNim()
    check_game(one, laws=NO_PLAY_LAWS[:1], max_examples=30, exact=False)
    check_game(three, laws=NO_PLAY_LAWS, max_examples=30, exact=False)
    assert one.plays and len(three.plays) == len(one.plays)


def test_walks_of_states_without_value_equality_are_played_again():
    class Box:  # no __eq__: a law could change one unseen, so its walks are never kept
        def __init__(self, heap):
            self.heap = heap

    class BoxNim(CountingNim):
        def start(self):
            return Box(self.heap)

        def to_move(self, state):
            return 0 if state.heap else None

        def possible_moves(self, state):
            return tuple(range(1, min(3, state.heap) + 1))

        def play(self, state, move):
            self.plays.append(move)
            return Box(state.heap - move)

        def payoff(self, state):
            return (1,)

    one, three = BoxNim(), BoxNim()
    one.num_players = three.num_players = 1
    check_game(one, laws=NO_PLAY_LAWS[:1], max_examples=10, exact=False)
    check_game(three, laws=NO_PLAY_LAWS, max_examples=10, exact=False)
    assert len(three.plays) > len(one.plays)


def test_counting_a_game_whose_states_grow_for_ever_stops_at_its_limit():
    game = Growing()
    assert count_states(game, limit=2_000) == 2_001
    assert len(game.plays) < 3 * 2_001  # breadth first: the states counted are the short ones


def test_subgames_too_large_waste_a_bounded_count(monkeypatch):
    monkeypatch.setattr(check_module, "SMALLEST_SUBGAME", 10)
    game = Growing()
    check_game(game, laws=["solver_recursion"], max_examples=100, exact_limit=500, max_steps=60)
    # unbounded, each of the walks' ends not at the end counted 500 states (two plays each)
    assert len(game.plays) < 2 * (check_module.SUBGAME_WASTE * 500 + 100 * 10) + 100 * 60


def test_a_subgame_that_fits_is_still_solved_below_a_walk():
    from fnmcts.testing.laws import law_solver_recursion

    checked = []

    def spy(game, state, solution=None, limit=None):
        checked.append(limit)
        return law_solver_recursion(game, state, solution, limit)

    law = check_module._subgames_within(spy, 50, {})
    game = CountingNim(heap=5)
    assert law(game, game.start()) and checked == [None]  # 11 states: solved, not cut


@settings(max_examples=40, deadline=None)
@given(st.recursive(st.one_of(st.integers(), st.none(), st.booleans(), st.floats()),
                    lambda inner: st.one_of(st.tuples(inner, inner), st.lists(inner, max_size=2)), max_leaves=4))
def test_fresh_hands_over_only_what_no_law_can_change(value):
    """What ``fresh`` hands over uncopied is immutable all the way down (hashable), and nothing else is."""
    if _atomic(value):
        assert fresh(value) is value
        hash(value)
    else:
        assert _holds_a_list(value)


def _holds_a_list(value) -> bool:
    return isinstance(value, list) or (isinstance(value, tuple) and any(_holds_a_list(x) for x in value))


@pytest.mark.parametrize("value", [(1, [2]), [1], {1: 2}, (1, (2, [3]))])
def test_a_state_holding_a_mutable_part_is_copied(value):
    assert not _atomic(value) and fresh(value) is not value


def test_a_mutant_gets_at_least_three_times_what_the_games_own_checks_took(monkeypatch):
    import time

    from fnmcts.games.nim import Nim

    mutate_module = importlib.import_module("fnmcts.testing.mutate")
    clock = [0.0]

    class Clock:  # mutate's clock: the game's own check takes 100 s on it, whatever the machine's load
        @staticmethod
        def perf_counter():
            return clock[0]

    def laws(self, game):  # 100 s (on that clock) for the game; a mutant fails after 0.2 s, past budget=0.01
        if type(game) is Nim:
            clock[0] += 100
        else:
            time.sleep(0.2)
            raise AssertionError("a law fails")

    monkeypatch.setattr(mutate_module, "time", Clock)
    monkeypatch.setattr(mutate_module.LawsCheck, "__call__", laws)
    report = mutate_module.mutate(Nim(heap=3), budget=0.01, operators=["payoff_players"])
    assert [v.verdict for v in report.verdicts] == ["killed"] * report.total and report.total
