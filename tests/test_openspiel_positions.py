"""OpenSpiel's games as positions: merged states have the same moves, payoffs and futures.

The law: take random histories of a game and transpose them (swap two actions of
one player, replay if still legal), so that many different histories reach one
position; group the adapted states by equality; every two states of a group must
have the same player to move, the same moves, the same chance outcomes, the same
payoff at the end, and, played on with the same actions, stay equal to each other
all the way to the end. A fast subset runs with the test suite; every game of
``POSITIONS`` runs under ``-m slow``. For games that keep their histories, the same
law applied to OpenSpiel's picture of the state finds the counterexample that keeps
them out.
"""

from __future__ import annotations

import random
from collections import defaultdict

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: pip install 'fnmcts[openspiel]'")

from fnmcts import CHANCE  # noqa: E402
from fnmcts.exact import solve  # noqa: E402
from fnmcts.games import TicTacToe  # noqa: E402
from fnmcts.matches import playout  # noqa: E402
from fnmcts.mcts import mcts_move  # noqa: E402
from fnmcts.openspiel import POSITIONS, OpenSpielGame, from_openspiel, openspiel_catalogue  # noqa: E402

ACCEPTED = sorted(name for name, reason in openspiel_catalogue().items() if reason is None and name != "efg_game")

FAST = ("tic_tac_toe", "connect_four", "nim(pile_sizes=1;2;3;4)", "pig(winscore=6,horizon=7)", "catch(rows=5)",
        "breakthrough(rows=5,columns=4)", "cliff_walking(horizon=8)", "hex(board_size=3)")
"""Run with the test suite: small boards, and pig with a horizon short enough to end games."""


def _random_history(game, rng, length):
    state, history = game.start(), []
    while len(history) < length and (who := game.to_move(state)) is not None:
        move = game.sample_outcome(state, rng) if who is CHANCE else rng.choice(game.possible_moves(state))
        history.append(move)
        state = game.play(state, move)
    return history


def _transposed(game, history, rng, tries):
    """Histories made from ``history`` by swapping two actions of the same player (those still legal)."""
    native = game.native.new_initial_state()
    movers = []
    for action in history:
        movers.append(native.current_player())
        native.apply_action(action)
    out = [history]
    for _ in range(tries):
        if len(history) < 2:
            break
        i, j = sorted(rng.sample(range(len(history)), 2))
        if movers[i] != movers[j] or movers[i] < 0:
            continue
        swapped = list(history)
        swapped[i], swapped[j] = swapped[j], swapped[i]
        out.append(swapped)
        out.append(swapped[: rng.randint(1, len(swapped))])
    return out


def _replayed(game, history):
    try:
        return game.state_from_json(history)
    except ValueError:  # no longer legal once transposed
        return None


def _same_now(game, a, b) -> str | None:
    if game.to_move(a) != game.to_move(b):
        return "player to move"
    who = game.to_move(a)
    if who is None:
        return None if game.payoff(a) == game.payoff(b) else "payoff"
    if who is CHANCE:
        return None if game.chance_outcomes(a) == game.chance_outcomes(b) else "chance outcomes"
    return None if game.possible_moves(a) == game.possible_moves(b) else "moves"


def merge_counterexample(game, key, seed=1, walks=40, length=40, depth=300):
    """``(why, history, other history)`` where two histories with equal ``key`` differ now or later, or None.

    ``key(state)`` is what merges states (the adapted state itself, or a candidate such
    as OpenSpiel's picture); returns also how many groups held more than one history.
    """
    rng = random.Random(seed)
    groups = defaultdict(dict)
    for _ in range(walks):
        history = _random_history(game, rng, rng.randint(2, length))
        for candidate in _transposed(game, history, rng, tries=8):
            state = _replayed(game, candidate)
            if state is not None:
                groups[key(state)].setdefault(tuple(candidate), state)
    merged = [g for g in groups.values() if len(g) > 1]
    for group in merged:
        (first, a), *rest = group.items()
        for other, b in rest[:3]:
            for r in range(2):
                x, y, play_rng = a, b, random.Random(r)
                for _ in range(depth):
                    why = _same_now(game, x, y)
                    if why:
                        return (why, first, other), len(merged)
                    if key(x) != key(y):
                        return ("merged no more after the same actions", first, other), len(merged)
                    who = game.to_move(x)
                    if who is None:
                        break
                    move = game.sample_outcome(x, play_rng) if who is CHANCE else play_rng.choice(
                        game.possible_moves(x))
                    x, y = game.play(x, move), game.play(y, move)
    return None, len(merged)


def _check_positions(spec):
    game = from_openspiel(spec)
    assert game.states == "positions"
    found, merged = merge_counterexample(game, key=lambda state: state)
    assert found is None, f"{spec}: {found}"
    return merged


@pytest.mark.parametrize("spec", FAST)
def test_merged_states_have_the_same_moves_payoffs_and_futures(spec):
    assert _check_positions(spec) > 0, "no transposition met: the law checked nothing"


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_every_game_of_positions_merges_soundly_with_its_defaults(name):
    _check_positions(name)


KEPT_AS_HISTORIES = [("maedn", 60), ("stones_and_gems", 5), ("morpion_solitaire", 10), ("cursor_go", 20),
                     pytest.param("yacht", 40, marks=pytest.mark.slow)]
"""Games whose picture (with the player to move) does not decide their future, and the walks that show it."""


@pytest.mark.parametrize("name, walks", KEPT_AS_HISTORIES)
def test_games_kept_as_histories_would_merge_unsoundly_on_their_picture(name, walks):
    game = from_openspiel(name)
    assert game.states == "histories" and "states='histories'" in repr(game)
    found, _ = merge_counterexample(game, key=lambda state: (game.to_move(state), game.render(state)), walks=walks)
    assert found is not None, f"{name}: its picture merged soundly in this sample"


def test_a_game_whose_clones_share_memory_plays_on_after_its_states_are_gone():
    """morpion_solitaire's OpenSpiel clone points into its source: a playout that drops each state crashed."""
    game, rng = from_openspiel("morpion_solitaire"), random.Random(3)
    for _ in range(15):
        state = game.start()
        while game.to_move(state) is not None:
            state = game.play(state, rng.choice(game.possible_moves(state)))  # the parent is dropped here
        assert game.payoff(state) == game.payoff(game.state_from_json(list(state.history)))


@pytest.mark.slow
def test_every_accepted_game_is_positions_or_says_it_keeps_histories():
    for name in ACCEPTED:
        game = from_openspiel(name)
        assert game.states == ("positions" if name in POSITIONS else "histories")
        assert ("states='histories'" in repr(game)) == (game.states == "histories")
    assert set(POSITIONS) <= set(ACCEPTED)


def test_states_are_chosen_or_refused_with_a_reason():
    assert from_openspiel("tic_tac_toe", states="histories").states == "histories"
    assert from_openspiel("tic_tac_toe", states="histories") != from_openspiel("tic_tac_toe")
    with pytest.raises(ValueError, match="chess keeps its history as its state"):
        from_openspiel("chess", states="positions")
    with pytest.raises(ValueError, match="states is 'positions' or 'histories'"):
        OpenSpielGame("nim", states="boards")


def test_transpositions_are_one_state_and_keep_their_own_history():
    game = from_openspiel("tic_tac_toe")
    a, b = game.state_from_json([0, 4, 8]), game.state_from_json([8, 4, 0])
    assert a == b and hash(a) == hash(b) and a.history != b.history
    assert game.state_to_json(b) == [8, 4, 0] and game.render(a) == game.render(b)
    histories = from_openspiel("tic_tac_toe", states="histories")
    assert histories.state_from_json([0, 4, 8]) != histories.state_from_json([8, 4, 0])


def test_tic_tac_toe_solves_its_5478_positions_as_the_builtin_game_does():
    game = from_openspiel("tic_tac_toe")
    solution, builtin = solve(game), solve(TicTacToe())
    assert len(solution) == len(builtin) == 5_478
    boards = {_board(game, s): v for s, v in solution.items()}
    assert boards == dict(builtin)


def _board(game, state):
    """The built-in TicTacToe's board of an OpenSpiel tic_tac_toe state: 1 for x, 2 for o."""
    picture = game.render(state).replace("\n", "")
    return tuple({".": 0, "x": 1, "o": 2}[c] for c in picture)


@settings(max_examples=10)
@given(seed=st.integers(0, 2**32), dives=st.integers(1, 1500), opening=st.lists(st.integers(0, 8), max_size=3,
                                                                                unique=True),
       proofs=st.sampled_from((0, 4)))
@pytest.mark.slow
def test_mcts_through_the_adapter_is_the_builtin_search_draw_for_draw(seed, dives, opening, proofs):
    """Transpositions merge as for the built-in game: the same seed gives the same tree, record for record.

    The proofs are given to both: the adapter's game offers its tables and takes shallow proofs by default
    (worked out on the tables), the built-in game offers none; with the same proofs the same tree."""
    game, builtin = from_openspiel("tic_tac_toe"), TicTacToe()
    state, board = game.start(), builtin.start()
    for cell in opening:
        if game.to_move(state) is None:
            break
        state, board = game.play(state, cell), builtin.play(board, cell)
    if game.to_move(state) is None:
        return
    ours = mcts_move(game, state, dives, random.Random(seed), proofs=proofs)
    theirs = mcts_move(builtin, board, dives, random.Random(seed), proofs=proofs)
    assert ours.move == theirs.move and ours.iterations == theirs.iterations
    assert {_board(game, s): r for s, r in ours.tree.items()} == dict(theirs.tree)


def _along_the_way(game, rng):
    """A state 0 to 6 random plies from the start (chance drawn by its probabilities): from somewhere along the way."""
    state = game.start()
    for _ in range(rng.randint(0, 6)):
        who = game.to_move(state)
        if who is None:
            break
        state = game.play(state, game.sample_outcome(state, rng) if who is CHANCE else rng.choice(
            game.possible_moves(state)))
    return state


@settings(max_examples=30)
@given(spec=st.sampled_from(FAST + ("2048", "backgammon", "chess")), seed=st.integers(0, 2**32))
def test_random_payoff_is_a_random_playout_draw_for_draw(spec, seed):
    game = from_openspiel(spec)
    state = _along_the_way(game, random.Random(seed))
    a, b = random.Random(seed), random.Random(seed)
    assert game.random_payoff(state, a) == game.payoff(playout(game, state, b))
    assert a.random() == b.random()  # the same draws, no more and no fewer


@settings(max_examples=25, deadline=None)
@given(spec=st.sampled_from(("tic_tac_toe", "connect_four", "nim(pile_sizes=1;2;3;4)", "pig(winscore=6,horizon=7)",
                             "catch(rows=5)", "hex(board_size=3)", "breakthrough(rows=5,columns=4)")),
       seed=st.integers(0, 2**32))
def test_decisive_payoff_is_a_decisive_playout_draw_for_draw(spec, seed):
    from fnmcts.mcts.enhancements import decisive_agent

    game = from_openspiel(spec)
    state = _along_the_way(game, random.Random(seed))
    a, b = random.Random(seed), random.Random(seed)
    assert game.decisive_payoff(state, a) == game.payoff(playout(game, state, b, decisive_agent))
    assert a.random() == b.random()  # the same draws, no more and no fewer


@pytest.mark.parametrize("spec, seed", [("connect_four", 3), ("tic_tac_toe", 8), ("connect_four", 11)])
def test_a_search_with_decisive_playouts_takes_the_in_place_kernel_and_grows_the_same_tree(spec, seed, monkeypatch):
    """Without proofs: a game searched with proofs (tic_tac_toe's defaults) plays out on their view, generically."""
    from functools import partial

    from fnmcts.mcts.enhancements import decisive_agent

    from fnmcts.mcts import _engine, phases

    game = from_openspiel(spec)
    generic = mcts_move(game, game.start(), 12, random.Random(seed), rollout=partial(decisive_agent), proofs=0)
    for module in (phases, _engine):  # the adapter's kernel (the compiled rules' is held to it: below)
        monkeypatch.setattr(module, "rules_playout", lambda game, played: None)
    calls = []
    kernel = OpenSpielGame._decisive_play  # the loop of decisive_payoff and of decisive_played (RAVE's: connect_four's defaults)
    monkeypatch.setattr(OpenSpielGame, "_decisive_play",
                        lambda self, state, rng, played: calls.append(1) or kernel(self, state, rng, played))
    in_place = mcts_move(game, game.start(), 12, random.Random(seed), rollout=decisive_agent, proofs=0)
    assert calls and in_place.move == generic.move and in_place.iterations == generic.iterations
    assert dict(in_place.tree) == dict(generic.tree)


_PLAYED = {  # a kernel of a playout's moves: (its payoff kernel, the playout's agent, the games it is checked on)
    "random_played": ("random_payoff", None, FAST + ("2048", "backgammon")),
    "decisive_played": ("decisive_payoff", "decisive",
                        ("tic_tac_toe", "connect_four", "hex(board_size=3)", "breakthrough(rows=5,columns=4)")),
}


@pytest.mark.parametrize("kernel", sorted(_PLAYED))
@settings(max_examples=25, deadline=None)
@given(data=st.data(), seed=st.integers(0, 2**32))
def test_a_played_kernel_is_its_payoff_kernel_with_each_decision_named(kernel, data, seed):
    """The same draws as the payoff kernel and ``playout``; the moves are the playout's decisions, with their players."""
    from fnmcts.mcts.enhancements import decisive_agent

    payoff_kernel, agent, specs = _PLAYED[kernel]
    game = from_openspiel(data.draw(st.sampled_from(specs)))
    state = _along_the_way(game, random.Random(seed))
    a, b, c = random.Random(seed), random.Random(seed), random.Random(seed)
    payoff, moves = getattr(game, kernel)(state, a)
    assert payoff == getattr(game, payoff_kernel)(state, b)
    end, played = playout(game, state, c, decisive_agent if agent else None, moves=True)
    assert _decisions(game, state, played) == (list(moves), end)
    assert a.random() == b.random() == c.random()  # the same draws, no more and no fewer


def _decisions(game, state, played) -> tuple:
    """``([(player, move) of each decision of the moves played from state], the state they end at)``."""
    decisions, at = [], state
    for move in played:
        if game.to_move(at) is not CHANCE:
            decisions.append((game.to_move(at), move))
        at = game.play(at, move)
    return decisions, at


@pytest.mark.parametrize("spec, seed", [("connect_four", 3), ("hex(board_size=5)", 8), ("breakthrough(rows=5,columns=4)", 1)])
def test_a_rave_search_takes_the_random_played_kernel_and_grows_the_same_tree(spec, seed, monkeypatch):
    """RAVE and GRAVE count a playout's moves from the kernel: the same tree and AMAF counts as through the protocol
    (the Python loop's: on connect_four's compiled rules RAVE runs in machine code, tests/test_connect_four.py)."""
    from fnmcts.mcts import _kernel

    game = from_openspiel(spec)
    kernel = OpenSpielGame.random_played
    for options in ({"rave": 100}, {"rave": 100, "rave_ref": 5}):
        options["rollout"] = "random"  # (random playouts: the kind's are decisive where the compiled rules play them)
        calls = []
        monkeypatch.setattr(OpenSpielGame, "random_played",
                            lambda self, state, rng: calls.append(1) or kernel(self, state, rng))
        with _kernel.switched_off():
            in_place = mcts_move(game, game.start(), 60, random.Random(seed), **options)
            monkeypatch.delattr(OpenSpielGame, "random_played")
            generic = mcts_move(game, game.start(), 60, random.Random(seed), **options)
        monkeypatch.undo()
        assert calls and in_place.move == generic.move and in_place.iterations == generic.iterations
        assert dict(in_place.tree) == dict(generic.tree)


def test_a_rave_search_with_decisive_playouts_takes_the_decisive_played_kernel_and_grows_the_same_tree(monkeypatch):
    # (the Python loop's: on connect_four's compiled rules they run in machine code, tests/test_connect_four.py)
    from fnmcts.mcts import _kernel
    from fnmcts.mcts.enhancements import decisive_agent

    from fnmcts.mcts import _engine, phases

    game = from_openspiel("connect_four")
    for module in (phases, _engine):  # the adapter's kernel (the compiled rules' is held to it: below)
        monkeypatch.setattr(module, "rules_playout", lambda game, played: None)
    kernel, calls = OpenSpielGame.decisive_played, []
    monkeypatch.setattr(OpenSpielGame, "decisive_played",
                        lambda self, state, rng: calls.append(1) or kernel(self, state, rng))
    with _kernel.switched_off():
        in_place = mcts_move(game, game.start(), 30, random.Random(4), rollout=decisive_agent, rave=100)
        monkeypatch.undo()
        monkeypatch.delattr(OpenSpielGame, "decisive_played")
        generic = mcts_move(game, game.start(), 30, random.Random(4), rollout=decisive_agent, rave=100)
    monkeypatch.undo()
    assert calls and dict(in_place.tree) == dict(generic.tree) and in_place.move == generic.move


@pytest.mark.parametrize("spec", ["connect_four", "hex(board_size=5)", "hex(board_size=7)",
                                  "breakthrough(rows=6,columns=6)", "dots_and_boxes(num_rows=3,num_cols=3)"])
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 20))
@settings(max_examples=15, deadline=None)
def test_a_decisive_playout_on_the_compiled_rules_is_the_protocol_s(spec, seed, plies):
    """Where a game's compiled rules play decisive playouts, a search's playouts run there
    (``_rules_kernel.decisive_kernel``): the same payoff, decisions and generator state as the adapter's
    ``decisive_payoff`` and ``decisive_played`` on OpenSpiel's states."""
    pytest.importorskip("numba", reason="the compiled rules need Numba")
    from fnmcts.mcts import _rules_kernel

    game = from_openspiel(spec)
    if not _rules_kernel.compiled(game.compiled_rules()):  # (the loop compiled once: a search long enough to pay)
        mcts_move(game, game.start(), 512, random.Random(0))
    rng, state = random.Random(seed), game.start()
    for _ in range(plies):
        if game.to_move(state) is None:
            break
        state = game.play(state, rng.choice(game.possible_moves(state)))
    if game.to_move(state) is None:
        return
    for played, protocol in ((False, game.decisive_payoff), (True, game.decisive_played)):
        fast_rng, slow_rng = random.Random(seed), random.Random(seed)
        fast = _rules_kernel.decisive_kernel(game, played)(state, fast_rng)
        slow = protocol(state, slow_rng)
        assert fast == (slow if not played else (slow[0], tuple(slow[1])))
        assert fast_rng.getstate() == slow_rng.getstate()


def _reached(game, rng, plies):
    """A state ``plies`` random moves from the start (fewer where the game ends first), and whether it is no end."""
    state = game.start()
    for _ in range(plies):
        if game.to_move(state) is None:
            break
        state = game.play(state, rng.choice(game.possible_moves(state)))
    return state, game.to_move(state) is not None


@pytest.mark.parametrize("spec", ["connect_four", "hex(board_size=5)", "hex(board_size=7)",
                                  "breakthrough(rows=6,columns=6)", "dots_and_boxes(num_rows=3,num_cols=3)"])
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 30))
@settings(max_examples=15, deadline=None)
def test_a_root_expanded_from_the_compiled_rules_is_the_protocol_s(spec, seed, plies):
    """A fresh search's root on a game's compiled rules is expanded from them (``_kernel.rules_root``): the player to
    move, the moves and the children's states (made when first read, in any order) are those the protocol gives."""
    pytest.importorskip("numba", reason="the compiled rules need Numba")
    from pyrsistent import pmap

    from fnmcts.mcts import _kernel, _rules_kernel
    from fnmcts.mcts._search import _working
    from fnmcts.mcts._tree import Tree

    game = from_openspiel(spec)
    if not _rules_kernel.compiled(game.compiled_rules()):
        mcts_move(game, game.start(), 512, random.Random(0))
    rng = random.Random(seed)
    state, going = _reached(game, rng, plies)
    if not going:
        return
    fast, fast_stats, _ = _working(game, None, Tree(pmap()), False)
    slow, _, _ = _working(game, None, Tree(pmap()), False)
    root = fast.node(state)
    assert _kernel.rules_root(fast, fast_stats, root) and not _kernel.rules_root(fast, fast_stats, root)
    assert slow.expand(slow.node(state)) == fast.kind[root] == game.to_move(state)
    assert fast.moves[root] == slow.moves[root] == tuple(game.possible_moves(state))
    order = list(fast.kids[root])
    rng.shuffle(order)
    made = {i: fast.state(i) for i in order}
    assert [made[i] for i in fast.kids[root]] == [slow.state(i) for i in slow.children(root)]
    assert [made[i] for i in fast.kids[root]] == [game.play(state, m) for m in fast.moves[root]]


@pytest.mark.parametrize("spec", ["connect_four", "hex(board_size=5)", "hex(board_size=7)",
                                  "breakthrough(rows=6,columns=6)", "dots_and_boxes(num_rows=3,num_cols=3)"])
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 30), dives=st.integers(16, 400))
@settings(max_examples=10, deadline=None)
def test_the_ends_and_expansions_the_compiled_loop_writes_back_are_the_game_s(spec, seed, plies, dives):
    """The payoff the compiled rules' loop keeps for each end it met (``CompiledGraph.paid``, read by the solver
    without making the end's state) is the game's payoff at that end; each node it expanded has, for each move, the
    child the game's ``play`` leads to, the same whether read alone (``child``) or with the others (``children``)."""
    pytest.importorskip("numba", reason="the compiled rules need Numba")
    from fnmcts.mcts import _engine, _rules_kernel
    from fnmcts.mcts.solver import Solver

    game = from_openspiel(spec)
    rules = game.compiled_rules()
    if not _rules_kernel.compiled(rules):
        mcts_move(game, game.start(), 512, random.Random(0))
    rng = random.Random(seed)
    state, going = _reached(game, rng, plies)
    if not going:
        return
    graph = _engine.CompiledGraph(game)
    root = graph.node(state)
    stats = _engine.Stats(graph)
    ran = _rules_kernel.run_rules(rules, graph, stats, root, (game.to_move(state) - 1) % 2, dives, rng, 1, 1.0,
                                  Solver(graph, stats))
    assert ran is not None and ran[0] >= 1
    for i, paid in graph.paid.items():
        assert paid == tuple(game.payoff(graph.state(i)))
    expanded = [i for i in range(len(graph)) if graph.kids[i] is not None]  # written back: each move's child is its play
    for i in rng.sample(expanded, min(len(expanded), 20)):
        j = rng.randrange(len(graph.moves[i]))
        assert graph.child(i, j) == graph.kids[i][j] == graph.children(i)[j]
        assert graph.state(graph.kids[i][j]) == game.play(graph.state(i), graph.moves[i][j])
