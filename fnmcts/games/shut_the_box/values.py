"""Exact values of Shut the Box on box masks: every box, every roll, in one pass.

The same values as ``fnmcts.exact.solve`` and ``evaluate_policy`` (a property
test checks every rule), without the protocol's states: one pass over the box
masks in increasing order (a move only clears bits), in integers scaled by one
common denominator, so every comparison and sum is exact and cheap.

>>> from .rules import ShutTheBox, start_box
>>> from .masks import box_to_mask
>>> box_values(ShutTheBox())[box_to_mask(start_box)]
Fraction(466473281, 6530347008)
"""

from __future__ import annotations

from fractions import Fraction
from math import lcm

from ...rng import ROLL_OF_36
from ...values import fixed_pmap
from .masks import box_to_mask, mask_to_box, one_die_may_roll, rule_tables

__all__ = ["box_values", "exact_tree"]

_TWO_DICE_WAYS = tuple(sum(1 for roll in ROLL_OF_36 if roll == r) for r in range(13))
"""``_TWO_DICE_WAYS[r]``: in how many of the 36 pairs two dice add up to ``r``."""


def _children(game) -> tuple:
    """``children[mask][roll]``: the box masks a roll of ``roll`` (0 to 12) can leave, in move order."""
    return rule_tables(game.levers, game.simplified).children


def _mask_rules(game) -> tuple:
    """``(choice, pay)`` per box mask: may one die be rolled there, and its payoff when the game ends there."""
    boxes = rule_tables(game.levers, game.simplified).boxes
    return (
        tuple(one_die_may_roll(m, game.dice) for m in range(len(boxes))),
        tuple(game._payoff_of(box) for box in boxes),
    )


def _scaled_values(game, policy: str) -> tuple:
    """``(scale, box, rolled)``: every value times ``scale``, as integers.

    ``box[mask]`` is the value of the box (before the dice, or the dice
    choice); ``rolled[mask][r]`` the value of the box after a roll of ``r``
    (``None`` for a roll that cannot happen there); ``rolled[mask][0]`` holds
    ``(two dice, one die)``, the values of the choice's two moves, where there
    is one.
    """
    if policy not in ("optimal", "random"):
        raise ValueError(f"policy must be 'optimal' or 'random', got {policy!r}")
    children = _children(game)
    choice, pay = _mask_rules(game)
    per_turn = 36
    if policy == "random":
        counts = {len(kids) for by_roll in children for kids in by_roll if kids}
        per_turn = 72 * lcm(1, *counts)
    scale = per_turn ** game.levers
    best = policy == "optimal"
    box = [0] * len(children)
    rolled = [None] * len(children)
    box[0] = pay[0] * scale
    for m in range(1, len(children)):
        stuck = pay[m] * scale
        by_roll = children[m]
        after = [None] * 13
        for r in range(1 if choice[m] else 2, 13):
            kids = by_roll[r]
            if not kids:
                after[r] = stuck
            elif len(kids) == 1:
                after[r] = box[kids[0]]
            elif best:
                after[r] = max(box[k] for k in kids)
            else:
                after[r] = sum(box[k] for k in kids) // len(kids)
        two = sum(_TWO_DICE_WAYS[r] * after[r] for r in range(2, 13)) // 36
        if choice[m]:
            one = sum(after[1:7]) // 6
            after[0] = (two, one)
            box[m] = max(two, one) if best else (two + one) // 2
        else:
            box[m] = two
        rolled[m] = after
    return scale, box, rolled


def box_values(game, policy: str = "optimal") -> tuple:
    """The exact value of every box of ``game`` (a ``ShutTheBox``), indexed by its bitmask.

    ``policy``: ``'optimal'`` (best play) or ``'random'`` (every choice uniformly
    at random, the dice choice too). The values of ``fnmcts.exact.solve`` and
    ``evaluate_policy(game, random_policy)`` at the boxes, computed on bitmasks:
    a twelve-lever box in well under a second.

    >>> from .rules import ShutTheBox, start_box
    >>> values = box_values(ShutTheBox())
    >>> values[box_to_mask(start_box)]
    Fraction(466473281, 6530347008)
    >>> box_values(ShutTheBox(levers=2, scoring="sum"), "random")[0b11]
    Fraction(-25, 9)
    """
    scale, box, _ = _scaled_values(game, policy)
    return tuple(Fraction(n, scale) for n in box)


def exact_tree(game, rolls: bool = True) -> dict:
    """Every state of every box of ``game`` with its exact value under optimal play.

    A dict ``state -> Fraction``: the boxes, the boxes after each roll that can
    happen there (``pmap(box=..., roll=...)``; left out when ``rolls`` is
    False) and, where one die is allowed, the dice choice's states
    (``pmap(box=..., dice=k)``). The same values as
    ``fnmcts.exact.solve(game, *all_boxes(game.levers))`` (a property test
    checks it), from ``box_values``' pass over the masks.

    >>> from pyrsistent import pmap
    >>> from .rules import ShutTheBox
    >>> tree = exact_tree(ShutTheBox(levers=3))
    >>> len(tree), tree[frozenset({1, 2})], tree[pmap({"box": frozenset({1, 2}), "roll": 3})]
    (85, Fraction(1, 18), Fraction(1, 1))
    """
    scale, box, rolled = _scaled_values(game, "optimal")
    boxes = [mask_to_box(m) for m in range(len(box))]
    tree = {boxes[m]: Fraction(n, scale) for m, n in enumerate(box)}
    for m in range(1, len(box)):
        after, b = rolled[m], boxes[m]
        for r in range(1, 13) if rolls else ():
            if after[r] is not None:
                tree[fixed_pmap({"box": b, "roll": r})] = Fraction(after[r], scale)
        if after[0] is not None:
            two, one = after[0]
            tree[fixed_pmap({"box": b, "dice": 2})] = Fraction(two, scale)
            tree[fixed_pmap({"box": b, "dice": 1})] = Fraction(one, scale)
    return tree


def count_states(game, box) -> int:
    """How many states play can reach from ``box`` (``box`` included): what ``solve(game, box)`` values.

    >>> from .rules import ShutTheBox
    >>> count_states(ShutTheBox(simplified=True), ShutTheBox(simplified=True).start())
    3061
    """
    children = _children(game)
    choice, _ = _mask_rules(game)
    seen, todo, states = set(), [box_to_mask(game.check_state(box))], 0
    while todo:
        m = todo.pop()
        if m in seen:
            continue
        seen.add(m)
        states += 1
        if not m:
            continue
        rolls = range(1 if choice[m] else 2, 13)
        states += len(rolls) + (2 if choice[m] else 0)
        todo.extend(k for r in rolls for k in children[m][r])
    return states
