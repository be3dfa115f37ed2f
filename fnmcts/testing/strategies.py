"""Hypothesis strategies for the states of any game, and for the built-in games and their states.

``reachable_states(game)`` draws a ``Reached(game, state, path)`` by legal play
from the start of any game of the protocol: first the walk's length, then one
move index per step (chance outcomes alike), so a failing example shrinks to a
short path of early moves. ``nim_games()``, ``piles_games()``,
``shut_the_box_games()`` and ``builtin_games()`` draw the built-in games with
their parameters, ``nim_states()`` and the others their states. Exported the
way ``hypothesis.extra`` modules export theirs: plain strategies to use in
``@given``.

>>> from hypothesis import find
>>> from fnmcts.games.nim import Nim
>>> reached = find(reachable_states(Nim(heap=6)), lambda r: r.state["heap"] == 0)
>>> sum(reached.path), replay(reached.game, reached.path) == reached.state
(6, True)
"""

from __future__ import annotations

from typing import Any, NamedTuple

from hypothesis import strategies as st

from ._walk import DEFAULT_MAX_STEPS, choices, fresh, replay

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

@st.composite
def _walks(draw, game, max_depth: int = DEFAULT_MAX_STEPS) -> tuple:
    """``(moves, states)`` of a walk from the start; ``states`` has one more entry.

    The walk's length is drawn first, then one index per step, so shrinking
    shortens the walk and moves it towards the first moves. A walk stops early at
    the end of the game, or where the game itself fails (the laws report that).
    Each step plays on a copy of the state, and every law gets a copy of its
    own (``_fresh``): a law that changes a state cannot change what the next
    law sees, so each broken game is reported under its own law.
    """
    steps = draw(st.integers(min_value=0, max_value=max_depth))
    state = game.start()
    moves, states = [], [state]
    for _ in range(steps):
        here = choices(game, state)
        if not here:
            break
        move = here[draw(st.integers(min_value=0, max_value=len(here) - 1))]
        try:
            state = game.play(fresh(state), move)  # a play that changes its input leaves the walk as it was
        except Exception:
            break
        moves.append(move)
        states.append(state)
    return tuple(moves), tuple(states)


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

