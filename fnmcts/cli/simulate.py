"""``fnmcts simulate GAME``: Monte Carlo estimates with 95% intervals."""

from __future__ import annotations

from ..games import coin, darts
from ..games.shut_the_box import ShutTheBox
from ..montecarlo import simulate
from ._common import add_json, add_seed, count, emit, positive_count, progress_bar

__all__ = ["register"]

_HELP = "estimate a probability by playing many random games"


def _options(parser, default_games):
    parser.add_argument("--games", type=count, default=default_games, metavar="N", help="how many games")
    add_seed(parser)
    parser.add_argument("--workers", type=positive_count, default=1, metavar="W", help="worker processes")
    add_json(parser)


def register(cli) -> None:
    p = cli.game_command("simulate", "coin", "flip coins: heads wins", _HELP)
    _options(p, 1_000_000)
    p.set_defaults(handler=_coin)

    p = cli.game_command("simulate", "darts", "throw darts at a circle; estimate pi", _HELP)
    _options(p, 1_000_000)
    p.set_defaults(handler=_darts)

    p = cli.game_command("simulate", "shut-the-box", "random play of Shut the Box", _HELP)
    p.add_argument("--simplified", action="store_true", help="the simplified rules of task 4")
    _options(p, 1_000_000)
    p.set_defaults(handler=_shut_the_box)


def _run(args, fn, desc):
    from ..parallel import make_executor

    executor = make_executor(args.workers) if args.workers > 1 else None
    try:
        with progress_bar(args.games, desc, enabled=None if args.games >= 200_000 else False) as update:
            return fn(args.games, seed=args.seed, executor=executor, progress=update)
    finally:
        if executor is not None:
            executor.shutdown()


def _report(args, record, title, extra=None, extra_text=""):
    payload = record.to_json() | (extra or {})
    text = (
        f"{title}\n"
        f"games     {record.games:,}\n"
        f"wins      {record.win:,}\n"
        f"losses    {record.loss:,}\n"
        f"estimate  {record.estimate:.6g}\n"
        f"95% CI    [{record.ci_low:.6g}, {record.ci_high:.6g}]\n"
        f"seed      {record.seed}" + extra_text
    )
    emit(args, payload, text)


def _coin(args):
    record = _run(args, coin.simulate, "coin")
    _report(args, record, "coin flips (heads wins)")


def _darts(args):
    record = _run(args, darts.simulate, "darts")
    pi, low, high = darts.pi_estimate(record)
    _report(
        args,
        record,
        "darts inside the circle",
        {"pi": pi, "pi_low": low, "pi_high": high},
        f"\npi        {pi:.6g}  (95% CI [{low:.6g}, {high:.6g}])",
    )


def _shut_the_box(args):
    game = ShutTheBox(simplified=args.simplified)

    def fn(n, **options):
        return simulate(game, n, **options)

    record = _run(args, fn, "shut the box")
    rules = "simplified" if args.simplified else "full"
    _report(args, record, f"Shut the Box, {rules} rules, random play", {"rules": rules})
