"""Differential testing: play two implementations of a game in lockstep and report the shortest line where they differ.

``find_difference(game_a, game_b, translate=...)`` walks both games from their
starts, one step at a time, the same step in each (``translate`` turns a move
or chance outcome of ``a`` into ``b``'s), and at every pair of states compares
what the protocol says: whose turn it is, the moves as sets, the chance
outcomes and their probabilities, the end and its payoffs. It walks every line
to a ``depth`` breadth-first (shortest lines first, the earliest moves first),
then hypothesis walks to the end of the game, favouring long ones (walks that
avoid ending the game where they can, so the rules of full boards and last
moves are reached); a difference found by a walk is searched again
breadth-first for a shorter line within a budget. The result is a
``Difference``: the moves from the start, both states, and what differs
(the moves only in ``a``, only in ``b``). ``check_against`` raises it as an
``AssertionError``, the way pgx checks its chess against python-chess.

>>> from fnmcts.games import Nim
>>> find_difference(Nim(heap=9), Nim(heap=9)) is None
True
>>> found = find_difference(Nim(heap=9, max_take=3), Nim(heap=9, max_take=2))
>>> found.path, found.what, found.only_in_a, found.only_in_b
((), 'moves', (3,), ())
"""

from __future__ import annotations

import math
import numbers
from collections import deque
from typing import Any, Callable, NamedTuple

from hypothesis import HealthCheck, Phase, given, settings, target
from hypothesis import seed as _hypothesis_seed
from hypothesis import strategies as st

from ..protocol import CHANCE
from ._walk import DEFAULT_MAX_STEPS, GameRaised, game_call, short

__all__ = ["Difference", "find_difference", "check_against", "describe_difference"]


class Difference(NamedTuple):
    """Where two games part: the steps (of game ``a``) from the start, both states, what differs and how.

    ``what`` is ``"to_move"``, ``"moves"``, ``"chance"``, ``"payoff"`` or
    ``"raised"`` (one game failed where the other did not); ``only_in_a`` and
    ``only_in_b`` list the moves or outcomes one game has and the other has not
    (each in its own game's terms); ``a`` and ``b`` say what each game has.

    >>> from fnmcts.games import Nim
    >>> d = find_difference(Nim(heap=4, max_take=3), Nim(heap=4, max_take=2))
    >>> d.a, d.b
    ('moves (1, 2, 3)', 'moves (1, 2)')
    """

    path: tuple
    state_a: Any
    state_b: Any
    what: str
    only_in_a: tuple
    only_in_b: tuple
    a: str
    b: str


def describe_difference(game_a, game_b, difference: Difference) -> str:
    """A report of ``difference`` for a person: the games, the line, the states and what differs.

    >>> from fnmcts.games import Nim
    >>> print(describe_difference(Nim(heap=2), Nim(heap=3), find_difference(Nim(heap=2), Nim(heap=3))))
    Nim(heap=2, max_take=3, misere=True) and Nim(heap=3, max_take=3, misere=True) differ in their moves
      at the start
      state in a: pmap({'heap': 2, 'player': 0})
      state in b: pmap({'heap': 3, 'player': 0})
      a: moves (1, 2)
      b: moves (1, 2, 3)
      only in b: (3,)
    """
    d = difference
    where = f"after {len(d.path)} steps: {d.path!r}" if d.path else "at the start"
    lines = [f"{game_a!r} and {game_b!r} differ in {_WHAT[d.what]}", f"  {where}",
             f"  state in a: {_sorted_repr(d.state_a)}", f"  state in b: {_sorted_repr(d.state_b)}",
             f"  a: {d.a}", f"  b: {d.b}"]
    if d.only_in_a:
        lines.append(f"  only in a: {d.only_in_a!r}")
    if d.only_in_b:
        lines.append(f"  only in b: {d.only_in_b!r}")
    return "\n".join(lines)


_WHAT = {"to_move": "whose turn it is", "moves": "their moves", "chance": "their chance outcomes",
         "payoff": "their payoffs", "raised": "what their code does (one raised)"}


def _sorted_repr(state) -> str:
    """A state's repr, a pmap's keys in order (so a report reads the same every run)."""
    from pyrsistent import PMap

    if isinstance(state, PMap):
        return "pmap({" + ", ".join(f"{k!r}: {state[k]!r}" for k in sorted(state, key=repr)) + "})"
    return repr(state)


# -- comparing two states ----------------------------------------------------------------


def _same_number(x, y) -> bool:
    if isinstance(x, numbers.Rational) and isinstance(y, numbers.Rational):
        return x == y
    try:
        return math.isclose(float(x), float(y), rel_tol=1e-9, abs_tol=1e-12)
    except (TypeError, ValueError):
        return x == y


def _who(who) -> str:
    return "nobody (the game is over)" if who is None else "chance" if who is CHANCE else f"player {who + 1}"


def _steps(game, state, who) -> tuple:
    """``((step, probability), ...)`` at ``state``: the chance outcomes, or the moves with probability 1."""
    if who is CHANCE:
        return tuple(game_call("chance_outcomes", game.chance_outcomes, state))
    if who is None:
        return ()
    return tuple((m, 1) for m in game_call("possible_moves", game.possible_moves, state))


def _compare(game_a, game_b, translate, path, sa, sb):
    """``(difference or None, the steps of a to go on with)`` at the pair ``(sa, sb)``."""

    def differ(what, only_a=(), only_b=(), a="", b=""):
        return Difference(path, sa, sb, what, tuple(only_a), tuple(only_b), a, b)

    who_a, steps_a, pay_a, raised_a = _asked(game_a, sa)
    who_b, steps_b, pay_b, raised_b = _asked(game_b, sb)
    if raised_a or raised_b:
        return differ("raised", a=raised_a or "no exception", b=raised_b or "no exception"), ()
    if who_a != who_b or (who_a is CHANCE) != (who_b is CHANCE):
        return differ("to_move", a=_who(who_a), b=_who(who_b)), ()
    if who_a is None:
        if len(pay_a) != len(pay_b) or not all(_same_number(x, y) for x, y in zip(pay_a, pay_b)):
            return differ("payoff", a=f"payoff {pay_a!r}", b=f"payoff {pay_b!r}"), ()
        return None, ()
    mapped = _translated(game_a, translate, steps_a)
    found = _steps_differ(who_a, mapped, steps_a, steps_b)
    if found is not None:
        return differ(*found), ()
    return None, tuple((step, t) for t, step, _ in mapped)


def _asked(game, state) -> tuple:
    """``(who moves, steps, payoff at the end or None, error text or None)``: what ``game`` says at ``state``."""
    try:
        who = game_call("to_move", game.to_move, state)
        steps = _steps(game, state, who)
        pay = tuple(game_call("payoff at the end", game.payoff, state)) if who is None else None
        return who, steps, pay, None
    except GameRaised as error:
        return None, (), None, str(error)


def _translated(game_a, translate, steps_a) -> list:
    """``[(translated step, step, probability), ...]``: the steps of ``game_a`` in the other game's terms."""
    try:
        return [(translate(step), step, p) for step, p in steps_a]
    except Exception as error:
        raise ValueError(f"translate raised {type(error).__name__} on a step of {game_a!r}: {error}") from error


def _steps_differ(who, mapped, steps_a, steps_b):
    """``(what, only in a, only in b, a's text, b's text)`` when two games' steps at a pair disagree, else None."""
    in_b = dict(steps_b)
    only_a = tuple(step for t, step, _ in mapped if t not in in_b)
    translated = {t for t, _, _ in mapped}
    only_b = tuple(step for step, _ in steps_b if step not in translated)
    kind = "chance" if who is CHANCE else "moves"
    shown_a = tuple(s for s, _ in steps_a) if who is not CHANCE else tuple(steps_a)
    shown_b = tuple(s for s, _ in steps_b) if who is not CHANCE else tuple(steps_b)
    if only_a or only_b:
        return kind, only_a, only_b, f"{kind} {short(shown_a)}", f"{kind} {short(shown_b)}"
    if who is CHANCE:
        odd = [(step, p, in_b[t]) for t, step, p in mapped if not _same_number(p, in_b[t])]
        if odd:
            return ("chance", tuple((s, p) for s, p, _ in odd), tuple((s, q) for s, _, q in odd),
                    f"chance {short(shown_a)}", f"chance {short(shown_b)}")
    return None


def _play_both(game_a, game_b, sa, sb, step, t):
    """The next pair of states, or a ``Difference``-making error text when one game raises."""
    errors = []
    children = []
    for game, state, move in ((game_a, sa, step), (game_b, sb, t)):
        try:
            children.append(game_call(f"play with {move!r}", game.play, state, move))
        except GameRaised as error:
            children.append(None)
            errors.append(str(error))
        else:
            errors.append(None)
    return children, errors


# -- walking both ------------------------------------------------------------------------


def _breadth_first(game_a, game_b, translate, depth: int, budget: int | None):
    """``(the first Difference breadth-first within depth, or None; complete)`` over pairs of states."""
    start = (game_call("start", game_a.start), game_call("start", game_b.start))
    queue, seen, visited = deque([((), start[0], start[1])]), set(), 0
    try:
        seen.add(start)
    except TypeError:
        seen = None
    while queue:
        path, sa, sb = queue.popleft()
        visited += 1
        if budget is not None and visited > budget:
            return None, False
        found, steps = _compare(game_a, game_b, translate, path, sa, sb)
        if found is not None:
            return found, True
        if len(path) >= depth:
            continue
        for step, t in steps:
            (ca, cb), errors = _play_both(game_a, game_b, sa, sb, step, t)
            if any(errors):
                return Difference(path + (step,), sa, sb, "raised", (), (), errors[0] or "no exception",
                                  errors[1] or "no exception"), True
            if seen is not None:
                try:
                    if (ca, cb) in seen:
                        continue
                    seen.add((ca, cb))
                except TypeError:
                    seen = None
            queue.append((path + (step,), ca, cb))
    return None, True


def _walk(game_a, game_b, translate, choose, long: bool, max_steps: int):
    """One lockstep walk; ``choose(n)`` picks a step index; a Difference or None, and the steps taken."""
    path = ()
    sa, sb = game_call("start", game_a.start), game_call("start", game_b.start)
    for _ in range(max_steps + 1):
        found, steps = _compare(game_a, game_b, translate, path, sa, sb)
        if found is not None or not steps or len(path) >= max_steps:
            return found, path
        options = steps
        if long and len(steps) > 1:  # steps that do not end the game first, where there are any
            going_on = [(s, t) for s, t in steps if not _ends(game_a, sa, s)]
            options = going_on or steps
        step, t = options[choose(len(options))]
        (ca, cb), errors = _play_both(game_a, game_b, sa, sb, step, t)
        if any(errors):
            return Difference(path + (step,), sa, sb, "raised", (), (), errors[0] or "no exception",
                              errors[1] or "no exception"), path
        path, sa, sb = path + (step,), ca, cb
    return None, path


def _ends(game, state, step) -> bool:
    """True when ``step`` at ``state`` ends the game (or fails: a walk avoids it)."""
    try:
        return game.to_move(game.play(state, step)) is None
    except Exception:
        return True


def find_difference(
    game_a,
    game_b,
    translate: Callable[[Any], Any] | None = None,
    *,
    depth: int = 4,
    max_examples: int = 200,
    max_steps: int = DEFAULT_MAX_STEPS,
    seed: int = 0,
    shrink_budget: int = 2_000,
) -> Difference | None:
    """The shortest line found where ``game_a`` and ``game_b`` differ, as a ``Difference``; None if none is found.

    - ``translate``: a move or chance outcome of ``a`` as ``b`` knows it
      (default: the same value);
    - ``depth``: every line of at most this many steps is compared,
      breadth-first (the shortest difference first);
    - ``max_examples``: hypothesis walks beyond, each to the end of the game
      or ``max_steps``, half of them avoiding the end where they can;
    - ``shrink_budget``: the pairs of states a breadth-first search for a
      shorter line than a walk's visits; ``seed`` makes the walks reproducible.

    >>> from fnmcts.games import Nim
    >>> find_difference(Nim(heap=5), Nim(heap=5, misere=False), depth=1).what  # deep: found by a walk
    'payoff'
    """
    translate = (lambda step: step) if translate is None else translate
    found, _ = _breadth_first(game_a, game_b, translate, depth, None)
    if found is not None or max_examples == 0:
        return found
    walked = []

    @settings(max_examples=max_examples, deadline=None, database=None, derandomize=False,
              suppress_health_check=list(HealthCheck), report_multiple_bugs=False,
              phases=(Phase.explicit, Phase.reuse, Phase.generate, Phase.target))
    @_hypothesis_seed(seed)
    @given(data=st.data(), long=st.booleans())
    def run(data, long):
        def choose(n):
            return data.draw(st.integers(min_value=0, max_value=n - 1)) if n > 1 else 0

        difference, path = _walk(game_a, game_b, translate, choose, long, max_steps)
        target(float(len(path)), label="steps walked")
        if difference is not None:
            walked.append(difference)
            raise _Differs()

    try:
        run()
    except _Differs:
        pass
    if not walked:
        return None
    found = walked[-1]
    shorter, _ = _breadth_first(game_a, game_b, translate, len(found.path), shrink_budget)
    return shorter if shorter is not None else found


class _Differs(AssertionError):
    """Raised inside the hypothesis run when a walk finds a difference."""


def check_against(game_a, game_b, translate=None, **options) -> None:
    """Raise an ``AssertionError`` reporting the shortest line where ``game_a`` and ``game_b`` differ; else None.

    Takes the options of ``find_difference``.

    >>> from fnmcts.games import Nim
    >>> check_against(Nim(heap=6), Nim(heap=6))
    >>> check_against(Nim(heap=6), Nim(heap=6, max_take=2))
    Traceback (most recent call last):
    ...
    AssertionError: Nim(heap=6, max_take=3, misere=True) and Nim(heap=6, max_take=2, misere=True) differ in their moves
      at the start
      ...
      only in a: (3,)
    """
    found = find_difference(game_a, game_b, translate, **options)
    if found is not None:
        raise AssertionError(describe_difference(game_a, game_b, found))
