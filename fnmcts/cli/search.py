"""``fnmcts search shut-the-box``: grow an MCTS tree, then judge it exactly.

Prints the dives' own win rate (the tutorial's measure), the exact win
probability of the greedy policy read off the tree, the optimum, and the
speed in dives per second.
"""

from __future__ import annotations

import math
import time
from functools import partial

from ..exact import evaluate_policy, solve, value
from ..games.shut_the_box import ShutTheBox
from ..mcts import backed_up_values, greedy_policy, search, ucb, ucb1, win_rate
from ..rng import make_rng, resolve_seed
from ._common import CliError, add_json, add_seed, count, emit, progress_bar

__all__ = ["register"]

_HELP = "grow a Monte Carlo search tree and measure the policy it learned"


def register(cli) -> None:
    """Add ``fnmcts search shut-the-box`` (MCTS dives, task 11) to ``cli``.

    >>> from ._common import Cli
    >>> cli = Cli()
    >>> register(cli)
    >>> args = cli.parser.parse_args(["search", "shut-the-box", "--dives", "1e3", "--seed", "1"])
    >>> args.dives, args.seed, args.ucb, args.backup
    (1000, 1, 'tutorial', 'mean')
    """
    p = cli.game_command("search", "shut-the-box", "MCTS dives on Shut the Box (task 11)", _HELP)
    p.add_argument("--dives", type=count, default=100_000, metavar="N", help="how many dives (default 100000)")
    add_seed(p)
    p.add_argument(
        "--ucb",
        choices=("tutorial", "ucb1"),
        default="tutorial",
        help="selection rule: the tutorial's ucb (z=2, rule of 3) or UCB1",
    )
    p.add_argument("--z", type=float, default=None, help="z of the tutorial's ucb (default 2)")
    p.add_argument("--c", type=float, default=None, help="c of UCB1 (default sqrt 2)")
    p.add_argument(
        "--backup",
        choices=("mean", "expectimax"),
        default="mean",
        help="mean: the tutorial's records; expectimax: also keep values backed up with the dice probabilities",
    )
    p.add_argument("--simplified", action="store_true", help="the simplified rules of task 4")
    add_json(p)
    p.set_defaults(handler=_shut_the_box)


def _shut_the_box(args):
    if args.ucb == "tutorial" and args.c is not None:
        raise CliError("--c is UCB1's constant: use it with --ucb ucb1 (the tutorial's ucb takes --z)")
    if args.ucb == "ucb1" and args.z is not None:
        raise CliError("--z belongs to the tutorial's ucb: use it with --ucb tutorial (UCB1 takes --c)")
    args.z = 2.0 if args.z is None else args.z
    args.c = math.sqrt(2) if args.c is None else args.c
    if not (math.isfinite(args.z) and args.z >= 0):
        raise ValueError(f"--z must be a non-negative number, got {args.z}")
    if not (math.isfinite(args.c) and args.c >= 0):
        raise ValueError(f"--c must be a non-negative number, got {args.c}")
    game = ShutTheBox(simplified=args.simplified)
    rule = partial(ucb, z=args.z) if args.ucb == "tutorial" else partial(ucb1, c=args.c)
    root = game.start()
    args.seed = resolve_seed(args.seed)  # chosen here when not given, and reported, so the run replays
    rng = make_rng(args.seed)
    enabled = None if args.dives >= 100_000 else False
    started = time.perf_counter()
    with progress_bar(args.dives, "dives", enabled=enabled, unit="dive") as update:
        tree = search(game, root, args.dives, rng, rule=rule, progress=update, backup=args.backup)
    seconds = time.perf_counter() - started
    greedy = value(evaluate_policy(game, greedy_policy(tree), root), root)[0]
    backed = value(evaluate_policy(game, greedy_policy(tree, backed_up_values(game, tree)), root), root)[0]
    optimum = value(solve(game, root), root)[0]
    rate = win_rate(tree[root]) if root in tree else None
    payload = {
        "dives": args.dives,
        "seed": args.seed,
        "rule": args.ucb,
        "z": args.z if args.ucb == "tutorial" else None,
        "c": args.c if args.ucb == "ucb1" else None,
        "rules": "simplified" if args.simplified else "full",
        "backup": args.backup,
        "win_rate": rate,
        "greedy_value": float(greedy),
        "greedy_probability": f"{greedy.numerator}/{greedy.denominator}",
        "backed_up_value": float(backed),
        "optimum": float(optimum),
        "optimum_probability": f"{optimum.numerator}/{optimum.denominator}",
        "greedy_share_of_optimum": float(greedy / optimum) if optimum else None,
        "states": len(tree),
        "seconds": seconds,
        "dives_per_s": args.dives / seconds if seconds > 0 else None,
    }
    share = f"{float(greedy / optimum):.1%}" if optimum else "n/a"
    backed_share = f"{float(backed / optimum):.1%}" if optimum else "n/a"
    speed = f"{args.dives / seconds:,.0f}" if seconds > 0 else "n/a"
    text = (
        f"Shut the Box, {payload['rules']} rules: {args.dives:,} dive{'' if args.dives == 1 else 's'}, rule {args.ucb}, "
        f"backup {args.backup}, seed {args.seed}\n"
        f"dives' win rate        {'n/a (no dives)' if rate is None else f'{rate:.4f}'}\n"
        f"greedy policy (exact)  {float(greedy):.6f}  ({share} of the optimum)\n"
        f"expectimax read-off    {float(backed):.6f}  ({backed_share} of the optimum)\n"
        f"optimum (exact)        {float(optimum):.6f}\n"
        f"states in the tree     {len(tree)}\n"
        f"dives per second       {speed}"
    )
    emit(args, payload, text)
