"""Broken games, as users write them: each fault of the protocol that a verb must name, not trip over.

``Faulty(fault, hook, at)`` is a small two-player game with dice (take 1 or 2
from a heap; after each take a die may take one more; whoever faces an empty
heap loses), broken at every state whose heap is at most ``at``: ``hook``
raises (``fault="raise"``) or returns ``None``, a list, or a payoff of the
wrong length or out of range. Other faults break the whole game: chance
probabilities that do not sum to 1 (``"prob"``), play that goes round a cycle
(``"loop"``), states that grow and never end (``"grow"``), a size hint beyond
every limit (``"huge"``). The command-line tests import this file as
``broken_games:Faulty(...)`` with the tests folder on ``PYTHONPATH``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from fnmcts import CHANCE, GameBase

HOOKS = ("to_move", "possible_moves", "chance_outcomes", "play", "payoff")
"""The hooks a fault can hit."""

ROLL = "roll"


class Injected(Exception):
    """What a broken hook raises: a test tells it from anything fnmcts raises."""


@dataclass(frozen=True)
class Faulty(GameBase):
    """Take 1 or 2 from ``heap``; a die then takes one more half the time; an empty heap to face loses."""

    fault: str = "raise"
    hook: str = "play"
    at: int = 4  # below the start: every game meets a broken state after its first move
    heap: int = 5
    num_players = 2

    def start(self):
        return (self.heap, 0, "take", ())

    def _broken(self, state, hook) -> bool:
        return self.hook == hook and isinstance(state, tuple) and state[0] <= self.at

    def _garbage(self, good):
        if self.fault == "raise":
            raise Injected(f"boom in {self.hook}")
        if self.fault == "none":
            return None
        if self.fault == "list":
            return list(good) if isinstance(good, tuple) else [good]
        return good

    def to_move(self, state):
        heap, player, phase, _ = state
        if self._broken(state, "to_move"):
            return self._garbage(player)
        if self.fault in ("loop", "grow"):  # never over
            return CHANCE if phase == ROLL else player
        if heap <= 0:
            return None
        return CHANCE if phase == ROLL else player

    def possible_moves(self, state):
        heap, _, phase, _ = state
        moves = () if phase == ROLL else tuple(m for m in (1, 2) if m <= heap or self.fault in ("loop", "grow"))
        return self._garbage(moves) if self._broken(state, "possible_moves") else moves

    def chance_outcomes(self, state):
        if state[2] != ROLL:
            return ()
        half = Fraction(1, 3) if self.fault == "prob" else Fraction(1, 2)
        outcomes = ((0, half), (1, half))
        return self._garbage(outcomes) if self._broken(state, "chance_outcomes") else outcomes

    def play(self, state, move):
        heap, player, phase, history = state
        if self._broken(state, "play"):
            return self._garbage(state)
        if self.fault == "loop":  # round and round: 5, 0, 1, 2, 0, 1, 2, ...
            return ((heap + 1) % 3, player, "take", ())
        if self.fault == "grow":  # a longer history every move, a larger heap: no end
            return (heap + 1, 1 - player, "take", history + (move,))
        if phase == ROLL:
            return (max(0, heap - move), 1 - player, "take", ())
        return (heap - move, player, ROLL if heap - move > 0 else "take", ()) if heap - move > 0 else (
            0, 1 - player, "take", ())

    def payoff(self, state):
        good = (-1, 1) if state[1] == 0 else (1, -1)
        if self.hook != "payoff" or state[0] > self.at:
            return good
        if self.fault == "short":
            return good[:1]
        if self.fault == "range":
            return (5, -5)
        return self._garbage(good)

    def size_hint(self, state):
        if self.fault == "huge":
            return (10**12, None, 2)
        return (None, None, None)


FAULTS = (
    [Faulty("raise", hook) for hook in HOOKS]
    + [Faulty("none", hook) for hook in ("possible_moves", "chance_outcomes", "play", "payoff")]
    + [Faulty("list", "play"), Faulty("list", "payoff"), Faulty("short", "payoff"), Faulty("range", "payoff"),
       Faulty("prob", "none"), Faulty("loop", "none"), Faulty("grow", "none"), Faulty("huge", "none")]
)
"""One broken game of every kind the corpus runs through every verb."""


PLAYOUTS = frozenset({"simulate", "tournament", "play_game"})
"""The verbs that only play games out: a state they never hash may be any value the game can read."""

SIZED = frozenset({"solve", "evaluate_policy", "count"})
"""The verbs that hold every state: a game too large for them is refused up front."""


def expected(game, verb: str) -> str:
    """What ``verb`` must do with ``game``: ``"GameError:<hook>"``, ``"NoEnd"``, ``"TooLarge"`` or ``"fine"``."""
    if game.fault in ("loop", "grow"):
        return "NoEnd"
    if game.fault == "huge":
        return "TooLarge" if verb in SIZED else "fine"
    if game.fault == "prob":
        return "GameError:chance_outcomes"
    if game.fault == "list" and game.hook == "payoff":  # a list of the right numbers is a payoff: read as a tuple
        return "fine"
    if game.fault == "list" and game.hook == "play" and verb in PLAYOUTS:  # a list passes until a verb hashes it
        return "fine"
    return f"GameError:{game.hook}"
