"""Hints in the play loop: the move an agent would play, or every move's exact value.

``make_hint(game, name, agent_factory, limit)`` gives ``hint(state, moves) -> lines``
for ``fnmcts play GAME --hints NAME``: ``solver`` (or ``optimal``) solves the
game exactly once (``fnmcts.exact.solve``, at most ``limit`` states) and shows,
before the person moves, the value of every move for the player to move with
optimal play afterwards (as a chance of winning when the game pays only wins
and losses); ``random`` the same with random play afterwards
(``fnmcts.exact.evaluate_policy``); any other agent's name shows the move that
agent would play there. A value hint also gives ``hint.values(state, moves)``,
one text a move, which the play loop shows beside each numbered choice, and
``hint.title``, the line that says what they are. Nothing here names a game.
"""

from __future__ import annotations

from fractions import Fraction

from ..protocol import describe_move, payoff_range
from ._agents import agent_names
from ._payoffs import scale_text

__all__ = ["HINT_SOLVER", "VALUE_HINTS", "add_hints", "make_hint", "solver_hint", "agent_hint"]

HINT_SOLVER = "solver"
"""The name of the exact solver's hints (every move's value)."""

VALUE_HINTS = {"solver": "optimal", "optimal": "optimal", "random": "random"}
"""The hints that show every move's exact value, and the play afterwards they assume; any other name is an agent's."""


def _shown(value, low, high, kind: str) -> str:
    """A value as a person reads it: a sure win, draw or loss; else a chance of winning (``kind`` 'wins') or the payoff.

    ``kind`` says what the game's ends pay: ``'wins'`` only a win or a loss,
    ``'draws'`` a win, a draw (halfway) or a loss, ``'payoffs'`` anything else.

    >>> _shown(Fraction(1, 3), 0, 1, "wins"), _shown(1, -1, 1, "wins"), _shown(0, -1, 1, "draws"), _shown(0, -1, 1, "payoffs")
    ('0.3333', 'win', 'draw', '0')
    """
    value = Fraction(value)
    if value in (low, high):
        return "win" if value == high else "loss"
    if kind == "wins":
        return f"{float((value - low) / (high - low)):.4f}"
    if kind == "draws" and value == (low + high) / 2:
        return "draw"
    return f"{float(value):.4g}"


def solver_hint(game, solution, play: str = "optimal"):
    """``hint(state, moves) -> lines``: each move's exact value for the player to move, the best marked.

    ``solution`` holds the values with ``play`` afterwards (``'optimal'``: the
    solver's; ``'random'``: ``evaluate_policy``'s of random play). The hint's
    ``values(state, moves)`` gives one short text a move (``'win 0.2500'``),
    and its ``title`` says what they are.

    >>> from fnmcts.exact import solve
    >>> from fnmcts.games import Nim
    >>> game = Nim(heap=5, max_take=3, misere=False)
    >>> hint = solver_hint(game, solve(game))
    >>> hint(game.start(), game.possible_moves(game.start()))
    ["hint (exact solver), the mover's chance of winning after each move: take 1: win (best), take 2: loss, take 3: loss"]
    >>> hint.values(game.start(), game.possible_moves(game.start())), hint.title
    (['win 1.0000', 'win 0.0000', 'win 0.0000'], "hints: each move's exact chance of winning with optimal play afterwards")
    >>> from fnmcts.games import TicTacToe
    >>> ttt = TicTacToe()
    >>> after = ttt.play(ttt.play(ttt.start(), 4), 1)   # X in the centre, O on an edge: X wins, but not from 7
    >>> solver_hint(ttt, solve(ttt))(after, ttt.possible_moves(after))
    ["hint (exact solver), the mover's result after each move: X at 0: win (best), X at 2: win (best), X at 3: win (best), X at 5: win (best), X at 6: win (best), X at 7: draw, X at 8: win (best)"]
    """
    low, high = (Fraction(x) for x in payoff_range(game))
    ends = {Fraction(x) for s in solution if game.to_move(s) is None for x in game.payoff(s)}
    kind = "wins" if ends <= {low, high} else "draws" if ends <= {low, (low + high) / 2, high} else "payoffs"
    what = {"wins": "the mover's chance of winning", "draws": "the mover's result"}.get(
        kind, f"the mover's payoff ({scale_text(game)})")
    who = "exact solver" if play == "optimal" else f"exact, {play} play afterwards"

    def scored(state, moves):
        player = game.to_move(state)
        return [Fraction(solution[game.play(state, move)][player]) for move in moves]

    def hint(state, moves):
        values = scored(state, moves)
        best = max(values)
        shown = [
            f"{describe_move(game, state, move)}: {_shown(v, low, high, kind)}" + (" (best)" if v == best else "")
            for move, v in zip(moves, values)
        ]
        return [f"hint ({who}), {what} after each move: " + ", ".join(shown)]

    def values(state, moves):
        if kind == "wins":
            return [f"win {float((v - low) / (high - low)):.4f}" for v in scored(state, moves)]
        if kind == "draws":
            return [_shown(v, low, high, kind) for v in scored(state, moves)]
        return [f"payoff {float(v):.4g}" for v in scored(state, moves)]

    hint.values = values
    noun = what.replace("the mover's ", "")
    hint.title = f"hints: each move's exact {noun} with {play} play afterwards"
    return hint


def agent_hint(game, name: str, agent, rng):
    """``hint(state, moves) -> lines``: the move agent ``name`` would play at ``state`` (drawing from ``rng``).

    >>> from fnmcts.agents import perfect_agent
    >>> from fnmcts.games import Nim
    >>> from fnmcts.rng import make_rng
    >>> game = Nim(heap=5, max_take=3, misere=False)
    >>> agent_hint(game, "perfect", perfect_agent, make_rng(1))(game.start(), game.possible_moves(game.start()))
    ['hint (perfect): take 1']
    """

    def hint(state, moves):
        move = agent(game, state, rng)
        return [f"hint ({name}): {describe_move(game, state, move)}"]

    return hint


def make_hint(game, name, build, rng, *, limit=None, start=None):
    """The hint of ``--hints name`` on ``game`` (``None``: no hints); ``build(name)`` makes an agent.

    The value hints (``VALUE_HINTS``) solve the game from ``start`` (default:
    the start) once, at most ``limit`` states: ``solver`` and ``optimal`` with
    optimal play afterwards, ``random`` with random play.

    >>> from fnmcts.games import Nim
    >>> from fnmcts.rng import make_rng
    >>> make_hint(Nim(), None, None, make_rng(1)) is None
    True
    >>> game = Nim(heap=3, misere=False)
    >>> make_hint(game, "random", None, make_rng(1)).values(game.start(), (1, 2, 3))
    ['win 0.5000', 'win 0.0000', 'win 1.0000']
    """
    if name is None or name == "none":
        return None
    start = game.start() if start is None else start
    if name in VALUE_HINTS:
        from ..exact import evaluate_policy, random_policy, solve

        play = VALUE_HINTS[name]
        if play == "optimal":
            return solver_hint(game, solve(game, start, limit=limit))
        return solver_hint(game, evaluate_policy(game, random_policy, start, opponent=random_policy, limit=limit), play)
    return agent_hint(game, name, build(name), rng)


def add_hints(parser, kind: str = "any") -> None:
    """Add ``--hints NAME``: before each of your moves, an agent's move or (``solver``) every move's exact value.

    >>> import argparse
    >>> parser = argparse.ArgumentParser()
    >>> add_hints(parser)
    >>> parser.parse_args(["--hints", "solver"]).hints, parser.parse_args([]).hints
    ('solver', None)
    """
    parser.add_argument(
        "--hints", default=None, metavar="NAME",
        help="before each of your moves: solver or optimal (every move's exact value with optimal play afterwards), "
        f"random (the same with random play afterwards), or the move of an agent: "
        f"{', '.join(n for n in agent_names(kind) if n not in VALUE_HINTS)} (default: no hints)",
    )
