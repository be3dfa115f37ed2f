"""The agents of the game commands: their names, their options, one factory over ``fnmcts.agents.make_agent``."""

from __future__ import annotations


from ..agents import AGENTS, make_agent
from ..games import GAMES
from ..protocol import game_text
from ._common import CliError, add_dives, positive_count, positive_number
from ._games import _nearest
from ._search_flags import add_search_options, search_flag_names, search_flags
from ._board import _load_q

__all__ = ["AGENT_ORDER", "TWO_PLAYER_AGENTS", "agent_names", "build_agent"]

AGENT_ORDER = ("random", "perfect", "montecarlo", "montecarlo-perfect", "mcts", "exact", "q")
"""The agents in the order ``--help`` lists them (any agent not named here follows, sorted)."""

TWO_PLAYER_AGENTS = ("perfect", "q")
"""The agents of two-player games only: a closed form of who wins (perfect), a two-player Q table (q)."""



def _option_agents() -> dict:
    """``dest -> (flag, the agents that take it)``: the agents' own options, and every search flag for mcts."""
    own = {
        "iterations": ("--dives", ("mcts", "montecarlo", "montecarlo-perfect")),
        "trials": ("--trials", ("montecarlo", "montecarlo-perfect")),
        "q_table": ("--q-table", ("q",)),
        "reuse": ("--reuse-tree", ("mcts",)),
        "seconds": ("--seconds", ("mcts",)),
        "trees": ("--trees", ("mcts",)),
    }
    searched = {name: ("--no-solver" if name == "solver" else "--" + name.replace("_", "-"), ("mcts",))
                for name in search_flag_names()}
    return own | searched


def agent_names(game=None) -> tuple:
    """The agents a game can use, in a fixed order: ``AGENT_ORDER``, then any others sorted, then the game's own.

    ``game`` is a game value, a built-in game's name, or ``None`` (any game). A
    game of one player (``num_players``) leaves out ``TWO_PLAYER_AGENTS``.

    >>> agent_names("shut-the-box")
    ('random', 'montecarlo', 'montecarlo-perfect', 'mcts', 'exact')
    >>> agent_names("piles")[:3], agent_names("pig")[-2:]
    (('random', 'perfect', 'montecarlo'), ('hold-at-20', 'optimal'))
    """
    if isinstance(game, str):
        game = GAMES[game]() if game in GAMES else None
    names = tuple(n for n in AGENT_ORDER if n in AGENTS) + tuple(sorted(n for n in AGENTS if n not in AGENT_ORDER))
    if game is None:
        return names
    if getattr(game, "num_players", 2) == 1:
        names = tuple(n for n in names if n not in TWO_PLAYER_AGENTS)
    return names + tuple(n for n in _own_agents(game) if n not in names)


def _own_agents(game) -> dict:
    """The agents a game names itself (its ``agents`` hook): name -> factory, or the name of an agent of ``AGENTS``.

    >>> from fnmcts.games import Pig
    >>> sorted(_own_agents(Pig())), _own_agents(object())
    (['hold-at-20', 'optimal'], {})
    """
    own = getattr(game, "agents", None)
    return dict(own()) if own is not None else {}


# -- options ---------------------------------------------------------------------------


def _agent_options(parser, *, q_table: bool = True, reuse: bool = True) -> None:
    """The agents' options; ``q_table=False`` for a game no Q table plays, ``reuse=False`` for one move."""
    add_dives(parser, "iterations", type=positive_count,
              help="search budget: MCTS dives a move (mcts), or playouts a move (montecarlo agents)")
    parser.add_argument(
        "--trials", type=positive_count, default=None, metavar="N", help="playouts a move (montecarlo agents)"
    )
    if q_table:
        parser.add_argument("--q-table", default=None, metavar="FILE", help="the trained Q table for --ai q")
    add_search_options(parser, "mcts: ", root=True, final=True)
    if reuse:
        parser.add_argument(
            "--reuse-tree", dest="reuse", action="store_true", default=None,
            help="mcts: keep the search tree from move to move (pruned to the states still reachable)",
        )
    parser.add_argument(
        "--seconds", type=positive_number("seconds"), default=None, metavar="S",
        help="mcts: a time budget a move (with --dives: whichever comes first)",
    )


def _agent_args(args) -> dict:
    names = ("iterations", "trials", "q_table", "reuse", "seconds")
    return {name: getattr(args, name, None) for name in names} | search_flags(args, final=True)


def _check_agents(args, game, names) -> None:
    """Refuse an unknown agent, one the game (a value or a built-in's name) cannot use, or an option none of ``names`` takes."""
    usable = agent_names(game)
    kind = game if isinstance(game, str) else repr(game)
    for name in names:
        if name not in usable:
            if name in AGENTS:
                why = "no closed form" if name == "perfect" else "it plays two-player games only"
                raise CliError(f"agent {name!r} cannot play {kind} ({why}); choose one of {', '.join(usable)}")
            raise CliError(f"unknown agent {name!r}{_nearest(name, usable)}; choose one of {', '.join(usable)}")
    for dest, (flag, takers) in _option_agents().items():
        if getattr(args, dest, None) is not None and not set(names) & set(takers):
            raise CliError(f"{flag} applies to --ai {' or '.join(takers)} only, not {' or '.join(names)}")



def build_agent(name: str, game=None, *, iterations=None, trials=None, q_table=None, ai=None, **search):
    """The agent ``name`` of ``AGENTS`` with the command line's options.

    ``iterations`` sets MCTS iterations (and the playouts of the Monte Carlo
    agents unless ``trials`` does); ``search`` holds the MCTS options (``rule``,
    ``c``, ``z``, ``backup``, ``final``, ``solver``; ``None`` means the
    default, ``fnmcts.mcts.search_options``'s). Options that do
    not apply to the agent are ignored here (the commands refuse them first).
    The q agent takes a loaded ``ai`` or a ``q_table`` file; a missing or bad
    Q table, or one trained on another ``game``, is a ``CliError``.

    >>> from fnmcts.games.nim import Nim
    >>> from fnmcts.rng import make_rng
    >>> agent = build_agent("mcts", iterations=200, rule="tutorial", solver=False, trials=5)
    >>> agent(Nim(), Nim().state(6), make_rng(1))
    1
    >>> build_agent("montecarlo", iterations=300).keywords
    {'trials': 300}
    """
    own = _own_agents(game)
    if name in own:
        if not isinstance(own[name], str):
            return own[name]()
        name = own[name]  # the game's name for an agent of the registry (Pig's optimal: exact)
    if name not in AGENTS:
        raise CliError(f"unknown agent {name!r}{_nearest(name, agent_names())}; choose one of {', '.join(agent_names())}")
    options = {}
    if name == "mcts":
        if iterations is not None:
            options["iterations"] = iterations
        options.update({k: v for k, v in search.items() if v is not None})
    if name in ("montecarlo", "montecarlo-perfect") and (trials or iterations) is not None:
        options["trials"] = trials or iterations
    if name == "q":
        ai = _load_q(q_table) if ai is None else ai
        trained = getattr(ai, "game", None)
        if game is not None and trained is not None and trained != game:
            raise CliError(f"the Q table {q_table} was trained on {trained!r}, not {game_text(game)}")
        options["ai"] = ai
    if name in ("perfect", "exact") and game is not None:
        options["game"] = game  # solved once here when the agent needs the exact solution
    return make_agent(name, **options)
