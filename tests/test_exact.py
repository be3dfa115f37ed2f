"""The exact solver against a straightforward reference: naive recursive expectimax.

Games are generated as DAG tables (players, chance nodes, draws), and the
built-in games are taken small; every value of ``solve`` and ``evaluate_policy``
must equal the reference's, exactly.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pyrsistent import PMap

from fnmcts.exact import (
    best_move,
    best_moves,
    evaluate_policy,
    move_values,
    optimal_policy,
    random_policy,
    solve,
    value,
    win_probability,
)
from fnmcts.games.nim import Nim
from fnmcts.games.shut_the_box import ShutTheBox, all_boxes
from fnmcts.limits import NoEnd
from fnmcts.protocol import CHANCE, GameBase, GameError
from fnmcts.testing import nim_games, piles_games, shut_the_box_games

# -- a game given by a table ---------------------------------------------------------------------

ZERO_SUM = ((1, -1), (0, 0), (-1, 1))
"""Two-player payoffs: a win, a draw, a loss."""

ANY_PAYOFFS = ZERO_SUM + ((1, 1), (0, 1), (Fraction(1, 2), 0), (0.5, -1))
"""Payoffs of a game that is not zero-sum, so ties for one player can differ for the other."""


@dataclass(frozen=True)
class DagGame(GameBase):
    """A game read from ``nodes``: node -> ``(kind, children, probabilities, payoff)``.

    ``kind`` is a player index, ``"chance"`` or ``"end"``; the states are the node
    numbers, the start is node 0; move ``j`` (``"m0"``, ``"m1"``, ...) or chance
    outcome ``j`` (``"o0"``, ...) leads to ``children[j]``.
    """

    nodes: tuple
    num_players: int = 2

    def start(self):
        return 0

    def to_move(self, state):
        kind = self.nodes[state][0]
        return None if kind == "end" else CHANCE if kind == "chance" else kind

    def possible_moves(self, state) -> tuple:
        kind, children, _, _ = self.nodes[state]
        return tuple(f"m{j}" for j in range(len(children))) if kind not in ("end", "chance") else ()

    def chance_outcomes(self, state) -> tuple:
        kind, _, probabilities, _ = self.nodes[state]
        return tuple((f"o{j}", p) for j, p in enumerate(probabilities)) if kind == "chance" else ()

    def play(self, state, move):
        return self.nodes[state][1][int(move[1:])]

    def payoff(self, state) -> tuple:
        return self.nodes[state][3]


@st.composite
def dag_games(draw, max_nodes: int = 12, payoffs=ZERO_SUM, players: int = 2) -> DagGame:
    """Random acyclic games: node ``i`` leads only to nodes after it; the last node ends the game."""
    n = draw(st.integers(1, max_nodes))
    kinds = tuple(range(players)) + ("chance", "end")
    nodes = []
    for i in range(n):
        kind = "end" if i == n - 1 else draw(st.sampled_from(kinds))
        if kind == "end":
            nodes.append(("end", (), (), draw(st.sampled_from(payoffs))))
            continue
        children = tuple(draw(st.lists(st.integers(i + 1, n - 1), min_size=1, max_size=4)))
        probabilities = ()
        if kind == "chance":
            weights = draw(st.lists(st.integers(1, 5), min_size=len(children), max_size=len(children)))
            probabilities = tuple(Fraction(w, sum(weights)) for w in weights)
        nodes.append((kind, children, probabilities, ()))
    return DagGame(tuple(nodes), players)


def one_player_dag_games(max_nodes: int = 12) -> st.SearchStrategy:
    return dag_games(max_nodes, payoffs=((0,), (Fraction(1, 2),), (1,), (0.25,)), players=1)


# -- the reference: naive recursion, one state at a time -----------------------------------------


def reference(game, policy=None):
    """``state -> value`` by plain recursion: best replies, or ``policy`` (one, or one per player)."""

    @lru_cache(maxsize=None)
    def v(state):
        player = game.to_move(state)
        if player is None:
            return tuple(Fraction(x) for x in game.payoff(state))
        if player is CHANCE:
            weighted = [(p, v(game.play(state, o))) for o, p in game.chance_outcomes(state)]
        elif policy is None:
            best = None
            for move in game.possible_moves(state):
                child = v(game.play(state, move))
                if best is None or child[player] > best[player]:
                    best = child
            return best
        else:
            chooser = policy[player] if isinstance(policy, tuple) else policy
            weighted = [(p, v(game.play(state, m))) for m, p in chooser(game, state)]
        return tuple(sum(Fraction(p) * c[i] for p, c in weighted) for i in range(len(weighted[0][1])))

    return v


def reachable(game, *roots) -> set:
    """Every state reachable from ``roots`` (default: the start)."""
    seen, stack = set(), list(roots or (game.start(),))
    while stack:
        state = stack.pop()
        if state in seen:
            continue
        seen.add(state)
        stack.extend(successors(game, state))
    return seen


def successors(game, state) -> tuple:
    """The states one move (or chance outcome) away from ``state``."""
    who = game.to_move(state)
    if who is None:
        return ()
    if who is CHANCE:
        return tuple(game.play(state, o) for o, _ in game.chance_outcomes(state))
    return tuple(game.play(state, m) for m in game.possible_moves(state))


def assert_matches_reference(game, solution, policy=None, *roots):
    expected = reference(game, policy)
    assert isinstance(solution, PMap)
    assert set(solution) == reachable(game, *roots)
    for state, v in solution.items():
        assert v == expected(state), state
        assert type(v) is tuple and all(type(x) is Fraction for x in v)


def first_move_policy(game, state):
    return ((game.possible_moves(state)[0], Fraction(1)),)


def last_heavy_policy(game, state):
    """Weights 1, 2, 3, ... over the moves: uneven, every move possible."""
    moves = game.possible_moves(state)
    total = len(moves) * (len(moves) + 1) // 2
    return tuple((m, Fraction(i + 1, total)) for i, m in enumerate(moves))


# -- generated games ---------------------------------------------------------------------------------


@given(st.one_of(dag_games(), one_player_dag_games()))
def test_solve_equals_naive_expectimax_on_generated_games(game):
    assert_matches_reference(game, solve(game))


@given(dag_games(payoffs=ANY_PAYOFFS))
def test_ties_keep_move_order_when_the_game_is_not_zero_sum(game):
    solution = solve(game)
    assert_matches_reference(game, solution)
    for state in solution:
        player = game.to_move(state)
        if player is None or player is CHANCE:
            continue
        scored = move_values(game, solution, state)
        top = max(v[player] for _, v in scored)
        assert best_moves(game, solution, state) == tuple(m for m, v in scored if v[player] == top)
        assert solution[state] == dict(scored)[best_move(game, solution, state)]


@given(
    st.one_of(dag_games(), one_player_dag_games()),
    st.sampled_from([random_policy, first_move_policy, last_heavy_policy]),
)
def test_evaluate_policy_equals_naive_evaluation_on_generated_games(game, policy):
    assert_matches_reference(game, evaluate_policy(game, policy, opponent=policy), policy)


@given(dag_games())
def test_a_policy_per_player_and_the_optimal_policy(game):
    policies = (random_policy, last_heavy_policy)
    assert_matches_reference(game, evaluate_policy(game, policies), policies)
    solution = solve(game)
    optimal = evaluate_policy(game, (optimal_policy(solution), optimal_policy(solution)))
    assert optimal[game.start()] == solution[game.start()]


@given(dag_games(), st.data())
def test_solving_from_several_states_values_every_state_below_them(game, data):
    roots = tuple(data.draw(st.lists(st.sampled_from(sorted(reachable(game))), min_size=1, max_size=3)))
    assert_matches_reference(game, solve(game, *roots), None, *roots)


@given(dag_games(), st.data())
def test_a_cycle_is_refused_naming_a_state_on_it(game, data):
    inner = sorted(s for s in reachable(game) if game.nodes[s][0] != "end")
    if not inner:
        return
    node = data.draw(st.sampled_from(inner))
    kind, children, probabilities, pay = game.nodes[node]
    # one more move (or an outcome of the same weight as the first) back to the start: a cycle
    if kind == "chance":
        probabilities = tuple(p / (1 + probabilities[0]) for p in probabilities + probabilities[:1])
    looped = DagGame(game.nodes[:node] + ((kind, children + (0,), probabilities, pay),) + game.nodes[node + 1 :])
    for run in (lambda: solve(looped), lambda: evaluate_policy(looped, random_policy, opponent=random_policy)):
        with pytest.raises(ValueError, match="cycle") as raised:
            run()
        named = int(re.search(r"cycle through (\d+)", str(raised.value)).group(1))
        assert named in reachable(looped, *successors(looped, named))


# -- the built-in games, small --------------------------------------------------------------------------


@settings(max_examples=40)
@given(st.one_of(nim_games(max_heap=12), piles_games(max_piles=3, max_pile=3), shut_the_box_games(max_levers=4)))
def test_solve_and_random_play_equal_the_reference_on_small_builtin_games(game):
    assert_matches_reference(game, solve(game))
    assert_matches_reference(game, evaluate_policy(game, random_policy, opponent=random_policy), random_policy)


def bitmask_optimum(levers: int = 9) -> Fraction:
    """The full game's optimal win probability by hand: a Fraction DP over the bitmask boxes."""
    ways = {}
    for a in range(1, 7):
        for b in range(1, 7):
            ways[a + b] = ways.get(a + b, 0) + 1
    subsets = [c for k in range(1, levers + 1) for c in combinations(range(1, levers + 1), k)]
    flips = {
        roll: [sum(1 << (lever - 1) for lever in c) for c in subsets if sum(c) == roll] for roll in ways
    }
    win = [Fraction(1)] + [Fraction(0)] * ((1 << levers) - 1)
    for mask in range(1, 1 << levers):
        total = Fraction(0)
        for roll, w in ways.items():
            options = [win[mask ^ f] for f in flips[roll] if mask & f == f]
            if options:
                total += Fraction(w, 36) * max(options)
        win[mask] = total
    return win[-1]


@pytest.mark.slow
def test_shut_the_box_keeps_its_values():
    full = ShutTheBox()
    solution = solve(full)
    assert_matches_reference(full, solution)
    assert solution[full.start()][0] == bitmask_optimum() == win_probability(full)
    assert float(solution[full.start()][0]) == pytest.approx(0.0714316223)
    simplified = ShutTheBox(simplified=True)
    assert value(solve(simplified), simplified.start()) == (Fraction(875, 4251528),)
    assert_matches_reference(simplified, solve(simplified))


@pytest.mark.slow
def test_random_play_over_every_box_equals_the_reference():
    game = ShutTheBox()
    boxes = all_boxes()
    values = evaluate_policy(game, random_policy, *boxes)
    assert_matches_reference(game, values, random_policy, *boxes)
    assert values[frozenset({2})] == (Fraction(1, 36),)


# -- errors --------------------------------------------------------------------------------------------


def test_a_player_without_moves_is_refused():
    half = Fraction(1, 2)
    stuck = DagGame((("chance", (1, 2), (half, half), ()), (1, (), (), ()), ("end", (), (), (0, 0))))
    for run in (lambda: solve(stuck), lambda: evaluate_policy(stuck, first_move_policy, opponent=first_move_policy)):
        with pytest.raises(GameError, match=r"possible_moves\(1\) returned no moves, but to_move says player 2 is to move"):
            run()


def test_a_chance_node_without_outcomes_is_refused():
    empty = DagGame((("chance", (), (), ()),))
    with pytest.raises(GameError, match=r"chance_outcomes\(0\) returned \(\): a chance node's outcomes are a non-empty"):
        solve(empty)


def test_a_self_loop_is_a_cycle():
    loop = DagGame(((0, (0, 1), (), ()), ("end", (), (), (1, -1))))
    with pytest.raises(NoEnd, match=r"from 0, the moves \('m0',\) come back to 0, a cycle through 0 of 1 ply "):
        solve(loop)


@pytest.mark.parametrize(
    "policy, message",
    [
        (lambda game, state: (("m0", Fraction(1, 2)),), "do not sum to 1"),
        (lambda game, state: (("m0", Fraction(1, 2)), ("nowhere", Fraction(1, 2))), "not possible"),
    ],
)
def test_a_bad_policy_is_refused(policy, message):
    game = DagGame(((0, (1, 1), (), ()), ("end", (), (), (1, -1))))
    with pytest.raises(ValueError, match=message):
        evaluate_policy(game, policy)


def test_payoffs_of_any_exact_type_become_fractions():
    odds = (Fraction(1, 4), Fraction(3, 4))
    game = DagGame((("chance", (1, 2), odds, ()), ("end", (), (), (0.5,)), ("end", (), (), (True,))), 1)
    assert solve(game)[0] == (Fraction(7, 8),)
    assert all(type(x) is Fraction for v in solve(game).values() for x in v)


def test_nim_values_are_unchanged():
    nim = Nim(heap=21, max_take=3)
    assert value(solve(nim), nim.start()) == (Fraction(-1), Fraction(1))
    normal = Nim(heap=10, max_take=3, misere=False)
    assert best_moves(normal, solve(normal), normal.start()) == (2,)
