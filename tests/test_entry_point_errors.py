"""Bad input at the library's entry points gets a ValueError/TypeError that names it."""

from __future__ import annotations

import random

import pytest
from pyrsistent import pmap

from fnmcts import GAMES, simulate, solve
from fnmcts.games import Nim, Piles, ShutTheBox
from fnmcts.agents import random_agent
from fnmcts.exact import random_policy
from fnmcts.tutorial import uct  # the tutorial's uct(tree, box, rng)
from fnmcts.mcts import RULES, mcts_move, record, search, ucb
from fnmcts.montecarlo import playout, wilson_interval
from fnmcts.matches import play_game
from fnmcts.rng import make_rng
from fnmcts.theory import winning_moves


@pytest.mark.parametrize(
    "call",
    [
        lambda: solve(Nim(), Piles().start()),
        lambda: simulate(Nim(), 10, seed=1, state=Piles().start()),
        lambda: mcts_move(Nim(), Piles().start(), 10, make_rng(1)),
        lambda: search(Piles(), Nim().start(), 10, make_rng(1)),
        lambda: uct(pmap(), Nim().start(), make_rng(1)),
        lambda: winning_moves(Nim(), Piles().start()),
        lambda: play_game(Nim(), random_agent, random_agent, seed=1, state=Piles().start()),
        lambda: simulate(ShutTheBox(), 10, seed=1, state=frozenset({0, 3})),
    ],
)
def test_a_state_of_another_game_is_named(call):
    with pytest.raises(ValueError, match="state|levers"):
        call()


@pytest.mark.parametrize(
    "call",
    [
        lambda: uct(pmap(), frozenset({1, 2}), None),
        lambda: search(ShutTheBox(), frozenset({1, 2}), 5, "seed"),
        lambda: mcts_move(Nim(), Nim().start(), 5, None),
        lambda: playout(Nim(), Nim().start(), 42),
    ],
)
def test_an_rng_that_is_not_a_random_is_a_type_error(call):
    with pytest.raises(TypeError, match="random.Random"):
        call()


def test_uct_accepts_a_plain_dict_tree_and_refuses_none():
    tree, _ = uct({}, frozenset({7}), make_rng(1))
    assert tree[frozenset({7})] in (record(1, 0), record(0, 1))
    with pytest.raises(TypeError, match="tree must be a map"):
        uct(None, frozenset({7}), make_rng(1))


def test_unfinished_shut_the_box_games_have_no_payoff():
    game = ShutTheBox()
    with pytest.raises(ValueError, match="not over"):
        game.payoff(game.start())
    with pytest.raises(ValueError, match="not over"):
        game.payoff(game.play(game.start(), 9))
    assert game.payoff(frozenset()) == (1,)


def test_a_game_record_replays_from_its_seed_even_when_given_an_rng():
    game = Piles((3, 4, 5))
    for seed in range(5):
        played = play_game(game, random_agent, random_agent, rng=random.Random(seed))
        assert play_game(game, random_agent, random_agent, seed=played.seed).moves == played.moves


def test_flags_and_rolls_are_checked():
    with pytest.raises(TypeError, match="misere"):
        Nim(misere="no")
    with pytest.raises(TypeError, match="misere"):
        Piles(misere=None)
    with pytest.raises(TypeError, match="simplified"):
        ShutTheBox(simplified="x")
    with pytest.raises(ValueError, match="2 to 12"):
        ShutTheBox().state_from_json({"box": [1, 2], "roll": 1})
    with pytest.raises(ValueError, match="illegal dice roll"):
        ShutTheBox().play(frozenset({1, 2}), "7")
    with pytest.raises(ValueError, match="1 to 9"):
        ShutTheBox().play(frozenset({10}), 10)
    with pytest.raises(ValueError, match="illegal move"):
        Piles().play(Piles().start(), (True, 1))


def test_counts_policies_and_records_are_checked():
    with pytest.raises(ValueError, match="cannot exceed"):
        wilson_interval(5, 3)
    with pytest.raises(ValueError, match="games"):
        wilson_interval(1, -3)
    with pytest.raises(ValueError, match="no player has a move"):
        random_policy(Nim(), Nim().state(0))
    with pytest.raises(ValueError, match="count"):
        record(-1)
    with pytest.raises(ValueError, match="count"):
        record("a")
    assert ucb({"loss": 1}) == 3.0 and ucb(None) == float("inf")


def test_registries_are_immutable():
    with pytest.raises(TypeError):
        GAMES["chess"] = object  # pmap: no item assignment
    with pytest.raises(TypeError):
        RULES["mine"] = ucb


def test_check_game_takes_one_law_by_name():
    pytest.importorskip("hypothesis")
    from fnmcts.testing import check_game

    assert list(check_game(Nim(heap=4), laws="play_pure", max_examples=5)) == ["play_pure"]
    with pytest.raises(TypeError, match="protocol"):
        check_game(None)


@pytest.mark.parametrize("agents, named", [
    (((random_agent, random_agent), 3), "agent1 is a tuple"),  # both agents as one argument, the seed as agent2
    ((random_agent, "mcts"), "make_agent('mcts')"),  # the command line's name for an agent
    ((random_agent, 7), "agent2 is an int"),
])
def test_an_agent_that_is_not_callable_is_named(agents, named):
    from fnmcts.matches import tournament

    for call in (play_game, lambda g, a, b: tournament(g, a, b, 4, seed=1)):
        with pytest.raises(TypeError, match=named.replace("(", r"\(").replace(")", r"\)")):
            call(Nim(), *agents)


@pytest.mark.parametrize("hook", ["to_move", "possible_moves", "play", "payoff"])
@pytest.mark.parametrize("wrong", [Piles().start(), "heap", None])
def test_the_protocol_functions_name_a_state_of_another_game(hook, wrong):
    from fnmcts import protocol

    args = (1,) if hook == "play" else ()
    with pytest.raises(ValueError, match=r"a Nim state is pmap\(heap=n, player=0 or 1\), got "):
        getattr(protocol, hook)(Nim(), wrong, *args)
    tree = search(Nim(heap=5), Nim(heap=5).start(), 20, random.Random(1))  # a tree where a state goes
    with pytest.raises(ValueError, match=r"got Tree\("):
        getattr(protocol, hook)(Nim(), tree, *args)


def test_a_game_whose_hook_fails_on_its_own_state_still_raises_its_own_error():
    from fnmcts import protocol

    class Sulky(Nim):
        def play(self, state, move):
            raise KeyError("sulk")

    with pytest.raises(KeyError, match="sulk"):
        protocol.play(Sulky(), Sulky().start(), 1)


def test_a_seed_where_a_generator_goes_and_the_reverse_are_told_apart():
    with pytest.raises(TypeError, match=r"got the int 7: make one from that seed, fnmcts\.rng\.make_rng\(7\)"):
        search(Nim(), Nim().start(), 10, 7)
    with pytest.raises(TypeError, match=r"got a random\.Random: a seed is a number \(seed=1\)"):
        simulate(Nim(), 10, seed=random.Random(1))


def test_value_given_the_game_first_says_it_takes_the_solution():
    from fnmcts import value

    with pytest.raises(TypeError, match=r"got Nim; value takes no game: value\(solve\(game\), state\)"):
        value(Nim(), Nim().start())
