"""A corpus of command lines a new user might type, run as real ``fnmcts`` processes, and what every run must show.

Each ``Line`` is one run: its arguments, what it reads on standard input, a
standard stream closed as a shell's ``>&-`` closes it, a signal sent after a
delay. ``run_line`` runs it in a folder holding broken games of a user's own
(``BROKEN_GAMES``, written as a user writes them) and ``problems`` lists what
is wrong with the run, whatever the line: a traceback, a run past 60 s, a
non-zero exit without exactly one line naming the problem, a partial or
temporary file left behind. The corpus itself (``corpus()``) is built from
general parts (every hook broken every way, on every verb; OpenSpiel's
parameters; paths; streams; signals; typos), not from known failures.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 60.0
"""Seconds a run may take."""

BROKEN_GAMES = '''
"""Games of a user's own, each broken in one way (the base game works)."""
from dataclasses import dataclass
from fractions import Fraction
from fnmcts import CHANCE, GameBase


@dataclass(frozen=True)
class Base(GameBase):
    """Take 1 or 2 stones; after each take a coin may take one more; the last to take wins by the stones left."""
    stones: int = 6
    num_players = 2

    def start(self): return (self.stones, 0, "move")
    def to_move(self, s):
        if s[0] == 0: return None
        return CHANCE if s[2] == "coin" else s[1]
    def possible_moves(self, s): return () if s[2] == "coin" else tuple(m for m in (1, 2) if m <= s[0])
    def chance_outcomes(self, s):
        if s[2] != "coin" or s[0] == 0: return ()
        return ((0, Fraction(1, 2)), (1, Fraction(1, 2)))
    def play(self, s, m):
        if s[2] == "coin": return (s[0] - m, 1 - s[1], "move")
        return (s[0] - m, s[1], "coin" if s[0] - m else "move")
    def payoff(self, s): return (1, -1) if s[1] == 0 else (-1, 1)
    def describe_move(self, s, m): return f"take {m} of {s[0]}"
    def render(self, s): return "o" * s[0] + f" (player {s[1] + 1})"


BREAKS = {
    "raise": lambda hook: _raiser(hook),
    "none": lambda hook: (lambda self, *a: None),
    "wrong": lambda hook: WRONG[hook],
}

WRONG = {
    "start": lambda self: [self.stones, 0, "move"],
    "to_move": lambda self, s: 7 if s[0] else None,
    "possible_moves": lambda self, s: 3,
    "chance_outcomes": lambda self, s: ((0, Fraction(1, 2)), (1, Fraction(2, 5))) if s[2] == "coin" else (),
    "play": lambda self, s, m: [s[0] - m, 1 - s[1], "move"],
    "payoff": lambda self, s: (1,),
    "describe_move": lambda self, s, m: 5,
    "render": lambda self, s: None,
    "state_to_json": lambda self, s: {1, 2},
    "payoff_range": lambda self: (1, -1),
}


def _raiser(hook):
    def broken(self, *args):
        raise RuntimeError(f"broken {hook}")
    return broken


for _hook in WRONG:
    for _kind, _make in BREAKS.items():
        _name = "".join(part.title() for part in _hook.split("_")) + _kind.title()
        globals()[_name] = dataclass(frozen=True)(type(_name, (Base,), {_hook: _make(_hook)}))


@dataclass(frozen=True)
class NeverEnds(Base):
    def play(self, s, m): return (s[0], 1 - s[1], "move")


@dataclass(frozen=True)
class Grows(Base):
    def play(self, s, m): return (s[0] + 1, 1 - s[1], "move")


@dataclass(frozen=True)
class OutOfRange(Base):
    def payoff(self, s): return (5, -5)


@dataclass(frozen=True)
class ReadsState(Base):
    def describe_move(self, s, m): return f"take {m}, leaving {s[0] - m}"


def not_a_game(): return 42
'''

HOOKS = ("start", "to_move", "possible_moves", "chance_outcomes", "play", "payoff", "describe_move", "render",
         "state_to_json", "payoff_range")
BREAKS = ("raise", "none", "wrong")
SPECIAL = ("NeverEnds", "Grows", "OutOfRange", "ReadsState", "Base")


def broken_names() -> list:
    """Every game of ``BROKEN_GAMES``: each hook broken each way, then the special ones."""
    names = ["".join(p.title() for p in hook.split("_")) + kind.title() for hook in HOOKS for kind in BREAKS]
    return names + list(SPECIAL)


@dataclass(frozen=True)
class Line:
    """One command line as a user runs it."""

    argv: tuple
    stdin: str | None = ""
    close: int | None = None  # a descriptor closed at the start: 0 (<&-) or 1 (>&-)
    signal: int | None = None  # sent after ``delay`` seconds
    delay: float = 0.0
    expect: str | None = None  # a text the one line must hold (the hook, the flag...)

    def __str__(self):
        shown = " ".join(self.argv)
        extra = {0: " <&-", 1: " >&-"}.get(self.close, "")
        if self.signal is not None:
            extra += f" (+{signal.Signals(self.signal).name} at {self.delay:.2f} s)"
        return f"fnmcts {shown}{extra}"


@dataclass
class Ran:
    line: Line
    status: int
    out: str
    err: str
    seconds: float
    files: list  # the names in the run's folder after it (the broken games' module aside)
    folder: Path


def prepare(folder: Path) -> None:
    """Write the user's broken games and an output folder into ``folder``."""
    (folder / "broken_games.py").write_text(BROKEN_GAMES)
    (folder / "out").mkdir(exist_ok=True)


def run_line(line: Line, folder: Path) -> Ran:
    """Run ``line`` as ``python -m fnmcts`` in ``folder`` (which ``prepare`` filled); what it did."""
    def child():
        if line.signal == signal.SIGINT:
            signal.signal(signal.SIGINT, signal.SIG_DFL)  # a terminal's job hears Ctrl-C
        if line.close is not None:
            os.close(line.close)

    stdin = None if line.close == 0 else (subprocess.DEVNULL if line.stdin is None else subprocess.PIPE)
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "fnmcts", *line.argv], cwd=folder, stdin=stdin,
        stdout=None if line.close == 1 else subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=child, start_new_session=True,
        env=os.environ | {"PYTHONPATH": str(ROOT), "PYTHONDONTWRITEBYTECODE": "1", "COLUMNS": "100"},
    )
    try:
        if line.signal is not None:
            if line.stdin and process.stdin is not None:
                process.stdin.write(line.stdin)
                process.stdin.flush()
            time.sleep(line.delay)
            if process.poll() is None:
                os.killpg(process.pid, line.signal) if line.signal == signal.SIGINT else process.send_signal(line.signal)
            out, err = process.communicate(timeout=LIMIT)
        else:
            out, err = process.communicate(input=line.stdin if stdin == subprocess.PIPE else None, timeout=LIMIT)
        status = process.returncode
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        out, err = process.communicate()
        status = None
    seconds = time.perf_counter() - started
    files = sorted(str(p.relative_to(folder)) for p in folder.rglob("*")
                   if p.name != "broken_games.py" and p.is_file() and "__pycache__" not in p.parts)
    return Ran(line, status, out or "", err or "", seconds, files, folder)


_NOTES = ("fnmcts: warning:", "fnmcts: checking ")  # lines that inform and go on: not the ending's line


def problems(ran: Ran) -> list:
    """What is wrong with a run: the rules every line obeys, whatever it asks."""
    found = []
    text = ran.err + ran.out
    for sign in ("Traceback (most recent call last)", "Exception ignored", "Fatal Python error", "Segmentation fault"):
        if sign in text:
            found.append(f"{sign!r} in the output")
    if ran.status is None:
        found.append(f"still running after {LIMIT:.0f} s")
        return found
    if ran.status < 0 and not (ran.line.signal is not None and -ran.status == ran.line.signal and ran.seconds < 0.5):
        found.append(f"killed by signal {-ran.status}")  # only a signal in the interpreter's own start-up may do that
    if ran.status not in (0, 1, 2, 130, 143) and ran.status >= 0:
        found.append(f"exit status {ran.status}")
    said = [line for line in ran.err.splitlines() if line.strip() and not line.startswith(_NOTES)]
    if ran.status > 0 and ran.line.close != 2:
        if len(said) != 1:
            found.append(f"exit {ran.status} with {len(said)} lines on standard error")
        elif not said[0].startswith("fnmcts") or len(said[0]) < 30 and not said[0].startswith("fnmcts: interrupted by"):
            found.append(f"exit {ran.status} with a line that names nothing: {said[0]!r}")
        elif ran.line.expect is not None and ran.line.expect not in said[0]:
            found.append(f"the line does not name {ran.line.expect!r}: {said[0]!r}")
    for name in ran.files:
        base = name.rsplit("/", 1)[-1]
        if base.startswith(".") or base.endswith(".tmp") or base == "-":
            found.append(f"a file left behind: {name}")
        elif ran.line.signal is not None and not _whole(Path(name), ran):
            found.append(f"a partial file: {name}")
    return found


def _whole(name: Path, ran: Ran) -> bool:
    """Whether a file written by a signalled run is whole: a page ends its html, JSON parses, a text ends its line."""
    import json

    try:
        text = (ran.folder / name).read_text()
        if name.suffix == ".json":
            json.loads(text)
            return True
    except (OSError, ValueError):
        return False
    if name.suffix == ".html":
        return text.rstrip().endswith("</html>")
    if name.suffix == ".svg":
        return text.rstrip().endswith("</svg>")
    return text.endswith("\n")


# -- the corpus ---------------------------------------------------------------------------------------------------

VERBS = {  # a verb on a user's game GAME, as a new user types it (out/ holds what is written)
    "search": ("search", "{g}", "--dives", "300", "--seed", "1"),
    "solve": ("solve", "{g}"),
    "count": ("count", "{g}"),
    "simulate": ("simulate", "{g}", "--games", "300", "--seed", "1"),
    "move": ("move", "{g}", "--ai", "mcts", "--dives", "200", "--seed", "1"),
    "tournament": ("tournament", "{g}", "random", "mcts", "--games", "4", "--dives", "50", "--seed", "1"),
    "playthrough": ("playthrough", "{g}", "--seed", "1"),
    "explore": ("explore", "{g}", "--dives", "30", "--seed", "1", "-o", "out/page.html"),
    "plot": ("plot", "{g}", "--dives", "100", "--points", "2", "--json"),
    "table": ("table", "{g}", "-o", "out/table.txt"),
    "check": ("check", "{g}", "--examples", "10"),
    "train": ("train", "{g}", "--games", "50", "--eval-games", "10", "--seed", "1", "-o", "out/q.json"),
    "play": ("play", "{g}", "--ai", "random", "--seed", "1"),
    "json": ("search", "{g}", "--dives", "100", "--seed", "1", "--json"),
}
"""Every verb (and one JSON run), with the options that keep a working game's run short."""

MOVES = "1\n" * 40  # what a person types at play's prompts


def broken_lines() -> list:
    """Every broken game on every verb."""
    lines = []
    for name in broken_names():
        for verb, argv in VERBS.items():
            hook = _hook_of(name)
            expect = hook if hook is not None and name.endswith("Raise") else None
            lines.append(Line(tuple(a.format(g=f"broken_games:{name}") for a in argv),
                              stdin=MOVES if verb == "play" else "", expect=expect))
    return lines


def _hook_of(name: str):
    for hook in HOOKS:
        if name.startswith("".join(p.title() for p in hook.split("_"))):
            return hook
    return None


OPENSPIEL = [
    ("count", "openspiel:nim(pile_sizes=1;2;3)"), ("solve", "openspiel:tic_tac_toe"),
    ("search", "openspiel:tic_tac_toe", "--dives", "200"), ("count", "openspiel:nim(pile_sizes=1;x)"),
    ("solve", "openspiel:tic_tac_toe(foo=1)"), ("count", "openspiel:no_such_game"), ("solve", "openspiel:"),
    ("count", "openspiel:nim(pile_sizes=1;2;3"), ("count", "openspiel:nim(pile_sizes=)"),
    ("search", "openspiel:kuhn_poker", "--dives", "100"), ("move", "openspiel:tic_tac_toe", "--state", "4,4"),
    ("move", "openspiel:tic_tac_toe", "--state", "4,0", "--ai", "random"), ("solve", "openspiel:pig(winscore=5)"),
    ("count", "openspiel:tic_tac_toe", "--depth", "3"), ("simulate", "openspiel:breakthrough(rows=3;columns=3)",
                                                           "--games", "20"),
    ("check", "openspiel:tic_tac_toe", "--examples", "5", "--no-exact"), ("count", "openspiel:chess"),
    ("solve", "openspiel:chess"), ("check", "openspiel:pig(winscore=20)", "--examples", "5"),
    ("playthrough", "openspiel:kuhn_poker", "--seed", "2"), ("table", "openspiel:nim(pile_sizes=1;2)", "-o", "-"),
    ("search", "openspiel:nim(pile_sizes=1;2;3)", "--state", "start", "--dives", "100"),
    ("count", "openspiel:nim(pile_sizes=-1)"), ("count", "openspiel:nim(pile_sizes=100000000)"),
]


PATHS = [
    ("explore", "nim(heap=4)", "--dives", "5", "-o", "missing/page.html"),
    ("explore", "nim(heap=4)", "--dives", "5", "-o", "out"),
    ("explore", "nim(heap=4)", "--dives", "5", "-o", "out/"),
    ("explore", "nim(heap=4)", "--dives", "5", "-o", ""),
    ("explore", "nim(heap=4)", "--dives", "5", "-o", "/dev/null"),
    ("table", "nim(heap=4)", "-o", "/proc/version"),
    ("table", "nim(heap=4)", "-o", "out/t.json"),
    ("table", "nim(heap=4)", "-o", "-", "--json"),
    ("train", "nim", "--heap", "4", "--games", "10", "-o", "/"),
    ("train", "nim", "--heap", "4", "--games", "10", "-o", "-", "--no-exact"),
    ("playthrough", "--check", "missing.txt"), ("playthrough", "--check", "broken_games.py"),
    ("playthrough", "--check", "out"), ("playthrough", "--check", "/dev/zero"),
    ("move", "nim", "--ai", "q", "--q-table", "missing.json", "--state", "5"),
    ("move", "nim", "--ai", "q", "--q-table", "broken_games.py", "--state", "5"),
    ("move", "nim", "--ai", "q", "--q-table", "/dev/zero", "--state", "5"),
    ("search", "shut-the-box", "--dives", "50", "--resume", "missing.json"),
    ("search", "shut-the-box", "--dives", "50", "--save", "-"),
    ("plot", "nim(heap=4)", "-o", "out/p.jpg"), ("plot", "nim(heap=4)", "--dives", "20", "-o", "-"),
    ("playthrough", "nim", "-o", "out/a/b.txt"), ("count", "missingmodule:Game"), ("count", "broken_games:Nope"),
    ("count", "broken_games:not_a_game"), ("count", "broken_games"), ("count", ":Game"), ("count", "broken_games:"),
    ("count", "os:path"), ("solve", "broken_games:Base(stones=-1)"), ("solve", "broken_games:Base(stones='x')"),
    ("solve", "broken_games:Base(size=3)"), ("solve", "broken_games:Base(stones=10**9)"),
]

TYPOS = [
    ("serch", "nim"), ("search", "nmi"), ("search", "nim", "--dvies", "10"), ("search", "nim", "--dives", "ten"),
    ("search", "nim", "--dives", "-5"), ("search", "nim", "--dives", "1e99"), ("simulate", "coin", "--games", "١٠"),
    ("simulate", "coin", "--seed", "-1"), ("solve", "nim(heap=five)"), ("solve", "nim(heap=5"), ("solve", "nim()"),
    ("solve", "nim(hep=5)"), ("move", "nim", "--state", "abc"), ("move", "nim", "--state", "99"),
    ("move", "tic-tac-toe", "--state", "1234"), ("move", "nim", "--ai", "nosuch"), ("count", "nim", "--depth", "x"),
    ("tournament", "nim", "random"), ("tournament", "nim", "random", "nobody", "--games", "2"),
    ("check", "nim", "--examples", "0"), ("check", "nim", "--agents", "nobody"), ("table", "nim"),
    ("explore", "nim"), ("plot", "nim", "--what", "nothing"), ("train", "nim"), ("play", "nim", "--ai", "nobody"),
    ("count",), ("search",), ("--version",), ("--help",), ("search", "--help"), ("nim",), ("solve", "nim", "--json", "--json"),
    ("count", "nim(heap=1000000000)"), ("solve", "nim(heap=1000000000)"), ("search", "nim", "--state", "start"),
    ("move", "nim", "--state", "start"), ("move", "shut-the-box"), ("search", "pig", "--dives", "100"),
]


def typo_lines() -> list:
    return [Line(tuple(argv)) for argv in TYPOS]


def path_lines() -> list:
    return [Line(tuple(argv)) for argv in PATHS]


def openspiel_lines() -> list:
    return [Line(tuple(argv)) for argv in OPENSPIEL]


def stream_lines() -> list:
    """Every verb with its standard output closed, then its standard input."""
    lines = []
    for close in (1, 0):
        for verb, argv in VERBS.items():
            lines.append(Line(tuple(a.format(g="broken_games:Base") for a in argv), stdin=MOVES, close=close))
    return lines


SIGNALLED = [
    ("explore", "tic-tac-toe", "--dives", "3000", "-o", "out/page.html"),
    ("table", "nim(heap=20000)", "-o", "out/table.txt"),
    ("train", "nim", "--heap", "12", "--games", "20000", "-o", "out/q.json", "--no-exact"),
    ("plot", "nim(heap=9)", "--dives", "3000", "-o", "out/p.svg"),
    ("check", "tic-tac-toe", "--examples", "30"),
    ("search", "tic-tac-toe", "--dives", "200000"),
    ("simulate", "pig", "--games", "200000"),
    ("tournament", "tic-tac-toe", "mcts", "random", "--games", "300"),
    ("count", "tic-tac-toe"), ("solve", "pig(goal=30)"), ("playthrough", "pig", "--seed", "1", "-o", "out/p.txt"),
]


START_UP = 0.3
"""Seconds of the interpreter's own start-up (site, the installed packages' .pth files) left out of the signals'
moments: before any line of fnmcts runs, Python answers Ctrl-C with its own traceback and SIGTERM with the system's
default; about 0.05-0.1 s on a quiet machine, more on a loaded one."""


def signal_lines(rng: random.Random, count: int) -> list:
    """``count`` long runs, each sent SIGTERM or Ctrl-C at a random moment of its first 4 seconds after start-up."""
    return [Line(tuple(SIGNALLED[i % len(SIGNALLED)]), signal=rng.choice((signal.SIGTERM, signal.SIGINT)),
                 delay=rng.uniform(START_UP, 4.0)) for i in range(count)]


def corpus(seed: int = 33) -> list:
    """Every line of the broad corpus."""
    rng = random.Random(seed)
    return (broken_lines() + openspiel_lines() + path_lines() + typo_lines() + stream_lines()
            + signal_lines(rng, 33))
