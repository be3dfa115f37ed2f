"""``fnmcts train piles`` and ``fnmcts train nim``: Q-learning by self-play, saved as JSON.

Trains with a progress bar ("Playing training game"), writes the Q table
atomically (see ``fnmcts.qlearning`` for the format), then reports how good the
greedy policy is: the share of reachable winning states where its action is
optimal (exact solver), and its win rates against random and perfect play.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ..exact import solve
from ..games.nim import Nim
from ..games.piles import Piles
from ..qlearning import ALPHA, EPSILON, evaluate, save_ai, train
from ..rng import child_seed
from ._common import CliError, add_json, add_seed, count, emit, positive_count, progress_bar

__all__ = ["register"]

_HELP = "train a Q-learning AI by self-play and save its Q table"


def _pile_list(text: str) -> tuple:
    """``1,3,5,7`` -> ``(1, 3, 5, 7)``."""
    try:
        piles = tuple(int(part) for part in text.replace(" ", "").split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"piles are whole numbers separated by commas, got {text!r}") from None
    if any(p < 0 for p in piles):
        raise argparse.ArgumentTypeError(f"piles must be non-negative, got {text!r}")
    if not any(piles):
        raise argparse.ArgumentTypeError(f"at least one pile must be non-empty, got {text!r}")
    return piles


def _rate(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number in [0, 1], got {text!r}") from None
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"expected a number in [0, 1], got {text!r}")
    return value


def _options(parser, default_games):
    rules = parser.add_mutually_exclusive_group()
    rules.add_argument(
        "--misere", dest="misere", action="store_true", default=True, help="taking the last object loses (default)"
    )
    rules.add_argument("--normal", dest="misere", action="store_false", help="taking the last object wins")
    parser.add_argument("--games", type=count, default=default_games, metavar="N", help="training games of self-play")
    add_seed(parser)
    parser.add_argument("-o", "--output", required=True, metavar="FILE", help="where to write the Q table (JSON)")
    parser.add_argument("--alpha", type=_rate, default=ALPHA, metavar="A", help=f"learning rate (default {ALPHA})")
    parser.add_argument(
        "--epsilon", type=_rate, default=EPSILON, metavar="E", help=f"exploration rate (default {EPSILON})"
    )
    parser.add_argument(
        "--eval-games",
        type=positive_count,
        default=1000,
        metavar="M",
        help="evaluation games against each opponent on each side (default 1000)",
    )
    add_json(parser)


def register(cli) -> None:
    p = cli.game_command("train", "piles", "Q-learning on multi-pile Nim (the source: piles 1,3,5,7)", _HELP)
    p.add_argument("--piles", type=_pile_list, default=(1, 3, 5, 7), metavar="P,P,...", help="pile sizes")
    _options(p, 10_000)
    p.set_defaults(handler=_piles)

    p = cli.game_command("train", "nim", "Q-learning on single-heap Nim (take 1..K)", _HELP)
    p.add_argument("--heap", type=positive_count, default=21, metavar="H", help="items in the heap (default 21)")
    p.add_argument("--max-take", type=positive_count, default=3, metavar="K", help="take 1..K (default 3)")
    _options(p, 10_000)
    p.set_defaults(handler=_nim)


def _piles(args):
    _train(args, Piles(args.piles, misere=args.misere), f"piles {list(args.piles)}")


def _nim(args):
    _train(args, Nim(heap=args.heap, max_take=args.max_take, misere=args.misere), f"nim heap {args.heap}, take 1..{args.max_take}")


def _train(args, game, title):
    output = Path(args.output)
    if output.is_dir():
        raise CliError(f"{output} is a directory; -o takes a file name")
    if not output.parent.exists():
        raise CliError(f"directory {output.parent} does not exist")
    with progress_bar(args.games, "Playing training game") as update:
        ai = train(args.games, seed=args.seed, game=game, alpha=args.alpha, epsilon=args.epsilon, progress=update)
    save_ai(ai, output)
    eval_seed = child_seed(args.seed, 1) if args.seed is not None else None
    report = evaluate(ai, games=args.eval_games, seed=eval_seed, solution=solve(game))
    rules = "misere: taking the last object loses" if game.misere else "normal: taking the last object wins"
    payload = {
        "game": game.name,
        "rules": "misere" if game.misere else "normal",
        "games": args.games,
        "seed": args.seed,
        "alpha": ai.alpha,
        "epsilon": ai.epsilon,
        "output": str(output),
        "q_entries": len(ai.q),
        "optimal_move_rate": report["optimal_move_rate"],
        "optimal_states": report["optimal_states"],
        "winning_states": report["winning_states"],
        "eval_games": 2 * args.eval_games,
        "eval_seed": eval_seed,
        "win_rate_vs_random": report["win_rate_vs_random"],
        "win_rate_vs_perfect": report["win_rate_vs_perfect"],
        "vs_random": dict(report["vs_random"]),
        "vs_perfect": dict(report["vs_perfect"]),
    }
    vr, vp = report["vs_random"], report["vs_perfect"]
    if report["winning_states"]:
        optimal = (
            f"{report['optimal_move_rate']:.4f} ({report['optimal_states']} of {report['winning_states']} winning states)"
        )
    else:
        optimal = "none to measure: no reachable state is a win for the player to move"
    seed = args.seed if args.seed is not None else "none (drawn from the operating system)"
    lines = [
        f"Q-learning on {title} ({rules})",
        f"Done training: {args.games:,} games of self-play, seed {seed}, alpha {ai.alpha}, epsilon {ai.epsilon}",
        f"Q table        {len(ai.q):,} entries written to {output}",
        f"optimal moves  {optimal}",
        f"vs random      {_rates(vr)}",
        f"vs perfect     {_rates(vp)}",
    ]
    text = "\n".join(lines)
    emit(args, payload, text)


def _rates(result) -> str:
    each = result["games"] // 2
    return (
        f"{result['rate']:.4f} win rate ({result['wins_first']}/{each} as first player, "
        f"{result['wins_second']}/{each} as second)"
    )
