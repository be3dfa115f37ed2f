"""The search's enhancements as strategies: decisive playouts, sequential halving at the root."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fnmcts.mcts.enhancements import SequentialHalving, considered_visits, decisive_agent, sequential_halving
from fnmcts.protocol import CHANCE, payoff_range

from small_games import table_games


@st.composite
def walks(draw):
    """A generated two-player game and a decision state reached by random moves."""
    game = draw(table_games(players=2))
    state, rng = game.start(), draw(st.randoms(use_true_random=False))
    decisions = []
    while (player := game.to_move(state)) is not None:
        if player is not CHANCE:
            decisions.append(state)
        moves = game.possible_moves(state) if player is not CHANCE else [o for o, _ in game.chance_outcomes(state)]
        state = game.play(state, rng.choice(moves))
    if not decisions:
        return game, None
    return game, draw(st.sampled_from(decisions))


def _wins_at_once(game, state, player):
    return game.to_move(state) is None and game.payoff(state)[player] == payoff_range(game)[1]


@pytest.mark.slow
@settings(max_examples=150)
@given(walks(), st.integers(0, 2**32))
def test_decisive_agent_wins_at_once_when_it_can_and_else_leaves_no_win_at_once(walk, seed):
    game, state = walk
    rng = random.Random(seed)
    if state is None:
        return
    player = game.to_move(state)
    moves = game.possible_moves(state)
    before = rng.getstate()
    move = decisive_agent(game, state, rng)
    assert move in moves
    winning = [m for m in moves if _wins_at_once(game, game.play(state, m), player)]

    def safe(m):
        after = game.play(state, m)
        other = game.to_move(after)
        if other is None or other is CHANCE or other == player:
            return True
        return not any(_wins_at_once(game, game.play(after, r), other) for r in game.possible_moves(after))

    pool = winning or [m for m in moves if safe(m)] or list(moves)
    assert move in pool
    # the draw of random_agent over the pool: one rng.random(), none for a single candidate
    replay = random.Random()
    replay.setstate(before)
    expected = pool[0] if len(pool) == 1 else pool[int(replay.random() * len(pool))]
    assert move == expected and rng.getstate() == replay.getstate()


@given(st.integers(1, 40), st.integers(1, 400))
def test_every_visit_count_sequential_halving_asks_for_is_there(considered, budget):
    """Dive by dive, some child has exactly the visits asked for; the race narrows to two or fewer children."""
    sequence = considered_visits(considered, budget)
    assert len(sequence) == budget
    visits = [0] * considered
    for target in sequence:
        j = visits.index(target)  # a ValueError would mean no child has the visits asked for
        visits[j] += 1
    assert sum(visits) == budget
    if considered >= 2 and budget >= 4 * considered:
        most = max(visits)
        assert 1 <= visits.count(most) <= 2 or most == min(visits)


@given(st.lists(st.tuples(st.integers(0, 5), st.floats(0, 1)), min_size=1, max_size=8), st.floats(0, 1),
       st.randoms(use_true_random=False))
def test_the_root_rule_goes_into_a_child_with_the_visits_asked_for(children, parent_mean, rng):
    children = [(j, n, q if n else None) for j, (n, q) in enumerate(children)]
    gumbel = tuple(rng.gauss(0, 1) for _ in children)
    budget = sum(n for _, n, _ in children) + rng.randrange(1, 30)
    rule = SequentialHalving(budget, gumbel)
    j = rule.choose(children, parent_mean)
    target = considered_visits(min(rule.considered, len(children)), budget)[sum(n for _, n, _ in children)]
    visits = [n for _, n, _ in children]
    if target in visits:
        assert visits[j] == target
    else:
        assert visits[j] == min(visits)
    final = rule.final(children, parent_mean)
    assert visits[final] == max(visits)


def test_sequential_halving_draws_one_gumbel_per_move_and_checks_its_arguments():
    from fnmcts.games import Nim

    game = Nim(heap=7, max_take=3)
    rng = random.Random(5)
    rule = sequential_halving(game, game.start(), 50, rng)
    replay = random.Random(5)
    for _ in range(3):
        replay.random()
    assert len(rule.gumbel) == 3 and rng.random() == replay.random()
    assert sequential_halving(game, game.start(), 50, random.Random(5), scale=0).gumbel == (0.0, 0.0, 0.0)
    for bad in ({"considered": 0}, {"scale": -1.0}):
        try:
            sequential_halving(game, game.start(), 50, random.Random(5), **bad)
        except ValueError as error:
            assert str(next(iter(bad))) in str(error)
        else:
            raise AssertionError(f"{bad} accepted")


# -- the root rule in the one descent: the engine equals the phases, draw for draw --------------

from functools import partial  # noqa: E402

from fnmcts.games import Nim, TicTacToe  # noqa: E402
from fnmcts.mcts import mcts_move, phases, search, ucb, ucb1, uct  # noqa: E402

from small_games import cyclic_table_games  # noqa: E402

decision_games = st.one_of(
    st.sampled_from((Nim(heap=7, max_take=3), TicTacToe(), Nim(heap=9, max_take=4, misere=False))),
    table_games(), cyclic_table_games(),
).filter(lambda game: game.to_move(game.start()) not in (None, CHANCE))
root_options = st.fixed_dictionaries({
    "rule": st.sampled_from((ucb, ucb1, partial(ucb1, c=0.3))),
    "backup": st.sampled_from(("mean", "expectimax")),
    "solver": st.booleans(),
})


def _phases_with_root(game, state, dives, rng, **options):
    root = sequential_halving(game, state, dives, rng)
    tree = {}
    for _ in range(dives):
        tree, _ = phases.uct(game, tree, state, rng, options["rule"], backup=options["backup"],
                             solver=options["solver"], root=root)
    return tree, root


@pytest.mark.slow
@settings(max_examples=80, deadline=None)
@given(decision_games, root_options, st.integers(0, 2**32), st.integers(1, 120))
def test_search_with_the_gumbel_root_equals_the_phases_draw_for_draw(game, options, seed, dives):
    expected, root = _phases_with_root(game, game.start(), dives, by_phases := random.Random(seed), **options)
    rng = random.Random(seed)
    tree = search(game, game.start(), dives, rng, root="gumbel", **options)
    assert dict(tree) == dict(expected)
    assert rng.random() == by_phases.random()
    again = random.Random(seed)
    root, stepped = sequential_halving(game, game.start(), dives, again), {}
    for _ in range(dives):  # the public one-dive uct, given the same root rule
        stepped, _ = uct(game, stepped, game.start(), again, options["rule"], backup=options["backup"],
                         solver=options["solver"], root=root)
    assert dict(stepped) == dict(expected)


@settings(max_examples=40, deadline=None)
@given(decision_games, st.integers(0, 2**32), st.integers(2, 200))
def test_the_root_rule_spreads_the_dives_as_sequential_halving_plans(game, seed, dives):
    """Without the solver every dive but the first (which makes the root) goes into a child, as planned."""
    found = mcts_move(game, game.start(), dives, random.Random(seed), root="gumbel", solver=False)
    counts = sorted((rec["win"] + rec["loss"] + rec.get("draw", 0) for _, rec in found.children), reverse=True)
    moves = len(found.children)
    plan = [0] * min(16, moves)
    for target in considered_visits(min(16, moves), dives)[: dives - 1]:
        plan[plan.index(target)] += 1
    if len(set(game.play(game.start(), m) for m in game.possible_moves(game.start()))) == moves:
        # a child met again below (a transposition) has more visits than the root gave it
        assert counts[: len(plan)] == sorted(plan, reverse=True) or sum(counts) > dives - 1


def test_a_root_rule_needs_a_decision_and_a_planned_budget():
    import pytest

    from fnmcts.games.shut_the_box import ShutTheBox

    game = ShutTheBox(levers=4)
    with pytest.raises(ValueError, match="chance moves next"):
        search(game, game.start(), 10, random.Random(1), root="gumbel")
    with pytest.raises(ValueError, match="iterations="):
        search(Nim(), Nim().start(), rng=random.Random(1), seconds=0.01, root="gumbel")
    with pytest.raises(ValueError, match="one of"):
        search(Nim(), Nim().start(), 10, random.Random(1), root="halving")
    with pytest.raises(ValueError, match="one process"):
        mcts_move(Nim(), Nim().start(), 10, random.Random(1), root="gumbel", workers=2)
    with pytest.raises(TypeError, match="whole search"):
        uct(Nim(), {}, Nim().start(), random.Random(1), root="gumbel")


def test_the_root_rule_is_one_of_the_search_options(capsys):
    import json
    import pickle

    import pytest

    from fnmcts.cli import main
    from fnmcts.mcts import mcts_agent, search_options
    from fnmcts.rng import make_rng

    game, start = TicTacToe(), TicTacToe().start()
    options = search_options(game, root="gumbel")
    assert options.root == "gumbel"
    assert search(game, start, 200, random.Random(3), options=options) == search(
        game, start, 200, random.Random(3), root="gumbel")
    assert search(game, start, 200, random.Random(3), root="gumbel") != search(game, start, 200, random.Random(3))
    assert mcts_move(game, start, 200, random.Random(3), options=options) == mcts_move(
        game, start, 200, random.Random(3), root="gumbel")
    agent = mcts_agent(200, root="gumbel")
    expected = mcts_move(game, start, 200, random.Random(4), root="gumbel").move
    assert agent(game, start, random.Random(4)) == expected
    assert pickle.loads(pickle.dumps(agent))(game, start, random.Random(4)) == expected
    with pytest.raises(ValueError, match="made anew for each move"):
        mcts_agent(200, root=sequential_halving(game, start, 200, random.Random(1)))
    # the command line's agents take it as --root
    assert main(["move", "nim", "--state", "14", "--ai", "mcts", "--dives", "300", "--seed", "3",
                 "--root", "gumbel", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    nim = Nim()
    state = nim.state(data["state"]["heap"], data["state"]["player"])
    assert data["move"] == mcts_agent(300, root="gumbel")(nim, state, make_rng(3))
