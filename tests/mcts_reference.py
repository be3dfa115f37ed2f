"""The reference descent: Monte Carlo tree search as plainly as it can be written.

A persistent tree (a dict state -> record dict), the game protocol called at every
step, the rule called on every child's record. fnmcts's engine (compiled graph,
flat lists, inline rules) must grow exactly the same tree with the same random
draws: the tests compare them on many games, seeds and options.
"""

from __future__ import annotations

import math
from fractions import Fraction

from fnmcts.matches import playout
from fnmcts.protocol import CHANCE, may_repeat, payoff_range, sample_outcome


def rescaled(game, payoff):
    """Each payoff on [0, 1]: floats, but whole numbers on a (0, 1) range stay whole."""
    low, high = payoff_range(game)
    if low == 0 and high == 1:
        return tuple(x if type(x) is int else float(x) for x in payoff)
    return tuple(float(Fraction(x - low) / (high - low)) for x in payoff)


def mover_of_root(game, state):
    players = game.num_players
    player = game.to_move(state)
    if players == 1 or player is None or player is CHANCE:
        return 0
    return (player - 1) % players


def add(rec, x):
    """The record (a dict: n, s, w, d, v) with one more rescaled payoff ``x``."""
    rec = dict(rec) if rec else {"n": 0, "s": 0, "w": 0, "d": 0, "v": None}
    rec["n"] += 1
    rec["s"] += x
    if x > 0.5:
        rec["w"] += 1
    elif x == 0.5:
        rec["d"] += 1
    return rec


def as_record(rec):
    """The engine's record form: win, loss, draw, score, value."""
    from fnmcts.mcts import record

    return record(rec["w"], rec["n"] - rec["w"] - rec["d"], value=rec["v"], draw=rec["d"], score=rec["s"])


def builtin(rule):
    """``('ucb', z)`` / ``('ucb1', c)`` for the built-in rules (or partials of them), else None."""
    from functools import partial

    from fnmcts.mcts import ucb, ucb1

    func, keywords = (rule.func, rule.keywords) if isinstance(rule, partial) else (rule, {})
    if func is ucb:
        return ("ucb", keywords.get("z", 2))
    if func is ucb1:
        return ("ucb1", keywords.get("c", math.sqrt(2)))
    return None


def rating(rule, rec, parent):
    """``rule`` on a child's record; with a value, on the value (the built-in rules: value * visits)."""
    from fnmcts.mcts import EMPTY_RECORD, record, ucb1_score, ucb_score

    if rec is None or not rec["n"]:
        return rule(EMPTY_RECORD, parent_visits=parent)
    if rec["v"] is None:
        return rule(as_record(rec), parent_visits=parent)
    n, v = rec["n"], rec["v"]
    known = builtin(rule)
    if known is not None:
        name, constant = known
        return ucb_score(v * n, n, constant) if name == "ucb" else ucb1_score(v * n, n, parent, constant)
    return rule(record(v * n, (1 - v) * n), parent_visits=parent)


class Proofs:
    def __init__(self, game):
        self.game = game
        self.low, self.high = (Fraction(x) for x in payoff_range(game))
        self.proven = {}

    def exact_payoff(self, state):
        return tuple(Fraction(x) for x in self.game.payoff(state))

    def floats(self, exact):
        return tuple(float((x - self.low) / (self.high - self.low)) for x in exact)

    def try_prove(self, state):
        game, proven = self.game, self.proven
        player = game.to_move(state)
        if player is None:
            proven[state] = self.exact_payoff(state)
            return True
        if player is CHANCE:
            total = None
            for outcome, p in game.chance_outcomes(state):
                v = proven.get(game.play(state, outcome))
                if v is None:
                    return False
                total = tuple(p * x for x in v) if total is None else tuple(t + p * x for t, x in zip(total, v))
            proven[state] = total
            return True
        shortcut = game.num_players <= 2
        values = [proven.get(game.play(state, m)) for m in game.possible_moves(state)]
        if shortcut:
            for v in values:
                if v is not None and v[player] == self.high:
                    proven[state] = v
                    return True
        if any(v is None for v in values):
            return False
        best = values[0]
        for v in values[1:]:
            if v[player] > best[player]:
                best = v
        proven[state] = best
        return True

    def choices(self, children, player):
        proven = self.proven
        best = None
        for child in children:
            v = proven.get(child)
            if v is not None:
                if self.game.num_players <= 2 and v[player] == self.high:
                    return [child]
                if best is None or v[player] > proven[best][player]:
                    best = child
        if best is None:
            return children
        keep = proven[best][player] > self.low
        open_ = [c for c in children if c not in proven or (c == best and keep)]
        return open_ or [best]


def node_value(game, tree, state, mover, fallback, open_=()):
    player = game.to_move(state)
    if player is None:
        return rescaled(game, game.payoff(state))[mover]
    if player is CHANCE:
        if state in open_:  # a chance node met again below itself: a game whose states repeat
            return fallback
        return sum(
            float(p) * node_value(game, tree, game.play(state, o), mover, fallback, open_ + (state,))
            for o, p in game.chance_outcomes(state)
        )
    best = None
    for move in game.possible_moves(state):
        child = game.play(state, move)
        rec = tree.get(child)
        if rec is not None:
            v = rec["v"] if rec["v"] is not None else (rec["s"] / rec["n"] if rec["n"] else 0.0)
        elif game.to_move(child) is None:
            v = rescaled(game, game.payoff(child))[player]
        else:
            continue
        if best is None or v > best:
            best = v
    if best is None:
        return fallback
    return best if player == mover else 1.0 - best


def dive(game, tree, root, rng, rule, *, backup="mean", proofs=None, rollout=None):
    """One dive; returns the new tree (a new dict: ``tree`` is not changed)."""
    tree = dict(tree)
    state = root
    path = [(root, mover_of_root(game, root))]
    through = [root]
    repeats = may_repeat(game)
    while True:
        if proofs is not None and state in proofs.proven:
            result = proofs.floats(proofs.proven[state])
            break
        if state not in tree:
            end = playout(game, state, rng, rollout)
            result = rescaled(game, game.payoff(end))
            if proofs is not None and game.to_move(state) is None:
                proofs.try_prove(state)
            break
        player = game.to_move(state)
        if player is None:
            result = rescaled(game, game.payoff(state))
            if proofs is not None:
                proofs.try_prove(state)
            break
        decision = state
        while player is CHANCE:
            decision = game.play(decision, sample_outcome(game, decision, rng))
            player = game.to_move(decision)
            through.append(decision)
        if player is None:
            result = rescaled(game, game.payoff(decision))
            if proofs is not None:
                proofs.try_prove(decision)
            break
        children = [game.play(decision, m) for m in game.possible_moves(decision)]
        if proofs is not None:
            children = proofs.choices(children, player)
        if len(children) == 1:
            best = children[0]
        else:
            parent = tree[state]["n"]
            best, best_rating = None, -math.inf
            for child in children:
                r = rating(rule, tree.get(child), parent)
                if best is None or r > best_rating:
                    best, best_rating = child, r
        if repeats and best in [node for node, _ in path]:  # back on the path: one playout from there
            end = playout(game, best, rng, rollout)
            result = rescaled(game, game.payoff(end))
            break
        state = best
        path.append((state, player))
        through.append(state)
    for node, mover in path:
        tree[node] = add(tree.get(node), result[mover])
    if backup == "expectimax":
        for node, mover in reversed(path):
            rec = dict(tree[node])
            v = node_value(game, tree, node, mover, rec["s"] / rec["n"])
            rec["v"] = min(1.0, max(0.0, v))
            tree[node] = rec
    if proofs is not None:
        for node in reversed(through):
            if node in proofs.proven:
                continue
            if not proofs.try_prove(node):
                break
    return tree


def reference_search(game, root, dives, rng, rule, *, backup="mean", solver=False, rollout=None, stop=False):
    """``dives`` dives from ``root``; the tree in the engine's record form, and the proofs."""
    tree = {}
    proofs = Proofs(game) if solver else None
    for _ in range(dives):
        if stop and proofs is not None and root in proofs.proven:
            break
        tree = dive(game, tree, root, rng, rule, backup=backup, proofs=proofs, rollout=rollout)
    records = {}
    for state, rec in tree.items():
        r = as_record(rec)
        if proofs is not None and state in proofs.proven:
            r = r.set("proven", proofs.proven[state])
        records[state] = r
    return records, (proofs.proven if proofs is not None else {})
