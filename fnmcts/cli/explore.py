"""``fnmcts explore GAME -o page.html``: a search's every dive, as a page to step through in a browser.

Thin over the library: ``fnmcts.views.trace`` runs the dives, ``fnmcts.views.explore_page``
writes the page (one self-contained HTML file: no server, no network). GAME is
a built-in game, ``openspiel:NAME(params)`` or a game of your own as
``module:attribute``. The ``--vs-*`` options add a second trace from the same
seed with another rule, constant, backup or solver setting, and the page shows
the first dive whose path differs. The search flags are ``fnmcts.mcts.SearchOptions``'
fields, as on every verb that searches (``fnmcts.cli._search_flags``); explore's
defaults are the tutorial's (``TUTORIAL``: its ucb, the mean backup, no solver).
"""

from __future__ import annotations

import argparse

from ..limits import TooLarge
from ..mcts import BACKUPS
from ..views import EXACT_STATES, PAGE_DIVES, explore_page, trace
from ..protocol import game_text
from ..rng import make_rng, resolve_seed
from ._common import CliError, add_dives, add_force, add_json, add_seed, count, emit, non_negative_number, positive_count, progress_bar
from ._search_flags import SEARCH_RULES, add_search_options, search_flag_names, search_flags
from ._board import is_start, state_argument
from ._games import resolve_game
from ._streams import claim_output, report_stream, write_output

__all__ = ["register", "trace_options", "TUTORIAL"]

DEFAULT_DIVES = 200


def register(cli) -> None:
    """Add ``fnmcts explore GAME`` to ``cli``.

    >>> from ._parser import Cli
    >>> cli = Cli(register)
    >>> args = cli.parser.parse_args(["explore", "tic-tac-toe", "--seed", "1", "--vs-rule", "ucb1", "-o", "p.html"])
    >>> args.spec, args.iterations, args.rule, args.vs_rule, args.output  # rule unset: the tutorial's, as trace_options fills in
    ('tic-tac-toe', 200, None, 'ucb1', 'p.html')
    """
    p = cli.spec_command(
        "explore",
        "write a page that replays a search dive by dive, phase by phase (open it in any browser)",
        dest="spec",
    )
    p.add_argument("--state", default=None, metavar="STATE", help="search from this position (default: the start)")
    add_dives(p, "iterations", type=positive_count, default=DEFAULT_DIVES,
              help=f"dives of the search (default {DEFAULT_DIVES})")
    add_seed(p)
    add_search_options(p)  # every field of SearchOptions, as on every verb that searches; the tutorial's defaults here
    p.add_argument("--solver", dest="solver", action="store_const", const=True,
                   help="MCTS-Solver: prove exact values as the search goes (off by default here, as in the tutorial)")
    p.add_argument("--vs-rule", choices=SEARCH_RULES, default=None,
                   help="a second trace, from the same seed, with this rule")
    p.add_argument("--vs-z", type=non_negative_number, default=None, metavar="Z", help="a second trace with this z")
    p.add_argument("--vs-c", type=non_negative_number, default=None, metavar="C", help="a second trace with this c")
    p.add_argument("--vs-backup", choices=tuple(BACKUPS), default=None,
                   help="a second trace with this backup")
    p.add_argument("--vs-solver", choices=("on", "off"), default=None, help="a second trace with the solver on or off")
    p.add_argument("--exact-limit", type=count, default=EXACT_STATES, metavar="N",
                   help=f"show exact values when the game solves within N states (default {EXACT_STATES:,}; 0: none)")
    p.add_argument("--page-dives", type=positive_count, default=PAGE_DIVES, metavar="N",
                   help=f"the page holds the first N dives (default {PAGE_DIVES:,})")
    p.add_argument("-o", "--output", required=True, metavar="FILE",
                   help="the page to write (HTML; - for standard output, the report then on standard error)")
    add_force(p)
    add_json(p)
    p.set_defaults(handler=_explore)


TUTORIAL = {"rule": "tutorial", "backup": "mean", "solver": False}
"""explore's defaults, the tutorial's search: its ucb, the mean backup, no solver (every other option: the library's)."""


def trace_options(args) -> dict:
    """The options of ``trace`` that the search flags name (``fnmcts.cli._search_flags``), explore's defaults filled in.

    >>> import argparse
    >>> parser = argparse.ArgumentParser()
    >>> add_search_options(parser)
    >>> trace_options(parser.parse_args([]))
    {'rule': 'tutorial', 'backup': 'mean', 'solver': False}
    >>> trace_options(parser.parse_args(["--rule", "ucb1", "--c", "0.5", "--rave", "30"]))
    {'rule': 'ucb1', 'backup': 'mean', 'solver': False, 'c': 0.5, 'rave': 30.0}
    >>> trace_options(parser.parse_args(["--c", "0.5"]))
    Traceback (most recent call last):
    ...
    fnmcts.cli._common.CliError: --c is UCB1's constant: use it with --rule ucb1 (the tutorial's ucb takes --z)
    """
    given = dict(search_flags(argparse.Namespace(**{**vars(args), "rule": getattr(args, "rule", None) or "tutorial"})))
    return {**TUTORIAL, **given}


def _versus(args, first: dict):
    """The second trace's options (``first``'s, changed by the ``--vs-*`` options), or None when none is given."""
    given = (args.vs_rule, args.vs_z, args.vs_c, args.vs_backup, args.vs_solver)
    if all(x is None for x in given):
        return None
    options = dict(first)
    if args.vs_rule is not None and args.vs_rule != first["rule"]:  # a constant belongs to its rule
        options = {k: v for k, v in options.items() if k not in ("c", "z")} | {"rule": args.vs_rule}
    for name, value in (("z", args.vs_z), ("c", args.vs_c), ("backup", args.vs_backup)):
        if value is not None:
            options[name] = value
    if args.vs_solver is not None:
        options["solver"] = args.vs_solver == "on"
    try:
        return trace_options(argparse.Namespace(**{name: options.get(name) for name in search_flag_names()}))
    except CliError as error:
        raise CliError(str(error).replace("--", "--vs-")) from None


def _describe(options) -> str:
    """The options of one trace in words: ``rule ucb1, c = 0.4, mean backup``.

    >>> _describe({"rule": "ucb", "z": 3.0, "backup": "expectimax", "solver": True, "rave": 30.0})
    'rule tutorial, z = 3, expectimax backup, solver, rave = 30'
    """
    name = "ucb1" if options["rule"] == "ucb1" else "tutorial"
    text = f"rule {name}" + "".join(f", {k} = {options[k]:g}" for k in ("c", "z") if options.get(k) is not None)
    text += f", {options['backup']} backup" + (", solver" if options["solver"] else "")
    shown = [k for k in options if k not in ("rule", "c", "z", "backup", "solver") and options[k] not in (None, False)]
    return text + "".join(f", {k.replace('_', ' ')} = {options[k]:g}" if isinstance(options[k], (int, float))
                          and not isinstance(options[k], bool) else f", {k.replace('_', ' ')}" for k in shown)


def _explore(args) -> int:
    claim_output(args.output)  # a bad target (or one another process writes) fails now, not after the search
    game = resolve_game(args.spec)
    state = state_argument(game, args.state)
    if game.to_move(state) is None:
        raise CliError("the game is over at that state: there is nothing to search")
    options = trace_options(args)
    versus = _versus(args, options)
    if versus is not None and _describe(versus) == _describe(options):
        raise CliError("the --vs-* options name the same search as the first: change the rule, a constant, the backup or the solver")
    seed = resolve_seed(args.seed)
    limits = {"memory": None} if args.force else {}
    traces = []
    for opts in [options] + ([versus] if versus is not None else []):
        with progress_bar(args.iterations, "dives", unit="dive") as update:
            try:
                traces.append(trace(game, state, args.iterations, make_rng(seed), exact=args.exact_limit,
                                    progress=update, **opts, **limits))
            except TooLarge as error:
                raise CliError(str(error).replace("memory=None goes on regardless", "--force goes on regardless")) from None
    where = "the start" if is_start(args.state) else f"state {args.state.strip()}"
    title = f"{game_text(game)} from {where}: {args.iterations:,} dives of MCTS, seed {seed}"
    page = explore_page(traces[0], traces[1] if len(traces) > 1 else None, title=title, dives=args.page_dives)
    where = write_output(args.output, page)
    difference = traces[0].first_difference(traces[1]) if len(traces) > 1 else None
    shown = min(args.iterations, args.page_dives)
    payload = {
        "output": where,
        "game": repr(game),
        "iterations": args.iterations,
        "dives_shown": shown,
        "seed": seed,
        "options": _describe(options),
        "versus": None if versus is None else _describe(versus),
        "first_difference": difference,
        "exact": traces[0].exact is not None,
        "bytes": len(page.encode("utf-8")),
    }
    lines = [f"wrote {where} ({payload['bytes'] / 1e6:.1f} MB): {title}"]
    lines.append(f"trace A: {_describe(options)}")
    if versus is not None:
        lines.append(f"trace B: {_describe(versus)}")
        lines.append("the paths never differ" if difference is None else f"the paths first differ at dive {difference}")
    if shown < args.iterations:
        lines.append(f"the page holds the first {shown:,} of {args.iterations:,} dives (--page-dives N for more)")
    if traces[0].exact is None:
        lines.append(f"no exact values: the game holds more than {args.exact_limit:,} states (--exact-limit N)")
    lines.append("open it in any browser: it needs no server and no network")
    with report_stream(args):  # with -o -, standard output holds the page: the report goes to standard error
        emit(args, payload, "\n".join(lines))
    return 0
