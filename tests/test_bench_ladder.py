"""The decisive-games ladder's logic: pairs share an opening, sides alternate, the SPRT stops a cell, the table merges."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fnmcts.elo import Sprt, sprt_scan
from fnmcts.games import TicTacToe

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def _module(name: str):
    sys.path.insert(0, str(BENCHMARKS))
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


ladder = _module("bench_ladder")
run = _module("run")


@given(st.integers(0, 2**40), st.integers(1, 30))
@settings(max_examples=30, deadline=None)
def test_a_pair_shares_its_opening_and_fnmcts_plays_each_side_once(seed, pairs):
    jobs = ladder.plan(seed, 2 * pairs)
    assert jobs == ladder.plan(seed, 2 * pairs)
    assert [j["pair"] for j in jobs] == [p for p in range(pairs) for _ in (0, 1)]
    assert [j["side"] for j in jobs] == [0, 1] * pairs
    for first, second in zip(jobs[::2], jobs[1::2]):
        assert first["opening"] == second["opening"] and first["seed"] != second["seed"]
    assert len({j["opening"] for j in jobs}) == pairs


@pytest.mark.parametrize("games_max", [0, 3, -2, 2.0, True])
def test_a_plan_refuses_games_that_do_not_pair(games_max):
    with pytest.raises(ValueError, match="pairs"):
        ladder.plan(1, games_max)


def test_the_opening_is_two_random_plies_of_the_seed_alone():
    game = TicTacToe()
    states = {ladder.opening(game, 2, seed) for seed in range(40)}
    assert all(sum(cell != 0 for cell in state) == 2 for state in states)
    assert len(states) > 10 and ladder.opening(game, 2, 7) == ladder.opening(game, 2, 7)


def _fake(bins, unfinished=()):
    """A play function giving game ``i`` (in plan order) fnmcts's bin ``bins[i]``; unfinished those listed."""
    def fn(job):
        i = 2 * job["pair"] + job["side"]
        if i in unfinished:
            return {"unfinished": "exit 1", "pair": job["pair"], "side": job["side"]}
        mine = bins[i] - 1
        payoff = [mine, -mine] if job["side"] == 0 else [-mine, mine]
        return {"payoff": payoff, "side": job["side"], "pair": job["pair"], "times_fnmcts": [0.01],
                "times_bot": [0.02], "peak_mb": 50.0}
    return fn


@given(st.lists(st.sampled_from([0, 1, 2, 2]), min_size=2, max_size=120), st.integers(1, 3))
@settings(max_examples=40, deadline=None)
def test_a_cell_stops_where_the_sprt_on_pairs_decides_whatever_the_workers(bins, workers):
    bins = bins[: len(bins) // 2 * 2] or [1, 1]
    jobs = ladder.plan(3, len(bins))
    found = ladder.run_cell(jobs, _fake(bins), workers)
    expected = sprt_scan(ladder.TEST, [a + b for a, b in zip(bins[::2], bins[1::2])], 5)
    assert found["sprt"].decision == expected.decision
    assert len(found["games"]) == 2 * expected.samples
    assert found["pairs"] == expected.results
    assert [g["pair"] for g in found["games"]] == [j["pair"] for j in jobs[: len(found["games"])]]


def test_a_pair_with_an_unfinished_game_is_left_out_of_the_test():
    bins = [2, 2, 0, 2, 1, 1]
    found = ladder.run_cell(ladder.plan(1, 6), _fake(bins, unfinished={2}), 2, Sprt(0, 400))
    assert found["pairs"] == (0, 0, 1, 0, 1) and found["sprt"].decision is None and len(found["games"]) == 6
    row = ladder.summary("g", "400", found, 6, None)
    assert (row["games"], row["unfinished"], row["wins"], row["draws"], row["losses"]) == (6, 1, 3, 2, 0)
    assert row["fnmcts_move_s"] == 0.01 and row["bot_move_s"] == 0.02 and row["peak_mb"] == 50.0


@pytest.mark.parametrize("text", ["", "x", "time@", "time@-1", "0", "400@2"])
def test_a_bad_cell_is_refused_by_name(text):
    with pytest.raises(ValueError, match="cell"):
        ladder.parse_cell(text)


def _row(spec, cell, score):
    return {"spec": spec, "cell": cell, "score": score, "interval": [0.4, 0.6], "wins": 1, "draws": 0,
            "losses": 1, "games": 2, "unfinished": 0, "sprt": None, "games_max": 40, "fnmcts_move_s": 0.01,
            "bot_move_s": 0.02, "peak_mb": 70.0}


def test_the_table_keeps_the_cells_not_measured_and_the_runs_they_name(tmp_path):
    page = tmp_path / "scoreboard.md"
    page.write_text(f"intro\n{ladder.BEGIN}\n{ladder.HEADER}\n{ladder.END}\ncoda\n", encoding="utf-8")
    ladder.write([_row("hex(board_size=5)", "400", 0.25), _row("connect_four", "400", 0.5)], "A", "cmd a", page)
    ladder.write([_row("connect_four", "400", 0.75), _row("connect_four", "1600", 0.5)], "B", "cmd b", page)
    text = page.read_text(encoding="utf-8")
    assert text.startswith("intro\n") and text.endswith(f"{ladder.END}\ncoda\n")
    rows = [line for line in text.splitlines() if line.startswith("| ") and not line.startswith("| game")]
    assert [(r.split(" | ")[0][2:], r.split(" | ")[1]) for r in rows] == [
        ("connect_four", "400"), ("connect_four", "1600"), ("hex(board_size=5)", "400")]
    assert "0.750" in rows[0] and rows[0].endswith("| B |") and rows[2].endswith("| A |")
    assert "partial: undecided at 40 games" in rows[1]
    assert "- run A: `cmd a`" in text and "- run B: `cmd b`" in text
    timed = {**_row("connect_four", "time", 0.5), "fnmcts_seconds": 0.012}
    ladder.write([_row("hex(board_size=5)", "400", 0.5), timed], "C", "cmd c", page)
    assert "| 10 ms (budget 12.0 ms) | 20 ms |" in page.read_text(encoding="utf-8")
    assert "- run A:" not in page.read_text(encoding="utf-8")


def test_the_page_without_markers_is_refused(tmp_path):
    page = tmp_path / "scoreboard.md"
    page.write_text("no markers\n", encoding="utf-8")
    with pytest.raises(SystemExit, match="markers"):
        ladder.write([_row("connect_four", "400", 0.5)], "A", "cmd", page)


def test_run_leaves_the_ladder_out_of_a_full_run_unless_named_or_quick():
    names = lambda paths: [p.stem for p in paths]  # noqa: E731
    assert "bench_ladder" not in names(run.benchmarks((), quick=False))
    assert "bench_ladder" in names(run.benchmarks((), quick=True))
    assert names(run.benchmarks(("ladder",), quick=False)) == ["bench_ladder"]


def test_a_candidates_rows_sit_beside_the_defaults_row_of_its_cell(tmp_path):
    page = tmp_path / "scoreboard.md"
    page.write_text(f"{ladder.BEGIN}\n{ladder.HEADER}\n{ladder.END}\n", encoding="utf-8")
    candidate = ladder.cell_label("400", {"c": 1.0})
    ladder.write([_row("connect_four", "400", 0.5), _row("connect_four", "1600", 0.5)], "A", "cmd a", page)
    ladder.write([_row("connect_four", candidate, 0.75)], "B", "cmd b", page)
    rows = [line for line in page.read_text(encoding="utf-8").splitlines()
            if line.startswith("| ") and not line.startswith("| game")]
    assert [r.split(" | ")[1] for r in rows] == ["400", '400 {"c": 1.0}', "1600"]
    assert "0.500" in rows[0] and "0.750" in rows[1]


@pytest.mark.parametrize("text, problem", [
    ("[1]", "JSON object"), ("{c: 1}", "JSON object"), ('{"rollout": "greedy"}', "rollout"),
    ('{"cc": 1.0}', "unknown search option 'cc'"), ('{"c": -1}', "c"), ('{"final": "best"}', "final"),
])
def test_bad_fnmcts_options_are_refused_by_name(text, problem):
    with pytest.raises(ValueError, match=problem):
        ladder.fnmcts_options(text)


def test_fnmcts_options_name_the_decisive_rollout_and_keep_the_others():
    from fnmcts.mcts.enhancements import decisive_agent

    given = ladder.fnmcts_options('{"rollout": "decisive", "c": 0.5}')
    assert ladder.resolved(given) == {"rollout": decisive_agent, "c": 0.5}
    assert given == {"rollout": "decisive", "c": 0.5} and ladder.resolved({}) == {}


def test_reuse_is_an_option_of_the_ladder_not_of_the_search():
    assert ladder.fnmcts_options('{"reuse": true, "c": 0.5}') == {"reuse": True, "c": 0.5}
    assert ladder.resolved({"reuse": True, "c": 0.5}) == {"c": 0.5}
    with pytest.raises(ValueError, match="reuse is true or false"):
        ladder.fnmcts_options('{"reuse": "yes"}')


def test_a_reusing_player_threads_its_tree_and_runs_its_dives_on_top_of_it():
    import random

    from fnmcts.mcts import mcts_move, subtree
    from fnmcts.mcts._records import visits

    game = TicTacToe()
    player, memory = ladder.fnmcts_player(40, None, {"reuse": True})
    state, rng, twin = game.start(), random.Random(5), random.Random(5)
    move, memory = player(game, state, rng, memory)
    assert move == mcts_move(game, state, 40, twin).move and memory.root == game.play(state, move)
    state = game.play(game.play(state, move), 0 if move else 1)
    kept = subtree(game, memory, state, walk=0)
    found = mcts_move(game, state, 40, twin, tree=kept)
    second, memory = player(game, state, rng, memory)
    assert second == found.move and found.iterations == 40
    assert visits(found.tree[state]) == (visits(kept[state]) if state in kept else 0) + 40
    assert memory.root == game.play(state, second)
