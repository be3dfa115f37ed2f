"""The file functions given their arguments in another order name which argument is which, before any file is touched."""

import random
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

import fnmcts
from fnmcts.games import Nim

GAME = Nim(heap=4)
TREE = fnmcts.search(GAME, GAME.start(), 30, random.Random(1))
FOUND = fnmcts.mcts_move(GAME, GAME.start(), 30, random.Random(1))
AI = fnmcts.qlearning.train(5, seed=1, game=GAME)

paths = st.builds(lambda name, as_path: Path(name) if as_path else name,
                  st.sampled_from(["tree.json", "out/t.json", "/tmp/none/x.json"]), st.booleans())


@settings(max_examples=20)
@given(paths)
def test_save_tree_given_the_path_first_names_the_path_not_a_game(path):
    with pytest.raises(TypeError, match=r"^save_tree\(game, tree, path\): got a path where the game goes"):
        fnmcts.save_tree(path, GAME, TREE)
    with pytest.raises(TypeError, match=r"^save_tree\(game, tree, path\): got a path where the tree goes"):
        fnmcts.save_tree(GAME, path, TREE)
    with pytest.raises(TypeError, match=r"^save_search\(game, found, path\): got a path where the game goes"):
        fnmcts.save_search(path, GAME, FOUND)
    with pytest.raises(TypeError, match=r"^save_ai\(ai, path\): got a path where the Q-learning AI goes"):
        fnmcts.save_ai(path, AI)


@pytest.mark.parametrize("load", [fnmcts.load_tree, fnmcts.load_search, fnmcts.load_ai])
@pytest.mark.parametrize("value, kind", [(GAME, "a game"), (TREE, "a tree"), (AI, "a Q-learning AI")])
def test_a_load_given_no_path_names_what_it_got(load, value, kind):
    with pytest.raises(TypeError, match=rf"^{load.__name__}\(path, \.\.\.\): got {kind} where the path goes"):
        load(value)


@pytest.mark.parametrize("load", [fnmcts.load_tree, fnmcts.load_search, fnmcts.load_ai])
def test_a_path_that_is_not_one_and_a_game_as_games_are_named(load, tmp_path):
    with pytest.raises(TypeError, match=r"path must be a file path \(a str or a pathlib.Path\), got 5 \(int\)"):
        load(5)
    with pytest.raises(TypeError, match=r"^games maps game names to their constructors"):
        load(tmp_path / "missing.json", GAME)  # refused before the file is read


def test_arguments_in_order_still_round_trip(tmp_path):
    path = tmp_path / "t.json"
    assert fnmcts.load_tree(fnmcts.save_tree(GAME, TREE, str(path))) == (GAME, TREE)
    assert fnmcts.load_search(fnmcts.save_search(GAME, FOUND, path)) == (GAME, FOUND)
    assert fnmcts.load_ai(fnmcts.save_ai(AI, path)) == AI
