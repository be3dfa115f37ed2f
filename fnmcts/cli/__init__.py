"""The ``fnmcts`` command: the I/O edge of the library.

Each command family lives in its own module and registers its sub-commands
with ``register(cli)``; ``main`` parses, dispatches and turns every user error
into a one-line message and exit status 2, never a traceback.
"""

from __future__ import annotations

import sys

from ._common import Cli, CliError

__all__ = ["main", "CliError"]

COMMAND_MODULES = ("tour", "plot", "simulate", "shut_the_box", "search", "explore", "nim", "qlearning", "check",
                   "count", "playthrough")
"""Modules of ``fnmcts.cli`` whose ``register(cli)`` adds sub-commands, in help order."""


def build() -> Cli:
    """The full command-line interface, every module registered."""
    import importlib
    import importlib.util

    cli = Cli()
    for name in COMMAND_MODULES:
        if importlib.util.find_spec(f"{__name__}.{name}") is not None:
            importlib.import_module(f"{__name__}.{name}").register(cli)
    return cli


def main(argv=None) -> int:
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
    return build().run(sys.argv[1:] if argv is None else list(argv))
