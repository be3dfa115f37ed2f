"""The law checker itself: every law catches a purpose-built broken game and passes
the good one, counterexamples are shrunk, the strategies reach what they claim."""

from __future__ import annotations

import importlib
import itertools
import random
import sys
from dataclasses import dataclass
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pyrsistent import pmap

from fnmcts.agents import first_move_agent, random_agent
from fnmcts.exact import solve
from fnmcts.games.nim import Nim
from fnmcts.games.shut_the_box import ShutTheBox, start_box
from fnmcts.protocol import CHANCE, GameBase
from fnmcts.testing import (
    LAWS,
    Counterexample,
    Reached,
    agents_for,
    builtin_game_states,
    check_game,
    count_states,
    find_counterexample,
    game_states,
    law_agents_legal,
    law_solver_recursion,
    nim_games,
    nim_states,
    piles_games,
    reachable_states,
    replay,
    shut_the_box_games,
    shut_the_box_states,
)
from small_games import ListCountdown

GOOD_NIM = Nim(heap=5, max_take=3)
GOOD_BOX = ShutTheBox(levers=5)
FEW = dict(max_examples=30)


def fails(game, law, **options) -> Counterexample:
    found = find_counterexample(game, law, **{**FEW, **options})
    assert found is not None, f"law {law!r} did not catch {game!r}"
    assert found.law == law
    assert replay(game, found.path) == found.state, "the reported moves do not reach the reported state"
    return found


def passes(game, law, **options) -> None:
    found = find_counterexample(game, law, **{**FEW, **options})
    assert found is None, f"law {law!r} failed on the good game {game!r}: {found}"


# -- purpose-built broken games ------------------------------------------------------------


@dataclass(frozen=True)
class ListsTakingZero(Nim):
    """Lists 'take 0' once the heap is down to 2 or less, but play rejects it."""

    def possible_moves(self, state):
        moves = super().possible_moves(state)
        return (0,) + moves if 0 < state["heap"] <= 2 else moves


_calls = itertools.count()


@dataclass(frozen=True)
class ShufflesMoves(Nim):
    """The moves come in a different order on every other call."""

    def possible_moves(self, state):
        moves = super().possible_moves(state)
        return moves[::-1] if next(_calls) % 2 else moves


@dataclass(frozen=True)
class RepeatsMoves(Nim):
    def possible_moves(self, state):
        moves = super().possible_moves(state)
        return moves + moves[:1]


class MutatingCountdown(ListCountdown):
    """A countdown whose state is a list that play changes in place."""

    def possible_moves(self, state):
        return (1,) if state[0] else ()

    def play(self, state, move):
        state[0] -= move
        state[1] = 1 - state[1]
        return state


@dataclass(frozen=True)
class ForgetfulPlay(Nim):
    """Every second play of a move forgets whose turn it is."""

    def play(self, state, move):
        child = super().play(state, move)
        return child.set("player", 0) if next(_calls) % 2 else child


class IdHashed(tuple):
    """Equal by value, hashed by identity: equal states hash differently."""

    __hash__ = object.__hash__


@dataclass(frozen=True)
class IdHashedNim(Nim):
    def start(self):
        return IdHashed((self.heap, 0))

    def to_move(self, state):
        return state[1] if state[0] else None

    def possible_moves(self, state):
        return tuple(range(1, min(self.max_take, state[0]) + 1))

    def play(self, state, move):
        return IdHashed((state[0] - move, 1 - state[1]))

    def payoff(self, state):
        return (1, -1) if state[1] == 0 else (-1, 1)

    def state_to_json(self, state):
        return list(state)

    def state_from_json(self, data):
        return IdHashed(data)


@dataclass(frozen=True)
class MovesAtTheEnd(Nim):
    """Claims a player is to move at an empty heap."""

    def to_move(self, state):
        return state["player"]


@dataclass(frozen=True)
class ShortPayoff(Nim):
    def payoff(self, state):
        return super().payoff(state)[:1]


@dataclass(frozen=True)
class FloatDice(ShutTheBox):
    def chance_outcomes(self, state):
        return tuple((roll, float(p)) for roll, p in super().chance_outcomes(state))


@dataclass(frozen=True)
class NoTwelveWithoutNine(ShutTheBox):
    """Drops the roll of 12 once lever 9 is down: the probabilities sum to 35/36."""

    def chance_outcomes(self, state):
        outcomes = super().chance_outcomes(state)
        return outcomes if 9 in state else outcomes[:-1]


@dataclass(frozen=True)
class NotZeroSum(Nim):
    def payoff(self, state):
        return (1, 1)


@dataclass(frozen=True)
class DoublePayoff(Nim):
    def payoff(self, state):
        return tuple(2 * x for x in super().payoff(state))


@dataclass(frozen=True)
class JsonForgetsPlayer(Nim):
    def state_to_json(self, state):
        return {"heap": state["heap"]}


@dataclass(frozen=True)
class TakesZero(Nim):
    """Lets a player take zero items: the game can go round in circles."""

    def possible_moves(self, state):
        return (0,) + super().possible_moves(state) if state["heap"] else ()

    def play(self, state, move):
        if move == 0:
            return pmap({"heap": state["heap"], "player": 1 - state["player"]})
        return super().play(state, move)


@dataclass(frozen=True)
class FickleEnding(Nim):
    """The payoff at the end changes from one call to the next."""

    def payoff(self, state):
        return super().payoff(state) if next(_calls) % 2 else tuple(-x for x in super().payoff(state))


def illegal_agent(game, state, rng):
    return max(game.possible_moves(state)) + 1


# -- one test per law: caught on the broken game, silent on the good one ----------------------


def test_moves_law_catches_a_listed_move_that_play_rejects():
    found = fails(ListsTakingZero(heap=5, max_take=3), "moves_stable_and_legal")
    # from 5, the first heap of at most 2 is one move away: take 3
    assert found.path == (3,)
    assert "play with the listed move 0 raised ValueError" in found.error
    passes(GOOD_NIM, "moves_stable_and_legal")


def test_moves_law_catches_an_unstable_order_and_repeats():
    assert "changed between two calls" in fails(ShufflesMoves(heap=5), "moves_stable_and_legal").error
    assert "twice" in fails(RepeatsMoves(heap=5), "moves_stable_and_legal").error
    passes(GOOD_BOX, "moves_stable_and_legal")


def test_play_law_catches_a_play_that_changes_its_input():
    found = find_counterexample(MutatingCountdown(), "play_pure", **FEW)
    assert found is not None and found.path == ()
    assert "changed its input state" in found.error
    passes(GOOD_NIM, "play_pure")


def test_play_law_catches_a_play_that_gives_another_state_the_second_time():
    assert "gave" in fails(ForgetfulPlay(heap=5), "play_pure").error
    passes(GOOD_BOX, "play_pure")


def test_hash_law_catches_equal_states_that_hash_differently():
    found = fails(IdHashedNim(heap=5), "hash_consistent")
    assert found.path == () and "hash differently" in found.error
    passes(GOOD_NIM, "hash_consistent")
    passes(GOOD_BOX, "hash_consistent")


def test_terminal_law_catches_a_player_to_move_at_the_end():
    found = fails(MovesAtTheEnd(heap=5, max_take=3), "terminal_iff_nobody_to_move")
    # the shortest way to empty a heap of 5 taking at most 3: two moves, (2, 3) first in move order
    assert found.path == (2, 3)
    assert "has no possible moves" in found.error
    passes(GOOD_NIM, "terminal_iff_nobody_to_move")
    passes(GOOD_BOX, "terminal_iff_nobody_to_move")


def test_terminal_law_catches_a_payoff_without_one_number_per_player():
    assert "each of the 2 players" in fails(ShortPayoff(heap=4), "terminal_iff_nobody_to_move").error


def test_chance_law_catches_float_probabilities():
    found = fails(FloatDice(levers=5), "chance_probabilities")
    assert found.path == () and "must be exact" in found.error
    passes(GOOD_BOX, "chance_probabilities")


def test_chance_law_catches_probabilities_that_do_not_sum_to_one():
    game = NoTwelveWithoutNine()
    found = fails(game, "chance_probabilities", max_examples=100)
    # lever 9 goes down at the earliest with a roll of 9 (the 8th outcome), flipping 9 alone
    assert found.path == (9, start_box - {9})
    assert "sum to 35/36" in found.error
    passes(ShutTheBox(), "chance_probabilities")


def test_payoff_law_catches_payoffs_out_of_range_and_not_zero_sum():
    assert "outside the game's payoff_range [-1, 1]" in fails(DoublePayoff(heap=5, max_take=3), "payoff_in_range").error
    found = fails(NotZeroSum(heap=5, max_take=3), "payoff_in_range")
    assert found.path == (2, 3) and "sum to 2" in found.error
    passes(GOOD_NIM, "payoff_in_range")
    passes(GOOD_BOX, "payoff_in_range")


def test_json_law_catches_a_lossy_json_form():
    found = fails(JsonForgetsPlayer(heap=5), "json_round_trip")
    assert found.path == (1,)  # the first state with player 1 to move
    assert "gives back" in found.error
    passes(GOOD_NIM, "json_round_trip")
    passes(GOOD_BOX, "json_round_trip")


def test_playthrough_law_catches_a_cycle_and_a_long_game():
    found = fails(TakesZero(heap=5), "playthrough_ends")
    assert "a cycle" in found.error
    assert "has not ended after 10 steps" in fails(Nim(heap=30, max_take=1), "playthrough_ends", max_steps=10).error
    passes(Nim(heap=30, max_take=1), "playthrough_ends", max_steps=30)
    passes(GOOD_BOX, "playthrough_ends")


def test_solver_law_catches_values_that_break_the_recursion():
    found = fails(FickleEnding(heap=4), "solver_recursion")
    assert "the payoff is" in found.error
    passes(GOOD_NIM, "solver_recursion")
    passes(GOOD_BOX, "solver_recursion")


def test_solver_law_checks_a_given_solution_against_the_game():
    game = Nim(heap=6, max_take=3)
    solution = solve(game)
    start = game.start()
    assert law_solver_recursion(game, start, solution)
    tampered = solution.set(start, tuple(-x for x in solution[start]))
    with pytest.raises(AssertionError, match="the best move for player 0"):
        law_solver_recursion(game, start, tampered)


def test_solver_law_reports_a_game_the_solver_cannot_solve():
    with pytest.raises(AssertionError, match="the exact solver raised NoEnd: no end: .* a cycle through"):
        check_game(TakesZero(heap=3), laws=["solver_recursion"], **FEW)


def test_agents_law_catches_an_illegal_move():
    found = fails(GOOD_NIM, "agents_legal", agents={"bad": illegal_agent})
    assert found.path == () and "the agent 'bad' chose 4" in found.error
    passes(GOOD_NIM, "agents_legal", agents={"random": random_agent, "first": first_move_agent})


def test_agents_law_holds_for_the_builtin_agents_with_their_budgets():
    game = Nim(heap=8, max_take=3)
    assert law_agents_legal(game, game.start(), random.Random(0), agents_for(game))


# -- check_game ----------------------------------------------------------------------------------


def test_check_game_names_the_law_and_shows_the_shrunk_moves():
    with pytest.raises(AssertionError) as raised:
        check_game(ListsTakingZero(heap=5, max_take=3), **FEW)
    message = str(raised.value)
    assert message.splitlines()[0] == (
        "game law 'moves_stable_and_legal' fails for ListsTakingZero(heap=5, max_take=3, misere=True)"
    )
    assert "moves from the start: (3,)" in message
    assert "problem: play with the listed move 0 raised ValueError" in message


@pytest.mark.slow
def test_check_game_runs_every_law_on_a_good_game_and_can_skip():
    assert check_game(Nim(heap=6, max_take=2), **FEW) == tuple(LAWS)
    assert check_game(Nim(heap=6), skip=["agents_legal", "solver_recursion"], **FEW) == tuple(LAWS)[:-2]
    assert "solver_recursion" not in check_game(Nim(heap=6), exact=False, laws=["solver_recursion"], **FEW)


def test_check_game_bounds_the_exact_solver_on_big_games():
    # heaps 0..20 with either player to move, less (20, player 1) and (19, player 0): 40 states;
    # over a limit of 10 only the small subgames are solved
    assert count_states(Nim(heap=20, max_take=3)) == 40
    assert check_game(Nim(heap=20, max_take=3), laws=["solver_recursion"], exact_limit=10, **FEW)
    with pytest.raises(AssertionError, match="solver_recursion"):
        check_game(FickleEnding(heap=20), laws=["solver_recursion"], exact_limit=10, max_examples=100)


def test_check_game_accepts_a_law_function_of_ones_own():
    def law_heap_above_one(game, state):
        assert state["heap"] > 1, "the heap is down to 1"
        return True

    with pytest.raises(AssertionError, match=r"'heap_above_one'.*\n  moves from the start: \(3, 3\)"):
        check_game(Nim(heap=7, max_take=3), laws=[law_heap_above_one], **FEW)


def test_check_game_rejects_unknown_laws_and_bad_options():
    with pytest.raises(ValueError, match="unknown law 'nonsense'"):
        check_game(GOOD_NIM, laws=["nonsense"])
    with pytest.raises(ValueError, match="unknown law"):
        check_game(GOOD_NIM, skip=["nonsense"])
    with pytest.raises(ValueError, match="max_examples"):
        check_game(GOOD_NIM, max_examples=0)
    with pytest.raises(TypeError, match="max_steps"):
        check_game(GOOD_NIM, max_steps=1.5)


def test_check_game_is_reproducible_with_its_seed():
    game = ListsTakingZero(heap=9, max_take=3)
    runs = [find_counterexample(game, "moves_stable_and_legal", seed=4, shrink_budget=0, **FEW) for _ in range(2)]
    assert runs[0] == runs[1]


# -- shrinking -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class BreaksAtDepth(Nim):
    """Fine for four moves; the fifth state on any walk lists an illegal move."""

    depth: int = 4

    def start(self):
        return pmap({"heap": self.heap, "player": 0, "moves": 0})

    def possible_moves(self, state):
        moves = super().possible_moves(state)
        return moves + (99,) if state["moves"] >= self.depth and moves else moves

    def play(self, state, move):
        child = super().play(state, move)
        return child.set("moves", state["moves"] + 1)

    def state_to_json(self, state):
        return dict(state)

    def state_from_json(self, data):
        return pmap(data)


def test_a_bug_at_a_known_depth_shrinks_to_that_many_first_moves():
    found = fails(BreaksAtDepth(heap=30, max_take=3), "moves_stable_and_legal")
    assert found.path == (1, 1, 1, 1)


@pytest.mark.slow
@pytest.mark.parametrize("depth", [2, 5, 9])
def test_hypothesis_alone_already_shrinks_to_the_known_depth(depth):
    game = BreaksAtDepth(heap=40, max_take=3, depth=depth)
    found = fails(game, "moves_stable_and_legal", shrink_budget=0, max_examples=100)
    assert len(found.path) == depth


def test_the_shortest_walk_wins_over_a_longer_one_with_smaller_moves():
    # the first heap of at most 12 from 20, taking at most 3: three moves, (2, 3, 3) first in move order
    @dataclass(frozen=True)
    class ListsZeroBelowThirteen(Nim):
        def possible_moves(self, state):
            moves = super().possible_moves(state)
            return (0,) + moves if 0 < state["heap"] <= 12 else moves

    found = fails(ListsZeroBelowThirteen(heap=20, max_take=3), "moves_stable_and_legal")
    assert found.path == (2, 3, 3)


# -- strategies ----------------------------------------------------------------------------------


@settings(max_examples=40)
@given(builtin_game_states(max_depth=60))
def test_a_reached_state_is_what_its_path_leads_to(reached):
    assert isinstance(reached, Reached)
    assert replay(reached.game, reached.path) == reached.state


@settings(max_examples=40)
@given(nim_games(max_heap=12, max_take=4))
def test_nim_games_stay_within_their_bounds(game):
    assert 0 <= game.heap <= 12 and 1 <= game.max_take <= 4


@settings(max_examples=40)
@given(piles_games(max_piles=3, max_pile=5), shut_the_box_games(max_levers=6))
def test_piles_and_box_games_stay_within_their_bounds(piles, box):
    assert 1 <= len(piles.piles) <= 3 and all(0 <= p <= 5 for p in piles.piles)
    assert 1 <= box.levers <= 6


@settings(max_examples=40)
@given(shut_the_box_states(ShutTheBox(levers=6)))
def test_a_shut_the_box_path_alternates_rolls_and_moves(reached):
    for i, step in enumerate(reached.path):
        if i % 2 == 0:
            assert 2 <= step <= 12
        else:
            assert isinstance(step, frozenset)


@settings(max_examples=30)
@given(game_states(nim_games(max_heap=10)), st.randoms(use_true_random=False))
def test_every_law_holds_on_drawn_nim_states(reached, rng):
    for name, law in LAWS.items():
        if name == "agents_legal":
            assert law(reached.game, reached.state, rng, {"random": random_agent})
        elif name == "playthrough_ends":
            assert law(reached.game, reached.state, rng, max_steps=reached.game.heap)
        else:
            assert law(reached.game, reached.state)


def test_a_walk_of_length_zero_is_the_start():
    from hypothesis import find

    reached = find(reachable_states(GOOD_NIM, max_depth=0), lambda r: True)
    assert reached == Reached(GOOD_NIM, GOOD_NIM.start(), ())


def test_nim_states_reach_the_end_of_the_game():
    from hypothesis import find

    reached = find(nim_states(Nim(heap=6, max_take=2)), lambda r: r.state["heap"] == 0)
    assert sum(reached.path) == 6 and replay(reached.game, reached.path)["heap"] == 0


def test_without_hypothesis_the_import_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "hypothesis", None)
    monkeypatch.delitem(sys.modules, "fnmcts.testing")
    with pytest.raises(ImportError, match=r"needs hypothesis, which fnmcts installs: pip install fnmcts \(or pip install hypothesis\)"):
        importlib.import_module("fnmcts.testing")


def test_the_chance_law_reads_exact_fractions():
    probabilities = [p for _, p in GOOD_BOX.chance_outcomes(GOOD_BOX.start())]
    assert all(isinstance(p, Fraction) for p in probabilities) and sum(probabilities) == 1
    assert GOOD_BOX.to_move(GOOD_BOX.start()) is CHANCE


@settings(max_examples=30)
@given(st.one_of(nim_games(max_heap=15), piles_games(max_piles=3, max_pile=4), shut_the_box_games(max_levers=5)))
def test_count_states_counts_what_the_solver_visits(game):
    # solve values every state reachable from the start, once
    assert count_states(game) == len(solve(game))
    assert count_states(game, limit=3) == min(len(solve(game)), 4)


def test_payoff_law_reads_the_game_s_payoff_range():
    """A one-player game paying -1 for a loss must say so: every algorithm rescales by the range."""
    from dataclasses import dataclass

    from fnmcts.testing import law_payoff_in_range

    @dataclass(frozen=True)
    class Coin(GameBase):
        wide: bool = False

        def start(self):
            return 0

        def to_move(self, state):
            return 0 if state == 0 else None

        def possible_moves(self, state):
            return (1, 2) if state == 0 else ()

        def play(self, state, move):
            return move

        def payoff(self, state):
            return (1,) if state == 1 else (-1,)

        def payoff_range(self):
            return (-1, 1) if self.wide else (0, 1)

    with pytest.raises(AssertionError, match="declares its payoff_range"):
        law_payoff_in_range(Coin(), 2)
    assert law_payoff_in_range(Coin(wide=True), 2)


# -- the package ---------------------------------------------------------------------------------

NAMES_BEFORE_THE_PACKAGE = (
    "DEFAULT_MAX_STEPS DEFAULT_EXACT_LIMIT Reached Counterexample reachable_states replay nim_games piles_games "
    "shut_the_box_games builtin_games nim_states piles_states shut_the_box_states builtin_game_states game_states "
    "agents_for law_moves_stable_and_legal law_play_pure law_hash_consistent law_terminal_iff_nobody_to_move "
    "law_chance_probabilities law_payoff_in_range law_json_round_trip law_playthrough_ends law_solver_recursion "
    "law_agents_legal LAWS builtin_agents SMALL_BUDGETS count_states find_counterexample check_game"
).split()


def test_every_name_of_the_single_module_still_imports_from_the_package():
    import fnmcts.testing as testing

    assert [name for name in NAMES_BEFORE_THE_PACKAGE if name not in testing.__all__] == []
    for name in NAMES_BEFORE_THE_PACKAGE:
        exec(f"from fnmcts.testing import {name}", {})


def test_the_package_offers_what_its_modules_offer():
    import pkgutil

    import fnmcts.testing as testing

    for info in pkgutil.iter_modules(testing.__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"fnmcts.testing.{info.name}")
        for name in module.__all__:
            assert getattr(testing, name) is getattr(module, name), f"fnmcts.testing.{name}"


# -- the shortest walk without hypothesis's shrinking --------------------------------------------


def test_a_law_that_draws_is_searched_with_the_draws_of_the_failing_walk():
    # fails on a heap of at most 3 when its first draw is below 1/2: the breadth-first search replays the
    # failing example's generator at every state, so it fails where the example did, at the shortest walk
    def law_low_heaps_may_fail(game, state, rng):
        assert not (state["heap"] <= 3 and rng.random() < 0.5), "a low heap and a low draw"
        return True

    found = find_counterexample(Nim(heap=9, max_take=3), law_low_heaps_may_fail, max_examples=200)
    assert found is not None and found.path == (3, 3)  # the one shortest walk from 9 to at most 3


def test_the_law_is_checked_once_per_distinct_state_when_it_draws_nothing():
    calls = []

    def law_counting(game, state):
        calls.append(state)
        return True

    assert find_counterexample(TakesZero(heap=3), law_counting, max_examples=50) is None
    # at most 8 states (heaps 0..3, either player to move); walks of up to 1,000 steps go round them
    assert len(calls) == len({(s["heap"], s["player"]) for s in calls}) <= 8


# -- the symmetry law ----------------------------------------------------------------------------

from fnmcts.games import TicTacToe  # noqa: E402
from fnmcts.games.tictactoe import SYMMETRIES  # noqa: E402
from fnmcts.testing import law_symmetry  # noqa: E402


def test_tic_tac_toe_s_eight_symmetries_keep_the_law():
    assert check_game(TicTacToe(), laws=["symmetry"], max_examples=60) == ("symmetry",)


@dataclass(frozen=True)
class ShiftedTicTacToe(TicTacToe):
    """Claims the 9 shifts of the cells (0 -> 1 -> ... -> 8 -> 0, and their powers) as symmetries: a group, but the
    lines of the board do not follow."""

    def symmetries(self, state):
        return tuple(dict.fromkeys(state[-k:] + state[:-k] if k else state for k in range(9)))


@dataclass(frozen=True)
class ForgetfulTicTacToe(TicTacToe):
    """Lists the other images but not the board itself."""

    def symmetries(self, state):
        return super().symmetries(state)[1:] or (state,)


@dataclass(frozen=True)
class QuarterTurnTicTacToe(TicTacToe):
    """Lists one quarter turn of the board, but not the half and three-quarter turns it makes: not a group."""

    def symmetries(self, state):
        return (state, tuple(state[i] for i in SYMMETRIES[1]))


def test_the_symmetry_law_catches_a_map_that_is_no_symmetry():
    found = fails(ShiftedTicTacToe(), "symmetry", max_examples=100, solution=solve(ShiftedTicTacToe()))
    # every board's moves map one to one under the shifts until lines are made, but not its value: two plies in,
    # X in a corner and O beside it (X wins) shifts to X on an edge and O in the corner beside it (a draw)
    assert found.path == (0, 1) and "the exact solver values the image (0, 1, 2, 0, 0, 0, 0, 0, 0)" in found.error


@pytest.mark.slow
def test_the_symmetry_law_wants_the_state_among_its_images_and_a_group():
    assert "does not list the state itself" in fails(ForgetfulTicTacToe(), "symmetry").error
    assert "must form a group" in fails(QuarterTurnTicTacToe(), "symmetry").error


def test_the_symmetry_law_compares_exact_values_of_the_images():
    # a position where the moves map one to one is worth the same from every image
    board = (1, 2, 0, 0, 1, 0, 0, 0, 0)
    assert law_symmetry(TicTacToe(), board)
    assert law_symmetry(TicTacToe(), board, solution=solve(TicTacToe()))
    tampered = solve(TicTacToe()).set(TicTacToe().symmetries(board)[1], (0, 0))
    with pytest.raises(AssertionError, match="the exact solver values the image"):
        law_symmetry(TicTacToe(), board, solution=tampered)


# -- the time a check takes: progress and an estimate beforehand --------------------------------


def test_check_game_reports_progress_walk_by_walk():
    walked = []
    laws = check_game(Nim(heap=5), max_examples=7, progress=walked.append)
    assert sum(walked) == 7 * len(laws) and all(k >= 1 for k in walked)


@dataclass(frozen=True)
class SleepyNim(Nim):
    """Nim whose every move works 2 ms of processor time (what the estimate times): a check with the defaults takes
    minutes."""

    def play(self, state, move):
        import time

        until = time.process_time() + 0.002
        while time.process_time() < until:
            pass
        return super().play(state, move)


@pytest.mark.slow
def test_the_estimate_says_minutes_for_a_slow_game_and_what_makes_it_quick():
    from fnmcts.testing import estimate_check

    # each walk plays up to 21 moves of at least 2 ms, 100 walks for each of 11 laws: over 40 s in walking alone
    estimate = estimate_check(SleepyNim(heap=21))
    assert estimate.seconds > 60
    assert estimate.quick and estimate.quick_seconds < estimate.seconds / 2
    assert estimate_check(SleepyNim(heap=21), **estimate.quick).seconds < estimate.seconds / 2


def test_the_estimate_of_a_quick_game_is_quick():
    from fnmcts.testing import estimate_check

    # a clock that reads 1 ms more at each look: the estimate's arithmetic, not this machine's speed, is under test
    ticks = itertools.count()
    estimate = estimate_check(Nim(heap=6), clock=lambda: next(ticks) / 1000)
    assert estimate.seconds < 60 and estimate.quick == {}
    assert [name for name, _ in estimate.laws] == list(LAWS)


def test_the_solver_s_own_limits_are_not_blamed_on_the_game(monkeypatch):
    # solve refuses (TooLarge: its memory or state limits): the solver and symmetry laws cannot be checked there,
    # and no law fails for it
    import fnmcts.exact
    from fnmcts.limits import TooLarge

    def refuses(*args, **options):
        raise TooLarge("the exact solution would hold more than the memory budget")

    monkeypatch.setattr(fnmcts.exact, "solve", refuses)
    assert check_game(Nim(heap=8), laws=["solver_recursion"], **FEW) == ("solver_recursion",)
    assert check_game(TicTacToe(), laws=["symmetry"], **FEW) == ("symmetry",)
    assert law_solver_recursion(Nim(heap=8), Nim(heap=8).start())


def test_built_in_agents_are_asked_once_a_hashable_state_and_every_time_at_an_unhashable_one():
    from fnmcts.testing.check import _asked_once

    asked = []

    def agent(game, state, rng):
        asked.append(state)
        return rng.random()

    once = _asked_once({"counting": agent})["counting"]
    rng = random.Random(0)
    first = once(None, (1, 2), rng)
    assert once(None, (1, 2), rng) == first and len(asked) == 1
    once(None, [1, 2], rng), once(None, [1, 2], rng)
    assert len(asked) == 3


def test_a_game_that_says_it_cannot_draw_and_pays_a_draw_fails_the_payoff_law():
    @dataclass(frozen=True)
    class DrawlessClaim(GameBase):  # two players take 1 or 2 from 3; says it cannot draw, pays (0, 0) at heap 0 by 2s
        num_players = 2
        can_draw = False

        def start(self): return (3, 0, ())
        def to_move(self, state): return None if state[0] == 0 else state[1]
        def possible_moves(self, state): return tuple(k for k in (1, 2) if k <= state[0]) if state[0] else ()
        def play(self, state, move): return (state[0] - move, 1 - state[1], state[2] + (move,))
        def payoff(self, state):
            if state[2] == (1, 2):
                return (0, 0)
            return (-1, 1) if state[1] == 0 else (1, -1)

    found = fails(DrawlessClaim(), "payoff_in_range")
    assert found.path == (1, 2) and "can_draw is False" in found.error
    class DrawAllowed(DrawlessClaim):
        can_draw = True

    passes(DrawAllowed(), "payoff_in_range")


from fnmcts.games import Kayles, Pig, Piles  # noqa: E402


@pytest.mark.parametrize("game", [Nim(heap=6), Nim(heap=0), Kayles((2, 3)), Piles((1, 2)), Pig(goal=6)], ids=repr)
def test_the_games_that_say_they_cannot_draw_pay_no_draw(game):
    assert getattr(game, "can_draw", True) is False
    assert check_game(game, laws=["payoff_in_range"], max_examples=30) == ("payoff_in_range",)


def test_playout_agents_are_asked_at_a_bounded_number_of_states_and_the_others_at_every_one():
    from fnmcts.testing.check import PLAYOUT_AGENTS, PLAYOUT_SHARE, _asked_once
    from fnmcts.testing.laws import NOT_ASKED

    asked = {"mcts": [], "random": []}

    def recorder(name):
        def agent(game, state, rng):
            asked[name].append(state)
            return state[0]
        return agent

    assert "mcts" in PLAYOUT_AGENTS and "random" not in PLAYOUT_AGENTS and PLAYOUT_SHARE >= 1
    once = _asked_once({name: recorder(name) for name in asked}, playout_states=3)
    answers = {name: [once[name](None, (k,), random.Random(0)) for k in range(6)] for name in asked}
    assert asked["random"] == [(k,) for k in range(6)] and answers["random"] == list(range(6))
    assert asked["mcts"] == [(0,), (1,), (2,)] and answers["mcts"] == [0, 1, 2] + [NOT_ASKED] * 3
    assert once["mcts"](None, (1,), random.Random(0)) == 1  # a state asked before still answers


def test_the_agent_law_skips_an_agent_not_asked_and_still_catches_an_illegal_move_of_the_others():
    from fnmcts.testing.laws import NOT_ASKED

    game = Nim(heap=5)

    def silent(game, state, rng):
        return NOT_ASKED

    assert law_agents_legal(game, game.start(), random.Random(0), {"mcts": silent})
    with pytest.raises(AssertionError, match="chose 99"):
        law_agents_legal(game, game.start(), random.Random(0), {"mcts": silent, "bad": lambda g, s, r: 99})


def test_a_move_listed_at_a_chance_state_that_play_refuses_names_the_rule():
    from dataclasses import dataclass
    from fractions import Fraction

    from fnmcts import CHANCE, GameBase
    from fnmcts.testing import laws

    @dataclass(frozen=True)
    class ListsEverywhere(GameBase):  # possible_moves lists its moves at the chance state too
        num_players = 1

        def start(self): return ("roll", 0)
        def to_move(self, state): return CHANCE if state[0] == "roll" else None if state[0] == "end" else 0
        def possible_moves(self, state): return ("stop",)
        def chance_outcomes(self, state): return ((1, Fraction(1, 2)), (2, Fraction(1, 2)))
        def play(self, state, move): return ("end", state[1] + move) if state[0] == "roll" else ("end", state[1])
        def payoff(self, state): return (state[1] / 2,)

    with pytest.raises(Exception, match="at a state where chance is to move \\(possible_moves is empty unless a player"):
        laws.law_moves_stable_and_legal(ListsEverywhere(), ("roll", 0))
