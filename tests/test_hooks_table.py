"""The protocol's table in ``fnmcts.protocol`` names every method and hook fnmcts reads from a game.

The package is scanned (its syntax trees, not its text): every
``getattr(game, "...")``, ``hasattr(game, "...")``, every ``_hook(game, "...")``
of the protocol module and every ``game.NAME`` read, outside the games
themselves (``fnmcts/games/`` and the OpenSpiel adapter, which read their own
attributes). Each name read must be a row of the table, and the row must list
exactly the modules that read it (private modules count as their public
package: ``fnmcts.mcts._graph`` is ``fnmcts.mcts``; the command line is
``fnmcts.cli``, the law checker and its kin ``fnmcts.testing``); rows read by "every algorithm" are the protocol's core.
"""

import ast
import dataclasses
import re
from collections import defaultdict
from pathlib import Path

import pytest

import fnmcts.protocol
from fnmcts.games import GAMES

PACKAGE = Path(fnmcts.protocol.__file__).parent
EVERY = "every algorithm"

# what a game is called where the package reads from it
GAME_NAMES = {
    "game",
    "type(game)",
    "found",  # cli/_games.py: the object a user's module:attribute names
    "kind",  # cli/_board.py: a game class of GAMES
    "x",  # matches.py: a game, told from an agent by its protocol methods
    "trained",  # cli/_board.py: the game a Q table was trained on
}

# reads whose name is computed, by the function that makes them, and why they are no hooks
DYNAMIC = {
    ("protocol.py", "_hook"): "the hook named by each _hook(game, NAME) call, which the scan reads",
    ("protocol.py", "_game_hook"): "the hook named by each _game_hook(game, NAME) call, which the scan reads",
    ("protocol.py", "_asked"): "the hook named by each _asked(game, NAME, ...) call, which the scan reads",
    ("protocol.py", "game_to_json"): "the fields of the game's dataclass",
    ("cli/_games.py", "_attribute"): "the attribute path a user typed as module:attribute",
    ("cli/_board.py", "_nim_game"): "the fields of the dataclass of the game a Q table was trained on",
}

# reads whose name is the playout kernel: ``random_payoff``, or the hook a rollout's ``in_place`` names
# (every ``agent.in_place = "NAME"`` in the package is such a name)
KERNELS = {("mcts/phases.py", "simulate"): "random_payoff"}


def _in_place_names(root: Path) -> set:
    """The hooks rollouts name by ``X.in_place = "NAME"`` anywhere under ``root``."""
    names = set()
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
                    and any(isinstance(t, ast.Attribute) and t.attr == "in_place" for t in node.targets)):
                names.add(node.value.value)
    return names


# names read from one game alone, in that game's own command-line module (none left: Shut the Box's score
# is the protocol's ``score`` hook, read by the one play loop)
GAME_SPECIFIC: dict = {}


def _public_module(path: Path, root: Path) -> str:
    parts = ["fnmcts", *path.relative_to(root).with_suffix("").parts]
    if parts[-1] == "__init__":
        parts.pop()
    if parts[:2] in (["fnmcts", "cli"], ["fnmcts", "testing"]):
        return ".".join(parts[:2])
    while parts[-1].startswith("_"):
        parts.pop()
    return ".".join(parts)


def _parameters() -> set:
    """The parameters of every built-in game: fields of their dataclasses, read as options, not hooks."""
    return {f.name for kind in GAMES.values() if dataclasses.is_dataclass(kind) for f in dataclasses.fields(kind)}


def scan(root: Path = PACKAGE) -> tuple:
    """``({name: {module, ...}}, [unresolved place, ...])``: what the package under ``root`` reads from games."""
    reads, unresolved = defaultdict(set), []
    kernels = _in_place_names(root)
    for path in sorted(root.rglob("*.py")):
        where = path.relative_to(root).as_posix()
        if where.startswith("games/") or where == "openspiel.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}

        def enclosing(node):
            while node in parents:
                node = parents[node]
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    return node.name
            return None

        def comprehension_constants(name):
            """The constants a comprehension's variable runs over (``for m in ("start", ...)``), else None."""
            node = name
            while node in parents:
                node = parents[node]
                for gen in getattr(node, "generators", ()):
                    values = getattr(gen.iter, "elts", None)
                    if (isinstance(gen.target, ast.Name) and gen.target.id == name.id and values is not None
                            and all(isinstance(v, ast.Constant) for v in values)):
                        return [v.value for v in values]
            return None

        module = _public_module(path, root)
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
                if isinstance(node.value, ast.Name) and node.value.id == "game":
                    reads[node.attr].add((module, where))
                continue
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in ("getattr", "hasattr", "_hook", "_game_hook", "_asked") and len(node.args) >= 2):
                continue
            if ast.unparse(node.args[0]) not in GAME_NAMES:
                continue
            name = node.args[1]
            if isinstance(name, ast.Constant):
                names = [name.value]
            elif isinstance(name, ast.Name) and comprehension_constants(name) is not None:
                names = comprehension_constants(name)
            elif (where, enclosing(node)) in KERNELS:
                names = [KERNELS[where, enclosing(node)], *sorted(kernels)]
            elif (where, enclosing(node)) in DYNAMIC:
                continue
            else:
                unresolved.append(f"fnmcts/{where}:{node.lineno}")
                continue
            for one in names:
                reads[one].add((module, where))
    return reads, unresolved


def table(doc: str = fnmcts.protocol.__doc__) -> dict:
    """``{name: {module, ...} or {"every algorithm"}}``: the rows of the protocol's table in ``doc``."""
    lines = doc.splitlines()
    rules = [i for i, line in enumerate(lines) if re.fullmatch(r"=+ +=+", line)]
    assert len(rules) >= 3, "the protocol's table (three rules of = signs) is missing from fnmcts.protocol"
    body = lines[rules[1] + 1:rules[2]]
    width = len(lines[rules[0]].split()[0]) + 2
    rows, current = {}, None
    for line in body:
        head, text = line[:width].strip(), line[width:].strip()
        if head:
            found = re.fullmatch(r"``(\w+)(\(.*\))?``", head)
            assert found, f"a row of the protocol's table does not start with a ``name``: {line!r}"
            current = rows.setdefault(found.group(1), [])
        current.append(text)
    readers = {}
    for name, texts in rows.items():
        joined = " ".join(texts)
        assert "Read by:" in joined, f"the row of {name} in the protocol's table says no 'Read by:'"
        listed = joined.split("Read by:", 1)[1]
        readers[name] = {m.strip() for m in listed.split(",") if m.strip()}
    return readers


def test_the_table_parses_into_its_rows():
    rows = table()
    assert rows["start"] == {EVERY}
    assert rows["winning_moves"] == {"fnmcts.theory"}
    assert len(rows) >= 30


@pytest.mark.slow
def test_every_name_fnmcts_reads_from_a_game_is_a_row_with_exactly_its_readers():
    reads, unresolved = scan()
    assert not unresolved, f"game attributes read by a computed name the scan cannot follow: {unresolved}"
    rows, parameters = table(), _parameters()
    problems = []
    for name, places in sorted(reads.items()):
        if name in parameters:
            continue
        places = {(m, w) for m, w in places if (w, name) not in GAME_SPECIFIC}
        if not places:
            continue
        modules = {m for m, _ in places}
        if name not in rows:
            problems.append(f"{name}: read by {sorted(modules)}, not in the table")
        elif rows[name] != {EVERY} and rows[name] != modules:
            problems.append(f"{name}: the table says {sorted(rows[name])}, read by {sorted(modules)}")
    assert not problems, "fnmcts.protocol's table of the protocol and its hooks is out of date:\n" + "\n".join(problems)


@pytest.mark.slow
def test_every_row_of_the_table_is_read_somewhere():
    reads, _ = scan()
    unread = sorted(set(table()) - set(reads))
    assert not unread, f"rows of the protocol's table that nothing in fnmcts reads from a game: {unread}"


def test_every_default_the_table_names_is_on_gamebase():
    """A row whose default is a method of GameBase: the hooks GameBase holds are all in the table."""
    rows = table()
    methods = {name for name in vars(fnmcts.protocol.GameBase) if not name.startswith("_")}
    assert methods <= set(rows), f"GameBase defaults missing from the table: {sorted(methods - set(rows))}"


@pytest.mark.parametrize(
    "source, expected",
    [
        ('def f(game):\n    return getattr(game, "new_hook", None)\n', {"new_hook"}),
        ('def f(game):\n    return hasattr(game, "other")\n', {"other"}),
        ('def f(x):\n    return all(hasattr(x, m) for m in ("start", "play"))\n', {"start", "play"}),
        ("def f(game, state):\n    return game.fancy(state)\n", {"fancy"}),
        ('def f(args):\n    return getattr(args, "json", False)\n', set()),
    ],
)
def test_the_scan_finds_what_a_module_reads_from_a_game(tmp_path, source, expected):
    (tmp_path / "mod.py").write_text(source)
    reads, unresolved = scan(tmp_path)
    assert set(reads) == expected and not unresolved


def test_the_scan_reports_a_computed_name_it_cannot_follow(tmp_path):
    (tmp_path / "mod.py").write_text("def f(game, name):\n    return getattr(game, name)\n")
    assert scan(tmp_path)[1] == ["fnmcts/mod.py:2"]


def test_the_scan_reads_a_kernel_a_rollout_names_by_in_place(tmp_path):
    """The playout's kernel read: ``random_payoff`` and every hook an ``in_place`` names."""
    (tmp_path / "mcts").mkdir()
    (tmp_path / "mcts" / "phases.py").write_text(
        "def simulate(game, rollout):\n"
        "    hook = 'random_payoff' if rollout is None else rollout.in_place\n"
        "    return getattr(game, hook, None)\n")
    (tmp_path / "agents.py").write_text("def fast(game):\n    pass\nfast.in_place = 'fast_payoff'\n")
    reads, unresolved = scan(tmp_path)
    assert set(reads) == {"random_payoff", "fast_payoff"} and not unresolved


def test_the_protocol_page_shows_the_same_table():
    """docs/protocol.md's table has the docstring's rows, in its order, with the same readers."""
    page = (PACKAGE.parent / "docs" / "protocol.md").read_text(encoding="utf-8")
    rows = {}
    for line in page.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        found = re.fullmatch(r"`(\w+)(\(.*\))?`", cells[0]) if len(cells) == 3 else None
        if found:
            rows[found.group(1)] = {m.strip() for m in cells[2].split(",")}
    assert list(rows) == list(table()), "docs/protocol.md lists other rows, or in another order, than fnmcts.protocol"
    assert rows == table()
