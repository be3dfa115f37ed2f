"""A user's game that breaks the protocol meets the same checks on every verb: one line naming the hook, exit 1,
no file written (``fnmcts playthrough`` records no broken game)."""

from __future__ import annotations

import pytest

from cli_run import run

BROKEN = '''
class Base:
    num_players = 2
    def start(self): return (3, 0)
    def to_move(self, s): return s[1] if s[0] else None
    def possible_moves(self, s): return tuple(m for m in (1, 2) if m <= s[0])
    def play(self, s, m): return (s[0] - m, 1 - s[1])
    def payoff(self, s): return (-1, 1) if s[1] == 0 else (1, -1)

class PlayList(Base):
    def play(self, s, m): return [s[0] - m, 1 - s[1]]

class PayoffRaises(Base):
    def payoff(self, s): raise RuntimeError("no score kept")

class TwiceTheMove(Base):
    def possible_moves(self, s): return (1, 1)

class PayoffTooBig(Base):
    def payoff(self, s): return (5, -5)

class StartList(Base):
    def start(self): return [3, 0]
'''


@pytest.fixture
def broken(tmp_path, monkeypatch):
    (tmp_path / "brokengames.py").write_text(BROKEN)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


@pytest.mark.parametrize("name, says", [
    ("PlayList", "play((3, 0), 1) returned [2, 1], which is not hashable"), ("PayoffRaises", "no score kept"),
    ("TwiceTheMove", "returned the move 1 twice"), ("PayoffTooBig", "outside payoff_range()"),
    ("StartList", "returned [3, 0], which is not hashable"),
])
def test_playthrough_of_a_broken_game_says_what_is_wrong_and_writes_nothing(broken, capsys, name, says):
    target = broken / "out.txt"
    target.write_text("kept\n")
    code, out, err = run(capsys, "playthrough", f"brokengames:{name}", "--seed", "1", "-o", str(target))
    assert code == 1, err
    assert len(err.strip().splitlines()) == 1 and says in err, err
    assert target.read_text() == "kept\n"
    code, out, err = run(capsys, "playthrough", f"brokengames:{name}", "--seed", "1")
    assert (code, out) == (1, ""), out
    assert says in err


def test_the_working_base_plays_through(broken, capsys):
    code, out, err = run(capsys, "playthrough", "brokengames:Base", "--seed", "1")
    assert code == 0 and out.rstrip().endswith(("payoff: -1 1", "payoff: 1 -1")), err


def test_checking_a_playthrough_against_a_broken_game_names_the_hook(broken, capsys):
    code, out, err = run(capsys, "playthrough", "brokengames:Base", "--seed", "1", "-o", "base.txt")
    assert code == 0, err
    code, out, err = run(capsys, "playthrough", "brokengames:TwiceTheMove", "--check", "base.txt")
    assert code == 1 and "returned the move 1 twice" in out, out


@pytest.mark.parametrize("verb", [("check",), ("move",), ("search", "--dives", "10"), ("solve",), ("count",),
                                  ("simulate", "--games", "10"), ("playthrough",)])
def test_a_start_that_is_no_state_is_the_games_failure_on_every_verb(broken, capsys, verb):
    code, out, err = run(capsys, verb[0], "brokengames:StartList", *verb[1:])
    assert code == 1, err
    assert err.strip() == ("fnmcts: error: the game's start() returned [3, 0], which is not hashable (TypeError: "
                           "unhashable type: 'list'): a state is an immutable value (a tuple, a frozenset, a pmap...)")


def test_a_plain_class_gets_the_default_json_form_of_its_states(broken, capsys):
    code, out, err = run(capsys, "move", "brokengames:Base", "--json")
    assert code == 0, err
    assert '"state": [3, 0]' in out


def test_a_missing_optional_hook_is_named_with_what_to_do(broken, capsys):
    code, out, err = run(capsys, "solve", "brokengames:Base")
    assert code == 1, err
    assert err.startswith("fnmcts: error: the game Base has no chance_outcomes, which this command reads: define it")
    assert "fnmcts failed here" not in err and len(err.strip().splitlines()) == 1


def test_check_names_a_missing_method_before_any_law(broken, capsys):
    code, out, err = run(capsys, "check", "brokengames:Base")
    assert code == 1, err
    assert err.startswith("fnmcts: error: the game Base has no chance_outcomes, which this command reads: define it")
    assert "law" not in err and len(err.strip().splitlines()) == 1


def test_check_game_names_every_missing_method(broken):
    import brokengames

    from fnmcts.testing import check_game

    with pytest.raises(AttributeError, match=r"the game Base has no chance_outcomes: the laws read every method"):
        check_game(brokengames.Base())


def test_mutate_on_a_game_that_fails_its_own_checks_is_the_games_failure(broken, capsys):
    code, out, err = run(capsys, "mutate", "brokengames:PayoffTooBig", "--sample", "2")
    assert code == 1, err
    assert "itself fails its checks" in err and len(err.strip().splitlines()) == 1


RACE = '''
from fractions import Fraction
from fnmcts.protocol import CHANCE

class Race:
    """A plain class, no GameBase: roll a three-sided die or stop; past 4 you score 0, else your total / 4."""
    num_players = 1
    def start(self): return (0, "decide")
    def to_move(self, s): return None if s[1] == "over" else CHANCE if s[1] == "roll" else 0
    def possible_moves(self, s): return ("roll", "stop") if s[1] == "decide" else ()
    def chance_outcomes(self, s): return tuple((k, Fraction(1, 3)) for k in (1, 2, 3)) if s[1] == "roll" else ()
    def play(self, s, m):
        if s[1] == "roll":
            return (s[0] + m, "over" if s[0] + m > 4 else "decide")
        return (s[0], "roll" if m == "roll" else "over")
    def payoff(self, s): return (0,) if s[0] > 4 else (Fraction(s[0], 4),)
'''


def test_a_plain_class_passes_check_with_the_default_json_hooks(tmp_path, monkeypatch, capsys):
    from fnmcts.protocol import state_from_json, state_to_json
    from fnmcts.testing.laws import law_json_round_trip

    (tmp_path / "plainrace.py").write_text(RACE)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    code, out, err = run(capsys, "check", "plainrace:Race", "--examples", "30")
    assert code == 0, out + err
    import plainrace

    game = plainrace.Race()
    assert state_from_json(game, state_to_json(game, (3, "roll"))) == (3, "roll")
    assert law_json_round_trip(game, (3, "roll"))


def test_a_failure_below_a_typed_state_names_that_state_not_a_walk_from_the_start(broken, capsys):
    code, out, err = run(capsys, "solve", "brokengames:PayoffTooBig", "--state", "[1, 0]")
    assert code == 1, err
    assert err.strip().endswith("(at or below the state given with --state [1, 0])"), err
    assert "fnmcts check" not in err


def test_a_playthrough_of_a_class_without_a_repr_checks_again_in_another_process(tmp_path, monkeypatch, capsys):
    (tmp_path / "plainrace2.py").write_text(RACE)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    code, out, err = run(capsys, "playthrough", "plainrace2:Race", "--seed", "3", "-o", "race.txt")
    assert code == 0 and "(Race(), seed 3" in out, out + err
    text = (tmp_path / "race.txt").read_text()
    assert text.splitlines()[1] == "game: Race()"
    code, out, err = run(capsys, "playthrough", "--check", "race.txt")  # another Race(), at another address
    assert code == 0 and out.strip() == "race.txt: Race() plays as the file says", out + err


@pytest.mark.parametrize("argv", [
    ("search", "brokengames:Base", "--dives", "20", "--seed", "1"),
    ("tournament", "brokengames:Base", "random", "random", "--games", "2", "--seed", "1"),
    ("check", "brokengames:PayoffTooBig", "--examples", "3"),
])
def test_a_plain_class_is_named_by_its_class_never_its_address(broken, capsys, argv):
    """A report header, a summary or a refusal names the game ``Base()``; Python's repr (``<brokengames.Base object at
    0x7f...>``) differs in every process."""
    code, out, err = run(capsys, *argv)
    assert " object at 0x" not in out + err, out + err
