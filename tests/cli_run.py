"""What the command-line tests share: run ``fnmcts`` in the test's process and read what it printed."""

import io
import json

from fnmcts.cli import main


def run(capsys, *argv, stdin=None, monkeypatch=None):
    """``(exit status, standard output, standard error)`` of ``fnmcts ARGV`` (``stdin``: the text typed, with ``monkeypatch``)."""
    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    try:
        code = main(list(argv))
    except SystemExit as exit_:  # argparse stops at bad arguments with status 2
        code = exit_.code
    out, err = capsys.readouterr()
    return code, out, err


def run_json(capsys, *argv):
    """The one JSON object ``fnmcts ARGV --json`` prints (it must exit 0 and print exactly one line)."""
    code, out, err = run(capsys, *argv, "--json")
    assert code == 0, err
    lines = out.strip().splitlines()
    assert len(lines) == 1, out
    return json.loads(lines[0])
