"""The transposition-aware backup, ``backup='graph'``, an option of the one descent: the engine equals the
phases draw for draw; on a tree it is the mean; a value stays within its children's range and converges to
the exact value."""

from __future__ import annotations

import random
from fractions import Fraction
from functools import partial

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pyrsistent import pmap

from fnmcts.exact import solve, value
from fnmcts.games import Nim, ShutTheBox, TicTacToe
from fnmcts.mcts import mean, phases, search, uct, ucb, ucb1, visits
from fnmcts.views import trace
from fnmcts.mcts._graph import rescaler
from fnmcts.mcts._search import _repeat_uct

from small_games import TableGame, custom_rule, search_games


games = search_games()
options = st.fixed_dictionaries(
    {
        "rule": st.sampled_from((ucb, ucb1, partial(ucb1, c=0.3), custom_rule)),
        "solver": st.booleans(),
        "bounds": st.booleans(),
    }
)


@pytest.mark.slow
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games, options, st.integers(0, 2**32), st.integers(1, 120))
def test_the_graph_backup_equals_the_phases_draw_for_draw(game, opts, seed, dives):
    state = game.start()
    by_phases = random.Random(seed)
    expected = _repeat_uct(game, state, dives, by_phases, backup="graph", **opts)
    rng = random.Random(seed)
    tree = search(game, state, dives, rng, backup="graph", **opts)
    assert dict(tree) == dict(expected)
    assert rng.random() == by_phases.random()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games, options, st.integers(0, 2**32), st.integers(1, 40), st.integers(1, 40))
def test_the_graph_backup_one_dive_at_a_time_and_continued_on_a_read_tree(game, opts, seed, n1, n2):
    state = game.start()
    whole = search(game, state, n1 + n2, random.Random(seed), backup="graph", **opts)
    rng = random.Random(seed)
    tree = pmap()
    for _ in range(n1 + n2):
        tree, _ = uct(game, tree, state, rng, opts["rule"], backup="graph", solver=opts["solver"], bounds=opts["bounds"])
    assert dict(tree) == dict(whole)
    rng = random.Random(seed)
    first = search(game, state, n1, rng, backup="graph", **opts)
    again = search(game, state, n2, rng, tree=dict(first), backup="graph", **opts)  # edges read from the records
    assert dict(again) == dict(whole)


@st.composite
def tree_games(draw, max_nodes=16):
    """A random ``TableGame`` shaped as a tree: every state but the start has one parent (no transpositions)."""
    players = draw(st.sampled_from((1, 2)))
    size = draw(st.integers(2, max_nodes))
    parents = [None] + [draw(st.integers(0, i - 1)) for i in range(1, size)]
    children = [[j for j in range(size) if parents[j] == i] for i in range(size)]
    table = []
    for i in range(size):
        if not children[i]:
            if players == 2:
                x = draw(st.sampled_from((1, 0, -1)))
                table.append(("end", (x, -x)))
            else:
                table.append(("end", (Fraction(draw(st.integers(0, 4)), 4),)))
        elif draw(st.integers(0, 3)) == 0:
            weights = draw(st.lists(st.integers(1, 3), min_size=len(children[i]), max_size=len(children[i])))
            table.append(("chance", tuple((c, Fraction(w, sum(weights))) for c, w in zip(children[i], weights))))
        else:
            table.append(("move", draw(st.integers(0, players - 1)), tuple(children[i])))
    return TableGame(tuple(table), players)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tree_games(), options, st.integers(0, 2**32), st.integers(1, 150))
def test_on_a_tree_the_graph_backup_is_the_mean(game, opts, seed, dives):
    """No transpositions: every edge's visits are its child's, so each value is the mean of the results
    through its state (to float rounding); and the dives are the mean backup's, visit for visit, as long
    as the ratings agree (they read the same numbers, up to the last bits)."""
    tree = search(game, game.start(), dives, random.Random(seed), backup="graph", **opts)
    for state, rec in dict(tree).items():
        assert rec["value"] == pytest.approx(mean(rec), abs=1e-9)
        own, edges = rec["graph"]
        assert sum(n for _, n, _ in edges) <= visits(rec)
        for child, n, _ in edges:
            assert n == visits(tree[child])  # one parent: the edge holds every visit of the child


def _converted(tree, child, who, mover):
    rec = tree[child]
    q = rec["value"] if "value" in rec else mean(rec)
    return q if who == mover else 1.0 - q


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games, options, st.integers(0, 2**32), st.integers(1, 120))
def test_a_graph_value_lies_within_its_children_s_values_and_its_own_results(game, opts, seed, dives):
    """A value is an average, weighted by visits, of the dives that ended at its state and of its
    children's values (for its mover on the dive that backed it up): never outside their range. Checked
    after every dive of the phases (the engine grows the same trees: the draw-for-draw property), on the
    states of the dive's path, with the movers of that path (a state transposed between players' turns
    holds the results of whoever moved into it last)."""
    rng, tree, state = random.Random(seed), {}, game.start()
    for _ in range(dives):
        path = phases.select(game, tree, state, rng, opts["rule"], backup="graph", solver=opts["solver"],
                             bounds=opts["bounds"])
        payoff = phases.simulate(game, path.leaf, rng) if path.end in ("new", "repeat") else path.value
        tree = phases.backup(game, phases.expand(game, tree, path), path, payoff, backup="graph",
                             solver=opts["solver"], bounds=opts["bounds"])
        for s, mover in path.nodes:
            rec = tree[s]
            own, edges = rec["graph"]
            parts = [_converted(tree, c, who, mover) for c, _, who in edges]
            ended_here = visits(rec) - sum(n for _, n, _ in edges)
            if ended_here:
                parts.append(own / ended_here)
            assert min(parts) - 1e-9 <= rec["value"] <= max(parts) + 1e-9


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(1, 6))
@pytest.mark.parametrize("game", [ShutTheBox(levers=4), Nim(heap=9, max_take=3)], ids=["shut-the-box-4", "nim-9"])
def test_the_graph_value_converges_to_the_exact_value(game, seed):
    """20,000 dives, UCB1 with c = 0.2, no solver: the root's graph value is within 0.015 of the exact
    value (rescaled). The results are Bernoulli with p about 0.15 (Shut the Box) or near 1 (Nim): one
    standard error of their mean is at most 0.0025, so 0.015 is six of them; the bias of the dives spent
    exploring worse moves, measured on these seeds, is below 0.004. Both games transpose (a box reached
    by different flips, a heap by different takes)."""
    tree = search(game, game.start(), 20_000, random.Random(seed), backup="graph", c=0.2, solver=False)
    root = tree[game.start()]
    exact = rescaler(game)(value(solve(game), game.start()))
    mover = 0 if game.num_players == 1 else 1  # the root's record is the player's who moved into it
    assert root["value"] == pytest.approx(exact[mover], abs=0.015)


def test_the_graph_backup_refuses_games_of_more_than_two_players():
    three = TableGame((("move", 2, (1, 2)), ("end", (1, 0, 0)), ("end", (0, 0, 1))), 3)
    with pytest.raises(ValueError, match="one or two players"):
        search(three, 0, 5, random.Random(1), backup="graph")


def test_trace_takes_the_graph_backup():
    game = Nim(heap=9, max_take=3)
    t = trace(game, game.start(), 60, random.Random(5), rule="ucb1", backup="graph")
    assert t.tree(60) == search(game, game.start(), 60, random.Random(5), rule="ucb1", backup="graph")


@pytest.mark.slow
@pytest.mark.parametrize("opts", [{"backup": "graph"}, {"bounds": True}, {"rave": 10, "rave_ref": 5}], ids=str)
def test_the_enhancements_run_on_a_bounded_tree_and_on_a_tree_kept_between_moves(opts):
    """A bounded search drops states (a graph value then leaves out the edges to them), and an agent with
    memory continues on the subtree it kept: both run, and what the records keep stays in range."""
    game = TicTacToe()
    tree = search(game, game.start(), 3_000, random.Random(1), max_nodes=200, **opts)
    assert len(tree) <= 200
    for rec in dict(tree).values():
        assert 0.0 <= rec.get("value", 0.5) <= 1.0
    from fnmcts.mcts import mcts_agent
    from fnmcts.matches import play_game

    agent = mcts_agent(200, reuse=True, **opts)
    result = play_game(game, agent, agent, rng=random.Random(2))
    assert result.payoff in ((1, -1), (0, 0), (-1, 1))
