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
