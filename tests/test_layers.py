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
PUBLIC_FACES = tuple(f"fnmcts.{name}" for name in (
    "agents", "exact", "files", "io", "limits", "montecarlo", "openspiel", "parallel", "play", "plots", "protocol",
    "qlearning", "rng", "tables", "testing", "theory", "tutorial", "values",
))
"""The public modules that only re-export an implementation module's ``__all__`` (``fnmcts.exact`` -> ``fnmcts._exact``)."""

LAYERS = (
    (
        "base",
        ("fnmcts._protocol", "fnmcts._rng", "fnmcts._parallel", "fnmcts._files", "fnmcts._values", "fnmcts._limits"),
    ),
    (
        "games",
        (
            "fnmcts.games.nim",
            "fnmcts.games.piles",
            "fnmcts.games.tictactoe",
            "fnmcts.games.shut_the_box.rules",
            "fnmcts.games.pig",
            "fnmcts._openspiel",  # OpenSpiel's games through the protocol (pyspiel imported when a game is made)
        ),
    ),
    ("play", ("fnmcts._play", "fnmcts._theory")),
    ("simulation", ("fnmcts._montecarlo", "fnmcts._exact")),
    ("search", ("fnmcts.mcts.*", "fnmcts._qlearning")),
    ("agents", ("fnmcts._agents",)),
    ("io", ("fnmcts._io",)),  # files: Q tables read and written, atomically
    (
        "tutorial",  # the sources' entry points that build or name concrete games
        (
            "fnmcts._tutorial",
            "fnmcts._tables",
            "fnmcts.games",
            "fnmcts.games.shut_the_box",
            "fnmcts.games.coin",
            "fnmcts.games.darts",
        ),
    ),
    ("edges", ("fnmcts.cli.*", "fnmcts._testing", "fnmcts.__main__", "fnmcts._plots")),
    ("api", ("fnmcts", *PUBLIC_FACES)),
)

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


def imports_of(module: str) -> dict:
    """``imported module -> line`` for every import of ``module`` (any depth in the file)."""
    found = {}
    for node in ast.walk(TREES[module]):
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


GRAPH = {module: imports_of(module) for module in MODULES}


def _cycles() -> list:
    """Every strongly connected component of more than one module, as a cycle through it."""
    index, low, stack, on_stack, components = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in GRAPH[v]:
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

    for v in sorted(GRAPH):
        if v not in index:
            visit(v)
    return [_cycle_through(sorted(c)) for c in components]


def _cycle_through(component) -> list:
    """A shortest import cycle from the first module of ``component`` back to itself."""
    members, start = set(component), component[0]
    paths, seen = [[start]], {start}
    while paths:
        path = paths.pop(0)
        for w in sorted(GRAPH[path[-1]]):
            if w == start:
                return path + [start]
            if w in members and w not in seen:
                seen.add(w)
                paths.append(path + [w])
    return component


def test_every_module_has_a_layer():
    missing = sorted(m for m in MODULES if layer_of(m) is None)
    assert not missing, f"modules without a layer (add them to LAYERS in {__file__}): {missing}"


def test_every_layer_entry_names_a_module():
    listed = [member for _, members in LAYERS for member in members if not member.endswith(".*")]
    assert sorted(set(listed) - set(MODULES)) == []


def test_there_is_no_import_cycle():
    cycles = _cycles()
    assert not cycles, "import cycles: " + "; ".join(" -> ".join(c) for c in cycles)


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
    for module in ("fnmcts._protocol", "fnmcts._rng", "fnmcts._parallel", "fnmcts._files", "fnmcts._play",
                   "fnmcts._montecarlo", "fnmcts._exact", "fnmcts._qlearning", "fnmcts._agents", "fnmcts._theory"):
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


# -- implementation modules are private ------------------------------------------------------------


def public_face_problem(source: str, name: str):
    r"""What keeps ``source`` from being the public face of ``fnmcts._{name}``, or None.

    A face holds a docstring and two imports from its implementation module,
    everything in its ``__all__`` and that ``__all__``: no code of its own.

    >>> public_face_problem("'''Doc.'''\nfrom ._x import *\nfrom ._x import __all__\n", "x") is None
    True
    >>> public_face_problem("'''Doc.'''\nfrom ._x import *\ndef helper():\n    pass\n", "x")
    'line 3: FunctionDef is not an import from fnmcts._x'
    """
    body = ast.parse(source).body
    if not (body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)):
        return "no docstring"
    imports = set()
    for node in body[1:]:
        if not (isinstance(node, ast.ImportFrom) and node.level == 1 and node.module == f"_{name}"):
            return f"line {node.lineno}: {type(node).__name__} is not an import from fnmcts._{name}"
        imports.update(alias.name for alias in node.names)
    if imports != {"*", "__all__"}:
        return f"imports {sorted(imports)} rather than * and __all__"
    return None


def _top_level_modules() -> list:
    """The plain modules directly in ``fnmcts/`` (no packages, no ``__main__``)."""
    return sorted(path.stem for path in PACKAGE.glob("*.py") if path.stem not in ("__init__", "__main__"))


def test_every_public_top_level_module_is_a_face_of_a_private_one():
    public = [name for name in _top_level_modules() if not name.startswith("_")]
    assert sorted(f"fnmcts.{name}" for name in public) == sorted(PUBLIC_FACES)
    for name in public:
        assert (PACKAGE / f"_{name}.py").exists(), f"fnmcts.{name} has no implementation module fnmcts._{name}"
        problem = public_face_problem((PACKAGE / f"{name}.py").read_text(encoding="utf-8"), name)
        assert problem is None, f"fnmcts/{name}.py: {problem}"


@pytest.mark.parametrize("face", PUBLIC_FACES)
def test_a_face_offers_exactly_its_implementations_public_names(face):
    import importlib

    public, private = importlib.import_module(face), importlib.import_module(face.replace("fnmcts.", "fnmcts._", 1))
    assert public.__all__ == private.__all__
    offered = {name for name in vars(public) if not name.startswith("_")}
    assert offered == set(private.__all__), f"{face} offers names outside its __all__: {sorted(offered - set(private.__all__))}"
    assert all(getattr(public, name) is getattr(private, name) for name in private.__all__)


def test_the_package_namespace_keeps_the_protocols_play_whatever_is_imported_later():
    import importlib

    importlib.import_module("fnmcts.play")  # the module of play_game and tournament
    assert fnmcts.play is importlib.import_module("fnmcts._protocol").play
