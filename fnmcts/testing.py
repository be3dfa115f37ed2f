"""Property-based testing of game rules: hypothesis strategies and a game-law checker.

Any game of the protocol (``fnmcts.protocol``) can be checked in one call:
``check_game`` draws playthroughs with hypothesis, checks every law at every
state on the way, and on failure raises an ``AssertionError`` that names the law
and shows the *shrunk* counterexample: the move sequence from the start to a bad
state. Hypothesis shrinks the walk; then a breadth-first search over the shorter
walks makes sure it is the shortest, with the earliest moves.

>>> from fnmcts.games.nim import Nim
>>> check_game(Nim(heap=7, max_take=3), max_examples=20)
('moves_stable_and_legal', 'play_pure', 'hash_consistent', 'terminal_iff_nobody_to_move',
 'chance_probabilities', 'payoff_in_range', 'json_round_trip', 'playthrough_ends',
 'solver_recursion', 'agents_legal')

The laws are plain functions too, ``law(game, state, ...) -> True`` (or an
``AssertionError``), so a test can pick some and run them on the states of the
strategies below:

>>> game = Nim(heap=7, max_take=3)
>>> law_moves_stable_and_legal(game, game.start())
True

Strategies: ``reachable_states(game)`` for any game (it yields a ``Reached``
value: the game, the state and the moves that reached it), and for the
built-in games their parameters (``nim_games()``, ``piles_games()``,
``shut_the_box_games()``) and states (``nim_states()``, ...). A state is drawn
as a walk from the start: first its length, then one move index per step
(chance outcomes alike), so hypothesis shrinks a failure to a short walk of
first moves.

This module needs hypothesis (the ``test`` extra: ``pip install 'fnmcts[test]'``).
"""

from __future__ import annotations

import copy
import inspect
import json
import numbers
import random
from fractions import Fraction
from types import MappingProxyType
from typing import Any, Callable, NamedTuple

try:
    from hypothesis import HealthCheck, given, settings
    from hypothesis import seed as _hypothesis_seed
    from hypothesis import strategies as st
except ImportError as error:  # pragma: no cover - depends on the installation
    raise ImportError(
        "fnmcts.testing needs hypothesis, which comes with the test extra: pip install 'fnmcts[test]'"
    ) from error

from pyrsistent import pmap

from .limits import STATE_LIMIT
from .protocol import CHANCE, may_repeat, payoff_range

__all__ = [
    "DEFAULT_MAX_STEPS",
    "DEFAULT_EXACT_LIMIT",
    "Reached",
    "Counterexample",
    "reachable_states",
    "replay",
    "nim_games",
    "piles_games",
    "shut_the_box_games",
    "builtin_games",
    "nim_states",
    "piles_states",
    "shut_the_box_states",
    "builtin_game_states",
    "game_states",
    "agents_for",
    "law_moves_stable_and_legal",
    "law_play_pure",
    "law_hash_consistent",
    "law_terminal_iff_nobody_to_move",
    "law_chance_probabilities",
    "law_payoff_in_range",
    "law_json_round_trip",
    "law_playthrough_ends",
    "law_solver_recursion",
    "law_agents_legal",
    "LAWS",
    "builtin_agents",
    "SMALL_BUDGETS",
    "count_states",
    "find_counterexample",
    "check_game",
]

DEFAULT_MAX_STEPS = 1000
"""The default playthrough bound: every playthrough ends within this many steps
(moves and chance outcomes alike); walks drawn by the strategies are no longer."""

DEFAULT_EXACT_LIMIT = STATE_LIMIT
"""The default bound on the states ``check_game`` lets the exact solver visit: the solver's own limit."""


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


class Counterexample(NamedTuple):
    """A law that fails: its name, the moves from the start, the bad state, what went wrong.

    >>> from fnmcts.games.nim import Nim
    >>> def law_heap_not_two(game, state):
    ...     assert state["heap"] != 2, "the heap is 2"
    >>> found = find_counterexample(Nim(heap=9, max_take=3), law_heap_not_two)
    >>> isinstance(found, Counterexample), found.state["heap"], found.error
    (True, 2, 'the heap is 2')
    """

    law: str
    path: tuple
    state: Any
    error: str


# -- walks: the strategies -------------------------------------------------------------


def _fresh(state):
    """A deep copy of ``state`` equal to it, so a law cannot change the walk's states; else ``state`` itself.

    A state whose copy is not equal to it (an object without value equality)
    is handed over as it is: ``law_hash_consistent`` reports that.
    """
    try:
        twin = copy.deepcopy(state)
        return twin if twin == state else state
    except Exception:
        return state


def _choices(game, state) -> tuple:
    """The moves or chance outcomes at ``state`` (empty at the end, or if the game fails)."""
    try:
        who = game.to_move(state)
        if who is None:
            return ()
        if who is CHANCE:
            return tuple(outcome for outcome, _ in game.chance_outcomes(state))
        return tuple(game.possible_moves(state))
    except Exception:
        return ()


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
        choices = _choices(game, state)
        if not choices:
            break
        move = choices[draw(st.integers(min_value=0, max_value=len(choices) - 1))]
        try:
            state = game.play(_fresh(state), move)  # a play that changes its input leaves the walk as it was
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
    >>> reached = find(reachable_states(game), lambda r: r.state["heap"] == 3)
    >>> reached.state["heap"], sum(reached.path), replay(game, reached.path) == reached.state
    (3, 7, True)
    """
    moves, states = draw(_walks(game, max_depth))
    return Reached(game, states[-1], moves)


def replay(game, path, state=None):
    """The state that the moves (and chance outcomes) of ``path`` lead to from ``state`` (default: the start).

    >>> from fnmcts.games.nim import Nim
    >>> replay(Nim(heap=10), (3, 3, 1))["heap"]
    3
    """
    state = game.start() if state is None else state
    for move in path:
        state = game.play(state, move)
    return state


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
    from .games.piles import Piles

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
    from .games.shut_the_box import DICE_RULES, SCORINGS, ShutTheBox

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
    >>> reached = find(piles_states(Piles((1, 3, 5, 7))), lambda r: sum(r.state["piles"]) == 10)
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
    from .games.nim import Nim

    return Nim


# -- the laws --------------------------------------------------------------------------


def _require(condition, message: str) -> None:
    if not condition:
        raise AssertionError(message)


def _call(what: str, function, *args):
    """``function(*args)``, turning an exception into an AssertionError that says ``what`` failed."""
    try:
        return function(*args)
    except AssertionError:
        raise
    except Exception as error:
        raise AssertionError(f"{what} raised {type(error).__name__}: {error}") from error


def _num_players(game) -> int:
    n = getattr(game, "num_players", None)
    _require(
        isinstance(n, int) and not isinstance(n, bool) and n >= 1,
        f"the game's num_players must be a whole number of at least 1, got {n!r}",
    )
    return n


def _contains(items, x) -> bool:
    return any(x == item for item in items)


def law_moves_stable_and_legal(game, state) -> bool:
    """The possible moves are a tuple in a stable order, without repeats, and play accepts each.

    Stable: the same tuple on a second call and for an equal copy of the state.

    >>> from fnmcts.games.piles import Piles
    >>> game = Piles((1, 2))
    >>> law_moves_stable_and_legal(game, game.start())
    True
    """
    moves = _call("possible_moves", game.possible_moves, state)
    _require(isinstance(moves, tuple), f"possible_moves returned a {type(moves).__name__}, not a tuple: {moves!r}")
    again = _call("possible_moves", game.possible_moves, state)
    _require(again == moves, f"possible_moves changed between two calls: {moves!r}, then {again!r}")
    twin = copy.deepcopy(state)
    if twin == state:
        other = _call("possible_moves", game.possible_moves, twin)
        _require(other == moves, f"an equal copy of the state has other moves: {moves!r}, then {other!r}")
    for i, move in enumerate(moves):
        _require(not _contains(moves[:i], move), f"possible_moves lists {move!r} twice: {moves!r}")
        _call(f"play with the listed move {move!r}", game.play, _fresh(state), move)  # a copy: play_pure's business
    return True


def law_play_pure(game, state) -> bool:
    """Playing a move (or chance outcome) never changes its input, and playing it again gives an equal state.

    >>> from fnmcts.games.nim import Nim
    >>> law_play_pure(Nim(heap=5), Nim(heap=5).start())
    True
    """
    before = copy.deepcopy(state)
    if before != state:  # no value equality: a change cannot be seen by comparing (law_hash_consistent says why)
        return True
    for move in _choices(game, state):
        first = _call(f"play with {move!r}", game.play, state, move)
        _require(state == before, f"play with {move!r} changed its input state from {before!r} to {state!r}")
        second = _call(f"play with {move!r}", game.play, state, move)
        _require(first == second, f"play with {move!r} gave {first!r}, then {second!r}")
    return True


def law_hash_consistent(game, state) -> bool:
    """States are hashable, and equal states hash equal: a copy, the state rebuilt from JSON, replayed children.

    >>> from fnmcts.games.shut_the_box import ShutTheBox
    >>> law_hash_consistent(ShutTheBox(), ShutTheBox().start())
    True
    """
    h = _call("hash(state)", hash, state)
    _require(hash(state) == h, f"hash of {state!r} changed between two calls")
    twin = copy.deepcopy(state)
    _require(twin == state, f"a copy of {state!r} is not equal to it")
    _require(hash(twin) == h, f"{state!r} and an equal copy hash differently: {h} and {hash(twin)}")
    try:
        rebuilt = game.state_from_json(json.loads(json.dumps(game.state_to_json(state))))
    except Exception:
        rebuilt = None  # the JSON law reports it
    if rebuilt is not None and rebuilt == state:
        other = _call("hash of the state rebuilt from JSON", hash, rebuilt)
        _require(other == h, f"{state!r} and the equal state rebuilt from JSON hash differently: {h} and {other}")
    for move in _choices(game, state):
        first, second = game.play(state, move), game.play(state, move)
        if first == second:
            a, b = _call("hash of a child state", hash, first), hash(second)
            _require(a == b, f"the equal states that {move!r} leads to hash differently: {a} and {b}")
    return True


def law_terminal_iff_nobody_to_move(game, state) -> bool:
    """Nobody is to move exactly at the end: then no moves, no chance outcomes, and a payoff.

    ``to_move`` is a player index in ``range(num_players)`` with at least one
    move, ``CHANCE`` with at least one outcome, or ``None`` with neither, and
    there the payoff (one number per player) is defined: the payoff is only
    asked for at the end.

    >>> from fnmcts.games.nim import Nim
    >>> game = Nim(heap=0)
    >>> game.to_move(game.start()), law_terminal_iff_nobody_to_move(game, game.start())
    (None, True)
    """
    n = _num_players(game)
    who = _call("to_move", game.to_move, state)
    moves = _call("possible_moves", game.possible_moves, state)
    outcomes = _call("chance_outcomes", game.chance_outcomes, state)
    if who is None:
        _require(not moves, f"the game is over (to_move is None) but there are moves {moves!r}")
        _require(not outcomes, f"the game is over (to_move is None) but there are chance outcomes {outcomes!r}")
        pay = _call("payoff at the end", game.payoff, state)
        _require(len(pay) == n, f"the payoff {pay!r} does not have one number for each of the {n} players")
    elif who is CHANCE:
        _require(outcomes, "a chance node (to_move is CHANCE) without chance outcomes")
        _require(not moves, f"a chance node (to_move is CHANCE) with player moves {moves!r}")
    else:
        _require(
            isinstance(who, int) and not isinstance(who, bool) and 0 <= who < n,
            f"to_move must be a player in 0..{n - 1}, CHANCE or None, got {who!r}",
        )
        _require(moves, f"player {who} is to move but has no possible moves (the end is to_move None)")
        _require(not outcomes, f"player {who} is to move but there are chance outcomes {outcomes!r}")
    return True


def law_chance_probabilities(game, state) -> bool:
    """At a chance node the outcomes are distinct, their probabilities exact, positive, summing to exactly 1.

    Exact means a ``Fraction`` (or an int): floats cannot sum to exactly 1 in
    general, and the exact solver needs exact values.

    >>> from fnmcts.games.shut_the_box import ShutTheBox
    >>> law_chance_probabilities(ShutTheBox(), ShutTheBox().start())
    True
    """
    if _call("to_move", game.to_move, state) is not CHANCE:
        return True
    outcomes = _call("chance_outcomes", game.chance_outcomes, state)
    _require(isinstance(outcomes, tuple), f"chance_outcomes returned a {type(outcomes).__name__}, not a tuple")
    seen = []
    for pair in outcomes:
        _require(
            isinstance(pair, tuple) and len(pair) == 2, f"a chance outcome is (outcome, probability), got {pair!r}"
        )
        outcome, p = pair
        _require(not _contains(seen, outcome), f"the chance outcome {outcome!r} is listed twice")
        seen.append(outcome)
        _require(
            isinstance(p, numbers.Rational),
            f"the probability of {outcome!r} must be exact (a Fraction), got {type(p).__name__} {p!r}",
        )
        _require(p > 0, f"the probability of {outcome!r} must be positive, got {p}")
    total = sum(Fraction(p) for _, p in outcomes)
    _require(total == 1, f"the chance probabilities sum to {total}, not 1: {outcomes!r}")
    return True


def law_payoff_in_range(game, state) -> bool:
    """At the end every payoff lies within the game's ``payoff_range``, and two players' payoffs sum to zero.

    The range is what every algorithm rescales payoffs by (a draw is its middle):
    a one-player game paying -1 for a loss declares ``payoff_range() == (-1, 1)``.

    >>> from fnmcts.games.nim import Nim
    >>> game = Nim(heap=1)
    >>> end = game.play(game.start(), 1)
    >>> game.payoff(end), law_payoff_in_range(game, end)
    ((-1, 1), True)
    """
    if _call("to_move", game.to_move, state) is not None:
        return True
    n = _num_players(game)
    pay = _call("payoff at the end", game.payoff, state)
    _require(isinstance(pay, tuple) and len(pay) == n, f"the payoff must be a tuple of {n} numbers, got {pay!r}")
    low, high = _call("payoff_range", payoff_range, game)
    for x in pay:
        _require(
            isinstance(x, numbers.Real) and not isinstance(x, bool) and low <= x <= high,
            f"the payoff {pay!r} has {x!r}, outside the game's payoff_range [{low}, {high}]"
            + (" (a one-player game paying below 0 declares its payoff_range)" if n == 1 and x < low else ""),
        )
    if n == 2:
        total = sum(pay)
        exact = all(isinstance(x, numbers.Rational) for x in pay)
        _require(
            total == 0 if exact else abs(total) <= 1e-12, f"the two players' payoffs {pay!r} sum to {total}, not 0"
        )
    return True


def law_json_round_trip(game, state) -> bool:
    """A state survives a round trip through its JSON text, and the rebuilt state has the same moves.

    ``state_from_json(json.loads(json.dumps(state_to_json(state)))) == state``.

    >>> from fnmcts.games.piles import Piles
    >>> law_json_round_trip(Piles(), Piles().start())
    True
    """
    data = _call("state_to_json", game.state_to_json, state)
    text = _call("json.dumps of state_to_json", json.dumps, data)
    back = _call("state_from_json", game.state_from_json, json.loads(text))
    _require(back == state, f"the JSON text {text} gives back {back!r}, not {state!r}")
    moves, others = game.possible_moves(state), _call("possible_moves", game.possible_moves, back)
    _require(others == moves, f"the state rebuilt from JSON has moves {others!r}, not {moves!r}")
    return True


def _short(moves, limit: int = 12) -> str:
    moves = tuple(moves)
    if len(moves) <= limit:
        return repr(moves)
    return repr(moves[:limit])[:-1] + f", ... ({len(moves)} in all)"


def law_playthrough_ends(game, state, rng: random.Random = None, max_steps: int = DEFAULT_MAX_STEPS) -> bool:
    """A random playthrough from ``state`` reaches the end within ``max_steps`` steps, never revisiting a state.

    Moves and chance outcomes are chosen uniformly with ``rng`` (consumed);
    without one, a generator seeded with 0. A state seen twice is a cycle: some
    playthrough never ends. A game that says its states may repeat (its
    ``may_repeat()`` hook) must end with probability 1 instead: the playthrough
    may come back to a state, but must still end within ``max_steps``.

    >>> from fnmcts.games.nim import Nim
    >>> law_playthrough_ends(Nim(heap=21, max_take=3), Nim().start(), random.Random(1), max_steps=21)
    True
    """
    rng = random.Random(0) if rng is None else rng
    repeats = may_repeat(game)
    seen, moves = set(), []
    for _ in range(max_steps + 1):
        try:
            if state in seen:
                raise AssertionError(f"the playthrough {_short(moves)} comes back to the state {state!r}: a cycle "
                                     "(a game whose states may repeat says so with may_repeat() returning True)")
            if not repeats:
                seen.add(state)
        except TypeError:
            pass  # unhashable states: the hash law reports them
        choices = _choices(game, state)
        if not choices:
            return True
        move = choices[int(rng.random() * len(choices))]
        state = _call(f"play with {move!r}", game.play, state, move)
        moves.append(move)
    ended = " (its states may repeat, but it must end with probability 1)" if repeats else ""
    raise AssertionError(f"the playthrough {_short(moves)} has not ended after {max_steps} steps{ended}")


def count_states(game, state=None, limit: int | None = None) -> int:
    """How many states are reachable from ``state`` (default: the start), itself included.

    With ``limit``, counting stops as soon as more than ``limit`` states are found
    (the result is then ``limit + 1``).

    >>> from fnmcts.games.nim import Nim
    >>> count_states(Nim(heap=21, max_take=3)), count_states(Nim(heap=21), limit=5)
    (42, 6)
    """
    state = game.start() if state is None else state
    seen, stack = {state}, [state]
    while stack:
        current = stack.pop()
        for move in _choices(game, current):
            child = game.play(current, move)
            if child not in seen:
                seen.add(child)
                if limit is not None and len(seen) > limit:
                    return limit + 1
                stack.append(child)
    return len(seen)


def _near(found, expected, slack) -> bool:
    """Equal, exactly for exact values; within ``slack`` where a value is a float."""
    if all(type(x) is not float for x in (*found, *expected)):
        return tuple(found) == tuple(expected)
    return len(found) == len(expected) and all(abs(float(a) - float(b)) <= slack for a, b in zip(found, expected))


def law_solver_recursion(game, state, solution=None, limit: int | None = None) -> bool:
    """The exact solver's value of ``state`` satisfies its own recursion.

    ``fnmcts.exact.solve``: at the end the value is the payoff; at a chance node
    the probability-weighted sum of the children's values; at a decision the
    value of a child that is best for the player to move. ``solution`` is a
    ``solve`` result holding ``state`` (default: ``solve(game, state)``); with
    ``limit``, a state with more than ``limit`` states below it is not solved
    (the law holds vacuously).

    >>> from fnmcts.games.shut_the_box import ShutTheBox
    >>> law_solver_recursion(ShutTheBox(levers=4), ShutTheBox(levers=4).start())
    True
    """
    from .exact import solve

    if solution is None or state not in solution:
        if limit is not None and count_states(game, state, limit) > limit:
            return True
        solution = _call("the exact solver", solve, game, state)
    v = solution[state]
    who = game.to_move(state)
    kids = []
    for move in _choices(game, state):
        child = game.play(state, move)
        _require(child in solution, f"the state that {move!r} leads to, {child!r}, is missing from the solution")
        kids.append((move, solution[child]))
    # values in a cycle of a game that may repeat are floats, iterated to the solver's tolerance
    slack = 1e-9 * float(payoff_range(game)[1] - payoff_range(game)[0])
    if who is None:
        pay = tuple(Fraction(x) for x in game.payoff(state))
        _require(v == pay, f"the solver values the end at {v!r}, but the payoff is {pay!r}")
    elif who is CHANCE:
        probability = dict(game.chance_outcomes(state))
        expected = tuple(
            sum(Fraction(probability[m]) * value[i] for m, value in kids) for i in range(len(v))
        )
        _require(_near(v, expected, slack),
                 f"the solver values the chance node at {v!r}, but its expectation is {expected!r}")
    else:
        best = max(value[who] for _, value in kids)
        _require(
            _near((v[who],), (best,), slack) and any(_near(v, value, slack) for _, value in kids),
            f"the solver values the decision at {v!r}, but the best move for player {who} "
            f"is worth {best} (moves: {kids!r})",
        )
    return True


SMALL_BUDGETS = pmap({"trials": 4, "iterations": 16, "simulations": 16, "playouts": 4, "budget": 16})
"""Options that keep expensive agents quick when ``builtin_agents`` builds them."""


def builtin_agents(budgets=SMALL_BUDGETS, game=None):
    """Every agent of ``fnmcts.agents.AGENTS`` that builds with small budgets, by name.

    Each factory gets the options of ``budgets`` that it accepts, and ``game``
    when given and accepted (the exact and perfect agents then solve the game
    once, not at every move); one that needs more (a trained Q-learning agent
    needs its table) is left out. Without a registry, the random agent alone.

    >>> "random" in builtin_agents()
    True
    """
    from . import agents as agents_module

    registry = getattr(agents_module, "AGENTS", None)
    if registry is None:
        return pmap({"random": agents_module.random_agent})
    built = {}
    for name, factory in registry.items():
        try:
            accepted = inspect.signature(factory).parameters
            options = {k: v for k, v in budgets.items() if k in accepted}
            if game is not None and "game" in accepted:
                options["game"] = game
            built[name] = factory(**options)
        except (TypeError, ValueError):
            continue
    return pmap(built)


def _declines(agent, game, state, rng) -> bool:
    """True when ``agent`` raises at ``state``: it does not play this game."""
    try:
        agent(game, state, rng)
    except Exception:
        return True
    return False


def agents_for(game, agents=None):
    """The agents of ``agents`` (default: ``builtin_agents()``) that play ``game``, by name.

    An agent plays the game unless it raises at the game's first decision.

    >>> from fnmcts.games.shut_the_box import ShutTheBox
    >>> from fnmcts.agents import random_agent
    >>> def nim_only(game, state, rng):
    ...     return state["heap"]
    >>> sorted(agents_for(ShutTheBox(levers=3), {"random": random_agent, "nim-only": nim_only}))
    ['random']
    """
    agents = builtin_agents() if agents is None else pmap(agents)
    first = _first_decision(game)
    if first is None:
        return agents
    return pmap({name: a for name, a in agents.items() if not _declines(a, game, first, random.Random(0))})


def law_agents_legal(game, state, rng: random.Random = None, agents=None) -> bool:
    """Every agent returns one of the possible moves wherever a player is to move.

    ``agents`` maps names to agents ``(game, state, rng) -> move`` (default:
    ``builtin_agents()``); ``rng`` is consumed (default: seeded with 0).

    >>> from fnmcts.games.nim import Nim
    >>> from fnmcts.agents import random_agent
    >>> law_agents_legal(Nim(), Nim().start(), random.Random(1), {"random": random_agent})
    True
    """
    rng = random.Random(0) if rng is None else rng
    who = game.to_move(state)
    if who is None or who is CHANCE:
        return True
    moves = game.possible_moves(state)
    for name, agent in (builtin_agents() if agents is None else agents).items():
        move = _call(f"the agent {name!r}", agent, game, state, rng)
        _require(_contains(moves, move), f"the agent {name!r} chose {move!r}, not one of the possible moves {moves!r}")
    return True


LAWS = MappingProxyType(
    {
        "moves_stable_and_legal": law_moves_stable_and_legal,
        "play_pure": law_play_pure,
        "hash_consistent": law_hash_consistent,
        "terminal_iff_nobody_to_move": law_terminal_iff_nobody_to_move,
        "chance_probabilities": law_chance_probabilities,
        "payoff_in_range": law_payoff_in_range,
        "json_round_trip": law_json_round_trip,
        "playthrough_ends": law_playthrough_ends,
        "solver_recursion": law_solver_recursion,
        "agents_legal": law_agents_legal,
    }
)
"""Every law by name, in the order ``check_game`` runs them (a read-only mapping).

>>> list(LAWS)[:3]
['moves_stable_and_legal', 'play_pure', 'hash_consistent']
"""



# -- running laws under hypothesis -------------------------------------------------------


def _law_function(law) -> tuple[str, Callable]:
    if callable(law):
        return getattr(law, "__name__", "law").removeprefix("law_"), law
    try:
        return law, LAWS[law]
    except (KeyError, TypeError):
        raise ValueError(f"unknown law {law!r}; choose one of {', '.join(LAWS)}") from None


def _check_bound(name, value, low):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be a whole number, got {value!r}")
    if value < low:
        raise ValueError(f"{name} must be at least {low}, got {value}")
    return value


def find_counterexample(
    game,
    law,
    *,
    max_examples: int = 100,
    max_steps: int = DEFAULT_MAX_STEPS,
    seed: int = 0,
    end_only: bool = False,
    shrink_budget: int = 2000,
    **options,
) -> Counterexample | None:
    """The shrunk counterexample to ``law`` (a name in ``LAWS`` or a function), or None.

    Hypothesis draws ``max_examples`` walks from the start (at most ``max_steps``
    steps) and checks the law at every state of each walk (with ``end_only``, at
    the last one); a failure is shrunk to the shortest walk with the smallest move
    indices; then a breadth-first search over the shorter walks (at most
    ``shrink_budget`` states) finds the shortest one that fails, if any.
    ``options`` go to the law where it takes them (``rng`` is drawn with
    ``st.randoms``; ``max_steps`` is the playthrough bound). ``seed`` makes the
    search reproducible.

    >>> from fnmcts.games.nim import Nim
    >>> def law_heap_not_two(game, state):
    ...     assert state["heap"] != 2, "the heap is 2"
    >>> found = find_counterexample(Nim(heap=9, max_take=3), law_heap_not_two)
    >>> found.law, found.path, found.error
    ('heap_not_two', (1, 3, 3), 'the heap is 2')
    """
    name, function = _law_function(law)
    _check_bound("max_examples", max_examples, 1)
    _check_bound("max_steps", max_steps, 0)
    accepted = inspect.signature(function).parameters
    options = {k: v for k, v in {**options, "max_steps": max_steps}.items() if k in accepted}
    wants_rng = "rng" in accepted and "rng" not in options
    failures = []

    @settings(
        max_examples=max_examples,
        deadline=None,
        database=None,
        derandomize=False,
        report_multiple_bugs=False,
        suppress_health_check=list(HealthCheck),
    )
    @_hypothesis_seed(seed)
    @given(walk=_walks(game, max_steps), rng=st.randoms(use_true_random=True) if wants_rng else st.none())
    def run(walk, rng):
        moves, states = walk
        chosen = list(enumerate(states))[-1:] if end_only else enumerate(states)
        extra = {"rng": rng} if wants_rng else {}
        for depth, state in chosen:
            try:
                function(game, _fresh(state), **options, **extra)
            except Exception as error:
                message = str(error) if isinstance(error, AssertionError) else f"{type(error).__name__}: {error}"
                failures.append(Counterexample(name, moves[:depth], state, message))
                raise _LawFailed(message) from None

    try:
        run()
    except Exception:
        if not failures:
            raise
        return _shortest(game, function, options, failures[-1], seed, shrink_budget)
    return None


def _shortest(game, function, options, found: Counterexample, seed: int, budget: int) -> Counterexample:
    """A shortest walk to a failing state, breadth-first over walks shorter than ``found``'s.

    Hypothesis's shrinking gives a short walk, not always the shortest; this
    search visits the states by depth, moves in order, and returns the first that
    fails (the shortest walk with the smallest move indices), or ``found`` after
    ``budget`` states.
    """
    accepted = inspect.signature(function).parameters
    level, seen, checked = [((), game.start())], set(), 0
    try:
        for _ in range(len(found.path)):
            following = []
            for path, state in level:
                if state in seen:
                    continue
                seen.add(state)
                checked += 1
                if checked > budget:
                    return found
                extra = {"rng": random.Random(seed)} if "rng" in accepted and "rng" not in options else {}
                try:
                    function(game, _fresh(state), **options, **extra)
                except Exception as error:
                    message = str(error) if isinstance(error, AssertionError) else f"{type(error).__name__}: {error}"
                    return Counterexample(found.law, path, state, message)
                for move in _choices(game, state):
                    following.append((path + (move,), game.play(_fresh(state), move)))
            level = following
    except Exception:  # unhashable states, or a game that fails while searching: keep hypothesis's walk
        return found
    return found


class _LawFailed(AssertionError):
    """Raised inside the hypothesis run: one type and one place, so hypothesis shrinks one failure."""


def _describe(game, counterexample: Counterexample) -> str:
    where = f"moves from the start: {counterexample.path!r}" if counterexample.path else "at the start"
    return (
        f"game law {counterexample.law!r} fails for {game!r}\n"
        f"  {where}\n"
        f"  state: {counterexample.state!r}\n"
        f"  problem: {counterexample.error}"
    )


def check_game(
    game,
    *,
    laws=None,
    skip=(),
    max_examples: int = 100,
    max_steps: int = DEFAULT_MAX_STEPS,
    exact: bool = True,
    exact_limit: int = DEFAULT_EXACT_LIMIT,
    agents=None,
    seed: int = 0,
) -> tuple:
    """Check every law on ``game``; return the names of the laws checked, or raise AssertionError.

    The error names the first failing law and shows the shrunk counterexample:
    the moves from the start, the state they reach and the problem.

    - ``laws``: the laws to run (names in ``LAWS`` or law functions; default all),
      ``skip``: names to leave out;
    - ``max_examples``: walks drawn per law; ``max_steps``: the playthrough bound,
      also the longest walk;
    - ``exact``: run the exact-solver law. The whole game is solved once when at
      most ``exact_limit`` states are reachable; a bigger game is checked on the
      subgames below the walks' last states that have at most ``exact_limit``
      states (``exact=False`` skips the law, and the ``exact`` agent with it);
    - ``agents``: the agents of the agent law, by name (default:
      ``builtin_agents()``);
    - ``seed``: the hypothesis seed, so a run is reproducible.

    >>> from fnmcts.games.shut_the_box import ShutTheBox
    >>> check_game(ShutTheBox(levers=5), laws=["chance_probabilities", "solver_recursion"])
    ('chance_probabilities', 'solver_recursion')
    """
    from .exact import solve

    if isinstance(laws, str) or callable(laws):  # one law, named or given
        laws = [laws]
    if isinstance(skip, str):
        skip = [skip]
    if getattr(game, "to_move", None) is None:
        raise TypeError(f"check_game needs a game of the fnmcts protocol, got {game!r}")
    chosen = [_law_function(law) for law in (LAWS if laws is None else laws)]
    skip = set(skip)
    unknown = skip - set(LAWS) - {name for name, _ in chosen}
    if unknown:
        raise ValueError(f"unknown law(s) to skip: {', '.join(sorted(map(str, unknown)))}")
    chosen = [(name, function) for name, function in chosen if name not in skip]
    if not exact:
        chosen = [(name, function) for name, function in chosen if function is not law_solver_recursion]
    _check_bound("exact_limit", exact_limit, 1)
    sizes = []

    def is_small() -> bool:  # counted once, when a law needs it; a game that fails counting is not small
        if not sizes:
            try:
                sizes.append(exact and count_states(game, limit=exact_limit) <= exact_limit)
            except Exception:
                sizes.append(False)
        return sizes[0]

    done = []
    for name, function in chosen:
        options, end_only = {}, False
        if function is law_solver_recursion:
            if is_small():
                try:
                    options["solution"] = solve(game)
                except Exception as error:
                    raise AssertionError(
                        _describe(game, Counterexample(name, (), game.start(), f"the exact solver raised "
                                                       f"{type(error).__name__}: {error}"))
                    ) from None
            else:
                options["limit"], end_only = exact_limit, True
        if function is law_agents_legal:
            if agents is None:  # the built-in agents that play this game; the solving ones (exact, perfect,
                # montecarlo-perfect) only if it is small
                if is_small():
                    chosen_agents = builtin_agents(game=game)  # solved once for every walk
                else:
                    chosen_agents = builtin_agents().discard("exact").discard("perfect").discard("montecarlo-perfect")
                chosen_agents = agents_for(game, chosen_agents)
            else:
                chosen_agents = pmap(agents)
            options["agents"] = chosen_agents
        found = find_counterexample(
            game,
            function,
            max_examples=max_examples,
            max_steps=max_steps,
            seed=seed,
            end_only=end_only,
            **options,
        )
        if found is not None:
            raise AssertionError(_describe(game, found._replace(law=name)))
        done.append(name)
    return tuple(done)


def _first_decision(game):
    """The first state along first moves where a player is to move, or None."""
    try:
        state = game.start()
        for _ in range(DEFAULT_MAX_STEPS):
            who = game.to_move(state)
            if who is None:
                return None
            if who is not CHANCE:
                return state
            choices = _choices(game, state)
            if not choices:
                return None
            state = game.play(state, choices[0])
    except Exception:  # a broken game: the laws report it
        return None
    return None
