"""The random games of ``fnmcts.testing`` (``table_games``, ``seeded_games``, ``random_games``, ``decision_states``).

They obey the protocol's laws, are values (equal, hashable, picklable, the same
rules for the same seed on any machine), and reach what the search must be
tested on: chance, repeats, three players, transpositions, move lists that
shrink, graded payoffs near the top of the range beside a bust, roots deep in
the game, sizes past the compiled loop's limits, games that offer tables.
"""

from __future__ import annotations

import pickle
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import find as _find
from hypothesis import strategies as st

from fnmcts.mcts._kernel import COMPLETE_LIMIT
from fnmcts.protocol import CHANCE
from fnmcts.testing import (
    SeededGame,
    TableGame,
    check_game,
    decision_states,
    random_games,
    replay,
    seeded_games,
    table_games,
)
from fnmcts.testing.games import _mix


FOUND = settings(phases=[Phase.generate], derandomize=True, database=None, max_examples=2_000)
"""``find`` here shows that an example exists: the first one generated (derandomised), not shrunk."""


def find(strategy, condition):
    return _find(strategy, condition, settings=FOUND)


def reachable(game, limit=200_000) -> dict:
    """``state -> the states its steps lead to`` for every state the start reaches (at most ``limit``)."""
    found, stack = {}, [game.start()]
    while stack and len(found) < limit:
        state = stack.pop()
        if state in found:
            continue
        player = game.to_move(state)
        if player is None:
            steps = ()
        elif player is CHANCE:
            steps = tuple(o for o, _ in game.chance_outcomes(state))
        else:
            steps = game.possible_moves(state)
        found[state] = tuple(game.play(state, s) for s in steps)
        stack.extend(c for c in found[state] if c not in found)
    return found


def parents(graph) -> dict:
    counted = {}
    for children in graph.values():
        for child in set(children):
            counted[child] = counted.get(child, 0) + 1
    return counted


@pytest.mark.slow
@given(game=random_games(max_states=400))
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.nested_given])
def test_random_games_obey_the_laws(game):
    check_game(game, max_examples=4)


@given(game=random_games())
@settings(max_examples=40, deadline=None)
def test_a_game_is_a_value_that_pickles(game):
    again = pickle.loads(pickle.dumps(game))
    assert again == game and hash(again) == hash(game)
    start = game.start()
    moves = game.possible_moves(start)
    assert moves and again.possible_moves(start) == moves
    assert [again.play(start, m) for m in moves] == [game.play(start, m) for m in moves]


def test_the_hash_of_seeded_games_is_fixed():
    # a game given by its seed has the same rules on every machine and Python version: the hash is our own
    assert _mix(0) == 16294208416658607535  # splitmix64's first output from seed 0, 0xE220A8397B1DCDAF
    assert _mix(1, 2, 3) == 2869315087210772132
    game = SeededGame(seed=3, num_players=2, depth=30, width=3_000, branching=4, chance=20)
    assert game.possible_moves(game.start()) == (0, 2, 3) and game.play(game.start(), 3) == (1, 1318)


def test_the_keywords_are_checked():
    with pytest.raises(ValueError, match="players"):
        find(table_games(players=0), lambda g: True)
    with pytest.raises(ValueError, match="repeats=True needs chance"):
        find(seeded_games(chance=False, repeats=True), lambda g: True)
    with pytest.raises(ValueError, match="width"):
        SeededGame(seed=1, width=0)
    with pytest.raises(ValueError, match="percentage"):
        SeededGame(seed=1, chance=101)
    with pytest.raises(ValueError, match="not within the payoff range"):
        SeededGame(seed=1, num_players=1, payoffs=((2,),))
    with pytest.raises(ValueError, match="not within the payoff range"):
        TableGame((("move", 0, (1,)), ("end", (3, -3))))
    with pytest.raises(ValueError, match="span"):
        TableGame((("end", (0, 0)),), span=(1, 0))


@given(game=random_games(chance=False, repeats=False))
@settings(max_examples=30, deadline=None)
def test_chance_false_gives_no_chance_node(game):
    assert all(game.to_move(s) is not CHANCE for s in reachable(game, 2_000))


@pytest.mark.parametrize("strategy", [table_games(repeats=True), seeded_games(repeats=True, max_states=300)],
                         ids=["tables", "seeded"])
def test_games_whose_states_repeat_come_back_to_a_state(strategy):
    def comes_back(game):
        graph = reachable(game, 5_000)
        done, on_path = set(), set()

        def cycle(state):  # a depth-first search for a back edge (games of a few hundred states)
            on_path.add(state)
            for child in graph[state]:
                if child in on_path or child not in done and cycle(child):
                    return True
            on_path.discard(state)
            done.add(state)
            return False

        return game.may_repeat() and cycle(game.start())

    assert comes_back(find(strategy, comes_back))


def test_three_players_zero_sum_or_not():
    zero = find(table_games(players=3, zero_sum=True), lambda g: len(g.table) > 2)
    assert all(sum(e[1]) == 0 for e in zero.table if e[0] == "end")
    free = find(table_games(players=3, zero_sum=False), lambda g: any(e[0] == "end" and sum(e[1]) for e in g.table))
    assert free.num_players == 3


@pytest.mark.slow
def test_transpositions_shrinking_moves_and_early_ends():
    small = seeded_games(max_states=600)
    game = find(small, lambda g: max(parents(reachable(g, 600)).values(), default=0) > 2)
    assert max(parents(reachable(game)).values()) > 2  # a state several moves lead to

    def shrinks(g):
        graph = reachable(g, 600)
        return g.shrink and any(
            g.to_move(s) not in (None, CHANCE) and g.to_move(c) not in (None, CHANCE)
            and len(g.possible_moves(c)) < len(g.possible_moves(s))
            for s, children in graph.items() for c in children)

    assert shrinks(find(small, shrinks))
    early = find(small, lambda g: any(g.to_move(s) is None and s[0] < g.depth for s in reachable(g, 600)))
    assert early.stops > 0


def test_graded_one_player_dice_games_near_the_top_beside_a_bust():
    def dice_near_the_top(game):
        pays = sorted({p[0] for p in game.payoffs})
        return (game.span is None and pays[0] == 0 and len(pays) >= 3
                and all(Fraction(7, 10) <= p <= Fraction(19, 20) for p in pays[1:])
                and any(game.to_move(s) is CHANCE for s in reachable(game, 500)))

    game = find(seeded_games(players=1, chance=True, graded=True, max_states=2_000), dice_near_the_top)
    assert game.num_players == 1 and game.chance >= 20


def test_payoffs_of_every_number_type_and_range():
    floats = find(table_games(players=2, graded=True), lambda g: any(
        e[0] == "end" and isinstance(e[1][0], float) for e in g.table))
    assert floats.payoff_range() == floats.span or floats.span is None
    wide = find(seeded_games(players=1),
                lambda g: g.span == (0, 13) and any(isinstance(p[0], Fraction) for p in g.payoffs))
    assert wide.payoff_range() == (0, 13)


def test_sizes_run_past_the_compiled_loop_s_limit():
    # the strategy draws shapes of more states than the compiled loop completes a graph to
    shape = find(seeded_games(), lambda g: g.depth * g.width > COMPLETE_LIMIT and g.branching >= 3)
    assert shape.depth * shape.width > COMPLETE_LIMIT


@pytest.mark.slow
def test_a_seeded_game_of_tens_of_thousands_of_states():
    big = SeededGame(seed=11, num_players=1, depth=30, width=3_000, branching=4, chance=30)
    assert len(reachable(big)) > COMPLETE_LIMIT  # a few numbers, and more than 50,000 states behind them


def test_a_root_deep_in_the_game():
    reached = find(decision_states(seeded_games()), lambda r: len(r.path) >= 10)
    assert replay(reached.game, reached.path) == reached.state
    assert reached.game.to_move(reached.state) not in (None, CHANCE)


@given(reached=decision_states())
@settings(max_examples=40, deadline=None)
def test_decision_states_are_reached_by_play_and_have_a_player_to_move(reached):
    assert replay(reached.game, reached.path) == reached.state
    assert reached.game.possible_moves(reached.state)


@given(game=table_games(tables=True))
@settings(max_examples=40, deadline=None)
def test_a_table_game_s_tables_are_its_protocol(game):
    t = game.compiled_graph()
    for i in reachable(game):
        player = game.to_move(i)
        assert t.kinds[i] == (-1 if player is None else -2 if player is CHANCE else player)
        if player is None:
            assert t.payoffs[i] == game.payoff(i)
        elif player is CHANCE:
            assert t.outcomes[i] == game.chance_outcomes(i)
            assert t.children[i] == tuple(game.play(i, o) for o, _ in game.chance_outcomes(i))
        else:
            assert t.moves[i] == game.possible_moves(i)
            assert t.children[i] == tuple(game.play(i, m) for m in game.possible_moves(i))
    assert not hasattr(TableGame(game.table, game.num_players, game.repeats, game.span), "compiled_graph")


@given(st.data())
@settings(max_examples=10, deadline=None)
def test_players_are_drawn_from_those_asked(data):
    players = data.draw(st.sampled_from((1, 2, 3, (1, 3), (2,))))
    game = data.draw(random_games(players=players))
    assert game.num_players in ((players,) if isinstance(players, int) else players)
