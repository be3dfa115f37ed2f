"""Single-heap Nim (the subtraction game): take 1..K items, last taker wins or loses.

Covers the notebook (21 items, take 1..3, taking the last loses: misère), the
21 game (21, 3, taking the last wins: normal play) and the blog post (any heap,
take 1..5, normal play). A state is a ``pmap`` of the heap size and the player
to move (0 or 1).

>>> game = Nim(heap=21, max_take=3, misere=True)
>>> state = game.start()
>>> state == pmap({"heap": 21, "player": 0})
True
>>> game.possible_moves(state)
(1, 2, 3)
>>> game.play(state, 3).heap
18
>>> end = game.play(game.play(pmap({"heap": 2, "player": 0}), 1), 1)
>>> game.to_move(end), game.payoff(end)
(None, (1, -1))
"""

from __future__ import annotations

from dataclasses import dataclass

from pyrsistent import PMap, pmap

from ..protocol import GameBase

__all__ = ["Nim"]


def _check_int(name, value, low):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be a whole number, got {value!r}")
    if value < low:
        raise ValueError(f"{name} must be at least {low}, got {value}")
    return value


@dataclass(frozen=True)
class Nim(GameBase):
    """One heap of ``heap`` items; a move takes 1..``max_take``.

    ``misere=True``: taking the last item loses (the notebook); ``False``: it wins.
    """

    heap: int = 21
    max_take: int = 3
    misere: bool = True
    num_players = 2
    name = "nim"

    def __post_init__(self):
        _check_int("heap", self.heap, 0)
        _check_int("max_take", self.max_take, 1)
        if not isinstance(self.misere, bool):
            raise TypeError(f"misere must be True or False, got {self.misere!r}")

    def state(self, heap: int, player: int = 0) -> PMap:
        """The state with ``heap`` items and ``player`` to move."""
        _check_int("heap", heap, 0)
        if player not in (0, 1):
            raise ValueError(f"player must be 0 or 1, got {player!r}")
        return pmap({"heap": heap, "player": player})

    def check_state(self, state):
        """``state`` if it is a state of this game, else a clear error."""
        if not isinstance(state, PMap) or set(state) != {"heap", "player"}:
            raise ValueError(f"a Nim state is pmap(heap=n, player=0 or 1), got {state!r}")
        self.state(state["heap"], state["player"])  # raises on bad values
        return state  # the caller's object: trees and tables find it by identity

    def start(self):
        return pmap({"heap": self.heap, "player": 0})

    def to_move(self, state):
        return state["player"] if state["heap"] > 0 else None

    def possible_moves(self, state) -> tuple:
        return tuple(range(1, min(self.max_take, state["heap"]) + 1))

    def play(self, state, move):
        heap = state["heap"]
        if isinstance(move, bool) or not isinstance(move, int) or not 1 <= move <= min(self.max_take, heap):
            raise ValueError(f"illegal move {move!r}: take 1..{min(self.max_take, heap)} from {heap}")
        return pmap({"heap": heap - move, "player": 1 - state["player"]})

    def payoff(self, state) -> tuple:
        if state["heap"]:
            raise ValueError(f"the game is not over at {state!r}")
        return self._end_payoff(state["player"])

    def random_payoff(self, state, rng) -> tuple:
        """The payoff after random play from ``state`` (fast kernel).

        Draws exactly as ``playout`` with ``random_agent`` does: one draw per
        move, none when only one move is possible.
        """
        heap, player, top = state["heap"], state["player"], self.max_take
        rnd = rng.random
        while heap:
            m = top if heap > top else heap
            heap -= 1 if m == 1 else int(rnd() * m) + 1
            player = 1 - player
        return self._end_payoff(player)

    def _end_payoff(self, to_move: int) -> tuple:
        winner = to_move if self.misere else 1 - to_move
        return (1, -1) if winner == 0 else (-1, 1)

    def describe_move(self, state, move) -> str:
        return f"take {move}"

    def transcript_line(self, player, move, after) -> str:
        """The notebook's line: "Player 1 takes 3 matchstick(s). There are 18 matchstick(s) remaining."

        >>> Nim().transcript_line(0, 3, Nim().state(18, 1))
        'Player 1 takes 3 matchstick(s). There are 18 matchstick(s) remaining.'
        """
        return (
            f"Player {player + 1} takes {move} matchstick(s). "
            f"There are {after['heap']} matchstick(s) remaining."
        )

    def state_to_json(self, state):
        return {"heap": state["heap"], "player": state["player"]}

    def state_from_json(self, data):
        if not isinstance(data, dict) or "heap" not in data:
            raise ValueError(f"a Nim state is {{'heap': n, 'player': 0 or 1}}, got {data!r}")
        return self.state(data["heap"], data.get("player", 0))
