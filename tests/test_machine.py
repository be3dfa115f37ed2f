"""``game_machine``: a hypothesis state machine for any game, usable as a test class in one line."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import settings
from hypothesis.stateful import run_state_machine_as_test

from fnmcts.games import Kayles, Nim, Pig, ShutTheBox, TicTacToe
from fnmcts.testing import game_machine
from fnmcts.testing.machine import MACHINE_LAWS

# the one line a game author writes: each is a test class pytest collects and runs
TestNimMachine = game_machine(Nim(heap=9), max_examples=10, steps=20).TestCase
TestShutTheBoxMachine = game_machine(ShutTheBox(levers=5), max_examples=10, steps=20).TestCase
TestTicTacToeMachine = game_machine(TicTacToe(), max_examples=10, steps=20).TestCase
TestKaylesMachine = game_machine(Kayles((3, 4)), max_examples=10, steps=20).TestCase
TestPigMachine = game_machine(Pig(goal=10), max_examples=10, steps=20).TestCase


def _failure(game, **options) -> str:
    machine = game_machine(game, **options)
    with pytest.raises(AssertionError) as raised:
        run_state_machine_as_test(machine, settings=settings(machine.TestCase.settings, max_examples=300))
    return str(raised.value)


@dataclass(frozen=True)
class NoTwelveWithoutNine(ShutTheBox):
    """Drops the roll of 12 once lever 9 is down: the probabilities sum to 35/36."""

    def chance_outcomes(self, state):
        outcomes = super().chance_outcomes(state)
        return outcomes if 9 in state else outcomes[:-1]


@pytest.mark.slow
def test_the_machine_rolls_the_dice_to_reach_a_broken_chance_node():
    text = _failure(NoTwelveWithoutNine())
    lines = text.splitlines()
    assert lines[0].startswith("game law 'chance_probabilities' fails for NoTwelveWithoutNine(")
    # the shortest way there, whatever the run took: lever 9 goes down at the earliest with a roll of 9, flipping 9
    assert "after the steps (9, frozenset({1, 2, 3, 4, 5, 6, 7, 8}))" in lines[0]
    assert "sum to 35/36" in lines[2]


@dataclass(frozen=True)
class Mutating(Nim):
    """Play changes the heap of the state it is given (a pmap cannot change: an evolver leaks through a dict)."""

    def start(self):
        return {"heap": self.heap, "player": 0}

    def play(self, state, move):
        state["heap"] -= move
        state["player"] = 1 - state["player"]
        return state

    def to_move(self, state):
        return None if state["heap"] == 0 else state["player"]

    def state_to_json(self, state):
        return dict(state)

    def state_from_json(self, data):
        return dict(data)


def test_the_machine_reports_the_steps_and_the_law():
    text = _failure(Mutating(heap=6), laws=["play_pure"])
    assert text.startswith("game law 'play_pure' fails for Mutating(heap=6, max_take=3, misere=True) after the steps (")
    assert "changed its input state" in text


def test_a_law_of_one_s_own_and_unknown_laws():
    def law_heap_is_odd_or_small(game, state):
        assert state["heap"] % 2 or state["heap"] < 4, "an even heap of 4 or more"

    text = _failure(Nim(heap=9), laws=[law_heap_is_odd_or_small])
    assert text.startswith("game law 'heap_is_odd_or_small' fails for Nim(heap=9") and "state: pmap(" in text
    with pytest.raises(ValueError, match="unknown law 'nonsense'"):
        game_machine(Nim(), laws=["nonsense"])


def test_the_machine_s_laws_are_the_one_state_laws():
    assert set(MACHINE_LAWS) <= {"moves_stable_and_legal", "play_pure", "hash_consistent", "terminal_iff_nobody_to_move",
                                 "chance_probabilities", "payoff_in_range", "json_round_trip", "symmetry"}
    assert game_machine(Nim()).TestCase.__name__ == "NimMachineTest"


def test_an_openspiel_game_runs_in_the_machine():
    pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: pip install 'fnmcts[openspiel]'")
    from fnmcts.openspiel import from_openspiel

    run_state_machine_as_test(game_machine(from_openspiel("connect_four"), max_examples=5, steps=20))
