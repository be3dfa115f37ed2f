"""Explicit randomness: seeds, child seeds, dice and uniform picks.

Every function in fnmcts that draws takes an ``rng`` (a ``random.Random``) and
consumes it; entry points take a ``seed``. Nothing touches the global ``random``
module. A uniform choice among moves is ``pick(rng, moves)``: one
``rng.random()``, the same draw wherever it is made.

>>> rng = make_rng(7)
>>> [dice_roll(rng) for _ in range(5)]
[6, 4, 8, 3, 7]
>>> child_seed(7, 0) == child_seed(7, 0) != child_seed(7, 1)
True
"""

from __future__ import annotations

import hashlib
import random
from bisect import bisect_right
from fractions import Fraction

from toolz import frequencies

__all__ = [
    "make_rng",
    "child_seed",
    "child_rng",
    "check_seed",
    "resolve_seed",
    "check_rng",
    "ROLL_OF_36",
    "DICE_PROBABILITIES",
    "dice_roll",
    "pick",
    "pick_cumulative",
]


def check_seed(seed) -> int | None:
    """Return ``seed`` if it is ``None`` or a non-negative int, else raise.

    >>> check_seed(7), check_seed(None)
    (7, None)
    >>> check_seed(-1)
    Traceback (most recent call last):
    ...
    ValueError: seed must be non-negative, got -1
    """
    if seed is None:
        return None
    if isinstance(seed, random.Random):  # a generator where a number goes: say which is which
        raise TypeError("seed must be an int or None, got a random.Random: a seed is a number (seed=1), "
                        "and a generator goes where a function takes rng")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be an int or None, got {type(seed).__name__}: {seed!r}")
    if seed < 0:
        raise ValueError(f"seed must be non-negative, got {seed}")
    return seed


def check_rng(rng) -> random.Random:
    """``rng`` if it is a ``random.Random``, else a ``TypeError`` that says so.

    >>> check_rng(None)
    Traceback (most recent call last):
    ...
    TypeError: rng must be a random.Random (e.g. fnmcts.rng.make_rng(seed)), got NoneType
    """
    if isinstance(rng, int) and not isinstance(rng, bool):  # a seed where a generator goes: the one it makes
        raise TypeError(f"rng must be a random.Random, got the int {rng}: make one from that seed, "
                        f"fnmcts.rng.make_rng({rng})")
    if not isinstance(rng, random.Random):
        raise TypeError(f"rng must be a random.Random (e.g. fnmcts.rng.make_rng(seed)), got {type(rng).__name__}")
    return rng


def resolve_seed(seed=None, rng=None) -> int:
    """The one seed a run derives everything from: ``seed``, or drawn from ``rng``.

    With neither, a fresh seed from the operating system (the run is then
    reproducible from the seed it reports). Giving both is an error.

    >>> resolve_seed(7)
    7
    >>> resolve_seed(rng=random.Random(1)) == resolve_seed(rng=random.Random(1))
    True
    """
    if seed is not None and rng is not None:
        raise ValueError("give a seed or an rng, not both")
    if rng is not None:
        return check_rng(rng).getrandbits(63)
    if seed is None:
        return random.SystemRandom().getrandbits(63)
    return check_seed(seed)


def make_rng(seed=None, rng=None) -> random.Random:
    """A ``random.Random`` from ``rng`` (returned as is) or from ``seed``.

    With neither, the generator is seeded from the operating system: a fresh,
    irreproducible run. Never the global ``random`` module.

    >>> make_rng(3).random() == make_rng(3).random()
    True
    """
    if rng is not None:
        return check_rng(rng)
    return random.Random(check_seed(seed))


def child_seed(seed: int, index: int) -> int:
    """The seed of the ``index``-th independent child stream of ``seed``.

    Parallel work derives one child seed per fixed-size chunk of trials, so the
    result depends on the seed alone, never on the number of workers.

    >>> child_seed(1, 2)
    1869281397791206462
    >>> child_seed("a", 0)
    Traceback (most recent call last):
    ...
    TypeError: seed must be an int or None, got str: 'a'
    """
    if seed is None:
        raise TypeError("seed must be an int, got None (a child stream needs its parent's seed)")
    check_seed(seed)
    if isinstance(index, bool) or not isinstance(index, int):
        raise TypeError(f"index must be an int, got {type(index).__name__}: {index!r}")
    if index < 0:
        raise ValueError(f"index must be non-negative, got {index}")
    digest = hashlib.blake2b(f"fnmcts/{seed}/{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def child_rng(seed: int, index: int) -> random.Random:
    """A ``random.Random`` for the ``index``-th child stream of ``seed``.

    >>> child_rng(7, 0).random() == make_rng(child_seed(7, 0)).random() != child_rng(7, 1).random()
    True
    """
    return random.Random(child_seed(seed, index))


ROLL_OF_36 = tuple(sorted(a + b for a in range(1, 7) for b in range(1, 7)))
"""The sums of the 36 equally likely (die 1, die 2) pairs, in increasing order.

Sorted, so that ``ROLL_OF_36[int(u * 36)]`` is exactly the outcome that the
generic chance sampler (cumulative weights over 36ths) draws for the same ``u``.
"""

DICE_PROBABILITIES = tuple(
    (total, Fraction(ways, 36)) for total, ways in sorted(frequencies(ROLL_OF_36).items())
)
"""``((2, 1/36), (3, 2/36), ..., (12, 1/36))``: the sums of two dice."""


def dice_roll(rng: random.Random) -> int:
    """Roll two six-sided dice and return their sum, consuming one ``rng.random()``.

    One uniform draw picks one of the 36 equally likely (die 1, die 2) pairs.

    >>> dice_roll(make_rng(1))
    4
    """
    return pick(rng, ROLL_OF_36)


def pick(rng: random.Random, seq):
    """One item of ``seq`` uniformly at random, consuming exactly one ``rng.random()``.

    The item at ``int(rng.random() * len(seq))``: every uniform choice in
    fnmcts draws this way, so the same seed picks the same items wherever the
    choice is made. It draws even when ``seq`` has one item; a caller whose
    forced moves draw nothing writes ``seq[0] if len(seq) == 1 else pick(rng, seq)``.

    >>> rng = make_rng(1)
    >>> [pick(rng, "abcde") for _ in range(6)]
    ['a', 'e', 'd', 'b', 'c', 'c']
    >>> pick(rng, [])
    Traceback (most recent call last):
    ...
    ValueError: pick needs a sequence with at least one item, got []
    """
    n = len(seq)
    if not n:
        raise ValueError(f"pick needs a sequence with at least one item, got {seq!r}")
    return seq[int(rng.random() * n)]


def pick_cumulative(rng: random.Random, cumulative, total):
    """The index of a weighted draw on a cumulative table, consuming exactly one ``rng.random()``.

    ``bisect_right(cumulative, rng.random() * total)``: ``cumulative`` holds the
    running sums of the weights and ``total`` their sum (for a chance node, the
    numerators over the common denominator ``total``). Every weighted draw of
    fnmcts (a chance outcome from its table) is this one, so the same seed
    draws the same outcomes wherever it is made.

    >>> rng = make_rng(1)
    >>> [pick_cumulative(rng, (1, 3, 6), 6) for _ in range(6)]
    [0, 2, 2, 1, 1, 1]
    """
    return bisect_right(cumulative, rng.random() * total)
