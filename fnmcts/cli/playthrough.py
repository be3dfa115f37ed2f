"""``fnmcts playthrough GAME --seed S [-o FILE]`` and ``fnmcts playthrough [GAME] --check FILE``: golden playthroughs.

The first writes one seeded random game of GAME state by state
(``fnmcts.testing.playthrough``); the second plays it again from the file's
seed and reports the first line that differs (exit status 1), or that the
game plays as the file says (0). GAME is any game ``--game`` takes; with
``--check`` it defaults to the game the file names when that is a built-in
game.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ._common import CliError, add_json, add_seed, count, emit
from ._streams import claim_output, report_stream, write_output
from ._games import resolve_game

__all__ = ["register"]


def register(cli) -> None:
    """Add ``fnmcts playthrough`` to ``cli``.

    >>> from ._parser import Cli
    >>> cli = Cli()
    >>> register(cli)
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
    add_seed(p, default=0)
    add_json(p)
    p.set_defaults(handler=_playthrough)


def _playthrough(args) -> int:
    try:
        from ..testing.playthroughs import check_playthrough, playthrough
        from ..testing._walk import DEFAULT_MAX_STEPS, GameRaised
    except ImportError as error:  # hypothesis missing: the test extra
        raise CliError(str(error)) from None
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
        payload = {"checked": str(path), "game": repr(game), "same": found is None, "difference": found}
        emit(args, payload, f"{path}: {game!r} plays as the file says" if found is None else f"{path}: {found}")
        return 0 if found is None else 1
    if args.game_spec is None:
        raise CliError("give the GAME to play (or --check FILE)")
    game = resolve_game(args.game_spec)
    if args.output is not None:
        claim_output(args.output)  # a missing folder, a directory or another writer fails before the work
    try:
        text = playthrough(game, args.seed, max_steps=steps)
    except GameRaised as error:
        raise CliError(f"the game raised while playing: {error}") from None
    states = text.count("# state ")
    if args.output is None:
        if args.json:
            emit(args, {"game": repr(game), "seed": args.seed, "states": states, "text": text}, text)
            return 0
        sys.stdout.write(text)
        return 0
    where = write_output(args.output, text)
    with report_stream(args):  # with -o -, standard output holds the playthrough: the report goes to standard error
        emit(args, {"game": repr(game), "seed": args.seed, "states": states, "path": where},
             f"wrote {where} ({game!r}, seed {args.seed}, {states} states)")
    return 0


def _named(text: str, path: Path) -> str:
    """The built-in game a playthrough file names (its 'game:' line is the game's repr), as a GAME spec."""
    from ..games import GAMES

    for line in text.splitlines()[:6]:
        if line.startswith("game: "):
            shown = line.removeprefix("game: ")
            for name, kind in GAMES.items():
                try:
                    if repr(kind()) == shown:
                        return name
                except Exception:
                    continue
            raise CliError(f"{path} plays {shown}, not a built-in game with its defaults: give its GAME")
    raise CliError(f"{path} is not an fnmcts playthrough (no 'game:' line): write one with fnmcts playthrough GAME")
