"""Reading a finished tree: greedy moves and policies, backed-up values, top children, lines, views.

The views are plain functions returning text: ``tree_summary`` (a state's top
children with visits, mean, ucb and exact value side by side), ``line_summary``
(the principal variation), ``aligned_table`` (rows of any table, aligned) and
``to_dot`` (the top levels of a tree as Graphviz DOT text).

>>> from fnmcts.games.nim import Nim
>>> game = Nim(heap=5, max_take=3)
>>> tree = pmap({game.state(4, 1): record(1, 2), game.state(3, 1): record(4, 0)})
>>> greedy_move(game, tree, game.start())
2
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction
from typing import Callable

from pyrsistent import pmap

from ..protocol import CHANCE, check_state, describe_move
from ..mcts._graph import mover_into as _mover
from ..mcts._graph import rescaler
from ..mcts._records import EMPTY_RECORD, mean, record, ucb, visits, win_rate  # noqa: F401 (record: doctests)

__all__ = [
    "dives_win_rate",
    "greedy_move",
    "greedy_policy",
    "backed_up_values",
    "top_children",
    "principal_variation",
    "tree_summary",
    "line_summary",
    "aligned_table",
    "to_dot",
]


def dives_win_rate(tree, state) -> float:
    """The tutorial's measure: the share of dives from ``state`` that were won.

    >>> dives_win_rate(pmap({frozenset({7}): record(win=1, loss=3)}), frozenset({7}))
    0.25
    """
    _check_reading(None, tree)
    return win_rate(tree.get(state, EMPTY_RECORD))


def _check_reading(game, tree, *state) -> None:
    """A ``TypeError`` naming the slip: ``mcts_move``'s ``MoveSearch`` for its tree, the game and the tree swapped;
    ``check_state``'s error for a ``state`` of another game.

    >>> from fnmcts.games.nim import Nim
    >>> _check_reading(Nim(), pmap()), _check_reading(None, {})
    (None, None)
    >>> _check_reading(pmap(), Nim())
    Traceback (most recent call last):
    ...
    TypeError: the game comes first, then the tree: got a PMap for the game
    """
    if game is not None and not hasattr(game, "to_move"):
        raise TypeError(f"the game comes first, then the tree: got a {type(game).__name__} for the game")
    if hasattr(tree, "move") and hasattr(tree, "tree"):  # mcts_move's result: the tree is one of its fields
        raise TypeError(f"tree must be a search tree (a map state -> record), got a {type(tree).__name__}: "
                        f"its .tree is the tree the search grew")
    if not isinstance(tree, Mapping):
        raise TypeError(f"tree must be a search tree (a map state -> record), got {type(tree).__name__}")
    for s in state:
        check_state(game, s)


def _estimate(rec) -> float:
    """A record's estimate: its ``'value'`` if it keeps one, else its mean payoff."""
    v = rec.get("value")
    return mean(rec) if v is None else v


def _child_key(rec):
    """Greedy order: the best value (or mean) first, then more visits; unvisited last."""
    n = visits(rec)
    return (_estimate(rec), n) if n else (-1.0, 0)


def greedy_move(game, tree, state, values=None):
    """The move at decision ``state`` whose child has the best record in ``tree``, the proofs first.

    The proofs decide first, as in ``mcts_move``: a move proven to give the
    player the best payoff there is (the records' ``proven`` values, and the
    ends of the game, proven at sight) is played, the shortest such win
    first; when every move is proven, the best value (the longest defence of
    a loss); and a move proven worse than another is never chosen. Among the
    moves left, the best mean payoff (a record's ``'value'`` where it keeps
    one) wins; ties go to more visits, then to the first move in the game's
    order; unvisited children rank last. With ``values`` (a map state ->
    estimated value for the mover into it, e.g. ``backed_up_values``), the
    best value wins instead, unvalued children last.

    >>> from fnmcts.games.shut_the_box import ShutTheBox
    >>> game = ShutTheBox()
    >>> state = game.play(frozenset({1, 2, 3}), 3)
    >>> tree = pmap({frozenset({1, 2}): record(1, 9), frozenset({3}): record(2, 8)})
    >>> sorted(greedy_move(game, tree, state))
    [3]

    A child proven won beats a better mean (misère Nim: taking the last
    item loses, so leaving heap 1 wins):

    >>> from fnmcts.games.nim import Nim
    >>> nim = Nim(heap=3, max_take=3)
    >>> tree = pmap({nim.state(1, 1): record(1, 3, proven=(1, -1)), nim.state(2, 1): record(3, 1)})
    >>> greedy_move(nim, tree, nim.start())
    2
    """
    _check_reading(game, tree, state)
    if not game.possible_moves(state):
        raise ValueError(f"no move to choose at {state!r}")
    return _greedy(game, tree, state, values, _tree_proofs(game, tree))


def _greedy(game, tree, state, values, proofs):
    """``greedy_move`` with the tree's proofs read already (``proofs``: a ``TreeProofs`` of ``tree``)."""
    chosen, left = proofs.choice(state)
    if chosen is not None:
        return chosen
    best, best_key = None, None
    for move in left:
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


def _tree_proofs(game, tree):
    """The proofs ``tree`` keeps, as the search reads them (``fnmcts.mcts._search.TreeProofs``)."""
    from ..mcts._search import TreeProofs

    return TreeProofs(game, tree)


def greedy_policy(tree, values=None) -> Callable:
    """The policy read off ``tree``, for ``exact.evaluate_policy``.

    At a decision with at least one visited child: the ``greedy_move`` (with
    probability 1): the proofs' choice first, as ``mcts_move``'s. Where the
    tree knows none of the children the proofs leave open, the search's own
    default policy among them: uniformly random.

    >>> from fnmcts.exact import evaluate_policy, value
    >>> from fnmcts.games.shut_the_box import ShutTheBox, start_box
    >>> from fnmcts.rng import make_rng
    >>> from fnmcts.mcts import search
    >>> game = ShutTheBox()
    >>> tree = search(game, start_box, 2_000, make_rng(1))
    >>> float(value(evaluate_policy(game, greedy_policy(tree)), start_box)[0]) > 0.0203
    True
    """
    _check_reading(None, tree)

    held = []  # the proofs of the tree, read once for the policy's game (a policy is asked at every state)

    def policy(game, state):
        if not held or held[0].game != game:
            held[:] = [_tree_proofs(game, tree)]
        proofs = held[0]
        chosen, left = proofs.choice(state)
        if chosen is not None:
            return ((chosen, Fraction(1)),)
        known = values if values is not None else tree
        if not any(game.play(state, m) in known for m in left):
            p = Fraction(1, len(left))
            return tuple((m, p) for m in left)
        return ((_greedy(game, tree, state, values, proofs), Fraction(1)),)

    return policy


def backed_up_values(game, tree):
    """Expectimax over the tree: each stored state's estimated value for its mover.

    The tree's records are sampled under exploration; this backs them up with
    the game's exact chance probabilities instead. A stored state's value: at a
    decision, the best child that is stored or terminal (its complement when
    another player decides); at a chance node, the outcomes weighted by their
    probabilities; at the end, the payoff rescaled to [0, 1]. Where nothing
    below is known (no stored or terminal child), the state's own mean stands
    in. Returns an immutable map (a ``pmap``) state -> float.

    >>> from fnmcts.games.shut_the_box import ShutTheBox
    >>> tree = pmap({frozenset({2}): record(win=1, loss=0)})
    >>> backed_up_values(ShutTheBox(), tree)[frozenset({2})] == 1 / 36
    True
    """
    _check_reading(game, tree)
    rescale = rescaler(game)
    values: dict = {}

    def estimate(state, mover, fallback, pending):
        """The value of ``state`` for ``mover``, or None while a stored child is pending."""
        player = game.to_move(state)
        if player is None:
            return float(rescale(game.payoff(state))[mover])
        if player is CHANCE:
            total = 0.0
            for outcome, p in game.chance_outcomes(state):
                v = estimate(game.play(state, outcome), mover, fallback, pending)
                if v is None:
                    return None
                total += float(p) * v
            return total
        best = None
        for move in game.possible_moves(state):
            child = game.play(state, move)
            if child in tree:
                v = values.get((child, player))
                if v is None:
                    pending.append((child, player))
                    continue
            elif game.to_move(child) is None:
                v = float(rescale(game.payoff(child))[player])
            else:
                continue
            best = v if best is None or v > best else best
        if pending:
            return None
        if best is None:
            return fallback
        return best if player == mover else 1.0 - best

    for root in tree:
        stack = [(root, _mover(game, root))]
        while stack:  # depth first, without recursion: a deep tree needs no recursion limit
            key = stack[-1]
            if key in values:
                stack.pop()
                continue
            state, mover = key
            pending: list = []
            v = estimate(state, mover, mean(tree[state]), pending)
            if v is None:
                fresh = [k for k in pending if k not in values and k not in stack]
                if not fresh:
                    raise ValueError(f"the tree has a cycle through {state!r}")
                stack.extend(fresh)
                continue
            values[key] = v
            stack.pop()
    # each state's value for the player who moved into it: for a finished state, the
    # player whose choice reached it (the state cannot say), where a parent is stored
    by_parent = {state: v for (state, mover), v in values.items() if mover != _mover(game, state)}
    out = {}
    for state in tree:
        if game.to_move(state) is None and state in by_parent:
            out[state] = by_parent[state]
        else:
            out[state] = values[(state, _mover(game, state))]
    return pmap(out)


def _likeliest(game, state, k=None) -> tuple:
    """The chance outcomes at ``state``, likeliest first (ties: the game's order)."""
    outcomes = list(game.chance_outcomes(state))
    order = sorted(range(len(outcomes)), key=lambda i: (-outcomes[i][1], i))
    return tuple(outcomes[i] for i in order[:k])


def top_children(game, tree, state, k: int = 5) -> tuple:
    """The ``k`` most visited moves at decision ``state``: ``((move, record), ...)``.

    At a chance node (the dice roll next) the moves depend on the outcome, so
    there is one entry per outcome instead, the ``k`` likeliest first:
    ``(outcome, (move, record))``, the most visited move after that outcome
    (``(outcome, None)`` where no move is possible). At the end of the game: ``()``.

    >>> from fnmcts.games.nim import Nim
    >>> game = Nim(heap=5, max_take=3)
    >>> tree = pmap({game.state(4, 1): record(1, 2), game.state(3, 1): record(4, 0)})
    >>> [(m, visits(r)) for m, r in top_children(game, tree, game.start(), k=2)]
    [(2, 4), (1, 3)]
    >>> from fnmcts.games.shut_the_box import ShutTheBox
    >>> box = frozenset({1, 2, 3})
    >>> tree = pmap({frozenset({1, 2}): record(2, 3), frozenset({3}): record(1, 1)})
    >>> per_roll = dict(top_children(ShutTheBox(), tree, box, k=11))
    >>> per_roll[3], per_roll[7]
    ((frozenset({1, 2}), Record(win=2, loss=3)), None)
    """
    _check_reading(game, tree, state)
    player = game.to_move(state)
    if player is CHANCE:
        out = []
        for outcome, _ in _likeliest(game, state, k):
            after = game.play(state, outcome)
            best = top_children(game, tree, after, k=1) if game.to_move(after) is not None else ()
            out.append((outcome, best[0] if best else None))
        return tuple(out)
    if player is None:
        return ()
    scored = [(move, tree.get(game.play(state, move), EMPTY_RECORD)) for move in game.possible_moves(state)]
    order = sorted(range(len(scored)), key=lambda i: (-visits(scored[i][1]), i))
    return tuple(scored[i] for i in order[:k])


def principal_variation(game, tree, state, limit: int = 50) -> tuple:
    """The most visited line from ``state``: ``((move, record), ...)``, the proofs first.

    At a decision the move the proofs choose, as ``mcts_move``'s (a proven
    win, the longest defence of a loss), else the most visited of the moves
    not proven worse (the first in move order on ties). At a chance node the likeliest outcome is followed, and its entry is
    ``(outcome, probability)`` (a ``Fraction``): the tree keeps no record of a
    roll. Stops at the end of the game, where the tree knows no child, or
    after ``limit`` steps.

    >>> from fnmcts.games.nim import Nim
    >>> game = Nim(heap=3, max_take=3)
    >>> tree = pmap({game.state(1, 1): record(3, 0), game.state(0, 0): record(0, 3)})
    >>> [m for m, _ in principal_variation(game, tree, game.start())]
    [2, 1]
    >>> from fnmcts.games.shut_the_box import ShutTheBox
    >>> principal_variation(ShutTheBox(), pmap({frozenset(): record(1, 0)}), frozenset({7}))
    ((7, Fraction(1, 6)), (frozenset(), Record(win=1, loss=0)))
    """
    _check_reading(game, tree, state)
    line, proofs = [], None
    for _ in range(limit):
        player = game.to_move(state)
        if player is None:
            break
        if player is CHANCE:
            outcome, p = _likeliest(game, state, 1)[0]
            state = game.play(state, outcome)
            line.append((outcome, p))
            continue
        if proofs is None:
            proofs = _tree_proofs(game, tree)
        move, left = proofs.choice(state)
        chosen = move is not None
        if not chosen:  # the most visited, the first in move order on ties
            move = max(left, key=lambda m: visits(tree.get(game.play(state, m), EMPTY_RECORD)))
        rec = tree.get(game.play(state, move), EMPTY_RECORD)
        if visits(rec) == 0 and not chosen:  # the tree knows no child there (a proven move is followed)
            break
        line.append((move, rec))
        state = game.play(state, move)
    return tuple(line)


# -- views: text for a terminal, a handout or a notebook --------------------------------


def _number(x, digits: int = 4) -> str:
    if x is None:
        return "-"
    if isinstance(x, float) and math.isinf(x):
        return "inf"
    return f"{float(x):.{digits}f}"


def _text(value) -> str:
    """A table cell: numbers rounded, sets of numbers as their sorted members, tuples spaced."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, (float, Fraction)):
        return _number(value)
    if isinstance(value, (frozenset, set)):
        return " ".join(str(x) for x in sorted(value)) if value else "{}"
    if isinstance(value, tuple):
        return " ".join(_text(x) for x in value) if value else "-"
    return str(value)


def aligned_table(rows, columns) -> str:
    """Rows as an aligned text table: one column per name in ``columns``.

    A row is a mapping or a record with those keys or fields (a best-move
    table's rows, a look-up table's entries, a record). Numbers show four
    decimals, a set of numbers its sorted members, a tuple its items.

    >>> print(aligned_table([{'move': 1, 'visits': 10, 'mean': 0.25}, {'move': 2, 'visits': 3, 'mean': 1.0}],
    ...                     ('move', 'visits', 'mean')))
    move  visits  mean
    1     10      0.2500
    2     3       1.0000
    """
    cells = [[str(c) for c in columns]]
    for row in rows:
        get = row.get if hasattr(row, "get") else (lambda name, r=row: getattr(r, name, None))
        cells.append([_text(get(c)) for c in columns])
    widths = [max(len(line[i]) for line in cells) for i in range(len(columns))]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(line, widths)).rstrip() for line in cells)


def _exact_values(game, state):
    """``child -> value for its mover, on [0, 1]``, from the exact solver (None: not wanted)."""
    from ..exact import solve

    solved = solve(game, state)
    rescale = rescaler(game)
    return lambda child, player: float(rescale(solved[child])[player])


def _rows_at(game, tree, state, k, rule, exact):
    """The summary rows of decision ``state``: move, visits, mean, ucb, exact value."""
    player = game.to_move(state)
    children = top_children(game, tree, state, k=None)
    parent = sum(visits(rec) for _, rec in children)
    rows = []
    for move, rec in children[:k]:
        n = visits(rec)
        rows.append(
            {
                "move": describe_move(game, state, move),
                "visits": n,
                "mean": _estimate(rec) if n else None,
                "ucb": rule(rec, parent_visits=parent),
                "exact": exact(game.play(state, move), player) if exact else None,
            }
        )
    return rows


def tree_summary(game, tree, state, k: int = 5, rule=ucb, exact: bool = True) -> str:
    """The top children of ``state`` as a table: visits, mean, ucb and exact value side by side.

    ``mean`` is the record's mean payoff for the mover (its ``value`` with the
    expectimax backup), ``ucb`` the selection ``rule``'s rating (default: the
    tutorial's ``ucb``), ``exact`` the child's exact value for the mover under
    optimal play from there (``fnmcts.exact.solve``; ``exact=False`` for a game
    too large to solve). At a chance node (the dice roll next) one row per
    outcome, likeliest first: its probability and the most visited move there.

    >>> from fnmcts.games.nim import Nim
    >>> game = Nim(heap=6, max_take=3)
    >>> tree = pmap({game.state(5, 1): record(3, 1), game.state(4, 1): record(1, 2)})
    >>> print(tree_summary(game, tree, game.start()))
    move    visits  mean    ucb     exact
    take 1  4       0.7500  1.1830  1.0000
    take 2  3       0.3333  0.8777  0.0000
    take 3  0       -       inf     0.0000
    """
    _check_reading(game, tree, state)
    player = game.to_move(state)
    values = _exact_values(game, state) if exact and player is not None else None
    if player is None:
        return f"the game is over: payoff {game.payoff(state)}"
    if player is CHANCE:
        rows = []
        for outcome, p in _likeliest(game, state):
            after = game.play(state, outcome)
            if game.to_move(after) is None:
                rows.append({"outcome": outcome, "p": p, "move": "game over"})
                continue
            best = _rows_at(game, tree, after, 1, rule, values)
            rows.append({"outcome": outcome, "p": p, **(best[0] if best else {"move": "no move"})})
        return "chance moves next: one row per outcome, its most visited move\n" + aligned_table(
            rows, ("outcome", "p", "move", "visits", "mean", "ucb", "exact")
        )
    return aligned_table(_rows_at(game, tree, state, k, rule, values), ("move", "visits", "mean", "ucb", "exact"))


def line_summary(game, tree, state, limit: int = 10) -> str:
    """The principal variation as a table: each step's mover, move, visits and mean.

    Chance steps show the outcome followed (the likeliest) and its probability.

    >>> from fnmcts.games.nim import Nim
    >>> game = Nim(heap=3, max_take=3)
    >>> tree = pmap({game.state(1, 1): record(3, 0), game.state(0, 0): record(0, 3)})
    >>> print(line_summary(game, tree, game.start()))
    step  mover     move    visits  mean
    1     player 1  take 2  3       1.0000
    2     player 2  take 1  3       0.0000
    """
    rows = []
    for step, (move, rec) in enumerate(principal_variation(game, tree, state, limit), 1):
        player = game.to_move(state)
        if player is CHANCE:
            rows.append({"step": step, "mover": "chance", "move": f"{move} (p {_number(rec)})"})
        else:
            n = visits(rec)
            rows.append({"step": step, "mover": f"player {player + 1}", "move": describe_move(game, state, move),
                         "visits": n, "mean": _estimate(rec) if n else None})
        state = game.play(state, move)
    return aligned_table(rows, ("step", "mover", "move", "visits", "mean"))


def _dot_text(text) -> str:
    return '"' + str(text).replace("\\", "\\\\").replace('"', '\\"') + '"'


def to_dot(game, tree, state, depth: int = 2, k: int = 5) -> str:
    """The top ``depth`` levels of ``tree`` below ``state`` as Graphviz DOT text.

    A node shows its record (visits and mean for the player who moved into it);
    an edge its move, or its outcome and probability at a chance node. Up to
    ``k`` children a node (the most visited; unvisited ones left out). Render
    it with ``dot -Tsvg tree.dot -o tree.svg``.

    >>> from fnmcts.games.nim import Nim
    >>> game = Nim(heap=3, max_take=3)
    >>> tree = pmap({game.start(): record(2, 4), game.state(1, 1): record(3, 0), game.state(0, 0): record(0, 3)})
    >>> print(to_dot(game, tree, game.start()))
    digraph tree {
      node [shape=box, fontname="Helvetica"];
      n0 [label="start\\nvisits 6\\nmean 0.3333"];
      n1 [label="visits 3\\nmean 1.0000"];
      n0 -> n1 [label="take 2"];
      n2 [label="visits 3\\nmean 0.0000"];
      n1 -> n2 [label="take 1"];
    }
    """
    _check_reading(game, tree, state)
    lines = ["digraph tree {", '  node [shape=box, fontname="Helvetica"];']
    ids = {}

    def label(s, title=None):
        rec = tree.get(s)
        parts = [title] if title else []
        if game.to_move(s) is CHANCE and rec is None:
            parts.append("chance")
        elif rec is not None and visits(rec):
            parts += [f"visits {visits(rec)}", f"mean {_number(_estimate(rec))}"]
        elif game.to_move(s) is None:
            parts.append("end")
        return "\\n".join(parts) or "-"

    def node(s, title=None):
        name = f"n{len(ids)}"
        ids[name] = s
        lines.append(f"  {name} [label={_dot_text(label(s, title)).replace(chr(92) * 2, chr(92))}];")
        return name

    def walk(s, name, level):
        if level >= depth:
            return
        player = game.to_move(s)
        if player is None:
            return
        if player is CHANCE:
            for outcome, p in _likeliest(game, s, k):
                after = game.play(s, outcome)
                child = node(after)
                lines.append(f"  {name} -> {child} [label={_dot_text(f'{outcome} (p {_number(p, 3)})')}];")
                walk(after, child, level + 1)
            return
        for move, rec in top_children(game, tree, s, k=k):
            if not visits(rec):
                continue
            after = game.play(s, move)
            child = node(after)
            lines.append(f"  {name} -> {child} [label={_dot_text(describe_move(game, s, move))}];")
            walk(after, child, level + 1)

    walk(state, node(state, "start"), 0)
    lines.append("}")
    return "\n".join(lines)
