"""The game laws: what must hold at every state of any game of the protocol.

Each law is a plain function ``law(game, state, ...) -> True`` that raises an
``AssertionError`` naming the problem; ``LAWS`` holds them by name, in the order
``check_game`` runs them. Every call into the game's code goes through
``game_call``: an exception the game raises, whatever its type, is reported as
the game's, with the call and the move.

>>> from fnmcts.games.nim import Nim
>>> game = Nim(heap=7, max_take=3)
>>> law_moves_stable_and_legal(game, game.start())
True
"""

from __future__ import annotations

import copy
import inspect
import json
import numbers
import random
from collections import deque
from fractions import Fraction
from types import MappingProxyType

from pyrsistent import pmap

from ..protocol import (CHANCE, describe_move, game_text, may_repeat, payoff_range, render, state_from_json, state_to_json,
                        symmetries, transcript_line)
from ..limits import MemoryWatch, TooLarge, memory_budget
from ..rng import pick
from ._walk import DEFAULT_MAX_STEPS, GameRaised, choices, fresh, game_call, short

__all__ = [
    "law_moves_stable_and_legal",
    "law_play_pure",
    "law_hash_consistent",
    "law_terminal_iff_nobody_to_move",
    "law_chance_probabilities",
    "law_payoff_in_range",
    "law_json_round_trip",
    "law_text_hooks",
    "law_playthrough_ends",
    "law_symmetry",
    "law_solver_recursion",
    "law_agents_legal",
    "LAWS",
    "count_states",
    "builtin_agents",
    "agents_for",
    "SMALL_BUDGETS",
]


# -- the laws --------------------------------------------------------------------------


def _require(condition, message: str) -> None:
    if not condition:
        raise AssertionError(message)


_call = game_call


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
    who = _call("to_move", game.to_move, state) if moves else None
    where = "" if who is not None and who is not CHANCE else (  # a move listed where no player moves: say the rule
        f" at a state where {'chance' if who is CHANCE else 'nobody'} is to move (possible_moves is empty unless a "
        "player is to move)")
    for i, move in enumerate(moves):
        _require(not _contains(moves[:i], move), f"possible_moves lists {move!r} twice: {moves!r}")
        _call(f"play with the listed move {move!r}{where}", game.play, fresh(state), move)  # a copy: play_pure's business
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
    for move in choices(game, state):
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
    for move in choices(game, state):
        first = _call(f"play with {move!r}", game.play, state, move)
        second = _call(f"play with {move!r}", game.play, state, move)
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
    A game that declares ``can_draw = False`` (the protocol's attribute: no
    game can end in a draw) never pays every player the middle of the range.

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
    if getattr(game, "can_draw", True) is False:
        middle = (low + high) / 2
        _require(not all(x == middle for x in pay),
                 f"the game says no game can end in a draw (can_draw is False), but the end pays {pay!r}: every player "
                 f"the middle of the payoff_range [{low}, {high}], a draw")
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
    data = _call("state_to_json", state_to_json, game, state)  # a game without the hooks: the defaults
    text = _call("json.dumps of state_to_json", json.dumps, data)
    back = _call("state_from_json", state_from_json, game, json.loads(text))
    _require(back == state, f"the JSON text {text} gives back {back!r}, not {state!r}")
    moves = _call("possible_moves", game.possible_moves, state)
    others = _call("possible_moves of the state rebuilt from JSON", game.possible_moves, back)
    _require(others == moves, f"the state rebuilt from JSON has moves {others!r}, not {moves!r}")
    return True


def law_text_hooks(game, state) -> bool:
    """Every hook that speaks to a person answers text at ``state``, as the command line and transcripts call it.

    ``render``; the ``describe_move`` of each move and its ``transcript_line``,
    each given the state the move is played at (``fnmcts.protocol``'s); and,
    where the game has them, ``position_text``, ``player_name`` and, at the end
    of a game of one player, ``end_text``. Each returns text that is not blank.

    >>> from fnmcts.games import Pig
    >>> law_text_hooks(Pig(), Pig().start())
    True
    """
    _text("render", _call("render", render, game, state), state)
    own = {name: getattr(game, name, None) for name in ("position_text", "player_name", "end_text")}
    if own["position_text"] is not None:
        _text("position_text", _call("position_text", own["position_text"], state), state)
    who = _call("to_move", game.to_move, state)
    if who is None:
        if own["end_text"] is not None and getattr(game, "num_players", 1) == 1:
            _text("end_text", _call("end_text", own["end_text"], state), state)
        return True
    if who is not CHANCE and own["player_name"] is not None:
        _text("player_name", _call("player_name", own["player_name"], who), state)
    for step in choices(game, state):
        after = _call(f"play with {step!r}", game.play, state, step)
        _text("describe_move", _call(f"describe_move of {step!r}", describe_move, game, state, step), state, step)
        _text("transcript_line", _call(f"transcript_line of {step!r}", transcript_line, game, who, step, after, state),
              state, step)
    return True


def _text(hook: str, said, state, move=None) -> None:
    """Fail the text law unless ``said``, what ``hook`` answered, is text that is not blank."""
    at = f" for {move!r}" if move is not None else ""
    blank = isinstance(said, str) and said.strip() == ""
    _require(isinstance(said, str) and not blank,
             f"{hook} at {state!r}{at} returned {said!r}, {'blank text: say something a person can read' if blank else 'not text'}")


def short(moves, limit: int = 12) -> str:
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
                raise AssertionError(f"the playthrough {short(moves)} comes back to the state {state!r}: a cycle "
                                     "(a game whose states may repeat says so with may_repeat() returning True)")
            if not repeats:
                seen.add(state)
        except TypeError:
            pass  # unhashable states: the hash law reports them
        steps = choices(game, state)
        if not steps:
            return True
        move = pick(rng, steps)
        state = _call(f"play with {move!r}", game.play, state, move)
        moves.append(move)
    ended = " (its states may repeat, but it must end with probability 1)" if repeats else ""
    raise AssertionError(f"the playthrough {short(moves)} has not ended after {max_steps} steps{ended}")


def count_states(game, state=None, limit: int | None = None, memory: int | None = None) -> int:
    """How many states are reachable from ``state`` (default: the start), itself included.

    With ``limit``, counting stops as soon as more than ``limit`` states are found
    (the result is then ``limit + 1``). The states counted are held: once they
    take more than ``memory`` bytes (default ``fnmcts.limits.memory_budget()``,
    asked every 4,096 states) the count stops too, at ``limit + 1`` (a game too
    large to hold is too large for the limit), or with ``TooLarge`` when there
    is no limit: never a ``MemoryError``.

    >>> from fnmcts.games.nim import Nim
    >>> count_states(Nim(heap=21, max_take=3)), count_states(Nim(heap=21), limit=5)
    (42, 6)
    """
    state = game.start() if state is None else state
    budget = memory_budget() if memory is None else memory
    watch = MemoryWatch(budget)
    seen, queue = {state}, deque([state])  # breadth first: a game whose states grow for ever is cut off near its
    while queue:                            # start, where they are still small, not after a dive to huge states
        current = queue.popleft()
        for move in choices(game, current):
            child = game.play(current, move)
            if child not in seen:
                seen.add(child)
                if limit is not None and len(seen) > limit:
                    return limit + 1
                if not len(seen) & 4095 and watch.exceeded():
                    if limit is not None:
                        return limit + 1
                    raise TooLarge(f"counting the states of {game_text(game)} took more than its memory budget of "
                                   f"{budget:,} bytes at {len(seen):,} states; memory= (bytes) sets another budget")
                queue.append(child)
    return len(seen)


def _solved(game, state):
    """``solve(game, state)``, or None when it is refused for the library's own limits (``TooLarge``: states or
    memory), which are no fault of the game; any other exception is the game's, reported as the solver's."""
    from ..exact import solve

    try:
        return solve(game, state)
    except TooLarge:
        return None
    except Exception as error:
        raise GameRaised(f"the exact solver raised {type(error).__name__}: {error}") from error


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
    from ..exact import solve

    if solution is None or state not in solution:
        if limit is not None and count_states(game, state, limit) > limit:
            return True
        solution = _solved(game, state)
        if solution is None:  # beyond the solver's limits of states or memory: the law cannot be checked here
            return True
    v = solution[state]
    who = _call("to_move", game.to_move, state)
    kids = []
    for move in choices(game, state):
        child = _call(f"play with {move!r}", game.play, state, move)
        _require(child in solution, f"the state that {move!r} leads to, {child!r}, is missing from the solution")
        kids.append((move, solution[child]))
    # values in a cycle of a game that may repeat are floats, iterated to the solver's tolerance
    slack = 1e-9 * float(payoff_range(game)[1] - payoff_range(game)[0])
    if who is None:
        pay = tuple(Fraction(x) for x in _call("payoff at the end", game.payoff, state))
        _require(v == pay, f"the solver values the end at {v!r}, but the payoff is {pay!r}")
    elif who is CHANCE:
        probability = dict(_call("chance_outcomes", game.chance_outcomes, state))
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


def builtin_agents(budgets=SMALL_BUDGETS, game=None, solution=None):
    """Every agent of ``fnmcts.agents.AGENTS`` that builds with small budgets, by name.

    Each factory gets the options of ``budgets`` that it accepts, and ``game``
    when given and accepted (the exact and perfect agents then solve the game
    once, not at every move; or take ``solution``, when given: the game's
    ``solve`` result from its start); one that needs more (a trained
    Q-learning agent needs its table) is left out. Without a registry, the
    random agent alone.

    >>> "random" in builtin_agents()
    True
    """
    from .. import agents as agents_module

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
                if solution is not None and "solution" in accepted:
                    options["solution"] = solution
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


class _NotAsked:
    """The answer of an agent that ``check_game`` does not ask at a state (``law_agents_legal`` skips it)."""

    def __repr__(self):
        return "NOT_ASKED"

    def __reduce__(self):
        return "NOT_ASKED"


NOT_ASKED = _NotAsked()


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
    who = _call("to_move", game.to_move, state)
    if who is None or who is CHANCE:
        return True
    moves = _call("possible_moves", game.possible_moves, state)
    for name, agent in (builtin_agents() if agents is None else agents).items():
        move = _call(f"the agent {name!r}", agent, game, state, rng)
        if move is NOT_ASKED:  # an agent bounded to fewer states by check_game: not asked here
            continue
        _require(_contains(moves, move), f"the agent {name!r} chose {move!r}, not one of the possible moves {moves!r}")
    return True


def _orbit(game, state) -> frozenset:
    """The images of ``state`` under the game's symmetries, as a set: the same for every state of one orbit."""
    return frozenset(_call("symmetries", symmetries, game, state)) | {state}


def _children_by_orbit(game, state, who) -> dict:
    """``{orbit of a child: how many moves lead there (or its probability at a chance node)}``."""
    found = {}
    steps = _call("chance_outcomes", game.chance_outcomes, state) if who is CHANCE else (
        (m, 1) for m in _call("possible_moves", game.possible_moves, state))
    for step, p in steps:
        child = _call(f"play with {step!r}", game.play, state, step)
        key = _orbit(game, child)
        found[key] = found.get(key, 0) + Fraction(p)
    return found


def law_symmetry(game, state, solution=None, limit: int | None = None) -> bool:
    """Every image of ``state`` under the game's ``symmetries`` hook is the same game: moves map one to one, values agree.

    The images include ``state``, and each image has the same images (an orbit);
    the same player is to move; the children fall into the same orbits, as many
    moves to each (at a chance node, with the same probability); at the end the
    payoffs are equal; and the exact solver values every image alike
    (``solution`` holding them, else a solve from each, skipped above ``limit``
    states). A game without the hook has only the identity: the law holds.

    >>> from fnmcts.games import TicTacToe
    >>> law_symmetry(TicTacToe(), (1, 0, 0, 0, 2, 0, 0, 0, 0))
    True
    """
    from ..exact import solve

    images = _call("symmetries", symmetries, game, state)
    _require(_contains(images, state), f"symmetries({state!r}) does not list the state itself among {images!r}")
    if len(images) == 1:
        return True
    orbit = _orbit(game, state)
    who = _call("to_move", game.to_move, state)
    children = _children_by_orbit(game, state, who) if who is not None else None
    pay = _call("payoff at the end", game.payoff, state) if who is None else None
    for image in images:
        _require(_orbit(game, image) == orbit,
                 f"the image {image!r} of the state has other images: {sorted(map(repr, _orbit(game, image)))} "
                 f"against {sorted(map(repr, orbit))} (the symmetries must form a group)")
        theirs = _call("to_move", game.to_move, image)
        _require(theirs == who and (theirs is CHANCE) == (who is CHANCE),
                 f"the image {image!r} has {_mover(theirs)} to move, the state {_mover(who)}")
        if who is None:
            other = _call("payoff at the end", game.payoff, image)
            _require(tuple(other) == tuple(pay), f"the image {image!r} pays {other!r}, the state {pay!r}")
            continue
        mapped = _children_by_orbit(game, image, who)
        _require(mapped == children, f"the moves of the image {image!r} do not map one to one onto those of the state: "
                                     f"their children fall into other orbits ({len(mapped)} orbits against "
                                     f"{len(children)})")
    if solution is None or any(image not in solution for image in images):
        if limit is not None and count_states(game, state, limit) > limit:
            return True
        solutions = {image: _solved(game, image) for image in images}
        if any(solution is None for solution in solutions.values()):
            return True  # beyond the solver's limits: the values cannot be compared here
        values = {image: solutions[image][image] for image in images}
    else:
        values = {image: solution[image] for image in images}
    value = values[images[0]]
    odd = [(image, v) for image, v in values.items() if v != value]
    _require(not odd, f"the exact solver values the image {odd[0][0]!r} at {odd[0][1]!r} and {images[0]!r} at "
                      f"{value!r}" if odd else "")
    return True


def _mover(who) -> str:
    return "nobody" if who is None else "chance" if who is CHANCE else f"player {who}"


LAWS = MappingProxyType(
    {
        "moves_stable_and_legal": law_moves_stable_and_legal,
        "play_pure": law_play_pure,
        "hash_consistent": law_hash_consistent,
        "terminal_iff_nobody_to_move": law_terminal_iff_nobody_to_move,
        "chance_probabilities": law_chance_probabilities,
        "payoff_in_range": law_payoff_in_range,
        "json_round_trip": law_json_round_trip,
        "text_hooks": law_text_hooks,
        "playthrough_ends": law_playthrough_ends,
        "symmetry": law_symmetry,
        "solver_recursion": law_solver_recursion,
        "agents_legal": law_agents_legal,
    }
)
"""Every law by name, in the order ``check_game`` runs them (a read-only mapping).

>>> list(LAWS)[:3]
['moves_stable_and_legal', 'play_pure', 'hash_consistent']
"""



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
            steps = choices(game, state)
            if not steps:
                return None
            state = game.play(state, steps[0])
    except Exception:  # a broken game: the laws report it
        return None
    return None
