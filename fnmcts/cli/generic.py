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
from ..mcts import mcts_move, top_children
from ..mcts._records import mean, visits
from ..montecarlo import simulate
from ..protocol import CHANCE, describe_move, game_name, parse_state, check_reachable
from ..rng import make_rng
from ._common import (
    CliError,
    add_force,
    add_json,
    add_seed,
    count,
    emit,
    positive_count,
)
from ._search_flags import add_search_options, search_flags
from ._fields import add_field_options, fields_given
from ._games import GAME_FORMS, resolve_game
from .simulate import _described, _options, _simulate

__all__ = ["register"]

ANY = "any"
"""The GAME sub-command that ``--game SPEC`` implies (as for play, move, solve and tournament)."""


def register(cli) -> None:
    """Add ``simulate`` and ``search`` for every built-in game without them, and for ``--game SPEC``.

    >>> from ._parser import Cli
    >>> from . import simulate as simulate_module
    >>> cli = Cli()
    >>> simulate_module.register(cli)
    >>> register(cli)
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
    where = f"--game SPEC: {GAME_FORMS}"
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
    parser.add_argument("--dives", type=count, default=10_000, metavar="N", help="dives of the search (default 10,000)")
    parser.add_argument("--state", default=None, metavar="STATE", help="search from this position (default: the start)")
    parser.add_argument("--top", type=positive_count, default=5, metavar="K", help="the K most visited moves (default 5)")
    add_search_options(parser)
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

    _simulate(args, fn, game_name(game), _described(f"{game!r}, random play: player 1's results"))


def _search_any(args):
    game = _game(args)
    state = game.start() if args.state is None else _state(game, args.state)
    if game.to_move(state) is None:
        raise CliError("the game is over at this state: nothing to search")
    if game.to_move(state) is CHANCE:
        raise CliError("chance moves next at this state (a roll, a deal): give a state where a player moves")
    length, branching = play_work(game, state)
    # a dive is at least one step of play (a game that may repeat tells no longest game); past the
    # limit, TooLarge is the command's one-line error naming --force
    check_work(args.dives, length or 1, branching or 1, limit=None if args.force else WORK_LIMIT, what="dives")
    seed = args.seed if args.seed is not None else make_rng().getrandbits(63)
    flags = search_flags(args)
    started = time.perf_counter()
    found = mcts_move(game, state, args.dives, make_rng(seed), **flags)  # the move `fnmcts move --ai mcts` plays
    seconds = time.perf_counter() - started
    tree, ran, best = found.tree, found.iterations, found.move
    rows = [(move, rec) for move, rec in top_children(game, tree, state, args.top)]
    root = visits(tree[state]) if state in tree else 0
    proven = found.proven.get(state)
    payload = {
        "game": repr(game),
        "state": game.state_to_json(state) if hasattr(game, "state_to_json") else repr(state),
        "dives": args.dives,
        "root_visits": root,
        "seed": seed,
        "options": {k: v for k, v in flags.items()},
        "best_move": describe_move(game, state, best),
        "moves": [{"move": describe_move(game, state, m), "visits": visits(r), "mean": mean(r)} for m, r in rows],
        "tree_states": len(tree),
        "dives_per_second": ran / seconds if seconds > 0 else None,
        "proven": None if proven is None else [_number(x) for x in proven],
    }
    texts = [describe_move(game, state, m) for m, _ in rows]
    width = max([len("move"), *map(len, texts)]) + 2
    done = f"{args.dives:,} dives" if ran == args.dives else f"{ran:,} dives of {args.dives:,} (the root is proven)"
    lines = [f"MCTS on {game!r}: {done}, seed {seed}", f"{'move':<{width}}{'visits':>10}{'mean':>10}"]
    lines += [f"{text:<{width}}{visits(r):>10,}{mean(r):>10.4f}" for text, (_, r) in zip(texts, rows)]
    why = "the most visited" if proven is None else f"proven: the value {_value_text(proven)}"
    lines += [f"best move   {payload['best_move']}  ({why})", f"tree        {len(tree):,} states"]
    emit(args, payload, "\n".join(lines))


def _number(x):
    """An exact value as JSON: a whole number, else a float."""
    return int(x) if x == int(x) else float(x)


def _value_text(value) -> str:
    """A proven payoff tuple as text: ``(1, -1)``, ``(1/2,)``."""
    return "(" + ", ".join(str(x) for x in value) + ("," if len(value) == 1 else "") + ")"


def _state(game, text):
    state = parse_state(game, text)
    try:
        return check_reachable(game, state)
    except ValueError as error:
        raise CliError(f"--state {text.strip()} does not fit the game: {error}") from None
