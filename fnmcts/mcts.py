"""Monte Carlo tree search: records, ucb rules, uct, batched search, agents.

The tutorial's task 11, written once against the game protocol. A **record** is
the map ``{'win': w, 'loss': l}``; the **tree** is an immutable map from state to
record (for Shut the Box: from box to record, exactly the tutorial's table).
``uct(tree, box, rng)`` runs one dive and returns ``(tree, result)``; ``search``
runs many dives on a transient working copy and returns the same tree, faster.

How the protocol's parts map onto the tutorial's tree:

* **Stored nodes** are the root and every state a player's move leads to (for
  Shut the Box: boxes). States reached by chance (a box with its roll) are
  passed through, never stored: at a stored node the dive samples the chance
  outcomes (rolls the dice), then rates the children of the decision.
* **Records belong to the mover.** The record of a stored state counts wins and
  losses of the player whose move led into it (the root's: the player who is
  not to move there; in a one-player game, the player). A payoff above 0 is a
  win, anything else a loss. A state must determine its mover (Nim's states say
  who is to move), so transpositions share one record soundly.
* **A dive**: at a state not yet in the tree, play one random game from it,
  add it with that result and stop; at a stored terminal state, take its
  payoff; else roll the chance outcomes and recurse into the child with the
  highest rating (ties: the first in the game's move order). A roll that leaves
  no move ends the dive there (the tutorial's loss). The result goes back to
  every stored state on the path.

Beyond the tutorial: ``backup='expectimax'`` keeps in every record a value
backed up with the exact chance probabilities; ``backed_up_values`` does the
same once over a finished tree; ``greedy_policy`` turns a tree into a policy
that ``exact.evaluate_policy`` values exactly; ``mcts_agent`` / ``mcts_move``
play any game of the protocol, with MCTS-Solver for two-player games.

>>> from fnmcts.games.shut_the_box import ShutTheBox, start_box
>>> from fnmcts.rng import make_rng
>>> ucb(record(win=23, loss=77)) > ucb(record(win=1, loss=9))
True
>>> tree, result = uct(pmap(), start_box, make_rng(1))
>>> result, tree[start_box]
('loss', pmap({'win': 0, 'loss': 1}))
>>> tree = search(ShutTheBox(), start_box, 1_000, make_rng(1))
>>> visits(tree[start_box])
1000

See Also: ``fnmcts.exact`` (the truth every estimate is judged by),
``fnmcts.montecarlo.playout`` (the playouts).
"""

from __future__ import annotations

import math
import random
import threading
import weakref
from fractions import Fraction
from functools import lru_cache, partial
from typing import Callable

from collections.abc import Mapping

from pyrsistent import PMap, PRecord, field, pmap

from .protocol import CHANCE, check_state, sample_outcome
from .games.shut_the_box import random_finish
from .rng import check_rng

__all__ = [
    "record",
    "EMPTY_RECORD",
    "visits",
    "win_rate",
    "add_result",
    "ucb",
    "ucb1",
    "uct",
    "search",
    "dives_win_rate",
    "greedy_move",
    "greedy_policy",
    "backed_up_values",
    "top_children",
    "principal_variation",
    "MoveSearch",
    "mcts_move",
    "mcts_agent",
    "RULES",
    "BACKUPS",
]

WIN = "win"
LOSS = "loss"


# -- records ---------------------------------------------------------------------


def record(win: int = 0, loss: int = 0, value: float | None = None):
    """The record ``{'win': win, 'loss': loss}`` (the tutorial's ``{:win 0 :loss 0}``).

    ``value``, when given, adds the key ``'value'``: the expectimax estimate
    kept by ``backup='expectimax'`` searches. Records always list their keys
    in this order.

    >>> record(win=2, loss=3)
    pmap({'win': 2, 'loss': 3})
    >>> record(win=2, loss=3) == {'win': 2, 'loss': 3}
    True
    >>> record(1, 1, value=0.25)['value']
    0.25
    """
    for name, count in (("win", win), ("loss", loss)):
        if isinstance(count, bool) or not isinstance(count, (int, float)) or not count >= 0:
            raise ValueError(f"a record's {name} count is a number >= 0, got {count!r}")
    if value is None:
        return _make_record(win, loss)
    return _make_valued(win, loss, value)


def _ordered_maker(keys):
    """The fastest way to build a pmap of ``keys``, listed in that order.

    A pmap is laid out once: a bucket vector long enough that the buckets of
    the keys come in the order of ``keys``, so a record prints and iterates
    the same way whatever the process's string hashing; new records reuse the
    layout. Verified against ``pmap`` at import, with plain ``pmap`` as the
    fallback.
    """

    def plain(*values):
        return pmap(dict(zip(keys, values)))

    try:
        from pyrsistent import pvector
        from pyrsistent._pmap import PMap

        for size in range(2 * len(keys), 256):
            where = [hash(k) % size for k in keys]
            if all(a < b for a, b in zip(where, where[1:])):
                break
        else:  # pragma: no cover - astronomically unlikely
            return plain
        empty = [None] * size
        count = len(keys)
        slots = tuple(zip(where, keys))

        if count == 2:
            (i0, k0), (i1, k1) = slots

            def fast(a, b):
                buckets = empty[:]
                buckets[i0] = [(k0, a)]
                buckets[i1] = [(k1, b)]
                return PMap(2, pvector(buckets))

        else:

            def fast(*values):
                buckets = empty[:]
                for (i, k), v in zip(slots, values):
                    buckets[i] = [(k, v)]
                return PMap(count, pvector(buckets))

        for values in ((0,) * count, tuple(range(3, 3 + count)), (10**6,) + (7,) * (count - 1)):
            r, ref = fast(*values), plain(*values)
            if not (r == ref and hash(r) == hash(ref) and list(r.items()) == list(zip(keys, values))):
                return plain
            if any(r[k] != v for k, v in zip(keys, values)) or len(r) != count:
                return plain
            if r.set(keys[0], -1) != ref.set(keys[0], -1) or r.set("other", 1) != ref.set("other", 1):
                return plain
        return fast
    except Exception:  # pragma: no cover - another pyrsistent layout
        return plain


_make_record = _ordered_maker(("win", "loss"))
_make_valued = _ordered_maker(("win", "loss", "value"))

EMPTY_RECORD = record()
"""The record of a state never visited: no wins, no losses."""


def visits(rec) -> int:
    """How many results a record holds: ``win + loss``.

    >>> visits(record(win=2, loss=3))
    5
    """
    return rec["win"] + rec["loss"]


def win_rate(rec) -> float:
    """The share of wins in a record (0.0 for an empty record).

    >>> win_rate(record(win=1, loss=3))
    0.25
    """
    n = rec["win"] + rec["loss"]
    return rec["win"] / n if n else 0.0


def add_result(rec, result):
    """The record with one more result (``'win'``, ``'loss'``, or a bool: won?).

    >>> add_result(record(win=1), 'loss') == record(win=1, loss=1)
    True
    """
    if result is True or result == WIN:
        return record(rec["win"] + 1, rec["loss"])
    if result is False or result == LOSS:
        return record(rec["win"], rec["loss"] + 1)
    raise ValueError(f"a result is 'win' or 'loss', got {result!r}")


# -- selection rules: plain functions of a record -----------------------------------


def ucb(rec, z: float = 2, *, parent_visits=None) -> float:
    """The tutorial's upper confidence bound: ``(w + z*sqrt(w*l/n)) / n``.

    Infinity for an unvisited record (n = 0), and the rule of 3, ``3/n``, when
    there are no wins yet. ``z = 2`` is about 95% confidence; ``parent_visits``
    is accepted and ignored, so every rule is called the same way.

    >>> ucb(record(win=23, loss=77)), ucb(record(win=1, loss=9))
    (0.31416650165000326, 0.28973665961010275)
    >>> ucb(record()), ucb(record(loss=4))
    (inf, 0.75)
    >>> ucb({'loss': 1}), ucb(None)       # missing keys count 0, as the tutorial's (get record :win 0)
    (3.0, inf)
    """
    if rec is None:  # not in the tree yet, as the tutorial's (ucb nil)
        return math.inf
    w, l = rec.get("win", 0), rec.get("loss", 0)
    n = w + l
    if n == 0:
        return math.inf
    if w == 0:
        return 3 / n
    return (w + z * math.sqrt(w * l / n)) / n


def ucb1(rec, parent_visits, c: float = math.sqrt(2)) -> float:
    """UCB1: ``w/n + c * sqrt(ln(N) / n)``, with ``N`` the parent's visits.

    Infinity for an unvisited record. Configure ``c`` with ``functools.partial``.

    >>> round(ucb1(record(win=3, loss=1), parent_visits=10), 4)
    1.823
    >>> ucb1(record(), parent_visits=10)
    inf
    """
    if rec is None:
        return math.inf
    w = rec.get("win", 0)
    n = w + rec.get("loss", 0)
    if n == 0:
        return math.inf
    if parent_visits < 1:  # a visited child has a visited parent (log 0 is undefined)
        raise ValueError(f"parent_visits must be at least 1 for a visited record, got {parent_visits!r}")
    return w / n + c * math.sqrt(math.log(parent_visits) / n)


RULES = pmap({"tutorial": ucb, "ucb": ucb, "ucb1": ucb1})
"""Selection rules by name, as the command line and ``mcts_agent`` spell them."""


def _ucb_rating(z):
    sqrt, inf = math.sqrt, math.inf

    def rating(w, l, parent):
        n = w + l
        if n == 0:
            return inf
        if w == 0:
            return 3 / n
        return (w + z * sqrt(w * l / n)) / n

    rating.spec = ("ucb", z)
    return rating


def _ucb1_rating(c):
    sqrt, log, inf = math.sqrt, math.log, math.inf

    def rating(w, l, parent):
        n = w + l
        if n == 0:
            return inf
        return w / n + c * sqrt(log(parent) / n)

    rating.spec = ("ucb1", c)
    return rating


def _bind(func, defaults, rule):
    """The keyword values of ``rule`` if it is ``func`` or a partial of it, else None."""
    if rule is func:
        return dict(defaults)
    if isinstance(rule, partial) and rule.func is func and not rule.args:
        if set(rule.keywords) <= set(defaults):
            return {**defaults, **rule.keywords}
    return None


def _rating(rule) -> Callable:
    """A fast ``rating(w, l, parent_visits)`` equal to ``rule`` on every record."""
    try:
        return _RATINGS[rule]
    except (KeyError, TypeError):
        pass
    rating = _make_rating(rule)
    try:
        if len(_RATINGS) < 256:
            _RATINGS[rule] = rating
    except TypeError:
        pass
    return rating


_RATINGS: dict = {}


def _make_rating(rule) -> Callable:
    bound = _bind(ucb, {"z": 2}, rule)
    if bound is not None:
        return _ucb_rating(bound["z"])
    bound = _bind(ucb1, {"c": math.sqrt(2)}, rule)
    if bound is not None:
        return _ucb1_rating(bound["c"])
    if not callable(rule):
        raise TypeError(f"a selection rule is a function of a record, got {rule!r}")

    def rating(w, l, parent):
        return rule(record(w, l), parent_visits=parent)

    return rating


def _known_rule(rule) -> bool:
    return _bind(ucb, {"z": 2}, rule) is not None or _bind(ucb1, {"c": math.sqrt(2)}, rule) is not None


# -- the protocol pieces a dive needs --------------------------------------------------


def _root_mover(game, state) -> int:
    """The player whose record the root holds: the one not to move (0 when alone)."""
    if getattr(game, "num_players", 1) == 1:
        return 0
    player = game.to_move(state)
    if isinstance(player, int) and not isinstance(player, bool):
        return (player - 1) % game.num_players
    try:
        return 1 - state["player"]
    except (TypeError, KeyError):
        return 0


def _decision(game, state, rng):
    """Sample chance outcomes from ``state`` until a player moves or the game ends."""
    player = game.to_move(state)
    while player is CHANCE:
        state = game.play(state, sample_outcome(game, state, rng))
        player = game.to_move(state)
    return state, player


def _playout_payoff(game, state, rng, rollout):
    if rollout is None and hasattr(game, "random_payoff"):  # a kernel with the same draws
        return game.random_payoff(state, rng)
    from .montecarlo import playout

    return game.payoff(playout(game, state, rng, rollout))


def _result_of(game, payoff):
    if getattr(game, "num_players", 1) == 1:
        return WIN if payoff[0] > 0 else LOSS
    return tuple(payoff)


# -- uct: one dive on the persistent tree ------------------------------------------------


@lru_cache(maxsize=None)
def _default_game():
    from .games.shut_the_box import ShutTheBox

    return ShutTheBox()


def uct(tree, box, rng: random.Random, game=None, rule=ucb, *, rollout=None, backup="mean"):
    """One dive of Monte Carlo tree search from ``box``; return ``(tree, result)``.

    The tutorial's algorithm: a state not in ``tree`` gets one random playout and
    joins the tree with its result; otherwise roll the dice, compute the children
    with the possible moves and recurse into the child with the highest
    ``rule`` rating; the result goes back up to every state on the path. ``game``
    defaults to the full Shut the Box, where ``result`` is ``'win'`` or
    ``'loss'`` (for two players, the payoff tuple). ``tree`` is never modified;
    ``rng`` is consumed.

    ``backup='expectimax'`` (an addition to the tutorial): every record on the
    path also keeps ``'value'``, its expectimax estimate from its children,
    with the chance outcomes weighted by their exact probabilities (dice: 1/36
    for a 2, ...); the ratings then apply ``rule`` to the child's value
    (``record(v*n, (1-v)*n)``) instead of its raw win rate.

    >>> from fnmcts.rng import make_rng
    >>> from fnmcts.games.shut_the_box import start_box
    >>> rng = make_rng(3)
    >>> tree, result = uct(pmap(), start_box, rng)
    >>> tree, result = uct(tree, start_box, rng)
    >>> len(tree), visits(tree[start_box])
    (2, 2)
    """
    game = _default_game() if game is None else game
    if not callable(rule):
        raise TypeError(f"rule must be a function of a record, got {rule!r}")
    _check_backup(backup)
    tree = _check_tree(tree)
    check_rng(rng)
    tables = _stb_tables(game) if rollout is None and isinstance(box, frozenset) else None
    if tables is not None and backup == "mean":
        if box not in tables[2]:
            raise ValueError(f"not a box of this game: {sorted(box)!r} (levers 1..{game.levers})")
        return _uct_stb(tree, box, rng, rule, tables)
    return _uct_protocol(tree, check_state(game, box), rng, game, rule, rollout, backup)


BACKUPS = ("mean", "expectimax")


def _check_tree(tree):
    """``tree`` as a persistent map: a pmap is returned as is, a plain mapping frozen."""
    if isinstance(tree, PMap):
        return tree
    if isinstance(tree, Mapping):
        return pmap(tree)
    raise TypeError(f"tree must be a map from state to record (e.g. pmap()), got {type(tree).__name__}")


def _check_backup(backup):
    if backup not in BACKUPS:
        raise ValueError(f"backup must be one of {BACKUPS}, got {backup!r}")


def _value(rec) -> float:
    """A record's value: its ``'value'`` if it keeps one, else its win rate."""
    v = rec.get("value")
    return win_rate(rec) if v is None else v


def _value_rated(rule, rec, parent):
    """``rule`` applied to a record rescaled to the record's value."""
    n = visits(rec)
    if n == 0:
        return rule(EMPTY_RECORD, parent_visits=parent)
    v = _value(rec)
    return rule(record(v * n, (1 - v) * n), parent_visits=parent)


def _node_value(game, tree, state, mover, fallback) -> float:
    """One expectimax step at ``state`` over its stored children (see ``uct``)."""
    player = game.to_move(state)
    if player is None:
        return 1.0 if game.payoff(state)[mover] > 0 else 0.0
    if player is CHANCE:
        total = 0.0
        for outcome, p in game.chance_outcomes(state):
            total += float(p) * _node_value(game, tree, game.play(state, outcome), mover, fallback)
        return total
    best = None
    for move in game.possible_moves(state):
        child = game.play(state, move)
        rec = tree.get(child)
        if rec is not None:
            v = _value(rec)
        elif game.to_move(child) is None:
            v = 1.0 if game.payoff(child)[player] > 0 else 0.0
        else:
            continue
        if best is None or v > best:
            best = v
    if best is None:
        return fallback
    return best if player == mover else 1.0 - best


def _uct_protocol(tree, state, rng, game, rule, rollout=None, backup="mean"):
    """``uct`` through the game protocol alone: the reference for every game."""
    expectimax = backup == "expectimax"
    path = [(state, _root_mover(game, state))]
    while True:
        if state not in tree:
            payoff = _playout_payoff(game, state, rng, rollout)
            break
        player = game.to_move(state)
        if player is None:
            payoff = game.payoff(state)
            break
        decision, player = _decision(game, state, rng)
        if player is None:
            payoff = game.payoff(decision)
            break
        parent = visits(tree[state])
        best, best_rating = None, -math.inf
        for move in game.possible_moves(decision):
            child = game.play(decision, move)
            if expectimax:
                r = _value_rated(rule, tree.get(child, EMPTY_RECORD), parent)
            else:
                r = rule(tree.get(child, EMPTY_RECORD), parent_visits=parent)
            if best is None or r > best_rating:
                best, best_rating = child, r
        state = best
        path.append((state, player))
    if not expectimax:
        for node, mover in path:
            tree = tree.set(node, add_result(tree.get(node, EMPTY_RECORD), payoff[mover] > 0))
        return tree, _result_of(game, payoff)
    for node, mover in reversed(path):
        rec = add_result(tree.get(node, EMPTY_RECORD), payoff[mover] > 0)
        v = min(1.0, max(0.0, _node_value(game, tree, node, mover, win_rate(rec))))
        tree = tree.set(node, record(rec["win"], rec["loss"], value=v))
    return tree, _result_of(game, payoff)


def _stb_tables(game):
    """Shut the Box tables for the fast paths, or None for any other game."""
    if type(game).__name__ != "ShutTheBox" or type(game) is not _stb_class():
        return None
    return _stb_tables_for(game.levers, game.simplified)


@lru_cache(maxsize=None)
def _stb_class():
    from .games.shut_the_box import ShutTheBox

    return ShutTheBox


@lru_cache(maxsize=None)
def _stb_tables_for(levers, simplified):
    from .games import shut_the_box as stb

    moves36 = stb._moves36(levers, simplified)
    boxes = tuple(stb.mask_to_box(m) for m in range(1 << levers))
    mask_of = {box: m for m, box in enumerate(boxes)}
    children36 = tuple(tuple(boxes[c] for c in kids) for kids in moves36)
    return moves36, boxes, mask_of, children36


_NO_COUNTS = (0, 0)
_MIRROR = threading.local()
"""The newest tree ``uct`` returned in this thread, and a plain dict of its counts.

A memo, invisible from outside: when ``uct`` is handed the very tree it last
returned (the usual loop), it reads the counts from the dict instead of the
pmap. Trees are immutable, so the dict always equals the tree it mirrors; any
other tree is read afresh.
"""


def _mirror_of(tree) -> dict:
    ref = getattr(_MIRROR, "tree", None)
    if ref is not None and ref() is tree:
        return _MIRROR.counts
    return {state: [rec["win"], rec["loss"]] for state, rec in tree.items()}


def _uct_stb(tree, box, rng, rule, tables):
    """``uct`` for Shut the Box on precomputed tables: the same draws, the same tree."""
    moves36, boxes, mask_of, children36 = tables
    rating = _rating(rule)
    counts = _mirror_of(tree)
    _MIRROR.tree = None  # the dict changes below; it will mirror the new tree
    rnd = rng.random
    state = box
    path = [state]
    while True:
        rec = counts.get(state)
        if rec is None:
            won = random_finish(moves36, mask_of[state], rnd)  # one random game, the draws of play_game
            break
        if not state:
            won = True
            break
        kids = children36[mask_of[state] * 36 + int(rnd() * 36)]
        if not kids:
            won = False
            break
        parent = rec[0] + rec[1]
        best, best_rating = None, -math.inf
        for kid in kids:
            c = counts.get(kid) or _NO_COUNTS
            r = rating(c[0], c[1], parent)
            if best is None or r > best_rating:
                best, best_rating = kid, r
        state = best
        path.append(state)
    i = 0 if won else 1
    grown = tree.evolver()  # a transient for this one step, frozen below
    for node in path:
        rec = counts.get(node)
        if rec is None:
            counts[node] = rec = [0, 0]
        rec[i] += 1
        grown[node] = record(rec[0], rec[1])
    tree = grown.persistent()
    _MIRROR.tree = weakref.ref(tree)
    _MIRROR.counts = counts
    return tree, (WIN if won else LOSS)


# -- the transient engine --------------------------------------------------------------


def _thaw(tree) -> dict:
    return {state: [rec["win"], rec["loss"]] for state, rec in tree.items()}


def _freeze(counts: dict):
    return pmap({state: record(w, l) for state, (w, l) in counts.items()})


def _engine_dives(
    game, root, n, rng, rating, counts, rollout=None, proven=None, mover=None, stop_when_proven=False, kids=None
):
    """Run ``n`` dives on ``counts`` (state -> [w, l], mutated in place).

    ``kids`` (a dict state -> its children in move order, filled in place) keeps
    each decision's children once computed, so a dive does not replay every
    move of every state it passes; pass the same dict to continue a search.
    Children are interned (``kids[None]`` maps each state to one equal object),
    so transpositions find their counts by identity, not by comparing maps.

    With ``proven`` (a dict state -> True/False: proven win/loss for the mover
    into the state), the dives also run MCTS-Solver: proven states end a dive
    without a playout, and proofs propagate up through decisions not separated
    by chance. ``stop_when_proven``: stop as soon as the root is proven.
    """
    root_mover = _root_mover(game, root) if mover is None else mover
    to_move, play, possible = game.to_move, game.play, game.possible_moves
    kids = {} if kids is None else kids
    same = kids.setdefault(None, {})  # the interned states; None is never a state
    for _ in range(n):
        if stop_when_proven and proven is not None and root in proven:
            break
        state = root
        path = [(state, root_mover)]
        decided = []  # (state, its mover, its children, the player deciding) for the solver
        while True:
            if proven is not None and state in proven:
                # a proven state's result, seen from every mover on the path
                payoff = _proven_payoff(game, path[-1][1], proven[state])
                break
            rec = counts.get(state)
            if rec is None:
                payoff = _playout_payoff(game, state, rng, rollout)
                if proven is not None and to_move(state) is None:
                    proven[state] = payoff[path[-1][1]] > 0
                break
            player = to_move(state)
            if player is None:
                payoff = game.payoff(state)
                if proven is not None:
                    proven[state] = payoff[path[-1][1]] > 0
                break
            decision, player = _decision(game, state, rng)
            if player is None:
                payoff = game.payoff(decision)
                break
            parent = rec[0] + rec[1]
            children = kids.get(decision)
            if children is None:
                children = kids[decision] = [
                    same.setdefault(child, child) for child in (play(decision, move) for move in possible(decision))
                ]
            best, best_rating = None, -math.inf
            if proven is not None:
                if decision is state:
                    decided.append((state, path[-1][1], children, player))
                winning = [c for c in children if proven.get(c) is True]
                if winning:
                    best = winning[0]
                else:
                    open_children = [c for c in children if proven.get(c) is not False]
                    children = open_children or children
            if best is None:
                for child in children:
                    w, l = counts.get(child) or (0, 0)
                    r = rating(w, l, parent)
                    if best is None or r > best_rating:
                        best, best_rating = child, r
            state = best
            path.append((state, player))
        for node, node_mover in path:
            rec = counts.get(node)
            if rec is None:
                counts[node] = rec = [0, 0]
            if payoff[node_mover] > 0:
                rec[0] += 1
            else:
                rec[1] += 1
        if proven is not None:
            for state, mover, children, player in reversed(decided):
                if state in proven:
                    continue
                status = [proven.get(c) for c in children]
                if True in status:
                    proven[state] = mover == player
                elif all(s is False for s in status):
                    proven[state] = mover != player
                else:
                    break
    return counts


def _proven_payoff(game, mover, won):
    """A payoff tuple in which ``mover`` won (``won``) or lost, zero-sum for two."""
    players = getattr(game, "num_players", 1)
    if players == 1:
        return (1,) if won else (0,)
    return tuple((1 if won else -1) if p == mover else (-1 if won else 1) for p in range(players))


# -- fast kernels: Shut the Box on bitmasks, Nim on integers ------------------------------


def _stb_kernel(game, rule, rollout):
    """The Shut the Box kernel's tables, or None when it does not apply."""
    from .games import shut_the_box as stb

    if type(game) is not stb.ShutTheBox or rollout is not None or not _known_rule(rule):
        return None
    return stb._moves36(game.levers, game.simplified)


def _stb_dives(moves36, root, n, rng, rating, counts):
    """Dives on masks: ``counts`` maps mask -> [w, l]; the same draws as ``uct``."""
    rnd = rng.random
    inf = math.inf
    for _ in range(n):
        m = root
        path = [m]
        while True:
            rec = counts.get(m)
            if rec is None:
                won = random_finish(moves36, m, rnd)  # one random game, the draws of play_game
                break
            if not m:
                won = True
                break
            moves = moves36[m * 36 + int(rnd() * 36)]
            if not moves:
                won = False
                break
            if len(moves) == 1:
                m = moves[0]
            else:
                parent = rec[0] + rec[1]
                best, best_rating = -1, -inf
                for child in moves:
                    c = counts.get(child)
                    r = rating(c[0], c[1], parent) if c is not None else inf
                    if r > best_rating:
                        best, best_rating = child, r
                m = best
            path.append(m)
        if won:
            for node in path:
                rec = counts.get(node)
                if rec is None:
                    counts[node] = [1, 0]
                else:
                    rec[0] += 1
        else:
            for node in path:
                rec = counts.get(node)
                if rec is None:
                    counts[node] = [0, 1]
                else:
                    rec[1] += 1
    return counts


def _chunks(n, size=10_000):
    while n > 0:
        yield min(n, size)
        n -= size


def search(
    game, state, dives: int, rng: random.Random, tree=None, rule=ucb, *, rollout=None, progress=None, backup="mean"
):
    """Run ``dives`` dives from ``state``; return the grown tree (an immutable map).

    The same tree as ``dives`` calls of ``uct`` with the same ``rng`` (a property
    test checks it), built on a transient working copy and frozen at the end;
    Shut the Box runs on a bitmask kernel. ``progress(k)``, if given, hears of
    every ``k`` dives done. ``backup``: as for ``uct`` (``'expectimax'`` keeps
    a value in every record and rates children by it; grow a tree with one
    kind of backup only, since the records the faithful backup writes hold no
    value).

    >>> from fnmcts.games.shut_the_box import ShutTheBox, start_box
    >>> from fnmcts.rng import make_rng
    >>> tree = search(ShutTheBox(), start_box, 100, make_rng(5))
    >>> tree == _repeat_uct(ShutTheBox(), start_box, 100, make_rng(5))
    True
    """
    if isinstance(dives, bool) or not isinstance(dives, int):
        raise TypeError(f"dives must be a whole number, got {dives!r}")
    if dives < 0:
        raise ValueError(f"dives must be non-negative, got {dives}")
    tree = pmap() if tree is None else _check_tree(tree)
    _check_backup(backup)
    check_rng(rng)
    check_state(game, state)
    rating = _rating(rule)
    moves36 = _stb_kernel(game, rule, rollout)
    if moves36 is not None and isinstance(state, frozenset) and state not in _stb_tables(game)[2]:
        raise ValueError(f"not a box of this game: {sorted(state)!r} (levers 1..{game.levers})")
    if backup == "expectimax":
        if moves36 is not None and isinstance(state, frozenset):
            return _stb_expectimax_search(game, state, dives, rng, tree, rating, progress)
        for size in _chunks(dives):
            for _ in range(size):
                tree, _ = _uct_protocol(tree, state, rng, game, rule, rollout, backup)
            if progress is not None:
                progress(size)
        return tree
    if moves36 is not None and isinstance(state, frozenset):
        from .games.shut_the_box import box_to_mask, mask_to_box

        counts = {box_to_mask(s): [r["win"], r["loss"]] for s, r in tree.items()}
        for size in _chunks(dives):
            _stb_dives(moves36, box_to_mask(state), size, rng, rating, counts)
            if progress is not None:
                progress(size)
        boxes = {}
        return pmap(
            {boxes.setdefault(m, mask_to_box(m)): record(w, l) for m, (w, l) in counts.items()}
        )
    counts, kids = _thaw(tree), {}
    for size in _chunks(dives):
        _engine_dives(game, state, size, rng, rating, counts, rollout, kids=kids)
        if progress is not None:
            progress(size)
    return _freeze(counts)


def _repeat_uct(game, state, dives, rng, tree=None, rule=ucb, backup="mean"):
    """The reference: ``dives`` calls of ``uct``, threading the tree (for tests)."""
    tree = pmap() if tree is None else tree
    for _ in range(dives):
        tree, _ = uct(tree, state, rng, game, rule, backup=backup)
    return tree


@lru_cache(maxsize=None)
def _by_roll(levers, simplified):
    """Per box mask: ``((p, children masks), ...)`` for the rolls 2..12 in order."""
    from .games import shut_the_box as stb
    from .rng import DICE_PROBABILITIES, ROLL_OF_36

    moves36 = stb._moves36(levers, simplified)
    first = {roll: ROLL_OF_36.index(roll) for roll, _ in DICE_PROBABILITIES}
    return tuple(
        tuple((float(p), moves36[mask * 36 + first[roll]]) for roll, p in DICE_PROBABILITIES)
        for mask in range(1 << levers)
    )


def _stb_expectimax_search(game, state, dives, rng, tree, rating, progress):
    """``backup='expectimax'`` dives on masks; the arithmetic of ``_uct_protocol``."""
    from .games.shut_the_box import box_to_mask, mask_to_box

    moves36 = _stb_tables(game)[0]
    by_roll = _by_roll(game.levers, game.simplified)
    counts = {box_to_mask(s): [r["win"], r["loss"], r.get("value")] for s, r in tree.items()}
    root = box_to_mask(state)
    rnd = rng.random
    inf = math.inf

    def value_of(c):
        if c[2] is not None:
            return c[2]
        n = c[0] + c[1]
        return c[0] / n if n else 0.0

    done = 0
    for size in _chunks(dives):
        for _ in range(size):
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
                moves = moves36[m * 36 + int(rnd() * 36)]
                if not moves:
                    won = False
                    break
                parent = rec[0] + rec[1]
                best, best_rating = -1, -inf
                for child in moves:
                    c = counts.get(child)
                    n = 0 if c is None else c[0] + c[1]
                    if n == 0:
                        r = rating(0, 0, parent)
                    else:
                        v = value_of(c)
                        r = rating(v * n, (1 - v) * n, parent)
                    if best < 0 or r > best_rating:
                        best, best_rating = child, r
                m = best
                path.append(m)
            for node in reversed(path):
                rec = counts.get(node)
                if rec is None:
                    counts[node] = rec = [0, 0, None]
                rec[0 if won else 1] += 1
                if not node:
                    rec[2] = 1.0
                    continue
                fallback = rec[0] / (rec[0] + rec[1])
                total = 0.0
                for p, kids in by_roll[node]:
                    if not kids:
                        v = 0.0
                    else:
                        top = None
                        for kid in kids:
                            c = counts.get(kid)
                            if c is not None:
                                x = value_of(c)
                            elif not kid:
                                x = 1.0
                            else:
                                continue
                            if top is None or x > top:
                                top = x
                        v = fallback if top is None else top
                    total += p * v
                rec[2] = min(1.0, max(0.0, total))
        done += size
        if progress is not None:
            progress(size)
    boxes = {}
    return pmap(
        {boxes.setdefault(m, mask_to_box(m)): record(w, l, value=v) for m, (w, l, v) in counts.items()}
    )


def dives_win_rate(tree, state) -> float:
    """The tutorial's measure: the share of dives from ``state`` that were won.

    >>> dives_win_rate(pmap({frozenset({7}): record(win=1, loss=3)}), frozenset({7}))
    0.25
    """
    return win_rate(tree.get(state, EMPTY_RECORD))


# -- reading a policy off the tree -------------------------------------------------------


def _child_key(rec):
    """Greedy order: the best value (or mean) first, then more visits; unvisited last."""
    n = rec["win"] + rec["loss"]
    return (_value(rec), n) if n else (-1.0, 0)


def greedy_move(game, tree, state, values=None):
    """The move at decision ``state`` whose child has the best record in ``tree``.

    The best win rate (a record's ``'value'`` where it keeps one) wins; ties
    go to more visits, then to the first move in the game's order; unvisited
    children rank last. With ``values`` (a map state
    -> estimated value for the mover into it, e.g. ``backed_up_values``), the
    best value wins instead, unvalued children last.

    >>> from fnmcts.games.shut_the_box import ShutTheBox
    >>> game = ShutTheBox()
    >>> state = game.play(frozenset({1, 2, 3}), 3)
    >>> tree = pmap({frozenset({1, 2}): record(1, 9), frozenset({3}): record(2, 8)})
    >>> sorted(greedy_move(game, tree, state))
    [3]
    """
    moves = game.possible_moves(state)
    if not moves:
        raise ValueError(f"no move to choose at {state!r}")
    best, best_key = None, None
    for move in moves:
        child = game.play(state, move)
        rec = tree.get(child, EMPTY_RECORD)
        if values is not None:
            v = values.get(child)
            key = (v, visits(rec)) if v is not None else (-math.inf, 0)
        else:
            key = _child_key(rec)
        if best_key is None or key > best_key:
            best, best_key = move, key
    return best


def greedy_policy(tree, values=None) -> Callable:
    """The policy read off ``tree``, for ``exact.evaluate_policy``.

    At a decision with at least one visited child: the ``greedy_move`` (with
    probability 1). Where the tree knows none of the children, the search's own
    default policy: uniformly random.

    >>> from fnmcts.exact import evaluate_policy, value
    >>> from fnmcts.games.shut_the_box import ShutTheBox, start_box
    >>> from fnmcts.rng import make_rng
    >>> game = ShutTheBox()
    >>> tree = search(game, start_box, 2_000, make_rng(1))
    >>> float(value(evaluate_policy(game, greedy_policy(tree)), start_box)[0]) > 0.0203
    True
    """

    def policy(game, state):
        moves = game.possible_moves(state)
        known = values if values is not None else tree
        if not any(game.play(state, m) in known for m in moves):
            p = Fraction(1, len(moves))
            return tuple((m, p) for m in moves)
        return ((greedy_move(game, tree, state, values), Fraction(1)),)

    return policy


def backed_up_values(game, tree):
    """Expectimax over the tree: each stored state's estimated value for its mover.

    The tree's records are sampled under exploration; this backs them up with
    the game's exact chance probabilities instead. A stored state's value: at a
    decision, the best child that is stored or terminal (its complement when
    the other of two players decides); at a chance node, the outcomes weighted
    by their probabilities; at the end, the payoff (1 for a win, else 0). Where
    nothing below is known (no stored or terminal child), the state's own win
    rate stands in. Returns a plain ``dict`` state -> float.

    >>> from fnmcts.games.shut_the_box import ShutTheBox
    >>> tree = pmap({frozenset({2}): record(win=1, loss=0)})
    >>> backed_up_values(ShutTheBox(), tree)[frozenset({2})] == 1 / 36
    True
    """
    values: dict = {}

    def value_of(state, mover):
        v = values.get(state)
        if v is None:
            v = values[state] = _estimate(state, mover, win_rate(tree[state]))
        return v

    def _estimate(state, mover, fallback):
        player = game.to_move(state)
        if player is None:
            return 1.0 if game.payoff(state)[mover] > 0 else 0.0
        if player is CHANCE:
            return sum(
                float(p) * _estimate(game.play(state, outcome), mover, fallback)
                for outcome, p in game.chance_outcomes(state)
            )
        best = None
        for move in game.possible_moves(state):
            child = game.play(state, move)
            if child in tree:
                v = value_of(child, player)
            elif game.to_move(child) is None:
                v = 1.0 if game.payoff(child)[player] > 0 else 0.0
            else:
                continue
            best = v if best is None or v > best else best
        if best is None:
            return fallback
        return best if player == mover else 1.0 - best

    import sys

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20_000))
    try:
        for state in tree:
            value_of(state, _root_mover(game, state))
    finally:
        sys.setrecursionlimit(limit)
    return pmap(values)


# -- tree views ------------------------------------------------------------------------------


def top_children(game, tree, state, k: int = 5) -> tuple:
    """The ``k`` most visited moves at decision ``state``: ``((move, record), ...)``.

    >>> from fnmcts.games.nim import Nim
    >>> game = Nim(heap=5, max_take=3)
    >>> tree = pmap({game.state(4, 1): record(1, 2), game.state(3, 1): record(4, 0)})
    >>> [(m, visits(r)) for m, r in top_children(game, tree, game.start(), k=2)]
    [(2, 4), (1, 3)]
    """
    scored = [
        (move, tree.get(game.play(state, move), EMPTY_RECORD)) for move in game.possible_moves(state)
    ]
    order = sorted(range(len(scored)), key=lambda i: (-visits(scored[i][1]), i))
    return tuple(scored[i] for i in order[:k])


def principal_variation(game, tree, state, limit: int = 50) -> tuple:
    """The most visited line from ``state``: ``((move, record), ...)``.

    At a chance node the most likely outcome is followed (record: the state
    after it, if stored). Stops at the end of the game, where the tree knows no
    child, or after ``limit`` steps.

    >>> from fnmcts.games.nim import Nim
    >>> game = Nim(heap=3, max_take=3)
    >>> tree = pmap({game.state(1, 1): record(3, 0), game.state(0, 0): record(0, 3)})
    >>> [m for m, _ in principal_variation(game, tree, game.start())]
    [2, 1]
    """
    line = []
    for _ in range(limit):
        player = game.to_move(state)
        if player is None:
            break
        if player is CHANCE:
            outcome = max(game.chance_outcomes(state), key=lambda op: op[1])[0]
            state = game.play(state, outcome)
            line.append((outcome, tree.get(state, EMPTY_RECORD)))
            continue
        move, rec = top_children(game, tree, state, k=1)[0]
        if visits(rec) == 0:
            break
        line.append((move, rec))
        state = game.play(state, move)
    return tuple(line)


# -- agents --------------------------------------------------------------------------------


class MoveSearch(PRecord):
    """What ``mcts_move`` found: the move, the tree, the proofs, the root's children."""

    move = field(mandatory=True)
    tree = field(mandatory=True)
    proven = field(mandatory=True)
    iterations = field(type=int, mandatory=True)
    children = field(mandatory=True)


def _final_move(game, state, counts, proven, final):
    moves = game.possible_moves(state)
    children = [(m, game.play(state, m)) for m in moves]
    if proven is not None:
        for m, c in children:
            if proven.get(c) is True:
                return m
        open_ = [(m, c) for m, c in children if proven.get(c) is not False]
        children = open_ or children

    def key(mc):
        w, l = counts.get(mc[1]) or (0, 0)
        n = w + l
        if final == "mean":
            return (w / n if n else -1.0, n)
        return (n, w / n if n else -1.0)

    best, best_key = None, None
    for mc in children:
        k = key(mc)
        if best_key is None or k > best_key:
            best, best_key = mc[0], k
    return best


def _resolve_rule(rule, c, z):
    if isinstance(rule, str):
        if rule not in RULES:
            raise ValueError(f"unknown rule {rule!r}: choose from {sorted(RULES)}")
        rule = RULES[rule]
        if rule is ucb1:
            return partial(ucb1, c=c)
        return partial(ucb, z=z)
    if not callable(rule):
        raise TypeError(f"rule must be a name or a function, got {rule!r}")
    return rule


def mcts_move(
    game,
    state,
    iterations: int,
    rng: random.Random,
    *,
    rule="ucb1",
    c: float = math.sqrt(2),
    z: float = 2,
    final: str = "visits",
    solver: bool = True,
    rollout=None,
    tree=None,
) -> MoveSearch:
    """Search ``iterations`` dives from decision ``state``; return the move and the tree.

    ``rule``: ``'ucb1'`` (with ``c``), ``'tutorial'`` (the tutorial's ``ucb``
    with ``z``) or a function of a record. ``final``: the root move with the
    most visits (``'visits'``) or the best win rate (``'mean'``). ``solver``:
    MCTS-Solver, proven wins and losses propagate up the tree, a proven win is
    played at once and proven losses are avoided. ``rollout``: the agent for the
    playouts (default: random). With the solver the search stops as soon as
    the root is proven; ``iterations`` in the result counts the dives run.

    >>> from fnmcts.games.nim import Nim
    >>> from fnmcts.rng import make_rng
    >>> game = Nim(heap=22, max_take=3)
    >>> found = mcts_move(game, game.start(), 2_000, make_rng(1))
    >>> found.move, found.proven[game.play(game.start(), found.move)]
    (1, True)
    """
    if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
        raise ValueError(f"iterations must be a positive whole number, got {iterations!r}")
    if final not in ("visits", "mean"):
        raise ValueError(f"final must be 'visits' or 'mean', got {final!r}")
    check_rng(rng)
    player = game.to_move(check_state(game, state))
    if player is None or player is CHANCE:
        raise ValueError(f"no player is to move at {state!r}")
    moves = game.possible_moves(state)
    rule = _resolve_rule(rule, c, z)
    rating = _rating(rule)
    counts = _thaw(pmap() if tree is None else _check_tree(tree))
    proven = {} if solver else None
    kernel = _nim_kernel(game, rule, rollout)
    before = sum(counts.get(state, (0, 0)))
    if kernel is not None:
        counts, proven = kernel(game, state, iterations, rng, rating, counts, proven, stop_when_proven=True)
    else:
        _engine_dives(game, state, iterations, rng, rating, counts, rollout, proven, stop_when_proven=True)
    done = sum(counts.get(state, (0, 0))) - before
    move = moves[0] if len(moves) == 1 else _final_move(game, state, counts, proven, final)
    frozen = _freeze(counts)
    children = tuple((m, frozen.get(game.play(state, m), EMPTY_RECORD)) for m in moves)
    return MoveSearch(
        move=move,
        tree=frozen,
        proven=pmap(proven or {}),
        iterations=done,
        children=children,
    )


DEFAULT_ITERATIONS = 10_000
"""The default budget of ``mcts_agent``: dives a move, at most (the solver may stop sooner)."""


def mcts_agent(iterations: int = DEFAULT_ITERATIONS, **options) -> Callable:
    """An agent ``(game, state, rng) -> move`` that runs ``mcts_move`` each turn.

    Options as for ``mcts_move`` (``rule``, ``c``, ``z``, ``final``, ``solver``,
    ``rollout``). Plays every game of the protocol: Nim, Piles, Shut the Box.
    The agent is a ``functools.partial``: it pickles, so it runs in worker
    processes too.

    >>> from fnmcts.games.nim import Nim
    >>> from fnmcts.rng import make_rng
    >>> game = Nim(heap=10, max_take=3, misere=False)
    >>> mcts_agent(500)(game, game.start(), make_rng(2))
    2
    """
    if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
        raise ValueError(f"iterations must be a positive whole number, got {iterations!r}")
    unknown = set(options) - {"rule", "c", "z", "final", "solver", "rollout"}
    if unknown:
        raise TypeError(f"unknown mcts_agent options: {sorted(unknown)}")
    if options.get("final", "visits") not in ("visits", "mean"):
        raise ValueError(f"final must be 'visits' or 'mean', got {options['final']!r}")
    _resolve_rule(options.get("rule", "ucb1"), options.get("c", math.sqrt(2)), options.get("z", 2))

    return partial(_agent_move, iterations, tuple(sorted(options.items())))


def _agent_move(iterations, options, game, state, rng):
    """One move of an ``mcts_agent``: module level, so agents pickle for worker processes."""
    return mcts_move(game, state, iterations, rng, **dict(options)).move


def _nim_kernel(game, rule, rollout):
    """The integer kernel for single-heap Nim, or None when it does not apply."""
    from .games.nim import Nim

    if type(game) is not Nim or rollout is not None or not _known_rule(rule):
        return None
    if game.heap > NIM_KERNEL_MAX_HEAP:  # its tables grow with the heap; the engine's with the tree
        return None
    return _nim_search


NIM_KERNEL_MAX_HEAP = 10_000
"""Above this heap size single-heap Nim runs on the protocol engine, whose memory grows with the tree."""


def _rule_spec(rating):
    """``('ucb', z)`` or ``('ucb1', c)`` for the built-in ratings, else None."""
    return getattr(rating, "spec", None)


def _nim_plain(game, state, iterations, rng, spec, counts):
    """Nim dives without the solver, on lists indexed by ``2*heap + player``.

    The rating is inlined; the arithmetic is that of ``ucb`` / ``ucb1``
    operation for operation (the mean ``w/n`` is kept from the last update),
    so the tree equals the engine's (a property test checks it).
    """
    K, misere = game.max_take, game.misere
    top = max([state["heap"]] + [s["heap"] for s in counts])
    size = 2 * (top + 1)
    W, N, M = [0] * size, [0] * size, [0.0] * size
    stored = [False] * size
    for s, (w, l) in counts.items():
        key = 2 * s["heap"] + s["player"]
        W[key], N[key], stored[key] = w, w + l, True
        M[key] = w / (w + l) if w + l else 0.0
    kids = [
        tuple(2 * ((s >> 1) - t) + ((s & 1) ^ 1) for t in range(1, min(K, s >> 1) + 1)) for s in range(size)
    ]
    root = 2 * state["heap"] + state["player"]
    rnd = rng.random
    sqrt, log = math.sqrt, math.log
    tutorial = spec[0] == "ucb"
    z = c = spec[1]
    terminal_win = not misere
    for _ in range(iterations):
        s = root
        path = [s]
        while True:
            h = s >> 1
            if not stored[s]:
                if h == 0:
                    won = terminal_win
                    break
                parity = 0
                while h:
                    k = K if K < h else h
                    h -= 1 + int(rnd() * k) if k > 1 else 1
                    parity ^= 1
                won = (parity == 0) == terminal_win
                break
            if h == 0:
                won = terminal_win
                break
            best, best_rating = -1, -math.inf
            if tutorial:
                for kid in kids[s]:
                    n = N[kid]
                    if not n:
                        best = kid
                        break
                    w = W[kid]
                    r = 3 / n if w == 0 else (w + z * sqrt(w * (n - w) / n)) / n
                    if r > best_rating:
                        best, best_rating = kid, r
            else:
                lp = log(N[s])
                for kid in kids[s]:
                    n = N[kid]
                    if not n:
                        best = kid
                        break
                    r = M[kid] + c * sqrt(lp / n)
                    if r > best_rating:
                        best, best_rating = kid, r
            s = best
            path.append(s)
        for node in reversed(path):
            stored[node] = True
            n = N[node] = N[node] + 1
            if won:
                w = W[node] = W[node] + 1
                M[node] = w / n
            else:
                M[node] = W[node] / n
            won = not won
    out = {}
    for key in range(size):
        if stored[key]:
            out[pmap({"heap": key >> 1, "player": key & 1})] = [W[key], N[key] - W[key]]
    return out, None


def _nim_search(game, state, iterations, rng, rating, counts, proven, stop_when_proven=False):
    """Dives on integer states ``2*heap + player``; the same draws as the engine."""
    spec = _rule_spec(rating)
    if proven is None and spec is not None:
        return _nim_plain(game, state, iterations, rng, spec, counts)
    K, misere = game.max_take, game.misere
    icounts = {2 * s["heap"] + s["player"]: rec for s, rec in counts.items()}
    iproven = None if proven is None else {}
    root = 2 * state["heap"] + state["player"]
    rnd = rng.random
    inf = math.inf
    # at a terminal node (heap 0) the mover into it took the last item
    terminal_win = not misere
    for _ in range(iterations):
        if stop_when_proven and iproven is not None and root in iproven:
            break
        s = root
        path = [s]
        while True:
            if iproven is not None and s in iproven:
                won = iproven[s]
                break
            rec = icounts.get(s)
            if rec is None:
                h = s >> 1
                if h == 0:
                    won = terminal_win
                    if iproven is not None:
                        iproven[s] = won
                    break
                # random playout: the mover into s is the one not to move
                parity = 0  # moves made in the playout
                while h:
                    k = K if K < h else h
                    h -= 1 + int(rnd() * k) if k > 1 else 1
                    parity ^= 1
                # the last taker is the mover into s when parity is even
                won = (parity == 0) == terminal_win
                break
            h = s >> 1
            if h == 0:
                won = terminal_win
                if iproven is not None:
                    iproven[s] = won
                break
            nxt_player = (s & 1) ^ 1
            parent = rec[0] + rec[1]
            best, best_rating = -1, -inf
            k = K if K < h else h
            if iproven is not None:
                kids = [2 * (h - t) + nxt_player for t in range(1, k + 1)]
                win_kid = -1
                open_kids = []
                for kid in kids:
                    status = iproven.get(kid)
                    if status is True:
                        win_kid = kid
                        break
                    if status is None:
                        open_kids.append(kid)
                if win_kid >= 0:
                    best = win_kid
                else:
                    for kid in open_kids or kids:
                        c = icounts.get(kid)
                        r = rating(c[0], c[1], parent) if c is not None else inf
                        if r > best_rating:
                            best, best_rating = kid, r
            else:
                for t in range(1, k + 1):
                    kid = 2 * (h - t) + nxt_player
                    c = icounts.get(kid)
                    r = rating(c[0], c[1], parent) if c is not None else inf
                    if r > best_rating:
                        best, best_rating = kid, r
            s = best
            path.append(s)
        # results alternate: the mover into consecutive path nodes alternates
        for node in reversed(path):
            rec = icounts.get(node)
            if rec is None:
                icounts[node] = rec = [0, 0]
            if won:
                rec[0] += 1
            else:
                rec[1] += 1
            won = not won
        if iproven is not None:
            for node in reversed(path[:-1]):
                if node in iproven:
                    continue
                h = node >> 1
                k = K if K < h else h
                nxt_player = (node & 1) ^ 1
                status = [iproven.get(2 * (h - t) + nxt_player) for t in range(1, k + 1)]
                if True in status:
                    iproven[node] = False
                elif all(x is False for x in status):
                    iproven[node] = True
                else:
                    break
    states = {}

    def state_of(key):
        st = states.get(key)
        if st is None:
            st = states[key] = pmap({"heap": key >> 1, "player": key & 1})
        return st

    out = {state_of(k): rec for k, rec in icounts.items()}
    out_proven = None if iproven is None else {state_of(k): v for k, v in iproven.items()}
    return out, out_proven
