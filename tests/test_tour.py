"""``fnmcts tour`` and the examples run as scripts: REPL sessions with real results."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from fnmcts.cli import main
from fnmcts.cli.session import session_lines
from fnmcts.cli.tour import STEPS

ROOT = Path(__file__).parent.parent


def test_session_shows_statements_and_values():
    lines = list(session_lines("# a step\nx = [3, 1]\nsorted(x)\n# => [1, 3]\nprint('hi')\nNone\n"))
    assert lines == ["# a step", ">>> x = [3, 1]", ">>> sorted(x)", "[1, 3]", ">>> print('hi')", "hi", ">>> None"]


def test_one_task(capsys):
    assert main(["tour", "--task", "3"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "== Task 3: Game state =="
    assert ">>> len(all_boxes()) * len(DICE_PROBABILITIES)" in out
    assert out[out.index(">>> len(all_boxes()) * len(DICE_PROBABILITIES)") + 1] == "5632"


def test_unknown_task_is_a_one_line_error(capsys):
    assert main(["tour", "--task", "99"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("fnmcts: error: no step '99'") and err.count("\n") == 1


@pytest.mark.slow
def test_whole_tour_runs_straight_through_off_a_terminal():
    run = subprocess.run([sys.executable, "-m", "fnmcts", "tour"], capture_output=True, text=True, input="",
                         timeout=300, check=True)
    out = run.stdout
    headers = [line for line in out.splitlines() if line.startswith("== ")]
    assert len(headers) == len(STEPS) == 18
    assert headers[0].startswith("== Task 1:") and headers[12].startswith("== Task 13:")
    assert "Enter" not in out  # no pauses without a terminal
    # the last screen: the exact optimum beside the Monte Carlo and MCTS estimates
    tail = out.splitlines()[-5:]
    assert tail[1].split()[-1] == "0.0204" and tail[4].split()[-1] == "0.0714"
    estimate = float(tail[0].split()[-3])
    assert abs(estimate - 0.0204) < 0.001
    assert 0.02 < float(tail[3].split()[-1]) <= 0.0714


def test_an_example_run_as_a_script_shows_its_session():
    run = subprocess.run([sys.executable, str(ROOT / "examples" / "task02_rules.py")], capture_output=True,
                         text=True, timeout=120, check=True)
    lines = run.stdout.splitlines()
    assert ">>> sorted(start_box)" in lines
    assert lines[lines.index(">>> sorted(start_box)") + 1] == "[1, 2, 3, 4, 5, 6, 7, 8, 9]"
    assert not any("run_as_session" in line for line in lines)
    assert not any(line.startswith("# =>") for line in lines)


EXAMPLES = sorted((ROOT / "examples").glob("*.py"))


def test_every_example_pastes_into_a_repl_and_opens_as_a_notebook():
    from fnmcts.cli.session import paste_problems

    assert len(EXAMPLES) >= 23
    for path in EXAMPLES:
        source = path.read_text()
        assert paste_problems(source) == [], path.name
        assert source.count("\n# %%\n") >= 3, f"{path.name}: no notebook cells"
        assert "run_as_session(globals())" in source, path.name


def test_paste_check_catches_a_statement_right_after_a_loop():
    from fnmcts.cli.session import paste_problems

    assert paste_problems("box = 1\nfor i in range(2):\n    box += i\nbox\n")[0][0] == 4


def test_an_example_opens_and_runs_as_a_notebook():
    jupytext = __import__("pytest").importorskip("jupytext")
    notebook = jupytext.read(ROOT / "examples" / "task02_rules.py")
    code = [cell.source for cell in notebook.cells if cell.cell_type == "code"]
    assert len(code) >= 5
    namespace = {"__name__": "__main__", "get_ipython": lambda: None}  # as a kernel runs the cells
    for source in code:
        exec(compile(source, "<cell>", "exec"), namespace)
    assert sorted(namespace["start_box"]) == list(range(1, 10)) and namespace["box"] == frozenset()


def test_every_place_shown_in_the_tour_is_a_task_number_it_takes(capsys):
    """The whole tour numbers its screens "(N of 18)": ``--task N`` shows screen N, whatever its name."""
    from fnmcts.cli.tour import _find

    for place, step in enumerate(STEPS, 1):
        assert _find(str(place)) is step
    assert [step.key for step in STEPS[13:]] == ["trace", "nim", "q", "test", "end"]  # 14 to 18 have names
    assert main(["tour", "--task", "17", "--no-pause"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"== {STEPS[16].title} =="


def test_task_5_plays_by_hand_until_the_game_ends(capsys):
    from fnmcts.games.shut_the_box import possible_moves

    assert main(["tour", "--task", "5", "--no-pause"]) == 0
    out = capsys.readouterr().out.splitlines()
    rolls = [line.split() for line in out if line.startswith("levers up")]
    assert rolls and out[-2] == '>>> "won" if not box else "lost"'
    for words in rolls[:-1]:
        assert words[-1] == "it"  # every roll but the last flips its lever
    last = rolls[-1]
    levers = frozenset(int(w.strip("[],")) for w in last[2:last.index("roll")])
    roll = int(last[last.index("roll") + 1])
    if out[-1] == "'lost'":  # the game ended because the last roll's lever was down
        assert possible_moves(levers, roll, simplified=True) == frozenset() and last[-1] == "lost"
    else:
        assert out[-1] == "'won'" and levers == {roll}


@pytest.mark.slow
def test_the_nim_screen_shows_flat_monte_carlo_winning_something(capsys):
    assert main(["tour", "--task", "nim", "--no-pause"]) == 0
    out = capsys.readouterr().out.splitlines()
    shown = [out[i + 1] for i, line in enumerate(out) if line.startswith(">>> tournament(") and "montecarlo_agent," in line]
    assert len(shown) == 2
    first_wins = [int(line.split("Player 1 wins ")[1].split()[0]) for line in shown]
    assert first_wins[0] > 10  # against random play from 21 it wins most games
    assert first_wins[1] < 20  # from 22 against perfect play it is shown slipping, not silent
