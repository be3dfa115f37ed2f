"""``fnmcts play|tournament|move|solve nim|piles``: the Nim family at the command line.

* ``play nim`` / ``play piles``: a game against any agent at the terminal;
  invalid input re-prompts, end of input or Ctrl-C stops with a summary.
* ``tournament GAME AGENT1 AGENT2``: the notebook's Tournament.
* ``move GAME --state STATE --ai NAME``: the move an agent plays at any state.
* ``solve nim|piles``: who wins under perfect play, and the winning moves
  (the closed form, checked against the exact solver when the game is small).
"""

from __future__ import annotations

from pathlib import Path

from ..agents import AGENTS, make_agent
from ..games.nim import Nim
from ..games.piles import Piles
from ..arena import parse_state, result_line, tournament, transcript_line
from ..rng import make_rng
from ..protocol import CHANCE
from ._common import CliError, read_line, add_json, add_seed, count, emit, positive_count, progress_bar

__all__ = ["register", "interactive_nim", "parse_human_move", "build_agent"]

_PLAY_HELP = "play a game at the terminal"
_TOURNAMENT_HELP = "play many games between two agents and count the wins"
_MOVE_HELP = "print the move an agent plays at a state"
_SOLVE_HELP = "solve a game exactly"
_EXACT_LIMIT = 200_000  # states: above this, solve trusts the closed form alone


# -- options ---------------------------------------------------------------------------


def _pile_list(text: str) -> tuple:
    parts = text.replace(",", " ").split()
    try:
        piles = tuple(int(p) for p in parts)
    except ValueError:
        raise _type_error(f"piles are whole numbers such as 1,3,5,7, got {text!r}") from None
    if not piles or any(p < 0 for p in piles):
        raise _type_error(f"piles are non-negative whole numbers such as 1,3,5,7, got {text!r}")
    return piles


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


def _game_options(parser, kind: str) -> None:
    if kind == "nim":
        parser.add_argument("--heap", type=count, default=21, metavar="N", help="items in the heap (default 21)")
        parser.add_argument(
            "--max-take", type=positive_count, default=3, metavar="K", help="a move takes 1..K items (default 3)"
        )
    else:
        parser.add_argument(
            "--piles", type=_pile_list, default=(1, 3, 5, 7), metavar="P", help="pile sizes (default 1,3,5,7)"
        )
    rule = parser.add_mutually_exclusive_group()
    rule.add_argument(
        "--misere", dest="misere", action="store_true", default=True, help="taking the last item loses (default)"
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


def _game(args):
    if args.game == "nim":
        return Nim(heap=args.heap, max_take=args.max_take, misere=args.misere)
    if args.game == "shut-the-box":
        from ..games.shut_the_box import ShutTheBox

        return ShutTheBox(simplified=args.simplified)
    return Piles(args.piles, misere=args.misere)


def build_agent(name: str, game=None, *, iterations=None, trials=None, q_table=None, **search):
    """The agent ``name`` of ``AGENTS`` with the command line's options.

    ``iterations`` sets MCTS iterations (and the playouts of the Monte Carlo
    agents unless ``trials`` does); ``search`` holds the MCTS options (``rule``,
    ``c``, ``final``, ``solver``; ``None`` means the default). Options that do
    not apply to the agent are ignored. A missing or bad Q table, or one trained
    on another ``game``, is a ``CliError``.

    >>> from fnmcts.games.nim import Nim
    >>> from fnmcts.rng import make_rng
    >>> agent = build_agent("mcts", iterations=200, rule="tutorial", solver=False, trials=5)
    >>> agent(Nim(), Nim().state(6), make_rng(1))
    1
    >>> build_agent("montecarlo", iterations=300).keywords
    {'trials': 300}
    """
    if name not in AGENTS:
        raise CliError(f"unknown agent {name!r}; choose one of {', '.join(sorted(AGENTS))}")
    options = {}
    if name == "mcts":
        if iterations is not None:
            options["iterations"] = iterations
        options.update({k: v for k, v in search.items() if v is not None})
    if name in ("montecarlo", "montecarlo-perfect") and (trials or iterations) is not None:
        options["trials"] = trials or iterations
    if name == "q":
        if q_table is None:
            raise CliError("--ai q needs --q-table FILE (train one with `fnmcts train piles -o FILE`)")
        path = Path(q_table)
        if not path.is_file():
            raise CliError(f"no Q table at {q_table}")
        try:
            from ..qlearning import load_ai

            ai = load_ai(path)
        except (ValueError, TypeError, KeyError, OSError, UnicodeDecodeError) as error:
            raise CliError(f"bad Q table: {error}") from None
        trained = getattr(ai, "game", None)
        if game is not None and trained is not None and trained != game:
            raise CliError(f"the Q table {q_table} was trained on {trained!r}, not {game!r}")
        options["ai"] = ai
    return make_agent(name, **options)


# -- registration --------------------------------------------------------------------


def register(cli) -> None:
    for kind, what in (("nim", "one heap, take 1..K"), ("piles", "several piles, take any number from one")):
        p = cli.game_command(
            "play", kind, f"play Nim ({what}) against an agent (type your move; Ctrl-D stops)", _PLAY_HELP
        )
        _game_options(p, kind)
        p.add_argument("--ai", default="perfect", metavar="NAME", help=f"the opponent: {', '.join(AGENTS)}")
        side = p.add_mutually_exclusive_group()
        side.add_argument("--first", dest="human", action="store_const", const=0, default=0, help="you move first")
        side.add_argument("--second", dest="human", action="store_const", const=1, help="the agent moves first")
        p.add_argument("--games", type=positive_count, default=1, metavar="N", help="how many games (default 1)")
        _agent_options(p)
        add_seed(p)
        p.set_defaults(handler=_play)

        p = cli.game_command("tournament", kind, f"Nim ({what}): AGENT1 (player 1) against AGENT2", _TOURNAMENT_HELP)
        p.add_argument("agent1", metavar="AGENT1", help=f"player 1: {', '.join(AGENTS)}")
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
        _game_options(p, kind)
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
        _game_options(p, kind)
        default_ai = "perfect"
    p.add_argument("--ai", default=default_ai, metavar="NAME", help=f"the agent: {', '.join(AGENTS)}")
    _agent_options(p)
    add_seed(p)
    add_json(p)
    p.set_defaults(handler=_move)


# -- interactive play -------------------------------------------------------------------


def parse_human_move(game, state, text: str):
    """The move typed as ``text`` ("3"; for piles "2 4" or "2,4": pile, count); else ValueError.

    >>> parse_human_move(Nim(), Nim().state(5), " 2 ")
    2
    >>> parse_human_move(Piles(), Piles().start(), "3,5")
    (3, 5)
    """
    parts = text.replace(",", " ").split()
    try:
        numbers = tuple(int(p) for p in parts)
    except ValueError:
        numbers = ()
    if isinstance(game, Nim):
        top = min(game.max_take, state["heap"])
        if len(numbers) != 1 or not 1 <= numbers[0] <= top:
            raise ValueError(f"type a number from 1 to {top}")
        return numbers[0]
    if len(numbers) != 2 or numbers not in game.possible_moves(state):
        raise ValueError("type a pile and a count, e.g. '2 3': take 3 from pile 2 (it must hold that many)")
    return numbers


def _render(game, state) -> str:
    if isinstance(game, Nim):
        return f"There are {state['heap']} matchstick(s). Take 1-{min(game.max_take, state['heap'])}."
    return "Piles:\n" + "\n".join(f"Pile {i}: {p}" for i, p in enumerate(state["piles"]))


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
                    write(_render(game, state))
                    write(f"only one choice: {game.describe_move(state, moves[0])}")
                    move = moves[0]
                elif player == human:
                    write(_render(game, state))
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
    game = _game(args)
    agent = build_agent(args.ai, game, **_agent_args(args))
    summary = interactive_nim(
        game, agent, make_rng(args.seed), human=args.human, read=read_line, write=print, games=args.games
    )
    if summary["stopped"] == "end of input":
        print()
    text = f"games {summary['games']}, wins {summary['wins']}, losses {summary['losses']}"
    if summary["stopped"]:
        text += f"; stopped ({summary['stopped']}), the game in progress is not counted"
    print(text)
    return 130 if summary["stopped"] == "interrupted" else 0


# -- tournament, move, solve ----------------------------------------------------------


def _tournament(args):
    from ..parallel import make_executor

    game = _game(args)
    options = _agent_args(args)
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
    if isinstance(game, Nim):
        return {"name": "nim", "heap": game.heap, "max_take": game.max_take, "misere": game.misere}
    return {"name": "piles", "piles": list(game.piles), "misere": game.misere}


def _move_json(move):
    if isinstance(move, (frozenset, set)):
        return sorted(move)
    return list(move) if isinstance(move, tuple) else move


def _move(args):
    game = _game(args)
    state = parse_state(game, args.state)
    if game.to_move(state) is None:
        raise CliError(f"the game is over at {args.state!r}: no move to play")
    agent = build_agent(args.ai, game, **_agent_args(args))
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


def _state_count(game, state) -> int:
    if isinstance(game, Nim):
        return state["heap"] + 1
    total = 1
    for p in state["piles"]:
        total *= p + 1
    return total


def _solve(args):
    from .. import theory
    from ..exact import best_moves, solve

    game = _game(args)
    state = game.start() if args.state is None else parse_state(game, args.state)
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
    where = f"heap {state['heap']}" if isinstance(game, Nim) else f"piles {' '.join(map(str, state['piles']))}"
    rule = "misère: taking the last item loses" if game.misere else "normal play: taking the last item wins"
    text = f"{where} ({rule})\n{who}\nwinning moves: {listed}"
    if checked:
        text += "\n(checked against the exact solver)"
    emit(args, payload, text)
