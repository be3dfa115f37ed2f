"""Files at the edges: two writers of one file, pipes and endless devices, numbers no float holds."""

import json
import os
import subprocess
import sys
import textwrap

import pytest

from fnmcts.cli import main
from fnmcts.files import claim_target, partial_path, read_file, release_target, write_atomically
from fnmcts.games import GAMES, Nim
from fnmcts.io import load_ai, save_ai
from fnmcts.qlearning import train


@pytest.fixture
def held_elsewhere(tmp_path):
    """A file claimed by another process (as a running ``fnmcts train -o`` claims its output)."""
    target = tmp_path / "q.json"
    holder = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(f"""
            import sys, time
            from fnmcts.files import claim_target
            claim_target({str(target)!r})
            print("held", flush=True)
            sys.stdin.read()
        """)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )
    assert holder.stdout.readline().strip() == "held"
    yield target
    holder.stdin.close()
    holder.wait(timeout=60)


@pytest.mark.parametrize(
    "argv",
    [
        ["train", "nim", "--games", "10", "--no-exact", "-o", "{}"],
        ["search", "shut-the-box", "--dives", "10", "--save", "{}"],
        ["table", "shut-the-box", "--levers", "3", "-o", "{}"],
    ],
)
def test_a_second_writer_of_one_output_file_is_refused_before_its_work(capsys, held_elsewhere, argv):
    held_elsewhere.write_text("the first writer's\n")
    code = main([a.replace("{}", str(held_elsewhere)) for a in argv])
    _, err = capsys.readouterr()
    assert code == 2 and "is being written by another process" in err and err.count("\n") == 1
    assert held_elsewhere.read_text() == "the first writer's\n"


def test_the_library_refuses_to_write_a_file_another_process_writes(held_elsewhere):
    with pytest.raises(ValueError, match="being written by another process"):
        write_atomically(held_elsewhere, "mine\n")
    assert not held_elsewhere.exists()


def test_a_claim_is_let_go_when_its_holder_ends(tmp_path):
    target = tmp_path / "q.json"
    subprocess.run([sys.executable, "-c", f"from fnmcts.files import claim_target; claim_target({str(target)!r})"],
                   check=True, timeout=120)
    assert claim_target(target) == target.resolve()  # the ended holder left nothing held
    release_target(target)
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # and no lock file lies about


def test_one_process_may_write_its_own_claimed_file_twice(tmp_path):
    target = tmp_path / "t.txt"
    claim_target(target)
    try:
        write_atomically(target, "one\n")
        write_atomically(target, "two\n")
    finally:
        release_target(target)
    assert target.read_text() == "two\n" and sorted(p.name for p in tmp_path.iterdir()) == ["t.txt"]


def test_a_partial_result_goes_beside_the_file():
    assert partial_path("out/q.json").name == "q.partial.json" and partial_path("out/table").name == "table.partial"


def test_load_ai_refuses_an_endless_device_and_a_pipe(tmp_path):
    with pytest.raises(ValueError, match="not a regular file"):
        load_ai("/dev/zero", GAMES)
    fifo = tmp_path / "q.fifo"
    os.mkfifo(fifo)
    done = subprocess.run([sys.executable, "-c", f"from fnmcts import load_ai; load_ai({str(fifo)!r})"],
                          capture_output=True, text=True, timeout=120)  # a hang fails here
    assert done.returncode == 1 and "ValueError" in done.stderr and "not a regular file" in done.stderr


def test_read_file_refuses_a_file_beyond_its_limit(tmp_path):
    path = tmp_path / "big.json"
    path.write_text("x" * 101)
    with pytest.raises(ValueError, match="larger than 100 bytes"):
        read_file(path, "Q table", limit=100)
    assert read_file(path, limit=101) == b"x" * 101


def _q_table_holding(tmp_path, number_text):
    path = tmp_path / "q.json"
    save_ai(train(50, seed=1, game=Nim(heap=5)), path)
    data = json.loads(path.read_text())
    data["q"][0][2] = 0.123456789
    text = json.dumps(data).replace("0.123456789", number_text, 1)
    path.write_text(text)
    return path


@pytest.mark.parametrize("number", ["1" + "0" * 400, "1e400", "-" + "9" * 400])
def test_a_q_value_no_float_holds_is_a_clear_error_in_the_library_and_the_cli(capsys, tmp_path, number):
    path = _q_table_holding(tmp_path, number)
    with pytest.raises(ValueError, match="q.json") as caught:
        load_ai(path, GAMES)
    assert "finite" in str(caught.value) or "too large for a float" in str(caught.value)
    code = main(["move", "nim", "--ai", "q", "--q-table", str(path), "--state", "5"])
    _, err = capsys.readouterr()
    assert code == 2 and err.startswith("fnmcts: error: bad Q table") and "Traceback" not in err


@pytest.mark.parametrize("argv", [
    ["playthrough", "--check", "{fifo}"],
    ["search", "shut-the-box", "--resume", "{fifo}"],
    ["move", "nim", "--ai", "q", "--q-table", "{fifo}", "--state", "5"],
])
@pytest.mark.slow
def test_every_file_option_refuses_a_pipe(tmp_path, argv):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    done = subprocess.run([sys.executable, "-m", "fnmcts", *[a.replace("{fifo}", str(fifo)) for a in argv]],
                          capture_output=True, text=True, timeout=120)  # a hang fails here
    assert done.returncode == 2 and "Traceback" not in done.stderr and done.stderr.count("\n") == 1
    assert "not a regular file" in done.stderr or "no Q table" in done.stderr


def test_playthrough_check_refuses_an_endless_device(capsys):
    code = main(["playthrough", "--check", "/dev/zero"])
    assert code == 2 and "not a regular file" in capsys.readouterr().err


def test_a_command_lets_go_of_its_own_claims_only(tmp_path):
    mine = tmp_path / "mine.json"
    claim_target(mine)
    try:
        assert main(["train", "nim", "--heap", "5", "--games", "20", "--no-exact", "--seed", "1",
                     "-o", str(tmp_path / "q.json")]) == 0
        from fnmcts.files import held_claims

        assert held_claims() == {mine.resolve()}  # the command's q.json let go; the caller's claim kept
    finally:
        release_target(mine)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["q.json"]


@pytest.mark.parametrize("bad", [5, None, 2.5, ["a.txt"]])
def test_a_path_or_a_text_of_the_wrong_type_is_named_and_the_old_file_kept(tmp_path, bad):
    from fnmcts.files import check_target

    target = tmp_path / "kept.txt"
    target.write_text("old")
    for call in (lambda: write_atomically(bad, "x"), lambda: read_file(bad), lambda: check_target(bad)):
        with pytest.raises(TypeError, match=r"path must be a file path \(a str or a pathlib.Path\), got "):
            call()
    with pytest.raises(TypeError, match=r"^write_atomically\(path, text\): text must be a str or bytes, got "):
        write_atomically(target, bad)
    assert target.read_text() == "old" and sorted(p.name for p in tmp_path.iterdir()) == ["kept.txt"]
