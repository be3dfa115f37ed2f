"""MCTS-Solver's choice among proven moves: the shortest win, the loss that resists longest.

A search that has proven its position lost still has to move. A strong player
makes the opponent work for the win: among moves proven lost it plays the one
whose forced line to the loss is longest (then the most visited), and among
proven wins the shortest. The exact answer is the depth of each position under
exact play with those two rules (the winner hurries, the loser holds on),
computed here by a plain minimax over the game, independent of the search.
"""

from __future__ import annotations

import math
import random
from functools import lru_cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fnmcts.cli import main
from fnmcts.exact import solve
from fnmcts.games import Nim, TicTacToe
from fnmcts.games.tictactoe import LINES
from fnmcts.matches import random_agent, tournament
from fnmcts.mcts import mcts_agent, mcts_move
from fnmcts.mcts._engine import Solver, Stats, dives
from fnmcts.mcts._graph import CompiledGraph, mover_into
from fnmcts.mcts._records import ucb1_selector
from fnmcts.rng import make_rng

from small_games import Connect, TableGame, table_games

TTT = TicTacToe()


def minimax_depths(game):
    """state -> (value to the player to move, plies): the exact value, and the length of play when the
    winner takes the shortest win and the loser the longest loss (a draw: the longest line)."""

    @lru_cache(maxsize=None)
    def at(state):
        player = game.to_move(state)
        if player is None:
            return None, 0
        best, lines = None, []
        for move in game.possible_moves(state):
            child = game.play(state, move)
            v = payoff_to(child, player)
            d = at(child)[1]
            if best is None or v > best:
                best, lines = v, [d]
            elif v == best:
                lines.append(d)
        return best, 1 + (min(lines) if best > 0 else max(lines))

    @lru_cache(maxsize=None)
    def payoff_to(state, player):
        mover = game.to_move(state)
        if mover is None:
            return game.payoff(state)[player]
        v = at(state)[0]
        return v if mover == player else -v  # two players, zero-sum

    return at, payoff_to


TTT_AT, TTT_PAYOFF = minimax_depths(TTT)
TTT_SOLUTION = solve(TTT)


def _threats(board, mark):
    """The empty cells that complete a line of ``mark``."""
    return {c for line in LINES for c in line if board[c] == 0 and sum(board[x] == mark for x in line) == 2}


def _positions(sign):
    """Every reachable tic-tac-toe position whose mover has value ``sign`` (1 won, -1 lost)."""
    out = []
    for state in TTT_SOLUTION:
        player = TTT.to_move(state)
        if player is not None and TTT_SOLUTION[state][player] * sign > 0:
            out.append(state)
    return sorted(out)


# -- the position, from the command line --------------------------------------------------


@pytest.mark.parametrize("extra", [[], ["--dives", "100000"]])
def test_the_lost_agent_blocks_the_threat_at_the_command_line(capsys, extra):
    # X (cells 5 and 8) threatens cell 2; O is lost either way, but only blocking makes X work for it
    code = main(["move", "tic-tac-toe", "--state", "000001021", "--ai", "mcts", "--seed", "1", *extra])
    out = capsys.readouterr().out
    assert code == 0
    assert out.strip() == "mcts: O at 2"


def test_the_lost_agent_blocks_in_every_lost_position_with_one_threat():
    positions = [
        s for s in _positions(-1)
        if TTT.to_move(s) == 1 and len(_threats(s, 1)) == 1 and not _threats(s, 2)
    ]
    assert len(positions) == 80  # every position where O is lost and one cell stops X at once
    agent = mcts_agent()
    skipped = [s for s in positions if agent(TTT, s, make_rng(1)) not in _threats(s, 1)]
    assert skipped == []


def test_in_every_lost_tic_tac_toe_position_the_agent_resists_longest():
    agent = mcts_agent()
    wrong = []
    for state in _positions(-1):
        move = agent(TTT, state, make_rng(1))
        longest = max(TTT_AT(TTT.play(state, m))[1] for m in TTT.possible_moves(state))
        if TTT_AT(TTT.play(state, move))[1] != longest:
            wrong.append(state)
    assert wrong == []


@pytest.mark.slow
def test_in_every_won_tic_tac_toe_position_the_agent_wins_fastest():
    agent = mcts_agent()
    wrong = []
    for state in _positions(1):
        player = TTT.to_move(state)
        move = agent(TTT, state, make_rng(1))
        wins = {m: TTT_AT(TTT.play(state, m))[1] for m in TTT.possible_moves(state)
                if TTT_PAYOFF(TTT.play(state, m), player) > 0}
        if move not in wins or wins[move] != min(wins.values()):
            wrong.append(state)
    assert wrong == []


def test_a_root_parallel_search_resists_as_long():
    state = (0, 0, 0, 0, 0, 1, 0, 2, 1)
    found = mcts_move(TTT, state, 20_000, make_rng(1), workers=2, chunk_size=5_000)
    assert found.move == 2


# -- the plies of a proof --------------------------------------------------------------------------


def _proven_search(game, n, seed):
    graph = CompiledGraph(game)
    root = graph.node(game.start())
    stats = Stats(graph)
    solver = Solver(graph, stats)
    dives(graph, stats, root, mover_into(game, game.start()), n, random.Random(seed), ucb1_selector(), solver=solver)
    return graph, solver


@given(table_games(players=2, chance=False), st.integers(0, 10**6), st.integers(1, 300))
def test_a_proofs_plies_are_a_line_no_shorter_than_exact_play(game, seed, n):
    # the winner's shortest line among proven moves is never shorter than the shortest of all;
    # the loser's, over all moves (all proven), is the exact longest: so plies >= the exact depth
    if game.to_move(0) is None:
        return
    at, _ = minimax_depths(game)
    graph, solver = _proven_search(game, n, seed)
    memo = {}
    for i in list(solver.proven):
        plies = solver.plies(i, memo)
        assert plies is not None  # an acyclic game without chance: every proof has a line
        assert plies >= at(graph.states[i])[1]
        if game.to_move(graph.states[i]) is None:
            assert plies == 0


def test_plies_of_nim_are_the_exact_lines():
    game = Nim(heap=7, max_take=3)  # misère: leave a heap of 1 mod 4
    graph = CompiledGraph(game)
    root = graph.node(game.start())
    stats = Stats(graph)
    solver = Solver(graph, stats)
    dives(graph, stats, root, 1, 1000, random.Random(1), ucb1_selector(), solver=solver, stop_when_proven=True)
    at, _ = minimax_depths(game)
    assert solver.plies(root) == at(game.start())[1] == 4  # take 2, then the longest defence
    for move in (1, 2, 3):
        child = game.play(game.start(), move)
        assert solver.plies(graph.node(child)) in (None, at(child)[1])  # unknown where the search stopped first


# -- against random play -----------------------------------------------------------------------------


def _loss_count(game, agent, side, n, seed):
    record = tournament(game, agent, random_agent, n, seed) if side == 0 else tournament(
        game, random_agent, agent, n, seed)
    return record.wins[2 - side]


@settings(max_examples=30)
@given(table_games(players=2, chance=False), st.integers(0, 1), st.integers(1, 6), st.integers(2, 40),
       st.integers(0, 10**6))
@pytest.mark.slow
def test_more_iterations_never_lose_more_often_against_random_play(game, side, n, factor, seed):
    # From a position that is not lost, a search that proves more keeps the value it proved; with
    # fewer dives the agent guesses. Losses out of 100 games each, seeded; the difference is allowed
    # 4 standard errors of two independent proportions (the largest, at p = 1/2: 4 * sqrt(100 / 2)).
    if game.to_move(0) is None:
        return
    at, payoff_to = minimax_depths(game)
    if payoff_to(0, side) < 0:
        return  # lost: see test_a_lost_agent_holds_on_longest_even_against_random_play
    games = 100
    few = _loss_count(game, mcts_agent(n), side, games, seed)
    more = _loss_count(game, mcts_agent(n * factor), side, games, seed)
    assert more - few <= 4 * math.sqrt(games / 2)


def test_a_lost_agent_holds_on_longest_even_against_random_play():
    # The choice is for a strong opponent: move 0 loses at once if the opponent takes its one winning
    # reply of two (random play finds it half the time), move 1 loses by force two steps later. The
    # agent that has proven both lost plays the longer line, so random play beats it every time, while
    # an agent of one dive, which has proven nothing, plays by its statistics and loses about half its
    # games. More dives lose more often here: the price of playing for the strong opponent.
    game = TableGame((
        ("move", 0, (1, 2)),
        ("move", 1, (4, 5)),
        ("move", 1, (3,)),
        ("move", 0, (4,)),
        ("end", (-1, 1)),
        ("end", (1, -1)),
    ))
    assert mcts_move(game, 0, 100, make_rng(1)).move == 1
    assert _loss_count(game, mcts_agent(100), 0, 100, 1) == 100
    assert _loss_count(game, mcts_agent(1), 0, 400, 1) < 300


# Random play (first) against the longest-resistance policy on Connect-3 (4x4, gravity: a first-player
# win): random wins with probability 0.0577 (exactly 0.057707609953703706, from the exact solution;
# test_connect3_rate_of_the_longest_resistance_policy recomputes it). The best reply to random play
# itself loses 0.0158 of the games.
CONNECT3_LONGEST_RESISTANCE = 0.057707609953703706


def _binomial_upper(n, p, alpha):
    """The least k with P(Binomial(n, p) > k) <= alpha."""
    total, k = 0.0, 0
    while True:
        total += math.comb(n, k) * p**k * (1 - p) ** (n - k)
        if 1 - total <= alpha:
            return k
        k += 1


@pytest.mark.slow
def test_random_play_rarely_beats_the_agent_on_connect3():
    # Before, a random first player beat the default agent in about a third of the games (it gave up
    # once it had proven its position lost); now no more often than exact longest resistance would
    # allow (one-sided binomial test at 0.001).
    games = 60
    wins = tournament(Connect(), random_agent, mcts_agent(300), games, 1).wins[1]
    assert wins <= _binomial_upper(games, CONNECT3_LONGEST_RESISTANCE, 1e-3)


@pytest.mark.slow
def test_connect3_rate_of_the_longest_resistance_policy():
    game = Connect()
    at, payoff_to = minimax_depths(game)

    def choice(state):
        player = game.to_move(state)
        moves = game.possible_moves(state)
        best = max(payoff_to(game.play(state, m), player) for m in moves)
        good = [m for m in moves if payoff_to(game.play(state, m), player) == best]
        length = (min if best > 0 else max)(at(game.play(state, m))[1] for m in good)
        return next(m for m in good if at(game.play(state, m))[1] == length)

    @lru_cache(maxsize=None)
    def random_wins(state):
        player = game.to_move(state)
        if player is None:
            return float(game.payoff(state)[0] > 0)
        if player == 1:
            return random_wins(game.play(state, choice(state)))
        moves = game.possible_moves(state)
        return sum(random_wins(game.play(state, m)) for m in moves) / len(moves)

    assert random_wins(game.start()) == pytest.approx(CONNECT3_LONGEST_RESISTANCE, abs=1e-12)


@pytest.mark.slow
@pytest.mark.parametrize("iterations", [1000, 10_000])
def test_random_play_rarely_beats_the_agent_on_connect3_at_length(iterations):
    games = 200
    wins = tournament(Connect(), random_agent, mcts_agent(iterations), games, 1).wins[1]
    assert wins <= _binomial_upper(games, CONNECT3_LONGEST_RESISTANCE, 1e-3)


# -- the final move is bounded by the search's own tree (issue 32) ----------------------------------


def _opening(game, plies, seed):
    rng = random.Random(seed)
    state = game.start()
    for _ in range(plies):
        moves = game.possible_moves(state)
        state = game.play(state, moves[rng.randrange(len(moves))])
    return state


@pytest.mark.parametrize("seed", range(20))
def test_a_move_search_makes_no_more_nodes_than_its_dives_paid_for(seed):
    # each dive makes at most the children of one node; choosing among proven wins (the shortest line)
    # once walked the game beyond the tree and made some 90 times as many (10 GB on connect_four)
    game = Connect(width=5, height=4, k=3)
    state = _opening(game, 4, seed)
    graph = CompiledGraph(game)
    found = mcts_move(game, state, 300, random.Random(seed), graph=graph)
    assert len(graph) <= 1 + (found.iterations + 2) * game.width


@given(game=table_games(players=2, chance=False), seed=st.integers(0, 10**6), n=st.integers(1, 200))
def test_choosing_the_final_move_makes_and_expands_nothing_below_the_roots_children(game, seed, n):
    from fnmcts.mcts._search import _final_move

    if game.to_move(0) is None:
        return
    graph, solver = _proven_search(game, n, seed)
    for child in graph.children(0):  # the root's children are the move's to look at (mcts_move makes them first)
        solver.lookup(child)
    made, expanded = len(graph), sum(k != -3 for k in graph.kind)
    _final_move(graph, solver.stats, solver, 0, game.to_move(0), "visits")
    for i in list(solver.proven):
        solver.plies(i, {})
    assert (len(graph), sum(k != -3 for k in graph.kind)) == (made, expanded)


# -- shallow proofs follow the same rule (issue 32) -------------------------------------------------


@given(table_games(players=2, chance=False), st.integers(1, 6))
def test_a_state_the_proofs_end_counts_the_plies_its_forced_win_takes(game, depth):
    from fnmcts.mcts.enhancements import with_proofs

    at, _ = minimax_depths(game)
    view = with_proofs(game, depth, None)
    for state in range(len(game.table)):
        if view.proof(state) is not None:
            assert view.end_plies(state) == at(state)[1] <= depth
        elif game.to_move(state) is None:
            assert view.end_plies(state) == 0


def _openspiel_tic_tac_toe():
    pytest.importorskip("pyspiel")
    from fnmcts.openspiel import from_openspiel

    return from_openspiel("tic_tac_toe")


@pytest.mark.parametrize("make, options", [(lambda: TTT, {"proofs": 4}), (_openspiel_tic_tac_toe, {}),
                                           (_openspiel_tic_tac_toe, {"proofs": 2})],
                         ids=["no tables, proofs=4", "tables, the defaults (proofs=4)", "tables, proofs=2"])
@pytest.mark.slow
def test_with_shallow_proofs_a_lost_agent_still_resists_longest(make, options):
    # the proofs end a state with its value; the line behind it counts too, so the agent that has
    # proven every move lost no longer plays the first in move order (which gave up at once in 85 of
    # the 116 lost positions with a longer defence)
    game = make()
    at, payoff_to = minimax_depths(game)
    solution = solve(game)
    agent = mcts_agent(**options)
    lost = [s for s in solution if game.to_move(s) is not None and solution[s][game.to_move(s)] < 0]
    assert len(lost) > 100
    wrong = []
    for state in lost:
        move = agent(game, state, make_rng(1))
        longest = max(at(game.play(state, m))[1] for m in game.possible_moves(state))
        if at(game.play(state, move))[1] != longest:
            wrong.append(state)
    assert wrong == []
