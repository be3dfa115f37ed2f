"""Payoffs as the commands print them: on the game's own scale, said once; the [0, 1] view only under its label.

Every verb that prints a payoff prints the number the game's ``payoff``
returns (or a mean or exact value of such numbers), never a rescaled one,
and says on which scale: ``payoffs: the game's own, in [-4, 4]`` in text,
``"payoff_range": [-4, 4]`` in JSON. Whose payoff it is is named beside it
(player 1's, the mover's: the player to move at the state the move is
played from). Where a [0, 1] view is useful (a share of points in a
tournament, a chance of winning, MCTS's own rescaled means), it is a
*score* and is labelled so: ``score`` in JSON, with ``SCORE`` saying what it is.
"""

from __future__ import annotations

from fractions import Fraction  # noqa: F401 (the doctests)

from ..protocol import payoff_range

__all__ = ["SCORE", "number", "scale", "scale_fields", "scale_note", "scale_text", "on_game_scale"]

SCORE = "the payoff mapped to [0, 1]: 0 the game's lowest payoff, 1 its highest, a draw halfway"
"""What a ``score`` is, wherever a command shows one."""


def number(value):
    """A payoff as JSON and text show it: a whole number as an ``int``, else a ``float``.

    >>> number(Fraction(-4)), number(0.5), number(Fraction(1, 3))
    (-4, 0.5, 0.3333333333333333)
    """
    as_float = float(value)
    return int(as_float) if as_float.is_integer() and abs(as_float) < 2**53 else as_float


def scale(game) -> tuple:
    """``(low, high)``: the game's payoff range (``payoff_range(game)``), as numbers.

    >>> from fnmcts.games import Nim, ShutTheBox
    >>> scale(Nim()), scale(ShutTheBox(scoring="sum"))
    ((-1, 1), (-45, 0))
    """
    low, high = payoff_range(game)
    return number(low), number(high)


def scale_fields(game) -> dict:
    """The JSON fields that say the scale: ``{"payoff_range": [low, high]}``.

    >>> from fnmcts.games import Nim
    >>> scale_fields(Nim())
    {'payoff_range': [-1, 1]}
    """
    return {"payoff_range": list(scale(game))}


def scale_note(game, whose: str = "") -> str:
    """The text that says the scale: ``payoffs: the game's own, in [-1, 1]`` (``whose``: ``"the mover's"``...).

    >>> from fnmcts.games import Nim
    >>> scale_note(Nim()), scale_note(Nim(), "the mover's")
    ("payoffs: the game's own, in [-1, 1]", "payoffs: the mover's, the game's own, in [-1, 1]")
    """
    return f"payoffs: {whose + ', ' if whose else ''}{scale_text(game)}"


def scale_text(game) -> str:
    """``the game's own, in [-1, 1]``: the scale, for a sentence that names the payoffs itself.

    >>> from fnmcts.games import Nim
    >>> scale_text(Nim())
    "the game's own, in [-1, 1]"
    """
    low, high = scale(game)
    return f"the game's own, in [{low:g}, {high:g}]"


def on_game_scale(score: float, low, high) -> float:
    """A score (``SCORE``: on [0, 1]) back on the game's scale ``[low, high]``.

    >>> on_game_scale(0.5, -4, 4), on_game_scale(1.0, 0, 45)
    (0.0, 45.0)
    """
    return float(low) + float(score) * (float(high) - float(low))
