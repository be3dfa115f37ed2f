"""``fnmcts play|tournament|move|solve nim|piles``: the Nim family at the command line.

* ``play nim`` / ``play piles``: a game against any agent at the terminal;
  invalid input re-prompts, end of input or Ctrl-C stops with a summary.
* ``tournament GAME AGENT1 AGENT2``: the notebook's Tournament.
* ``move GAME --state STATE --ai NAME``: the move an agent plays at any state.
* ``solve nim|piles``: who wins under perfect play, and the winning moves
  (the closed form, checked against the exact solver when the game is small).

The game: ``--heap``/``--max-take`` (nim) or ``--piles`` (piles) and
``--misere``/``--normal``. When ``--state`` is given without ``--heap`` (or
``--piles``), the game starts from the state. When both are given, the state
must fit the game (no larger heap or pile, as many piles); a state that play
cannot reach is an error. With ``--ai q`` the options not given come from the
Q table's game, and the state must fit that game.
"""

from __future__ import annotations

from pathlib import Path

from ..agents import AGENTS, make_agent
from ..games.nim import Nim
from ..games.piles import Piles, parse_piles
from ..play import result_line, tournament
from ..protocol import CHANCE, check_reachable, game_to_json, parse_move, parse_state, render, transcript_line
from ..rng import make_rng
from ._common import (
    CliError,
    add_json,
    add_seed,
    count,
    emit,
    positive_count,
    progress_bar,
    read_line,
)

__all__ = [
    "AGENT_ORDER",
    "SHUT_THE_BOX_AGENTS",
    "agent_names",
    "build_agent",
    "interactive_nim",
    "parse_human_move",
    "register",
]

_PLAY_HELP = "play a game at the terminal"
_TOURNAMENT_HELP = "play many games between two agents and count the wins"
_MOVE_HELP = "print the move an agent plays at a state"
_SOLVE_HELP = "solve a game exactly"
_EXACT_LIMIT = 200_000  # states: above this, solve trusts the closed form alone and --ai exact is refused

AGENT_ORDER = ("random", "perfect", "montecarlo", "montecarlo-perfect", "mcts", "exact", "q")
"""The agents in the order ``--help`` lists them (any agent not named here follows, sorted)."""

SHUT_THE_BOX_AGENTS = ("random", "montecarlo", "montecarlo-perfect", "mcts", "exact")
"""The agents that can play Shut the Box: no closed form (perfect), no two-player Q table (q)."""

_DEFAULTS = {"nim": {"heap": 21, "max_take": 3, "misere": True}, "piles": {"piles": (1, 3, 5, 7), "misere": True}}

# the agents each agent option applies to
_OPTION_AGENTS = {
    "iterations": ("--iterations", ("mcts", "montecarlo", "montecarlo-perfect")),
    "trials": ("--trials", ("montecarlo", "montecarlo-perfect")),
    "q_table": ("--q-table", ("q",)),
    "rule": ("--rule", ("mcts",)),
    "c": ("--c", ("mcts",)),
    "final": ("--final", ("mcts",)),
    "solver": ("--no-solver", ("mcts",)),
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
    return names


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


def _type_error(message):
    import argparse

    return argparse.ArgumentTypeError(message)


def _game_options(parser, kind: str, with_state: bool = False) -> None:
    from_state = "; with --state and no --heap: the state's heap" if with_state else ""
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


def _agent_options(parser) -> None:
    parser.add_argument(
        "--iterations", type=positive_count, default=None, metavar="N",
        help="search budget: MCTS iterations a move (mcts), or playouts a move (montecarlo agents)",
    )
    parser.add_argument(
        "--trials", type=positive_count, default=None, metavar="N", help="playouts a move (montecarlo agents)"
    )
    parser.add_argument("--q-table", default=None, metavar="FILE", help="the trained Q table for --ai q")
    parser.add_argument(
        "--rule", choices=("ucb1", "tutorial"), default=None,
        help="mcts: the selection rule, UCB1 (default) or the tutorial's ucb",
    )
    parser.add_argument("--c", type=_non_negative, default=None, metavar="C", help="mcts: UCB1's exploration constant")
    parser.add_argument(
        "--final", choices=("visits", "mean"), default=None, help="mcts: play the most visited or best mean move"
    )
    parser.add_argument(
        "--no-solver", dest="solver", action="store_false", default=None,
        help="mcts: plain UCT, without MCTS-Solver's proven wins and losses",
    )


def _agent_args(args) -> dict:
    names = ("iterations", "trials", "q_table", "rule", "c", "final", "solver")
    return {name: getattr(args, name) for name in names}


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
        if getattr(args, dest) is not None and not set(names) & set(takers):
            raise CliError(f"{flag} applies to --ai {' or '.join(takers)} only, not {' or '.join(names)}")


def _load_q(q_table):
    """The QAI saved at ``q_table``, or a ``CliError`` naming the problem."""
    if q_table is None:
        raise CliError("--ai q needs --q-table FILE (train one with `fnmcts train piles -o FILE`)")
    path = Path(q_table)
    if not path.is_file():
        raise CliError(f"no Q table at {q_table}")
    try:
        from ..tutorial import load_ai

        return load_ai(path)
    except (ValueError, TypeError, KeyError, OSError, UnicodeDecodeError) as error:
        raise CliError(f"bad Q table: {error}") from None


def _nim_game(args, names=(), state_text=None):
    """``(game, state, q_ai)``: the Nim or Piles game of ``args``, the parsed ``state_text`` and the Q table.

    Options not given take their defaults, from the Q table's game when an
    agent is ``q``; with a state and no ``--heap``/``--piles`` (and no Q
    table) the game starts from the state; the state must fit the game.
    """
    kind = args.game
    size = "heap" if kind == "nim" else "piles"
    given = {k: getattr(args, k) for k in _DEFAULTS[kind] if getattr(args, k, None) is not None}
    fields = dict(_DEFAULTS[kind])
    q_ai = _load_q(args.q_table) if "q" in names else None
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
        if size not in given and trained is None:
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


def _make_game(kind, fields):
    if kind == "nim":
        return Nim(heap=fields["heap"], max_take=fields["max_take"], misere=fields["misere"])
    return Piles(fields["piles"], misere=fields["misere"])


def _refuse_empty(game) -> None:
    if game.to_move(game.start()) is None:
        if game.name == "nim":
            where = f"the heap is {game.heap}"
        else:
            where = f"the piles are {' '.join(map(str, game.piles))}"
        raise CliError(f"nothing to play: {where}, so the game is over before it starts")


def _state_count(game, state) -> int:
    if game.name == "nim":
        return state["heap"] + 1
    total = 1
    for p in state["piles"]:
        total *= p + 1
    return total


def _check_exact_size(game, names) -> None:
    """Refuse ``--ai exact`` on a game whose exact solution would hold more than ``_EXACT_LIMIT`` states."""
    if "exact" in names and game.name in ("nim", "piles"):
        states = _state_count(game, game.start())
        if states > _EXACT_LIMIT:
            raise CliError(
                f"--ai exact would solve {states:,} states of {game!r} (the limit is {_EXACT_LIMIT:,}); "
                "use --ai perfect, the closed form"
            )


def build_agent(name: str, game=None, *, iterations=None, trials=None, q_table=None, ai=None, **search):
    """The agent ``name`` of ``AGENTS`` with the command line's options.

    ``iterations`` sets MCTS iterations (and the playouts of the Monte Carlo
    agents unless ``trials`` does); ``search`` holds the MCTS options (``rule``,
    ``c``, ``final``, ``solver``; ``None`` means the default). Options that do
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
    for kind, what in (("nim", "one heap, take 1..K"), ("piles", "several piles, take any number from one")):
        p = cli.game_command(
            "play", kind, f"play Nim ({what}) against an agent (type your move; Ctrl-D stops)", _PLAY_HELP
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
        add_seed(p)
        p.set_defaults(handler=_play)

        p = cli.game_command("tournament", kind, f"Nim ({what}): AGENT1 (player 1) against AGENT2", _TOURNAMENT_HELP)
        p.add_argument("agent1", metavar="AGENT1", help=f"player 1: {', '.join(agent_names(kind))}")
        p.add_argument("agent2", metavar="AGENT2", help="player 2")
        _game_options(p, kind)
        p.add_argument("--games", type=count, default=100, metavar="N", help="how many games (default 100)")
        p.add_argument("--workers", type=positive_count, default=1, metavar="W", help="worker processes")
        _agent_options(p)
        add_seed(p)
        add_json(p)
        p.set_defaults(handler=_tournament)


        _register_move(cli, kind, f"Nim ({what}): the agent's move at --state")

        p = cli.game_command("solve", kind, f"Nim ({what}): who wins, and the winning moves", _SOLVE_HELP)
        _game_options(p, kind, with_state=True)
        p.add_argument("--state", default=None, metavar="STATE", help="solve from this position (default: the start)")
        add_json(p)
        p.set_defaults(handler=_solve)

    _register_move(cli, "shut-the-box", "Shut the Box: the agent's move at --state (a box and its roll)")


def _register_move(cli, kind: str, help: str) -> None:
    p = cli.game_command("move", kind, help, _MOVE_HELP)
    example = {"nim": "21", "piles": "1,3,5,7", "shut-the-box": '\'{"box": [1, 2, 3, 4, 5, 6, 7, 8, 9], "roll": 7}\''}[kind]
    p.add_argument("--state", required=True, metavar="STATE", help=f"the position, e.g. {example}, or its JSON")
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
    _agent_options(p)
    add_seed(p)
    add_json(p)
    p.set_defaults(handler=_move)


# -- interactive play -------------------------------------------------------------------


def parse_human_move(game, state, text: str):
    """The move typed as ``text`` (the game's ``parse_move``: "3"; for piles "2 4" or "2,4"); else ValueError.

    >>> parse_human_move(Nim(), Nim().state(5), " 2 ")
    2
    >>> parse_human_move(Piles(), Piles().start(), "3,5")
    (3, 5)
    """
    return parse_move(game, state, text)


def interactive_nim(game, agent, rng, *, human: int, read, write, games: int = 1) -> dict:
    """Play ``games`` games: the person is player ``human + 1``, ``agent`` the other.

    ``read(prompt)`` returns a typed line (``EOFError`` at end of input,
    ``KeyboardInterrupt`` on Ctrl-C); ``write(text)`` shows one. Invalid input
    gets a message and the prompt again; a forced move is played without
    asking. Returns the summary: games, wins,
    losses, and why it stopped early (``None`` when all games were played).

    >>> from fnmcts.agents import perfect_agent
    >>> lines, answers = [], iter(["3"])
    >>> summary = interactive_nim(Nim(heap=4), perfect_agent, make_rng(1), human=0,
    ...                           read=lambda prompt: next(answers), write=lines.append)
    >>> summary["wins"], lines[-1]
    (1, 'Player 1 wins! You win.')
    """
    summary = {"games": 0, "wins": 0, "losses": 0, "stopped": None}
    rule = "taking the last item loses" if game.misere else "taking the last item wins"
    try:
        for number in range(1, games + 1):
            if games > 1:
                write(f"-- game {number} of {games}")
            write(f"You are Player {human + 1}; {rule}.")
            state = game.start()
            while game.to_move(state) is not None:
                player = game.to_move(state)
                moves = game.possible_moves(state)
                if player == human and len(moves) == 1:
                    write(render(game, state))
                    write(f"only one choice: {game.describe_move(state, moves[0])}")
                    move = moves[0]
                elif player == human:
                    write(render(game, state))
                    while True:
                        try:
                            move = parse_human_move(game, state, read("Your move: "))
                            break
                        except ValueError as error:
                            write(str(error))
                else:
                    move = agent(game, state, rng)
                after = game.play(state, move)
                write(transcript_line(game, player, move, after))
                state = after
            winner = 1 if game.payoff(state)[0] > 0 else 2
            write(result_line(winner) + (" You win." if winner == human + 1 else " You lose."))
            summary["games"] += 1
            summary["wins" if winner == human + 1 else "losses"] += 1
    except EOFError:
        summary["stopped"] = "end of input"
    except KeyboardInterrupt:
        summary["stopped"] = "interrupted"
    return summary


def _play(args):
    _check_agents(args, args.game, (args.ai,))
    game, _, q_ai = _nim_game(args, (args.ai,))
    _refuse_empty(game)
    _check_exact_size(game, (args.ai,))
    agent = build_agent(args.ai, game, ai=q_ai, **_agent_args(args))
    summary = interactive_nim(
        game, agent, make_rng(args.seed), human=args.human, read=read_line, write=print, games=args.games
    )
    if summary["stopped"]:
        print()  # the prompt or ^C left the cursor mid-line
    text = f"games {summary['games']}, wins {summary['wins']}, losses {summary['losses']}"
    if summary["stopped"]:
        text += f"; stopped ({summary['stopped']}), the game in progress is not counted"
    print(text)
    return 130 if summary["stopped"] == "interrupted" else 0


# -- tournament, move, solve ----------------------------------------------------------


def _tournament(args):
    from ..parallel import make_executor

    names = (args.agent1, args.agent2)
    _check_agents(args, args.game, names)
    game, _, q_ai = _nim_game(args, names)
    _refuse_empty(game)
    _check_exact_size(game, names)
    options = _agent_args(args) | {"ai": q_ai}
    agent1, agent2 = build_agent(args.agent1, game, **options), build_agent(args.agent2, game, **options)
    if args.workers > 1:
        import pickle

        for name, agent in ((args.agent1, agent1), (args.agent2, agent2)):
            try:
                pickle.dumps(agent)
            except Exception:
                raise CliError(f"agent {name!r} cannot run in worker processes; use --workers 1") from None
    executor = make_executor(args.workers) if args.workers > 1 else None
    try:
        with progress_bar(args.games, "games", enabled=None if args.games >= 1000 else False) as update:
            record = tournament(args.games, agent1, agent2, game, args.seed, executor=executor, progress=update)
    finally:
        if executor is not None:
            executor.shutdown()
    payload = record.to_json() | {"agent1": args.agent1, "agent2": args.agent2, "game": _game_json(game)}
    emit(args, payload, f"{record.summary()}\n(player 1: {args.agent1}, player 2: {args.agent2}; seed {record.seed})")


def _game_json(game) -> dict:
    return game_to_json(game)


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
    agent = build_agent(args.ai, game, ai=q_ai, **_agent_args(args))
    seed = args.seed if args.seed is not None else make_rng().getrandbits(63)
    if game.to_move(state) is CHANCE:
        raise CliError(f"the dice are to roll at {args.state!r}: give the roll too, e.g. '{{\"box\": [...], \"roll\": 7}}'")
    move = agent(game, state, make_rng(seed))
    payload = {
        "move": _move_json(move),
        "describe": game.describe_move(state, move),
        "state": game.state_to_json(state),
        "ai": args.ai,
        "seed": seed,
    }
    emit(args, payload, f"{args.ai}: {game.describe_move(state, move)}")


def _solve(args):
    from .. import theory
    from ..exact import best_moves, solve

    game, state, _ = _nim_game(args, (), args.state)
    state = game.start() if state is None else state
    if game.to_move(state) is None:
        return _solve_over(args, game, state)
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
    listed = ", ".join(game.describe_move(state, m) for m in moves) or "none"
    text = f"{_where(game, state)}\n{who}\nwinning moves: {listed}"
    if checked:
        text += "\n(checked against the exact solver)"
    emit(args, payload, text)


def _where(game, state) -> str:
    where = f"heap {state['heap']}" if game.name == "nim" else f"piles {' '.join(map(str, state['piles']))}"
    rule = "misère: taking the last item loses" if game.misere else "normal play: taking the last item wins"
    return f"{where} ({rule})"


def _solve_over(args, game, state):
    """``solve`` at a finished game: nobody moves; say who has won."""
    payoff = game.payoff(state)
    won = 1 if payoff[0] > payoff[1] else 2
    payload = {
        "winner": None,
        "over": True,
        "won": won,
        "winning_moves": [],
        "state": game.state_to_json(state),
        "game": _game_json(game),
        "exact_checked": False,
    }
    text = f"{_where(game, state)}\nthe game is over: nobody moves; player {won} has won"
    emit(args, payload, text)
