"""The defaults by kind of game: what ``game_kind`` sees is there, and ``search_options`` follows it."""

from __future__ import annotations

import math
import random
from functools import partial

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fnmcts.exact import evaluate_policy, solve, value
from fnmcts.games import Kayles, Nim, Pig, TicTacToe
from fnmcts.games.shut_the_box import ShutTheBox
from fnmcts.mcts import GameKind, game_kind, mcts_move, search, search_options, ucb, ucb1
from fnmcts.views import greedy_policy
from fnmcts.mcts._options import CHANCE_C, DEFAULT_C, RIVALS_CHANCE_C, kind_defaults
from fnmcts.protocol import CHANCE, payoff_range
from fnmcts.rng import make_rng
from fnmcts.tutorial import uct as tutorial_uct

from small_games import table_games


def _reachable(game):
    seen, todo = {game.start()}, [game.start()]
    while todo:
        state = todo.pop()
        player = game.to_move(state)
        moves = () if player is None else (
            [o for o, _ in game.chance_outcomes(state)] if player is CHANCE else game.possible_moves(state))
        for move in moves:
            child = game.play(state, move)
            if child not in seen:
                seen.add(child)
                todo.append(child)
    return seen


@pytest.mark.slow
@given(table_games())
def test_what_the_kind_says_it_saw_is_in_the_game(game):
    kind = game_kind(game)
    states = _reachable(game)
    low, high = payoff_range(game)
    assert kind.chance <= any(game.to_move(s) is CHANCE for s in states)
    assert kind.between <= any(game.to_move(s) is None and any(low < p < high for p in game.payoff(s)) for s in states)
    assert kind.players <= game.num_players
    if game.to_move(game.start()) is CHANCE:
        assert kind.chance  # every random game starts with chance
    assert kind.again <= (kind.players > 1 and any(  # a player seen to move twice running, no chance between
        game.to_move(game.play(s, m)) == game.to_move(s) for s in states
        if game.to_move(s) is not None and game.to_move(s) is not CHANCE for m in game.possible_moves(s)))
    assert game_kind(game) == kind  # its own generator: the same answer every time


def test_the_kinds_of_the_built_in_games():
    assert game_kind(ShutTheBox()) == GameKind(chance=True, between=False, players=1)
    assert game_kind(ShutTheBox(dice="low-sum")).chance
    assert game_kind(Pig(goal=30)) == GameKind(chance=True, between=False, players=2)
    assert game_kind(TicTacToe()) == GameKind(chance=False, between=True, players=2)
    assert game_kind(Nim(heap=9)).chance is False and game_kind(Kayles()).chance is False


def test_one_player_and_rivals_against_chance_take_their_own_constants():
    assert search_options(ShutTheBox()).c == search_options(ShutTheBox(dice="low-sum")).c == CHANCE_C == 1.0
    assert search_options(Pig(goal=30)).c == RIVALS_CHANCE_C == 0.5
    assert search_options(Pig(goal=30)).backup == search_options(ShutTheBox()).backup == "expectimax"


def test_the_kind_leaves_the_caller_s_generator_alone():
    game = Nim(heap=13, max_take=3)  # no chance: the defaults of every game
    a, b = make_rng(5), make_rng(5)
    search_options(Pig(goal=20))
    assert search(game, game.start(), 200, a) == search(game, game.start(), 200, b)
    assert a.random() == b.random()


@given(table_games())
def test_the_defaults_follow_the_kind_and_every_given_option_wins(game):
    kind = game_kind(game)
    chance = kind.chance
    c = CHANCE_C if kind.players < 2 else RIVALS_CHANCE_C  # one player against chance, or rivals too
    options = search_options(game)
    assert (options.rule, options.c, options.backup, options.solver) == (
        ("ucb1", c, "expectimax", True) if chance else ("ucb1", DEFAULT_C, "mean", True))
    assert kind_defaults(game) == ({"c": c, "backup": "expectimax"} if chance else {})
    # the tutorial's rule keeps the tutorial's dive on every kind of game
    tutorial = search_options(game, rule="tutorial")
    assert (tutorial.backup, tutorial.solver) == ("mean", False)
    assert search_options(game, rule=ucb).backup == "mean"
    # a rule given as a function carries its own constant and takes the plain defaults
    assert search_options(game, rule=partial(ucb1, c=0.3)).backup == "mean"
    assert search_options(game, rule="ucb1").backup == options.backup
    given_ = search_options(game, c=0.7, backup="mean", solver=False)
    assert (given_.c, given_.backup, given_.solver) == (0.7, "mean", False)
    # a new rule over an options value takes its own defaults, unless given
    assert search_options(game, options, rule="tutorial").backup == "mean"
    assert search_options(game, options, rule="tutorial", backup="expectimax").backup == "expectimax"


@pytest.mark.slow
@given(st.integers(0, 10**6), st.integers(0, 150))
def test_on_a_game_with_chance_the_tutorial_s_rule_still_grows_the_tutorial_s_tree(seed, n):
    game = ShutTheBox()
    rng, tree = random.Random(seed), {}
    for _ in range(n):
        tree, _ = tutorial_uct(tree, game.start(), rng)
    assert search(game, game.start(), n, random.Random(seed), rule=ucb) == tree
    assert search(game, game.start(), n, random.Random(seed), rule="tutorial") == tree


def test_the_defaults_of_a_game_with_chance_are_its_kind_s_in_every_way_in():
    game = Pig(goal=12)
    state = game.start()
    by_kind = search(game, state, 300, make_rng(3), c=RIVALS_CHANCE_C, backup="expectimax")
    assert search(game, state, 300, make_rng(3)) == by_kind
    assert mcts_move(game, state, 300, make_rng(3)).tree == by_kind
    assert search(game, state, 300, make_rng(3), c=math.sqrt(2), backup="mean") != by_kind


@pytest.mark.slow
@pytest.mark.parametrize("dice", ["two", "low-sum"])
def test_shut_the_box_at_the_defaults_is_within_one_percent_of_the_optimum(dice):
    # the target: the greedy policy of one default search of 10,000 dives, seeds 1 to 5
    game = ShutTheBox(dice=dice)
    optimum = value(solve(game), game.start())[0]
    for seed in range(1, 6):
        tree = search(game, game.start(), 10_000, random.Random(seed))
        assert value(evaluate_policy(game, greedy_policy(tree)), game.start())[0] >= 0.99 * optimum, seed


@pytest.mark.slow
def test_pig_at_the_defaults_keeps_its_regret_within_the_target_s_share():
    # The target: 0.45 against the optimal player at 10,000 dives, i.e. a game may lose 0.05 of
    # win probability to the searcher's regrets. A side of a game of Pig to 30 between optimal
    # players meets about 7.8 decisions of two moves, so the mean regret a decision must stay
    # under 0.05 / 7.8. Drawn here: 30 decisions of 20 seeded games of optimal play.
    from fnmcts.exact import best_moves
    from fnmcts.protocol import sample_outcome
    from fnmcts.rng import child_seed

    game = Pig(goal=30)
    solution = solve(game, limit=None)
    decisions = []
    for g in range(20):
        rng, state = random.Random(child_seed(99, g)), game.start()
        while (player := game.to_move(state)) is not None:
            if player is CHANCE:
                move = sample_outcome(game, state, rng)
            else:
                if len(game.possible_moves(state)) > 1:
                    decisions.append(state)
                move = best_moves(game, solution, state)[0]
            state = game.play(state, move)
    a_side = len(decisions) / 40
    assert 6 < a_side < 10  # the count the bound comes from
    regrets = []
    for i, state in enumerate(random.Random(5).sample(decisions, 30)):
        side = game.to_move(state)
        values = {m: (float(solution[game.play(state, m)][side]) + 1) / 2 for m in game.possible_moves(state)}
        move = mcts_move(game, state, 10_000, random.Random(child_seed(3, i))).move
        regrets.append(max(values.values()) - values[move])
    assert sum(regrets) / len(regrets) <= 0.05 / a_side, regrets


def test_a_game_that_does_not_hash_is_probed_once_not_once_a_dive(monkeypatch):
    import fnmcts.mcts._options as options

    class Heap(Nim):  # a user's game that does not hash
        __hash__ = None

    game = Heap(heap=5)
    probes = []
    real = options._probe
    monkeypatch.setattr(options, "_probe", lambda g: probes.append(g) or real(g))
    tree = None
    for seed in range(5):
        tree = search(game, game.start(), 1, make_rng(seed), tree=tree)
    assert len(probes) == 1 and game_kind(game) == game_kind(Nim(heap=5))


class _Declines(Nim):
    """Nim whose ``compiled_graph()`` hook declines: it says it is too large to hold as tables."""

    def compiled_graph(self):
        return None


class _Again(_Declines):
    """``_Declines`` where taking one moves again (the heap's last one ends it): a player may move twice running."""

    def play(self, state, move):
        after = super().play(state, move)
        return after.set("player", state["player"]) if move == 1 else after


class _Offers(Nim):
    """Nim whose ``compiled_graph()`` hook fails: no tables, and no word on its size."""

    def compiled_graph(self):
        raise RuntimeError("no tables here")


@pytest.mark.parametrize("heap", [5, 9, 21])
def test_a_two_player_game_that_says_it_is_too_large_to_hold_takes_rave_and_the_rest_do_not(heap):
    from fnmcts.mcts._options import RAVE_K

    assert kind_defaults(_Declines(heap=heap)) == {"rave": RAVE_K}
    assert search_options(_Declines(heap=heap)).rave == RAVE_K
    for game in (Nim(heap=heap), _Offers(heap=heap), Kayles(), TicTacToe()):  # no hook, a failing one, no word
        assert search_options(game).rave is None
    assert search_options(_Declines(heap=heap), rule="tutorial").rave is None  # the tutorial's dive stays the tutorial's
    assert search_options(_Declines(heap=heap), rave=False).rave is None  # off when asked
    given_ = search_options(_Declines(heap=heap), rave=30, rave_ref=5)
    assert (given_.rave, given_.rave_ref) == (30, 5)
    with pytest.raises(ValueError, match="rave_ref is GRAVE's threshold: it needs RAVE on"):
        search_options(_Declines(heap=heap), rave=False, rave_ref=5)
    with pytest.raises(TypeError, match="rave must be a number"):
        search_options(_Declines(heap=heap), rave=True)


@pytest.mark.parametrize("heap", [5, 9, 21])
def test_a_large_game_where_a_player_moves_again_takes_its_own_rave_k_and_c(heap):
    from fnmcts.mcts._options import AGAIN_C, AGAIN_RAVE_K, RAVE_K

    assert game_kind(_Again(heap=heap)).again and not game_kind(_Declines(heap=heap)).again
    assert kind_defaults(_Again(heap=heap)) == {"rave": AGAIN_RAVE_K, "c": AGAIN_C}
    assert kind_defaults(_Declines(heap=heap)) == {"rave": RAVE_K}
    options = search_options(_Again(heap=heap))
    assert (options.rave, options.c) == (AGAIN_RAVE_K, AGAIN_C)
    assert search_options(_Again(heap=heap), c=0.3, rave=50).c == 0.3  # given options win
    assert search_options(_Again(heap=heap), rule="tutorial").rave is None


def test_rave_off_grows_the_tree_of_a_game_that_never_took_it():
    game, plain = _Declines(heap=9), Nim(heap=9)
    off = mcts_move(game, game.start(), 300, random.Random(2), rave=False)
    assert dict(off.tree) == dict(mcts_move(plain, plain.start(), 300, random.Random(2)).tree)
    on = mcts_move(game, game.start(), 300, random.Random(2))
    assert any("amaf" in rec for rec in dict(on.tree).values())
