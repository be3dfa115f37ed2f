"""``fnmcts simulate`` and ``fnmcts search`` on any game: every built-in game, ``--game SPEC`` for the rest.

The commands of the other modules serve the games they were written for
(coin, darts, Shut the Box, tic-tac-toe); these serve every other game of
``fnmcts.games.GAMES``, with its options read from its dataclass fields
(``fnmcts simulate nim --heap 5 --no-misere``), and any game a spec names
(``--game openspiel:NAME``, ``--game mygames:Connect(rows=4)``): random play
with its 95% intervals, and a Monte Carlo tree search with its root's moves.
Nothing here names a game.
"""

from __future__ import annotations

import time

from ..games import GAMES
from ..limits import WORK_LIMIT, check_work, play_work
from ..mcts import mcts_move, search
from ..views import top_children
from ..mcts._records import mean, visits
from ..montecarlo import simulate
from ..protocol import CHANCE, describe_move, game_name, game_text
from ..rng import make_rng, resolve_seed
from ._common import (
    CliError,
    add_dives,
    add_force,
    add_json,
    add_seed,
    count,
    emit,
    state_field,
    positive_count,
)
from ._search_flags import add_search_options, search_flags
from ._fields import add_field_options, fields_given
from ._board import state_argument
from ._games import GAME_FORMS, resolve_game
from ._payoffs import on_game_scale, scale, scale_fields, scale_note
from ._trees import add_trees, tree_options, trees_of
from .simulate import _described, _options, _simulate

__all__ = ["register"]

ANY = "any"
"""The GAME sub-command that ``--game SPEC`` implies (as for play, move, solve and tournament)."""


def register(cli) -> None:
    """Add ``simulate`` and ``search`` for every built-in game without them, and for ``--game SPEC``.

    >>> from ._parser import Cli
    >>> from . import simulate as simulate_module
    >>> cli = Cli(simulate_module.register, register)
    >>> cli.run(["simulate", "nim", "--heap", "5", "--games", "1000", "--seed", "1"])
    Nim(heap=5, max_take=3, misere=True), random play: player 1's results
    games     1,000
    wins      423
    losses    577
    estimate  0.423
    95% CI    [0.392732, 0.453858]
    seed      1
    0
    """
    where = f"any other GAME: {GAME_FORMS}"
    for name in sorted(GAMES):
        if not cli.has_game("simulate", name):
            p = cli.game_command("simulate", name, f"random play of {name}: player 1's results")
            add_field_options(p, GAMES[name])
            _options(p, 100_000)
            p.set_defaults(handler=_simulate_any, kind=GAMES[name])
        if not cli.has_game("search", name):
            p = cli.game_command("search", name, f"Monte Carlo tree search on {name}: the root's moves")
            add_field_options(p, GAMES[name])
            _search_options(p)
            p.set_defaults(handler=_search_any, kind=GAMES[name])
    p = cli.game_option("simulate", ANY, f"random play of any game ({where})")
    _spec(p)
    _options(p, 100_000)
    p.set_defaults(handler=_simulate_any)
    p = cli.game_option("search", ANY, f"Monte Carlo tree search on any game ({where})")
    _spec(p)
    _search_options(p)
    p.set_defaults(handler=_search_any)


def _spec(parser) -> None:
    parser.add_argument("--game", dest="game_spec", required=True, metavar="SPEC", help=f"the game: {GAME_FORMS}")


def _search_options(parser) -> None:
    add_dives(parser, type=positive_count, default=10_000, help="dives of the search (default 10,000)")
    parser.add_argument("--state", default=None, metavar="STATE",
                        help="search from this position (default, or 'start': the start; a deal or a roll first is searched too)")
    parser.add_argument("--top", type=positive_count, default=5, metavar="K", help="the K most visited moves (default 5)")
    add_search_options(parser)
    add_trees(parser)
    add_seed(parser)
    add_force(parser)
    add_json(parser)


def _game(args):
    """The game the command names: ``--game SPEC``, or the built-in class with the options given."""
    spec = getattr(args, "game_spec", None)
    if spec is not None:
        return resolve_game(spec)
    try:
        return args.kind(**fields_given(args.kind, args))
    except (TypeError, ValueError) as error:
        raise CliError(str(error)) from None


def _simulate_any(args):
    game = _game(args)

    def fn(n, **options):
        return simulate(game, n, **options)

    _simulate(args, fn, game_name(game), _described(f"{game_text(game)}, random play: player 1's results"))


def _search_any(args):
    game = _game(args)
    state = state_argument(game, args.state)
    who = game.to_move(state)
    if who is None:
        raise CliError("the game is over at this state: nothing to search")
    length, branching = play_work(game, state)
    # a dive is at least one step of play (a game that may repeat tells no longest game); past the
    # limit, TooLarge is the command's one-line error naming --force
    check_work(args.dives, length or 1, branching or 1, limit=None if args.force else WORK_LIMIT, what="dives")
    seed = resolve_seed(args.seed)
    flags = search_flags(args)
    started = time.perf_counter()
    trees = trees_of(args)
    if who is CHANCE and (trees > 1 or getattr(args, "batch", None)):
        raise CliError(f"{'--trees N' if trees > 1 else '--batch K'} searches from a state where a player moves; "
                       "chance moves here (a deal or a roll): "
                       "search it with one tree, or give --state after the outcome")
    from ._output import progress_bar  # a search past two seconds says so: a slow game's is not silent

    if who is CHANCE:  # a deal or a roll first: one tree, the best move read after each outcome
        with tree_options(args), progress_bar(args.dives, "dives", unit="dive", after=True) as update:
            tree = search(game, state, args.dives, make_rng(seed), progress=update, **flags)  # one tree: no workers
        ran, best, proven = args.dives, None, None
    else:
        with (tree_options(args, root=flags.get("root"), dives=args.dives) as where,
              progress_bar(args.dives, "dives", beat=True) as beat):
            stop = {} if where or getattr(args, "batch", None) else {"stop": beat}  # one tree in this process: it beats
            found = mcts_move(game, state, args.dives, make_rng(seed), **flags, **where, **stop)  # `move --ai mcts`'s move
        tree, ran, best, proven = found.tree, found.iterations, found.move, found.proven.get(state)
    seconds = time.perf_counter() - started
    low, high = scale(game)
    root = visits(tree[state]) if state in tree else 0
    payload = {
        "game": repr(game),
        **state_field(args, game, state),
        "to_move": "chance" if who is CHANCE else who + 1,
        "dives": args.dives,
        "dives_run": ran,
        "root_visits": root,
        "seed": seed,
        "trees": trees,
        **({"batch": args.batch} if getattr(args, "batch", None) else {}),
        "options": {k: v for k, v in flags.items()},
        **scale_fields(game),
        "tree_states": len(tree),
        "dives_per_second": ran / seconds if seconds > 0 else None,
        "proven": None if proven is None else [_number(x) for x in proven],
        "deprecated_keys": ["moves[].mean"],
    }

    done = f"{args.dives:,} dives" if ran == args.dives else f"{ran:,} dives of {args.dives:,} (the root is proven)"
    header = f"MCTS on {game_text(game)}: {done}, seed {seed}" + (f", {trees} root-parallel trees" if trees > 1 else "")
    if who is CHANCE:  # a deal or a roll first: the best move after each outcome
        fields, lines = _outcomes_report(game, state, tree, args.top, header, low, high)
    else:
        fields, lines = _moves_report(game, state, tree, args.top, header, who, best, proven, low, high)
    payload |= fields
    lines.append(f"tree        {len(tree):,} states")
    emit(args, payload, "\n".join(lines))


def _move_row(game, state, move, rec, low, high) -> dict:
    """A move's line of the report: visits, the mover's mean payoff (the game's scale) and its score on [0, 1]."""
    seen = visits(rec) > 0  # a move no dive took has no mean: null, not the lowest payoff
    return {"move": describe_move(game, state, move), "visits": visits(rec),
            "payoff": on_game_scale(mean(rec), low, high) if seen else None, "score": mean(rec) if seen else None,
            "mean": mean(rec)}  # mean: the score's old name, for one release


def _outcomes_report(game, state, tree, top, header, low, high) -> tuple:
    """``(payload fields, lines)`` of a search from a chance node: the most visited move after each outcome."""
    probabilities = dict(game.chance_outcomes(state))
    outcomes = []
    for outcome, best in top_children(game, tree, state, top):
        after = game.play(state, outcome)
        entry = {"outcome": describe_move(game, state, outcome), "probability": str(probabilities[outcome])}
        row = None if best is None else _move_row(game, after, *best, low, high)
        outcomes.append(entry | ({"best_move": None} if row is None else
                                 {"best_move": row["move"]} | _without_move(row)))
    lines = [header + "; chance moves first: the most visited move after each outcome",
             scale_note(game, "the mover's after the outcome") + " (score: the same on [0, 1])",
             _table(["outcome", "probability", "best move", "visits", "payoff", "score"],
                    [[o["outcome"], o["probability"], o["best_move"] or "-",
                      f"{o['visits']:,}" if o["best_move"] else "", _shown(o.get("payoff"), "{:.4g}"),
                      _shown(o.get("score"), "{:.4f}")] for o in outcomes])]
    return {"best_move": None, "outcomes": outcomes, "moves": []}, lines


def _moves_report(game, state, tree, top, header, who, best, proven, low, high) -> tuple:
    """``(payload fields, lines)`` of a search from a decision: its moves, most visited first, and the best."""
    rows = [_move_row(game, state, move, rec, low, high) for move, rec in top_children(game, tree, state, top)]
    best_move = describe_move(game, state, best)
    why = "the most visited" if proven is None else f"proven: the value {_value_text(proven)}"
    lines = [header, scale_note(game, f"the mover's (player {who + 1})") + " (score: the same on [0, 1])",
             _table(["move", "visits", "payoff", "score"],
                    [[r["move"], f"{r['visits']:,}", _shown(r["payoff"], "{:.4g}"), _shown(r["score"], "{:.4f}")]
                     for r in rows]),
             f"best move   {best_move}  ({why})"]
    return {"best_move": best_move, "moves": rows}, lines


def _number(x):
    """An exact value as JSON: a whole number, else a float."""
    return int(x) if x == int(x) else float(x)


def _value_text(value) -> str:
    """A proven payoff tuple as text: ``(1, -1)``, ``(1/2,)``; a fraction of a float payoff as a decimal.

    >>> from fractions import Fraction
    >>> _value_text((Fraction(1, 2),)), _value_text((Fraction(576460752303423485, 729583139634020352),))
    ('(1/2,)', '(0.790123,)')
    """
    shown = [f"{float(v):.6g}" if getattr(v, "denominator", 1) > 1000 else str(v) for v in value]
    return "(" + ", ".join(shown) + ("," if len(value) == 1 else "") + ")"


def _shown(number, form: str) -> str:
    return "-" if number is None else form.format(number)


def _without_move(row: dict) -> dict:
    return {k: v for k, v in row.items() if k != "move"}


def _table(header: list, rows: list) -> str:
    """Columns: the first left-aligned, the others right-aligned, two spaces apart.

    >>> print(_table(["move", "visits"], [["take 1", "1,204"], ["take 2", "96"]]))
    move    visits
    take 1   1,204
    take 2      96
    """
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    return "\n".join("  ".join(str(cell).ljust(w) if i == 0 else str(cell).rjust(w)
                               for i, (cell, w) in enumerate(zip(r, widths))).rstrip() for r in [header, *rows])
