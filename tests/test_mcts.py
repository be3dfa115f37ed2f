"""Tests of fnmcts.mcts: records, ucb rules, uct, search, read-offs, agents."""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from fractions import Fraction
from functools import partial
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pyrsistent import pmap

from fnmcts.exact import best_moves, evaluate_policy, random_policy, solve, value
from fnmcts.games import Nim, Piles, ShutTheBox, TicTacToe
from fnmcts.games.shut_the_box import all_boxes, play_game, start_box
from fnmcts.mcts import EMPTY_RECORD, Record, _repeat_uct, add_result, mcts_agent, mcts_move, mean, rating_selector, record, score, search, uct, ucb, ucb1, ucb1_selector, ucb_selector, visits, win_rate
from fnmcts.views import backed_up_values, dives_win_rate, greedy_move, greedy_policy, principal_variation, top_children
from fnmcts.protocol import CHANCE

from fnmcts.mcts import phases

STB = ShutTheBox()
SIMPLE = ShutTheBox(simplified=True)
TTT = TicTacToe()


# -- strategies ------------------------------------------------------------------------

records = st.builds(record, st.integers(0, 10_000), st.integers(0, 10_000))
records_with_draws = st.builds(record, st.integers(0, 10_000), st.integers(0, 10_000), draw=st.integers(0, 10_000))
rules = st.sampled_from(
    [ucb, partial(ucb, z=1), partial(ucb, z=0.5), ucb1, partial(ucb1, c=0.2), partial(ucb1, c=3.0)]
)


@st.composite
def nim_games(draw):
    return Nim(heap=draw(st.integers(1, 14)), max_take=draw(st.integers(1, 4)), misere=draw(st.booleans()))


@st.composite
def game_and_state(draw):
    """A game of every kind and a state on its way, reached by random play."""
    kind = draw(st.sampled_from(["stb", "simple", "nim", "piles", "tictactoe"]))
    if kind == "stb":
        game = STB
    elif kind == "simple":
        game = SIMPLE
    elif kind == "nim":
        game = draw(nim_games())
    elif kind == "piles":
        game = Piles(tuple(draw(st.lists(st.integers(0, 3), min_size=1, max_size=3))), draw(st.booleans()))
    else:
        game = TTT
    rng = draw(st.randoms(use_true_random=False))
    state = game.start()
    for _ in range(draw(st.integers(0, 6))):
        player = game.to_move(state)
        if player is None:
            break
        if player is CHANCE:
            state = game.play(state, game.sample_outcome(state, rng))
        else:
            moves = game.possible_moves(state)
            state = game.play(state, moves[rng.randrange(len(moves))])
    return game, state


# -- the reference: the phases, one dive at a time -------------------------------------------


def _reference_dives(game, state, dives, rng, tree=None, rule=ucb, backup="mean"):
    """``dives`` dives of the phases (select, expand, simulate, back up), from ``tree``: a plain dict."""
    tree = dict(tree or {})
    for _ in range(dives):
        path = phases.select(game, tree, state, rng, rule, backup=backup)
        payoff = phases.simulate(game, path.leaf, rng) if path.end in ("new", "repeat") else path.value
        tree = phases.backup(game, phases.expand(game, tree, path), path, payoff, backup=backup)
    return tree


def _reference_move(game, state, dives, rng, rule, solver):
    """The dives of ``mcts_move``: the phases until the root is proven (with the solver)."""
    tree = {}
    for _ in range(dives):
        if solver and phases.proof(game, tree, state) is not None:
            break
        tree, _ = phases.uct(game, tree, state, rng, rule, solver=solver)
    return tree


# -- records -------------------------------------------------------------------------------


def test_record_is_the_tutorials_map():
    assert record() == {"win": 0, "loss": 0} == EMPTY_RECORD
    assert record(win=3, loss=4) == pmap({"win": 3, "loss": 4})
    assert hash(record(3, 4)) == hash(pmap({"win": 3, "loss": 4}))
    assert record(3, 4).set("win", 5) == record(5, 4)
    assert isinstance(record(3, 4), Mapping) and isinstance(record(3, 4), Record)
    assert record(win=2, loss=3)["win"] == 2 and record(win=2, loss=3).get("draw", 0) == 0


def test_a_record_is_immutable():
    rec = record(3, 4)
    with pytest.raises(AttributeError, match="immutable"):
        rec.win = 5
    assert rec.set("draw", 1) == record(3, 4, draw=1) and rec == record(3, 4)


_FIELD_VALUES = {
    "draw": st.integers(1, 50),
    "score": st.floats(0, 100, allow_nan=False),
    "value": st.floats(0, 1, allow_nan=False),
    "proven": st.tuples(st.integers(-1, 1), st.integers(-1, 1)),
    "amaf": st.dictionaries(st.tuples(st.integers(0, 1), st.integers(0, 5)),
                            st.tuples(st.integers(1, 9), st.floats(0, 9, allow_nan=False)), max_size=3).map(pmap),
    "bounds": st.tuples(st.integers(-1, 1), st.integers(-1, 1)),
    "graph": st.tuples(st.floats(0, 9, allow_nan=False), st.just(())),
}


@st.composite
def _record_fields(draw):
    fields = {"win": draw(st.integers(0, 100)), "loss": draw(st.integers(0, 100))}
    for key in draw(st.sets(st.sampled_from(sorted(_FIELD_VALUES)))):
        fields[key] = draw(_FIELD_VALUES[key])
    return fields


@given(_record_fields())
def test_a_record_made_by_the_engine_is_the_record_of_its_fields(fields):
    # the engine makes records through ``Record._of`` (a sibling class filled and turned into a
    # Record); each must be the very record ``Record(**fields)`` makes: class, items, hash, reads,
    # repr, pickle, and as immutable
    import pickle

    from fnmcts.mcts._records import Record as _Record

    made = _Record._of(fields["win"], fields["loss"], fields.get("draw"), fields.get("score"), fields.get("value"),
                       fields.get("proven"),
                       None if not {"amaf", "bounds", "graph"} & set(fields)
                       else (fields.get("amaf"), fields.get("bounds"), fields.get("graph")))
    given_ = _Record(**fields)
    assert type(made) is type(given_) and type(made).__name__ in ("Record", "_RecordX")
    assert made == given_ == fields and dict(made) == fields and hash(made) == hash(pmap(fields))
    assert all(made[key] == value and made.get(key) == value and key in made for key, value in fields.items())
    assert repr(made) == repr(given_) and len(made) == len(fields)
    assert pickle.loads(pickle.dumps(made)) == made
    with pytest.raises(AttributeError, match="immutable"):
        made.win = 1
    with pytest.raises(AttributeError, match="immutable"):
        made._w = 1


@pytest.mark.slow
@pytest.mark.parametrize("hash_seed", ["0", "1", "4", "12345"])
def test_records_list_win_first_whatever_the_string_hashing(hash_seed):
    import os
    import subprocess
    import sys

    code = (
        "from fnmcts.mcts import record; "
        "print(record(3, 4), record(1, 2, value=0.5), record(1, 1, draw=2), dict(record(5, 6)))"
    )
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True).stdout
    assert out.split("\n")[0] == (
        "Record(win=3, loss=4) Record(win=1, loss=2, value=0.5) Record(win=1, loss=1, draw=2) {'win': 5, 'loss': 6}"
    )


@given(st.integers(0, 10**9), st.integers(0, 10**9), st.none() | st.floats(0, 1))
def test_record_matches_pmap_with_value(w, l, v):
    r = record(w, l, value=v)
    expected = {"win": w, "loss": l} if v is None else {"win": w, "loss": l, "value": v}
    assert r == pmap(expected) and hash(r) == hash(pmap(expected)) and dict(r) == expected
    assert r.set("win", w + 1) == pmap({**expected, "win": w + 1})
    assert r.set("draw", 1) == pmap({**expected, "draw": 1})


@given(st.integers(0, 10**9), st.integers(0, 10**9))
def test_record_matches_pmap(w, l):
    r = record(w, l)
    assert r == pmap({"win": w, "loss": l}) and dict(r) == {"win": w, "loss": l}
    assert visits(r) == w + l


@given(st.integers(0, 10**6), st.integers(0, 10**6), st.integers(0, 10**6))
def test_a_draw_counts_half_a_win(w, l, d):
    r = record(w, l, draw=d)
    assert visits(r) == w + l + d
    assert score(r) == w + d / 2
    assert mean(r) == ((w + d / 2) / (w + l + d) if w + l + d else 0.0)
    assert win_rate(r) == (w / (w + l + d) if w + l + d else 0.0)
    assert ("draw" in r) == (d > 0)


def test_records_refuse_bad_counts_and_keys():
    with pytest.raises(ValueError, match="win count"):
        record(win=-1)
    with pytest.raises(ValueError, match="draw count"):
        record(draw=True)
    with pytest.raises(ValueError, match="keys are"):
        Record(win=1, loss=0, wins=2)


@given(records_with_draws, st.sampled_from(["win", "loss", "draw", True, False]))
def test_add_result_adds_exactly_one(rec, result):
    new = add_result(rec, result)
    assert visits(new) == visits(rec) + 1
    won = result in ("win", True)
    drawn = result == "draw"
    assert new["win"] - rec["win"] == (1 if won else 0)
    assert new.get("draw", 0) - rec.get("draw", 0) == (1 if drawn else 0)
    assert score(new) - score(rec) == (1 if won else 0.5 if drawn else 0)


def test_add_result_rejects_nonsense():
    with pytest.raises(ValueError, match="a result is 'win', 'loss' or 'draw'"):
        add_result(record(), "tie")
    with pytest.raises(ValueError):
        add_result(record(), None)


# -- the selection rules: values computed by hand ----------------------------------------


def test_ucb_by_hand():
    # (w + z sqrt(w l / n)) / n with z = 2
    assert ucb(record(1, 3)) == pytest.approx((1 + math.sqrt(3)) / 4)  # 2*sqrt(3/4) = sqrt 3
    assert ucb(record(23, 77)) == pytest.approx((23 + 2 * math.sqrt(17.71)) / 100)
    assert ucb(record(23, 77)) == pytest.approx(0.3141665, abs=1e-7)
    assert ucb(record(1, 9)) == pytest.approx((1 + 2 * math.sqrt(0.9)) / 10)
    assert ucb(record(4, 0)) == 1.0  # no losses: no spread
    assert ucb(record(2, 2), z=1) == pytest.approx((2 + 1) / 4)  # sqrt(4/4) = 1
    # a draw is half a win: s = 1 + 2/2 = 2 of n = 4, as record(2, 2)
    assert ucb(record(1, 1, draw=2)) == ucb(record(2, 2)) == pytest.approx((2 + 2) / 4)


def test_ucb_special_cases():
    assert ucb(record()) == math.inf
    assert ucb(record(0, 5)) == 3 / 5  # the rule of 3
    assert ucb(record(0, 1)) == 3.0
    assert ucb({"loss": 1}) == 3.0  # missing keys count 0, as the tutorial's (get record :win 0)
    assert ucb(None) == math.inf  # not in the tree yet: the tutorial's (ucb nil)


def test_ucb1_by_hand():
    assert ucb1(record(1, 1), parent_visits=1) == 0.5  # ln 1 = 0
    assert ucb1(record(1, 1), parent_visits=math.exp(8), c=1) == pytest.approx(0.5 + 2.0)
    assert ucb1(record(3, 1), parent_visits=math.e, c=2) == pytest.approx(0.75 + 2 * 0.5)
    assert ucb1(record(), parent_visits=10) == math.inf
    assert ucb1(record(0, 0, draw=2), parent_visits=1) == 0.5  # two draws: a mean of 1/2
    with pytest.raises(ValueError, match="parent_visits"):
        ucb1(record(1, 1), parent_visits=0)


@given(records_with_draws)
def test_ucb_bounds_the_mean_from_above(rec):
    n = visits(rec)
    if n:
        assert ucb(rec) >= mean(rec) >= win_rate(rec)
        assert ucb1(rec, parent_visits=n + 1) >= mean(rec)


def _stats_of(recs):
    """Working statistics of a node's children, one record (or None: not in the tree) each."""

    def counts(i):
        r = recs[i]
        return None if r is None else [visits(r), score(r), r["win"], r.get("draw", 0), None]

    return SimpleNamespace(
        N=[None if r is None else visits(r) or None for r in recs],
        E=[0 if r is None else score(r) for r in recs],
        counts=counts,
    )


@given(st.lists(st.none() | records_with_draws, min_size=1, max_size=6), st.integers(1, 10**6), st.floats(0.1, 3))
def test_the_selectors_pick_the_first_child_the_rule_rates_best(recs, parent, constant):
    # the engine's selectors choose among children exactly as the rules rate their records
    kids = tuple(range(len(recs)))
    stats = _stats_of(recs)
    for select, rule in (
        (ucb_selector(), ucb),
        (ucb_selector(constant), partial(ucb, z=constant)),
        (ucb1_selector(), ucb1),
        (ucb1_selector(constant), partial(ucb1, c=constant)),
    ):
        ratings = [rule(r if r is None or visits(r) else None, parent_visits=parent) for r in recs]
        assert select(kids, stats, parent) == ratings.index(max(ratings))


@given(st.lists(st.none() | records_with_draws, min_size=1, max_size=6), st.integers(1, 10**6))
def test_a_rating_selector_picks_the_first_child_of_the_best_rating(recs, parent):
    def lcb(counts, parent_visits):
        return math.inf if counts is None or not counts[0] else counts[1] / counts[0] - 1 / counts[0]

    stats = _stats_of(recs)
    ratings = [lcb(stats.counts(i), parent) for i in range(len(recs))]
    assert rating_selector(lcb)(tuple(range(len(recs))), stats, parent) == ratings.index(max(ratings))


@pytest.mark.slow
def test_a_rule_of_the_users_is_called_on_records():
    seen = []

    def my_ucb(rec, parent_visits=None):
        seen.append((rec, parent_visits))
        return ucb(rec)

    tree = search(STB, start_box, 300, random.Random(1), rule=my_ucb, solver=False)
    assert seen
    for rec, parent in seen:
        assert isinstance(rec, Mapping) and {"win", "loss"} <= set(rec)
        assert isinstance(parent, int) and parent >= 1
    # the same ratings as the built-in rule: the same tree
    assert tree == search(STB, start_box, 300, random.Random(1), rule=ucb)


# -- uct -------------------------------------------------------------------------------------


@st.composite
def stb_trees(draw):
    """A Shut the Box tree grown by a few seeded dives (possibly empty)."""
    seed = draw(st.integers(0, 10**6))
    n = draw(st.integers(0, 60))
    game = draw(st.sampled_from([STB, SIMPLE]))
    return game, search(game, game.start(), n, random.Random(seed), rule=ucb)


@pytest.mark.slow
@given(stb_trees(), st.randoms(use_true_random=False), rules)
def test_uct_adds_exactly_one_result_at_the_root(game_tree, rng, rule):
    game, tree = game_tree
    root = game.start()
    before = dict(tree)
    new, result = uct(game, tree, root, rng, rule)
    assert dict(tree) == before  # the input is untouched
    assert result in ("win", "loss")
    old_rec = tree.get(root, EMPTY_RECORD)
    assert visits(new[root]) == visits(old_rec) + 1
    assert new[root]["win"] - old_rec["win"] == (1 if result == "win" else 0)
    # at most one new state, and every changed state gained exactly this result
    assert len(new) - len(tree) in (0, 1)
    for state, rec in new.items():
        old = tree.get(state, EMPTY_RECORD)
        assert visits(rec) - visits(old) in (0, 1)
        if visits(rec) > visits(old):
            assert rec["win"] - old["win"] == (1 if result == "win" else 0)


@given(game_and_state(), st.integers(0, 10**6))
def test_uct_works_through_the_protocol_for_every_game(gs, seed):
    game, state = gs
    tree = pmap()
    for _ in range(5):
        before = tree
        tree, result = uct(game, tree, state, random.Random(seed))
        assert visits(tree[state]) == visits(before.get(state, EMPTY_RECORD)) + 1
    if game.num_players == 2:
        assert result in {(1, -1), (-1, 1), (0, 0)}
    else:
        assert result in ("win", "loss")


def test_uct_first_dive_is_one_playout_from_the_new_box():
    # an empty tree: the dive is one random game, with the draws of play_game
    for seed in range(20):
        tree, result = uct(STB, pmap(), start_box, random.Random(seed))
        assert result == play_game(start_box, random.Random(seed))
        assert tree == pmap({start_box: add_result(EMPTY_RECORD, result)})


def test_uct_recurses_into_the_best_rated_child():
    game = STB
    box = frozenset({1, 2, 3})
    # children after a roll of 3: flip 3 -> {1, 2}; flip 1 2 -> {3}
    tree = pmap({box: record(5, 5), frozenset({1, 2}): record(0, 10), frozenset({3}): record(4, 6)})
    rng = _rng_rolling(3)
    new, _ = uct(game, tree, box, rng)
    assert visits(new[frozenset({3})]) == 11  # ucb {3} = 0.71 beats the rule of 3: 0.3
    assert new[frozenset({1, 2})] == tree[frozenset({1, 2})]


def _rng_rolling(total):
    """A Random whose first draw rolls ``total`` with two dice."""
    from fnmcts.rng import ROLL_OF_36

    for seed in range(10_000):
        if ROLL_OF_36[int(random.Random(seed).random() * 36)] == total:
            return random.Random(seed)
    raise AssertionError("no seed found")


@pytest.mark.slow
@given(st.lists(st.integers(0, 10**6), min_size=2, max_size=6))
def test_uct_keeps_nothing_between_calls(seeds):
    # interleave two lines of trees: each call is the reference dive on its own tree alone
    game = STB
    a = b = pmap()
    for i, seed in enumerate(seeds):
        a_ref = _reference_dives(game, start_box, 1, random.Random(seed), tree=a)
        b_ref = _reference_dives(game, start_box, 1, random.Random(seed + 1), tree=b)
        a, _ = uct(game, a, start_box, random.Random(seed))
        b, _ = uct(game, b, start_box, random.Random(seed + 1))
        assert a == a_ref and b == b_ref
        if i % 2:
            a, b = b, a


# -- search == repeated uct ---------------------------------------------------------------------


@pytest.mark.slow
@given(st.sampled_from([STB, SIMPLE]), st.integers(0, 10**6), st.integers(0, 150), rules, st.integers(0, 40))
def test_search_equals_repeated_uct_on_shut_the_box(game, seed, dives, rule, prior):
    start = game.start()
    tree = _repeat_uct(game, start, prior, random.Random(seed ^ 99), rule=ucb)
    batched = search(game, start, dives, random.Random(seed), tree=tree, rule=rule, solver=False)
    stepped = _repeat_uct(game, start, dives, random.Random(seed), tree=tree, rule=rule, solver=False)
    reference = _reference_dives(game, start, dives, random.Random(seed), tree=tree, rule=rule)
    assert batched == stepped == reference


@pytest.mark.slow
@given(game_and_state(), st.integers(0, 10**6), st.integers(0, 60), rules)
def test_search_equals_repeated_uct_on_every_game(gs, seed, dives, rule):
    game, state = gs
    batched = search(game, state, dives, random.Random(seed), rule=rule, solver=False)
    assert batched == _repeat_uct(game, state, dives, random.Random(seed), rule=rule, solver=False)
    assert batched == _reference_dives(game, state, dives, random.Random(seed), rule=rule)


@pytest.mark.slow
@given(st.integers(0, 10**6), st.integers(1, 120))
def test_search_with_an_unknown_rule_equals_uct(seed, dives):
    def lcb(rec, parent_visits=None):
        n = visits(rec)
        return math.inf if n == 0 else win_rate(rec) + 1 / n

    a = search(STB, start_box, dives, random.Random(seed), rule=lcb, solver=False)
    assert a == _repeat_uct(STB, start_box, dives, random.Random(seed), rule=lcb, solver=False)
    assert a == _reference_dives(STB, start_box, dives, random.Random(seed), rule=lcb)


def test_search_checks_its_arguments():
    with pytest.raises(ValueError, match="non-negative"):
        search(STB, start_box, -1, random.Random(1))
    with pytest.raises(TypeError, match="whole number"):
        search(STB, start_box, 1.5, random.Random(1))
    # a rule is a name or a function in uct as in search and mcts_move (one meaning)
    assert uct(STB, pmap(), start_box, random.Random(1), rule="ucb") == uct(
        STB, pmap(), start_box, random.Random(1), rule=ucb)
    with pytest.raises(TypeError, match="rule must be a name"):
        uct(STB, pmap(), start_box, random.Random(1), rule=3)
    with pytest.raises(ValueError, match="unknown rule 'ucb2'"):
        search(STB, start_box, 5, random.Random(1), rule="ucb2")
    with pytest.raises(TypeError, match="game"):
        search(None, start_box, 5, random.Random(1))
    with pytest.raises(TypeError, match="tree must be a map"):
        uct(STB, [], start_box, random.Random(1))
    with pytest.raises(TypeError, match="records are maps"):
        search(STB, start_box, 5, random.Random(1), tree=pmap({start_box: 3}))


def test_uct_needs_the_game_first_and_the_old_order_still_works_with_a_warning():
    with pytest.raises(TypeError, match=r"uct needs the game first: uct\(game, tree, state, rng\).*fnmcts.tutorial.uct"):
        uct(pmap(), start_box, random.Random(1))
    with pytest.warns(DeprecationWarning, match="the game comes first"):
        old = uct(pmap(), start_box, random.Random(1), STB)
    assert old == uct(STB, pmap(), start_box, random.Random(1))


@pytest.mark.slow
def test_search_reports_progress():
    seen = []
    search(STB, start_box, 25_000, random.Random(1), progress=seen.append)
    assert sum(seen) == 25_000
    seen = []
    search(Nim(7, 3), Nim(7, 3).start(), 25, random.Random(1), progress=seen.append)
    assert sum(seen) == 25


# -- mcts_move is the same descent, stopping at the proof ------------------------------------------


@pytest.mark.slow
@given(nim_games(), st.integers(0, 1), st.integers(0, 10**6), st.integers(1, 300), st.booleans(), rules)
def test_mcts_move_on_nim_is_the_reference_descent(game, player, seed, n, solver, rule):
    state = game.state(game.heap, player)
    found = mcts_move(game, state, n, random.Random(seed), rule=rule, solver=solver)
    expected = _reference_move(game, state, n, random.Random(seed), rule, solver)
    assert dict(found.tree) == expected
    assert dict(found.proven) == {s: rec["proven"] for s, rec in expected.items() if "proven" in rec}
    assert found.iterations == visits(found.tree[state])
    assert found.iterations == n or state in found.proven  # the search stops only at a proof
    if state in found.proven:
        assert found.move in best_moves(game, solve(game, state), state)


@given(nim_games(), st.integers(0, 10**6), st.integers(1, 200))
def test_solver_proofs_are_true(game, seed, n):
    state = game.start()
    if game.to_move(state) is None:
        return
    found = mcts_move(game, state, n, random.Random(seed), solver=True)
    solution = solve(game)
    for s, exact in found.proven.items():
        assert exact == value(solution, s)
        assert all(isinstance(x, Fraction) for x in exact)
    for s, rec in found.tree.items():
        assert rec.get("proven") == found.proven.get(s)


@given(st.tuples(st.integers(0, 2), st.integers(0, 2), st.integers(0, 3)), st.booleans(), st.integers(0, 10**6))
def test_solver_proofs_are_true_on_piles(piles, misere, seed):
    game = Piles(piles, misere)
    state = game.start()
    if game.to_move(state) is None:
        return
    found = mcts_move(game, state, 200, random.Random(seed), solver=True)
    solution = solve(game)
    for s, exact in found.proven.items():
        assert exact == value(solution, s)


# -- read-offs and views ----------------------------------------------------------------------------


def test_greedy_move_rules():
    state = STB.play(frozenset({1, 2, 3}), 3)
    a, b = frozenset({1, 2}), frozenset({3})
    assert greedy_move(STB, pmap({a: record(1, 9), b: record(2, 8)}), state) == b
    assert greedy_move(STB, pmap({a: record(2, 8), b: record(1, 9)}), state) == a
    assert greedy_move(STB, pmap({a: record(1, 1), b: record(2, 2)}), state) == b  # tie: more visits
    assert greedy_move(STB, pmap({b: record(0, 1)}), state) == b  # unvisited ranks last
    assert greedy_move(STB, pmap(), state) == STB.possible_moves(state)[0]
    assert greedy_move(STB, pmap(), state, values={a: 0.1, b: 0.05}) == a
    # a draw counts half: 1 win, 2 draws of 4 (mean 1/2) beats 1 win of 3
    assert greedy_move(STB, pmap({a: record(1, 2), b: record(1, 1, draw=2)}), state) == b
    with pytest.raises(ValueError, match="no move"):
        greedy_move(STB, pmap(), STB.play(frozenset({9}), 3))


def test_greedy_policy_is_random_where_the_tree_knows_nothing():
    state = STB.play(frozenset({1, 2, 3}), 3)
    assert greedy_policy(pmap())(STB, state) == random_policy(STB, state)
    assert greedy_policy(pmap({frozenset({3}): record(0, 1)}))(STB, state) == ((frozenset({3}), Fraction(1)),)


@pytest.mark.slow
def test_greedy_policy_of_an_empty_tree_is_random_play():
    random_value = value(evaluate_policy(STB, random_policy), start_box)
    assert value(evaluate_policy(STB, greedy_policy(pmap())), start_box) == random_value


@pytest.mark.slow
def test_learning_occurs_on_shut_the_box():
    # the tutorial's claim, judged exactly: more dives, a better greedy policy
    optimum = value(solve(STB), start_box)[0]
    random_value = value(evaluate_policy(STB, random_policy), start_box)[0]
    rng = random.Random(11)
    small = search(STB, start_box, 1_000, rng, rule=ucb)
    large = search(STB, start_box, 19_000, rng, tree=small, rule=ucb)
    v_small = value(evaluate_policy(STB, greedy_policy(small)), start_box)[0]
    v_large = value(evaluate_policy(STB, greedy_policy(large)), start_box)[0]
    assert random_value < v_small < v_large < optimum
    backed = greedy_policy(large, backed_up_values(STB, large))
    assert value(evaluate_policy(STB, backed), start_box)[0] > Fraction(99, 100) * optimum


def test_backed_up_values_are_exact_on_a_full_tree():
    # every box stored: the expectimax read-off is the exact solve, whatever the records
    solution = solve(STB, *all_boxes())
    tree = pmap({box: record(1, 1) for box in all_boxes()})
    values = backed_up_values(STB, tree)
    for box in all_boxes():
        assert values[box] == pytest.approx(float(value(solution, box)[0]), abs=1e-12)


def test_backed_up_values_for_two_players():
    game = Nim(heap=6, max_take=3, misere=True)
    states = [game.state(h, p) for h in range(7) for p in (0, 1)]
    tree = pmap({s: record(1, 1) for s in states})
    values = backed_up_values(game, tree)
    solution = solve(game, *states)
    for s in states:
        mover = 1 - s["player"]
        assert values[s] == (1.0 if value(solution, s)[mover] > 0 else 0.0)


def test_backed_up_values_fall_back_to_the_mean():
    box = frozenset({4, 5})
    tree = pmap({box: record(1, 1)})
    # roll 4 -> {5} and 5 -> {4}: not stored, the box's own mean 1/2 stands in;
    # roll 9 -> {}: a win for sure; any other roll: no move, a loss for sure
    v = backed_up_values(STB, tree)[box]
    assert v == pytest.approx(3 / 36 * 0.5 + 4 / 36 * 0.5 + 4 / 36)
    assert backed_up_values(STB, pmap({frozenset({2}): record(5, 0)}))[frozenset({2})] == pytest.approx(1 / 36)
    # a draw counts half in the fallback too
    v = backed_up_values(STB, pmap({box: record(0, 2, draw=2)}))[box]
    assert v == pytest.approx(3 / 36 * 0.25 + 4 / 36 * 0.25 + 4 / 36)


def test_dives_win_rate():
    tree = search(STB, start_box, 500, random.Random(4), rule=ucb)
    assert dives_win_rate(tree, start_box) == tree[start_box]["win"] / 500
    assert dives_win_rate(pmap(), start_box) == 0.0


def test_top_children_and_principal_variation():
    game = Nim(heap=5, max_take=3)
    tree = pmap({game.state(4, 1): record(1, 2), game.state(3, 1): record(4, 0), game.state(2, 0): record(0, 2)})
    assert [m for m, _ in top_children(game, tree, game.start())] == [2, 1, 3]
    assert top_children(game, tree, game.start(), k=1) == ((2, record(4, 0)),)
    assert [m for m, _ in principal_variation(game, tree, game.start())] == [2, 1]
    line = principal_variation(STB, pmap({frozenset({1, 2, 3, 4, 5, 6, 8, 9}): record(1, 0)}), start_box)
    assert line[0] == (7, Fraction(1, 6))  # the likeliest roll of two dice, with its probability
    assert line[1][0] == frozenset({1, 2, 3, 4, 5, 6, 8, 9})


# -- agents ------------------------------------------------------------------------------------------


@pytest.mark.slow
@given(game_and_state(), st.randoms(use_true_random=False), st.sampled_from(["ucb1", "tutorial"]), st.booleans())
@settings(max_examples=40)
def test_agent_returns_a_legal_move_on_every_game(gs, rng, rule, solver):
    game, state = gs
    player = game.to_move(state)
    if player is None:
        return
    if player is CHANCE:
        state = game.play(state, game.sample_outcome(state, rng))
        if game.to_move(state) is None:
            return
    move = mcts_agent(60, rule=rule, solver=solver)(game, state, rng)
    assert move in game.possible_moves(state)


@given(nim_games(), st.integers(0, 1), st.integers(0, 10**6), st.sampled_from(["visits", "mean"]), st.booleans())
@settings(max_examples=40)
def test_default_agent_plays_optimally_on_small_nim(game, player, seed, final, solver):
    state = game.state(game.heap, player)
    solution = solve(game, state)
    if value(solution, state)[player] <= 0:
        return  # every move loses: any move is optimal
    move = mcts_agent(1000, final=final, solver=solver)(game, state, random.Random(seed))
    assert move in best_moves(game, solution, state)


@st.composite
def small_piles(draw):
    piles = tuple(draw(st.lists(st.integers(0, 4), min_size=1, max_size=3)))
    return Piles(piles, draw(st.booleans()))


@given(small_piles(), st.integers(0, 10**6))
@settings(max_examples=25)
def test_default_agent_plays_optimally_on_small_piles(game, seed):
    state = game.start()
    if game.to_move(state) is None:
        return
    solution = solve(game)
    if value(solution, state)[0] <= 0:
        return
    assert mcts_agent()(game, state, random.Random(seed)) in best_moves(game, solution, state)


def test_a_box_outside_the_game_is_refused():
    with pytest.raises(ValueError):
        uct(STB, pmap(), frozenset({10}), random.Random(1))
    with pytest.raises(ValueError):
        search(STB, frozenset({0, 3}), 5, random.Random(1))


@pytest.mark.parametrize("misere", [True, False])
def test_default_agent_is_optimal_up_to_30(misere):
    # the target: every winning position N = 2..30, K = 3, with the default agent
    agent = mcts_agent()
    for heap in range(2, 31):
        game = Nim(heap, 3, misere)
        solution = solve(game)
        if value(solution, game.start())[0] > 0:
            assert agent(game, game.start(), random.Random(heap)) in best_moves(game, solution, game.start())


@pytest.mark.slow
def test_agent_on_a_shut_the_box_decision_picks_the_known_best():
    # bandit-like decisions whose best move is clearly better: exact values of the
    # best and the second-best move differ by more than 0.08 (about 0.12 vs 0.03)
    solution = solve(STB, *all_boxes())
    checked = 0
    for box in all_boxes():
        for roll in range(2, 13):
            state = STB.play(box, roll) if box else None
            if state is None or len(STB.possible_moves(state)) < 2:
                continue
            values = sorted((value(solution, m)[0] for m in STB.possible_moves(state)), reverse=True)
            if values[0] - values[1] > Fraction(8, 100):
                for final in ("mean", "visits"):
                    found = mcts_move(STB, state, 3000, random.Random(checked), final=final, rule="ucb1", c=0.3)
                    assert found.move in best_moves(STB, solution, state), (sorted(box), roll, final)
                checked += 1
    assert checked >= 8


def test_mcts_move_records_and_options():
    game = Nim(heap=22, max_take=3)
    found = mcts_move(game, game.start(), 500, random.Random(1))
    assert found.move == 1  # to 21 = 1 mod 4
    assert 0 < found.iterations < 500  # the solver proved the root and stopped
    # the player to move (0) wins: the root is proven at the exact payoffs, (1, -1)
    assert found.proven[game.start()] == (Fraction(1), Fraction(-1)) == value(solve(game), game.start())
    assert found.proven[game.play(game.start(), 1)] == (Fraction(1), Fraction(-1))
    assert found.tree[game.start()]["proven"] == found.proven[game.start()]
    assert [m for m, _ in found.children] == [1, 2, 3]
    assert all(rec == found.tree.get(game.play(game.start(), m), EMPTY_RECORD) for m, rec in found.children)
    assert visits(found.tree[game.start()]) == found.iterations
    plain = mcts_move(game, game.start(), 500, random.Random(1), solver=False)
    assert plain.iterations == visits(plain.tree[game.start()]) == 500 and plain.move == 1
    assert plain.proven == pmap() and all("proven" not in rec for rec in plain.tree.values())
    tutorial = mcts_move(game, game.start(), 500, random.Random(1), rule="tutorial", z=1, solver=False)
    assert tutorial.tree == search(game, game.start(), 500, random.Random(1), rule=partial(ucb, z=1))
    assert mcts_move(game, game.start(), 500, random.Random(1), rule="ucb1", c=0.5, solver=False).tree == search(
        game, game.start(), 500, random.Random(1), rule=partial(ucb1, c=0.5), solver=False
    )
    with pytest.raises(ValueError, match="iterations"):
        mcts_move(game, game.start(), 0, random.Random(1))
    with pytest.raises(ValueError, match="final"):
        mcts_move(game, game.start(), 10, random.Random(1), final="best")
    with pytest.raises(ValueError, match="the game is over"):
        mcts_move(game, game.state(0, 0), 10, random.Random(1))
    with pytest.raises(ValueError, match="chance moves next"):
        mcts_move(STB, start_box, 10, random.Random(1))
    with pytest.raises(ValueError, match="backup"):
        mcts_move(game, game.start(), 10, random.Random(1), backup="max")
    with pytest.raises(ValueError, match="unknown rule"):
        mcts_agent(10, rule="ucb2")
    with pytest.raises(TypeError, match="temperature"):
        mcts_agent(10, temperature=1)
    with pytest.raises(ValueError, match="iterations"):
        mcts_agent(0)


def test_mcts_move_grows_a_given_tree():
    game = Nim(heap=9, max_take=3)
    first = mcts_move(game, game.start(), 100, random.Random(1), solver=False)
    again = mcts_move(game, game.start(), 100, random.Random(2), solver=False, tree=first.tree)
    assert visits(again.tree[game.start()]) == 200


def test_mcts_move_on_a_given_graph_finds_the_same():
    from fnmcts.mcts import CompiledGraph

    game = Nim(heap=17, max_take=3)
    graph = CompiledGraph(game)
    alone = mcts_move(game, game.start(), 300, random.Random(5))
    on_graph = mcts_move(game, game.start(), 300, random.Random(5), graph=graph)
    assert on_graph == alone and len(graph) > 0
    assert mcts_move(game, game.start(), 300, random.Random(5), graph=graph) == alone
    with pytest.raises(ValueError, match="belongs to"):
        mcts_move(Nim(heap=9), Nim(heap=9).start(), 10, random.Random(1), graph=graph)


def test_rollout_option_uses_the_given_agent():
    from fnmcts.agents import first_move_agent

    game = Nim(heap=8, max_take=3, misere=False)
    found = mcts_move(game, game.start(), 50, random.Random(3), rollout=first_move_agent, solver=False)
    assert found.move in game.possible_moves(game.start())
    assert visits(found.tree[game.start()]) == 50
    # a dive from an empty tree is one playout of the agent's: the first move each time
    tree, result = uct(game, pmap(), game.start(), random.Random(3), rollout=first_move_agent)
    assert result == game.payoff(_first_moves_to_the_end(game, game.start()))
    assert search(game, game.start(), 50, random.Random(3), rule=ucb1, rollout=first_move_agent,
                  solver=False) == found.tree


def _first_moves_to_the_end(game, state):
    while game.to_move(state) is not None:
        state = game.play(state, game.possible_moves(state)[0])
    return state


# -- backup='expectimax' -------------------------------------------------------------------------


@pytest.mark.slow
@given(st.sampled_from([STB, SIMPLE]), st.integers(0, 10**6), st.integers(0, 120), rules, st.integers(0, 30))
@settings(max_examples=30)
def test_expectimax_search_equals_repeated_uct(game, seed, dives, rule, prior):
    start = game.start()
    tree = _repeat_uct(game, start, prior, random.Random(seed ^ 7), rule=rule, backup="expectimax", solver=False)
    batched = search(game, start, dives, random.Random(seed), tree=tree, rule=rule, backup="expectimax", solver=False)
    stepped = _repeat_uct(game, start, dives, random.Random(seed), tree=tree, rule=rule, backup="expectimax",
                          solver=False)
    reference = _reference_dives(game, start, dives, random.Random(seed), tree=tree, rule=rule, backup="expectimax")
    assert batched == stepped == reference


@given(game_and_state(), st.integers(0, 10**6), st.integers(0, 40))
@settings(max_examples=30)
def test_expectimax_records_stay_records(gs, seed, dives):
    game, state = gs
    tree = search(game, state, dives, random.Random(seed), rule=ucb, backup="expectimax")
    assert len(tree) <= dives  # one new state a dive at most
    if dives:
        assert visits(tree[state]) == dives
    for rec in tree.values():
        keys = {"win", "loss", "value", "draw"} if game is TTT else {"win", "loss", "value"}
        assert {"win", "loss", "value"} <= set(rec) <= keys and 0.0 <= rec["value"] <= 1.0


def test_expectimax_value_is_one_exact_step_over_the_children():
    # box {4, 5} with both children stored; a roll of 2 ends the dive at once (no move),
    # and the box's value is one expectimax step over its children's records
    box, four, five = frozenset({4, 5}), frozenset({4}), frozenset({5})
    tree = pmap({box: record(1, 1), four: record(1, 3, value=0.25), five: record(1, 1)})
    new, result = uct(STB, tree, box, _rng_rolling(2), backup="expectimax")
    assert result == "loss"
    assert new[four] == tree[four] and new[five] == tree[five]
    # roll 4 -> {5} (mean 1/2), roll 5 -> {4} (value 1/4), roll 9 -> {} (a win)
    assert new[box]["value"] == pytest.approx(3 / 36 * 0.5 + 4 / 36 * 0.25 + 4 / 36 * 1.0)
    assert visits(new[box]) == 3 and new[box]["loss"] == 2


@pytest.mark.slow
def test_expectimax_search_learns_the_optimum():
    optimum = value(solve(STB), start_box)[0]
    tree = search(STB, start_box, 20_000, random.Random(5), rule=partial(ucb1, c=0.2), backup="expectimax",
                  solver=False)
    greedy = value(evaluate_policy(STB, greedy_policy(tree)), start_box)[0]
    assert greedy > Fraction(99, 100) * optimum
    assert abs(tree[start_box]["value"] - float(optimum)) < 0.005


def test_backup_is_checked():
    with pytest.raises(ValueError, match="backup must be one of"):
        search(STB, start_box, 10, random.Random(1), backup="max")
    with pytest.raises(ValueError, match="backup must be one of"):
        uct(STB, pmap(), start_box, random.Random(1), backup="max")
    with pytest.raises(ValueError, match="backup must be one of"):
        mcts_agent(10, backup="max")


def test_greedy_move_reads_values_when_records_keep_them():
    state = STB.play(frozenset({1, 2, 3}), 3)
    a, b = frozenset({1, 2}), frozenset({3})
    tree = pmap({a: record(1, 9, value=0.3), b: record(2, 8, value=0.1)})
    assert greedy_move(STB, tree, state) == a  # by value, though b has the better mean


# -- MCTS-Solver with chance --------------------------------------------------------------------


def test_solver_in_a_one_player_game_plays_the_sure_win():
    # box {4}, roll 4: flipping 4 empties the box, a win proven after two dives
    state = STB.play(frozenset({4}), 4)
    found = mcts_move(STB, state, 100, random.Random(1))
    assert found.move == frozenset() and found.proven[state] == (Fraction(1),) and found.iterations <= 2


def test_solver_proves_a_chance_node_by_its_expectation():
    # box {1, 3, 4}, roll 4: flip 4 (leaves {1, 3}) or flip 1 3 (leaves {4}); the children
    # are boxes before a roll, chance nodes proven once every roll below them is
    state = STB.play(frozenset({1, 3, 4}), 4)
    solution = solve(STB, state)
    early = mcts_move(STB, state, 200, random.Random(1))
    assert early.move in STB.possible_moves(state)
    assert state in early.proven or early.iterations == 200  # unproven: the search runs in full
    found = mcts_move(STB, state, 20_000, random.Random(1))
    assert found.proven[state] == value(solution, state) == (Fraction(1, 12),)
    assert found.iterations < 20_000  # stopped at the proof
    assert found.move in best_moves(STB, solution, state)
    for s, exact in found.proven.items():
        assert exact == value(solution, s)


def _forced_boxes():
    """Boxes from which no decision ever offers a choice: every policy is the same."""

    def forced(box, seen):
        if box in seen:
            return True
        seen.add(box)
        for roll in range(2, 13):
            moves = STB.possible_moves(STB.play(box, roll)) if box else ()
            if len(moves) > 1 or not all(forced(m, seen) for m in moves):
                return False
        return True

    return [box for box in all_boxes() if len(box) >= 2 and forced(box, set())]


@pytest.mark.parametrize(
    "box", sorted(_forced_boxes(), key=lambda b: (-len(b), sorted(b)))[:3] + [frozenset({7})], ids=str
)
def test_dives_win_at_the_exact_rate_where_nothing_is_chosen(box):
    # with no choice anywhere, every dive is one game of the only policy there is, so
    # the dives' win rate is a binomial proportion around the exact value
    p = float(value(solve(STB, box), box)[0])
    n = 20_000
    tree = search(STB, box, n, random.Random(2024), rule=ucb)
    sigma = math.sqrt(p * (1 - p) / n)
    assert abs(win_rate(tree[box]) - p) < 4.5 * sigma


def test_agents_pickle_for_worker_processes():
    import pickle

    game = Nim(heap=13, max_take=3, misere=False)
    agent = mcts_agent(300, solver=False, final="mean")
    copy = pickle.loads(pickle.dumps(agent))
    # 13 = 1 mod 4 under normal play: take 1, leaving a multiple of 4
    assert copy(game, game.start(), random.Random(4)) == agent(game, game.start(), random.Random(4)) == 1


def test_records_and_trees_pickle():
    import pickle

    tree = search(TTT, TTT.start(), 300, random.Random(2), solver=True)
    assert pickle.loads(pickle.dumps(tree)) == tree
    rec = record(1, 2, draw=3, value=0.25)
    assert pickle.loads(pickle.dumps(rec)) == rec and repr(pickle.loads(pickle.dumps(rec))) == repr(rec)
