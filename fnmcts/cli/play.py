"""``fnmcts play GAME``: a game against any agent at the terminal, one loop for every game.

Invalid input re-prompts; q (when it is no move), end of input or Ctrl-C stops with a summary.
"""

from __future__ import annotations


from ..matches import agent_move, initial_memory, result_line
from ..protocol import (
    CHANCE,
    checked_play,
    checked_step,
    describe_move,
    parse_move,
    payoff_range,
    render,
    sample_outcome,
    transcript_line,
)
from ..games.shut_the_box import format_choices, parse_choice
from ..limits import STATE_LIMIT
from ..rng import make_rng
from ..games import GAMES
from ._payoffs import scale_text
from ._hints import VALUE_HINTS, add_hints, make_hint
from ._common import (
    CliError,
    add_force,
    add_seed,
    positive_count,
    read_line,
)
from ._board import (
    _PLAY_HELP,
    _check_exact_size,
    _check_work,
    _family,
    _game_options,
    _nim_game,
    _player_name,
    _refuse_empty,
    board_games,
)
from ._agents import _agent_args, _agent_options, _check_agents, agent_names, build_agent

__all__ = ["register", "interactive_game", "interactive_nim", "parse_human_move"]


def register(cli) -> None:
    """Add ``fnmcts play GAME`` for every game of one or two players of ``fnmcts.games.GAMES`` to ``cli``.

    >>> from ._parser import Cli
    >>> cli = Cli(register)
    >>> args = cli.parser.parse_args(["play", "nim", "--heap", "5", "--ai", "random", "--second"])
    >>> args.game, args.heap, args.ai, args.human
    ('nim', 5, 'random', 1)
    """
    for kind in board_games():
        title = _family(kind).title
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
        add_hints(p, kind)
        _agent_options(p)
        add_force(p)
        add_seed(p)
        p.set_defaults(handler=_play)
    for kind in sorted(name for name, game in GAMES.items() if getattr(game, "num_players", None) == 1):
        p = cli.game_command("play", kind, f"play {kind} alone (type a choice's number; Ctrl-D stops)", _PLAY_HELP)
        _game_options(p, kind)
        p.add_argument("--games", type=positive_count, default=1, metavar="N", help="how many games (default 1)")
        add_hints(p, kind)
        _agent_options(p, q_table=False)
        add_force(p)
        add_seed(p)
        p.set_defaults(handler=_play, ai=None, human=0)


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


def _numbered(game) -> bool:
    """Whether a move is typed as its number in a list (the protocol's default ``parse_move``): then the list is shown.

    >>> from fnmcts.games import Nim, ShutTheBox
    >>> _numbered(Nim()), _numbered(ShutTheBox())
    (False, True)
    """
    from ..protocol import GameBase

    own = getattr(type(game), "parse_move", None)
    return own is None or own is GameBase.parse_move


def _alone(game, payoff):
    """1 (the person wins) when one player's payoff is the best there is, else 2 (a loss).

    >>> from fnmcts.games import ShutTheBox
    >>> _alone(ShutTheBox(), (1,)), _alone(ShutTheBox(), (0,))
    (1, 2)
    """
    return 1 if payoff[0] == payoff_range(game)[1] else 2


def _winner(payoff) -> int | None:
    """1 or 2: the player with the higher payoff; ``None`` for a draw."""
    if payoff[0] == payoff[1]:
        return None
    return 1 if payoff[0] > payoff[1] else 2


QUIT = ("q", "quit", "exit")
"""What a person types to stop (when it is no move of the game): the summary says ``stopped: quit``."""


class _Quit(Exception):
    """The person typed one of ``QUIT``."""


def _refused(text: str, error: ValueError) -> str:
    """The message for input that is no move: ``_Quit`` raised for a word of ``QUIT``, else the error and how to stop."""
    if text.strip().lower() in QUIT:
        raise _Quit()
    return f"{error} (or q to stop)"


def _choose(game, state, moves, read, write):
    """The move the person picks from the numbered list (or types as written); bad input: the message, then again."""
    while True:
        text = read(f"choose 1-{len(moves)}: ")
        try:
            return parse_human_move(game, state, text)
        except ValueError:
            try:
                return moves[parse_choice(text, len(moves))]  # a number out of range: its own message
            except ValueError as error:
                write(_refused(text, error))


def _end(game, state, human: int, alone: bool) -> tuple:
    """``(outcome, line)`` of a finished game: 'wins', 'losses' or 'draws' for the person, and what is said."""
    payoff = game.payoff(state)
    if alone:
        outcome = "wins" if _alone(game, payoff) == 1 else "losses"
        told = getattr(game, "end_text", None)
        if told is not None:
            return outcome, told(state)
        scored = "" if payoff_range(game) == (0, 1) else f" You score {_score(game, state)}."
        return outcome, ("You win." if outcome == "wins" else "You lose.") + scored
    winner = _winner(payoff)
    low, high = payoff_range(game)
    graded = any(x not in (low, high, (low + high) / 2) for x in payoff) or len(set(payoff)) > 2
    told = f" Payoffs: {', '.join(f'player {i + 1} {x:g}' for i, x in enumerate(payoff))} ({scale_text(game)})." \
        if graded else ""  # a margin or a score, not only who won: the numbers the game paid
    if winner is None:
        return "draws", result_line(None) + " It is a draw." + told
    outcome = "wins" if winner == human + 1 else "losses"
    return outcome, result_line(winner) + (" You win." if outcome == "wins" else " You lose.") + told


def _score(game, state):
    """A finished game's score as a person counts it: the game's ``score`` hook, else player 1's payoff."""
    own = getattr(game, "score", None)
    return own(state) if own is not None else game.payoff(state)[0]


def interactive_game(game, agent, rng, *, human: int, read, write, games: int = 1, hint=None) -> dict:
    """Play ``games`` games of ``game``: the person is player ``human + 1``, ``agent`` the other one if there are two.

    One loop for a game of one player (``agent`` unused; a win is the best
    payoff there is) or two. ``hint(state, moves)``, if given, returns lines
    shown before each of the person's choices (``fnmcts.cli._hints``: an
    agent's move, or every move's exact value; a value hint's ``values`` go
    beside the numbered choices).

    ``read(prompt)`` returns a typed line (``EOFError`` at end of input,
    ``KeyboardInterrupt`` on Ctrl-C); ``write(text)`` shows one. The position
    is shown with the game's ``render`` hook before each of the person's moves.
    A game whose moves are typed as written (its own ``parse_move``: Nim's
    number taken, a cell of tic-tac-toe) prompts "Your move: "; any other lists
    its moves numbered, one a line, and prompts "choose 1-N: " (a number or the
    move as written). Invalid input gets its message and the prompt again; a
    forced move is played without asking. In a game of two the moves are told
    with ``transcript_line``; a game of one shows its position alone (the
    person's moves and the dice are in it), and at the end its ``end_text``
    hook, if it has one. Returns the summary: games, wins, losses, draws (two
    players), the scores (one player, graded payoffs: the ``score`` hook) and
    why it stopped early (``None`` when all games were played).

    >>> from fnmcts.agents import perfect_agent
    >>> from fnmcts.games import TicTacToe
    >>> lines, answers = [], iter(["4", "x", "0", "2", "3", "7"])
    >>> summary = interactive_game(TicTacToe(), perfect_agent, make_rng(1), human=0,
    ...                            read=lambda prompt: next(answers), write=lines.append)
    >>> summary, lines[-1]
    ({'games': 1, 'wins': 0, 'losses': 0, 'draws': 1, 'stopped': None}, 'Nobody wins. It is a draw.')

    Shut the Box, the tutorial's transcript (the dice drawn from ``rng``):

    >>> from fnmcts.games import ShutTheBox
    >>> lines, answers = [], iter(["flip 3 4", "9", "1", "1", "1", "1"])
    >>> interactive_game(ShutTheBox(), None, make_rng(10), human=0, read=lambda prompt: next(answers), write=lines.append)
    {'games': 1, 'wins': 0, 'losses': 1, 'stopped': None}
    >>> print("\\n".join(lines[:11]))
    box   1 2 3 4 5 6 7 8 9   roll 7
      1) flip 7
      2) flip 1 6
      3) flip 2 5
      4) flip 3 4
      5) flip 1 2 4
    box   1 2 _ _ 5 6 7 8 9   roll 7
      1) flip 7
      2) flip 1 6
      3) flip 2 5
    9 is not a choice: please type a number from 1 to 3 (or q to stop)
    >>> lines[-2:]
    ['box   _ 2 _ _ _ _ _ 8 _   roll 9', 'no levers add up to 9: you lose']
    """
    alone = getattr(game, "num_players", 2) == 1
    graded = alone and payoff_range(game) != (0, 1)
    summary = {"games": 0, "wins": 0, "losses": 0, **({} if alone else {"draws": 0}), **({"scores": []} if graded else {}),
               "stopped": None}
    family = _family(game)
    numbered = _numbered(game)
    values = getattr(hint, "values", None) if numbered else None
    intro = _intro(game, human, alone, family)
    try:
        for number in range(1, games + 1):
            if games > 1:
                write(f"-- game {number} of {games}")
            if not alone or family.rule is not None:
                write(f"{intro}.")
            state, memory = game.start(), initial_memory(agent)
            while game.to_move(state) is not None:
                player, moves = checked_step(game, state, getattr(game, "num_players", 1), *payoff_range(game))
                moves = moves if player is not CHANCE else ()  # what the game says is checked, as every walk checks it
                if player == human:
                    move = _human_move(game, state, moves, numbered, values, hint, read, write)
                elif player is CHANCE:  # dice or cards: drawn, then shown in the transcript
                    move = sample_outcome(game, state, rng)
                else:
                    move, memory = agent_move(agent, game, state, rng, memory)
                after = checked_play(game, state, move)
                if not alone:  # a game of one shows its next position, which holds the move and the dice
                    write(transcript_line(game, player, move, after, state))
                state = after
            if family.draws or alone:
                write(render(game, state))
            outcome, line = _end(game, state, human, alone)
            write(line)
            summary["games"] += 1
            summary[outcome] += 1
            if graded:
                summary["scores"].append(_score(game, state))
    except EOFError:
        summary["stopped"] = "end of input"
    except _Quit:
        summary["stopped"] = "quit"
    except KeyboardInterrupt:
        summary["stopped"] = "interrupted"
    return summary


def _intro(game, human, alone, family) -> str:
    """The line that opens a game: which player the person is (or that they play alone), and the family's rule."""
    intro = f"You are {_player_name(game, human)}" if not alone else "You play alone"
    if family.rule is not None:
        intro += f"; {family.rule(game)}"
    return intro


def _human_move(game, state, moves, numbered, values, hint, read, write):
    """The person's move at ``state``: the position and the choices (with hints) shown, then one read (or forced)."""
    write(render(game, state))
    if numbered:
        labels = [describe_move(game, state, m) for m in moves]
        for line in format_choices(labels) if values is None else _beside(labels, values(state, moves)):
            write(line)
    for line in hint(state, moves) if hint is not None and values is None else ():
        write(line)
    if len(moves) == 1:
        write(f"only one choice: {describe_move(game, state, moves[0])}")
        return moves[0]
    if numbered:
        return _choose(game, state, moves, read, write)
    return _typed(game, state, read, write)


def _typed(game, state, read, write):
    while True:
        text = read("Your move: ")
        try:
            return parse_human_move(game, state, text)
        except ValueError as error:
            write(_refused(text, error))


def _beside(labels, texts) -> list:
    """Numbered choices, each with its hint in a column: ``  1) flip 7    win 0.0437``."""
    width = max(map(len, labels), default=0)
    return [f"{line.rstrip()}{' ' * (width - len(label))}  {text}" for line, label, text in
            zip(format_choices(labels), labels, texts)]


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
    hints = getattr(args, "hints", None)
    helpers = () if hints in (None, "none", *VALUE_HINTS) else (hints,)
    game, _, q_ai = _nim_game(args, (args.ai, *helpers))
    if helpers and hints not in agent_names(game):
        raise CliError(f"unknown hint {hints!r}: give {', '.join(VALUE_HINTS)} (every move's exact value) "
                       f"or an agent's name ({', '.join(n for n in agent_names(game) if n not in VALUE_HINTS)})")
    alone = getattr(game, "num_players", 2) == 1
    names = (*(() if alone else (args.ai,)), *helpers)
    _check_agents(args, game, names)
    _refuse_empty(game)
    _check_exact_size(game, names)
    _check_work(args, game, game.start(), names, what="moves")
    agent = None if alone else build_agent(args.ai, game, ai=q_ai, **_agent_args(args))
    rng = make_rng(args.seed)

    def build(name):
        return build_agent(name, game, ai=q_ai, **_agent_args(args))

    hint = make_hint(game, hints, build, rng, limit=None if args.force else STATE_LIMIT)
    if getattr(hint, "title", None) is not None and _numbered(game):  # the values go beside the choices: say what they are
        print(hint.title)
    summary = interactive_game(
        game, agent, rng, human=args.human, read=read_line, write=print, games=args.games, hint=hint
    )
    if summary["stopped"]:
        print()  # the prompt or ^C left the cursor mid-line
    text = f"games {summary['games']}, wins {summary['wins']}, losses {summary['losses']}"
    if getattr(game, "num_players", 2) != 1 and _family(game).draws or summary.get("draws"):
        text += f", draws {summary['draws']}"
    if summary.get("scores"):
        scores = summary["scores"]
        text += f", scores {' '.join(str(x) for x in scores)} (mean {sum(scores) / len(scores):.4g})"
    if summary["stopped"]:
        text += f"; stopped ({summary['stopped']}), the game in progress is not counted"
    print(text)
    return 130 if summary["stopped"] == "interrupted" else 0


