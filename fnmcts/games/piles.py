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

Bouton's closed form (checked by the tests against ``fnmcts.exact`` on every
state below several shapes): under normal play the player to move loses
exactly when the nim-sum (the XOR of the piles) is 0. Under misère play the
same holds while some pile has 2 or more objects; when every pile has 0 or 1,
the player to move loses exactly when an odd number of piles is left.

>>> nim_sum((1, 3, 5, 7)), piles_winner((1, 3, 5, 7), misere=True)
(0, 'other')
>>> piles_winning_moves((1, 3, 5, 6), misere=True)
((0, 1), (1, 1), (2, 1))
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import reduce
from operator import xor

from pyrsistent import PMap, pmap

from ..values import fixed_pmap
from ..protocol import GameBase, _state_json, _state_text, _whole_at_least, json_player
from .nim import MOVER, OTHER, _check_pile_state, _check_player, _end_payoff

__all__ = [
    "Piles",
    "piles_mover_wins",
    "piles_winner",
    "piles_winning_moves",
    "parse_piles",
]


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


def _sizes(piles) -> tuple:
    try:
        piles = tuple(piles)
    except TypeError:
        raise TypeError(f"piles must be a sequence of whole numbers, got {piles!r}") from None
    for p in piles:
        _whole_at_least("every pile", p, 0)
    return piles


# -- Bouton: the nim-sum and the misère rule ---------------------------------------------


def nim_sum(piles) -> int:
    """The XOR of the pile sizes.

    >>> nim_sum((1, 3, 5, 7)), nim_sum((3, 5))
    (0, 6)
    """
    return reduce(xor, _sizes(piles), 0)


def piles_mover_wins(piles, misere: bool = True) -> bool:
    """True when the player to move wins multi-pile Nim from ``piles``.

    >>> piles_mover_wins((1, 3, 5, 7), misere=True), piles_mover_wins((1, 1), misere=True)
    (False, True)
    >>> piles_mover_wins((1, 1), misere=False), piles_mover_wins((1, 1, 1), misere=True)
    (False, False)
    """
    piles = _sizes(piles)
    if misere and all(p <= 1 for p in piles):
        return sum(piles) % 2 == 0
    return nim_sum(piles) != 0


def piles_winner(piles, misere: bool = True) -> str:
    """``"mover"`` or ``"other"``: who wins multi-pile Nim from ``piles``.

    >>> piles_winner((1, 3, 5, 7)), piles_winner((1, 3, 5, 6))
    ('other', 'mover')
    """
    return MOVER if piles_mover_wins(piles, misere) else OTHER


def piles_winning_moves(piles, misere: bool = True) -> tuple:
    """Every move ``(pile, count)`` that wins from ``piles``, in move order.

    Normal play: make the nim-sum 0 (take ``p - (p ^ s)`` from a pile ``p``
    with ``p ^ s < p``). Misère play (Bouton): the same while two or more piles
    have 2 or more; with exactly one such pile, cut it to 0 or 1 so that an odd
    number of 1-piles is left; with none, take a 1-pile when their number is even.

    >>> piles_winning_moves((3, 4, 5), misere=False)
    ((0, 2),)
    >>> piles_winning_moves((1, 1, 4), misere=True), piles_winning_moves((1, 1, 4), misere=False)
    (((2, 3),), ((2, 4),))
    >>> piles_winning_moves((1, 1, 0, 1, 1), misere=True)
    ((0, 1), (1, 1), (3, 1), (4, 1))
    """
    piles = _sizes(piles)
    big = [i for i, p in enumerate(piles) if p >= 2]
    if misere and not big:
        count = sum(piles)
        return tuple((i, 1) for i, p in enumerate(piles) if p == 1) if count % 2 == 0 else ()
    if misere and len(big) == 1:
        (b,) = big
        ones = sum(1 for i, p in enumerate(piles) if p == 1 and i != b)
        return ((b, piles[b]),) if ones % 2 == 1 else ((b, piles[b] - 1),)
    s = nim_sum(piles)
    return tuple((i, p - (p ^ s)) for i, p in enumerate(piles) if (p ^ s) < p)


def parse_piles(text: str) -> tuple:
    """Pile sizes written as ``"1,3,5,7"`` or ``"1 3 5 7"``; an empty field (``"1,,3"``) is an error.

    >>> parse_piles("1, 3,5 7")
    (1, 3, 5, 7)
    >>> parse_piles("1,,3")
    Traceback (most recent call last):
    ...
    ValueError: piles are whole numbers such as 1,3,5,7, got '1,,3' (an empty field)
    """
    if not isinstance(text, str):
        raise TypeError(f"piles are written as text, got {type(text).__name__}")
    fields = [field.split() for field in text.split(",")]
    if len(fields) > 1 and not all(fields):
        raise ValueError(f"piles are whole numbers such as 1,3,5,7, got {text!r} (an empty field)")
    try:
        piles = tuple(int(p) for field in fields for p in field)
    except ValueError:
        raise ValueError(f"piles are whole numbers such as 1,3,5,7, got {text!r}") from None
    if not piles:
        raise ValueError("piles must hold at least one pile")
    if any(p < 0 for p in piles):
        raise ValueError(f"piles are non-negative whole numbers such as 1,3,5,7, got {text!r}")
    return piles


def _spaced(numbers) -> str:
    return " ".join(str(n) for n in numbers)


@dataclass(frozen=True)
class Piles(GameBase):
    """Nim with several piles; ``misere=True``: taking the last object loses.

    A move ``(pile, count)`` takes ``count`` objects from pile ``pile`` (from 0).

    >>> game = Piles((1, 2))
    >>> state = game.start()
    >>> state == {"piles": (1, 2), "player": 0}, game.possible_moves(state)
    (True, ((0, 1), (1, 1), (1, 2)))
    >>> game.play(state, (1, 2)) == {"piles": (1, 0), "player": 1}, game.payoff(game.state((0, 0), 1))
    (True, (-1, 1))
    """

    piles: tuple = (1, 3, 5, 7)
    misere: bool = field(default=True, metadata={"help": "taking the last object loses", "false": "--normal"})
    num_players = 2
    name = "piles"
    title = "Nim (several piles, take any number from one)"
    state_field = "piles"
    state_example = "1,3,5,7"
    can_draw = False
    train_hint = "train one with `fnmcts train piles -o FILE`"

    def rule_text(self) -> str:
        """The rule a person is told as a game starts.

        >>> Piles().rule_text()
        'taking the last item loses'
        """
        return "taking the last item loses" if self.misere else "taking the last item wins"

    def position_text(self, state) -> str:
        """A position in words, for a report: ``'piles 1 3 5 7'``.

        >>> Piles().position_text(Piles().start())
        'piles 1 3 5 7'
        """
        return f"piles {' '.join(map(str, state['piles']))}"

    def positions(self, state) -> int:
        """The positions play can reach from ``state``, whoever is to move: every pile from its size down to 0.

        >>> Piles().positions(Piles().start())  # 2 * 4 * 6 * 8
        384
        """
        total = 1
        for pile in state["piles"]:
            total *= pile + 1
        return total

    def empty_text(self) -> str:
        """Why a game with empty piles is over before it starts.

        >>> Piles(piles=(0, 0)).empty_text()
        'the piles are 0 0'
        """
        return f"the piles are {' '.join(map(str, self.piles))}"

    def __post_init__(self):
        object.__setattr__(self, "piles", _check_piles(self.piles))
        if not isinstance(self.misere, bool):
            raise TypeError(f"misere must be True or False, got {self.misere!r}")

    def state(self, piles, player: int = 0) -> PMap:
        """The state with these ``piles`` and ``player`` to move."""
        return fixed_pmap({"piles": _check_piles(piles), "player": _check_player(player)})

    def check_state(self, state):
        """``state`` if it is a state of this game, else a clear error."""
        return _check_pile_state(self, state, "piles", "a piles state is pmap(piles=(...), player=0 or 1)")

    def start(self):
        return fixed_pmap({"piles": self.piles, "player": 0})

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
        return fixed_pmap({"piles": piles[:i] + (piles[i] - j,) + piles[i + 1 :], "player": 1 - state["player"]})

    def payoff(self, state) -> tuple:
        if any(state["piles"]):
            raise ValueError(f"the game is not over at {state!r}")
        return _end_payoff(state["player"], self.misere)

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
        return _end_payoff(player, self.misere)

    def describe_move(self, state, move) -> str:
        return f"take {move[1]} from pile {move[0]}"

    def state_to_json(self, state):
        """The JSON form: the piles and the player to move, numbered from 1.

        >>> Piles().state_to_json(Piles().state((1, 2)))
        {'piles': [1, 2], 'player': 1}
        """
        return {"piles": list(state["piles"]), "player": state["player"] + 1}

    def state_from_json(self, data):
        """The state of a JSON form: ``{"piles": [...], "player": 1 or 2}`` (player 1 by default), no other key."""
        if not isinstance(data, dict) or "piles" not in data:
            raise ValueError(f"a piles state is {{'piles': [...], 'player': 1 or 2}}, got {data!r}")
        return self.state(data["piles"], json_player(data, ("piles", "player"), "a piles state"))

    # -- hooks ---------------------------------------------------------------------------

    def size_hint(self, state) -> tuple:
        """``(states, length, branching)`` from ``state``: every smaller pile of each, either player to move.

        >>> Piles((1, 3, 5, 7)).size_hint(Piles((1, 3, 5, 7)).start())
        (768, 16, 16)
        """
        piles = state["piles"]
        states = 2
        for pile in piles:
            states *= pile + 1
        return (states, sum(piles), sum(piles))

    def size_fits(self, limit: int) -> str:
        """What fits in ``limit`` states, said with the piles.

        >>> Piles().size_fits(200_000)
        'the product of (pile + 1) over the piles at most 100,000'
        """
        return f"the product of (pile + 1) over the piles at most {limit // 2:,}"

    def winning_moves(self, state) -> tuple:
        """Bouton's winning moves at ``state``, in move order (``()`` from a lost position).

        >>> Piles((1, 3, 5, 6)).winning_moves(Piles().state((1, 3, 5, 6)))
        ((0, 1), (1, 1), (2, 1))
        """
        return piles_winning_moves(state["piles"], self.misere)

    def mover_wins(self, state) -> bool:
        """True when the player to move at ``state`` wins under perfect play.

        >>> Piles().mover_wins(Piles().start())
        False
        """
        return piles_mover_wins(state["piles"], self.misere)

    def parse_state(self, text: str):
        """Pile sizes (``"1,3,5,7"`` or ``"1 3 5 7"``, player 1 to move), a JSON list of them, or the JSON form.

        >>> Piles().parse_state("1, 3,5 7")["piles"], Piles().parse_state("[2, 0]")["piles"]
        ((1, 3, 5, 7), (2, 0))
        """
        stripped = _state_text(text)
        if stripped.startswith("["):
            return self.state_from_json({"piles": _state_json(text)})
        if stripped.startswith("{"):
            return super().parse_state(stripped)
        return self.state(parse_piles(stripped))

    def check_reachable(self, state):
        """``state`` if it has as many piles as the game, each at most its starting size, else a ``ValueError``.

        >>> Piles((1, 3, 5, 7)).check_reachable(Piles().state((1, 2, 0, 7)))["piles"]
        (1, 2, 0, 7)
        """
        state = self.check_state(state)
        piles, start = state["piles"], self.piles
        if len(piles) != len(start):
            raise ValueError(
                f"piles {_spaced(piles)} has {len(piles)} pile(s), {self!r} has {len(start)}: play cannot reach it"
            )
        if any(p > s for p, s in zip(piles, start)):
            raise ValueError(
                f"piles {_spaced(piles)} hold more than {self!r} starts with ({_spaced(start)}): "
                "play cannot reach it"
            )
        return state

    def transcript_line(self, player, move, after) -> str:
        """The Q-learning project's line: "Player 2 takes 4 object(s) from pile 2. Piles: 1 3 1 7."

        >>> Piles().transcript_line(1, (2, 4), Piles().state((1, 3, 1, 7)))
        'Player 2 takes 4 object(s) from pile 2. Piles: 1 3 1 7.'
        """
        pile, count = move
        return f"Player {player + 1} takes {count} object(s) from pile {pile}. Piles: {_spaced(after['piles'])}."

    def parse_move(self, state, text: str) -> tuple:
        """A pile and a count typed as ``"2 4"`` or ``"2,4"`` (take 4 from pile 2), if legal.

        >>> Piles().parse_move(Piles().start(), "3,5")
        (3, 5)
        """
        try:
            numbers = tuple(int(p) for p in text.replace(",", " ").split())
        except ValueError:
            numbers = ()
        if len(numbers) != 2 or numbers not in self.possible_moves(state):
            raise ValueError("type a pile and a count, e.g. '2 3': take 3 from pile 2 (it must hold that many)")
        return numbers

    def render(self, state) -> str:
        """The piles, one line each, and how to type a move (a pile's number, then how many to take).

        >>> print(Piles((1, 2)).render(Piles().state((1, 2))))
        Piles:
        Pile 0: 1
        Pile 1: 2
        Type a pile and a count: '1 2' takes 2 from pile 1.
        """
        piles = state["piles"]
        lines = ["Piles:"] + [f"Pile {i}: {p}" for i, p in enumerate(piles)]
        largest = max(range(len(piles)), key=lambda i: (piles[i], -i), default=None)
        if largest is not None and piles[largest]:
            take = min(2, piles[largest])
            lines.append(f"Type a pile and a count: '{largest} {take}' takes {take} from pile {largest}.")
        return "\n".join(lines)

    def q_key(self, state) -> tuple:
        """The Q table's key: the pile sizes (the game is impartial: the player is not part of it).

        >>> Piles().q_key(Piles().start())
        (1, 3, 5, 7)
        """
        return state["piles"]

    def state_from_q_key(self, key):
        """The state (player 1 to move) with the piles of ``key``: as many as the game's, none larger.

        >>> Piles((1, 2)).state_from_q_key((1, 3))
        Traceback (most recent call last):
        ...
        ValueError: pile sizes [1, 3] exceed the starting piles [1, 2]
        """
        if len(key) != len(self.piles):
            raise ValueError(f"a state of {self!r} has {len(self.piles)} piles, got {list(key)!r}")
        state = self.state(key)
        if any(p > start for p, start in zip(key, self.piles)):
            raise ValueError(f"pile sizes {list(key)!r} exceed the starting piles {list(self.piles)!r}")
        return state

    def q_key_to_json(self, key) -> list:
        """The key as a list of pile sizes.

        >>> Piles().q_key_to_json((1, 0, 2, 7))
        [1, 0, 2, 7]
        """
        return list(key)

    def q_key_from_json(self, data) -> tuple:
        """The key written as a list of pile sizes.

        >>> Piles().q_key_from_json([1, 0, 2, 7])
        (1, 0, 2, 7)
        """
        if not isinstance(data, list):
            raise ValueError(f"a state is a list, got {data!r}")
        return tuple(data)
