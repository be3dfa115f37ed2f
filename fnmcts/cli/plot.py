"""``fnmcts plot GAME [--what KIND] -o FILE.png|svg``: a picture of what a method learns on a game (the plot extra).

GAME is any game the other verbs take (a built-in name, ``openspiel:SPEC``,
``module:attribute``), or one of the two Monte Carlo experiments, ``coin``
and ``darts``. KIND is one of ``fnmcts.plots.KINDS``:

* ``search`` (any game; the default): one search's root value, its move's share
  of the visits and, when the exact solver can solve the game, that move's
  exact value (one player: the greedy policy's) beside the optimum, against dives;
* ``flat-mc``: flat Monte Carlo beside MCTS at equal playouts, the share of
  runs that pick an exact best move;
* ``tournament`` (two players): a match's running score between ``--agents A B``;
* ``qlearning`` (two players, a game small enough for a table): Q-learning's
  optimal-move share against training games;
* ``simulate``: random play's running estimate with its 95% band (the coin's
  heads, pi from the darts: the default for ``coin`` and ``darts``);
* ``convergence``: random play's running mean payoff with its fixed-n 95% band
  and its anytime-valid band (``fnmcts.lab``), beside the exact value where the
  exact solver reaches it (the coin: ``fnmcts.games.Coin``; the darts:
  ``fnmcts.games.Darts``, a 20 by 20 grid whose exact value is a count).

``--json`` prints the data (and draws nothing unless ``-o`` is given too).
The old spelling ``fnmcts plot pi|mcts|flat-mc|qlearning|tournament`` still
draws the tutorial's pictures for one release (``fnmcts.cli._old_plots``).
"""

from __future__ import annotations

import argparse
import math

from ..limits import STATE_LIMIT, WORK_LIMIT, TooLarge, check_work, play_work
from ..exact import random_policy, value
from ..protocol import CHANCE, game_text
from ..rng import make_rng
from ._board import state_argument
from ._payoffs import SCORE, scale_fields
from ._agents import _agent_args, _agent_options, _check_agents, build_agent
from ._common import CliError, add_force, add_json, add_seed, emit, positive_count, progress_bar
from ._streams import claim_output, report_stream, to_stdout, write_output
from ._games import GAME_FORMS, _nearest, resolve_game
from ._old_plots import BUDGETS as OLD_NAMES, plot_old
from ._search_flags import search_flags

__all__ = ["register", "KIND_BUDGETS", "RUN_FLAGS", "EXPERIMENTS"]

KIND_BUDGETS = {
    "search": ("dives", 10_000, 8),
    "flat-mc": ("random games a move", 100, 6),
    "tournament": ("games", 100, None),
    "qlearning": ("training games", 10_000, 10),
    "simulate": ("trials", 100_000, 40),
    "convergence": ("random games", 10_000, 40),
}
"""``kind -> (what the size of the run counts, its default, the checkpoints by default)``."""

RUN_FLAGS = {"search": "--dives", "flat-mc": "--trials", "tournament": "--games", "qlearning": "--games",
             "simulate": "--trials", "convergence": "--trials"}
"""``kind -> the flag of the run's size``: a search's dives are ``--dives`` as on every verb, games ``--games``,
trials ``--trials``; the old ``--budget`` is read for one release, with a warning naming these."""

EXPERIMENTS = ("coin", "darts")
"""The Monte Carlo experiments that are not games: ``--what simulate`` or ``convergence`` only."""

_AGENT_ONLY = {"iterations": "--dives", "trials": "--trials", "q_table": "--q-table", "reuse": "--reuse-tree",
               "seconds": "--seconds"}


def register(cli) -> None:
    """Add ``fnmcts plot GAME [--what KIND] -o FILE`` to ``cli`` (and the old ``fnmcts plot NAME``).

    >>> from ._parser import Cli
    >>> cli = Cli(register)
    >>> args = cli.parser.parse_args(["plot", "nim(heap=5)", "--what", "tournament", "-o", "t.svg", "--games", "1e3"])
    >>> args.game_spec, args.what, args.output, args.games, args.agents
    ('nim(heap=5)', 'tournament', 't.svg', 1000, None)
    """
    kinds = ", ".join(f"{kind} ({what}, default {default:,})" for kind, (what, default, _) in KIND_BUDGETS.items())
    p = cli.spec_command("plot", "draw a picture of what a method learns on a game, as PNG or SVG, or its data "
                         "as JSON (pictures need the plot extra)")
    p.description = (p.description + f". GAME: {GAME_FORMS}, or coin, darts. The old spelling "
                     f"'plot {'|'.join(OLD_NAMES)} -o FILE' draws the tutorial's pictures, for one release.")
    p.add_argument("--what", choices=tuple(KIND_BUDGETS), default=None, metavar="KIND",
                   help=f"the picture: {', '.join(KIND_BUDGETS)} (default: search; simulate for coin and darts)")
    p.add_argument("-o", "--output", default=None, metavar="FILE",
                   help="the file to write: .png or .svg (- writes SVG to standard output, the report to standard error)")
    p.add_argument("--games", type=positive_count, default=None, metavar="N",
                   help="tournament, qlearning: the games of the run (--dives: a search's dives, the mcts agents' a "
                        f"move; --trials: flat-mc's and simulate's trials). The run's size: {kinds}")
    p.add_argument("--budget", type=positive_count, default=None, metavar="N", help=argparse.SUPPRESS)  # the old
    # spelling of the run's size: said deprecated when read (_run_size), as the old plots still take it
    p.add_argument("--points", type=positive_count, default=None, metavar="K",
                   help="about K checkpoints, evenly spaced on a log scale (search, flat-mc, qlearning, simulate)")
    p.add_argument("--state", default=None, metavar="STATE", help="search, flat-mc, simulate: from this position")
    p.add_argument("--agents", nargs=2, default=None, metavar=("A", "B"),
                   help="tournament: the two agents (default mcts random); A moves first in the odd games")
    p.add_argument("--runs", type=positive_count, default=None, metavar="R", help="flat-mc: runs a budget (default 20)")
    _agent_options(p)
    add_seed(p)
    add_force(p)
    add_json(p)
    p.set_defaults(handler=_plot)


def _plot(args) -> int:
    if args.game_spec in OLD_NAMES:
        return plot_old(args)
    if args.game_spec is None:
        raise CliError(f"plot needs a GAME: {GAME_FORMS}, or coin, darts")
    if args.game_spec not in EXPERIMENTS:
        _game(args)  # a misspelt game is said first
    if args.output is None and not args.json:
        raise CliError("give -o FILE.png|svg for the picture, or --json for its data")
    plots = _plots(need_figure=args.output is not None)
    kind = args.what or ("simulate" if args.game_spec in EXPERIMENTS else "search")
    _refuse_foreign(args, kind)
    if args.output is not None:
        _picture_format(args.output)
        claim_output(args.output)  # a missing folder, a directory or another writer fails before the work
    what, default, default_points = KIND_BUDGETS[kind]
    budget = _run_size(args, kind, default)
    points = default_points if args.points is None else args.points
    seed = 1 if args.seed is None else args.seed
    data, title, labels, extra = _compute(plots, args, kind, budget, points, make_rng(seed))
    payload = {"game": args.game_spec, "what": kind, "budget": budget, "budget_counts": what, "seed": seed,
                      "file": None, **extra, "data": _rows(kind, data, labels.get("scale"))}
    if kind == "search":  # the curve's values are scores, said so: the payoffs' own scale beside them
        payload |= {"values": f"scores of the player to move at the state searched: {SCORE}",
                    **scale_fields(_game(args))}
    if args.output is not None:
        picture = plots.figure_bytes(plots.draw(kind, data, title, **labels), _picture_format(args.output))
        payload["file"] = write_output(args.output, picture)
    with report_stream(args):  # with -o -, standard output holds the picture: the report goes to standard error
        emit(args, payload, f"wrote {payload['file']} ({kind} on {title.partition(': ')[2] or args.game_spec}: "
                            f"{what} {budget:,}, seed {seed})")
    return 0


def _picture_format(output: str) -> str:
    """``png`` or ``svg``: the picture's format, from the name of its file (``-``, standard output: SVG, a text).

    >>> _picture_format("curve.PNG"), _picture_format("-")
    ('png', 'svg')
    """
    if to_stdout(output):
        return "svg"
    suffix = output.rsplit(".", 1)[-1].lower() if "." in output else ""
    if suffix not in ("png", "svg"):
        raise CliError(f"the output must end in .png or .svg, got {output!r} (- writes SVG to standard output)")
    return suffix


def _plots(need_figure: bool):
    """``fnmcts.plots``, with matplotlib when a picture is to be drawn (else a one-line error)."""
    from .. import plots

    if need_figure:
        try:
            plots._pyplot()
        except ImportError as error:
            raise CliError(f"{error} (or --json without -o for the data alone)") from None
    return plots


def _run_size(args, kind: str, default: int) -> int:
    """The size of the run: its own flag (``RUN_FLAGS``), else the old ``--budget``, else ``default``."""
    own = getattr(args, RUN_FLAGS[kind].lstrip("-").replace("dives", "iterations"), None)
    if own is not None and args.budget is not None:
        raise CliError(f"give {RUN_FLAGS[kind]} or the old --budget, not both")
    if args.budget is not None:
        import sys

        print("fnmcts: --budget is deprecated and goes in the next release: use --dives (search), --games "
              "(tournament, qlearning) or --trials (flat-mc, simulate)", file=sys.stderr)
    return own if own is not None else args.budget if args.budget is not None else default


def _refuse_foreign(args, kind: str) -> None:
    """Options of another picture are a mistake, said in one line."""
    owners = {"agents": ("tournament",), "runs": ("flat-mc",), "state": ("search", "flat-mc", "simulate", "convergence"),
              "points": ("search", "flat-mc", "qlearning", "simulate", "convergence"),
              "games": ("tournament", "qlearning")}
    for name, kinds in owners.items():
        if getattr(args, name) is not None and kind not in kinds:
            raise CliError(f"--{name} belongs to --what {' or '.join(kinds)}, not {kind}")
    if kind != "tournament":
        for dest, flag in _AGENT_ONLY.items():
            if getattr(args, dest, None) is not None and flag != RUN_FLAGS[kind]:
                raise CliError(f"{flag} sets a tournament's agents: use it with --what tournament")
    if args.game_spec in EXPERIMENTS and kind not in ("simulate", "convergence"):
        raise CliError(f"{args.game_spec} is a Monte Carlo experiment, not a game: plot it with --what simulate "
                       "or --what convergence")


def _rows(kind, data, scale=None) -> list:
    """The data as JSON rows: one object a point (the darts' also hold pi: ``scale`` times the share, and its interval)."""
    curve = data[0] if kind in ("search", "convergence") else data
    rows = [point._asdict() for point in curve]
    if scale is not None:
        rows = [row | {"pi": scale * row["estimate"], "pi_low": scale * row["low"], "pi_high": scale * row["high"]}
                for row in rows]
    return rows


def _state(game, args):
    return state_argument(game, args.state)


def _solution(game, state, required: str | None, force: bool, policy=None):
    """The exact solution from ``state`` (``policy``'s values, given one): ``None`` past the limit, unless ``required`` says why."""
    from ..exact import evaluate_policy, solve

    limit = None if force and required else STATE_LIMIT
    try:
        if policy is not None:
            return evaluate_policy(game, policy, state, limit=limit)
        return solve(game, state, limit=limit)
    except TooLarge as error:
        if required is None:
            return None
        raise CliError(f"{required} needs the exact values: {error}".replace("limit=None", "--force")) from None


def _work(args, games, length_of, what: str) -> None:
    """Refuse, unless ``--force``, a run past ``WORK_LIMIT`` steps of play."""
    length, branching = length_of
    check_work(games, length or 1, branching or 1, limit=None if args.force else WORK_LIMIT, what=what)


def _game(args):
    """The game ``args.game_spec`` names (a typo: one line naming the nearest game, or coin and darts)."""
    try:
        return resolve_game(args.game_spec)
    except CliError as error:
        if ":" in args.game_spec or "(" in args.game_spec:
            raise
        near = _nearest(args.game_spec, EXPERIMENTS) if "did you mean" not in str(error) else ""
        raise CliError(f"{error}{near}; plot also takes {' and '.join(EXPERIMENTS)}") from None


def _compute(plots, args, kind, budget, points, rng):
    """``(data, title, figure labels, extra JSON keys)`` of picture ``kind`` on the game ``args`` names."""
    if args.game_spec in EXPERIMENTS:
        return _experiment(plots, args.game_spec, budget, points, rng, args)
    game = _game(args)
    name = repr(game)
    if kind in ("tournament", "qlearning") and getattr(game, "num_players", 2) != 2:
        raise CliError(f"--what {kind} needs a game of two players; {name} has {game.num_players}")
    if kind == "tournament":
        return _tournament(plots, args, game, budget, rng)
    if kind == "qlearning":
        solution = _solution(game, game.start(), "--what qlearning", args.force)
        _work(args, budget, play_work(game, game.start()), "training games")
        with progress_bar(len(plots.checkpoints(budget, points)), "qlearning", unit="checkpoint") as update:
            data = plots.qlearning_curve(game, budget, rng, solution, points, progress=update)
        return data, f"Q-learning by self-play: {name}", {}, {}
    state = _state(game, args)
    if game.to_move(state) is None:
        raise CliError("the game is over at this state: nothing to plot")
    if kind == "convergence":
        _work(args, budget, play_work(game, state), "random games")
        solution = _solution(game, state, None, args.force, policy=(random_policy,) * game.num_players)
        return _convergence(plots, game, state, budget, points, rng, None if solution is None
                            else float(value(solution, state)[0]), f"Random play, two 95% bands: {name}")
    if kind == "simulate":
        _work(args, budget, play_work(game, state), "trials")
        with progress_bar(budget, "random play", unit="game") as update:
            data = plots.estimate_curve(plots.random_play_trial(game, state), budget, rng, points, progress=update)
        return data, f"Random play, player 1's share of wins: {name}", {"what": "player 1's share of wins"}, {}
    options = search_flags(args, final=True)
    if kind == "search":
        _work(args, budget, play_work(game, state), "dives")
        solution = _solution(game, state, None, args.force)
        with progress_bar(len(plots.checkpoints(budget, points)), "search", unit="checkpoint") as update:
            data = plots.search_curve(game, budget, rng, points, state=state, solution=solution, progress=update,
                                      **options)
        return data, f"MCTS, what the root learns: {name}", {}, {"exact": solution is not None, "optimum": data[1]}
    if game.to_move(state) is CHANCE:
        raise CliError("flat-mc compares the moves of a decision, and chance moves first here (a roll, a deal): "
                       "give --state where a player moves")
    runs = 20 if args.runs is None else args.runs
    marks = plots.checkpoints(budget, points, first=1)
    length, branching = play_work(game, state)
    _work(args, 2 * runs * sum(marks) * len(game.possible_moves(state)), (length, 1), "playouts")
    solution = _solution(game, state, "--what flat-mc", args.force)
    with progress_bar(len(marks), "flat-mc", unit="budget") as update:
        data = plots.flat_mc_curve(game, budget, rng, solution, points, runs, state=state, progress=update,
                                   **{k: v for k, v in options.items()})
    return data, f"Flat Monte Carlo beside MCTS: {name}", {}, {"runs": runs}


def _tournament(plots, args, game, budget, rng):
    names = tuple(args.agents or ("mcts", "random"))
    _check_agents(args, game, names)
    from ._board import _check_work

    _check_work(args, game, game.start(), names, games=budget)
    a, b = (build_agent(n, game, **_agent_args(args)) for n in names)
    with progress_bar(budget, "tournament") as update:
        data = plots.match_curve(game, a, b, budget, rng, progress=update)
    return data, f"{names[0]} against {names[1]}, sides alternating: {game_text(game)}", {}, {"agents": list(names)}


def _convergence(plots, game, state, budget, points, rng, exact, title):
    with progress_bar(budget, "random play", unit="game") as update:
        data = plots.convergence_curve(game, budget, rng, points, state=state, exact=exact, progress=update)
    return data, title, {}, {"exact": exact}


def _experiment(plots, name, budget, points, rng, args):
    """The coin's running share of heads, or pi from the darts (``--what convergence``: the lab's games, both bands)."""
    from ..games import Coin, Darts, coin, darts
    from ..lab import exact_variances

    _work(args, budget, (1, 1), "trials")
    if args.what == "convergence":
        game = Coin() if name == "coin" else Darts()
        title = ("Coin flips, the share of heads: coin" if name == "coin" else
                 f"Darts on a grid, {game_text(game)}, the share inside the circle: darts")
        data, title, labels, extra = _convergence(plots, game, game.start(), budget, points, rng,
                                                  exact_variances(game, methods=("plain",)).value, title)
        return data, title, {"what": "share of heads" if name == "coin" else "share inside the circle"}, extra
    if name == "coin":
        trial = lambda r: coin.is_win(coin.flip_coin(r))  # noqa: E731
        labels = {"what": "share of heads", "truth": ("1/2", 0.5)}
        title = "Coin flips, the running share of heads: coin"
    else:
        trial = lambda r: darts.is_win(darts.throw_dart(r))  # noqa: E731
        labels = {"what": "estimate of pi (4 x hits / darts)", "scale": 4.0, "truth": ("pi", math.pi)}
        title = "Darts, pi from the share inside the circle: darts"
    with progress_bar(budget, name, unit="trial") as update:
        data = plots.estimate_curve(trial, budget, rng, points, progress=update)
    return data, title, labels, {}
