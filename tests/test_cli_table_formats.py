"""``fnmcts table ... -o FILE``: a .csv name gets real CSV (the csv module reads it back), .json JSON, ``--format`` either."""

import csv
import json
from fractions import Fraction

import pytest

from fnmcts.exact import solve
from fnmcts.games import Nim
from fnmcts.protocol import state_from_json

from cli_run import run


@pytest.mark.parametrize("heap", [1, 4, 6])
def test_a_csv_table_reads_back_as_every_states_exact_values(capsys, tmp_path, heap):
    path = tmp_path / "values.csv"
    assert run(capsys, "table", f"nim(heap={heap})", "-o", str(path))[0] == 0
    rows = list(csv.DictReader(path.open(newline="")))
    game = Nim(heap=heap)
    solution = solve(game)
    assert len(rows) == len(solution)
    for row in rows:
        state = state_from_json(game, json.loads(row["state"]))
        assert (Fraction(row["value_1"]), Fraction(row["value_2"])) == tuple(solution[state])


def test_format_csv_writes_csv_to_any_name_and_json_reads_as_json(capsys, tmp_path):
    code, out, _ = run(capsys, "table", "nim(heap=3)", "-o", "-", "--format", "csv")
    assert code == 0 and out.splitlines()[0] == "state,to_move,value_1,value_2,best_moves"
    path = tmp_path / "values.txt"
    assert run(capsys, "table", "nim(heap=3)", "-o", str(path), "--format", "json")[0] == 0
    assert json.loads(path.read_text())["row_count"] == 6


def test_shut_the_boxs_csv_best_move_table_has_a_row_per_box_and_roll(capsys, tmp_path):
    path = tmp_path / "best.csv"
    assert run(capsys, "table", "shut-the-box", "--levers", "3", "-o", str(path))[0] == 0
    rows = list(csv.DictReader(path.open(newline="")))
    assert list(rows[0]) == ["box", "roll", "flip", "move", "probability", "value", "ties"]
    assert len(rows) == len({(r["box"], r["roll"]) for r in rows}) > 0
    assert all(Fraction(r["probability"]) == Fraction(r["value"]).limit_denominator(10 ** 6) for r in rows)


def test_the_help_says_what_a_csv_name_gets(capsys):
    out = run(capsys, "table", "any", "--help")[1]
    assert ".csv gets CSV" in " ".join(out.split())
