"""Hypothesis strategies for the states of any game, and for the built-in games and their states.

``reachable_states(game)`` draws a ``Reached(game, state, path)`` by legal play
from the start of any game of the protocol: first the walk's length, then one
move index per step (chance outcomes alike), so a failing example shrinks to a
short path of early moves. ``nim_games()``, ``piles_games()``,
``shut_the_box_games()`` and ``builtin_games()`` draw the built-in games with
their parameters, ``nim_states()`` and the others their states.

Random games nobody tuned for, to test an agent or a search on
(``fnmcts.testing.games`` holds the values they draw): ``table_games()``,
small games drawn node by node (they shrink to a few nodes), ``seeded_games()``,
games of any size given by a seed and a shape, ``random_games()``, either;
``decision_states(games)``, a drawn game and a state deep in it where a
player is to move. Each takes the same keywords: the numbers of players, chance
or not, states that repeat or not, zero-sum or not, graded payoffs or not.

Exported the way ``hypothesis.extra`` modules export theirs: plain strategies
to use in ``@given``.

>>> from hypothesis import find
>>> from fnmcts.games.nim import Nim
>>> reached = find(reachable_states(Nim(heap=6)), lambda r: r.state["heap"] == 0)
>>> sum(reached.path), replay(reached.game, reached.path) == reached.state
(6, True)
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, NamedTuple

from hypothesis import strategies as st

from ._walk import DEFAULT_MAX_STEPS, choices, fresh, replay
from .games import SeededGame, TableGame

__all__ = [
    "Reached",
    "reachable_states",
    "replay",
    "nim_games",
    "piles_games",
    "shut_the_box_games",
    "builtin_games",
    "game_states",
    "nim_states",
    "piles_states",
    "shut_the_box_states",
    "builtin_game_states",
    "table_games",
    "seeded_games",
    "random_games",
    "decision_states",
    "PLAYERS",
]


class Reached(NamedTuple):
    """A state of ``game`` and the moves (chance outcomes included) that reach it from the start.

    >>> from fnmcts.games.nim import Nim
    >>> game = Nim(heap=10, max_take=3)
    >>> reached = Reached(game, replay(game, (3, 2)), (3, 2))
    >>> reached.state["heap"], reached.path
    (5, (3, 2))
    """

    game: Any
    state: Any
    path: tuple

def _walk_from(game, steps: int, index) -> tuple:
    """``(moves, states)`` of the walk of at most ``steps`` steps whose step ``i`` is ``here[index(len(here))]``.

    ``index(n)`` answers a number in ``range(n)``: hypothesis's draw in
    ``_walks``, or the numbers it drew, replayed. A walk stops early at the
    end of the game, or where the game itself fails (the laws report that).
    Each step plays on a copy of the state, and every law gets a copy of its
    own (``fresh``): a law that changes a state cannot change what the next
    law sees, so each broken game is reported under its own law.

    >>> from fnmcts.games.nim import Nim
    >>> _walk_from(Nim(heap=5, max_take=3), 9, lambda n: n - 1)[0]  # take the most each time
    (3, 2)
    """
    state = game.start()
    moves, states = [], [state]
    for _ in range(steps):
        here = choices(game, state)
        if not here:
            break
        move = here[index(len(here))]
        try:
            state = game.play(fresh(state), move)  # a play that changes its input leaves the walk as it was
        except Exception:
            break
        moves.append(move)
        states.append(state)
    return tuple(moves), tuple(states)


@st.composite
def _recorded_walks(draw, game, max_depth: int = DEFAULT_MAX_STEPS) -> tuple:
    """``(moves, states, numbers)``: a walk from the start, and the numbers drawn for it, in order.

    The walk's length is drawn first, then one index per step, so shrinking
    shortens the walk and moves it towards the first moves; ``states`` has one
    more entry than ``moves``. ``_replayed_walk(game, numbers)`` rebuilds the
    same walk without hypothesis.
    """
    numbers = [draw(st.integers(min_value=0, max_value=max_depth))]

    def index(n):
        numbers.append(draw(st.integers(min_value=0, max_value=n - 1)))
        return numbers[-1]

    moves, states = _walk_from(game, numbers[0], index)
    return moves, states, tuple(numbers)


@st.composite
def _walks(draw, game, max_depth: int = DEFAULT_MAX_STEPS) -> tuple:
    """``(moves, states)`` of a walk from the start (``_recorded_walks`` without its numbers)."""
    moves, states, _ = draw(_recorded_walks(game, max_depth))
    return moves, states


def _replayed_walk(game, numbers) -> tuple:
    """``(moves, states)`` of the walk that ``_recorded_walks`` drew as ``numbers``, played again.

    >>> from fnmcts.games.nim import Nim
    >>> _replayed_walk(Nim(heap=5, max_take=3), (9, 2, 1, 0))[0]  # at most 9 steps: take 3, then 2
    (3, 2)
    """
    rest = iter(numbers[1:])
    return _walk_from(game, numbers[0], lambda n: next(rest))


@st.composite
def reachable_states(draw, game, max_depth: int = DEFAULT_MAX_STEPS) -> Reached:
    """A strategy for the states of any ``game`` reachable by legal play from its start.

    Yields a ``Reached(game, state, path)``. A failing example shrinks to a short
    ``path`` of early moves (chance outcomes are chosen the same way).

    >>> from hypothesis import find
    >>> from fnmcts.games.nim import Nim
    >>> game = Nim(heap=10, max_take=3)
    >>> reached = find(reachable_states(game, max_depth=4), lambda r: r.state["heap"] == 3)  # walks of 0-4 steps
    >>> reached.state["heap"], sum(reached.path), replay(game, reached.path) == reached.state
    (3, 7, True)
    """
    moves, states = draw(_walks(game, max_depth))
    return Reached(game, states[-1], moves)


def nim_games(max_heap: int = 25, max_take: int = 6) -> st.SearchStrategy:
    """A strategy for one-heap Nim games: heap 0..max_heap, take 1..max_take, misère or not.

    >>> from hypothesis import find
    >>> find(nim_games(), lambda g: g.heap > 3 and not g.misere)
    Nim(heap=4, max_take=1, misere=False)
    """
    return st.builds(
        _nim(),
        heap=st.integers(min_value=0, max_value=max_heap),
        max_take=st.integers(min_value=1, max_value=max_take),
        misere=st.booleans(),
    )


def piles_games(max_piles: int = 4, max_pile: int = 7) -> st.SearchStrategy:
    """A strategy for multi-pile Nim games: 1..max_piles piles of 0..max_pile, misère or not.

    >>> from hypothesis import find
    >>> find(piles_games(), lambda g: len(g.piles) == 3 and g.misere)
    Piles(piles=(0, 0, 0), misere=True)
    """
    from ..games.piles import Piles

    piles = st.lists(st.integers(min_value=0, max_value=max_pile), min_size=1, max_size=max_piles)
    return st.builds(Piles, piles=piles.map(tuple), misere=st.booleans())


def shut_the_box_games(max_levers: int = 9) -> st.SearchStrategy:
    """A strategy for Shut the Box games: 1..max_levers levers, full or simplified rules, every dice rule and scoring.

    >>> from hypothesis import find
    >>> find(shut_the_box_games(), lambda g: g.simplified)
    ShutTheBox(levers=1, simplified=True)
    >>> find(shut_the_box_games(), lambda g: g.scoring == "digits" and g.levers > 2)
    ShutTheBox(levers=3, simplified=False, scoring='digits')
    """
    from ..games.shut_the_box import DICE_RULES, SCORINGS, ShutTheBox

    return st.builds(
        ShutTheBox,
        levers=st.integers(min_value=1, max_value=max_levers),
        simplified=st.booleans(),
        dice=st.sampled_from(DICE_RULES),
        scoring=st.sampled_from(SCORINGS),
    )


def builtin_games() -> st.SearchStrategy:
    """A strategy for any built-in game (Nim, multi-pile Nim, Shut the Box) with its parameters.

    >>> from hypothesis import find
    >>> find(builtin_games(), lambda g: g.num_players == 1)
    ShutTheBox(levers=1, simplified=False)
    """
    return st.one_of(nim_games(), piles_games(), shut_the_box_games())


@st.composite
def game_states(draw, games: st.SearchStrategy, max_depth: int = DEFAULT_MAX_STEPS) -> Reached:
    """A game drawn from ``games``, then one of its reachable states, as ``Reached``.

    >>> from hypothesis import find
    >>> find(game_states(nim_games()), lambda r: r.game.heap == 2 and r.path).path
    (1,)
    """
    return draw(reachable_states(draw(games), max_depth))


def _states(games: st.SearchStrategy, game, max_depth: int) -> st.SearchStrategy:
    return reachable_states(game, max_depth) if game is not None else game_states(games, max_depth)


def nim_states(game=None, max_depth: int = DEFAULT_MAX_STEPS) -> st.SearchStrategy:
    """Reachable states of ``game`` (default: a drawn ``nim_games()`` game), as ``Reached``.

    >>> from hypothesis import find
    >>> reached = find(nim_states(), lambda r: r.state["player"] == 1)
    >>> reached.game, reached.path
    (Nim(heap=1, max_take=1, misere=False), (1,))
    """
    return _states(nim_games(), game, max_depth)


def piles_states(game=None, max_depth: int = DEFAULT_MAX_STEPS) -> st.SearchStrategy:
    """Reachable states of ``game`` (default: a drawn ``piles_games()`` game), as ``Reached``.

    >>> from hypothesis import find
    >>> from fnmcts.games.piles import Piles
    >>> reached = find(piles_states(Piles((1, 3, 5, 7)), max_depth=6), lambda r: sum(r.state["piles"]) == 10)
    >>> sum(count for _, count in reached.path)
    6
    """
    return _states(piles_games(), game, max_depth)


def shut_the_box_states(game=None, max_depth: int = DEFAULT_MAX_STEPS) -> st.SearchStrategy:
    """Reachable states of ``game`` (default: a drawn ``shut_the_box_games()`` game), as ``Reached``.

    A path alternates dice rolls (chance outcomes) and moves (the box a move leaves).

    >>> from hypothesis import find
    >>> from fnmcts.games.shut_the_box import ShutTheBox
    >>> find(shut_the_box_states(ShutTheBox()), lambda r: len(r.path) == 2).path
    (2, frozenset({1, 3, 4, 5, 6, 7, 8, 9}))
    """
    return _states(shut_the_box_games(), game, max_depth)


def builtin_game_states(max_depth: int = DEFAULT_MAX_STEPS) -> st.SearchStrategy:
    """Reachable states of any drawn built-in game, as ``Reached``.

    >>> from hypothesis import find
    >>> find(builtin_game_states(), lambda r: r.game.num_players == 1).game
    ShutTheBox(levers=1, simplified=False)
    """
    return game_states(builtin_games(), max_depth)


def _nim():
    from ..games.nim import Nim

    return Nim



# -- random games nobody tuned for ------------------------------------------------------------

PLAYERS = (1, 2, 3)
"""The numbers of players the random games take unless told: one, two and three."""

_SPANS = {
    1: (None, (0, 13), (-1, 1), (0, 100)),
    2: (None, (-2, 2), (-13, 13), (-100, 100)),
}
"""The payoff ranges drawn (None: the protocol's default), one player and more; ranges of rivals are symmetric."""

_SPREADS = (100, 5, 10, 25, 50)
"""How far a palette's payoffs lie from its centre, in percent of the payoff range: anywhere, or close together."""

_OUTCOME_GRADES = (1, 2)
"""Payoffs that are outcomes: the best or the worst (1), or a draw half way between too (2)."""

_GRADES = (4, 5, 8, 10, 13, 20, 50, 100)
"""Graded payoffs: a whole number of steps of ``1 / grades`` of the payoff range."""


_BANDS = (((1, 4), (1, 6), 1), ((3, 10), (5, 60), 1), ((8, 25), (60, 800), 2), ((15, 40), (800, 6_000), 2))
"""The sizes of seeded games by band: the layers, the states a layer, the fewest moves a decision may have."""


def _players(players) -> st.SearchStrategy:
    options = (players,) if isinstance(players, int) else tuple(players)
    if not options or any(isinstance(n, bool) or not isinstance(n, int) or n < 1 for n in options):
        raise ValueError(f"players is a number of players (1 or more) or a tuple of them, got {players!r}")
    return st.sampled_from(options)


def _check_repeats(chance, repeats):
    if repeats and chance is not None and not chance:
        raise ValueError("repeats=True needs chance: states repeat through chance nodes (moves always lead on)")


def _flag(given) -> st.SearchStrategy:
    return st.booleans() if given is None else st.just(bool(given))


@st.composite
def _payoffs(draw, players: int, zero_sum, graded) -> tuple:
    """``(span, palette)``: a payoff range (None: the default) and the payoffs the ends pay, repeats weighing.

    The palette's values are whole steps of ``1 / grades`` of the range near a
    drawn centre (``spread`` steps either side: a small spread puts every
    value near the centre, a value of 0.8-0.9 say, a large one anywhere), and,
    for one player, perhaps the worst payoff too (a bust beside them).
    Two players' payoffs are zero-sum, ``(x, -x)``, as the protocol asks;
    three players' are zero-sum (the third pays what the first two win) or
    not (each player's drawn alone).
    """
    span = draw(st.sampled_from(_SPANS[min(players, 2)]))
    low, high = span if span is not None else ((0, 1) if players == 1 else (-1, 1))
    grades = draw(st.sampled_from(_GRADES if draw(_flag(graded)) else _OUTCOME_GRADES))
    balanced = players == 2 or players > 2 and draw(_flag(zero_sum))
    floats = draw(st.booleans())
    centre = draw(st.integers(0, grades))
    spread = -(-draw(st.sampled_from(_SPREADS)) * grades // 100)  # whole steps, at least one

    def level():
        return Fraction(min(grades, max(0, centre + draw(st.integers(-spread, spread)))), grades)

    def number(x):
        return int(x) if x.denominator == 1 else float(x) if floats else x

    def value(t):
        return low + t * (high - low)

    palette = []
    for _ in range(draw(st.integers(2, 6))):
        if players == 1:
            pay = (value(level()),)
        elif not balanced:
            pay = tuple(value(level()) for _ in range(players))
        elif players == 2:
            x = value(level())
            pay = (x, -x)
        else:  # two within half the range, the third pays for both
            a, b = (value(level()) / 2 for _ in range(2))
            turn = draw(st.integers(0, 2))
            pay = ((a, b, -a - b) * 2)[turn:turn + 3]
        palette.append(tuple(number(x) for x in pay))
    if players == 1 and draw(st.booleans()):
        palette.append((number(Fraction(low)),))
    return span, tuple(palette)


@st.composite
def table_games(draw, players=PLAYERS, *, max_nodes: int = 16, chance=None, repeats=None, zero_sum=None,
                graded=None, tables=None) -> TableGame:
    """A strategy for small random games given as tables (``TableGame``): 2 to ``max_nodes`` nodes.

    ``players``: the numbers of players to draw from (a number or a tuple);
    ``chance``: chance nodes are common (True: about half the nodes but the
    start) or absent (False); ``repeats``: states may repeat (cycles
    through chance nodes, each with an outcome that ends the game; never
    without chance); ``zero_sum``: three players' payoffs sum to 0 (two
    players' always do, as the protocol asks); ``graded``: payoffs anywhere
    in the range (else the best, the worst and a draw between); ``tables``:
    the game offers its states as tables (``compiled_graph()``). Each of
    these keywords is drawn when None. Node 0,
    the start, is a decision; every move leads to a later node, so moves
    alone never come back, and several moves may lead to one node
    (transpositions). A failing game shrinks to few nodes and prints as a
    ``TableGame(...)`` to paste into a test.

    >>> from hypothesis import find
    >>> game = find(table_games(players=1, graded=True), lambda g: len(g.table) > 3 and g.repeats)
    >>> game.num_players, game.may_repeat(), game.to_move(0)
    (1, True, 0)
    >>> find(table_games(players=2, zero_sum=True), lambda g: len(g.table) > 2).table[-1][1]
    (-1, 1)
    """
    n = draw(_players(players))
    span, palette = draw(_payoffs(n, zero_sum, graded))
    _check_repeats(chance, repeats)
    rates = (0, 1, 2) if not repeats else (1, 2)  # quarters of the nodes (but the start) that are chance nodes
    dice = draw(st.sampled_from(rates) if chance is None else st.just(2 if chance else 0))
    cyclic = dice > 0 and draw(_flag(repeats))
    offer = draw(_flag(tables))
    size = draw(st.integers(2, max(2, max_nodes)))
    ends = draw(st.integers(1, max(1, size // (3 if cyclic else 2))))
    inner = size - ends
    table = [None] * size
    for i in range(inner, size):
        table[i] = ("end", draw(st.sampled_from(palette)))
    for i in range(inner - 1, -1, -1):
        later = list(range(i + 1, size))
        if not (dice and i > 0 and draw(st.integers(0, 3)) < dice):
            player = draw(st.integers(0, n - 1))
            k = draw(st.integers(1, min(4, len(later))))
            table[i] = ("move", player, tuple(draw(st.lists(st.sampled_from(later), min_size=k, max_size=k))))
            continue
        if cyclic:  # an outcome that ends the game, and others anywhere: back, to itself, on
            targets = [draw(st.sampled_from(list(range(inner, size))))]
            targets += draw(st.lists(st.integers(0, size - 1), min_size=1, max_size=3))
        else:
            k = draw(st.integers(1, min(4, len(later))))
            targets = draw(st.lists(st.sampled_from(later), min_size=k, max_size=k))
        weights = {}
        for child, w in zip(targets, draw(st.lists(st.integers(1, 3), min_size=len(targets), max_size=len(targets)))):
            weights[child] = weights.get(child, 0) + w
        total = sum(weights.values())
        table[i] = ("chance", tuple((child, Fraction(w, total)) for child, w in weights.items()))
    return TableGame(tuple(table), n, cyclic, span, offer)


@st.composite
def seeded_games(draw, players=PLAYERS, *, max_states: int = 100_000, chance=None, repeats=None,
                 zero_sum=None, graded=None) -> SeededGame:
    """A strategy for random games of any size given by a seed and a shape (``SeededGame``): up to ``max_states``.

    The keywords are ``table_games``'s (``chance=True``: a fifth to four
    fifths of the states are chance nodes). The shape drawn: 1-40 layers of
    ``width`` states each (``depth * width`` at most ``max_states``; the widths
    come in bands, up to 10, 100, 1,000, 10,000 states a layer, so sizes run
    from a handful of states to tens of thousands), 1-6 moves a decision,
    perhaps fewer as the game goes (``shrink``), moves that skip layers
    (transpositions at different depths), chance nodes of 2-6 outcomes, games
    that end early, and the payoffs' palette. Nothing is stored: a game is a
    few numbers, however large.

    >>> from hypothesis import find
    >>> game = find(seeded_games(max_states=50_000), lambda g: g.depth * g.width > 40_000)
    >>> game.depth * game.width <= 50_000, game.repeats
    (True, False)
    """
    n = draw(_players(players))
    span, palette = draw(_payoffs(n, zero_sum, graded))
    _check_repeats(chance, repeats)
    rates = st.integers(1 if repeats else 0, 80) if chance is None else st.integers(20, 80) if chance else st.just(0)
    dice = draw(rates)
    cyclic = dice > 0 and draw(_flag(repeats))
    band = draw(st.integers(0, len(_BANDS) - 1))
    (shallow, deep), (narrow, wide), fewest = _BANDS[band]
    depth = draw(st.integers(shallow, deep))
    wide = max(1, min(wide, max_states // depth))
    width = draw(st.integers(min(narrow, wide), wide))
    return SeededGame(
        seed=draw(st.integers(0, 2**32 - 1)),
        num_players=n,
        depth=depth,
        width=width,
        branching=draw(st.integers(fewest, 6)),
        chance=dice,
        stops=draw(st.integers(0, 40 // (1 + band))),
        outcomes=draw(st.integers(2, 6)),
        payoffs=palette,
        shrink=draw(st.booleans()),
        skip=draw(st.integers(1, 3)),
        repeats=cyclic,
        span=span,
    )


def random_games(players=PLAYERS, *, max_nodes: int = 16, max_states: int = 100_000, chance=None, repeats=None,
                 zero_sum=None, graded=None) -> st.SearchStrategy:
    """A strategy for random games: ``table_games`` (up to ``max_nodes``) or ``seeded_games`` (up to ``max_states``).

    The keywords are theirs; a failing example shrinks towards a small table.

    >>> from hypothesis import find
    >>> type(find(random_games(), lambda g: g.num_players == 3)).__name__
    'TableGame'
    """
    shared = dict(players=players, chance=chance, repeats=repeats, zero_sum=zero_sum, graded=graded)
    return st.one_of(table_games(max_nodes=max_nodes, **shared), seeded_games(max_states=max_states, **shared))


@st.composite
def decision_states(draw, games=None, max_depth: int = DEFAULT_MAX_STEPS) -> Reached:
    """A game drawn from ``games`` (default: ``random_games()``) and a state where a player is to move, as ``Reached``.

    A walk of legal steps from the start (its length drawn first, then one
    index a step, as ``reachable_states`` draws it), and the last decision it
    passed: the root of a search deep in the game, or its start.

    >>> from hypothesis import find
    >>> reached = find(decision_states(seeded_games()), lambda r: r.state[0] > 2)
    >>> replay(reached.game, reached.path) == reached.state, reached.game.to_move(reached.state) is not None
    (True, True)
    """
    from hypothesis import reject

    from ..protocol import CHANCE

    game = draw(random_games() if games is None else games)
    steps = draw(st.integers(min_value=0, max_value=max_depth))
    state, path = game.start(), []
    found = (state, ()) if game.to_move(state) not in (None, CHANCE) else None
    for _ in range(steps):
        here = choices(game, state)
        if not here:
            break
        move = here[draw(st.integers(min_value=0, max_value=len(here) - 1))]
        state = game.play(state, move)
        path.append(move)
        if game.to_move(state) not in (None, CHANCE):
            found = (state, tuple(path))
    if found is None:
        reject()
    return Reached(game, found[0], found[1])
