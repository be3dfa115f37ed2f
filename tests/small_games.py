"""Small generated games for property tests: any shape, with draws, scores and chance.

``TableGame`` (``fnmcts.testing.TableGame``, the public random games' own) is a
game given as a table: node -> what happens there; node 0 is the start.
``table_games()`` here draws the narrower games these tests were written for:
acyclic (every edge leads to a higher node), two-player zero-sum games that pay
a win, a draw or a loss, and one-player games that pay a score in [0, 1], with
or without chance nodes. ``fnmcts.testing.table_games()`` draws every kind.

``cyclic_table_games()`` draws games whose states may repeat: a move still
leads to a higher node, but a chance outcome may lead anywhere (back to the
start, to itself), and every chance node has an outcome that ends the game. An
endless play would pass chance nodes endlessly, each ending it with positive
probability: the games end with probability 1 whatever the players do.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from hypothesis import strategies as st

from fnmcts.protocol import GameBase
from fnmcts.testing import TableGame


@st.composite
def table_games(draw, players=None, max_nodes=14, chance=True):
    """A random acyclic ``TableGame``: two players with draws, or one player with scores."""
    players = draw(st.sampled_from((1, 2))) if players is None else players
    size = draw(st.integers(2, max_nodes))
    ends = draw(st.integers(1, max(1, size // 2)))
    inner = size - ends
    table = [None] * size
    for i in range(inner, size):
        if players == 2:
            x = draw(st.sampled_from((1, 0, -1)))
            table[i] = ("end", (x, -x))
        else:
            table[i] = ("end", (Fraction(draw(st.integers(0, 4)), 4),))
    for i in range(inner - 1, -1, -1):
        later = list(range(i + 1, size))
        k = draw(st.integers(1, min(4, len(later))))
        children = tuple(draw(st.lists(st.sampled_from(later), min_size=k, max_size=k)))
        if chance and draw(st.integers(0, 3)) == 0:
            weights = draw(st.lists(st.integers(1, 3), min_size=len(children), max_size=len(children)))
            total = sum(weights)
            pairs, seen = [], {}
            for child, w in zip(children, weights):
                seen[child] = seen.get(child, 0) + w
            pairs = tuple((child, Fraction(w, total)) for child, w in seen.items())
            table[i] = ("chance", pairs)
        else:
            player = draw(st.integers(0, players - 1))
            table[i] = ("move", player, children)
    return TableGame(tuple(table), players)


@st.composite
def cyclic_table_games(draw, players=None, max_nodes=10, general=False):
    """A random ``TableGame`` that may repeat and ends with probability 1 whatever the players do.

    Two players pay a win, a draw or a loss (with ``general``, any pair of
    -1, 0, 1: not zero-sum); one player a score in [0, 1].
    """
    players = draw(st.sampled_from((1, 2))) if players is None else players
    size = draw(st.integers(2, max_nodes))
    ends = draw(st.integers(1, max(1, size // 3)))
    inner = size - ends
    table = [None] * size
    for i in range(inner, size):
        if players == 2 and general:
            table[i] = ("end", (draw(st.sampled_from((1, 0, -1))), draw(st.sampled_from((1, 0, -1)))))
        elif players == 2:
            x = draw(st.sampled_from((1, 0, -1)))
            table[i] = ("end", (x, -x))
        else:
            table[i] = ("end", (Fraction(draw(st.integers(0, 4)), 4),))
    for i in range(inner - 1, -1, -1):
        if draw(st.integers(0, 2)) == 0:
            later = list(range(i + 1, size))
            k = draw(st.integers(1, min(3, len(later))))
            children = tuple(draw(st.lists(st.sampled_from(later), min_size=k, max_size=k)))
            table[i] = ("move", draw(st.integers(0, players - 1)), children)
        else:
            exit_ = draw(st.sampled_from(list(range(inner, size))))
            others = draw(st.lists(st.integers(0, size - 1), min_size=1, max_size=3))
            weights = draw(st.lists(st.integers(1, 3), min_size=len(others) + 1, max_size=len(others) + 1))
            seen = {}
            for child, w in zip([exit_] + others, weights):
                seen[child] = seen.get(child, 0) + w
            total = sum(seen.values())
            table[i] = ("chance", tuple((child, Fraction(w, total)) for child, w in seen.items()))
    return TableGame(tuple(table), players, True)


@lru_cache(maxsize=None)
def _connect_lines(width, height, k):
    """The cells ``(column, row)`` of every line of ``k`` on the board."""
    lines = []
    for x in range(width):
        for y in range(height):
            for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = tuple((x + j * dx, y + j * dy) for j in range(k))
                if all(0 <= a < width and 0 <= b < height for a, b in cells):
                    lines.append(cells)
    return tuple(lines)


@lru_cache(maxsize=1 << 18)
def _connect_status(width, height, k, state):
    """``(player to move or None, winner or None)`` of a Connect state."""
    def at(x, y):
        column = state[x]
        return column[y] if y < len(column) else None

    for line in _connect_lines(width, height, k):
        first = at(*line[0])
        if first is not None and all(at(*cell) == first for cell in line[1:]):
            return None, first
    pieces = sum(len(column) for column in state)
    return (None if pieces == width * height else pieces % 2), None


@dataclass(frozen=True)
class Connect(GameBase):
    """Connect-K on a ``width`` x ``height`` board with gravity: a move is a column, a piece falls to its bottom.

    A state is a tuple of columns, each a tuple of the players (0, 1) whose
    pieces fill it from the bottom. Player 0 moves first; ``k`` in a row
    (across, up or diagonally) wins, a full board without one is a draw.
    Connect-3 on 4x4 (the default) is a first-player win.
    """

    width: int = 4
    height: int = 4
    k: int = 3
    num_players = 2

    def start(self):
        return ((),) * self.width

    def to_move(self, state):
        return _connect_status(self.width, self.height, self.k, state)[0]

    def possible_moves(self, state):
        if self.to_move(state) is None:
            return ()
        return tuple(x for x, column in enumerate(state) if len(column) < self.height)

    def play(self, state, move):
        player = self.to_move(state)
        if player is None or move not in self.possible_moves(state):
            raise ValueError(f"illegal move {move!r} at {state!r}")
        return state[:move] + (state[move] + (player,),) + state[move + 1 :]

    def payoff(self, state):
        player, winner = _connect_status(self.width, self.height, self.k, state)
        if player is not None:
            raise ValueError(f"the game is not over at {state!r}")
        return (0, 0) if winner is None else ((1, -1) if winner == 0 else (-1, 1))


@dataclass(frozen=True)
class NamedTableGame(TableGame):
    """A ``TableGame`` with a name, as the commands write a game to JSON."""

    name = "table-game"


SURE_WITH_DICE = NamedTableGame((
    ("move", 0, (1, 2)),
    ("chance", ((3, 0.5), (4, 0.5))),
    ("end", (-1, 1)),
    ("end", (1, -1)),
    ("end", (1, -1)),
))
"""A game with dice whose first player wins whatever they roll (move 0): a certain win."""

DRAWS_WITH_DICE = NamedTableGame((
    ("move", 0, (1, 2)),
    ("chance", ((3, 0.5), (4, 0.5))),
    ("end", (-1, 1)),
    ("end", (1, -1)),
    ("end", (0, 0)),
))
"""A game with dice that may end in a draw: move 0 expects half a win (payoff 1/2), no sure verdict."""

BROKEN_DICE = NamedTableGame((
    ("move", 0, (1,)),
    ("chance", ((2, 0.5), (3, 0.25))),
    ("end", (1, -1)),
    ("end", (-1, 1)),
))
"""A broken game: after the first move, the dice's probabilities sum to 3/4."""


# -- what the search's property tests draw from ---------------------------------------------


def _builtin_search_games() -> tuple:
    from fnmcts.games import Nim, Piles, ShutTheBox, TicTacToe

    return (
        Nim(heap=7, max_take=3),
        Nim(heap=6, max_take=2, misere=False),
        Piles((1, 2, 2)),
        ShutTheBox(levers=4),
        ShutTheBox(levers=5, simplified=True),
        TicTacToe(),
    )


BUILTIN_GAMES = _builtin_search_games()
"""Built-in games small enough for a search's property tests: Nim both ways, piles, Shut the Box both ways, tic-tac-toe."""


def custom_rule(rec, parent_visits):
    """A rule of the user's: the mean plus one over the visits (infinity when unvisited)."""
    from fnmcts.mcts import mean, visits

    n = visits(rec)
    return float("inf") if n == 0 else mean(rec) + 1 / n


def search_games(extra=()):
    """The built-in games (and ``extra``), generated table games and cyclic ones."""
    return st.one_of(st.sampled_from(BUILTIN_GAMES + tuple(extra)), table_games(), cyclic_table_games())


class ListCountdown(GameBase):
    """A countdown from 4 whose state is a list ``[heap, player]``, as a user writes it before reading that states
    are immutable; a subclass gives ``possible_moves`` and ``play`` (which may change the list in place)."""

    num_players = 2

    def start(self):
        return [4, 0]

    def to_move(self, state):
        return state[1] if state[0] else None

    def payoff(self, state):
        return (1, -1) if state[1] else (-1, 1)
