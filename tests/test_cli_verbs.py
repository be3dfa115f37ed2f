"""``fnmcts VERB GAME [options]`` on every verb: one way to name a game, the old spellings kept; play with hints."""

import json
import re

import pytest

from fnmcts.exact import best_moves, solve
from fnmcts.games import Nim, ShutTheBox
from fnmcts.games.shut_the_box import box_to_mask, box_values
from fnmcts.protocol import describe_move

from cli_run import run, write_user_game
from fnmcts.cli import main


@pytest.fixture
def user_game(tmp_path, monkeypatch):
    return write_user_game(tmp_path, monkeypatch, "verbs_take_away")


# the verbs, each with the options that make its output a pure function of the arguments
VERBS = {
    "simulate": ("--games", "200", "--seed", "3", "--json"),
    "search": ("--dives", "200", "--seed", "3", "--json"),
    "solve": ("--json",),
    "move": ("--state", "[3, 0]", "--ai", "exact", "--seed", "1", "--json"),
    "check": ("--examples", "5", "--json"),
    "count": ("--json",),
    "playthrough": ("--seed", "4"),
    "tournament": ("--games", "20", "--seed", "2", "--json"),
    "table": ("-o", "-"),
}


def _argv(verb, spec, options, old: bool):
    agents = ("perfect", "random") if verb == "tournament" else ()
    if not old:
        return (verb, spec, *agents, *options)
    return (verb, *agents, "--game", spec, *options)


@pytest.mark.slow
@pytest.mark.parametrize("verb", sorted(VERBS))
def test_every_verb_takes_a_users_game_first_and_the_old_game_flag_gives_the_same(capsys, user_game, verb):
    new = run(capsys, *_argv(verb, user_game, VERBS[verb], old=False))
    old = run(capsys, *_argv(verb, user_game, VERBS[verb], old=True))
    assert new[0] == 0, new
    assert _steady(new) == _steady(old)


def _steady(result):
    """A command's result without its timings (a speed or an estimate of seconds)."""
    code, out, err = result
    if out.startswith("{"):
        out = {k: v for k, v in json.loads(out).items() if k not in ("dives_per_second", "estimate_seconds")}
    return code, out, err


def test_the_old_any_spelling_is_still_read(capsys, user_game):
    new = run(capsys, "solve", user_game, "--json")
    old = run(capsys, "solve", "any", "--game", user_game, "--json")
    assert new == old and new[0] == 0
    assert json.loads(new[1])["winner"] == "mover"  # 5 stones, take 1 or 2, last wins: 5 % 3 != 0


def test_a_built_in_game_with_parameters_is_the_game_its_options_make(capsys):
    by_spec = run(capsys, "simulate", "nim(heap=6, misere=False)", "--games", "300", "--seed", "8", "--json")
    by_options = run(capsys, "simulate", "nim", "--heap", "6", "--no-misere", "--games", "300", "--seed", "8", "--json")
    assert by_spec[0] == by_options[0] == 0
    a, b = json.loads(by_spec[1]), json.loads(by_options[1])
    assert (a["wins"], a["losses"]) == (b["wins"], b["losses"])


@pytest.mark.parametrize("argv, message", [
    (("simulate", "nosuchmodule:Game"), "cannot import 'nosuchmodule'"),
    (("count", "nim(heap=-2)"), "heap must be at least 0"),
    (("check", "fnmcts.games:Nothing"), "has no 'Nothing'"),
    (("train", "kayles(pins=3)", "-o", "-", "--foo"), "unrecognized arguments"),
])
def test_a_bad_game_is_one_line_and_exit_2(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and message in err and err.count("\n") == 1, err


def test_help_of_a_verb_says_how_to_name_a_game(capsys):
    code, out, _ = run(capsys, "solve", "--help")
    assert code == 0 and "module:attribute" in out and "any --game SPEC" in out


# -- play: one loop, one or two players, hints -----------------------------------------


def _scripted(monkeypatch, answers):
    answers = iter(answers)

    def read(prompt):
        print(prompt, end="")
        try:
            line = next(answers)
        except StopIteration:
            raise EOFError from None
        print(line)
        return line

    monkeypatch.setattr("fnmcts.cli.play.read_line", read)


def test_solver_hints_show_every_move_s_exact_value_and_mark_the_best(capsys, monkeypatch):
    game = Nim(heap=7, max_take=3, misere=False)
    _scripted(monkeypatch, ["1"])
    code, out, _ = run(capsys, "play", "nim", "--heap", "7", "--normal", "--hints", "solver", "--ai", "random", "--seed", "1")
    assert code == 0
    first = next(line for line in out.splitlines() if line.startswith("hint"))
    solution = solve(game)
    best = {describe_move(game, game.start(), m) for m in best_moves(game, solution, game.start())}
    marked = set(re.findall(r"(take \d): win \(best\)", first))
    assert marked == best == {"take 3"}  # 7 = 4 + 3: leave a multiple of 4
    assert first.count("loss") == 2


def test_agent_hints_show_the_agent_s_move(capsys, monkeypatch):
    _scripted(monkeypatch, ["2"])
    code, out, _ = run(capsys, "play", "nim", "--heap", "10", "--hints", "perfect", "--ai", "random", "--seed", "1")
    assert code == 0
    # misère Nim, take 1-3: leave 1 modulo 4, so from 10 take 1
    assert "hint (perfect): take 1" in out.splitlines()


def test_a_one_player_game_plays_in_the_same_loop_with_the_solver_s_hints(capsys, monkeypatch):
    game = ShutTheBox(levers=6)
    _scripted(monkeypatch, ["1"] * 20)
    code, out, _ = run(capsys, "play", "shut-the-box(levers=6)", "--hints", "solver", "--seed", "5", "--games", "3")
    assert code == 0
    lines = out.splitlines()
    # the values stand beside the numbered choices, as the tutorial's loop showed them
    assert lines[:2] == ["hints: each move's exact chance of winning with optimal play afterwards", "-- game 1 of 3"]
    values = box_values(game)  # Shut the Box's own solver on bitmasks, not the one the hints use
    hints = [(i, found) for i, line in enumerate(lines) if (found := re.fullmatch(r" +\d+\) flip ([\d ]+?) +win ([\d.]+)", line))]
    assert hints
    for i, found in hints:
        box_line = next(lines[j] for j in range(i - 1, -1, -1) if lines[j].startswith("box"))
        box = frozenset(int(x) for x in box_line.split("roll")[0].split()[1:] if x.isdigit())
        value = values[box_to_mask(box - frozenset(map(int, found.group(1).split())))]
        assert found.group(2) == f"{float(value):.4f}", lines[i]
    assert re.fullmatch(r"games 3, wins \d, losses \d", lines[-1])


def test_an_unknown_hint_is_one_line(capsys, monkeypatch):
    _scripted(monkeypatch, [])
    code, _, err = run(capsys, "play", "nim", "--hints", "oracle")
    # a hint is a value hint (solver, optimal, random) or an agent: the message names both
    assert code == 2 and "unknown hint 'oracle'" in err and "solver, optimal, random" in err and err.count("\n") == 1


# -- table and train on any game --------------------------------------------------------


def test_the_table_of_exact_values_agrees_with_shut_the_box_s_own_solver(capsys, tmp_path):
    game = ShutTheBox(levers=5)
    target = tmp_path / "values.json"
    code, out, _ = run(capsys, "table", "shut-the-box(levers=5)", "-o", str(target), "--json")
    assert code == 0
    summary, table = json.loads(out), json.loads(target.read_text())
    assert summary["rows"] == table["row_count"] == len(table["rows"])
    values = box_values(game)  # bitmask tables, another solver than the exact one the table uses
    boxes = [row for row in table["rows"] if set(row["state"]) == {"box"}]
    # every box but {2, 3, 4, 5}: flipping lever 1 alone needs a roll of 1, which two dice never show
    assert sorted(map(tuple, (row["state"]["box"] for row in boxes))) == sorted(
        tuple(sorted(b)) for b in map(frozenset, _subsets(range(1, 6))) if b != frozenset({2, 3, 4, 5}))
    for row in boxes:
        assert row["value_exact"] == [str(values[box_to_mask(frozenset(row["state"]["box"]))])]


def test_the_table_refuses_a_game_too_large_to_solve_and_names_force(capsys):
    code, _, err = run(capsys, "table", "pig", "-o", "-")
    assert code == 2 and "2,021,201 states" in err and "--force" in err and err.count("\n") == 1


def test_train_learns_any_two_player_game_as_the_library_does(capsys, tmp_path):
    from fnmcts.games import Kayles
    from fnmcts.qlearning import train

    target = tmp_path / "q.json"
    code, out, err = run(capsys, "train", "kayles(pins=(5,))", "--games", "300", "--seed", "4", "--eval-games", "20",
                         "-o", str(target), "--json")
    assert code == 0, err
    report = json.loads(out)
    ai = train(300, seed=4, game=Kayles(pins=(5,)))
    assert report["q_entries"] == len(ai.q) and report["game"] == "kayles"
    assert 0 <= report["optimal_move_rate"] <= 1 and json.loads(target.read_text())["game"]["pins"] == [5]


@pytest.mark.parametrize("spec, message", [
    ("piles(piles=(9, 9, 9, 9, 9, 9, 9))", "up to 20,000,000 states"),  # 10**7 pile sizes, two players to move
    ("shut-the-box", "two players"),
])
def test_train_refuses_a_game_too_large_for_a_table_or_not_of_two_players(capsys, spec, message):
    code, _, err = run(capsys, "train", "any", "--game", spec, "-o", "-")
    assert code == 2 and message in err and err.count("\n") == 1, err


def _subsets(items):
    from itertools import combinations

    items = list(items)
    return [c for k in range(len(items) + 1) for c in combinations(items, k)]


def _name_comparisons(source: str) -> list:
    """The lines of ``source`` that compare something with a built-in game's name (``kind == "nim"``, ``in ("pig",)``)."""
    import ast

    from fnmcts.games import GAMES

    names = set(GAMES) | {"shut_the_box", "tictactoe"}
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            for side in (node.left, *node.comparators):
                items = side.elts if isinstance(side, (ast.Tuple, ast.List, ast.Set)) else [side]
                if any(isinstance(x, ast.Constant) and x.value in names for x in items):
                    lines.append(node.lineno)
    return lines


@pytest.mark.slow
def test_no_module_outside_the_games_compares_a_game_s_name_as_a_string():
    """A feature of one game comes from a hook or a property of the game value, never from testing its name."""
    from pathlib import Path

    import fnmcts

    root = Path(fnmcts.__file__).parent
    found = [
        f"{path.relative_to(root)}:{line}"
        for path in root.rglob("*.py") if "games" not in path.relative_to(root).parts
        for line in _name_comparisons(path.read_text())
    ]
    assert not found, found


def test_the_guard_finds_a_comparison_of_a_game_s_name():
    assert _name_comparisons('if kind == "shut-the-box":\n    pass\nx = name in ("nim", "go")\n') == [1, 3]
    assert _name_comparisons('if kind == game_name(game):\n    pass\n') == []


def _parsers():
    """``(command line, parser)`` of every command and every GAME of it."""
    import argparse

    from fnmcts.cli import build

    def subs(parser):
        return [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]

    found = []
    for command in subs(build().parser):
        for name, parser in command.choices.items():
            games = subs(parser)
            found += [(f"{name} {game}", sub) for g in games for game, sub in g.choices.items()] or [(name, parser)]
    return found


INTERACTIVE = ("play", "tour")


@pytest.mark.slow
def test_every_non_interactive_command_takes_json():
    missing = [line for line, parser in _parsers()
               if line.split()[0] not in INTERACTIVE and "--json" not in parser._option_string_actions]
    assert not missing, missing
    assert len(_parsers()) > 40  # every verb, with the games of those that list them


def test_playthrough_in_json_holds_the_text_it_prints(capsys):
    code, text, _ = run(capsys, "playthrough", "nim", "--seed", "2", "--max-steps", "3")
    code_json, out, _ = run(capsys, "playthrough", "nim", "--seed", "2", "--max-steps", "3", "--json")
    data = json.loads(out)
    assert code == code_json == 0 and data["text"] == text and data["states"] == text.count("# state ")


def test_shut_the_box_s_own_play_reads_hints_solver_as_its_optimal_hints(capsys, monkeypatch):
    monkeypatch.setattr("fnmcts.cli.play.read_line", lambda prompt: (_ for _ in ()).throw(EOFError()))  # the one loop
    solver = run(capsys, "play", "shut-the-box", "--levers", "6", "--hints", "solver", "--seed", "3")
    optimal = run(capsys, "play", "shut-the-box", "--levers", "6", "--hints", "optimal", "--seed", "3")
    assert solver == optimal and solver[0] == 0 and " win " in solver[1]


def test_a_typo_of_a_game_s_name_says_what_a_game_can_be(capsys):
    code, _, err = run(capsys, "table", "nmi", "-o", "-")
    assert code == 2 and err.count("\n") == 1
    assert "invalid choice: 'nmi'" in err and "module:attribute" in err and "openspiel:NAME(params)" in err


def test_move_shows_the_hints_beside_the_agent_s_move(capsys):
    game = Nim(heap=9, max_take=3, misere=False)
    state = game.state(9)
    data = json.loads(run(capsys, "move", "nim", "--heap", "9", "--normal", "--state", "9", "--ai", "random",
                          "--hints", "solver", "--seed", "2", "--json")[1])
    best = {describe_move(game, state, m) for m in best_moves(game, solve(game, state), state)}
    assert set(re.findall(r"(take \d): win \(best\)", data["hints"][0])) == best == {"take 1"}  # leave 8
    code, out, _ = run(capsys, "move", "nim", "--state", "10", "--ai", "random", "--hints", "perfect", "--seed", "2")
    assert code == 0 and out.splitlines()[1] == "hint (perfect): take 1"  # misère: leave 1 modulo 4


def test_a_typo_of_a_game_s_name_offers_the_nearest_name_and_the_verb_s_own_games(capsys):
    code, _, err = run(capsys, "simulate", "nmi")
    assert code == 2 and "did you mean 'nim'?" in err and "simulate also takes coin, darts" in err
    code, _, err = run(capsys, "simulate", "zzzz")
    assert code == 2 and "did you mean" not in err


def test_a_game_named_on_a_verb_is_named_so_in_its_usage_and_errors(capsys):
    code, _, err = run(capsys, "table", "tic-tac-toe")
    assert code == 2 and err.startswith("fnmcts table tic-tac-toe: error:") and " any" not in err
    with pytest.raises(SystemExit):
        main(["table", "tic-tac-toe", "--help"])
    usage = capsys.readouterr().out
    assert usage.startswith("usage: fnmcts table tic-tac-toe [-h] -o FILE") and "--game" not in usage
