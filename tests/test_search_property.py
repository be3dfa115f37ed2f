"""The search's differential property: every option of ``mcts_move`` and ``search`` on random games, by brute force.

Each generated case is a random game (``fnmcts.testing.random_games``), a
root drawn deep in it (``decision_states``), and one combination of the
search's public options, each drawn on its own, uniformly, from a seed
hypothesis draws (``OPTIONS``): the call (``search`` or ``mcts_move``),
the solver, shallow proofs, score bounds, RAVE / GRAVE, the backup, the rule,
the final move, the root rule, the compiled loop or the Python loop, a tree
of an earlier search (from the same root or from the start) or none, few
dives or more than the compiled loop's threshold, a bound on the tree's
states. Hypothesis runs the cases one after another in one process, so every
search follows searches of other games and roots. Every search:

* never raises;
* allocates at most ``memory_allowed`` bytes: a base, and ``MEMORY_PER_DIVE`` (more with proofs) a dive asked
  (tracemalloc's peak during the call), and makes at most ``CALLS_BASE +
  CALLS_PER_DIVE`` Python calls a dive (its work counted; a search past it is
  stopped there and fails: a walk of the game or of its graph beyond what
  the dives paid for);
* plays and shows only legal moves (``mcts_move``, ``greedy_move``,
  ``greedy_policy``, ``principal_variation``);
* with the compiled loop, grows the tree the Python loop grows from the same
  seed (the same records, the same generator state after, the same move);

and on games of one or two players (zero-sum, as the protocol asks) also:

* proves only true values (against ``oracle``, a brute-force solver of its
  own, on games small enough for it);
* plays no move proven lost when a move not proven lost is left, and takes a
  proven win: ``mcts_move`` and the views alike (``proof_choices``, the rule
  of MCTS-Solver's own ``Solver.choices``), the best move of ``fnmcts
  search``'s table too (on the cases the command line can say, with the
  game written as a user's module).

The regular run draws ``REGULAR_CASES`` cases; the slow run ``SLOW_CASES``
(2,000), the rows of a covering design (``covering_rows``) each on its share,
so that every pair of option values meets ``PAIRS_MET`` (20) times at least
(but the pairs the options themselves refuse, ``IMPOSSIBLE``), and counts
them to be sure.
"""

from __future__ import annotations

import contextlib
import gc
import itertools
import random
import sys
import tracemalloc
from collections import Counter
from fractions import Fraction
from functools import partial
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fnmcts.exact import solve, value
from fnmcts.mcts import _kernel, mcts_move, search, search_options, ucb1
from fnmcts.views import greedy_move, greedy_policy, principal_variation
from fnmcts.mcts._graph import CHANCE_NODE
from fnmcts.mcts import backups, enhancements
from fnmcts.mcts.backups import CHANCE_WALK
from fnmcts.mcts.bounds import BOUNDS_WALK
from fnmcts.protocol import CHANCE, payoff_range
from fnmcts.testing import decision_states, random_games, table_games

from oracle import TooLarge, oracle

OPTIONS = {
    "call": ("search", "mcts_move"),
    "solver": ("default", "on", "off"),
    "proofs": ("default", "off", "2"),
    "bounds": ("off", "on"),
    "amaf": ("off", "rave", "grave"),
    "backup": ("default", "mean", "expectimax", "graph"),
    "rule": ("ucb1", "tutorial", "function"),
    "final": ("visits", "mean"),
    "root": ("none", "gumbel"),
    "loop": ("compiled", "python"),
    "tree": ("new", "same root", "from the start"),
    "dives": ("few", "many"),
    "max_nodes": ("none", "bounded"),
}
"""The search's public options as the property draws them: each name, its values."""

IMPOSSIBLE = frozenset({
    frozenset({("rule", "tutorial"), ("amaf", "rave")}),  # RAVE blends into UCB1's rating: refused with another rule
    frozenset({("rule", "tutorial"), ("amaf", "grave")}),
})
"""Pairs of option values the options refuse together (a ValueError naming the problem): never drawn together."""

PAIRS_MET = 20
"""The slow run's least count of cases in which every possible pair of option values met."""

REGULAR_CASES = 40
SLOW_CASES = 2_000

MEMORY_BASE = 1 << 20
"""Bytes a search may allocate whatever its dives (the options' and the compiled loop's set-up, a game's kind probed).

Measured at most 0.11 MB (for one dive: the options and a game's kind) over 173 searches of the property."""

MEMORY_PER_DIVE = 16 << 10
"""Bytes a search may allocate per dive asked: a dive stores one state and interns its children (6 at most here);
with shallow proofs of ``d`` plies (2 here, or the default 4 on a game's tables, which hold every state already) it
looks at up to ``6 ** d`` states more, with the chance nodes between them.

Measured at most 6.5 kB a dive (a search of one to three dives, its set-up shared among them), 0.24 kB a dive at 1,369
dives, and 9.6 kB a dive with proofs of 2 plies (512 dives of a two-player game of up to 6 moves a state)."""

BOUNDS_VALUE_CALLS = 50
"""Python calls score bounds spend on one outcome's value for one player (a pessimistic and an optimistic bound, each
an exact product and sum: 22 calls a product and sum measured): a backup reads ``phases.BOUNDS_WALK`` states not
stored at most, each over its outcomes and players (``calls_allowed``)."""


def _most_outcomes(game) -> int:
    """The most outcomes a chance node of ``game`` has (a generated game says; a table game's chance rows tell)."""
    if hasattr(game, "outcomes"):
        return game.outcomes
    rows = [len(row[1]) for row in getattr(game, "table", ()) if row[0] == "chance"]
    return max(rows, default=1)


def _most_moves(game) -> int:
    """The most moves a decision of ``game`` offers (a generated game says; a table game's move rows tell)."""
    if hasattr(game, "branching"):
        return game.branching
    rows = [len(row[2]) for row in getattr(game, "table", ()) if row[0] == "move"]
    return max(rows, default=1)


def calls_allowed(game, combo, dives) -> int:
    """The Python calls a search of ``combo`` on ``game`` may make for ``dives`` dives: the base, and a dive's share,
    more with score bounds (their walk of the dice a backup: ``BOUNDS_WALK`` states, each outcome, each player)."""
    bounds = BOUNDS_WALK * _most_outcomes(game) * game.num_players * BOUNDS_VALUE_CALLS if combo["bounds"] == "on" else 0
    return CALLS_BASE + (CALLS_PER_DIVE + bounds) * dives


PROOF_STATE_BYTES = 1 << 10
"""Bytes a state the shallow proofs look at holds (its moves, children and answers: about 1 KB, ``PROOF_MEMO``'s
figure): with proofs of ``d`` plies a dive may allocate ``6 ** d`` of them more (``memory_allowed``). Measured: 32 kB a
dive at most over 2,000 cases, a one-player game with chance at 38% of its states, 6 outcomes, proofs of 2 plies."""


BOUNDS_VALUE_BYTES = 256
"""Bytes score bounds keep for one outcome's value for one player (a pessimistic and an optimistic fraction in their
tuples): a backup's walk of the dice meets ``phases.BOUNDS_WALK`` states at most, and the ends below them keep their
bounds (``memory_allowed``). Measured: 21 kB a dive, a three-player game with six outcomes at 57% of its states."""


def memory_allowed(game, combo, dives) -> int:
    """The bytes a search of ``combo`` may allocate for ``dives`` dives: the base, and per dive its share, its proofs'
    and its bounds'."""
    plies = int(combo["proofs"]) if combo["proofs"] not in ("off", "default") else 0
    proofs = PROOF_STATE_BYTES * 6 ** plies if plies else 0
    bounds = BOUNDS_WALK * _most_outcomes(game) * game.num_players * BOUNDS_VALUE_BYTES if combo["bounds"] == "on" else 0
    return MEMORY_BASE + (MEMORY_PER_DIVE + proofs + bounds) * dives


CALLS_BASE = 200_000
"""Python calls a search may make whatever its dives (the options checked, a game's kind probed, a graph completed)."""

CALLS_PER_DIVE = 5_000
"""Python calls a search may make a dive: its path's ratings and backups, the children of the state it stores, and a
playout (at most 40 layers here, and in a game whose states repeat a few rounds of chance at each).

Measured at most 656 calls for one dive and 400 a dive beyond, over 173 searches of the property."""

ORACLE_STATES = 3_000
"""Games of at most this many states are solved by the oracle, and their proofs checked."""

FEW, MANY = (1, 300), (_kernel.KERNEL_MIN_DIVES, 1_200)


class Runaway(AssertionError):
    """A search did more work than its dives paid for."""


STEP_STATE_CALLS = 60
"""Python calls an expectimax step (``backups.stored_value``) may spend on one state it reads: a chance state's step reads
``backups.CHANCE_WALK`` chance states at most, each outcome and, at an outcome where a player moves, each move's state
(its stored value, or whether the game ends there), and expands the states it meets first (the game asked who moves
and what the moves or outcomes are, each answer checked). Measured: 41.5 calls a state read, the first step of a search
of a one-player game with chance at 69% of its states, 6 outcomes and 6 moves, every state of its walk new."""


PROOF_PLY_CALLS = 40
"""Python calls each ply of shallow proofs may add to a state an expectimax step reads: a state the step expands is
first asked whether a player forces a win within the proofs' plies (``enhancements.shallow_proof``), a short search
of its own, from nothing kept (``calls_at_most`` empties the proofs kept between calls). Measured with the expectimax
backup and proofs of 2 plies, each search from nothing kept: at most 22.6 calls a ply a state read (74.3 calls a state
read in all) over the 222 of 1,009 generated cases whose search met a chance step; 16.4 a ply in the case, a
two-player game with chance at 57% of its states, that first passed 60 calls a state."""


def proof_plies(game, combo) -> int:
    """The plies of the shallow proofs a search of ``combo`` runs on ``game`` (the game's default where not given)."""
    if combo is None or combo["proofs"] == "off":
        return 0
    if combo["proofs"] == "default":
        return search_options(game).proofs
    return int(combo["proofs"])


def chance_step_calls(game, combo=None) -> int:
    """The Python calls one expectimax step at a chance state of ``game`` may make (``STEP_STATE_CALLS`` a state it
    reads, and ``PROOF_PLY_CALLS`` a ply of the proofs ``combo`` runs)."""
    per_state = STEP_STATE_CALLS + PROOF_PLY_CALLS * proof_plies(game, combo)
    return CHANCE_WALK * _most_outcomes(game) * (_most_moves(game) + 1) * per_state


@contextlib.contextmanager
def calls_at_most(budget: int, chance_step: int | None = None):
    """Within the block, count the Python function calls made, and stop the code past ``budget`` (a ``Runaway``).

    The work of a search counted deterministically (the same seed makes the
    same calls), so a search that walks the game or its own graph beyond what
    its dives paid for fails, and fails at once, whatever the machine's load.
    The shallow proofs that searches of a game keep between calls
    (``enhancements.prover_of``) are emptied first: the count is that of a
    search from nothing kept, not one that depends on what ran before it.
    ``chance_step``: the calls one expectimax step at a chance state may make
    (``chance_step_calls``): such a step (a backup's ``node_value`` at a
    chance node, called by ``backups.expectimax_back``, as many a dive as its path holds chance states) is held to
    that bound alone, and the rest of the work to ``budget``. Yields
    ``[the calls made, those made within chance steps]``.
    """
    enhancements.prover_of.cache_clear()  # counted from nothing kept (the most work), whatever ran before
    count, step = [0, 0], []  # every call, and those of the chance steps ended; step: (frame, count at its start)
    value_code, backup_code = backups.stored_value.__code__, backups.expectimax_back.__code__
    stopped = []  # the Runaway raised, kept: code that catches every Exception on the way must not hide it

    def stop(message):
        sys.setprofile(None)
        stopped.append(Runaway(message))
        raise stopped[-1]

    def profile(frame, event, arg):
        if event == "call":
            count[0] += 1
            if step:
                if count[0] - step[0][1] > chance_step:
                    stop(f"an expectimax step at a chance state made more than {chance_step:,} Python calls")
                return
            if (chance_step is not None and frame.f_code is value_code and frame.f_back.f_code is backup_code
                    and frame.f_locals["graph"].kind[frame.f_locals["i"]] == CHANCE_NODE):
                step.append((frame, count[0]))
            elif count[0] - count[1] > budget:
                stop(f"more than {budget:,} Python calls")
        elif event == "return" and step and step[0][0] is frame:
            count[1] += count[0] - step.pop()[1] + 1

    # the collector off while counting: a collection runs finalizers (a generator left suspended, a weakref's
    # callback) whose calls would be counted at a point that depends on the process's history, not on the search
    collecting = gc.isenabled()
    gc.disable()
    sys.setprofile(profile)
    try:
        yield count
    except Exception:
        if not stopped:
            raise
        # else the Runaway, wrapped on its way out (a game hook's GameError): raised as itself below
    finally:
        sys.setprofile(None)
        if collecting:
            gc.enable()
    if stopped:  # raised inside and caught there (a game's kind probed under ``except Exception``): raised again
        raise stopped[0]


# -- the one switch of the compiled loop ---------------------------------------------------------

def loop(compiled: bool):
    """A context in which searches run the compiled loop (where it applies) or the Python loop alone.

    The one place the property turns the compiled loop off (today a context
    manager of ``fnmcts.mcts._kernel``).
    """
    return contextlib.nullcontext() if compiled else _kernel.switched_off()


@pytest.fixture(scope="module", autouse=True)
def compiled_once():
    """Compile the loop before any search is measured (Numba compiles on the first use, once a process)."""
    from fnmcts.games import Nim

    game = Nim(heap=21)
    search(game, game.start(), _kernel.KERNEL_MIN_DIVES, random.Random(0), solver=False)


# -- the cases -------------------------------------------------------------------------------------

def adapted(combo: dict, game) -> dict:
    """``combo`` as it can run on ``game``: what the options refuse on it replaced by what they take."""
    combo = dict(combo)
    if combo["rule"] == "tutorial":
        combo["amaf"] = "off"
    if game.num_players > 2:  # proofs and the graph backup are defined for one or two players
        combo["proofs"] = "off"
        if combo["backup"] == "graph":
            combo["backup"] = "default"
    return combo


def keywords(combo: dict, dives: int) -> dict:
    """The options of ``combo`` as keywords of ``search`` and ``mcts_move`` (the budget and the call aside)."""
    given = {}
    if combo["solver"] != "default":
        given["solver"] = combo["solver"] == "on"
    if combo["proofs"] != "default":
        given["proofs"] = 0 if combo["proofs"] == "off" else int(combo["proofs"])
    if combo["bounds"] == "on":
        given["bounds"] = True
    if combo["amaf"] != "off":
        given["rave"] = 20
        if combo["amaf"] == "grave":
            given["rave_ref"] = 10
    if combo["backup"] != "default":
        given["backup"] = combo["backup"]
    if combo["rule"] == "tutorial":
        given["rule"] = "tutorial"
    elif combo["rule"] == "function":
        given["rule"] = partial(ucb1, c=0.5)
    if combo["root"] == "gumbel":
        given["root"] = "gumbel"
    if combo["max_nodes"] == "bounded":
        given["max_nodes"] = max(4, dives // 6)
    return given


def two_players_at_most(combo: dict) -> bool:
    """Whether ``combo`` runs as given on games of one or two players alone (``adapted`` changes it on more)."""
    return combo["proofs"] != "off" or combo["backup"] == "graph"


def covering_rows() -> list[dict]:
    """Combinations of the options in which every possible pair of option values (``all_pairs``) meets at least once.

    A greedy covering design, the same on every run: each row starts from the first pair not yet met (sorted), then
    takes for each other option in turn the value that meets most pairs not yet met with the values already chosen,
    never a pair of ``IMPOSSIBLE``. Each row runs as given: ``adapted`` leaves it alone on the games ``cases`` draws
    for it.
    """
    unmet = all_pairs()
    rows = []
    while unmet:
        row = dict(min(sorted(p) for p in unmet))
        for name, values in OPTIONS.items():
            if name in row:
                continue
            allowed = [v for v in values
                       if not any(frozenset({(name, v), item}) in IMPOSSIBLE for item in row.items())]
            row[name] = max(allowed, key=lambda v: sum(frozenset({(name, v), item}) in unmet for item in row.items()))
        row = {name: row[name] for name in OPTIONS}
        unmet -= {frozenset(p) for p in itertools.combinations(row.items(), 2)}
        rows.append(row)
    return rows


@st.composite
def cases(draw, games=None, combo=None):
    """``(reached, combo, dives, seed)``: a game and a decision deep in it, one combination of the options.

    ``combo``: the combination to run (drawn when None, each option uniformly); a game is then drawn that it runs on
    as given (of one or two players where ``two_players_at_most`` says)."""
    if games is None:
        players = (1, 2) if combo is not None and two_players_at_most(combo) else (1, 2, 3)
        games = random_games(players, max_states=60_000)
    reached = draw(decision_states(games, max_depth=60))
    if combo is None:
        pick = random.Random(draw(st.integers(0, 2**32 - 1)))  # each option uniformly (hypothesis favours first values)
        combo = {name: pick.choice(values) for name, values in OPTIONS.items()}
    combo = adapted(combo, reached.game)
    low, high = FEW if combo["dives"] == "few" else MANY
    return reached, combo, draw(st.integers(low, high)), draw(st.integers(0, 2**32 - 1))


# -- what every search must do -----------------------------------------------------------------------

def run(game, root, combo, dives, seed, measured=True):
    """The search of ``combo`` from ``root``: ``(tree, found or None, generator state after, peak bytes, calls)``.

    ``measured``: its work counted and its memory traced (else the peak and the calls are None).
    """
    given = keywords(combo, dives)
    earlier = None
    if combo["tree"] != "new":
        start = root if combo["tree"] == "same root" else game.start()
        if game.to_move(start) is CHANCE:
            start = root
        first = max(1, dives // 4)
        with calls_at_most(calls_allowed(game, combo, first), chance_step_calls(game, combo)):
            earlier = search(game, start, first, random.Random(seed + 1),
                             **{k: v for k, v in given.items() if k != "max_nodes"})
    rng = random.Random(seed)
    with contextlib.ExitStack() as stack:
        if measured:
            calls = stack.enter_context(calls_at_most(calls_allowed(game, combo, dives), chance_step_calls(game, combo)))
            tracemalloc.start()
            stack.callback(tracemalloc.stop)
        if combo["call"] == "search":
            found = None
            tree = search(game, root, dives, rng, tree=earlier, **given)
        else:
            found = mcts_move(game, root, dives, rng, tree=earlier, final=combo["final"], **given)
            tree = found.tree
        peak = tracemalloc.get_traced_memory()[1] if measured else None
    return tree, found, rng.getstate(), peak, calls[0] if measured else None


def proof_choices(proofs, player, low, high) -> set:
    """The children a move may go to at a decision of ``player``, given the children's proven values (None: unproven).

    A child proven to give ``player`` the best payoff there is, if any; else
    the unproven children and those proven best among the proven ones (not
    when those are proven at the worst payoff while an unproven child is
    left): MCTS-Solver's own rule (``Solver.choices``), which ``mcts_move``
    follows and every view must.

    >>> proof_choices([None, (-1, 1), (0, 0)], 0, -1, 1), proof_choices([None, (-1, 1)], 0, -1, 1)
    ({0, 2}, {0})
    >>> proof_choices([None, (1, -1), (0, 0)], 0, -1, 1), proof_choices([(-1, 1), (-1, 1)], 0, -1, 1)
    ({1}, {0, 1})
    """
    proven = {i: pv[player] for i, pv in enumerate(proofs) if pv is not None}
    wins = {i for i, v in proven.items() if v == high}
    if wins:
        return wins
    unproven = {i for i, pv in enumerate(proofs) if pv is None}
    if not proven:
        return unproven
    top = max(proven.values())
    best = {i for i, v in proven.items() if v == top}
    if not unproven:
        return best
    return unproven | (best if top > low else set())


def _proof(game, tree, found, state):
    if game.to_move(state) is None:  # an end is proven at sight
        return game.payoff(state)
    rec = tree.get(state)
    pv = rec.get("proven") if rec is not None else None
    if pv is None and found is not None:
        pv = found.proven.get(state)
    return pv


def _same_value(a, b, repeats) -> bool:
    if not repeats and all(isinstance(x, (int, Fraction)) for x in a):
        return tuple(map(Fraction, a)) == tuple(map(Fraction, b))
    return all(abs(float(x) - float(y)) <= 1e-9 for x, y in zip(a, b))


def _reprs(tree) -> dict:
    """Each record's repr, which shows the types of its numbers as well as their values. An exact value of a game
    whose states repeat through chance can pass the 4,300 digits Python shows of an int by default (a Fraction of a
    three-player game's bounds after 624 dives): the limit is lifted while they are shown."""
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        return {s: repr(r) for s, r in tree.items()}
    finally:
        sys.set_int_max_str_digits(limit)


def check_case(reached, combo, dives, seed, truth=None):
    """Every promise of the property for one case (``truth``: the oracle's values, if the game is small enough)."""
    game, root = reached.game, reached.state
    moves = game.possible_moves(root)
    with loop(combo["loop"] == "compiled"):
        tree, found, after, peak, _ = run(game, root, combo, dives, seed)
    assert peak <= memory_allowed(game, combo, dives), f"{peak:,} bytes for {dives} dives"
    if combo["loop"] == "compiled":  # the Python loop from the same seed: the same tree, draw for draw
        with loop(False):
            twin, twin_found, twin_after, _, _ = run(game, root, combo, dives, seed, measured=False)
        assert dict(tree) == dict(twin)
        assert _reprs(tree) == _reprs(twin)
        assert after == twin_after
        if found is not None:
            assert (found.move, found.iterations, dict(found.proven)) == (
                twin_found.move, twin_found.iterations, dict(twin_found.proven))
    if found is not None:
        assert found.move in moves
    views = {"greedy_move": greedy_move(game, tree, root)}
    policy = greedy_policy(tree)(game, root)
    if len(policy) == 1:  # (where the tree knows no child the policy is uniformly random)
        views["greedy_policy"] = policy[0][0]
    line = [step for step, _ in principal_variation(game, tree, root)]
    state = root
    for step in line:  # each step a legal move or outcome of the state before it
        player = game.to_move(state)
        assert player is not None
        legal = [o for o, _ in game.chance_outcomes(state)] if player is CHANCE else game.possible_moves(state)
        assert step in legal, (step, state)
        state = game.play(state, step)
    if line:
        views["principal_variation"] = line[0]
    for name, move in views.items():
        assert move in moves, (name, move)
    if game.num_players > 2:
        return
    if truth is not None:  # proofs are true values
        for state, rec in tree.items():
            pv = rec.get("proven")
            if pv is not None:
                assert _same_value(pv, truth[state], game.may_repeat()), (state, pv, truth[state])
        if found is not None:
            for state, pv in found.proven.items():
                assert _same_value(pv, truth[state], game.may_repeat()), (state, pv, truth[state])
    proofs = [_proof(game, tree, found, game.play(root, m)) for m in moves]
    if any(pv is not None for pv in proofs):  # proofs honoured: by the move played and by every view
        low, high = payoff_range(game)
        allowed = {moves[i] for i in proof_choices(proofs, game.to_move(root), low, high)}
        options = {k: v for k, v in keywords(combo, dives).items() if k != "max_nodes"}
        solving = search_options(game, **options).solver  # mcts_move follows the proofs with the solver on
        if found is not None and solving:
            assert found.move in allowed, ("mcts_move", found.move, allowed, proofs)
        for name, move in views.items():
            assert move in allowed, (name, move, allowed, proofs)
        flags = cli_flags(combo, dives)
        # the command line's best move is mcts_move's (the same search, the same seed): it follows the proofs when
        # the solver is on; --state takes JSON's arrays and objects, not a bare number: a TableGame's root is named
        # only at its start
        if solving and flags is not None and (root == game.start() or not isinstance(root, int)):
            best = cli_best_move(game, root, flags, seed)
            assert best in {game.describe_move(root, m) for m in allowed}, ("fnmcts search", best, allowed, proofs)


def cli_flags(combo: dict, dives: int):
    """The flags of ``fnmcts search`` for ``combo``, or None when the command line cannot say it (a reused tree, a
    root rule, a bound on the tree, a rule given as a function, the solver forced on with the tutorial's rule)."""
    if (combo["call"] != "search" or combo["tree"] != "new" or combo["root"] != "none" or combo["max_nodes"] != "none"
            or combo["rule"] == "function" or combo["rule"] == "tutorial" and combo["solver"] == "on"):
        return None
    flags = ["--dives", str(dives)]
    if combo["rule"] == "tutorial":
        flags += ["--rule", "tutorial"]
    if combo["solver"] == "off":
        flags.append("--no-solver")
    if combo["proofs"] != "default":
        flags += ["--proofs", "0" if combo["proofs"] == "off" else combo["proofs"]]
    if combo["bounds"] == "on":
        flags.append("--bounds")
    if combo["amaf"] != "off":
        flags += ["--rave", "20"] + (["--rave-ref", "10"] if combo["amaf"] == "grave" else [])
    if combo["backup"] != "default":
        flags += ["--backup", combo["backup"]]
    return flags


def cli_best_move(game, root, flags, seed) -> str:
    """The best move ``fnmcts search`` names (its JSON), for ``game`` written as a user's module would hold it."""
    import importlib
    import io
    import json
    import tempfile
    from pathlib import Path

    from fnmcts.cli import main
    from fnmcts.protocol import state_to_json

    with tempfile.TemporaryDirectory() as folder:
        name = f"property_game_{seed}"
        Path(folder, f"{name}.py").write_text(
            f"from fractions import Fraction\nfrom fnmcts.testing import SeededGame, TableGame\nGAME = {game!r}\n")
        sys.path.insert(0, folder)
        out = io.StringIO()
        try:
            importlib.invalidate_caches()
            with contextlib.redirect_stdout(out):
                where = [] if root == game.start() else ["--state", json.dumps(state_to_json(game, root))]
                code = main(["search", f"{name}:GAME", *where, "--seed", str(seed), "--force", "--json", *flags])
        finally:
            sys.path.remove(folder)
            sys.modules.pop(name, None)
    assert code == 0, out.getvalue()
    return json.loads(out.getvalue())["best_move"]


def small_truth(game):
    """The oracle's values of ``game``'s states, or None when the game is too large for it (or of three players)."""
    if game.num_players > 2:
        return None
    try:
        return oracle(game, ORACLE_STATES)
    except TooLarge:
        return None


def property_run(examples: int, met: Counter | None = None, combo: dict | None = None):
    """Run the property on ``examples`` cases (of ``combo`` alone if given); count the pairs of option values met in
    ``met``."""

    @settings(max_examples=examples, deadline=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much])
    @given(case=cases(combo=combo))
    def each(case):
        reached, combo, dives, seed = case
        if met is not None:
            met.update(frozenset(pair) for pair in itertools.combinations(sorted(combo.items()), 2))
        check_case(reached, combo, dives, seed, small_truth(reached.game))

    each()


def all_pairs() -> set:
    pairs = set()
    for (a, av), (b, bv) in itertools.combinations(sorted(OPTIONS.items()), 2):
        for x, y in itertools.product(av, bv):
            pair = frozenset({(a, x), (b, y)})
            if pair not in IMPOSSIBLE:
                pairs.add(pair)
    return pairs


def test_the_work_counted_stops_a_search_past_its_budget_and_a_chance_step_past_its_own():
    """The two bounds of ``calls_at_most`` can fail: the whole search's, and one expectimax step's at a chance state,
    which is counted apart (a search that spends its calls there is not stopped by the rest's budget)."""
    from fnmcts.games import Pig

    game = Pig(goal=20)
    step = chance_step_calls(game)

    def searched():  # the expectimax backup named: this test is about the counting, not the game's defaults
        return search(game, game.start(), 200, random.Random(1), backup="expectimax")

    with loop(False), pytest.raises(Runaway, match="more than 1,000 Python calls"):
        with calls_at_most(1_000, step):
            searched()
    with loop(False), pytest.raises(Runaway, match="an expectimax step at a chance state made more than 5 Python calls"):
        with calls_at_most(10**9, 5):
            searched()
    with loop(False), calls_at_most(10**9, step) as counted:
        searched()
    rest = counted[0] - counted[1]  # the calls outside the chance steps: they alone are held to the budget
    assert counted[1] > 1_000
    with loop(False), calls_at_most(rest + 100, step):
        searched()
    with loop(False), pytest.raises(Runaway, match="Python calls"):
        with calls_at_most(rest - 100, step):
            searched()


def test_the_work_counted_is_the_same_whatever_ran_before():
    """The calls counted in a search's expectimax steps at chance states do not depend on the searches before it (the
    proofs kept between calls for an equal game): the generated case whose chance step passed its budget on a first
    run and not on a third, now counted three times alike, within its budget. (The rest of the count may differ by the
    options checked and the game probed once for equal games, which ``CALLS_BASE`` holds.)"""
    from fnmcts.testing import SeededGame

    game = SeededGame(seed=4207, num_players=2, depth=35, width=1315, branching=2, chance=57, stops=4, outcomes=3,
                      payoffs=((2, -2), (0, 0), (2, -2), (2, -2), (2, -2), (2, -2)), span=(-2, 2), skip=2)
    combo = dict(dict.fromkeys(OPTIONS, "off"), proofs="2", bounds="on", backup="expectimax", rule="tutorial",
                 root="gumbel", solver="default")
    counts = []
    for _ in range(3):
        with loop(False), calls_at_most(calls_allowed(game, combo, 7), chance_step_calls(game, combo)) as calls:
            search(SeededGame(**{f: getattr(game, f) for f in game.__dataclass_fields__}), (10, 859), 7,
                   random.Random(435), **keywords(combo, 7))
        counts.append(calls[1])
    assert counts[0] == counts[1] == counts[2] > 0


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")  # a generator stopped mid-way says so
def test_a_search_stopped_anywhere_leaves_the_defaults_of_later_searches_alone(monkeypatch):
    """Stopped after each number of calls up to 400 (its options being checked, the game's kind probed under
    ``except Exception``), a search leaves ``search_options`` giving the game's own defaults: the options kept for
    the next call are the ones the defaults asked in that call give (once three budgets kept the plain defaults,
    the mean backup, for Pig for the rest of the process)."""
    from fnmcts.games import Pig
    from fnmcts.mcts import _options

    game = Pig(goal=20)
    expected = search_options(game)
    assert expected.backup == "expectimax"
    wrong = []
    for budget in range(1, 400):
        _options._checked.cache_clear()  # each budget from nothing kept
        with contextlib.suppress(Exception):  # a Runaway, or the GameError it became in a hook
            with calls_at_most(budget):
                search(Pig(goal=20), game.start(), 5, random.Random(1))
        if search_options(game) != expected:
            wrong.append(budget)
    assert wrong == []


@pytest.mark.slow
def test_the_property_on_a_sample():
    property_run(REGULAR_CASES)


def test_the_covering_design_meets_every_pair_often_enough_in_2000_cases_and_runs_as_given():
    rows = covering_rows()
    each = -(-SLOW_CASES // len(rows))
    assert each >= PAIRS_MET
    assert all(any(set(p) <= set(row.items()) for row in rows) for p in all_pairs())
    assert all(not any(frozenset(p) in IMPOSSIBLE for p in itertools.combinations(row.items(), 2)) for row in rows)
    two, three = SimpleNamespace(num_players=2), SimpleNamespace(num_players=3)  # all that ``adapted`` reads
    for row in rows:
        assert adapted(row, two) == row
        if not two_players_at_most(row):
            assert adapted(row, three) == row


@pytest.mark.slow
def test_the_property_on_2000_games_every_pair_of_options_met_20_times():
    """The rows of a covering design (``covering_rows``) in turn, each on its share of the 2,000 cases: every pair of
    option values meets in ``PAIRS_MET`` cases at least by construction (counted all the same, from the cases run)."""
    met = Counter()
    rows = covering_rows()
    for row in rows:
        property_run(-(-SLOW_CASES // len(rows)), met, row)
    short = sorted((met[p], sorted(p)) for p in all_pairs() if met[p] < PAIRS_MET)
    assert not short, f"pairs of option values met fewer than {PAIRS_MET} times: {short[:10]}"


# -- the oracle is brute force done right -------------------------------------------------------------

@given(game=random_games(max_states=400))
@settings(max_examples=60, deadline=None)
def test_the_oracle_agrees_with_the_exact_solver(game):
    try:
        truth = oracle(game, ORACLE_STATES)
    except TooLarge:
        return
    except ValueError:  # value iteration here is for one or two players
        assert game.may_repeat() and game.num_players > 2
        return
    solution = solve(game)
    for state, v in truth.items():
        assert _same_value(v, value(solution, state), game.may_repeat()), state


@given(game=table_games(players=(1, 2), repeats=True, chance=True))
@settings(max_examples=30, deadline=None)
def test_the_oracle_iterates_games_that_repeat_to_the_exact_solver_s_values(game):
    solution = solve(game)
    for state, v in oracle(game).items():
        assert all(abs(float(a) - float(b)) <= 1e-9 for a, b in zip(v, value(solution, state)))
