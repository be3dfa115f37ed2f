"""Saved searches read back with care: every bad field named with what it must be, pipes refused, ``-`` refused."""

import json
import os
import subprocess
import sys

import pytest

from fnmcts.cli import main


def _run(capsys, *argv):
    code = main(["search", "shut-the-box", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def saved_search(tmp_path_factory):
    path = tmp_path_factory.mktemp("saved") / "s.json"
    assert main(["search", "shut-the-box", "--dives", "200", "--seed", "1", "--save", str(path), "--json"]) == 0
    return json.loads(path.read_text())


def _write(tmp_path, data, change):
    copy = json.loads(json.dumps(data))
    change(copy)
    path = tmp_path / "changed.json"
    path.write_text(json.dumps(copy))
    return path


def _set(key, value, where="search"):
    return lambda data: data[where].__setitem__(key, value)


@pytest.mark.parametrize(
    "change, words",
    [
        (_set("z", None), "a bad z None (a finite number, 0 or more)"),
        (_set("c", "1.4"), "a bad c '1.4' (a finite number, 0 or more)"),
        (_set("seed", "x"), "a bad seed 'x' (a whole number, 0 or more)"),
        (_set("seed", -1), "a bad seed -1"),
        (_set("seed", True), "a bad seed True"),
        (_set("dives", 10**30), "a bad dives 1000000000000000000000000000000 (a whole number from 0 to 2**53)"),
        (_set("done", 10**30), "a bad done 1000000000000000000000000000000"),
        (_set("done", 2.5), "a bad done 2.5"),
        (_set("max_nodes", 1), "a bad max_nodes 1"),
        (_set("backup", "max"), "a bad backup 'max' (mean or expectimax)"),
        (lambda data: data["search"].pop("rng"), "the saved search lacks rng"),
        (_set("levers", 12, "game"), "does not hold the start of"),
    ],
)
@pytest.mark.slow
def test_a_bad_saved_search_is_refused_naming_the_field_and_what_it_must_be(capsys, tmp_path, saved_search,
                                                                            change, words):
    code, out, err = _run(capsys, "--resume", _write(tmp_path, saved_search, change))
    assert code == 2 and out == ""
    assert words in err and err.count("\n") == 1
    assert "Traceback" not in err and "NoneType" not in err and "has not seen" not in err


def test_a_rule_s_unused_constant_is_still_checked(capsys, tmp_path, saved_search):
    """``z: null`` under UCB1 would be dropped silently today and break the file for the tutorial's rule."""
    code, _, err = _run(capsys, "--resume", _write(tmp_path, saved_search, _set("z", float("nan"))))
    assert code == 2 and "a bad z nan" in err


@pytest.mark.slow
def test_a_good_saved_search_still_resumes(capsys, tmp_path, saved_search):
    code, out, err = _run(capsys, "--resume", _write(tmp_path, saved_search, lambda data: None), "--dives", "250")
    assert code == 0, err


@pytest.mark.parametrize("flag", ["--save", "--resume"])
def test_a_dash_is_not_a_file_name_for_a_saved_search(capsys, tmp_path, monkeypatch, flag):
    monkeypatch.chdir(tmp_path)
    code, out, err = _run(capsys, "--dives", "10", flag, "-")
    assert code == 2 and f"{flag} needs a file name" in err and "standard output" in err
    assert not (tmp_path / "-").exists()


def test_resume_refuses_a_fifo_instead_of_waiting_for_a_writer(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    done = subprocess.run([sys.executable, "-m", "fnmcts", "search", "shut-the-box", "--resume", str(fifo)],
                          capture_output=True, text=True, timeout=120)  # a hang fails here, not forever
    assert done.returncode == 2 and "not a regular file (a device or a pipe)" in done.stderr
