"""Multi-pile Nim: a move takes 1..pile items from one pile.

The Q-learning project plays piles [1, 3, 5, 7] and whoever removes the last
object loses (misère); ``misere=False`` gives normal play. A state is a ``pmap``
of the piles (a tuple) and the player to move; a move is ``(pile, count)``.

>>> game = Piles((1, 3, 5, 7))
>>> state = game.start()
>>> game.possible_moves(game.state((2, 1, 0, 0)))
((0, 1), (0, 2), (1, 1))
>>> game.play(state, (3, 5)).piles
(1, 3, 5, 2)
"""

from __future__ import annotations

from dataclasses import dataclass

from pyrsistent import PMap, pmap

from ..protocol import GameBase

__all__ = ["Piles"]


def _check_piles(piles) -> tuple:
    try:
        piles = tuple(piles)
    except TypeError:
        raise TypeError(f"piles must be a sequence of whole numbers, got {piles!r}") from None
    if not piles:
        raise ValueError("piles must hold at least one pile")
    for p in piles:
        if isinstance(p, bool) or not isinstance(p, int):
            raise TypeError(f"every pile must be a whole number, got {p!r}")
        if p < 0:
            raise ValueError(f"piles must be non-negative, got {p}")
    return piles


@dataclass(frozen=True)
class Piles(GameBase):
    """Nim with several piles; ``misere=True``: taking the last object loses."""

    piles: tuple = (1, 3, 5, 7)
    misere: bool = True
    num_players = 2
    name = "piles"

    def __post_init__(self):
        object.__setattr__(self, "piles", _check_piles(self.piles))
        if not isinstance(self.misere, bool):
            raise TypeError(f"misere must be True or False, got {self.misere!r}")

    def state(self, piles, player: int = 0) -> PMap:
        """The state with these ``piles`` and ``player`` to move."""
        if player not in (0, 1):
            raise ValueError(f"player must be 0 or 1, got {player!r}")
        return pmap({"piles": _check_piles(piles), "player": player})

    def check_state(self, state):
        """``state`` if it is a state of this game, else a clear error."""
        if not isinstance(state, PMap) or set(state) != {"piles", "player"}:
            raise ValueError(f"a piles state is pmap(piles=(...), player=0 or 1), got {state!r}")
        self.state(state["piles"], state["player"])  # raises on bad values
        return state  # the caller's object: trees and tables find it by identity

    def start(self):
        return pmap({"piles": self.piles, "player": 0})

    def to_move(self, state):
        return state["player"] if any(state["piles"]) else None

    def possible_moves(self, state) -> tuple:
        return tuple((i, j) for i, pile in enumerate(state["piles"]) for j in range(1, pile + 1))

    def play(self, state, move):
        piles = state["piles"]
        try:
            i, j = move
        except (TypeError, ValueError):
            raise ValueError(f"a move is (pile, count), got {move!r}") from None
        if not (
            type(i) is int and type(j) is int and 0 <= i < len(piles) and 1 <= j <= piles[i]
        ):
            raise ValueError(f"illegal move {move!r} at piles {piles}")
        return pmap({"piles": piles[:i] + (piles[i] - j,) + piles[i + 1 :], "player": 1 - state["player"]})

    def payoff(self, state) -> tuple:
        if any(state["piles"]):
            raise ValueError(f"the game is not over at {state!r}")
        return self._end_payoff(state["player"])

    def random_payoff(self, state, rng) -> tuple:
        """The payoff after random play from ``state`` (fast kernel).

        Draws exactly as ``playout`` with ``random_agent`` does: move ``k`` of the
        ``sum(piles)`` moves in order, none when only one move is left.
        """
        piles = list(state["piles"])
        player = state["player"]
        total = sum(piles)
        rnd = rng.random
        while total:
            k = 0 if total == 1 else int(rnd() * total)
            i = 0
            while k >= piles[i]:
                k -= piles[i]
                i += 1
            piles[i] -= k + 1
            total -= k + 1
            player = 1 - player
        return self._end_payoff(player)

    def _end_payoff(self, to_move: int) -> tuple:
        winner = to_move if self.misere else 1 - to_move
        return (1, -1) if winner == 0 else (-1, 1)

    def describe_move(self, state, move) -> str:
        return f"take {move[1]} from pile {move[0]}"

    def transcript_line(self, player, move, after) -> str:
        """The Q-learning project's line: "Player 2 takes 4 object(s) from pile 2. Piles: 1 3 1 7."

        >>> Piles().transcript_line(1, (2, 4), Piles().state((1, 3, 1, 7)))
        'Player 2 takes 4 object(s) from pile 2. Piles: 1 3 1 7.'
        """
        pile, count = move
        piles = " ".join(str(p) for p in after["piles"])
        return f"Player {player + 1} takes {count} object(s) from pile {pile}. Piles: {piles}."

    def state_to_json(self, state):
        return {"piles": list(state["piles"]), "player": state["player"]}

    def state_from_json(self, data):
        if not isinstance(data, dict) or "piles" not in data:
            raise ValueError(f"a piles state is {{'piles': [...], 'player': 0 or 1}}, got {data!r}")
        return self.state(data["piles"], data.get("player", 0))
