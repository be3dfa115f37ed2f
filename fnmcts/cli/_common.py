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
    """A user error: printed as one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def count(text: str) -> int:
    """A non-negative whole number: ``1000``, ``1_000`` or ``1e6``."""
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
    """A whole number of at least 1."""
    try:
        value = count(text)
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(f"expected a positive whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive number, got {text!r}")
    return value


def seed_type(text: str) -> int:
    """A seed: a non-negative whole number."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a seed is a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"a seed is non-negative, got {text!r}")
    return value


def add_json(parser):
    parser.add_argument("--json", action="store_true", help="print exactly one JSON object")


def add_seed(parser, default=None):
    parser.add_argument(
        "--seed", type=seed_type, default=default, metavar="S", help="random seed (same seed, same result)"
    )


def emit(args, payload: dict, text: str) -> None:
    """Print ``payload`` as one JSON object with ``--json``, else ``text``."""
    if getattr(args, "json", False):
        print(json.dumps(payload, sort_keys=True))
    else:
        print(text)


def read_line(prompt: str) -> str:
    """``input(prompt)``, echoing the answer when it comes from a script, not a terminal."""
    line = input(prompt)
    if not sys.stdin.isatty():
        print(line)  # so a scripted game's transcript reads like a session
    return line


@contextmanager
def progress_bar(total: int, desc: str, enabled: bool | None = None, unit: str = "game"):
    """A tqdm bar on stderr when it is a terminal; yields an ``update(k)`` callback."""
    if enabled is None:
        enabled = sys.stderr.isatty()
    if not enabled:
        yield None
        return
    from tqdm import tqdm

    with tqdm(total=total, desc=desc, unit=unit, unit_scale=True, leave=False, file=sys.stderr) as bar:
        yield bar.update


class Cli:
    """The ``fnmcts`` parser; modules add commands and per-game sub-commands."""

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
