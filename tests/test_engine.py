"""The one search engine: equal to the phases of ``fnmcts.mcts.phases``, draw for draw; sound proofs;
draws and scores read as payoffs, not verdicts."""

from __future__ import annotations

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
from fnmcts.games import Nim, TicTacToe
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
from fnmcts.mcts import phases
from fnmcts.mcts._engine import Solver, Stats

from small_games import TableGame, custom_rule, search_games, table_games


RULES = (ucb, ucb1, partial(ucb1, c=0.3), partial(ucb, z=1), custom_rule)

games = search_games()
options = st.fixed_dictionaries(
    {
        "rule": st.sampled_from(RULES),
        "backup": st.sampled_from(("mean", "expectimax")),
        "solver": st.booleans(),
    }
)


def _phases(game, state, dives, rng, tree=None, *, rule=ucb, backup="mean", solver=False, rollout=None):
    """``dives`` dives of the phases, one at a time: select, expand, simulate, back up."""
    tree = {} if tree is None else tree
    for _ in range(dives):
        path = phases.select(game, tree, state, rng, rule, backup=backup, solver=solver)
        grown = phases.expand(game, tree, path)
        payoff = phases.simulate(game, path.leaf, rng, rollout) if path.end in ("new", "repeat") else path.value
        tree = phases.backup(game, grown, path, payoff, backup=backup, solver=solver)
    return tree


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games, options, st.integers(0, 2**32), st.integers(1, 120))
def test_search_equals_the_phases_draw_for_draw(game, opts, seed, dives):
    """The engine (compiled graph, flat lists, inline rules) grows the tree the phases grow, on every option."""
    state = game.start()
    by_phases = random.Random(seed)
    expected = _phases(game, state, dives, by_phases, **opts)
    rng = random.Random(seed)
    tree = search(game, state, dives, rng, **opts)
    assert dict(tree) == dict(expected)
    assert rng.random() == by_phases.random()  # the same number of draws


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(games, options, st.integers(0, 2**32), st.integers(1, 60))
def test_uct_is_the_four_phases_and_grows_the_search_tree(game, opts, seed, dives):
    """One dive at a time (proofs too: they live in the records), the same tree as one search."""
    state = game.start()
    rng = random.Random(seed)
    tree = pmap()
    for _ in range(dives):
        tree, _ = uct(game, tree, state, rng, opts["rule"], backup=opts["backup"], solver=opts["solver"])
    assert tree == _phases(game, state, dives, random.Random(seed), **opts)
    assert tree == search(game, state, dives, random.Random(seed), **opts)
    if opts["solver"]:
        exact = solve(game)
        for s, rec in tree.items():
            if "proven" in rec:
                assert _same_value(rec["proven"], value(exact, s))


def _same_value(proven, exact) -> bool:
    """A proof equals the exact value: exactly, or within value iteration's precision where a game's states
    repeat (the exact solver's values are floats there; a proof through the dice is an exact Fraction)."""
    if all(type(x) is not float for x in (*proven, *exact)):
        return tuple(proven) == tuple(exact)
    return len(proven) == len(exact) and all(abs(a - b) <= 1e-9 for a, b in zip(proven, exact))


@pytest.mark.slow
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
            assert _same_value(rec["proven"], value(exact, s))
    if game.to_move(state) not in (None,) and game.possible_moves(state):
        found = mcts_move(game, state, iterations, random.Random(seed))
        for s, v in found.proven.items():
            assert _same_value(v, value(exact, s))


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
    tree = search(game, 0, 3_000, random.Random(2), rule=ucb1, solver=False)
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
    assert stats.known == len(graph) == 1  # a node's children are made when first asked
    graph.children(root)
    stats.grow()
    assert stats.known == len(graph) == 3 and len(stats.N) >= 3 and stats.N[:3] == [None, None, None]


def _keys_hold(stats):
    return stats.K == [stats.key(e, n) for e, n in zip(stats.E, stats.N)]


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(games, st.integers(0, 2**32), st.integers(2, 80), st.booleans(), st.booleans(), st.booleans())
def test_the_rating_keys_follow_every_change_of_the_counts(game, seed, n, tutorial, expectimax, solver):
    """``Stats.K`` stays each node's mean (UCB1) or ucb score (the tutorial's rule) through dives,
    set, drop and grow."""
    from fnmcts.mcts._engine import dives

    graph = CompiledGraph(game)
    root = graph.node(game.start())
    stats = Stats(graph)
    rng = random.Random(seed)
    proofs = Solver(graph, stats) if solver else None
    select = ucb_selector(1.5) if tutorial else ucb1_selector()
    dives(graph, stats, root, 0, n, rng, select, expectimax=expectimax, solver=proofs)
    assert stats.K is not None and stats.key_rule == select.inline and _keys_hold(stats)
    stored = [i for i, c in enumerate(stats.N) if c is not None and i != root]
    for i in stored[::2]:
        stats.drop(i)
    if stored:
        stats.set(stored[-1], (3, 1.5, 1, 1, 0.25 if expectimax else None))
    assert _keys_hold(stats)
    dives(graph, stats, root, 0, n, rng, select, expectimax=expectimax, solver=proofs)
    assert _keys_hold(stats)
    mean = [e / c if c else None for e, c in zip(stats.E, stats.N)]
    assert tutorial or stats.K == mean


@pytest.mark.parametrize("order", [(0, 1, 2), (2, 1, 0), (1, 0, 2)])
def test_proofs_whose_floats_tie_are_compared_exactly(order):
    """Two proven values 1e-30 apart round to one float: the solver then compares the exact values."""
    third = Fraction(1, 3)
    values = [(third,), (third + Fraction(1, 10**30),), (third - Fraction(1, 10**30),)]
    game = TableGame((("move", 0, (1, 2, 3, 4)), ("end", values[0]), ("end", values[1]), ("end", values[2]), ("end", (0,))), 1)
    graph = CompiledGraph(game)
    root = graph.node(0)
    graph.expand(root)
    kids = graph.children(root)
    stats = Stats(graph)
    solver = Solver(graph, stats)
    for j in order:
        solver.lookup(kids[j])  # a terminal child is proven at sight
    assert not solver.floats_exact
    assert solver.lookup(kids[3]) is not None  # the fourth child ends the game too, at 0
    assert solver.choices(kids, 0) == (kids[1],)  # the best proven child alone: the others are proven worse
    assert solver.derive(root)[0] == values[1]


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


@pytest.mark.slow
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


def test_the_expectimax_step_visits_a_web_of_chance_nodes_once(monkeypatch):
    # A generated game of chance nodes leading to chance nodes, back and on (repeats): the expectimax step
    # walked every path through that web (exponentially many: a search of 100 dives never ended); a chance
    # node met again below takes the value worked out the first time, in the engine as in the phases.
    from fnmcts.mcts._search import _repeat_uct
    from fnmcts.testing.games import SeededGame

    game = SeededGame(seed=453319, num_players=1, depth=26, width=115, branching=6, chance=58, stops=2, outcomes=6,
                      payoffs=((6.5,), (3.25,), (1.625,), (3.25,), (0,)), shrink=True, skip=1, repeats=True,
                      span=(0, 13))
    state = (11, 72)
    states = len(solve(game, state))
    calls = []
    from fnmcts.mcts import backups

    real = backups.stored_value

    def counted(*args):
        calls.append(1)
        if len(calls) > 10 * 100 * states:  # ten visits a state a dive: far more than one visit each needs
            raise AssertionError("the expectimax step walks paths, not nodes")
        return real(*args)

    monkeypatch.setattr(backups, "stored_value", counted)
    tree = search(game, state, 100, random.Random(5), c=0.2, backup="expectimax")
    monkeypatch.setattr(backups, "stored_value", real)
    assert tree == _repeat_uct(game, state, 100, random.Random(5), c=0.2, backup="expectimax")


@given(game=search_games(), rule=st.sampled_from((0, 1, 2)), grown=st.integers(0, 3), first=st.sampled_from("NSKVP"))
@settings(max_examples=40, deadline=None)
def test_a_new_tree_s_lists_made_when_first_read_are_those_made_at_once(game, rule, grown, first):
    from fnmcts.mcts._engine import started
    from fnmcts.mcts._graph import CHANCE_NODE, UNSEEN

    graph, lazy, root = started(game)
    made = Stats(graph, lambda state: None)  # (a tree to read records from: its lists made at once)
    assert lazy.untouched() and not made.untouched()
    for stats in (lazy, made):
        stats.rule_keys(rule, 1.5)
    node = root
    for _ in range(grown):  # the graph grows before a list is read
        kind = graph.expand(node) if graph.kind[node] == UNSEEN else graph.kind[node]
        kids = graph.children(node) if kind >= 0 else graph.outcome_children(node) if kind == CHANCE_NODE else ()
        if not kids:
            break
        node = kids[-1]
        lazy.grow(), made.grow()
    assert lazy.untouched() and lazy.known == made.known == len(graph)
    getattr(lazy, first)
    assert not lazy.untouched()
    for name in ("N", "S", "W", "D", "V", "P", "N0", "E", "K"):
        assert getattr(lazy, name) == getattr(made, name), name
    assert (lazy.E is lazy.S) and (made.E is made.S)



@given(c=st.one_of(st.integers(0, 3), st.floats(0, 3), st.fractions(0, 3)), rule=st.sampled_from(("ucb1", "tutorial")))
@settings(max_examples=40, deadline=None)
def test_options_kept_for_the_engine_are_those_of_the_options_given(c, rule):
    from fnmcts.mcts import search_options
    from fnmcts.mcts._search import _entry

    options = search_options(rule=rule, **({"c": c} if rule == "ucb1" else {"z": c}))
    twin = search_options(rule=rule, **({"c": float(c)} if rule == "ucb1" else {"z": float(c)}))  # equal, maybe not alike
    for opts in (options, twin, options):
        solver, expectimax, bounds, select, engine = _entry(None, opts)
        constant = opts.c if rule == "ucb1" else opts.z
        assert select.inline == ((1 if rule == "ucb1" else 2), constant)
        assert type(select.inline[1]) is type(constant) and (solver, bounds) == (opts.solver, opts.bounds)
        assert engine == dict(expectimax=False, rollout=opts.playout(), rave=opts.rave_args(), graph_backup=False)
