"""Views of a tree (summary, line, table, DOT), fixed printing order, HTML reprs."""

from __future__ import annotations

import os
import subprocess
import sys
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pyrsistent import pmap

from fnmcts.exact import solve
from fnmcts.games import Nim, ShutTheBox
from fnmcts.games.piles import Piles
from fnmcts.mcts import record, search, ucb, visits
from fnmcts.views import aligned_table, line_summary, principal_variation, to_dot, top_children, tree_summary
from fnmcts.matches import play_game, random_agent, tournament
from fnmcts.rng import make_rng
from fnmcts.games.shut_the_box import start_box
from fnmcts.tutorial import simulate
from fnmcts.values import fixed_pmap

STB = ShutTheBox()


@given(st.dictionaries(st.text(min_size=1, max_size=5), st.integers(), max_size=6))
@settings(max_examples=60)
def test_fixed_pmap_equals_and_hashes_as_the_pmap(d):
    fixed, plain = fixed_pmap(d), pmap(d)
    assert fixed == plain and plain == fixed and hash(fixed) == hash(plain)
    assert {plain: 1}[fixed] == 1
    assert repr(fixed) == "pmap({" + ", ".join(f"{k!r}: {v!r}" for k, v in sorted(d.items())) + "})"
    assert eval(repr(fixed), {"pmap": pmap}) == plain


PRINTED = """
from fnmcts import random_agent, tournament
from fnmcts.matches import play_game
from fnmcts.games import Nim, Piles, ShutTheBox
from fnmcts.tutorial import simulate
g = ShutTheBox()
print(Nim().start(), Piles().start(), g.play(g.start(), 7))
print(simulate(100, seed=1))
print(repr(tournament(Nim(), random_agent, random_agent, 4, seed=1)))
print(tournament(Nim(), random_agent, random_agent, 4, seed=1))
print(play_game(Nim(heap=3), random_agent, random_agent, seed=1))
"""


@pytest.mark.slow
def test_states_and_records_print_the_same_whatever_the_hash_seed():
    outputs = set()
    plain = set()
    for seed in ("0", "1", "2", "41"):  # a plain pmap prints 'player' first with 41, 'heap' first with 0
        env = dict(os.environ, PYTHONHASHSEED=seed)
        run = subprocess.run([sys.executable, "-c", PRINTED], env=env, capture_output=True, text=True, check=True)
        outputs.add(run.stdout)
        check = [sys.executable, "-c", "from pyrsistent import pmap; print(pmap({'heap': 21, 'player': 0}))"]
        plain.add(subprocess.run(check, env=env, capture_output=True, text=True, check=True).stdout)
    assert len(plain) == 2  # the seeds do shuffle a plain pmap
    assert len(outputs) == 1, outputs
    (text,) = outputs
    assert text.startswith("pmap({'heap': 21, 'player': 0}) pmap({'piles': (1, 3, 5, 7), 'player': 0})")
    assert "Simulation(win=2, loss=98, games=100, estimate=0.02" in text
    assert "TournamentRecord(games=4, wins=pmap({1: 1, 2: 3}), draws=0, seed=1)" in text
    assert "Player 1 wins 1 game. Player 2 wins 3 games.\nagent 1 against agent 2: score 0.250 [" in text
    assert "LOS 0.186: not significant" in text  # Phi((1 - 3) / sqrt(1 + 3 + 1))


def test_html_reprs_of_records_simulations_and_tournaments():
    assert "<th>win</th><td>2</td>" in record(2, 3)._repr_html_()
    html = simulate(100, seed=1)._repr_html_()
    assert html.startswith("<table><caption>Simulation</caption>") and "<th>estimate</th><td>0.02</td>" in html
    html = tournament(Nim(), random_agent, random_agent, 4, seed=1)._repr_html_()
    assert "<th>games</th><td>4</td>" in html
    assert "<th>moves</th>" in play_game(Nim(heap=3), random_agent, random_agent, seed=1)._repr_html_()


def test_top_children_at_a_chance_node_is_one_entry_per_roll():
    tree = search(STB, start_box, 2_000, make_rng(1))
    per_roll = top_children(STB, tree, start_box, k=11)
    assert [roll for roll, _ in per_roll][:3] == [7, 6, 8]  # likeliest first
    assert sorted(roll for roll, _ in per_roll) == list(range(2, 13))
    for roll, best in per_roll:
        assert best == top_children(STB, tree, STB.play(start_box, roll), k=1)[0]


def test_principal_variation_shows_rolls_with_their_probabilities():
    tree = search(STB, start_box, 2_000, make_rng(1))
    line = principal_variation(STB, tree, start_box)
    assert line[0] == (7, Fraction(1, 6))
    assert all(isinstance(p, Fraction) for move, p in line[0::2])
    assert all(visits(rec) > 0 for move, rec in line[1::2])


def test_tree_summary_puts_the_exact_value_beside_the_estimates():
    game = Nim(heap=10, max_take=3, misere=False)
    tree = search(game, game.start(), 3_000, make_rng(2), rule=ucb)
    text = tree_summary(game, tree, game.start())
    lines = text.splitlines()
    assert lines[0].split() == ["move", "visits", "mean", "ucb", "exact"]
    exact = solve(game)
    for line in lines[1:]:
        move = int(line.split()[1])
        child = game.play(game.start(), move)
        value_for_mover = (exact[child][0] + 1) / 2
        assert line.split()[-1] == f"{float(value_for_mover):.4f}"
    # 10 = 2 mod 4: taking 2 wins, and the tree's favourite is it
    assert lines[1].split()[:2] == ["take", "2"]


def test_tree_summary_at_a_chance_node_and_at_the_end():
    tree = search(STB, start_box, 1_000, make_rng(3))
    text = tree_summary(STB, tree, start_box)
    assert text.splitlines()[0].startswith("chance moves next")
    assert text.splitlines()[1].split()[:3] == ["outcome", "p", "move"]
    assert len(text.splitlines()) == 2 + 11
    assert tree_summary(STB, tree, frozenset()).startswith("the game is over")


@pytest.mark.slow
def test_line_summary_and_aligned_table():
    tree = search(STB, start_box, 1_000, make_rng(3))
    lines = line_summary(STB, tree, start_box, limit=4).splitlines()
    assert lines[1].split()[:3] == ["1", "chance", "7"]
    assert lines[2].split()[1:3] == ["player", "1"]
    text = aligned_table([{"a": 1, "b": frozenset({3, 1})}, {"a": 22, "b": None}], ("a", "b"))
    assert text.splitlines() == ["a   b", "1   1 3", "22  -"]


def test_to_dot_is_a_graph_of_the_top_levels():
    game = Nim(heap=6, max_take=3)
    tree = search(game, game.start(), 500, make_rng(4))
    dot = to_dot(game, tree, game.start(), depth=2)
    assert dot.startswith("digraph tree {") and dot.endswith("}")
    edges = [line for line in dot.splitlines() if "->" in line]
    assert 3 < len(edges) <= 3 + 9
    assert to_dot(game, tree, game.start(), depth=1).count("->") == 3
    stb = to_dot(STB, search(STB, start_box, 500, make_rng(4)), start_box, depth=2, k=3)
    assert 'label="7 (p 0.167)"' in stb and stb.count("->") > 3


def test_choices_stay_aligned_from_choice_ten():
    from fnmcts.games.shut_the_box import format_choices

    state = STB.play(start_box, 11)
    lines = format_choices([STB.describe_move(state, m) for m in STB.possible_moves(state)])
    assert len(lines) == 10
    assert len({line.index(")") for line in lines}) == 1  # every number ends in the same column
    assert len({line.index("flip") for line in lines}) == 1


def test_play_piles_says_how_to_type_a_move():
    run = subprocess.run([sys.executable, "-m", "fnmcts", "play", "piles", "--seed", "1", "--first"], input="",
                         capture_output=True, text=True, timeout=60)
    assert "Type a pile and a count: '3 2' takes 2 from pile 3." in run.stdout
    render = Piles().render(Piles().state((0, 0, 1, 0)))
    assert render.endswith("'2 1' takes 1 from pile 2.")


def test_mcts_move_at_a_chance_node_explains_itself():
    import pytest

    from fnmcts.mcts import mcts_move

    with pytest.raises(ValueError) as error:
        mcts_move(STB, start_box, 10, make_rng(1))
    message = str(error.value)
    assert "chance moves next" in message and "game.play(state, outcome)" in message
    assert "tree_summary" in message


# -- the views honour the proofs as mcts_move does (issue 32) ----------------------------------------


def _proof_of(game, tree, child):
    """A child's proof as the search knows it: its record's, or its payoff at the end of the game."""
    if game.to_move(child) is None:
        return tuple(game.payoff(child))
    rec = tree.get(child)
    return None if rec is None else rec.get("proven")


@given(st.data(), st.integers(0, 10**6), st.integers(1, 300))
def test_the_views_play_a_proven_win_and_never_a_move_proven_worse(data, seed, n):
    import random

    from small_games import table_games
    from fnmcts.views import greedy_move, greedy_policy

    game = data.draw(table_games(players=2, chance=False))
    player = game.to_move(0)
    if player is None:
        return
    tree = search(game, 0, n, random.Random(seed))
    exact = solve(game)
    proofs = {m: _proof_of(game, tree, game.play(0, m)) for m in game.possible_moves(0)}
    proven_values = [p[player] for p in proofs.values() if p is not None]
    root = tree[0].get("proven") if 0 in tree else None
    policy = greedy_policy(tree)(game, 0)  # the greedy move, or uniform where the tree knows no child left open
    assert sum(p for _, p in policy) == 1
    for move in [greedy_move(game, tree, 0)] + [m for m, _ in policy]:
        if proven_values and max(proven_values) == 1:  # a proven win: it is played
            assert proofs[move] is not None and proofs[move][player] == 1
        if proofs[move] is not None:  # a proven move is never worse than another proven one
            assert proofs[move][player] == max(proven_values)
        if root is not None:
            assert exact[game.play(0, move)][player] == root[player]
    line = principal_variation(game, tree, 0)
    if root is not None and line:
        assert exact[game.play(0, line[0][0])][player] == root[player]


@pytest.mark.slow
def test_dots_and_boxes_the_greedy_move_is_the_proven_win_mcts_move_plays(capsys):
    # issue 32: greedy_move ranked a drawing move (the best mean) over the proven win, and `fnmcts search`
    # called it best where `fnmcts move` played the win
    import json

    import pytest

    pytest.importorskip("pyspiel")
    from fnmcts.cli import main
    from fnmcts.mcts import mcts_move
    from fnmcts.views import greedy_move
    from fnmcts.openspiel import from_openspiel

    game = from_openspiel("dots_and_boxes(num_rows=2,num_cols=2)")
    state = game.start()
    tree = search(game, state, 20_000, make_rng(1))
    assert tree[state]["proven"] == (1, -1)
    move = greedy_move(game, tree, state)
    assert tree[game.play(state, move)]["proven"] == (1, -1)
    assert principal_variation(game, tree, state)[0][0] == move
    played = mcts_move(game, state, 20_000, make_rng(1)).move
    assert tree[game.play(state, played)]["proven"] == (1, -1)
    assert main(["search", "openspiel:dots_and_boxes(num_rows=2,num_cols=2)", "--dives", "20000", "--seed", "1",
                 "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["proven"] == [1, -1] and found["root_visits"] < 20_000
    assert main(["move", "openspiel:dots_and_boxes(num_rows=2,num_cols=2)", "--state", "[]", "--ai", "mcts",
                 "--dives", "20000", "--seed", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["describe"] == found["best_move"]


def test_every_view_keeps_its_old_name_in_fnmcts_mcts_for_one_release_with_a_warning_naming_the_new():
    import warnings

    import fnmcts.mcts
    import fnmcts.views

    assert set(fnmcts.mcts._MOVED_TO_VIEWS) == set(fnmcts.views.__all__)
    assert not set(fnmcts.views.__all__) & set(fnmcts.mcts.__all__)
    for name in fnmcts.views.__all__:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            old = getattr(fnmcts.mcts, name)
        assert old is getattr(fnmcts.views, name)
        assert [w.category for w in caught] == [DeprecationWarning]
        assert f"fnmcts.views.{name}" in str(caught[0].message) and caught[0].filename == __file__
    with pytest.raises(AttributeError, match="no attribute 'no_such_view'"):
        fnmcts.mcts.no_such_view


def test_the_old_import_of_a_view_still_works_and_warns():
    with pytest.warns(DeprecationWarning, match=r"fnmcts\.views\.tree_summary"):
        from fnmcts.mcts import tree_summary as old
    assert old is tree_summary
