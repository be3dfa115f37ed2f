"""Random play of many Shut the Box games at once, in numpy arrays: the batch path of ``simulate``.

``random_payoffs(game, box, n, rng)`` plays ``n`` games of random play from
``box`` side by side, one round of every game still going at a time: roll the
dice (one die or two where the rule lets the player choose, each with
probability 1/2, as ``random_agent`` chooses), look up the flips that roll
allows, take one uniformly, and stop a game whose roll allows none. The
payoffs follow the game in distribution, not draw for draw: the draws come from
a numpy generator seeded by one draw of ``rng``, so the same ``rng`` gives the
same payoffs. The tables (for every box mask and roll, the masks a flip
leaves) are made once per rule set, from the rules' own move tables
(``masks.rule_tables``), and shared by equal rule sets.

>>> import random
>>> from fnmcts.games.shut_the_box import ShutTheBox
>>> payoffs = ShutTheBox().random_batch(frozenset(range(1, 10)), 100_000, random.Random(1))
>>> payoffs.shape, bool(0.018 < payoffs.mean() < 0.023)  # random play wins 0.0203... of games
((100000,), True)

Needs numpy (the ``batch`` extra: ``pip install 'fnmcts[batch]'``).
"""

from __future__ import annotations

from functools import lru_cache

from .._vector import generator as _generator
from .._vector import numpy as _numpy
from .masks import mask_to_box, one_die_may_roll, rule_tables

__all__ = ["random_payoffs", "tables", "lab_payoffs"]


@lru_cache(maxsize=16)
def tables(game) -> tuple:
    """``(slots, count, start, kids, pay)`` of ``game``'s rule set: one turn of random play as read-only numpy arrays.

    A game is a number ``s``: a box mask while the game goes on, the mask plus
    ``2 ** levers`` once it has ended there (a roll no flip adds up to), and 0 for
    a shut box. A turn draws one of ``slots`` equally likely dice slots (the 36
    pairs of two dice; under a rule with a choice, 36 more for one die, each face
    six times, so each choice has probability 1/2) and then one of the
    ``count[s * slots + slot]`` flips that roll allows, uniformly: the next number is
    ``kids[start[s * slots + slot] + k]``. An ended or shut game stays where it is
    (one way, to itself). ``pay[s % 2 ** levers]`` is the payoff of a game that ends at ``s``.
    Equal game values are one rule set: the tables are made once for them.

    >>> from fnmcts.games.shut_the_box import ShutTheBox
    >>> slots, count, start, kids, pay = tables(ShutTheBox(levers=3))
    >>> slot = 0b111 * slots + 8  # the pair (2, 3): a roll of 5
    >>> int(count[slot]), sorted(int(k) for k in kids[start[slot]:start[slot] + count[slot]]), float(pay[0])
    (1, [1], 1.0)
    """
    np = _numpy()
    from ...rng import ROLL_OF_36

    masks = rule_tables(game.levers, game.simplified).children
    size = 1 << game.levers
    choice = [one_die_may_roll(m, game.dice) for m in range(size)]
    pay = [game._payoff_of(mask_to_box(m)) for m in range(size)]
    rolls = list(ROLL_OF_36)
    if any(choice):
        rolls += [1 + j % 6 for j in range(36)]  # one die: each face six times among 36 slots
    slots = len(rolls)
    count, start, kids = [], [], []
    for s in range(2 * size):
        mask = s if s < size else None
        for slot, roll in enumerate(rolls):
            if mask is None or mask == 0:  # ended or shut: stays
                ways = (s,)
            else:
                if slot >= 36 and not choice[mask]:
                    roll = rolls[slot - 36]  # no choice here: the same 36 pairs again
                ways = masks[mask][roll] or (mask + size,)
            start.append(len(kids))
            count.append(len(ways))
            kids.extend(ways)
    arrays = (np.array(count, dtype=np.int32), np.array(start, dtype=np.int32), np.array(kids, dtype=np.int32),
              np.array(pay, dtype=np.float64))
    for array in arrays:
        array.flags.writeable = False  # shared by every game of the rule set: never changed
    return (slots,) + arrays


def random_payoffs(game, mask: int, n: int, rng):
    """The payoffs of ``n`` games of random play from box ``mask`` (a numpy array of floats), drawn from ``rng``.

    >>> import random
    >>> from fnmcts.games.shut_the_box import ShutTheBox
    >>> payoffs = random_payoffs(ShutTheBox(scoring="sum"), 0b11, 1_000, random.Random(3))
    >>> sorted(set(payoffs.tolist()))
    [-3.0, -1.0, 0.0]
    """
    np = _numpy()
    slots, count, start, kids, pay = tables(game)
    size = pay.size
    generator = _generator(rng)
    state = np.full(n, mask, dtype=np.int32)
    for _ in range(game.levers + 1):  # every turn flips a lever or ends the game
        if not ((state > 0) & (state < size)).any():
            break
        pick = generator.random(n) * slots
        slot = pick.astype(np.int32)
        at = state * slots + slot
        ways = count[at]
        state = kids[start[at] + ((pick - slot) * ways).astype(np.int32)]
    return pay[state % size]


@lru_cache(maxsize=16)
def _increments(game):
    """The lab's control increment at every ``(s, slot)``: the control feature less its mean over the slots of ``s``.

    The feature is ``ShutTheBox.control_feature`` of box ``s`` and the slot's
    roll; 0 once the game has ended (or the box is shut), so a finished game's
    control stays put.
    """
    np = _numpy()
    slots, count, start, kids, pay = tables(game)
    size = pay.size
    feature = np.zeros((2 * size, slots))
    for s in range(1, size):
        value = 1.0 / (1 + sum(mask_to_box(s)))
        for slot in range(slots):
            feature[s, slot] = value if kids[start[s * slots + slot]] != s + size else 0.0
    # float32: the table stays in the processor's cache (half the bytes), which makes the look-up per turn about a
    # third cheaper; a rounding of 1e-7 of an increment is far below any interval the lab reports
    increments = (feature - feature.mean(axis=1, keepdims=True)).ravel().astype(np.float32)
    increments.flags.writeable = False
    return increments


def _turns(game, state, slot_of, move_of, control=None):
    """Random play of every game in ``state`` to its end: the slot and the move drawn per turn by the callables."""
    np = _numpy()
    slots, count, start, kids, pay = tables(game)
    size = pay.size
    if control is not None:
        increments = _increments(game)
    for turn in range(game.levers + 1):
        active = (state > 0) & (state < size)
        if not active.any():
            break
        at = state * slots + slot_of(turn)
        if control is not None:
            control += increments[at]  # 0 for a finished game
        state = kids[start[at] + (move_of(turn) * count[at]).astype(np.int32)]
    return pay[state % size]


def lab_payoffs(game, method: str, mask: int, n: int, rng) -> tuple:
    """The lab's batch games from box ``mask``: arrays of payoffs by ``method`` (``fnmcts.lab.batch_estimate``).

    ``'plain'``: ``(payoffs,)``; ``'antithetic'``: ``(first, second)`` of
    ``n // 2`` pairs, the second game's k-th roll the mirror of the first's
    (slot ``35 - j``: each die's face ``k`` becomes ``7 - k``), its moves its
    own; ``'control'``: ``(payoffs, control)`` with the martingale control of
    ``ShutTheBox.control_feature``; ``'stratified'``: ``(payoffs, first slot)``,
    the first roll's 36 equally likely slots dealt in turn (proportional
    allocation). Under the tutorial's dice rule only: ``None`` (drawing nothing)
    under a rule that lets the player roll one die.

    >>> import random
    >>> from fnmcts.games.shut_the_box import ShutTheBox
    >>> first, second = lab_payoffs(ShutTheBox(levers=2), "antithetic", 0b11, 6, random.Random(1))
    >>> first.shape, second.shape
    ((3,), (3,))
    """
    np = _numpy()
    slots = tables(game)[0]
    if slots != 36:  # the lab's batch path plays the tutorial's dice rule (two dice) only: nothing drawn
        return None
    generator = _generator(rng)

    def fresh(size):
        return lambda turn: generator.random(size)

    def split(size, keep):
        def slot_of(turn):
            pick = generator.random(size) * slots
            keep[0] = pick - pick.astype(np.int32)  # the rest of the draw picks the move: independent of the slot
            keep[1] = pick.astype(np.int32)
            return keep[1]

        return slot_of, lambda turn: keep[0]

    if method in ("plain", "control"):
        keep = [None, None]
        slot_of, move_of = split(n, keep)
        control = np.zeros(n) if method == "control" else None
        payoffs = _turns(game, np.full(n, mask, dtype=np.int32), slot_of, move_of, control)
        return (payoffs,) if control is None else (payoffs, control)
    if method == "antithetic":
        pairs, keep = n // 2, [None, None]
        slot_of, move_of = split(pairs, keep)
        slots_seen = []
        first = _turns(game, np.full(pairs, mask, dtype=np.int32),
                       lambda t: slots_seen.append(slot_of(t)) or slots_seen[-1], move_of)
        second = _turns(game, np.full(pairs, mask, dtype=np.int32),
                        lambda t: (slots - 1 - slots_seen[t]) if t < len(slots_seen)
                        else (generator.random(pairs) * slots).astype(np.int32), fresh(pairs))
        return first, second
    if method == "stratified":
        strata = np.arange(n, dtype=np.int32) % slots
        keep = [None, None]
        slot_of, move_of = split(n, keep)
        payoffs = _turns(game, np.full(n, mask, dtype=np.int32),
                         lambda t: strata if t == 0 else slot_of(t), lambda t: generator.random(n) if t == 0 else
                         move_of(t))
        return payoffs, strata
    raise ValueError(f"method must be plain, antithetic, control or stratified, got {method!r}")
