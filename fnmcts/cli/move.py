"""``fnmcts move GAME [--state STATE] --ai NAME``: the move an agent plays at any state (default: the start).

Where chance moves first (a roll, a deal), its outcomes are drawn with the
seed, as a game would draw them, and the agent plays at the state they reach.
"""

from __future__ import annotations

import json

from ..games import GAMES
from ..protocol import (
    CHANCE,
    describe_move,
    game_name,
    game_to_json,
    sample_outcome,
    state_to_json,
)
from ..limits import STATE_LIMIT
from ..mcts import DEFAULT_ITERATIONS, mcts_move
from ..rng import make_rng, resolve_seed
from ._hints import VALUE_HINTS, add_hints, make_hint
from . import _board, _common
from ._agents import _agent_args, _agent_options, _check_agents, agent_names, build_agent
from ._trees import add_trees, tree_options, trees_of

__all__ = ["register"]


def register(cli) -> None:
    """Add ``fnmcts move GAME`` for every two-player game and Shut the Box to ``cli``.

    >>> from ._parser import Cli
    >>> cli = Cli(register)
    >>> cli.run(["move", "tic-tac-toe", "--state", "010001002", "--ai", "exact"])
    exact: O at 6
    0
    """
    for kind in (*_board.board_games(), *sorted(k for k in GAMES if k not in _board.board_games())):
        _register_move(cli, kind, f"{_board._family(kind).title}: the agent's move at --state")


def _state_example(kind: str) -> str:
    """A ``--state`` for the help: the game's own example, else the JSON of the first state where a player moves.

    >>> print(_state_example("shut-the-box"), _state_example("nim"))
    '{"box":[1,2,3,4,5,6,7,8,9],"roll":2}' 21
    """
    example = _board._family(kind).example
    if example is not None:
        return example
    game = GAMES[kind]()
    state = game.start()
    while game.to_move(state) is CHANCE:  # a roll first: its first outcome
        state = game.play(state, game.chance_outcomes(state)[0][0])
    return "'" + json.dumps(state_to_json(game, state), separators=(",", ":")) + "'"


def _register_move(cli, kind: str, help: str) -> None:
    p = cli.game_command("move", kind, help, _board._MOVE_HELP)
    p.add_argument(
        "--state", default=None, metavar="STATE",
        help=f"the position, e.g. {_state_example(kind)}, or its JSON (default, or 'start': the start)",
    )
    _board._game_options(p, kind, with_state=True)
    default_ai = "perfect" if "perfect" in agent_names(kind) else "exact"  # two players: the closed form's agent
    p.add_argument(
        "--ai", default=default_ai, metavar="NAME",
        help=f"the agent: {', '.join(agent_names(kind))} (default {default_ai})",
    )
    add_hints(p, kind)
    move_options(p, q_table="q" in agent_names(kind))
    _common.add_force(p)
    _common.finish_seeded(p, _move)


def move_options(parser, *, q_table: bool = True, reuse: bool = False) -> None:
    """The options of ``move``'s agent (one move: no ``--reuse-tree`` but where it was) and ``--trees`` with where they run."""
    _agent_options(parser, q_table=q_table, reuse=reuse)
    add_trees(parser)


def _game_json(game) -> dict:
    try:
        return game_to_json(game)
    except (ValueError, TypeError):  # not a dataclass, or a field JSON cannot hold: its name and how it prints
        return {"name": game_name(game), "repr": repr(game)}


def _move_json(move):
    if isinstance(move, (frozenset, set)):
        return sorted(move)
    return list(move) if isinstance(move, tuple) else move


def _move(args):
    helper = getattr(args, "hints", None)
    names = (args.ai,) if helper in (None, "none", *VALUE_HINTS) else (args.ai, helper)
    _check_agents(args, args.game, names)
    game, state, q_ai = _board._nim_game(args, names, args.state)
    if state is None:
        state = game.start()
    where = "the start" if _board.is_start(args.state) else repr(args.state)
    if game.to_move(state) is None:
        raise _common.CliError(f"the game is over at {where}: no move to play")
    _board._check_exact_size(game, (args.ai,))
    _board._check_work(args, game, state, (args.ai,), what="moves")
    agent = build_agent(args.ai, game, ai=q_ai, **_agent_args(args))
    seed = resolve_seed(args.seed)
    rng = make_rng(seed)
    state, drawn = _past_chance(game, state, rng)
    if game.to_move(state) is None:
        chance = ", ".join(describe_move(game, s, o) for s, o in drawn)
        raise _common.CliError(f"the game is over after chance's {chance}: no move to play")
    move = _searched(args, agent, game, state, rng)
    payload = {
        **({"trees": trees_of(args)} if args.trees else {}),
        **({"batch": args.batch} if getattr(args, "batch", None) else {}),
        "move": _move_json(move),
        "describe": describe_move(game, state, move),
        **_common.state_field(args, game, state),
        "ai": args.ai,
        "seed": seed,
    }
    lines = [f"{args.ai}: {describe_move(game, state, move)}"]
    if drawn:  # a roll or a deal came first: drawn with the seed, as a game would
        payload["chance"] = [_move_json(outcome) for _, outcome in drawn]
        lines.insert(0, "chance: " + ", ".join(describe_move(game, s, o) for s, o in drawn) + f" (drawn with seed {seed})")
    hints = _hints(args, game, state, q_ai, seed)
    if hints:
        payload["hints"] = hints
    _common.emit(args, payload, "\n".join([*lines, *hints]))


def _searched(args, agent, game, state, rng):
    """The agent's move; with ``--trees N``, the mcts agent's search split into N trees on the workers or executor.

    A search of several trees is ``mcts_move``'s root-parallel search with the
    agent's own options, the same move for a seed wherever the trees run.
    """
    with tree_options(args, seconds=getattr(args, "seconds", None), root=getattr(args, "root", None),
                      dives=getattr(args, "iterations", None) or DEFAULT_ITERATIONS) as where:
        if not where:
            return agent(game, state, rng)
        if args.ai != "mcts":
            flag = "--batch" if "batch" in where else "--trees"
            raise _common.CliError(f"{flag} applies to --ai mcts only, not {args.ai}")
        options = _agent_args(args)
        dives = options.pop("iterations") or DEFAULT_ITERATIONS
        search = {k: v for k, v in options.items() if v is not None and k not in ("trials", "q_table", "reuse", "seconds")}
        return mcts_move(game, state, dives, rng, **search, **where).move


def _past_chance(game, state, rng, most: int = 10_000) -> tuple:
    """``(state, [(chance state, outcome), ...])``: chance's outcomes drawn with ``rng`` up to a player's move.

    >>> from fnmcts.games import ShutTheBox
    >>> state, drawn = _past_chance(ShutTheBox(), ShutTheBox().start(), make_rng(3))
    >>> [outcome for _, outcome in drawn], state == ShutTheBox().play(ShutTheBox().start(), drawn[0][1])
    ([5], True)
    """
    drawn = []
    while game.to_move(state) is CHANCE and len(drawn) < most:
        outcome = sample_outcome(game, state, rng)
        drawn.append((state, outcome))
        state = game.play(state, outcome)
    return state, drawn


def _hints(args, game, state, q_ai, seed) -> list:
    """The lines of ``--hints NAME`` at ``state`` (as ``play`` shows them before a move); none without it."""
    name = getattr(args, "hints", None)
    if name in (None, "none"):
        return []

    def build(agent):
        return build_agent(agent, game, ai=q_ai, **_agent_args(args))

    hint = make_hint(game, name, build, make_rng(seed + 1), limit=None if args.force else STATE_LIMIT, start=state)
    return hint(state, game.possible_moves(state))


