"""The rules of Shut the Box, as in the tutorial (tasks 2-8): the box, the dice, the moves.

A box is the frozenset of levers still up. Each turn two dice are rolled; the
player flips down levers that add up to the roll (under the simplified rules of
task 4, exactly the lever showing the roll). No possible move: a loss. An empty
box: a win.

>>> sorted(sample_box)
[2, 4, 5, 7, 8, 9]
>>> possible_moves(sample_box, 9, simplified=True) == {frozenset({2, 4, 5, 7, 8})}
True
>>> possible_moves(sample_box, 3, simplified=True)
frozenset()
>>> sorted(sorted(start_box - m) for m in possible_moves(start_box, 6))
[[1, 2, 3], [1, 5], [2, 4], [6]]
>>> play_game(frozenset({7}), make_rng(9))
'win'

The game value ``ShutTheBox`` puts the same rules behind the game protocol:
states are a box (before the roll, a chance node) or a ``pmap`` with the box
and the roll (the player's decision). A move is the box it leads to, as in the
tutorial.

>>> game = ShutTheBox()
>>> state = game.play(game.start(), 4)
>>> state == pmap({"box": start_box, "roll": 4})
True
>>> [game.describe_move(state, m) for m in game.possible_moves(state)]
['flip 4', 'flip 1 3']
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from itertools import combinations

from pyrsistent import PMap, pmap

from ...protocol import CHANCE, GameBase
from ...values import fixed_pmap
from ...rng import DICE_PROBABILITIES, ROLL_OF_36, check_rng, dice_roll, make_rng

__all__ = [
    "WIN",
    "LOSS",
    "LEVERS",
    "start_box",
    "simplified_start_box",
    "sample_box",
    "easy_box",
    "dice_roll",
    "is_win",
    "power",
    "lever_combinations",
    "levers_for_roll",
    "possible_moves",
    "ordered_moves",
    "play_game",
    "all_boxes",
    "box_to_mask",
    "mask_to_box",
    "random_finish",
    "ShutTheBox",
    "make_rng",
    "play_game_steps",
    "render_box",
    "flipped_levers",
    "parse_choice",
    "format_choices",
]

WIN = "win"
LOSS = "loss"
LEVERS = tuple(range(1, 10))
start_box = frozenset(LEVERS)
"""All nine levers up: the start of the full game."""
simplified_start_box = start_box - {1}
"""The simplified game starts with lever 1 down (two dice never roll a 1)."""
sample_box = start_box - {1, 3, 6}
"""The tutorial's sample: levers 1, 3 and 6 already down."""
easy_box = frozenset({7})
"""One lever left: wins come up about one game in six."""


def is_win(box) -> bool:
    """The tutorial's ``win?``: a box is won when every lever is down.

    >>> is_win(frozenset()), is_win(easy_box)
    (True, False)
    """
    return not box


def power(levers) -> tuple[tuple[int, ...], ...]:
    """Every subset of ``levers`` (the power set), smallest first.

    >>> power([1, 2, 3])
    ((), (1,), (2,), (3,), (1, 2), (1, 3), (2, 3), (1, 2, 3))
    """
    levers = tuple(levers)
    return tuple(c for k in range(len(levers) + 1) for c in combinations(levers, k))


def _combinations_for(levers: int) -> tuple:
    subsets = power(range(1, levers + 1))
    top = 2 * 6
    return tuple(tuple(s for s in subsets if sum(s) == roll) for roll in range(top + 1))


_LEVER_COMBINATIONS = tuple(_combinations_for(n) for n in range(13))
"""``_LEVER_COMBINATIONS[n][roll]``: the lever sets of a box of ``n`` levers adding up to ``roll``."""


def _lever_combinations(levers: int) -> tuple:
    return _LEVER_COMBINATIONS[levers]


lever_combinations = _lever_combinations(9)
"""``lever_combinations[roll]``: the sets of levers (tuples) that add up to ``roll``.

Precomputed once, as the tutorial advises, instead of filtering the power set
at every move.

>>> lever_combinations[6]
((6,), (1, 5), (2, 4), (1, 2, 3))
"""


def levers_for_roll(roll: int, levers: int = 9) -> tuple[tuple[int, ...], ...]:
    """The sets of levers in ``1..levers`` adding up to ``roll`` (fewest first).

    >>> levers_for_roll(6), levers_for_roll(6, levers=4), levers_for_roll(13)
    (((6,), (1, 5), (2, 4), (1, 2, 3)), ((2, 4), (1, 2, 3)), ())
    """
    table = _lever_combinations(levers)
    return table[roll] if 0 <= roll < len(table) else ()


def _check_box(box, levers: int = 9) -> frozenset:
    """``box`` as a frozenset, or a clear error naming what is wrong with it."""
    if not isinstance(box, (frozenset, set)):
        raise TypeError(f"a box is a set of up levers, got {type(box).__name__}: {box!r}")
    bad = [lever for lever in box if isinstance(lever, bool) or not isinstance(lever, int) or not 1 <= lever <= levers]
    if bad:
        raise ValueError(f"levers are whole numbers from 1 to {levers}, got {bad[0]!r} in {set(box)!r}")
    return frozenset(box)


def ordered_moves(box, roll: int, simplified: bool = False, levers: int = 9) -> tuple:
    """The boxes reachable from ``box`` with ``roll``, in the stable protocol order.

    The order is that of the levers flipped: fewest levers first, then by lever
    numbers (so a roll of 6 lists: 6; 1+5; 2+4; 1+2+3).

    >>> [sorted(start_box - m) for m in ordered_moves(start_box, 5)]
    [[5], [1, 4], [2, 3]]
    """
    if simplified:
        return (box - {roll},) if roll in box else ()
    return tuple(box.difference(c) for c in levers_for_roll(roll, levers) if box.issuperset(c))


def possible_moves(box, roll: int, simplified: bool = False) -> frozenset:
    """The tutorial's ``possible-moves``: the set of boxes the player can reach.

    Under the simplified rules (task 4) the set holds one box (the roll's lever
    flipped down) or is empty (a loss); under the full rules (task 8) it holds
    every box reachable by flipping up levers that add up to the roll.

    >>> possible_moves(frozenset({2, 3}), 5) == {frozenset()}
    True
    """
    return frozenset(ordered_moves(_check_box(box), roll, simplified))


def play_game(box, rng: random.Random, simplified: bool = False) -> str:
    """Play one game from ``box`` with random choices; return ``'win'`` or ``'loss'``.

    Consumes ``rng``: one draw per dice roll, and one more per choice among two
    or more moves (a forced move draws nothing).

    >>> play_game(simplified_start_box, make_rng(0), simplified=True)
    'loss'
    """
    box = _check_box(box)
    check_rng(rng)
    while box:
        moves = ordered_moves(box, dice_roll(rng), simplified)
        if not moves:
            return LOSS
        box = moves[0] if len(moves) == 1 else moves[int(rng.random() * len(moves))]
    return WIN


def all_boxes(levers: int = 9) -> tuple[frozenset, ...]:
    """All ``2 ** levers`` boxes, ordered by their bitmask.

    >>> len(all_boxes()), all_boxes()[:3] == (frozenset(), {1}, {2})
    (512, True)
    """
    return tuple(mask_to_box(m) for m in range(1 << levers))


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


# -- the fast kernel ---------------------------------------------------------------
# Bitmask boxes and a table of next boxes per (box, index into the 36 dice pairs),
# in exactly the order of ``ordered_moves``: the kernel consumes the rng draw for
# draw like ``play_game`` and so returns the same results (a property test checks).


def _moves36(levers: int, simplified: bool) -> tuple:
    table = []
    for mask in range(1 << levers):
        box = mask_to_box(mask)
        by_roll = {
            roll: tuple(box_to_mask(m) for m in ordered_moves(box, roll, simplified, levers))
            for roll in set(ROLL_OF_36)
        }
        table.extend(by_roll[roll] for roll in ROLL_OF_36)
    return tuple(table)


def random_finish(moves36: tuple, mask: int, rnd) -> bool:
    """Play one random game from ``mask`` on the kernel's table; True for a win.

    ``rnd`` is a bound ``rng.random``; the draws are those of ``play_game``.

    >>> import random
    >>> table, rng = ShutTheBox(levers=4).kernel_table(), random.Random(1)
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


def _search_dives(moves36, counts, root, n, rng, rule, constant) -> None:
    """``n`` dives of the search engine on box masks: ``counts`` maps mask -> ``[wins, losses]``.

    The engine's descent for this game, with its mean backup, no solver and a
    built-in rule (``'ucb'`` with ``z`` or ``'ucb1'`` with ``c``): the same draws
    and the same counts (a property test checks it against ``fnmcts.mcts.search``
    on the game's compiled graph).

    >>> import random
    >>> counts = {}
    >>> _search_dives(ShutTheBox(levers=3).kernel_table(), counts, 0b111, 5, random.Random(1), "ucb", 2)
    >>> counts[0b111]
    [0, 5]
    """
    from math import inf, log, sqrt

    rnd = rng.random
    tutorial = rule == "ucb"
    for _ in range(n):
        m = root
        path = [m]
        while True:
            rec = counts.get(m)
            if rec is None:
                won = random_finish(moves36, m, rnd)
                break
            if not m:
                won = True
                break
            kids = moves36[m * 36 + int(rnd() * 36)]
            if not kids:
                won = False
                break
            if len(kids) == 1:
                m = kids[0]
            else:
                best, best_rating = -1, -inf
                parent = rec[0] + rec[1]
                lp = 0.0 if tutorial else log(parent)
                for kid in kids:
                    c = counts.get(kid)
                    if c is None or not c[0] + c[1]:
                        best = kid
                        break
                    w = c[0]
                    k = w + c[1]
                    if tutorial:
                        r = 3 / k if not w else (w + constant * sqrt(w * (k - w) / k)) / k
                    else:
                        r = w / k + constant * sqrt(lp / k)
                    if r > best_rating:
                        best, best_rating = kid, r
                m = best
            path.append(m)
        i = 0 if won else 1
        for node in path:
            rec = counts.get(node)
            if rec is None:
                counts[node] = rec = [0, 0]
            rec[i] += 1


def _count_wins(mask: int, n: int, rng: random.Random, moves36: tuple) -> int:
    """Wins in ``n`` random-play games from ``mask`` (the kernel behind ``simulate``).

    The loop of ``random_finish``, written out: it is the hot path of ``simulate``.
    """
    rnd = rng.random
    wins = 0
    for _ in range(n):
        m = mask
        while m:
            nxt = moves36[m * 36 + int(rnd() * 36)]
            k = len(nxt)
            if not k:
                break
            m = nxt[0] if k == 1 else nxt[int(rnd() * k)]
        else:
            wins += 1
    return wins


# -- the game value -----------------------------------------------------------------


def _only_keys(data: dict, keys: tuple, what: str) -> None:
    """Refuse a key of ``data`` outside ``keys``, naming it."""
    unknown = sorted(map(str, set(data) - set(keys)))
    if unknown:
        raise ValueError(f"{what} has no {', '.join(map(repr, unknown))}: its keys are {', '.join(keys)}")


@dataclass(frozen=True)
class ShutTheBox(GameBase):
    """Shut the Box as a one-player game with dice (chance) nodes.

    ``levers``: how many levers (9 in the tutorial); ``simplified``: the rules of
    task 4 (flip the roll's lever or lose; lever 1 starts down).

    A state is a box (the frozenset of levers up), where the dice roll next, or
    a box with its roll, where the player flips levers; a move is the box left.

    >>> game = ShutTheBox(levers=4)
    >>> box = game.start()
    >>> sorted(box), game.to_move(box)
    ([1, 2, 3, 4], CHANCE)
    >>> rolled = game.play(box, 5)
    >>> game.to_move(rolled), [sorted(move) for move in game.possible_moves(rolled)]
    (0, [[2, 3], [1, 4]])
    >>> game.payoff(frozenset()), game.payoff(game.play(frozenset({1}), 5))
    ((1,), (0,))
    """

    levers: int = 9
    simplified: bool = False
    _table: tuple = field(default=None, init=False, repr=False, compare=False)
    num_players = 1
    name = "shut-the-box"

    def __post_init__(self):
        if isinstance(self.levers, bool) or not isinstance(self.levers, int):
            raise TypeError(f"levers must be an int, got {self.levers!r}")
        if not 1 <= self.levers <= 12:
            raise ValueError(f"levers must be between 1 and 12, got {self.levers}")
        if not isinstance(self.simplified, bool):
            raise TypeError(f"simplified must be True or False, got {self.simplified!r}")

    def check_state(self, state):
        """``state`` as a state of this game (a set becomes a frozenset), or a clear error."""
        if isinstance(state, PMap):
            if set(state) != {"box", "roll"}:
                raise ValueError(f"a Shut the Box state is a box or pmap(box=..., roll=...), got {state!r}")
            box = _check_box(state["box"], self.levers)
            roll = state["roll"]
            if isinstance(roll, bool) or not isinstance(roll, int) or not 2 <= roll <= 12:
                raise ValueError(f"a roll of two dice is a whole number from 2 to 12, got {roll!r}")
            return state if box is state["box"] else state.set("box", box)
        return _check_box(state, self.levers)

    def start(self):
        box = frozenset(range(1, self.levers + 1))
        return box - {1} if self.simplified else box

    def to_move(self, state):
        if isinstance(state, PMap):
            box, roll = state["box"], state["roll"]
            if self.simplified:
                return 0 if roll in box else None
            return 0 if any(box.issuperset(c) for c in levers_for_roll(roll, self.levers)) else None
        return CHANCE if state else None

    def possible_moves(self, state) -> tuple:
        if not isinstance(state, PMap):
            return ()
        return ordered_moves(state["box"], state["roll"], self.simplified, self.levers)

    def chance_outcomes(self, state) -> tuple:
        if isinstance(state, PMap) or not state:
            return ()
        return DICE_PROBABILITIES

    def play(self, state, move):
        if isinstance(state, PMap):
            box, roll = state["box"], state["roll"]
            # a legal move leaves a part of the box whose flipped levers add up to the roll
            # (under the simplified rules: exactly the roll's lever)
            flipped = box - move if isinstance(move, frozenset) and move < box else None
            if not flipped or sum(flipped) != roll or self.simplified and flipped != {roll}:
                raise ValueError(f"illegal move {move!r} at {state!r}")
            return move
        if not state or isinstance(move, bool) or not isinstance(move, int) or not 2 <= move <= 12:
            raise ValueError(f"illegal dice roll {move!r} at {state!r}")
        return fixed_pmap({"box": _check_box(state, self.levers), "roll": move})

    def payoff(self, state) -> tuple:
        box = state["box"] if isinstance(state, PMap) else state
        if box and (not isinstance(state, PMap) or self.to_move(state) is not None):
            raise ValueError(f"the game is not over at {state!r}")
        return (0,) if box else (1,)

    def describe_move(self, state, move) -> str:
        if isinstance(state, PMap):
            return "flip " + " ".join(str(lever) for lever in sorted(state["box"] - move))
        return f"roll {move}"

    def state_to_json(self, state):
        if isinstance(state, PMap):
            return {"box": sorted(state["box"]), "roll": state["roll"]}
        return {"box": sorted(state)}

    def state_from_json(self, data):
        if not isinstance(data, dict) or "box" not in data:
            raise ValueError(f"a Shut the Box state is {{'box': [...], 'roll': r}}, got {data!r}")
        _only_keys(data, ("box", "roll"), "a Shut the Box state")
        levers = data["box"]
        if not isinstance(levers, list) or any(isinstance(x, bool) or not isinstance(x, int) for x in levers):
            raise ValueError(f"a box is a list of lever numbers, got {levers!r}")
        if len(set(levers)) != len(levers):
            raise ValueError(f"a box lists each lever once, got {levers!r}")
        box = frozenset(levers)
        if not box <= frozenset(range(1, self.levers + 1)):
            raise ValueError(f"levers must lie in 1..{self.levers}, got {sorted(box)}")
        roll = data.get("roll")
        if roll is None:
            return box
        if isinstance(roll, bool) or not isinstance(roll, int) or not 2 <= roll <= 12:
            raise ValueError(f"a roll of two dice is a whole number from 2 to 12, got {roll!r}")
        return fixed_pmap({"box": box, "roll": roll})

    def random_wins(self, state, n: int, rng: random.Random) -> int:
        """Wins in ``n`` random-play games from ``state`` (fast kernel)."""
        if isinstance(state, PMap):
            raise ValueError("random_wins starts from a box, before the roll")
        box = _check_box(state, self.levers)
        return _count_wins(box_to_mask(box), n, rng, self.kernel_table())

    def search_kernel(self, rule: str, constant):
        """The game's own fast search, for ``fnmcts.mcts.search`` (an optional hook).

        ``kernel(counts, box, dives, rng)`` runs ``dives`` dives from ``box`` on
        ``counts`` (a dict box -> ``[wins, losses]``, grown in place) for a
        built-in ``rule`` (``'ucb'`` with ``z``, ``'ucb1'`` with ``c``), the mean
        backup and no solver: the engine's descent on box masks, the same counts
        draw for draw. It returns True, or False without drawing when it does not
        apply (a search from a roll).

        >>> import random
        >>> counts = {}
        >>> ShutTheBox(levers=3).search_kernel("ucb", 2)(counts, frozenset({1, 2, 3}), 5, random.Random(1))
        True
        >>> counts[frozenset({1, 2, 3})]
        [0, 5]
        """
        table = self.kernel_table()
        levers = self.levers

        def kernel(counts, box, dives, rng):
            if isinstance(box, PMap) or any(isinstance(s, PMap) for s in counts):
                return False  # a search from a roll, or a tree holding one: the engine's
            masks = {box_to_mask(s): c for s, c in counts.items()}
            _search_dives(table, masks, box_to_mask(_check_box(box, levers)), dives, rng, rule, constant)
            known = {box_to_mask(s) for s in counts}
            for m, c in masks.items():
                if m not in known:
                    counts[mask_to_box(m)] = c
            return True

        return kernel

    def kernel_table(self) -> tuple:
        """The kernel's table of next boxes per (box mask, index into the 36 dice pairs).

        Built once per game value (the tutorial's two games at import), kept with it.
        """
        if self.levers == 9:
            return _TABLE_9[self.simplified]
        table = self._table
        if table is None:
            table = _moves36(self.levers, self.simplified)
            object.__setattr__(self, "_table", table)
        return table


# -- a game's steps, and the pure parts of interactive play (task 9) -------------------


def play_game_steps(box, rng: random.Random, simplified: bool = False) -> tuple:
    """Play one random game like ``play_game`` and return ``(steps, result)``.

    ``steps`` holds one ``(box, roll, move)`` per turn (``move`` is ``None`` when
    no levers add up to the roll); the draws are those of ``play_game``, so the
    same rng state gives the same result (task 6's printed trace, as a value).

    >>> steps, result = play_game_steps(frozenset({1, 3, 4}), make_rng(3))
    >>> [(sorted(b), r, m if m is None else sorted(m)) for b, r, m in steps], result
    ([([1, 3, 4], 5, [3]), ([3], 7, None)], 'loss')
    """
    box = _check_box(box)
    steps = []
    while box:
        roll = dice_roll(rng)
        moves = ordered_moves(box, roll, simplified)
        if not moves:
            steps.append((box, roll, None))
            return tuple(steps), LOSS
        move = moves[0] if len(moves) == 1 else moves[int(rng.random() * len(moves))]
        steps.append((box, roll, move))
        box = move
    return tuple(steps), WIN


def render_box(box, levers: int = 9) -> str:
    """The box as a row of levers: the number when up, ``_`` when down.

    >>> render_box(sample_box)
    '_ 2 _ 4 5 _ 7 8 9'
    """
    return " ".join(str(lever) if lever in box else "_" * len(str(lever)) for lever in range(1, levers + 1))


def flipped_levers(box, move) -> tuple:
    """The levers a move flips down: those up in ``box`` and not in ``move``.

    >>> flipped_levers(start_box, start_box - {1, 5})
    (1, 5)
    """
    return tuple(sorted(frozenset(box) - frozenset(move)))


def parse_choice(text, count: int) -> int:
    """The index (from 0) of the choice typed as ``text`` (numbered from 1).

    Raises ``ValueError`` with a message for the player when ``text`` is not a
    number from 1 to ``count``. Works for any game's numbered choices.

    >>> parse_choice(" 2 ", 3)
    1
    >>> parse_choice("four", 3)
    Traceback (most recent call last):
    ...
    ValueError: please type a number from 1 to 3, not 'four'
    """
    if not isinstance(text, str):
        raise TypeError(f"a choice is typed text, got {type(text).__name__}")
    cleaned = text.strip()
    if not cleaned:
        raise ValueError(f"please type a number from 1 to {count}")
    try:
        number = int(cleaned)
    except ValueError:
        raise ValueError(f"please type a number from 1 to {count}, not {cleaned!r}") from None
    if not 1 <= number <= count:
        raise ValueError(f"{number} is not a choice: please type a number from 1 to {count}")
    return number - 1


def format_choices(labels, hints=None) -> tuple:
    """Numbered lines, one per choice, each with its win probability when ``hints`` is given.

    ``hints`` holds one number per label. Works for any game.

    >>> from fractions import Fraction
    >>> format_choices(["flip 5", "flip 2 3"], [Fraction(1, 9), Fraction(37, 324)])
    ('  1) flip 5    win 0.1111', '  2) flip 2 3  win 0.1142')
    >>> format_choices([f"flip {n}" for n in range(1, 11)])[8:]
    ('   9) flip 9', '  10) flip 10')
    """
    labels = [str(label) for label in labels]
    if hints is not None and len(hints) != len(labels):
        raise ValueError(f"{len(hints)} hints for {len(labels)} choices")
    width = max((len(label) for label in labels), default=0)
    digits = len(str(len(labels)))  # choice 10 and up: the numbers right-aligned, the labels in one column
    lines = []
    for i, label in enumerate(labels):
        line = f"  {i + 1:>{digits}}) {label.ljust(width) if hints is not None else label}"
        if hints is not None:
            line += f"  win {float(hints[i]):.4f}"
        lines.append(line)
    return tuple(lines)


_TABLE_9 = {simplified: _moves36(9, simplified) for simplified in (False, True)}
"""The kernel's tables of the tutorial's two games, built at import."""
