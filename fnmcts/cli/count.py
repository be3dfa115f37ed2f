"""``fnmcts count GAME [--depth D] [--divide] [--up-to-symmetry] [--limit N] [--force] [--json]``: states and histories ply by ply.

GAME is any game ``--game`` takes (``fnmcts.cli._games``): a built-in game's
name, ``openspiel:NAME(params)`` or ``module:attribute``. The counting is
``fnmcts.testing.count``; this module only reads the options and prints.
"""

from __future__ import annotations

from ._common import add_force, add_json, count, emit, needs_test_extra, positive_count, progress_bar
from ._games import resolve_game
from ._payoffs import scale_fields, scale_note

__all__ = ["register", "DEFAULT_LIMIT"]

DEFAULT_LIMIT = 2_000_000
"""The distinct states a count may find unless told (``--limit``; ``--force``: no limit), the library's ``COUNT_LIMIT``."""


def register(cli) -> None:
    """Add ``fnmcts count GAME`` to ``cli``.

    >>> from ._parser import Cli
    >>> cli = Cli(register)
    >>> cli.run(["count", "nim", "--depth", "2"])
    Nim(heap=21, max_take=3, misere=True): 2 plies
    ply  states  to move  chance  ended  histories  games
      0       1        1       0      0          1      0
      1       3        3       0      0          3      0
      2       5        5       0      0          9      0
    all       9        9       0      0         13      0
    0
    """
    p = cli.spec_command("count", "count a game's states and histories ply by ply (perft), by outcome at the end")
    p.add_argument("--depth", type=count, default=None, metavar="D", help="count D plies (default: to the end)")
    p.add_argument("--divide", action="store_true", help="also the histories at the last ply below each first move")
    p.add_argument("--up-to-symmetry", action="store_true",
                   help="count states that are images of each other under the game's symmetries once")
    p.add_argument("--limit", type=positive_count, default=DEFAULT_LIMIT, metavar="N",
                   help=f"stop with an error past N distinct states (default {DEFAULT_LIMIT:,})")
    add_force(p)
    add_json(p)
    p.set_defaults(handler=_count)


def _count(args) -> int:
    with needs_test_extra():
        from ..testing.counts import count as count_game
    game = resolve_game(args.game_spec)
    total = None if args.depth is None else args.depth + 1
    with progress_bar(total, "counting plies", unit="ply") as update:
        counted = count_game(game, args.depth, divide=args.divide, up_to_symmetry=args.up_to_symmetry,
                             limit=None if args.force else args.limit, progress=update)
    text = str(counted) + (f"\n({scale_note(game, 'player 1 first')})" if counted.outcomes else "")
    emit(args, counted.to_json() | {"spec": args.game_spec} | scale_fields(game), text)
    return 0
