"""The ``fnmcts`` command: the I/O edge of the library.

Each command family lives in its own module and registers its sub-commands
with ``register(cli)``; ``main`` parses, dispatches and turns whatever ends a
command into a one-line message and its exit status (``fnmcts.cli._failure``:
2 for a usage error, 1 for a game that failed or work that could not be done),
never a traceback.

Ctrl-C and SIGTERM end the command at any moment with status 130 and 143 and a
one-line message, never a traceback: ``main`` hears them from its first line,
before the command modules are imported, and the ``fnmcts`` program keeps
hearing them until it exits (``console``).
"""

from __future__ import annotations

import signal
import sys

__all__ = ["main", "console", "CliError", "VERBS", "top_parser"]

COMMAND_MODULES = ("tour", "plot", "simulate", "shut_the_box", "shut_the_box_table", "table", "search", "explore", "play", "tournament",
                   "move", "solve", "qlearning", "check",
                   "count", "mutate", "playthrough", "exercise", "generic")
"""Modules of ``fnmcts.cli`` whose ``register(cli)`` adds sub-commands, in help order."""


VERBS = (
    ("tour", "walk the tutorial (tasks 1-13), Nim, Q-learning and testing a game: each step's calls and real results"),
    ("plot", "draw a picture of what a method learns on a game, as PNG or SVG, or its data as JSON "
             "(pictures need the plot extra)"),
    ("simulate", "estimate a probability by playing many random games"),
    ("solve", "solve a game exactly"),
    ("table", "write a table of exact values for a game"),
    ("search", "grow a Monte Carlo search tree and measure the policy it learned"),
    ("explore", "write a page that replays a search dive by dive, phase by phase (open it in any browser)"),
    ("play", "play a game at the terminal"),
    ("tournament", "play many games between two agents and count the wins"),
    ("move", "print the move an agent plays at a state"),
    ("train", "train a Q-learning AI by self-play and save its Q table"),
    ("check", "check a game's rules: every game law on random walks, a shrunk counterexample if one fails"),
    ("count", "count a game's states and histories ply by ply (perft), by outcome at the end"),
    ("mutate", "mutation testing of a game's rules: how many slips the checks catch, and a line of play for each "
               "they miss"),
    ("playthrough", "write one seeded random game state by state, or check a game against such a file "
                    "(with --check, GAME defaults to the game the file names)"),
    ("exercise", "the course's exercises: list them, show one to copy, check your answer"),
)
"""The verbs and their one-line help, in help order: ``fnmcts --help`` prints them without importing a verb's
module (a test checks them against the parser ``build`` makes)."""

HELP_FLAGS = (["-h"], ["--help"])
"""The command lines answered by the light parser: the top-level help alone."""


def top_parser():
    """A parser with the verbs' names and help only: the top-level ``--help`` of ``build()``, at a fraction of its cost.

    >>> "exercise" in top_parser().format_help()
    True
    """
    import argparse

    parser = argparse.ArgumentParser(
        prog="fnmcts", description="Monte Carlo simulation and tree search over immutable game values."
    )
    parser.add_argument("--version", action="version", version="fnmcts")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, help in VERBS:
        commands.add_parser(name, help=help)
    return parser


def __getattr__(name):
    if name == "CliError":  # imported on first use: ``import fnmcts.cli`` stays light, so main hears signals early
        from ._common import CliError

        return CliError
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class _Terminated(KeyboardInterrupt):
    """SIGTERM heard before a command installs its own handlers: an interruption with status 143."""

    signum = signal.SIGTERM


def _terminate(signum, frame):
    raise _Terminated()


def _hear_signals() -> dict:
    """SIGTERM raises ``_Terminated`` and Ctrl-C ``KeyboardInterrupt`` (an ignored signal stays ignored); the old handlers."""
    import threading

    if threading.current_thread() is not threading.main_thread():
        return {}
    saved = {}
    for number, handler in ((signal.SIGTERM, _terminate), (signal.SIGINT, signal.default_int_handler)):
        if signal.getsignal(number) is not signal.SIG_IGN:
            saved[number] = signal.signal(number, handler)
    return saved


def build():
    """The full command-line interface, every module registered."""
    import importlib
    import importlib.util

    from ._parser import Cli

    return Cli(*(importlib.import_module(f"{__name__}.{name}").register for name in COMMAND_MODULES
                 if importlib.util.find_spec(f"{__name__}.{name}") is not None))


def _hypothesis_home() -> None:
    """The fnmcts program keeps hypothesis's files (its Unicode tables) in the user's cache, not in the current folder.

    ``check``, ``count`` and ``playthrough`` run hypothesis, which writes a
    ``.hypothesis`` folder where it runs unless told where; the program (not
    the library, nor ``main`` called in a process of the user's) tells it, unless
    ``HYPOTHESIS_STORAGE_DIRECTORY`` is set already.
    """
    import os

    if "HYPOTHESIS_STORAGE_DIRECTORY" not in os.environ:
        cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        os.environ["HYPOTHESIS_STORAGE_DIRECTORY"] = os.path.join(cache, "fnmcts", "hypothesis")


def _leave_at_once(signum, frame):
    import os

    os._exit(128 + signum)


def _stopped(error: KeyboardInterrupt) -> int:
    """The one line and the status of an interruption heard outside a command's own handling."""
    from ._streams import settle_stdout

    signum = getattr(error, "signum", signal.SIGINT)
    settle_stdout()
    _say(f"\nfnmcts: interrupted by {signal.Signals(signum).name}")
    return 128 + signum


def _say(line: str) -> None:
    """Print ``line`` on standard error if it can be printed (closed, gone or interrupted: nothing)."""
    try:
        if sys.stderr is not None:
            print(line, file=sys.stderr)
    except (OSError, ValueError, KeyboardInterrupt):
        pass


def _failed(error: Exception) -> int:
    """An exception outside a command's run (building the parser): the same one line as a command's."""
    from ._failure import failure, wants_traceback

    if wants_traceback():
        import traceback

        traceback.print_exc()
    message, status = failure(error)
    _say(f"fnmcts: error: {message}")
    return status


def main(argv=None, *, _keep_handlers: bool = False) -> int:
    """Run the ``fnmcts`` command with ``argv`` (default: ``sys.argv[1:]``); return the exit status.

    >>> main(["simulate", "coin", "--games", "100", "--seed", "1"])
    coin flips (heads wins)
    games     100
    wins      43
    losses    57
    estimate  0.43
    95% CI    [0.337333, 0.527846]
    seed      1
    0
    """
    saved = {}
    try:
        saved = _hear_signals()
        argv = sys.argv[1:] if argv is None else list(argv)
        if argv in HELP_FLAGS:  # the top-level help: the verbs' names and help, no verb's module imported
            top_parser().print_help()
            return 0
        return build().run(argv)
    except KeyboardInterrupt as error:
        return _stopped(error)
    except Exception as error:  # noqa: BLE001 (the one line of fnmcts.cli._failure, never a traceback)
        return _failed(error)
    finally:
        if not _keep_handlers:
            for number, handler in saved.items():
                signal.signal(number, handler)


def console() -> None:
    """The ``fnmcts`` program: ``main`` with Ctrl-C and SIGTERM heard until the process exits.

    It ends the process with ``main``'s status (here a typo: 2 and one line):

    >>> import subprocess, sys
    >>> program = "import sys; sys.argv = ['fnmcts', 'simulate', 'coin', '--games', 'many']; import fnmcts.cli as c; c.console()"
    >>> done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True)
    >>> done.returncode, done.stderr.splitlines()
    (2, ["fnmcts simulate coin: error: argument --games: expected a positive whole number, got 'many' (see --help)"])

    Standard output is settled before the exit (flushed, or pointed at
    /dev/null when it cannot take the rest), so the interpreter prints nothing
    as it ends, even when standard output was closed or its reader went away.
    """
    import os

    _hypothesis_home()
    try:
        code = main(_keep_handlers=True)
    except KeyboardInterrupt as error:  # between two handlers, or in a last flush
        code = _stopped(error)
    while True:
        try:
            for number in (signal.SIGINT, signal.SIGTERM):  # from here to the exit: leave at once, with the status
                if signal.getsignal(number) is not signal.SIG_IGN:
                    signal.signal(number, _leave_at_once)
            break
        except KeyboardInterrupt as error:  # came as main returned, before the last handlers: the same one line
            code = _stopped(error)
    from ._streams import settle_stdout

    settle_stdout()
    if code in (128 + signal.SIGINT, 128 + signal.SIGTERM) or _nothing_left():
        # the report is out and the command's files and workers are let go: leave now rather than spend the
        # interpreter's tidying of a large heap (half a second after a check), during which Python has set the
        # signals back to their defaults (a SIGTERM then would end the process raw, status -15)
        try:
            sys.stderr.flush()
        except (OSError, ValueError, AttributeError):
            pass
        os._exit(code)
    raise SystemExit(code)


def _nothing_left() -> bool:
    """Whether the process holds no worker process (kept or running) nor MPI, whose ending the interpreter's exit sees to."""
    processes = sys.modules.get("multiprocessing")
    parallel = sys.modules.get("fnmcts.parallel")
    if processes is not None and processes.active_children():
        return False
    mpi = sys.modules.get("mpi4py.MPI")  # --executor mpi: MPI is finalized at the interpreter's exit, else the job fails
    if mpi is not None and mpi.Is_initialized() and not mpi.Is_finalized():
        return False
    return not getattr(parallel, "_KEPT", None)
