"""Records and selection rules: what the tree keeps per state, and how a child is rated.

A **record** holds, for the player who moved into a state, how many results it
has seen and how good they were: ``win``, ``loss`` (always), ``draw`` (once a
draw was seen), ``score`` (the sum of the rescaled payoffs, once a payoff was
neither a win, a loss nor a draw), ``value`` (the expectimax estimate, with
``backup='expectimax'``) and ``proven`` (the exact value MCTS-Solver proved).
A payoff is rescaled to [0, 1] on the game's ``payoff_range``: above 1/2 a win,
1/2 a draw, below a loss. The tutorial's records, ``{'win': w, 'loss': l}``,
are the records of a game that pays only wins and losses.

>>> rec = record(win=2, loss=3)
>>> rec == {'win': 2, 'loss': 3}, visits(rec), mean(rec)
(True, 5, 0.4)
>>> record(win=1, loss=1, draw=2)
Record(win=1, loss=1, draw=2)
>>> mean(record(win=1, loss=1, draw=2))
0.5
"""

from __future__ import annotations

import math
from typing import Callable

from collections.abc import Mapping

from pyrsistent import pmap

from ..values import html_table

__all__ = [
    "Record",
    "record",
    "make_record",
    "EMPTY_RECORD",
    "visits",
    "score",
    "mean",
    "win_rate",
    "add_result",
    "ucb",
    "ucb1",
    "ucb_score",
    "ucb1_score",
    "RULES",
    "ucb_selector",
    "ucb1_selector",
    "rating_selector",
    "WIN",
    "LOSS",
    "DRAW",
]

WIN = "win"
LOSS = "loss"
DRAW = "draw"

_ORDER = ("win", "loss", "draw", "score", "value", "proven")


_set = object.__setattr__


class Record(Mapping):
    """The statistics of one state in the tree, for the player who moved into it.

    An immutable map of at most six keys, listed and printed in a fixed order
    (``win, loss, draw, score, value, proven``) whatever the process's string
    hashing; equal to any map with the same items (a dict, a pmap) and hashed
    as a pmap is. ``set`` returns a new record, as a pmap's does.

    >>> rec = Record(win=2, loss=3)
    >>> rec, rec == {'win': 2, 'loss': 3}, rec.set('draw', 1)
    (Record(win=2, loss=3), True, Record(win=2, loss=3, draw=1))
    """

    __slots__ = ("_items", "_hash")

    def __init__(self, **fields):
        unknown = set(fields) - set(_ORDER)
        if unknown:
            raise ValueError(f"a record's keys are {', '.join(_ORDER)}; got {', '.join(sorted(unknown))}")
        _set(self, "_items", tuple((k, fields[k]) for k in _ORDER if k in fields))
        _set(self, "_hash", None)

    @classmethod
    def _of(cls, items):
        rec = cls.__new__(cls)
        _set(rec, "_items", items)
        _set(rec, "_hash", None)
        return rec

    def __getitem__(self, key):
        for k, v in self._items:
            if k == key:
                return v
        raise KeyError(key)

    def get(self, key, default=None):
        for k, v in self._items:
            if k == key:
                return v
        return default

    def __contains__(self, key):
        return any(k == key for k, _ in self._items)

    def __iter__(self):
        return (k for k, _ in self._items)

    def __len__(self):
        return len(self._items)

    def __eq__(self, other):
        if isinstance(other, Record):
            return self._items == other._items
        if isinstance(other, Mapping):
            return len(other) == len(self._items) and all(k in other and other[k] == v for k, v in self._items)
        return NotImplemented

    def __ne__(self, other):
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self):
        if self._hash is None:
            _set(self, "_hash", hash(frozenset(self._items)))
        return self._hash

    def set(self, key, value) -> "Record":
        """A new record with ``key`` set to ``value``."""
        fields = dict(self._items)
        fields[key] = value
        return Record(**fields)

    def __setattr__(self, name, value):
        raise AttributeError("a Record is immutable: use set() for a new one")

    def __reduce__(self):
        return (Record._of, (self._items,))

    def _wins_losses(self):
        """``[wins, losses]`` if the record holds nothing else (a fast path's reading), else None."""
        items = self._items
        if len(items) == 2 and items[0][0] == "win" and items[1][0] == "loss":
            return [items[0][1], items[1][1]]
        return None

    def _repr_html_(self) -> str:
        """A small HTML table of the fields, for a notebook."""
        return html_table(self._items, title="Record")

    def __repr__(self):
        return "Record(" + ", ".join(f"{k}={v!r}" for k, v in self._items) + ")"

    __str__ = __repr__


def record(win=0, loss=0, value=None, *, draw=0, score=None, proven=None) -> Record:
    """The record ``{'win': win, 'loss': loss}`` (the tutorial's ``{:win 0 :loss 0}``).

    ``draw``, ``score``, ``value`` and ``proven`` are added only when given
    (a draw count above 0, a score sum other than ``win + draw / 2``).

    >>> record(win=2, loss=3)
    Record(win=2, loss=3)
    >>> record(1, 1, value=0.25)['value']
    0.25
    >>> record(win=1, loss=0, score=0.75)
    Record(win=1, loss=0, score=0.75)
    """
    for name, count in (("win", win), ("loss", loss), ("draw", draw)):
        if isinstance(count, bool) or not isinstance(count, (int, float)) or not count >= 0:
            raise ValueError(f"a record's {name} count is a number >= 0, got {count!r}")
    return make_record(win, loss, draw, score, value, proven)


def make_record(win, loss, draw=0, score=None, value=None, proven=None) -> Record:
    """``record`` without the checks, for counts the engine has kept (the freeze of a search).

    >>> make_record(3, 1, draw=0, score=3.0)
    Record(win=3, loss=1)
    """
    if not draw and value is None and proven is None and (score is None or score == win):
        return Record._of((("win", win), ("loss", loss)))  # the most common record: wins and losses alone
    items = [("win", win), ("loss", loss)]
    if draw:
        items.append(("draw", draw))
    if score is not None and score != win + draw / 2:
        items.append(("score", score))
    if value is not None:
        items.append(("value", value))
    if proven is not None:
        items.append(("proven", proven))
    return Record._of(tuple(items))


EMPTY_RECORD = record()
"""The record of a state never visited: no wins, no losses."""


def visits(rec) -> int:
    """How many results a record holds: ``win + loss + draw``.

    >>> visits(record(win=2, loss=3, draw=1))
    6
    """
    return rec.get("win", 0) + rec.get("loss", 0) + rec.get("draw", 0)


def score(rec):
    """The sum of the rescaled payoffs: ``score`` if kept, else ``win + draw / 2``.

    >>> score(record(win=2, loss=3, draw=1))
    2.5
    """
    s = rec.get("score")
    if s is not None:
        return s
    d = rec.get("draw", 0)
    return rec.get("win", 0) + d / 2 if d else rec.get("win", 0)


def mean(rec) -> float:
    """The mean rescaled payoff of a record (0.0 when empty): a draw is half a win.

    >>> mean(record(win=1, loss=2, draw=1))
    0.375
    """
    n = visits(rec)
    return score(rec) / n if n else 0.0


def win_rate(rec) -> float:
    """The share of wins in a record (0.0 for an empty record), the tutorial's measure.

    >>> win_rate(record(win=1, loss=3))
    0.25
    """
    n = visits(rec)
    return rec.get("win", 0) / n if n else 0.0


def add_result(rec, result) -> Record:
    """The record with one more result: ``'win'``, ``'loss'``, ``'draw'`` or a bool (won?).

    >>> add_result(record(win=1), 'loss') == record(win=1, loss=1)
    True
    >>> add_result(record(win=1), 'draw')
    Record(win=1, loss=0, draw=1)
    """
    w, l, d = rec.get("win", 0), rec.get("loss", 0), rec.get("draw", 0)
    s = rec.get("score")
    if result is True or result == WIN:
        return record(w + 1, l, draw=d, score=None if s is None else s + 1)
    if result is False or result == LOSS:
        return record(w, l + 1, draw=d, score=s)
    if result == DRAW:
        return record(w, l, draw=d + 1, score=None if s is None else s + 0.5)
    raise ValueError(f"a result is 'win', 'loss' or 'draw', got {result!r}")


# -- selection rules: each written once, as a function of (score, visits, parent visits) --


def ucb_score(s, n, z=2) -> float:
    """The tutorial's bound from a score ``s`` over ``n`` visits: ``(s + z*sqrt(s*(n-s)/n)) / n``.

    Infinity when ``n`` is 0; the rule of three, ``3/n``, when ``s`` is 0.

    >>> ucb_score(23, 100)
    0.31416650165000326
    """
    if not n:
        return math.inf
    if not s:
        return 3 / n
    return (s + z * math.sqrt(s * (n - s) / n)) / n


def ucb1_score(s, n, parent, c=math.sqrt(2)) -> float:
    """UCB1 from a score ``s`` over ``n`` visits: ``s/n + c*sqrt(ln(parent)/n)``.

    >>> round(ucb1_score(3, 4, 10), 4)
    1.823
    """
    if not n:
        return math.inf
    return s / n + c * math.sqrt(math.log(parent) / n)


def ucb(rec, z: float = 2, *, parent_visits=None) -> float:
    """The tutorial's upper confidence bound: ``(w + z*sqrt(w*l/n)) / n``.

    Infinity for an unvisited record (n = 0), and the rule of 3, ``3/n``, when
    there are no wins yet. ``z = 2`` is about 95% confidence. A draw counts half
    a win (the score ``s`` replaces ``w`` and ``n - s`` replaces ``l``);
    ``parent_visits`` is accepted and ignored, so every rule is called the same way.

    >>> ucb(record(win=23, loss=77)), ucb(record(win=1, loss=9))
    (0.31416650165000326, 0.28973665961010275)
    >>> ucb(record()), ucb(record(loss=4))
    (inf, 0.75)
    >>> ucb({'loss': 1}), ucb(None)       # missing keys count 0, as the tutorial's (get record :win 0)
    (3.0, inf)
    """
    if rec is None:  # not in the tree yet, as the tutorial's (ucb nil)
        return math.inf
    return ucb_score(score(rec), visits(rec), z)


def ucb1(rec, parent_visits, c: float = math.sqrt(2)) -> float:
    """UCB1: ``mean + c * sqrt(ln(N) / n)``, with ``N`` the parent's visits.

    Infinity for an unvisited record. Configure ``c`` with ``functools.partial``.

    >>> round(ucb1(record(win=3, loss=1), parent_visits=10), 4)
    1.823
    >>> ucb1(record(), parent_visits=10)
    inf
    """
    if rec is None:
        return math.inf
    n = visits(rec)
    if n and parent_visits < 1:  # a visited child has a visited parent (log 0 is undefined)
        raise ValueError(f"parent_visits must be at least 1 for a visited record, got {parent_visits!r}")
    return ucb1_score(score(rec), n, parent_visits, c)


# -- selectors: a rule applied to all the children of a node at once (the engine's hot loop) --
# ``stats`` holds per node ``N`` (visits; None when not in the tree) and ``E`` (the
# score the ratings read: the sum of rescaled payoffs, or value * visits under
# expectimax). Each selector picks exactly the child of the highest ``ucb_score`` /
# ``ucb1_score`` (the first on ties; an unvisited child rates infinity): a property
# test checks it. The engine runs the two built-in loops inline (``select.inline``).


def ucb_selector(z=2) -> Callable:
    """``select(children, stats, parent_visits)``: the child of the best ``ucb_score``.

    >>> from types import SimpleNamespace
    >>> stats = SimpleNamespace(N=[100, 10], E=[23, 1])
    >>> ucb_selector()((0, 1), stats, 110)
    0
    """
    sqrt, inf = math.sqrt, math.inf

    def select(children, stats, parent):
        N, E = stats.N, stats.E
        best, best_rating = None, -inf
        for child in children:
            n = N[child]
            if not n:
                return child  # unvisited: infinity, and every child before it was finite
            s = E[child]
            r = 3 / n if not s else (s + z * sqrt(s * (n - s) / n)) / n
            if r > best_rating:
                best, best_rating = child, r
        return best

    select.inline = (2, z)  # the engine runs this loop inline: (rule, constant)
    return select


def ucb1_selector(c=math.sqrt(2)) -> Callable:
    """``select(children, stats, parent_visits)``: the child of the best ``ucb1_score``.

    >>> from types import SimpleNamespace
    >>> stats = SimpleNamespace(N=[4, 6], E=[3, 1])
    >>> ucb1_selector()((0, 1), stats, 10)
    0
    """
    sqrt, log, inf = math.sqrt, math.log, math.inf

    def select(children, stats, parent):
        N, E = stats.N, stats.E
        best, best_rating, lp = None, -inf, None
        for child in children:
            n = N[child]
            if not n:
                return child
            if lp is None:
                lp = log(parent)
            r = E[child] / n + c * sqrt(lp / n)
            if r > best_rating:
                best, best_rating = child, r
        return best

    select.inline = (1, c)
    return select


def rating_selector(rate) -> Callable:
    """``select(children, stats, parent_visits)`` from any ``rate(counts or None, parent_visits)``.

    ``counts`` is ``[visits, score, wins, draws, value]`` (``stats.counts(child)``).

    >>> from types import SimpleNamespace
    >>> stats = SimpleNamespace(counts=lambda i: [[1, 0, 0, 0, None], [5, 0, 0, 0, None]][i])
    >>> rating_selector(lambda c, parent: 0 if c is None else c[0])((0, 1), stats, 6)
    1
    """
    inf = math.inf

    def select(children, stats, parent):
        best, best_rating = None, -inf
        counts = stats.counts
        for child in children:
            r = rate(counts(child), parent)
            if best is None or r > best_rating:
                best, best_rating = child, r
        return best

    return select


RULES = pmap({"tutorial": ucb, "ucb": ucb, "ucb1": ucb1})
"""Selection rules by name, as the command line and ``mcts_agent`` spell them."""
