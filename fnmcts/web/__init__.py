"""fnmcts live in the browser: a page that runs fnmcts itself in Pyodide, to step ``uct`` and watch the tree.

``python -m fnmcts.web build DIR`` writes the page into ``DIR``: ``index.html``
and its script, Pyodide's core files (from the npm registry's ``pyodide``
package, version ``PYODIDE_VERSION``, fetched once with ``python -m fnmcts.web
fetch``), and the pure-Python wheels the page installs: fnmcts built from this
tree, pyrsistent and toolz at the versions installed here (what the page's
searches import), and hypothesis with sortedcontainers (what ``fnmcts.testing``
draws with, for the page's console). ``python -m fnmcts.web serve DIR`` serves it on
``http://127.0.0.1:8000/``; the page then asks nothing of any other server.

The page calls the functions below, in the browser, as a test calls them
natively: ``step`` runs the tutorial's ``uct`` (or the reader's own, typed
into the page) dive by dive, ``summary`` is what the page shows of the tree
and what the test compares with a native run of the same seed, ``explorer``
is the explorer page (``fnmcts.views.explore_page``) of the same dives.
"""

from __future__ import annotations

import hashlib
import os
import pathlib
from collections.abc import Callable, Mapping, Set
from typing import NamedTuple

from .. import tutorial
from ..games import Nim, ShutTheBox
from ..views import explore_page, trace
from ..protocol import is_chance, play, possible_moves
from ..rng import make_rng

__all__ = ["PYODIDE_VERSION", "LIVE_GAMES", "game", "step", "summary", "explorer", "pyodide_cache"]

PYODIDE_VERSION = "314.0.7"
"""The ``pyodide`` release from the npm registry that the page runs on (Python 3.14)."""

class _LiveGame(NamedTuple):
    """A game the page offers: how to make it, the title of its explorer, whether ``uct`` takes the game."""

    make: Callable
    title: str
    uct_takes_game: bool  # the tutorial's uct(tree, box, rng) is Shut the Box's; another game's is uct(..., game)


_LIVE = {
    "shut-the-box": _LiveGame(ShutTheBox, "Shut the Box", False),
    "nim": _LiveGame(Nim, "Nim from 21, take 1..3", True),
}

LIVE_GAMES = tuple(_LIVE)
"""The games the page offers: the tutorial's Shut the Box, and Nim from 21 taking 1..3 (the notebook's)."""

MAX_DIVES = 2_000
"""The most dives one press asks for: the explorer's page holds at most this many (``PAGE_DIVES``)."""


def game(name: str):
    """The game the page names: ``ShutTheBox()`` or ``Nim()``.

    >>> game("nim")
    Nim(heap=21, max_take=3, misere=True)
    """
    return _live(name).make()


def _live(name: str) -> _LiveGame:
    """The page's entry for the game ``name`` (a ``ValueError`` naming the games it offers)."""
    try:
        return _LIVE[name]
    except (KeyError, TypeError):
        raise ValueError(f"the page offers the games {', '.join(LIVE_GAMES)}, got {name!r}") from None


def step(name: str, tree, rng, dives: int = 1, uct=None):
    """``dives`` dives of ``uct`` (default: the tutorial's) on the game ``name`` from its start: the new tree.

    ``uct(tree, box, rng)`` for Shut the Box, ``uct(tree, state, rng, game)``
    for another game, each returning ``(tree, result)``; ``rng`` is drawn on.

    >>> from pyrsistent import pmap
    >>> tree = step("shut-the-box", pmap(), make_rng(1), 2)
    >>> tree[ShutTheBox().start()]
    Record(win=0, loss=2)
    """
    _check_dives(dives, "dives must be a whole number from 0 to {top}, got {dives!r}")
    the_game = game(name)
    start = the_game.start()
    uct = tutorial.uct if uct is None else uct
    extra = (the_game,) if _live(name).uct_takes_game else ()
    for _ in range(dives):
        tree, _result = uct(tree, start, rng, *extra)
    return tree


def _check_dives(dives, message: str) -> None:
    """A ``ValueError`` of ``message`` unless ``dives`` is a whole number from 0 to ``MAX_DIVES``."""
    if isinstance(dives, bool) or not isinstance(dives, int) or not 0 <= dives <= MAX_DIVES:
        raise ValueError(message.format(top=MAX_DIVES, dives=dives))


def _plain(value):
    """``value`` with its sets and maps sorted: the same text whatever the hash order."""
    if isinstance(value, Mapping):
        return tuple(sorted((_plain(k), _plain(v)) for k, v in value.items()))
    if isinstance(value, Set):
        return tuple(sorted(_plain(v) for v in value))
    if isinstance(value, (tuple, list)):
        return tuple(_plain(v) for v in value)
    return value


def summary(name: str, tree) -> dict:
    """What the page shows of ``tree``: its states, the root's record and moves, and a digest of every record.

    The digest hashes each state (sets and maps sorted) with its record, so two
    runs agree on it exactly when their trees hold the same records.

    >>> from pyrsistent import pmap
    >>> s = summary("nim", step("nim", pmap(), make_rng(3), 10))
    >>> s["states"], s["root"], len(s["digest"])
    (10, 'Record(win=5, loss=5)', 16)
    """
    if not isinstance(tree, Mapping):  # None, or a list: said so, not an AttributeError on .items
        raise TypeError(f"summary reads a search tree (a map state -> record, step's result), got {type(tree).__name__}")
    the_game = game(name)
    start = the_game.start()
    lines = sorted(f"{_plain(state)!r} {record!r}" for state, record in tree.items())
    moves = [] if is_chance(the_game, start) else [
        [repr(move), repr(tree[child]) if child in tree else "not visited"]
        for move, child in ((m, play(the_game, start, m)) for m in possible_moves(the_game, start))
    ]
    return {
        "game": name,
        "states": len(tree),
        "root": repr(tree[start]) if start in tree else "not visited",
        "moves": moves,
        "digest": hashlib.sha256("\n".join(lines).encode()).hexdigest()[:16],
    }


def explorer(name: str, seed: int, dives: int) -> str:
    """The explorer page of ``dives`` dives from seed ``seed``: the same dives as ``step`` with ``make_rng(seed)``.

    At most ``MAX_DIVES`` dives: the explorer's page holds no more.

    >>> explorer("nim", 1, 5).startswith("<!DOCTYPE html>")
    True
    """
    _check_dives(dives, "the explorer shows 0 to {top} dives, got {dives!r}: start a new tree")
    done, title = _traced(name, seed, dives)
    return explore_page(done, title=title)


def _traced(name: str, seed: int, dives: int):
    """The trace of ``dives`` dives from seed ``seed`` on the game ``name``, and its explorer's title."""
    the_game = game(name)
    done = trace(the_game, the_game.start(), dives, make_rng(seed))
    return done, f"{_live(name).title}: {dives} dives, seed {seed}"


def pyodide_cache() -> pathlib.Path:
    """Where ``fetch`` keeps Pyodide's files and ``build`` looks for them: ``$FNMCTS_PYODIDE``, else a cache folder.

    >>> pyodide_cache().name == PYODIDE_VERSION or "FNMCTS_PYODIDE" in os.environ
    True
    """
    given = os.environ.get("FNMCTS_PYODIDE")
    if given:
        return pathlib.Path(given)
    base = pathlib.Path(os.environ.get("XDG_CACHE_HOME") or pathlib.Path.home() / ".cache")
    return base / "fnmcts" / "pyodide" / PYODIDE_VERSION
