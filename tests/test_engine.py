"""The one search engine: equal to the plain reference descent, draw for draw; sound proofs;
draws and scores read as payoffs, not verdicts."""

from __future__ import annotations

import math
import random
from fractions import Fraction
from functools import partial

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pyrsistent import pmap

from fnmcts.agents import exact_agent
from fnmcts.exact import best_moves, solve, value
from fnmcts.matches import play_game
from fnmcts.games import Nim, Piles, ShutTheBox, TicTacToe
from fnmcts.mcts import (
    CompiledGraph,
    mcts_agent,
    mcts_move,
    mean,
    record,
    search,
    uct,
    ucb,
    ucb1,
    ucb1_score,
    ucb1_selector,
    ucb_score,
    ucb_selector,
    visits,
)
from fnmcts.mcts._engine import Stats

from mcts_reference import reference_search
from small_games import TableGame, table_games

BUILTIN_GAMES = (
    Nim(heap=7, max_take=3),
    Nim(heap=6, max_take=2, misere=False),
    Piles((1, 2, 2)),
    ShutTheBox(levers=4),
    ShutTheBox(levers=5, simplified=True),
    TicTacToe(),
)


def _custom_rule(rec, parent_visits):
    """A rule of the user's: the mean plus one over the visits (infinity when unvisited)."""
    n = visits(rec)
    return math.inf if n == 0 else mean(rec) + 1 / n


RULES = (ucb, ucb1, partial(ucb1, c=0.3), partial(ucb, z=1), _custom_rule)

games = st.one_of(st.sampled_from(BUILTIN_GAMES), table_games())
options = st.fixed_dictionaries(
    {
        "rule": st.sampled_from(RULES),
        "backup": st.sampled_from(("mean", "expectimax")),
        "solver": st.booleans(),
    }
)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games, options, st.integers(0, 2**32), st.integers(1, 120))
def test_search_equals_the_reference_descent_draw_for_draw(game, opts, seed, dives):
    state = game.start()
    expected, _ = reference_search(game, state, dives, random.Random(seed), opts["rule"], backup=opts["backup"], solver=opts["solver"])
    rng = random.Random(seed)
    tree = search(game, state, dives, rng, rule=opts["rule"], backup=opts["backup"], solver=opts["solver"])
    assert dict(tree) == expected
    assert rng.random() == _after(game, state, dives, seed, opts)  # the same number of draws


def _after(game, state, dives, seed, opts):
    rng = random.Random(seed)
    reference_search(game, state, dives, rng, opts["rule"], backup=opts["backup"], solver=opts["solver"])
    return rng.random()


@settings(max_examples=60, deadline=None)
@given(games, options, st.integers(0, 2**32), st.integers(1, 60))
def test_uct_one_dive_at_a_time_grows_the_search_tree(game, opts, seed, dives):
    """Without the solver, exactly; with it, uct keeps proofs only in the records of
    stored states (a search also remembers proven states it passed through, such as
    a roll's outcome), so its proofs may come later, but each one is exact."""
    state = game.start()
    rng = random.Random(seed)
    tree = pmap()
    for _ in range(dives):
        tree, _ = uct(tree, state, rng, game, opts["rule"], backup=opts["backup"], solver=opts["solver"])
    if not opts["solver"]:
        assert tree == search(game, state, dives, random.Random(seed), rule=opts["rule"], backup=opts["backup"])
        return
    exact = solve(game)
    for s, rec in tree.items():
        if "proven" in rec:
            assert rec["proven"] == value(exact, s)


@settings(max_examples=60, deadline=None)
@given(games, st.integers(0, 2**32), st.integers(1, 80), st.integers(1, 80))
def test_a_search_continues_from_its_tree(game, seed, first, second):
    rng = random.Random(seed)
    tree = search(game, game.start(), first, rng)
    tree = search(game, game.start(), second, rng, tree)
    assert tree == search(game, game.start(), first + second, random.Random(seed))


@settings(max_examples=80, deadline=None)
@given(games, st.integers(0, 2**32), st.integers(1, 300))
def test_every_proven_value_is_the_exact_value(game, seed, iterations):
    state = game.start()
    if game.to_move(state) is None or game.to_move(state) is not None and not game.possible_moves(state):
        return
    exact = solve(game)
    tree = search(game, state, iterations, random.Random(seed), solver=True)
    for s, rec in tree.items():
        if "proven" in rec:
            assert rec["proven"] == value(exact, s)
    if game.to_move(state) not in (None,) and game.possible_moves(state):
        found = mcts_move(game, state, iterations, random.Random(seed))
        for s, v in found.proven.items():
            assert v == value(exact, s)


@settings(max_examples=60, deadline=None)
@given(table_games(players=2), st.integers(0, 2**32))
def test_mcts_move_with_the_solver_plays_an_optimal_move_once_the_root_is_proven(game, seed):
    state = game.start()
    if not game.possible_moves(state):
        return
    found = mcts_move(game, state, 5_000, random.Random(seed))
    if state in found.proven:
        assert found.move in best_moves(game, solve(game), state)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 50), st.integers(0, 50)), min_size=1, max_size=6),
    st.floats(0.1, 3),
    st.floats(0.1, 3),
)
def test_the_selectors_pick_the_first_child_of_the_best_score(pairs, z, c):
    pairs = [(min(s, n), n) for s, n in pairs]
    stats = type("Stats", (), {"N": [n or None for _, n in pairs], "E": [s for s, _ in pairs]})()
    parent = 1 + sum(n for _, n in pairs)
    kids = tuple(range(len(pairs)))
    for select, score in (
        (ucb_selector(z), lambda s, n: ucb_score(s, n, z)),
        (ucb1_selector(c), lambda s, n: ucb1_score(s, n, parent, c)),
    ):
        ratings = [score(s, n) for s, n in pairs]
        assert select(kids, stats, parent) == ratings.index(max(ratings))


# -- draws and scores are payoffs, not verdicts --------------------------------------------


TTT = TicTacToe()


@pytest.mark.parametrize("seed", range(10))
def test_mcts_plays_the_only_win_at_tic_tac_toe(seed):
    state = (0, 1, 0, 0, 0, 1, 0, 0, 2)  # O to move: only 6 wins
    assert best_moves(TTT, solve(TTT, state), state) == (6,)
    assert mcts_move(TTT, state, 10_000, random.Random(seed)).move == 6


@pytest.mark.parametrize("seed", range(10))
def test_mcts_without_the_solver_blocks_rather_than_loses(seed):
    state = (1, 2, 1, 1, 0, 0, 2, 0, 2)  # X must block at 7: every other move loses
    assert best_moves(TTT, solve(TTT, state), state) == (7,)
    assert mcts_move(TTT, state, 3_000, random.Random(seed), solver=False).move == 7


def test_a_drawn_position_is_proven_a_draw():
    state = (1, 2, 1, 1, 2, 2, 0, 1, 0)
    found = mcts_move(TTT, state, 1_000, random.Random(1))
    assert found.proven[state] == (0, 0) == value(solve(TTT, state), state)
    assert found.move == 6


def test_records_count_draws_and_the_mean_counts_a_draw_as_half():
    tree = search(TTT, TTT.start(), 2_000, random.Random(3))
    root = tree[TTT.start()]
    assert root["draw"] > 0
    assert visits(root) == root["win"] + root["loss"] + root["draw"] == 2_000
    assert mean(root) == pytest.approx((root["win"] + root["draw"] / 2) / 2_000)


def _score_game():
    """One player, a score: three chance-or-choice steps, paying total / 7 (a score in [0, 1])."""
    table = [
        ("move", 0, (1, 2)),  # 0: safe (1) or gamble (2)
        ("chance", ((3, Fraction(1, 2)), (4, Fraction(1, 2)))),  # 1: 4/7 or 6/7
        ("chance", ((5, Fraction(1, 10)), (6, Fraction(9, 10)))),  # 2: 0 or 1: wins (> 1/2) 90%, mean 0.9
        ("end", (Fraction(4, 7),)),
        ("end", (Fraction(6, 7),)),
        ("end", (Fraction(0),)),
        ("end", (Fraction(1),)),
    ]
    return TableGame(tuple(table), num_players=1)


def test_a_score_is_maximised_as_a_score():
    """Safe pays 4/7 or 6/7 (always above 1/2, mean 5/7 = 0.714); the gamble pays 1 with
    probability 0.9 (mean 0.9). Reading payoffs as wins would rate them 1.0 and 0.9."""
    game = _score_game()
    exact = solve(game)
    assert value(exact, 2) > value(exact, 1)
    tree = search(game, 0, 3_000, random.Random(2), rule=ucb1)
    assert mean(tree[2]) > mean(tree[1])
    assert mcts_move(game, 0, 2_000, random.Random(1), solver=False).move == 1  # move 1 is the gamble (node 2)


def test_a_compiled_graph_is_reused_across_searches():
    game = Nim(heap=9, max_take=3)
    graph = CompiledGraph(game)
    first = search(game, game.start(), 500, random.Random(1), graph=graph)
    size = len(graph)
    again = search(game, game.start(), 500, random.Random(1), graph=graph)
    assert first == again and len(graph) == size
    with pytest.raises(ValueError, match="belongs to"):
        search(Nim(heap=8), Nim(heap=8).start(), 5, random.Random(1), graph=graph)


def test_stats_grow_with_the_graph():
    game = Nim(heap=4, max_take=2)
    graph = CompiledGraph(game)
    stats = Stats(graph)
    root = graph.node(game.start())
    graph.expand(root)
    stats.grow()
    assert len(stats.N) == len(graph) == 3 and stats.N == [None, None, None]


def _keys_hold(stats):
    return stats.K == [stats.key(e, n) for e, n in zip(stats.E, stats.N)]


@settings(max_examples=60, deadline=None)
@given(games, st.integers(0, 2**32), st.integers(2, 80), st.booleans(), st.booleans(), st.booleans())
def test_the_rating_keys_follow_every_change_of_the_counts(game, seed, n, tutorial, expectimax, solver):
    """``Stats.K`` stays each node's mean (UCB1) or ucb score (the tutorial's rule) through dives on
    either loop, set, drop and grow."""
    from fnmcts.mcts._engine import Solver, dives

    graph = CompiledGraph(game)
    root = graph.node(game.start())
    stats = Stats(graph)
    rng = random.Random(seed)
    proofs = Solver(graph) if solver else None
    select = ucb_selector(1.5) if tutorial else ucb1_selector()
    dives(graph, stats, root, 0, n, rng, select, expectimax=expectimax, solver=proofs)
    assert stats.K is not None and stats.key_rule == select.inline and _keys_hold(stats)
    stored = [i for i, c in enumerate(stats.N) if c is not None and i != root]
    for i in stored[::2]:
        stats.drop(i)
    if stored:
        stats.set(stored[-1], [3, 1.5, 1, 1, 0.25 if expectimax else None])
    assert _keys_hold(stats)
    dives(graph, stats, root, 0, n, rng, select, expectimax=expectimax, solver=proofs)
    assert _keys_hold(stats)
    mean = [e / c if c else None for e, c in zip(stats.E, stats.N)]
    assert tutorial or stats.K == mean


@pytest.mark.parametrize("order", [(0, 1, 2), (2, 1, 0), (1, 0, 2)])
def test_proofs_whose_floats_tie_are_compared_exactly(order):
    """Two proven values 1e-30 apart round to one float: the solver then compares the exact values."""
    from fnmcts.mcts._engine import Solver

    third = Fraction(1, 3)
    values = [(third,), (third + Fraction(1, 10**30),), (third - Fraction(1, 10**30),)]
    game = TableGame((("move", 0, (1, 2, 3, 4)), ("end", values[0]), ("end", values[1]), ("end", values[2]), ("end", (0,))), 1)
    graph = CompiledGraph(game)
    root = graph.node(0)
    graph.expand(root)
    solver = Solver(graph)
    kids = graph.kids[root]
    for j in order:
        solver.prove_terminal(kids[j])
    assert not solver.floats_exact
    assert solver.choices(kids, 0) == (kids[1], kids[3])  # the best proven child and the unproven one
    solver.prove_terminal(kids[3])
    assert solver.try_prove(root) and solver.proven[root][0] == values[1]


def _decisions(game):
    seen, stack, out = {game.start()}, [game.start()], []
    while stack:
        state = stack.pop()
        if game.to_move(state) is None:
            continue
        out.append(state)
        for move in game.possible_moves(state):
            child = game.play(state, move)
            if child not in seen:
                seen.add(child)
                stack.append(child)
    return sorted(out)


TTT_DECISIONS = _decisions(TTT)
TTT_SOLUTION = solve(TTT)


def test_tic_tac_toe_has_4520_decisions():
    assert len(TTT_DECISIONS) == 4_520


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(TTT_DECISIONS), st.integers(0, 2**32))
def test_the_default_agent_plays_an_exact_best_move_at_tic_tac_toe(state, seed):
    """The whole game, every decision, is in benchmarks/bench_tictactoe.py (4,520 of 4,520)."""
    move = mcts_agent()(TTT, state, random.Random(seed))
    assert move in best_moves(TTT, TTT_SOLUTION, state)


@pytest.mark.parametrize("mcts_first", [True, False])
def test_the_default_agent_draws_a_perfect_player(mcts_first):
    perfect = partial(exact_agent, solution=TTT_SOLUTION)
    players = (mcts_agent(), perfect) if mcts_first else (perfect, mcts_agent())
    record = play_game(*players, TTT, seed=7)
    assert record.payoff == (0, 0)


KERNEL_GAMES = st.sampled_from((ShutTheBox(), ShutTheBox(simplified=True), ShutTheBox(levers=4), ShutTheBox(levers=12)))
"""Shut the Box boxes its kernels serve (the tutorial's two and two other sizes)."""

BUILTIN_RULES = st.sampled_from((ucb, ucb1, partial(ucb1, c=0.2), partial(ucb, z=1)))
"""The built-in rules, with their default and another constant."""


@settings(max_examples=80, deadline=None)
@given(KERNEL_GAMES, BUILTIN_RULES, st.integers(0, 2**32), st.integers(0, 400), st.integers(0, 400))
def test_a_game_s_search_kernel_grows_the_engine_s_tree(game, rule, seed, prior, dives):
    """Shut the Box's own kernel (box masks) against the engine on its compiled graph, draw for draw."""
    start = game.start()
    tree = search(game, start, prior, random.Random(seed ^ 5), rule=rule, graph=CompiledGraph(game))
    rng_kernel, rng_engine = random.Random(seed), random.Random(seed)
    by_kernel = search(game, start, dives, rng_kernel, tree, rule)
    by_engine = search(game, start, dives, rng_engine, tree, rule, graph=CompiledGraph(game))
    assert by_kernel == by_engine
    assert rng_kernel.random() == rng_engine.random()


def test_the_kernel_steps_aside_where_it_does_not_apply():
    game = ShutTheBox(levers=4)
    roll = game.play(game.start(), 5)  # a search from a roll: the engine's
    assert search(game, roll, 50, random.Random(1)) == search(game, roll, 50, random.Random(1), graph=CompiledGraph(game))
    with_draws = pmap({game.start(): record(1, 1, draw=1)})  # records the kernel cannot keep
    assert search(game, game.start(), 50, random.Random(1), with_draws)[game.start()]["draw"] == 1


@settings(max_examples=60, deadline=None)
@given(KERNEL_GAMES, BUILTIN_RULES, st.integers(0, 2**32), st.integers(0, 300), st.integers(1, 40))
def test_the_tutorial_uct_on_box_masks_is_the_engine_s_dive(game, rule, seed, prior, dives):
    """The tutorial's ``uct`` (one dive on box masks, reading the tree lazily) against the engine's ``uct``."""
    from unittest import mock

    from fnmcts.games.shut_the_box import uct as tutorial_uct
    from fnmcts.mcts import uct as engine_uct

    def no_engine(*args, **kwargs):
        raise AssertionError("the tutorial's uct left a plain tree to the engine")

    start = game.start()
    tree = search(game, start, prior, random.Random(seed ^ 5), rule=rule, graph=CompiledGraph(game))
    box = sorted(tree, key=len)[len(tree) // 2] if tree else start  # a box inside the tree, or the start
    rng_kernel, rng_engine = random.Random(seed), random.Random(seed)
    by_kernel = by_engine = tree
    for _ in range(dives):
        with mock.patch("fnmcts.games.shut_the_box.uct_game", no_engine):
            by_kernel, result_kernel = tutorial_uct(by_kernel, box, rng_kernel, game, rule)
        by_engine, result_engine = engine_uct(by_engine, box, rng_engine, game, rule)
        assert result_kernel == result_engine
    assert by_kernel == by_engine
    assert all(type(by_kernel[s]) is type(by_engine[s]) for s in by_engine)
    assert rng_kernel.random() == rng_engine.random()


def test_the_tutorial_uct_leaves_records_it_cannot_keep_to_the_engine():
    from fnmcts.games.shut_the_box import uct as tutorial_uct
    from fnmcts.mcts import uct as engine_uct

    game = ShutTheBox(levers=4)
    start = game.start()
    for tree in (
        pmap({start: record(1, 1, draw=1)}),
        pmap({start: record(3, 2), frozenset({1, 2, 3}): record(1, 0, value=0.5)}),
        pmap({start: {"win": 2}}),
    ):
        rng_kernel, rng_engine = random.Random(4), random.Random(4)
        for _ in range(30):
            tree_k, result_k = tutorial_uct(tree, start, rng_kernel, game)
            tree_e, result_e = engine_uct(tree, start, rng_engine, game)
            assert (tree_k, result_k) == (tree_e, result_e)
            tree = tree_k
    with pytest.raises(TypeError, match="record"):
        tutorial_uct(pmap({start: 7}), start, random.Random(1), game)
