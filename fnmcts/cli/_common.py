"""Shared parts of the command line: the parser, argument types, output, progress."""

from __future__ import annotations

import argparse
import json
import os
import sys
from contextlib import contextmanager

__all__ = [
    "Cli",
    "CliError",
    "count",
    "positive_count",
    "seed_type",
    "add_json",
    "add_seed",
    "emit",
    "progress_bar",
    "read_line",
]


class CliError(Exception):
    """A user error: printed as one line, exit status 2.

    >>> def fail(args):
    ...     raise CliError("no such box")
    >>> cli = Cli()
    >>> cli.command("fail", "always fails").set_defaults(handler=fail)
    >>> cli.run(["fail"])  # stderr: fnmcts: error: no such box
    2
    """


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
    try:
        value = int(text.replace("_", ""))
    except ValueError:
        try:
            number = float(text)
        except ValueError:
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
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a seed is a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"a seed is non-negative, got {text!r}")
    return value


def add_json(parser):
    """Add the ``--json`` flag (print exactly one JSON object) to ``parser``.

    >>> parser = argparse.ArgumentParser()
    >>> add_json(parser)
    >>> parser.parse_args(["--json"]).json, parser.parse_args([]).json
    (True, False)
    """
    parser.add_argument("--json", action="store_true", help="print exactly one JSON object")


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
    """
    line = input(prompt)
    if not sys.stdin.isatty():
        print(line)  # so a scripted game's transcript reads like a session
    return line


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

    def run(self, argv) -> int:
        args = self.parser.parse_args(argv)
        handler = getattr(args, "handler", None)
        if handler is None:
            self.parser.print_help()
            return 2
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
            print(f"fnmcts: error: {error}", file=sys.stderr)
            return 2
        except (ValueError, TypeError, KeyError, OSError) as error:
            message = error.args[0] if isinstance(error, KeyError) and error.args else error
            print(f"fnmcts: error: {message}", file=sys.stderr)
            return 2
        except KeyboardInterrupt:
            print("\nfnmcts: interrupted", file=sys.stderr)
            return 130


def _version() -> str:
    try:
        from importlib.metadata import version

        return "fnmcts " + version("fnmcts")
    except Exception:
        return "fnmcts (not installed)"
