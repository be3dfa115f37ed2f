"""The package is layered: imports only point down, no import cycles, no game named below the tutorials.

The import graph is read with ``ast`` from every module of ``fnmcts``: imports
at module level and inside functions, absolute and relative. An import names
a module (``from .games import nim`` names ``fnmcts.games.nim``, ``from .protocol
import GameBase`` names ``fnmcts.protocol``); the parent packages that Python
runs on the way are not edges (every ``from ..protocol import`` would otherwise
depend on ``fnmcts/__init__.py``, the curated API at the very top).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import fnmcts

PACKAGE = Path(fnmcts.__file__).resolve().parent

# Lowest first. A module may import modules of its own layer or below (never above); a package
# entry ending in ".*" places the package and every module in it.
LAYERS = (
    (
        "base",
        ("fnmcts.protocol", "fnmcts.rng", "fnmcts.parallel", "fnmcts.files", "fnmcts.values", "fnmcts.limits",
         "fnmcts._moved",  # deprecated names: the one DeprecationWarning
         "fnmcts.elo",  # elo: match statistics (scores, Elo, LOS, intervals, the SPRT), pure arithmetic
         "fnmcts.sampling"),  # trials of a function of an rng, counted with intervals: no game in sight
    ),
    (
        "games",  # the game values and their rules: nothing here imports above the base layer
        (
            "fnmcts.games",  # the registry GAMES
            "fnmcts.games._vector",  # numpy for the games' batch kernels, imported on first use
            "fnmcts.games.nim",
            "fnmcts.games.piles",
            "fnmcts.games.tictactoe",
            "fnmcts.games.connect_four",
            "fnmcts.games._connect_four_rules",  # its rules on keys, compiled (Numba), imported when a search asks
            "fnmcts.games._breakthrough_rules",  # OpenSpiel's breakthrough 6x6 on keys, compiled (Numba), as above
            "fnmcts.games._connect_four_bits",  # its board as bits, the game's and the compiled rules' (no Numba)
            "fnmcts.games._dots_and_boxes_rules",  # OpenSpiel's dots_and_boxes on keys, compiled (Numba), when asked
            "fnmcts.games._hex_rules",  # OpenSpiel's hex on keys, compiled (Numba), imported when a search asks
            "fnmcts.games.shut_the_box.*",  # one folder: rules, the game value, masks, exact values
            "fnmcts.games.pig",
            "fnmcts.games.kayles",
            "fnmcts.games.coin",  # task 1's trials (no game values): their simulate runs fnmcts.sampling
            "fnmcts.games.darts",
            "fnmcts.openspiel",  # OpenSpiel's games through the protocol (pyspiel imported when a game is made)
        ),
    ),
    ("play", ("fnmcts.matches", "fnmcts.theory")),
    ("simulation", ("fnmcts.montecarlo", "fnmcts.exact", "fnmcts.grundy",
                    "fnmcts.lab")),  # the lab: estimators beside their exact variances, through game hooks
    ("search", ("fnmcts.mcts.*", "fnmcts.qlearning")),
    ("views", ("fnmcts.views.*",)),  # a finished tree read and shown (moves, texts, a trace, saved files, the explorer)
    ("agents", ("fnmcts.agents",)),
    ("io", ("fnmcts.io",)),  # files: Q tables read and written, atomically
    (
        "tutorial",  # the sources' entry points that build or name concrete games
        (
            "fnmcts.tutorial",
            "fnmcts.tables",
        ),
    ),
    ("edges", ("fnmcts.cli.*", "fnmcts.testing.*", "fnmcts.__main__", "fnmcts.plots",
               "fnmcts.exercises.*",  # the course's checkers: they run every layer below on a student's functions
               "fnmcts.web.*")),  # the live page: the tutorial's uct and the explorer, run in the browser
    ("api", ("fnmcts",)),
)

ALLOWED_UP = {
    ("fnmcts.games.shut_the_box", "fnmcts.tutorial"): "the deprecated names simulate and uct, for one release",
    ("fnmcts.mcts", "fnmcts.views"): "the views' old names (greedy_move, trace, ...), for one release",
}
"""Imports that point up on purpose, each with its reason: a lazy import inside a deprecation shim."""

CORE_LAYERS = ("base", "play", "simulation", "search", "agents")
"""Layers whose modules must not import ``fnmcts.games`` nor name a concrete game."""

CONCRETE_GAMES = frozenset({"Nim", "Piles", "ShutTheBox", "TicTacToe", "Pig"})


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict:
    """``name -> (path, is_package)`` for every module of the package."""
    return {
        _module_name(path): (path, path.name == "__init__.py")
        for path in sorted(PACKAGE.rglob("*.py"))
        if "__pycache__" not in path.parts
    }


MODULES = _modules()
TREES = {name: ast.parse(path.read_text(encoding="utf-8"), str(path)) for name, (path, _) in MODULES.items()}


def layer_of(module: str):
    """The index of the layer of ``module`` in ``LAYERS``, or None."""
    for index, (_, members) in enumerate(LAYERS):
        for member in members:
            if member == module or (member.endswith(".*") and (module == member[:-2] or module.startswith(member[:-1]))):
                return index
    return None


def _resolve(module: str, level: int, target: str | None) -> str:
    """The absolute name of a relative import ``from {'.' * level}{target}`` inside ``module``."""
    if level == 0:
        return target or ""
    base = module.split(".")
    if not MODULES[module][1]:  # a plain module: its package is the base
        base = base[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join(base + ([target] if target else []))


def _known(name: str):
    """``name`` if it is one of the package's modules, else its longest known parent module."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _run_at_import(tree):
    """The nodes of ``tree`` that run when the module is imported: every node outside a function's body."""
    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            todo.extend(ast.iter_child_nodes(node))


def imports_of(module: str, at_import: bool = False) -> dict:
    """``imported module -> line`` for every import of ``module`` (any depth; ``at_import``: outside functions)."""
    found = {}
    for node in (_run_at_import if at_import else ast.walk)(TREES[module]):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            source = _resolve(module, node.level, node.module)
            names = [f"{source}.{alias.name}" if f"{source}.{alias.name}" in MODULES else source for alias in node.names]
        for name in names:
            if name == "fnmcts" or name.startswith("fnmcts."):
                target = _known(name)
                if target is not None and target != module:
                    found.setdefault(target, node.lineno)
    return found


GRAPH = {
    module: {target: line for target, line in imports_of(module).items() if (module, target) not in ALLOWED_UP}
    for module in MODULES
}


def _cycles(graph=None) -> list:
    """Every strongly connected component of more than one module of ``graph`` (default ``GRAPH``), as a cycle."""
    graph = GRAPH if graph is None else graph
    index, low, stack, on_stack, components = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                components.append(component)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return [_cycle_through(sorted(c), graph) for c in components]


def _cycle_through(component, graph) -> list:
    """A shortest import cycle of ``graph`` from the first module of ``component`` back to itself."""
    members, start = set(component), component[0]
    paths, seen = [[start]], {start}
    while paths:
        path = paths.pop(0)
        for w in sorted(graph[path[-1]]):
            if w == start:
                return path + [start]
            if w in members and w not in seen:
                seen.add(w)
                paths.append(path + [w])
    return component


def test_every_module_has_a_layer():
    missing = sorted(m for m in MODULES if layer_of(m) is None)
    assert not missing, f"modules without a layer (add them to LAYERS in {__file__}): {missing}"


def test_every_allowed_upward_import_is_there_and_named():
    for (module, target), reason in ALLOWED_UP.items():
        assert target in imports_of(module) and reason, f"{module} no longer imports {target}: drop it from ALLOWED_UP"


def test_nothing_in_the_games_imports_above_the_base_layer():
    games = LAYERS.index(next(layer for layer in LAYERS if layer[0] == "games"))
    above = sorted(
        f"{module} imports {target}"
        for module, targets in GRAPH.items()
        if layer_of(module) == games
        for target in targets
        if layer_of(target) is not None and layer_of(target) >= games and not target.startswith("fnmcts.games")
        and target != "fnmcts.openspiel"
    )
    assert not above, above


def test_every_layer_entry_names_a_module():
    listed = [member for _, members in LAYERS for member in members if not member.endswith(".*")]
    assert sorted(set(listed) - set(MODULES)) == []


def test_there_is_no_import_cycle():
    cycles = _cycles()
    assert not cycles, "import cycles: " + "; ".join(" -> ".join(c) for c in cycles)


def test_the_allowed_upward_imports_close_no_import_cycle_when_the_modules_are_imported():
    # every import, the allowed upward ones too, that runs at import time (outside a function):
    # an allowed upward import waits inside the function that needs it, so no import waits on itself
    graph = {module: imports_of(module, at_import=True) for module in MODULES}
    for module, target in ALLOWED_UP:
        assert target not in graph[module], f"{module} imports {target} when imported: defer it into the function"
    cycles = _cycles(graph)
    assert not cycles, "import cycles at import time: " + "; ".join(" -> ".join(c) for c in cycles)


def test_the_import_time_reader_skips_function_bodies_only():
    tree = ast.parse("import fnmcts.rng\nclass A:\n    import fnmcts.values\ndef f():\n    import fnmcts.files\n")
    names = sorted(alias.name for node in _run_at_import(tree) if isinstance(node, ast.Import) for alias in node.names)
    assert names == ["fnmcts.rng", "fnmcts.values"]


def test_imports_only_point_down():
    upward = [
        f"{module} ({LAYERS[layer_of(module)][0]}) imports {target} ({LAYERS[layer_of(target)][0]}), line {line}"
        for module, targets in sorted(GRAPH.items())
        for target, line in sorted(targets.items())
        if layer_of(module) is not None and layer_of(target) is not None and layer_of(target) > layer_of(module)
    ]
    assert not upward, "imports that point up:\n" + "\n".join(upward)


def _core_modules() -> list:
    core = {index for index, (name, _) in enumerate(LAYERS) if name in CORE_LAYERS}
    return sorted(m for m in MODULES if layer_of(m) in core)


def test_the_core_is_what_the_design_says():
    for module in ("fnmcts.protocol", "fnmcts.rng", "fnmcts.parallel", "fnmcts.files", "fnmcts.matches",
                   "fnmcts.montecarlo", "fnmcts.exact", "fnmcts.qlearning", "fnmcts.agents", "fnmcts.theory"):
        assert module in _core_modules()


@pytest.mark.parametrize("module", _core_modules())
def test_the_core_neither_imports_nor_names_a_game(module):
    games = sorted(t for t in GRAPH[module] if t == "fnmcts.games" or t.startswith("fnmcts.games."))
    assert not games, f"{module} imports {games}"
    named = sorted(
        {
            (getattr(node, "id", None) or getattr(node, "attr", None) or getattr(node, "name", None), node.lineno)
            for node in ast.walk(TREES[module])
            if (isinstance(node, ast.Name) and node.id in CONCRETE_GAMES)
            or (isinstance(node, ast.Attribute) and node.attr in CONCRETE_GAMES)
            or (isinstance(node, ast.alias) and node.name.rpartition(".")[2] in CONCRETE_GAMES)
        }
    )
    assert not named, f"{module} names concrete games: {named}"


def _names_a_game(node) -> bool:
    """True when ``node`` is a concrete game class, a tuple holding one, or the name of one as a string."""
    if isinstance(node, ast.Name):
        return node.id in CONCRETE_GAMES
    if isinstance(node, ast.Attribute):
        return node.attr in CONCRETE_GAMES
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return any(_names_a_game(e) for e in node.elts)
    if isinstance(node, ast.Constant):
        return node.value in CONCRETE_GAMES
    if isinstance(node, ast.IfExp):
        return _names_a_game(node.body) or _names_a_game(node.orelse)
    return False


def _is_type_call(node) -> bool:
    """``type(x)``, or ``type(x).__name__``."""
    if isinstance(node, ast.Attribute) and node.attr in ("__name__", "__qualname__"):
        node = node.value
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "type"


def class_switches(tree) -> list:
    """Lines of ``isinstance``/``issubclass`` on a concrete game and of ``type(x) is/== <game>``."""
    lines = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("isinstance", "issubclass")
            and len(node.args) == 2
            and _names_a_game(node.args[1])
        ):
            lines.append(node.lineno)
        elif isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(_is_type_call(s) for s in sides) and any(_names_a_game(s) for s in sides):
                lines.append(node.lineno)
    return lines


def test_the_switch_finder_finds_switches():
    source = (
        "isinstance(g, Nim)\nisinstance(g, (Piles, int))\ntype(g) is not ShutTheBox\n"
        "type(g).__name__ == 'TicTacToe'\nisinstance(g, Nim if k else Piles)\nisinstance(g, int)\n"
    )
    assert class_switches(ast.parse(source)) == [1, 2, 3, 4, 5]


@pytest.mark.parametrize("module", sorted(m for m in MODULES if not (m + ".").startswith("fnmcts.games.")))
def test_no_switch_on_a_concrete_game_outside_the_games(module):
    lines = class_switches(TREES[module])
    assert not lines, f"{module} tests for a concrete game class at lines {lines}: use a hook of the protocol"


# -- modules are real modules: a public module holds its code, and help() shows it ---------------


def _top_level_modules() -> list:
    """The plain modules directly in ``fnmcts/`` (no packages, no ``__main__``)."""
    return sorted(path.stem for path in PACKAGE.glob("*.py") if path.stem not in ("__init__", "__main__"))


@pytest.mark.parametrize("name", [n for n in _top_level_modules() if not n.startswith("_")])
def test_a_public_module_documents_what_it_offers(name):
    import importlib
    import pydoc

    module = importlib.import_module(f"fnmcts.{name}")
    assert module.__doc__ and len(module.__doc__.strip().splitlines()) > 2, f"fnmcts.{name} needs a docstring that explains it"
    assert "public face" not in module.__doc__
    text = pydoc.render_doc(module, renderer=pydoc.plaintext)
    for public in module.__all__:
        assert public in text, f"help(fnmcts.{name}) does not show {public}"


def test_the_package_namespace_keeps_the_protocols_play_whatever_is_imported_later():
    import importlib
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        from fnmcts.play import play_game  # the old module name: still works, with a warning

    assert play_game is importlib.import_module("fnmcts.matches").play_game
    assert any(issubclass(w.category, DeprecationWarning) and "fnmcts.matches" in str(w.message) for w in caught)
    assert fnmcts.play is importlib.import_module("fnmcts.protocol").play
