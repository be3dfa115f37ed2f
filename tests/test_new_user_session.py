"""What a new user trips on in a first session: a tree given to ``value``, a state of another game, an rng given
where a seed goes, the signature ``help`` shows, a search result's repr. Each answer names the fix."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fnmcts import search, simulate, solve, value
from fnmcts.exact import NotSolved
from fnmcts.games import Nim, TicTacToe


@settings(max_examples=10, deadline=None)
@given(heap=st.integers(1, 6), seed=st.integers(0, 2**32))
def test_value_of_a_search_tree_says_it_reads_a_solution_and_how_to_read_the_tree(heap, seed):
    game = Nim(heap=heap, max_take=3)
    tree = search(game, game.start(), 30, random.Random(seed))
    with pytest.raises(TypeError, match=r"value reads what solve .* search tree.*mean\(tree\[state\]\)"):
        value(tree, game.start())


@settings(max_examples=10, deadline=None)
@given(heap=st.integers(1, 6))
def test_value_at_a_state_of_another_game_names_the_other_game(heap):
    solution = solve(Nim(heap=heap, max_take=3))
    with pytest.raises(NotSolved, match="a state of another game") as refused:
        value(solution, TicTacToe().start())
    assert "solve from it first" not in str(refused.value)


def test_value_at_a_state_of_the_same_game_not_solved_still_says_solve_from_it():
    game = Nim(heap=3, max_take=3)
    with pytest.raises(NotSolved, match="solve from it first") as refused:
        value(solve(game), game.state(9, 0))
    assert "another game" not in str(refused.value)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.integers(1, 50))
def test_an_rng_given_by_position_to_simulate_names_rng_by_keyword(seed, n):
    with pytest.raises(TypeError, match=r"simulate\(game, n, rng=random\.Random\(1\)\) or seed=1, by keyword"):
        simulate(Nim(), n, random.Random(seed))
    assert simulate(Nim(), n, rng=random.Random(seed)) == simulate(Nim(), n, rng=random.Random(seed))


@pytest.mark.parametrize(("call", "hint"), [
    (lambda g: simulate(g, 10, sed=1), "did you mean seed="),
    (lambda g: search(g, g.start(), 10, seed=1), r"did you mean rng=random\.Random\(seed\)"),
    (lambda g: search(g, g.start(), itrations=10), "did you mean iterations="),
    (lambda g: simulate(g, 10, 5), r"simulate\(game, n\), the rest by keyword \(seed=, rng="),
])
def test_a_call_a_verb_cannot_take_names_the_fix(call, hint):
    with pytest.raises(TypeError, match=hint):
        call(Nim())


def test_a_type_error_inside_a_verb_is_not_taken_for_a_bad_call():
    class Broken(Nim):
        def possible_moves(self, state):
            raise TypeError("mine")

    with pytest.raises(Exception, match="mine") as raised:
        solve(Broken(heap=3))
    assert "by keyword" not in str(raised.value) and "did you mean" not in str(raised.value)


def test_help_of_tree_shows_a_signature_that_reads():
    import inspect
    import pydoc

    from fnmcts.mcts import Tree

    shown = str(inspect.signature(Tree))
    assert " at 0x" not in shown and "object object" not in shown
    assert shown == "(mapping=None, root=<the most visited state>)"
    assert " at 0x" not in pydoc.render_doc(Tree)


@settings(max_examples=8, deadline=None)
@given(heap=st.integers(3, 9), iterations=st.integers(20, 120), seed=st.integers(0, 2**32))
def test_a_move_search_prints_as_a_one_line_summary(heap, iterations, seed):
    from fnmcts import mcts_move
    from fnmcts.mcts import mean

    game = Nim(heap=heap, max_take=3)
    found = mcts_move(game, game.start(), iterations, random.Random(seed))
    chosen = dict(found.children)[found.move]
    shown = repr(found)
    assert shown == str(found) and "\n" not in shown and len(shown) < 160
    assert shown == (f"MoveSearch(move={found.move!r}, iterations={found.iterations:,}, mean={round(mean(chosen), 3)}, "
                     f"tree={len(found.tree):,} states, proven={len(found.proven):,} states, "
                     f"children={len(found.children)} moves)")
    assert "pmap" not in shown


def test_a_search_without_a_budget_says_where_the_budget_goes():
    with pytest.raises(TypeError, match=r"iterations= \(search and mcts_move take it after the state\)"):
        search(Nim(), 10)


def test_train_given_the_game_first_says_where_the_game_goes():
    from fnmcts import train

    with pytest.raises(TypeError, match=r"train\(n, seed, game\) takes the game third, or as game="):
        train(Nim(heap=5), 10)
    with pytest.raises(TypeError, match="seed"):
        train(Nim(heap=5), 10, seed=1)


def test_value_at_an_unhashable_state_says_a_state_is_hashable():
    game = TicTacToe()
    with pytest.raises(NotSolved, match=r"a state is a hashable value, such as .*, not a list") as refused:
        value(solve(game), list(game.start()))
    assert "another game" not in str(refused.value)


_READERS = {  # each view of a finished tree, called as a user first calls it
    "greedy_move": lambda v, g, t: v.greedy_move(g, t, g.start()),
    "greedy_policy": lambda v, g, t: v.greedy_policy(t)(g, g.start()),
    "top_children": lambda v, g, t: v.top_children(g, t, g.start()),
    "principal_variation": lambda v, g, t: v.principal_variation(g, t, g.start()),
    "tree_summary": lambda v, g, t: v.tree_summary(g, t, g.start()),
    "line_summary": lambda v, g, t: v.line_summary(g, t, g.start()),
    "to_dot": lambda v, g, t: v.to_dot(g, t, g.start()),
    "backed_up_values": lambda v, g, t: v.backed_up_values(g, t),
    "dives_win_rate": lambda v, g, t: v.dives_win_rate(t, g.start()),
}


@pytest.mark.parametrize("name", sorted(_READERS))
def test_a_view_given_mcts_move_s_result_names_its_tree(name):
    from fnmcts import mcts_move, views

    game = Nim(heap=5, max_take=3)
    found = mcts_move(game, game.start(), 40, random.Random(2))
    with pytest.raises(TypeError, match=r"got a MoveSearch: its \.tree is the tree the search grew"):
        _READERS[name](views, game, found)
    _READERS[name](views, game, found.tree)  # the tree itself is read


@pytest.mark.parametrize("name", ["greedy_move", "top_children", "principal_variation", "tree_summary", "to_dot"])
def test_a_view_given_the_tree_first_says_the_game_comes_first(name):
    from fnmcts import views

    game = Nim(heap=5, max_take=3)
    tree = search(game, game.start(), 40, random.Random(2))
    call = getattr(views, name)
    with pytest.raises(TypeError, match="the game comes first, then the tree: got a Tree for the game"):
        call(tree, game, game.start())


def test_a_move_search_in_a_notebook_shows_the_summary():
    from fnmcts import mcts_move

    game = Nim(heap=7, max_take=3)
    found = mcts_move(game, game.start(), 60, random.Random(4))
    assert found._repr_html_() == f"<pre>{repr(found)}</pre>" and "pmap" not in found._repr_html_()


@pytest.mark.parametrize("name", ["greedy_move", "top_children", "principal_variation", "tree_summary", "to_dot"])
def test_a_view_at_a_state_of_another_game_names_the_game_s_states(name):
    from fnmcts import views

    game = TicTacToe()
    tree = search(game, game.start(), 30, random.Random(5))
    with pytest.raises(ValueError, match=r"a tic-tac-toe state is a tuple of 9 cells .*, got pmap"):
        getattr(views, name)(game, tree, Nim().start())


def test_uct_without_a_tree_starts_one_as_its_signature_says():
    """``uct(game, tree=None, ...)``: no tree is an empty one, as for ``search`` (it was refused as not a map)."""
    from fnmcts import mcts
    from fnmcts.games.tictactoe import TicTacToe

    game = TicTacToe()
    tree, result = mcts.uct(game, state=game.start(), rng=random.Random(1))
    again, same = mcts.uct(game, mcts.Tree(), game.start(), random.Random(1))
    assert (dict(tree), result) == (dict(again), same) and len(tree) >= 1
