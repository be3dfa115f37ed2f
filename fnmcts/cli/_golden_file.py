"""``fnmcts check --record-golden FILE`` and ``--golden FILE``: goldens of a game you trust, recorded and checked.

A golden file has the shape of fnmcts's own (``fnmcts/testing/goldens.json``):
``{"format": "fnmcts-goldens", "version": 3, "counts": [entry, ...]}``, each
entry made by ``fnmcts.testing.record_golden`` and checked by
``fnmcts.testing.check_count``: the counts, and one seeded game of the trusted
run played again line for line (the entry's ``playthrough``).
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import sys

from ..protocol import game_text
from ._common import CliError, count

__all__ = ["record", "verify", "pins", "apply", "failed", "add_options", "refuse_existing", "entries_of", "before_check", "GOLDEN_VERSION"]

GOLDEN_VERSION = 3
"""Version 3 entries also hold one seeded game, state by state (``playthrough``); version 2 ones pin who moves
(``to_move_by_ply``, ``chance_by_ply``); older ones still check what they hold."""


def pins(entry) -> str:
    """The numbers a golden entry pins, as a phrase.

    >>> pins({"states_by_ply": [1], "to_move_by_ply": [[1, 0]], "chance_by_ply": [0], "games_by_outcome": {}})
    'states by ply, the player to move by ply, chance nodes by ply, games by outcome'
    """
    names = {"states_by_ply": "states by ply", "histories_by_ply": "histories by ply", "games_by_ply": "games by ply",
             "to_move_by_ply": "the player to move by ply", "chance_by_ply": "chance nodes by ply",
             "terminal_states": "terminal states", "games_by_outcome": "games by outcome",
             "games_by_payoff": "games by payoff",
             "weighted_games_by_payoff": "games by payoff weighted by the chance probabilities",
             "playthrough": "one seeded game state by state"}
    return ", ".join(text for field, text in names.items() if field in entry)


def record(game, spec: str, path: str, depth: int | None) -> tuple:
    """Write the golden of ``game`` (named by ``spec``) to ``path``, a new file: ``(entry, sentence)``.

    >>> import tempfile, os
    >>> from fnmcts.games import Nim
    >>> where = os.path.join(tempfile.mkdtemp(), "nim.json")
    >>> entry, said = record(Nim(heap=3), "nim(heap=3)", where, None)
    >>> print(said.replace(where, "nim.json"))
    recorded the golden of Nim(heap=3, max_take=3, misere=True) to the end (3 plies) in nim.json: it pins states by ply, histories by ply, games by ply, the player to move by ply, chance nodes by ply, terminal states, games by outcome, games by payoff, one seeded game state by state; check a changed game with fnmcts check --game nim(heap=3) --golden nim.json
    """
    from ..testing import record_golden

    target = Path(path)
    refuse_existing(path)
    entry = record_golden(game, spec, depth, source=f"recorded by fnmcts check from {spec}, whose laws held")
    entry["game"] = spec
    try:
        target.write_text(json.dumps({"format": "fnmcts-goldens", "version": GOLDEN_VERSION, "counts": [entry]},
                                     indent=1) + "\n", encoding="utf-8")
    except OSError as error:
        raise CliError(f"cannot write the golden to {path}: {error.strerror or error}") from None
    plies = len(entry["states_by_ply"]) - 1
    reach = f"to the end ({plies} plies)" if depth is None else f"to ply {depth}"
    return entry, (f"recorded the golden of {game_text(game)} {reach} in {path}: it pins {pins(entry)}; check a changed "
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

    found, notes = [], []
    for entry in entries_of(path):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", GoldenWarning)
            found += [f"{entry.get('name', '?')}: {line}" for line in check_count(entry, game=game)]
        notes += [str(w.message) for w in caught if issubclass(w.category, GoldenWarning)]
    return tuple(found), tuple(notes)


def entries_of(path) -> list:
    """The golden entries of the file ``path``; a missing file or one that is not a golden file is a ``CliError``.

    ``fnmcts check --golden FILE`` reads it before the check, so a mistyped file costs no check.

    >>> entries_of(__file__)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    fnmcts.cli._common.CliError: ..._golden_file.py is not a golden file of fnmcts (JSONDecodeError: ...)
    """
    from ..files import read_file

    if not Path(path).exists():
        raise CliError(f"no golden file {path} (record one with --record-golden {path})")
    try:
        text = read_file(path, "golden file").decode("utf-8")  # a device (/dev/zero) or a pipe is refused, not read without end
    except UnicodeDecodeError as error:
        raise CliError(f"{path} is not a golden file of fnmcts (not UTF-8 text: {error.reason})") from None
    except ValueError as error:  # a directory, a device, a pipe, a huge file
        raise CliError(f"--golden: {error}") from None
    try:
        entries = json.loads(text)["counts"]
        if not isinstance(entries, list):
            raise TypeError(f"its counts are a {type(entries).__name__}, not a list")
    except (ValueError, KeyError, TypeError) as error:
        raise CliError(f"{path} is not a golden file of fnmcts ({type(error).__name__}: {error})") from None
    return entries


def before_check(args) -> None:
    """What ``fnmcts check`` refuses before it checks anything: a golden to record over a file, a bad ``--golden``.

    >>> from types import SimpleNamespace
    >>> before_check(SimpleNamespace(record_golden=None, golden=None))
    """
    refuse_existing(args.record_golden)
    if args.golden is not None:
        entries_of(args.golden)


def refuse_existing(path) -> None:
    """Refuse (``CliError``) to record a golden over an existing file: nothing is lost.

    >>> refuse_existing(None)
    >>> refuse_existing(__file__)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    fnmcts.cli._common.CliError: ..._golden_file.py exists: the golden is not written over it (remove it, or name another file)
    """
    if path is not None and Path(path).exists():
        raise CliError(f"{path} exists: the golden is not written over it (remove it, or name another file)")


def add_options(parser) -> None:
    """Add ``--golden FILE``, ``--record-golden FILE`` and ``--golden-depth D`` to ``fnmcts check``'s ``parser``.

    >>> import argparse
    >>> parser = argparse.ArgumentParser()
    >>> add_options(parser)
    >>> parser.parse_args(["--record-golden", "g.json", "--golden-depth", "4"]).golden_depth
    4
    """
    parser.add_argument("--golden", default=None, metavar="FILE",
                        help="also check the game against the goldens of FILE (recorded with --record-golden)")
    parser.add_argument("--record-golden", default=None, metavar="FILE",
                        help="once the laws hold, record the game's golden in FILE, a new file: states, histories, "
                             "games, the player to move and the chance nodes by ply, and the outcomes")
    parser.add_argument("--golden-depth", type=count, default=None, metavar="D",
                        help="record the golden to D plies (default: to the end)")


def apply(args, game, report: dict, text: str) -> tuple:
    """``(report, text)`` of a check whose laws held, with the golden file checked (``--golden``) or recorded.

    >>> from types import SimpleNamespace
    >>> from fnmcts.games import Nim
    >>> apply(SimpleNamespace(golden=None, record_golden=None), Nim(heap=3), {"passed": True}, "laws hold")
    ({'passed': True}, 'laws hold')
    """
    if args.golden is not None:
        found, notes = verify(game, args.golden)
        for note in notes:
            print(f"fnmcts: note: {note}", file=sys.stderr)
        report = report | {"passed": not found, "golden": args.golden, "golden_differences": list(found)}
        text += (f"\ngolden {args.golden}: " + ("every number agrees" if not found else
                                                "differs\n" + "\n".join(f"  {line}" for line in found)))
    if args.record_golden is not None:
        entry, said = record(game, args.game_spec, args.record_golden, args.golden_depth)
        report = report | {"recorded_golden": args.record_golden, "pins": pins(entry)}
        text += "\n" + said
    return report, text


def failed(args, report: dict) -> bool:
    """True, with the first difference on standard error in one line, when the game differs from its golden.

    >>> failed(None, {"passed": True})
    False
    """
    found = report.get("golden_differences")
    if found:
        print(f"fnmcts: error: {report['game']} differs from its golden {args.golden}: {found[0][:300]}",
              file=sys.stderr)
    return bool(found)
