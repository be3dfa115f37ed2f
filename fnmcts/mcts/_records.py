"""Records and selection rules: what the tree keeps per state, and how a child is rated.

A **record** holds, for the player who moved into a state, how many results it has seen and how good they were: ``win``,
``loss`` (always), ``draw`` (once a draw was seen), ``score`` (the sum of the rescaled payoffs, once a payoff was
neither a win, a loss nor a draw), and what the options keep: ``value`` (expectimax), ``proven`` (MCTS-Solver), ``amaf``
(RAVE), ``bounds`` (score bounds), ``graph`` (the graph backup; their modules say what they hold). A payoff is rescaled
to [0, 1] on the game's ``payoff_range``: above 1/2 a win, 1/2 a draw, below a loss.

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
from functools import partial
from typing import Callable

from collections.abc import Mapping

from pyrsistent import pmap

from ..values import html_table, rating_error

__all__ = [
    "Record", "record", "make_record", "EMPTY_RECORD", "visits", "score", "mean", "win_rate", "add_result", "ucb",
    "ucb1", "ucb_score", "ucb1_score", "rave_score", "RULES", "counts_of", "add_payoff", "builtin_rule", "rating",
    "rate_record", "ucb_selector", "ucb1_selector", "rating_selector", "WIN", "LOSS", "DRAW"
]

WIN = "win"
LOSS = "loss"
DRAW = "draw"

_ORDER = ("win", "loss", "draw", "score", "value", "proven", "amaf", "bounds", "graph")


_set = object.__setattr__
_new = object.__new__
_SLOTS = ("_w", "_l", "_d", "_s", "_v", "_p")
"""The slot of each of the first six keys of ``_ORDER``: win, loss (always there), draw, score, value, proven (None: absent)."""

_EXTRAS = ("amaf", "bounds", "graph")
"""The keys of the enhancements (RAVE, score bounds, the graph backup): one slot, ``_x``, None or the three together."""

_NO_EXTRAS = (None, None, None)


class Record(Mapping):
    """The statistics of one state in the tree, for the player who moved into it.

    An immutable map of at most nine keys, listed and printed in a fixed order
    (``win, loss, draw, score, value, proven, amaf, bounds, graph``) whatever the process's string hashing; equal to any
    map with the same items (a dict, a pmap) and hashed as a pmap is. ``set`` returns a new record, as a pmap's does.
    The nine fields sit in slots (an absent key holds None; the three of the enhancements share one, None unless one is
    there), so a record costs one small object.

    >>> rec = Record(win=2, loss=3)
    >>> rec, rec == {'win': 2, 'loss': 3}, rec.set('draw', 1)
    (Record(win=2, loss=3), True, Record(win=2, loss=3, draw=1))
    """

    __slots__ = (*_SLOTS, "_hash")
    _x = None  # the enhancements' fields: a record that keeps some is a ``_RecordX``, with a slot for them

    def __new__(cls, **fields):
        unknown = set(fields) - set(_ORDER)
        if unknown:
            raise ValueError(f"a record's keys are {', '.join(_ORDER)}; got {', '.join(sorted(unknown))}")
        extras = tuple(fields.get(key) for key in _EXTRAS)
        plain = extras == _NO_EXTRAS
        self = object.__new__(Record if plain else _RecordX)  # the class by the fields, whichever is called
        for key, slot in zip(_ORDER, _SLOTS):
            _set(self, slot, fields.get(key))
        if not plain:
            _set(self, "_x", extras)
        _set(self, "_hash", None)
        return self

    def __init__(self, **fields):  # made whole by __new__
        pass

    @classmethod
    def _of(cls, w, l, d=None, s=None, v=None, p=None, x=None):
        """A record of its six fields and its extras ``(amaf, bounds, graph)`` (None: absent), unchecked."""
        rec = _new(_Filling if x is None else _FillingX)
        _fill(rec, w, l, d, s, v, p)
        if x is not None:
            rec._x = x
        _set(rec, "__class__", Record if x is None else _RecordX)
        return rec

    def _fields(self):
        return (self._w, self._l, self._d, self._s, self._v, self._p, *(self._x or _NO_EXTRAS))

    def _items(self):
        return tuple((k, x) for k, x in zip(_ORDER, self._fields()) if x is not None)

    def __getitem__(self, key):
        slot = _SLOT_OF.get(key)
        x = object.__getattribute__(self, slot) if slot is not None else self.get(key)
        if x is None:
            raise KeyError(key)
        return x

    def get(self, key, default=None):
        slot = _SLOT_OF.get(key)
        if slot is None:
            j = _EXTRA_OF.get(key)
            extras = self._x
            if j is None or extras is None:
                return default
            x = extras[j]
        else:
            x = object.__getattribute__(self, slot)
        return default if x is None else x

    def __contains__(self, key):
        return self.get(key) is not None

    def __iter__(self):
        return (k for k, x in zip(_ORDER, self._fields()) if x is not None)

    def __len__(self):
        return sum(1 for x in self._fields() if x is not None)

    def __eq__(self, other):
        if isinstance(other, Record):
            return self._fields() == other._fields()
        if isinstance(other, Mapping):
            items = self._items()
            return len(other) == len(items) and all(k in other and other[k] == v for k, v in items)
        return NotImplemented

    def __hash__(self):
        if self._hash is None:
            _set(self, "_hash", hash(frozenset(self._items())))
        return self._hash

    def set(self, key, value) -> "Record":
        """A new record with ``key`` set to ``value``."""
        fields = dict(self._items())
        fields[key] = value
        return Record(**fields)

    def __setattr__(self, name, value):
        raise AttributeError("a Record is immutable: use set() for a new one")

    def __reduce__(self):
        return (Record._of, (self._w, self._l, self._d, self._s, self._v, self._p, self._x))

    def _repr_html_(self) -> str:
        """A small HTML table of the fields, for a notebook."""
        return html_table(self._items(), title="Record")

    def __repr__(self):
        return "Record(" + ", ".join(f"{k}={v!r}" for k, v in self._items()) + ")"

    __str__ = __repr__


class _RecordX(Record):
    """A ``Record`` that keeps an enhancement's fields (``amaf``, ``bounds``, ``graph``) in its slot ``_x``."""

    __slots__ = ("_x",)


class _Filling(Record):
    """A ``Record`` being made: the same slots, filled by plain assignments (``_fill``), then made a ``Record``.

    ``Record._of`` makes a record so (the engine writes back several a dive): seven plain assignments and one change of
    class cost less than seven calls of ``object.__setattr__``; no ``_Filling`` outlives ``_of``.
    """

    __slots__ = ()
    __setattr__ = object.__setattr__


class _FillingX(_RecordX):
    """``_Filling`` for a ``_RecordX``."""

    __slots__ = ()
    __setattr__ = object.__setattr__


def _fill(rec, w, l, d, s, v, p):  # noqa: E741 (the record's loss count)
    rec._w = w
    rec._l = l
    rec._d = d
    rec._s = s
    rec._v = v
    rec._p = p
    rec._hash = None


_SLOT_OF = dict(zip(_ORDER, _SLOTS))
_EXTRA_OF = {key: j for j, key in enumerate(_EXTRAS)}


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


def make_record(win, loss, draw=0, score=None, value=None, proven=None, amaf=None, bounds=None, graph=None) -> Record:
    """``record`` without the checks, for counts the engine has kept (the freeze of a search).

    >>> make_record(3, 1, draw=0, score=3.0)
    Record(win=3, loss=1)
    """
    if score is not None and score == (win + draw / 2 if draw else win):
        score = None
    amaf = amaf or None  # an empty table is no table
    return Record._of(win, loss, draw or None, score, value, proven,
                      None if amaf is None and bounds is None and graph is None else (amaf, bounds, graph))


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


def rave_score(s, n, parent, c, amaf, k) -> float:
    """UCB1 over the RAVE blend of a child's mean and its move's all-moves-as-first mean.

    ``s`` over ``n`` visits is the child's score, ``amaf`` the ``(visits, score)`` of its move in the AMAF statistics
    read (None: never played there); the blend and its ``beta = sqrt(k / (3n + k))``: docs/search-options.md. With ``k =
    0``, or no AMAF statistics, it is ``ucb1_score``, float for float. Infinity when ``n`` is 0.

    A child of mean 1/4 over 4 visits whose move scored 0.8 over 10 dives below the parent: with ``k = 30``, ``beta =
    sqrt(30 / 42)`` (0.845), so the blend is 0.715 and the bonus ``0.5 * sqrt(ln 10 / 4)`` (0.379) is added:

    >>> round(rave_score(1, 4, 10, 0.5, (10, 8.0), 30), 4)
    1.0942
    >>> rave_score(1, 4, 10, 0.5, (10, 8.0), 0) == ucb1_score(1, 4, 10, 0.5)
    True
    """
    if not n:
        return math.inf
    q = s / n
    if amaf is not None:
        beta = math.sqrt(k / (3 * n + k)) if k else 0.0
        q = (1.0 - beta) * q + beta * (amaf[1] / amaf[0])
    return q + c * math.sqrt(math.log(parent) / n)


def ucb(rec, z: float = 2, *, parent_visits=None) -> float:
    """The tutorial's upper confidence bound: ``(w + z*sqrt(w*l/n)) / n``.

    Infinity for an unvisited record (n = 0), and the rule of 3, ``3/n``, when there are no wins yet. ``z = 2`` is about
    95% confidence. A draw counts half a win (the score ``s`` replaces ``w`` and ``n - s`` replaces ``l``);
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
    try:
        return ucb_score(score(rec), visits(rec), z)
    except (AttributeError, TypeError):  # a bad argument: the error names it
        raise rating_error("ucb", rec, z=z) from None


def ucb1(rec, parent_visits, c: float = math.sqrt(2)) -> float:
    """UCB1: ``mean + c * sqrt(ln(N) / n)``, with ``N`` the parent's visits.

    Infinity for an unvisited record. Configure ``c`` with ``functools.partial``.

    >>> round(ucb1(record(win=3, loss=1), parent_visits=10), 4)
    1.823
    >>> ucb1(record(), parent_visits=10)
    inf
    >>> ucb1(record(win=3, loss=1), True)
    Traceback (most recent call last):
    ...
    TypeError: ucb1: parent_visits must be a number, got True (bool)
    """
    if rec is None:
        return math.inf
    try:
        if parent_visits is True or parent_visits is False or c is True or c is False:  # a number, not a flag
            raise TypeError
        n = visits(rec)
        if n and not parent_visits >= 1:  # a visited child has a visited parent (log 0 is undefined; NaN too)
            raise ValueError(f"parent_visits must be at least 1 for a visited record, got {parent_visits!r}")
        return ucb1_score(score(rec), n, parent_visits, c)
    except (AttributeError, TypeError):  # a bad argument: the error names it
        raise rating_error("ucb1", rec, parent_visits=parent_visits, c=c) from None


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

    def select(children, stats, parent):
        N, E = stats.N, stats.E
        return _first_best(children, lambda child: ucb_score(E[child], N[child] or 0, z))

    select.inline = (2, z)  # the engine runs this loop inline: (rule, constant)
    return select


def ucb1_selector(c=math.sqrt(2)) -> Callable:
    """``select(children, stats, parent_visits)``: the child of the best ``ucb1_score``.

    >>> from types import SimpleNamespace
    >>> stats = SimpleNamespace(N=[4, 6], E=[3, 1])
    >>> ucb1_selector()((0, 1), stats, 10)
    0
    """

    def select(children, stats, parent):
        N, E = stats.N, stats.E
        return _first_best(children, lambda child: ucb1_score(E[child], N[child] or 0, parent, c))

    select.inline = (1, c)
    return select


def _first_best(children, rate):
    """The first of the children ``rate`` rates highest."""
    best, best_rating = None, -math.inf
    for child in children:
        r = rate(child)
        if best is None or r > best_rating:
            best, best_rating = child, r
    return best


def rating_selector(rate) -> Callable:
    """``select(children, stats, parent_visits)`` from any ``rate(counts or None, parent_visits)``.

    ``counts`` is ``[visits, score, wins, draws, value]`` (``stats.counts(child)``).

    >>> from types import SimpleNamespace
    >>> stats = SimpleNamespace(counts=lambda i: [[1, 0, 0, 0, None], [5, 0, 0, 0, None]][i])
    >>> rating_selector(lambda c, parent: 0 if c is None else c[0])((0, 1), stats, 6)
    1
    """

    def select(children, stats, parent):
        counts = stats.counts
        return _first_best(children, lambda child: rate(counts(child), parent))

    return select


def counts_of(rec) -> tuple:
    """``(visits, score, wins, draws, value)`` of a record (any map with the record's keys).

    The numbers a rating and a backup read; ``value`` is None when the record
    keeps none. A map that is not a record is named in a ``TypeError``.

    >>> counts_of(record(win=2, loss=1, draw=1)), counts_of({"win": 1, "loss": 3, "value": 0.5})
    ((4, 2.5, 2, 1, None), (4, 1, 1, 0, 0.5))
    """
    if type(rec) is Record:
        w, l, d, s, v = rec._w, rec._l, rec._d, rec._s, rec._v
        w = w or 0
        l = l or 0
        d = d or 0
    else:
        try:
            w, l, d, s, v = rec.get("win", 0), rec.get("loss", 0), rec.get("draw", 0), rec.get("score"), rec.get("value")
        except AttributeError:
            raise TypeError(f"a tree's records are maps such as record(win=1, loss=2), got {rec!r}") from None
    if s is None:
        s = w + d / 2 if d else w
    return (w + l + d, s, w, d, v)


def add_payoff(rec, x) -> Record:
    """The record with one more rescaled payoff ``x`` in [0, 1]: a win above 1/2, a draw at 1/2, else a loss.

    The one increment of the backup: visits + 1 and score + ``x``; ``value``,
    ``proven``, ``amaf``, ``bounds`` and ``graph`` stay as they were.

    >>> add_payoff(record(win=1, loss=1), 1), add_payoff(record(win=1, loss=1), 0.5)
    (Record(win=2, loss=1), Record(win=1, loss=1, draw=1))
    >>> add_payoff(EMPTY_RECORD, 0.25)
    Record(win=0, loss=1, score=0.25)
    """
    n, s, w, d, v = counts_of(rec)
    l = n - w - d
    if x > 0.5:
        w += 1
    elif x == 0.5:
        d += 1
    else:
        l += 1
    if type(rec) is Record:  # no enhancement's fields to carry
        return make_record(w, l, d, s + x, v, rec._p)
    return make_record(w, l, d, s + x, v, rec.get("proven"), rec.get("amaf"), rec.get("bounds"), rec.get("graph"))


def builtin_rule(rule):
    """``('ucb', z)`` or ``('ucb1', c)`` when ``rule`` is ``ucb`` / ``ucb1`` or a ``partial`` setting its constant, else None.

    The built-in rules are rated from a node's counts alone, without making a record per child.

    >>> from functools import partial
    >>> builtin_rule(ucb), builtin_rule(partial(ucb1, c=0.3)), builtin_rule(lambda rec, parent_visits: 0)
    (('ucb', 2), ('ucb1', 0.3), None)
    """
    for func, name, key, default in ((ucb, "ucb", "z", 2), (ucb1, "ucb1", "c", math.sqrt(2))):
        if rule is func:
            return name, default
        if isinstance(rule, partial) and rule.func is func and not rule.args and set(rule.keywords) <= {key}:
            return name, rule.keywords.get(key, default)
    return None


def rating(rule, counts, parent_visits, expectimax=False, builtin=None):
    """What ``rule`` rates a child of ``counts`` (``counts_of`` its record, or None: not in the tree).

    An unvisited child is rated by the rule on an empty record (the built-in rules: infinity). Under ``expectimax`` a
    child that keeps a value ``v`` is rated as if its score were ``v * visits``. ``builtin``, if given, is
    ``builtin_rule(rule)`` (worked out once by the caller). The one rating of every descent: the engine's user-rule
    selector and the phases both call it.

    >>> rating(ucb, (100, 23, 23, 0, None), 110), rating(ucb1, None, 10)
    (0.31416650165000326, inf)
    >>> rating(ucb, (4, 1, 1, 0, 0.5), 8, expectimax=True) == ucb_score(2.0, 4)
    True
    """
    if builtin is None:
        builtin = builtin_rule(rule) or ()
    if counts is None or not counts[0]:
        return rule(EMPTY_RECORD, parent_visits=parent_visits)
    n, s, w, d, v = counts
    if expectimax and v is not None:
        s = v * n
        if not builtin:
            return rule(record(s, (1 - v) * n), parent_visits=parent_visits)
    elif not builtin:
        return rule(make_record(w, n - w - d, d, s), parent_visits=parent_visits)
    if builtin[0] == "ucb":
        return ucb_score(s, n, builtin[1])
    return ucb1_score(s, n, parent_visits, builtin[1])


def rate_record(rule, rec, parent_visits, expectimax=False, builtin=()):
    """``rating`` of a child's record (None: not in the tree), quick for a built-in rule on a ``Record``.

    >>> rate_record(ucb, record(23, 77), 110, builtin=builtin_rule(ucb)) == rating(ucb, (100, 23, 23, 0, None), 110)
    True
    >>> rate_record(ucb1, None, 10, builtin=builtin_rule(ucb1))
    inf
    """
    if builtin:
        if rec is None:
            return math.inf
        if type(rec) is Record and not (expectimax and rec._v is not None):
            w, d = rec._w, rec._d or 0
            n = w + rec._l + d
            if not n:
                return math.inf
            s = rec._s
            if s is None:
                s = w + d / 2 if d else w
            return ucb_score(s, n, builtin[1]) if builtin[0] == "ucb" else ucb1_score(s, n, parent_visits, builtin[1])
    return rating(rule, None if rec is None else counts_of(rec), parent_visits, expectimax, builtin)


RULES = pmap({"tutorial": ucb, "ucb": ucb, "ucb1": ucb1})
"""Selection rules by name, as the command line and ``mcts_agent`` spell them."""
