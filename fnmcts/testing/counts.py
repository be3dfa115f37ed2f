"""Counting a game's states and histories ply by ply, as chess engines count ("perft") and OpenSpiel's tests do.

``count(game, depth)`` walks the game breadth-first from the start and returns
a ``Count``: for each ply, the distinct states reached in exactly that many
steps (how many of them a player, chance or nobody is to move at), the
*histories* (the step sequences of that length: a state reached along several
paths counts once as a state and once per path as a history), and the games
that end there; the terminal states by outcome; and, with ``divide=True``, the
histories below each first step (perft's "divide", to bisect a wrong count).

A step is a move or a chance outcome alike (OpenSpiel's histories count chance
outcomes the same way). Chance nodes are counted both ways: ``histories`` counts
each outcome as a branch, ``weighted`` weighs each by its probability (a
``Fraction``: equal to ``histories`` in a game without chance; at the end, the
expected number of games when the players' choices branch and the dice are
averaged).

The counts are known for many games, so they test a game's rules against
published numbers (``fnmcts.testing.goldens``): tic-tac-toe has 5,478 states and
549,946 histories, and 255,168 games, 131,184 of them won by the first player.

>>> from fnmcts.games import TicTacToe
>>> counted = count(TicTacToe())
>>> counted.states, counted.histories, counted.games
(5478, 549946, 255168)
>>> [ply.states for ply in counted.plies]
[1, 9, 72, 252, 756, 1260, 1520, 1140, 390, 78]
>>> print(count(TicTacToe(), 2, divide=True))
TicTacToe(): 2 plies
ply  states  to move  chance  ended  histories  games
  0       1        1       0      0          1      0
  1       9        9       0      0          9      0
  2      72       72       0      0         72      0
all      82       82       0      0         82      0
divide (histories at ply 2 below each first step)
  X at 0:  8
  X at 1:  8
  X at 2:  8
  X at 3:  8
  X at 4:  8
  X at 5:  8
  X at 6:  8
  X at 7:  8
  X at 8:  8
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable, NamedTuple

import random
from functools import partial

from ..limits import GO_ON, MAX_PLIES, MemoryWatch, NoEnd, TooLarge, cycle_found, memory_budget, no_end, ply_budget
from ..limits import size_hint
from ..protocol import CHANCE, GameError, called, checked_play, checked_start, checked_step, describe_move, may_repeat
from ..protocol import game_text, payoff_range
from ..matches import playout, random_agent
from ..protocol import symmetries

__all__ = ["Ply", "Outcome", "FirstStep", "Count", "count", "outcome_name", "COUNT_LIMIT"]

COUNT_LIMIT = 2_000_000
"""The distinct states a count may find unless told (``limit=``): about a gigabyte for small states."""


class Ply(NamedTuple):
    """What a count found at one ply (steps from the start): states, who is to move, histories, games ended.

    >>> from fnmcts.games import Nim
    >>> count(Nim(heap=3, max_take=2)).plies[2]
    Ply(ply=2, states=2, decisions=1, chance=0, terminal=1, histories=3, weighted=Fraction(3, 1), games=2, movers=(1, 0))
    """

    ply: int
    states: int  # distinct states reached in exactly ``ply`` steps (up to symmetry when asked)
    decisions: int  # of which a player is to move
    chance: int  # of which chance is to move
    terminal: int  # of which the game is over
    histories: int  # step sequences of length ``ply`` from the start, each chance outcome a branch
    weighted: Fraction  # the same, each weighted by the probability of its chance outcomes
    games: int  # histories that end at this ply
    movers: tuple = ()  # of the decisions, how many each player is to move at (player 1's first)


class Outcome(NamedTuple):
    """The terminal states with one payoff: how many positions, how many games end there, and weighted.

    >>> from fnmcts.games import Nim
    >>> count(Nim(heap=3, max_take=2)).outcomes  # misere: who takes the last one loses
    (Outcome(payoff=(1, -1), name='player 1 wins', positions=1, games=2, weighted=Fraction(2, 1)), Outcome(payoff=(-1, 1), name='player 2 wins', positions=1, games=1, weighted=Fraction(1, 1)))
    """

    payoff: tuple
    name: str
    positions: int  # distinct terminal states with this payoff
    games: int  # histories that end in one of them
    weighted: Fraction  # those histories weighted by their chance outcomes' probabilities


class FirstStep(NamedTuple):
    """One line of perft's divide: a first step, how it reads, and the histories at the last ply below it.

    >>> from fnmcts.games import Nim
    >>> count(Nim(heap=4), 2, divide=True).divide[0]
    FirstStep(step=1, text='take 1', histories=3)
    """

    step: Any
    text: str
    histories: int


class Count(NamedTuple):
    """The result of ``count``: a value that prints as a table (``str``) and has a JSON form (``to_json``).

    >>> from fnmcts.games import Nim
    >>> counted = count(Nim(heap=3, max_take=2))
    >>> counted.states, counted.histories, counted.games, counted.complete
    (6, 7, 3, True)
    """

    game: str
    depth: int | None  # the depth asked for; None: to the end
    up_to_symmetry: bool
    plies: tuple  # of Ply, from ply 0
    states: int  # distinct states over all plies
    terminal_states: int  # distinct terminal states over all plies
    outcomes: tuple  # of Outcome, by payoff
    divide: tuple | None  # of FirstStep (a first step, its text, the histories at the last ply below it), if asked
    complete: bool  # no state beyond the last ply: the whole game was counted
    decision_states: int = 0  # distinct states over all plies where a player is to move
    chance_states: int = 0  # distinct states over all plies where chance is to move

    @property
    def histories(self) -> int:
        """All histories up to the last ply, the empty one included (OpenSpiel's "histories").

        >>> from fnmcts.games import Nim
        >>> count(Nim(heap=3, max_take=2)).histories  # 1 + 2 + 3 + 1
        7
        """
        return sum(ply.histories for ply in self.plies)

    @property
    def games(self) -> int:
        """The histories that end the game (each a whole game), over all plies.

        >>> from fnmcts.games import Nim
        >>> count(Nim(heap=4, max_take=2)).games  # the ways to write 4 as a sum of 1s and 2s
        5
        """
        return sum(ply.games for ply in self.plies)

    @property
    def to_move_by_ply(self) -> list:
        """For each ply, how many of its states each player is to move at: what pins down ``to_move``.

        A ``to_move`` that names the wrong player changes these numbers even
        when the states, histories and outcomes stay the same.

        >>> from fnmcts.games import TicTacToe
        >>> count(TicTacToe(), 3).to_move_by_ply  # X at even plies, O at odd ones
        [[1, 0], [0, 9], [72, 0], [0, 252]]
        """
        return [list(ply.movers) for ply in self.plies]

    @property
    def has_chance(self) -> bool:
        """True when a chance node was met (the weighted counts may then differ from the plain ones).

        >>> from fnmcts.games import Nim, ShutTheBox
        >>> count(Nim(heap=3)).has_chance, count(ShutTheBox(levers=2), 1).has_chance
        (False, True)
        """
        return any(ply.chance for ply in self.plies)

    def __str__(self) -> str:
        return _table(self)

    def to_json(self) -> dict:
        """A JSON-ready form: numbers as numbers, weighted counts as exact fractions in text.

        >>> from fnmcts.games import Nim
        >>> data = count(Nim(heap=3, max_take=2)).to_json()
        >>> data["plies"][1], data["outcomes"][0]
        ({'ply': 1, 'states': 2, 'decisions': 2, 'chance': 0, 'terminal': 0, 'histories': 2, 'weighted': '2', 'games': 0, 'movers': [0, 2]}, {'payoff': ['1', '-1'], 'name': 'player 1 wins', 'positions': 1, 'games': 2, 'weighted': '2'})
        """
        return {
            "game": self.game,
            "depth": self.depth,
            "up_to_symmetry": self.up_to_symmetry,
            "complete": self.complete,
            "states": self.states,
            "terminal_states": self.terminal_states,
            "decision_states": self.decision_states,
            "chance_states": self.chance_states,
            "histories": self.histories,
            "games": self.games,
            "plies": [ply._asdict() | {"weighted": str(ply.weighted), "movers": list(ply.movers)} for ply in self.plies],
            "outcomes": [
                {"payoff": [str(x) for x in o.payoff], "name": o.name, "positions": o.positions, "games": o.games,
                 "weighted": str(o.weighted)}
                for o in self.outcomes
            ],
            "divide": None if self.divide is None else [
                {"step": _json_step(d.step), "text": d.text, "histories": d.histories} for d in self.divide],
        }


def _json_step(step):
    return step if isinstance(step, (int, str)) and not isinstance(step, bool) else repr(step)


def outcome_name(payoff, num_players: int) -> str:
    """How a payoff reads: "player N wins" (a unique best payoff), "draw", or the payoff of one player.

    >>> outcome_name((1, -1), 2), outcome_name((0, 0), 2), outcome_name((Fraction(1, 3),), 1)
    ('player 1 wins', 'draw', 'payoff 1/3')
    """
    if num_players == 1:
        return f"payoff {payoff[0]}"
    best = max(payoff)
    winners = [i for i, x in enumerate(payoff) if x == best]
    if len(winners) == len(payoff):
        return "draw"
    if len(winners) == 1:
        return f"player {winners[0] + 1} wins"
    return "players " + ", ".join(str(i + 1) for i in winners) + " share the best payoff"


def count(
    game,
    depth: int | None = None,
    *,
    up_to_symmetry: bool = False,
    divide: bool = False,
    key: Callable[[Any], Any] | None = None,
    state=None,
    limit: int | None = COUNT_LIMIT,
    memory: int | None = None,
    progress: Callable[[int], Any] | None = None,
    max_plies: int | None = MAX_PLIES,
) -> Count:
    """Count the states and histories of ``game`` ply by ply, to ``depth`` steps (default: to the end).

    - ``up_to_symmetry``: states that are images of each other under the
      game's ``symmetries`` hook count as one (tic-tac-toe: 765 positions; a
      game without the hook has no symmetry but the identity); histories and
      games are counted as without it;
    - ``divide``: also count, below each first step, the histories at the last
      ply (``depth`` given) or the games (``depth`` None);
    - ``key``: states with equal keys are one position (they must have the same
      future: the same moves to states of equal keys, the same payoffs), for a
      game whose states hold more than the position (a history);
    - ``state``: count from this state instead of the start;
    - ``limit``: a ``TooLarge`` error once more distinct states than this are
      found (``COUNT_LIMIT`` unless told; None: no limit), and at once, before
      the count starts, when the game's ``size_hint`` says a count to the end
      would find more; ``memory``: the same once the count has taken more
      than this many bytes (default ``fnmcts.limits.memory_budget()``: never a
      ``MemoryError``); ``progress``: called with 1 after each ply;
    - ``max_plies``: a count to the end that goes on past this many plies
      (``fnmcts.limits.ply_budget``: the game's own bound when longer) is a
      ``NoEnd``, with a line that shows it; one random game is played first,
      so a game that never ends says so before the count grows.

    A game that may repeat states (its ``may_repeat`` hook) needs a ``depth``;
    a game whose play goes round in a cycle is a ``NoEnd``. Every state is
    checked as the count meets it (``fnmcts.protocol.checked_step``): a
    failure of the game's own code is a ``GameError``.

    >>> from fnmcts.games import TicTacToe
    >>> symmetric = count(TicTacToe(), up_to_symmetry=True)
    >>> symmetric.states, symmetric.terminal_states, symmetric.histories
    (765, 138, 549946)
    """
    _check_depth(game, depth)
    identify = _identity(game, key, up_to_symmetry)
    start = checked_start(game) if state is None else state
    players = getattr(game, "num_players", 1)
    low, high = payoff_range(game)
    if depth is None and limit is not None:
        _check_size(game, start, limit)
    deepest = None if depth is not None else ply_budget(game, start, max_plies)
    if deepest is not None:  # a count to the end: one random game first, so a game that never ends says so at once
        _first_game(game, start, max_plies)

    budget = memory_budget() if memory is None else memory
    grown = partial(_check_growth, game, limit, MemoryWatch(budget), budget)
    level = {identify(start): [start, 1, Fraction(1)]}  # key -> [a state, histories, weighted histories]
    seen = _Seen(set(level), set(), set(), set(), {})
    plies, ply, complete = [], 0, False
    while level:
        _check_plies(game, start, depth, deepest, ply, len(seen.states))
        expand = depth is None or ply < depth
        following, movers, chance, terminal, games = _count_ply(
            game, level, ply, expand, identify, (players, low, high), seen, limit if depth is None else None, grown)
        plies.append(Ply(ply, len(level), sum(movers), chance, terminal, sum(e[1] for e in level.values()),
                         sum((e[2] for e in level.values()), Fraction(0)), games, tuple(movers)))
        if progress is not None:
            progress(1)
        if not expand:
            complete = not (any(movers) or chance)
            break
        level, ply = following, ply + 1
    else:
        complete = True

    split = _divide(game, start, depth, up_to_symmetry, key) if divide else None
    return Count(game_text(game), depth, up_to_symmetry, tuple(plies), len(seen.states), len(seen.terminal),
                 _outcome_table(seen.outcomes, players), split, complete, len(seen.decision), len(seen.chance))


class _Seen(NamedTuple):
    """The keys a count has met (every state, the ends, the decisions, the chance nodes) and its ends by payoff."""

    states: set
    terminal: set
    decision: set
    chance: set
    outcomes: dict  # payoff -> [positions, games, weighted games]


def _check_depth(game, depth) -> None:
    """Refuse (``ValueError``) a depth that is not a whole number of at least 0, or none for a game that may repeat."""
    if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int) or depth < 0):
        raise ValueError(f"depth must be a whole number of at least 0 (or None: to the end), got {depth!r}")
    if depth is None and may_repeat(game):
        raise ValueError(f"{game_text(game)} may come back to a state seen before (may_repeat): give a depth to count to")


def _check_plies(game, start, depth, deepest, ply: int, states: int) -> None:
    """Refuse (``NoEnd``) a count to the end at a ply past its states (a cycle) or past the ``deepest`` play goes."""
    if depth is None and ply > states:  # more plies than states: a state came back
        raise _round(game, start, ply, states)
    if deepest is not None and ply > deepest:
        raise no_end(game, start, deepest)


def _count_ply(game, level, ply, expand, identify, bounds, seen, project_limit, grown) -> tuple:
    """``(next level, movers, chance nodes, ends, games)`` of a ply: its states checked and tallied, children merged.

    ``movers[p]``: the decisions of the ply where player ``p`` is to move.

    ``project_limit``: the limit a count to the end projects its ply against
    (None: no projection); ``grown(states, ply)`` refuses a count grown too big.
    """
    following, chance, terminal, games = {}, 0, 0, 0
    movers = [0] * bounds[0]
    sample = max(PROJECTION_SAMPLE, len(level) // 10)  # the states of this ply read before projecting the next
    for done, (k, (current, histories, weighted)) in enumerate(level.items()):
        if project_limit is not None and done in (PROJECTION_SAMPLE, sample):  # early, a clear excess; at a tenth
            _project(game, ply, seen.states, following, done, len(level), project_limit,
                     1.5 if done == sample else PROJECTION_EARLY)
        who, found = checked_step(game, current, *bounds)
        if who is None:
            terminal += 1
            games += histories
            tally = seen.outcomes.setdefault(found, [0, 0, Fraction(0)])
            if k not in seen.terminal:
                seen.terminal.add(k)
                tally[0] += 1
            tally[1] += histories
            tally[2] += weighted
            continue
        if who is CHANCE:
            chance += 1
            seen.chance.add(k)
        else:
            movers[who] += 1
            seen.decision.add(k)
        if expand:
            steps = found if who is CHANCE else tuple((m, 1) for m in found)
            _merge_children(game, current, steps, histories, weighted, identify, following, seen.states, ply, grown)
    return following, movers, chance, terminal, games


def _merge_children(game, current, steps, histories, weighted, identify, following, seen, ply, grown) -> None:
    """Add the states ``steps`` lead to from ``current`` to the next ply's ``following``, with their histories."""
    for step, p in steps:
        child = checked_play(game, current, step)
        c = identify(child)
        entry = following.get(c)
        if entry is None:
            following[c] = [child, histories, weighted * p]
            if c not in seen:
                seen.add(c)
                grown(len(seen), ply)
        else:
            entry[1] += histories
            entry[2] += weighted * p


def _check_growth(game, limit, watch, budget, states: int, ply: int) -> None:
    """Refuse (``TooLarge``) a count past ``limit`` distinct states, or (every 4,096 states) past its memory budget."""
    if limit is not None and states > limit:
        raise TooLarge(
            f"counting {game_text(game)} found more than {limit:,} distinct states by ply {ply + 1}; "
            f"give a smaller depth{GO_ON}"
        )
    if states % 4096 == 0 and watch.exceeded():
        raise TooLarge(
            f"counting {game_text(game)} took more than its memory budget of {budget:,} bytes by ply "
            f"{ply + 1}, with {states:,} distinct states; give a smaller depth (or memory=)"
        )


def _outcome_table(outcomes, players) -> tuple:
    """``(Outcome, ...)``: the ends a count met by payoff, in a stable order."""
    return tuple(
        Outcome(payoff, outcome_name(payoff, players), positions, games, weighted)
        for payoff, (positions, games, weighted) in sorted(outcomes.items(), key=lambda item: _order(item[0]))
    )


def _divide(game, start, depth, up_to_symmetry, key) -> tuple:
    """``(FirstStep, ...)``: perft's divide, the histories (or games) below each first step from ``start``."""
    return tuple(
        FirstStep(step, called("describe_move", partial(describe_move, game), start, step, move=step),
                  _below(game, child, depth, up_to_symmetry, key))
        for step, child in _first_steps(game, start)
    )


def _check_size(game, start, limit: int) -> None:
    """Refuse (``TooLarge``) a count to the end whose states, by the game's ``size_hint``, would pass ``limit``.

    >>> from fnmcts.games import Nim
    >>> _check_size(Nim(heap=10**9), Nim(heap=10**9).start(), 2_000_000)
    Traceback (most recent call last):
    ...
    fnmcts.limits.TooLarge: counting Nim(heap=1000000000, max_take=3, misere=True) to the end would find up to 2,000,000,002 states (its size_hint), beyond the limit of 2,000,000: give a depth; limit=None goes on regardless
    """
    try:
        states, _, moves = size_hint(game, start)
    except Exception as error:
        raise GameError("size_hint", f"raised {type(error).__name__}: {error}", start) from error
    if states is not None and states > limit:
        raise TooLarge(f"counting {game_text(game)} to the end would find up to {states:,} states (its size_hint), beyond the "
                       f"limit of {limit:,}: give a depth{GO_ON}")
    if states is None and moves is not None and moves > limit:
        raise TooLarge(f"counting {game_text(game)} to the end may meet up to {moves:,} moves at a state (its size_hint), more "
                       f"than the limit of {limit:,} states at one ply: give a depth{GO_ON}")


PROJECTION_SAMPLE = 1_000
"""A count to the end projects a ply's new states from its first tenth (at least this many states of it)."""

PROJECTION_EARLY = 10
"""...and, on a ply of more than ten times ``PROJECTION_SAMPLE`` states, from its first ``PROJECTION_SAMPLE`` too,
refusing there a ply that passes the limit this many times over (a wide game: a tenth of a ply of 160,000 states of
400 moves each was 6 million states, two minutes, before the count refused)."""


def _project(game, ply: int, seen, following, done: int, size: int, limit: int, factor: float = 1.5) -> None:
    """Refuse (``TooLarge``) a count to the end whose ply, at the rate of its first ``done`` of ``size`` states, would
    bring the states found past ``factor`` times ``limit``: the count stops a tenth of the way into the ply that passes
    it, or sooner when it passes it ``PROJECTION_EARLY`` times over.

    >>> _project("Chess()", 4, set(range(50_000)), dict.fromkeys(range(30_000)), 1_000, 200_000, 2_000_000)
    Traceback (most recent call last):
    ...
    fnmcts.limits.TooLarge: counting 'Chess()' found 50,000 distinct states by ply 5, 30,000 of them from the first 1,000 of ply 4's 200,000 states: at that rate the ply passes the limit of 2,000,000 (by about 3x); give a depth; limit=None goes on regardless
    >>> _project("Small()", 4, set(range(500)), dict.fromkeys(range(300)), 1_000, 2_000, 2_000_000)
    """
    projected = len(seen) + len(following) * (size / done - 1)
    if projected > factor * limit:
        raise TooLarge(f"counting {game_text(game)} found {len(seen):,} distinct states by ply {ply + 1}, {len(following):,} of "
                       f"them from the first {done:,} of ply {ply}'s {size:,} states: at that rate the ply passes the "
                       f"limit of {limit:,} (by about {projected / limit:.0f}x); give a depth{GO_ON}")


def _first_game(game, start, max_plies) -> None:
    """A random game before a count to the end: one that never ends, or comes back to a state it passed, is a ``NoEnd``.

    A game that goes round a cycle (and does not say ``may_repeat``) but ends
    with probability 1 (Pig without the hook) would otherwise be counted ply
    after ply until the plies outnumber its states: hours, saying nothing.

    >>> from fnmcts.protocol import GameBase
    >>> class Hold(GameBase):  # 0: stop (the end) or hold (back to 0)
    ...     def start(self): return 0
    ...     def to_move(self, s): return None if s else 0
    ...     def possible_moves(self, s): return ("stop", "hold") if not s else ()
    ...     def play(self, s, m): return 0 if m == "hold" else 1
    ...     def payoff(self, s): return (1,)
    >>> _first_game(Hold(), 0, None)
    Traceback (most recent call last):
    ...
    fnmcts.limits.NoEnd: no end: from 0, the moves ('hold',) come back to 0, a cycle through 0 of 1 ply (a game whose states may repeat says so with may_repeat(), and must still end with probability 1)
    """
    passed = []

    def watched(game, state, rng):  # the random agent, remembering where it moved: the same draws, no more plays
        passed.append(state)
        return random_agent(game, state, rng)

    playout(game, start, random.Random(0), watched, max_plies=max_plies)
    seen = set()
    for state in passed:
        try:
            again = state in seen
        except TypeError:  # a state that is not hashable: the count names it, with the hook
            return
        if again:
            raise cycle_found(game, start, state)
        seen.add(state)


def _round(game, start, ply: int, states: int) -> NoEnd:
    """The ``NoEnd`` of a count to the end whose ``ply`` passed its ``states``: a cycle, shown when random play finds it."""
    found = no_end(game, start, ply)
    if found.cycle:
        return found
    return NoEnd(f"play of {game_text(game)} goes on for more plies ({ply}) than it has states ({states}): it goes round "
                 "in a cycle; give a depth (or declare may_repeat() and give a depth)", plies=ply, start=start)


def _order(payoff):
    """Payoffs in a stable order: the first player's best first where they compare, else by text."""
    try:
        return (0, tuple(-float(x) for x in payoff), "")
    except (TypeError, ValueError):
        return (1, (), repr(payoff))


def _identity(game, key, up_to_symmetry: bool):
    """The function that tells a state's position: ``key``, and its orbit under the symmetries when asked."""
    base = key if key is not None else (lambda s: s)
    if not up_to_symmetry:
        return base

    def orbit(s):
        images = called("symmetries", partial(symmetries, game), s)
        return frozenset([base(s), *(base(image) for image in images)])

    return orbit


def _first_steps(game, start) -> tuple:
    """``((step, child), ...)``: the first steps from ``start`` and the states they lead to."""
    who, found = checked_step(game, start, getattr(game, "num_players", 1), *payoff_range(game))
    if who is None:
        return ()
    steps = [o for o, _ in found] if who is CHANCE else found
    return tuple((step, checked_play(game, start, step)) for step in steps)


def _below(game, child, depth, up_to_symmetry, key) -> int:
    """perft's divide for one first step: the histories at the last ply below ``child``, or its games."""
    if depth == 0:
        return 0
    sub = count(game, None if depth is None else depth - 1, up_to_symmetry=up_to_symmetry, key=key, state=child)
    return sub.games if depth is None else (sub.plies[-1].histories if len(sub.plies) == depth else 0)


def _table(counted: Count) -> str:
    """The count as a table: one row per ply, a total row, the outcomes, the divide."""
    chance = counted.has_chance
    heads = ["ply", "states", "to move", "chance", "ended", "histories"] + (["weighted"] if chance else []) + ["games"]
    rows = []
    for ply in counted.plies:
        rows.append([str(ply.ply), f"{ply.states:,}", f"{ply.decisions:,}", f"{ply.chance:,}", f"{ply.terminal:,}",
                     f"{ply.histories:,}"] + ([_fraction(ply.weighted)] if chance else []) + [f"{ply.games:,}"])
    total = ["all", f"{counted.states:,}", f"{counted.decision_states:,}", f"{counted.chance_states:,}",
             f"{counted.terminal_states:,}", f"{counted.histories:,}"]  # distinct states: a state may recur at two plies
    total += ([_fraction(sum((p.weighted for p in counted.plies), Fraction(0)))] if chance else [])
    rows.append(total + [f"{counted.games:,}"])
    plies = len(counted.plies) - 1
    what = f"{plies} plies" if counted.depth is not None else f"to the end ({plies} plies)"
    symmetric = ", states up to symmetry" if counted.up_to_symmetry else ""
    lines = [f"{counted.game}: {what}{symmetric}", *_columns([heads, *rows])]
    if counted.outcomes:  # one row a payoff, the payoff shown as the game pays it (player 1's first)
        heads = ["outcome", "payoff", "positions", "games"] + (["weighted"] if chance else [])
        rows = [[o.name, " ".join(_payoff_text(x) for x in o.payoff), f"{o.positions:,}", f"{o.games:,}"]
                + ([_fraction(o.weighted)] if chance else []) for o in counted.outcomes]
        lines += _columns([heads, *rows], left=2)
    if counted.divide is not None:
        at = f"histories at ply {counted.depth}" if counted.depth is not None else "games"
        lines.append(f"divide ({at} below each first step)")
        lines += _columns([[d.text + ":", f"{d.histories:,}"] for d in counted.divide], indent="  ")
    return "\n".join(lines)


def _columns(rows, left: int = 0, indent: str = "") -> list:
    """``rows`` of cells as lines, each column as wide as its widest cell; the first ``left`` columns to the left."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [indent + "  ".join(cell.ljust(w) if i < left else cell.rjust(w)
                               for i, (cell, w) in enumerate(zip(row, widths))).rstrip() for row in rows]


def _payoff_text(x) -> str:
    """One player's payoff as the outcomes' table shows it: ``1``, ``-0.5``, ``1/3``.

    >>> _payoff_text(1), _payoff_text(-0.5), _payoff_text(Fraction(1, 3)), _payoff_text(2.0)
    ('1', '-0.5', '1/3', '2')
    """
    if isinstance(x, float):
        return f"{x:g}"
    return str(x)


def _fraction(x) -> str:
    """A weight as the table shows it: a whole number with commas, else 6 significant digits (a game's floats too).

    >>> _fraction(Fraction(1234)), _fraction(Fraction(1, 3)), _fraction(0.25), _fraction(2.0)
    ('1,234', '0.333333', '0.25', '2')
    """
    if isinstance(x, float):
        return f"{x:,.0f}" if x.is_integer() else f"{x:,.6g}"
    return f"{x.numerator:,}" if x.denominator == 1 else f"{float(x):,.6g}"
