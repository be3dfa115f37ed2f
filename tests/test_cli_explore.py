"""``fnmcts explore GAME -o page.html`` and the tour's phase-by-phase screen: the library's trace, on a page."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from functools import partial

import pytest

from fnmcts.cli import main
from fnmcts.games import ShutTheBox, TicTacToe
from fnmcts.mcts import ucb1
from fnmcts.views import format_number, page_data, trace
from fnmcts.rng import make_rng

from cli_run import write_user_game


def _embedded(path) -> dict:
    page = path.read_text(encoding="utf-8")
    match = re.search(r'<script id="trace-data" type="application/json">(.*?)</script>', page, re.S)
    return json.loads(match.group(1).replace("<\\/", "</"))


def test_the_page_holds_the_trace_of_the_same_seed(tmp_path, capsys):
    out = tmp_path / "ttt.html"
    assert main(["explore", "tic-tac-toe", "--dives", "30", "--seed", "3", "-o", str(out)]) == 0
    said = capsys.readouterr().out
    assert said.startswith(f"wrote {out}") and "seed 3" in said
    game = TicTacToe()
    expected = page_data(trace(game, game.start(), 30, make_rng(3)),
                         title="TicTacToe() from the start: 30 dives of MCTS, seed 3")
    assert _embedded(out) == json.loads(json.dumps(expected))


def test_a_second_trace_and_where_the_paths_first_differ(tmp_path, capsys):
    out = tmp_path / "two.html"
    assert main(["explore", "tic-tac-toe", "--dives", "40", "--seed", "5", "--vs-rule", "ucb1", "--vs-c", "0.4",
                 "--json", "-o", str(out)]) == 0
    payload = json.loads(capsys.readouterr().out)
    game = TicTacToe()
    a = trace(game, game.start(), 40, make_rng(5), exact=0)
    b = trace(game, game.start(), 40, make_rng(5), rule=partial(ucb1, c=0.4), exact=0)
    assert payload["first_difference"] == a.first_difference(b) == _embedded(out)["difference"]
    assert payload["versus"] == "rule ucb1, c = 0.4, mean backup" and payload["seed"] == 5
    assert [t["label"] for t in _embedded(out)["traces"]] == [
        "the tutorial's ucb, z = 2, mean backup", "UCB1, c = 0.4, mean backup"]


@pytest.mark.slow
def test_search_options_reach_the_trace(tmp_path, capsys):
    out = tmp_path / "stb.html"
    assert main(["explore", "shut-the-box", "--dives", "25", "--seed", "2", "--rule", "ucb1", "--c", "0.2",
                 "--backup", "expectimax", "--solver", "-o", str(out), "--json"]) == 0
    capsys.readouterr()
    game = ShutTheBox()
    t = trace(game, game.start(), 25, make_rng(2), rule=partial(ucb1, c=0.2), backup="expectimax", solver=True)
    data = _embedded(out)["traces"][0]
    assert data["expectimax"] and data["solver"] and data["rule"] == {"name": "ucb1", "k": 0.2}
    assert data == json.loads(json.dumps(page_data(t)["traces"][0]))


def test_a_state_to_search_from(tmp_path, capsys):
    out = tmp_path / "mid.html"
    assert main(["explore", "tic-tac-toe", "--state", "X.O......", "--dives", "10", "--seed", "1", "-o",
                 str(out)]) == 0
    capsys.readouterr()
    data = _embedded(out)
    assert data["title"].startswith("TicTacToe() from state X.O......")
    root = data["traces"][0]["nodes"][data["traces"][0]["root"]]
    assert root["r"].splitlines()[0].startswith("X | 1 | O")


def test_any_game_a_users_own(tmp_path, capsys, monkeypatch):
    spec = write_user_game(tmp_path, monkeypatch, "mygames")
    assert main(["explore", spec, "--dives", "20", "--seed", "1", "-o", "take.html"]) == 0
    capsys.readouterr()
    data = _embedded(tmp_path / "take.html")["traces"][0]
    assert data["exact"] and len(data["dives"]) == 20


def test_an_openspiel_game(tmp_path, capsys):
    pytest.importorskip("pyspiel")
    out = tmp_path / "os.html"
    assert main(["explore", "openspiel:nim(pile_sizes=1;2;3)", "--dives", "15", "--seed", "1", "-o", str(out)]) == 0
    capsys.readouterr()
    assert len(_embedded(out)["traces"][0]["dives"]) == 15


def test_a_trace_s_memory_estimate_counts_the_state_not_what_the_process_holds(monkeypatch):
    # an OpenSpiel state reaches its game, whose functions reach their modules' globals: what other code loaded
    # there (170 MB of caches in a test worker) once counted as a state's bytes and refused a 15-dive trace
    pytest.importorskip("pyspiel")
    import fnmcts.openspiel as adapter
    from fnmcts.views._trace import _dive_bytes

    game = adapter.from_openspiel("nim(pile_sizes=1;2;3)")
    before = _dive_bytes(game, game.start(), 15)
    monkeypatch.setattr(adapter, "_HELD_ELSEWHERE", [[0] * 1000 for _ in range(1000)], raising=False)
    assert _dive_bytes(game, game.start(), 15) == before < 100_000


def test_the_page_can_hold_fewer_dives_and_says_so(tmp_path, capsys):
    out = tmp_path / "few.html"
    assert main(["explore", "nim", "--dives", "50", "--page-dives", "20", "--seed", "1", "-o", str(out)]) == 0
    said = capsys.readouterr().out
    assert "the page holds the first 20 of 50 dives" in said
    assert len(_embedded(out)["traces"][0]["dives"]) == 20


@pytest.mark.parametrize(
    "argv, words",
    [
        (["explore", "chess"], "unknown game 'chess'"),
        (["explore", "tic-tac-toe", "--state", "12"], "tic-tac-toe state"),
        (["explore", "tic-tac-toe", "--state", "XXXOO...."], "nothing to search"),
        (["explore", "tic-tac-toe", "--dives", "1e8"], "at most 111,957 dives fit; --force goes on regardless"),
        (["explore", "tic-tac-toe", "--c", "0.4"], "--c is UCB1's constant"),
        # the search flags are every searching verb's (SearchOptions' fields): their messages too
        (["explore", "tic-tac-toe", "--vs-z", "0.5", "--vs-rule", "ucb1"], "--vs-z belongs to the tutorial's ucb"),
        (["explore", "tic-tac-toe", "--vs-rule", "tutorial"], "the same search as the first"),
        (["explore", "tic-tac-toe", "--z", "-1"], "argument --z: expected a finite number, 0 or more, got '-1'"),
        (["explore", "mygames_that_are_not_there:X"], "cannot import"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys, argv, words):
    out = tmp_path / "page.html"
    try:
        code = main(argv + ["-o", str(out)])
    except SystemExit as exit_:  # argparse refuses a bad flag value as it parses
        code = exit_.code
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith(("fnmcts: error: ", "fnmcts explore: error: ")) and words in err and err.count("\n") == 1
    assert not out.exists()


def test_a_target_that_cannot_be_written_fails_before_the_search(tmp_path, capsys):
    assert main(["explore", "tic-tac-toe", "-o", str(tmp_path / "missing" / "p.html")]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_the_command_runs_as_a_program(tmp_path):
    out = tmp_path / "p.html"
    run = subprocess.run([sys.executable, "-m", "fnmcts", "explore", "nim", "--dives", "10", "--seed", "4",
                          "-o", str(out)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


# -- the tour's screen: the page's numbers, in the terminal --------------------------------------


@pytest.mark.slow
def test_the_tour_shows_the_numbers_the_page_shows_for_the_same_seed(capsys):
    assert main(["tour", "--task", "trace"]) == 0
    out = capsys.readouterr().out
    assert "fnmcts explore shut-the-box --dives 200 --seed 2017 -o shut.html" in out
    game = ShutTheBox()
    data = page_data(trace(game, game.start(), 200, make_rng(2017)))["traces"][0]
    nodes = data["nodes"]
    row = re.compile(r"^  (.+?)\s+visits (\d+)  mean (\S+) \+ bonus (\S+) = score (\S+)  exact (\S+)")
    for k in (2, 200):
        screen = out.split(f"\ndive {k}\n")[1].split("\n\n")[0].splitlines()
        shown = [row.match(line).groups() for line in screen if row.match(line)]
        kids = [kid for step in data["dives"][k - 1]["steps"] if len(step["k"]) > 1 for kid in step["k"]]
        assert shown and len(shown) == len(kids)
        for (move, visits, m, b, s, x), kid in zip(shown, kids):
            number = lambda v: format_number(float("inf") if v == "inf" else v)  # noqa: E731
            assert (move, int(visits), m, b, s, x) == (
                kid[5], kid[1], number(kid[2]), number(kid[3]), number(kid[4]), number(nodes[kid[0]]["x"]))
        backups = [line for line in screen if line.startswith("backup: ")]
        assert len(backups) == len(data["dives"][k - 1]["back"])
