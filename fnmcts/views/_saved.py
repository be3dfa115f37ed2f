"""Trees and move searches as JSON: the documented, versioned forms that ``fnmcts.io`` writes.

A **tree file** (``"format": "fnmcts-tree"``, ``"version": 1``) is one JSON object::

    {"format": "fnmcts-tree", "version": 1,
     "game": {"name": "shut-the-box", "levers": 9, ...},      # fnmcts.protocol.game_to_json
     "root": <state>,                                          # the state searched from, or null
     "states": [[<state>, <record>], ...],                    # every state of the tree
     "search": {...}}                                          # optional: how to continue the search

States are written in the game's JSON form (``state_to_json``: a Shut the Box
box is ``{"box": [1, 2, 3]}``); a record is an object with ``win`` and
``loss`` (whole numbers) and, when the record has them, ``draw``, ``score``
and ``value`` (numbers) and ``proven`` (the exact payoff tuple, one
``"p/q"`` string per player). A search with an enhancement keeps more in its records, and they are written
too: ``amaf`` (RAVE, ``rave=``: ``[[player, move, n, s], ...]``, a move in
its JSON form, ``n`` the count and ``s`` the sum of rescaled payoffs),
``bounds`` (``bounds=True``: ``[pessimistic, optimistic]``, each one
``"p/q"`` per player) and ``graph`` (``backup='graph'``: ``[own,
[[child, visits, player], ...]]``, the results that ended at the state and
its edges in the order first taken, each with the player who chose it). A
tree read back continues its search draw for draw as the unsaved one would.
``search``, written by ``fnmcts search --save``,
holds the settings, the dives done and the generator's state, so a resumed
search draws exactly what the uninterrupted one would have drawn.

A **move search file** (``"format": "fnmcts-move-search"``) holds a
``MoveSearch``: the tree as above plus ``move`` and ``children`` (moves in
the game's JSON form), ``iterations`` and ``proven`` (``[[state,
[p/q, ...]], ...]``).

Reading checks everything and names the first problem in a ``ValueError``.

>>> from fnmcts.games import GAMES, Nim
>>> from fnmcts.rng import make_rng
>>> from fnmcts.mcts import search
>>> game = Nim(heap=5)
>>> tree = search(game, game.start(), 50, make_rng(1))
>>> data = tree_to_json(game, tree)
>>> data["format"], data["version"], data["root"], len(data["states"]) == len(tree)
('fnmcts-tree', 1, {'heap': 5, 'player': 1}, True)
>>> tree_from_json(data, GAMES) == (game, tree)
True
"""

from __future__ import annotations

import json
import math
from fractions import Fraction

from pyrsistent import pmap

from ..protocol import _from_json, _to_json, check_state, game_from_json, game_text, game_to_json, state_from_json
from ..protocol import state_to_json
from ..mcts._records import make_record
from ..mcts._tree import Tree

__all__ = [
    "TREE_FORMAT",
    "SEARCH_FORMAT",
    "SAVED_VERSION",
    "tree_to_json",
    "tree_from_json",
    "move_search_to_json",
    "move_search_from_json",
    "read_tree_json",
    "rng_state_to_json",
    "rng_state_from_json",
]

TREE_FORMAT = "fnmcts-tree"
SEARCH_FORMAT = "fnmcts-move-search"
SAVED_VERSION = 1
"""The version of both formats this fnmcts writes and reads."""

_COUNTS = ("win", "loss", "draw")
_NUMBERS = ("score", "value")


def _fraction_text(x) -> str:
    x = Fraction(x)
    return f"{x.numerator}/{x.denominator}"


def _record_to_json(game, rec) -> dict:
    out = {}
    for key, value in rec.items():
        if key == "proven":
            out[key] = [_fraction_text(x) for x in value]
        elif key in _COUNTS or key in _NUMBERS:
            out[key] = value
        elif key == "amaf":
            table = [[player, _to_json(move), n, s] for (player, move), (n, s) in value.items()]
            table.sort(key=lambda e: json.dumps(e[:2], sort_keys=True))
            out[key] = table
        elif key == "bounds":
            out[key] = [[_fraction_text(x) for x in side] for side in value]
        elif key == "graph":
            own, edges = value
            out[key] = [own, [[state_to_json(game, child), n, who] for child, n, who in edges]]
        else:
            raise ValueError(f"a record has no key {key!r}")
    return out


_EXTRAS = ("amaf", "bounds", "graph")


def _whole_number(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def _finite(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _fractions(data, players):
    """``players`` fractions from ``"p/q"`` strings, or None when ``data`` is not that."""
    if not isinstance(data, list) or len(data) != players or not all(isinstance(x, str) for x in data):
        return None
    try:
        return tuple(Fraction(x) for x in data)
    except (ValueError, ZeroDivisionError):
        return None


def _amaf_from_json(data, where, players):
    shape = f"{where}: 'amaf' must be a list of [player, move, count, sum] (a whole count > 0, a finite sum)"
    if not isinstance(data, list):
        raise ValueError(f"{shape}, got {data!r}")
    table = {}
    for entry in data:
        if not (isinstance(entry, list) and len(entry) == 4 and _whole_number(entry[0]) and entry[0] < players
                and _whole_number(entry[2]) and entry[2] > 0 and _finite(entry[3])):
            raise ValueError(f"{shape}, got {entry!r}")
        try:
            key = (entry[0], _from_json(entry[1]))
            hash(key)
        except (ValueError, TypeError):
            raise ValueError(f"{where}: 'amaf' holds a move that is not a move's JSON form: {entry[1]!r}") from None
        if key in table:
            raise ValueError(f"{where}: 'amaf' counts player {entry[0]}'s move {entry[1]!r} twice")
        table[key] = (entry[2], entry[3])
    return pmap(table)


def _bounds_from_json(data, where, players):
    sides = [_fractions(side, players) for side in data] if isinstance(data, list) and len(data) == 2 else None
    if sides is None or None in sides or any(lo > hi for lo, hi in zip(*sides)):
        raise ValueError(f"{where}: 'bounds' must be [pessimistic, optimistic], each a list of {players} "
                         f"fractions \"p/q\", the first no greater than the second, got {data!r}")
    return tuple(sides)


def _graph_from_json(game, data, where):
    shape = f"{where}: 'graph' must be [own, [[child, visits, player], ...]] (a finite own, whole visits > 0)"
    if not (isinstance(data, list) and len(data) == 2 and _finite(data[0]) and isinstance(data[1], list)):
        raise ValueError(f"{shape}, got {data!r}")
    edges, seen = [], set()
    for entry in data[1]:
        if not (isinstance(entry, list) and len(entry) == 3 and _whole_number(entry[1]) and entry[1] > 0
                and _whole_number(entry[2])):
            raise ValueError(f"{shape}, got the edge {entry!r}")
        child = _state_from_json(game, entry[0], f"{where}: an edge of 'graph'")
        if child in seen:
            raise ValueError(f"{where}: 'graph' holds the edge to {entry[0]!r} twice")
        seen.add(child)
        edges.append((child, entry[1], entry[2]))
    return (data[0], tuple(edges))


def _record_from_json(data, where, players, game=None):
    if not isinstance(data, dict):
        raise ValueError(f"{where}: a record is an object such as {{\"win\": 1, \"loss\": 2}}, got {data!r}")
    unknown = set(data) - set(_COUNTS) - set(_NUMBERS) - {"proven"} - (set(_EXTRAS) if game is not None else set())
    if unknown:
        raise ValueError(f"{where}: unknown record keys {sorted(unknown)}")
    for key in ("win", "loss"):
        if key not in data:
            raise ValueError(f"{where}: the record lacks {key!r}")
    for key in _COUNTS:
        v = data.get(key, 0)
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise ValueError(f"{where}: {key!r} must be a whole number >= 0, got {v!r}")
    for key in _NUMBERS:
        v = data.get(key)
        if v is not None and not _finite(v):
            raise ValueError(f"{where}: {key!r} must be a finite number, got {v!r}")
    proven = data.get("proven")
    if proven is not None:
        proven = _fractions(proven, players)
        if proven is None:
            raise ValueError(f"{where}: 'proven' must be a list of {players} fractions \"p/q\", got {data['proven']!r}")
    amaf = None if data.get("amaf") is None else _amaf_from_json(data["amaf"], where, players)
    bounds = None if data.get("bounds") is None else _bounds_from_json(data["bounds"], where, players)
    graph = None if data.get("graph") is None else _graph_from_json(game, data["graph"], where)
    return make_record(
        data["win"], data["loss"], data.get("draw", 0), data.get("score"), data.get("value"), proven,
        amaf, bounds, graph
    )


def _state_from_json(game, data, where):
    try:
        return check_state(game, state_from_json(game, data))
    except (ValueError, TypeError, KeyError) as error:
        raise ValueError(f"{where}: not a state of {game_text(game)}: {error}") from None


def rng_state_to_json(state) -> dict:
    """A ``random.Random().getstate()`` as JSON.

    >>> import random
    >>> rng = random.Random(1)
    >>> data = rng_state_to_json(rng.getstate())
    >>> data["version"], len(data["state"]), rng_state_from_json(data) == rng.getstate()
    (3, 625, True)
    """
    version, internal, gauss = state
    return {"version": version, "state": list(internal), "gauss": gauss}


def rng_state_from_json(data):
    """The generator state ``rng_state_to_json`` wrote, checked; a ``ValueError`` names a bad one.

    >>> rng_state_from_json({"version": 3, "state": [1, 2], "gauss": None})
    Traceback (most recent call last):
    ...
    ValueError: the generator state must be 625 whole numbers (the last at most 624)
    """
    import random

    if not isinstance(data, dict) or set(data) != {"version", "state", "gauss"} or data["version"] != 3:
        raise ValueError("the generator state must be {\"version\": 3, \"state\": [...], \"gauss\": null}")
    internal = data["state"]
    if (
        not isinstance(internal, list)
        or len(internal) != 625
        or any(isinstance(x, bool) or not isinstance(x, int) or not 0 <= x < 2**32 for x in internal)
        or internal[-1] > 624
    ):
        raise ValueError("the generator state must be 625 whole numbers (the last at most 624)")
    gauss = data["gauss"]
    if gauss is not None and (isinstance(gauss, bool) or not isinstance(gauss, (int, float))):
        raise ValueError("the generator state's 'gauss' must be a number or null")
    state = (3, tuple(internal), gauss)
    try:
        random.Random().setstate(state)
    except (ValueError, TypeError) as error:
        raise ValueError(f"the generator state is not valid: {error}") from None
    return state


def tree_to_json(game, tree, *, search=None) -> dict:
    """The JSON form of ``tree`` (a tree of ``game``): the documented ``fnmcts-tree`` format.

    ``search`` (a JSON-ready dict) is kept as the file's ``"search"``: how to
    continue the search (``fnmcts search --save``). States are sorted by their
    JSON text, so the same tree always writes the same file.

    >>> from fnmcts.games import ShutTheBox
    >>> from fnmcts.mcts import record
    >>> tree_to_json(ShutTheBox(), Tree({frozenset({9}): record(1, 2)}))["states"]
    [[{'box': [9]}, {'win': 1, 'loss': 2}]]
    """
    tree = tree if isinstance(tree, Tree) else Tree(tree)
    entries = [[state_to_json(game, s), _record_to_json(game, rec)] for s, rec in tree.items()]
    entries.sort(key=lambda e: json.dumps(e[0], sort_keys=True))
    root = tree.root
    data = {
        "format": TREE_FORMAT,
        "version": SAVED_VERSION,
        "game": game_to_json(game),
        "root": None if root is None else state_to_json(game, root),
        "states": entries,
    }
    if search is not None:
        data["search"] = search
    return data


def _check_header(data, expected):
    if not isinstance(data, dict) or data.get("format") != expected:
        raise ValueError(f"not a saved {'tree' if expected == TREE_FORMAT else 'move search'}: "
                         f"expected an object with \"format\": {expected!r}")
    if data.get("version") != SAVED_VERSION:
        raise ValueError(f"unsupported {expected} version {data.get('version')!r} (this fnmcts reads version {SAVED_VERSION})")
    missing = [k for k in ("game", "root", "states") if k not in data]
    if missing:
        raise ValueError(f"the file lacks {', '.join(map(repr, missing))}")


def _tree_of(game, data):
    players = getattr(game, "num_players", 1)
    if not isinstance(data["states"], list):
        raise ValueError(f"'states' must be a list of [state, record], got {type(data['states']).__name__}")
    items = {}
    for index, entry in enumerate(data["states"]):
        where = f"state {index}"
        if not isinstance(entry, list) or len(entry) != 2:
            raise ValueError(f"{where}: an entry is [state, record], got {entry!r}")
        state = _state_from_json(game, entry[0], where)
        if state in items:
            raise ValueError(f"{where}: {entry[0]!r} appears twice")
        items[state] = _record_from_json(entry[1], where, players, game)
    root = None if data["root"] is None else _state_from_json(game, data["root"], "root")
    return Tree(pmap(items)) if root is None else Tree(pmap(items), root)


def read_tree_json(data, games) -> tuple:
    """``(game, tree, search)`` from a tree file's JSON (``search``: its ``"search"`` object or None).

    >>> from fnmcts.games import GAMES, Nim
    >>> read_tree_json({"format": "fnmcts-tree", "version": 1, "game": {"name": "nim", "heap": 3},
    ...                 "root": None, "states": [], "search": {"dives": 5}}, GAMES)
    (Nim(heap=3, max_take=3, misere=True), Tree(0 states), {'dives': 5})
    """
    _check_header(data, TREE_FORMAT)
    game = game_from_json(data["game"], games)
    search = data.get("search")
    if search is not None and not isinstance(search, dict):
        raise ValueError(f"'search' must be an object, got {search!r}")
    return game, _tree_of(game, data), search


def tree_from_json(data, games) -> tuple:
    """``(game, tree)`` from the JSON of a tree file, checked; a ``ValueError`` names the first problem.

    ``games`` maps game names to constructors (``fnmcts.games.GAMES``).

    >>> from fnmcts.games import GAMES
    >>> tree_from_json({"format": "fnmcts-tree", "version": 2}, GAMES)
    Traceback (most recent call last):
    ...
    ValueError: unsupported fnmcts-tree version 2 (this fnmcts reads version 1)
    >>> tree_from_json({"format": "fnmcts-tree", "version": 1, "game": {"name": "nim"}, "root": None,
    ...                 "states": [[{"heap": 5, "player": 1}, {"win": -1, "loss": 0}]]}, GAMES)
    Traceback (most recent call last):
    ...
    ValueError: state 0: 'win' must be a whole number >= 0, got -1
    """
    game, tree, _ = read_tree_json(data, games)
    return game, tree


def _move_to_json(move):
    return _to_json(move)


def _move_from_json(game, state, data, where):
    for move in game.possible_moves(state):
        if _to_json(move) == data:
            return move
    raise ValueError(f"{where}: {data!r} is not a legal move at the root")


def move_search_to_json(game, found) -> dict:
    """The JSON form of a ``MoveSearch`` of ``game`` (the ``fnmcts-move-search`` format).

    >>> from fnmcts.games import GAMES, Nim
    >>> from fnmcts.rng import make_rng
    >>> from fnmcts.mcts import mcts_move
    >>> game = Nim(heap=6)
    >>> found = mcts_move(game, game.start(), 100, make_rng(1))
    >>> data = move_search_to_json(game, found)
    >>> data["move"], data["iterations"], data["proven"][0]
    (1, 16, [{'heap': 0, 'player': 1}, ['1/1', '-1/1']])
    >>> move_search_from_json(data, GAMES) == (game, found)
    True
    """
    data = tree_to_json(game, found.tree)
    proven = [[state_to_json(game, s), [_fraction_text(x) for x in v]] for s, v in found.proven.items()]
    proven.sort(key=lambda e: json.dumps(e[0], sort_keys=True))
    return data | {
        "format": SEARCH_FORMAT,
        "move": _move_to_json(found.move),
        "iterations": found.iterations,
        "children": [[_move_to_json(m), _record_to_json(game, r)] for m, r in found.children],
        "proven": proven,
    }


def move_search_from_json(data, games) -> tuple:
    """``(game, MoveSearch)`` from the JSON of a move search file, checked.

    >>> from fnmcts.games import GAMES
    >>> move_search_from_json({"format": "fnmcts-tree", "version": 1}, GAMES)
    Traceback (most recent call last):
    ...
    ValueError: not a saved move search: expected an object with "format": 'fnmcts-move-search'
    """
    from ..mcts._search import MoveSearch

    _check_header(data, SEARCH_FORMAT)
    game = game_from_json(data["game"], games)
    tree = _tree_of(game, data)
    missing = [k for k in ("move", "iterations", "children", "proven") if k not in data]
    if missing:
        raise ValueError(f"the file lacks {', '.join(map(repr, missing))}")
    root = tree.root
    if root is None or data["root"] is None:
        raise ValueError("a move search has a root state")
    move = _move_from_json(game, root, data["move"], "move")
    iterations = data["iterations"]
    if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 0:
        raise ValueError(f"'iterations' must be a whole number >= 0, got {iterations!r}")
    players = getattr(game, "num_players", 1)
    if not isinstance(data["children"], list):
        raise ValueError("'children' must be a list of [move, record]")
    children = []
    for index, entry in enumerate(data["children"]):
        if not isinstance(entry, list) or len(entry) != 2:
            raise ValueError(f"child {index}: an entry is [move, record], got {entry!r}")
        children.append(
            (_move_from_json(game, root, entry[0], f"child {index}"), _record_from_json(entry[1], f"child {index}", players, game))
        )
    if not isinstance(data["proven"], list):
        raise ValueError("'proven' must be a list of [state, [p/q, ...]]")
    proven = {}
    for index, entry in enumerate(data["proven"]):
        if not isinstance(entry, list) or len(entry) != 2:
            raise ValueError(f"proof {index}: an entry is [state, [p/q, ...]], got {entry!r}")
        state = _state_from_json(game, entry[0], f"proof {index}")
        rec = _record_from_json({"win": 0, "loss": 0, "proven": entry[1]}, f"proof {index}", players)
        proven[state] = rec["proven"]
    return game, MoveSearch(move=move, tree=tree, proven=pmap(proven), iterations=iterations, children=tuple(children))
