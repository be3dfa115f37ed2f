"""Shared parts of the command line: exit statuses, the user's error, argument types, common options.

Exit status: 0 done; 1 a runtime failure (a game that failed, play that does
not end, a full disk, a closed standard stream); 2 a usage error (one line on
standard error, nothing changed); 130 interrupted by Ctrl-C (SIGINT), 143 by
SIGTERM. Every non-zero exit says why in one line (``fnmcts.cli._failure``). The parser is ``fnmcts.cli._parser.Cli``;
output, partial results and prompts are in ``fnmcts.cli._output`` (re-exported here).
"""

from __future__ import annotations

import argparse
import errno
import os
import signal
from contextlib import contextmanager

from ..parallel import Interrupted, interrupted
from ._output import emit, emit_partial, keep_partial, non_ascii_digits, progress_bar, read_line, state_field

__all__ = [
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
    "needs_test_extra",
    "in_range",
    "add_json",
    "add_seed",
    "finish_seeded",
    "add_force",
    "add_dives",
    "advanced_group",
    "emit",
    "state_field",
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

    >>> from fnmcts.cli._parser import Cli
    >>> def fail(args):
    ...     raise CliError("no such box")
    >>> cli = Cli()
    >>> cli.command("fail", "always fails").set_defaults(handler=fail)
    >>> cli.run(["fail"])  # stderr: fnmcts: error: no such box
    2
    """


MAX_WORKERS = max(8, 4 * (os.cpu_count() or 1))
"""The most worker processes a command starts (``--workers``): four a core, at least 8."""


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


def positive_number(takes: str):
    """An argparse type: a finite number above 0, its error saying what the flag ``takes`` (``"seconds"``).

    The parser writes the error as ``--flag takes seconds, a positive number, got 'x'``.

    >>> seconds = positive_number("seconds")
    >>> seconds("2.5"), seconds("1e3")
    (2.5, 1000.0)
    >>> seconds("x")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: takes seconds, a positive number, got 'x'
    >>> seconds("0")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: takes seconds, a positive number, got '0'
    """

    def parse(text: str) -> float:
        try:
            value = float(text) if text.isascii() else None
        except ValueError:
            value = None
        if value is None or not (0 < value < float("inf")):
            raise argparse.ArgumentTypeError(f"takes {takes}, a positive number, got {text!r}")
        return value

    return parse


@contextmanager
def needs_test_extra():
    """Around an import of ``fnmcts.testing``: its ``ImportError`` (hypothesis missing) as the one-line ``CliError``.

    >>> with needs_test_extra():
    ...     raise ImportError("fnmcts.testing needs hypothesis")
    Traceback (most recent call last):
    ...
    fnmcts.cli._common.CliError: fnmcts.testing needs hypothesis
    """
    try:
        yield
    except ImportError as error:  # hypothesis missing: the test extra
        raise CliError(str(error)) from None


def in_range(convert, low, high, expected: str):
    """An argparse type: ``convert(text)`` from ``low`` to ``high``, else ``expected`` and the text.

    >>> rate = in_range(float, 0, 1, "expected a number in [0, 1]")
    >>> rate("0.25")
    0.25
    >>> rate("2")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected a number in [0, 1], got '2'
    """

    def parse(text: str):
        try:
            value = convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{expected}, got {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{expected}, got {text!r}")
        return value

    return parse


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


def finish_seeded(parser, handler, *, seed=None):
    """End a seeded verb's options: ``--seed S`` (default ``seed``), ``--json``, and ``handler`` to run the verb.

    >>> parser = argparse.ArgumentParser()
    >>> finish_seeded(parser, print, seed=0)
    >>> args = parser.parse_args(["--json"])
    >>> args.seed, args.json, args.handler is print
    (0, True, True)
    """
    add_seed(parser, default=seed)
    add_json(parser)
    parser.set_defaults(handler=handler)




class _DeprecatedFlag(argparse.Action):
    """A flag of old: says on standard error which flag replaces it, then stores its value as that flag does."""

    def __init__(self, option_strings, dest, new_flag: str = "", **kwargs):
        self.new_flag = new_flag
        super().__init__(option_strings, dest, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        import sys

        print(f"fnmcts: {option_string} is deprecated and goes in the next release: use {self.new_flag}",
              file=sys.stderr)
        setattr(namespace, self.dest, values)


def add_dives(parser, dest: str = "dives", *, type=None, default=None, help: str = "dives of the search",
              old: tuple = ("--iterations",), new_flag: str = "--dives"):
    """Add ``--dives N``, a search's budget, and its old spellings (``--iterations``): hidden, same ``dest``, a warning.

    >>> import contextlib, io
    >>> parser = argparse.ArgumentParser()
    >>> add_dives(parser, type=int)
    >>> parser.parse_args(["--dives", "7"]).dives
    7
    >>> said = io.StringIO()
    >>> with contextlib.redirect_stderr(said):
    ...     parser.parse_args(["--iterations", "8"]).dives
    8
    >>> said.getvalue().splitlines()
    ['fnmcts: --iterations is deprecated and goes in the next release: use --dives']
    >>> "--iterations" in parser.format_help()
    False
    """
    type = count if type is None else type
    parser.add_argument(new_flag, dest=dest, type=type, default=default, metavar="N", help=help)
    for flag in old:
        parser.add_argument(flag, dest=dest, type=type, default=argparse.SUPPRESS, metavar="N",
                            action=_DeprecatedFlag, new_flag=new_flag, help=argparse.SUPPRESS)


def advanced_group(parser):
    """The parser's "advanced" group of options (made on first use): the experts' flags, listed last in ``--help``.

    >>> parser = argparse.ArgumentParser()
    >>> advanced_group(parser) is advanced_group(parser)
    True
    >>> advanced_group(parser).title
    'advanced'
    """
    for group in parser._action_groups:
        if group.title == "advanced":
            return group
    return parser.add_argument_group("advanced", "options for experts: the search's enhancements and variants")
