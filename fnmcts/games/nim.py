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

The subtraction game's closed form (checked by the tests against
``fnmcts.exact`` on every heap up to a size): under normal play (taking the
last item wins: the 21 game, the blog) the player to move loses exactly when
``heap % (K + 1) == 0``; under misère play (the notebook) exactly when
``heap % (K + 1) == 1``. The winning move restores that remainder. The end of a
game is a position too: under misère play its mover has won, under normal play lost.

>>> subtraction_winner(21, 3, misere=True), subtraction_winning_moves(22, 3, misere=True)
('other', (1,))
>>> game.winning_moves(game.state(22))
(1,)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pyrsistent import PMap, pmap

from ..protocol import MOVER, OTHER, GameBase, _state_text, _whole_at_least, json_player
from ..values import fixed_pmap

__all__ = [
    "Nim",
    "MOVER",
    "OTHER",
    "subtraction_mover_wins",
    "subtraction_winner",
    "subtraction_winning_moves",
]


def _check_player(player):
    if player not in (0, 1):
        raise ValueError(f"player must be 0 or 1, got {player!r}")
    return player


def _check_pile_state(game, state, field: str, written: str):
    """``state`` if it is ``pmap(field=..., player=...)`` that ``game.state`` accepts, else a ``ValueError``.

    Nim and piles states alike: the caller's object comes back (trees and
    tables find it by identity); ``written`` says how the state is written.

    >>> _check_pile_state(Nim(), pmap({"heap": 3}), "heap", "a Nim state is pmap(heap=n, player=0 or 1)")
    Traceback (most recent call last):
    ...
    ValueError: a Nim state is pmap(heap=n, player=0 or 1), got pmap({'heap': 3})
    """
    if not isinstance(state, PMap) or set(state) != {field, "player"}:
        raise ValueError(f"{written}, got {state!r}")
    game.state(state[field], state["player"])  # raises on bad values
    return state


def _end_payoff(to_move: int, misere: bool) -> tuple:
    """The payoff once nothing is left, ``to_move`` to move: the last take loses under misere play, else wins.

    >>> _end_payoff(0, True), _end_payoff(0, False)
    ((1, -1), (-1, 1))
    """
    winner = to_move if misere else 1 - to_move
    return (1, -1) if winner == 0 else (-1, 1)


# -- the subtraction game's closed form: one heap, take 1..K ---------------------------


def subtraction_mover_wins(heap: int, max_take: int, misere: bool = True) -> bool:
    """True when the player to move wins the one-heap game under perfect play.

    >>> [subtraction_mover_wins(n, 3, misere=True) for n in range(1, 7)]
    [False, True, True, True, False, True]
    >>> [subtraction_mover_wins(n, 3, misere=False) for n in range(1, 7)]
    [True, True, True, False, True, True]
    """
    _whole_at_least("heap", heap, 0)
    _whole_at_least("max_take", max_take, 1)
    return heap % (max_take + 1) != (1 if misere else 0)


def subtraction_winner(heap: int, max_take: int, misere: bool = True) -> str:
    """``"mover"`` or ``"other"``: who wins the one-heap game from ``heap``.

    >>> subtraction_winner(21, 3, misere=False), subtraction_winner(24, 5, misere=False)
    ('mover', 'other')
    """
    return MOVER if subtraction_mover_wins(heap, max_take, misere) else OTHER


def subtraction_winning_moves(heap: int, max_take: int, misere: bool = True) -> tuple:
    """The moves that win from ``heap`` (at most one), ``()`` from a lost position.

    The notebook's PerfectAgent: leave ``1 mod (K + 1)`` under misère play; the
    21 game's strategy: leave ``0 mod (K + 1)`` under normal play.

    >>> subtraction_winning_moves(21, 3, misere=False), subtraction_winning_moves(10, 3, misere=False)
    ((1,), (2,))
    >>> subtraction_winning_moves(21, 3, misere=True)
    ()
    """
    _whole_at_least("heap", heap, 0)
    _whole_at_least("max_take", max_take, 1)
    take = (heap - 1 if misere else heap) % (max_take + 1)
    return (take,) if heap and take else ()


@dataclass(frozen=True)
class Nim(GameBase):
    """One heap of ``heap`` items; a move takes 1..``max_take``.

    ``misere=True``: taking the last item loses (the notebook); ``False``: it wins.

    >>> game = Nim(heap=5)
    >>> state = game.start()
    >>> state == {"heap": 5, "player": 0}, game.possible_moves(state), game.play(state, 3) == {"heap": 2, "player": 1}
    (True, (1, 2, 3), True)
    >>> game.payoff(game.state(0, 1)), Nim(heap=5, misere=False).payoff(game.state(0, 1))
    ((-1, 1), (1, -1))
    """

    heap: int = 21
    max_take: int = 3
    misere: bool = field(default=True, metadata={"help": "taking the last item loses", "false": "--normal"})
    num_players = 2
    name = "nim"
    title = "Nim (one heap, take 1..K)"
    state_field = "heap"
    state_example = "21"
    can_draw = False
    train_hint = "train one with `fnmcts train nim -o FILE`"

    def __post_init__(self):
        _whole_at_least("heap", self.heap, 0)
        _whole_at_least("max_take", self.max_take, 1)
        if not isinstance(self.misere, bool):
            raise TypeError(f"misere must be True or False, got {self.misere!r}")

    def rule_text(self) -> str:
        """The rule a person is told as a game starts.

        >>> Nim().rule_text(), Nim(misere=False).rule_text()
        ('taking the last item loses', 'taking the last item wins')
        """
        return "taking the last item loses" if self.misere else "taking the last item wins"

    def position_text(self, state) -> str:
        """A position in words, for a report: ``'heap 5'``.

        >>> Nim().position_text(Nim().state(5))
        'heap 5'
        """
        return f"heap {state['heap']}"

    def positions(self, state) -> int:
        """The positions play can reach from ``state``, whoever is to move: the heaps from it down to 0.

        >>> Nim().positions(Nim().state(10))
        11
        """
        return state["heap"] + 1

    def empty_text(self) -> str:
        """Why a game with an empty heap is over before it starts.

        >>> Nim(heap=0).empty_text()
        'the heap is 0'
        """
        return f"the heap is {self.heap}"

    def state(self, heap: int, player: int = 0) -> PMap:
        """The state with ``heap`` items and ``player`` to move."""
        _whole_at_least("heap", heap, 0)
        return fixed_pmap({"heap": heap, "player": _check_player(player)})

    def check_state(self, state):
        """``state`` if it is a state of this game, else a clear error."""
        return _check_pile_state(self, state, "heap", "a Nim state is pmap(heap=n, player=0 or 1)")

    def start(self):
        return fixed_pmap({"heap": self.heap, "player": 0})

    def to_move(self, state):
        return state["player"] if state["heap"] > 0 else None

    def possible_moves(self, state) -> tuple:
        return tuple(range(1, min(self.max_take, state["heap"]) + 1))

    def play(self, state, move):
        heap = state["heap"]
        if isinstance(move, bool) or not isinstance(move, int) or not 1 <= move <= min(self.max_take, heap):
            raise ValueError(f"illegal move {move!r}: take 1..{min(self.max_take, heap)} from {heap}")
        return fixed_pmap({"heap": heap - move, "player": 1 - state["player"]})

    def payoff(self, state) -> tuple:
        if state["heap"]:
            raise ValueError(f"the game is not over at {state!r}")
        return _end_payoff(state["player"], self.misere)

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
        return _end_payoff(player, self.misere)

    def rollout_payoff(self, state, rng, perfect) -> tuple:
        """The payoff after play from ``state`` in which player ``p`` plays the closed form's
        winning move when ``perfect[p]`` (a random move from a lost position), else a random move.

        A fast kernel for ``playout`` with ``random_agent`` and ``perfect_agent``:
        it draws exactly as they do (one ``rng.random()`` per random choice among
        two or more moves), so it returns the same payoff.

        >>> import random
        >>> Nim(heap=21).rollout_payoff(Nim().state(21), random.Random(1), (False, True))
        (-1, 1)
        """
        heap, player = state["heap"], state["player"]
        k1, top_take = self.max_take + 1, self.max_take
        shift = 1 if self.misere else 0
        rnd = rng.random
        while heap:
            top = top_take if heap > top_take else heap
            take = (heap - shift) % k1 if perfect[player] else 0
            if not take:
                take = 1 + int(rnd() * top) if top > 1 else 1
            heap -= take
            player = 1 - player
        return _end_payoff(player, self.misere)

    def describe_move(self, state, move) -> str:
        return f"take {move}"

    def state_to_json(self, state):
        """The JSON form: the heap and the player to move, numbered from 1 as everywhere a person reads.

        >>> Nim().state_to_json(Nim().state(5, 1))
        {'heap': 5, 'player': 2}
        """
        return {"heap": state["heap"], "player": state["player"] + 1}

    def state_from_json(self, data):
        """The state of a JSON form: ``{"heap": n, "player": 1 or 2}`` (player 1 by default), no other key.

        >>> Nim().state_from_json({"heap": 5, "player": 2}) == Nim().state(5, 1)
        True
        """
        if not isinstance(data, dict) or "heap" not in data:
            raise ValueError(f"a Nim state is {{'heap': n, 'player': 1 or 2}}, got {data!r}")
        return self.state(data["heap"], json_player(data, ("heap", "player"), "a Nim state"))

    # -- hooks ---------------------------------------------------------------------------

    def size_hint(self, state) -> tuple:
        """``(states, length, branching)`` from ``state``: every smaller heap, either player to move.

        >>> Nim(heap=21).size_hint(Nim(heap=21).start())
        (44, 21, 3)
        """
        heap = state["heap"]
        return (2 * (heap + 1), heap, min(self.max_take, heap))

    def size_fits(self, limit: int) -> str:
        """The largest heap whose exact solution fits in ``limit`` states.

        >>> Nim().size_fits(200_000)
        'about a heap of 99,999'
        """
        return f"about a heap of {max(0, limit // 2 - 1):,}"

    def winning_moves(self, state) -> tuple:
        """The closed form's winning moves: leave ``1 mod (K + 1)`` (misère) or ``0 mod (K + 1)``.

        >>> Nim(heap=21, misere=False).winning_moves(Nim().state(21))
        (1,)
        """
        return subtraction_winning_moves(state["heap"], self.max_take, self.misere)

    def mover_wins(self, state) -> bool:
        """True when the player to move at ``state`` wins under perfect play.

        >>> Nim(misere=True).mover_wins(Nim().state(21)), Nim(misere=True).mover_wins(Nim().state(0))
        (False, True)
        """
        return subtraction_mover_wins(state["heap"], self.max_take, self.misere)

    def parse_state(self, text: str):
        """A heap size (``"21"``, player 1 to move) or the JSON form (``'{"heap": 21, "player": 2}'``).

        >>> Nim().parse_state(" 18 ") == Nim().state(18)
        True
        >>> Nim().parse_state("many")
        Traceback (most recent call last):
        ...
        ValueError: a Nim state is a heap size such as 21, got 'many'
        """
        stripped = _state_text(text)
        if stripped.startswith(("{", "[")):
            return super().parse_state(stripped)
        try:
            return self.state(int(stripped))
        except ValueError:
            raise ValueError(f"a Nim state is a heap size such as 21, got {text!r}") from None

    def check_reachable(self, state):
        """``state`` if its heap is at most the starting heap (play only shrinks it), else a ``ValueError``.

        >>> Nim(heap=21).check_reachable(Nim().state(21)) == Nim().state(21)
        True
        """
        state = self.check_state(state)
        if state["heap"] > self.heap:
            raise ValueError(
                f"heap {state['heap']} is more than {self!r} starts with ({self.heap}): play cannot reach it"
            )
        return state

    def transcript_line(self, player, move, after) -> str:
        """The notebook's line: "Player 1 takes 3 matchstick(s). There are 18 matchstick(s) remaining."

        >>> Nim().transcript_line(0, 3, Nim().state(18, 1))
        'Player 1 takes 3 matchstick(s). There are 18 matchstick(s) remaining.'
        """
        return (
            f"Player {player + 1} takes {move} matchstick(s). "
            f"There are {after['heap']} matchstick(s) remaining."
        )

    def parse_move(self, state, text: str) -> int:
        """The number of items typed as ``text``, if it is a legal take.

        >>> Nim().parse_move(Nim().state(5), " 2 ")
        2
        >>> Nim().parse_move(Nim().state(2), "3")
        Traceback (most recent call last):
        ...
        ValueError: type a number from 1 to 2
        """
        top = min(self.max_take, state["heap"])
        try:
            numbers = tuple(int(p) for p in text.replace(",", " ").split())
        except ValueError:
            numbers = ()
        if len(numbers) != 1 or not 1 <= numbers[0] <= top:
            raise ValueError(f"type a number from 1 to {top}")
        return numbers[0]

    def render(self, state) -> str:
        """The heap and what may be taken.

        >>> Nim().render(Nim().state(2))
        'There are 2 matchstick(s). Take 1-2.'
        >>> Nim().render(Nim().state(0))  # the end: nothing to take
        'There are no matchsticks left.'
        """
        if state["heap"] == 0:
            return "There are no matchsticks left."
        top = min(self.max_take, state["heap"])
        return f"There are {state['heap']} matchstick(s). Take {'1' if top == 1 else f'1-{top}'}."

    def q_key(self, state) -> tuple:
        """The Q table's key: ``(heap,)`` (the game is impartial: the player is not part of it).

        >>> Nim().q_key(Nim().state(7, 1))
        (7,)
        """
        return (state["heap"],)

    def state_from_q_key(self, key):
        """The state (player 1 to move) with the heap of ``key``, a 1-tuple no larger than the start.

        >>> Nim(heap=5).state_from_q_key((6,))
        Traceback (most recent call last):
        ...
        ValueError: heap 6 exceeds the starting heap 5
        """
        if len(key) != 1:
            raise ValueError(f"a state of {self!r} is a 1-tuple (heap,), got {list(key)!r}")
        state = self.state(key[0])
        if key[0] > self.heap:
            raise ValueError(f"heap {key[0]} exceeds the starting heap {self.heap}")
        return state

    def q_key_to_json(self, key) -> list:
        """The key as a list: ``[heap]``.

        >>> Nim().q_key_to_json((4,))
        [4]
        """
        return list(key)

    def q_key_from_json(self, data) -> tuple:
        """The key written as a list ``[heap]``.

        >>> Nim().q_key_from_json([4])
        (4,)
        """
        if not isinstance(data, list):
            raise ValueError(f"a state is a list, got {data!r}")
        return tuple(data)
