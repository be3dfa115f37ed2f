"""Monte Carlo: repeated trials, simulated games, estimates with 95% intervals.

A trial is a function of an ``rng``; ``estimate`` runs it ``n`` times and
returns a ``Simulation`` record: the win and loss counts, the estimate and its
95% Wilson score interval (both from ``fnmcts.sampling``, the game-free half,
re-exported here). ``simulate`` does the same for whole games of the
protocol, played by an agent (random play by default); ``playout`` (from
``fnmcts.matches``) is re-exported here for the callers that import it from here.

A game's payoff is a number, not a verdict (``fnmcts.protocol``, "What payoffs
mean"). ``simulate`` reads player 1's payoff ``x`` on the game's
``payoff_range`` ``(low, high)``: rescaled, ``u = (x - low) / (high - low)``,
a game is a win when ``u > 1/2``, a draw when ``u == 1/2`` and a loss when
``u < 1/2``. The record keeps those counts, with ``estimate`` the share of
wins (Wilson interval), and the sum of the payoffs and of their squares, so
that it also reports the mean payoff with its own 95% interval. For a game
whose payoffs are only the two extremes (Shut the Box pays 0 or 1, Nim -1 or
+1) the mean says nothing more than the share of wins; for a game with draws
or graded payoffs (a score) it is the figure to read.

>>> from fnmcts.games.coin import flip_coin, is_win
>>> record = estimate(flip_coin, 10_000, win=is_win, seed=1)
>>> record.games, record.win
(10000, 4908)
>>> record.ci_low < 0.5 < record.ci_high
True
"""

from __future__ import annotations

import math
import random
from fractions import Fraction
from functools import partial, reduce
from typing import Callable

from .limits import MAX_PLIES, WORK_LIMIT, check_work, size_hint
from .parallel import DEFAULT_CHUNK, Interrupted, WorkerLost, check_count, chunks_done, interrupted, run_chunks
from .matches import playout
from .exact import check_game
from .protocol import GameError, called, check_state, game_text, guarded, payoff_check, payoff_range
from .rng import resolve_seed
from .sampling import Z95, Simulation, estimate, mean_interval, wilson_interval  # noqa: F401 (re-exported below)
from .sampling import __all__ as _TRIALS

__all__ = [*_TRIALS, "simulate", "playout"]
"""The trials' names of ``fnmcts.sampling`` (the same objects), then the games' ``simulate`` and ``playout``."""


def _tally(payoffs, game_range) -> Simulation:
    """The record of player 1's ``payoffs``, classified on ``game_range`` (seed None)."""
    low, high = game_range
    middle2 = Fraction(low) + Fraction(high)  # twice the middle, exactly
    if middle2.denominator == 1:
        middle2 = int(middle2)  # compares fast with ints and exactly with floats
    win = draw = graded = 0
    values = []
    for x in payoffs:
        if not low <= x <= high:
            raise ValueError(f"payoff {x!r} of player 1 lies outside the game's payoff_range {game_range!r}")
        twice = x + x  # exact for ints, Fractions and floats
        if twice > middle2:
            win += 1
        elif twice == middle2:
            draw += 1
        if low < x < high:
            graded += 1
        values.append(float(x))
    return Simulation.of(
        win,
        len(values),
        draw=draw,
        total=math.fsum(values),
        sum_squares=math.fsum(v * v for v in values),
        graded=graded,
        payoff_range=game_range,
    )


def _tally_batch(payoffs, game_range, state=None) -> Simulation:
    """The record of player 1's ``payoffs`` given as a numpy array (the batch path), as ``_tally`` counts them."""
    low, high = game_range
    if payoffs.size and (payoffs.min() < low or payoffs.max() > high):
        bad = payoffs[(payoffs < low) | (payoffs > high)][0]
        raise GameError("random_batch", f"gave player 1 the payoff {bad!r}, outside payoff_range() {game_range!r}",
                        state)
    twice, middle2 = payoffs + payoffs, float(Fraction(low) + Fraction(high))
    return Simulation.of(
        int((twice > middle2).sum()),
        int(payoffs.size),
        draw=int((twice == middle2).sum()),
        total=float(payoffs.sum()),
        sum_squares=float((payoffs * payoffs).sum()),
        graded=int(((payoffs > low) & (payoffs < high)).sum()),
        payoff_range=game_range,
    )


def _game_chunk(game, state, agent, game_range, size, rng, batch=False, max_plies=MAX_PLIES) -> Simulation:
    """The record of ``size`` games from ``state``: the game's own kernels where it has them, else ``playout``.

    Every payoff is checked (``payoff_check``: its length and its range, once
    per distinct payoff); a hook that raises is a ``GameError`` here, in the
    process that ran it (a worker's traceback does not reach its parent).
    """
    if batch:
        payoffs = called("random_batch", game.random_batch, state, size, rng)
        if payoffs is not None:  # None: declined (without drawing) at this state
            return _tally_batch(payoffs, game_range, state)
    if agent is None and hasattr(game, "random_wins"):  # payoffs are the two extremes only
        wins = called("random_wins", game.random_wins, state, size, rng)
        if wins is not None:  # None: declined (without drawing) for this game value
            return Simulation.of(wins, size, payoff_range=game_range)
    if agent is None and hasattr(game, "random_payoff"):
        check = payoff_check(game, "random_payoff")
        kernel = game.random_payoff
        return _tally((check(state, called("random_payoff", kernel, state, rng))[0] for _ in range(size)), game_range)
    check, payoff, tables = payoff_check(game), game.payoff, {}  # (tables: the draw tables of the playouts)

    def one():
        end = playout(game, state, rng, agent, max_plies=max_plies, tables=tables)
        return check(end, called("payoff", payoff, end))[0]

    return _tally((one() for _ in range(size)), game_range)


@guarded
def simulate(
    game,
    n: int,
    *,
    seed: int | None = None,
    rng: random.Random | None = None,
    state=None,
    agent=None,
    executor=None,
    chunk_size: int = DEFAULT_CHUNK,
    progress: Callable[[int], None] | None = None,
    limit: int | None = WORK_LIMIT,
    batch: bool = False,
    max_plies: int | None = MAX_PLIES,
) -> Simulation:
    """Play ``n`` games of ``game`` from ``state`` (default: the start); count and sum the payoffs.

    Player 1's payoff decides each game on the game's ``payoff_range``: a win
    above the middle, a draw at it, a loss below (for Shut the Box a win is an
    empty box). The record has the counts, the share of wins with its Wilson
    interval, and the mean payoff with its 95% interval. ``agent`` chooses the
    moves (default: uniformly at random, through the game's fast kernel where
    it has one: ``game.random_wins(state, n, rng)``, the number of wins in
    ``n`` random games, which only a game whose payoffs are the two extremes
    of its ``payoff_range`` may provide (``None``, drawing nothing, declines
    it), or ``game.random_payoff(state, rng)``,
    the payoffs of one random game). Each chunk of ``chunk_size`` games counts
    and sums on its own child seed; the chunks are combined in order, so the
    same seed gives the same record whatever the executor. Ctrl-C raises
    ``Interrupted`` whose ``partial`` is the record of the chunks finished.
    Games times their length (the game's ``size_hint``) beyond ``limit`` steps
    of play is refused up front (``TooLarge``; ``limit=None`` goes on).
    ``batch=True`` plays each chunk's games side by side in numpy arrays,
    through the game's ``random_batch(state, n, rng)`` hook (the Shut the Box
    family has one; the ``batch`` extra installs numpy): random play in the
    same distribution, other draws, many times faster; a game without the hook
    is a ``ValueError``. A game longer than ``max_plies`` plies is a ``NoEnd``
    (``fnmcts.limits``: the game's own bound when longer; None: no budget); a
    failure of the game's own code (a hook that raises, a payoff of the wrong
    length or outside ``payoff_range``) is a ``GameError``.

    >>> from fnmcts.games.shut_the_box import ShutTheBox
    >>> simulate(ShutTheBox(), 20_000, seed=5).games
    20000
    >>> from fnmcts.games.nim import Nim
    >>> record = simulate(Nim(heap=7, max_take=3), 1_000, seed=1)
    >>> record.win + record.draw + record.loss, record.mean == (record.win - record.loss) / 1_000
    (1000, True)
    """
    check_game(game)
    check_count(n, "the number of games")
    base = resolve_seed(seed, rng)
    start = game.start() if state is None else check_state(game, state)  # the game's own start: its hooks say
    check_work(n, size_hint(game, start)[1] or 1, limit=limit)
    game_range = payoff_range(game)
    if batch and (agent is not None or not hasattr(game, "random_batch")):
        raise ValueError(
            "batch=True plays random games side by side through the game's random_batch(state, n, rng) hook: "
            + ("it plays random play only, not an agent" if agent is not None else f"{game_text(game)} has none")
        )
    fn = partial(_game_chunk, game, start, agent, game_range, batch=batch, max_plies=max_plies)
    empty = Simulation.of(0, 0, base, payoff_range=game_range)
    try:
        parts = run_chunks(fn, n, base, chunk_size, executor, progress)
    except (Interrupted, WorkerLost) as stop:
        raise interrupted(stop, reduce(Simulation.merge, chunks_done(stop), empty)) from None
    return reduce(Simulation.merge, parts, empty)
