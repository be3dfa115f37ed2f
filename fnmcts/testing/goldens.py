"""Goldens: published numbers a game's rules must give, shipped as data, and the checks that compare a game with them.

``goldens.json`` (beside this module) holds counts and Grundy values, each with
its source: tic-tac-toe's 5,478 positions and 549,946 histories (OpenSpiel's
tests), Connect Four's positions after n plies (OEIS A212693, through the OpenSpiel adapter), chess's perft
numbers, Kayles's Grundy values (OEIS A002186), and the built-in Nim games'
counts from closed forms. ``check_count(entry)`` counts the game an entry
names (``fnmcts.testing.counts.count``) and lists every difference;
``check_grundy(entry)`` does the same for Grundy values (``fnmcts.grundy``).

>>> entry = golden("tic-tac-toe")
>>> entry["states"], entry["histories"]
(5478, 549946)
>>> check_count(entry, depth=4)  # the first plies only: no difference
()
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Mapping
from importlib import resources

from pyrsistent import freeze, thaw

from ..protocol import game_text

__all__ = ["goldens", "golden", "game_of", "check_count", "check_grundy", "POSITION_KEYS", "record_golden",
           "golden_gaps", "GoldenWarning", "WHO_MOVES_FIELDS"]

WHO_MOVES_FIELDS = ("to_move_by_ply", "chance_by_ply")
"""The fields that pin who moves: per ply, the states each player is to move at, and the chance nodes."""


class GoldenWarning(UserWarning):
    """A golden checked that pins less than it could: recorded before the fields that say who moves.

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     check_count({"name": "old", "game": "nim", "params": {"heap": 2}, "states_by_ply": [1, 2, 1]})
    ()
    >>> caught[0].category.__name__, str(caught[0].message)[:40]
    ('GoldenWarning', "golden 'old' does not pin who moves (no ")
    """


def goldens():
    """The whole goldens file as an immutable value (``counts`` and ``grundy``, each a tuple of entries).

    >>> data = goldens()
    >>> data["format"], sorted(e["name"] for e in data["grundy"])
    ('fnmcts-goldens', ['kayles'])
    """
    text = resources.files(__package__).joinpath("goldens.json").read_text(encoding="utf-8")
    return freeze(json.loads(text))


def golden(name: str):
    """The entry called ``name`` among the counts and the Grundy values, or a ``ValueError`` listing the names.

    >>> golden("kayles")["source"]
    'OEIS A002186 (Sprague-Grundy values for the game of Kayles), n = 0..104'
    """
    data = goldens()
    entries = list(data["counts"]) + list(data["grundy"])
    for entry in entries:
        if entry["name"] == name:
            return entry
    raise ValueError(f"no golden called {name!r}; there are: {', '.join(e['name'] for e in entries)}")


def _rendered(game):
    """States keyed by the game's picture of them (``render``): one position, one picture (OpenSpiel's boards)."""
    from ..protocol import render

    return lambda state: render(game, state)


POSITION_KEYS = {"rendered": _rendered}
"""How an entry's ``key`` tells positions apart: a name -> a function of the game giving ``key(state)``."""


def game_of(entry):
    """The game an entry names: a built-in game with its ``params``, or ``openspiel:NAME``.

    >>> game_of(golden("nim 21, take 1-3, misere"))
    Nim(heap=21, max_take=3, misere=True)
    """
    from ..games import GAMES

    name, params = entry["game"], thaw(entry.get("params", {}))
    if name.startswith("openspiel:"):
        from ..openspiel import from_openspiel

        return from_openspiel(name.removeprefix("openspiel:"), **params)
    params = {k: tuple(v) if isinstance(v, list) else v for k, v in params.items()}
    return GAMES[name](**params)


def _differ(what: str, expected, counted) -> tuple:
    """``(what differs,)`` or ``()``; a mapping is shown in the order of its keys, the same in every process.

    (A golden's mappings are frozen maps, whose order follows the hashes of
    their keys: a string's hash differs from one process to the next.)

    >>> _differ("games_by_outcome", {"b": 2, "a": 1}, {"a": 1, "b": 3})
    ("games_by_outcome: {'a': 1, 'b': 2} expected, {'a': 1, 'b': 3} counted",)
    """
    if expected == counted:
        return ()
    return (f"{what}: {_in_order(expected)!r} expected, {_in_order(counted)!r} counted",)


def _in_order(value):
    """``value``, a mapping's items sorted by their keys' text (any other value as it is)."""
    if isinstance(value, Mapping):
        return dict(sorted(value.items(), key=lambda item: repr(item[0])))
    return value


def check_count(entry, depth: int | None = None, game=None) -> tuple:
    """The differences between ``entry`` and a count of its game (of ``game`` when given): ``()`` when they agree.

    ``depth`` counts only so far (a fast check of the first plies); totals are
    compared only when the count goes as deep as the entry. The count goes no
    deeper than one ply past the entry's last, and counts 2, 4, 8, ... plies
    first, stopping at the first that differs: a game that differs early, or
    never ends, is told in the time its first plies take.

    >>> from fnmcts.games import Nim
    >>> check_count(golden("nim 21, take 1-3, misere"), depth=2, game=Nim(heap=21, max_take=2))  # a slip: 1-2
    ('states_by_ply: [1, 3, 5] expected, [1, 2, 3] counted', 'histories_by_ply: [1, 3, 9] expected, [1, 2, 4] counted', 'to_move_by_ply: [[1, 0], [0, 3], [5, 0]] expected, [[1, 0], [0, 2], [3, 0]] counted')
    """
    game = game_of(entry) if game is None else game
    full = entry.get("depth")
    whole = depth is None or (full is not None and depth >= full)
    target = (full if full is not None else _length(entry)) if whole else depth
    gaps = golden_gaps(entry)
    if gaps:
        warnings.warn(gaps, GoldenWarning, stacklevel=2)
    stage = 2
    while target is not None and stage < target:  # shallow counts first: a game that differs early says so at once
        found = _differences(entry, _count_of(game, entry, stage), False)
        if found:
            return found
        stage *= 2
    found = _differences(entry, _count_of(game, entry, target), whole)
    if whole and "playthrough" in entry:
        found += _replayed(entry, game)
    return found


def _replayed(entry, game) -> tuple:
    """``(the first line the game plays differently from the entry's playthrough,)``, or ``()`` when it plays it all.

    The game is played no further than the recorded game's steps (a mutant
    whose game never ends shows it by the line where the recorded game ends).
    The header's ``game:`` line (the game's ``repr``) is not compared: like
    the counts, the playthrough pins what the game does, not its name.

    >>> from fnmcts.games import Nim
    >>> entry = record_golden(Nim(heap=3), "nim 3")
    >>> _replayed(entry, Nim(heap=3))
    ()
    >>> _replayed(entry, Nim(heap=3, misere=False))  # the same counts, the other player wins
    ('playthrough of seed 0: line 20: the file says "payoff: -1 1", the game gives "payoff: 1 -1"',)
    """
    from ..protocol import GameError
    from .playthroughs import check_playthrough, game_text, playthrough_seed

    lines = list(entry["playthrough"])
    lines[1:2] = [f"game: {game_text(game)}" if line.startswith("game: ") else line for line in lines[1:2]]
    text = "\n".join(lines) + "\n"
    steps = sum(line.startswith("# step ") for line in lines)
    try:
        found = check_playthrough(game, text, max_steps=steps)
    except (AssertionError, GameError) as raised:  # the game raised, or returned what no game may: where
        found = _first(str(raised))
    except ValueError as error:  # not a playthrough: the entry is broken, not the game
        raise ValueError(f"golden {entry.get('name', '(unnamed)')!r}: its playthrough is not one ({error})") from None
    return () if found is None else (f"playthrough of seed {playthrough_seed(text)}: {found}",)


def _first(text: str) -> str:
    return (text.strip().splitlines() or ["the game raised"])[0]


BY_PLY = (("states_by_ply", "states"), ("histories_by_ply", "histories"), ("games_by_ply", "games"),
          ("to_move_by_ply", "movers"), ("chance_by_ply", "chance"))
"""The fields of a golden by ply, and the ``Ply`` attribute each holds."""


def _length(entry) -> int | None:
    """The ply one past an entry's last (to the end: a count that far sees a game going on), None without plies."""
    lengths = [len(entry[field]) for field, _ in BY_PLY if field in entry]
    return max(lengths) if lengths else None


def _count_of(game, entry, depth):
    """The count of ``game`` to ``depth`` as ``entry`` counts (its symmetry and its key)."""
    from .counts import count

    key = entry.get("key")
    return count(game, depth, up_to_symmetry=entry.get("up_to_symmetry", False),
                 key=None if key is None else POSITION_KEYS[key](game))


def _differences(entry, counted, whole: bool) -> tuple:
    """What differs between ``entry`` and ``counted``: by ply (a prefix unless ``whole``), then the totals."""
    plies = len(counted.plies)
    found = ()
    for field, attribute in BY_PLY:
        if field in entry:
            expected = thaw(entry[field])
            if not whole:
                expected = expected[:plies]
            found += _differ(field, expected, [_plain(getattr(ply, attribute)) for ply in counted.plies])
    if whole:
        for field in ("states", "histories", "games", "terminal_states"):
            if field in entry:
                found += _differ(field, entry[field], getattr(counted, field))
        if "games_by_outcome" in entry:
            found += _differ("games_by_outcome", dict(entry["games_by_outcome"]),
                             {o.name: o.games for o in counted.outcomes})
        if "games_by_payoff" in entry:
            found += _differ("games_by_payoff", dict(entry["games_by_payoff"]), _by_payoff(counted))
        if "weighted_games_by_payoff" in entry:
            found += _differ("weighted_games_by_payoff", dict(entry["weighted_games_by_payoff"]),
                             _weighted_by_payoff(counted))
    return found


def _by_payoff(counted) -> dict:
    """``{payoff as text: games}``: the games of a count by their exact payoff (``"1 -1"``), not only who won."""
    return {" ".join(str(x) for x in o.payoff): o.games for o in counted.outcomes}


def _weighted_by_payoff(counted) -> dict:
    """``{payoff as text: weighted games as an exact fraction's text}``: where the chance probabilities lead.

    >>> from fnmcts.games import Pig
    >>> from fnmcts.testing.counts import count
    >>> _weighted_by_payoff(count(Pig(goal=2), 4))
    {'1 -1': '5/6', '-1 1': '5/36'}
    """
    return {" ".join(str(x) for x in o.payoff): str(o.weighted) for o in counted.outcomes}


def _plain(value):
    return list(value) if isinstance(value, tuple) else value


def golden_gaps(entry) -> str:
    """A sentence naming the who-moves fields a golden lacks (recorded before they existed), or ``""``.

    Such a golden still checks what it holds, but a ``to_move`` that names
    the wrong player, or always the same one, passes it; ``check_count`` warns
    with this sentence (a ``GoldenWarning``).

    >>> golden_gaps(golden("tic-tac-toe"))
    ''
    >>> print(golden_gaps({"name": "mine", "states_by_ply": [1, 9]}))
    golden 'mine' does not pin who moves (no to_move_by_ply, chance_by_ply): a to_move that names the wrong player passes it; record it again from a trusted game (fnmcts.testing.record_golden, or fnmcts check --record-golden FILE)
    """
    if not any(field in entry for field in ("states_by_ply", "histories_by_ply", "games_by_ply")):
        return ""  # totals only (or Grundy values): nothing by ply to add to
    missing = [field for field in WHO_MOVES_FIELDS if field not in entry]
    if not missing:
        return ""
    return (f"golden {entry.get('name', '(unnamed)')!r} does not pin who moves (no {', '.join(missing)}): a to_move "
            "that names the wrong player passes it; record it again from a trusted game "
            "(fnmcts.testing.record_golden, or fnmcts check --record-golden FILE)")


def record_golden(game, name: str | None = None, depth: int | None = None, *, source: str = "recorded from a trusted "
                  "run", limit: int | None = None, playthrough_seed: int | None = 0) -> dict:
    """A golden entry from a count of ``game`` you trust: every number ``check_count`` compares, as plain JSON data.

    ``depth``: to that many plies (default: to the end); ``limit``: the
    count's limit on distinct states (``fnmcts.testing.counts.COUNT_LIMIT``
    unless told). The entry pins states, histories and games by ply, who is
    to move (``to_move_by_ply``) and the chance nodes (``chance_by_ply``) by
    ply, and, to the end, the totals and the games by outcome and by exact
    payoff (a payoff of ``(0, -1)`` for a win is a slip). A game with chance
    also pins its probabilities: the games that end within the count by exact
    payoff, each weighted by its chance outcomes' probabilities
    (``weighted_games_by_payoff``, exact fractions as text). Check a game
    against it with ``check_count(entry, game=...)``.

    Counts do not see the states' own values: a game whose ends hold another
    player's number, or another score, one for one, counts the same. So the
    entry also holds one seeded game, state by state (``playthrough``: the
    lines of ``fnmcts.testing.playthrough(game, seed=playthrough_seed)``),
    which ``check_count`` plays again line for line, failing with the first
    line that differs. ``playthrough_seed=None`` records the counts alone
    (the named goldens of ``goldens.json`` hold counts alone: they are the
    game's numbers, shared by every implementation, and an entry without a
    playthrough checks its counts as before).

    >>> from fnmcts.games import Nim
    >>> entry = record_golden(Nim(heap=3, max_take=2), "nim 3")
    >>> entry["to_move_by_ply"], entry["games_by_outcome"]
    ([[1, 0], [0, 2], [1, 0], [0, 0]], {'player 1 wins': 2, 'player 2 wins': 1})
    >>> entry["playthrough"][:3]
    ['fnmcts playthrough', 'game: Nim(heap=3, max_take=2, misere=True)', 'seed: 0']
    >>> check_count(entry, game=Nim(heap=3, max_take=2))
    ()
    >>> "playthrough" in record_golden(Nim(heap=3), playthrough_seed=None)
    False
    """
    from .counts import COUNT_LIMIT, count
    from .playthroughs import playthrough

    if playthrough_seed is not None and (isinstance(playthrough_seed, bool) or not isinstance(playthrough_seed, int)
                                         or playthrough_seed < 0):
        raise ValueError(f"playthrough_seed is a whole number of at least 0 (or None: counts alone), got "
                         f"{playthrough_seed!r}")
    counted = count(game, depth, limit=COUNT_LIMIT if limit is None else limit)
    entry = {"name": name if name is not None else game_text(game), "game": game_text(game), "source": source, "depth": depth,
             "up_to_symmetry": False,
             "states_by_ply": [ply.states for ply in counted.plies],
             "histories_by_ply": [ply.histories for ply in counted.plies],
             "games_by_ply": [ply.games for ply in counted.plies],
             "to_move_by_ply": counted.to_move_by_ply,
             "chance_by_ply": [ply.chance for ply in counted.plies]}
    if depth is None:
        entry |= {"states": counted.states, "histories": counted.histories, "games": counted.games,
                  "terminal_states": counted.terminal_states,
                  "games_by_outcome": {o.name: o.games for o in counted.outcomes},
                  "games_by_payoff": _by_payoff(counted)}
    if any(ply.chance for ply in counted.plies):
        entry["weighted_games_by_payoff"] = _weighted_by_payoff(counted)
    if playthrough_seed is not None:
        entry["playthrough"] = playthrough(game, playthrough_seed).splitlines()
    return entry


def check_grundy(entry, upto: int | None = None, game=None) -> tuple:
    """The differences between an entry's Grundy values and ``fnmcts.grundy``'s: ``()`` when they agree.

    The value for ``n`` is that of the start of the entry's game with its
    parameter ``param`` set to ``n`` (Kayles: a row of ``n`` pins).

    >>> check_grundy(golden("kayles"), upto=20)
    ()
    """
    from ..grundy import grundy_values

    expected = list(entry["values"])[: None if upto is None else upto + 1]
    games = [game_of(entry.set("params", entry["params"].set(entry["param"], n))) for n in range(len(expected))]
    rules = games[-1] if game is None else game
    values = grundy_values(rules, [g.start() for g in games])
    return tuple(f"n = {n}: {e} expected, {v} computed" for n, (e, v) in enumerate(zip(expected, values)) if e != v)
