"""Tables for Shut the Box: the look-up table (task 10), the full tree (task 12)
and the best-move table (task 13), all immutable maps with exact ``Fraction``s.

The look-up table gives, for each of the 512 boxes, the probability of winning
by random play, estimated by simulation next to its exact value; the full tree
gives every box and every (box, roll) the exact probability of winning under
optimal play; the best-move table says, for every box and roll, which levers to
flip.

Every function takes the rules of the Shut the Box family as keywords
(``dice``, ``scoring``: see ``ShutTheBox``). Under a score, a value is the
exact expected payoff, minus the expected score (higher is better).

>>> table = random_play_table()
>>> len(table), float(table[frozenset({7})])
(512, 0.16666666666666666)
>>> tree = build_tree()
>>> float(tree[frozenset(range(1, 10))])  # doctest: +ELLIPSIS
0.07143...
>>> best = best_move_table()
>>> best[(frozenset(range(1, 10)), 6)].flip
(6,)
"""

from __future__ import annotations

from fractions import Fraction

from pyrsistent import field, pmap

from .values import FixedRecord

from .games.shut_the_box import (
    ShutTheBox,
    all_boxes,
    box_to_mask,
    box_values,
    exact_tree,
    one_die_allowed,
    ordered_moves,
)
from .montecarlo import Z95, simulate, wilson_interval
from .limits import WORK_LIMIT, check_work
from .parallel import check_count, interrupted
from .rng import DICE_PROBABILITIES, check_seed, child_seed
from .sampling import _interval_fields

__all__ = [
    "random_play_table",
    "optimal_play_table",
    "build_tree",
    "LookupEntry",
    "lookup_table",
    "choice_hints",
    "BestMove",
    "TIE_RULE",
    "best_move_table",
    "BEST_MOVE_COLUMNS",
    "format_best_move_table",
    "parse_best_move_table",
    "format_box",
    "parse_box",
]

ROLLS = tuple(roll for roll, _ in DICE_PROBABILITIES)


def _game(levers: int, simplified: bool, dice: str = "two", scoring: str = "win") -> ShutTheBox:
    if not isinstance(simplified, bool):
        raise TypeError(f"simplified must be True or False, got {simplified!r}")
    return ShutTheBox(levers=levers, simplified=simplified, dice=dice, scoring=scoring)


# -- exact tables -------------------------------------------------------------------


def random_play_table(levers: int = 9, simplified: bool = False, *, dice: str = "two", scoring: str = "win"):
    """The tutorial's look-up table, exact: ``box -> Fraction``, random play.

    Every box of ``levers`` levers (``2 ** levers`` of them) with its exact
    probability of winning (under a score: its expected payoff) when every
    choice is made uniformly at random (the choice of dice too). Computed on
    each call, on box masks (``fnmcts.games.shut_the_box.box_values``, equal to
    ``evaluate_policy(game, random_policy)``): keep the value.

    >>> table = random_play_table()
    >>> table[frozenset()], table[frozenset({1})], table[frozenset({2})]
    (Fraction(1, 1), Fraction(0, 1), Fraction(1, 36))
    >>> random_play_table(levers=2, scoring="sum")[frozenset({1, 2})]
    Fraction(-25, 9)
    """
    game = _game(levers, simplified, dice, scoring)
    values = box_values(game, "random")
    return pmap({box: values[box_to_mask(box)] for box in all_boxes(levers)})


def build_tree(levers: int = 9, simplified: bool = False, *, dice: str = "two", scoring: str = "win"):
    """The tutorial's full tree (task 12): every state's exact win probability.

    The game is a DAG of box nodes (the dice move next) and decision nodes
    ``pmap({'box': box, 'roll': roll})``; a box's value is the dice-weighted sum
    over its 11 rolls, a decision's value the best of its moves (0 without a
    move), an empty box is won (1). Where the dice rule allows one die, a box
    is the best of its two dice states ``pmap({'box': box, 'dice': k})``, and a
    roll of 1 can happen; under a score, values are expected payoffs. Built
    from every box, so it answers for all of them: the values of
    ``fnmcts.exact.solve(game, *all_boxes(levers))``, computed on box masks
    (``fnmcts.games.shut_the_box.exact_tree``). Computed on each call: keep the
    value, and pass it to ``optimal_play_table`` and ``best_move_table``.

    >>> from pyrsistent import pmap
    >>> tree = build_tree()
    >>> tree[pmap({'box': frozenset({3, 4}), 'roll': 7})], tree[frozenset({3, 4})]
    (Fraction(1, 1), Fraction(19, 108))
    >>> tree = build_tree(dice="low-sum")
    >>> tree[pmap({'box': frozenset({3}), 'dice': 1})], tree[pmap({'box': frozenset({3}), 'dice': 2})]
    (Fraction(1, 6), Fraction(1, 18))
    """
    return pmap(exact_tree(_game(levers, simplified, dice, scoring)))


def optimal_play_table(levers: int = 9, simplified: bool = False, *, dice: str = "two", scoring: str = "win", tree=None):
    """``box -> Fraction``: the exact probability of winning (under a score: expected payoff) under optimal play.

    ``tree``: a ``build_tree(levers, simplified, ...)`` the caller holds (else
    the boxes are solved now, on box masks).

    >>> float(optimal_play_table()[frozenset(range(1, 10))])  # doctest: +ELLIPSIS
    0.0714...
    >>> float(optimal_play_table(scoring="sum")[frozenset(range(1, 10))])  # minus the expected sum left
    -11.157508444202623
    """
    if tree is None:
        values = box_values(_game(levers, simplified, dice, scoring))
        return pmap({box: values[box_to_mask(box)] for box in all_boxes(levers)})
    return pmap({box: tree[box] for box in all_boxes(levers)})


# -- the look-up table: estimates next to exact values ---------------------------------


class LookupEntry(FixedRecord):
    """One row of the look-up table: a simulation's estimate next to the exact value.

    >>> entry = LookupEntry.of(Fraction(1, 2), 48, 100)
    >>> entry.estimate, round(entry.ci_low, 4), round(entry.ci_high, 4), entry.covers()
    (0.48, 0.3846, 0.5768, True)
    """

    exact = field(type=Fraction, mandatory=True)
    wins = field(type=int, mandatory=True)
    games = field(type=int, mandatory=True)
    estimate, ci_low, ci_high = _interval_fields()

    def covers(self, z: float = Z95) -> bool:
        """True when the Wilson interval at ``z`` holds the exact value.

        >>> LookupEntry.of(Fraction(1, 2), 48, 100).covers()
        True
        """
        if self.exact in (0, 1):
            return self.wins == self.exact * self.games
        low, high = wilson_interval(self.wins, self.games, z)
        return low <= self.exact <= high

    @classmethod
    def of(cls, exact, wins: int, games: int) -> "LookupEntry":
        """The entry for ``wins`` in ``games`` next to the exact value ``exact``.

        >>> LookupEntry.of(Fraction(1, 6), 2, 10).estimate
        0.2
        """
        low, high = wilson_interval(wins, games)
        return cls(
            exact=Fraction(exact),
            wins=wins,
            games=games,
            estimate=wins / games if games else 0.0,
            ci_low=low,
            ci_high=high,
        )


def lookup_table(
    n: int, seed: int, levers: int = 9, simplified: bool = False, executor=None, *, exact=None, progress=None,
    limit: int | None = WORK_LIMIT, dice: str = "two",
):
    """The look-up table of task 10: ``box -> LookupEntry`` for every box.

    Each box gets ``n`` random-play games from its own child seed
    (``child_seed(seed, bitmask)``), played by the fast kernel, next to the exact
    random-play value: the same seed gives the same table, and one box's
    estimate does not depend on which other boxes are in the table. ``exact``:
    a ``random_play_table(levers, simplified, dice=dice)`` the caller holds (else
    computed now). The table counts wins: the rules' scoring is ``'win'``.
    ``progress(k)`` is called as games finish. Ctrl-C raises ``Interrupted``
    whose ``partial`` is the table of the boxes finished. More than ``limit``
    games in all is refused up front (``TooLarge``; ``limit=None`` goes on).

    >>> table = lookup_table(1000, seed=10)
    >>> entry = table[frozenset({7})]
    >>> entry.games, entry.wins, entry.exact
    (1000, 165, Fraction(1, 6))
    """
    check_count(n, "the number of games per box")
    if n == 0:
        raise ValueError("the look-up table needs at least one game per box")
    if check_seed(seed) is None:
        raise ValueError("the look-up table needs a seed (a non-negative whole number)")
    game = _game(levers, simplified, dice)
    check_work(n * len(all_boxes(levers)), what="games (all boxes together)", limit=limit)
    rows = {}
    try:
        exact = random_play_table(levers, simplified, dice=dice) if exact is None else exact
        for box in all_boxes(levers):
            record = simulate(
                game, n, seed=child_seed(seed, box_to_mask(box)), state=box, executor=executor, progress=progress,
                limit=None,  # checked above, for all the boxes
            )
            rows[box] = LookupEntry.of(exact[box], record.win, record.games)
    except KeyboardInterrupt as error:
        raise interrupted(error, pmap(rows)) from None
    return pmap(rows)


def choice_hints(table, box, roll: int, simplified: bool = False, levers: int = 9) -> tuple:
    """``((move, probability), ...)``: each possible move with the win probability of the box it leads to.

    The probabilities are read off ``table`` (``box -> probability``); the moves
    come in the stable move order. The hints of the interactive game (tasks 10
    and 12).

    >>> [(sorted(m), float(p)) for m, p in choice_hints(random_play_table(), frozenset({2, 3, 5}), 5)]
    [([2, 3], 0.11419753086419752), ([5], 0.1111111111111111)]
    """
    return tuple((move, table[move]) for move in ordered_moves(frozenset(box), roll, simplified, levers))


# -- the best-move table -------------------------------------------------------------

TIE_RULE = "ties: the first optimal move in the stable move order (fewest levers, then lowest levers)"
"""How ``best_move_table`` breaks ties between equally good moves."""


class BestMove(FixedRecord):
    """The best move at one (box, roll): the levers to flip and the exact win probability.

    ``flip`` holds the levers to flip down, ``move`` is the game's move (the box
    they leave up). ``flip`` is empty and ``move`` is ``None`` when no levers add
    up to the roll (the game is lost: probability 0); ``ties`` counts the optimal
    moves. Under a score, ``probability`` is the expected payoff (minus the
    expected score; at a lost roll, minus the score of the box). Where the dice
    rule allows one die, the row ``(box, 0)`` holds the choice before the roll:
    ``move`` is the number of dice to roll (``flip`` is empty).

    >>> row = best_move_table(levers=4)[(frozenset({1, 2, 3, 4}), 5)]
    >>> row.flip, sorted(row.move), row.probability, row.ties
    ((1, 4), [2, 3], Fraction(37, 324), 1)
    >>> best_move_table(levers=4)[(frozenset({1, 2}), 9)].move is None
    True
    """

    box = field(type=frozenset, mandatory=True)
    roll = field(type=int, mandatory=True)
    flip = field(type=tuple, mandatory=True)
    move = field(mandatory=True)
    probability = field(type=Fraction, mandatory=True)
    ties = field(type=int, mandatory=True)


def best_move_table(levers: int = 9, simplified: bool = False, *, dice: str = "two", scoring: str = "win", tree=None):
    """The best-move table of task 13: a map ``(box, roll) -> BestMove``.

    It has a row for every box with a lever up and every roll from 2 to 12
    (``TIE_RULE`` breaks ties); where the dice rule allows one die, a row for
    a roll of 1 and the row ``(box, 0)``, the number of dice to roll.

    ``tree``: a ``build_tree(levers, simplified, ...)`` the caller holds (else
    the values of the boxes and of the dice choices, worked out now).

    >>> table = best_move_table()
    >>> len(table)
    5621
    >>> row = table[(frozenset(range(1, 10)), 11)]
    >>> row.flip, row.ties, float(row.probability)  # doctest: +ELLIPSIS
    ((2, 9), 1, 0.0727...)
    """
    game = _game(levers, simplified, dice, scoring)
    tree = exact_tree(game, rolls=False) if tree is None else tree
    rows = {}
    for box in all_boxes(levers):
        if not box:
            continue
        choice = one_die_allowed(box, dice)
        if choice:
            values = [tree[pmap({"box": box, "dice": k})] for k in (2, 1)]
            best = max(values)
            rows[(box, 0)] = BestMove(
                box=box, roll=0, flip=(), move=(2, 1)[values.index(best)], probability=best, ties=values.count(best)
            )
        for roll in ((1,) + ROLLS) if choice else ROLLS:
            moves = ordered_moves(box, roll, simplified, levers)
            if not moves:
                stuck = Fraction(game.payoff(pmap({"box": box, "roll": roll}))[0])
                rows[(box, roll)] = BestMove(box=box, roll=roll, flip=(), move=None, probability=stuck, ties=0)
                continue
            best = max(tree[m] for m in moves)
            optimal = [m for m in moves if tree[m] == best]
            first = optimal[0]
            rows[(box, roll)] = BestMove(
                box=box, roll=roll, flip=tuple(sorted(box - first)), move=first, probability=best, ties=len(optimal)
            )
    return pmap(rows)


def format_box(box) -> str:
    """A box as the digits of its up levers, ``-`` for the empty box.

    >>> format_box(frozenset({9, 1, 3})), format_box(frozenset())
    ('139', '-')
    """
    if any(lever > 9 for lever in box):
        return ",".join(str(lever) for lever in sorted(box)) or "-"
    return "".join(str(lever) for lever in sorted(box)) or "-"


def parse_box(text: str) -> frozenset:
    """The inverse of ``format_box``.

    >>> sorted(parse_box("139")), parse_box("-")
    ([1, 3, 9], frozenset())
    >>> parse_box("")
    Traceback (most recent call last):
    ...
    ValueError: a box is written as the digits of its up levers or '-' for the empty box, got ''
    """
    text = text.strip()
    if text == "-":
        return frozenset()
    if not text:
        raise ValueError(f"a box is written as the digits of its up levers or '-' for the empty box, got {text!r}")
    parts = text.split(",") if "," in text else list(text)
    try:
        levers = [int(part) for part in parts]
    except ValueError:
        raise ValueError(f"a box is written as the digits of its up levers or '-', got {text!r}") from None
    if len(set(levers)) != len(levers) or any(lever < 1 for lever in levers):
        raise ValueError(f"a box lists distinct levers from 1 up, got {text!r}")
    return frozenset(levers)


BEST_MOVE_COLUMNS = ("box", "roll", "flip", "leaves", "probability", "fraction", "ties")
"""The header row of the best-move table."""


def _row_order(key):
    box, roll = key
    return (-len(box), tuple(sorted(box)), roll)


_DICE_TEXT = {1: "1-die", 2: "2-dice"}
"""How a dice choice reads in the ``flip`` column of the table's text."""


def format_best_move_table(table, title: str = "Shut the Box best-move table", value: str = "probability") -> str:
    """The best-move table as plain text, one row per (box, roll).

    Comment lines and a header row come first, then the rows, boxes with the
    most levers up first.

    Columns: the levers up (digits), the roll, the levers to flip (joined by
    ``+``; ``x`` when no move is possible), the levers left up, the exact win
    probability as a decimal and as a fraction, and how many moves tie for best.
    Under a score, ``value='value'`` names the column of expected payoffs
    (minus the expected score). A dice choice's row has ``-`` for its roll and
    ``1-die`` or ``2-dice`` for its flip.

    >>> text = format_best_move_table(best_move_table())
    >>> print(text.splitlines()[2]); print(text.splitlines()[3])  # doctest: +NORMALIZE_WHITESPACE
    box        roll  flip     leaves    probability   fraction              ties
    123456789  2     2        13456789  0.0451898246  24592103/544195584    1
    >>> text = format_best_move_table(best_move_table(levers=3, dice="low-sum", scoring="sum"), value="value")
    >>> print(*text.splitlines()[4:7], sep=chr(10))  # doctest: +NORMALIZE_WHITESPACE
    123  -     1-die  123     -1.6944444444  -61/36    1
    123  1     1      23      -3.1944444444  -115/36   1
    123  2     2      13      -2.5555555556  -23/9     1
    """
    if value not in ("probability", "value"):
        raise ValueError(f"the value column is 'probability' or 'value', got {value!r}")
    header = _columns(value)
    rows = []
    for key in sorted(table, key=_row_order):
        row = table[key]
        if row.roll == 0:
            flip, leaves = _DICE_TEXT[row.move], format_box(row.box)
        else:
            flip = "+".join(str(lever) for lever in row.flip) if row.move is not None else "x"
            leaves = format_box(row.move) if row.move is not None else "x"
        rows.append(
            (
                format_box(row.box),
                str(row.roll) if row.roll else "-",
                flip,
                leaves,
                f"{float(row.probability):.10f}",
                str(row.probability),
                str(row.ties),
            )
        )
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(header)]

    def line(cells):
        return "  ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip()

    what = "the exact win probability" if value == "probability" else "the exact expected payoff (minus the expected score)"
    lines = [f"# {title}: for each box (levers up) and roll, the best levers to flip and {what}", f"# {TIE_RULE}; x: no levers add up to the roll (the game is lost)"]
    if any(key[1] == 0 for key in table):
        lines.append("# roll -: before the roll, how many dice to roll (1-die or 2-dice)")
    lines.append(line(header))
    lines.extend(line(r) for r in rows)
    return "\n".join(lines) + "\n"


def _columns(value: str) -> tuple:
    return tuple(value if c == "probability" else c for c in BEST_MOVE_COLUMNS)


def _lost_values(box) -> tuple:
    """What a roll without a move may be worth: 0 (the game is lost), or minus a score of the box."""
    digits = "".join(str(lever) for lever in sorted(box))
    return (0, -sum(box), -int(digits) if digits else 0)


def parse_best_move_table(text: str):
    """Read a table written by ``format_best_move_table`` back into ``(box, roll) -> BestMove``.

    Every row's move is checked to be legal.

    >>> table = best_move_table()
    >>> parse_best_move_table(format_best_move_table(table)) == table
    True
    """
    rows = {}
    header_seen = False
    headers = (_columns("probability"), _columns("value"))
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        cells = line.split()
        if not header_seen:
            if tuple(cells) not in headers:
                raise ValueError(f"line {number}: expected the header {' '.join(BEST_MOVE_COLUMNS)!r}, got {line!r}")
            header_seen = True
            continue
        row = _best_move_row(number, cells)
        if (row.box, row.roll) in rows:
            raise ValueError(f"line {number}: a second row for box {cells[0]} and roll {cells[1]}")
        rows[(row.box, row.roll)] = row
    if not header_seen:
        raise ValueError(f"no header row {' '.join(BEST_MOVE_COLUMNS)!r} found")
    return pmap(rows)


def _best_move_row(number: int, cells) -> BestMove:
    """The ``BestMove`` a row's ``cells`` say, its move checked to be legal (a ``ValueError`` naming the line)."""
    if len(cells) != len(BEST_MOVE_COLUMNS):
        raise ValueError(f"line {number}: expected {len(BEST_MOVE_COLUMNS)} columns, got {len(cells)}")
    box_text, roll_text, flip_text, leaves_text, _, fraction_text, ties_text = cells
    dice = roll_text == "-"
    try:
        box = parse_box(box_text)
        roll = 0 if dice else int(roll_text)
        probability = Fraction(fraction_text)
        ties = int(ties_text)
        flip = () if flip_text == "x" or dice else tuple(int(x) for x in flip_text.split("+"))
    except (ValueError, ZeroDivisionError) as error:
        raise ValueError(f"line {number}: {error}") from None
    move = _row_move(number, cells, dice, box, roll, flip, probability, ties)
    return BestMove(box=box, roll=roll, flip=tuple(sorted(flip)), move=move, probability=probability, ties=ties)


def _row_move(number: int, cells, dice: bool, box, roll: int, flip: tuple, probability, ties: int):
    """A row's move: the dice to throw, None (no move), or the box its flip leaves; a ``ValueError`` when not legal."""
    box_text, _, flip_text, leaves_text = cells[:4]
    if dice:
        move = next((k for k, name in _DICE_TEXT.items() if name == flip_text), None)
        if move is None or parse_box(leaves_text) != box or ties < 1:
            raise ValueError(f"line {number}: a dice row flips 1-die or 2-dice, leaves the box and has ties >= 1")
        return move
    if flip_text == "x":
        if leaves_text != "x" or probability not in _lost_values(box) or ties != 0:
            raise ValueError(f"line {number}: a row without a move has leaves x, probability 0 (or minus the box's score) and ties 0")
        return None
    move = box - frozenset(flip)
    if not set(flip) <= box or sum(flip) != roll or len(set(flip)) != len(flip):
        raise ValueError(f"line {number}: flipping {flip_text} is not a move from {box_text} with {roll}")
    if parse_box(leaves_text) != move:
        raise ValueError(f"line {number}: flipping {flip_text} from {box_text} leaves {format_box(move)}")
    return move
