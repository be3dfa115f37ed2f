"""One set of search options: the same names, meanings and defaults in every way into a search."""

from __future__ import annotations

import json
import math
import random
from functools import partial

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fnmcts.cli import main
from fnmcts.games import Nim, ShutTheBox, TicTacToe
from fnmcts.mcts import (
    SearchOptions,
    _options,
    mcts_agent,
    mcts_move,
    search,
    search_options,
    ucb,
    ucb1,
)
from fnmcts.rng import make_rng
from fnmcts.tutorial import uct as tutorial_uct

STB = ShutTheBox()


@st.composite
def option_sets(draw):
    """Options as a user spells them: a rule by name or as a function, its constant, the other options."""
    kind = draw(st.sampled_from(["ucb1", "tutorial", "ucb", "ucb1-function", "ucb-function", "default"]))
    constant = draw(st.sampled_from([None, 0.2, 1.0, 2.5]))
    given = {}
    if kind in ("ucb1", "tutorial", "ucb"):
        given["rule"] = kind
        if constant is not None:
            given["c" if kind == "ucb1" else "z"] = constant
    elif kind == "ucb1-function":
        given["rule"] = ucb1 if constant is None else partial(ucb1, c=constant)
    elif kind == "ucb-function":
        given["rule"] = ucb if constant is None else partial(ucb, z=constant)
    elif constant is not None:
        given["c"] = constant
    for name, values in (("backup", ["mean", "expectimax"]), ("solver", [True, False]), ("final", ["visits", "mean"])):
        value = draw(st.sampled_from([None, *values]))
        if value is not None:
            given[name] = value
    return given


def _tree_options(given):
    return {k: v for k, v in given.items() if k != "final"}


@given(option_sets(), st.integers(3, 12), st.integers(0, 10**6), st.integers(1, 120))
def test_mcts_move_grows_the_tree_search_grows_with_the_same_options(given, heap, seed, n):
    # one meaning, one set of defaults: whatever is given or left out, mcts_move's dives are search's
    game = Nim(heap=heap, max_take=3)
    found = mcts_move(game, game.start(), n, random.Random(seed), **given)
    assert found.tree == search(game, game.start(), found.iterations, random.Random(seed), **_tree_options(given))


@given(option_sets(), st.integers(0, 10**6))
def test_an_agent_plays_the_move_of_mcts_move_with_the_same_options(given, seed):
    game = TicTacToe()
    state = (1, 0, 0, 0, 2, 0, 0, 0, 0)
    move = mcts_agent(60, **given)(game, state, random.Random(seed))
    assert move == mcts_move(game, state, 60, random.Random(seed), **given).move


@given(option_sets())
def test_one_value_holds_the_options_and_means_the_keywords(given):
    options = search_options(**given)
    assert isinstance(options, SearchOptions)
    game = Nim(heap=9, max_take=3)
    by_value = search(game, game.start(), 40, make_rng(3), options=options)
    assert by_value == search(game, game.start(), 40, make_rng(3), **_tree_options(given))
    assert mcts_move(game, game.start(), 40, make_rng(3), options=options) == mcts_move(
        game, game.start(), 40, make_rng(3), **given)


def test_a_rule_by_name_is_the_rule_as_a_function():
    game = Nim(heap=11, max_take=3)
    start = game.start()
    assert search(game, start, 300, make_rng(1), rule="ucb1", c=0.3) == search(
        game, start, 300, make_rng(1), rule=partial(ucb1, c=0.3))
    assert search(game, start, 300, make_rng(1), rule="tutorial", z=1.5) == search(
        game, start, 300, make_rng(1), rule=partial(ucb, z=1.5))
    assert search(game, start, 300, make_rng(1), rule="ucb") == search(game, start, 300, make_rng(1), rule="tutorial")
    assert search(game, start, 300, make_rng(1)) == search(game, start, 300, make_rng(1), rule="ucb1", c=math.sqrt(2),
                                                           solver=True, backup="mean")


def test_the_defaults_are_ucb1_with_the_solver_and_the_tutorial_s_rule_brings_the_tutorial_s_dive():
    assert search_options() == SearchOptions(rule="ucb1", c=math.sqrt(2), z=2, backup="mean", solver=True,
                                             rollout=None, final="visits")
    assert search_options(rule="tutorial").solver is False
    assert search_options(rule=ucb).solver is False
    assert search_options(rule=partial(ucb, z=1)).solver is False
    assert search_options(rule="tutorial", solver=True).solver is True
    assert search_options(rule=ucb1).solver is True
    # a new rule over an options value takes its own default solver, unless one is given
    assert search_options(None, search_options(), rule="tutorial").solver is False
    assert search_options(None, search_options(solver=False), backup="expectimax").solver is False


@pytest.mark.slow
@given(st.integers(0, 10**6), st.integers(0, 200))
def test_search_with_the_tutorial_s_rule_is_the_tutorial_s_uct_repeated(seed, n):
    rng = random.Random(seed)
    tree = {}
    for _ in range(n):
        tree, _ = tutorial_uct(tree, STB.start(), rng)
    assert search(STB, STB.start(), n, random.Random(seed), rule=ucb) == tree


def test_the_defaults_live_in_one_place(monkeypatch):
    # change the one default, and every way into a search follows it
    game = Nim(heap=13, max_take=3)
    start = game.start()
    expected_tree = search(game, start, 200, make_rng(4), c=0.25)
    expected_move = mcts_move(game, start, 200, make_rng(4), c=0.25)
    monkeypatch.setattr(_options, "DEFAULT_C", 0.25)
    assert search(game, start, 200, make_rng(4)) == expected_tree
    assert mcts_move(game, start, 200, make_rng(4)) == expected_move
    assert mcts_agent(200)(game, start, make_rng(4)) == expected_move.move


@pytest.mark.parametrize("given, error, words", [
    ({"rule": "tutorial", "c": 0.5}, ValueError, "c is the constant of rule='ucb1'"),
    ({"rule": "ucb1", "z": 1}, ValueError, "z is the constant of rule='tutorial'"),
    ({"rule": partial(ucb1, c=0.2), "c": 0.5}, ValueError, "carries its own"),
    ({"c": 0.5, "z": 1}, ValueError, "z is the constant"),
    ({"rule": "ucb2"}, ValueError, "unknown rule 'ucb2'"),
    ({"rule": 3}, TypeError, "rule must be a name"),
    ({"c": float("nan")}, ValueError, "c must be a finite number"),
    ({"c": -1}, ValueError, "c must be a finite number"),
    ({"c": True}, TypeError, "c must be a number"),
    ({"c": "1"}, TypeError, "c must be a number"),
    ({"rule": "tutorial", "z": float("inf")}, ValueError, "z must be a finite number"),
    ({"backup": "max"}, ValueError, "backup must be one of mean, expectimax"),
    ({"solver": "yes"}, TypeError, "solver must be True or False"),
    ({"final": "best"}, ValueError, "final must be 'visits' or 'mean'"),
    ({"rollout": 5}, TypeError, "rollout must be an agent"),
])
def test_every_way_in_names_a_bad_option_the_same_way(given, error, words):
    game = Nim(heap=5, max_take=3)
    tree_given = _tree_options(given)
    calls = [lambda: search_options(**given), lambda: mcts_move(game, game.start(), 5, make_rng(1), **given),
             lambda: mcts_agent(5, **given)]
    if tree_given == given:
        calls += [lambda: search(game, game.start(), 5, make_rng(1), **given)]
    for call in calls:
        with pytest.raises(error, match=words.replace("(", r"\(").replace(")", r"\)")):
            call()


def test_an_unknown_option_is_named():
    with pytest.raises(TypeError, match="unknown search option 'rulle'"):
        search_options(rulle="ucb1")
    with pytest.raises(TypeError, match="unknown mcts_agent option 'rulle'"):
        mcts_agent(10, rulle="ucb1")
    with pytest.raises(TypeError, match="options must be a SearchOptions"):
        search(Nim(), Nim().start(), 5, make_rng(1), options={"rule": "ucb1"})


def test_an_agent_of_options_pickles():
    import pickle

    agent = mcts_agent(50, options=search_options(rule="tutorial", z=1.0), final="mean")
    again = pickle.loads(pickle.dumps(agent))
    game = Nim(heap=9)
    assert again(game, game.start(), make_rng(2)) == agent(game, game.start(), make_rng(2))


# -- the commands: the same flags, the same meaning -----------------------------------------------


def run(capsys, *argv):
    try:
        code = main(list(argv))
    except SystemExit as exit_:
        code = exit_.code
    out, err = capsys.readouterr()
    return code, out, err


def test_the_agent_flags_are_the_library_s_options(capsys):
    argv = ["move", "nim", "--state", "14", "--ai", "mcts", "--dives", "300", "--seed", "3"]
    code, out, _ = run(capsys, *argv, "--rule", "tutorial", "--z", "1.5", "--no-solver", "--json")
    assert code == 0
    data = json.loads(out)
    game = Nim()
    state = game.state(data["state"]["heap"], data["state"]["player"])
    assert data["move"] == mcts_agent(300, rule="tutorial", z=1.5, solver=False)(game, state, make_rng(3))


@pytest.mark.parametrize("command", [
    ["move", "nim", "--state", "9", "--ai", "mcts"],
    ["search", "shut-the-box", "--dives", "10"],
])
def test_a_constant_of_the_other_rule_is_refused_alike(capsys, command):
    code, _, err = run(capsys, *command, "--rule", "tutorial", "--c", "0.5")
    assert code == 2
    assert err.strip().splitlines() == [
        "fnmcts: error: --c is UCB1's constant: use it with --rule ucb1 (the tutorial's ucb takes --z)"]
    code, _, err = run(capsys, *command, "--z", "3")
    assert code == 2 and "--z belongs to the tutorial's ucb" in err


@pytest.mark.slow
def test_search_command_takes_the_library_s_defaults_and_names_them(capsys):
    code, out, _ = run(capsys, "search", "shut-the-box", "--dives", "300", "--seed", "2", "--json")
    assert code == 0
    data = json.loads(out)
    # Shut the Box has chance: the defaults of its kind (UCB1 with c = _options.CHANCE_C, the expectimax backup, the solver)
    assert (data["rule"], data["c"], data["backup"], data["solver"]) == ("ucb1", _options.CHANCE_C, "expectimax", True)
    tree = search(STB, STB.start(), 300, make_rng(2))
    assert data["states"] == len(tree)
    code, old, _ = run(capsys, "search", "shut-the-box", "--dives", "300", "--seed", "2", "--ucb", "tutorial", "--json")
    code, new, _ = run(capsys, "search", "shut-the-box", "--dives", "300", "--seed", "2", "--rule", "tutorial", "--json")
    old, new = json.loads(old), json.loads(new)
    old.pop("seconds"), new.pop("seconds"), old.pop("dives_per_s"), new.pop("dives_per_s")
    assert old == new and new["solver"] is False and new["z"] == 2
    assert new["states"] == len(search(STB, STB.start(), 300, make_rng(2), rule=ucb))
