"""``fnmcts check --game SPEC`` and ``--game SPEC`` for play, move, solve and tournament."""

import json
from pathlib import Path

import pytest

from fnmcts.cli import main
from fnmcts.testing import LAWS

BROKEN = '''
from dataclasses import dataclass
from fnmcts import GameBase

@dataclass(frozen=True)
class TakeAway(GameBase):
    stones: int = 6
    greedy: bool = False
    num_players = 2
    def start(self): return (self.stones, 0)
    def to_move(self, state): return state[1] if state[0] else None
    def possible_moves(self, state):
        return (1, 2) if self.greedy and state[0] else tuple(m for m in (1, 2) if m <= state[0])
    def play(self, state, move):
        if move > state[0]: raise ValueError(f"cannot take {move} from {state[0]}")
        return (state[0] - move, 1 - state[1])
    def payoff(self, state): return (-1, 1) if state[1] == 0 else (1, -1)

GREEDY = TakeAway(greedy=True)
'''


@pytest.fixture
def user_module(tmp_path, monkeypatch):
    (tmp_path / "my_takeaway.py").write_text(BROKEN)
    monkeypatch.chdir(tmp_path)
    yield "my_takeaway"


def _json(capsys, argv):
    status = main(argv)
    return status, json.loads(capsys.readouterr().out)


def test_check_passes_a_users_own_game(user_module, capsys):
    status, report = _json(capsys, ["check", "--game", f"{user_module}:TakeAway", "--examples", "20", "--json"])
    assert status == 0 and report["passed"] and "solver_recursion" in report["laws"]


def test_check_finds_the_bug_in_a_users_game_and_shows_the_shortest_walk(user_module, capsys):
    status, report = _json(capsys, ["check", "--game", f"{user_module}:GREEDY", "--examples", "30", "--json"])
    assert status == 1 and not report["passed"]
    assert "moves_stable_and_legal" in report["failure"] and "moves from the start: (1, 2, 2)" in report["failure"]


@pytest.mark.slow
def test_check_a_built_in_game_by_name(capsys):
    assert main(["check", "--game", "tic-tac-toe", "--examples", "5", "--agents", "random"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("TicTacToe(): every law holds") and "agents_legal" in out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["check", "--game", "chess"], "unknown game 'chess'"),
        (["check", "--game", "no_such_module_here:Game"], "cannot import 'no_such_module_here'"),
        (["check", "--game", "fnmcts.games:Nope"], "module 'fnmcts.games' has no 'Nope'"),
        (["check", "--game", "fnmcts.rng:make_rng"], "is not a game of the fnmcts protocol"),
        (["check", "--game", "nim", "--agents", "random,wizard"], "unknown agent 'wizard'"),
        (["play", "--game", "chess"], "unknown game 'chess'"),
    ],
)
def test_bad_games_are_one_line_errors(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_move_and_solve_take_a_built_in_game_with_game(capsys):
    assert main(["move", "--game", "tic-tac-toe", "--state", "010001002", "--ai", "exact"]) == 0
    assert capsys.readouterr().out == "exact: O at 6\n"
    status, report = _json(capsys, ["solve", "--game", "tic-tac-toe", "--json"])
    assert status == 0 and report["winner"] == "draw"


# -- OpenSpiel's games (the openspiel extra) -------------------------------------------------


@pytest.fixture
def openspiel():
    pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: pip install 'fnmcts[openspiel]'")


def test_check_an_openspiel_game(openspiel, capsys):
    status, report = _json(capsys, ["check", "--game", "openspiel:nim(pile_sizes=1;2)", "--examples", "5", "--json"])
    assert status == 0 and report["passed"] and report["max_steps"] == 3 + 0  # OpenSpiel's bound: 3 moves


def test_openspiel_refusals_and_bad_parameters_are_one_line_errors(openspiel, capsys):
    for argv, message in [
        (["check", "--game", "openspiel:kuhn_poker"], "imperfect information"),
        (["play", "--game", "openspiel:goofspiel"], "simultaneous moves"),
        (["solve", "--game", "openspiel:nim(heaps=3)"], "has no parameter 'heaps'"),
        (["move", "--game", "openspiel:tic_tac_toe", "--state", "4,4"], "action 4 at step 2 is not legal"),
        (["play", "--game", "openspiel:pig(players=3)"], "play plays games of one or two players"),
    ]:
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1, err
    # where chance moves (a roll), move draws it with the seed and the agent plays after it
    assert main(["move", "--game", "openspiel:pig", "--state", "0", "--ai", "random", "--seed", "3"]) == 0
    assert capsys.readouterr().out.startswith("chance: Roll ")


@pytest.mark.slow
def test_move_solve_and_tournament_on_openspiel_games(openspiel, capsys):
    status, report = _json(capsys, ["move", "--game", "openspiel:tic_tac_toe", "--state", "[0, 3, 1, 4]",
                                    "--ai", "mcts", "--dives", "200", "--seed", "1", "--json"])
    assert status == 0 and report["move"] == 2 and report["describe"] == "x(0,2)"  # X completes the top row
    status, report = _json(capsys, ["solve", "--game", "openspiel:nim(pile_sizes=1;2;3,is_misere=False)", "--json"])
    assert status == 0 and report["winner"] == "other"  # nim-sum 0: the player to move loses
    status, report = _json(capsys, ["solve", "--game", "openspiel:pig(winscore=4,diceoutcomes=3,horizon=6)",
                                    "--state", "0", "--json"])
    assert status == 0 and report["to_move"] == "chance" and report["value_exact"] == ["8/27", "-8/27"]
    status, report = _json(capsys, ["tournament", "mcts", "random", "--game", "openspiel:tic_tac_toe",
                                    "--games", "6", "--dives", "300", "--seed", "1", "--json"])
    assert status == 0 and report["games"] == 6 and report["wins"]["2"] == 0


def test_play_an_openspiel_game_with_chance_through_stdin(openspiel, monkeypatch, capsys):
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("2\n" * 200))  # always "stop": the dice roll for the agent only
    assert main(["play", "--game", "openspiel:pig(winscore=10)", "--ai", "random", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "Chance: " in out and "games 1, wins " in out


# -- fast and clear: the time said up front, a progress bar on a terminal ------------------------


def test_check_refuses_up_front_what_would_take_minutes_and_says_what_makes_it_quick(monkeypatch, capsys):
    import fnmcts.testing
    from fnmcts.testing import CheckEstimate

    slow = CheckEstimate(1500.0, (("moves_stable_and_legal", 10.0), ("solver_recursion", 1490.0)), 40.0,
                         {"exact_limit": 1000, "max_examples": 20}, 15.0)
    monkeypatch.setattr(fnmcts.testing, "estimate_check", lambda *a, **k: slow)
    assert main(["check", "--game", "nim", "--examples", "5"]) == 2  # refused up front: nothing checked
    captured = capsys.readouterr()
    assert captured.err == ("fnmcts: error: checking Nim(heap=21, max_take=3, misere=True) with these options would "
                            "take about 25 minutes (solver_recursion 25 minutes); --exact-limit 1000 --examples 20 "
                            "make it about 15 s; --force goes on regardless\n")
    assert captured.out == ""
    assert main(["check", "--game", "nim", "--examples", "5", "--force"]) == 0  # --force: said, then checked
    captured = capsys.readouterr()
    assert captured.err == ("fnmcts: checking Nim(heap=21, max_take=3, misere=True) with these options would take "
                            "about 25 minutes (solver_recursion 25 minutes); --exact-limit 1000 --examples 20 make it "
                            "about 15 s; the check goes on (Ctrl-C stops it)\n")
    assert "every law holds" in captured.out


def test_a_quick_check_says_nothing_before_and_reports_its_estimate(capsys):
    status, report = _json(capsys, ["check", "--game", "kayles", "--examples", "5", "--json"])
    assert status == 0 and report["estimate_seconds"] < 60
    assert capsys.readouterr().err == ""


def test_the_progress_bar_counts_every_walk(monkeypatch):
    from fnmcts.cli import _common, check

    seen = []

    class Bar:
        def __init__(self, total, desc, unit):
            seen.append(("total", total))

        def __enter__(self):
            return lambda k: seen.append(("walks", k))

        def __exit__(self, *exc):
            return False

    monkeypatch.setattr(check, "progress_bar", lambda total, desc, unit: Bar(total, desc, unit))
    assert main(["check", "--game", "nim", "--examples", "7", "--force"]) == 0  # never refused on a busy machine
    total = dict(seen[:1])["total"]
    assert total == 7 * len(LAWS) and sum(k for what, k in seen if what == "walks") == total


@pytest.mark.parametrize("fault", ["grow", "loop"])
def test_a_game_that_never_ends_gets_its_verdict_not_a_refusal(capsys, monkeypatch, fault):
    # check estimates its time first and refuses a check estimated past a minute; a game that never ends
    # would be estimated so (every walk runs to --max-steps), so its one playthrough comes first: the verdict
    from pathlib import Path

    monkeypatch.syspath_prepend(str(Path(__file__).parent))
    code = main(["check", f"broken_games:Faulty(fault={fault!r})", "--json"])
    out, err = capsys.readouterr()
    report = json.loads(out)
    assert code == 1 and report["passed"] is False and "--force" not in err
    assert report["failure"].startswith("game law 'playthrough_ends' fails")


SLIPPED = '''
from my_takeaway import TakeAway

class SameMover(TakeAway):
    """Always player 1 to move: every count but who moves stays the same."""
    def to_move(self, state): return 0 if state[0] else None

SAME = SameMover()
'''


@pytest.mark.slow
def test_check_records_a_golden_from_a_trusted_run_and_a_changed_to_move_fails_it(user_module, capsys, tmp_path):
    (tmp_path / "slipped.py").write_text(SLIPPED)
    golden = str(tmp_path / "golden.json")
    status, report = _json(capsys, ["check", "--game", f"{user_module}:TakeAway", "--examples", "5",
                                    "--record-golden", golden, "--json"])
    assert status == 0 and report["recorded_golden"] == golden and "the player to move by ply" in report["pins"]
    data = json.loads((tmp_path / "golden.json").read_text())
    entry = data["counts"][0]
    assert entry["to_move_by_ply"][:3] == [[1, 0], [0, 2], [3, 0]]
    assert data["version"] == 3 and entry["playthrough"][:3] == ["fnmcts playthrough", "game: TakeAway(stones=6, greedy=False)", "seed: 0"]
    assert "one seeded game state by state" in report["pins"]

    assert main(["check", "--game", f"{user_module}:TakeAway", "--examples", "5", "--golden", golden]) == 0
    assert "every number agrees" in capsys.readouterr().out

    status = main(["check", "--game", "slipped:SAME", "--examples", "5", "--golden", golden])
    out, err = capsys.readouterr()
    assert status == 1 and "  my_takeaway:TakeAway: to_move_by_ply: [[1, 0], [0, 2]" in out
    assert [line.split(": ")[1] for line in out.splitlines() if line.startswith("  my_takeaway")] == \
        ["to_move_by_ply"]  # states, histories and outcomes agree: only who moves tells the slip
    assert err.startswith("fnmcts: error: ") and err.count("\n") == 1


def test_recording_a_golden_never_writes_over_a_file_and_a_bad_golden_file_is_one_line(user_module, capsys, tmp_path):
    kept = tmp_path / "kept.json"
    kept.write_text("my notes")
    status = main(["check", "--game", f"{user_module}:TakeAway", "--record-golden", str(kept)])
    _, err = capsys.readouterr()
    assert status == 2 and "exists: the golden is not written over it" in err and kept.read_text() == "my notes"
    status = main(["check", "--game", f"{user_module}:TakeAway", "--examples", "5", "--golden", str(kept)])
    _, err = capsys.readouterr()
    assert status == 2 and "is not a golden file of fnmcts" in err and err.count("\n") == 1


def test_a_missing_or_bad_golden_file_is_refused_before_the_check_runs(user_module, capsys, tmp_path, monkeypatch):
    import fnmcts.cli.check as check_verb

    def never(*args, **kwargs):
        raise AssertionError("the check ran before its golden file was read")

    monkeypatch.setattr(check_verb, "run_check", never)
    bad = tmp_path / "bad.json"
    for text, said in (("my notes", "is not a golden file of fnmcts"), ('{"counts": 3}', "not a list"), (None, "no golden file")):
        if text is not None:
            bad.write_text(text)
        elif bad.exists():
            bad.unlink()
        status = main(["check", "--game", f"{user_module}:TakeAway", "--golden", str(bad)])
        _, err = capsys.readouterr()
        assert status == 2 and said in err and err.count("\n") == 1, err


def test_a_golden_file_replays_its_playthrough_and_names_the_first_line_a_changed_game_plays_otherwise(tmp_path):
    from fnmcts.cli._golden_file import record, verify
    from fnmcts.games import Nim

    where = str(tmp_path / "nim.json")
    entry, said = record(Nim(heap=3), "nim(heap=3)", where, None)
    assert "one seeded game state by state" in said and json.loads(Path(where).read_text())["version"] == 3
    assert verify(Nim(heap=3), where) == ((), ())
    assert verify(Nim(heap=3, misere=False), where) == (  # the same counts: only the playthrough's payoff tells it
        ('nim(heap=3): playthrough of seed 0: line 20: the file says "payoff: -1 1", the game gives "payoff: 1 -1"',),
        ())


def test_an_old_golden_file_still_checks_and_says_it_does_not_pin_who_moves(user_module, capsys, tmp_path):
    import importlib

    from fnmcts.testing import record_golden

    game = importlib.import_module(user_module).TakeAway()
    entry = {k: v for k, v in record_golden(game, "old").items() if k not in ("to_move_by_ply", "chance_by_ply")}
    golden = tmp_path / "old.json"
    golden.write_text(json.dumps({"format": "fnmcts-goldens", "version": 1, "counts": [entry]}))
    status = main(["check", "--game", f"{user_module}:TakeAway", "--examples", "5", "--golden", str(golden)])
    out, err = capsys.readouterr()
    assert status == 0 and "every number agrees" in out
    assert "fnmcts: note: golden 'old' does not pin who moves (no to_move_by_ply, chance_by_ply)" in err
    status = main(["check", "--game", f"{user_module}:TakeAway(stones=5)", "--examples", "5", "--golden", str(golden)])
    out, err = capsys.readouterr()
    assert status == 1 and "old: states_by_ply:" in out  # what it holds, it still checks
