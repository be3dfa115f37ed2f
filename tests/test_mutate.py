"""``fnmcts.testing.mutate`` and ``fnmcts mutate``: the operators, the verdicts, survivors explained, the command."""

from __future__ import annotations

import ast
import json
import sys
import time
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fnmcts.cli import main
from fnmcts.games import Pig
from fnmcts.games.pig import ROLLING
from fnmcts.testing import (OPERATORS, check_count, distinguish, golden, mutant_game, mutants,
                            mutate, record_golden)
from fnmcts.testing.laws import law_chance_probabilities
from fnmcts.testing.mutate import _node_points

TAKE_AWAY = '''
from dataclasses import dataclass


@dataclass(frozen=True)
class TakeAway:
    """Take 1 or 2 from a pile; who takes the last one wins. A state: (pile, player to move)."""

    pile: int = 5
    num_players = 2

    def start(self):
        return (self.pile, 0)

    def to_move(self, state):
        if state[0] == 0:
            return None
        return state[1]

    def possible_moves(self, state):
        top = min(state[0], 2)
        m = 0
        while m < top:  # counting up to the largest take: a mutant of "m += 1" never ends
            m += 1
        return tuple(range(1, m + 1))

    def chance_outcomes(self, state):
        return ()

    def play(self, state, move):
        return (max(state[0] - move, 0), 1 - state[1])  # max(.., -1) changes nothing: an equivalent mutant

    def payoff(self, state):
        return (-1, 1) if state[1] == 0 else (1, -1)
'''


@pytest.fixture
def take_away(tmp_path, monkeypatch):
    (tmp_path / "take_away_rules.py").write_text(TAKE_AWAY)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    sys.modules.pop("take_away_rules", None)
    import take_away_rules

    yield take_away_rules.TakeAway()
    sys.modules.pop("take_away_rules", None)


def _user_tic_tac_toe():
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    try:
        from bench_engine import UserTicTacToe
    finally:
        sys.path.pop(0)
    return UserTicTacToe()


# -- the operators, each on expressions it changes -------------------------------------------------------

COMPARISONS = ["==", "!=", "<", "<=", ">", ">="]


def _evaluate(tree, names):
    return eval(compile(ast.Expression(ast.fix_missing_locations(tree)), "<test>", "eval"), {}, names)


def _variants(text, operator):
    node = ast.parse(text, mode="eval").body
    return [new for op, at, variants in _node_points("helper", "function", node) if op == operator and at is node
            for _, new in variants]


@settings(max_examples=200)
@given(st.sampled_from(COMPARISONS), st.integers(-5, 5), st.integers(-5, 5))
def test_a_comparison_mutant_is_its_negation(op, x, y):
    (flipped,) = _variants(f"x {op} y", "comparison")
    assert _evaluate(flipped, {"x": x, "y": y}) is (not _evaluate(ast.parse(f"x {op} y", mode="eval").body,
                                                                   {"x": x, "y": y}))


@settings(max_examples=100)
@given(st.integers(0, 10**6))
def test_an_integer_constant_mutant_is_one_more_and_one_less(n):
    assert [_evaluate(v, {}) for v in _variants(str(n), "constant")] == [n + 1, n - 1]
    assert _variants("True", "constant") == []  # a bool is no integer to shift


@settings(max_examples=100)
@given(st.booleans(), st.booleans())
def test_and_or_swap_and_a_dropped_not(a, b):
    (swapped,) = _variants("a and b", "and_or")
    assert _evaluate(swapped, {"a": a, "b": b}) == (a or b)
    (dropped,) = _variants("not a", "not")
    assert _evaluate(dropped, {"a": a}) == a


@settings(max_examples=100)
@given(st.lists(st.integers(), min_size=3, max_size=6), st.integers(1, 1))
def test_an_index_is_one_off_both_ways(board, i):
    assert [_evaluate(v, {"board": board, "i": i}) for v in _variants("board[i]", "index")] == [board[2], board[0]]
    assert _variants("board[1]", "index") == []  # a constant index: the constant operator moves it


def test_every_operator_is_documented_and_each_makes_a_mutant_of_the_user_tic_tac_toe_or_of_pig():
    made = {m.operator for m in mutants(_user_tic_tac_toe())}
    assert made == set(OPERATORS) - {"chance_probability"}  # tic-tac-toe has no chance outcome to change
    assert {m.operator for m in mutants(Pig(goal=4), operators=["chance_probability", "payoff_players"])} == {
        "chance_probability", "payoff_players"}
    assert all(OPERATORS[name] for name in OPERATORS)


@settings(max_examples=30)
@given(st.lists(st.integers(1, 12), min_size=1, max_size=7))
def test_a_chance_probability_mutant_moves_half_of_one_outcomes_probability_to_another(weights):
    total = sum(weights)
    outcomes = tuple((face, Fraction(w, total)) for face, w in enumerate(weights))
    node = ast.parse("return outcomes").body[0]
    variants = [new for op, at, found in _node_points("chance_outcomes", "method", node) if op == "chance_probability"
                for _, new in found]
    assert len(variants) == 2
    for variant, (giver, taker) in zip(variants, ((1, 0), (0, len(weights) - 1))):
        moved = _evaluate(variant.value, {"outcomes": outcomes})
        if len(weights) == 1:
            assert moved == outcomes  # one outcome: nothing to move
            continue
        assert [o for o, _ in moved] == [o for o, _ in outcomes] and sum(p for _, p in moved) == 1
        assert moved[giver][1] == outcomes[giver][1] / 2 and moved[taker][1] == outcomes[taker][1] + outcomes[giver][1] / 2
        assert all(moved[i] == outcomes[i] for i in range(len(weights)) if i not in (giver, taker))
    assert _node_points("chance_outcomes", "method", ast.parse("return ()").body[0]) == []  # the end: no outcomes


@pytest.mark.slow
def test_a_chance_probability_mutant_moves_mass_that_no_law_sees_and_a_golden_of_the_chance_game_kills_it():
    game = Pig(goal=4)
    found = mutants(game, operators=["chance_probability"])
    assert [m.function for m in found] == ["Pig.chance_outcomes"] * 2
    entry = record_golden(game, "pig to 4", depth=4, playthrough_seed=None)  # the counts alone: what they see
    assert "weighted_games_by_payoff" in entry and check_count(entry, game=game) == ()
    rolling = (0, 0, 0, 0, ROLLING)
    fair = dict(game.chance_outcomes(rolling))
    for m in found:
        twin = mutant_game(game, m.index, operators=["chance_probability"])
        moved = dict(twin.chance_outcomes(rolling))
        assert set(moved) == set(fair) and sum(moved.values()) == 1
        assert all(isinstance(p, Fraction) and p > 0 for p in moved.values())
        assert len({face for face in fair if moved[face] != fair[face]}) == 2, m.description  # one gives, one takes
        assert twin.chance_outcomes(game.start()) == ()  # no chance node: nothing to move
        assert law_chance_probabilities(twin, rolling)  # exact, positive, summing to 1: the law holds
        (difference,) = check_count(entry, game=twin)
        assert difference.startswith("weighted_games_by_payoff:"), difference


def test_a_mutant_is_the_game_with_one_slip_and_its_diff_shows_it():
    game = _user_tic_tac_toe()
    found = mutants(game, operators=["payoff_players"])
    assert len(found) == 1 and found[0].function == "UserTicTacToe.payoff"
    assert "-    return (1, -1) if w == 1" in found[0].diff and "+    return tuple(reversed(tuple(" in found[0].diff
    twin = mutant_game(game, 0, operators=["payoff_players"])
    won = (1, 1, 1, 2, 2, 0, 0, 0, 0)
    assert game.payoff(won) == (1, -1) and twin.payoff(won) == (-1, 1)
    assert type(twin).__name__ == "UserTicTacToe" and type(twin) is not type(game)
    with pytest.raises(ValueError, match="no mutant 5: UserTicTacToe has 1 mutants"):
        mutant_game(game, 5, operators=["payoff_players"])
    with pytest.raises(ValueError, match="unknown mutation operator 'flip'"):
        mutants(game, operators=["flip"])


# -- verdicts ------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_a_to_move_that_swaps_the_players_is_killed_by_the_golden_of_who_moves():
    game = _user_tic_tac_toe()
    report = mutate(game, laws=False, goldens=[golden("tic-tac-toe")], operators=["comparison"])
    swapped = [v for v in report.verdicts if v.mutant.function == "UserTicTacToe.to_move"
               and "board.count(1) != board.count(2)" in v.mutant.diff]
    assert len(swapped) == 1 and swapped[0].verdict == "killed"
    assert swapped[0].reason.startswith("goldens: golden 'tic-tac-toe': to_move_by_ply:")
    assert report.summary().startswith(f"killed {report.killed} of {report.total} mutants of UserTicTacToe()")


@pytest.mark.slow
def test_an_equivalent_mutant_is_reported_equivalent_and_a_survivor_gets_its_line(take_away):
    report = mutate(take_away, laws=False, goldens=[record_golden(take_away)], operators=["constant"], budget=5)
    by = {v.mutant.description: v for v in report.verdicts}
    equivalent = by["TakeAway.play: 0 -> -1"]
    assert equivalent.verdict == "survived" and equivalent.difference == "equivalent" and equivalent.line is None
    assert report.equivalent >= 1 and "equivalent" in str(report)
    for verdict in report.verdicts:  # a survivor that is not equivalent comes with the line that tells it apart
        if verdict.verdict == "survived" and verdict.difference != "equivalent":
            assert verdict.line is not None
            assert distinguish(take_away, mutant_game(take_away, verdict.mutant.index, ["constant"]))[0] == \
                verdict.line


@pytest.mark.slow
def test_a_mutant_that_never_ends_times_out_and_counts_as_killed(take_away):
    report = mutate(take_away, laws=False, goldens=[record_golden(take_away)], operators=["constant"], budget=1)
    hung = [v for v in report.verdicts if v.mutant.function == "TakeAway.possible_moves"
            and "m += 0" in v.mutant.diff]
    assert len(hung) == 1 and hung[0].verdict == "timed out" and hung[0].killed
    assert "budget of 1 s" in hung[0].reason
    assert "by timing out" in report.summary()


def test_a_timed_out_mutant_says_which_check_ran_out_and_where_in_the_game(take_away):
    from fnmcts.testing.mutate import GoldensCheck, _operators, _run_one

    (hung,) = [m for m in mutants(take_away, ["constant"]) if "m += 0" in m.diff]
    checks = (("goldens", GoldensCheck((record_golden(take_away, playthrough_seed=None),))),)
    verdict, reason, line, _, seconds = _run_one((take_away, hung.index, _operators(["constant"]), checks, 0.2,
                                                  1000, None))
    loop = [number for number, text in enumerate(TAKE_AWAY.splitlines(), 1) if "m < top" in text or "m += 1" in text]
    assert verdict == "timed out" and line is None and seconds < 5
    assert reason in {f"goldens: ran past the budget of 0.2 s inside the game's possible_moves (line {n})"
                      for n in loop}, reason


SLOW_BASE = """
class SlowBase:
    def possible_moves(self, state):
        total = 0
        while True:  # the hook that takes the budget
            total += 1
"""


def test_a_mutant_that_runs_out_in_a_base_class_of_the_users_names_the_game_not_fnmcts(tmp_path, monkeypatch):
    """A game loaded from the user's files whose hook lives in a base class of another file is the game's code."""
    from fnmcts.cli._games import resolve_game
    from fnmcts.testing.mutate import _operators, _run_one

    (tmp_path / "slow_base.py").write_text(SLOW_BASE)
    (tmp_path / "slow_game.py").write_text(TAKE_AWAY.replace("class TakeAway:", "class TakeAway(SlowBase):")
                                           .replace("from dataclasses import dataclass",
                                                    "from dataclasses import dataclass\nfrom slow_base import SlowBase")
                                           .replace("def possible_moves(", "def _own_moves("))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))
    for name in ("slow_base", "slow_game"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    game = resolve_game("slow_game:TakeAway")  # as `fnmcts mutate slow_game:TakeAway` loads it

    def moves(game):
        game.possible_moves(game.start())

    verdict, reason, *_ = _run_one((game, 0, _operators(None), (("moves", moves),), 0.2, 1000, None))
    loop = [n for n, text in enumerate(SLOW_BASE.splitlines(), 1) if "while" in text or "+= 1" in text]
    assert verdict == "timed out" and reason in {
        f"moves: ran past the budget of 0.2 s inside the game's possible_moves (line {n})" for n in loop}, reason


def test_a_mutant_that_runs_out_outside_the_game_says_the_check_alone(take_away):
    import time

    from fnmcts.testing.mutate import _operators, _run_one

    def stalls(game):  # a check that spins in its own code: no frame of the game's
        end = time.perf_counter() + 5
        while time.perf_counter() < end:
            pass

    verdict, reason, *_ = _run_one((take_away, 0, _operators(None), (("slow check", stalls),), 0.1, 1000, None))
    assert (verdict, reason) == ("timed out", "slow check: ran past the budget of 0.1 s")


class _Doubling:
    """Every state has two new successors: counting it deeply takes as long as one likes."""

    num_players = 1

    def start(self):
        return 0

    def to_move(self, state):
        return 0

    def possible_moves(self, state):
        return (1, 2)

    def chance_outcomes(self, state):
        return ()

    def play(self, state, move):
        return state * 2 + move

    def payoff(self, state):
        return (0,)


def test_a_mutant_that_runs_out_in_fnmcts_code_says_where_in_fnmcts(take_away):
    from fnmcts.testing import count
    from fnmcts.testing.mutate import _operators, _run_one

    def counts(game):  # one long count: the time goes to fnmcts's code, not the game's nor this test's loop
        count(_Doubling(), 18)  # some 8 s on a quiet machine: the budget's alarm ends it at 0.2 s, and it ends anyway

    verdict, reason, *_ = _run_one((take_away, 0, _operators(None), (("counting", counts),), 0.2, 1000, None))
    assert verdict == "timed out"
    assert reason.startswith("counting: ran past the budget of 0.2 s inside fnmcts's ") and \
        " (fnmcts/testing/" in reason, reason


def test_a_budget_alarm_swallowed_once_is_raised_again(take_away):
    """An alarm raised where Python drops the exception (a gc callback, a __del__) comes again: the run times out."""
    from fnmcts.testing.mutate import _OverBudget, _operators, _run_one

    def swallows_the_first(game):
        deadline = time.perf_counter() + 30  # never a hang if no alarm comes
        swallowed = False
        while time.perf_counter() < deadline:
            try:
                time.sleep(0.001)
            except _OverBudget:
                if swallowed:
                    raise
                swallowed = True  # as a gc callback would: the first alarm is lost

    verdict, reason, *_ = _run_one((take_away, 0, _operators(None), (("sleeping", swallows_the_first),), 0.2, 1000,
                                    None))
    assert verdict == "timed out", reason


def test_an_alarm_as_the_budget_is_cancelled_keeps_the_verdict(take_away, monkeypatch):
    """The budget's alarm firing while it is cancelled, after the checks passed, neither escapes nor loses the verdict."""
    import importlib

    mutating = importlib.import_module("fnmcts.testing.mutate")  # the module: the package's ``mutate`` is the function
    cancel, fired = mutating.signal.setitimer, []

    def late_alarm(which, seconds, *interval):  # the alarm comes just as the run cancels it: raised there, once
        if seconds == 0 and not fired:
            fired.append(1)
            raise mutating._OverBudget(None)
        return cancel(which, seconds, *interval)

    monkeypatch.setattr(mutating.signal, "setitimer", late_alarm)
    verdict, reason, *_ = mutating._run_one((take_away, 0, mutating._operators(None), (("passes", lambda game: None),),
                                             5, 1000, None))
    assert fired and (verdict, reason) == ("survived", None)
    assert mutating.signal.getitimer(mutating.signal.ITIMER_REAL) == (0.0, 0.0)


def test_a_second_alarm_while_the_first_is_told_still_gives_a_verdict(take_away, monkeypatch):
    """The budget's repeat alarm coming while the first one's verdict is written is a time-out, not an escape."""
    import importlib

    mutating = importlib.import_module("fnmcts.testing.mutate")
    told, repeats = mutating._over_budget, []

    def interrupted(over, stage, budget):  # the repeat alarm, raised as the first one's reason is made
        if not repeats:
            repeats.append(1)
            raise mutating._OverBudget(None)
        return told(over, stage, budget)

    def spins(game):
        end = time.perf_counter() + 5
        while time.perf_counter() < end:
            pass

    monkeypatch.setattr(mutating, "_over_budget", interrupted)
    verdict, reason, *_ = mutating._run_one((take_away, 0, mutating._operators(None), (("spins", spins),), 0.1, 1000,
                                             None))
    assert repeats and verdict == "timed out" and "budget of 0.1 s" in reason


def test_a_late_alarm_of_an_earlier_run_does_not_time_out_the_next(take_away):
    """A SIGALRM handled after its run ended (the repeat of a mutant that timed out) is not the next mutant's budget."""
    import importlib
    import signal

    mutating = importlib.import_module("fnmcts.testing.mutate")

    def stale_alarm_then_pass(game):  # the alarm comes at once, long before this run's budget of 30 s
        signal.raise_signal(signal.SIGALRM)

    verdict, reason, *_ = mutating._run_one((take_away, 0, mutating._operators(None),
                                             (("passes", stale_alarm_then_pass),), 30, 1000, None))
    assert (verdict, reason) == ("survived", None)


def test_distinguish_finds_the_shortest_line_and_what_differs():
    game = _user_tic_tac_toe()
    swapped = type("Swapped", (type(game),), {"to_move": lambda self, b: None if type(game).to_move(self, b) is None
                                              else 1 - type(game).to_move(self, b)})()
    assert distinguish(game, swapped) == ((), "to_move: player 1 in the game, player 2 in the mutant")
    assert distinguish(game, game) == (None, "equivalent")
    assert distinguish(game, game, limit=100) == (None, "no difference found in 100 states")


def test_a_game_that_fails_its_own_checks_and_a_run_without_checks_are_refused(take_away):
    with pytest.raises(ValueError, match="itself fails its checks"):
        mutate(take_away, laws=False, goldens=[golden("tic-tac-toe")])
    with pytest.raises(ValueError, match="needs a check"):
        mutate(take_away, laws=False)


def test_a_sample_depends_on_the_seed_alone(take_away):
    entry = record_golden(take_away)
    one = mutate(take_away, laws=False, goldens=[entry], sample=4, seed=3, budget=2)
    two = mutate(take_away, laws=False, goldens=[entry], sample=4, seed=3, budget=2)
    assert [v.mutant for v in one.verdicts] == [v.mutant for v in two.verdicts] and one.total == 4
    assert [v.verdict for v in one.verdicts] == [v.verdict for v in two.verdicts]


@pytest.mark.slow
def test_two_workers_give_the_verdicts_of_one(take_away):
    entry = record_golden(take_away)
    # goldens alone: the laws refuse this game (its tuple state comes back from JSON as a list)
    one = mutate(take_away, laws=False, goldens=[entry], budget=3)
    two = mutate(take_away, laws=False, goldens=[entry], budget=3, workers=2)
    assert len(one.verdicts) > 10
    assert [(v.mutant, v.verdict, v.reason, v.line) for v in one.verdicts] == \
        [(v.mutant, v.verdict, v.reason, v.line) for v in two.verdicts]


# -- the command ---------------------------------------------------------------------------------------


@pytest.mark.slow
def test_fnmcts_mutate_prints_the_score_and_each_survivor_with_its_diff_and_line(take_away, capsys, tmp_path):
    golden_file = tmp_path / "golden.json"
    golden_file.write_text(json.dumps({"format": "fnmcts-goldens", "version": 2,
                                       "counts": [record_golden(take_away, "take away")]}))
    status = main(["mutate", "take_away_rules:TakeAway", "--no-laws", "--golden", str(golden_file),
                   "--operators", "constant", "--budget", "2"])
    out = capsys.readouterr().out
    assert status == 0
    first = out.splitlines()[0]
    assert first.startswith("killed ") and " mutants of TakeAway(pile=5) (goldens)" in first
    assert "survived: mutant" in out and "TakeAway.play: 0 -> -1" in out and "\n  equivalent" in out
    assert "--- TakeAway.play (the game)" in out

    status = main(["mutate", "take_away_rules:TakeAway", "--no-laws", "--golden", str(golden_file),
                   "--operators", "constant", "--budget", "2", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert status == 0 and report["total"] == len(report["mutants"]) and report["killed"] <= report["total"]
    assert {m["verdict"] for m in report["mutants"]} <= {"killed", "survived", "timed out"}


@pytest.mark.parametrize("argv, message", [
    (["mutate", "no_such_module:Game"], "cannot import 'no_such_module'"),
    (["mutate", "take_away_rules:NoSuchGame"], "NoSuchGame"),
    (["mutate", "take_away_rules:TakeAway", "--operators", "flip"], "unknown mutation operator 'flip'"),
    (["mutate", "take_away_rules:TakeAway", "--no-laws"], "--no-laws leaves no check"),
    (["mutate", "take_away_rules:TakeAway", "--golden", "no such golden"], "no file of that name"),
    (["mutate", "take_away_rules:TakeAway", "--no-laws", "--pytest", "no_such_test.py"],
     "--pytest no_such_test.py: no such file"),
])
def test_fnmcts_mutate_bad_input_is_a_one_line_error(take_away, capsys, argv, message):
    status = main(argv)
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    assert err.startswith("fnmcts: error: ") and message in err and err.count("\n") == 1


def test_the_commands_default_budget_is_the_librarys():
    from fnmcts.cli.mutate import _DEFAULT_BUDGET, _DEFAULT_MEMORY
    from fnmcts.testing import DEFAULT_BUDGET, DEFAULT_MEMORY

    assert _DEFAULT_BUDGET == DEFAULT_BUDGET and _DEFAULT_MEMORY == DEFAULT_MEMORY


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="the cap reads /proc (Linux)")
def test_a_mutant_whose_memory_grows_without_end_is_killed_at_the_cap_and_the_cap_is_put_back():
    """A check that takes memory for ever meets a MemoryError at ``memory`` GB above the process: a verdict."""
    import resource
    import threading

    from fnmcts.games.nim import Nim
    from fnmcts.testing.mutate import _run_one

    assert threading.current_thread() is threading.main_thread()  # the cap is set where a task runs in the main thread
    before = resource.getrlimit(resource.RLIMIT_AS)

    def hog(game):
        held = []
        while True:
            held.append(bytearray(32 * 2**20))

    verdict, reason, *_ = _run_one((Nim(heap=3), 0, None, (("hog", hog),), 30.0, 1000, 0.25))
    assert verdict == "killed" and reason == "hog: MemoryError: its checks ran past the memory cap"
    assert resource.getrlimit(resource.RLIMIT_AS) == before
    with pytest.raises(ValueError, match="memory is a number of gigabytes"):
        mutate(Nim(heap=3), memory=0)


def test_a_mutant_out_of_memory_without_a_cap_is_killed_saying_so(monkeypatch):
    """memory=None: no cap, and a MemoryError met making the mutant is still a verdict, not a crash."""
    import importlib

    from fnmcts.games.nim import Nim

    mutation = importlib.import_module("fnmcts.testing.mutate")  # the module (the package's name is the function)

    def out_of_memory(*args):
        raise MemoryError

    monkeypatch.setattr(mutation, "mutant_game", out_of_memory)
    verdict, reason, *_ = mutation._run_one((Nim(heap=3), 0, None, (), None, 1000, None))
    assert (verdict, reason) == ("killed", "MemoryError: its run ran past the machine's memory")


# -- a pytest file of the user's as a check ----------------------------------------------------------------

USERS_TESTS = """
from take_away_rules import TakeAway


def test_the_start():
    assert TakeAway().start() == (5, 0)


def test_the_winner_is_who_took_last():
    assert TakeAway().payoff((0, 1)) == (1, -1)
"""


@pytest.mark.slow
def test_a_users_pytest_file_kills_the_mutants_it_tests_and_misses_the_others(take_away, tmp_path):
    # a new process a mutant: the file's own import of the game meets the mutant's class
    (tmp_path / "test_users.py").write_text(USERS_TESTS)
    report = mutate(take_away, laws=False, pytest=["test_users.py"], operators=["comparison", "payoff_players"])
    assert report.checks == ("pytest test_users.py",)
    by_function = {v.mutant.function: v for v in report.verdicts}
    assert by_function["TakeAway.payoff"].killed and "test_the_winner_is_who_took_last" in by_function[
        "TakeAway.payoff"].reason
    missed = [v for v in report.verdicts if not v.killed]
    assert missed and all(v.mutant.function in ("TakeAway.to_move", "TakeAway.possible_moves") for v in missed)
    assert all(v.line is not None or v.difference == "equivalent" for v in missed)


@pytest.mark.slow
def test_a_pytest_file_the_game_itself_fails_is_refused(take_away, tmp_path):
    (tmp_path / "test_wrong.py").write_text("from take_away_rules import TakeAway\n\n\n"
                                            "def test_wrong():\n    assert TakeAway().start() == (6, 0)\n")
    with pytest.raises(ValueError, match="itself fails its checks.*test_wrong"):
        mutate(take_away, laws=False, pytest=["test_wrong.py"], operators=["comparison"])


def _user_pig():
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks" / "user_games"))
    try:
        from pig import Pig as UserPig
    finally:
        sys.path.pop(0)
    return UserPig()


@pytest.mark.slow
def test_the_user_pigs_mutants_that_rename_the_ends_pass_the_counts_and_fail_the_recorded_playthrough():
    game = _user_pig()
    every = mutants(game)
    entry = record_golden(game, "pig", depth=3)
    counts_only = {k: v for k, v in entry.items() if k != "playthrough"}
    for index in (47, 48, 49, 50):  # the end state after a roll that reaches the target: another turn or player
        twin = mutant_game(game, index)
        assert every[index].function == "Pig.play"
        assert check_count(counts_only, game=twin) == ()
        (found,) = check_count(entry, game=twin)
        assert found.startswith("playthrough of seed 0: line 111: the file says \"state: [[11,8],0,1,false]\""), found
