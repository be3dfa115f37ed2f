"""``fnmcts train GAME``: Q-learning by self-play on any two-player game small enough for a table, saved as JSON.

``train piles`` and ``train nim`` keep their options of old; any other game
(``train kayles``, ``train tic-tac-toe``, ``train mygames:Connect(rows=3)``)
comes as a spec.

Checks the output target first, trains with a progress bar ("Playing training
game"), writes the Q table atomically (see ``fnmcts.qlearning`` for the format;
``-o -`` prints it on standard output and the report on standard error), then
reports how good the greedy policy is: the share of reachable winning states
where its action is optimal (exact solver), and its win rates against random
and perfect play. Without ``--seed`` a seed is drawn and reported. Ctrl-C
during training writes the table of the games finished beside the output,
marked partial (``q.json`` -> ``q.partial.json``, with ``"partial": {"games":
..., "games_requested": ...}``), and leaves an earlier file at ``-o`` as it was.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys

from ..exact import solve
from ..files import claim_target, partial_path, write_atomically
from ..games.nim import Nim
from ..games.piles import Piles
from ..limits import GO_ON, STATE_LIMIT, WORK_LIMIT, check_states, check_work, size_hint
from ..protocol import game_name, game_text
from ..matches import random_agent
from ..qlearning import ALPHA, EPSILON, EVAL_CHUNK, ai_to_text, evaluate, train, win_rate_against
from ..rng import child_seed, resolve_seed
from ._common import (
    CliError,
    Interrupted,
    emit,
    in_range,
    interrupted,
    keep_partial,
    positive_count,
    progress_bar,
    seed_type,
)
from ._games import GAME_FORMS, resolve_game
from ..parallel import WorkerLost
from ._executor import add_run_flags, open_executor

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


_rate = in_range(float, 0, 1, "expected a number in [0, 1]")


_EPILOG = (
    "Without --seed a seed is drawn and reported, so every run can be repeated; the evaluation "
    "uses child seed 1 of it (reported as eval_seed). -o - prints the Q table (JSON) on standard "
    "output and the report on standard error. With --json the report is one JSON object; "
    "eval_games_per_side is M, so each opponent plays 2 * M games (vs_random.games, vs_perfect.games)."
)


def _options(parser, default_games, misere: bool = True):
    parser.epilog = _EPILOG
    if misere:
        rules = parser.add_mutually_exclusive_group()
        rules.add_argument(
            "--misere", dest="misere", action="store_true", default=True, help="taking the last object loses (default)"
        )
        rules.add_argument("--normal", dest="misere", action="store_false", help="taking the last object wins")
    parser.add_argument(
        "--games", type=positive_count, default=default_games, metavar="N", help="training games of self-play (default %(default)s)"
    )
    parser.add_argument(
        "--seed", type=seed_type, default=None, metavar="S",
        help="random seed (default: a fresh one, reported; same seed, same result)",
    )
    parser.add_argument(
        "-o", "--output", required=True, metavar="FILE",
        help="where to write the Q table (JSON), checked before training; - for standard output",
    )
    parser.add_argument("--alpha", type=_rate, default=ALPHA, metavar="A", help="learning rate (default %(default)s)")
    parser.add_argument(
        "--epsilon", type=_rate, default=EPSILON, metavar="E", help="exploration rate (default %(default)s)"
    )
    parser.add_argument(
        "--eval-games",
        type=positive_count,
        default=1000,
        metavar="M",
        help="evaluation games against each opponent on each side: 2 * M per opponent (default %(default)s)",
    )
    parser.add_argument(
        "--no-exact", dest="exact", action="store_false",
        help="skip the report's exact parts (optimal moves, play against the exact player): "
        "for games too large to solve exactly",
    )
    add_run_flags(parser)


def register(cli) -> None:
    """Add ``fnmcts train piles`` and ``fnmcts train nim`` (Q-learning by self-play) to ``cli``.

    >>> from ._parser import Cli
    >>> cli = Cli(register)
    >>> args = cli.parser.parse_args(["train", "nim", "--heap", "5", "--games", "200", "-o", "q.json"])
    >>> args.heap, args.max_take, args.games, args.output
    (5, 3, 200, 'q.json')
    """
    p = cli.game_command("train", "piles", "Q-learning on multi-pile Nim (the source: piles 1,3,5,7)", _HELP)
    p.add_argument(
        "--piles", type=_pile_list, default=(1, 3, 5, 7), metavar="P,P,...", help="pile sizes (default 1,3,5,7)"
    )
    _options(p, 10_000)
    p.set_defaults(handler=_piles)

    p = cli.game_command("train", "nim", "Q-learning on single-heap Nim (take 1..K)", _HELP)
    p.add_argument("--heap", type=positive_count, default=21, metavar="H", help="items in the heap (default %(default)s)")
    p.add_argument("--max-take", type=positive_count, default=3, metavar="K", help="take 1..K (default %(default)s)")
    _options(p, 10_000)
    p.set_defaults(handler=_nim)

    p = cli.game_option("train", "any", "Q-learning by self-play on any two-player game small enough for a table", _HELP)
    p.add_argument("--game", dest="game_spec", required=True, metavar="SPEC", help=f"the game: {GAME_FORMS}")
    _options(p, 10_000, misere=False)
    p.set_defaults(handler=_any)


def _any(args):
    game = resolve_game(args.game_spec)
    players = getattr(game, "num_players", None)
    if players != 2:
        raise CliError(f"train learns by self-play between two players; {game_text(game)} has {players} player(s)")
    states = size_hint(game, game.start())[0]
    if states is not None and states > STATE_LIMIT and not args.force:
        raise CliError(
            f"a Q table of {game_text(game)} would have up to {states:,} states to learn (the limit is {STATE_LIMIT:,}): "
            "a table suits small games (search suits large ones: fnmcts search, --ai mcts); --force goes on regardless"
        )
    _train(args, game, repr(game), None)


_MISERE, _NORMAL = "misere: taking the last object loses", "normal: taking the last object wins"


def _piles(args):
    _train(args, Piles(args.piles, misere=args.misere), f"piles {list(args.piles)}", _MISERE if args.misere else _NORMAL)


def _nim(args):
    _train(args, Nim(heap=args.heap, max_take=args.max_take, misere=args.misere),
           f"nim heap {args.heap}, take 1..{args.max_take}", _MISERE if args.misere else _NORMAL)


def _train(args, game, title, rules):
    out = sys.stdout  # the Q table's stream with -o -; the report then goes to standard error
    to_stdout = args.output == "-"
    if not to_stdout:
        claim_target(args.output)  # a bad target (or one another process writes) fails now, not after the training
    _check_size(args, game)
    seed = resolve_seed(args.seed)
    report_stream = contextlib.redirect_stdout(sys.stderr) if to_stdout else contextlib.nullcontext()

    def write(ai, games=None) -> str:
        """Write the table: to ``-o``'s file when complete; when ``games`` (of ``--games``) only, marked partial,
        beside it (``q.partial.json``), so an earlier complete table at ``-o`` is kept."""
        text = ai_to_text(ai)
        if games is not None:
            data = json.loads(text)
            data["partial"] = {"games": games, "games_requested": args.games}
            text = json.dumps(data, separators=(",", ":")) + "\n"
        if to_stdout:
            out.write(text)
            out.flush()
            return "standard output" + (" (marked partial)" if games is not None else "")
        if games is None:
            write_atomically(args.output, text)
            return args.output
        beside = str(partial_path(args.output))
        claim_target(beside)
        write_atomically(beside, text)
        return f"{beside} (marked partial; {args.output} is left as it was)"

    def describe(so_far):
        return _report(args, game, title, rules, seed, *so_far)

    with report_stream, keep_partial(args, describe):
        try:
            with progress_bar(args.games, "Playing training game") as update:
                ai = train(args.games, seed=seed, game=game, alpha=args.alpha, epsilon=args.epsilon, progress=update,
                           limit=None)  # checked before, with --force
        except Interrupted as stop:
            if stop.partial is None:  # the signal came before training began or as it returned: no table to keep
                raise
            ai, done = stop.partial
            raise interrupted(stop, (ai, done, write(ai, done), None)) from None  # the games finished are kept
        where = write(ai)
        try:
            # with --executor the games run in chunks of their own seeds: the same figures on every executor
            chunks = {} if args.executor is None else {"chunk_size": EVAL_CHUNK}
            with open_executor(args) as executor:
                if args.exact:
                    solution = solve(game)
                    with progress_bar(4 * args.eval_games, "Evaluation game") as update:
                        report = evaluate(ai, games=args.eval_games, seed=child_seed(seed, 1), solution=solution,
                                          progress=update, executor=executor, **chunks)
                else:
                    with progress_bar(2 * args.eval_games, "Evaluation game") as update:
                        vs_random = win_rate_against(ai, random_agent, args.eval_games, child_seed(seed, 1), update,
                                                     executor=executor, **chunks)
                    report = {"vs_random": vs_random, "win_rate_vs_random": vs_random["rate"]}
        except (KeyboardInterrupt, WorkerLost) as error:  # the table is written; the evaluation is left out
            raise interrupted(error, (ai, args.games, where, None)) from None
        emit(args, *describe((ai, args.games, where, report)))


def _check_size(args, game) -> None:
    """Refuse training whose play (unless ``--force``) or report's exact solution (unless ``--no-exact``) is too large."""
    _, length, branching = size_hint(game, game.start())
    check_work(args.games, length, branching, limit=None if args.force else WORK_LIMIT)
    if args.exact:
        try:
            check_states(game, game.start())
        except ValueError as error:
            message = str(error).replace(GO_ON, "")
            raise CliError(f"the report: {message}: give --no-exact to train and report without it") from None


def _report(args, game, title, rules, seed, ai, games, where, report):
    """``(payload, text)``: the report of ``games`` games of training, and of the evaluation when done."""
    eval_seed = child_seed(seed, 1)
    payload = {
        "game": game_name(game),
        **({"rules": rules.partition(":")[0]} if rules is not None else {}),
        "games": games,
        "seed": seed,
        "alpha": ai.alpha,
        "epsilon": ai.epsilon,
        "output": args.output,
        "written_to": where,
        "q_entries": len(ai.q),
        "eval_games_per_side": args.eval_games,
        "eval_seed": eval_seed,
    }
    chosen = "" if args.seed is not None else f" (drawn; --seed {seed} repeats this run)"
    trained = f"{games:,} games" if games == args.games else f"{games:,} of {args.games:,} games"
    lines = [
        f"Q-learning on {title}" + (f" ({rules})" if rules is not None else ""),
        f"Done training: {trained} of self-play, seed {seed}{chosen}, alpha {ai.alpha}, epsilon {ai.epsilon}",
        f"Q table        {len(ai.q):,} entries written to {where}",
    ]
    if report is None:
        payload |= {"games_requested": args.games}
        lines.append("evaluation     not done (interrupted)")
        return payload, "\n".join(lines)
    if "vs_perfect" not in report:  # --no-exact
        payload |= {"win_rate_vs_random": report["win_rate_vs_random"], "vs_random": dict(report["vs_random"])}
        lines += [
            "optimal moves  not measured (--no-exact)",
            f"evaluation     {args.eval_games:,} games on each side against random play, seed {eval_seed}",
            f"vs random      {_rates(report['vs_random'])}",
            "vs perfect     not measured (--no-exact)",
        ]
        return payload, "\n".join(lines)
    payload |= {
        "optimal_move_rate": report["optimal_move_rate"],
        "optimal_states": report["optimal_states"],
        "winning_states": report["winning_states"],
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
    lines += [
        f"optimal moves  {optimal}",
        f"evaluation     {args.eval_games:,} games on each side against each opponent, seed {eval_seed}",
        f"vs random      {_rates(vr)}",
        f"vs perfect     {_rates(vp)}",
    ]
    return payload, "\n".join(lines)


def _rates(result) -> str:
    each = result["games"] // 2
    return (
        f"{result['rate']:.4f} win rate ({result['wins_first']}/{each} as first player, "
        f"{result['wins_second']}/{each} as second)"
    )
