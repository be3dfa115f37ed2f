"""A game file named the way a new user first names it: the file itself, ``file.py:Class``, a class missing hooks."""

from __future__ import annotations

import pytest

from cli_run import run, write_user_game


@pytest.mark.parametrize("verb", ["check", "solve", "simulate"])
@pytest.mark.parametrize("given", ["mygame.py", "./mygame.py"])
def test_a_game_file_given_as_the_game_names_module_colon_class(tmp_path, monkeypatch, capsys, verb, given):
    write_user_game(tmp_path, monkeypatch, "mygame")
    code, out, err = run(capsys, verb, given)
    assert code == 2 and not out and "Traceback" not in err
    assert "(a file: name a game in it as mygame:TakeAway" in err and len(err.strip().splitlines()) == 1


def test_a_game_file_elsewhere_says_to_run_from_its_folder(tmp_path, monkeypatch, capsys):
    write_user_game(tmp_path, monkeypatch, "mygame")
    monkeypatch.chdir(tmp_path.parent)
    code, _, err = run(capsys, "check", str(tmp_path / "mygame.py"))
    assert code == 2 and "mygame:TakeAway, run from its folder" in err


def test_file_py_colon_class_is_the_module_s_class(tmp_path, monkeypatch, capsys):
    write_user_game(tmp_path, monkeypatch, "mygame")
    assert run(capsys, "simulate", "mygame.py:TakeAway", "--games", "20", "--seed", "3")[1:] == \
        run(capsys, "simulate", "mygame:TakeAway", "--games", "20", "--seed", "3")[1:]
    code, _, err = run(capsys, "check", f"{tmp_path / 'mygame.py'}:TakeAway")
    assert code == 2 and "name the module, not the file" in err and "mygame:TakeAway" in err


@pytest.mark.parametrize(("name", "source", "spec", "told"), [
    ("slip.py", "class Coin:\n    def start(self)\n        return 0\n", "slip.py:Coin",  # a syntax error: the file's
     ("importing 'slip' failed: SyntaxError", "line 2")),
    ("half.py", "class Half:\n    def start(self): return 0\n    def play(self, s, m): return s\n", "half:Half",
     ("it has no to_move, possible_moves, payoff;",)),  # a class without the hooks is told which it lacks
])
def test_a_game_file_that_cannot_be_a_game_is_told_why(tmp_path, monkeypatch, capsys, name, source, spec, told):
    (tmp_path / name).write_text(source)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    code, _, err = run(capsys, "check", spec)
    assert code == 2 and all(text in err for text in told), err


@pytest.mark.parametrize(("argv", "near"), [
    (("tournament", "nim", "random", "randm"), "random"), (("move", "nim", "--ai", "mcst"), "mcts"),
    (("play", "nim", "--ai", "perfet"), "perfect"),
])
def test_a_misspelt_agent_is_told_the_nearest(capsys, argv, near):
    code, _, err = run(capsys, *argv)
    assert code == 2 and f"(did you mean {near!r}?); choose one of" in err and "Traceback" not in err


@pytest.mark.parametrize("spec", ["nim(heap=3", "nim(heap=3))", "mygame:TakeAway(stones=4"])
def test_a_game_whose_parentheses_do_not_match_is_told_so(tmp_path, monkeypatch, capsys, spec):
    write_user_game(tmp_path, monkeypatch, "mygame")
    code, out, err = run(capsys, "solve", spec)
    assert code == 2 and not out and f"{spec}: its parentheses do not match" in err and "unknown game" not in err
