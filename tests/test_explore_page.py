"""The explorer page as a file: self-contained, its numbers the trace's own, for any game.

What a browser shows of it is tested in a real browser (``test_explore_browser.py``).
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from functools import partial

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fnmcts.exact import best_moves, solve
from fnmcts.games import Nim, Pig, ShutTheBox, TicTacToe
from fnmcts.mcts import ucb1
from fnmcts.views import PAGE_DIVES, explore_page, iframe, page_data, trace
from fnmcts.mcts._graph import rescaler
from fnmcts.protocol import GameBase
from fnmcts.rng import make_rng


def _embedded(page: str) -> dict:
    match = re.search(r'<script id="trace-data" type="application/json">(.*?)</script>', page, re.S)
    assert match, "the page holds its data in one JSON script"
    return json.loads(match.group(1).replace("<\\/", "</"))


@dataclass(frozen=True)
class TakeAway(GameBase):
    """A game written outside the package: take 1 or 2 of the stones; who takes the last wins."""

    stones: int = 6
    num_players = 2

    def start(self):
        return (self.stones, 0)

    def to_move(self, state):
        return state[1] if state[0] else None

    def possible_moves(self, state):
        return tuple(m for m in (1, 2) if m <= state[0])

    def play(self, state, move):
        return (state[0] - move, 1 - state[1])

    def payoff(self, state):
        return (-1, 1) if state[1] == 0 else (1, -1)


def test_the_page_is_one_file_that_needs_no_network():
    game = TicTacToe()
    page = explore_page(trace(game, game.start(), 30, make_rng(1)))
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    for outside in ("<script src", "<link", "@import", "url(", "fetch(", "XMLHttpRequest", "import(", "http://", "https://"):
        if outside == "http://":  # the one address on the page is SVG's namespace name, which is never fetched
            assert page.count(outside) == page.count("http://www.w3.org/2000/svg")
            continue
        assert outside not in page, outside
    assert page.count("<script") == 2  # the data and the script, inline
    assert "<style>" in page


def test_the_embedded_data_is_page_data_and_cannot_close_its_script():
    game = TakeAway(stones=5)
    t = trace(game, game.start(), 12, make_rng(3))
    page = explore_page(t, title="</script><b>x</b>")
    assert _embedded(page) == json.loads(json.dumps(page_data(t, title="</script><b>x</b>")))
    assert "<b>x</b>" not in page  # the title is escaped in the heading, and JSON-escaped in the data


@pytest.mark.parametrize("game", [TicTacToe(), ShutTheBox(levers=5), Nim(heap=9), Pig(goal=8), TakeAway()], ids=repr)
def test_every_step_shows_the_traces_numbers(game):
    t = trace(game, game.start(), 40, make_rng(7))
    data = page_data(t)["traces"][0]
    nodes = data["nodes"]
    assert len(data["dives"]) == 40 and data["total"] == 40
    for k, frame in enumerate(data["dives"], 1):
        dive = t.dive(k)
        assert len(frame["steps"]) == len(dive.path.steps)
        for j, (step, shown) in enumerate(zip(dive.path.steps, frame["steps"])):
            if step.player is None:
                assert shown["k"] == [] and shown["pl"] is None
                continue
            assert shown["ch"] == step.chosen and shown["pl"] == step.player
            for s, kid in zip(dive.siblings(j), shown["k"]):
                assert kid[1] == s.visits
                for got, want in zip(kid[2:5], (s.mean, s.bonus, s.score)):
                    assert got == (None if want is None else "inf" if want == math.inf else want)
                assert nodes[kid[0]]["x"] == s.exact
        back = [[nodes[i]["m"], after[0]] for i, _, after in frame["back"]]
        assert [after for _, after in back] == [dive.changed[s]["win"] + dive.changed[s]["loss"] + dive.changed[s].get("draw", 0)
                                               for s, _ in reversed(dive.path.nodes)]
        assert frame["end"] == dive.path.end and len(frame["play"]) == len(dive.playout)


@given(heap=st.integers(1, 10), take=st.integers(1, 4), dives=st.integers(1, 10), rng=st.randoms(use_true_random=False))
@settings(max_examples=10, deadline=None)
def test_a_nodes_label_is_the_games_words_for_its_state(heap, take, dives, rng):
    """Nim's nodes carry their heap (the game's position_text) and who moves: a child is its parent's heap less the take."""
    game = Nim(heap=heap, max_take=take)
    data = page_data(trace(game, game.start(), dives, rng))["traces"][0]
    nodes = data["nodes"]
    root = nodes[data["root"]]
    assert (root["lb"], root["to"]) == (f"heap {heap}", 0)
    for node in nodes:
        if node["p"] < 0 or node is root:
            continue
        parent = nodes[node["p"]]
        taken = int(node["via"].split()[1])  # "take 2"
        assert node["lb"] == f"heap {int(parent['lb'].split()[1]) - taken}"
        assert node["to"] == ("end" if node["lb"] == "heap 0" else 1 - parent["to"])
    other = page_data(trace(TakeAway(), TakeAway().start(), dives, rng))["traces"][0]
    assert all(node["lb"] is None for node in other["nodes"])  # no position_text: the page labels by move


def test_chance_nodes_carry_their_probabilities_and_the_root_its_exact_best_moves():
    game = ShutTheBox(levers=4)
    t = trace(game, game.start(), 60, make_rng(2))
    data = page_data(t)["traces"][0]
    nodes, root = data["nodes"], data["nodes"][data["root"]]
    rolls = [nodes[c] for c in root["d"]]
    assert [r["via"] for r in rolls] == [f"roll {n}" for n in range(2, 13)]
    assert [r["pr"] for r in rolls] == ["1/36", "1/18", "1/12", "1/9", "5/36", "1/6", "5/36", "1/9", "1/12", "1/18", "1/36"]
    exact = solve(game)
    for c, roll in zip(root["d"], range(2, 13)):
        decision = game.play(game.start(), roll)
        kids = nodes[c]["ch"]
        moves = game.possible_moves(decision)
        assert [nodes[k]["via"] for k in kids] == [game.describe_move(decision, m) for m in moves]
        best = {game.describe_move(decision, m) for m in best_moves(game, exact, decision)}
        assert {nodes[k]["via"] for k in nodes[c]["best"]} == best
        assert nodes[c]["x"] == float(rescaler(game)(exact[decision])[0])


@pytest.mark.slow
def test_a_second_trace_and_the_first_dive_whose_path_differs():
    game = TicTacToe()
    a = trace(game, game.start(), 50, make_rng(5))
    b = trace(game, game.start(), 50, make_rng(5), rule=partial(ucb1, c=0.4))
    data = page_data(a, b)
    assert [t["name"] for t in data["traces"]] == ["A", "B"]
    assert data["traces"][1]["label"].startswith("UCB1, c = 0.4")
    assert data["traces"][0]["rule"] == {"name": "ucb", "k": 2.0}
    assert data["difference"] == a.first_difference(b) is not None
    with pytest.raises(ValueError, match="same game"):
        page_data(a, trace(Nim(heap=5), Nim(heap=5).start(), 5, make_rng(5)))
    with pytest.raises(TypeError, match="a trace"):
        page_data(a.tree())


@pytest.mark.slow
def test_a_long_trace_shows_its_first_dives_and_says_so():
    game = Nim(heap=12)
    t = trace(game, game.start(), PAGE_DIVES + 5, make_rng(1), exact=0)
    data = page_data(t)["traces"][0]
    assert len(data["dives"]) == PAGE_DIVES and data["total"] == PAGE_DIVES + 5 and not data["exact"]
    assert len(page_data(t, dives=10)["traces"][0]["dives"]) == 10
    with pytest.raises(ValueError, match="dives"):
        page_data(t, dives=-1)


def test_a_custom_rule_shows_on_the_page_without_a_formula():
    def greedy(rec, parent_visits):
        """Always the best mean so far."""
        n = rec.get("win", 0) + rec.get("loss", 0) + rec.get("draw", 0)
        return math.inf if not n else rec.get("win", 0) / n

    game = Nim(heap=7)
    data = page_data(trace(game, game.start(), 10, make_rng(1), rule=greedy))["traces"][0]
    assert data["rule"] is None and data["label"].startswith("greedy")


def test_a_trace_renders_inline_in_a_notebook():
    game = Nim(heap=5)
    t = trace(game, game.start(), 8, make_rng(1))
    shown = t._repr_html_()
    assert shown.startswith("<iframe srcdoc=") and 'sandbox="allow-scripts"' in shown
    assert "&lt;!DOCTYPE html&gt;" in shown and "<script" not in shown  # all of the page, escaped into srcdoc
    assert iframe("<p>", 10).count("&lt;p&gt;") == 1


def test_an_openspiel_game_gets_a_page():
    pytest.importorskip("pyspiel")
    from fnmcts.openspiel import from_openspiel

    game = from_openspiel("nim(pile_sizes=1;2;3)")
    t = trace(game, game.start(), 15, make_rng(1))
    data = page_data(t)["traces"][0]
    assert data["exact"] and len(data["dives"]) == 15
    assert all(len(frame["steps"]) == len(t.dive(k).path.steps) for k, frame in enumerate(data["dives"], 1))
    big = from_openspiel("tic_tac_toe")  # 5,478 positions: past an exact limit of 1,000, so no exact values
    assert page_data(trace(big, big.start(), 5, make_rng(1)))["traces"][0]["exact"]
    assert not page_data(trace(big, big.start(), 5, make_rng(1), exact=1_000))["traces"][0]["exact"]
