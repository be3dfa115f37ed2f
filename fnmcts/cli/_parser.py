"""The ``fnmcts`` parser: commands, games named on every verb, and one exit status for every outcome.

Exit status: 0 done; 1 a runtime failure (a game that failed, play that does
not end, a full disk, a closed standard stream); 2 a usage error (one line on
standard error, nothing changed); 130 interrupted by Ctrl-C (SIGINT), 143 by
SIGTERM. Every non-zero exit says why in one line (``fnmcts.cli._failure``).

Interruptions keep the work (``fnmcts.cli._output`` says how: ``keep_partial``
prints the result of the work done so far, marked as partial, and the command
exits with 130 or 143):

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
import sys

from ..files import _signals_deferred, held_claims, release_claims
from ..limits import GO_ON, TooLarge
from ._games import GAME_FORMS
from ._common import EXIT_DONE, EXIT_FAILURE, EXIT_USAGE, CliError, exit_status
from ._failure import failure, wants_traceback
from ._output import _signals_interrupt, keep_partial, non_ascii_digits  # noqa: F401 (keep_partial: the doctest)
from ._streams import closed_streams, closed_text, settle_stdout
from ._game_first import _is_spec, game_first
from ._typos import game_typo, unrecognized, verb_typo
from ..parallel import Interrupted, WorkerLost

__all__ = ["Cli", "GAME_EPILOG"]

GAME_EPILOG = (
    "GAME is a built-in game's name, openspiel:NAME(params) or a game of your own as module:attribute,\n"
    "with parameters if it takes any: nim(heap=5), mygames:Connect(rows=4). The spelling\n"
    "'any --game SPEC' (and '--game SPEC') is still read, for one release."
)
"""The help's last lines on every verb that takes a game."""


def _take_game_flag(args: list):
    """``(SPEC, the other arguments)`` for arguments holding ``--game SPEC`` or ``--game=SPEC``; ``(None, args)`` without.

    >>> _take_game_flag(["--games", "5", "--game=nim", "-o", "x"])
    ('nim', ['--games', '5', '-o', 'x'])
    >>> _take_game_flag(["perfect", "random"])
    (None, ['perfect', 'random'])
    """
    for i, arg in enumerate(args):
        if arg == "--game" and i + 1 < len(args):
            return args[i + 1], args[:i] + args[i + 2:]
        if arg.startswith("--game="):
            return arg.partition("=")[2], args[:i] + args[i + 1:]
    return None, args


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        if message.startswith("argument GAME: invalid choice:"):  # a typo of a game's name: say what GAME can be
            message = game_typo(message, self.prog.split()[-1])
        elif message.startswith("argument COMMAND: invalid choice:"):  # a typo of a verb: the nearest verb
            message = verb_typo(message)
        elif message.startswith("argument -") and ": takes " in message:  # positive_number: "--budget takes seconds, ..."
            message = message.removeprefix("argument ").replace(": takes ", " takes ", 1)
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")

    def parse_known_args(self, args=None, namespace=None):
        namespace, extras = super().parse_known_args(args, namespace)
        if extras and getattr(namespace, "_extras_of", None) is None:  # the innermost parser meets them first
            namespace._extras_of = self
        return namespace, extras

    def parse_args(self, args=None, namespace=None):
        """``ArgumentParser.parse_args``, an unknown flag said by the sub-command's parser with its nearest flag."""
        namespace, extras = self.parse_known_args(args, namespace)
        owner = namespace.__dict__.pop("_extras_of", None) or self
        if extras:
            owner.error(unrecognized(extras, owner))
        return namespace


class Cli:
    """The ``fnmcts`` parser; modules add commands and per-game sub-commands.

    ``Cli(*registers)`` calls each command module's ``register(cli)``, which adds its commands.

    >>> cli = Cli()
    >>> p = cli.game_command("greet", "nim", "say hello to Nim")
    >>> p.set_defaults(handler=lambda args: print("hello, " + args.game))
    >>> cli.run(["greet", "nim"])
    hello, nim
    0
    >>> Cli(lambda cli: cli.game_command("greet", "pig", "say hello to Pig")).has_game("greet", "pig")
    True
    """

    def __init__(self, *registers):
        self.parser = _Parser(
            prog="fnmcts",
            description="Monte Carlo simulation and tree search over immutable game values.",
        )
        self.parser.add_argument("--version", action="version", version=_version())
        self._commands = self.parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
        self._games: dict = {}
        self._routes: dict = {}  # command -> the GAME sub-command that reads any spec (as --game SPEC)
        self._positional: set = set()  # commands whose first argument is a game spec
        for register in registers:
            register(self)

    def command(self, name: str, help: str) -> argparse.ArgumentParser:
        """A top-level command without a game (``fnmcts NAME ...``)."""
        return self._commands.add_parser(name, help=help, description=help)

    def game_command(self, command: str, game: str, help: str, command_help: str | None = None):
        """The parser for ``fnmcts COMMAND GAME ...``; created on first use."""
        if command not in self._games:
            parent = self._commands.add_parser(
                command, help=command_help or f"{command} a game", description=command_help,
                epilog=GAME_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
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
        """The parser for ``fnmcts COMMAND SPEC ...``: the sub-command ``game`` that reads any game spec.

        ``fnmcts COMMAND SPEC`` (a spec no sub-command names: ``openspiel:nim``,
        ``mygames:Connect(rows=4)``, ``nim(heap=5)``) reaches it, and so does the
        old spelling ``fnmcts COMMAND [any] --game SPEC``; the parser reads the spec as ``--game``.

        >>> cli = Cli()
        >>> p = cli.game_option("greet", "any", "say hello to any game")
        >>> _ = p.add_argument("--game", dest="spec", required=True)
        >>> p.set_defaults(handler=lambda args: print(f"{args.game}: hello, {args.spec}"))
        >>> cli.run(["greet", "openspiel:nim"]), cli.run(["greet", "--game", "go"]), cli.run(["greet", "any", "--game=go"])
        any: hello, openspiel:nim
        any: hello, go
        any: hello, go
        (0, 0, 0)
        """
        self._routes[command] = game
        return self.game_command(command, game, help, command_help)

    def spec_command(self, name: str, help: str, *, optional: bool = False, dest: str = "game_spec"):
        """A command whose first argument is any game spec (``fnmcts NAME GAME ...``); ``--game SPEC`` is its old spelling.

        >>> cli = Cli()
        >>> p = cli.spec_command("greet", "say hello")
        >>> p.set_defaults(handler=lambda args: print(f"hello, {args.game_spec}"))
        >>> cli.run(["greet", "nim(heap=5)"]), cli.run(["greet", "--game", "mygames:TakeAway"])
        hello, nim(heap=5)
        hello, mygames:TakeAway
        (0, 0)
        """
        parser = self._commands.add_parser(name, help=help, description=help)
        nargs = {"nargs": "?", "default": None} if optional else {}
        parser.add_argument(dest, metavar="GAME", help=f"the game: {GAME_FORMS}", **nargs)
        self._positional.add(name)
        return parser

    def _route(self, argv: list) -> list:
        """Every way of naming a game read as the parser's: see ``game_option`` and ``spec_command``."""
        if not argv or argv[0] not in self._games and argv[0] not in self._positional:
            return argv
        command, rest = argv[0], argv[1:]
        if "--" in rest:  # after "--" everything is positional: leave it to the parser
            return argv
        spec, rest = _take_game_flag(rest)
        if command not in self._positional and spec is None:
            rest = self._game_first(command, rest)
        if command in self._positional:
            return [command, *([] if spec is None else [spec]), *rest]
        choices = self._games[command].choices
        if command not in self._routes:  # GAME is one of the verb's own games
            return argv if spec is not None else [command, *rest]
        if spec is not None:  # the old spelling: [any] --game SPEC
            if rest and rest[0] in choices:
                return [command, rest[0], "--game", spec, *rest[1:]]
            return [command, self._routes[command], "--game", spec, *rest]
        if rest and rest[0] not in choices and _is_spec(rest[0]):
            self._name_route(command, rest[0])
            return [command, self._routes[command], "--game", rest[0], *rest[1:]]
        return [command, *rest]  # a name (moved first), or a typo of one: the parser's "invalid choice" lists the verb's games

    def _game_first(self, command: str, rest: list) -> list:
        """``rest`` with GAME moved before the flags typed ahead of it (``fnmcts.cli._game_first``)."""
        route = self._routes.get(command)
        return game_first(command, self._commands.choices[command], self._games[command].choices, route, rest)

    def _name_route(self, command: str, spec: str) -> None:
        """Let the usage, help and errors of ``fnmcts COMMAND SPEC`` say SPEC, as the user typed it, not the route's inner name.

        >>> cli = Cli()
        >>> p = cli.game_option("greet", "any", "say hello to any game")
        >>> _ = p.add_argument("--game", dest="spec", required=True, help="the game")
        >>> _ = p.add_argument("--name", required=True)
        >>> cli.run(["greet", "nim(heap=5)"])  # stderr: fnmcts greet nim(heap=5): error: the following arguments are required: --name (see --help)
        Traceback (most recent call last):
        SystemExit: 2
        >>> p.format_usage()
        'usage: fnmcts greet nim(heap=5) [-h] --name NAME\\n'
        """
        parser = self._games[command].choices[self._routes[command]]
        parser.prog = f"fnmcts {command} {spec}"
        for action in parser._actions:
            if "--game" in action.option_strings:  # given by the route: neither shown nor asked for
                action.help = argparse.SUPPRESS

    def run(self, argv) -> int:
        """Parse ``argv``, run its command, and return the exit status (see the module's docstring).

        Whatever ends the command is said in one line on standard error (``fnmcts.cli._failure``):
        an exception escaping the command, a standard stream that is closed, an interruption.
        """
        closed = closed_streams()
        if closed:  # started with a closed standard stream (``>&-``): one line, status 1, nothing run
            return _closed_stream(closed)
        held = held_claims()
        args = None
        with _signals_interrupt():
            try:
                args = self._parse(argv)
                return self._run(args)
            except KeyboardInterrupt as error:
                return _interrupted(error)
            except SystemExit:  # argparse's --help, --version or usage error: what it printed must get out
                stuck = settle_stdout()
                if stuck is not None and not isinstance(stuck, BrokenPipeError):
                    return _error(f"cannot write standard output: {getattr(stuck, 'strerror', None) or stuck}",
                                  EXIT_FAILURE)
                raise
            except BrokenPipeError:
                # the reader went away (``fnmcts ... | head -1``): stop quietly, as cat does
                settle_stdout()
                return EXIT_DONE
            except WorkerLost as error:  # a worker died mid-run: one line, the chunks finished kept (shown above)
                shown = ": the result above is partial" if error.reported else ""
                return _error(f"{error}{shown}", EXIT_FAILURE)
            except TooLarge as error:  # the library's "limit=None" is the command's --force, where it has one
                go_on = "; --force goes on regardless" if hasattr(args, "force") else ""
                return _error(str(error).replace(GO_ON, go_on), EXIT_USAGE)
            except Exception as error:  # any other exception: one line naming it, never a traceback
                if _stream_error(error):  # print() met a full disk: said as the stream's problem
                    settle_stdout()
                    return _error(f"cannot write standard output: {error.strerror}", EXIT_FAILURE)
                if wants_traceback():
                    import traceback

                    traceback.print_exc()
                return _error(*failure(error, args))
            finally:
                with _signals_deferred():  # the lock files go whole: a signal now comes after
                    release_claims(keep=held)  # the output files this command claimed are free again

    def _parse(self, argv):
        for arg in argv:
            if isinstance(arg, str) and non_ascii_digits(arg):
                raise CliError(f"{arg!r} holds digits other than 0-9, which fnmcts does not read as numbers: "
                               "write numbers with the digits 0-9")
        return self.parser.parse_args(self._route(list(argv)))

    def _run(self, args) -> int:
        handler = getattr(args, "handler", None)
        if handler is None:  # no command: asking for nothing is asking for help
            self.parser.print_help()
            return EXIT_DONE
        code = handler(args) or 0
        stuck = settle_stdout()  # a full disk or a reader gone shows here, not at the interpreter's exit
        if isinstance(stuck, BrokenPipeError):
            return EXIT_DONE
        if stuck is not None:
            return _error(f"cannot write standard output: {getattr(stuck, 'strerror', None) or stuck}", EXIT_FAILURE)
        return code


_STREAM_ERRNOS = frozenset({errno.ENOSPC, errno.EIO, errno.EBADF, errno.EFBIG, errno.EDQUOT})


def _stream_error(error: BaseException) -> bool:
    """Whether ``error`` is a standard stream that cannot be written (a full disk under ``> file``, ``> /dev/full``).

    Files fnmcts writes itself fail as a ``WriteError`` naming the file; a bare
    ``OSError`` of these kinds comes from printing.

    >>> _stream_error(OSError(errno.ENOSPC, "No space left on device")), _stream_error(OSError(errno.ENOENT, "x", "f"))
    (True, False)
    """
    from ..files import WriteError

    return (isinstance(error, OSError) and not isinstance(error, WriteError) and error.filename is None
            and error.errno in _STREAM_ERRNOS)


def _error(message, status: int) -> int:
    """Print ``fnmcts: error: MESSAGE`` on standard error (if it can be printed) and return ``status``."""
    try:
        print(f"fnmcts: error: {message}", file=sys.stderr)
    except (OSError, ValueError, AttributeError):  # standard error closed or gone: the status alone says it
        pass
    settle_stdout()
    return status


def _interrupted(error: KeyboardInterrupt) -> int:
    """Say that the command was interrupted (and whether the result shown is partial); 128 + the signal."""
    name = error.signal_name if isinstance(error, Interrupted) else "SIGINT"
    shown = ": the result above is partial" if getattr(error, "reported", False) else ""
    settle_stdout()
    try:
        print(f"\nfnmcts: interrupted by {name}{shown}", file=sys.stderr)
    except (OSError, ValueError, AttributeError):
        pass
    return exit_status(error)


def _closed_stream(closed) -> int:
    """One line for the standard streams that are closed, and status 1: nothing runs without them."""
    if sys.stderr is not None and not any(name == "standard error" for name, _, _ in closed):
        _error(closed_text(closed), EXIT_FAILURE)
    return EXIT_FAILURE


def _version() -> str:
    try:
        from importlib.metadata import version

        return "fnmcts " + version("fnmcts")
    except Exception:
        return "fnmcts (not installed)"
