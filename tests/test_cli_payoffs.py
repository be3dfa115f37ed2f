"""One payoff scale, labelled: every verb prints payoffs as the game pays them and says on which scale.

The games are generated (``small_games.table_games``), their payoffs stretched
to margins in [-3, 3], so a rescaled number cannot pass for the game's own.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cli_run import run
from fnmcts.exact import solve
from fnmcts.mcts import search
from fnmcts.views import top_children
from fnmcts.mcts._records import mean, visits
from fnmcts.rng import make_rng
from small_games import TableGame, table_games


@dataclass(frozen=True)
class MarginTable(TableGame):
    """A ``TableGame`` whose ends pay margins: the table's -1, 0, 1 times ``stretch``.

    A chance probability may be given as a pair ``(numerator, denominator)``: a
    spec on the command line holds literals only.
    """

    stretch: int = 3

    def __post_init__(self):
        exact = tuple(("chance", tuple((child, Fraction(*p) if isinstance(p, tuple) else p) for child, p in entry[1]))
                      if entry[0] == "chance" else entry for entry in self.table)
        object.__setattr__(self, "table", exact)

    def payoff(self, state):
        return tuple(self.stretch * x for x in super().payoff(state))

    def payoff_range(self):
        return (-self.stretch, self.stretch)


@st.composite
def margin_games(draw, chance=True):
    game = draw(table_games(players=2, chance=chance))
    return MarginTable(game.table, 2, stretch=draw(st.integers(2, 3)))


def spec(game) -> str:
    """The game as GAME on the command line: its probabilities as pairs of whole numbers."""
    table = tuple(("chance", tuple((child, (p.numerator, p.denominator)) for child, p in entry[1]))
                  if entry[0] == "chance" else entry for entry in game.table)
    return f"test_cli_payoffs:MarginTable(table={table!r}, stretch={game.stretch})"


def _json(capsys, *argv):
    code, out, err = run(capsys, *argv, "--json")
    assert code == 0, err
    return json.loads(out)


@pytest.mark.slow
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(margin_games(chance=False), st.integers(0, 2**31))
def test_search_shows_each_moves_mean_payoff_on_the_games_scale_and_the_score_beside_it(capsys, game, seed):
    report = _json(capsys, "search", spec(game), "--dives", "60", "--seed", str(seed), "--top", "9")
    low, high = game.payoff_range()
    assert report["payoff_range"] == [low, high] and report["to_move"] == game.to_move(0) + 1
    tree = search(game, 0, 60, make_rng(seed))
    expected = [(m, low + mean(r) * (high - low), mean(r)) if visits(r) else (m, None, None)
                for m, r in top_children(game, tree, 0, 9)]
    assert [(row["move"], row["payoff"], row["score"]) for row in report["moves"]] == [
        (str(m), payoff, score) for m, payoff, score in expected]
    assert all(low <= row["payoff"] <= high and row["mean"] == row["score"] for row in report["moves"] if row["visits"])
    code, out, _ = run(capsys, "search", spec(game), "--dives", "60", "--seed", str(seed))
    assert f"payoffs: the mover's (player {game.to_move(0) + 1}), the game's own, in [{low}, {high}]" in out


@pytest.mark.slow
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(margin_games())
def test_count_shows_the_payoff_of_every_outcome(capsys, game):
    report = _json(capsys, "count", spec(game))
    ends = {game.payoff(s) for s in solve(game) if game.to_move(s) is None}
    assert {tuple(int(x) for x in o["payoff"]) for o in report["outcomes"]} == ends
    code, out, _ = run(capsys, "count", spec(game))
    rows = out.split("outcome ", 1)[1].splitlines()[1:len(ends) + 1]
    assert sorted(" ".join(map(str, p)) for p in ends) == sorted(re.split(r"\s{2,}", row)[1] for row in rows)
    assert f"payoffs: player 1 first, the game's own, in [{-game.stretch}, {game.stretch}]" in out


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(margin_games())
def test_solve_prints_each_players_exact_value_on_the_games_scale(capsys, game):
    values = solve(game)[0]
    code, out, err = run(capsys, "solve", spec(game))
    assert code == 0, err
    line = next(line for line in out.splitlines() if line.startswith("value: "))
    shown = ", ".join(f"Player {i + 1} {_exact(v)}" for i, v in enumerate(values))
    assert line.startswith(f"value: {shown}")
    assert line.endswith(f"(payoffs: the game's own, in [{-game.stretch}, {game.stretch}])")


def _exact(value) -> str:
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    if 1000 % value.denominator == 0:
        return f"{float(value):.6g}"
    short = f" ({value})" if len(str(value)) <= 15 else ""  # a value that does not end in decimals: its fraction too
    return f"{float(value):.4f}{short}"


CHANCE_FIRST = MarginTable((("chance", ((1, Fraction(1, 2)), (2, Fraction(1, 2)))), ("move", 0, (3, 4)),
                            ("move", 1, (5, 6)), ("end", (1, -1)), ("end", (-1, 1)), ("end", (1, -1)), ("end", (-1, 1))),
                           2, stretch=2)
"""A deal first: after outcome 0 player 1 wins by move 0, after outcome 1 player 2 by move 1."""


def test_search_and_move_take_a_chance_start(capsys):
    report = _json(capsys, "search", spec(CHANCE_FIRST), "--dives", "200", "--seed", "1", "--no-solver")
    assert report["to_move"] == "chance" and report["best_move"] is None and report["moves"] == []
    assert [(o["outcome"], o["best_move"]) for o in report["outcomes"]] == [("0", "0"), ("1", "1")]
    assert all(0 < o["payoff"] <= 2 for o in report["outcomes"])  # each mover wins after its outcome: margin 2
    unvisited = _json(capsys, "search", spec(CHANCE_FIRST), "--dives", "200", "--seed", "1")  # proofs end it soon
    assert all((o["payoff"] is None) == (o["visits"] == 0) for o in unvisited["outcomes"])
    moved = _json(capsys, "move", spec(CHANCE_FIRST), "--ai", "exact", "--seed", "5")
    assert moved["chance"] in ([0], [1]) and moved["move"] == moved["chance"][0]
    assert _json(capsys, "move", spec(CHANCE_FIRST), "--ai", "exact", "--seed", "5", "--state", "start") == moved


def test_state_start_is_the_start_on_every_verb_that_takes_a_state(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for argv in (["search", "nim(heap=6)", "--dives", "100", "--seed", "2"], ["solve", "nim(heap=6)"],
                 ["move", "nim(heap=6)", "--seed", "2", "--ai", "perfect"], ["table", "nim(heap=6)", "-o", "-"],
                 ["plot", "nim(heap=6)", "--dives", "30", "--points", "2", "--json", "--seed", "2"]):
        assert run(capsys, *argv, "--state", "start") == run(capsys, *argv), argv
    assert run(capsys, "move", "nim(heap=6)", "--ai", "perfect")[1] == "perfect: take 1\n"  # 6 - 1 = 4 + 1, misere
