"""``fnmcts solve shut-the-box``: the exact solve; the rules' options of the Shut the Box commands.

``fnmcts play shut-the-box`` plays in the one loop of every game
(``fnmcts.cli.play.interactive_game``: the box from the game's ``render``,
the numbered flips, ``--hints random|optimal`` beside them, the end from its
``end_text``). The best-move (or look-up) table written to a file is
``fnmcts table shut-the-box`` (``fnmcts.cli.shut_the_box_table``).

``interactive_play``, the second loop this module once held, is kept for one
release with a ``DeprecationWarning``: use ``interactive_game``.
"""

from __future__ import annotations

import argparse
from fractions import Fraction

from ..games.shut_the_box import DICE_RULES, SCORINGS, ShutTheBox, format_choices, parse_choice
from ..protocol import CHANCE
from .._moved import deprecated
from ..rng import make_rng
from ._common import CliError, add_json, emit, in_range

__all__ = [
    "register",
    "interactive_play",
    "fraction_text",
    "add_rules",
    "game_of",
    "rules_text",
]

_PLAY_HELP = "play a game at the terminal"
_SOLVE_HELP = "solve a game exactly"


DICE_TEXT = {
    "two": "two dice",
    "low-sum": "one die allowed when the levers left add up to 6 or less",
    "high-down": "one die allowed once the levers above 6 are down",
}
SCORING_TEXT = {"win": "shut the box to win", "sum": "score: the sum of the levers left", "digits": "score: the levers left as digits"}


_levers = in_range(int, 1, 12, "levers is a whole number from 1 to 12")


def add_rules(parser, simplified: bool = True) -> None:
    """Add the rules of the Shut the Box family to ``parser``: ``--levers``, ``--dice``, ``--scoring`` (and ``--simplified``).

    >>> import argparse
    >>> parser = argparse.ArgumentParser()
    >>> add_rules(parser)
    >>> game_of(parser.parse_args(["--levers", "10", "--dice", "low-sum", "--scoring", "sum"]))
    ShutTheBox(levers=10, simplified=False, dice='low-sum', scoring='sum')
    """
    if simplified:
        parser.add_argument("--simplified", action="store_true", help="the simplified rules of task 4")
    parser.add_argument("--levers", type=_levers, default=9, metavar="N", help="levers in the box, 1 to 12 (default 9)")
    parser.add_argument(
        "--dice", choices=DICE_RULES, default="two",
        help="two: always two dice (default); low-sum: one die allowed when the levers left add up to 6 or less; "
        "high-down: one die allowed once every lever above 6 is down (7, 8, 9 on a nine-lever box)",
    )
    parser.add_argument(
        "--scoring", choices=SCORINGS, default="win",
        help="win: shut the box to win (default); sum: the sum of the levers left; "
        "digits: the levers left read as a number (lower scores are better)",
    )


def game_of(args) -> ShutTheBox:
    """The ``ShutTheBox`` that the parsed options ``args`` (see ``add_rules``) describe.

    >>> from types import SimpleNamespace
    >>> game_of(SimpleNamespace(levers=4, dice="high-down", scoring="win"))
    ShutTheBox(levers=4, simplified=False, dice='high-down')
    """
    return ShutTheBox(
        levers=args.levers, simplified=getattr(args, "simplified", False), dice=args.dice, scoring=args.scoring
    )


def rules_text(game) -> str:
    """The rules of ``game`` in words, for a report; the tutorial's read as before.

    >>> rules_text(ShutTheBox()), rules_text(ShutTheBox(simplified=True))
    ('full rules', 'simplified rules')
    >>> rules_text(ShutTheBox(levers=12, scoring="sum"))
    'full rules, 12 levers, score: the sum of the levers left'
    """
    parts = ["simplified rules" if game.simplified else "full rules"]
    if game.levers != 9:
        parts.append(f"{game.levers} levers")
    if game.dice != "two":
        parts.append(DICE_TEXT[game.dice])
    if game.scoring != "win":
        parts.append(SCORING_TEXT[game.scoring])
    return ", ".join(parts)


def _rules_json(game) -> dict:
    return {
        "rules": "simplified" if game.simplified else "full",
        "levers": game.levers,
        "dice": game.dice,
        "scoring": game.scoring,
    }


def register(cli) -> None:
    """Add ``fnmcts play`` and ``solve`` for Shut the Box to ``cli``.

    >>> from ._parser import Cli
    >>> cli = Cli(register)
    >>> cli.run(["solve", "shut-the-box", "--simplified"])
    Shut the Box, simplified rules, optimal play, from box 23456789
    probability of winning  875/4251528
                            = 0.000205808359
    states solved           3,061
    0
    """
    p = cli.game_command(
        "solve",
        "shut-the-box",
        "the exact probability of winning Shut the Box, as a fraction and a decimal",
        _SOLVE_HELP,
    )
    p.add_argument(
        "--policy", choices=("optimal", "random"), default="optimal", help="how the levers are chosen (default: optimal)"
    )
    add_rules(p)
    p.add_argument(
        "--box", metavar="LEVERS", default=None, help="start from this box, its up levers as digits (e.g. 2357; '-' is empty)"
    )
    add_json(p)
    p.set_defaults(handler=_solve)


# -- interactive play ----------------------------------------------------------------


def interactive_play(
    game, rng, *, read, write, render, hints=None, describe_end=None, games: int = 1, won=None, score=None,
    hint_label: str = "win",
) -> dict:
    """Play ``games`` games of ``game`` at a terminal; return the summary (deprecated: ``fnmcts.cli.play.interactive_game``).

    Kept for one release with a ``DeprecationWarning``; ``interactive_game``
    is the one loop of ``fnmcts play`` (the game's ``render`` and ``end_text``
    hooks instead of ``render`` and ``describe_end``, hints from ``--hints``).

    ``read(prompt)`` returns a line typed by the player (raising ``EOFError`` at
    the end of input, ``KeyboardInterrupt`` on Ctrl-C); ``write(text)`` shows a
    line. ``render(state)`` describes a decision, ``hints(state, moves)`` gives
    one win probability per move (or ``None``), ``describe_end(state)`` the end
    of a game. Chance nodes draw from ``rng``. A forced move is played without
    asking. Invalid input gets a message and the prompt again; end of input or
    Ctrl-C stops the loop, and the summary says so (``stopped``). Wins and
    losses are those of the first player (in misère Nim below, taking last loses):
    ``won(state)`` tells a win at the end (default: a positive payoff).
    ``score(state)``, if given, scores each finished game (the summary lists
    them under ``scores``); ``hint_label`` names the hints (``'win'``).

    >>> import warnings
    >>> from fnmcts.games.nim import Nim
    >>> answers, shown = iter(["x", "3", "1"]), []
    >>> with warnings.catch_warnings(record=True) as heard:
    ...     warnings.simplefilter("always")
    ...     summary = interactive_play(Nim(heap=5, max_take=3), make_rng(1), read=lambda prompt: next(answers),
    ...                                write=shown.append, render=lambda state: f"heap {state}")
    >>> summary, heard[0].category.__name__
    ({'games': 1, 'wins': 0, 'losses': 1, 'stopped': None}, 'DeprecationWarning')
    >>> shown[4]
    "please type a number from 1 to 3, not 'x'"
    """
    deprecated("fnmcts.cli.shut_the_box.interactive_play is deprecated and goes in the next release: "
               "use fnmcts.cli.play.interactive_game, the one loop of fnmcts play")
    summary = {"games": 0, "wins": 0, "losses": 0, "stopped": None}
    won = won or (lambda state: game.payoff(state)[0] > 0)
    if score is not None:
        summary["scores"] = []
    describe_end = describe_end or (lambda state: "you win" if won(state) else "you lose")
    try:
        for number in range(1, games + 1):
            state = game.start()
            if games > 1:
                write(f"-- game {number} of {games}")
            while True:
                player = game.to_move(state)
                if player is None:
                    write(render(state))
                    write(describe_end(state))
                    summary["games"] += 1
                    summary["wins" if won(state) else "losses"] += 1
                    if score is not None:
                        summary["scores"].append(score(state))
                    break
                if player is CHANCE:
                    state = game.play(state, game.sample_outcome(state, rng))
                    continue
                moves = game.possible_moves(state)
                write(render(state))
                labels = [game.describe_move(state, move) for move in moves]
                values = hints(state, moves) if hints is not None else None
                for line in format_choices(labels, values, hint_label):
                    write(line)
                if len(moves) == 1:
                    write(f"only one choice: {labels[0]}")
                    state = game.play(state, moves[0])
                    continue
                while True:
                    try:
                        index = parse_choice(read(f"choose 1-{len(moves)}: "), len(moves))
                        break
                    except ValueError as error:
                        write(str(error))
                state = game.play(state, moves[index])
    except EOFError:
        summary["stopped"] = "end of input"
    except KeyboardInterrupt:
        summary["stopped"] = "interrupted"
    return summary


# -- solve ---------------------------------------------------------------------------


def fraction_text(value) -> str:
    """A probability as ``"p/q"``, always with a denominator.

    >>> fraction_text(Fraction(1, 6)), fraction_text(Fraction(1))
    ('1/6', '1/1')
    """
    value = Fraction(value)
    return f"{value.numerator}/{value.denominator}"


def _solve(args):
    from ..games.shut_the_box import box_to_mask, box_values, count_states
    from ..tables import format_box, parse_box

    game = game_of(args)
    box = game.start() if args.box is None else parse_box(args.box)
    if not box <= frozenset(range(1, game.levers + 1)):
        raise CliError(f"--box: levers are 1 to {game.levers}, got {args.box!r}")
    p = box_values(game, args.policy)[box_to_mask(box)]
    states = count_states(game, box)
    box_text = format_box(box)
    payload = _rules_json(game) | {
        "game": "shut-the-box",
        "policy": args.policy,
        "box": sorted(box),
        "states": states,
    }
    if game.scoring == "win":
        payload |= {"probability": fraction_text(p), "value": float(p)}
        what, shown = "probability of winning", p
    else:
        payload |= {"expected_score": fraction_text(-p), "score": float(-p), "value": float(p)}
        what, shown = "expected score        ", -p
    text = (
        f"Shut the Box, {rules_text(game)}, {args.policy} play, from box {box_text}\n"
        f"{what}  {fraction_text(shown)}\n"
        f"                        = {float(shown):.12f}\n"
        f"states solved           {states:,}"
    )
    emit(args, payload, text)
