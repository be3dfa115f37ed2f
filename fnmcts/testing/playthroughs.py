"""Golden playthroughs: one seeded game written out state by state as text, and a check that replays it.

OpenSpiel keeps a playthrough file per game (``integration_tests/playthroughs``):
every state of one random game with everything the API says about it, so any
change in a game's behaviour shows as a changed line. ``playthrough(game,
seed)`` writes such a text for any game of the protocol: for each state its
JSON form and picture, whose turn it is, the moves (with their descriptions)
or the chance outcomes with their exact probabilities, and at the end the
payoff; between states, the step taken (moves drawn uniformly, chance outcomes
by their probabilities, from ``random.Random(seed)``). ``check_playthrough``
plays the game again from the text's seed and reports the first line that
differs.

>>> from fnmcts.games import Nim
>>> text = playthrough(Nim(heap=3), seed=1)
>>> print(text, end="")
fnmcts playthrough
game: Nim(heap=3, max_take=3, misere=True)
seed: 1
players: 2
payoff range: -1 1
<BLANKLINE>
# state 0
state: {"heap":3,"player":1}
render: There are 3 matchstick(s). Take 1-3.
to move: player 1
moves: 1 2 3
described: take 1 | take 2 | take 3
<BLANKLINE>
# step 1: player 1 plays 1 (take 1)
<BLANKLINE>
# state 1
state: {"heap":2,"player":2}
render: There are 2 matchstick(s). Take 1-2.
to move: player 2
moves: 1 2
described: take 1 | take 2
<BLANKLINE>
# step 2: player 2 plays 2 (take 2)
<BLANKLINE>
# state 2
state: {"heap":0,"player":1}
render: There are no matchsticks left.
to move: nobody (the game is over)
payoff: 1 -1
>>> check_playthrough(Nim(heap=3), text) is None
True
>>> check_playthrough(Nim(heap=3, max_take=2), text)
'line 2: the file says "game: Nim(heap=3, max_take=3, misere=True)", the game gives "game: Nim(heap=3, max_take=2, misere=True)"'
"""

from __future__ import annotations

import json
import random
from fractions import Fraction

from ..protocol import (CHANCE, GameError, _hash_problem, _to_json, describe_move, game_text, payoff_range, render,
                        sample_outcome, valid_child, valid_moves, valid_outcomes, valid_payoff, valid_player)
from ..rng import pick
from ._walk import DEFAULT_MAX_STEPS, game_call

__all__ = ["playthrough", "check_playthrough", "playthrough_seed"]

HEADER = "fnmcts playthrough"
"""The first line of every playthrough text."""


def _canonical(value):
    """``value`` as JSON-ready data in one order whatever the hash seed: sets sorted, maps by key."""
    if isinstance(value, bool) or value is None or isinstance(value, (int, str)):
        return value
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, (frozenset, set)):
        return {"set": sorted((_canonical(v) for v in value), key=lambda v: json.dumps(v, sort_keys=True))}
    if hasattr(value, "items"):
        return {str(k): _canonical(v) for k, v in sorted(value.items(), key=lambda kv: repr(kv[0]))}
    if isinstance(value, (tuple, list)):
        return [_canonical(v) for v in value]
    return repr(value)


def _text(value) -> str:
    """A move, outcome or payoff number as one short token: its canonical JSON (numbers and strings plain)."""
    data = _canonical(value)
    if isinstance(data, (int, str)) and not isinstance(data, bool):
        return str(data)
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def _who(who) -> str:
    return "nobody (the game is over)" if who is None else "chance" if who is CHANCE else f"player {who + 1}"


def _picture(game, state, to_json) -> str:
    """The game's ``render`` of ``state``; a plain class with neither ``render`` nor ``state_to_json``: its JSON form."""
    if getattr(game, "render", None) is None and getattr(game, "state_to_json", None) is None:
        return _text(to_json(state))
    return render(game, state)


def playthrough(game, seed: int, *, max_steps: int = DEFAULT_MAX_STEPS) -> str:
    """The text of one game of ``game`` played at random with ``random.Random(seed)``, state by state.

    Moves are drawn uniformly (one ``rng.random()`` each), chance outcomes by
    the game's ``sample_outcome``; the game is cut after ``max_steps`` steps
    (a line says so). An exception raised by the game's code is a
    ``GameRaised`` naming the call; a hook that returns what the protocol does
    not allow (a state that is not hashable, the same move twice, a payoff
    outside ``payoff_range``...) is the ``fnmcts.protocol.GameError`` that
    ``fnmcts.testing.check`` reports, so no broken game is written down.

    >>> from fnmcts.games import ShutTheBox
    >>> lines = playthrough(ShutTheBox(levers=3), seed=2).splitlines()
    >>> lines[9:14]
    ['to move: chance', 'chance: 2 1/36 | 3 1/18 | 4 1/12 | 5 1/9 | 6 5/36 | 7 1/6 | 8 5/36 | 9 1/9 | 10 1/12 | 11 1/18 | 12 1/36', '', '# step 1: chance gives 11', '']
    """
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"a playthrough's seed is a whole number of at least 0, got {seed!r}")
    rng = random.Random(seed)
    players, (low, high) = getattr(game, "num_players", 1), payoff_range(game)
    lines = [HEADER, f"game: {game_text(game)}", f"seed: {seed}", f"players: {players}",
             f"payoff range: {_text(low)} {_text(high)}", ""]
    state = game_call("start", game.start)
    problem = _hash_problem(state)
    if problem is not None:  # as ``fnmcts.protocol.checked_start`` says it
        raise GameError("start", problem + ": a state is an immutable value (a tuple, a frozenset, a pmap...)")
    to_json = getattr(game, "state_to_json", None) or _to_json  # a plain class without it: the protocol's default
    for step in range(max_steps + 1):
        who = valid_player(game, state, game_call("to_move", game.to_move, state), players)
        lines += [f"# state {step}", f"state: {_text(game_call('state_to_json', to_json, state))}"]
        picture = game_call("render", _picture, game, state, to_json).splitlines() or [""]
        lines += [f"render: {picture[0]}"] + [f"        {line}" for line in picture[1:]]
        lines.append(f"to move: {_who(who)}")
        if who is None:
            pay = valid_payoff(game, state, game_call("payoff at the end", game.payoff, state), players, low, high)
            lines.append("payoff: " + " ".join(_text(x) for x in pay))
            return "\n".join(lines) + "\n"
        if who is CHANCE:
            outcomes = valid_outcomes(game, state, game_call("chance_outcomes", game.chance_outcomes, state))
            lines.append("chance: " + " | ".join(f"{_text(o)} {Fraction(p)}" for o, p in outcomes))
        else:
            moves = valid_moves(game, state, game_call("possible_moves", game.possible_moves, state), who)
            lines.append("moves: " + " ".join(_text(m) for m in moves))
            lines.append("described: " + " | ".join(game_call("describe_move", describe_move, game, state, m)
                                                   for m in moves))
        lines.append("")
        if step == max_steps:
            lines.append(f"# cut after {max_steps} steps")
            return "\n".join(lines) + "\n"
        if who is CHANCE:
            chosen = game_call("sample_outcome", sample_outcome, game, state, rng)
            lines.append(f"# step {step + 1}: chance gives {_text(chosen)}")
        else:
            chosen = pick(rng, moves)
            text = game_call("describe_move", describe_move, game, state, chosen)
            lines.append(f"# step {step + 1}: {_who(who)} plays {_text(chosen)} ({text})")
        lines.append("")
        state = valid_child(game, state, chosen, game_call(f"play with {chosen!r}", game.play, state, chosen))
    raise AssertionError("unreachable: the loop returns at the end or at the cut")  # pragma: no cover


def playthrough_seed(text: str) -> int:
    """The seed a playthrough text was played with, read from its header; a ``ValueError`` for another text.

    >>> playthrough_seed("fnmcts playthrough\\ngame: Nim()\\nseed: 7\\n")
    7
    """
    lines = text.splitlines()
    if not lines or lines[0] != HEADER:
        raise ValueError(f"not an fnmcts playthrough (its first line is not {HEADER!r})")
    for line in lines[1:6]:
        if line.startswith("seed: "):
            try:
                return int(line.removeprefix("seed: "))
            except ValueError:
                break
    raise ValueError("the playthrough's header has no 'seed: N' line")


def check_playthrough(game, text: str, *, max_steps: int = DEFAULT_MAX_STEPS) -> str | None:
    """The first difference between ``text`` and ``game`` played again with the text's seed, or None.

    The difference names the line (from 1) and both versions of it, or the
    line one text has and the other lacks.

    >>> from fnmcts.games import TicTacToe
    >>> text = playthrough(TicTacToe(), seed=3)
    >>> check_playthrough(TicTacToe(), text) is None
    True
    >>> check_playthrough(TicTacToe(), text.replace("to move: player 2", "to move: player 1", 1))
    'line 23: the file says "to move: player 1", the game gives "to move: player 2"'
    """
    seed = playthrough_seed(text)
    cut = _cut_at(text)
    again = playthrough(game, seed, max_steps=max_steps if cut is None else cut).splitlines()
    written = text.splitlines()
    for number, (old, new) in enumerate(zip(written, again), 1):
        if old != new:
            return f"line {number}: the file says {old!r}, the game gives {new!r}".replace("'", '"')
    if len(written) != len(again):
        longer, which = (written, "the file") if len(written) > len(again) else (again, "the game")
        number = min(len(written), len(again)) + 1
        return f"line {number}: only {which} has {longer[number - 1]!r}".replace("'", '"')
    return None


def _cut_at(text: str) -> int | None:
    """The step count of a text cut by ``max_steps`` (its '# cut after N steps' line), else None."""
    for line in reversed(text.splitlines()):
        if line.startswith("# cut after ") and line.endswith(" steps"):
            try:
                return int(line.removeprefix("# cut after ").removesuffix(" steps"))
            except ValueError:
                return None
    return None
