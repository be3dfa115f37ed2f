"""Random games as values: small games given as tables, large ones given by a seed.

Two kinds of game, both immutable values (frozen dataclasses that pickle, so a
root-parallel search or an executor can ship them) implementing the protocol
(``fnmcts.protocol``), which ``fnmcts.testing.strategies`` draws
(``table_games()``, ``seeded_games()``, ``random_games()``):

* ``TableGame``: a game given as a table, node -> what happens there. States
  are the nodes (integers), the start is node 0. Hypothesis draws it cell by
  cell, so a failing game shrinks to a few nodes and prints as a literal you
  can paste into a test.
* ``SeededGame``: a game given by a seed and its shape (layers, states a
  layer, moves, chance, payoffs): a state is a pair ``(layer, index)`` and
  everything about it (who moves, its moves, where each leads, its chance
  outcomes, its payoff) comes from a hash of the seed, the state and the
  move. Nothing is stored, so a game of a million states costs no more to
  draw or to hold than one of ten.

Both can repeat states (``repeats``): then moves still lead forward, and
chance outcomes may lead back, each chance node with an outcome that ends the
game, so play ends with probability 1 whatever the players do (the protocol's
``may_repeat`` contract).

>>> game = TableGame((("move", 0, (1, 2)), ("chance", ((3, Fraction(1, 2)), (2, Fraction(1, 2)))),
...                   ("end", (Fraction(4, 5),)), ("end", (0,))), num_players=1)
>>> game.possible_moves(0), game.chance_outcomes(1), game.payoff(2)
((0, 1), ((0, Fraction(1, 2)), (1, Fraction(1, 2))), (Fraction(4, 5),))
>>> big = SeededGame(seed=7, num_players=2, depth=30, width=2_000)
>>> big.start(), big.to_move(big.start()), big.possible_moves(big.start())
((0, 0), 0, (0, 2))
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from numbers import Real

from ..protocol import CHANCE, GameBase, GraphTables

__all__ = ["TableGame", "SeededGame"]

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def _mix(*parts: int) -> int:
    """A 64-bit hash of whole numbers (splitmix64 over each in turn): the same on every machine and Python.

    ``SeededGame`` reads its rules from it; Python's own ``hash`` of a tuple
    changes between Python versions, which would change a game given by its seed.

    >>> _mix(1, 2, 3) == _mix(1, 2, 3), _mix(1, 2, 3) == _mix(1, 3, 2), _mix(0) < 2 ** 64
    (True, False, True)
    """
    h = 0
    for part in parts:
        x = (h + _GOLDEN * (part + 1)) & _MASK
        x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
        h = x ^ (x >> 31)
    return h


def _check_payoffs(payoffs, players, span, what):
    low, high = span if span is not None else ((0, 1) if players == 1 else (-1, 1))
    for pay in payoffs:
        if not isinstance(pay, tuple) or len(pay) != players:
            raise ValueError(f"{what}: a payoff is a tuple of {players} number(s), one per player, got {pay!r}")
        for x in pay:
            if isinstance(x, bool) or not isinstance(x, Real) or not low <= x <= high:
                raise ValueError(f"{what}: payoff {pay!r} is not within the payoff range ({low}, {high})")


def _check_span(span):
    if span is not None and not (isinstance(span, tuple) and len(span) == 2 and span[0] < span[1]):
        raise ValueError(f"span is the payoff range (low, high) with low < high, or None for the default, got {span!r}")


@dataclass(frozen=True)
class TableGame(GameBase):
    """A game given as a table: ``table[i]`` says what happens at node ``i``; node 0 is the start.

    An entry is ``("move", player, children)`` (a decision: move ``j`` leads to
    node ``children[j]``; the moves are ``0 .. len(children) - 1``),
    ``("chance", ((child, probability), ...))`` (outcome ``j`` leads to the
    ``j``-th child) or ``("end", payoff)`` (one number per player).
    ``repeats``: the game's states may repeat (``may_repeat()``); ``span``: the
    payoff range ``(low, high)`` (None: the protocol's default, ``(0, 1)`` for
    one player, ``(-1, 1)`` for more); ``tables``: the game offers its states as
    tables through the ``compiled_graph()`` hook (``GraphTables``), as
    OpenSpiel's small games do, which changes the search's defaults (shallow
    proofs) and the way it reads the game.

    >>> game = TableGame((("move", 0, (1, 2)), ("end", (1, -1)), ("move", 1, (1, 3)), ("end", (0, 0))))
    >>> game.to_move(0), game.play(0, 1), game.to_move(2), game.payoff(3)
    (0, 2, 1, (0, 0))
    >>> game.compiled_graph
    Traceback (most recent call last):
    ...
    AttributeError: this TableGame offers no tables (tables=False)
    >>> TableGame(game.table, tables=True).compiled_graph().children[2]
    (1, 3)
    """

    table: tuple
    num_players: int = 2
    repeats: bool = False
    span: tuple | None = None
    tables: bool = False

    def __post_init__(self):
        if not isinstance(self.table, tuple) or not self.table:
            raise ValueError(f"table must be a non-empty tuple of entries, got {self.table!r}")
        _check_span(self.span)
        _check_payoffs([e[1] for e in self.table if e[0] == "end"], self.num_players, self.span, "TableGame")

    def start(self):
        return 0

    def may_repeat(self):
        return self.repeats

    def payoff_range(self):
        return self.span if self.span is not None else super().payoff_range()

    def to_move(self, state):
        entry = self.table[state]
        if entry[0] == "move":
            return entry[1]
        return CHANCE if entry[0] == "chance" else None

    def possible_moves(self, state):
        entry = self.table[state]
        return tuple(range(len(entry[2]))) if entry[0] == "move" else ()

    def chance_outcomes(self, state):
        entry = self.table[state]
        return tuple((j, p) for j, (_, p) in enumerate(entry[1])) if entry[0] == "chance" else ()

    def play(self, state, move):
        entry = self.table[state]
        try:
            return entry[2][move] if entry[0] == "move" else entry[1][move][0]
        except (IndexError, TypeError):
            raise ValueError(f"{move!r} is not a move or outcome at node {state!r}") from None

    def payoff(self, state):
        entry = self.table[state]
        if entry[0] != "end":
            raise ValueError(f"the game is not over at node {state!r}")
        return entry[1]

    @property
    def compiled_graph(self):
        """The hook ``compiled_graph()`` when ``tables`` is on; else the game has no such hook (an AttributeError)."""
        if not self.tables:
            raise AttributeError("this TableGame offers no tables (tables=False)")
        return self._graph_tables

    def _graph_tables(self) -> GraphTables:
        kept = self.__dict__.get("_kept_tables")  # made once per game value, as OpenSpiel's small games make theirs
        if kept is not None:
            return kept
        kinds, moves, children, outcomes, payoffs = [], [], [], [], []
        for entry in self.table:
            if entry[0] == "move":
                kinds.append(entry[1])
                moves.append(tuple(range(len(entry[2]))))
                children.append(tuple(entry[2]))
                outcomes.append(())
                payoffs.append(None)
            elif entry[0] == "chance":
                kinds.append(-2)
                moves.append(())
                children.append(tuple(child for child, _ in entry[1]))
                outcomes.append(tuple((j, p) for j, (_, p) in enumerate(entry[1])))
                payoffs.append(None)
            else:
                kinds.append(-1)
                moves.append(())
                children.append(())
                outcomes.append(())
                payoffs.append(entry[1])
        size = len(self.table)
        kept = GraphTables(tuple(range(size)), {i: i for i in range(size)}, tuple(kinds), tuple(moves),
                           tuple(children), tuple(outcomes), tuple(payoffs))
        object.__setattr__(self, "_kept_tables", kept)
        return kept


@dataclass(frozen=True)
class SeededGame(GameBase):
    """A game given by ``seed`` and its shape; every rule at a state is read from a hash of the seed and the state.

    A state is ``(layer, index)``: the start is ``(0, 0)``, always a decision
    of player 0; a state of layer ``depth`` is an end. Any other state is, by
    its hash, an end (``stops`` percent of them), a chance node (``chance``
    percent) or a decision of one of the ``num_players`` players. A decision has
    1 to ``branching`` moves, labelled by numbers below ``branching`` (a run
    of them, mod ``branching``, that changes from state to state); with ``shrink`` the most moves fall
    from ``branching`` at the start to 1 at the last layer. A move leads
    forward 1 to ``skip`` layers, to one of the ``width`` states there, so
    states are reached along many lines (transpositions), often at different
    depths when ``skip`` > 1. A chance node has 2 to ``outcomes`` outcomes
    (``0, 1, ...``) of probabilities in thirds of weights 1-3; with
    ``repeats`` outcome 0 ends the game and the others may lead back to any
    earlier layer (cycles through chance; moves never lead back). An end
    pays one of ``payoffs`` (repeats weigh it; None: a win or a loss for one
    player, a win, a draw or a loss for two, one winner among more), within
    ``span`` (the payoff range; None: the protocol's default). About
    ``depth * width`` states.

    >>> game = SeededGame(seed=3, num_players=1, depth=4, width=3, chance=50, payoffs=((0,), (Fraction(4, 5),)))
    >>> from fnmcts.exact import solve, value
    >>> value(solve(game), game.start())
    (Fraction(4, 5),)
    >>> import pickle
    >>> pickle.loads(pickle.dumps(game)) == game
    True
    """

    seed: int
    num_players: int = 2
    depth: int = 6
    width: int = 8
    branching: int = 3
    chance: int = 0
    stops: int = 0
    outcomes: int = 3
    payoffs: tuple | None = None
    shrink: bool = False
    skip: int = 1
    repeats: bool = False
    span: tuple | None = None

    def __post_init__(self):
        for name, low in (("seed", 0), ("num_players", 1), ("depth", 1), ("width", 1), ("branching", 1),
                          ("outcomes", 2), ("skip", 1)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise ValueError(f"SeededGame: {name} must be a whole number, {low} or more, got {value!r}")
        for name in ("chance", "stops"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 100:
                raise ValueError(f"SeededGame: {name} is a percentage of the states, 0 to 100, got {value!r}")
        if self.payoffs is None:  # a win or a loss for one player; a win, a draw or a loss for more
            n = self.num_players
            pays = ((0,), (1,)) if n == 1 else tuple(tuple(1 if p == q else -1 for p in range(n)) for q in range(n))
            object.__setattr__(self, "payoffs", pays if n != 2 else ((1, -1), (0, 0), (-1, 1)))
        if not isinstance(self.payoffs, tuple) or not self.payoffs:
            raise ValueError(f"SeededGame: payoffs is a non-empty tuple of payoff tuples, got {self.payoffs!r}")
        _check_span(self.span)
        _check_payoffs(self.payoffs, self.num_players, self.span, "SeededGame")

    def start(self):
        return (0, 0)

    def may_repeat(self):
        return self.repeats

    def payoff_range(self):
        return self.span if self.span is not None else super().payoff_range()

    def _hash(self, state) -> int:
        return _mix(self.seed, state[0], state[1])

    def _kind(self, state, h):
        """-1 at an end, -2 at a chance node, else the player to move."""
        layer = state[0]
        if layer >= self.depth:
            return -1
        if state == (0, 0):
            return 0
        if h % 100 < self.stops:
            return -1
        if (h >> 8) % 100 < self.chance:
            return -2
        return (h >> 16) % self.num_players

    def to_move(self, state):
        kind = self._kind(state, self._hash(state))
        return None if kind == -1 else CHANCE if kind == -2 else kind

    def possible_moves(self, state):
        h = self._hash(state)
        if self._kind(state, h) < 0:
            return ()
        return self._moves(state[0], h)

    def _moves(self, layer, h) -> tuple:
        """``k`` labels in a row (mod ``branching``) from one the hash picks, in order."""
        b = self.branching
        most = max(1, b - (b - 1) * layer // max(1, self.depth - 1)) if self.shrink else b
        k = 1 + (h >> 24) % most
        first = (h >> 40) % b
        return tuple(sorted((first + j) % b for j in range(k)))

    def chance_outcomes(self, state):
        h = self._hash(state)
        if self._kind(state, h) != -2:
            return ()
        count = 2 + (h >> 24) % (self.outcomes - 1)
        weights = [1 + _mix(h, j, 1) % 3 for j in range(count)]
        total = sum(weights)
        return tuple((j, Fraction(w, total)) for j, w in enumerate(weights))

    def _forward(self, layer, h) -> tuple:
        return (min(self.depth, layer + 1 + h % self.skip), (h >> 8) % self.width)

    def play(self, state, move):
        h = self._hash(state)
        kind = self._kind(state, h)
        if kind == -1:
            raise ValueError(f"the game is over at {state!r}: no move {move!r}")
        layer = state[0]
        if kind == -2:
            if not (type(move) is int and 0 <= move < 2 + (h >> 24) % (self.outcomes - 1)):
                raise ValueError(f"{move!r} is not a chance outcome at {state!r}")
            step = _mix(h, move, 2)
            if not self.repeats:
                return self._forward(layer, step)
            if move == 0:
                return (self.depth, step % self.width)
            return (step % (layer + 2), (step >> 8) % self.width)  # back to any layer up to this one, or on
        moves = self._moves(layer, h)
        if move not in moves:
            raise ValueError(f"{move!r} is not a move at {state!r}: the moves are {moves}")
        return self._forward(layer, _mix(h, move, 3))

    def payoff(self, state):
        h = self._hash(state)
        if self._kind(state, h) != -1:
            raise ValueError(f"the game is not over at {state!r}")
        return self.payoffs[_mix(h, 4) % len(self.payoffs)]
