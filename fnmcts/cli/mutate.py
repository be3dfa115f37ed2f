"""``fnmcts mutate GAME [--no-laws] [--golden FILE|NAME ...] [--against GAME] [--pytest FILE ...] [--playthrough FILE ...]``: how many slips the checks catch.

The mutants and their verdicts are ``fnmcts.testing.mutate``'s; this module
reads the options, shows a progress bar and prints "killed K of N" and each
survivor with its diff and the line of play that tells it from the game.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ._common import CliError, emit, finish_seeded, keep_partial, positive_count, positive_number, progress_bar, worker_count
from ._executor import add_executor, open_executor
from ._games import resolve_game

__all__ = ["register", "goldens_named"]

_DEFAULT_BUDGET = 60.0
"""``fnmcts.testing.DEFAULT_BUDGET``, written out: the command's help is built without importing hypothesis."""

_DEFAULT_MEMORY = 2.0
"""``fnmcts.testing.DEFAULT_MEMORY``, written out (the same reason)."""


def goldens_named(names) -> tuple:
    """The golden entries of ``names``: each a golden file (``check --record-golden``) or a shipped golden's name.

    >>> [entry["name"] for entry in goldens_named(["tic-tac-toe"])]
    ['tic-tac-toe']
    >>> goldens_named(["no such golden"])
    Traceback (most recent call last):
    ...
    fnmcts.cli._common.CliError: --golden no such golden: no file of that name, and no golden called 'no such golden'; there are: tic-tac-toe, tic-tac-toe up to symmetry, tic-tac-toe (OpenSpiel's), connect four, chess perft, nim 21, take 1-3, misere, nim 10, take 1-4, piles 1 3 5 7, misere, shut the box, kayles
    """
    from ..testing import golden

    entries = []
    for name in names:
        path = Path(name)
        if path.is_file():  # a regular file: a device or a pipe is looked up as a golden's name
            try:
                entries += json.loads(path.read_text(encoding="utf-8"))["counts"]
            except (OSError, ValueError, KeyError, TypeError) as error:
                raise CliError(f"--golden {name} is not a golden file of fnmcts ({type(error).__name__}: {error})") \
                    from None
            continue
        try:
            entries.append(golden(name))
        except ValueError as error:
            raise CliError(f"--golden {name}: no file of that name, and {error}") from None
    return tuple(entries)


def register(cli) -> None:
    """Add ``fnmcts mutate GAME`` to ``cli``.

    >>> from ._parser import Cli
    >>> cli = Cli()
    >>> register(cli)
    >>> cli.run(["mutate", "nim(heap=10, max_take=4, misere=False)", "--no-laws", "--golden", "nim 10, take 1-4",
    ...          "--operators", "payoff_players"])
    killed 1 of 1 mutants of Nim(heap=10, max_take=4, misere=False) (goldens)
    0
    """
    p = cli.spec_command("mutate", "mutation testing of a game's rules: how many slips the checks catch, and a line "
                                   "of play for each they miss")
    p.add_argument("--no-laws", dest="laws", action="store_false", help="leave out the game laws (check_game)")
    p.add_argument("--golden", action="append", default=[], metavar="FILE|NAME",
                   help="a golden the mutants must agree with: a file of check --record-golden, or a shipped "
                        "golden's name (repeat for more)")
    p.add_argument("--against", default=None, metavar="GAME",
                   help="another implementation the mutants must agree with (check_against), any GAME form")
    p.add_argument("--pytest", action="append", default=[], metavar="FILE",
                   help="a pytest file of yours that tests the game: run on each mutant in a new process, the "
                        "game's class replaced by the mutant's (repeat for more)")
    p.add_argument("--playthrough", action="append", default=[], metavar="FILE",
                   help="a playthrough of the game (fnmcts playthrough) each mutant must play again line for line "
                        "(repeat for more)")
    p.add_argument("--examples", type=positive_count, default=100, metavar="N", help="walks a law (default 100)")
    p.add_argument("--budget", type=positive_number("seconds"), default=_DEFAULT_BUDGET, metavar="S",
                   help="seconds a mutant's checks may take, and at least 3 times what the game's own checks "
                        f"took; past it the mutant is killed, 'timed out' (default {_DEFAULT_BUDGET:g})")
    p.add_argument("--memory", type=positive_number("gigabytes"), default=_DEFAULT_MEMORY, metavar="GB",
                   help="gigabytes a mutant's checks may take above what its process held; past it the mutant is "
                        f"killed, saying so (Linux; default {_DEFAULT_MEMORY:g})")
    p.add_argument("--workers", type=worker_count, default=1, metavar="W", help="worker processes (default 1)")
    add_executor(p)
    p.add_argument("--operators", default=None, metavar="NAMES",
                   help="the mutation operators, comma-separated (default all: see fnmcts.testing.OPERATORS)")
    p.add_argument("--sample", type=positive_count, default=None, metavar="N",
                   help="a seeded sample of N mutants (default all)")
    finish_seeded(p, _mutate, seed=0)


def _mutate(args) -> int:
    from ..testing import mutants, mutate
    from ..testing.mutate import FailsItsChecks

    game = resolve_game(args.game_spec)
    against = None if args.against is None else resolve_game(args.against)
    goldens = goldens_named(args.golden)
    operators = None if args.operators is None else [o.strip() for o in args.operators.split(",") if o.strip()]
    playthroughs = _playthroughs(args.playthrough)
    if not (args.laws or goldens or against is not None or args.pytest or playthroughs):
        raise CliError("--no-laws leaves no check: name a --golden, an --against game, a --pytest file or a "
                       "--playthrough file")
    for path in args.pytest:
        if not Path(path).is_file():
            raise CliError(f"--pytest {path}: no such file")
    try:
        total = len(mutants(game, operators))
    except ValueError as error:
        raise CliError(f"{args.game_spec}: {error}") from None
    total = total if args.sample is None else min(total, args.sample)
    with keep_partial(args, lambda done: _shown(done, args.game_spec)), open_executor(args) as executor, \
            progress_bar(total, "checking mutants", unit="mutant") as update:
        try:  # each mutant a task of the executor (--workers N: N processes), the verdicts the same
            report = mutate(game, laws=args.laws, goldens=goldens, against=against, examples=args.examples,
                            seed=args.seed, budget=args.budget, memory=args.memory, executor=executor, operators=operators,
                            sample=args.sample, progress=update, pytest=args.pytest, playthroughs=playthroughs)
        except FailsItsChecks as error:  # the game itself fails a check: the game's failure, exit 1 as on every verb
            print(f"fnmcts: error: {str(error).splitlines()[0]}", file=sys.stderr)
            return 1
        except ValueError as error:
            raise CliError(str(error).splitlines()[0]) from None
    emit(args, *_shown(report, args.game_spec))
    return 0


def _playthroughs(paths) -> tuple:
    """The texts of the playthrough files ``paths``, each checked to be one (a ``CliError`` says which is not)."""
    from ..files import read_file
    from ..testing.playthroughs import playthrough_seed

    texts = []
    for path in paths:
        try:
            text = read_file(path, "playthrough").decode("utf-8")  # a device (/dev/zero) or a pipe is refused, not read without end
        except UnicodeDecodeError:
            raise CliError(f"--playthrough {path} is not a playthrough of fnmcts (not UTF-8 text)") from None
        except ValueError as error:  # missing, a directory, a device, a pipe, a huge file
            raise CliError(f"--playthrough: {error}") from None
        try:
            playthrough_seed(text)
        except ValueError as error:
            raise CliError(f"--playthrough {path} is not a playthrough of fnmcts ({error})") from None
        texts.append(text)
    return tuple(texts)


def _shown(report, spec=None) -> tuple:
    """``(payload, text)`` of a report, whole or of the mutants finished before a worker was lost."""
    return report.to_json() | ({} if spec is None else {"spec": spec}), str(report)
