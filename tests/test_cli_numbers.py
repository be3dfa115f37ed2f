"""Numbers on the command line come back in the user's terms: a huge count in short form, never its 100
digits, and an error names the flag the user typed (--dives, --trees), never the library's keyword."""

from __future__ import annotations

import pytest

from cli_run import run


@pytest.mark.parametrize("argv, short", [
    (("simulate", "nim", "--games", "1e99"), "1e+99 games"),
    (("search", "nim", "--dives", "1e99"), "1e+99 dives"),
    (("tournament", "nim", "random", "mcts", "--games", "1e99"), "1e+99 games"),
    (("train", "nim", "--games", "1e99", "-o", "q.json"), "1e+99 games"),
    (("explore", "nim", "--dives", "1e99", "-o", "page.html"), "a trace of 1e+99 dives"),
])
def test_a_huge_count_is_refused_in_short_form(argv, short, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, *argv)
    assert code != 0 and short in err, err
    assert len(err.strip().splitlines()) == 1 and not any(len(word) > 30 for word in err.split()), err
    assert list(tmp_path.iterdir()) == []


def test_no_dives_names_the_flag(capsys):
    code, out, err = run(capsys, "search", "nim", "--dives", "0")
    assert code == 2 and "--dives" in err and "iterations" not in err, err


@pytest.mark.parametrize("argv", [("search", "nim", "--dives", "4", "--trees", "5"),
                                  ("move", "nim", "--ai", "mcts", "--dives", "100", "--trees", "1e99")])
def test_more_trees_than_dives_is_refused_naming_both_flags(argv, capsys):
    code, out, err = run(capsys, *argv)
    assert code == 2 and "--trees" in err and "is more than --dives" in err, err
    assert out == ""
