"""The explorer page: a trace of a search as one self-contained HTML file, to step through in a browser.

``explore_page(trace)`` writes the page, open on the finished search: each dive
phase by phase (selection steps with their children's mean + bonus = score,
expansion, playout, backup node by node), the tree as it grows, fitted to its
pane (edge width: visits; colour: visit share, mean or error; chance nodes with
probabilities; labels by ``position_text``), a panel beside it for a node
clicked (record and whose, exact value, children's ratings), the root's shares
beside the exact best moves. ``explore_page(trace, other)`` adds a second trace
(same game and state, other options, same seed) and the first dive that differs.

The page is one file: its style, its script (``explorer/explorer.js``,
written for it, no library) and the trace's numbers (JSON) are inline, so any
browser opens it from a disk, with no server and no network. ``page_data`` is
the JSON it reads; the numbers on the page are the trace's, shown with three
decimals as ``fnmcts.views.format_number`` shows them (the terminal's
``fnmcts tour`` prints the same).
"""

from __future__ import annotations

import html
import json
import math
from fractions import Fraction
from functools import wraps
from importlib import resources

from ..exact import best_moves
from ..protocol import CHANCE, game_text, guarded, render
from ..mcts._records import builtin_rule, counts_of
from ._texts import _describe, _exact_for, _fraction_text, _outcome_states, _payoff_text, _player_name

__all__ = ["explore_page", "page_data", "iframe", "PAGE_DIVES"]

PAGE_DIVES = 2_000
"""The dives a page holds unless told otherwise (``dives=``): a page of more grows past a few megabytes."""

_RENDER_CHARS = 2_000
_CHANCE_STAGES = 8


def _read(name: str) -> str:
    return resources.files(__package__).joinpath("explorer", name).read_text(encoding="utf-8")


def _shows_a_trace(function):
    """``function`` (its first argument a trace) guarded: a game given first, as to ``trace``, is a ``TypeError``
    naming ``trace``; other calls it cannot take name its signature (``fnmcts.protocol.guarded``)."""
    verb = guarded(function)

    @wraps(function)
    def shown(*args, **options):
        if args and not _is_trace(args[0]) and callable(getattr(args[0], "to_move", None)):
            name = function.__name__
            raise TypeError(f"{name} shows a trace, not a game: {name}(trace(game, state, n, rng)), "
                            f"with trace from fnmcts.views")
        return verb(*args, **options)

    return shown


@_shows_a_trace
def explore_page(trace, other=None, *, title: str | None = None, dives: int | None = None) -> str:
    """The explorer page of ``trace`` (and of a second trace ``other``), as one self-contained HTML text.

    ``dives``: how many dives the page holds, from the first (default: all,
    at most ``PAGE_DIVES``); ``title``: the page's heading. Write the text to
    a file and open it in any browser.

    >>> from fnmcts.games import TicTacToe
    >>> from fnmcts.views import trace
    >>> from fnmcts.rng import make_rng
    >>> page = explore_page(trace(TicTacToe(), TicTacToe().start(), 20, make_rng(1)))
    >>> page.startswith("<!DOCTYPE html>"), "<script src" in page, "http" in page.split("</style>")[0]
    (True, False, False)
    """
    data = page_data(trace, other, dives=dives, title=title)
    text = json.dumps(data, separators=(",", ":"), allow_nan=False).replace("</", "<\\/")
    page = _read("explorer.html")
    page = page.replace("{{title}}", html.escape(data["title"]))
    page = page.replace("/*{{style}}*/", _read("explorer.css"))
    page = page.replace("{{data}}", text)
    page = page.replace("/*{{script}}*/", _read("explorer.js"))
    return page


def iframe(page: str, height: int = 820) -> str:
    """``page`` inside an ``<iframe srcdoc>``: how a notebook shows a whole page inline, scripts and all.

    >>> iframe("<p>hi</p>", height=100)
    '<iframe srcdoc="&lt;p&gt;hi&lt;/p&gt;" style="width: 100%; height: 100px; border: 1px solid #ccc" sandbox="allow-scripts"></iframe>'
    """
    return (
        f'<iframe srcdoc="{html.escape(page, quote=True)}" style="width: 100%; height: {int(height)}px; '
        'border: 1px solid #ccc" sandbox="allow-scripts"></iframe>'
    )


@_shows_a_trace
def page_data(trace, other=None, *, dives: int | None = None, title: str | None = None) -> dict:
    """The numbers the explorer page shows, as JSON-ready data: nodes, dives phase by phase, the comparison.

    Each trace gives its nodes (the states the page can draw, with their
    exact values, and chance nodes with their probabilities) and, per dive,
    its selection steps (every child compared: visits, mean, bonus, score),
    its expansion, playout and backup (each record before and after).

    >>> from fnmcts.games import Nim
    >>> from fnmcts.views import trace
    >>> from fnmcts.rng import make_rng
    >>> game = Nim(heap=5, max_take=2)
    >>> data = page_data(trace(game, game.start(), 5, make_rng(2)))
    >>> step = data["traces"][0]["dives"][4]["steps"][0]
    >>> [kid[1:] for kid in step["k"]], step["ch"]
    ([[1, 1.0, 0.0, 1.0, 'take 1'], [2, 0.0, 1.5, 1.5, 'take 2']], 1)
    """
    if not _is_trace(trace):
        raise TypeError(f"the explorer shows a trace (fnmcts.views.trace), got {type(trace).__name__}")
    if other is not None:
        if not _is_trace(other):
            raise TypeError(f"the second trace must be a trace too, got {type(other).__name__}")
        if other.game != trace.game or other.root != trace.root:
            raise ValueError("the two traces must be of the same game from the same state")
    if dives is None:
        dives = min(len(trace), PAGE_DIVES)
    if isinstance(dives, bool) or not isinstance(dives, int) or dives < 0:
        raise ValueError(f"dives is how many dives the page holds, a whole number, got {dives!r}")
    shown = [trace] if other is None else [trace, other]
    traces = [_TraceData(t, min(dives, len(t)), "AB"[j]).data() for j, t in enumerate(shown)]
    difference = None if other is None else trace.first_difference(other)
    game = trace.game
    if title is None:
        title = f"{game_text(game)}: {len(trace):,} dive{'' if len(trace) == 1 else 's'} of MCTS"
    return {
        "title": title,
        "game": game_text(game),
        "players": [_player_name(game, p) for p in range(max(1, getattr(game, "num_players", 1)))],
        "traces": traces,
        "difference": difference,
    }


def _is_trace(value) -> bool:
    return all(hasattr(value, name) for name in ("dive", "first_difference", "options"))


def _number(x):
    """A number for the page's JSON: a float, "inf" / "-inf" (JSON has no infinity), or None."""
    if x is None:
        return None
    if x == math.inf:
        return "inf"
    if x == -math.inf:
        return "-inf"
    return float(x)


def _counts(rec):
    """``[visits, score, wins, draws, value, proven]`` of a record, as the page reads it (None: no record)."""
    if rec is None:
        return None
    n, s, w, d, v = counts_of(rec)
    proven = rec.get("proven")
    return [n, float(s), w, d, None if v is None else float(v), None if proven is None else _fraction_text(proven)]


def _rule_data(rule):
    builtin = builtin_rule(rule)
    if builtin is None:
        return None, getattr(rule, "__name__", repr(rule))
    name, constant = builtin
    if name == "ucb":
        return {"name": "ucb", "k": float(constant)}, f"the tutorial's ucb, z = {constant:g}"
    return {"name": "ucb1", "k": float(constant)}, f"UCB1, c = {constant:.3g}"


class _TraceData:
    """The page's data of one trace: its nodes (ids from 0, the root first) and its dives."""

    def __init__(self, trace, dives, name):
        self.trace, self.dives, self.name = trace, dives, name
        self.game = trace.game
        self.exact = _exact_for(self.game, trace.exact)
        self.solution = trace.exact
        self.nodes, self.ids, self.listed = [], {}, set()

    # -- nodes -------------------------------------------------------------------------------
    def _new(self, key, entry) -> int:
        j = self.ids.get(key)
        if j is None:
            j = len(self.nodes)
            self.ids[key] = j
            self.nodes.append(entry)
        return j

    def state(self, state, parent=-1, via="", mover=None, order=0) -> int:
        """The id of stored-kind ``state`` (a state a record can belong to)."""
        key = ("s", state)
        j = self.ids.get(key)
        if j is not None:
            return j
        value = self.solution.get(state) if self.solution is not None else None
        entry = {
            "k": "s",
            "p": parent,
            "via": via,
            "m": mover,
            "x": self.exact(state, mover),
            "xt": None if value is None else _fraction_text(value),
            "o": order,
            "to": self._to_move(state),
            "lb": _position(self.game, state),
        }
        return self._new(key, entry)

    def chance(self, parent_state, outcomes, prob, decision) -> int:
        """The id of the chance node of ``parent_state`` under ``outcomes`` (leading to ``decision``)."""
        key = ("c", parent_state, outcomes)
        j = self.ids.get(key)
        if j is not None:
            return j
        parent = self.ids[("s", parent_state)]
        mover = self.nodes[parent]["m"]
        value = self.solution.get(decision) if self.solution is not None else None
        state = parent_state
        texts = []
        for o in outcomes:
            texts.append(_describe(self.game, state, o))
            state = self.game.play(state, o)
        entry = {
            "k": "c",
            "p": parent,
            "via": ", ".join(texts),
            "m": mover,
            "x": self.exact(decision, mover),
            "xt": None if value is None else _fraction_text(value),
            "pr": str(prob),
            "o": self._order(parent_state, outcomes),
            "to": self._to_move(decision),
            "par": parent,
        }
        return self._new(key, entry)

    def _order(self, state, outcomes) -> int:
        order, s = 0, state
        for o in outcomes:
            names = [x for x, _ in self.game.chance_outcomes(s)]
            order = order * len(names) + names.index(o)
            s = self.game.play(s, o)
        return order

    def _to_move(self, state):
        player = self.game.to_move(state)
        if player is None:
            return "end"
        if player is CHANCE:
            return "chance"
        return player

    def list_children(self, state):
        """Give stored ``state`` its children on the page (through its chance nodes): ``kids`` of its entry."""
        if state in self.listed:
            return
        self.listed.add(state)
        j = self.ids[("s", state)]
        entry = self.nodes[j]
        entry["r"] = _render(self.game, state)
        entry["d"] = []
        for outcomes, prob, decision in _decisions(self.game, state):
            if outcomes:
                c = self.chance(state, outcomes, prob, decision)
                entry["d"].append(c)
                holder, parent = self.nodes[c], c
            else:
                holder, parent = entry, j
            player = self.game.to_move(decision)
            holder["pl"] = None if player is None or player is CHANCE else player
            kids = []
            if holder["pl"] is not None:
                for order, move in enumerate(self.game.possible_moves(decision)):
                    child = self.game.play(decision, move)
                    kids.append(self.state(child, parent, _describe(self.game, decision, move), player, order))
            holder["ch"] = kids
            holder["best"] = self._best(decision, kids)

    def _children(self, state):
        """The states a move leads to from ``state``, through its chance nodes."""
        out = []
        for _, _, decision in _decisions(self.game, state):
            player = self.game.to_move(decision)
            if player is not None and player is not CHANCE:
                out.extend(self.game.play(decision, m) for m in self.game.possible_moves(decision))
        return out

    def _best(self, decision, kids):

        if self.solution is None or not kids:
            return []
        try:
            moves = set(best_moves(self.game, self.solution, decision))
        except (KeyError, ValueError):
            return []
        return [kid for move, kid in zip(self.game.possible_moves(decision), kids) if move in moves]

    def stored(self, state, mover=None) -> int:
        """The id of a state that holds a record, with its children listed."""
        j = self.ids.get(("s", state))
        if j is None:
            j = self.state(state, mover=mover)
        if self.nodes[j]["m"] is None and mover is not None:
            self.nodes[j]["m"] = mover
            self.nodes[j]["x"] = self.exact(state, mover)
        self.list_children(state)
        return j

    # -- dives -------------------------------------------------------------------------------
    def data(self) -> dict:
        t = self.trace
        from ..mcts._graph import mover_into

        root = self.stored(t.root, mover_into(t.game, t.root))
        first = t.tree(0)
        queue, seen = [t.root], {t.root}
        while queue:  # the records a trace starts from, each listed by a state above it where the game leads there
            state = queue.pop(0)
            self.stored(state)
            for kid in self._children(state):
                if kid in first and kid not in seen:
                    seen.add(kid)
                    queue.append(kid)
        start = [[self.stored(state), _counts(rec)] for state, rec in first.items()]
        frames = [self.frame(t.dive(k)) for k in range(1, self.dives + 1)]
        rule, rule_text = _rule_data(t.options["rule"])
        backup = t.options["backup"]
        label = f"{rule_text}, {backup} backup" + (", MCTS-Solver" if t.options["solver"] else "")
        return {
            "name": self.name,
            "label": label,
            "rule": rule,
            "expectimax": backup == "expectimax",
            "solver": bool(t.options["solver"]),
            "total": len(t),
            "root": root,
            "exact": t.exact is not None,
            "nodes": self.nodes,
            "start": start,
            "dives": frames,
        }

    def frame(self, dive) -> dict:
        game, path = self.game, dive.path
        steps = []
        for j, step in enumerate(path.steps):
            node = self.stored(step.node)
            chance = None
            if step.outcomes:
                prob = _probability(game, step.node, step.outcomes)
                chance = self.chance(step.node, tuple(step.outcomes), prob, step.decision)
            kids = []
            if step.player is not None:
                holder = self.nodes[node if chance is None else chance]
                listed = dict(zip(game.possible_moves(step.decision), holder.get("ch", ())))
                for s in dive.siblings(j):
                    kid = listed.get(s.move)
                    if kid is None:  # a child the game did not list: register it
                        kid = self.state(s.child, node if chance is None else chance,
                                         _describe(game, step.decision, s.move), step.player)
                    kids.append([kid, s.visits, _number(s.mean), _number(s.bonus), _number(s.score),
                                 _describe(game, step.decision, s.move)])
            dice = [_describe(game, s, o) for s, o in _outcome_states(game, step)]
            steps.append({"n": node, "c": chance, "o": dice, "pl": step.player, "k": kids, "ch": step.chosen})
        ids = {state: self.stored(state, mover) for state, mover in path.nodes}  # after the steps: listed by them
        if path.steps and path.steps[-1].player is None:  # the dice ended the game: the leaf is the chance node
            leaf = steps[-1]["c"]
        else:
            leaf = ids.get(path.leaf)
            if leaf is None:
                leaf = self.stored(path.leaf)
        played, state = [], path.leaf
        for move in dive.playout:
            played.append(_describe(game, state, move))
            state = game.play(state, move)
        back = []
        for state, _ in reversed(path.nodes):
            back.append([ids[state], _counts(dive.before.get(state)), _counts(dive.changed[state])])
        return {
            "steps": steps,
            "leaf": leaf,
            "end": path.end,
            "play": played,
            "pay": _payoff_text(dive.payoff),
            "back": back,
        }


def _probability(game, state, outcomes) -> Fraction:
    p = Fraction(1)
    for o in outcomes:
        p *= Fraction(dict(game.chance_outcomes(state))[o])
        state = game.play(state, o)
    return p


def _decisions(game, state, outcomes=(), prob=Fraction(1)) -> list:
    """``(outcomes, probability, decision)`` for every way chance leads from ``state`` to a decision or an end.

    A state where a player moves (or the game is over) is its own decision, with no outcomes.
    """
    if game.to_move(state) is not CHANCE or len(outcomes) >= _CHANCE_STAGES:
        return [(outcomes, prob, state)]
    out = []
    for o, p in game.chance_outcomes(state):
        out.extend(_decisions(game, game.play(state, o), outcomes + (o,), prob * Fraction(p)))
    return out


def _position(game, state):
    """The game's words for ``state`` (its ``position_text`` hook, Nim: "heap 5"), or None: the page labels by move."""
    try:
        return str(game.position_text(state))
    except Exception:  # no such hook, or one that fails for this state: the move's text labels the node
        return None


def _render(game, state) -> str:
    try:
        text = render(game, state)
    except Exception:  # a game whose picture fails: its repr
        text = repr(state)
    return text if len(text) <= _RENDER_CHARS else text[:_RENDER_CHARS] + " ..."
