"""``fnmcts play|tournament|move|solve GAME``: the two-player games at the command line.

GAME is any two-player game of ``fnmcts.games.GAMES``: ``nim``, ``piles``,
``tic-tac-toe``. The commands read everything about a game through its hooks
(``parse_state``, ``check_reachable``, ``parse_move``, ``render``,
``transcript_line``, ``winning_moves``, ``player_name``); what they know
beyond that (the Nim family's options and texts) is data in ``_FAMILIES``.

* ``play GAME``: a game against any agent at the terminal; invalid input
  re-prompts, end of input or Ctrl-C stops with a summary.
* ``tournament GAME AGENT1 AGENT2``: the notebook's Tournament (wins of each
  player, and draws).
* ``move GAME --state STATE --ai NAME``: the move an agent plays at any state.
* ``solve GAME``: who wins under perfect play (or a draw), and the winning or
  best moves: Nim's closed form, checked against the exact solver when the
  game is small; any other game by the exact solver.

Nim's game: ``--heap``/``--max-take`` (nim) or ``--piles`` (piles) and
``--misere``/``--normal``. When ``--state`` is given without ``--heap`` (or
``--piles``), the game starts from the state. When both are given, the state
must fit the game (no larger heap or pile, as many piles); a state that play
cannot reach is an error. With ``--ai q`` the options not given come from the
Q table's game, and the state must fit that game.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Callable

from ..agents import AGENTS, make_agent
from ..games import GAMES
from ..games.piles import parse_piles
from ..limits import STATE_LIMIT, WORK_LIMIT, TooLarge, check_work, play_work, size_hint
from ..matches import agent_move, initial_memory, result_line, tournament
from ..protocol import (
    CHANCE,
    check_reachable,
    describe_move,
    game_name,
    game_to_json,
    parse_move,
    parse_state,
    payoff_range,
    render,
    sample_outcome,
    transcript_line,
)
from ..rng import make_rng
from ._games import resolve_game
from ._common import (
    CliError,
    add_force,
    add_json,
    add_search_options,
    add_seed,
    count,
    emit,
    keep_partial,
    positive_count,
    progress_bar,
    read_line,
    search_flags,
    worker_count,
)

__all__ = [
    "AGENT_ORDER",
    "SHUT_THE_BOX_AGENTS",
    "agent_names",
    "board_games",
    "build_agent",
    "interactive_game",
    "interactive_nim",
    "parse_human_move",
    "register",
]

_PLAY_HELP = "play a game at the terminal"
_TOURNAMENT_HELP = "play many games between two agents and count the wins"
_MOVE_HELP = "print the move an agent plays at a state"
_SOLVE_HELP = "solve a game exactly"
_EXACT_LIMIT = STATE_LIMIT  # states: above this, solve trusts the closed form alone and --ai exact is refused

AGENT_ORDER = ("random", "perfect", "montecarlo", "montecarlo-perfect", "mcts", "exact", "q")
"""The agents in the order ``--help`` lists them (any agent not named here follows, sorted)."""

SHUT_THE_BOX_AGENTS = ("random", "montecarlo", "montecarlo-perfect", "mcts", "exact")
"""The agents that can play Shut the Box: no closed form (perfect), no two-player Q table (q)."""



def _rule(game) -> str:
    return "taking the last item loses" if game.misere else "taking the last item wins"


def _nim_states(game, state) -> int:
    return state["heap"] + 1


def _piles_states(game, state) -> int:
    total = 1
    for p in state["piles"]:
        total *= p + 1
    return total


@dataclass(frozen=True)
class _Family:
    """What the commands know of a game beyond its hooks (the Nim family: options and the texts of old)."""

    title: str  # in --help: "Nim (one heap, take 1..K)"
    defaults: tuple = ()  # (option, default) pairs: the game's parameters on the command line
    size: str | None = None  # the parameter a --state gives when the option is not given
    example: str | None = None  # a --state in --help
    rule: Callable | None = None  # game -> the rule told when a game starts
    where: Callable | None = None  # (game, state) -> the position in solve's text
    empty: Callable | None = None  # game -> why the game is over at its start
    states: Callable | None = None  # (game, state) -> the states the exact solver would visit from state
    train: str = "train one with `fnmcts train piles -o FILE`"
    draws: bool = True  # the game can end in a draw: summaries count draws, the end board is shown
    shortest: Callable | None = None  # (game, state) -> the fewest moves any game from state takes, if unbounded


def _pig_shortest(game, state) -> int:
    """The fewest moves a game of Pig from ``state`` takes: the leader's points still wanted, 6 a roll at most."""
    _, s0, s1, turn, _ = state
    return max(1, -(-(game.goal - max(s0, s1) - turn) // 6))


_FAMILIES = {
    "nim": _Family(
        "Nim (one heap, take 1..K)",
        (("heap", 21), ("max_take", 3), ("misere", True)),
        "heap",
        "21",
        _rule,
        lambda game, state: f"heap {state['heap']}",
        lambda game: f"the heap is {game.heap}",
        _nim_states,
        draws=False,
    ),
    "piles": _Family(
        "Nim (several piles, take any number from one)",
        (("piles", (1, 3, 5, 7)), ("misere", True)),
        "piles",
        "1,3,5,7",
        _rule,
        lambda game, state: f"piles {' '.join(map(str, state['piles']))}",
        lambda game: f"the piles are {' '.join(map(str, game.piles))}",
        _piles_states,
        draws=False,
    ),
    "pig": _Family(
        "Pig (one die, first to the goal)",
        (("goal", 100),),
        example="45,30,12,2",
        train="train one with fnmcts.qlearning.train(n, game=Pig(goal=...)) and save_ai",
        draws=False,
        shortest=_pig_shortest,
    ),
}


def board_games() -> tuple:
    """The games these commands play: the two-player games of ``GAMES``, Nim's first, then by name.

    >>> board_games()
    ('nim', 'piles', 'pig', 'kayles', 'tic-tac-toe')
    """
    two = sorted(name for name, kind in GAMES.items() if getattr(kind, "num_players", None) == 2)
    return tuple(n for n in _FAMILIES if n in two) + tuple(n for n in two if n not in _FAMILIES)


def _family(kind: str) -> _Family:
    """The command line's knowledge of ``kind``; any other game: its name and hooks alone."""
    return _FAMILIES.get(kind) or _Family(kind)


def _player_name(game, player: int) -> str:
    """The game's ``player_name`` hook ("Player 1 (X)"), else "Player 1"."""
    own = getattr(game, "player_name", None)
    return own(player) if own is not None else f"Player {player + 1}"

# the agents each agent option applies to
_OPTION_AGENTS = {
    "iterations": ("--iterations", ("mcts", "montecarlo", "montecarlo-perfect")),
    "trials": ("--trials", ("montecarlo", "montecarlo-perfect")),
    "q_table": ("--q-table", ("q",)),
    "rule": ("--rule", ("mcts",)),
    "c": ("--c", ("mcts",)),
    "z": ("--z", ("mcts",)),
    "backup": ("--backup", ("mcts",)),
    "final": ("--final", ("mcts",)),
    "solver": ("--no-solver", ("mcts",)),
    "reuse": ("--reuse-tree", ("mcts",)),
    "seconds": ("--seconds", ("mcts",)),
}


def agent_names(game_kind: str = "nim") -> tuple:
    """The agents a game can use, in a fixed order: ``AGENT_ORDER``, then any others sorted.

    >>> agent_names("shut-the-box")
    ('random', 'montecarlo', 'montecarlo-perfect', 'mcts', 'exact')
    >>> agent_names("piles")[:3]
    ('random', 'perfect', 'montecarlo')
    """
    names = tuple(n for n in AGENT_ORDER if n in AGENTS) + tuple(sorted(n for n in AGENTS if n not in AGENT_ORDER))
    if game_kind == "shut-the-box":
        return tuple(n for n in names if n in SHUT_THE_BOX_AGENTS)
    return names + tuple(n for n in _own_agents(GAMES[game_kind]()) if n not in names) if game_kind in GAMES else names


def _own_agents(game) -> dict:
    """The agents a game names itself (its ``agents`` hook): name -> factory, or the name of an agent of ``AGENTS``.

    >>> from fnmcts.games import Pig
    >>> sorted(_own_agents(Pig())), _own_agents(object())
    (['hold-at-20', 'optimal'], {})
    """
    own = getattr(game, "agents", None)
    return dict(own()) if own is not None else {}


# -- options ---------------------------------------------------------------------------


def _pile_list(text: str) -> tuple:
    try:
        return parse_piles(text)
    except ValueError as error:
        raise _type_error(str(error)) from None


def _non_negative(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise _type_error(f"expected a number, got {text!r}") from None
    if not value >= 0 or value == float("inf"):
        raise _type_error(f"expected a finite number of at least 0, got {text!r}")
    return value


def _positive_seconds(text: str) -> float:
    value = _non_negative(text)
    if not value > 0:
        raise _type_error(f"expected a positive number of seconds, got {text!r}")
    return value


def _type_error(message):
    import argparse

    return argparse.ArgumentTypeError(message)


def _game_options(parser, kind: str, with_state: bool = False) -> None:
    """The options that set ``kind``'s parameters (the Nim family's); other games have none."""
    if not _family(kind).defaults:
        return
    from_state = "; with --state and no --heap: the state's heap" if with_state else ""
    if kind not in ("nim", "piles"):  # a game's whole-number parameters, e.g. Pig's --goal
        for option, default in _family(kind).defaults:
            parser.add_argument(
                f"--{option.replace('_', '-')}", type=positive_count, default=None, metavar="N",
                help=f"the game's {option.replace('_', ' ')} (default {default})",
            )
        return
    if kind == "nim":
        parser.add_argument(
            "--heap", type=count, default=None, metavar="N",
            help=f"items in the heap (default 21{from_state}; a --state must not exceed it)" if with_state
            else "items in the heap (default 21)",
        )
        parser.add_argument(
            "--max-take", type=positive_count, default=None, metavar="K", help="a move takes 1..K items (default 3)"
        )
    else:
        parser.add_argument(
            "--piles", type=_pile_list, default=None, metavar="P",
            help="pile sizes (default 1,3,5,7; with --state and no --piles: the state's piles; "
            "a --state must have as many piles, none larger)" if with_state else "pile sizes (default 1,3,5,7)",
        )
    rule = parser.add_mutually_exclusive_group()
    rule.add_argument(
        "--misere", dest="misere", action="store_true", default=None, help="taking the last item loses (default)"
    )
    rule.add_argument("--normal", dest="misere", action="store_false", help="taking the last item wins")


def _agent_options(parser, *, q_table: bool = True, reuse: bool = True) -> None:
    """The agents' options; ``q_table=False`` for a game no Q table plays, ``reuse=False`` for one move."""
    parser.add_argument(
        "--iterations", type=positive_count, default=None, metavar="N",
        help="search budget: MCTS iterations a move (mcts), or playouts a move (montecarlo agents)",
    )
    parser.add_argument(
        "--trials", type=positive_count, default=None, metavar="N", help="playouts a move (montecarlo agents)"
    )
    if q_table:
        parser.add_argument("--q-table", default=None, metavar="FILE", help="the trained Q table for --ai q")
    add_search_options(parser, "mcts: ", root=True)
    parser.add_argument(
        "--final", choices=("visits", "mean"), default=None, help="mcts: play the most visited or best mean move"
    )
    if reuse:
        parser.add_argument(
            "--reuse-tree", dest="reuse", action="store_true", default=None,
            help="mcts: keep the search tree from move to move (pruned to the states still reachable)",
        )
    parser.add_argument(
        "--seconds", type=_positive_seconds, default=None, metavar="S",
        help="mcts: a time budget a move (with --iterations: whichever comes first)",
    )


def _agent_args(args) -> dict:
    names = ("iterations", "trials", "q_table", "final", "reuse", "seconds")
    return {name: getattr(args, name, None) for name in names} | search_flags(args)


def _check_agents(args, kind: str, names) -> None:
    """Refuse an unknown agent, one the game cannot use, or an option none of ``names`` takes."""
    usable = agent_names(kind)
    for name in names:
        if name not in usable:
            if name in AGENTS:
                why = "no closed form" if name == "perfect" else "it plays two-player games only"
                raise CliError(f"agent {name!r} cannot play {kind} ({why}); choose one of {', '.join(usable)}")
            raise CliError(f"unknown agent {name!r}; choose one of {', '.join(usable)}")
    for dest, (flag, takers) in _OPTION_AGENTS.items():
        if getattr(args, dest, None) is not None and not set(names) & set(takers):
            raise CliError(f"{flag} applies to --ai {' or '.join(takers)} only, not {' or '.join(names)}")


def _load_q(q_table, kind: str = "piles", game=None):
    """The QAI saved at ``q_table`` (of a built-in game, or of ``game``), or a ``CliError`` naming the problem."""
    if q_table is None:
        raise CliError(f"--ai q needs --q-table FILE ({_train_hint(kind)})")
    path = Path(q_table)
    if not path.is_file():
        raise CliError(f"no Q table at {q_table}")
    try:
        from ..tutorial import load_ai

        return load_ai(path) if game is None else load_ai(path, {**GAMES, game_name(game): type(game)})
    except (ValueError, TypeError, KeyError, OSError, UnicodeDecodeError) as error:
        raise CliError(f"bad Q table: {error}") from None


def _train_hint(kind: str) -> str:
    if kind in _FAMILIES:
        return _FAMILIES[kind].train
    return f"a Q table trained on {kind}: fnmcts.qlearning.train(n, game=...) and save_ai"


def _nim_game(args, names=(), state_text=None):
    """``(game, state, q_ai)``: the game of ``args``, the parsed ``state_text`` and the Q table.

    Options not given take their defaults, from the Q table's game when an
    agent is ``q``; with a state and no ``--heap``/``--piles`` (and no Q
    table) the game starts from the state; the state must fit the game.
    """
    if getattr(args, "game_spec", None) is not None:  # --game SPEC: any game, its options its own
        return _spec_game(args, names, state_text)
    kind = args.game
    family = _family(kind)
    size = family.size
    defaults = dict(family.defaults)
    given = {k: getattr(args, k) for k in defaults if getattr(args, k, None) is not None}
    fields = dict(defaults)
    q_ai = _load_q(args.q_table, kind) if "q" in names else None
    trained = getattr(q_ai, "game", None)
    if trained is not None:
        if getattr(trained, "name", None) != kind:
            raise CliError(f"the Q table {args.q_table} was trained on {trained!r}, not a {kind} game")
        fields.update({k: getattr(trained, k) for k in fields})
    fields.update(given)
    game = _make_game(kind, fields)
    state = None
    if state_text is not None:
        state = parse_state(game, state_text)
        if size is not None and size not in given and trained is None:
            fields[size] = state[size]
            game = _make_game(kind, fields)
    if trained is not None and trained != game:
        raise CliError(f"the Q table {args.q_table} was trained on {trained!r}, not {game!r}")
    if state is not None:
        try:
            check_reachable(game, state)
        except ValueError as error:
            whose = "the Q table's game" if trained is not None else "the game"
            raise CliError(f"--state {state_text.strip()} does not fit {whose}: {error}") from None
    return game, state, q_ai


def _spec_game(args, names, state_text):
    """``(game, state, q_ai)`` for ``--game SPEC``: the game it names, the parsed state and the Q table."""
    game = resolve_game(args.game_spec)
    q_ai = _load_q(args.q_table, game_name(game), game) if "q" in names else None
    trained = getattr(q_ai, "game", None)
    if trained is not None and trained != game:
        raise CliError(f"the Q table {args.q_table} was trained on {trained!r}, not {game!r}")
    state = None
    if state_text is not None:
        state = parse_state(game, state_text)
        try:
            check_reachable(game, state)
        except ValueError as error:
            raise CliError(f"--state {state_text.strip()} does not fit the game: {error}") from None
    return game, state, q_ai


def _make_game(kind, fields):
    return GAMES[kind](**fields)


def _refuse_empty(game) -> None:
    if game.to_move(game.start()) is None:
        empty = _family(game_name(game)).empty
        where = empty(game) if empty is not None else f"the start of {game!r} is an end"
        raise CliError(f"nothing to play: {where}, so the game is over before it starts")


def _state_count(game, state):
    """How many states the exact solver visits from ``state`` (as the game's family counts, else its hint), or ``None``."""
    states = _family(game_name(game)).states
    return size_hint(game, state)[0] if states is None else states(game, state)


_DEFAULT_BUDGETS = {"mcts": 10_000, "montecarlo": 1000, "montecarlo-perfect": 1000}  # playouts a move


def _move_cost(name: str, args, game, state):
    """Steps of play one move of agent ``name`` costs at ``state``: its playouts a game long, each move listing the moves.

    A game with no longest line (Pig) counts its shortest one, when the command line knows it: a goal of
    10**11 is then refused up front, not played for days.
    """
    length, branching = play_work(game, state)
    if length is None:
        shortest = _family(game_name(game)).shortest
        if shortest is None:
            return None, None
        length, branching = shortest(game, state), 1
    budget = _DEFAULT_BUDGETS.get(name)
    if budget is not None:
        budget = args.trials or args.iterations or budget if name != "mcts" else args.iterations or budget
        return length, budget * length * branching
    return length, branching


def _check_work(args, game, state, names, games: int = 1, what: str = "games") -> None:
    """Refuse, unless ``--force``, ``games`` games (or moves) whose play would pass ``WORK_LIMIT`` steps."""
    costs = [_move_cost(name, args, game, state) for name in names]
    if any(c is None for c, _ in costs):
        return
    length = max(c for c, _ in costs) if what == "games" else 1
    per_move = max(c for _, c in costs)
    try:
        check_work(games, length, per_move, limit=None if args.force else WORK_LIMIT, what=what,
                   go_on=f"; {_smaller_hint(game, state, names, what)}; --force goes on regardless")
    except TooLarge as error:
        raise CliError(str(error)) from None


def _smaller_hint(game, state, names, what: str) -> str:
    """What a person can change: the search budget that would fit one game (or move), or the game."""
    searchers = [n for n in names if n in _DEFAULT_BUDGETS]
    length, branching = play_work(game, state)
    if searchers and length:
        one = "game" if what == "games" else "move"
        most = WORK_LIMIT // (length * branching * (length if one == "game" else 1))
        if most:
            return f"--iterations {most:,} or fewer would fit one {one} of {', '.join(searchers)}"
    return "a smaller game would fit"


def _check_exact_size(game, names) -> None:
    """Refuse ``--ai exact`` on a game whose exact solution would hold more than ``_EXACT_LIMIT`` states."""
    if "exact" in names:
        states = _state_count(game, game.start())
        if states is not None and states > _EXACT_LIMIT:
            raise CliError(
                f"--ai exact would solve {states:,} states of {game!r} (the limit is {_EXACT_LIMIT:,}); "
                "use --ai perfect, the closed form"
            )


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
        raise CliError(f"unknown agent {name!r}; choose one of {', '.join(agent_names())}")
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
            raise CliError(f"the Q table {q_table} was trained on {trained!r}, not {game!r}")
        options["ai"] = ai
    if name in ("perfect", "exact") and game is not None:
        options["game"] = game  # solved once here when the agent needs the exact solution
    return make_agent(name, **options)


# -- registration --------------------------------------------------------------------


def register(cli) -> None:
    """Add ``play``, ``tournament``, ``move`` and ``solve`` for every two-player game to ``cli``.

    >>> from ._common import Cli
    >>> cli = Cli()
    >>> register(cli)
    >>> cli.run(["move", "tic-tac-toe", "--state", "010001002", "--ai", "exact"])
    exact: O at 6
    0
    """
    for kind in board_games():
        family = _family(kind)
        title = family.title
        p = cli.game_command(
            "play", kind, f"play {title} against an agent (type your move; Ctrl-D stops)", _PLAY_HELP
        )
        _game_options(p, kind)
        p.add_argument(
            "--ai", default="perfect", metavar="NAME",
            help=f"the opponent: {', '.join(agent_names(kind))} (default perfect)",
        )
        side = p.add_mutually_exclusive_group()
        side.add_argument("--first", dest="human", action="store_const", const=0, default=0, help="you move first")
        side.add_argument("--second", dest="human", action="store_const", const=1, help="the agent moves first")
        p.add_argument("--games", type=positive_count, default=1, metavar="N", help="how many games (default 1)")
        _agent_options(p)
        add_force(p)
        add_seed(p)
        p.set_defaults(handler=_play)

        counted = "the wins of each player and the draws" if family.draws else "the wins of each player"
        p = cli.game_command(
            "tournament", kind, f"{title}: AGENT1 (player 1) against AGENT2; {counted}", _TOURNAMENT_HELP
        )
        p.add_argument("agent1", metavar="AGENT1", help=f"player 1: {', '.join(agent_names(kind))}")
        p.add_argument("agent2", metavar="AGENT2", help="player 2")
        _game_options(p, kind)
        p.add_argument("--games", type=count, default=100, metavar="N", help="how many games (default 100)")
        p.add_argument("--workers", type=worker_count, default=1, metavar="W", help="worker processes")
        _agent_options(p)
        add_force(p)
        add_seed(p)
        add_json(p)
        p.set_defaults(handler=_tournament)

        _register_move(cli, kind, f"{title}: the agent's move at --state")

        solved = "who wins, and the winning moves" if not family.draws else "who wins or a draw, and the best moves"
        p = cli.game_command("solve", kind, f"{title}: {solved}", _SOLVE_HELP)
        _game_options(p, kind, with_state=True)
        p.add_argument("--state", default=None, metavar="STATE", help="solve from this position (default: the start)")
        add_force(p)
        add_json(p)
        p.set_defaults(handler=_solve)

    _register_move(cli, "shut-the-box", "Shut the Box: the agent's move at --state (a box and its roll)")


def _state_example(kind: str) -> str:
    if kind == "shut-the-box":
        return '\'{"box": [1, 2, 3, 4, 5, 6, 7, 8, 9], "roll": 7}\''
    example = _family(kind).example
    if example is not None:
        return example
    game = GAMES[kind]()
    return json.dumps(game.state_to_json(game.start()), separators=(",", ":"))


def _register_move(cli, kind: str, help: str) -> None:
    p = cli.game_command("move", kind, help, _MOVE_HELP)
    p.add_argument(
        "--state", required=True, metavar="STATE", help=f"the position, e.g. {_state_example(kind)}, or its JSON"
    )
    if kind == "shut-the-box":
        p.add_argument("--simplified", action="store_true", help="the simplified rules of task 4")
        default_ai = "exact"
    else:
        _game_options(p, kind, with_state=True)
        default_ai = "perfect"
    p.add_argument(
        "--ai", default=default_ai, metavar="NAME",
        help=f"the agent: {', '.join(agent_names(kind))} (default {default_ai})",
    )
    _agent_options(p, q_table="q" in agent_names(kind), reuse=False)  # one move: no tree to keep
    add_force(p)
    add_seed(p)
    add_json(p)
    p.set_defaults(handler=_move)


# -- interactive play -------------------------------------------------------------------


def parse_human_move(game, state, text: str):
    """The move typed as ``text`` (the game's ``parse_move``: "3"; for piles "2 4" or "2,4"); else ValueError.

    >>> from fnmcts.games import Nim, Piles, TicTacToe
    >>> parse_human_move(Nim(), Nim().state(5), " 2 ")
    2
    >>> parse_human_move(Piles(), Piles().start(), "3,5")
    (3, 5)
    >>> parse_human_move(TicTacToe(), TicTacToe().start(), "4")
    4
    """
    return parse_move(game, state, text)


def _winner(payoff) -> int | None:
    """1 or 2: the player with the higher payoff; ``None`` for a draw."""
    if payoff[0] == payoff[1]:
        return None
    return 1 if payoff[0] > payoff[1] else 2


def interactive_game(game, agent, rng, *, human: int, read, write, games: int = 1) -> dict:
    """Play ``games`` games of any two-player ``game``: the person is player ``human + 1``, ``agent`` the other.

    ``read(prompt)`` returns a typed line (``EOFError`` at end of input,
    ``KeyboardInterrupt`` on Ctrl-C); ``write(text)`` shows one. The position
    is shown with the game's ``render`` hook before each of the person's moves,
    the moves with ``transcript_line``; a move is read with ``parse_move``, and
    invalid input gets the hook's message and the prompt again; a forced move
    is played without asking. Returns the summary: games, wins, losses, draws,
    and why it stopped early (``None`` when all games were played).

    >>> from fnmcts.agents import perfect_agent
    >>> from fnmcts.games import TicTacToe
    >>> lines, answers = [], iter(["4", "x", "0", "2", "3", "7"])
    >>> summary = interactive_game(TicTacToe(), perfect_agent, make_rng(1), human=0,
    ...                            read=lambda prompt: next(answers), write=lines.append)
    >>> summary, lines[-1]
    ({'games': 1, 'wins': 0, 'losses': 0, 'draws': 1, 'stopped': None}, 'Nobody wins. It is a draw.')
    """
    summary = {"games": 0, "wins": 0, "losses": 0, "draws": 0, "stopped": None}
    family = _family(game_name(game))
    intro = f"You are {_player_name(game, human)}"
    if family.rule is not None:
        intro += f"; {family.rule(game)}"
    try:
        for number in range(1, games + 1):
            if games > 1:
                write(f"-- game {number} of {games}")
            write(f"{intro}.")
            state, memory = game.start(), initial_memory(agent)
            while game.to_move(state) is not None:
                player = game.to_move(state)
                moves = game.possible_moves(state)
                if player == human and len(moves) == 1:
                    write(render(game, state))
                    write(f"only one choice: {describe_move(game, state, moves[0])}")
                    move = moves[0]
                elif player == human:
                    write(render(game, state))
                    while True:
                        try:
                            move = parse_human_move(game, state, read("Your move: "))
                            break
                        except ValueError as error:
                            write(str(error))
                elif player is CHANCE:  # dice or cards: drawn, then shown in the transcript
                    move = sample_outcome(game, state, rng)
                else:
                    move, memory = agent_move(agent, game, state, rng, memory)
                after = game.play(state, move)
                write(transcript_line(game, player, move, after))
                state = after
            if family.draws:
                write(render(game, state))
            winner = _winner(game.payoff(state))
            if winner is None:
                write(result_line(None) + " It is a draw.")
                outcome = "draws"
            else:
                write(result_line(winner) + (" You win." if winner == human + 1 else " You lose."))
                outcome = "wins" if winner == human + 1 else "losses"
            summary["games"] += 1
            summary[outcome] += 1
    except EOFError:
        summary["stopped"] = "end of input"
    except KeyboardInterrupt:
        summary["stopped"] = "interrupted"
    return summary


def interactive_nim(game, agent, rng, *, human: int, read, write, games: int = 1) -> dict:
    """Play ``games`` games of Nim: ``interactive_game`` without the draws, which Nim never has.

    Returns the summary: games, wins, losses, and why it stopped early
    (``None`` when all games were played).

    >>> from fnmcts.agents import perfect_agent
    >>> from fnmcts.games import Nim
    >>> lines, answers = [], iter(["3"])
    >>> summary = interactive_nim(Nim(heap=4), perfect_agent, make_rng(1), human=0,
    ...                           read=lambda prompt: next(answers), write=lines.append)
    >>> summary["wins"], lines[-1]
    (1, 'Player 1 wins! You win.')
    """
    summary = interactive_game(game, agent, rng, human=human, read=read, write=write, games=games)
    if not summary["draws"]:
        del summary["draws"]
    return summary


def _play(args):
    _check_agents(args, args.game, (args.ai,))
    game, _, q_ai = _nim_game(args, (args.ai,))
    _refuse_empty(game)
    _check_exact_size(game, (args.ai,))
    _check_work(args, game, game.start(), (args.ai,), what="moves")
    agent = build_agent(args.ai, game, ai=q_ai, **_agent_args(args))
    summary = interactive_game(
        game, agent, make_rng(args.seed), human=args.human, read=read_line, write=print, games=args.games
    )
    if summary["stopped"]:
        print()  # the prompt or ^C left the cursor mid-line
    text = f"games {summary['games']}, wins {summary['wins']}, losses {summary['losses']}"
    if _family(game_name(game)).draws or summary["draws"]:
        text += f", draws {summary['draws']}"
    if summary["stopped"]:
        text += f"; stopped ({summary['stopped']}), the game in progress is not counted"
    print(text)
    return 130 if summary["stopped"] == "interrupted" else 0


# -- tournament, move, solve ----------------------------------------------------------


def _tournament(args):
    from ..parallel import worker_pool

    names = (args.agent1, args.agent2)
    _check_agents(args, args.game, names)
    game, _, q_ai = _nim_game(args, names)
    _refuse_empty(game)
    _check_exact_size(game, names)
    _check_work(args, game, game.start(), names, args.games)
    options = _agent_args(args) | {"ai": q_ai}
    agent1, agent2 = build_agent(args.agent1, game, **options), build_agent(args.agent2, game, **options)
    if args.workers > 1:
        import pickle

        for name, agent in ((args.agent1, agent1), (args.agent2, agent2)):
            try:
                pickle.dumps(agent)
            except Exception:
                raise CliError(f"agent {name!r} cannot run in worker processes; use --workers 1") from None

    def describe(record):
        payload = record.to_json() | {"agent1": args.agent1, "agent2": args.agent2, "game": _game_json(game)}
        summary = record.summary()
        if _family(game_name(game)).draws and not record.draws:
            summary += " 0 draws."
        if record.games < args.games:
            summary = f"{record.games:,} of {args.games:,} games played. {summary}"
        score, (low, high) = _score_interval(record)
        payload |= {"player1_score": score, "player1_score_ci": [low, high]}
        if score is not None:
            half = "; a draw is half a point" if record.draws else ""
            summary += f"\nPlayer 1 scores {score:.4g} of the points (95% CI [{low:.4g}, {high:.4g}]{half})."
        return payload, f"{summary}\n(player 1: {args.agent1}, player 2: {args.agent2}; seed {record.seed})"

    with keep_partial(args, describe), worker_pool(args.workers) as executor:
        with progress_bar(args.games, "games") as update:
            record = tournament(game, agent1, agent2, args.games, args.seed, executor=executor, progress=update)
    emit(args, *describe(record))


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


def _game_json(game) -> dict:
    try:
        return game_to_json(game)
    except ValueError:  # not a dataclass: its name and how it prints
        return {"name": game_name(game), "repr": repr(game)}


def _move_json(move):
    if isinstance(move, (frozenset, set)):
        return sorted(move)
    return list(move) if isinstance(move, tuple) else move


def _move(args):
    _check_agents(args, args.game, (args.ai,))
    if args.game == "shut-the-box":
        from ..games.shut_the_box import ShutTheBox

        game, q_ai = ShutTheBox(simplified=args.simplified), None
        state = parse_state(game, args.state)
    else:
        game, state, q_ai = _nim_game(args, (args.ai,), args.state)
    if game.to_move(state) is None:
        raise CliError(f"the game is over at {args.state!r}: no move to play")
    _check_exact_size(game, (args.ai,))
    _check_work(args, game, state, (args.ai,), what="moves")
    agent = build_agent(args.ai, game, ai=q_ai, **_agent_args(args))
    seed = args.seed if args.seed is not None else make_rng().getrandbits(63)
    if game.to_move(state) is CHANCE:
        raise CliError(f"the dice are to roll at {args.state!r}: give the roll too, e.g. '{{\"box\": [...], \"roll\": 7}}'")
    move = agent(game, state, make_rng(seed))
    payload = {
        "move": _move_json(move),
        "describe": describe_move(game, state, move),
        "state": game.state_to_json(state),
        "ai": args.ai,
        "seed": seed,
    }
    emit(args, payload, f"{args.ai}: {describe_move(game, state, move)}")


def _solve(args):
    from .. import theory as theory
    from ..exact import best_moves, solve

    game, state, _ = _nim_game(args, (), args.state)
    state = game.start() if state is None else state
    if game.to_move(state) is None:
        return _solve_over(args, game, state)
    if not theory.has_closed_form(game):
        return _solve_exact(args, game, state)
    winner = theory.winner(game, state)
    moves = theory.winning_moves(game, state)
    checked = None
    if game.to_move(state) is not None and _state_count(game, state) <= _EXACT_LIMIT:
        solution = solve(game, state)
        player = game.to_move(state)
        exact_winner = theory.MOVER if solution[state][player] > 0 else theory.OTHER
        exact_moves = best_moves(game, solution, state) if exact_winner == theory.MOVER else ()
        checked = exact_winner == winner and tuple(exact_moves) == moves
        if not checked:  # never expected: the tests prove the closed forms
            raise CliError("the closed form and the exact solver disagree; please report this")
    payload = {
        "winner": winner,
        "winning_moves": [_move_json(m) for m in moves],
        "state": game.state_to_json(state),
        "game": _game_json(game),
        "exact_checked": bool(checked),
    }
    who = "the player to move wins" if winner == theory.MOVER else "the player to move loses (the other player wins)"
    listed = ", ".join(describe_move(game, state, m) for m in moves) or "none"
    text = f"{_where(game, state)}\n{who}\nwinning moves: {listed}"
    if checked:
        text += "\n(checked against the exact solver)"
    emit(args, payload, text)


def _number(value):
    """An exact value for JSON: a whole number as an int, else a float."""
    return int(value) if value == int(value) else float(value)


def _solve_exact(args, game, state):
    """``solve`` for a game without a closed form: the exact value and best moves; a verdict only when certain.

    Without chance a value is what best play gives, for sure: a win, a loss or a
    draw. With chance on the way (dice), the value is an expectation: the
    probability of winning (a game that pays only wins and losses) or the
    expected payoff, and a verdict only where the dice cannot change it (the
    value is the best or the worst payoff there is).
    """
    from .. import theory as theory
    from ..exact import best_moves, solve

    player = game.to_move(state)
    solution = solve(game, state, limit=None if getattr(args, "force", False) else STATE_LIMIT)
    values = solution[state]
    other = 1 - player
    low, high = (Fraction(x) for x in payoff_range(game))
    dice = any(game.to_move(s) is CHANCE for s in solution)
    certain = not dice or all(v == low or v == high for v in values)
    if not certain:
        winner, winning = None, None
    elif values[player] > values[other]:
        winner, winning = theory.MOVER, player + 1
    elif values[player] < values[other]:
        winner, winning = theory.OTHER, other + 1
    else:
        winner, winning = "draw", None
    best = best_moves(game, solution, state)
    winning_moves = best if winner == theory.MOVER else ()
    wins_only = dice and all(
        all(x == low or x == high for x in game.payoff(s)) for s in solution if game.to_move(s) is None
    )
    chances = [(Fraction(v) - low) / (high - low) for v in values] if wins_only else None
    payload = {
        "winner": winner,
        "winning_player": winning,
        "certain": certain,
        "to_move": player + 1,
        "value": [_number(v) for v in values],
        "win_probability": None if chances is None else [float(p) for p in chances],
        "best_moves": [_move_json(m) for m in best],
        "winning_moves": [_move_json(m) for m in winning_moves],
        "state": game.state_to_json(state),
        "game": _game_json(game),
        "solver": "exact",
    }
    listed = ", ".join(describe_move(game, state, m) for m in best)
    if not certain:
        if chances is not None:
            odds = ", ".join(f"{_player_name(game, i)} {_share(p)}" for i, p in enumerate(chances))
            verdict = f"the chance of winning, with best play by both (the dice decide the rest): {odds}"
        else:
            payoffs = ", ".join(f"{_player_name(game, i)} {float(v):.6g}" for i, v in enumerate(values))
            verdict = f"the expected payoff, with best play by both (the dice decide the rest): {payoffs}"
        verdict += f"\nbest moves: {listed}"
    elif winner == theory.MOVER:
        sure = " (whatever the dice)" if dice else ""
        verdict = f"the player to move wins{sure}: {_player_name(game, player)}\nwinning moves: {listed}"
    elif winner == theory.OTHER:
        sure = " (whatever the dice)" if dice else ""
        verdict = f"the player to move loses{sure}: {_player_name(game, other)} wins\nwinning moves: none"
    else:
        verdict = f"a draw: neither player can force a win\ndrawing moves: {listed}"
    text = f"{_where(game, state)}\n{verdict}\n(solved by the exact solver)"
    emit(args, payload, text)


def _share(p) -> str:
    """A probability as a person reads it: 0.2966 (with the exact fraction when it is one and short).

    >>> _share(Fraction(1, 3)), _share(0.29664021579932)
    ('0.3333 (1/3)', '0.2966')
    """
    text = f"{float(p):.4f}"
    if isinstance(p, Fraction) and p.denominator != 1 and len(str(p)) <= 15:
        text += f" ({p})"
    return text


def _where(game, state) -> str:
    """The position in ``solve``'s text: the Nim family's line, else the game's picture and who moves."""
    where = _family(game_name(game)).where
    if where is None:
        player = game.to_move(state)
        to_move = "" if player is None or player is CHANCE else f"\n{_player_name(game, player)} to move"
        return f"{render(game, state)}{to_move}"
    rule = "misère: taking the last item loses" if game.misere else "normal play: taking the last item wins"
    return f"{where(game, state)} ({rule})"


def _solve_over(args, game, state):
    """``solve`` at a finished game: nobody moves; say who has won, or that it is a draw."""
    won = _winner(game.payoff(state))
    payload = {
        "winner": None,
        "over": True,
        "won": won,
        "draw": won is None,
        "winning_moves": [],
        "state": game.state_to_json(state),
        "game": _game_json(game),
        "exact_checked": False,
    }
    result = "it is a draw" if won is None else f"player {won} has won"
    text = f"{_where(game, state)}\nthe game is over: nobody moves; {result}"
    emit(args, payload, text)
