"""A plain class without a repr of its own is named ``Name()`` wherever fnmcts names a game, never by its address."""

import re

import pytest

from fnmcts.qlearning import train
from fnmcts.testing import check_game, count, record_golden


class Race:
    """One player steps 1 or 2 towards 3; landing on 3 exactly wins. No repr of its own."""

    num_players = 1

    def start(self):
        return 0

    def to_move(self, s):
        return 0 if s < 3 else None

    def possible_moves(self, s):
        return (1, 2) if s < 3 else ()

    def chance_outcomes(self, s):
        return ()

    def play(self, s, m):
        return s + m

    def payoff(self, s):
        return (1 if s == 3 else 0,)


class Overshoots(Race):
    """Its moves may pass 3, where its payoff has no number for the player: a law fails."""

    def payoff(self, s):
        return () if s > 3 else (1,)


ADDRESS = re.compile(r"object at 0x")


def test_a_golden_and_a_count_name_the_game_the_same_in_every_process():
    """A golden recorded the address of a plain class's game: a file that no other process could match."""
    assert record_golden(Race(), "race", playthrough_seed=None)["game"] == "Race()"
    assert count(Race()).game == "Race()"


@pytest.mark.parametrize("call", [
    lambda: check_game(Overshoots(), max_examples=10, exact=False),
    lambda: train(10, seed=1, game=Race()),
    lambda: count(type("Loops", (Race,), {"may_repeat": lambda self: True})()),
])
def test_messages_name_a_plain_class_as_its_name_not_its_address(call):
    with pytest.raises((AssertionError, ValueError)) as raised:
        call()
    assert not ADDRESS.search(str(raised.value)), str(raised.value)
    assert re.search(r"\b(Overshoots|Race|Loops)\(\)", str(raised.value)), str(raised.value)


def test_a_trace_names_a_plain_class_as_its_name():
    from fnmcts.rng import make_rng
    from fnmcts.views import trace

    assert repr(trace(Race(), 0, 5, make_rng(1))).startswith("Trace(5 dives of Race() from the start")


def test_the_package_writes_a_game_into_a_message_through_game_text():
    """``{game!r}`` is left only where the value is not a game (a non-game refused, a list of turns), by file."""
    from pathlib import Path

    import fnmcts

    root = Path(fnmcts.__file__).parent
    found = {str(path.relative_to(root)): path.read_text().count("{game!r}") for path in root.rglob("*.py")}
    assert {name: n for name, n in found.items() if n} == {
        "protocol.py": 4, "exact.py": 2, "matches.py": 1, "exercises/checkers.py": 1, "mcts/_search.py": 1,
        "testing/check.py": 1}
