"""RAVE / GRAVE, an option of the one descent: the engine equals the phases draw for draw, ``k = 0`` is the
plain search, and the AMAF statistics are the counts of the moves the dives played."""

from __future__ import annotations

import math
import random
from collections import Counter, defaultdict
from functools import partial

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pyrsistent import pmap

from fnmcts.games import Nim, TicTacToe
from fnmcts.mcts import mcts_agent, mcts_move, phases, search, search_options, uct, ucb1
from fnmcts.views import trace
from fnmcts.mcts._graph import rescaler
from fnmcts.mcts.rave import rave_rating
from fnmcts.protocol import CHANCE

from small_games import search_games


games = search_games()
rave_options = st.fixed_dictionaries(
    {
        "c": st.sampled_from((0.3, math.sqrt(2), 1.0)),
        "backup": st.sampled_from(("mean", "expectimax")),
        "solver": st.booleans(),
        "rave": st.sampled_from((0, 0.5, 1, 10, 300)),
        "rave_ref": st.sampled_from((0, 1, 3, 25)),
    }
)


def _phases(game, state, dives, rng, tree=None, *, c, backup, solver, rave, rave_ref, record=None):
    """``dives`` dives of the phases with RAVE; ``record``, a list, gets each dive's ``(path, played)``."""
    tree = {} if tree is None else tree
    rule = partial(ucb1, c=c)
    for _ in range(dives):
        path = phases.select(game, tree, state, rng, rule, backup=backup, solver=solver, rave=rave, rave_ref=rave_ref)
        grown = phases.expand(game, tree, path)
        if path.end in ("new", "repeat"):
            payoff, played = phases.simulate(game, path.leaf, rng, moves=True)
        else:
            payoff, played = path.value, ()
        if record is not None:
            record.append((path, played, payoff))
        tree = phases.backup(game, grown, path, payoff, backup=backup, solver=solver, played=played)
    return tree


def _plain(tree) -> dict:
    """The tree's records without their AMAF statistics."""
    return {s: (r if "amaf" not in r else _without_amaf(r)) for s, r in dict(tree).items()}


def _without_amaf(rec):
    fields = {k: v for k, v in rec.items() if k != "amaf"}
    return type(rec)(**fields)


@pytest.mark.slow
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games, rave_options, st.integers(0, 2**32), st.integers(1, 120))
def test_search_with_rave_equals_the_phases_draw_for_draw(game, opts, seed, dives):
    state = game.start()
    by_phases = random.Random(seed)
    expected = _phases(game, state, dives, by_phases, **opts)
    rng = random.Random(seed)
    tree = search(game, state, dives, rng, rule="ucb1", **opts)
    assert dict(tree) == dict(expected)
    assert rng.random() == by_phases.random()  # the same number of draws


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games, rave_options, st.integers(0, 2**32), st.integers(1, 40), st.integers(1, 40))
def test_rave_dives_one_at_a_time_and_continued_on_a_read_tree_grow_the_same_tree(game, opts, seed, n1, n2):
    """``uct`` one dive at a time (the kept working copy), and a search continued on a tree read afresh
    (its AMAF statistics read from the records), grow the tree of one search."""
    state = game.start()
    whole = search(game, state, n1 + n2, random.Random(seed), rule="ucb1", **opts)
    rng = random.Random(seed)
    tree = pmap()
    for _ in range(n1 + n2):
        tree, _ = uct(game, tree, state, rng, "ucb1", **opts)
    assert dict(tree) == dict(whole)
    rng = random.Random(seed)
    first = search(game, state, n1, rng, rule="ucb1", **opts)
    again = search(game, state, n2, rng, tree=dict(first), rule="ucb1", **opts)  # a dict: read record by record
    assert dict(again) == dict(whole)


@pytest.mark.slow
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games, rave_options, st.integers(0, 2**32), st.integers(1, 100))
def test_rave_with_k_0_is_the_plain_search_draw_for_draw(game, opts, seed, dives):
    """beta = 0: every rating is UCB1's, float for float; the records gain their AMAF statistics and nothing else."""
    opts = {**opts, "rave": 0}
    plain = {k: v for k, v in opts.items() if k not in ("rave", "rave_ref")}
    rng_a, rng_b = random.Random(seed), random.Random(seed)
    with_rave = search(game, game.start(), dives, rng_a, rule="ucb1", **opts)
    without = search(game, game.start(), dives, rng_b, rule="ucb1", **plain)
    assert _plain(with_rave) == dict(without)
    assert rng_a.random() == rng_b.random()


def _brute_force_amaf(game, dives):
    """``{state: {(player, move): (count, score)}}`` counted from the recorded dives, one by one.

    For every state on a dive's path, every (player, move) played from that state down (the moves
    chosen on the path from it, then the playout's moves), counted once per dive, with that player's
    rescaled payoff.
    """
    rescale = rescaler(game)
    counts, scores = defaultdict(Counter), defaultdict(lambda: defaultdict(float))
    for path, played, payoff in dives:
        x = rescale(payoff)
        tree_moves = []
        for step in path.steps:
            if step.chosen is not None:
                tree_moves.append((step.player, step.moves[step.chosen]))
        playout_moves = []
        s = path.leaf
        for item in played:
            who = game.to_move(s)
            if who is not CHANCE:
                playout_moves.append((who, item))
            s = game.play(s, item)
        for t, (state, _) in enumerate(path.nodes):
            below = set(tree_moves[t:]) | set(playout_moves)
            for key in below:
                counts[state][key] += 1
                scores[state][key] += x[key[0]]
    return counts, scores


@pytest.mark.slow
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games, rave_options, st.integers(0, 2**32), st.integers(1, 100))
def test_the_amaf_statistics_are_the_counts_of_the_moves_the_dives_played(game, opts, seed, dives):
    recorded = []
    _phases(game, game.start(), dives, random.Random(seed), record=recorded, **opts)
    counts, scores = _brute_force_amaf(game, recorded)
    tree = search(game, game.start(), dives, random.Random(seed), rule="ucb1", **opts)
    for state, rec in dict(tree).items():
        amaf = rec.get("amaf", {})
        assert {key: n for key, (n, _) in amaf.items()} == dict(counts.get(state, {}))
        for key, (_, s) in amaf.items():
            assert s == pytest.approx(scores[state][key], abs=1e-9)
    assert set(counts) <= set(dict(tree))


@pytest.mark.slow
def test_grave_reads_the_nearest_state_with_ref_visits():
    """GRAVE with a threshold above every count reads the root's AMAF statistics everywhere: the ratings
    below the root then differ from plain RAVE's (which reads each state's own), so the trees do."""
    game = TicTacToe()
    rave = search(game, game.start(), 400, random.Random(1), rule="ucb1", rave=50)
    grave = search(game, game.start(), 400, random.Random(1), rule="ucb1", rave=50, rave_ref=10**6)
    assert dict(rave) != dict(grave)
    path = phases.select(game, grave, game.start(), random.Random(2), partial(ucb1), rave=50, rave_ref=10**6)
    root_table = grave[game.start()]["amaf"]
    deep = path.steps[1]  # the second decision: rated with the root's table
    n_parent = deep.record["win"] + deep.record["loss"] + deep.record.get("draw", 0)
    expected = tuple(
        rave_rating(r, n_parent, math.sqrt(2), root_table, deep.player, m, 50, False)
        for r, m in zip(deep.records, deep.moves)
    )
    assert deep.scores == expected


def test_rave_options_are_checked():
    with pytest.raises(ValueError, match="needs rule='ucb1'"):
        search_options(rule="tutorial", rave=10)
    with pytest.raises(ValueError, match="rave_ref is GRAVE's threshold"):
        search_options(rave_ref=5)
    with pytest.raises(ValueError, match="rave must be a finite number"):
        search_options(rave=-1)
    with pytest.raises(TypeError, match="rave must be a number"):
        search_options(rave="many")
    with pytest.raises(ValueError, match="rave_ref must be a whole number"):
        search_options(rave=1, rave_ref=2.5)
    with pytest.raises(ValueError, match="needs rule=ucb1"):
        phases.select(Nim(), {}, Nim().start(), random.Random(1), rave=3)


def test_mcts_move_mcts_agent_and_trace_take_rave():
    game = TicTacToe()
    found = mcts_move(game, game.start(), 300, random.Random(4), rave=20, rave_ref=10)
    assert found.move in game.possible_moves(game.start())
    assert "amaf" in found.tree[game.start()]
    agent = mcts_agent(200, rave=20)
    assert agent(game, game.start(), random.Random(4)) in game.possible_moves(game.start())
    t = trace(game, game.start(), 60, random.Random(5), rule="ucb1", rave=20, rave_ref=5)
    assert t.tree(60) == search(game, game.start(), 60, random.Random(5), rule="ucb1", rave=20, rave_ref=5)


def test_rave_finds_the_only_win_at_tic_tac_toe():
    """A position where one move wins at once and every other loses: RAVE's blend does not hide it."""
    state = (0, 1, 0, 0, 0, 1, 0, 0, 2)  # O to move: only 6 wins
    for seed in range(5):
        assert mcts_move(TicTacToe(), state, 2_000, random.Random(seed), rave=30, solver=False).move == 6
