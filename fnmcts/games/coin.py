"""Task 1: flip a coin many times and estimate the probability of winning.

>>> from fnmcts.rng import make_rng
>>> rng = make_rng(1)
>>> [flip_coin(rng) for _ in range(4)]
['heads', 'tails', 'tails', 'heads']
>>> is_win("heads")
True
>>> simulate(10_000, seed=1).estimate
0.4908

``Coin`` is the same trial as a game of the protocol, for the Monte Carlo lab
(``fnmcts.lab``): ``flips`` fair flips (one by default, the tutorial's),
won on a majority of heads, with the lab's hooks and an exact value to check
every estimator against:

>>> from fnmcts import lab
>>> exact = lab.exact_variances(Coin(3))
>>> exact.value, exact.variances["plain"], exact.variances["antithetic"], round(exact.variances["control"], 4)
(0.5, 0.25, 0.0, 0.0625)
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from ..protocol import CHANCE, GameBase
from ..rng import pick

__all__ = ["HEADS", "TAILS", "flip_coin", "is_win", "count_heads", "simulate", "Coin"]

HEADS = "heads"
TAILS = "tails"


def _chance_strata(game, state, none_left: str) -> tuple:
    """The lab's strata at ``game``'s chance node ``state``: ``((probability, state after the outcome), ...)``.

    One stratum an outcome (a coin's faces, a dart's columns); past the last
    chance node, a ``ValueError`` with ``none_left`` (``{state!r}`` is filled in).

    >>> _chance_strata(Coin(1), ("heads",), "no flip left at {state!r}")
    Traceback (most recent call last):
    ...
    ValueError: no flip left at ('heads',)
    """
    outcomes = game.chance_outcomes(state)
    if not outcomes:
        raise ValueError(none_left.format(state=state))
    return tuple((p, game.play(state, outcome)) for outcome, p in outcomes)


def flip_coin(rng: random.Random) -> str:
    """``'heads'`` or ``'tails'``, each with probability 1/2 (one ``rng.random()``).

    >>> import random
    >>> rng = random.Random(1)
    >>> [flip_coin(rng) for _ in range(3)]
    ['heads', 'tails', 'tails']
    """
    return pick(rng, (HEADS, TAILS))  # heads below 1/2


def is_win(result: str) -> bool:
    """The tutorial's ``win?``: heads you win.

    >>> is_win("heads"), is_win("tails")
    (True, False)
    """
    return result == HEADS


def count_heads(n: int, rng: random.Random) -> int:
    """Heads in ``n`` flips at once (numpy, the batch extra): ``flip_coin``'s distribution, other draws.

    >>> import random
    >>> 4_800 < count_heads(10_000, random.Random(1)) < 5_200
    True
    """
    from ._vector import generator

    return int((generator(rng).random(n) < 0.5).sum())


def simulate(n: int, seed=None, batch: bool = False, **options):
    """Flip ``n`` coins; the record of wins with its 95% interval (``batch=True``: ``count_heads`` per chunk).

    >>> record = simulate(1_000, seed=2)
    >>> record.win, record.games, record.estimate, round(record.ci_low, 4), round(record.ci_high, 4)
    (497, 1000, 0.497, 0.4661, 0.5279)
    >>> simulate(1_000_000, seed=2, batch=True).ci_low < 0.5 < simulate(1_000_000, seed=2, batch=True).ci_high
    True
    """
    from ..sampling import estimate

    return estimate(flip_coin, n, win=is_win, seed=seed, batch=count_heads if batch else None, **options)


_FAIR = ((HEADS, Fraction(1, 2)), (TAILS, Fraction(1, 2)))


@dataclass(frozen=True)
class Coin(GameBase):
    """Flip a fair coin ``flips`` times (an odd number); player 1 wins on a majority of heads.

    A state is the tuple of the faces so far; every move is chance's. With
    one flip (the default) it is the tutorial's coin: heads you win.

    >>> game = Coin(3)
    >>> state = game.play(game.play(game.start(), HEADS), TAILS)
    >>> state, game.to_move(state) is CHANCE, game.payoff(game.play(state, HEADS))
    (('heads', 'tails'), True, (1,))
    """

    flips: int = 1
    num_players = 1

    def __post_init__(self):
        if isinstance(self.flips, bool) or not isinstance(self.flips, int) or self.flips < 1 or self.flips % 2 == 0:
            raise ValueError(f"flips must be an odd whole number >= 1 (a majority decides), got {self.flips!r}")

    def start(self) -> tuple:
        """No face yet: ``()``.

        >>> Coin().start()
        ()
        """
        return ()

    def to_move(self, state):
        """Chance while flips remain, then ``None``: the game is over.

        >>> Coin().to_move(()) is CHANCE, Coin().to_move((HEADS,))
        (True, None)
        """
        return CHANCE if len(state) < self.flips else None

    def possible_moves(self, state) -> tuple:
        """No player moves: only chance does.

        >>> Coin().possible_moves(())
        ()
        """
        return ()

    def chance_outcomes(self, state) -> tuple:
        """Heads and tails, a half each, while flips remain.

        >>> Coin().chance_outcomes(()), Coin().chance_outcomes((TAILS,))
        ((('heads', Fraction(1, 2)), ('tails', Fraction(1, 2))), ())
        """
        return _FAIR if len(state) < self.flips else ()

    def play(self, state, move) -> tuple:
        """The faces so far and ``move``, checked.

        >>> Coin(3).play((HEADS,), TAILS)
        ('heads', 'tails')
        """
        if move not in (HEADS, TAILS) or len(state) >= self.flips:
            raise ValueError(f"a flip is 'heads' or 'tails' while flips remain, got {move!r} at {state!r}")
        return (*state, move)

    def payoff(self, state) -> tuple:
        """``(1,)`` on a majority of heads, ``(0,)`` otherwise.

        >>> Coin().payoff((HEADS,)), Coin(3).payoff((HEADS, TAILS, TAILS))
        ((1,), (0,))
        """
        return (1 if 2 * state.count(HEADS) > self.flips else 0,)

    # --- the Monte Carlo lab's hooks (fnmcts.lab): features of the flips, never the game's value ---

    def antithetic_outcome(self, state, outcome) -> str:
        """The mirror image of a flip: the other face (a majority of heads becomes one of tails).

        >>> Coin().antithetic_outcome((), HEADS)
        'tails'
        """
        return TAILS if outcome == HEADS else HEADS

    def control_feature(self, state, outcome) -> float:
        """The lab's control feature: 1 for heads, 0 for tails (summed less its mean: the heads less half the flips).

        >>> Coin().control_feature((), HEADS), Coin().control_feature((), TAILS)
        (1.0, 0.0)
        """
        return 1.0 if outcome == HEADS else 0.0

    def strata(self, state) -> tuple:
        """The lab's strata at a flip: ``((probability, state after the flip), ...)``.

        >>> Coin(3).strata(())
        ((Fraction(1, 2), ('heads',)), (Fraction(1, 2), ('tails',)))
        """
        return _chance_strata(self, state, "strata are the outcomes of a flip; {state!r} has none left")

    def lab_batch(self, method: str, n: int, rng: random.Random) -> tuple:
        """The lab's batch games in numpy arrays (``fnmcts.lab.batch_estimate``; the batch extra).

        ``'plain'``: ``(payoffs,)``; ``'antithetic'``: ``(first, second)`` of ``n // 2`` pairs, the
        second every face turned over; ``'control'``: ``(payoffs, control)``,
        the heads less half the flips; ``'stratified'``: ``(payoffs, first
        flip)``, heads and tails dealt in turn.

        >>> payoffs, control = Coin(3).lab_batch("control", 4, random.Random(1))
        >>> payoffs.shape, control.shape
        ((4,), (4,))
        """
        from ._vector import generator, numpy

        np = numpy()
        n = n // 2 if method == "antithetic" else n
        heads = generator(rng).random((n, self.flips)) < 0.5
        if method == "stratified":
            heads[:, 0] = np.arange(n) % 2 == 0
        count = heads.sum(axis=1)
        payoffs = (2 * count > self.flips).astype(float)
        if method == "plain":
            return (payoffs,)
        if method == "antithetic":
            return payoffs, 1.0 - payoffs  # every face turned over: the majority too (flips is odd)
        if method == "control":
            return payoffs, count - self.flips / 2
        if method == "stratified":
            return payoffs, (~heads[:, 0]).astype(np.int64)
        raise ValueError(f"method must be plain, antithetic, control or stratified, got {method!r}")
