"""The search's enhancements as strategies: decisive playouts, sequential halving at the root."""

from __future__ import annotations

import random

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
    children = [(n, q if n else None) for n, q in children]
    gumbel = tuple(rng.gauss(0, 1) for _ in children)
    budget = sum(n for n, _ in children) + rng.randrange(1, 30)
    rule = SequentialHalving(budget, gumbel)
    j = rule.choose(children, parent_mean)
    target = considered_visits(min(rule.considered, len(children)), budget)[sum(n for n, _ in children)]
    visits = [n for n, _ in children]
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
