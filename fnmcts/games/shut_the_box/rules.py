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

The family: boxes of 1 to 12 levers, three dice rules (``DICE_RULES``) and
three scorings (``SCORINGS``), parameters of ``ShutTheBox``. Where a dice rule
allows one die, the box is the player's decision (roll one die or two) before
the chance node. A score is paid as its negative, so that more is better.

>>> pub = ShutTheBox(dice="low-sum", scoring="sum")
>>> pub.to_move(frozenset({2, 4})), pub.possible_moves(frozenset({2, 4}))
(0, (2, 1))
>>> pub.payoff_range(), pub.payoff(pub.play(pub.play(frozenset({2, 4}), 1), 1))
((-45, 0), (-6,))
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import combinations
from types import MappingProxyType

from pyrsistent import PMap, pmap

from ...protocol import CHANCE, GameBase, GraphTables
from ...values import fixed_pmap
from ..._moved import deprecated
from ...rng import DICE_PROBABILITIES, ROLL_OF_36, check_rng, dice_roll, make_rng, pick
from .masks import all_boxes, box_to_mask, count_wins, kernel_tables, mask_to_box, one_die_may_roll, random_end, rule_tables

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
    "ShutTheBox",
    "DICE_RULES",
    "SCORINGS",
    "ONE_DIE_PROBABILITIES",
    "one_die_allowed",
    "box_score",
    "make_rng",
    "play_game_steps",
    "render_box",
    "flipped_levers",
    "parse_choice",
    "format_choices",
    "largest_first",
    "FITTING_ROLL_ODDS",
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

DICE_RULES = ("two", "low-sum", "high-down")
"""The dice rules: ``'two'``, always two dice (the tutorial); ``'low-sum'``, one
die allowed when the levers left add up to 6 or less; ``'high-down'``, one die
allowed once 7, 8 and 9 are down, read as "once every lever above 6 is down"
for any box (levers 7 to 12 on a twelve-lever box; a box of 6 levers or fewer
may always roll one die). Where one die is allowed the player chooses before
the roll."""

SCORINGS = ("win", "sum", "digits")
"""The scorings: ``'win'``, a shut box wins (payoff 1) and anything else loses
(0), as in the tutorial; ``'sum'``, the sum of the levers left; ``'digits'``, the
levers left read as a number, lowest lever first ({1, 4, 7} scores 147; a
lever of two digits adds both, {1, 10} scores 110). Lower scores are better: a
score is paid as its negative, from ``-score(every lever up)`` to 0."""

ONE_DIE_PROBABILITIES = tuple((face, Fraction(1, 6)) for face in range(1, 7))
"""``((1, 1/6), ..., (6, 1/6))``: the faces of one die."""


def one_die_allowed(box, dice: str = "two") -> bool:
    """May the player roll one die at ``box`` under the dice rule ``dice``?

    >>> one_die_allowed(frozenset({1, 5}), "low-sum"), one_die_allowed(frozenset({1, 6}), "low-sum")
    (True, False)
    >>> one_die_allowed(frozenset({1, 2, 6}), "high-down"), one_die_allowed(frozenset({7}), "high-down")
    (True, False)
    >>> one_die_allowed(frozenset({1}), "two"), one_die_allowed(frozenset(), "low-sum")
    (False, False)
    """
    if not box or dice == "two":
        return False
    return one_die_may_roll(box_to_mask(box), dice)


def box_score(box, scoring: str = "sum") -> int:
    """The score of the levers left in ``box`` (lower is better); 0 for a shut box.

    ``'sum'`` adds them, ``'digits'`` reads them as a number (lowest lever
    first), ``'win'`` scores 1 for any lever left.

    >>> box_score(frozenset({1, 4, 7})), box_score(frozenset({1, 4, 7}), "digits"), box_score(frozenset({1, 10}), "digits")
    (12, 147, 110)
    >>> box_score(frozenset(), "digits"), box_score(frozenset({3}), "win")
    (0, 1)
    """
    if not box:
        return 0
    if scoring == "sum":
        return sum(box)
    if scoring == "digits":
        return int("".join(str(lever) for lever in sorted(box)))
    return 1


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


@lru_cache(maxsize=32)
def _lever_combinations(levers: int) -> tuple:
    """``_lever_combinations(n)[roll]``: the lever sets of a box of ``n`` levers adding up to ``roll`` (0 to 12)."""
    subsets = power(range(1, levers + 1))
    return tuple(tuple(c for c in subsets if sum(c) == roll) for roll in range(13))


@lru_cache(maxsize=32)
def _lever_sets(levers: int) -> tuple:
    """``_lever_combinations`` as frozensets, in the same order: what a box is compared with and loses in a move."""
    return tuple(tuple(frozenset(c) for c in by_roll) for by_roll in _lever_combinations(levers))


_ALL_LEVERS = tuple(frozenset(range(1, n + 1)) for n in range(13))
"""``_ALL_LEVERS[n]``: every lever of a box of ``n`` levers."""

_INT = frozenset({int})


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
    return _lever_combinations(levers)[roll] if 0 <= roll <= 12 else ()


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
    if type(roll) is not int or not 0 <= roll <= 12:
        return ()
    return tuple(map(box.difference, filter(box.issuperset, _lever_sets(levers)[roll])))


def _is_game(value) -> bool:
    """Whether ``value`` is a game (it has ``start``), not a box: the old top-level calls pass one first."""
    return callable(getattr(value, "start", None))


def _old_call(call: str, home: str) -> None:
    """Warn that the top-level ``call`` is the tutorial's function now, naming ``home``."""
    name = call.split("(")[0]
    deprecated(f"fnmcts.{call} is now the tutorial's {name}: use {home}", stacklevel=3)


def possible_moves(box, roll: int, simplified: bool = False) -> frozenset:
    """The tutorial's ``possible-moves``: the set of boxes the player can reach.

    Under the simplified rules (task 4) the set holds one box (the roll's lever
    flipped down) or is empty (a loss); under the full rules (task 8) it holds
    every box reachable by flipping up levers that add up to the roll.

    >>> possible_moves(frozenset({2, 3}), 5) == {frozenset()}
    True
    >>> possible_moves(frozenset({2, 3}), "5")
    Traceback (most recent call last):
    ...
    TypeError: a roll is the dice's total, a whole number, got '5' (str)
    """
    if _is_game(box):
        _old_call("possible_moves(game, state)", "fnmcts.protocol.possible_moves")
        from ...protocol import possible_moves as moves_of

        return moves_of(box, roll)
    box = _check_box(box)
    if isinstance(roll, bool) or not isinstance(roll, int):
        raise TypeError(f"a roll is the dice's total, a whole number, got {roll!r} ({type(roll).__name__})")
    if roll < 0:  # (a roll of 0, or past 12, reaches no box: the empty set, as a checker of a student's game asks)
        raise ValueError(f"a roll is the dice's total, a whole number, not negative: got {roll!r}")
    return frozenset(ordered_moves(box, roll, simplified))


def play_game(box, rng: random.Random, simplified: bool = False) -> str:
    """Play one game from ``box`` with random choices; return ``'win'`` or ``'loss'``.

    Consumes ``rng``: one draw per dice roll, and one more per choice among two
    or more moves (a forced move draws nothing). ``fnmcts.play_game`` is this
    game played the same way (``fnmcts.tutorial.play_game``), which also takes
    the old game-first call for one release.

    >>> play_game(simplified_start_box, make_rng(0), simplified=True)
    'loss'
    """
    box = _check_box(box)
    check_rng(rng)
    while box:
        moves = ordered_moves(box, dice_roll(rng), simplified)
        if not moves:
            return LOSS
        box = moves[0] if len(moves) == 1 else pick(rng, moves)
    return WIN


# -- the game value -----------------------------------------------------------------


def _only_keys(data: dict, keys: tuple, what: str) -> None:
    """Refuse a key of ``data`` outside ``keys``, naming it."""
    unknown = sorted(map(str, set(data) - set(keys)))
    if unknown:
        raise ValueError(f"{what} has no {', '.join(map(repr, unknown))}: its keys are {', '.join(keys)}")


@dataclass(frozen=True, repr=False)
class ShutTheBox(GameBase):
    """Shut the Box as a one-player game with dice (chance) nodes.

    ``levers``: how many levers, 1 to 12 (9 in the tutorial); ``simplified``:
    the rules of task 4 (flip the roll's lever or lose; lever 1 starts down);
    ``dice``: the dice rule, one of ``DICE_RULES`` (``'two'``, the tutorial's);
    ``scoring``: one of ``SCORINGS`` (``'win'``, the tutorial's: 1 for a shut
    box, else 0; ``'sum'`` and ``'digits'`` pay minus the score of the levers left).

    A state is a box (the frozenset of levers up), where the dice roll next, or
    a box with its roll, where the player flips levers; a move is the box left.
    Where the dice rule allows one die, the box is the player's choice of
    ``2`` or ``1`` dice, which leads to ``pmap(box=..., dice=k)``, where the dice roll.

    >>> game = ShutTheBox(levers=4)
    >>> box = game.start()
    >>> sorted(box), game.to_move(box)
    ([1, 2, 3, 4], CHANCE)
    >>> rolled = game.play(box, 5)
    >>> game.to_move(rolled), [sorted(move) for move in game.possible_moves(rolled)]
    (0, [[2, 3], [1, 4]])
    >>> game.payoff(frozenset()), game.payoff(game.play(frozenset({1}), 5))
    ((1,), (0,))
    >>> ShutTheBox(levers=10, dice="high-down", scoring="digits")
    ShutTheBox(levers=10, simplified=False, dice='high-down', scoring='digits')
    """

    levers: int = 9
    simplified: bool = False
    dice: str = "two"
    scoring: str = "win"
    num_players = 1
    name = "shut-the-box"

    def __post_init__(self):
        if isinstance(self.levers, bool) or not isinstance(self.levers, int):
            raise TypeError(f"levers must be an int, got {self.levers!r}")
        if not 1 <= self.levers <= 12:
            raise ValueError(f"levers must be between 1 and 12, got {self.levers}")
        if not isinstance(self.simplified, bool):
            raise TypeError(f"simplified must be True or False, got {self.simplified!r}")
        if self.dice not in DICE_RULES:
            raise ValueError(f"dice must be one of {', '.join(DICE_RULES)}, got {self.dice!r}")
        if self.scoring not in SCORINGS:
            raise ValueError(f"scoring must be one of {', '.join(SCORINGS)}, got {self.scoring!r}")

    def __reduce__(self):
        return (type(self), (self.levers, self.simplified, self.dice, self.scoring))  # the rules, not the caches

    def __repr__(self):
        rules = "" if self.dice == "two" else f", dice={self.dice!r}"
        rules += "" if self.scoring == "win" else f", scoring={self.scoring!r}"
        return f"ShutTheBox(levers={self.levers}, simplified={self.simplified}{rules})"

    @property
    def tutorial_dice(self) -> bool:
        """True under the tutorial's dice rule (always two dice): boxes are chance nodes."""
        return self.dice == "two"

    def _roll_range(self, box) -> tuple:
        return (1, 12) if one_die_allowed(box, self.dice) else (2, 12)

    def check_state(self, state):
        """``state`` as a state of this game (a set becomes a frozenset), or a clear error."""
        if isinstance(state, PMap):
            keys = set(state)
            if keys not in ({"box", "roll"}, {"box", "dice"}):
                raise ValueError(f"a Shut the Box state is a box or pmap(box=..., roll=...), got {state!r}")
            box = _check_box(state["box"], self.levers)
            if "dice" in keys:
                if state["dice"] not in (1, 2) or isinstance(state["dice"], bool) or not one_die_allowed(box, self.dice):
                    raise ValueError(f"no choice of dice at {state!r} under the dice rule {self.dice!r}")
            else:
                self._check_roll(box, state["roll"])
            return state if box is state["box"] else state.set("box", box)
        return _check_box(state, self.levers)

    def _check_roll(self, box, roll) -> None:
        low, high = self._roll_range(box)
        if isinstance(roll, bool) or not isinstance(roll, int) or not low <= roll <= high:
            what = "two dice" if low == 2 else "one die or two"
            raise ValueError(f"a roll of {what} is a whole number from {low} to {high}, got {roll!r}")

    def _box(self, box) -> frozenset:
        """``box`` as a box of this game, or a clear error: ``_check_box``, at a look for a box the game built."""
        if type(box) is frozenset:
            boxes, masks, _, _ = rule_tables(self.levers, self.simplified)
            if boxes[masks.get(box, 0)] is box:
                return box  # a box the game built: its table's own object (a box not in it looks up mask 0)
            if box <= _ALL_LEVERS[self.levers] and _INT.issuperset(map(type, box)):
                return box  # the levers are ints (not bools: a frozenset holding True is a subset too) in range
        return _check_box(box, self.levers)

    def _read(self, state) -> tuple:
        """``(box, dice, moves)`` of a ``pmap`` state: ``dice`` is None at a roll, where ``moves`` are the flips."""
        box = state["box"]
        roll = state.get("roll")
        if roll is None:
            return (box, state["dice"], ())
        _, masks, _, moves = rule_tables(self.levers, self.simplified)
        mask = masks.get(box) if type(box) is frozenset else None
        if mask is not None and type(roll) is int and 0 <= roll <= 12:
            return (box, None, moves[mask][roll])
        return (box, None, ordered_moves(box, roll, self.simplified, self.levers))

    def start(self):
        box = frozenset(range(1, self.levers + 1))
        return box - {1} if self.simplified else box

    def to_move(self, state):
        if isinstance(state, PMap):
            _, dice, moves = self._read(state)
            if dice is not None:
                return CHANCE
            return 0 if moves else None
        if not state:
            return None
        return 0 if one_die_allowed(state, self.dice) else CHANCE

    def possible_moves(self, state) -> tuple:
        if not isinstance(state, PMap):
            return (2, 1) if one_die_allowed(state, self.dice) else ()
        return self._read(state)[2]

    def chance_outcomes(self, state) -> tuple:
        if isinstance(state, PMap):
            if "dice" not in state:
                return ()
            return ONE_DIE_PROBABILITIES if state["dice"] == 1 else DICE_PROBABILITIES
        if not state or one_die_allowed(state, self.dice):
            return ()
        return DICE_PROBABILITIES

    def play(self, state, move):
        if isinstance(state, PMap):
            box, dice, moves = self._read(state)
            if dice is not None:
                low, high = (1, 6) if dice == 1 else (2, 12)
                if isinstance(move, bool) or not isinstance(move, int) or not low <= move <= high:
                    raise ValueError(f"illegal dice roll {move!r} at {state!r}")
                return fixed_pmap({"box": box, "roll": move})
            # a legal move is one of the boxes the roll can leave: flipped levers adding up to the roll
            # (under the simplified rules: exactly the roll's lever)
            if not isinstance(move, frozenset) or move not in moves:
                raise ValueError(f"illegal move {move!r} at {state!r}")
            return move
        if self.dice != "two" and state and one_die_allowed(state, self.dice):  # a choice of dice
            if move not in (1, 2) or isinstance(move, bool):
                raise ValueError(f"choose 1 or 2 dice at {state!r}, got {move!r}")
            return fixed_pmap({"box": self._box(state), "dice": move})
        if not state or isinstance(move, bool) or not isinstance(move, int) or not 2 <= move <= 12:
            raise ValueError(f"illegal dice roll {move!r} at {state!r}")
        return fixed_pmap({"box": self._box(state), "roll": move})

    def payoff(self, state) -> tuple:
        if isinstance(state, PMap):
            box, dice, moves = self._read(state)
            over = not box or dice is None and not moves
        else:
            box, over = state, self.to_move(state) is None
        if not over:
            raise ValueError(f"the game is not over at {state!r}")
        return (self._payoff_of(box),)

    def _payoff_of(self, box) -> int:
        if self.scoring == "win":
            return 0 if box else 1
        return -box_score(box, self.scoring)

    def payoff_range(self) -> tuple:
        """``(0, 1)`` when a shut box wins; ``(-score of every lever up, 0)`` for a score.

        >>> ShutTheBox().payoff_range(), ShutTheBox(scoring="sum").payoff_range(), ShutTheBox(scoring="digits").payoff_range()
        ((0, 1), (-45, 0), (-123456789, 0))
        """
        if self.scoring == "win":
            return (0, 1)
        return (-box_score(frozenset(range(1, self.levers + 1)), self.scoring), 0)

    def score(self, state) -> int:
        """The score at the end of a game (lower is better): the levers left by the rules' scoring.

        Under ``'win'`` scoring: 0 for a shut box, 1 otherwise.

        >>> ShutTheBox(scoring="sum").score(frozenset()), ShutTheBox(scoring="digits").score(frozenset({2, 5}))
        (0, 25)
        """
        box = state["box"] if isinstance(state, PMap) else state
        return box_score(box, self.scoring)

    # --- the Monte Carlo lab's hooks (fnmcts.lab): features of the dice and the box, never its values ---

    def antithetic_outcome(self, state, outcome):
        """The mirror image of a roll: each die's face ``k`` becomes ``7 - k`` (two dice: ``14 - roll``).

        >>> game = ShutTheBox()
        >>> game.antithetic_outcome(game.start(), 3), game.antithetic_outcome(pmap({"box": frozenset({1}), "dice": 1}), 2)
        (11, 5)
        """
        one_die = isinstance(state, PMap) and state.get("dice") == 1
        return (7 if one_die else 14) - outcome

    def control_feature(self, state, outcome) -> float:
        """The lab's control feature: ``1 / (1 + levers up)`` when the roll leaves a move, else 0.

        Summed over the rolls less its expectation at each roll, it is a control
        of mean 0 that rises with every roll that keeps a nearly shut box alive.

        >>> game = ShutTheBox()
        >>> game.control_feature(frozenset({1, 2}), 3), game.control_feature(frozenset({1, 2}), 12)
        (0.25, 0.0)
        """
        box = state["box"] if isinstance(state, PMap) else state
        return 1.0 / (1 + sum(box)) if self._fits(box, outcome) else 0.0

    def _fits(self, box, roll) -> bool:
        """Whether ``roll`` leaves a move on ``box`` (a table look-up for a box of the game's own tables)."""
        _, masks, _, moves = rule_tables(self.levers, self.simplified)
        mask = masks.get(box) if type(box) is frozenset else None
        if mask is not None and 0 <= roll <= 12:
            return bool(moves[mask][roll])
        return bool(ordered_moves(box, roll, self.simplified, self.levers))

    def strata(self, state) -> tuple:
        """The lab's strata at a roll of the dice: ``((probability, state after the roll), ...)``; ``None`` elsewhere.

        Under a rule that lets the player choose one die, the start is that
        choice, not a roll: no strata there.

        >>> [(p, sorted(s["box"]), s["roll"]) for p, s in ShutTheBox(levers=2).strata(frozenset({1, 2}))][:2]
        [(Fraction(1, 36), [1, 2], 2), (Fraction(1, 18), [1, 2], 3)]
        >>> ShutTheBox(levers=4, dice="high-down").strata(frozenset({1, 2, 3, 4})) is None
        True
        """
        outcomes = self.chance_outcomes(state)
        if not outcomes:
            return None
        return tuple((p, self.play(state, roll)) for roll, p in outcomes)

    def proposal(self, state, options, probabilities) -> tuple:
        """The lab's importance-sampling dice: rolls that leave a move ``FITTING_ROLL_ODDS`` times likelier.

        Random moves keep their probabilities. The weights ``p / q`` undo the tilt.

        >>> [round(q, 3) for q in ShutTheBox(levers=2).proposal(frozenset({1, 2}), (2, 3, 4), (0.25, 0.5, 0.25))]
        [0.327, 0.653, 0.02]
        """
        if self.to_move(state) is not CHANCE:
            return tuple(probabilities)
        box = state["box"] if isinstance(state, PMap) else state
        weights = [p * (FITTING_ROLL_ODDS if self._fits(box, roll) else 1) for roll, p in zip(options, probabilities)]
        total = sum(weights)
        return tuple(w / total for w in weights)

    def lab_batch(self, method: str, n: int, rng: random.Random) -> tuple:
        """The lab's batch games from the start, in numpy arrays (``batch.lab_payoffs``; the batch extra).

        >>> [a.shape for a in ShutTheBox(levers=3).lab_batch("control", 10, random.Random(1))]
        [(10,), (10,)]
        """
        from .batch import lab_payoffs

        return lab_payoffs(self, method, box_to_mask(self.start()), n, rng)

    def compiled_graph(self) -> GraphTables:
        """Every state of the game and its moves as tables (the protocol's optional hook), built once per rule set.

        The boxes first (node = mask), then the dice choices and the rolls: the
        search reads them instead of the protocol (a property test checks the
        two agree state for state).

        Two levers: four boxes (the empty one ends the game, the others roll
        two dice) and the eleven rolls of each of the three others.

        >>> t = ShutTheBox(levers=2).compiled_graph()
        >>> len(t.states), t.kinds[:4], [t.states[c]["roll"] for c in t.children[0b11]][:3]
        (37, (-1, -2, -2, -2), [2, 3, 4])
        >>> t is ShutTheBox(levers=2).compiled_graph()
        True
        """
        return _graph_tables(self.levers, self.simplified, self.dice, self.scoring)

    def describe_move(self, state, move) -> str:
        if isinstance(state, PMap):
            if "dice" in state:
                return f"roll {move}"
            return "flip " + " ".join(str(lever) for lever in sorted(state["box"] - move))
        if state and one_die_allowed(state, self.dice):
            return "roll one die" if move == 1 else "roll two dice"
        return f"roll {move}"

    def render(self, state) -> str:
        """The box as a person sees it (``render_box``) and, when the dice are rolled, the roll.

        >>> game = ShutTheBox(levers=4)
        >>> game.render(game.play(game.start(), 5)), game.render(frozenset({2, 3}))
        ('box   1 2 3 4   roll 5', 'box   _ 2 3 _')
        """
        if isinstance(state, PMap):
            roll = f"   roll {state['roll']}" if "roll" in state else ""
            return f"box   {render_box(state['box'], self.levers)}{roll}"
        return f"box   {render_box(state, self.levers)}"

    def end_text(self, state) -> str:
        """How a finished game ended, said to the person who played it: the box shut, or the roll no flip makes.

        >>> game = ShutTheBox(levers=4)
        >>> game.end_text(frozenset()), game.end_text(game.play(frozenset({4}), 3))
        ('the box is shut: you win!', 'no levers add up to 3: you lose')
        >>> ShutTheBox(levers=4, scoring="sum").end_text(game.play(frozenset({4}), 3))
        'no levers add up to 3: you score 4'
        """
        box = state["box"] if isinstance(state, PMap) else state
        if not box:
            return "the box is shut: you win!"
        lost = f"no levers add up to {state['roll']}" if isinstance(state, PMap) and "roll" in state else "no flip is left"
        return f"{lost}: you score {self.score(state)}" if self.scoring != "win" else f"{lost}: you lose"

    def transcript_line(self, player, move, after) -> str:
        """A line of a game's transcript: the levers left up after a flip, or the dice chosen.

        >>> ShutTheBox(levers=4).transcript_line(0, frozenset({2, 3}), frozenset({2, 3}))
        'Player 1 flips: box   _ 2 3 _.'
        """
        if isinstance(move, frozenset):
            return f"Player {player + 1} flips: box   {render_box(move, self.levers)}."
        return f"Player {player + 1} rolls {'one die' if move == 1 else 'two dice'}."

    def state_to_json(self, state):
        if isinstance(state, PMap):
            if "dice" in state:
                return {"box": sorted(state["box"]), "dice": state["dice"]}
            return {"box": sorted(state["box"]), "roll": state["roll"]}
        return {"box": sorted(state)}

    def state_from_json(self, data):
        if not isinstance(data, dict) or "box" not in data:
            raise ValueError(f"a Shut the Box state is {{'box': [...], 'roll': r}}, got {data!r}")
        _only_keys(data, ("box", "dice") if "dice" in data else ("box", "roll"), "a Shut the Box state")
        levers = data["box"]
        if not isinstance(levers, list) or any(isinstance(x, bool) or not isinstance(x, int) for x in levers):
            raise ValueError(f"a box is a list of lever numbers, got {levers!r}")
        if len(set(levers)) != len(levers):
            raise ValueError(f"a box lists each lever once, got {levers!r}")
        box = frozenset(levers)
        if not box <= frozenset(range(1, self.levers + 1)):
            raise ValueError(f"levers must lie in 1..{self.levers}, got {sorted(box)}")
        if "dice" in data and "roll" not in data:
            return self.check_state(fixed_pmap({"box": box, "dice": data["dice"]}))
        roll = data.get("roll")
        if roll is None:
            return box
        self._check_roll(box, roll)
        return fixed_pmap({"box": box, "roll": roll})

    def _to_box(self, state, rnd):
        """``(box, over)``: from a roll or a dice choice, the box random play reaches first.

        The draws are those of the generic playout (one for the dice, one for a
        choice among two or more flips); ``over`` is True when no flip adds up
        to the roll (the game ends with ``box``).
        """
        if not isinstance(state, PMap):
            return _check_box(state, self.levers), False
        state = self.check_state(state)
        box = state["box"]
        if "dice" in state:
            roll = int(rnd() * 6) + 1 if state["dice"] == 1 else ROLL_OF_36[int(rnd() * 36)]
        else:
            roll = state["roll"]
        moves = ordered_moves(box, roll, self.simplified, self.levers)
        if not moves:
            return box, True
        return (moves[0] if len(moves) == 1 else moves[int(rnd() * len(moves))]), False

    def _random_mask(self, state, rnd) -> int:
        """The box mask one random game from ``state`` ends at, on the kernel's tables."""
        box, over = self._to_box(state, rnd)
        mask = box_to_mask(box)
        if over or not mask:
            return mask
        return random_end(kernel_tables(self.levers, self.simplified, self.dice), mask, rnd)

    def random_wins(self, state, n: int, rng: random.Random):
        """Wins in ``n`` random-play games from ``state`` (fast kernel); ``None`` under a score.

        A game scored by the levers left pays more than two payoffs, so it
        declines (drawing nothing) and ``simulate`` uses ``random_payoff``.
        The draws are those of ``playout`` with ``random_agent`` (a property test checks).

        >>> ShutTheBox(levers=4).random_wins(frozenset({1, 2, 3, 4}), 1_000, random.Random(1))
        157
        """
        if self.scoring != "win":
            return None
        if self.tutorial_dice and not isinstance(state, PMap):
            moves36 = kernel_tables(self.levers, self.simplified, self.dice)[0]
            return count_wins(moves36, box_to_mask(_check_box(state, self.levers)), n, rng)
        rnd = rng.random
        return sum(1 for _ in range(n) if not self._random_mask(state, rnd))

    def random_payoff(self, state, rng: random.Random) -> tuple:
        """The payoff of one random-play game from ``state`` (fast kernel).

        The draws are those of ``playout`` with ``random_agent`` (a property test checks).

        >>> ShutTheBox(scoring="sum").random_payoff(frozenset({1, 2, 3}), random.Random(2))
        (-6,)
        """
        return (self._payoff_of(mask_to_box(self._random_mask(state, rng.random))),)

    def random_batch(self, state, n: int, rng: random.Random):
        """The payoffs of ``n`` random-play games from box ``state``, played side by side in numpy arrays.

        The batch path of ``simulate(..., batch=True)``: the same distribution as
        ``random_payoff``, other draws (``fnmcts.games.shut_the_box.batch``); ``None``
        (drawing nothing) from a state inside a turn.

        >>> wins = ShutTheBox().random_batch(frozenset({1, 2}), 36_000, random.Random(1)).sum()
        >>> bool(1_850 < wins < 2_150)  # only a roll of 3 (2 in 36) shuts {1, 2}
        True
        """
        if isinstance(state, PMap):
            return None
        from .batch import random_payoffs

        return random_payoffs(self, box_to_mask(_check_box(state, self.levers)), n, rng)


@lru_cache(maxsize=16)
def _graph_tables(levers: int, simplified: bool, dice: str, scoring: str) -> GraphTables:
    """``ShutTheBox(...).compiled_graph()``: the states of a rule set and their moves, as tables."""
    game = ShutTheBox(levers, simplified, dice, scoring)
    boxes, _, _, moves_of = rule_tables(levers, simplified)
    states, kinds, moves, children, outcomes, payoffs = [], [], [], [], [], []
    index = {}

    def node(state, kind, state_moves=(), kids=(), chance=(), payoff=None):
        index[state] = len(states)
        states.append(state)
        kinds.append(kind)
        moves.append(state_moves)
        children.append(kids)
        outcomes.append(chance)
        payoffs.append(payoff)

    for mask, box in enumerate(boxes):  # the boxes: node = mask
        if not mask:
            node(box, -1, payoff=(game._payoff_of(box),))
        else:
            node(box, 0 if one_die_allowed(box, dice) else -2)

    def rolled(box, roll):
        state = fixed_pmap({"box": box, "roll": roll})
        found = index.get(state)
        if found is None:
            flips = moves_of[box_to_mask(box)][roll]
            if flips:
                node(state, 0, flips, tuple(box_to_mask(b) for b in flips))
            else:
                node(state, -1, payoff=(game._payoff_of(box),))
            found = index[state]
        return found

    def rolls(box, faces):
        return tuple(rolled(box, roll) for roll, _ in faces)

    for mask, box in enumerate(boxes):
        if not mask:
            continue
        if kinds[mask] == -2:
            children[mask], outcomes[mask] = rolls(box, DICE_PROBABILITIES), DICE_PROBABILITIES
            continue
        choice = []
        for count, faces in ((2, DICE_PROBABILITIES), (1, ONE_DIE_PROBABILITIES)):
            node(fixed_pmap({"box": box, "dice": count}), -2)
            here = len(states) - 1
            children[here], outcomes[here] = rolls(box, faces), faces
            choice.append(here)
        moves[mask], children[mask] = (2, 1), tuple(choice)
    return GraphTables(tuple(states), MappingProxyType(index), tuple(kinds), tuple(moves), tuple(children),
                       tuple(outcomes), tuple(payoffs))


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
        move = moves[0] if len(moves) == 1 else pick(rng, moves)
        steps.append((box, roll, move))
        box = move
    return tuple(steps), WIN


FITTING_ROLL_ODDS = 16
"""How much likelier ``ShutTheBox.proposal`` makes a roll that leaves a move (16: an exact factor of 14 on random play)."""


def largest_first(game, state) -> tuple:
    """A fixed heuristic policy: flip the largest levers the roll allows, ``((move, 1),)``.

    Among the moves, the one whose flipped levers, largest first, compare
    highest (a roll of 7 on a full box flips 7, not 1 and 6).

    >>> game = ShutTheBox()
    >>> [sorted(game.start() - move) for move, _ in largest_first(game, game.play(game.start(), 7))]
    [[7]]
    """
    box = state["box"]
    best = max(game.possible_moves(state), key=lambda move: sorted(box - move, reverse=True))
    return ((best, Fraction(1)),)


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


def format_choices(labels, hints=None, hint: str = "win") -> tuple:
    """Numbered lines, one per choice, each with its win probability when ``hints`` is given.

    ``hints`` holds one number per label, shown after ``hint`` (say
    ``'score'`` for an expected score). Works for any game.

    >>> from fractions import Fraction
    >>> format_choices(["flip 5", "flip 2 3"], [Fraction(1, 9), Fraction(37, 324)])
    ('  1) flip 5    win 0.1111', '  2) flip 2 3  win 0.1142')
    >>> format_choices([f"flip {n}" for n in range(1, 11)])[8:]
    ('   9) flip 9', '  10) flip 10')
    """
    labels = [str(text) for text in labels]
    if hints is not None and len(hints) != len(labels):
        raise ValueError(f"{len(hints)} hints for {len(labels)} choices")
    width = max((len(text) for text in labels), default=0)
    digits = len(str(len(labels)))  # choice 10 and up: the numbers right-aligned, the labels in one column
    lines = []
    for i, text in enumerate(labels):
        line = f"  {i + 1:>{digits}}) {text.ljust(width) if hints is not None else text}"
        if hints is not None:
            line += f"  {hint} {float(hints[i]):.4f}"
        lines.append(line)
    return tuple(lines)
