"""A playout from a new node builds nothing; the solver makes no child to try a proof.

The engine's playout runs on the game's ``random_payoff`` kernel when it has one
(no rollout agent), else walks the graph only where it is already made and ends
the game through the protocol: it makes no node and expands none. MCTS-Solver
proves a node from its children only once a dive has gone through it (the
descent made its children then): a dive that ended at a new node proves nothing.
The engine stays equal to the phases draw for draw (``tests/test_engine.py``)
and its proofs exact (the same file, against ``fnmcts.exact``).
"""

from __future__ import annotations

import contextlib

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fnmcts.games import Nim, Piles, ShutTheBox, TicTacToe
from fnmcts.mcts import CompiledGraph, ucb1_selector
from fnmcts.mcts._engine import Solver, Stats, dives
from fnmcts.mcts._graph import CHANCE_NODE, UNSEEN, mover_into

from small_games import cyclic_table_games, table_games

BUILTIN_GAMES = (
    Nim(heap=9, max_take=3),
    Piles((1, 2, 3)),
    ShutTheBox(levers=4),
    ShutTheBox(levers=5, simplified=True),
    TicTacToe(),
)

games = st.one_of(st.sampled_from(BUILTIN_GAMES), table_games(), cyclic_table_games())


def _search(game, n, seed, solving, graph=None):
    """``n`` dives from the start on a fresh graph (or ``graph``): ``(graph, stats)``."""
    graph = CompiledGraph(game) if graph is None else graph
    root = graph.node(game.start())
    stats = Stats(graph)
    solver = Solver(graph, stats) if solving else None
    dives(graph, stats, root, mover_into(game, game.start()), n, random.Random(seed), ucb1_selector(), solver=solver)
    return graph, stats, root


def _made_by_the_descent(graph, root) -> set:
    """The root, and the children and chance outcomes of the nodes whose children were asked for."""
    made = {root}
    for i in range(len(graph)):
        if graph.kids[i] is not None:
            made.update(graph.kids[i])
        if graph.chance[i] is not None:
            made.update(c for c in graph.chance[i][3] if c is not None)
    return made


@pytest.mark.slow
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games, st.integers(0, 2**32), st.integers(1, 150), st.booleans())
def test_a_playout_makes_no_node(game, seed, n, solving):
    """Every node of the graph is the root, a child of a decision whose children the descent (or a proof
    through the dice) asked for, or a chance outcome: none is made by a playout passing its state."""
    graph, _, root = _search(game, n, seed, solving)
    assert set(range(len(graph))) == _made_by_the_descent(graph, root)
    assert all(graph.lazy[i] is None or graph.kids[i] is not None or all(c is None for c in graph.lazy[i])
               for i in range(len(graph)))  # no lone child made by a playout


@pytest.mark.slow
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games, st.integers(0, 2**32), st.integers(1, 150))
def test_a_playout_expands_no_node(game, seed, n):
    """Without the solver, the nodes expanded are the stored ones (a dive went into them) and the chance
    outcomes a dive drew (the descent reads the dice): a playout expands nothing."""
    graph, stats, _ = _search(game, n, seed, False)
    outcomes = {c for e in graph.chance if e is not None for c in e[3] if c is not None}
    expanded = {i for i in range(len(graph)) if graph.kind[i] != UNSEEN}
    assert expanded <= {i for i in range(len(graph)) if stats.N[i] is not None} | outcomes


def _has_chance(game) -> bool:
    graph = CompiledGraph(game)
    seen, stack = set(), [graph.node(game.start())]
    while stack:
        i = stack.pop()
        if i in seen:
            continue
        seen.add(i)
        k = graph.expand(i)
        if k == CHANCE_NODE:
            return True
        if k >= 0:
            stack.extend(graph.children(i))
    return False


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.sampled_from((Nim(heap=9, max_take=3), Piles((1, 2, 3)), TicTacToe())),
                 table_games(chance=False)), st.integers(0, 2**32), st.integers(1, 150))
@pytest.mark.slow
def test_the_solver_makes_no_child_to_try_a_proof(game, seed, n):
    """In a game without dice, the children made are those of nodes a dive went through (two visits at
    least: the one that stored the node, the one that passed it): a new node's children are not made to
    try to prove it."""
    if _has_chance(game):
        return
    graph, stats, _ = _search(game, n, seed, True)
    for i in range(len(graph)):
        if graph.kids[i] is not None:
            assert stats.N[i] is not None and stats.N[i] >= 2


def test_one_dive_proves_nothing_below_a_new_root():
    """The first dive stores the root with one playout and proves nothing, though a move wins at once:
    the second dive goes through the root, sees the winning child and proves the root."""
    game = Nim(heap=2, max_take=2, misere=False)  # taking both wins
    graph = CompiledGraph(game)
    root = graph.node(game.start())
    stats = Stats(graph)
    solver = Solver(graph, stats)
    dives(graph, stats, root, 1, 1, random.Random(1), ucb1_selector(), solver=solver)
    assert solver.lookup(root) is None and graph.kids[root] is None and len(graph) == 1
    dives(graph, stats, root, 1, 2, random.Random(2), ucb1_selector(), solver=solver)
    assert solver.lookup(root)[0] == (1, -1)


def _openspiel(spec):
    pytest.importorskip("pyspiel")
    from fnmcts.openspiel import from_openspiel

    return from_openspiel(spec)


@pytest.mark.parametrize("spec", ["tic_tac_toe", "connect_four"])
@pytest.mark.parametrize("compiled", [False, True])
def test_through_the_adapter_every_play_makes_a_child_of_a_node_a_dive_went_through(spec, compiled, monkeypatch):
    """OpenSpiel's games: the playouts run on ``random_payoff`` (one OpenSpiel state played in place), so the
    adapter's ``play`` is called once per child of the nodes the dives went through, and for nothing else (the
    compiled rules of connect_four make each child state once, when first read: a transposition's is not made
    again)."""
    from fnmcts.mcts import _kernel

    game = _openspiel(spec)
    plays = []
    play = type(game).play
    monkeypatch.setattr(type(game), "play", lambda self, state, move: plays.append(move) or play(self, state, move))
    rules = game.compiled_rules()
    if rules is not None and rules.played is not None:  # connect_four's compiled rules make a child from its parent
        made_by = rules.played
        game._rules[0] = rules._replace(played=lambda s, m, p: plays.append(m) or made_by(s, m, p))  # (this game's)
    with contextlib.nullcontext() if compiled else _kernel.switched_off():
        graph, stats, root = _search(game, 300, 5, True)
    made = [graph.kids[i] for i in range(len(graph)) if graph.kids[i] is not None]
    on_rules = compiled and rules is not None
    children = len({c for kids in made for c in kids} - {root})
    if on_rules:  # the states the rules loop makes are made when first read (``CompiledGraph.intern_unmade``): once
        assert len(plays) <= children
        assert len(graph.states) == len(graph)
    assert len(plays) == (children if on_rules else sum(map(len, made)))
    assert len(plays) < 300 * 8  # a playout through the graph made a child a move: ~20 a dive on connect_four
    assert all(stats.N[i] >= 2 for i in range(len(graph)) if graph.kids[i] is not None)
