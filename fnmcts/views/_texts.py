"""Texts and numbers a trace shows in the terminal and on the explorer page, written once for both.

Numbers show with three decimals (``format_number``), records as their counts
(``record_text``), states by the moves that lead to them from the root.
"""

from __future__ import annotations

import math
from fractions import Fraction

from ..protocol import CHANCE, describe_move
from ..mcts._graph import rescaler
from ..mcts._records import counts_of

__all__ = ["format_number", "record_text"]


def format_number(x) -> str:
    """A number as the trace's texts and the explorer page show it: three decimals, "inf", or "-".

    >>> format_number(0.0625), format_number(math.inf), format_number(None)
    ('0.062', 'inf', '-')
    """
    if x is None:
        return "-"
    if x == math.inf:
        return "inf"
    if x == -math.inf:
        return "-inf"
    return f"{x:.3f}"


def record_text(rec) -> str:
    """A record as the trace's texts and the explorer page show it: counts, and numbers with three decimals.

    >>> from fnmcts.mcts import record
    >>> record_text(record(win=2, loss=1, draw=1, value=0.71875)), record_text(None)
    ('Record(win=2, loss=1, draw=1, value=0.719)', '(new)')
    """
    if rec is None:
        return "(new)"
    n, s, w, d, v = counts_of(rec)
    parts = [f"win={w}", f"loss={n - w - d}"]
    if d:
        parts.append(f"draw={d}")
    if rec.get("score") is not None:
        parts.append(f"score={format_number(s)}")
    if v is not None:
        parts.append(f"value={format_number(v)}")
    proven = rec.get("proven")
    if proven is not None:
        parts.append(f"proven={_fraction_text(proven)}")
    return "Record(" + ", ".join(parts) + ")"


def _estimate(rec, step):

    n, s, _, _, v = counts_of(rec)
    if not n:
        return None
    expectimax = getattr(step, "expectimax", None)
    if expectimax is None:  # the steps of this release keep the estimates they rated from
        return s / n
    return v if expectimax and v is not None else s / n


def _exact_for(game, solution):
    """``(state, player) -> exact value of state for player on [0, 1]`` (None without a solution)."""
    if solution is None:
        return lambda state, player: None
    scale = rescaler(game)

    def value(state, player):
        v = solution.get(state)
        if v is None or player is None or player is CHANCE:
            return None
        return float(scale(v)[player])

    return value


def _player_name(game, player) -> str:
    name = getattr(game, "player_name", None)
    if name is not None:
        try:
            return str(name(player))
        except Exception:  # a hook that fails for this player: the plain name
            pass
    if getattr(game, "num_players", 1) == 1:
        return "the player"
    return f"player {player + 1}"


def _describe(game, state, move) -> str:
    try:
        return describe_move(game, state, move)
    except Exception:  # a game whose describe_move fails for chance outcomes: the outcome itself
        return str(move)


def _outcome_states(game, step):
    """``(state, outcome)`` for each chance outcome of a step, from the stored node down to the decision."""
    out, state = [], step.node
    for outcome in step.outcomes:
        out.append((state, outcome))
        state = game.play(state, outcome)
    return out


def _names(game, path) -> dict:
    """A short name for every state on ``path``: the moves from the root, ' > ' between them."""
    names = {path.root: "the root"}
    trail = []
    for step in path.steps:
        for state, outcome in _outcome_states(game, step):
            trail.append(_describe(game, state, outcome))
        if step.chosen is None:
            break
        trail.append(_describe(game, step.decision, step.moves[step.chosen]))
        names.setdefault(step.children[step.chosen], " > ".join(trail))
    return names


def _leaf_name(game, path, names) -> str:
    if path.steps and path.steps[-1].chosen is None:  # the dice ended the game
        step = path.steps[-1]
        return names.get(step.node, "?") + " > " + " > ".join(_describe(game, s, o) for s, o in _outcome_states(game, step))
    return "?"


def _payoff_text(payoff) -> str:
    return "(" + ", ".join(str(x) for x in payoff) + (",)" if len(payoff) == 1 else ")")


def _fraction_text(value) -> str:
    return "(" + ", ".join(str(Fraction(x)) for x in value) + (",)" if len(value) == 1 else ")")
