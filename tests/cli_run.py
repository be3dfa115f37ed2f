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


TAKE_AWAY = '''
from dataclasses import dataclass
from fnmcts import GameBase

@dataclass(frozen=True)
class TakeAway(GameBase):
    stones: int = 7
    num_players = 2
    def start(self): return (self.stones, 0)
    def to_move(self, state): return state[1] if state[0] else None
    def possible_moves(self, state): return tuple(m for m in (1, 2) if m <= state[0])
    def play(self, state, move): return (state[0] - move, 1 - state[1])
    def payoff(self, state): return (-1, 1) if state[1] == 0 else (1, -1)
'''
"""A two-player game written outside the package, as a user writes one (take 1 or 2 stones, the last taker wins)."""


def write_user_game(tmp_path, monkeypatch, module: str) -> str:
    """Write ``TAKE_AWAY`` as ``module.py`` in ``tmp_path``, importable from there; its spec ``module:TakeAway(stones=5)``."""
    (tmp_path / f"{module}.py").write_text(TAKE_AWAY)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    return f"{module}:TakeAway(stones=5)"
