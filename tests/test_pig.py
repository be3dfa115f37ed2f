"""Pig: its rules as properties, its exact solution against Neller and Presser's equations solved
independently, its agents, its policy table, and OpenSpiel's pig where it is installed."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fnmcts.exact import evaluate_policy, solve
from fnmcts.games import GAMES, Pig
from fnmcts.games.pig import DECIDE, HOLD, OVER, ROLL, ROLLING, hold_at_agent, hold_threshold, policy_table
from fnmcts.matches import playout, random_agent
from fnmcts.protocol import CHANCE
from fnmcts.testing import count_states, reachable_states


def neller_presser(goal: int, sweeps: int = 2000) -> dict:
    """P[i, j, k]: the win probability of the player to move with score i, the other's j, turn total k.

    The optimality equations of Neller and Presser (UMAP Journal 25(1), 2004), with a turn
    that starts with a roll: P = 1 once i + k reaches the goal; rolling is worth
    (1 - P[j, i, 0]) / 6 plus the faces 2 to 6; holding (k > 0) 1 - P[j, i + k, 0]. Plain
    value iteration over every state, in place, until nothing moves.
    """
    p = {(i, j, k): 0.0 for i in range(goal) for j in range(goal) for k in range(goal - i)}

    def at(i, j, k):
        return 1.0 if i + k >= goal else p[i, j, k]

    for _ in range(sweeps):
        change = 0.0
        for (i, j, k) in p:
            roll = (1.0 - at(j, i, 0)) / 6 + sum(at(i, j, k + face) for face in range(2, 7)) / 6
            best = max(roll, 1.0 - at(j, i + k, 0)) if k else roll
            change = max(change, abs(best - p[i, j, k]))
            p[i, j, k] = best
        if change < 1e-14:
            return p
    raise AssertionError("the reference value iteration did not settle")


@pytest.mark.parametrize("goal", [1, 2, 7, 15])
def test_the_solution_is_neller_and_pressers(goal):
    game = Pig(goal=goal)
    solution = solve(game)
    reference = neller_presser(goal)
    assert solution.residual <= solution.tolerance
    for (i, j, k), p in reference.items():
        for player in (0, 1):
            scores = (i, j) if player == 0 else (j, i)
            state = (player, *scores, k, DECIDE)
            if state in solution:
                assert (1 + solution[state][player]) / 2 == pytest.approx(p, abs=1e-9)
    assert (0, 0, 0, 0, DECIDE) in solution


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(st.integers(1, 30).flatmap(lambda goal: reachable_states(Pig(goal=goal), max_depth=200)))
def test_the_rules(reached):
    game, state = reached.game, reached.state
    player, s0, s1, turn, phase = game.check_state(state)
    if phase == OVER:
        assert game.to_move(state) is None and (s0 if player == 0 else s1) >= game.goal
        assert game.payoff(state) == ((1, -1) if player == 0 else (-1, 1))
        return
    mine = s0 if player == 0 else s1
    assert mine + turn < game.goal and max(s0, s1) < game.goal
    if phase == ROLLING:
        assert game.to_move(state) is CHANCE and sum(p for _, p in game.chance_outcomes(state)) == 1
        pig = game.play(state, 1)
        assert pig == (1 - player, s0, s1, 0, DECIDE)  # a 1: nothing scored, the other player's turn
        for face in range(2, 7):
            after = game.play(state, face)
            assert after[4] == OVER if mine + turn + face >= game.goal else after == (player, s0, s1, turn + face, DECIDE)
        return
    assert game.possible_moves(state) == ((ROLL, HOLD) if turn else (ROLL,))
    assert game.play(state, ROLL) == (player, s0, s1, turn, ROLLING)
    if turn:
        held = game.play(state, HOLD)
        assert held[0] == 1 - player and held[3] == 0 and held[1 + player] == mine + turn
    assert count_states(game, state, limit=10**6) <= game.size_hint(state)[0]


@pytest.mark.parametrize("goal", [5, 20])
def test_hold_at_20_and_random_play_end_and_are_evaluated_exactly(goal):
    game = Pig(goal=goal)
    def hold_at_20(g, s):
        return ((hold_at_agent(g, s), 1),)

    hold = evaluate_policy(game, hold_at_20, opponent=hold_at_20)
    optimal = solve(game)
    start = game.start()
    assert optimal[start][0] >= hold[start][0] - 1e-12  # nobody beats optimal play (here: against itself)
    rng = random.Random(goal)
    for _ in range(50):
        end = playout(game, start, rng, (random_agent, hold_at_agent))
        assert game.to_move(end) is None


@pytest.mark.slow
def test_the_optimal_agent_beats_hold_at_20():
    game = Pig(goal=30)
    optimal = solve(game)

    def best(g, s):
        return ((max(g.possible_moves(s), key=lambda m: optimal[g.play(s, m)][s[0]]), 1),)

    def hold(g, s):
        return ((hold_at_agent(g, s), 1),)

    start = game.start()
    even = evaluate_policy(game, (hold, hold))[start]
    assert evaluate_policy(game, (best, hold))[start][0] > even[0] + 0.01  # first, it wins more often
    assert evaluate_policy(game, (hold, best))[start][1] > even[1] + 0.01  # and second


@pytest.mark.slow
def test_the_policy_table_and_thresholds():
    game = Pig(goal=30)
    solution = solve(game)
    threshold, exceptions = hold_threshold(game, solution, 0, 0)
    assert 2 <= threshold <= 30
    state = (0, 0, 0, threshold, 0)
    if threshold < 30:
        assert solution[game.play(state, HOLD)][0] >= solution[game.play(state, ROLL)][0]
    table = policy_table(game, solution, step=10)
    assert table.splitlines()[0].split()[-3:] == ["0", "10", "20"] and len(table.splitlines()) == 4
    with pytest.raises(ValueError, match="step must be a positive whole number"):
        policy_table(game, solution, step=0)


def test_the_game_is_built_in_and_checks_its_input():
    assert GAMES["pig"]() == Pig()
    assert Pig().may_repeat()
    for bad in (0, -3, 2.5, True):
        with pytest.raises(ValueError, match="goal of Pig"):
            Pig(goal=bad)
    with pytest.raises(ValueError, match="illegal move"):
        Pig().play(Pig().start(), HOLD)
    with pytest.raises(ValueError, match="a Pig state is"):
        Pig().check_state((0, 1, 2))
    assert Pig().parse_state(" 45, 30, 12, 2 ") == (1, 45, 30, 12, DECIDE)
    state = (1, 45, 30, 12, DECIDE)
    assert Pig().state_from_json(Pig().state_to_json(state)) == state


@pytest.mark.slow
def test_goal_100_is_the_published_value():
    solution = solve(Pig(), limit=None)
    assert (1 + solution[Pig().start()][0]) / 2 == pytest.approx(0.5306, abs=5e-5)


def test_openspiel_pig_plays_the_same_game():
    """Random playthroughs driven by our rules, replayed in OpenSpiel's pig: the same scores, turn
    totals, players, dice and winners (OpenSpiel also allows a stop at turn total 0, and ends a
    game at the goal with one forced stop; our turn starts with a roll and ends at the goal)."""
    pyspiel = pytest.importorskip("pyspiel")
    goal = 20
    spiel = pyspiel.load_game("pig", {"winscore": goal})
    game = Pig(goal=goal)
    rng = random.Random(7)
    for _ in range(30):
        state, theirs = game.start(), spiel.new_initial_state()
        while game.to_move(state) is not None:
            player, s0, s1, turn, phase = state
            assert theirs.current_player() == (player if phase == DECIDE else pyspiel.PlayerId.CHANCE)
            assert f"Scores: {s0} {s1}, Turn total: {turn}" in str(theirs)
            if phase == DECIDE:
                names = [theirs.action_to_string(a) for a in theirs.legal_actions()]
                assert names == ["roll", "stop"]
                move = game.possible_moves(state)[int(rng.random() * len(game.possible_moves(state)))]
                theirs.apply_action(names.index("roll" if move == ROLL else "stop"))
            else:
                move = 1 + int(rng.random() * 6)
                theirs.apply_action(move - 1)
            state = game.play(state, move)
        if not theirs.is_terminal():  # the goal reached: OpenSpiel's one legal move is the stop
            assert [theirs.action_to_string(a) for a in theirs.legal_actions()] == ["stop"]
            theirs.apply_action(theirs.legal_actions()[0])
        assert theirs.is_terminal()
        assert tuple(theirs.returns()) == tuple(float(x) for x in game.payoff(state))
