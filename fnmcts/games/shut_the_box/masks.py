"""Shut the Box on bitmasks: a box as an integer, the moves of every box and roll as tables.

A box is a set of up levers; as a **mask**, bit ``lever - 1`` is set for every
lever up, so the boxes of ``n`` levers are the integers ``0 .. 2**n - 1`` and
a move only clears bits. The tables of a rule set (how many levers, the
simplified rules or not, the dice rule) are immutable tuples, built the first
time a game of that rule set asks for them and shared by every equal rule set
in the process (``rule_tables``, ``kernel_tables``): a fresh ``ShutTheBox``
costs nothing until it is used, and the second one nothing at all.

The kernels play random games on the tables with exactly the draws of the
generic ``fnmcts.matches.playout`` (a property test checks it).

>>> box_to_mask({1, 3}), sorted(mask_to_box(5))
(5, [1, 3])
>>> tables = rule_tables(3, False)
>>> [sorted(box) for box in tables.moves[0b111][3]], tables.children[0b111][3]
([[1, 2], [3]], (3, 4))
>>> rule_tables(3, False) is tables
True
"""

from __future__ import annotations

import random
from functools import lru_cache
from itertools import combinations
from types import MappingProxyType
from typing import NamedTuple

from ...rng import ROLL_OF_36

__all__ = [
    "box_to_mask",
    "mask_to_box",
    "all_boxes",
    "RuleTables",
    "rule_tables",
    "kernel_tables",
    "random_finish",
    "random_end",
    "count_wins",
]

MAX_LEVERS = 12
"""The largest box of the family: twelve levers."""


def box_to_mask(box) -> int:
    """Bit ``lever - 1`` set for every lever up.

    >>> box_to_mask({1, 3})
    5
    """
    mask = 0
    for lever in box:
        mask |= 1 << (lever - 1)
    return mask


def mask_to_box(mask: int) -> frozenset:
    """The box whose up levers are the set bits of ``mask``.

    >>> sorted(mask_to_box(5))
    [1, 3]
    """
    return frozenset(i + 1 for i in range(mask.bit_length()) if mask >> i & 1)


def all_boxes(levers: int = 9) -> tuple[frozenset, ...]:
    """All ``2 ** levers`` boxes, ordered by their bitmask (the rule set's own box objects).

    >>> len(all_boxes()), all_boxes()[:3] == (frozenset(), {1}, {2})
    (512, True)
    """
    return _boxes(levers)


@lru_cache(maxsize=32)
def _boxes(levers: int) -> tuple:
    return tuple(mask_to_box(m) for m in range(1 << levers))


def _flips(levers: int, simplified: bool, roll: int) -> tuple:
    """The masks of the lever sets a roll flips: fewest levers first, then by lever numbers.

    Under the simplified rules (task 4), the roll's own lever alone.

    >>> [sorted(mask_to_box(m)) for m in _flips(9, False, 6)], _flips(9, True, 6), _flips(9, False, 0)
    ([[6], [1, 5], [2, 4], [1, 2, 3]], (32,), (0,))
    """
    if simplified:
        return (1 << (roll - 1),) if 1 <= roll <= levers else ()
    return tuple(
        box_to_mask(c) for k in range(levers + 1) for c in combinations(range(1, levers + 1), k) if sum(c) == roll
    )


class RuleTables(NamedTuple):
    """The moves of every box and roll of one rule set, worked out once (``rule_tables``).

    ``boxes[mask]`` is the box of a mask and ``masks`` maps a box to its mask
    (a read-only map); ``children[mask][roll]`` holds the masks a roll (0 to 12)
    can leave and ``moves[mask][roll]`` the same boxes, both in the order of
    ``ordered_moves``: fewest levers flipped first, then by lever numbers.

    >>> tables = rule_tables(2, False)
    >>> tables.boxes, tables.masks[frozenset({1, 2})], tables.children[0b11][3], tables.moves[0b11][2]
    ((frozenset(), frozenset({1}), frozenset({2}), frozenset({1, 2})), 3, (0,), (frozenset({1}),))
    """

    boxes: tuple
    masks: MappingProxyType
    children: tuple
    moves: tuple


@lru_cache(maxsize=64)
def rule_tables(levers: int, simplified: bool) -> RuleTables:
    """The ``RuleTables`` of ``levers`` levers (the simplified rules or not): built once per process.

    >>> tables = rule_tables(4, True)
    >>> tables.children[0b1111][3], [sorted(box) for box in tables.moves[0b1111][3]]
    ((11,), [[1, 2, 4]])
    """
    boxes = _boxes(levers)
    flips = [_flips(levers, simplified, roll) for roll in range(13)]
    children = tuple(tuple(tuple(m ^ c for c in flips[r] if m & c == c) for r in range(13)) for m in range(1 << levers))
    moves = tuple(tuple(tuple(boxes[k] for k in kids) for kids in by_roll) for by_roll in children)
    return RuleTables(boxes, MappingProxyType({box: mask for mask, box in enumerate(boxes)}), children, moves)


def one_die_may_roll(mask: int, dice: str) -> bool:
    """Whether the dice rule lets the player roll one die at the box of ``mask`` (``one_die_allowed``).

    >>> one_die_may_roll(box_to_mask({1, 5}), "low-sum"), one_die_may_roll(box_to_mask({7}), "high-down")
    (True, False)
    """
    if not mask or dice == "two":
        return False
    if dice == "low-sum":
        return sum(i + 1 for i in range(mask.bit_length()) if mask >> i & 1) <= 6
    return mask < 1 << 6  # every lever above 6 down


@lru_cache(maxsize=64)
def kernel_tables(levers: int, simplified: bool, dice: str = "two") -> tuple:
    """``(moves36, moves6, choice)``: the random-play kernels' tables of a rule set, built once per process.

    ``moves36[mask * 36 + i]`` are the masks the ``i``-th of the 36 pairs of two
    dice can leave (in move order), ``moves6[mask * 6 + face - 1]`` those of one
    die, ``choice[mask]`` whether one die may be rolled there (both None under
    the dice rule ``'two'``).

    >>> moves36, moves6, choice = kernel_tables(3, False)
    >>> moves36[0b111 * 36 + 1], moves6, choice   # the second pair of dice, (1, 2): a roll of 3
    ((3, 4), None, None)
    """
    children = rule_tables(levers, simplified).children
    moves36 = tuple(by_roll[roll] for by_roll in children for roll in ROLL_OF_36)
    if dice == "two":
        return (moves36, None, None)
    moves6 = tuple(by_roll[face] for by_roll in children for face in range(1, 7))
    choice = tuple(one_die_may_roll(m, dice) for m in range(1 << levers))
    return (moves36, moves6, choice)


def random_finish(moves36: tuple, mask: int, rnd) -> bool:
    """Play one random game from ``mask`` on the kernel's table; True for a win.

    ``rnd`` is a bound ``rng.random``; the draws are those of ``play_game``
    (one per roll of the dice, one per choice among two or more moves).

    >>> table, rng = kernel_tables(4, False)[0], random.Random(1)
    >>> sum(random_finish(table, box_to_mask({1, 2, 3, 4}), rng.random) for _ in range(1_000))
    157
    >>> random_finish(table, 0, rng.random)  # the empty box: already won
    True
    """
    while mask:
        nxt = moves36[mask * 36 + int(rnd() * 36)]
        k = len(nxt)
        if not k:
            return False
        mask = nxt[0] if k == 1 else nxt[int(rnd() * k)]
    return True


def count_wins(moves36: tuple, mask: int, n: int, rng: random.Random) -> int:
    """Wins in ``n`` random games from ``mask`` (the kernel behind ``simulate`` of the tutorial's dice).

    >>> count_wins(kernel_tables(4, False)[0], 0b1111, 1_000, random.Random(1))
    157
    """
    rnd = rng.random
    return sum(1 for _ in range(n) if random_finish(moves36, mask, rnd))


def random_end(tables: tuple, mask: int, rnd) -> int:
    """The box mask a random game from ``mask`` ends at, under any dice rule (``kernel_tables``).

    Where one die may be rolled the player picks two dice (a draw below 1/2)
    or one, as ``random_agent`` picks among the moves ``(2, 1)``; then the dice
    roll and the levers are chosen as in ``random_finish``. The draws are
    those of the generic playout.

    >>> sorted(mask_to_box(random_end(kernel_tables(4, False, "low-sum"), 0b1111, random.Random(3).random)))
    [1, 4]
    """
    moves36, moves6, choice = tables
    while mask:
        if choice is not None and choice[mask] and int(rnd() * 2):
            nxt = moves6[mask * 6 + int(rnd() * 6)]
        else:
            nxt = moves36[mask * 36 + int(rnd() * 36)]
        k = len(nxt)
        if not k:
            return mask
        mask = nxt[0] if k == 1 else nxt[int(rnd() * k)]
    return 0
