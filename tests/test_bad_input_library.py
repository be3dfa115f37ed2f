"""Bad input to the library's verbs, as a new user types it: each refusal is a TypeError/ValueError naming the
slip and the fix, never Python's bare error or a wrong answer given silently."""

from __future__ import annotations

import random

import pytest

from fnmcts.games import Nim

_TREE_TAKERS = {
    "diff(move_search, tree)": lambda v, found: v.diff(found, found.tree),
    "diff(tree, move_search)": lambda v, found: v.diff(found.tree, found),
    "trace(..., tree=move_search)": lambda v, found: v.trace(Nim(heap=5), Nim(heap=5).start(), 3, random.Random(1),
                                                             tree=found),
}


@pytest.mark.parametrize("call", sorted(_TREE_TAKERS))
def test_diff_and_trace_given_mcts_move_s_result_name_its_tree(call):
    from fnmcts import mcts_move, views

    game = Nim(heap=5)
    found = mcts_move(game, game.start(), 20, random.Random(3))
    with pytest.raises(TypeError, match=r"got a MoveSearch: its \.tree is the tree the search grew"):
        _TREE_TAKERS[call](views, found)


@pytest.mark.parametrize("name", ["explore_page", "page_data"])
@pytest.mark.parametrize("given", ["game, state, n", "game"])
def test_the_explorer_given_a_game_names_trace(name, given):
    from fnmcts import views

    game = Nim(heap=4)
    args = (game, game.start(), 5) if given == "game, state, n" else (game,)
    with pytest.raises(TypeError, match=rf"{name} shows a trace, not a game: {name}\(trace\(game, state, n, rng\)\)"):
        getattr(views, name)(*args)


def test_the_explorer_given_too_many_arguments_names_its_signature():
    from fnmcts import views

    game = Nim(heap=4)
    shown = views.trace(game, game.start(), 3, random.Random(1))
    with pytest.raises(TypeError, match=r"explore_page\(trace, other\), the rest by keyword \(title=, dives=\)"):
        views.explore_page(shown, None, "my title")


_NOT_GAMES = {
    "start": lambda f, g: f.start(g),
    "to_move": lambda f, g: f.to_move(g, Nim().start()),
    "possible_moves": lambda f, g: f.possible_moves(g, Nim().start()),
    "play": lambda f, g: f.play(g, Nim().start(), 1),
    "payoff": lambda f, g: f.payoff(g, Nim().start()),
    "is_terminal": lambda f, g: f.is_terminal(g, Nim().start()),
    "chance_outcomes": lambda f, g: f.chance_outcomes(g, Nim().start()),
    "playout": lambda f, g: f.playout(g, Nim().start(), random.Random(1)),
    "random_agent": lambda f, g: f.random_agent(g, Nim().start(), random.Random(1)),
}


@pytest.mark.parametrize("verb", sorted(_NOT_GAMES))
@pytest.mark.parametrize("given, says", [("nim", "not the name 'nim'"), (None, "game protocol .*got None"),
                                         (7, "game protocol .*got 7")])
def test_a_protocol_function_given_no_game_names_the_slip(verb, given, says):
    from fnmcts import matches, protocol

    module = matches if verb in ("playout", "random_agent") else protocol
    with pytest.raises(TypeError, match=says):
        _NOT_GAMES[verb](module, given)


@pytest.mark.parametrize("verb", ["choose_action", "get_q_value", "best_future_reward", "update_q_value"])
@pytest.mark.parametrize("given", [None, Nim(), {}])
def test_a_q_learning_verb_given_no_ai_names_new_ai(verb, given):
    from fnmcts import qlearning

    args = {"choose_action": (), "get_q_value": (1,), "best_future_reward": (),
            "update_q_value": (1, 0.0, 1.0, 0.0)}[verb]
    with pytest.raises(TypeError, match=r"ai must be a Q-learning AI \(fnmcts\.qlearning\.new_ai\(game\)"):
        getattr(qlearning, verb)(given, Nim().start(), *args)


@pytest.mark.parametrize("given, says", [(-1, "game protocol .*got -1"), ("nim", "not the name 'nim'")])
def test_new_ai_given_no_game_names_the_slip_not_a_hook(given, says):
    from fnmcts import new_ai, qlearning

    for make in (new_ai, qlearning.new_ai):
        with pytest.raises(TypeError, match=says):
            make(given)


def test_train_given_an_ai_first_names_ai_keyword():
    from fnmcts import new_ai, train

    with pytest.raises(TypeError, match=r"an AI to train further goes as ai=: train\(n, ai=ai\)"):
        train(new_ai(), 10)


_SLIPS = {
    "the tutorial's possible_moves given a roll as text": (
        lambda f: f.possible_moves(frozenset({1, 2}), "x"), TypeError, r"a roll is the dice's total.*got 'x' \(str\)"),
    "the tutorial's possible_moves given a negative roll": (
        lambda f: f.possible_moves(frozenset({1, 2}), -3), ValueError, r"a roll is the dice's total.*got -3"),
    "estimate given a number for its trial": (
        lambda f: f.montecarlo.estimate(5, 10), TypeError, r"trial is a function of a random\.Random.*got 5"),
    "estimate given a win that is not a function": (
        lambda f: f.montecarlo.estimate(lambda rng: rng.random(), 10, win=0.5), TypeError,
        r"win must be a function.*got 0\.5"),
    "a game's name misspelt": (lambda f: f.GAMES["nimm"], KeyError, r"no game named 'nimm' \(did you mean 'nim'\?\)"),
    "ucb1 given a flag for the parent's visits": (
        lambda f: f.ucb1(f.mcts.record(win=3, loss=1), True), TypeError, r"parent_visits must be a number, got True"),
}


@pytest.mark.parametrize("slip", sorted(_SLIPS))
def test_a_slip_is_named(slip):
    import fnmcts

    call, error, message = _SLIPS[slip]
    with pytest.raises(error, match=message):
        call(fnmcts)


def test_a_misspelt_game_name_is_still_a_key_error_and_the_registry_a_pmap():
    from pyrsistent import PMap

    from fnmcts.games import GAMES

    assert isinstance(GAMES, PMap) and GAMES.get("nimm") is None and "nim" in GAMES
    assert GAMES["nim"] is Nim and GAMES == dict(GAMES)
