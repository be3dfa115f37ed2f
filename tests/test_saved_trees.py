"""Saved trees and move searches (versioned JSON, checked on load) and the search command's --save/--resume/Ctrl-C."""

import json
import signal

import pytest
from hypothesis import given, settings, strategies as st

from fnmcts.cli import main
from fnmcts.games import GAMES, Kayles, Nim, Pig, ShutTheBox, TicTacToe
from fnmcts.io import load_search, load_tree, save_search, save_tree
from fnmcts.mcts import mcts_move, search
from fnmcts.protocol import CHANCE
from fnmcts.views._saved import move_search_from_json, move_search_to_json, tree_from_json, tree_to_json
from fnmcts.rng import make_rng

from test_interrupts import _interrupt

GAME_SEARCHES = st.sampled_from(
    [
        (ShutTheBox(levers=5), {}),
        (ShutTheBox(levers=5), {"backup": "expectimax"}),
        (Nim(heap=9), {"solver": True}),
        (TicTacToe(), {"solver": True}),
        (TicTacToe(), {}),
    ]
)


@pytest.mark.slow
@settings(max_examples=20, deadline=None)
@given(GAME_SEARCHES, st.integers(0, 400), st.integers(0, 10_000))
def test_a_tree_reads_back_equal_through_json_text(case, dives, seed):
    game, options = case
    tree = search(game, game.start(), dives, make_rng(seed), **options)
    text = json.dumps(tree_to_json(game, tree))
    back_game, back = tree_from_json(json.loads(text), GAMES)
    assert back_game == game and back == tree and back.root == tree.root
    assert json.dumps(tree_to_json(back_game, back)) == text  # the same tree writes the same file


@settings(max_examples=10, deadline=None)
@given(st.sampled_from([Nim(heap=11), TicTacToe()]), st.integers(1, 300), st.integers(0, 10_000))
def test_a_move_search_reads_back_equal(game, iterations, seed):
    found = mcts_move(game, game.start(), iterations, make_rng(seed))
    assert move_search_from_json(json.loads(json.dumps(move_search_to_json(game, found))), GAMES) == (game, found)


ENHANCED = [{"rave": 30}, {"rave": 20, "rave_ref": 5}, {"bounds": True}, {"backup": "graph"}, {"root": "gumbel"},
            {"rave": 10, "bounds": True}, {"backup": "graph", "bounds": True}]
"""Option sets whose trees keep the enhancements' statistics (RAVE's amaf, bounds, the graph's edges) or a root rule."""

ENHANCED_GAMES = [TicTacToe(), Nim(heap=9), Kayles(pins=(6,)), ShutTheBox(levers=5), Pig(goal=10)]


def _decision(game):
    """The start, or the first outcome of its chance (a root rule needs a decision)."""
    start = game.start()
    return start if game.to_move(start) is not CHANCE else game.play(start, game.chance_outcomes(start)[0][0])


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(ENHANCED_GAMES), st.sampled_from(ENHANCED), st.integers(0, 300), st.integers(1, 200),
       st.integers(0, 10_000))
@pytest.mark.slow
def test_an_enhanced_tree_saved_and_read_back_continues_as_the_unsaved_one(game, options, first, more, seed):
    state = _decision(game)
    tree = search(game, state, first, make_rng(seed), **options)
    text = json.dumps(tree_to_json(game, tree))
    back_game, back = tree_from_json(json.loads(text), GAMES)
    assert back_game == game and back == tree
    assert json.dumps(tree_to_json(back_game, back)) == text  # the same tree writes the same file
    kept = {"amaf": "rave" in options, "bounds": options.get("bounds", False), "graph": options.get("backup") == "graph"}
    if first >= 10:  # the records keep what the options keep (bounds from the second dive), and the file holds it
        assert all((key in tree[state]) == on for key, on in kept.items())
    continued = search(game, state, more, make_rng(seed + 1), tree, **options)
    assert search(game, state, more, make_rng(seed + 1), back, **options) == continued


@settings(max_examples=10, deadline=None)
@given(st.sampled_from(ENHANCED_GAMES), st.sampled_from(ENHANCED), st.integers(1, 200), st.integers(0, 10_000))
def test_an_enhanced_move_search_reads_back_equal(game, options, iterations, seed):
    found = mcts_move(game, _decision(game), iterations, make_rng(seed), **options)
    assert move_search_from_json(json.loads(json.dumps(move_search_to_json(game, found))), GAMES) == (game, found)


def test_an_enhanced_tree_saves_to_a_file(tmp_path):
    game = TicTacToe()
    tree = search(game, game.start(), 200, make_rng(1), rave=30, bounds=True)
    assert load_tree(save_tree(game, tree, tmp_path / "tree.json"), GAMES) == (game, tree)


def _enhanced():
    game = TicTacToe()
    data = tree_to_json(game, search(game, game.start(), 60, make_rng(1), rave=30, bounds=True))
    graphed = tree_to_json(game, search(game, game.start(), 60, make_rng(1), backup="graph"))
    root = next(rec for state, rec in data["states"] if state == data["root"])
    return data, root, next(rec for state, rec in graphed["states"] if state == graphed["root"])


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda rec, g: rec["amaf"].append(rec["amaf"][0]), "counts player 0's move 0 twice"),
        (lambda rec, g: rec["amaf"][0].__setitem__(2, 0), "'amaf' must be a list of"),
        (lambda rec, g: rec["amaf"][0].__setitem__(0, 2), "'amaf' must be a list of"),
        (lambda rec, g: rec["amaf"][0].__setitem__(1, {"colour": 1}), "not a move's JSON form"),
        (lambda rec, g: rec.update(amaf={}), "'amaf' must be a list of"),
        (lambda rec, g: rec.update(bounds=[["1/1", "-1/1"], ["-1/1", "1/1"]]), "the first no greater than the second"),
        (lambda rec, g: rec.update(bounds=[["1/0", "1/1"], ["1/1", "1/1"]]), "'bounds' must be"),
        (lambda rec, g: rec.update(graph=g["graph"][:1]), "'graph' must be"),
        (lambda rec, g: rec.update(graph=[g["graph"][0], [[[9, 9], 1, 0]]]), "an edge of 'graph': not a state of"),
        (lambda rec, g: rec.update(graph=[g["graph"][0], g["graph"][1] + g["graph"][1][:1]]), "the edge to .* twice"),
        (lambda rec, g: rec.update(graph=[g["graph"][0], [g["graph"][1][0][:2] + [-1]]]), "'graph' must be"),
    ],
)
def test_a_damaged_enhanced_record_is_named_with_its_problem(change, message):
    data, root, graphed = _enhanced()
    change(root, graphed)
    with pytest.raises(ValueError, match=message):
        tree_from_json(data, GAMES)


def _good():
    game = TicTacToe()
    return move_search_to_json(game, mcts_move(game, game.start(), 50, make_rng(1)))


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: d.update(version=2), "unsupported fnmcts-move-search version 2"),
        (lambda d: d.update(format="fnmcts-q-table"), "not a saved move search"),
        (lambda d: d.update(game={"name": "chess"}), "unknown game 'chess'"),
        (lambda d: d.update(game={"name": "nim", "heap": -3}), "bad parameters for game 'nim'"),
        (lambda d: d.pop("states"), "the file lacks 'states'"),
        (lambda d: d["states"].append(d["states"][0]), "appears twice"),
        (lambda d: d["states"][0].__setitem__(0, [9, 9]), "state 0: not a state of"),
        (lambda d: d["states"][0][1].update(win=1.5), "'win' must be a whole number"),
        (lambda d: d["states"][0][1].update(score=float("nan")), "'score' must be a finite number"),
        (lambda d: d["states"][0][1].update(colour=1), "unknown record keys"),
        (lambda d: d["states"][0][1].update(proven=["1/0", "1"]), "'proven' must be a list of 2 fractions"),
        (lambda d: d.update(move=9), "not a legal move at the root"),
        (lambda d: d.update(iterations=-1), "'iterations' must be a whole number"),
    ],
)
def test_a_damaged_file_is_named_with_its_problem(tmp_path, change, message):
    data = _good()
    change(data)
    path = tmp_path / "move.json"
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match=message) as error:
        load_search(path, GAMES)
    assert str(path) in str(error.value)


def test_saving_is_atomic_and_refuses_a_folder(tmp_path):
    game = Nim(heap=7)
    tree = search(game, game.start(), 100, make_rng(1))
    path = save_tree(game, tree, tmp_path / "tree.json")
    assert load_tree(path, GAMES) == (game, tree)
    with pytest.raises(ValueError, match="is a directory"):
        save_tree(game, tree, tmp_path)
    found = mcts_move(game, game.start(), 100, make_rng(1))
    assert load_search(save_search(game, found, tmp_path / "m.json"), GAMES) == (game, found)
    with pytest.raises(ValueError, match="not JSON"):
        (tmp_path / "bad.json").write_text("[1,")
        load_tree(tmp_path / "bad.json", GAMES)


def _run(capsys, *args):
    code = main(["search", "shut-the-box", *args, "--json"])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out.strip() else None), err


@settings(max_examples=4, deadline=None)
@given(st.integers(0, 400), st.integers(1, 400), st.integers(0, 10_000), st.integers(20, 80), st.booleans())
def test_a_bounded_search_continued_is_the_uninterrupted_one(first, second, seed, max_nodes, expectimax):
    """What ``--resume`` relies on: the tree and the generator state carry the whole search."""
    game, backup = ShutTheBox(levers=6), "expectimax" if expectimax else "mean"
    rng = make_rng(seed)
    half = search(game, game.start(), first, rng, max_nodes=max_nodes, backup=backup)
    _, saved = tree_from_json(json.loads(json.dumps(tree_to_json(game, half))), GAMES)
    resumed = search(game, game.start(), second, rng, saved, max_nodes=max_nodes, backup=backup)
    assert resumed == search(game, game.start(), first + second, make_rng(seed), max_nodes=max_nodes, backup=backup)


@pytest.mark.slow
def test_a_resumed_search_ends_with_the_tree_of_an_uninterrupted_run(tmp_path, capsys):
    extra = ["--ucb", "ucb1", "--c", "0.5", "--max-nodes", "200"]
    one, two, whole = (str(tmp_path / name) for name in ("one.json", "two.json", "whole.json"))
    code, first, _ = _run(capsys, "--dives", "700", "--seed", "4", "--save", one, *extra)
    assert code == 0 and first["dives"] == 700
    code, resumed, _ = _run(capsys, "--resume", one, "--dives", "2000", "--save", two)
    assert code == 0 and resumed["dives"] == 2000 and resumed["resumed_from"] == one
    code, full, _ = _run(capsys, "--dives", "2000", "--seed", "4", "--save", whole, *extra)
    saved, uninterrupted = json.loads(open(two).read()), json.loads(open(whole).read())
    assert saved["states"] == uninterrupted["states"] and saved["search"] == uninterrupted["search"]
    assert {k: v for k, v in resumed.items() if k not in ("seconds", "dives_per_s", "resumed_from", "saved_to")} == {
        k: v for k, v in full.items() if k not in ("seconds", "dives_per_s", "resumed_from", "saved_to")
    }


@pytest.mark.slow
def test_resume_refuses_what_it_cannot_continue(tmp_path, capsys):
    saved = str(tmp_path / "s.json")
    assert _run(capsys, "--dives", "300", "--seed", "1", "--save", saved)[0] == 0
    code, _, err = _run(capsys, "--resume", saved, "--seed", "2")
    assert code == 2 and "drop --seed" in err
    code, _, err = _run(capsys, "--resume", saved, "--dives", "100")
    assert code == 2 and "run 300 dives already" in err
    save_tree(Nim(), {}, tmp_path / "nim.json")
    code, _, err = _run(capsys, "--resume", str(tmp_path / "nim.json"))
    assert code == 2 and "holds no saved Shut the Box search" in err
    code, _, err = _run(capsys, "--resume", str(tmp_path / "missing.json"))
    assert code == 2 and "cannot resume" in err
    data = json.loads(open(saved).read())
    data["search"]["rng"]["state"] = [1, 2, 3]
    (tmp_path / "bad.json").write_text(json.dumps(data))
    code, _, err = _run(capsys, "--resume", str(tmp_path / "bad.json"))
    assert code == 2 and "damaged" in err
    code, _, err = _run(capsys, "--dives", "10", "--save", str(tmp_path / "no" / "x.json"))
    assert code == 2 and "does not exist" in err


@pytest.mark.slow
def test_a_time_budget_and_a_bound_on_the_tree(capsys):
    code, result, _ = _run(capsys, "--dives", "1e9", "--seconds", "0.5", "--seed", "1", "--max-nodes", "40")
    assert code == 0 and 0 < result["dives"] < 10**9 and result["states"] <= 40


@pytest.mark.slow
def test_ctrl_c_ends_the_search_with_the_tree_so_far_saved_and_resumable(tmp_path, capsys):
    saved = tmp_path / "cut.json"
    code, out, err = _interrupt(
        # without the solver: it would prove the root of Shut the Box in a few thousand dives and stop there
        ["search", "shut-the-box", "--dives", "1e9", "--seed", "3", "--no-solver", "--save", str(saved), "--json"],
        tmp_path, signal.SIGINT, group=False, cpu=2.0,
    )
    assert code == 130 and "the result above is partial" in err
    result = json.loads(out)
    assert result["partial"] and result["signal"] == "SIGINT" and 0 < result["dives"] < 10**9
    done = result["dives"]
    assert json.loads(saved.read_text())["search"]["done"] == done
    code, resumed, _ = _run(capsys, "--resume", str(saved), "--dives", str(done + 100))
    assert code == 0 and resumed["dives"] == done + 100 and "partial" not in resumed
