"""The public API: one curated namespace, every module's ``__all__`` true, every public function documented.

* ``fnmcts.__all__`` lists exactly the public names of the ``fnmcts`` namespace.
* Every module of the package defines ``__all__``, and every name in it exists.
* Every function and class a module lists in its ``__all__`` (and defines
  itself) has a one-line summary and a doctest, so the doctest run covers it.
"""

import importlib
import importlib.util
import inspect
import pkgutil
import subprocess
import sys
import types

import pytest

import fnmcts

DOCTEST_EXCEPTIONS = {
    # name: why its docstring carries no doctest (none today: every public function has one)
}


def _modules():
    """Every module of the package, imported; ``fnmcts.cli`` modules without ``__all__`` left out."""
    names = ["fnmcts"] + [info.name for info in pkgutil.walk_packages(fnmcts.__path__, "fnmcts.")]
    if importlib.util.find_spec("numba") is None:  # the compiled loop's body needs the fast extra to import
        names.remove("fnmcts.mcts._compiled")
    modules = [importlib.import_module(name) for name in names]
    return [
        module
        for module in modules
        if not (module.__name__.startswith("fnmcts.cli.") and not hasattr(module, "__all__"))
    ]


MODULES = _modules()


def _documented():
    """``(qualified name, object)`` for each function and class a module lists in ``__all__`` and defines."""
    found = {}
    for module in MODULES:
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name, None)
            if (inspect.isfunction(obj) or inspect.isclass(obj)) and obj.__module__ == module.__name__:
                found[f"{module.__name__}.{name}"] = obj
    return sorted(found.items())


DOCUMENTED = _documented()


def summary_problem(doc):
    """What is wrong with ``doc`` as a docstring with a one-line summary and a doctest, or ``None``.

    >>> summary_problem('''Add one.
    ...
    ...     >>> 1 + 1
    ...     2
    ... ''') is None
    True
    >>> summary_problem('''Add one
    ...     to a number.
    ... ''')
    'the first line is not a one-line summary (end it with a period or follow it with a blank line)'
    >>> summary_problem("Add one.")
    'no doctest (>>>)'
    """
    if not doc or not doc.strip():
        return "no docstring"
    lines = inspect.cleandoc(doc).splitlines()
    if not (lines[0].rstrip().endswith(".") or len(lines) == 1 or not lines[1].strip()):
        return "the first line is not a one-line summary (end it with a period or follow it with a blank line)"
    if ">>>" not in doc:
        return "no doctest (>>>)"
    return None


def public_names(namespace):
    """The names of ``namespace`` a user sees: not starting with ``_`` and not a submodule."""
    return {
        name
        for name in dir(namespace)
        if not name.startswith("_") and not isinstance(getattr(namespace, name), types.ModuleType)
    }


def test_the_curated_namespace_lists_exactly_its_public_names():
    assert len(fnmcts.__all__) == len(set(fnmcts.__all__)), "fnmcts.__all__ has duplicates"
    public = public_names(fnmcts)
    assert sorted(public - set(fnmcts.__all__)) == [], "public in fnmcts but not in __all__"
    assert sorted(set(fnmcts.__all__) - public) == [], "in fnmcts.__all__ but not a public name of fnmcts"


def test_the_walk_sees_the_whole_package():
    names = {module.__name__ for module in MODULES}
    assert {"fnmcts", "fnmcts.mcts", "fnmcts.mcts._engine", "fnmcts.games.shut_the_box.rules", "fnmcts.cli"} <= names


@pytest.mark.parametrize("module", MODULES, ids=lambda module: module.__name__)
def test_every_module_defines_all_and_every_name_in_it_exists(module):
    assert hasattr(module, "__all__"), f"{module.__name__} defines no __all__"
    names = list(module.__all__)
    assert len(names) == len(set(names)), f"{module.__name__}.__all__ has duplicates"
    assert [name for name in names if not hasattr(module, name)] == []


def test_there_are_public_functions_to_check():
    assert len(DOCUMENTED) > 200


@pytest.mark.slow
@pytest.mark.parametrize("name, obj", DOCUMENTED, ids=[name for name, _ in DOCUMENTED])
def test_every_public_function_and_class_has_a_summary_and_a_doctest(name, obj):
    problem = summary_problem(obj.__doc__)
    if name in DOCTEST_EXCEPTIONS:
        assert problem is not None, f"{name} is documented now: drop it from DOCTEST_EXCEPTIONS"
        return
    assert problem is None, f"{name}: {problem}"


def test_every_exception_names_a_public_function():
    assert set(DOCTEST_EXCEPTIONS) <= {name for name, _ in DOCUMENTED}


def test_a_new_undocumented_function_fails_the_check():
    def shiny(x):
        """Return x
        unchanged."""
        return x

    def bare(x):
        """Return x."""
        return x

    assert summary_problem(shiny.__doc__) is not None
    assert summary_problem(bare.__doc__) == "no doctest (>>>)"
    assert summary_problem(None) == "no docstring"


# -- the curated namespace: small, one meaning per name, a help() that helps ----------------------

import warnings  # noqa: E402

TOP_LEVEL_LIMIT = 60
HELP_LINE_LIMIT = 1561  # 1,500 until GameError joined the top level: an exception's help is some 80 lines;
# one more for the package fnmcts.web (the live page), a line of help's PACKAGE CONTENTS

SOURCE_VOCABULARY = {
    # (a module where the meaning appears, name): why the name means something else there than elsewhere.
    # One entry a meaning: the tutorial's possible_moves is one object in fnmcts, fnmcts.tutorial and
    # fnmcts.games.shut_the_box(.rules), so one entry covers it wherever it is re-exported.
    ("fnmcts.tutorial", "possible_moves"): "the tutorial's possible-moves(box, roll); the protocol's takes (game, state)",
    ("fnmcts.tutorial", "play_game"): "the tutorial's play-game(box, rng); fnmcts.matches.play_game plays two agents",
    ("fnmcts.games.shut_the_box.rules", "play_game"): "the tutorial's play-game as the game's rules hold it, without "
                                                      "fnmcts.tutorial's shim for the old game-first call",
    ("fnmcts.tutorial", "uct"): "the tutorial's uct(tree, box, rng); fnmcts.mcts.uct is the generic step, game first",
    ("fnmcts.tutorial", "simulate"): "the tutorial's simulate(n) on Shut the Box; fnmcts.simulate takes the game",
    ("fnmcts.tutorial", "train"): "the Q-learning project's train(n) on piles 1, 3, 5, 7; fnmcts.qlearning names no game",
    ("fnmcts.tutorial", "new_ai"): "the Q-learning project's NimAI(); fnmcts.qlearning.new_ai takes the game",
    ("fnmcts.mcts.phases", "simulate"): "the MCTS phase: one playout from a state",
    ("fnmcts.mcts.phases", "uct"): "the four phases composed by hand: the reference every fast dive equals",
    ("fnmcts.games.coin", "simulate"): "the tutorial's task 1: n coin flips",
    ("fnmcts.games.coin", "is_win"): "the tutorial's task 1: a flip that wins",
    ("fnmcts.games.darts", "simulate"): "the tutorial's task 1: n darts",
    ("fnmcts.games.darts", "is_win"): "the tutorial's task 1: a dart inside the circle",
    ("fnmcts.games.shut_the_box.rules", "is_win"): "the tutorial's win: every lever shut",
}
"""The only names with two meanings: the sources' own functions, kept with their signatures where
the sources' readers look for them (docs/glossary.md). An entry names one module where its meaning
appears; the test finds the others that bind the same object."""


def _python_api_modules():
    """The public modules of the Python API: no part of the name private, the command line's verbs left out.

    ``fnmcts.cli``'s modules are the command line's parts (each defines ``register``), not a library.
    """
    return [
        module
        for module in MODULES
        if not any(part.startswith("_") for part in module.__name__.split("."))
        and not module.__name__.startswith("fnmcts.cli.")
    ]


def _meanings():
    """``name -> {id(object): [module, ...]}`` over every ``__all__`` of the Python API's modules."""
    found = {}
    for module in _python_api_modules():
        for name in module.__all__:
            obj = getattr(module, name)
            if isinstance(obj, types.ModuleType):
                continue
            found.setdefault(name, {}).setdefault(id(obj), []).append(module.__name__)
    return found


def _excepted(modules, name):
    """Whether the meaning bound in ``modules`` is a source's vocabulary: one of them is listed with ``name``."""
    return any((module, name) in SOURCE_VOCABULARY for module in modules)


def _clashes(meanings):
    """``name -> [modules of each meaning]`` for the names with two or more meanings not listed as a source's."""
    clashes = {}
    for name, found in meanings.items():
        plain = [modules for modules in found.values() if not _excepted(modules, name)]
        if len(plain) > 1:
            clashes[name] = sorted(found.values())
    return clashes


def test_every_public_name_has_one_meaning_across_the_public_modules():
    assert _clashes(_meanings()) == {}, "a name means different objects in different public modules"


def test_a_second_meaning_not_listed_is_a_clash():
    meanings = {"shiny": {1: ["fnmcts.a"], 2: ["fnmcts.b"]}, "uct": {1: ["fnmcts.mcts"], 2: ["fnmcts", "fnmcts.tutorial"]}}
    assert _clashes(meanings) == {"shiny": [["fnmcts.a"], ["fnmcts.b"]]}
    meanings["uct"][3] = ["fnmcts.other"]  # a third meaning of a listed name, not listed itself
    assert "uct" in _clashes(meanings)


def test_the_tutorials_names_at_the_top_are_the_tutorials_and_do_not_warn():
    import subprocess
    import sys

    code = "from fnmcts import possible_moves, play_game, ucb, uct"
    done = subprocess.run([sys.executable, "-W", "error", "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    from fnmcts import games, mcts, tutorial

    assert fnmcts.possible_moves is tutorial.possible_moves is games.shut_the_box.possible_moves
    assert fnmcts.play_game is tutorial.play_game  # the game's own, with the old call's shim (a game imports nothing above)
    box = games.shut_the_box.start_box
    assert [tutorial.play_game(box, fnmcts.make_rng(s)) for s in range(20)] == [
        games.shut_the_box.play_game(box, fnmcts.make_rng(s)) for s in range(20)]
    assert fnmcts.ucb is tutorial.ucb is mcts.ucb
    assert fnmcts.uct is tutorial.uct
    assert list(inspect.signature(fnmcts.uct).parameters)[:3] == ["tree", "box", "rng"]
    assert list(inspect.signature(fnmcts.possible_moves).parameters)[:2] == ["box", "roll"]


def test_the_old_top_level_calls_still_work_with_a_warning_naming_the_new_home():
    from fnmcts import matches, mcts, protocol
    from fnmcts.games import Nim

    game = Nim(heap=5)
    with pytest.warns(DeprecationWarning, match="fnmcts.protocol.possible_moves"):
        assert fnmcts.possible_moves(game, game.start()) == protocol.possible_moves(game, game.start())
    with pytest.warns(DeprecationWarning, match="fnmcts.matches.play_game"):
        old = fnmcts.play_game(game, fnmcts.random_agent, fnmcts.random_agent, seed=3)
    assert old == matches.play_game(game, fnmcts.random_agent, fnmcts.random_agent, seed=3)
    with pytest.warns(DeprecationWarning, match="fnmcts.matches.play_game"):  # the notebook's order, agents first
        old = fnmcts.play_game(fnmcts.random_agent, fnmcts.random_agent, game, seed=3)
    assert old == matches.play_game(game, fnmcts.random_agent, fnmcts.random_agent, seed=3)
    with pytest.warns(DeprecationWarning, match="fnmcts.matches.play_game"):  # rng= as matches.play_game takes it
        old = fnmcts.play_game(game, fnmcts.random_agent, fnmcts.random_agent, rng=fnmcts.make_rng(5))
    assert old == matches.play_game(game, fnmcts.random_agent, fnmcts.random_agent, rng=fnmcts.make_rng(5))
    with pytest.warns(DeprecationWarning, match="fnmcts.mcts.uct"):
        old = fnmcts.uct(game, {}, game.start(), fnmcts.make_rng(4))
    assert old == mcts.uct(game, {}, game.start(), fnmcts.make_rng(4))


def test_the_tutorials_play_game_refuses_extra_arguments():
    with pytest.raises(TypeError, match="takes no more arguments"):
        fnmcts.play_game(frozenset({1}), fnmcts.make_rng(1), False, "extra")


def test_every_source_vocabulary_exception_is_a_real_second_meaning():
    meanings = _meanings()
    stale = [
        (home, name)
        for home, name in SOURCE_VOCABULARY
        if home not in {m for modules in meanings.get(name, {}).values() for m in modules}
        or len(meanings[name]) < 2
    ]
    assert stale == [], "an exception names no second meaning: drop it"


def test_the_top_level_is_small_and_its_help_is_short():
    assert len(fnmcts.__all__) <= TOP_LEVEL_LIMIT
    # as a new interpreter shows it: what other tests imported or set on the package does not count
    shown = subprocess.run([sys.executable, "-c", "import pydoc, fnmcts; "
                            "print(pydoc.render_doc(fnmcts, renderer=pydoc.plaintext))"],
                           capture_output=True, text=True, check=True).stdout
    lines = shown.rstrip("\n").splitlines()
    assert len(lines) < HELP_LINE_LIMIT, f"help(fnmcts) is {len(lines)} lines"


def test_dir_shows_the_public_names_and_hides_the_moved_ones():
    shown = {name for name in dir(fnmcts) if not name.startswith("_")}
    assert shown == set(fnmcts.__all__)
    assert not shown & set(fnmcts._MOVED)


@pytest.mark.parametrize("name", sorted(fnmcts._MOVED))
def test_a_moved_top_level_name_still_works_with_a_deprecation_warning_naming_its_home(name):
    home = importlib.import_module(fnmcts._MOVED[name])
    assert name in home.__all__, f"{name} is not public in its new home {home.__name__}"
    with pytest.warns(DeprecationWarning, match=rf"fnmcts\.{name} moved to {home.__name__}\.{name}"):
        old = getattr(fnmcts, name)
    assert old is getattr(home, name)


def test_the_current_names_do_not_warn():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for name in fnmcts.__all__:
            getattr(fnmcts, name)


def test_an_unknown_top_level_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'shiny'"):
        fnmcts.shiny


def test_renamed_module_names_warn_and_keep_their_object():
    from fnmcts import qlearning, tutorial

    with pytest.warns(DeprecationWarning, match="win_rate_against"):
        assert qlearning.win_rate is qlearning.win_rate_against
    with pytest.warns(DeprecationWarning, match="fnmcts.qlearning.ai_from_json"):
        old = tutorial.ai_from_json
    ai = qlearning.train(50, seed=1, game=fnmcts.games.Nim(heap=5))
    assert old(qlearning.ai_to_json(ai)) == ai


def test_the_agent_registry_and_its_module_share_the_agents():
    from fnmcts import agents, mcts, qlearning

    assert agents.mcts_agent is mcts.mcts_agent
    assert agents.q_agent is qlearning.q_agent


@pytest.mark.parametrize("name", sorted(fnmcts._TESTING))
def test_a_testing_name_at_the_top_level_says_it_lives_in_fnmcts_testing(name):
    import fnmcts.testing

    assert name in fnmcts.testing.__all__ and name not in fnmcts.__all__
    # what a user sees: ``from fnmcts import NAME`` keeps the message (an AttributeError there would lose it)
    shown = subprocess.run([sys.executable, "-c", f"from fnmcts import {name}"], capture_output=True, text=True)
    assert shown.returncode == 1
    assert shown.stderr.strip().splitlines()[-1] == (
        f"ImportError: fnmcts has no {name!r}: it lives in fnmcts.testing (from fnmcts.testing import {name})")
    with pytest.raises(AttributeError, match=rf"lives in fnmcts\.testing \(from fnmcts\.testing import {name}\)"):
        getattr(fnmcts, name)
    assert not hasattr(fnmcts, name)
