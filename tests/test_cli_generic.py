"""``fnmcts simulate`` and ``fnmcts search`` on every game, options from the games' dataclass fields, specs with parameters."""

import dataclasses
import random

import pytest

from fnmcts import simulate
from fnmcts.cli._fields import game_fields
from fnmcts.games import GAMES, Nim, Piles
from fnmcts.mcts import search, visits
from fnmcts.views import top_children
from fnmcts.protocol import describe_move
from fnmcts.rng import make_rng

from cli_run import run, run_json


# the games the generic verbs serve: those no other command module simulates or searches
SIMULATED = sorted(set(GAMES) - {"shut-the-box", "tic-tac-toe"})
SEARCHED = sorted(set(GAMES) - {"shut-the-box"})


@pytest.mark.parametrize("name", SIMULATED)
def test_simulate_any_builtin_game_is_the_library_simulation(capsys, name):
    data = run_json(capsys, "simulate", name, "--games", "300", "--seed", "4")
    record = simulate(GAMES[name](), 300, seed=4)
    assert (data["games"], data["wins"], data["draws"], data["losses"]) == (300, record.win, record.draw, record.loss)


def test_simulate_a_spec_with_parameters_is_the_library_simulation_of_that_game(capsys):
    data = run_json(capsys, "simulate", "--game", "nim(heap=7, max_take=2, misere=False)", "--games", "500", "--seed", "2")
    record = simulate(Nim(heap=7, max_take=2, misere=False), 500, seed=2)
    assert (data["wins"], data["losses"]) == (record.win, record.loss)
    text = run(capsys, "simulate", "--game", "fnmcts.games:Piles(piles=(1, 2))", "--games", "50", "--seed", "1")[1]
    assert text.splitlines()[0].startswith("Piles(piles=(1, 2), misere=True), random play")


@pytest.mark.parametrize("name", SEARCHED)
def test_search_any_game_reports_the_library_search_s_most_visited_moves(capsys, name):
    data = run_json(capsys, "search", name, "--dives", "300", "--seed", "3", "--no-solver")
    game = GAMES[name]()
    state = game.start()
    tree = search(game, state, 300, make_rng(3), solver=False)
    expected = [(describe_move(game, state, m), visits(r)) for m, r in top_children(game, tree, state, 5)]
    assert [(row["move"], row["visits"]) for row in data["moves"]] == expected
    assert data["best_move"] == expected[0][0] and data["root_visits"] == visits(tree[state])
    assert sum(row["visits"] for row in data["moves"]) <= 300


def test_search_from_a_state_finds_the_winning_move(capsys):
    data = run_json(capsys, "search", "nim", "--heap", "10", "--state", "6", "--dives", "5000", "--seed", "1")
    assert data["best_move"] == "take 1"  # misère: leave 1 mod 4, so from 6 take 1


def _changed(kind, name, type_name, default):
    """A value of field ``name`` other than its default that the game accepts."""
    if type_name == "bool":
        return not default, ("--no-" if default else "--") + name.replace("_", "-"), []
    if type_name == "int":
        value = default + 1 if default > 1 else 2
        return value, "--" + name.replace("_", "-"), [str(value)]
    if type_name == "tuple":
        return (2, 3), "--" + name.replace("_", "-"), ["2,3"]
    pytest.skip(f"no changed value for {type_name} fields")


FIELDS = [(name, *field) for name in SEARCHED for field in game_fields(GAMES[name])]


def test_every_parameter_of_every_searched_game_is_a_field():
    assert {(name, field) for name, field, *_ in FIELDS} >= {("nim", "heap"), ("nim", "max_take"), ("nim", "misere"),
                                                            ("piles", "piles"), ("pig", "goal"), ("kayles", "pins")}


@pytest.mark.parametrize("name, field, type_name, default", FIELDS, ids=[f"{n}-{f}" for n, f, *_ in FIELDS])
def test_every_field_of_a_game_is_an_option_that_reaches_the_game(capsys, name, field, type_name, default):
    kind = GAMES[name]
    value, flag, values = _changed(kind, field, type_name, default)
    if name == "pig":  # a smaller goal keeps one dive short
        data = run_json(capsys, "search", name, "--goal", "5", "--dives", "1", "--seed", "1")
        assert data["game"] == repr(kind(goal=5))
        return
    data = run_json(capsys, "search", name, flag, *values, "--dives", "1", "--seed", "1")
    assert data["game"] == repr(dataclasses.replace(kind(), **{field: value}))
    _, help_text, _ = run(capsys, "search", name, "--help")
    assert flag.replace("--no-", "--") in help_text


@pytest.mark.parametrize("command", ["solve", "move", "tournament", "play"])
def test_the_rule_flags_of_nim_read_as_the_field(capsys, command):
    from fnmcts.cli import build

    cli = build()
    sub = cli.parser._subparsers._group_actions[0].choices[command]
    nim = sub._subparsers._group_actions[0].choices["nim"]
    extra = {"tournament": ["random", "random"], "move": ["--state", "5"]}.get(command, [])
    for flags, misere in ((["--normal"], False), (["--no-misere"], False), (["--misere"], True), ([], None)):
        assert nim.parse_args([*extra, *flags]).misere is misere


@pytest.mark.parametrize(
    "argv, message",
    [
        (("simulate", "--game", "nim(heap=five)"), "keyword=literal"),
        (("simulate", "--game", "nim(heap=-1)"), "heap"),
        (("search", "--game", "fnmcts.games:TicTacToe(size=4)"), "size"),
        (("search", "--game", "nim(3)"), "keyword=literal"),
        (("search", "nim", "--heap", "-3"), "heap"),
        (("search", "pig", "--goal", "x"), "whole number"),
        (("search", "kayles", "--pins", "1,,2"), "empty field"),
        (("search", "nim", "--state", "0"), "over"),
        (("search", "pig", "--dives", "-1"), "dives"),
    ],
)
def test_bad_game_options_are_one_line_and_exit_2(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert message in err


def test_a_huge_search_is_refused_up_front_and_force_is_named(capsys):
    code, _, err = run(capsys, "search", "pig", "--dives", str(10**12), "--seed", "1")
    assert code == 2 and "--force" in err


def test_simulate_draws_the_same_games_whatever_the_seed_s_spelling_of_the_game(capsys):
    a = run_json(capsys, "simulate", "piles", "--piles", "1,2,3", "--games", "200", "--seed", str(random.Random(5).randrange(10**6)))
    b = run_json(capsys, "simulate", "--game", "piles(piles=(1, 2, 3))", "--games", "200", "--seed", str(random.Random(5).randrange(10**6)))
    assert (a["wins"], a["losses"]) == (b["wins"], b["losses"])
    assert Piles(piles=(1, 2, 3)) == Piles((1, 2, 3))


CLI_LINE_LIMIT = 400
OVER_THE_LIMIT: dict = {
    # file: why it is still longer (each one is left to cut, not a rule)
    # empty: kept as the guard (a file that grows past the limit fails here, with its length)
}


def test_no_command_module_is_longer_than_about_400_lines_but_those_left_to_cut():
    from pathlib import Path

    import fnmcts.cli

    folder = Path(fnmcts.cli.__file__).parent
    lengths = {path.name: len(path.read_text().splitlines()) for path in folder.glob("*.py")}
    over = {name for name, lines in lengths.items() if lines > CLI_LINE_LIMIT}
    assert over == set(OVER_THE_LIMIT), {name: lengths[name] for name in over ^ set(OVER_THE_LIMIT)}
