"""Files: Q tables, search trees and move searches saved and read back, atomically, as versioned JSON (the I/O edge).

The algorithms never touch a file: ``fnmcts.qlearning`` turns an AI into JSON
text and back (``ai_to_text``, ``ai_from_json``); this module writes that text
through ``fnmcts.files.write_atomically`` and reads it back with a clear error
naming the file.

>>> import tempfile, pathlib
>>> from fnmcts.games import GAMES, Nim
>>> from fnmcts.qlearning import train
>>> with tempfile.TemporaryDirectory() as tmp:
...     ai = train(50, seed=1, game=Nim(heap=4))
...     load_ai(save_ai(ai, pathlib.Path(tmp) / "q.json"), GAMES) == ai
True
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path

from .exact import check_game
from .files import read_file, write_atomically
from .limits import check_file_memory
from .views._saved import move_search_from_json, move_search_to_json, read_tree_json, tree_to_json
from .qlearning import QAI, ai_from_json, ai_to_text

__all__ = ["save_ai", "load_ai", "save_tree", "load_tree", "save_search", "load_search", "read_json", "load_tree_and_search"]


def _registry(games):
    """``games``, or the built-in games by name (``fnmcts.games.GAMES``) when None."""
    if games is None:
        from .games import GAMES

        return GAMES
    if not isinstance(games, Mapping):
        raise TypeError(f"games maps game names to their constructors (games={{'nim': Nim}}), got {games!r:.60}")
    return games


def _kind(value) -> str | None:
    """What ``value`` looks like among these functions' arguments: ``"a path"``, ``"a game"``, ... or None."""
    if isinstance(value, (os.PathLike, bytes)) or isinstance(value, str) and (os.sep in value or "." in value):
        return "a path"  # a game's name ('nim', 'openspiel:go') has neither
    if isinstance(value, QAI):
        return "a Q-learning AI"
    if type(value).__name__ == "MoveSearch":
        return "a move search"
    if all(hasattr(value, hook) for hook in ("start", "possible_moves", "play")):
        return "a game"
    return "a tree" if isinstance(value, Mapping) else None


_ROLES = {"game": "a game", "tree": "a tree", "ai": "a Q-learning AI", "found": "a move search", "path": "a path"}


def _in_order(function: str, **given) -> None:
    """Refuse an argument in another's place, naming both: ``save_tree(path, game, tree)`` is a TypeError.

    >>> _in_order("save_tree", game="tree.json", tree={}, path="x")
    Traceback (most recent call last):
    ...
    TypeError: save_tree(game, tree, path): got a path where the game goes ('tree.json')
    >>> _in_order("load_tree", path=5)
    Traceback (most recent call last):
    ...
    TypeError: load_tree(path, ...): path must be a file path (a str or a pathlib.Path), got 5 (int)
    """
    roles = {_ROLES[name] for name in given}
    signature = ", ".join(given) if len(given) > 1 else f"{next(iter(given))}, ..."
    for name, value in given.items():
        kind = _kind(value)
        if kind != _ROLES[name] and (kind in roles or name == "path"):
            if kind is None:
                raise TypeError(f"{function}({signature}): path must be a file path (a str or a pathlib.Path), "
                                f"got {value!r:.60} ({type(value).__name__})")
            place = "the " + _ROLES[name].split(" ", 1)[1]  # "the game", "the move search"
            raise TypeError(f"{function}({signature}): got {kind} where {place} goes ({value!r:.60})")


def save_ai(ai: QAI, path) -> Path:
    """Write ``ai`` to ``path`` as JSON (``ai_to_text``), atomically; returns the path.

    The table is checked first (a ``ValueError`` names an illegal action or a
    value that is not a finite number: ``load_ai`` would reject the file), then
    written with ``fnmcts.files.write_atomically``: a temporary file in the same
    directory, then ``os.replace``; a symbolic link is written through, a
    directory or a device is refused, and on failure the old file is kept.

    >>> import tempfile, pathlib
    >>> from fnmcts.games import GAMES, Nim
    >>> from fnmcts.qlearning import train
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = save_ai(train(50, seed=1, game=Nim(heap=4)), pathlib.Path(tmp) / "q.json")
    ...     load_ai(path, GAMES) == train(50, seed=1, game=Nim(heap=4))
    True
    """
    _in_order("save_ai", ai=ai, path=path)
    if not isinstance(ai, QAI):
        raise TypeError(f"ai must be a QAI (what fnmcts.qlearning.train returns), got {type(ai).__name__}")
    return write_atomically(path, ai_to_text(ai))


def load_ai(path, games=None, *, memory: int | None = None) -> QAI:
    """The AI saved in ``path`` by ``save_ai``, checked; a ``ValueError`` names the file and the problem.

    ``games`` maps the names of games to their constructors (by default
    ``fnmcts.games.GAMES``, the built-in games). A file whose reading would
    hold more than ``memory`` bytes (default ``fnmcts.limits.memory_budget()``;
    ``fnmcts.limits.check_file_memory``) is refused before it is read
    (``TooLarge``), never a ``MemoryError``.

    >>> import tempfile, pathlib
    >>> from fnmcts.games import GAMES
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     bad = pathlib.Path(tmp) / "bad.json"
    ...     _ = bad.write_text('{"format": "fnmcts-q-table", "version": 0}')
    ...     load_ai(bad, GAMES)
    Traceback (most recent call last):
    ...
    ValueError: .../bad.json: unsupported Q table version 0 (this fnmcts reads version 1)
    """
    _in_order("load_ai", path=path)
    registry = _registry(games)
    path = Path(path)
    check_file_memory(path, "Q table", memory)
    raw = read_file(path, "Q table")  # a pipe or a device such as /dev/zero is refused, not read forever
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ValueError(f"{path}: not JSON ({error})") from None
    except RecursionError:
        raise ValueError(f"{path}: not a Q table (JSON nested too deeply to read)") from None
    try:
        return ai_from_json(data, registry)
    except (ValueError, TypeError) as error:
        raise ValueError(f"{path}: {error}") from None
    except RecursionError:
        raise ValueError(f"{path}: not a Q table (JSON nested too deeply to read)") from None
    except OverflowError:  # a whole number such as 10**400 has no float
        raise ValueError(f"{path}: a value in the Q table is too large for a float (at most about 1.8e308)") from None


def _dump(data) -> str:
    try:
        return json.dumps(data, separators=(",", ":"), allow_nan=False) + "\n"
    except (TypeError, ValueError) as error:
        raise ValueError(f"cannot write this as JSON: {error}") from None


def read_json(path):
    """The JSON value in the file ``path``; a ``ValueError`` names the file when it is not JSON.

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     bad = pathlib.Path(tmp) / "tree.json"
    ...     _ = bad.write_text("{not json")
    ...     read_json(bad)
    Traceback (most recent call last):
    ...
    ValueError: .../tree.json: not JSON (Expecting property name enclosed in double quotes: line 1 column 2 (char 1))
    """
    path = Path(path)
    raw = read_file(path)  # a pipe or a device is refused, not waited on or read forever
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as error:
        raise ValueError(f"{path}: not JSON ({error})") from None


def _read_saved(path, games, reader):
    """``reader(data, registry)`` on the JSON in ``path``; any problem it finds is a ``ValueError`` naming the file."""
    registry = _registry(games)  # a game given as games is refused before the file is read
    data = read_json(path)
    try:
        return reader(data, registry)
    except (ValueError, TypeError) as error:
        raise ValueError(f"{path}: {error}") from None


def save_tree(game, tree, path, *, search=None) -> Path:
    """Write ``tree`` (a tree of ``game``) to ``path`` in the ``fnmcts-tree`` JSON format, atomically.

    The format is documented in ``fnmcts.views._saved`` and docs/mcts.md; ``search``
    (a JSON-ready dict) is kept in the file for ``fnmcts search --resume``.
    Written as ``save_ai`` writes: whole or not at all, the old file kept on failure.

    >>> import tempfile, pathlib
    >>> from fnmcts.games import GAMES, ShutTheBox
    >>> from fnmcts.mcts import search
    >>> from fnmcts.rng import make_rng
    >>> game = ShutTheBox()
    >>> tree = search(game, game.start(), 500, make_rng(1))
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     load_tree(save_tree(game, tree, pathlib.Path(tmp) / "tree.json"), GAMES) == (game, tree)
    True
    """
    _in_order("save_tree", game=game, tree=tree, path=path)
    check_game(game)
    if not isinstance(tree, Mapping):
        raise TypeError(f"tree must be a search tree (what fnmcts.mcts.search returns), got {type(tree).__name__}")
    if search is not None and not isinstance(search, Mapping):
        raise TypeError(f"search must be a JSON-ready dict or None, got {type(search).__name__}")
    return write_atomically(path, _dump(tree_to_json(game, tree, search=search)))


def load_tree(path, games=None) -> tuple:
    """``(game, tree)`` saved in ``path`` by ``save_tree``, checked; a ``ValueError`` names the file and the problem.

    ``games`` maps game names to constructors (by default ``fnmcts.games.GAMES``).

    >>> import tempfile, pathlib
    >>> from fnmcts.games import GAMES
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     bad = pathlib.Path(tmp) / "tree.json"
    ...     _ = bad.write_text('{"format": "fnmcts-tree", "version": 1, "game": {"name": "chess"}, "root": null, "states": []}')
    ...     load_tree(bad, GAMES)
    Traceback (most recent call last):
    ...
    ValueError: .../tree.json: unknown game 'chess'; known: connect-four, kayles, nim, pig, piles, shut-the-box, tic-tac-toe; a game of your own is passed by its name: games={..., 'chess': YourGame} (at the command line: --game module:attribute)
    """
    _in_order("load_tree", path=path)
    game, tree, _ = load_tree_and_search(path, games)
    return game, tree


def load_tree_and_search(path, games=None) -> tuple:
    """``(game, tree, search)``: ``load_tree`` with the file's ``"search"`` object (or None).

    >>> import tempfile, pathlib
    >>> from fnmcts.games import GAMES, Nim
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = save_tree(Nim(), {}, pathlib.Path(tmp) / "t.json", search={"dives": 10})
    ...     load_tree_and_search(path, GAMES)[2]
    {'dives': 10}
    """
    _in_order("load_tree_and_search", path=path)
    return _read_saved(path, games, read_tree_json)


def save_search(game, found, path) -> Path:
    """Write a ``MoveSearch`` of ``game`` to ``path`` (the ``fnmcts-move-search`` JSON format), atomically.

    >>> import tempfile, pathlib
    >>> from fnmcts.games import GAMES, TicTacToe
    >>> from fnmcts.mcts import mcts_move
    >>> from fnmcts.rng import make_rng
    >>> game = TicTacToe()
    >>> found = mcts_move(game, game.start(), 300, make_rng(1))
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     load_search(save_search(game, found, pathlib.Path(tmp) / "move.json"), GAMES) == (game, found)
    True
    """
    _in_order("save_search", game=game, found=found, path=path)
    check_game(game)
    from .mcts import MoveSearch

    if not isinstance(found, MoveSearch):
        raise TypeError(f"found must be a MoveSearch (what fnmcts.mcts.mcts_move returns), got {type(found).__name__}")
    return write_atomically(path, _dump(move_search_to_json(game, found)))


def load_search(path, games=None) -> tuple:
    """``(game, MoveSearch)`` saved in ``path`` by ``save_search``, checked; a ``ValueError`` names the problem.

    >>> import tempfile, pathlib
    >>> from fnmcts.games import GAMES
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     bad = pathlib.Path(tmp) / "move.json"
    ...     _ = bad.write_text('{"format": "fnmcts-move-search", "version": 7}')
    ...     load_search(bad, GAMES)
    Traceback (most recent call last):
    ...
    ValueError: .../move.json: unsupported fnmcts-move-search version 7 (this fnmcts reads version 1)
    """
    _in_order("load_search", path=path)
    return _read_saved(path, games, move_search_from_json)
