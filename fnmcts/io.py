"""Files: Q tables saved and read back, atomically, as versioned JSON (the I/O edge).

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
from pathlib import Path

from .files import write_atomically
from .qlearning import QAI, ai_from_json, ai_to_text

__all__ = ["save_ai", "load_ai"]


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
    return write_atomically(path, ai_to_text(ai))


def load_ai(path, games) -> QAI:
    """The AI saved in ``path`` by ``save_ai``, checked; a ``ValueError`` names the file and the problem.

    ``games`` maps the names of games to their constructors (``fnmcts.games.GAMES``;
    ``fnmcts.load_ai`` uses it unless told).

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
    path = Path(path)
    raw = path.read_bytes()
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ValueError(f"{path}: not JSON ({error})") from None
    try:
        return ai_from_json(data, games)
    except (ValueError, TypeError) as error:
        raise ValueError(f"{path}: {error}") from None
