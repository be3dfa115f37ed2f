"""``fnmcts simulate GAME``: Monte Carlo estimates with 95% intervals.

The report names the games, the wins and losses, the share of wins with its
95% Wilson interval and the seed. When some game paid player 1 neither the
best nor the worst payoff (a draw, or a graded score), it also names the draws
and the mean payoff with its 95% interval: a draw is half a win, so the share
of wins alone no longer tells how well player 1 did.
"""

from __future__ import annotations

import random

from ..games import coin, darts
from ..games.coin import Coin
from ..games.darts import Darts
from ..games.tictactoe import TicTacToe
from ..lab import HOOKS, METHODS, comparison, estimate_with
from ..montecarlo import simulate
from ..rng import resolve_seed
from ..limits import WORK_LIMIT
from ._executor import add_run_flags, open_executor
from ._common import CliError, add_seed, emit, keep_partial, positive_count, progress_bar, worker_count
from .shut_the_box import add_rules, game_of, rules_text

__all__ = ["register", "report_text", "lab_text", "comparison_text"]

_HELP = "estimate a probability by playing many random games"

DEPRECATED_KEYS = ("win", "draw", "loss")
"""Keys of ``simulate --json`` that repeat ``wins``, ``draws`` and ``losses``: they go in the next release."""


def _options(parser, default_games):
    parser.add_argument("--games", type=positive_count, default=default_games, metavar="N", help="how many games")
    add_seed(parser)
    parser.add_argument("--workers", type=worker_count, default=1, metavar="W", help="worker processes")
    add_run_flags(parser)


def register(cli) -> None:
    """Add ``fnmcts simulate GAME`` for coin, darts, Shut the Box and tic-tac-toe to ``cli``.

    >>> from ._parser import Cli
    >>> cli = Cli(register)
    >>> cli.run(["simulate", "darts", "--games", "100", "--seed", "1"])  # coin: see fnmcts.cli.main
    darts inside the circle
    games     100
    wins      80
    losses    20
    estimate  0.8
    95% CI    [0.711171, 0.866633]
    seed      1
    pi        3.2  (95% CI [2.84468, 3.46653])
    0
    """
    p = cli.game_command("simulate", "coin", "flip coins: heads wins", _HELP)
    _options(p, 1_000_000)
    _method(p, "antithetic, control or stratified (on the game fnmcts.games.coin.Coin: one flip)")
    p.set_defaults(handler=_coin)

    p = cli.game_command("simulate", "darts", "throw darts at a circle; estimate pi", _HELP)
    _options(p, 1_000_000)
    _method(p, "antithetic, control or stratified (on the game fnmcts.games.darts.Darts: a 20 by 20 grid)")
    p.set_defaults(handler=_darts)

    p = cli.game_command("simulate", "shut-the-box", "random play of Shut the Box", _HELP)
    add_rules(p)
    _options(p, 1_000_000)
    _method(p, "antithetic, control, stratified or importance")
    p.set_defaults(handler=_shut_the_box)

    p = cli.game_command("simulate", "tic-tac-toe", "random play of tic-tac-toe: wins, draws, mean payoff", _HELP)
    _options(p, 1_000_000)
    p.set_defaults(handler=_tic_tac_toe)


def _method(parser, methods: str) -> None:
    parser.add_argument("--method", choices=(*METHODS, "compare"), default="plain",
                        help=f"the estimator (fnmcts.lab): plain sampling (the default), {methods}; compare: a "
                             "table of every method the game has beside the exact variances")


def _run(args, fn, desc, describe):
    """``fn``'s record of ``args.games`` games; on Ctrl-C or SIGTERM, ``describe`` prints the games so far."""
    with keep_partial(args, describe), open_executor(args) as executor:
        with progress_bar(args.games, desc) as update:
            return fn(args.games, seed=args.seed, executor=executor, progress=update,
                      limit=None if args.force else WORK_LIMIT)


def report_text(record, title: str, extra_text: str = "") -> str:
    """The text report of ``record`` (a ``Simulation``) under ``title``.

    Games, wins, losses, the estimate (the share of wins), its 95% interval and
    the seed; when some game paid neither extreme (``record.graded``), the
    draws and the mean payoff with its 95% interval as well.

    >>> from fnmcts.montecarlo import Simulation
    >>> print(report_text(Simulation.of(3, 4, seed=1), "coins"))
    coins
    games     4
    wins      3
    losses    1
    estimate  0.75
    95% CI    [0.300642, 0.954413]
    seed      1
    >>> print(report_text(Simulation.of(50, 100, draw=20, payoff_range=(-1, 1), seed=2), "a game with draws"))
    a game with draws
    games     100
    wins      50
    draws     20
    losses    30
    estimate  0.5  (share of wins)
    95% CI    [0.403832, 0.596168]
    mean      0.2  (payoff in [-1, 1], 95% CI [0.0282735, 0.371726])
    seed      2
    >>> print(report_text(Simulation.of(0, 0, seed=3), "no coins"))
    no coins
    games     0
    wins      0
    losses    0
    estimate  n/a (no games)
    95% CI    n/a
    seed      3
    """
    graded = record.graded > 0
    low, high = record.payoff_range
    counts = [f"wins      {record.win:,}", f"losses    {record.loss:,}"]
    if graded:
        counts.insert(1, f"draws     {record.draw:,}")
    share = [
        f"estimate  {record.estimate:.6g}" + ("  (share of wins)" if graded else ""),
        f"95% CI    [{record.ci_low:.6g}, {record.ci_high:.6g}]",
    ]
    if not record.games:  # no game, no estimate: not 0
        share = ["estimate  n/a (no games)", "95% CI    n/a"]
    mean = [
        f"mean      {record.mean:.6g}  (payoff in [{low:g}, {high:g}], "
        f"95% CI [{record.mean_low:.6g}, {record.mean_high:.6g}])"
    ]
    lines = [title, f"games     {record.games:,}", *counts, *share, *(mean if graded else [])]
    return "\n".join(lines) + f"\nseed      {record.seed}" + extra_text


def _described(title, extra=None):
    """``record -> (payload, text)``: the report of a record under ``title``; ``extra(record)`` adds to both."""

    def describe(record):
        more, more_text = extra(record) if extra is not None else ({}, "")
        # win, draw and loss repeat wins, draws and losses: kept for one release, as scripts read them
        payload = record.to_json() | more | {"deprecated_keys": list(DEPRECATED_KEYS)}
        if not record.games:  # no game, no estimate: null, as search's win rate
            payload |= {k: None for k in ("estimate", "ci_low", "ci_high", "mean", "mean_low", "mean_high")}
        return payload, report_text(record, title, more_text)

    return describe


def _simulate(args, fn, desc, describe):
    emit(args, *describe(_run(args, fn, desc, describe)))


def _coin(args):
    if args.method != "plain":
        return _lab(args, Coin(), "Coin, one flip, heads wins")
    _simulate(args, coin.simulate, "coin", _described("coin flips (heads wins)"))


def _pi(record):
    if not record.games:
        return {"pi": None, "pi_low": None, "pi_high": None}, "\npi        n/a (no darts)"
    pi, low, high = darts.pi_estimate(record)
    return {"pi": pi, "pi_low": low, "pi_high": high}, f"\npi        {pi:.6g}  (95% CI [{low:.6g}, {high:.6g}])"


def _darts(args):
    if args.method != "plain":
        return _lab(args, Darts(), f"Darts on a grid, {Darts()!r}, inside the circle")
    _simulate(args, darts.simulate, "darts", _described("darts inside the circle", _pi))


def lab_text(record, title: str, seed) -> str:
    """The text report of a lab estimate (``fnmcts.lab.Estimate``): games, estimate, standard error, 95% interval.

    >>> from fnmcts.lab import Estimate
    >>> print(lab_text(Estimate(method="control", estimate=0.02, std_error=0.001, ci_low=0.018, ci_high=0.022,
    ...                         games=1000), "Shut the Box", 4))
    Shut the Box (control)
    games     1,000
    estimate  0.02
    std error 0.001
    95% CI    [0.018, 0.022]
    seed      4
    """
    return "\n".join([f"{title} ({record.method})", f"games     {record.games:,}", f"estimate  {record.estimate:.6g}",
                      f"std error {record.std_error:.3g}", f"95% CI    [{record.ci_low:.6g}, {record.ci_high:.6g}]",
                      f"seed      {seed}"])


def comparison_text(rows, title: str, seed) -> str:
    """The comparison table of ``fnmcts.lab.comparison``'s rows under ``title``.

    >>> row = {"method": "plain", "estimate": 0.02, "ci_low": 0.01, "ci_high": 0.03, "games": 100,
    ...        "exact_value": 0.0204, "measured_factor": 1.0, "exact_factor": 1.0, "games_per_second": 5e5}
    >>> print(comparison_text([row], "Shut the Box", 1))
    Shut the Box: every method beside the exact value 0.0204 (seed 1)
    method          games   estimate  95% CI                  variance factor (exact)    games/s
    plain             100       0.02  [0.01, 0.03]                    1.00 (1.00)    500,000
    """
    lines = [f"{title}: every method beside the exact value {rows[0]['exact_value']:.6g} (seed {seed})",
             f"{'method':<12}{'games':>9}{'estimate':>11}  {'95% CI':<24}{'variance factor (exact)':>23}{'games/s':>11}"]
    for r in rows:
        interval = f"[{r['ci_low']:.4g}, {r['ci_high']:.4g}]"
        lines.append(f"{r['method']:<12}{r['games']:>9,}{r['estimate']:>11.4g}  {interval:<24}"
                     f"{r['measured_factor']:>16.2f} ({r['exact_factor']:.2f}){r['games_per_second']:>11,.0f}")
    return "\n".join(lines)


def _lab(args, game, title):
    """``simulate shut-the-box --method M``: one of the lab's estimators, or the comparison table."""
    seed = resolve_seed(args.seed)
    rng = random.Random(seed)
    if args.games < 2:
        raise SystemExit(f"fnmcts simulate: --method {args.method} needs --games 2 or more")
    if args.method == "compare":
        rows = comparison(game, args.games, rng)
        emit(args, {"seed": seed, "methods": rows}, comparison_text(rows, title, seed))
        return
    try:
        record = estimate_with(args.method, game, args.games, rng, batch=True)
    except TypeError as error:  # the lab names the game hook the method needs
        if HOOKS[args.method] not in str(error):
            raise
        raise CliError(f"--method {args.method} needs the game hook {HOOKS[args.method]}(...), which "
                       f"{title.partition(',')[0]} has not: {error}") from None
    emit(args, dict(record) | {"seed": seed}, lab_text(record, title, seed))


def _shut_the_box(args):
    game = game_of(args)
    if args.method != "plain":
        return _lab(args, game, f"Shut the Box, {rules_text(game)}, random play")

    def fn(n, **options):
        return simulate(game, n, **options)

    def extra(record):
        more = {"rules": "simplified" if game.simplified else "full"}
        if (game.levers, game.dice, game.scoring) != (9, "two", "win"):
            more |= {"levers": game.levers, "dice": game.dice, "scoring": game.scoring}
        if game.scoring == "win":
            return more, ""
        # a score is paid as its negative: the report names the score itself
        score, low, high = -record.mean, -record.mean_high, -record.mean_low
        more |= {"score": score, "score_low": low, "score_high": high}
        return more, f"\nscore     {score:.6g}  (expected {game.scoring} of the levers left, 95% CI [{low:.6g}, {high:.6g}])"

    describe = _described(f"Shut the Box, {rules_text(game)}, random play", extra)
    _simulate(args, fn, "shut the box", describe)


def _tic_tac_toe(args):
    game = TicTacToe()

    def fn(n, **options):
        return simulate(game, n, **options)

    _simulate(args, fn, "tic-tac-toe", _described("Tic-tac-toe, random play, X (player 1) moves first"))
