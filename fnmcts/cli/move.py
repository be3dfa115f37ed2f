"""``fnmcts move GAME --state STATE --ai NAME``: the move an agent plays at any state."""

from __future__ import annotations

import json

from ..games import GAMES
from ..protocol import (
    CHANCE,
    describe_move,
    game_name,
    game_to_json,
    parse_state,
)
from ..limits import STATE_LIMIT
from ..rng import make_rng
from ._hints import VALUE_HINTS, add_hints, make_hint
from ._common import (
    CliError,
    add_force,
    add_json,
    add_seed,
    emit,
)
from ._board import (
    _MOVE_HELP,
    _check_exact_size,
    _check_work,
    _family,
    _game_options,
    _nim_game,
    board_games,
)
from ._agents import _agent_args, _agent_options, _check_agents, agent_names, build_agent

__all__ = ["register"]


def register(cli) -> None:
    """Add ``fnmcts move GAME`` for every two-player game and Shut the Box to ``cli``.

    >>> from ._parser import Cli
    >>> cli = Cli()
    >>> register(cli)
    >>> cli.run(["move", "tic-tac-toe", "--state", "010001002", "--ai", "exact"])
    exact: O at 6
    0
    """
    for kind in (*board_games(), *sorted(k for k in GAMES if k not in board_games())):
        _register_move(cli, kind, f"{_family(kind).title}: the agent's move at --state")


def _state_example(kind: str) -> str:
    """A ``--state`` for the help: the game's own example, else the JSON of the first state where a player moves.

    >>> print(_state_example("shut-the-box"), _state_example("nim"))
    '{"box":[1,2,3,4,5,6,7,8,9],"roll":2}' 21
    """
    example = _family(kind).example
    if example is not None:
        return example
    game = GAMES[kind]()
    state = game.start()
    while game.to_move(state) is CHANCE:  # a roll first: its first outcome
        state = game.play(state, game.chance_outcomes(state)[0][0])
    return "'" + json.dumps(game.state_to_json(state), separators=(",", ":")) + "'"


def _register_move(cli, kind: str, help: str) -> None:
    p = cli.game_command("move", kind, help, _MOVE_HELP)
    p.add_argument(
        "--state", required=True, metavar="STATE", help=f"the position, e.g. {_state_example(kind)}, or its JSON"
    )
    _game_options(p, kind, with_state=True)
    default_ai = "perfect" if "perfect" in agent_names(kind) else "exact"  # two players: the closed form's agent
    p.add_argument(
        "--ai", default=default_ai, metavar="NAME",
        help=f"the agent: {', '.join(agent_names(kind))} (default {default_ai})",
    )
    add_hints(p, kind)
    _agent_options(p, q_table="q" in agent_names(kind), reuse=False)  # one move: no tree to keep
    add_force(p)
    add_seed(p)
    add_json(p)
    p.set_defaults(handler=_move)


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
    helper = getattr(args, "hints", None)
    names = (args.ai,) if helper in (None, "none", *VALUE_HINTS) else (args.ai, helper)
    _check_agents(args, args.game, names)
    game, state, q_ai = _nim_game(args, names, args.state)
    if game.to_move(state) is None:
        raise CliError(f"the game is over at {args.state!r}: no move to play")
    _check_exact_size(game, (args.ai,))
    _check_work(args, game, state, (args.ai,), what="moves")
    agent = build_agent(args.ai, game, ai=q_ai, **_agent_args(args))
    seed = args.seed if args.seed is not None else make_rng().getrandbits(63)
    if game.to_move(state) is CHANCE:
        outcome = game.play(state, game.chance_outcomes(state)[0][0])
        example = json.dumps(game.state_to_json(outcome), separators=(",", ":"))
        raise CliError(f"chance moves next at {args.state!r} (the dice are to roll): give a state after it, e.g. '{example}'")
    move = agent(game, state, make_rng(seed))
    payload = {
        "move": _move_json(move),
        "describe": describe_move(game, state, move),
        "state": game.state_to_json(state),
        "ai": args.ai,
        "seed": seed,
    }
    hints = _hints(args, game, state, q_ai, seed)
    if hints:
        payload["hints"] = hints
    emit(args, payload, "\n".join([f"{args.ai}: {describe_move(game, state, move)}", *hints]))


def _hints(args, game, state, q_ai, seed) -> list:
    """The lines of ``--hints NAME`` at ``state`` (as ``play`` shows them before a move); none without it."""
    name = getattr(args, "hints", None)
    if name in (None, "none"):
        return []

    def build(agent):
        return build_agent(agent, game, ai=q_ai, **_agent_args(args))

    hint = make_hint(game, name, build, make_rng(seed + 1), limit=None if args.force else STATE_LIMIT, start=state)
    return hint(state, game.possible_moves(state))


