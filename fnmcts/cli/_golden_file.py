"""``fnmcts check --record-golden FILE`` and ``--golden FILE``: goldens of a game you trust, recorded and checked.

A golden file has the shape of fnmcts's own (``fnmcts/testing/goldens.json``):
``{"format": "fnmcts-goldens", "version": 2, "counts": [entry, ...]}``, each
entry made by ``fnmcts.testing.record_golden`` and checked by
``fnmcts.testing.check_count``.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

from ._common import CliError

__all__ = ["record", "verify", "pins", "GOLDEN_VERSION"]

GOLDEN_VERSION = 2
"""Version 2 entries pin who moves (``to_move_by_ply``, ``chance_by_ply``); version 1 ones still check."""


def pins(entry) -> str:
    """The numbers a golden entry pins, as a phrase.

    >>> pins({"states_by_ply": [1], "to_move_by_ply": [[1, 0]], "chance_by_ply": [0], "games_by_outcome": {}})
    'states by ply, the player to move by ply, chance nodes by ply, games by outcome'
    """
    names = {"states_by_ply": "states by ply", "histories_by_ply": "histories by ply", "games_by_ply": "games by ply",
             "to_move_by_ply": "the player to move by ply", "chance_by_ply": "chance nodes by ply",
             "terminal_states": "terminal states", "games_by_outcome": "games by outcome",
             "games_by_payoff": "games by payoff"}
    return ", ".join(text for field, text in names.items() if field in entry)


def record(game, spec: str, path: str, depth: int | None) -> tuple:
    """Write the golden of ``game`` (named by ``spec``) to ``path``, a new file: ``(entry, sentence)``.

    >>> import tempfile, os
    >>> from fnmcts.games import Nim
    >>> where = os.path.join(tempfile.mkdtemp(), "nim.json")
    >>> entry, said = record(Nim(heap=3), "nim(heap=3)", where, None)
    >>> print(said.replace(where, "nim.json"))
    recorded the golden of Nim(heap=3, max_take=3, misere=True) to the end (3 plies) in nim.json: it pins states by ply, histories by ply, games by ply, the player to move by ply, chance nodes by ply, terminal states, games by outcome, games by payoff; check a changed game with fnmcts check --game nim(heap=3) --golden nim.json
    """
    from ..testing import record_golden

    target = Path(path)
    if target.exists():
        raise CliError(f"{path} exists: the golden is not written over it (remove it, or name another file)")
    entry = record_golden(game, spec, depth, source=f"recorded by fnmcts check from {spec}, whose laws held")
    entry["game"] = spec
    try:
        target.write_text(json.dumps({"format": "fnmcts-goldens", "version": GOLDEN_VERSION, "counts": [entry]},
                                     indent=1) + "\n", encoding="utf-8")
    except OSError as error:
        raise CliError(f"cannot write the golden to {path}: {error.strerror or error}") from None
    plies = len(entry["states_by_ply"]) - 1
    reach = f"to the end ({plies} plies)" if depth is None else f"to ply {depth}"
    return entry, (f"recorded the golden of {game!r} {reach} in {path}: it pins {pins(entry)}; check a changed "
                   f"game with fnmcts check --game {spec} --golden {path}")


def verify(game, path: str) -> tuple:
    """``(differences, notes)`` of ``game`` against every entry of the golden file ``path``.

    >>> import tempfile, os
    >>> from fnmcts.games import Nim
    >>> where = os.path.join(tempfile.mkdtemp(), "nim.json")
    >>> _ = record(Nim(heap=3), "nim(heap=3)", where, None)
    >>> verify(Nim(heap=3), where)
    ((), ())
    >>> verify(Nim(heap=3, max_take=2), where)[0][0]
    'nim(heap=3): states_by_ply: [1, 3, 2] expected, [1, 2, 2] counted'
    """
    from ..testing import GoldenWarning, check_count

    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        entries = data["counts"]
    except FileNotFoundError:
        raise CliError(f"no golden file {path} (record one with --record-golden {path})") from None
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise CliError(f"{path} is not a golden file of fnmcts ({type(error).__name__}: {error})") from None
    found, notes = [], []
    for entry in entries:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", GoldenWarning)
            found += [f"{entry.get('name', '?')}: {line}" for line in check_count(entry, game=game)]
        notes += [str(w.message) for w in caught if issubclass(w.category, GoldenWarning)]
    return tuple(found), tuple(notes)
