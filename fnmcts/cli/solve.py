"""``fnmcts solve GAME``: who wins under perfect play (or a draw), and the winning or best moves.

Nim's closed form, checked against the exact solver when the game is small;
any other game by the exact solver. A solve beyond the size limits says what
it would hold and goes on with ``--force``.
"""

from __future__ import annotations

from fractions import Fraction

from .. import protocol
from ..limits import STATE_LIMIT
from . import _board, _common
from ._payoffs import scale_fields, scale_note
from .move import _game_json, _move_json
from .play import _winner

__all__ = ["register"]


def register(cli) -> None:
    """Add ``fnmcts solve GAME`` for every two-player game to ``cli``.

    >>> from ._parser import Cli
    >>> cli = Cli(register)
    >>> cli.run(["solve", "nim", "--heap", "7", "--normal"])
    heap 7 (normal play: taking the last item wins)
    the player to move wins
    winning moves: take 3
    (checked against the exact solver)
    0
    """
    for kind in _board.board_games():
        family = _board._family(kind)
        solved = "who wins, and the winning moves" if not family.draws else "who wins or a draw, and the best moves"
        p = cli.game_command("solve", kind, f"{family.title}: {solved}", _board._SOLVE_HELP)
        _board._game_options(p, kind, with_state=True)
        p.add_argument("--state", default=None, metavar="STATE", help="solve from this position (default: the start)")
        _common.add_force(p)
        _common.add_json(p)
        p.set_defaults(handler=_solve)


def _solve(args):
    from .. import theory as theory
    from ..exact import best_moves, solve

    game, state, _ = _board._nim_game(args, (), args.state)
    state = game.start() if state is None else state
    if game.to_move(state) is None:
        return _solve_over(args, game, state)
    if not theory.has_closed_form(game):
        return _solve_exact(args, game, state)
    winner = theory.winner(game, state)
    moves = theory.winning_moves(game, state)
    checked = None
    if game.to_move(state) is not None and _board._state_count(game, state) <= _board._EXACT_LIMIT:
        solution = solve(game, state)
        player = game.to_move(state)
        exact_winner = theory.MOVER if solution[state][player] > 0 else theory.OTHER
        exact_moves = best_moves(game, solution, state) if exact_winner == theory.MOVER else ()
        checked = exact_winner == winner and tuple(exact_moves) == moves
        if not checked:  # never expected: the tests prove the closed forms
            raise _common.CliError("the closed form and the exact solver disagree; please report this")
    payload = {
        "winner": winner,
        "winning_moves": [_move_json(m) for m in moves],
        **_common.state_field(args, game, state),
        "game": _game_json(game),
        "exact_checked": bool(checked),
    }
    who = "the player to move wins" if winner == theory.MOVER else "the player to move loses (the other player wins)"
    listed = ", ".join(protocol.describe_move(game, state, m) for m in moves) or "none"
    text = f"{_where(game, state)}\n{who}\nwinning moves: {listed}"
    if checked:
        text += "\n(checked against the exact solver)"
    _common.emit(args, payload, text)


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
    low, high = (Fraction(x) for x in protocol.payoff_range(game))
    dice = any(game.to_move(s) is protocol.CHANCE for s in solution)
    certain = not dice or all(v == low or v == high for v in values)
    winner, winning = _exact_winner(values, player, certain)
    best = best_moves(game, solution, state)
    winning_moves = best if winner == theory.MOVER else ()
    chances = _win_chances(game, solution, values, low, high) if dice else None
    payload = {
        "winner": winner,
        "winning_player": winning,
        "certain": certain,
        "to_move": player + 1,
        "value": [_number(v) for v in values],
        "win_probability": None if chances is None else [float(p) for p in chances],
        "best_moves": [_move_json(m) for m in best],
        "winning_moves": [_move_json(m) for m in winning_moves],
        **_common.state_field(args, game, state),
        "game": _game_json(game),
        "solver": "exact",
        **scale_fields(game),
    }
    listed = ", ".join(protocol.describe_move(game, state, m) for m in best)
    verdict = _exact_verdict(game, player, values, winner, chances, dice, listed)
    text = f"{_where(game, state)}\n{verdict}\n{_value_line(game, values)}\n(solved by the exact solver)"
    _common.emit(args, payload, text)


def _win_chances(game, solution, values, low, high):
    """Each player's chance of winning when every end of ``solution`` pays a win or a loss, else None."""
    wins_only = all(all(x == low or x == high for x in game.payoff(s)) for s in solution if game.to_move(s) is None)
    return [(Fraction(v) - low) / (high - low) for v in values] if wins_only else None


def _exact_winner(values, player, certain) -> tuple:
    """``(winner, winning player numbered from 1 or None)``: the mover, the other, "draw", or None when not certain."""
    from .. import theory as theory

    other = 1 - player
    if not certain:
        return None, None
    if values[player] > values[other]:
        return theory.MOVER, player + 1
    if values[player] < values[other]:
        return theory.OTHER, other + 1
    return "draw", None


def _exact_verdict(game, player, values, winner, chances, dice, listed) -> str:
    """The verdict's lines: who wins and the winning moves, or (not certain) the chances or expected payoffs."""
    from .. import theory as theory

    if winner is None:
        if chances is not None:
            odds = ", ".join(f"{_board._player_name(game, i)} {_share(p)}" for i, p in enumerate(chances))
            verdict = f"the chance of winning, with best play by both (the dice decide the rest): {odds}"
        else:
            payoffs = ", ".join(f"{_board._player_name(game, i)} {float(v):.6g}" for i, v in enumerate(values))
            verdict = f"the expected payoff, with best play by both (the dice decide the rest): {payoffs}"
        return verdict + f"\nbest moves: {listed}"
    sure = " (whatever the dice)" if dice else ""
    if winner == theory.MOVER:
        return f"the player to move wins{sure}: {_board._player_name(game, player)}\nwinning moves: {listed}"
    if winner == theory.OTHER:
        return f"the player to move loses{sure}: {_board._player_name(game, 1 - player)} wins\nwinning moves: none"
    return f"a draw: neither player can force a win\ndrawing moves: {listed}"


def _value_line(game, values, what: str = "value") -> str:
    """``value: Player 1 0, Player 2 0 (payoffs: the game's own, in [-4, 4])``: each player's exact value, labelled.

    >>> from fnmcts.games import Nim
    >>> _value_line(Nim(), (Fraction(-1), Fraction(1)))
    "value: Player 1 -1, Player 2 1 (payoffs: the game's own, in [-1, 1])"
    """
    shown = ", ".join(f"{_board._player_name(game, i)} {_exact_text(v)}" for i, v in enumerate(values))
    return f"{what}: {shown} ({scale_note(game)})"


def _exact_text(value) -> str:
    """An exact value as a person reads it: ``1``, ``-0.5``, ``0.3333 (1/3)``.

    >>> _exact_text(Fraction(2)), _exact_text(Fraction(-1, 2)), _exact_text(Fraction(1, 3)), _exact_text(0.25)
    ('2', '-0.5', '0.3333 (1/3)', '0.25')
    """
    value = Fraction(value) if not isinstance(value, float) else value
    if isinstance(value, Fraction) and value.denominator == 1:
        return str(value.numerator)
    if isinstance(value, Fraction) and 1000 % value.denominator == 0 or isinstance(value, float):
        return f"{float(value):.6g}"
    return f"{float(value):.4f}" + (f" ({value})" if len(str(value)) <= 15 else "")


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
    where = _board._family(game).where
    if where is None:
        player = game.to_move(state)
        moves = player is not None and player is not protocol.CHANCE
        to_move = f"\n{_board._player_name(game, player)} to move" if moves else ""
        return f"{protocol.render(game, state)}{to_move}"
    rule = "misère: taking the last item loses" if game.misere else "normal play: taking the last item wins"
    return f"{where(game, state)} ({rule})"


def _solve_over(args, game, state):
    """``solve`` at a finished game: nobody moves; say who has won, or that it is a draw."""
    payoff = game.payoff(state)
    won = _winner(payoff)
    payload = {
        "winner": None,
        "over": True,
        "won": won,
        "draw": won is None,
        "winning_moves": [],
        **_common.state_field(args, game, state),
        "game": _game_json(game),
        "exact_checked": False,
        "payoff": [_number(v) for v in payoff],
        **scale_fields(game),
    }
    result = "it is a draw" if won is None else f"player {won} has won"
    text = f"{_where(game, state)}\nthe game is over: nobody moves; {result}\n{_value_line(game, payoff, 'payoff')}"
    _common.emit(args, payload, text)

