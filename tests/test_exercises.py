"""The exercises' checkers: each passes the library's answers and fails wrong ones, naming the input."""

from __future__ import annotations

import ast
import math
import random
import subprocess
import sys
from types import SimpleNamespace

import pytest
from pyrsistent import pmap

from fnmcts import exercises
from fnmcts.cli import main
from fnmcts.exercises import check, solution, text
from fnmcts.games.shut_the_box import rules
from fnmcts.mcts import ucb
from fnmcts.rng import dice_roll



def with_(n, **changes):
    """The library's answer to exercise ``n`` with some functions replaced by wrong ones."""
    return SimpleNamespace(**{**vars(solution(n)), **changes})


def failed(result, name):
    """The failure line of the check ``name`` (the check must have failed); ``result`` may be a pair (n, answers)."""
    if isinstance(result, tuple):
        result = check(*result, only=[name])
    verdict = {v.name: v for v in result.verdicts}[name]
    assert not verdict.passed, f"{name} passed"
    return str(verdict.failure)


@pytest.mark.slow
@pytest.mark.parametrize("n", [n for n, _, _ in exercises.exercises()])
def test_the_library_passes(n):
    names = [c.name for c in exercises.checkers.checks(n) if c.name != "uct_learns"]  # the 10,000 dives: slow, below
    result = check(n, solution(n), only=names)
    assert result.passed, str(result)
    assert all(str(v).startswith(":) ") for v in result.verdicts)


@pytest.mark.slow
@pytest.mark.parametrize("n", [n for n, _, _ in exercises.exercises()])
def test_the_unwritten_file_is_not_written_yet(n):
    result = check(n, exercises.text_module(n))
    assert result.failures() == result.verdicts
    assert any("not written yet" in str(v.failure) for v in result.failures())


def test_exercise_files_import_nothing_of_fnmcts():
    for n, name, _ in exercises.exercises():
        tree = ast.parse(text(n))
        for node in ast.walk(tree):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            assert not any(m.split(".")[0] == "fnmcts" for m in names), (name, names)
        assert "raise NotImplementedError" in text(n)
        assert ast.get_docstring(tree).startswith(f"Exercise {n}: "), name
        assert ("the Nim notebook" if n == 14 else f"the Clojure tutorial, task {n})") in ast.get_docstring(tree), name


# -- wrong answers, at least three per exercise, each failing with its own message ----------

def test_task01_wrong():
    assert failed((1, with_(1, is_win=lambda t: t[0] ** 2 + t[1] ** 2 <= 1)), "is_win") == \
        "is_win((-1.0, 0.0)): expected False, got True"
    swapped = with_(1, throw_dart=lambda rng: tuple(reversed((rng.random() * 2 - 1, rng.random() * 2 - 1))))
    assert failed((1, swapped), "throw_dart").startswith("throw_dart(rng drawing 0.25 then 0.75): expected (-0.5, 0.5)")
    unscaled = with_(1, throw_dart=lambda rng: (rng.random(), rng.random()))
    assert "expected (-0.5, 0.5), got (0.25, 0.75)" in failed((1, unscaled), "throw_dart")
    times4 = with_(1, simulate=lambda n, rng: 4 * solution(1).simulate(n, rng))
    assert failed((1, times4), "simulate") == "simulate(100, rng always drawing 0.5): expected 1.0, got 4.0"


def test_task02_wrong():
    assert "roll 12 can be played" in failed((2, with_(2, losing_game=lambda: [(12, None)])), "losing_game")
    assert failed((2, with_(2, winning_game=lambda: [(3, (1, 2))])), "winning_game").startswith(
        "winning_game(): the game stops with levers")
    assert "flipping (2, 2) is not a move" in failed((2, with_(2, winning_game=lambda: [(4, (2, 2))])), "winning_game")


def test_task03_wrong():
    assert failed((3, with_(3, state_count=lambda: 512 * 12)), "state_count") == "state_count(): expected 5632, got 6144"
    assert failed((3, with_(3, sample_box=lambda: frozenset({1, 3, 6}))), "sample_box").startswith("sample_box(): expected")
    assert "dice_roll(rng), the rate of 2 in 36,000 rolls: expected 0.0278 +- 0.0044, got 0.0902" == failed((3, with_(3, dice_roll=lambda rng: rng.randint(2, 12))), "dice_roll")
    assert "got 1" in failed((3, with_(3, dice_roll=lambda rng: rng.randint(1, 12))), "dice_roll")


def test_task04_wrong():
    def off_by_one(box, roll):
        return {box - {roll - 1}} if roll - 1 in box else set()

    line = failed((4, with_(4, possible_moves=off_by_one)), "possible_moves")
    assert line == "possible_moves({1}, 2): expected frozenset(), got {frozenset()}"
    as_box = with_(4, possible_moves=lambda box, roll: box - {roll} if roll in box else set())
    assert failed((4, as_box), "returns_set") == \
        "possible_moves({2, 4, 5, 7, 8, 9}, 9): expected a set of boxes (frozensets), got frozenset({2, 4, 5, 7, 8})"
    as_list = with_(4, possible_moves=lambda box, roll: [box - {roll}] if roll in box else [])
    assert failed((4, as_list), "returns_set") == "possible_moves({2, 4, 5, 7, 8, 9}, 9): expected a set, got list"

    def raises(box, roll):
        return {box.remove(roll)}

    assert failed((4, with_(4, possible_moves=raises)), "possible_moves") == \
        "possible_moves(frozenset(), 2): raised AttributeError: 'frozenset' object has no attribute 'remove'"


def test_task05_wrong():
    assert failed((5, with_(5, start_box=lambda: rules.start_box)), "start_box").startswith("start_box(): expected")

    def plays_on(box, rolls):  # does not stop at a loss
        seen = [box]
        for roll in rolls:
            box = box - {roll}
            seen.append(box)
        return seen

    assert failed((5, with_(5, play_rolls=plays_on)), "play_rolls").startswith("play_rolls(frozenset(), [2, 2])")

    def no_start(box, rolls):
        return solution(5).play_rolls(box, rolls)[1:]

    assert "expected [frozenset()], got []" in failed((5, with_(5, play_rolls=no_start)), "play_rolls")


def test_task06_wrong():
    never = with_(6, play_game=lambda box, rng: "loss")
    assert failed((6, never), "ends") == "play_game(frozenset(), rng): expected 'win', got 'loss'"
    uniform = with_(6, play_game=lambda box, rng: _simplified(box, lambda: rng.randint(2, 12)))
    assert failed((6, uniform), "win_rate") == "play_game({7}, rng), the rate won in 4,000 games: expected 0.1667 +- 0.0297, got 0.0900"
    boolean = with_(6, play_game=lambda box, rng: not box)
    assert failed((6, boolean), "ends") == "play_game(frozenset(), rng): expected 'win', got True"


def _simplified(box, roll):
    while box:
        r = roll()
        if r not in box:
            return "loss"
        box = box - {r}
    return "win"


def test_task07_wrong():
    counts = with_(7, simulate=lambda n, rng, box=None: n * solution(7).simulate(n, rng, box))
    assert failed((7, counts), "ends") == "simulate(50, rng, frozenset()): expected 1.0, got 50.0"
    start_only = with_(7, simulate=lambda n, rng, box=None: solution(7).simulate(n, rng, None))
    assert failed((7, start_only), "ends").startswith("simulate(50, rng, frozenset()): expected 1.0, got 0.0")
    loss_rate = with_(7, simulate=lambda n, rng, box=None: 1 - solution(7).simulate(n, rng, box))
    assert failed((7, loss_rate), "estimate").startswith("simulate(4000, rng, {7}): expected 0.1667 +- 0.0297, got 0.8")


def test_task08_wrong():
    no_empty = with_(8, levers_for_roll=lambda roll: rules.levers_for_roll(roll) if roll else ())
    assert failed((8, no_empty), "levers_for_roll") == "levers_for_roll(0): expected [[]], got ()"

    def pairs_only(box, roll):
        return {box - {a, roll - a} for a in box if roll - a in box and a < roll - a} | ({box - {roll}} if roll in box else set())

    assert "possible_moves({1, 2, 3}, 6)" in failed((8, with_(8, possible_moves=pairs_only)), "possible_moves")

    def first_move(box, rng):
        while box:
            moves = rules.ordered_moves(box, dice_roll(rng))
            if not moves:
                return "loss"
            box = moves[0]
        return "win"

    assert failed((8, with_(8, play_game=first_move)), "random_choice").startswith(
        "play_game({1, 2, 3, 4, 5, 6, 8}, rng), the rate won in 20,000 games: expected 0.0631 +- 0.0086, got 0.10")


def test_task09_wrong():
    def ignores_choice(box, rng, choose):
        while box:
            moves = list(rules.ordered_moves(box, dice_roll(rng)))
            if not moves:
                return "loss"
            choose(box, 0, moves)
            box = moves[0]
        return "win"

    assert "and roll 0" in failed((9, with_(9, play_game_user=ignores_choice)), "choose")

    def plays_first(box, rng, choose):
        while box:
            roll = dice_roll(rng)
            moves = list(rules.ordered_moves(box, roll))
            if not moves:
                return "loss"
            choose(box, roll, moves)
            box = moves[0]
        return "win"

    assert "of choose got box" in failed((9, with_(9, play_game_user=plays_first)), "choose")

    def always_loss(box, rng, choose):
        solution(9).play_game_user(box, rng, choose)
        return "loss"

    assert "expected 'win', got 'loss'" in failed((9, with_(9, play_game_user=always_loss)), "choose")


def test_task10_wrong():
    from itertools import combinations

    no_empty = with_(10, all_boxes=lambda: [frozenset(c) for k in range(1, 10) for c in combinations(range(1, 10), k)])
    assert failed((10, no_empty), "all_boxes") == "all_boxes(): expected the 512 boxes once each, got 511 items, [] missing"
    percent = with_(10, win_probability=lambda box, n, rng: 100 * solution(10).win_probability(box, n, rng))
    assert failed((10, percent), "win_probability") == "win_probability(frozenset(), 50, rng): expected 1.0, got 100.0"
    optimal = solution(12).solve()
    best = with_(10, lookup_table=lambda n, rng: {b: float(optimal[b]) for b in rules.all_boxes()})
    assert failed((10, best), "lookup_table").startswith("lookup_table(200, rng): the 512 rates add up to")


def _impure_uct(tree, box, rng):
    new, result = solution(11).uct(pmap(tree), box, rng)
    if isinstance(tree, dict):
        tree[box] = dict(new[box])
    return new, result


def test_task11_ucb_wrong():
    def zero_at_n0(rec):
        n = rec.get("win", 0) + rec.get("loss", 0)
        return 0.0 if n == 0 else ucb(rec)

    assert failed((11, with_(11, ucb=zero_at_n0)), "ucb") == "ucb({'win': 0, 'loss': 0}): expected inf, got 0.0"

    def no_rule_of_3(rec):
        w, n = rec.get("win", 0), rec.get("win", 0) + rec.get("loss", 0)
        return math.inf if n == 0 else (w + 2 * math.sqrt(w * (n - w) / n)) / n

    assert failed((11, with_(11, ucb=no_rule_of_3)), "ucb") == "ucb({'win': 0, 'loss': 1}): expected 3.0, got 0.0"

    def wrong_z(rec):
        w, n = rec.get("win", 0), rec.get("win", 0) + rec.get("loss", 0)
        return ucb(rec) if w in (0, n) else (w + math.sqrt(w * (n - w) / n)) / n

    assert failed((11, with_(11, ucb=wrong_z)), "ucb") == \
        "ucb({'win': 1, 'loss': 1}): expected 1.2071067811865475, got 0.8535533905932737"


@pytest.mark.slow
def test_task11_uct_wrong():
    assert failed((11, with_(11, uct=_impure_uct)), "uct_pure") == \
        "uct(tree after 0 dives, full box, rng): changed the tree it was given (build and return a new one)"
    backwards = with_(11, uct=lambda tree, box, rng: tuple(reversed(solution(11).uct(tree, box, rng))))
    assert failed((11, backwards), "uct_shape").startswith("uct({}, full box, rng): expected a result 'win' or 'loss'")

    def no_backup(tree, box, rng):
        new, result = solution(11).uct(tree, box, rng)
        return (new.set(box, tree[box]) if box in tree else new), result

    assert failed((11, with_(11, uct=no_backup)), "uct_records").startswith("uct, 300 dives: the full box's record")


@pytest.mark.slow
def test_task11_learning_fails_a_random_search():
    def random_dive(tree, box, rng):  # grows the tree like uct, but dives at random: nothing is learned
        if box not in tree:
            result = rules.play_game(box, rng)
            return pmap(tree).set(box, {"win": int(result == "win"), "loss": int(result == "loss")}), result
        moves = rules.ordered_moves(box, dice_roll(rng)) if box else ()
        if not box:
            result = "win"
        elif not moves:
            result = "loss"
        else:
            tree, result = random_dive(tree, moves[int(rng.random() * len(moves))], rng)
        rec = dict(tree[box])
        rec[result] = rec.get(result, 0) + 1
        return pmap(tree).set(box, rec), result

    line = failed((11, with_(11, uct=random_dive)), "uct_learns")
    assert line.startswith("uct, 10,000 dives: the best-record policy's exact value is 0.0")


@pytest.mark.slow
def test_task11_the_library_learns():
    result = check(11, solution(11), only=["uct_learns"])
    assert result.passed, str(result)


def test_task12_wrong():
    uniform = with_(12, roll_probability=lambda r: 1 / 11 if 2 <= r <= 12 else 0)
    assert failed((12, uniform), "roll_probability").startswith("roll_probability(2): expected Fraction(1, 36), got 0.0909")
    random_play = with_(12, solve=exercises.solutions.random_values)
    assert failed((12, random_play), "solve") == "solve()[{1, 2, 3, 4}]: expected Fraction(2293, 15552), got Fraction(6857, 46656)"
    partial = with_(12, solve=lambda: {b: v for b, v in solution(12).solve().items() if b})
    assert failed((12, partial), "solve") == "solve(): box [] is missing"


def test_task13_wrong():
    def worst(values):
        table = {}
        for box in rules.all_boxes():
            for roll in range(2, 13):
                moves = rules.ordered_moves(box, roll)
                if moves:
                    table[box, roll] = min(moves, key=values.__getitem__)
        return table

    assert failed((13, with_(13, optimal_moves=worst)), "optimal_moves") == \
        "optimal_moves(solve())[{1, 2, 3, 4}, 3]: expected frozenset({1, 2, 4}), got frozenset({3, 4})"
    with_losses = with_(13, optimal_moves=lambda v: {**solution(13).optimal_moves(v), (frozenset({1}), 5): frozenset({1})})
    assert "has no move: leave it out" in failed((13, with_losses), "optimal_moves")
    assert failed((13, with_(13, table_lines=lambda t: "\n".join(map(str, t)))), "table_lines").startswith(
        "table_lines(table): expected ")


def test_task14_wrong():
    assert failed((14, with_(14, random_agent=lambda h, k, rng: rng.randint(1, k))), "random_agent") == \
        "random_agent(1, 2, rng): took 2: legal are [1]"
    assert failed((14, with_(14, random_agent=lambda h, k, rng: 1)), "random_agent") == \
        "random_agent(2, 2, rng) in 200 calls: expected [1, 2], got [1]"
    normal_play = with_(14, perfect_agent=lambda h, k: (h % (k + 1)) or 1)  # taking the last stick wins: the other game
    assert failed((14, normal_play), "perfect_agent") == "perfect_agent(2, 2): expected 1, got 2"
    zero_when_lost = with_(14, perfect_agent=lambda h, k: (h - 1) % (k + 1))
    assert failed((14, zero_when_lost), "perfect_agent") == "perfect_agent(1, 1): took 0: legal are [1]"


def test_a_student_error_is_one_line_on_its_input():
    result = check(4, with_(4, possible_moves=lambda box, roll: 1 / 0))
    assert str(result).splitlines()[1] == "    possible_moves({2, 4, 5, 7, 8, 9}, 9): raised ZeroDivisionError: division by zero"
    assert "Traceback" not in str(result)


def test_check_reads_a_path(tmp_path):
    good = tmp_path / "mine.py"
    good.write_text("def possible_moves(box, roll):\n    return {box - {roll}} if roll in box else set()\n")
    assert check(4, good).passed and check(4, str(good)).passed
    with pytest.raises(exercises.LoadError, match="no such file"):
        check(4, tmp_path / "missing.py")
    with pytest.raises(ValueError, match="no exercise 15"):
        check(15, good)


# -- the command line ------------------------------------------------------------------------

def test_cli_list_and_show(capsys):
    assert main(["exercise", "list"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == len(exercises.exercises()) and out[3].split()[:2] == ["4", "task04_simplified.py"]
    assert main(["exercise", "show", "11"]) == 0
    assert capsys.readouterr().out == text(11)


def test_cli_check_exit_codes(tmp_path, capsys):
    mine = tmp_path / "mine.py"
    mine.write_text("def possible_moves(box, roll):\n    return {box - {roll}} if roll in box else set()\n")
    assert main(["exercise", "check", "4", str(mine)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        ":) returns_set: possible_moves returns a set of boxes (empty for a loss)",
        ":) possible_moves: possible_moves(box, roll) under the simplified rules (task 4) on all 512 boxes x 11 rolls",
    ]
    mine.write_text("def possible_moves(box, roll):\n    return {box - {roll + 1}} if roll + 1 in box else set()\n")
    assert main(["exercise", "check", "4", str(mine)]) == 1
    assert capsys.readouterr().out.splitlines()[-1] == "    possible_moves({2}, 2): expected frozenset({frozenset()}), got set()"
    mine.write_text("def possible_moves(box, roll)\n    return set()\n")
    assert main(["exercise", "check", "4", str(mine)]) == 2
    err = capsys.readouterr().err
    assert err.strip() == f"fnmcts: error: {mine}, line 1: syntax error: expected ':'" and "Traceback" not in err
    assert main(["exercise", "check", "4", str(tmp_path / "nothing.py")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_cli_json(tmp_path, capsys):
    import json

    assert main(["exercise", "list", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["exercises"][10] == {"number": 11, "file": "task11_mcts.py", "title": "MCTS: ucb and uct"}
    assert main(["exercise", "show", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["text"] == text(2)
    mine = tmp_path / "mine.py"
    mine.write_text("def possible_moves(box, roll):\n    return set()\n")
    assert main(["exercise", "check", "4", str(mine), "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert (data["passed"], [c["passed"] for c in data["checks"]]) == (False, [True, False])
    assert data["checks"][1]["failure"] == "possible_moves({2}, 2): expected frozenset({frozenset()}), got set()"


def test_cli_program_shows_a_file_that_loads():
    out = subprocess.run([sys.executable, "-m", "fnmcts", "exercise", "show", "14"], capture_output=True, text=True, check=True).stdout
    namespace = {}
    exec(compile(out, "task14_nim.py", "exec"), namespace)  # noqa: S102 (the file a student copies)
    with pytest.raises(NotImplementedError):
        namespace["perfect_agent"](5, 3)


def test_fixture_style_helper():
    """``exercises.check`` is what a student's own pytest file calls: one assertion per exercise."""
    result = check(14, solution(14))
    assert result.passed and [v.name for v in result.verdicts] == ["random_agent", "perfect_agent"]
