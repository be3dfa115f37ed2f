"""Files a verb reads, given as a device or a directory: one line and exit 2, never a read without end."""

import os

import pytest
from cli_run import run


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
@pytest.mark.parametrize("argv", [("check", "nim", "--golden"), ("mutate", "nim", "--playthrough")])
def test_a_device_is_refused_before_it_is_read(capsys, argv):
    code, out, err = run(capsys, *argv, "/dev/zero")  # read whole, it would fill the memory
    assert (code, out) == (2, "")
    assert err == f"fnmcts: error: {argv[-1]}: the {argv[-1][2:].replace('golden', 'golden file')} /dev/zero " \
                  "is not a regular file (a device or a pipe): refusing to read it\n"


@pytest.mark.parametrize("argv", [("check", "nim", "--golden"), ("mutate", "nim", "--playthrough")])
def test_a_directory_is_named_as_one(capsys, tmp_path, argv):
    code, out, err = run(capsys, *argv, str(tmp_path))
    assert (code, out) == (2, "")
    assert err.endswith(f"{tmp_path} is a directory: give the name of a file\n") and len(err.splitlines()) == 1


def test_a_golden_that_is_not_text_says_so(capsys, tmp_path):
    (tmp_path / "g.json").write_bytes(b"\xff\xfe")
    code, out, err = run(capsys, "check", "nim", "--golden", str(tmp_path / "g.json"))
    assert (code, out) == (2, "")
    assert err == f"fnmcts: error: {tmp_path / 'g.json'} is not a golden file of fnmcts (not UTF-8 text: invalid start byte)\n"


def test_exercise_check_names_a_directory_as_one(capsys, tmp_path):
    code, out, err = run(capsys, "exercise", "check", "1", str(tmp_path))
    assert (code, out) == (2, "")
    assert err == f"fnmcts: error: {tmp_path} is a directory: give the name of a file\n"  # it said 'no such file'
