"""``count``: states and histories ply by ply, against a plain enumeration of every history."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from small_games import TableGame, cyclic_table_games, table_games

from fnmcts.games import Kayles, Nim, ShutTheBox, TicTacToe
from fnmcts.limits import TooLarge
from fnmcts.protocol import CHANCE
from fnmcts.testing import count, count_states, nim_games, piles_games, shut_the_box_games


def enumerate_histories(game, depth=None):
    """Every history, one at a time (no merging): ``{ply: [(state, probability), ...]}``, the obvious way."""
    found = {}

    def walk(state, ply, p):
        found.setdefault(ply, []).append((state, p))
        who = game.to_move(state)
        if who is None or (depth is not None and ply == depth):
            return
        steps = game.chance_outcomes(state) if who is CHANCE else [(m, 1) for m in game.possible_moves(state)]
        for step, q in steps:
            walk(game.play(state, step), ply + 1, p * q)

    walk(game.start(), 0, Fraction(1))
    return found


def assert_agrees(game, depth=None):
    counted = count(game, depth)
    found = enumerate_histories(game, depth)
    assert [ply.ply for ply in counted.plies] == sorted(found)
    for ply in counted.plies:
        here = found[ply.ply]
        ended = [(s, p) for s, p in here if game.to_move(s) is None]
        assert ply.histories == len(here)
        assert ply.weighted == sum(p for _, p in here)
        assert ply.states == len({s for s, _ in here})
        assert ply.terminal == len({s for s, _ in ended})
        assert ply.chance == len({s for s, _ in here if game.to_move(s) is CHANCE})
        assert ply.games == len(ended)
    everything = [s for here in found.values() for s, _ in here]
    assert counted.states == len(set(everything))
    ends = Counter(game.payoff(s) for here in found.values() for s, _ in here if game.to_move(s) is None)
    assert {o.payoff: o.games for o in counted.outcomes} == dict(ends)
    terminal = {s for s in everything if game.to_move(s) is None}
    assert counted.terminal_states == len(terminal) == sum(o.positions for o in counted.outcomes)
    assert counted.chance_states == len({s for s in everything if game.to_move(s) is CHANCE})
    assert counted.decision_states == len({s for s in everything if game.to_move(s) not in (None, CHANCE)})
    assert counted.states == counted.decision_states + counted.chance_states + counted.terminal_states
    return counted


@settings(max_examples=60)
@given(table_games())
def test_count_agrees_with_every_history_enumerated(game):
    counted = assert_agrees(game)
    assert counted.complete and counted.states == count_states(game)


@settings(max_examples=40)
@given(table_games(), st.integers(0, 4))
def test_a_count_to_a_depth_is_the_start_of_the_whole_count(game, depth):
    whole, part = count(game), assert_agrees(game, depth)
    assert part.plies == whole.plies[: depth + 1]  # the last ply is classified as in the whole count
    last = part.plies[-1]
    assert part.complete == (last.decisions + last.chance == 0)


@settings(max_examples=30)
@given(st.one_of(nim_games(max_heap=9), piles_games(max_piles=3, max_pile=3), shut_the_box_games(max_levers=4)))
def test_count_agrees_on_the_built_in_games(game):
    assert_agrees(game)


@settings(max_examples=40)
@given(table_games(chance=False))
def test_without_chance_the_weighted_count_is_the_plain_one(game):
    counted = count(game)
    assert all(ply.weighted == ply.histories for ply in counted.plies)
    assert not counted.has_chance


@settings(max_examples=30)
@given(st.one_of(table_games(), nim_games(max_heap=8)), st.sampled_from([None, 1, 2, 3]))
def test_divide_splits_the_last_ply_among_the_first_steps(game, depth):
    counted = count(game, depth, divide=True)
    total = counted.games if depth is None else (counted.plies[depth].histories if len(counted.plies) > depth else 0)
    if counted.plies[0].terminal:
        assert counted.divide == ()
    else:
        assert sum(d.histories for d in counted.divide) == total


def test_the_total_row_counts_a_state_met_at_two_plies_once():
    counted = count(Nim(heap=21, max_take=3), 3)  # heap 18, player 2 to move: after 3 at ply 1, after 1+1+1 at ply 3
    assert sum(ply.decisions for ply in counted.plies) == 16
    assert counted.states == counted.decision_states == 15
    assert str(counted).splitlines()[6].split()[:3] == ["all", "15", "15"]


def test_the_tic_tac_toe_divide_of_perft_2_is_eight_per_first_move():
    # after any first mark, 8 cells are left for the second: 9 x 8 = 72 histories at ply 2
    counted = count(TicTacToe(), 2, divide=True)
    assert [(d.step, d.text, d.histories) for d in counted.divide] == [(c, f"X at {c}", 8) for c in range(9)]


@pytest.mark.slow
@settings(max_examples=20)
@given(st.sampled_from([None, 3, 6]))
def test_symmetry_merges_states_but_not_histories(depth):
    plain, symmetric = count(TicTacToe(), depth), count(TicTacToe(), depth, up_to_symmetry=True)
    assert [p.histories for p in plain.plies] == [p.histories for p in symmetric.plies]
    assert [p.games for p in plain.plies] == [p.games for p in symmetric.plies]
    assert all(s.states <= p.states <= 8 * s.states for p, s in zip(plain.plies, symmetric.plies))


@settings(max_examples=20)
@given(table_games())
def test_a_game_without_symmetries_counts_the_same_up_to_symmetry(game):
    assert count(game, up_to_symmetry=True)._replace(up_to_symmetry=False) == count(game)


def test_a_key_merges_states_that_are_one_position():
    # Nim's states hold the player to move, which the heap and the start tell: keyed by heap, nothing changes
    game = Nim(heap=9, max_take=3)
    keyed = count(game, key=lambda state: (state["heap"], state["player"]))
    assert keyed == count(game)
    # a coarser key merges: keyed by the heap alone, heaps reached at odd and even plies count once overall
    coarse = count(game, key=lambda state: state["heap"])
    assert coarse.states == 10 and count(game).states == 18


def test_games_that_repeat_need_a_depth(capsys):
    loop = TableGame((("move", 0, (1, 2)), ("move", 1, (0, 2)), ("end", (1, -1))), 2, True)
    with pytest.raises(ValueError, match="may come back to a state seen before"):
        count(loop)
    counted = count(loop, 6)
    assert [p.histories for p in counted.plies] == [1, 2, 2, 2, 2, 2, 2]  # one way on, one way out, each ply
    undeclared = TableGame(loop.table, 2, False)
    with pytest.raises(ValueError, match="goes round in a cycle"):
        count(undeclared)


@settings(max_examples=20)
@given(cyclic_table_games(), st.integers(0, 5))
def test_a_depth_counts_games_that_repeat(game, depth):
    assert_agrees(game, depth)


def test_a_limit_stops_a_count_that_grows_too_big():
    with pytest.raises(TooLarge, match="more than 100 distinct states by ply"):  # the walk: a depth, no hint for it
        count(TicTacToe(), 9, limit=100)
    with pytest.raises(TooLarge, match="would find up to 5,478 states .*limit of 100"):  # to the end: up front
        count(TicTacToe(), limit=100)


class Doubling:
    """Every state has ``moves`` moves to as many new states, for ``length`` plies; no size hint beyond the length."""

    num_players = 1

    def __init__(self, length, moves=2):
        self.length, self.moves = length, moves

    def start(self):
        return ()

    def to_move(self, state):
        return None if len(state) == self.length else 0

    def possible_moves(self, state):
        return tuple(range(self.moves))

    def play(self, state, move):
        return state + (move,)

    def payoff(self, state):
        return (0,)

    def size_hint(self, state):
        return None, self.length - len(state), self.moves


@pytest.mark.slow
@pytest.mark.parametrize("length", [4, 40])
def test_a_count_to_the_end_that_will_pass_its_limit_stops_a_tenth_into_the_ply_that_passes_it(length):
    # 8**k states at ply k; a count that fits runs to its end, one that does not is refused by the rate of its ply's
    # first tenth (ply 5: 32,768 states, 26,208 new ones from its first 3,276), before the limit itself is reached
    limit = 100_000
    states = (8 ** (length + 1) - 1) // 7
    if states <= limit:
        assert count(Doubling(length, moves=8), limit=limit).states == states
        return
    with pytest.raises(TooLarge, match=r"found 63,657 distinct states by ply 6, 26,208 of them from the first 3,276 "
                                       r"of ply 5's 32,768 states: at that rate the ply passes the limit of 100,000"):
        count(Doubling(length, moves=8), limit=limit)
    with pytest.raises(TooLarge, match="more than 100,000 distinct states by ply 6"):  # a depth: the limit alone
        count(Doubling(length, moves=8), 6, limit=limit)


def test_a_count_to_the_end_with_more_moves_at_a_state_than_its_limit_is_refused_up_front():
    with pytest.raises(TooLarge, match="up to 5,000 moves at a state"):
        count(Doubling(3, moves=5_000), limit=1_000)
    assert count(Doubling(1, moves=500), limit=1_000).states == 501


def test_bad_depths_are_refused():
    for depth in (-1, 1.5, True, "3"):
        with pytest.raises(ValueError, match="depth must be a whole number"):
            count(Nim(), depth)


def test_the_count_is_a_value_and_prints_as_a_table():
    counted = count(Kayles(3))
    assert hash(counted) == hash(count(Kayles(3))) and counted == count(Kayles(3))
    text = str(counted)
    lines = text.splitlines()
    assert lines[0] == "Kayles(pins=(3,)): to the end (3 plies)"
    assert lines[1].split() == ["ply", "states", "to", "move", "chance", "ended", "histories", "games"]
    assert any(line.split()[0] == "all" for line in lines)
    assert counted.to_json()["histories"] == counted.histories


def test_a_count_with_chance_shows_the_weighted_column():
    text = str(count(ShutTheBox(levers=3)))
    assert "weighted" in text.splitlines()[1]


def test_a_count_beyond_its_memory_budget_is_refused_not_a_memory_error(monkeypatch):
    # the memory watch (fnmcts.limits.MemoryWatch) says the budget is spent: the count stops at its next look
    # (every 4,096 new states) with TooLarge; what the process holds is the watch's business, tested with it
    import fnmcts.testing.counts as counts

    looks = []

    class Spent:
        def __init__(self, budget):
            assert budget == 1000

        def exceeded(self):
            looks.append(1)
            return True

    monkeypatch.setattr(counts, "MemoryWatch", Spent)
    # plies 0-6 hold 1 + 9 + 72 + 252 + 756 + 1,260 + 1,520 = 3,870 states: the 4,096th is found at ply 7
    with pytest.raises(TooLarge, match="took more than its memory budget of 1,000 bytes by ply 7, with 4,096"):
        count(TicTacToe(), memory=1000)
    assert len(looks) == 1
    assert count(Nim(heap=9), memory=1000).states == 18  # too few states to look: the watch is never asked


class _Claims:
    """Two players claim cells of ``width`` in turn to the end: a ply of ``width``! / (width - ply)! states."""

    num_players = 2

    def __init__(self, width):
        self.width, self.played = width, 0

    def start(self):
        return ()

    def to_move(self, s):
        return None if len(s) == self.width else len(s) % 2

    def possible_moves(self, s):
        return tuple(c for c in range(self.width) if c not in s)

    def chance_outcomes(self, s):
        return ()

    def play(self, s, m):
        self.played += 1
        return (*s, m)

    def payoff(self, s):
        return (0, 0)


def test_a_wide_ply_far_past_the_limit_is_refused_after_its_first_states():
    """Ply 3 of 40 cells has 59,280 states of 37 moves each (2.2 million children) against a limit of 150,000: refused
    from its first PROJECTION_SAMPLE states' children (37,000), not at the limit (89,000 children later) or a tenth
    of the ply (5,928 states)."""
    from fnmcts.testing.counts import PROJECTION_SAMPLE

    game = _Claims(40)
    with pytest.raises(TooLarge, match=r"from the first 1,000 of ply 3's 59,280 states.*by about 15x"):
        count(game, limit=150_000)
    # the plies before it, its first states' children, and one random line of play to the end (the length estimate)
    assert game.played <= 40 + 40 * 39 + 40 * 39 * 38 + PROJECTION_SAMPLE * 37 + 40
