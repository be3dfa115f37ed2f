"""Sizes checked up front: how much work and memory a call asks for, refused before it starts.

A game tells its own size through the optional ``size_hint(state)`` hook of
``GameBase``: upper bounds ``(states, length, branching)`` of the game from
``state`` (the states the exact solver would hold, the moves of the longest
game, the most moves at one state), each ``None`` when unknown. The checks
here turn those bounds into estimates and refuse what would not fit, with a
``TooLarge`` error (a ``ValueError``) that says what would:

* ``STATE_LIMIT`` states for an exact solution (``fnmcts.exact``): about a
  gigabyte of exact fractions at most;
* ``WORK_LIMIT`` steps of play (games times their length, times the moves
  listed at each step where agents look at them all): hours on one core;
* ``memory_budget()`` bytes for an exact solution: the states it would hold
  at once (its states and the frontier of its walk, the game's longest line
  times its widest choice) times the bytes one state costs, measured on a
  sample of the game's own states (``state_bytes``). ``check_solve`` refuses
  up front what would not fit, naming what would, and gives the solver the
  number of states it may hold, so a walk whose size is unknown stops
  (``TooLarge``) before it passes the memory it announced.

Every state and work check takes ``limit=None`` to go on regardless (the
command line's ``--force``); the memory check takes ``memory=`` (bytes) to
set another budget.

Lines of play have a budget too: ``MAX_PLIES`` plies (``max_plies=`` on every
walk; the game's own longest line when it is longer, ``ply_budget``), past
which play that does not end, or whose states keep growing, is a ``NoEnd``
with the shortest line found that shows it (``no_end``, ``cycle_found``).

>>> from fnmcts.games import Nim
>>> check_states(Nim(heap=10**6), Nim(heap=10**6).start())
Traceback (most recent call last):
...
fnmcts.limits.TooLarge: the exact solution from this state would hold up to 2,000,002 states; the limit is 200,000 (about a heap of 99,999); limit=None goes on regardless
>>> check_work(10**30, what="games")
Traceback (most recent call last):
...
fnmcts.limits.TooLarge: 1e+30 games would take about 1e+30 steps of play, beyond the limit of 1e+10 (hours of work): at most 10,000,000,000 games fit; limit=None goes on regardless
"""

from __future__ import annotations

import gc
import os
import sys
from contextlib import contextmanager
from dataclasses import dataclass

from .protocol import _Verdict, game_text
from .rng import pick

__all__ = [
    "STATE_LIMIT",
    "WORK_LIMIT",
    "MEMORY_LIMIT",
    "SOLVER_STATE_BYTES",
    "TooLarge",
    "GO_ON",
    "size_hint",
    "check_states",
    "check_work",
    "play_work",
    "memory_budget",
    "address_cap",
    "state_bytes",
    "state_growth",
    "held_bytes",
    "MemoryWatch",
    "SolveEstimate",
    "estimate_solve",
    "check_solve",
    "memory_refusal",
    "MAX_PLIES",
    "NoEnd",
    "ply_budget",
    "past_budget",
    "no_end",
    "cycle_found",
    "JSON_BYTES",
    "check_file_memory",
]

STATE_LIMIT = 200_000
"""States an exact solution may hold unless told otherwise."""

WORK_LIMIT = 10**10
"""Steps of play (moves played, or moves looked at) a call may take unless told otherwise."""

MEMORY_LIMIT = 8 * 2**30
"""Bytes an exact solution may hold at most (``memory_budget`` takes less on a machine with less free)."""

UNKNOWN_LENGTH = 1_000
"""The longest line assumed for a game whose ``size_hint`` gives no length (``check_game``'s default bound)."""

SOLVER_STATE_BYTES = 400
"""Bytes the solver spends on each state it holds, beside the state itself: its entry in the
solution's dict (about 100 bytes at the dict's fill), the value tuple of ``Fraction``\\ s (about
250 bytes for two players; terminal values are shared) and its frame on the walk's stack."""


class TooLarge(_Verdict):
    """Work or memory beyond a limit, refused before it starts; the message says what would fit.

    >>> isinstance(TooLarge("too big"), ValueError)
    True
    """


def size_hint(game, state) -> tuple:
    """``(states, length, branching)`` upper bounds from ``state`` by the game's hook; ``None`` each when unknown.

    >>> from fnmcts.games import Piles
    >>> size_hint(Piles((1, 2)), Piles((1, 2)).start())
    (12, 3, 3)
    >>> size_hint(object(), None)
    (None, None, None)
    """
    hook = getattr(game, "size_hint", None)
    if hook is None:
        return (None, None, None)
    states, length, branching = hook(state)
    return (states, length, branching)


GO_ON = "; limit=None goes on regardless"
"""How every ``TooLarge`` message ends: what a caller changes to go on."""


def _fits(hint) -> str:
    return f" ({hint})" if hint else ""


def check_states(game, *states, limit: int | None = STATE_LIMIT, fits: str | None = None) -> int | None:
    """The states an exact solution from ``states`` would hold (by the game's hint), or ``TooLarge``.

    ``None`` when the game gives no hint (the solver then counts as it goes);
    ``limit=None`` checks nothing. ``fits`` says what would fit, else the
    game's own ``size_fits(limit)`` hook does when it has one.

    >>> from fnmcts.games import Nim
    >>> check_states(Nim(heap=21), Nim(heap=21).start())
    44
    """
    counts = [size_hint(game, state)[0] for state in states]
    if any(c is None for c in counts) or not counts:
        return None
    total = sum(counts)
    if limit is not None and total > limit:
        if fits is None:
            hook = getattr(game, "size_fits", None)
            fits = hook(limit) if hook is not None else None
        where = "this state" if len(states) == 1 else f"these {len(states)} states"
        raise TooLarge(
            f"the exact solution from {where} would hold up to {total:,} states; "
            f"the limit is {limit:,}{_fits(fits)}{GO_ON}"
        )
    return total


def many(count: int) -> str:
    """A count as a message writes it: with thousands separators, or in short form past a quadrillion.

    ``--games 1e99`` is refused with its number as the user wrote it, not 100 digits.

    >>> many(1_000_000), many(10**99), many(int(1e99))
    ('1,000,000', '1e+99', '1e+99')
    """
    return f"{count:,}" if count < 10**15 else f"{float(count):.3g}"


def check_work(games: int, length: int | None = 1, per_move: int | None = 1, *, limit: int | None = WORK_LIMIT,
               what: str = "games", go_on: str = GO_ON) -> int | None:
    """``games * length * per_move`` steps of play, or ``TooLarge`` saying how many ``what`` would fit.

    ``None`` when a factor is unknown; ``limit=None`` checks nothing.
    ``go_on`` ends the message (how to go on regardless).

    >>> check_work(1000, 21, 3)
    63000
    """
    if length is None or per_move is None:
        return None
    steps = games * max(1, length) * max(1, per_move)
    if limit is not None and steps > limit:
        most = limit // (max(1, length) * max(1, per_move))
        fit = f"at most {many(most)} {what} fit" if most else "not even one fits"
        noun = what[:-1] if games == 1 and what.endswith("s") else what
        raise TooLarge(f"{many(games)} {noun} would take about {steps:.2g} steps of play, beyond the limit of "
                       f"{limit:.0e} (hours of work): {fit}{go_on}")
    return steps


def play_work(game, state, *, per_move: int = 1) -> tuple:
    """``(length, cost)``: the longest game from ``state`` and the cost of one move (``per_move`` times the branching).

    An agent that lists every move pays the branching at each move; a search
    agent pays its budget of playouts (``per_move``), each a game long.

    >>> from fnmcts.games import Nim
    >>> play_work(Nim(heap=21), Nim(heap=21).start(), per_move=100)
    (21, 300)
    """
    _, length, branching = size_hint(game, state)
    if length is None:
        return (None, None)
    return (length, per_move * (branching or 1))


# -- lines of play: a budget of plies, and the verdict when play passes it ------------------------

MAX_PLIES = 10_000
"""The plies (moves and chance outcomes) one line of play may take unless told otherwise (``max_plies=``).

Every walk that follows play to its end (a playout, a game between agents, a
simulation, a tournament, a search's playouts, a Q-learning game, an exact
solution's deepest line, a count to the end) stops past its budget with a
``NoEnd`` verdict instead of running on. A game's own bound raises it: the
longest line of its ``size_hint``, or a hundred times its ``fewest_moves``
(``ply_budget``), so no game is cut short of the length it declares. Ten
thousand plies of a game whose states keep their history (each ply copying
the line so far) take about a second."""

PLIES_GO_ON = "; max_plies= sets another budget"
"""How every ``NoEnd`` message ends: what a caller changes to give play more plies."""


class NoEnd(_Verdict):
    """Play that went on past a walk's budget of plies: the game does not end, or its states keep growing.

    ``plies``: the budget passed; ``start``: the state the walk started from;
    ``line``: the moves (and chance outcomes) of the shortest line found from
    ``start`` that shows it; ``cycle``: how many of the line's last plies come
    back to the state they left (0 when no cycle was found: play went on to a
    new state every ply, or the line was not found).

    >>> error = NoEnd("no end within 3 plies", plies=3, start=0, line=(1, 1), cycle=2)
    >>> isinstance(error, ValueError), error.line, error.cycle
    (True, (1, 1), 2)
    """

    def __init__(self, message: str, *, plies: int = 0, start=None, line: tuple = (), cycle: int = 0):
        super().__init__(message)
        self.plies, self.start, self.line, self.cycle = plies, start, tuple(line), cycle

    def __reduce__(self):  # pickled by its parts: a worker's verdict reaches its parent whole
        return (_no_end_again, (self.args[0], self.plies, self.start, self.line, self.cycle))


def _no_end_again(message, plies, start, line, cycle) -> NoEnd:
    return NoEnd(message, plies=plies, start=start, line=line, cycle=cycle)


def ply_budget(game, state, max_plies: int | None = MAX_PLIES) -> int | None:
    """The plies a line of play from ``state`` may take: ``max_plies``, or the game's own bound when it is longer.

    The game's bound is the longest line of its ``size_hint``, else a hundred
    times its ``fewest_moves`` (a game with no longest line, Pig: random play
    takes about ten times the fewest). ``None`` (no budget) stays None. A hook
    that fails gives no bound (the walk meets the failure itself).

    >>> from fnmcts.games import Nim, Pig
    >>> ply_budget(Nim(heap=21), Nim(heap=21).start()), ply_budget(Nim(heap=50_000), Nim(heap=50_000).start())
    (10000, 50000)
    >>> ply_budget(Pig(goal=20_000), Pig(goal=20_000).start())
    333400
    """
    if max_plies is None:
        return None
    own = 0
    try:
        length = size_hint(game, state)[1]
        if length is not None:
            own = length
        else:
            fewest = getattr(game, "fewest_moves", None)
            own = 100 * fewest(state) if fewest is not None else 0
    except Exception:
        own = 0
    return max(max_plies, own)


def past_budget(game, start, plies: int, budget, max_plies) -> int:
    """A walk from ``start`` is ``plies`` plies long, past ``budget``: the larger budget the game's own bound gives, or a ``NoEnd``.

    A walk counts its plies against ``max_plies`` alone (no hook asked on the
    way); only past it is the game's bound asked (``ply_budget``), once.

    >>> from fnmcts.games import Nim
    >>> past_budget(Nim(heap=50_000), Nim(heap=50_000).start(), 10_001, 10_000, 10_000)
    50000
    """
    if budget is None or plies <= budget:
        return budget
    if budget == max_plies:
        own = ply_budget(game, start, max_plies)
        if own is not None and plies <= own:
            return own
    raise no_end(game, start, budget)


def no_end(game, start, plies: int, *, line=None, reached=None, tries: int = 3, shorten: int = 20_000) -> NoEnd:
    """The ``NoEnd`` verdict for play from ``start`` that passed ``plies`` plies, with the shortest line found that shows it.

    Random play from ``start`` (seeds 0, 1, ... up to ``tries``) is followed for
    ``plies`` plies, remembering only the hash of each state (a growing state
    is not held): a state met again is a cycle, cut at its first repetition and
    shortened breadth first (the shortest way to the cycle's state and round
    it, over at most ``shorten`` states); a line that neither ends nor repeats
    shows play going on, a new state every ply. A game whose states may repeat
    (``may_repeat``) is told no cycle. A walk that knows its own line, one
    without a repeated state (the exact solver's deepest), gives it as
    ``line`` with the state it ``reached``: it is told as it is.

    >>> from fnmcts.protocol import GameBase
    >>> class Round(GameBase):  # 0 -> 1 -> 2 -> 0 ...: never ends
    ...     def start(self): return 0
    ...     def to_move(self, s): return 0
    ...     def possible_moves(self, s): return ("on",)
    ...     def play(self, s, m): return (s + 1) % 3
    ...     def payoff(self, s): return (1,)
    >>> error = no_end(Round(), 0, 100)
    >>> print(error)
    no end within 100 plies: from 0, the moves ('on', 'on', 'on') come back to 0, a cycle through 0 of 3 plies (a game whose states may repeat says so with may_repeat(), and must still end with probability 1); max_plies= sets another budget
    >>> error.line, error.cycle
    (('on', 'on', 'on'), 3)
    """
    import random

    from .protocol import may_repeat, shown

    repeats = may_repeat(game)
    found = None if line is None else (tuple(line), 0, reached)
    for seed in range(tries if found is None else 0):
        found = _line_without_end(game, start, plies, random.Random(seed), repeats)
        if found is not None:
            break
    if found is None:
        return NoEnd(f"no end within {plies:,} plies from {shown(start)} (random play from there ends: a longer "
                     f"budget may be all it needs){PLIES_GO_ON}", plies=plies, start=start)
    line, cycle, reached = found
    if cycle:
        line, cycle, reached = _shortest_cycle(game, start, line, cycle, shorten)
        return _cycle_verdict(f"no end within {plies:,} plies", game, start, line, cycle, reached, plies)
    return NoEnd(f"no end within {plies:,} plies: from {shown(start)}, the moves {_moves_text(line)} reach "
                 f"{shown(reached)}, a new state every ply: play goes on{PLIES_GO_ON}",
                 plies=plies, start=start, line=line)


def cycle_found(game, start, state, *, shorten: int = 20_000) -> NoEnd:
    """The ``NoEnd`` verdict for a walk from ``start`` that came back to ``state``: the shortest line to it and round it.

    A search's dive that goes round the same states (a game that does not say
    ``may_repeat()``) meets it: breadth first over at most ``shorten`` states
    each way.

    >>> from fnmcts.protocol import GameBase
    >>> class Back(GameBase):  # 0 -> 1 -> 2 -> 1 ...
    ...     def start(self): return 0
    ...     def to_move(self, s): return 0
    ...     def possible_moves(self, s): return ("on",)
    ...     def play(self, s, m): return 2 if s == 1 else 1
    ...     def payoff(self, s): return (1,)
    >>> print(cycle_found(Back(), 0, 2))
    no end: from 0, the moves ('on', 'on') reach 2 and the moves ('on', 'on') come back to it, a cycle through 2 of 2 plies (a game whose states may repeat says so with may_repeat(), and must still end with probability 1)
    """
    head = _shortest_path(game, start, state, shorten, leave=False)
    loop = _shortest_path(game, state, state, shorten, leave=True)
    if head is None or loop is None:
        from .protocol import shown

        return NoEnd(f"no end: play from {shown(start)} comes back to {shown(state)} (a game whose states may repeat "
                     "says so with may_repeat(), and must still end with probability 1)", start=start)
    line, cycle, reached = _through_start(game, start, head + loop, len(loop), state, shorten)
    return _cycle_verdict("no end", game, start, line, cycle, reached, None)


def _cycle_verdict(lead: str, game, start, line, cycle: int, reached, plies) -> NoEnd:
    """The ``NoEnd`` of ``line`` from ``start``, whose last ``cycle`` plies come back to ``reached``."""
    from .protocol import shown

    head, loop = line[: len(line) - cycle], line[len(line) - cycle:]
    way = (f"the moves {_moves_text(head)} reach {shown(reached)} and " if head else "") + (
        f"the moves {_moves_text(loop)} come back to {'it' if head else shown(start)}")
    return NoEnd(f"{lead}: from {shown(start)}, {way}, a cycle through {shown(reached)} of {cycle} {'ply' if cycle == 1 else 'plies'} (a game "
                 f"whose states may repeat says so with may_repeat(), and must still end with probability 1)"
                 + (PLIES_GO_ON if plies is not None else ""), plies=plies or 0, start=start, line=line, cycle=cycle)


def _moves_text(line) -> str:
    """The moves of a line as a tuple's text: the first 8 (each shortened) and how many in all.

    >>> _moves_text((1, 2)), _moves_text(range(20))
    ('(1, 2)', '(0, 1, 2, 3, 4, 5, 6, 7, ... (20 in all))')
    """
    from .protocol import shown

    line = tuple(line)
    head = ", ".join(shown(move, width=40) for move in line[:8])
    if len(line) <= 8:
        return f"({head},)" if len(line) == 1 else f"({head})"
    return f"({head}, ... ({len(line):,} in all))"


def _steps(game, state) -> tuple:
    """``(player, choices, weights)`` at ``state``: who moves and the moves or outcomes (weights: None for moves)."""
    from .protocol import CHANCE

    player = game.to_move(state)
    if player is None:
        return None, (), None
    if player is CHANCE:
        outcomes = game.chance_outcomes(state)
        return player, tuple(o for o, _ in outcomes), tuple(float(p) for _, p in outcomes)
    return player, tuple(game.possible_moves(state)), None


def _line_without_end(game, start, plies: int, rng, repeats: bool):
    """``(line, cycle, state)`` of random play from ``start`` for ``plies`` plies: the moves, the cycle's plies
    (0: none), the state reached (a cycle's: where it comes back); None when the game ends on the way."""
    first: dict = {}  # hash of a state -> the ply it was first met at
    line, state = [], start
    for ply in range(plies + 1):
        if not repeats:
            key = hash(state)
            seen = first.get(key)
            if seen is not None and _replay(game, start, line[:seen]) == state:
                return tuple(line), ply - seen, state
            first.setdefault(key, ply)
        if ply == plies:
            break
        player, choices, weights = _steps(game, state)
        if player is None or not choices:
            return None
        move = rng.choices(choices, weights)[0] if weights else pick(rng, choices)
        line.append(move)
        state = game.play(state, move)
    return tuple(line), 0, state


def _replay(game, start, line):
    state = start
    for move in line:
        state = game.play(state, move)
    return state


def _shortest_cycle(game, start, line, cycle: int, budget: int) -> tuple:
    """``(line, cycle, state)``: the shortest way from ``start`` to the cycle's state and round it back to it.

    Breadth first over at most ``budget`` states each way (the line found at
    random where a search runs out); a cycle through ``start`` itself, when
    it is as short, is taken instead."""
    entry = _replay(game, start, line[: len(line) - cycle])
    to_entry = _shortest_path(game, start, entry, budget, leave=False)
    around = _shortest_path(game, entry, entry, budget, leave=True)
    head = line[: len(line) - cycle] if to_entry is None or len(to_entry) > len(line) - cycle else to_entry
    loop = line[len(line) - cycle:] if around is None or len(around) > cycle else around
    return _through_start(game, start, tuple(head) + tuple(loop), len(loop), entry, budget)


def _through_start(game, start, line, cycle: int, reached, budget: int) -> tuple:
    """``(line, cycle, state)``: the line given, or a cycle through ``start`` itself when it is no longer."""
    if len(line) > cycle:
        own = _shortest_path(game, start, start, budget, leave=True)
        if own is not None and len(own) <= len(line):
            return tuple(own), len(own), start
    return tuple(line), cycle, reached


def _shortest_path(game, source, target, budget: int, leave: bool):
    """The fewest moves from ``source`` to ``target`` (at least one when ``leave``), breadth first; None past ``budget`` states."""
    if not leave and source == target:
        return ()
    parents = {source: None}
    frontier = [source]
    while frontier and len(parents) <= budget:
        following = []
        for state in frontier:
            _, choices, _ = _steps(game, state)
            for move in choices:
                child = game.play(state, move)
                if child == target:
                    path = [move]
                    while parents[state] is not None:
                        state, step = parents[state]
                        path.append(step)
                    return tuple(reversed(path))
                if child not in parents:
                    parents[child] = (state, move)
                    following.append(child)
        frontier = following
    return None


# -- memory ------------------------------------------------------------------------------------


def _available() -> int | None:
    """Bytes of memory the system has free for a new allocation (Linux's MemAvailable), or None."""
    try:
        with open("/proc/meminfo", encoding="ascii") as info:
            for line in info:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def _address_room() -> int | None:
    """Bytes the address-space limit (``ulimit -v``) leaves this process, or None when unlimited."""
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    except (ImportError, OSError, ValueError):
        return None
    if soft == resource.RLIM_INFINITY:
        return None
    return max(0, soft - (_address_space() or 0))


def _address_space() -> int | None:
    """Bytes of address space this process holds (``/proc/self/statm``'s first field), or None where unread."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


@contextmanager
def address_cap(gigabytes: float | None):
    """Within it, this process may hold at most ``gigabytes`` more address space than as it began (Linux).

    Past the cap an allocation raises ``MemoryError``; the limit before is
    put back on the way out. None, a system without ``resource`` or
    ``/proc``, or a tighter limit already set: no new cap. The limit is the
    whole process's: enter it where nothing else runs at the same time (a
    worker's main thread).

    >>> with address_cap(1.0):
    ...     len(bytearray(10**6))
    1000000
    """
    try:
        import resource
    except ImportError:  # not a Unix: no cap
        resource = None
    held = None if resource is None or gigabytes is None else _address_space()
    if held is None:
        yield
        return
    before = soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    cap = held + int(gigabytes * 2**30)
    if hard != resource.RLIM_INFINITY:
        cap = min(cap, hard)
    if soft != resource.RLIM_INFINITY and soft <= cap:  # a tighter cap is already set: it holds
        yield
        return
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, before)


def memory_budget(limit: int = MEMORY_LIMIT) -> int:
    """Bytes an exact solution may hold now: the least of ``limit``, half the free memory, and more.

    More precisely, the least of ``limit``, half the memory the system has free, and 80%
    of what an address-space limit (``ulimit -v``) leaves this process.

    >>> 0 < memory_budget() <= MEMORY_LIMIT, memory_budget(10**6) <= 10**6
    (True, True)
    """
    budget = limit
    free = _available()
    if free is not None:
        budget = min(budget, free // 2)
    room = _address_room()
    if room is not None:
        budget = min(budget, room * 4 // 5)
    return max(0, int(budget))


def _deep_size(objects, seen: set) -> int:
    """``sys.getsizeof`` of ``objects`` and of everything they reach that ``seen`` does not hold yet.

    Types, modules and functions are not followed (they belong to the program, not to a state).
    """
    total = 0
    stack = list(objects)
    skip = (type, type(sys), type(_deep_size), type(len))
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, skip):
            continue
        seen.add(id(obj))
        try:
            total += sys.getsizeof(obj)
        except TypeError:  # an object without a size (some extension types)
            continue
        stack.extend(gc.get_referents(obj))
    return total


def _sample(game, roots, count: int) -> list:
    """Up to ``count`` states below ``roots``, breadth first, as a solver reaches them."""
    out, frontier, seen = [], list(roots), set()
    while frontier and len(out) < count:
        following = []
        for state in frontier:
            if state in seen:
                continue
            seen.add(state)
            out.append(state)
            if len(out) >= count:
                break
            following.extend(_children(game, state))
        frontier = following
    return out


def _children(game, state) -> list:
    """The states below ``state``, each step checked as a walk checks it (``fnmcts.protocol.checked_step``)."""
    from .protocol import CHANCE, checked_play, checked_step, payoff_range

    player, found = checked_step(game, state, getattr(game, "num_players", 1), *payoff_range(game))
    if player is None:
        return []
    choices = [o for o, _ in found] if player is CHANCE else found
    return [checked_play(game, state, c) for c in choices]


def _line(game, root, steps: int) -> list:
    """The states of one line of play from ``root`` (the last choice at every step: deterministic), at most ``steps``.

    Each state is hashed, as a walk's states are (a pmap keeps its hash: measured alike, root and children)."""
    hash(root)
    line, state = [root], root
    while len(line) <= steps:
        children = _children(game, state)
        if not children:
            break
        state = children[-1]
        line.append(state)
    return line


def state_bytes(game, *states, sample: int = 32) -> int:
    """The bytes one state of ``game`` holds, on average over up to ``sample`` states below ``states``.

    Every object a state reaches is counted once over the sample (``sys.getsizeof``,
    which a state type may extend with memory held outside Python objects, as the
    OpenSpiel adapter's states do for the C++ state behind them); what the states
    share (small integers, interned strings, parts of one another) is counted once,
    so it barely moves the average; the game value itself is not followed.

    >>> from fnmcts.games import Nim
    >>> 50 < state_bytes(Nim(heap=21), Nim(heap=21).start()) < 5_000
    True
    """
    roots = states or (game.start(),)
    sampled = _sample(game, roots, max(1, sample))
    return max(1, _deep_size(sampled, {id(game)}) // len(sampled))  # a state pointing at its game: not followed


def state_growth(game, state, steps: int = 32) -> float:
    """Bytes a state of ``game`` grows by per move played, measured along one line of ``steps`` moves from ``state``.

    A state that keeps its history (OpenSpiel's, or a user's tuple of moves) grows
    with the length of the game; a board does not (0). Each state along the line is
    measured on its own, so what it shares with the others counts for each; the
    trend is fitted to the decisions and to the chance states apart, and the larger
    one is the growth (below a byte a move it is 0: what grows keeps at least a
    reference a move).

    >>> from fnmcts.games import Nim
    >>> state_growth(Nim(heap=21), Nim(heap=21).start())
    0.0
    """
    line = _line(game, state, steps)
    from .protocol import CHANCE

    sizes = [(x, _deep_size([s], {id(game)}), game.to_move(s) is CHANCE) for x, s in enumerate(line)]
    slopes = [0.0]
    for kind in (False, True):  # chance states and decisions apart: what each caches does not hide the trend
        points = [(x, y) for x, y, chance in sizes if chance is kind]
        if len(points) >= 4:
            mean_x = sum(x for x, _ in points) / len(points)
            mean_y = sum(y for _, y in points) / len(points)
            spread = sum((x - mean_x) ** 2 for x, _ in points)
            slopes.append(sum((x - mean_x) * (y - mean_y) for x, y in points) / spread)
    slope = max(slopes)  # least squares over the line; below a byte a move, the noise of measuring (a kept hash)
    return round(slope, 3) if slope >= 1 else 0.0


class MemoryWatch:
    """The memory this process holds beyond what it held when the watch began, against a budget.

    On Linux, the resident memory, or the address space when an address-space limit
    (``ulimit -v``) is set, the one that runs out first then. ``exceeded()`` is cheap
    (one read of ``/proc/self/statm``) and is False where the process's memory
    cannot be read; a long walk asks it every few thousand states.

    >>> watch = MemoryWatch(10**12)
    >>> watch.exceeded()
    False
    """

    __slots__ = ("budget", "start", "field")

    def __init__(self, budget: int):
        self.budget = budget
        self.field = 0 if _address_room() is not None else 1  # statm: 0 the address space, 1 the resident pages
        self.start = _resident(self.field)

    def exceeded(self) -> bool:
        if self.start is None:
            return False
        now = _resident(self.field)
        return now is not None and now - self.start > self.budget


def _resident(field: int = 1) -> int | None:
    """Bytes of this process in memory (``field`` 1) or in its address space (0), on Linux; else None."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[field]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError, AttributeError):
        return None


@dataclass(frozen=True)
class SolveEstimate:
    """What an exact solution from some states would hold: states, bytes, and what the budget allows.

    ``states``: the most states the solution holds (the game's ``size_hint``; ``None``
    when unknown); ``frontier``: the states its walk holds beside them at the deepest
    point (the longest line times the widest choice; ``None`` when unknown);
    ``state_bytes``: bytes one held state costs (the state plus ``SOLVER_STATE_BYTES``:
    measured on a sample when ``measured``, else a bound of 64 KB a state that the
    budget holds anyway); ``bytes``: the total (``None`` when the states are
    unknown); ``budget``: the memory budget; ``cap``: the states the walk may hold
    before it stops (the state limit, or what the budget holds, whichever is less).

    >>> estimate = SolveEstimate(states=44, frontier=9, state_bytes=900, budget=10**6, limit=200_000)
    >>> estimate.bytes, estimate.cap, estimate.fits
    (47700, 1102, 1111)
    >>> print(estimate)
    up to 44 states and a frontier of 9 at about 900 bytes each: 47,700 bytes, within the budget of 1,000,000 (1,111 states fit)
    """

    states: int | None
    frontier: int | None
    state_bytes: int
    budget: int
    limit: int | None = STATE_LIMIT
    measured: bool = True

    @property
    def held(self) -> int | None:
        """The most states held at once: the solution's and the walk's frontier (None when unknown)."""
        if self.states is None:
            return None
        return self.states + (self.frontier or 0)

    @property
    def bytes(self) -> int | None:
        """The bytes the solution and its walk would hold (None when the states are unknown)."""
        held = self.held
        return None if held is None else held * self.state_bytes

    @property
    def fits(self) -> int:
        """The states the memory budget holds."""
        return self.budget // max(1, self.state_bytes)

    @property
    def cap(self) -> int:
        """States the walk may hold before it stops: the limit, or what the budget holds beside the frontier."""
        room = max(0, self.fits - (self.frontier or 0))
        return room if self.limit is None else min(self.limit, room)

    def __str__(self) -> str:
        states = "an unknown number of states" if self.states is None else f"up to {self.states:,} states"
        frontier = "" if not self.frontier else f" and a frontier of {self.frontier:,}"
        total = "" if self.bytes is None else f": {self.bytes:,} bytes"
        each = f"about {self.state_bytes:,}" if self.measured else f"most {self.state_bytes:,}"
        return (f"{states}{frontier} at {each} bytes each{total}, within the budget of "
                f"{self.budget:,} ({self.fits:,} states fit)")


def _frontier(length, branching) -> int | None:
    if length is None or branching is None:
        return None
    return max(0, length) * max(1, branching)


def estimate_solve(game, *states, limit: int | None = STATE_LIMIT, memory: int | None = None,
                   sample: int = 32) -> SolveEstimate:
    """What an exact solution from ``states`` (default: the start) would hold: a ``SolveEstimate``.

    The states and the frontier come from the game's ``size_hint``; the bytes of a
    state are measured on a sample of the game's own states (``state_bytes``), plus
    what a state grows by per move (``state_growth``) times the longest line (a
    state that keeps its history costs most at the bottom of the walk, where a
    depth-first walk goes first), unless the hint already shows that even 64 KB a
    state would fit. ``memory``: the budget in bytes (default ``memory_budget()``).
    Checks nothing: ``check_solve`` refuses.

    >>> from fnmcts.games import Nim
    >>> estimate = estimate_solve(Nim(heap=21), Nim(heap=21).start())
    >>> estimate.states, estimate.frontier, estimate.bytes < 10**7
    (44, 63, True)
    """
    roots = states or (game.start(),)
    budget = memory_budget() if memory is None else int(memory)
    hints = [size_hint(game, state) for state in roots]
    counts = [h[0] for h in hints]
    total = None if any(c is None for c in counts) else sum(counts)
    frontiers = [_frontier(h[1], h[2]) for h in hints]
    frontier = None if any(f is None for f in frontiers) else max(frontiers, default=0)
    bound = 65_536 + SOLVER_STATE_BYTES
    if total is not None and (total + (frontier or 0)) * bound <= budget:  # fits even at the bound: no need to measure
        return SolveEstimate(states=total, frontier=frontier, state_bytes=bound, budget=budget, limit=limit,
                             measured=False)
    per_state = held_bytes(game, *roots, sample=sample)
    return SolveEstimate(states=total, frontier=frontier, state_bytes=per_state, budget=budget, limit=limit)


def held_bytes(game, *states, sample: int = 32) -> int:
    """The bytes a walk from ``states`` (default: the start) spends on each state it holds, at its deepest.

    A state as ``state_bytes`` measures it, plus ``SOLVER_STATE_BYTES``, plus
    what a state grows by per move (``state_growth``) times the longest line
    (the game's ``size_hint``, else twice the longest of a few seeded random
    games, ``UNKNOWN_LENGTH`` at most): a state that keeps its history costs
    most at the bottom of the walk, where a depth-first walk goes first. A
    board kept as a frozenset of its pieces grows too, but only for as long as
    the game lasts: a 2x2 Dots and Boxes is charged its 12 moves, not 1,000.

    >>> from fnmcts.games import Nim
    >>> held_bytes(Nim(heap=21)) - SOLVER_STATE_BYTES == state_bytes(Nim(heap=21), Nim(heap=21).start())
    True
    """
    roots = states or (game.start(),)
    per_state = state_bytes(game, *roots, sample=sample) + SOLVER_STATE_BYTES
    growth = state_growth(game, roots[0])
    if growth:
        lengths = [size_hint(game, root)[1] for root in roots]
        deepest = max(lengths) if all(n is not None for n in lengths) else _played_length(game, roots)
        per_state += int(growth * deepest)
    return per_state


def _played_length(game, roots, games: int = 16) -> int:
    """Twice the longest of ``games`` seeded random games from each root, or ``UNKNOWN_LENGTH`` when one is longer.

    >>> from fnmcts.games import Nim
    >>> _played_length(Nim(heap=5, max_take=1), (Nim(heap=5, max_take=1).start(),))
    10
    """
    return min(UNKNOWN_LENGTH, 2 * random_lines(game, roots, games, UNKNOWN_LENGTH)[1])


def random_lines(game, roots, games: int, most: int) -> tuple:
    """``(decisions, plies)``: the most decisions and the most plies (decisions and chance outcomes) among
    ``games`` random games from each of ``roots``, a game cut when it passes ``most`` plies.

    One generator of its own, ``random.Random(0)``, for all the games: moves
    drawn uniformly (``fnmcts.rng.pick``), chance outcomes by the game's own
    draw (``fnmcts.protocol.sample_outcome``), so a game gets the same answer
    every time. An estimate of a game's length for the memory checks
    (``held_bytes`` here, a trace's bytes in ``fnmcts.views``), not a measure.

    >>> from fnmcts.games import Nim, ShutTheBox
    >>> random_lines(Nim(heap=5, max_take=1), (Nim(heap=5, max_take=1).start(),), 4, 100)
    (5, 5)
    >>> decisions, plies = random_lines(ShutTheBox(), (ShutTheBox().start(),), 8, 100)
    >>> 1 <= decisions < plies <= 2 * decisions + 1
    True
    """
    import random

    from .protocol import CHANCE, sample_outcome

    rng, tables, most_decisions, most_plies = random.Random(0), {}, 0, 0
    for root in roots:
        for _ in range(games):
            state, decisions, plies = root, 0, 0
            while plies <= most:
                player = game.to_move(state)
                if player is None:
                    break
                if player is CHANCE:
                    move = sample_outcome(game, state, rng, tables)
                else:
                    choices = game.possible_moves(state)
                    if not choices:
                        break
                    move, decisions = pick(rng, choices), decisions + 1
                state, plies = game.play(state, move), plies + 1
            most_decisions, most_plies = max(most_decisions, decisions), max(most_plies, plies)
    return most_decisions, most_plies


def check_solve(game, *states, limit: int | None = STATE_LIMIT, memory: int | None = None,
                fits: str | None = None) -> SolveEstimate:
    """``estimate_solve``, refused up front (``TooLarge``) when the states pass ``limit`` or the bytes the budget.

    The message is one sentence naming what would fit. A solution of unknown size
    is refused only when its walk's frontier alone passes the budget; its walk then
    stops at the estimate's ``cap`` states (the solver's own check), so it never
    holds more than the memory announced here. ``fits`` says what would fit in the
    game's terms, else the game's ``size_fits(limit)`` hook does when it has one.

    >>> from fnmcts.games import Nim
    >>> check_solve(Nim(heap=21), Nim(heap=21).start()).states
    44
    >>> check_solve(Nim(heap=21), Nim(heap=21).start(), memory=20_000)
    Traceback (most recent call last):
    ...
    fnmcts.limits.TooLarge: the exact solution from this state would hold up to 44 states and a frontier of 63 at about ... bytes each, ... bytes; the memory budget of 20,000 bytes holds about ... states; memory= (bytes) sets another budget
    """
    check_states(game, *(states or (game.start(),)), limit=limit, fits=fits)
    estimate = estimate_solve(game, *states, limit=limit, memory=memory)
    where = "this state" if len(states) <= 1 else f"these {len(states)} states"
    if estimate.bytes is not None and estimate.bytes > estimate.budget:
        raise TooLarge(f"the exact solution from {where} would hold up to {estimate.states:,} states"
                       f"{' and a frontier of ' + format(estimate.frontier, ',') if estimate.frontier else ''} at about "
                       f"{estimate.state_bytes:,} bytes each, {estimate.bytes:,} bytes; the memory budget of "
                       f"{estimate.budget:,} bytes holds about {estimate.fits:,} states; memory= (bytes) sets another "
                       f"budget")
    if estimate.bytes is None and estimate.cap <= 0:
        raise TooLarge(f"the exact solution from {where} would hold an unknown number of states, and its walk alone "
                       f"up to {estimate.frontier:,} at once (the longest line times the widest choice) at about "
                       f"{estimate.state_bytes:,} bytes each; the memory budget of {estimate.budget:,} bytes holds "
                       f"about {estimate.fits:,} states; memory= (bytes) sets another budget")
    return estimate


JSON_BYTES = 30
"""Bytes of memory a table read from a JSON file holds per byte of the file while it is read and checked
(measured: a Q table of 351,384 entries, 10.9 MB of JSON, held 288 MB at its peak)."""


def check_file_memory(path, what: str = "file", memory: int | None = None, per_byte: int = JSON_BYTES) -> int:
    """The bytes reading the JSON file ``path`` would hold, or ``TooLarge`` when they pass ``memory`` (default ``memory_budget()``).

    Checked before a byte is read: a Q table of hundreds of megabytes ends in one
    sentence, not a ``MemoryError``.

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     table = pathlib.Path(tmp) / "q.json"
    ...     _ = table.write_text("[" + "0," * 50_000 + "0]")
    ...     check_file_memory(table, "Q table", memory=10**6)
    Traceback (most recent call last):
    ...
    fnmcts.limits.TooLarge: reading the Q table .../q.json (100,003 bytes) would hold about 3,000,090 bytes while it is read, beyond the memory budget of 1,000,000 bytes; memory= (bytes) sets another budget
    """
    try:
        size = os.stat(path).st_size
    except OSError:
        return 0  # a file that cannot be read: the reader says why
    held = size * per_byte
    budget = memory_budget() if memory is None else memory
    if held > budget:
        raise TooLarge(f"reading the {what} {path} ({size:,} bytes) would hold about {held:,} bytes while it is read, "
                       f"beyond the memory budget of {budget:,} bytes; memory= (bytes) sets another budget")
    return held


def memory_refusal(game, held: int, estimate: SolveEstimate) -> TooLarge:
    """The ``TooLarge`` a walk raises when it holds ``held`` states, past its cap or past its memory budget.

    Below the cap it is the memory budget as the process measures it (a ``MemoryWatch``)
    that was passed.

    >>> estimate = SolveEstimate(states=None, frontier=None, state_bytes=1000, budget=10**6, limit=100)
    >>> print(memory_refusal("G", 101, estimate))
    the exact solution of 'G' holds more than 100 states, the limit; limit=None goes on regardless
    >>> print(memory_refusal("G", 50, estimate))
    the exact solution of 'G' passed its memory budget of 1,000,000 bytes at 50 states (about 20,000 bytes a state, where its sample showed 1,000); memory= (bytes) sets another budget
    """
    if held >= estimate.cap:
        if estimate.limit is not None and estimate.cap >= estimate.limit:
            return TooLarge(f"the exact solution of {game_text(game)} holds more than {estimate.limit:,} states, the limit{GO_ON}")
        return TooLarge(f"the exact solution of {game_text(game)} holds more than {estimate.cap:,} states, which at about "
                        f"{estimate.state_bytes:,} bytes each is what the memory budget of {estimate.budget:,} bytes "
                        f"holds beside its walk; memory= (bytes) sets another budget")
    return TooLarge(f"the exact solution of {game_text(game)} passed its memory budget of {estimate.budget:,} bytes at "
                    f"{held:,} states (about {estimate.budget // max(1, held):,} bytes a state, where its sample showed "
                    f"{estimate.state_bytes:,}); memory= (bytes) sets another budget")
