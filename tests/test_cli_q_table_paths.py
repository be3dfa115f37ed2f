"""``--q-table`` that is missing, a folder or a device: named as what it is, with the command that trains one."""

import os

import pytest
from cli_run import run, write_user_game


def test_a_folder_is_not_called_missing(capsys, tmp_path):
    code, out, err = run(capsys, "move", "nim", "--ai", "q", "--q-table", str(tmp_path))
    assert (code, out) == (2, "")
    assert err == (f"fnmcts: error: the Q table {tmp_path} is a directory: give the file a training wrote "
                   "(train one with `fnmcts train nim -o FILE`)\n")


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_a_device_is_not_called_missing(capsys):
    code, out, err = run(capsys, "move", "nim", "--ai", "q", "--q-table", "/dev/zero")
    assert (code, out) == (2, "") and "/dev/zero is not a regular file (a device or a pipe)" in err


def test_a_game_of_ones_own_is_told_its_training_command(capsys, tmp_path, monkeypatch):
    spec = write_user_game(tmp_path, monkeypatch, "take_q")
    code, out, err = run(capsys, "move", spec, "--ai", "q", "--q-table", "missing.json")
    assert (code, out) == (2, "")
    assert err == "fnmcts: error: no Q table at missing.json (train one with `fnmcts train 'take_q:TakeAway(stones=5)' -o FILE`)\n"
    code, out, err = run(capsys, "train", spec, "-o", "q.json", "--games", "50", "--eval-games", "10", "--seed", "1")  # the command it names
    assert code == 0, err
    assert run(capsys, "move", spec, "--ai", "q", "--q-table", "q.json")[0] == 0
