"""The tree is a value you can step through: dives share structure, continuing is exact, trees diff.

* A dive (``uct``, or ``search`` of one dive on a given tree) makes new records
  only along its path: every other record is the same object as before.
* ``search`` of many dives on a given tree writes back only the records that
  changed: every record no dive touched is the same object.
* Continuing a search is exact: ``n1`` dives then ``n2`` more on the returned
  tree (also after saving and loading it) equal ``n1 + n2`` dives; a search
  from a later state on ``subtree`` grows what it grows on the whole tree.
* ``diff(a, b)`` is the change as a value: applying it to ``a`` makes ``b``.
"""

from __future__ import annotations

import copy
import json
import math
import random
from functools import partial

import pytest

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pyrsistent import pmap

from fnmcts.games import GAMES, Nim, Piles, ShutTheBox, TicTacToe
from fnmcts.protocol import CHANCE
from fnmcts.mcts import Tree, mean, phases, search, search_options, subtree, uct, ucb, ucb1, visits
from fnmcts.views import diff
from fnmcts.views._saved import tree_from_json, tree_to_json

from small_games import cyclic_table_games, table_games

BUILTIN = (Nim(heap=9, max_take=3), Piles((1, 2, 3)), ShutTheBox(levers=5), ShutTheBox(levers=4, dice="low-sum"), TicTacToe())
SAVABLE = st.sampled_from(BUILTIN)
GAMES_ANY = st.one_of(st.sampled_from(BUILTIN), table_games(), cyclic_table_games())


def _custom(rec, parent_visits):
    n = visits(rec)
    return math.inf if n == 0 else mean(rec) + 1 / n


OPTIONS = st.fixed_dictionaries(
    {
        "rule": st.sampled_from((ucb, ucb1, partial(ucb1, c=0.3), _custom)),
        "backup": st.sampled_from(("mean", "expectimax")),
        "solver": st.booleans(),
    }
)

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _path_states(game, tree, state, rng, opts):
    """The states whose records one dive from ``state`` updates (the phases' path, and the new state)."""
    path = phases.select(game, tree, state, rng, opts["rule"], backup=opts["backup"], solver=opts["solver"])
    return {s for s, _ in path.nodes}


@FAST
@given(GAMES_ANY, OPTIONS, st.integers(0, 2**32), st.integers(0, 150))
def test_a_dive_makes_new_records_only_along_its_path(game, opts, seed, prior):
    state = game.start()
    tree = search(game, state, prior, random.Random(seed ^ 1), **opts)
    rng = random.Random(seed)
    on_path = _path_states(game, tree, state, copy.deepcopy(rng), opts)
    for grown in (uct(game, tree, state, copy.deepcopy(rng), **opts)[0], search(game, state, 1, rng, tree, **opts)):
        for s, rec in tree.items():
            if s not in on_path:
                assert grown[s] is rec  # the same object: shared, not copied
        assert diff(tree, grown).states() == on_path
        assert set(grown) - set(tree) <= on_path


@FAST
@given(GAMES_ANY, OPTIONS, st.integers(0, 2**32), st.integers(1, 200), st.integers(2, 40))
def test_a_search_on_a_given_tree_writes_back_only_what_changed(game, opts, seed, prior, dives):
    state = game.start()
    tree = search(game, state, prior, random.Random(seed ^ 1), **opts)
    grown = search(game, state, dives, random.Random(seed), tree, **opts)
    changed = diff(tree, grown)
    assert not changed.removed
    for s, rec in tree.items():
        if s not in changed.changed:
            assert grown[s] is rec
    assert visits(grown[state]) == visits(tree.get(state, {})) + dives


@FAST
@given(GAMES_ANY, OPTIONS, st.integers(0, 2**32), st.integers(0, 60), st.integers(0, 60))
def test_continuing_on_the_returned_tree_is_the_longer_search(game, opts, seed, first, second):
    rng = random.Random(seed)
    tree = search(game, game.start(), first, rng, **opts)
    tree = search(game, game.start(), second, rng, tree, **opts)
    whole = random.Random(seed)
    assert tree == search(game, game.start(), first + second, whole, **opts)
    assert rng.random() == whole.random()


@settings(max_examples=25, deadline=None)
@given(SAVABLE, OPTIONS.filter(lambda o: o["rule"] is not _custom), st.integers(0, 2**32), st.integers(0, 150),
       st.integers(0, 150))
def test_a_saved_and_loaded_tree_continues_identically(game, opts, seed, first, second):
    rng = random.Random(seed)
    tree = search(game, game.start(), first, rng, **opts)
    loaded_game, loaded = tree_from_json(json.loads(json.dumps(tree_to_json(game, tree))), GAMES)
    assert loaded_game == game and loaded == tree
    continued = search(game, game.start(), second, rng, loaded, **opts)
    assert continued == search(game, game.start(), first + second, random.Random(seed), **opts)


@settings(max_examples=30, deadline=None)
@given(st.sampled_from((Nim(heap=12, max_take=3), ShutTheBox(levers=5), TicTacToe())), OPTIONS,
       st.integers(0, 2**32), st.integers(1, 200), st.integers(1, 100), st.data())
def test_a_search_from_a_later_state_on_the_subtree_grows_what_it_grows_on_the_whole_tree(game, opts, seed, first,
                                                                                            second, data):
    """What ``subtree`` promises (its docstring): the part of the tree a later search can still reach
    is all it reads, so on the subtree it grows exactly the states it grows on the whole tree."""
    tree = search(game, game.start(), first, random.Random(seed), **opts)
    state = game.start()
    for _ in range(data.draw(st.integers(1, 3))):  # a few moves (and rolls) on
        player = game.to_move(state)
        if player is None:
            return
        if player is CHANCE:
            options = [outcome for outcome, _ in game.chance_outcomes(state)]
        else:
            options = list(game.possible_moves(state))
        state = game.play(state, data.draw(st.sampled_from(options)))
    if game.to_move(state) is None:
        return
    kept = subtree(game, tree, state)
    assert set(kept) <= set(tree) and all(kept[s] is tree[s] for s in kept)
    on_kept = search(game, state, second, random.Random(seed + 1), kept, **opts)
    on_whole = search(game, state, second, random.Random(seed + 1), tree, **opts)
    assert on_kept == subtree(game, on_whole, state)


@given(GAMES_ANY, st.integers(0, 2**32), st.integers(0, 80), st.integers(0, 80))
@settings(max_examples=40, deadline=None)
def test_a_diff_applied_makes_the_second_tree(game, seed, a, b):
    one = search(game, game.start(), a, random.Random(seed))
    two = search(game, game.start(), b, random.Random(seed + 1))
    d = diff(one, two)
    assert d.apply(one) == two
    assert not diff(two, two) and not diff(pmap(), pmap())
    assert set(d.added) == set(two) - set(one) and set(d.removed) == set(one) - set(two)
    for s, (old, new) in d.changed.items():
        assert one[s] == old and two[s] == new and old != new


def test_a_diff_refuses_what_is_not_a_tree():
    import pytest

    with pytest.raises(TypeError, match="diff compares two trees"):
        diff([], pmap())


def test_uct_and_search_return_trees_that_share_with_a_tree_given_as_a_pmap():
    game = TicTacToe()
    tree = search(game, game.start(), 300, random.Random(1)).pmap()
    grown, _ = uct(game, tree, game.start(), random.Random(2))
    assert isinstance(grown, Tree) and grown.root == game.start()
    shared = sum(1 for s, rec in tree.items() if grown[s] is rec)
    assert shared >= len(tree) - 9  # a path in tic-tac-toe holds at most 10 states


@FAST
@given(GAMES_ANY, st.integers(0, 2**32),
       st.lists(st.tuples(st.sampled_from(("uct", "search")), st.integers(0, 3), st.integers(1, 4),
                          st.one_of(st.none(), OPTIONS)), max_size=25), OPTIONS)
@pytest.mark.slow
def test_stepping_on_any_tree_kept_or_older_is_the_phases_dive_for_dive(game, seed, calls, first):
    # each call continues one of the trees made so far (the last one returned: its working copy is
    # kept; an older one: read afresh), with uct or with a search of a few dives, with the options of
    # the call before or others; both must give the phases' tree and uct the phases' result,
    # whatever was called before
    state = game.start()
    rng, ref_rng = random.Random(seed), random.Random(seed)
    trees, refs = [pmap()], [pmap()]
    opts = first
    for how, back, dives, other in calls:
        opts = other or opts
        k = max(0, len(trees) - 1 - back)
        if how == "uct":
            grown, result = uct(game, trees[k], state, rng, **opts)
            ref, ref_result = phases.uct(game, refs[k], state, ref_rng, opts["rule"], backup=opts["backup"],
                                         solver=opts["solver"])
            assert result == ref_result
        else:
            grown = search(game, state, dives, rng, tree=trees[k], **opts)
            ref = refs[k]
            for _ in range(dives):
                ref, _ = phases.uct(game, ref, state, ref_rng, opts["rule"], backup=opts["backup"],
                                    solver=opts["solver"])
        assert grown == ref
        trees.append(grown)
        refs.append(ref)
    assert rng.random() == ref_rng.random()


_GIVEN_ONLY = st.sampled_from(("none", "ucb", "ucb1", "options"))


@FAST
@given(st.integers(0, 2**32),
       st.lists(st.tuples(st.integers(0, 3), st.sampled_from(("uct", "search")), _GIVEN_ONLY, st.integers(1, 3)),
                min_size=1, max_size=20))
def test_calls_giving_only_a_rule_or_options_grow_each_game_s_own_tree(seed, calls):
    # ``uct`` and ``search`` resolve the options of a call that gives only ``rule`` or ``options``
    # once and reuse them while the game, the rule and the options are the same objects: calls
    # that alternate games (two equal games of different objects among them, and games whose
    # defaults differ: one with chance), rules and options must each grow the tree of the phases
    # with that call's own options
    games = (Nim(heap=9, max_take=3), Nim(heap=9, max_take=3), ShutTheBox(levers=4), TicTacToe())
    shared = search_options(rule="ucb1", c=0.5)
    rng, ref_rng = random.Random(seed), random.Random(seed)
    trees, refs = [pmap()] * len(games), [pmap()] * len(games)
    for which, how, given_, dives in calls:
        game = games[which]
        state = game.start()
        given_opts = {"none": {}, "ucb": {"rule": ucb}, "ucb1": {"rule": ucb1}, "options": {"options": shared}}[given_]
        if how == "uct":
            ref_opts = {"rule": ucb} if given_ == "none" else given_opts
            for _ in range(dives):
                trees[which], result = uct(game, trees[which], state, rng, **given_opts)
                refs[which] = _repeat_uct_options(game, state, ref_rng, refs[which], ref_opts)
        else:
            trees[which] = search(game, state, dives, rng, trees[which], **given_opts)
            for _ in range(dives):
                refs[which] = _repeat_uct_options(game, state, ref_rng, refs[which], given_opts)
        assert trees[which] == refs[which]
    assert rng.random() == ref_rng.random()


def _repeat_uct_options(game, state, rng, tree, given_opts):
    opts = search_options(game, given_opts.get("options"), **{k: v for k, v in given_opts.items() if k != "options"})
    return phases.uct(game, tree, state, rng, opts.selection(), backup=opts.backup, solver=opts.solver)[0]


def test_a_tree_grown_with_expectimax_continued_with_the_mean_is_the_phases():
    # the working copy of an expectimax search rates by values; a mean-backup dive on the tree it
    # returned must not (it starts from the records, as the phases do)
    for game in (ShutTheBox(levers=5), TicTacToe()):
        state = game.start()
        rng, ref_rng = random.Random(3), random.Random(3)
        tree = search(game, state, 30, rng, rule=ucb1, backup="expectimax", solver=False)
        ref = pmap()
        for _ in range(30):
            ref, _ = phases.uct(game, ref, state, ref_rng, ucb1, backup="expectimax")
        assert tree == ref
        for _ in range(10):
            tree, _ = uct(game, tree, state, rng, rule=ucb)
            ref, _ = phases.uct(game, ref, state, ref_rng, ucb)
        assert tree == ref


@pytest.mark.slow
def test_a_tree_no_one_holds_is_freed_with_its_working_copy():
    # the engine keeps the working copy of the tree it returned last, but never the tree itself
    import gc
    import weakref

    game = TicTacToe()
    tree = search(game, game.start(), 200, random.Random(1), rule=ucb)
    tree, _ = uct(game, tree, game.start(), random.Random(2))
    held = weakref.ref(tree.pmap())
    del tree
    gc.collect()
    assert held() is None


# -- the working copy a returned tree carries (issue 34: no state outlives a call) ----------------


@settings(max_examples=40, deadline=None)
@given(game=table_games(), seed=st.integers(0, 2**32), first=st.integers(1, 30), more=st.integers(1, 20))
def test_a_tree_continued_twice_grows_the_same_as_one_read_afresh(game, seed, first, more):
    """The working copy moves to the tree the next call returns: continuing the same tree a second time (a
    branch) reads its records again, and every way gives the tree a search from the plain map gives."""
    state = game.start()
    tree = search(game, state, first, random.Random(seed), solver=False)
    one = search(game, state, more, random.Random(seed + 1), tree=tree, solver=False)  # on the working copy
    two = search(game, state, more, random.Random(seed + 1), tree=tree, solver=False)  # the copy moved on: read again
    afresh = search(game, state, more, random.Random(seed + 1), tree=tree.pmap(), solver=False)
    assert one == two == afresh
    assert tree == search(game, state, first, random.Random(seed), solver=False)  # the tree given is unchanged


def test_only_the_newest_tree_of_a_chain_holds_the_working_copy():
    game = TicTacToe()
    state, rng = game.start(), random.Random(1)
    chain = [search(game, state, 5, rng, rule=ucb)]
    for _ in range(20):
        chain.append(search(game, state, 1, rng, tree=chain[-1], rule=ucb))
    assert [tree._work is not None for tree in chain] == [False] * 20 + [True]
    assert copy.deepcopy(chain[-1])._work is None and chain[-1]._work is not None  # a copy is the tree, not its work
    assert Tree(chain[-1])._work is None
    steps = [chain[-1]]
    for _ in range(20):  # uct runs the phases: their walk moves on the same way
        steps.append(uct(game, steps[-1], state, rng)[0])
    assert [tree._walk is not None for tree in steps] == [False] * 20 + [True]
    assert copy.deepcopy(steps[-1])._walk is None and Tree(steps[-1])._walk is None


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(GAMES_ANY, OPTIONS, st.integers(0, 2**32), st.integers(0, 40))
def test_uct_repeated_is_search_dive_for_dive(game, opts, seed, dives):
    """``fnmcts.mcts.uct`` ``dives`` times is ``search`` of ``dives`` dives: the same tree, the same
    result every dive as the phases' own ``uct``, and the same draws from the generator."""
    state = game.start()
    rng, ref_rng = random.Random(seed), random.Random(seed)
    tree, ref = pmap(), pmap()
    for _ in range(dives):
        tree, result = uct(game, tree, state, rng, **opts)
        ref, ref_result = phases.uct(game, ref, state, ref_rng, opts["rule"], backup=opts["backup"],
                                     solver=opts["solver"])
        assert result == ref_result and tree == ref
    whole = random.Random(seed)
    assert tree == search(game, state, dives, whole, **opts)
    assert rng.random() == whole.random()


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(GAMES_ANY, OPTIONS, st.integers(0, 2**32), st.lists(st.integers(0, 3), max_size=20))
def test_the_phases_walk_moves_with_the_newest_tree_and_changes_no_draw(game, opts, seed, backs):
    # phases.uct on a Tree reads records and moves through the walk the tree carries (played once per
    # state); continuing any tree, the newest (its walk) or an older one (read afresh), must grow the tree
    # and give the result that the phases give on a plain pmap, which carries no walk
    state, rng, ref_rng = game.start(), random.Random(seed), random.Random(seed)
    trees, refs = [Tree()], [pmap()]
    for back in backs:
        k = max(0, len(trees) - 1 - back)
        grown, result = phases.uct(game, trees[k], state, rng, opts["rule"], backup=opts["backup"],
                                   solver=opts["solver"])
        ref, ref_result = phases.uct(game, refs[k], state, ref_rng, opts["rule"], backup=opts["backup"],
                                     solver=opts["solver"])
        assert grown == ref and result == ref_result and type(grown) is Tree and type(ref) is not Tree
        trees.append(grown)
        refs.append(ref)
        walks = [t._walk for t in trees if t._walk is not None]
        assert trees[-1]._walk is not None and len(set(map(id, walks))) == len(walks)  # one tree a walk
        assert all(t._walk is None or t._walk.items is t.pmap() for t in trees)  # and the walk reads that tree
    assert rng.random() == ref_rng.random()
