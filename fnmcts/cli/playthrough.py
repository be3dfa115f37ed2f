"""``fnmcts playthrough GAME --seed S [-o FILE]`` and ``fnmcts playthrough [GAME] --check FILE``: golden playthroughs.

The first writes one seeded random game of GAME state by state
(``fnmcts.testing.playthrough``); the second plays it again from the file's
seed and reports the first line that differs (exit status 1), or that the
game plays as the file says (0). GAME is any game ``--game`` takes; with
``--check`` it defaults to the game the file names: a built-in game, or a
class of the user's, in a Python file of the current folder or the file's
folder, that prints as the file's 'game:' line.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ._common import CliError, count, emit, finish_seeded, needs_test_extra
from ._streams import claim_output, report_stream, write_output
from ._games import resolve_game

__all__ = ["register"]


def register(cli) -> None:
    """Add ``fnmcts playthrough`` to ``cli``.

    >>> from ._parser import Cli
    >>> cli = Cli(register)
    >>> cli.run(["playthrough", "nim", "--seed", "4", "--max-steps", "1"])  # doctest: +ELLIPSIS
    fnmcts playthrough
    game: Nim(heap=21, max_take=3, misere=True)
    seed: 4
    ...
    # cut after 1 steps
    0
    """
    p = cli.spec_command("playthrough", "write one seeded random game state by state, or check a game against such a file "
                         "(with --check, GAME defaults to the game the file names)", optional=True)
    p.add_argument("-o", "--output", default=None, metavar="FILE", help="write the text to FILE (default: print it; - prints it too, the report then on standard error)")
    p.add_argument("--check", default=None, metavar="FILE", help="play FILE's game again and report the first difference")
    p.add_argument("--max-steps", type=count, default=None, metavar="N",
                   help="cut the game after N steps (default 1,000)")
    finish_seeded(p, _playthrough, seed=0)


def _playthrough(args) -> int:
    with needs_test_extra():
        from ..testing.playthroughs import check_playthrough, game_text, playthrough
        from ..testing._walk import DEFAULT_MAX_STEPS, GameRaised
    from ..protocol import GameError
    steps = DEFAULT_MAX_STEPS if args.max_steps is None else args.max_steps
    if args.check is not None:
        if args.output is not None:
            raise CliError("give -o FILE to write a playthrough or --check FILE to check one, not both")
        from ..files import read_file

        path = Path(args.check)
        try:
            text = read_file(path).decode("utf-8")  # a pipe or a device is refused, not waited on
        except UnicodeDecodeError as error:
            raise CliError(f"cannot read {path}: {error}") from None
        except ValueError as error:
            raise CliError(str(error)) from None
        game = resolve_game(args.game_spec if args.game_spec is not None else _named(text, path))
        try:
            found = check_playthrough(game, text, max_steps=steps)
        except GameRaised as error:
            found = f"the game raised: {error}"
        except GameError as error:  # a hook returned what no game may (as fnmcts check says it)
            found = str(error)
        payload = {"checked": str(path), "game": game_text(game), "same": found is None, "difference": found}
        emit(args, payload, f"{path}: {game_text(game)} plays as the file says" if found is None else f"{path}: {found}")
        if found is not None:  # the difference is the report above; standard error says it in one line
            print(f"fnmcts: error: {game_text(game)} does not play as {path} says: the first difference is above", file=sys.stderr)
            return 1
        return 0
    if args.game_spec is None:
        raise CliError("give the GAME to play (or --check FILE)")
    game = resolve_game(args.game_spec)
    if args.output is not None:
        claim_output(args.output)  # a missing folder, a directory or another writer fails before the work
    text = playthrough(game, args.seed, max_steps=steps)  # a game that raises: one line naming the hook, exit 1
    states = text.count("# state ")
    if args.output is None:
        if args.json:
            emit(args, {"game": game_text(game), "seed": args.seed, "states": states, "text": text}, text)
            return 0
        sys.stdout.write(text)
        return 0
    where = write_output(args.output, text)
    with report_stream(args):  # with -o -, standard output holds the playthrough: the report goes to standard error
        emit(args, {"game": game_text(game), "seed": args.seed, "states": states, "path": where},
             f"wrote {where} ({game_text(game)}, seed {args.seed}, {states} states)")
    return 0


def _named(text: str, path: Path) -> str:
    """The GAME spec of the game a playthrough file names (its 'game:' line is the game's repr).

    A built-in game with its defaults, or a built-in or user's game written
    ``Name(key=value, ...)`` (a dataclass's repr): a user's class is looked for
    in the Python files of the current folder and of the file's own folder (the
    places ``module:attribute`` finds it), and must print as the file says.
    """
    for line in text.splitlines()[:6]:
        if line.startswith("game: "):
            shown = line.removeprefix("game: ").strip()
            found = _builtin_named(shown) or _user_named(shown, path)
            if found is None:
                raise CliError(f"{path} plays {shown}, which is no built-in game and no class of the Python files "
                               f"in {_folders(path)}: give its GAME (module:attribute)")
            return found
    raise CliError(f"{path} is not an fnmcts playthrough (no 'game:' line): write one with fnmcts playthrough GAME")


def _builtin_named(shown: str):
    """The spec of the built-in game that prints as ``shown`` (its defaults, or with the parameters shown), or None."""
    from ..games import GAMES
    from ..testing.playthroughs import game_text

    for name, kind in GAMES.items():
        try:
            if game_text(kind()) == shown:
                return name
        except Exception:
            continue
    name, params = _call_of(shown)
    for spec, kind in GAMES.items():
        if name is not None and kind.__name__ == name and _prints_as(kind, params, shown):
            return f"{spec}({', '.join(f'{k}={v!r}' for k, v in params.items())})"
    return None


def _user_named(shown: str, path: Path):
    """``module:Name(params)`` for a class of a Python file beside the playthrough (or here) that prints as ``shown``."""
    import importlib
    import re

    name, params = _call_of(shown)
    if name is None:
        return None
    defined = re.compile(rf"^(class\s+{re.escape(name)}\b|{re.escape(name)}\s*=)", re.MULTILINE)
    for folder in _search_folders(path):
        for source in sorted(folder.glob("*.py")):
            try:
                if not defined.search(source.read_text(encoding="utf-8", errors="replace")):
                    continue
            except OSError:
                continue
            added = str(folder) not in sys.path
            if added:
                sys.path.insert(0, str(folder))
            try:
                kind = getattr(importlib.import_module(source.stem), name, None)
            except Exception:  # a file that fails to import is not the game
                kind = None
            finally:
                if added:
                    sys.path.remove(str(folder))
            if kind is not None and _prints_as(kind, params, shown):
                arguments = ", ".join(f"{k}={v!r}" for k, v in params.items())
                return f"{source.stem}:{name}" + (f"({arguments})" if params else "")
    return None


def _call_of(shown: str):
    """``(name, params)`` of a repr ``Name(key=literal, ...)``, or ``(None, None)`` when it is not one."""
    from ._fields import split_call

    if not shown.endswith(")") or not shown.partition("(")[0].isidentifier():
        return None, None
    try:
        name, params = split_call(shown)
    except CliError:
        return None, None
    return name, params


def _prints_as(kind, params, shown: str) -> bool:
    from ..testing.playthroughs import game_text

    try:
        return callable(kind) and game_text(kind(**params)) == shown
    except Exception:
        return False


def _search_folders(path: Path) -> list:
    here, beside = Path.cwd().resolve(), path.resolve().parent
    return [here] if here == beside else [here, beside]


def _folders(path: Path) -> str:
    return " and ".join(str(folder) for folder in _search_folders(path))
