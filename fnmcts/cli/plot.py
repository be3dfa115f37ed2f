"""``fnmcts plot NAME -o FILE.png|svg``: draw what a method learned (matplotlib, the plot extra)."""

from __future__ import annotations

from ._common import CliError, add_json, add_seed, emit, positive_count, progress_bar

__all__ = ["register", "BUDGETS"]

BUDGETS = {
    "pi": ("darts thrown", "n", 100_000, "dart", lambda n: n),
    "mcts": ("dives", "dives", 100_000, "checkpoint", lambda n: 8),
    "flat-mc": ("rollouts a move", "trials", 1_000, "heap", lambda n: 23),
    "qlearning": ("training games", "games", 10_000, "checkpoint", lambda n: 10),
    "tournament": ("games a pairing", "games", 100, "pairing", lambda n: 10),
}
"""``plot -> (what --budget counts, the data function's argument, its default, the progress unit, progress total)``."""

_SEEDS = {"pi": 1, "mcts": 2017, "flat-mc": 1, "qlearning": 1, "tournament": 1}


def register(cli) -> None:
    """Add ``fnmcts plot NAME -o FILE`` to ``cli``.

    >>> from ._parser import Cli
    >>> cli = Cli()
    >>> register(cli)
    >>> args = cli.parser.parse_args(["plot", "pi", "-o", "pi.svg", "--budget", "1e3"])
    >>> args.name, args.output, args.budget, args.seed, args.json
    ('pi', 'pi.svg', 1000, None, False)
    """
    names = tuple(BUDGETS)
    budgets = "; ".join(f"{name}: {what} (default {default:,})" for name, (what, _, default, _, _) in BUDGETS.items())
    p = cli.command("plot", "draw a picture of what a method learned, as PNG or SVG (needs the plot extra)")
    p.add_argument("name", choices=names, metavar="NAME", help=f"one of {', '.join(names)}")
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="the file to write: .png or .svg")
    p.add_argument("--budget", type=positive_count, default=None, metavar="N", help=f"the size of the run: {budgets}")
    add_seed(p)
    add_json(p)
    p.set_defaults(handler=_plot)


def _plot(args) -> int:
    suffix = args.output.rsplit(".", 1)[-1].lower() if "." in args.output else ""
    if suffix not in ("png", "svg"):
        raise CliError(f"the output must end in .png or .svg, got {args.output!r}")
    try:
        from .. import plots as plots
    except ImportError as error:  # matplotlib missing
        raise CliError(f"{error}: pip install 'fnmcts[plot]'") from None
    from ..files import claim_target

    claim_target(args.output)  # a missing folder, a directory or another writer fails before the work
    what, argument, default, unit, total = BUDGETS[args.name]
    budget = default if args.budget is None else args.budget
    seed = _SEEDS[args.name] if args.seed is None else args.seed
    compute = plots.PLOTS[args.name][0]
    with progress_bar(total(budget), args.name, unit=unit) as update:
        data = compute(**{argument: budget}, seed=seed, progress=update)
    path = plots.save_figure(plots.figure(args.name, data), args.output)
    payload = {"file": str(path), "plot": args.name, "budget": budget, "budget_counts": what, "seed": seed}
    emit(args, payload, f"wrote {path} ({args.name}: {what} {budget:,}, seed {seed})")
    return 0
