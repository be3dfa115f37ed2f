"""``check_game``: every game law on hypothesis walks, and the shortest walk to a law that fails.

``check_game(game)`` draws walks from the start with hypothesis, checks every
law at every state on the way and, when one fails, searches breadth-first for
the shortest walk to a failing state (the earliest moves first), which it
reports in an ``AssertionError``: the law, the moves from the start, the state
and the problem. ``find_counterexample(game, law)`` returns that
``Counterexample`` as a value instead.

>>> from fnmcts.games.nim import Nim
>>> check_game(Nim(heap=7, max_take=3), max_examples=20)
('moves_stable_and_legal', 'play_pure', 'hash_consistent', 'terminal_iff_nobody_to_move',
 'chance_probabilities', 'payoff_in_range', 'json_round_trip', 'text_hooks', 'playthrough_ends',
 'symmetry', 'solver_recursion', 'agents_legal')
"""

from __future__ import annotations

import copy
import inspect
import random
import signal
from functools import partial
from typing import Any, Callable, NamedTuple

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as _hypothesis_seed
from hypothesis import strategies as st
from pyrsistent import pmap

from ..limits import STATE_LIMIT, TooLarge, held_bytes, size_hint
from ..parallel import Interrupted
from ..protocol import _whole_at_least, game_text
from ..rng import pick
from ._walk import DEFAULT_MAX_STEPS, GameRaised, _atomic, choices, fresh
from .laws import (
    LAWS,
    _first_decision,
    agents_for,
    builtin_agents,
    count_states,
    NOT_ASKED,
    law_agents_legal,
    law_playthrough_ends,
    law_solver_recursion,
    law_symmetry,
)
from .strategies import _recorded_walks, _replayed_walk

__all__ = ["DEFAULT_EXACT_LIMIT", "Counterexample", "find_counterexample", "check_game", "CheckEstimate",
           "estimate_check"]

DEFAULT_EXACT_LIMIT = STATE_LIMIT
"""The default bound on the states ``check_game`` lets the exact solver visit: the solver's own limit."""


class Counterexample(NamedTuple):
    """A law that fails: its name, the moves from the start, the bad state, what went wrong.

    >>> from fnmcts.games.nim import Nim
    >>> def law_heap_not_two(game, state):
    ...     assert state["heap"] != 2, "the heap is 2"
    >>> found = find_counterexample(Nim(heap=9, max_take=3), law_heap_not_two)
    >>> isinstance(found, Counterexample), found.state["heap"], found.error
    (True, 2, 'the heap is 2')
    """

    law: str
    path: tuple
    state: Any
    error: str

# -- running laws under hypothesis -------------------------------------------------------


def _law_function(law) -> tuple[str, Callable]:
    if callable(law):
        return getattr(law, "__name__", "law").removeprefix("law_"), law
    try:
        return law, LAWS[law]
    except (KeyError, TypeError):
        raise ValueError(f"unknown law {law!r}; choose one of {', '.join(LAWS)}") from None



def find_counterexample(
    game,
    law,
    *,
    max_examples: int = 100,
    max_steps: int = DEFAULT_MAX_STEPS,
    seed: int = 0,
    end_only: bool = False,
    shrink_budget: int = 2000,
    progress: Callable[[int], Any] | None = None,
    stop: Callable[[], Any] | None = None,
    **options,
) -> Counterexample | None:
    """The shortest counterexample to ``law`` (a name in ``LAWS`` or a function) found, or None.

    Hypothesis draws ``max_examples`` walks from the start (at most ``max_steps``
    steps) and checks the law at every state of each walk (with ``end_only``, at
    the last one). At the first failure, a breadth-first search over the walks
    no longer than the failing one (at most ``shrink_budget`` distinct states)
    finds the shortest walk that fails, the earliest moves first. Only when that
    search runs out of budget (or finds nothing: a law that depends on its
    ``rng``) does hypothesis shrink the failing walk itself, which takes long
    on long walks through states that repeat. ``options`` go to the law where
    it takes them (``rng`` is drawn with ``st.randoms``; ``max_steps`` is the
    playthrough bound). ``seed`` makes the search reproducible; ``progress``,
    when given, is called with 1 after each walk checked. ``stop``, when
    given, is asked before each walk: once it returns true the search ends with
    ``fnmcts.parallel.Interrupted`` (a ``KeyboardInterrupt``), as Ctrl-C ends it.

    >>> from fnmcts.games.nim import Nim
    >>> def law_heap_not_two(game, state):
    ...     assert state["heap"] != 2, "the heap is 2"
    >>> found = find_counterexample(Nim(heap=9, max_take=3), law_heap_not_two)
    >>> found.law, found.path, found.error
    ('heap_not_two', (1, 3, 3), 'the heap is 2')
    """
    return _find_counterexample(game, law, None, max_examples=max_examples, max_steps=max_steps, seed=seed,
                                end_only=end_only, shrink_budget=shrink_budget, progress=progress, stop=stop,
                                **options)


def _find_counterexample(game, law, examples: dict | None, *, max_examples: int, max_steps: int, seed: int,
                         end_only: bool, shrink_budget: int, progress, stop, **options) -> Counterexample | None:
    """``find_counterexample``, sharing its walks with the other laws of one check through ``examples``.

    ``examples`` (or None) maps whether a law draws an ``rng`` to the walks that hypothesis drew
    for an earlier law that held, each as the numbers drawn (``_recorded_walks``)
    and the ``rng`` drawn with it, untouched: every law is given the same walks
    from the same seed, so a later law replays them instead of drawing them
    again, and meets the same walks, in the same order, with the same ``rng``.
    Only a failure goes back to hypothesis (to shrink the walk that failed).
    """
    name, function = _law_function(law)
    _whole_at_least("max_examples", max_examples, 1)
    _whole_at_least("max_steps", max_steps, 0)
    accepted = inspect.signature(function).parameters
    options = {k: v for k, v in {**options, "max_steps": max_steps}.items() if k in accepted}
    drawing = "rng" in accepted and "rng" not in options
    failures, held = [], set()  # held: the states where the law held (it draws nothing: it holds there again)

    def check_walk(moves, states, rng, shrink: bool) -> None:
        """The law at the states of one walk (the last only, with ``end_only``); ``_LawFailed`` at a failure."""
        if stop is not None and stop():  # asked between two walks: the signal a handler noted, if it was lost
            raise Interrupted()
        chosen = list(enumerate(states))[-1:] if end_only else enumerate(states)
        extra = {"rng": rng} if drawing else {}
        try:
            for depth, state in chosen:
                if not drawing and _holds(held, state):
                    continue
                drawn = rng.getstate() if drawing else None
                try:
                    function(game, fresh(state), **options, **extra)
                except Exception as error:
                    failures.append((Counterexample(name, moves[:depth], state, _message(error)), drawn))
                    raise _LawFailed(failures[-1][0].error) from None
                if not drawing:
                    _hold(held, state)
        finally:
            if progress is not None and not shrink:
                progress(1)

    def search(shrink: bool, record: list | None = None) -> list:
        phases = (Phase.explicit, Phase.reuse, Phase.generate) + ((Phase.shrink,) if shrink else ())

        @settings(
            max_examples=max_examples,
            deadline=None,
            database=None,
            derandomize=False,
            report_multiple_bugs=False,
            suppress_health_check=list(HealthCheck),
            phases=phases,
        )
        @_hypothesis_seed(seed)
        @given(walk=_recorded_walks(game, max_steps), rng=st.randoms(use_true_random=True) if drawing else st.none())
        def run(walk, rng):
            moves, states, numbers = walk
            if record is not None:
                record.append((numbers, copy.copy(rng) if drawing else None))
                _keep_walk(examples, numbers, (moves, states))
            check_walk(moves, states, rng, shrink)

        try:
            run()
        except Exception:
            if not failures:
                raise
        return failures

    known = None if examples is None else examples.get(drawing)
    if known is None:
        record = [] if examples is not None else None
        search(shrink=False, record=record)
        if not failures and record is not None:
            examples[drawing] = tuple(record)  # the law held on every walk: the next law replays them
    else:
        try:
            for numbers, rng in known:
                moves, states = _walk_of(game, numbers, examples)
                check_walk(moves, states, copy.copy(rng) if drawing else None, False)
        except _LawFailed:
            pass
    if not failures:
        return None
    found, drawn = failures[-1]
    shortest = _shortest(game, function, options, found, drawn, shrink_budget)
    if shortest is not None:
        return shortest
    failures.clear()
    held.clear()
    found, drawn = search(shrink=True)[-1]  # the same walk (same seed), shrunk by hypothesis
    return _shortest(game, function, options, found, drawn, shrink_budget, within=len(found.path) - 1) or found


def _walk_of(game, numbers, examples: dict):
    """``_replayed_walk(game, numbers)``, played once a check: kept in ``examples`` under ``("walk", numbers)``.

    Every law after the first replays the same walks; a game whose rules are
    slow (a user's Connect Four rebuilding its lines at every call) paid for
    each replay again. The states kept are the walk's own: a law only ever gets
    a copy of one (``fresh``), and each step was played on a copy, so no law
    can change them. A walk with a state that is not equal to its copy (no
    value equality: a law could change it unseen) is played again each time.
    """
    key = ("walk", numbers)
    if key in examples:
        return examples[key]
    walk = _replayed_walk(game, numbers)
    _keep_walk(examples, numbers, walk)
    return walk


def _keep_walk(examples: dict, numbers, walk) -> None:
    """Keep ``walk``, the ``(moves, states)`` drawn as ``numbers``, for the later laws, unless a law could change
    one of its states unseen (a state not equal to its copy)."""
    if all(_atomic(state) or fresh(state) is not state for state in walk[1]):
        examples[("walk", numbers)] = walk


def _holds(held: set, state) -> bool:
    """True when the law held at a state equal to ``state`` (an unhashable state is never found)."""
    try:
        return state in held
    except Exception:
        return False


def _hold(held: set, state) -> None:
    """Remember that the law held at ``state``, if it can be remembered (hashable)."""
    try:
        held.add(state)
    except Exception:
        pass


def _message(error: BaseException) -> str:
    """What went wrong, as a law's report says it: an assertion's own text, else the exception's type and text."""
    return str(error) if isinstance(error, AssertionError) else f"{type(error).__name__}: {error}"


def _shortest(game, function, options, found: Counterexample, drawn, budget: int,
              within: int | None = None) -> Counterexample | None:
    """The shortest walk to a failing state, breadth-first over walks no longer than ``found``'s; None if out of budget.

    The search visits the states by depth, moves in order, each state once, and
    returns the first that fails: the shortest walk, with the earliest moves. It
    gives up (None) after ``budget`` states, or where the game fails while
    searching (unhashable states), or when no walk of at most ``within`` steps
    (default: ``found``'s length) fails. A law that takes an ``rng`` gets at
    every state a generator in the state ``drawn`` (the failing example's), so
    it draws as it did where it failed.
    """
    accepted = inspect.signature(function).parameters
    depth = len(found.path) if within is None else within
    level, seen, checked = [((), game.start())], set(), 0
    try:
        seen.add(level[0][1])
        for _ in range(depth + 1):
            following = []
            for path, state in level:
                checked += 1
                if checked > budget:
                    return None
                extra = {}
                if "rng" in accepted and "rng" not in options:
                    extra["rng"] = random.Random()
                    extra["rng"].setstate(drawn)
                try:
                    function(game, fresh(state), **options, **extra)
                except Exception as error:
                    return Counterexample(found.law, path, state, _message(error))
                for move in choices(game, state):
                    child = game.play(fresh(state), move)
                    if child not in seen:
                        seen.add(child)
                        following.append((path + (move,), child))
            level = following
    except Exception:  # unhashable states, or a game that fails while searching
        return None
    return None


class _LawFailed(AssertionError):
    """Raised inside the hypothesis run: one type and one place, so hypothesis shrinks one failure."""


def _describe(game, counterexample: Counterexample) -> str:
    where = f"moves from the start: {counterexample.path!r}" if counterexample.path else "at the start"
    return (
        f"game law {counterexample.law!r} fails for {game_text(game)}\n"
        f"  {where}\n"
        f"  state: {counterexample.state!r}\n"
        f"  problem: {counterexample.error}"
    )


def _has_the_methods(game) -> None:
    """Nothing when ``game`` has every method of the protocol; else an ``AttributeError`` naming what is missing.

    >>> class Plain:
    ...     def start(self): return 0
    >>> _has_the_methods(Plain())
    Traceback (most recent call last):
    ...
    AttributeError: the game Plain has no to_move, possible_moves, play, payoff, chance_outcomes: the laws read every method of the protocol (chance_outcomes(state) returns () for a game without chance; inheriting fnmcts.GameBase gives it that default)
    """
    missing = [name for name in ("start", "to_move", "possible_moves", "play", "payoff", "chance_outcomes")
               if not callable(getattr(game, name, None))]
    if missing:
        raise AttributeError(f"the game {type(game).__name__} has no {', '.join(missing)}: the laws read every method "
                             "of the protocol (chance_outcomes(state) returns () for a game without chance; inheriting "
                             "fnmcts.GameBase gives it that default)", name=missing[0], obj=game)


def check_game(
    game,
    *,
    laws=None,
    skip=(),
    max_examples: int = 100,
    max_steps: int = DEFAULT_MAX_STEPS,
    exact: bool = True,
    exact_limit: int = DEFAULT_EXACT_LIMIT,
    agents=None,
    seed: int = 0,
    progress: Callable[[int], Any] | None = None,
    stop: Callable[[], Any] | None = None,
) -> tuple:
    """Check every law on ``game``; return the names of the laws checked, or raise AssertionError.

    The error names the first failing law and shows the shrunk counterexample:
    the moves from the start, the state they reach and the problem.

    - ``laws``: the laws to run (names in ``LAWS`` or law functions; default all),
      ``skip``: names to leave out;
    - ``max_examples``: walks drawn per law; ``max_steps``: the playthrough bound,
      also the longest walk;
    - ``exact``: run the exact-solver law. The whole game is solved once when at
      most ``exact_limit`` states are reachable; a bigger game is checked on the
      subgames below the walks' last states that have at most ``exact_limit``
      states (``exact=False`` skips the law, and the ``exact`` agent with it);
    - ``agents``: the agents of the agent law, by name (default:
      ``builtin_agents()``, each asked once a distinct state of the walks
      within the check: what it answers is checked wherever the state comes
      again; those that play games out to choose, ``PLAYOUT_AGENTS``, at the
      first ``max_examples // PLAYOUT_SHARE`` distinct states alone; agents
      given here are asked at every state, with every ``rng``);
    - ``seed``: the hypothesis seed, so a run is reproducible;
    - ``progress``: called with a number of walks done, ``max_examples`` per
      law in all (a progress bar's update; core functions never print);
    - ``stop``: asked between two walks; once it returns true the check ends.

    Ctrl-C (or ``stop``) ends a check with ``fnmcts.parallel.Interrupted``
    whose ``partial`` is the names of the laws that held before it (the law
    being checked is not among them):

    >>> from fnmcts.games.nim import Nim
    >>> from fnmcts.parallel import Interrupted
    >>> try:
    ...     check_game(Nim(heap=5), stop=iter([False] * 150 + [True] * 1000).__next__)
    ... except Interrupted as stopped:
    ...     stopped.partial
    ('moves_stable_and_legal',)

    ``estimate_check`` says beforehand how long the call would take.

    >>> from fnmcts.games.shut_the_box import ShutTheBox
    >>> check_game(ShutTheBox(levers=5), laws=["chance_probabilities", "solver_recursion"])
    ('chance_probabilities', 'solver_recursion')
    """
    from ..exact import solve

    chosen = _chosen(game, laws, skip, exact, exact_limit)  # not a game at all: a TypeError before the methods are read
    _has_the_methods(game)
    ends_at_all(game, chosen, max_steps, seed)
    sizes = []

    def is_small() -> bool:  # counted once, when a law needs it; a game that fails counting is not small
        if not sizes:
            try:
                sizes.append(exact and count_states(game, limit=exact_limit) <= exact_limit)
            except Exception:
                sizes.append(False)
        return sizes[0]

    done, solutions, examples = [], [], {}  # examples: the walks drawn once, replayed by every later law

    def solution(name):  # the whole game solved once, for the laws that read exact values; None: not solved
        if not solutions:
            try:
                solutions.append(solve(game))
            except TooLarge:  # the library's limits (memory): the subgames below the walks are checked instead
                solutions.append(None)
            except Exception as error:
                raise AssertionError(
                    _describe(game, Counterexample(name, (), game.start(), f"the exact solver raised "
                                                   f"{type(error).__name__}: {error}"))
                ) from None
        return solutions[0]

    try:
        for name, function in chosen:
            _check_law(game, name, function, is_small, solution, exact, exact_limit, agents, max_examples,
                       max_steps, seed, progress, stop, examples)
            done.append(name)
    except KeyboardInterrupt as stopped:  # Ctrl-C, SIGTERM at the command line, or stop(): the laws that held
        raise Interrupted(tuple(done), getattr(stopped, "signum", signal.SIGINT)) from None
    except BaseException:
        if stop is not None and stop():  # hypothesis, cut off half-way, may fail its own assertions: still a stop
            raise Interrupted(tuple(done)) from None
        raise
    return tuple(done)


def _check_law(game, name, function, is_small, solution, exact, exact_limit, agents, max_examples, max_steps, seed,
               progress, stop, examples) -> None:
    """One law of ``check_game`` on its walks: returns when it holds, raises ``AssertionError`` when it fails."""
    options, end_only = {}, False
    if function is law_solver_recursion or (function is law_symmetry and exact):
        if is_small() and solution(name) is not None:
            options["solution"] = solution(name)
        else:
            function, end_only = _subgames_within(function, exact_limit, examples), True
    elif function is law_symmetry:  # exact=False: the moves and payoffs of the images, not their values
        options["limit"] = 0
    if function is law_agents_legal:
        if agents is None:  # the built-in agents that play this game; the solving ones (exact, perfect,
            # montecarlo-perfect) only if it is small
            if is_small():  # solved once for every walk: the solution the other laws read, solved once
                try:
                    solved = solution(name)
                except AssertionError:  # the solver fails: each factory solves and fails on its own, as alone
                    solved = None
                chosen_agents = builtin_agents(game=game, solution=solved)
            else:
                chosen_agents = builtin_agents().discard("exact").discard("perfect").discard("montecarlo-perfect")
            chosen_agents = _asked_once(agents_for(game, chosen_agents), playout_states=max(1, max_examples // PLAYOUT_SHARE))
        else:
            chosen_agents = pmap(agents)
        options["agents"] = chosen_agents
    walked = []

    def walk_done(k, walked=walked):
        walked.append(k)
        if progress is not None:
            progress(k)

    found = _find_counterexample(
        game,
        function,
        examples,
        max_examples=max_examples,
        shrink_budget=2000,
        max_steps=max_steps,
        seed=seed,
        end_only=end_only,
        progress=walk_done,
        stop=stop,
        **options,
    )
    if found is not None:
        raise AssertionError(_describe(game, found._replace(law=name)))
    if progress is not None and sum(walked) < max_examples:
        progress(max_examples - sum(walked))  # fewer walks than asked: the game has no more to draw


SUBGAME_WASTE = 2
"""How many ``exact_limit``'s worth of states, in all, a check may count in subgames that prove too large to solve."""

SMALLEST_SUBGAME = 1_000
"""Subgames of at most this many states are solved below every walk's end, however much counting went to waste."""


def _subgames_within(function, exact_limit: int, examples: dict):
    """``function`` (the solver or symmetry law) on a game too large to solve whole: at each walk's end it is
    checked with the exact values of the subgame below, when that subgame has at most ``exact_limit`` states.

    Finding that a subgame is too large costs a count of ``exact_limit``
    states; a game whose states grow for ever (a mutant that lengthens the
    board at every move) made every one of a check's walks pay it, so the
    check never ended. In all, the counts that find a subgame too large spend
    at most ``SUBGAME_WASTE * exact_limit`` states a check (kept in
    ``examples``, shared by both laws); past that a count stops at what is
    left, never below ``SMALLEST_SUBGAME`` states. Too large, the law is
    checked without exact values (``limit=0``: the symmetry law still maps
    the moves and payoffs of the images).
    """
    spent = examples.setdefault("states counted in subgames too large", [0])

    def law(game, state, solution=None, limit=None):
        cap = min(exact_limit, max(SMALLEST_SUBGAME, SUBGAME_WASTE * exact_limit - spent[0]))
        if count_states(game, state, cap) > cap:
            spent[0] += cap
            return function(game, state, limit=0)
        return function(game, state)

    law.__name__ = function.__name__
    return law


PLAYOUT_AGENTS = frozenset({"montecarlo", "montecarlo-perfect", "mcts"})
"""The built-in agents that play games out to choose a move: ``check_game`` asks each at a bounded number of states."""

PLAYOUT_SHARE = 4
"""``check_game`` asks each agent of ``PLAYOUT_AGENTS`` at ``max_examples // PLAYOUT_SHARE`` distinct states (at least
one): at the default 100 walks, 25 states, the first its walks meet."""


def _asked_once(agents, playout_states: int | None = None):
    """``agents`` (a mapping of names to agents), each asked once a distinct state: later it answers as it did.

    The walks of a check pass the same states many times (the start in every
    walk); the built-in agents make the same kind of choice there whatever
    the ``rng``, so asking each once a state keeps the law's reach at a
    fraction of its cost. The answers are held by the agents returned, which
    live as long as the law's check; an unhashable state is asked every time.

    With ``playout_states``, an agent of ``PLAYOUT_AGENTS`` is asked at the
    first ``playout_states`` distinct states it meets (``check_game`` gives
    a quarter of its walks' number, ``PLAYOUT_SHARE``) and answers
    ``NOT_ASKED`` at the others, which the law skips: its playouts call the
    game's rules dozens of times a move, and a game whose rules are slow (a
    user's Connect Four rebuilding its lines at every call) spent two thirds
    of its check there. The random agent and the solving agents are still
    asked at every distinct state.

    >>> from fnmcts.games.nim import Nim
    >>> from fnmcts.agents import random_agent
    >>> once = _asked_once({"random": random_agent})["random"]
    >>> game = Nim(heap=9, max_take=3)
    >>> len({once(game, game.start(), random.Random(seed)) for seed in range(20)})
    1
    >>> mc = _asked_once({"montecarlo": random_agent}, playout_states=1)["montecarlo"]
    >>> mc(game, game.start(), random.Random(0)) in (1, 2, 3), mc(game, game.play(game.start(), 1), random.Random(0))
    (True, NOT_ASKED)
    """
    answers = {}

    def once(name, agent):
        bounded = playout_states is not None and name in PLAYOUT_AGENTS
        asked = [0]

        def ask(game, state, rng):
            try:
                key = (name, state)
                known = key in answers
            except TypeError:  # an unhashable state: the hash law reports it
                return agent(game, state, rng)
            if not known:
                if bounded and asked[0] >= playout_states:
                    return NOT_ASKED
                asked[0] += 1
                answers[key] = agent(game, state, rng)
            return answers[key]

        ask.__name__ = getattr(agent, "__name__", name)
        return ask

    return pmap({name: once(name, agent) for name, agent in agents.items()})


def ends_at_all(game, chosen, max_steps: int, seed: int) -> None:
    """One random playthrough from the start before the laws: a game that never ends fails ``playthrough_ends`` at once.

    (Every law's walks would first meet its long lines, state by state, each
    perhaps longer than the last.) The counterexample is the law's own, at the
    start: the shortest walk to it.
    """
    if not any(function is law_playthrough_ends for _, function in chosen):
        return
    try:
        start = game.start()
        law_playthrough_ends(game, fresh(start), random.Random(seed), max_steps=max_steps)
    except GameRaised:  # the game's code failed on the way: the laws name it, with their shortest walk
        return
    except AssertionError as error:
        raise AssertionError(_describe(game, Counterexample("playthrough_ends", (), start, _message(error)))) from None
    except Exception:  # the game fails otherwise: the laws say how, with their shortest walk
        return


def _chosen(game, laws, skip, exact: bool, exact_limit: int) -> list:
    """``[(name, law function), ...]``: the laws a check runs, the options checked."""
    if isinstance(laws, str) or callable(laws):  # one law, named or given
        laws = [laws]
    if isinstance(skip, str):
        skip = [skip]
    if getattr(game, "to_move", None) is None:
        raise TypeError(f"check_game needs a game of the fnmcts protocol, got {game!r}")
    from ..protocol import _refuse_class

    _refuse_class(game)  # Nim for Nim(): said so, not "start() missing 'self'" from a walk
    chosen = [_law_function(law) for law in (LAWS if laws is None else laws)]
    skip = set(skip)
    unknown = skip - set(LAWS) - {name for name, _ in chosen}
    if unknown:
        raise ValueError(f"unknown law(s) to skip: {', '.join(sorted(map(str, unknown)))}")
    chosen = [(name, function) for name, function in chosen if name not in skip]
    if not exact:
        chosen = [(name, function) for name, function in chosen if function is not law_solver_recursion]
    _whole_at_least("exact_limit", exact_limit, 1)
    return chosen




class CheckEstimate(NamedTuple):
    """How long ``check_game`` would take: in all, law by law, and options that would make it quick.

    ``quick`` maps options of ``check_game`` (``max_examples``, ``exact_limit``,
    ``exact``, ``max_steps``, ``agents``) to values that bring the estimate near
    ``target`` seconds (empty when it is already quick); ``quick_seconds`` is
    the estimate with them. ``state_bytes``: the bytes one state held by the
    exact laws costs (measured on a sample, ``fnmcts.limits.state_bytes``; 0
    without them): they count and solve up to ``exact_limit`` states, so
    ``exact_limit * state_bytes`` is the memory they may hold.

    >>> import itertools
    >>> from fnmcts.games.nim import Nim
    >>> tick = itertools.count(0, 0.001).__next__  # a clock that reads 1 ms later at every call: no load in the doctest
    >>> estimate = estimate_check(Nim(heap=10), clock=tick)
    >>> estimate.seconds < 60, [name for name, _ in estimate.laws][:2], 0 < estimate.state_bytes < 10_000
    (True, ['moves_stable_and_legal', 'play_pure'], True)
    """

    seconds: float
    laws: tuple  # ((law name, seconds), ...)
    walk_states: float  # the states a walk checks, on average
    quick: dict
    quick_seconds: float
    state_bytes: int = 0


def _timed(clock, function, *args, **options) -> float:
    started = clock()
    function(*args, **options)
    return clock() - started


def estimate_check(
    game,
    *,
    laws=None,
    skip=(),
    max_examples: int = 100,
    max_steps: int = DEFAULT_MAX_STEPS,
    exact: bool = True,
    exact_limit: int = DEFAULT_EXACT_LIMIT,
    agents=None,
    budget: float = 2.0,
    target: float = 20.0,
    clock: Callable[[], float] = None,
) -> CheckEstimate:
    """Estimate the seconds ``check_game`` with these options would take, from a pilot of about ``budget`` seconds.

    The pilot plays a few random walks as the strategies draw them (a length
    up to ``max_steps``, then random steps) and times each law on their
    states; the exact solver's cost is timed on a smaller count and scaled to
    ``exact_limit`` states. The figure is rough (within a few times either
    way): enough to say beforehand that the defaults would take minutes, and
    which options make a check quick. The pilot is timed in this process's
    processor time (``clock``, default ``time.process_time``): on a busy
    machine the estimate stays what the check costs, not what the other
    programs make it wait, so a check is not refused for the machine's load
    (a game that waits on something outside, a sleep or a socket, is
    estimated by the work it does).

    >>> from fnmcts.games import TicTacToe
    >>> estimate_check(TicTacToe(), laws=["json_round_trip"]).laws[0][0]
    'json_round_trip'
    """
    import time

    clock = time.process_time if clock is None else clock
    chosen = _chosen(game, laws, skip, exact, exact_limit)
    share = budget / (len(chosen) + 2)  # the pilot's time: the walks, the game's size, then each law
    started = clock()
    walks, per_step, cut = _pilot_walks(game, random.Random(0), max_steps, share, started, clock)
    walk_states, distinct, sample = _pilot_states(walks)

    # the game's size: check_game counts it once (up to exact_limit states) when a law needs the solver
    probe = min(exact_limit, 2000)
    counted, size, countable = _pilot_count(game, probe, clock)
    exact = exact if countable else False
    hinted = _start_hint(game)
    states = size if size <= probe else (hinted if hinted is not None and hinted <= exact_limit else None)
    small = exact and states is not None
    one_time, solver_per_walk = _solver_costs(game, walks, exact, small, size, states, counted / min(size, probe),
                                              probe, exact_limit, clock)
    checks = max_examples * walk_states * distinct  # the states a law that draws nothing is checked at
    if states is not None or size <= probe:
        checks = min(checks, states if states is not None else size)

    law_cost = partial(_law_cost, game, sample=sample, share=share, per_step=per_step, clock=clock)
    rows, agents_once, random_seconds = _law_rows(game, chosen, agents, max_examples, max_steps, walk_states, checks,
                                                  small, solver_per_walk, per_step, share, law_cost, clock)
    one_time += agents_once
    per_walk, per_run = _walk_costs(game, max_steps, (max_steps / 2 if cut else walk_states) * per_step, cut,
                                    budget, started, clock)
    rows = [(name, seconds + per_run + max_examples * per_walk) for name, seconds in rows]
    total = one_time + sum(seconds for _, seconds in rows)
    quick, quick_total = _quick(rows, total, one_time, max_examples, exact, exact_limit, max_steps, walk_states,
                                solver_per_walk, target, random_seconds)
    try:  # what one state held by the exact laws costs: a state (at its deepest) and its place in a set or solution
        held = held_bytes(game, sample=16) if exact else 0
    except Exception:  # a game that fails on the way: its laws say so
        held = 0
    return CheckEstimate(total, tuple(rows), walk_states, quick, quick_total, held)


def _law_rows(game, chosen, agents, max_examples, max_steps, walk_states, checks, small, solver_per_walk, per_step,
              share, law_cost, clock) -> tuple:
    """``(rows, one-time seconds, random agent's seconds)``: ``(law, seconds)`` a law chosen, the walks' cost aside."""
    rows, one_time, random_seconds = [], 0.0, 0.0
    for name, function in chosen:
        draws = "rng" in inspect.signature(function).parameters
        evaluations = max_examples * walk_states if draws else checks
        if function is law_solver_recursion:
            seconds = max_examples * solver_per_walk if not small else checks * per_step * 4
        elif function is law_agents_legal:
            first_moves, per_state, playout_per_state, random_per_state = _agents_costs(game, function, agents, share,
                                                                                        law_cost, clock)
            one_time += first_moves
            random_seconds = evaluations * random_per_state if random_per_state is not None else random_seconds
            # the agents that play games out are asked at max_examples // PLAYOUT_SHARE states alone (_asked_once)
            seconds = evaluations * per_state + min(evaluations, max(1, max_examples // PLAYOUT_SHARE)) * playout_per_state
        else:
            seconds = evaluations * law_cost(function, {"max_steps": max_steps, "rng": random.Random(0), "limit": 0})
        rows.append((name, seconds))
    return rows, one_time, random_seconds


def _pilot_states(walks) -> tuple:
    """``(states a walk, share of them distinct, sample)``: the pilot's walks summed up, 8 states to time laws on."""
    walk_states = sum(len(w) for w in walks) / len(walks)
    seen = [s for w in walks for s in w]
    try:
        distinct = len(set(seen)) / len(seen)
    except TypeError:  # unhashable states: every one is checked
        distinct = 1.0
    return walk_states, distinct, [seen[int(i * len(seen) / 8)] for i in range(8)] if len(seen) > 8 else seen


def _pilot_walks(game, rng, max_steps, share, started, clock) -> tuple:
    """``(walks, seconds a step, cut)``: the pilot's random walks (lists of states); ``cut``: one outgrew ``share``."""
    walks, steps_timed, step_time, cut = [], 0, 0.0, False
    while len(walks) < 8 and (len(walks) < 2 or clock() - started < share):
        length = rng.randint(0, max_steps)
        state, states = game.start(), [game.start()]
        for _ in range(length):
            here = choices(game, state)
            if not here:
                break
            before = clock()
            try:
                state = game.play(state, pick(rng, here))
            except Exception:  # a broken game: the laws will say so; the walk stops here
                break
            step_time += clock() - before
            steps_timed += 1
            states.append(state)
            if clock() - started > share and len(states) > 8:
                cut = True  # a walk longer than the pilot's share: the walks of the check are long
                break
        walks.append(states)
    return walks, step_time / max(1, steps_timed), cut


def _pilot_count(game, probe, clock) -> tuple:
    """``(seconds, states, countable)``: the game's states counted up to ``probe``, timed (``(0.0, 1, False)``)."""
    try:
        counted = _timed(clock, count_states, game, limit=probe)
        return counted, count_states(game, limit=probe), True
    except Exception:  # a game that fails while counting is not solved: its laws fail first
        return 0.0, 1, False


def _start_hint(game):
    """The game's own hint of its size from the start, or None (no hint, or a hint that fails)."""
    try:
        return size_hint(game, game.start())[0]
    except Exception:
        return None


def _solver_costs(game, walks, exact, small, size, states, per_state, probe, exact_limit, clock) -> tuple:
    """``(one-time seconds, seconds a walk)`` of the exact laws: solving the game whole, or counting below each walk."""
    from ..exact import solve

    try:
        if exact and small:
            return (_timed(clock, solve, game) if size <= probe else per_state * states * 6), 0.0
        if exact:
            one_time = per_state * exact_limit  # counting to exact_limit: the game is too big to solve whole
            ends = [w[-1] for w in walks][:4]
            below = [count_states(game, end, limit=probe) for end in ends]
            return one_time, per_state * 6 * sum(b if b <= probe else exact_limit for b in below) / len(below)
    except Exception:  # the solver fails on this game: its law says so at once
        pass
    return 0.0, 0.0


def _law_cost(game, function, options, *, sample, share, per_step, clock) -> float:
    """The seconds ``function`` takes at a state, on average over ``sample`` (within ``share`` seconds)."""
    accepted = inspect.signature(function).parameters
    extra = {k: v for k, v in options.items() if k in accepted}
    spent, timed = 0.0, 0
    for state in sample:
        if timed and spent > share:
            break
        try:
            spent += _timed(clock, function, game, fresh(state), **extra)
        except Exception:
            spent += per_step
        timed += 1
    return spent / max(1, timed)


def _agents_costs(game, function, agents, share, law_cost, clock) -> tuple:
    """``(one-time seconds, seconds a state, the playout agents' seconds a state, the random agent's seconds a state
    or None)`` of ``agents_legal`` (the playout agents, ``PLAYOUT_AGENTS``, are left out of the second when the
    check bounds them: the built-in agents)."""
    # each agent once at the first decision (as check_game tries them before it starts), then at the states
    # of the pilot's walks, as the law meets them (an end or the dice ask no agent; a late decision is quick)
    candidates = builtin_agents().discard("exact").discard("perfect").discard("montecarlo-perfect")
    first, one_time, per_state, random_per_state = _first_decision(game), 0.0, 0.0, None
    playout_per_state = 0.0  # the built-in agents that play games out: bounded in states by check_game
    # an agent that plays games out to choose (montecarlo, mcts: at most 16 small-budget games a move) is
    # charged that many random games, untimed, when they would not fit in the pilot's share: the estimate
    # stays quick (a flat Monte Carlo agent on Go plays over a thousand games a move)
    most = _most_playouts(game, first, clock)
    for agent_name, agent in (candidates if agents is None else pmap(agents)).items():
        bounded = agents is None and agent_name in PLAYOUT_AGENTS
        if agent_name != "random" and most > share:
            one_time += most
            playout_per_state, per_state = (playout_per_state + most, per_state) if bounded else (
                playout_per_state, per_state + most)
            continue
        try:
            one_time += _timed(clock, agent, game, first, random.Random(0)) if first is not None else 0.0
        except Exception:
            continue  # an agent that does not play the game is left out
        spent = law_cost(function, {"agents": pmap({agent_name: agent}), "rng": random.Random(0)})
        if bounded:
            playout_per_state += spent
        else:
            per_state += spent
        if agent_name == "random":
            random_per_state = spent
    return one_time, per_state, playout_per_state, random_per_state


def _walk_costs(game, max_steps, guess, cut, budget, started, clock) -> tuple:
    """``(seconds a walk, seconds a run)`` of hypothesis and the walks' steps, timed with a law that checks nothing.

    Two walks, then eight: the difference is the cost of a walk, the rest the
    cost of a run. When ten walks of ``guess`` seconds would pass what is left
    of the budget, the pilot's own walks say it (a walk of slow, long steps:
    the estimate stays quick).
    """
    if cut or 10 * guess > max(0.0, budget - (clock() - started)):
        return 2 * guess, 0.0
    try:
        two = _timed(clock, find_counterexample, game, _law_nothing, max_examples=2, max_steps=max_steps, seed=1)
        eight = _timed(clock, find_counterexample, game, _law_nothing, max_examples=8, max_steps=max_steps, seed=1)
    except Exception:
        two = eight = 0.0
    per_walk = max(0.0, eight - two) / 6
    return per_walk, max(0.0, two - 2 * per_walk)


def _most_playouts(game, state, clock) -> float:
    """Seconds of the most random games a small-budget agent plays at ``state``: 16 a move (``SMALL_BUDGETS``), one timed."""
    if state is None:
        return 0.0
    from ..matches import playout

    try:
        moves = len(game.possible_moves(state))
        started = clock()
        playout(game, state, random.Random(0))
        return 16 * moves * (clock() - started)
    except Exception:  # a game that fails or does not end: its laws say so
        return 0.0


def _law_nothing(game, state) -> bool:
    """A law that always holds: the cost of walking, without a law's."""
    return True


def _quick(rows, total, one_time, max_examples, exact, exact_limit, max_steps, walk_states, solver_per_walk,
           target, random_seconds) -> tuple:
    """``(options, seconds)``: options of check_game that bring ``total`` near ``target`` seconds."""
    if total <= target:
        return {}, total
    options, solver, agents = {}, dict(rows).get("solver_recursion", 0.0), dict(rows).get("agents_legal", 0.0)
    if agents > target / 2 and agents > 2 * random_seconds:
        from ..agents import random_agent

        options["agents"] = pmap({"random": random_agent})
        total -= agents - random_seconds
    rest, fixed = total - solver - one_time, 0.0
    if exact and (solver + one_time) > target / 2:
        small_limit = 1000
        if exact_limit > small_limit:
            options["exact_limit"] = small_limit
            scale = small_limit / exact_limit
            fixed = (one_time + solver) * scale
        else:
            options["exact"] = False
    else:
        fixed = solver + one_time
    if walk_states > 100 and max_steps > 100:
        options["max_steps"] = 100
        rest *= 100 / walk_states
    if rest + fixed > target:
        examples = max(10, int(max_examples * max(0.0, target - fixed) / max(rest, 1e-9)))
        if examples < max_examples:
            options["max_examples"] = examples
            rest *= examples / max_examples
    return options, rest + fixed
