"""``game_machine(game)``: a hypothesis state machine that plays any game of the protocol, the game laws its invariants.

Hypothesis's stateful testing (``RuleBasedStateMachine``) drives a program
through sequences of steps and shrinks a failing sequence to a short one. The
machine for a game keeps a current state and steps it with these rules:

* ``play``: a legal move, drawn among the possible moves;
* ``roll``: at a chance node, an outcome drawn with the game's own
  ``sample_outcome`` (by its probabilities, from a drawn generator);
* ``back``: go back to a state seen earlier in the run (another branch of the
  game tree);
* ``through_json``: go on from the state rebuilt from its JSON text.

After every step the game laws hold at the current state (by default every
law that reads one state: moves, purity, hashing, the end, chance, payoffs,
JSON, symmetry). One line makes it a test class:

>>> from fnmcts.games import Nim
>>> TestNim = game_machine(Nim(heap=7)).TestCase  # pytest collects it, as any unittest class
>>> TestNim.__name__
'NimMachineTest'

A broken game fails with the steps that reach the bad state:

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class LosesThePlayer(Nim):
...     def state_to_json(self, state):
...         return {"heap": state["heap"]}
>>> from hypothesis.stateful import run_state_machine_as_test
>>> try:
...     run_state_machine_as_test(game_machine(LosesThePlayer(heap=5)))
... except AssertionError as error:
...     print(str(error).splitlines()[0])
game law 'json_round_trip' fails for LosesThePlayer(heap=5, max_take=3, misere=True) after the steps (1,)
"""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import Bundle, RuleBasedStateMachine, initialize, invariant, precondition, rule

from ..protocol import CHANCE, game_text, sample_outcome
from ._walk import fresh, game_call, short
from .check import Counterexample, _shortest
from .laws import LAWS

__all__ = ["MACHINE_LAWS", "game_machine"]

MACHINE_LAWS = (
    "moves_stable_and_legal",
    "play_pure",
    "hash_consistent",
    "terminal_iff_nobody_to_move",
    "chance_probabilities",
    "payoff_in_range",
    "json_round_trip",
    "symmetry",
)
"""The laws a game machine checks after every step by default: those that read one state (the symmetry law
without exact values)."""


def game_machine(game, laws=MACHINE_LAWS, *, max_examples: int = 50, steps: int = 40, budget: int = 2000,
                 shrink: bool = False):
    """A ``RuleBasedStateMachine`` class that plays ``game`` (play, roll, back, through JSON), ``laws`` its invariants.

    ``laws`` are names in ``LAWS`` or law functions ``law(game, state)``; the
    machine's ``TestCase`` runs ``max_examples`` sequences of up to ``steps``
    steps (change ``Machine.TestCase.settings`` for more). When a law fails, a
    breadth-first search (at most ``budget`` states, as ``check_game``'s)
    finds the shortest steps from the start to a state where it fails, and the
    report shows them; hypothesis's own shrinking of the sequence of steps,
    slow on long runs, is left out unless ``shrink``.

    >>> from fnmcts.games import ShutTheBox
    >>> from hypothesis.stateful import run_state_machine_as_test
    >>> Machine = game_machine(ShutTheBox(levers=4), max_examples=10)
    >>> run_state_machine_as_test(Machine) is None
    True
    """
    checked = []
    for law in laws:
        if callable(law):
            checked.append((getattr(law, "__name__", "law").removeprefix("law_"), law, {}))
        elif law in LAWS:
            checked.append((law, LAWS[law], {"limit": 0} if law == "symmetry" else {}))
        else:
            raise ValueError(f"unknown law {law!r}; choose among {', '.join(LAWS)} or give a law function")
    label = game_text(game)

    class GameMachine(RuleBasedStateMachine):
        seen = Bundle("seen")

        def __init__(self):
            super().__init__()
            self.path = ()
            self.state = game_call("start", game.start)

        @initialize(target=seen)
        def begin(self):
            return (self.path, self.state)

        def _who(self):
            return game_call("to_move", game.to_move, self.state)

        @precondition(lambda self: self._who() not in (None, CHANCE))
        @rule(target=seen, data=st.data())
        def play(self, data):
            moves = game_call("possible_moves", game.possible_moves, self.state)
            move = moves[data.draw(st.integers(0, len(moves) - 1), label="move index")]
            return self._step(move)

        @precondition(lambda self: self._who() is CHANCE)
        @rule(target=seen, rng=st.randoms(use_true_random=False))
        def roll(self, rng):
            outcome = game_call("sample_outcome", sample_outcome, game, self.state, rng)
            return self._step(outcome)

        def _step(self, step):
            self.state = game_call(f"play with {step!r}", game.play, fresh(self.state), step)
            self.path += (step,)
            return (self.path, self.state)

        @rule(earlier=seen)
        def back(self, earlier):
            self.path, self.state = earlier

        @rule()
        def through_json(self):
            text = json.dumps(game_call("state_to_json", game.state_to_json, self.state))
            self.state = game_call("state_from_json", game.state_from_json, json.loads(text))

        @invariant()
        def laws_hold(self):
            for name, law, options in checked:
                try:
                    law(game, fresh(self.state), **options)
                except AssertionError as error:
                    found = Counterexample(name, self.path, self.state, str(error))
                    shortest = _shortest(game, law, options, found, random.Random(0).getstate(), budget) or found
                    took = "" if shortest.path == self.path else (
                        f"\n  (the fewest steps to such a state; the run took {short(self.path)})")
                    raise AssertionError(f"game law {name!r} fails for {label} after the steps {shortest.path!r}\n"
                                         f"  state: {shortest.state!r}\n  problem: {shortest.error}{took}") from None

    kind = type(game).__name__
    GameMachine.__name__ = GameMachine.__qualname__ = f"{kind}Machine"
    GameMachine.TestCase.__name__ = GameMachine.TestCase.__qualname__ = f"{kind}MachineTest"
    phases = tuple(Phase) if shrink else (Phase.explicit, Phase.reuse, Phase.generate)
    GameMachine.TestCase.settings = settings(max_examples=max_examples, stateful_step_count=steps, deadline=None,
                                             suppress_health_check=[HealthCheck.too_slow], phases=phases)
    return GameMachine
