"""Shared parts of the command line: the parser, argument types, output, progress, interruptions.

Exit status: 0 done; 1 a runtime failure (a full disk, a closed standard
output); 2 a usage error (one line on standard error, nothing changed); 130
interrupted by Ctrl-C (SIGINT), 143 by SIGTERM.

Interruptions keep the work. While a command runs, SIGTERM stops it as Ctrl-C
does (an ``Interrupted``, a ``KeyboardInterrupt``). A long computation raises
``Interrupted`` carrying its result for the work done so far (``partial``); a
command that wraps it in ``keep_partial(args, report)`` prints that result as
usual, clearly marked as partial (``"partial": true`` in JSON), and exits with
130 or 143. A command that loops itself raises ``interrupted(error, so_far)``.

>>> from fnmcts.parallel import Interrupted
>>> def count_to_three(args):
...     with keep_partial(args, lambda done: ({"done": done}, f"counted to {done}")):
...         raise Interrupted(2)
>>> cli = Cli()
>>> cli.command("count", "count to three").set_defaults(handler=count_to_three)
>>> cli.run(["count"])  # stderr: fnmcts: interrupted by SIGINT: the result above is partial
PARTIAL RESULT (interrupted by SIGINT): the work done so far
counted to 2
130
"""

from __future__ import annotations

import argparse
import errno
import json
import os
import signal
import sys
import threading
from contextlib import contextmanager

from ..files import held_claims, release_claims
from ..limits import GO_ON, TooLarge
from ..parallel import Interrupted, interrupted

__all__ = [
    "Cli",
    "CliError",
    "EXIT_DONE",
    "EXIT_FAILURE",
    "EXIT_USAGE",
    "Interrupted",
    "interrupted",
    "keep_partial",
    "emit_partial",
    "exit_status",
    "count",
    "positive_count",
    "seed_type",
    "add_json",
    "add_seed",
    "add_force",
    "emit",
    "progress_bar",
    "read_line",
]


EXIT_DONE, EXIT_FAILURE, EXIT_USAGE = 0, 1, 2
"""Exit statuses: done, a runtime failure (a full disk), a usage error; an interruption exits 128 + the signal."""

_USAGE_ERRNOS = frozenset(
    {errno.ENOENT, errno.EACCES, errno.EPERM, errno.EISDIR, errno.ENOTDIR, errno.ENAMETOOLONG, errno.EROFS,
     errno.EEXIST, errno.ELOOP, errno.EINVAL}
)


def exit_status(error: BaseException) -> int:
    """The exit status for ``error``: 128 + the signal for an interruption, 2 for a usage error, 1 for a failure.

    An ``OSError`` is a usage error when it names a path that cannot be used
    (missing, not allowed, a directory...) and a runtime failure otherwise (a
    full disk, an I/O error).

    >>> exit_status(KeyboardInterrupt()), exit_status(Interrupted(None, signal.SIGTERM))
    (130, 143)
    >>> exit_status(CliError("bad")), exit_status(OSError(errno.ENOSPC, "No space left on device"))
    (2, 1)
    """
    if isinstance(error, KeyboardInterrupt):
        return 128 + getattr(error, "signum", signal.SIGINT)
    if isinstance(error, OSError) and error.errno not in _USAGE_ERRNOS:
        return EXIT_FAILURE
    return EXIT_USAGE


class CliError(Exception):
    """A user error: printed as one line, exit status 2.

    >>> def fail(args):
    ...     raise CliError("no such box")
    >>> cli = Cli()
    >>> cli.command("fail", "always fails").set_defaults(handler=fail)
    >>> cli.run(["fail"])  # stderr: fnmcts: error: no such box
    2
    """


MAX_WORKERS = max(8, 4 * (os.cpu_count() or 1))
"""The most worker processes a command starts (``--workers``): four a core, at least 8."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def count(text: str) -> int:
    """A non-negative whole number: ``1000``, ``1_000`` or ``1e6``.

    >>> count("1000"), count("1_000"), count("1e6")
    (1000, 1000, 1000000)
    >>> count("2.5")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected a whole number, got '2.5'
    """
    if not text.isascii():  # int() reads other scripts' digits ('١٠' is 10): a number here is written 0-9
        raise argparse.ArgumentTypeError(f"expected a whole number written with the digits 0-9, got {text!r}")
    try:
        value = int(text.replace("_", ""))
    except ValueError:
        try:
            number = float(text)
        except (ValueError, OverflowError):
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if not number.is_integer():
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        value = int(number)
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a non-negative number, got {text!r}")
    return value


def positive_count(text: str) -> int:
    """A whole number of at least 1.

    >>> positive_count("1e3")
    1000
    >>> positive_count("0")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected a positive number, got '0'
    """
    try:
        value = count(text)
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(f"expected a positive whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive number, got {text!r}")
    return value


def worker_count(text: str) -> int:
    """A number of worker processes: a positive whole number, at most ``MAX_WORKERS`` (more only wait).

    >>> worker_count("2")
    2
    >>> worker_count("99999999999999999999")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: at most ... worker processes: each one holds a copy of the work ...
    """
    value = positive_count(text)
    if value > MAX_WORKERS:
        raise argparse.ArgumentTypeError(
            f"at most {MAX_WORKERS} worker processes: each one holds a copy of the work and this machine "
            f"runs {os.cpu_count() or 1} at once (got {text})"
        )
    return value


def non_ascii_digits(text: str) -> bool:
    """Whether ``text`` holds decimal digits of another script, which Python's ``int`` would read as numbers.

    >>> non_ascii_digits("١٠"), non_ascii_digits("10"), non_ascii_digits("Spiel")
    (True, False, False)
    """
    return any(ch.isdecimal() and not ch.isascii() for ch in text)


def seed_type(text: str) -> int:
    """A seed: a non-negative whole number.

    >>> seed_type("42")
    42
    >>> seed_type("-1")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: a seed is non-negative, got '-1'
    """
    try:
        value = int(text) if text.isascii() else None
    except ValueError:
        value = None
    if value is None:
        raise argparse.ArgumentTypeError(f"a seed is a whole number (digits 0-9), got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"a seed is non-negative, got {text!r}")
    return value


def non_negative_number(text: str) -> float:
    """A finite number, 0 or more (ASCII digits): an exploration constant.

    >>> non_negative_number("0.2"), non_negative_number("2")
    (0.2, 2.0)
    >>> non_negative_number("nan")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected a finite number, 0 or more, got 'nan'
    """
    try:
        value = float(text) if text.isascii() else None
    except ValueError:
        value = None
    if value is None or not (value >= 0 and value != float("inf")):
        raise argparse.ArgumentTypeError(f"expected a finite number, 0 or more, got {text!r}")
    return value


SEARCH_RULES = ("ucb1", "tutorial", "ucb")
"""The selection rules the commands name: UCB1, and the tutorial's ucb (by either name)."""


def add_search_options(parser, who: str = "", old_rule_flag: str | None = None, root: bool = False) -> None:
    """Add the options every search takes, spelled once: ``--rule``, ``--c``, ``--z``, ``--backup``, ``--no-solver``, ``--root``.

    Unset options stay ``None``: the library's defaults (``fnmcts.mcts.search_options``)
    fill them, the same for every command. ``who`` prefixes the help (``"mcts: "``).
    ``root=True`` adds ``--root`` too (a root rule plans one search's dives:
    for agents that search afresh each move, not for a search saved and resumed).

    >>> parser = argparse.ArgumentParser()
    >>> add_search_options(parser)
    >>> args = parser.parse_args(["--rule", "tutorial", "--z", "1.5"])
    >>> search_flags(args)
    {'rule': 'tutorial', 'z': 1.5}
    """
    flags = ("--rule",) if old_rule_flag is None else ("--rule", old_rule_flag)
    parser.add_argument(
        *flags, dest="rule", choices=SEARCH_RULES, default=None,
        help=f"{who}the selection rule: ucb1 (UCB1, the default) or tutorial (the tutorial's ucb; also: ucb)",
    )
    parser.add_argument("--c", type=non_negative_number, default=None, metavar="C",
                        help=f"{who}UCB1's exploration constant (default sqrt 2; with --rule ucb1)")
    parser.add_argument("--z", type=non_negative_number, default=None, metavar="Z",
                        help=f"{who}the tutorial's confidence multiplier (default 2; with --rule tutorial)")
    parser.add_argument(
        "--backup", choices=("mean", "expectimax"), default=None,
        help=f"{who}mean: the results' mean (default); expectimax: also back up values with the chance probabilities",
    )
    parser.add_argument(
        "--no-solver", dest="solver", action="store_false", default=None,
        help=f"{who}plain UCT, without MCTS-Solver's proofs (the solver is on by default, off with --rule tutorial)",
    )
    if not root:
        return
    from ..mcts._options import ROOT_RULES  # the library's names, read where the flags are made

    parser.add_argument(
        "--root", choices=ROOT_RULES, default=None,
        help=f"{who}the root's own rule: gumbel (sequential halving with Gumbel noise over the dives; needs a number of dives)",
    )


def search_flags(args) -> dict:
    """The search options given on the command line (a dict of those set), checked with the flags' names.

    >>> parser = argparse.ArgumentParser()
    >>> add_search_options(parser)
    >>> search_flags(parser.parse_args(["--rule", "tutorial", "--c", "0.5"]))
    Traceback (most recent call last):
    ...
    fnmcts.cli._common.CliError: --c is UCB1's constant: use it with --rule ucb1 (the tutorial's ucb takes --z)
    """
    given = {name: getattr(args, name, None) for name in ("rule", "c", "z", "backup", "solver", "root")}
    rule = given["rule"] or "ucb1"
    if rule != "ucb1" and given["c"] is not None:
        raise CliError("--c is UCB1's constant: use it with --rule ucb1 (the tutorial's ucb takes --z)")
    if rule == "ucb1" and given["z"] is not None:
        raise CliError("--z belongs to the tutorial's ucb: use it with --rule tutorial (UCB1 takes --c)")
    return {k: v for k, v in given.items() if v is not None}


def add_json(parser):
    """Add the ``--json`` flag (print exactly one JSON object) to ``parser``.

    >>> parser = argparse.ArgumentParser()
    >>> add_json(parser)
    >>> parser.parse_args(["--json"]).json, parser.parse_args([]).json
    (True, False)
    """
    parser.add_argument("--json", action="store_true", help="print exactly one JSON object")


def add_force(parser):
    """Add ``--force``: go on past the size checks (work or memory beyond ``fnmcts.limits``).

    >>> parser = argparse.ArgumentParser()
    >>> add_force(parser)
    >>> parser.parse_args(["--force"]).force, parser.parse_args([]).force
    (True, False)
    """
    parser.add_argument(
        "--force", action="store_true", help="go on even when the work is estimated beyond the limits (hours)"
    )


def add_seed(parser, default=None):
    """Add ``--seed S`` (a ``seed_type``, default ``default``) to ``parser``.

    >>> parser = argparse.ArgumentParser()
    >>> add_seed(parser, default=0)
    >>> parser.parse_args(["--seed", "7"]).seed, parser.parse_args([]).seed
    (7, 0)
    """
    parser.add_argument(
        "--seed", type=seed_type, default=default, metavar="S", help="random seed (same seed, same result)"
    )


def emit(args, payload: dict, text: str) -> None:
    """Print ``payload`` as one JSON object with ``--json``, else ``text``.

    >>> from types import SimpleNamespace
    >>> emit(SimpleNamespace(json=True), {"wins": 3, "games": 10}, "3 wins in 10 games")
    {"games": 10, "wins": 3}
    >>> emit(SimpleNamespace(json=False), {"wins": 3, "games": 10}, "3 wins in 10 games")
    3 wins in 10 games
    """
    if getattr(args, "json", False):
        print(json.dumps(payload, sort_keys=True))
    else:
        print(text)


def emit_partial(args, payload: dict, text: str, stop: Interrupted) -> None:
    """``emit`` a partial result: ``"partial": true`` and the signal in JSON, a marked header in text.

    >>> from types import SimpleNamespace
    >>> emit_partial(SimpleNamespace(json=True), {"games": 3}, "3 games", Interrupted(None, signal.SIGTERM))
    {"games": 3, "partial": true, "signal": "SIGTERM"}
    >>> emit_partial(SimpleNamespace(json=False), {"games": 3}, "3 games", Interrupted())
    PARTIAL RESULT (interrupted by SIGINT): the work done so far
    3 games
    """
    emit(
        args,
        payload | {"partial": True, "signal": stop.signal_name},
        f"PARTIAL RESULT (interrupted by {stop.signal_name}): the work done so far\n{text}",
    )
    stop.reported = True


@contextmanager
def keep_partial(args, report):
    """On an ``Interrupted`` with a partial result inside the block, print ``report(partial)`` marked partial.

    ``report(partial)`` returns ``(payload, text)`` as for ``emit``. The
    interruption goes on after the report (the command exits 130 or 143); a
    second Ctrl-C or SIGTERM while the report prints is ignored, so the report
    is whole.

    >>> from types import SimpleNamespace
    >>> try:
    ...     with keep_partial(SimpleNamespace(json=False), lambda n: ({"n": n}, f"{n} games")):
    ...         raise Interrupted(5)
    ... except Interrupted as stop:
    ...     stop.reported
    PARTIAL RESULT (interrupted by SIGINT): the work done so far
    5 games
    True
    """
    try:
        yield
    except Interrupted as stop:
        if stop.partial is not None and not stop.reported:
            with _signals_ignored():
                payload, text = report(stop.partial)
                emit_partial(args, payload, text, stop)
                sys.stdout.flush()
        raise


def _on_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


@contextmanager
def _signals_ignored():
    """Ctrl-C and SIGTERM ignored for the block (a report being printed), then as before."""
    if not _on_main_thread():
        yield
        return
    saved = {s: signal.signal(s, signal.SIG_IGN) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for number, handler in saved.items():
            signal.signal(number, handler)


def _raise_interrupted(signum, frame):
    raise Interrupted(None, signum)


@contextmanager
def _signals_interrupt():
    """For the block, SIGTERM raises ``Interrupted`` (as Ctrl-C raises ``KeyboardInterrupt``), then as before.

    An ignored signal (a job started with ``nohup``, or in the background of a
    script) stays ignored.
    """
    if not _on_main_thread():
        yield
        return
    saved = {}
    for number, handler in ((signal.SIGTERM, _raise_interrupted), (signal.SIGINT, signal.default_int_handler)):
        if signal.getsignal(number) is not signal.SIG_IGN:
            saved[number] = signal.signal(number, handler)
    try:
        yield
    finally:
        for number, handler in saved.items():
            signal.signal(number, handler)


def read_line(prompt: str) -> str:
    """``input(prompt)``, echoing the answer when it comes from a script, not a terminal.

    >>> import io
    >>> saved, sys.stdin = sys.stdin, io.StringIO("4\\n")
    >>> try:
    ...     answer = read_line("move? ")
    ... finally:
    ...     sys.stdin = saved
    move? 4
    >>> answer
    '4'
    >>> saved, sys.stdin = sys.stdin, io.StringIO("٤\\n4\\n")
    >>> try:
    ...     answer = read_line("move? ")
    ... finally:
    ...     sys.stdin = saved
    move? ٤
    digits other than 0-9 are not read as numbers: type it with the digits 0-9
    move? 4
    >>> answer
    '4'
    """
    while True:
        line = input(prompt)
        if not sys.stdin.isatty():
            print(line)  # so a scripted game's transcript reads like a session
        if not non_ascii_digits(line):
            return line
        print("digits other than 0-9 are not read as numbers: type it with the digits 0-9")


@contextmanager
def progress_bar(total: int, desc: str, enabled: bool | None = None, unit: str = "game"):
    """A tqdm bar on stderr when it is a terminal; yields an ``update(k)`` callback.

    Without a bar (``enabled`` False, or stderr not a terminal) it yields ``None``.

    >>> with progress_bar(10, "games", enabled=False) as update:
    ...     update is None
    True
    """
    if enabled is None:
        enabled = sys.stderr.isatty()
    if not enabled:
        yield None
        return
    from tqdm import tqdm

    with tqdm(total=total, desc=desc, unit=unit, unit_scale=True, leave=False, file=sys.stderr) as bar:
        yield bar.update


class Cli:
    """The ``fnmcts`` parser; modules add commands and per-game sub-commands.

    >>> cli = Cli()
    >>> p = cli.game_command("greet", "nim", "say hello to Nim")
    >>> p.set_defaults(handler=lambda args: print("hello, " + args.game))
    >>> cli.run(["greet", "nim"])
    hello, nim
    0
    """

    def __init__(self):
        self.parser = _Parser(
            prog="fnmcts",
            description="Monte Carlo simulation and tree search over immutable game values.",
        )
        self.parser.add_argument("--version", action="version", version=_version())
        self._commands = self.parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
        self._games: dict = {}
        self._routes: dict = {}  # command -> the GAME sub-command that reads --game SPEC

    def command(self, name: str, help: str) -> argparse.ArgumentParser:
        """A top-level command without a game (``fnmcts NAME ...``)."""
        return self._commands.add_parser(name, help=help, description=help)

    def game_command(self, command: str, game: str, help: str, command_help: str | None = None):
        """The parser for ``fnmcts COMMAND GAME ...``; created on first use."""
        if command not in self._games:
            parent = self._commands.add_parser(
                command, help=command_help or f"{command} a game", description=command_help
            )
            self._games[command] = parent.add_subparsers(dest="game", metavar="GAME", parser_class=_Parser)
            self._games[command].required = True
        return self._games[command].add_parser(game, help=help, description=help)

    def has_game(self, command: str, game: str) -> bool:
        """Whether ``fnmcts COMMAND GAME`` exists already (a module registered it).

        >>> cli = Cli()
        >>> _ = cli.game_command("greet", "nim", "say hello to Nim")
        >>> cli.has_game("greet", "nim"), cli.has_game("greet", "pig"), cli.has_game("solve", "nim")
        (True, False, False)
        """
        return command in self._games and game in self._games[command].choices

    def game_option(self, command: str, game: str, help: str, command_help: str | None = None):
        """The parser for ``fnmcts COMMAND --game SPEC ...``: the sub-command ``game``, which ``--game`` implies.

        >>> cli = Cli()
        >>> p = cli.game_option("greet", "any", "say hello to any game")
        >>> _ = p.add_argument("--game", dest="spec", required=True)
        >>> p.set_defaults(handler=lambda args: print(f"{args.game}: hello, {args.spec}"))
        >>> cli.run(["greet", "--game", "openspiel:nim"]), cli.run(["greet", "any", "--game=go"])
        any: hello, openspiel:nim
        any: hello, go
        (0, 0)
        """
        self._routes[command] = game
        return self.game_command(command, game, help, command_help)

    def _route(self, argv: list) -> list:
        """``COMMAND [ARGS] --game SPEC ...`` read as ``COMMAND GAME [ARGS] --game SPEC ...`` (see ``game_option``)."""
        if (
            len(argv) >= 2
            and argv[0] in self._routes
            and argv[1] not in self._games[argv[0]].choices
            and argv[1] not in ("-h", "--help")
            and any(a == "--game" or a.startswith("--game=") for a in argv[1:])
        ):
            return [argv[0], self._routes[argv[0]], *argv[1:]]
        return argv

    def run(self, argv) -> int:
        """Parse ``argv``, run its command, and return the exit status (see the module's docstring)."""
        if sys.stdout is None or sys.stderr is None:  # started with a closed standard stream (``>&-``)
            return _closed_stream()
        held = held_claims()
        with _signals_interrupt():
            try:
                return self._run(argv)
            except KeyboardInterrupt as error:
                return _interrupted(error)
            finally:
                release_claims(keep=held)  # the output files this command claimed are free again

    def _run(self, argv) -> int:
        for arg in argv:
            if isinstance(arg, str) and non_ascii_digits(arg):
                return _error(f"{arg!r} holds digits other than 0-9, which fnmcts does not read as numbers: "
                              "write numbers with the digits 0-9", EXIT_USAGE)
        args = self.parser.parse_args(self._route(list(argv)))
        handler = getattr(args, "handler", None)
        if handler is None:  # no command: asking for nothing is asking for help
            self.parser.print_help()
            return EXIT_DONE
        try:
            code = handler(args) or 0
            sys.stdout.flush()
            return code
        except BrokenPipeError:
            # the reader went away (``fnmcts ... | head -1``): stop quietly, as cat does
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            return 0
        except CliError as error:
            return _error(error, EXIT_USAGE)
        except TooLarge as error:  # the library's "limit=None" is the command's --force, where it has one
            go_on = "; --force goes on regardless" if hasattr(args, "force") else ""
            return _error(str(error).replace(GO_ON, go_on), EXIT_USAGE)
        except RecursionError:
            return _error("the input is nested too deeply to read", EXIT_USAGE)
        except (ValueError, TypeError, KeyError, OSError) as error:
            message = error.args[0] if isinstance(error, KeyError) and error.args else error
            return _error(message, exit_status(error))


def _error(message, status: int) -> int:
    print(f"fnmcts: error: {message}", file=sys.stderr)
    return status


def _interrupted(error: KeyboardInterrupt) -> int:
    """Say that the command was interrupted (and whether the result shown is partial); 128 + the signal."""
    name = error.signal_name if isinstance(error, Interrupted) else "SIGINT"
    shown = ": the result above is partial" if getattr(error, "reported", False) else ""
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        pass
    print(f"\nfnmcts: interrupted by {name}{shown}", file=sys.stderr)
    return exit_status(error)


def _closed_stream() -> int:
    if sys.stderr is not None:
        print("fnmcts: error: standard output is closed: nothing can be printed", file=sys.stderr)
    return EXIT_FAILURE


def _version() -> str:
    try:
        from importlib.metadata import version

        return "fnmcts " + version("fnmcts")
    except Exception:
        return "fnmcts (not installed)"
