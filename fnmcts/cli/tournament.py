"""``fnmcts tournament GAME AGENT1 AGENT2``: the notebook's Tournament (wins of each player, and draws)."""

from __future__ import annotations


from ..matches import tournament
from . import _board, _common
from ._agents import _agent_args, _agent_options, _check_agents, agent_names, build_agent
from .move import _game_json
from ._executor import add_executor, open_executor

__all__ = ["register"]


def register(cli) -> None:
    """Add ``fnmcts tournament GAME AGENT1 AGENT2`` for every two-player game to ``cli``.

    >>> from ._parser import Cli
    >>> cli = Cli(register)
    >>> cli.run(["tournament", "nim", "perfect", "random", "--heap", "5", "--games", "10", "--seed", "1"])  # 5: a lost start
    Player 1 wins 6 games. Player 2 wins 4 games.
    Player 1 scores 0.6 of the points (95% CI [0.3127, 0.8318]).
    (player 1: perfect, player 2: random; seed 1)
    0
    """
    for kind in _board.board_games():
        family = _board._family(kind)
        counted = "the wins of each player and the draws" if family.draws else "the wins of each player"
        p = cli.game_command(
            "tournament", kind, f"{family.title}: AGENT1 (player 1) against AGENT2; {counted}", _board._TOURNAMENT_HELP
        )
        p.add_argument("agent1", metavar="AGENT1", help=f"player 1: {', '.join(agent_names(kind))}")
        p.add_argument("agent2", metavar="AGENT2", help="player 2")
        _board._game_options(p, kind)
        p.add_argument("--games", type=_common.positive_count, default=100, metavar="N", help="how many games (default 100)")
        p.add_argument("--workers", type=_common.worker_count, default=1, metavar="W", help="worker processes")
        _agent_options(p)
        _common.add_force(p)
        _common.add_seed(p)
        _common.add_json(p)
        add_executor(p)
        p.set_defaults(handler=_tournament)


def _tournament(args):
    names = (args.agent1, args.agent2)
    _check_agents(args, args.game, names)
    game, _, q_ai = _board._nim_game(args, names)
    _board._refuse_empty(game)
    _board._check_exact_size(game, names)
    _board._check_work(args, game, game.start(), names, args.games)
    options = _agent_args(args) | {"ai": q_ai}
    agent1, agent2 = build_agent(args.agent1, game, **options), build_agent(args.agent2, game, **options)
    if args.workers > 1 or getattr(args, "executor", None) is not None:
        import pickle

        for name, agent in ((args.agent1, agent1), (args.agent2, agent2)):
            try:
                pickle.dumps(agent)
            except Exception:
                instead = "use --workers 1" if args.workers > 1 else "leave out --executor"
                raise _common.CliError(f"agent {name!r} cannot run in worker processes; {instead}") from None

    def describe(record):
        payload = record.to_json() | {"agent1": args.agent1, "agent2": args.agent2, "game": _game_json(game)}
        summary = record.summary()
        if _board._family(game).draws and not record.draws:
            summary += " 0 draws."
        if record.games < args.games:
            summary = f"{record.games:,} of {args.games:,} games played. {summary}"
        score, (low, high) = _score_interval(record)
        payload |= {"player1_score": score, "player1_score_ci": [low, high]}
        if score is not None:
            half = "; a draw is half a point" if record.draws else ""
            summary += f"\nPlayer 1 scores {score:.4g} of the points (95% CI [{low:.4g}, {high:.4g}]{half})."
        return payload, f"{summary}\n(player 1: {args.agent1}, player 2: {args.agent2}; seed {record.seed})"

    with _common.keep_partial(args, describe), open_executor(args) as executor:
        with _common.progress_bar(args.games, "games") as update:
            record = tournament(game, agent1, agent2, args.games, args.seed, executor=executor, progress=update)
    _common.emit(args, *describe(record))


def _score_interval(record):
    """Player 1's share of the points of a tournament (a draw half a point) and its 95% interval.

    The Wilson interval of the wins when no game was drawn, else the interval of
    the mean score (each game worth 0, 1/2 or 1); ``(None, (None, None))`` for no games.

    >>> from fnmcts.matches import TournamentRecord
    >>> from pyrsistent import pmap
    >>> score, (low, high) = _score_interval(TournamentRecord(games=50, wins=pmap({1: 22, 2: 28}), draws=0, seed=1))
    >>> score, round(low, 4), round(high, 4)
    (0.44, 0.3116, 0.5769)
    """
    from ..montecarlo import mean_interval, wilson_interval

    games, wins, draws = record.games, record.wins[1], record.draws
    if not games:
        return None, (None, None)
    score = (wins + draws / 2) / games
    if not draws:
        return score, wilson_interval(wins, games)
    return score, mean_interval(wins + draws / 2, wins + draws / 4, games)


