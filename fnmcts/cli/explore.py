"""``fnmcts explore GAME -o page.html``: a search's every dive, as a page to step through in a browser.

Thin over the library: ``fnmcts.mcts.trace`` runs the dives, ``fnmcts.mcts.explore_page``
writes the page (one self-contained HTML file: no server, no network). GAME is
a built-in game, ``openspiel:NAME(params)`` or a game of your own as
``module:attribute``. The ``--vs-*`` options add a second trace from the same
seed with another rule, constant, backup or solver setting, and the page shows
the first dive whose path differs.
"""

from __future__ import annotations

import math
import sys
from functools import partial

from ..files import claim_target
from ..limits import TooLarge
from ..mcts import EXACT_STATES, PAGE_DIVES, explore_page, trace, ucb, ucb1
from ..protocol import check_reachable, parse_state
from ..rng import make_rng, resolve_seed
from ._common import CliError, add_force, add_json, add_seed, count, emit, positive_count, progress_bar
from ._games import resolve_game
from .table import write_text_atomically

__all__ = ["register", "search_options"]

DEFAULT_DIVES = 200


def register(cli) -> None:
    """Add ``fnmcts explore GAME`` to ``cli``.

    >>> from ._parser import Cli
    >>> cli = Cli()
    >>> register(cli)
    >>> args = cli.parser.parse_args(["explore", "tic-tac-toe", "--seed", "1", "--vs-rule", "ucb1", "-o", "p.html"])
    >>> args.spec, args.iterations, args.rule, args.vs_rule, args.output
    ('tic-tac-toe', 200, 'tutorial', 'ucb1', 'p.html')
    """
    p = cli.spec_command(
        "explore",
        "write a page that replays a search dive by dive, phase by phase (open it in any browser)",
        dest="spec",
    )
    p.add_argument("--state", default=None, metavar="STATE", help="search from this position (default: the start)")
    p.add_argument("--iterations", type=count, default=DEFAULT_DIVES, metavar="N",
                   help=f"dives of the search (default {DEFAULT_DIVES})")
    add_seed(p)
    p.add_argument("--rule", choices=("tutorial", "ucb1"), default="tutorial",
                   help="the selection rule: the tutorial's ucb (default) or UCB1")
    p.add_argument("--z", type=float, default=None, metavar="Z", help="z of the tutorial's ucb (default 2)")
    p.add_argument("--c", type=float, default=None, metavar="C", help="c of UCB1 (default sqrt 2)")
    p.add_argument("--backup", choices=("mean", "expectimax"), default="mean", help="how results go back up (default mean)")
    p.add_argument("--solver", action="store_true", help="MCTS-Solver: prove exact values as the search goes")
    p.add_argument("--vs-rule", choices=("tutorial", "ucb1"), default=None,
                   help="a second trace, from the same seed, with this rule")
    p.add_argument("--vs-z", type=float, default=None, metavar="Z", help="a second trace with this z")
    p.add_argument("--vs-c", type=float, default=None, metavar="C", help="a second trace with this c")
    p.add_argument("--vs-backup", choices=("mean", "expectimax"), default=None,
                   help="a second trace with this backup")
    p.add_argument("--vs-solver", choices=("on", "off"), default=None, help="a second trace with the solver on or off")
    p.add_argument("--exact-limit", type=count, default=EXACT_STATES, metavar="N",
                   help=f"show exact values when the game solves within N states (default {EXACT_STATES:,}; 0: none)")
    p.add_argument("--page-dives", type=positive_count, default=PAGE_DIVES, metavar="N",
                   help=f"the page holds the first N dives (default {PAGE_DIVES:,})")
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="the page to write (HTML)")
    add_force(p)
    add_json(p)
    p.set_defaults(handler=_explore)


def search_options(rule: str, z, c, backup: str, solver: bool) -> dict:
    """The options of ``trace``/``search`` that the command line's ``--rule``, ``--z``, ``--c``... name.

    >>> search_options("ucb1", None, 0.5, "mean", False)["rule"].keywords
    {'c': 0.5}
    >>> search_options("tutorial", 3, None, "expectimax", True)["backup"]
    'expectimax'
    >>> search_options("tutorial", None, 0.5, "mean", False)
    Traceback (most recent call last):
    ...
    fnmcts.cli._common.CliError: --c is UCB1's constant: give it with --rule ucb1 (the tutorial's ucb takes --z)
    """
    for name, value in (("z", z), ("c", c)):
        if value is not None and not (math.isfinite(value) and value >= 0):
            raise CliError(f"--{name} must be a finite number >= 0, got {value}")
    if rule == "ucb1":
        if z is not None:
            raise CliError("--z is the tutorial's constant: give it with --rule tutorial (UCB1 takes --c)")
        chosen = ucb1 if c is None else partial(ucb1, c=c)
    else:
        if c is not None:
            raise CliError("--c is UCB1's constant: give it with --rule ucb1 (the tutorial's ucb takes --z)")
        chosen = ucb if z is None else partial(ucb, z=z)
    return {"rule": chosen, "backup": backup, "solver": solver}


def _versus(args):
    """The second trace's options, or None when no ``--vs-*`` option is given."""
    given = (args.vs_rule, args.vs_z, args.vs_c, args.vs_backup, args.vs_solver)
    if all(x is None for x in given):
        return None
    rule = args.vs_rule or args.rule
    z = args.vs_z if args.vs_z is not None else (args.z if rule == args.rule else None)
    c = args.vs_c if args.vs_c is not None else (args.c if rule == args.rule else None)
    backup = args.vs_backup or args.backup
    solver = args.solver if args.vs_solver is None else args.vs_solver == "on"
    try:
        return search_options(rule, z, c, backup, solver)
    except CliError as error:
        raise CliError(str(error).replace("--", "--vs-")) from None


def _describe(options) -> str:
    rule = options["rule"]
    keywords = getattr(rule, "keywords", {})
    name = "ucb1" if getattr(rule, "func", rule) is ucb1 else "tutorial"
    text = f"rule {name}" + "".join(f", {k} = {v:g}" for k, v in keywords.items())
    return text + f", {options['backup']} backup" + (", solver" if options["solver"] else "")


def _explore(args) -> int:
    claim_target(args.output)  # a bad target (or one another process writes) fails now, not after the search
    game = resolve_game(args.spec)
    state = game.start()
    if args.state is not None:
        state = parse_state(game, args.state)
        try:
            state = check_reachable(game, state)
        except ValueError as error:
            raise CliError(f"--state {args.state.strip()} does not fit the game: {error}") from None
    if game.to_move(state) is None:
        raise CliError("the game is over at that state: there is nothing to search")
    options = search_options(args.rule, args.z, args.c, args.backup, args.solver)
    versus = _versus(args)
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
    where = "the start" if state == game.start() else f"state {args.state.strip()}"
    title = f"{game!r} from {where}: {args.iterations:,} dives of MCTS, seed {seed}"
    page = explore_page(traces[0], traces[1] if len(traces) > 1 else None, title=title, dives=args.page_dives)
    write_text_atomically(args.output, page)
    difference = traces[0].first_difference(traces[1]) if len(traces) > 1 else None
    shown = min(args.iterations, args.page_dives)
    payload = {
        "output": args.output,
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
    lines = [f"wrote {args.output} ({payload['bytes'] / 1e6:.1f} MB): {title}"]
    lines.append(f"trace A: {_describe(options)}")
    if versus is not None:
        lines.append(f"trace B: {_describe(versus)}")
        lines.append("the paths never differ" if difference is None else f"the paths first differ at dive {difference}")
    if shown < args.iterations:
        lines.append(f"the page holds the first {shown:,} of {args.iterations:,} dives (--page-dives N for more)")
    if traces[0].exact is None:
        lines.append(f"no exact values: the game holds more than {args.exact_limit:,} states (--exact-limit N)")
    lines.append("open it in any browser: it needs no server and no network")
    emit(args, payload, "\n".join(lines))
    sys.stdout.flush()
    return 0
