"""The search flags of every verb are read from ``SearchOptions``: a field added there is a flag everywhere."""

import pytest
from pyrsistent import field

import fnmcts.mcts._options as options_module
from fnmcts.cli._search_flags import search_fields
from fnmcts.mcts._options import OPTION_NAMES, SearchOptions

from cli_run import run


class Widened(SearchOptions):
    """``SearchOptions`` with two options more, as a later release may add them."""

    depth_cap = field(type=int, initial=12)
    widen = field(type=bool, initial=False)


@pytest.fixture
def widened(monkeypatch):
    monkeypatch.setattr(options_module, "SearchOptions", Widened)
    monkeypatch.setattr(options_module, "OPTION_NAMES", (*OPTION_NAMES, "depth_cap", "widen"))
    doc = options_module.__doc__.replace(
        "``root``   a rule", "``depth_cap`` the deepest a dive goes\n``widen``  progressive widening\n``root``   a rule", 1)
    monkeypatch.setattr(options_module, "__doc__", doc)


SEARCHING_VERBS = [
    ("search", "nim"), ("search", "shut-the-box"), ("move", "nim"),
    ("move", "any"), ("play", "tic-tac-toe"), ("play", "any"), ("tournament", "pig"), ("tournament", "any"),
    ("explore", "nim"), ("plot", "nim"),
]


@pytest.mark.slow
@pytest.mark.parametrize("verb, game", SEARCHING_VERBS)
def test_a_field_added_to_search_options_is_a_flag_of_every_searching_verb(capsys, widened, verb, game):
    code, out, _ = run(capsys, verb, game, "--help")
    assert code == 0
    flat = " ".join(out.split())
    assert "--depth-cap N" in flat and "the deepest a dive goes (default 12)" in flat
    assert "--widen, --no-widen" in flat and "progressive widening (default off)" in flat


def test_the_new_flag_reaches_explore_s_trace_beside_the_tutorial_s_defaults(capsys, widened, monkeypatch, tmp_path):
    seen = {}

    def trace(game, state, n, rng, **options):
        seen.update(options)
        raise ValueError("traced")

    monkeypatch.setattr("fnmcts.cli.explore.trace", trace)
    code, _, err = run(capsys, "explore", "nim", "--dives", "5", "--depth-cap", "3", "-o", str(tmp_path / "p.html"))
    assert code != 0 and "traced" in err
    assert {k: seen.get(k) for k in ("depth_cap", "rule", "backup", "solver")} == {
        "depth_cap": 3, "rule": "tutorial", "backup": "mean", "solver": False}


def test_without_the_field_there_is_no_flag(capsys):
    code, out, _ = run(capsys, "search", "nim", "--help")
    assert code == 0 and "--depth-cap" not in out
    assert [name for name, *_ in search_fields()] == list(OPTION_NAMES)


def test_the_new_flag_reaches_the_search(capsys, widened, monkeypatch):
    seen = {}

    from fnmcts.mcts import mcts_move as real

    def mcts_move(game, state, dives, rng, **options):
        seen.update(options)
        return real(game, state, dives, rng)

    monkeypatch.setattr("fnmcts.cli.generic.mcts_move", mcts_move)
    code, _, err = run(capsys, "search", "nim", "--dives", "5", "--depth-cap", "3", "--widen", "--seed", "1")
    assert code == 0, err
    assert callable(seen.pop("stop")) and seen == {"depth_cap": 3, "widen": True}  # stop: the command's heartbeat


def test_the_new_flag_reaches_the_mcts_agent_and_no_other(capsys, widened, monkeypatch):
    seen = {}

    def make_agent(name, **options):
        seen[name] = options
        return lambda game, state, rng: game.possible_moves(state)[0]

    monkeypatch.setattr("fnmcts.cli._agents.make_agent", make_agent)
    code, _, err = run(capsys, "move", "nim", "--state", "7", "--ai", "mcts", "--depth-cap", "4", "--seed", "1")
    assert code == 0, err
    assert seen["mcts"]["depth_cap"] == 4
    code, _, err = run(capsys, "move", "nim", "--state", "7", "--ai", "random", "--depth-cap", "4")
    assert code == 2 and "--depth-cap applies to --ai mcts only" in err


def test_a_bad_value_of_the_new_flag_is_one_line(capsys, widened):
    code, _, err = run(capsys, "search", "nim", "--depth-cap", "deep")
    assert code == 2 and "expected a whole number, got 'deep'" in err and err.count("\n") == 1
