"""Task 1, continued: throw darts at a circle inscribed in a square; estimate pi.

A throw is a point ``(x, y)`` uniform on the square [-1, 1] x [-1, 1]; it wins
when it lands inside the unit circle, which happens with probability pi / 4.

>>> from fnmcts.rng import make_rng
>>> throw_dart(make_rng(3))
(-0.5240707458162173, 0.08845845059190371)
>>> is_win((0.5, 0.5)), is_win((0.9, 0.9))
(True, False)
>>> record = simulate(100_000, seed=1)
>>> round(4 * record.estimate, 3)
3.141

``Darts`` is the same board as a game of the protocol, for the Monte Carlo
lab (``fnmcts.lab``): each coordinate is drawn from a grid of ``size`` cell
centres across [-1, 1] (two chance events), so the exact value is a count of
the grid's centres inside the circle, close to pi / 4, and the exact variance
of every estimator is a sum over the grid:

>>> from fnmcts import lab
>>> exact = lab.exact_variances(Darts(20))
>>> round(exact.value, 4), round(4 * exact.value, 4), round(exact.variances["plain"], 4)
(0.79, 3.16, 0.1659)
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction

from ..protocol import CHANCE, GameBase
from .coin import _chance_strata

__all__ = ["throw_dart", "is_win", "count_hits", "simulate", "pi_estimate", "Darts"]


def throw_dart(rng: random.Random) -> tuple[float, float]:
    """A dart ``(x, y)``: ``rand`` scaled by 2 and shifted by -1, twice.

    >>> import random
    >>> throw_dart(random.Random(3))
    (-0.5240707458162173, 0.08845845059190371)
    """
    return (rng.random() * 2 - 1, rng.random() * 2 - 1)


def is_win(throw: tuple[float, float]) -> bool:
    """Inside the circle: ``x**2 + y**2 < 1``.

    >>> is_win((0.5, 0.5)), is_win((0.9, 0.9)), is_win((1.0, 0.0))
    (True, False, False)
    """
    x, y = throw
    return x * x + y * y < 1


def count_hits(n: int, rng: random.Random) -> int:
    """Hits in ``n`` darts thrown at once (numpy, the batch extra): ``throw_dart``'s distribution, other draws.

    >>> import random
    >>> 7_700 < count_hits(10_000, random.Random(1)) < 8_000  # pi / 4 = 0.785...
    True
    """
    from ._vector import generator

    x, y = generator(rng).random((2, n)) * 2 - 1
    return int((x * x + y * y < 1).sum())


def simulate(n: int, seed=None, batch: bool = False, **options):
    """Throw ``n`` darts; the record of hits with its 95% interval (``batch=True``: ``count_hits`` per chunk).

    >>> record = simulate(1_000, seed=2)
    >>> record.win, record.games, record.estimate
    (783, 1000, 0.783)
    >>> round(4 * simulate(1_000_000, seed=2, batch=True).estimate, 2)
    3.14
    """
    from ..sampling import estimate

    return estimate(throw_dart, n, win=is_win, seed=seed, batch=count_hits if batch else None, **options)


def pi_estimate(record) -> tuple[float, float, float]:
    """``(estimate, low, high)`` of pi from a darts record: four times the hit rate.

    >>> from fnmcts.sampling import Simulation
    >>> pi_estimate(Simulation.of(785, 1000))[0]
    3.14
    """
    return (4 * record.estimate, 4 * record.ci_low, 4 * record.ci_high)


@dataclass(frozen=True)
class Darts(GameBase):
    """Darts on a grid: ``x`` then ``y``, each one of ``size`` cell centres across [-1, 1]; inside the circle wins.

    ``size`` (20 by default: 400 cells, exact variances in a fraction of a
    second) is even, so the centres pair off about 0 and about +-1/2 (the
    antithetic map). A coordinate is an exact ``Fraction``; a state is the
    tuple of the coordinates thrown so far.

    >>> game = Darts(4)
    >>> [str(x) for x, _ in game.chance_outcomes(game.start())]
    ['-3/4', '-1/4', '1/4', '3/4']
    >>> game.payoff((Fraction(-1, 4), Fraction(3, 4))), game.payoff((Fraction(3, 4), Fraction(3, 4)))
    ((1,), (0,))
    """

    size: int = 20
    num_players = 1
    _outcomes: tuple = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        if isinstance(self.size, bool) or not isinstance(self.size, int) or self.size < 2 or self.size % 2:
            raise ValueError(f"size must be an even whole number >= 2 (cells across the board), got {self.size!r}")
        share = Fraction(1, self.size)
        # the cell centres, worked out once per game: every chance node offers this one tuple
        object.__setattr__(self, "_outcomes", tuple((Fraction(2 * i + 1, self.size) - 1, share)
                                                    for i in range(self.size)))

    def start(self) -> tuple:
        """No coordinate yet: ``()``.

        >>> Darts().start()
        ()
        """
        return ()

    def to_move(self, state):
        """Chance until both coordinates are thrown, then ``None``.

        >>> Darts().to_move(()) is CHANCE, Darts().to_move((Fraction(1, 2), Fraction(1, 2)))
        (True, None)
        """
        return CHANCE if len(state) < 2 else None

    def possible_moves(self, state) -> tuple:
        """No player moves: only chance does.

        >>> Darts().possible_moves(())
        ()
        """
        return ()

    def chance_outcomes(self, state) -> tuple:
        """The ``size`` cell centres, each with probability ``1 / size``, until both coordinates are thrown.

        >>> Darts(2).chance_outcomes(())
        ((Fraction(-1, 2), Fraction(1, 2)), (Fraction(1, 2), Fraction(1, 2)))
        """
        return self._outcomes if len(state) < 2 else ()

    def play(self, state, move) -> tuple:
        """The coordinates so far and ``move``, checked to be a cell centre.

        >>> Darts(2).play((), Fraction(1, 2))
        (Fraction(1, 2),)
        """
        if len(state) >= 2 or not any(move == x for x, _ in self._outcomes):
            raise ValueError(f"a coordinate is one of the {self.size} cell centres while one is due, "
                             f"got {move!r} at {state!r}")
        return (*state, move)

    def payoff(self, state) -> tuple:
        """``(1,)`` inside the circle (``is_win``: ``x**2 + y**2 < 1``), ``(0,)`` outside.

        >>> Darts(2).payoff((Fraction(1, 2), Fraction(-1, 2)))
        (1,)
        """
        return (1 if is_win(state) else 0,)

    def pi_value(self) -> Fraction:
        """Four times the exact share of the grid's centres inside the circle: pi, to the grid's resolution.

        >>> float(Darts().pi_value()), float(Darts(100).pi_value())
        (3.16, 3.144)
        """
        inside = sum(1 for x, _ in self._outcomes for y, _ in self._outcomes if is_win((x, y)))
        return Fraction(4 * inside, self.size * self.size)

    # --- the Monte Carlo lab's hooks (fnmcts.lab): features of the throw, never the game's value ---

    def antithetic_outcome(self, state, outcome) -> Fraction:
        """The mirror image of a coordinate: ``x`` becomes ``sign(x) (1 - |x|)``, the far cell for the near one.

        A dart near the centre then pairs with one near the edge, so a pair's
        two results are negatively correlated. (The plain mirror ``-x`` would
        not help: the circle is symmetric, the pair would always agree.)

        >>> [str(Darts(4).antithetic_outcome((), x)) for x, _ in Darts(4).chance_outcomes(())]
        ['-1/4', '-3/4', '3/4', '1/4']
        """
        return (1 - outcome) if outcome > 0 else (-1 - outcome)

    def control_feature(self, state, outcome) -> float:
        """The lab's control feature: the coordinate squared (summed: the dart's squared distance from the centre).

        >>> Darts(4).control_feature((), Fraction(-3, 4))
        0.5625
        """
        return float(outcome) ** 2

    def strata(self, state) -> tuple:
        """The lab's strata at a throw: ``((probability, state after the coordinate), ...)``: the grid's columns.

        >>> [(str(p), s) for p, s in Darts(2).strata(())]
        [('1/2', (Fraction(-1, 2),)), ('1/2', (Fraction(1, 2),))]
        """
        return _chance_strata(self, state, "strata are the coordinates of a throw; {state!r} has both")

    def lab_batch(self, method: str, n: int, rng: random.Random) -> tuple:
        """The lab's batch throws in numpy arrays (``fnmcts.lab.batch_estimate``; the batch extra).

        ``'plain'``: ``(payoffs,)``; ``'antithetic'``: ``(first, second)`` of ``n // 2`` pairs, the
        second the mirror of the first; ``'control'``: ``(payoffs, control)``,
        the squared distance less its mean; ``'stratified'``: ``(payoffs,
        column)``, the columns dealt in turn. Hits are counted in whole numbers,
        as ``payoff`` counts them in fractions.

        >>> first, second = Darts(4).lab_batch("antithetic", 10, random.Random(1))
        >>> first.shape, second.shape
        ((5,), (5,))
        """
        from ._vector import generator, numpy

        np = numpy()
        g = generator(rng)
        size = self.size
        n = n // 2 if method == "antithetic" else n
        column = np.arange(n) % size if method == "stratified" else g.integers(0, size, n)
        row = g.integers(0, size, n)

        def hits(i, j):  # x = (2 i + 1 - size) / size: inside when the numerators' squares sum below size squared
            return (((2 * i + 1 - size) ** 2 + (2 * j + 1 - size) ** 2) < size * size).astype(float)

        payoffs = hits(column, row)
        if method == "plain":
            return (payoffs,)
        if method == "antithetic":
            half = size // 2

            def mirror(i):
                return np.where(i < half, half - 1 - i, 3 * half - 1 - i)

            return payoffs, hits(mirror(column), mirror(row))
        if method == "control":
            squares = ((2 * np.arange(size) + 1 - size) / size) ** 2
            return payoffs, squares[column] + squares[row] - 2 * squares.mean()
        if method == "stratified":
            return payoffs, column
        raise ValueError(f"method must be plain, antithetic, control or stratified, got {method!r}")
