"""Agents with memory: the protocol, its threading through play_game and tournament, and MCTS tree reuse."""

import pickle

import pytest
from hypothesis import example, given, settings, strategies as st

from fnmcts.agents import make_agent
from fnmcts.games import Nim, ShutTheBox, TicTacToe
from fnmcts.mcts import mcts_agent, mcts_move, search, subtree, visits
from fnmcts.matches import MemoryAgent, agent_move, play_game, random_agent, tournament
from fnmcts.rng import make_rng


def _diary(game, state, rng, memory):
    """Remembers every state it was asked about; plays at random."""
    return random_agent(game, state, rng), memory + (state,)


def test_play_game_threads_each_agents_memory_to_its_next_move():
    seen = []

    def spy(game, state, rng, memory):
        seen.append((game.to_move(state), memory))
        return _diary(game, state, rng, memory)

    game = Nim(heap=15, max_take=3)
    record = play_game(game, MemoryAgent(spy, ()), MemoryAgent(spy, ()), seed=3)
    assert len(seen) == len(record.moves)
    for player in (0, 1):
        memories = [m for p, m in seen if p == player]
        for before, after in zip(memories, memories[1:]):
            assert after[:-1] == before and len(after) == len(before) + 1  # its own memory, one state more
    # the same game as the plain agents that draw the same moves
    assert record.moves == play_game(game, random_agent, random_agent, seed=3).moves


def test_a_memory_agent_is_a_plain_agent_elsewhere_and_pickles():
    agent = MemoryAgent(_diary, ())
    assert agent(Nim(), Nim().start(), make_rng(1)) in Nim().possible_moves(Nim().start())
    assert pickle.loads(pickle.dumps(agent)) == agent
    copy = pickle.loads(pickle.dumps(mcts_agent(50, reuse=True, c=1.0)))
    assert isinstance(copy, MemoryAgent) and copy.step.args == mcts_agent(50, reuse=True, c=1.0).step.args
    with pytest.raises(TypeError, match=r"returns \(move, memory\)"):
        agent_move(MemoryAgent(lambda g, s, r, m: 1), Nim(), Nim().start(), make_rng(1))


@pytest.mark.slow
@settings(max_examples=15, deadline=None)
@given(st.integers(1, 300), st.integers(1, 300), st.integers(0, 1000), st.integers(1, 3))
@example(first=4, second=1, seed=0, take=1)  # a stored state the new root reaches only through an unstored one
def test_a_search_on_the_subtree_grows_what_it_grows_on_the_whole_tree(first, second, seed, take):
    game = Nim(heap=14, max_take=3)
    tree = search(game, game.start(), first, make_rng(seed))
    state = game.play(game.start(), take)
    kept = subtree(game, tree, state)
    assert set(kept) <= set(tree) and all(kept[s] == tree[s] for s in kept)
    assert search(game, state, second, make_rng(seed + 1), tree=kept) == subtree(
        game, search(game, state, second, make_rng(seed + 1), tree=tree), state
    )


def test_a_subtree_keeps_a_transposition_behind_an_unstored_state_unless_the_walk_is_cut():
    game = Nim(heap=14, max_take=3)
    tree = search(game, game.start(), 4, make_rng(0))
    state = game.play(game.start(), 1)  # 13 left; 11 with the same player to move is two moves on
    behind = game.play(game.play(state, 1), 1)
    between = game.play(state, 1)
    assert behind in tree and between not in tree
    assert behind in subtree(game, tree, state)
    assert behind not in subtree(game, tree, state, walk=3)  # too many states to walk: through stored ones only
    with pytest.raises(ValueError, match="walk"):
        subtree(game, tree, state, walk=-1)


@pytest.mark.slow
@settings(max_examples=10, deadline=None)
@given(st.integers(1, 400), st.integers(0, 1000), st.integers(2, 12))
def test_the_subtree_through_chance_keeps_what_a_dive_can_reach(dives, seed, roll):
    game = ShutTheBox(levers=6)
    tree = search(game, game.start(), dives, make_rng(seed))
    state = game.play(game.start(), roll)
    kept = subtree(game, tree, state)
    grown = search(game, game.start(), 0, make_rng(seed), tree=tree)
    assert grown == tree
    for move in game.possible_moves(state):
        after = game.play(state, move)
        if after in tree:
            assert kept[after] == tree[after]
    assert subtree(game, tree, game.start()) == tree  # every stored state was reached from the start


def test_reuse_carries_the_tree_from_move_to_move():
    game = TicTacToe()
    agent = mcts_agent(200, reuse=True)
    move, memory = agent_move(agent, game, game.start(), make_rng(1))
    after = game.play(game.start(), move)
    assert memory.root == after and visits(memory[after]) > 0
    assert memory == subtree(game, mcts_move(game, game.start(), 200, make_rng(1)).tree, after)
    reply = game.play(after, 4 if move != 4 else 0)
    found = mcts_move(game, reply, 200, make_rng(2), tree=memory)
    assert visits(found.tree[reply]) == visits(memory.get(reply, {"win": 0, "loss": 0})) + found.iterations


@pytest.mark.slow
def test_a_reusing_agent_plays_whole_games_the_same_for_a_seed():
    game = Nim(heap=15, max_take=3)  # 15 = 3 mod 4: the first player wins
    agent, perfect = mcts_agent(100, reuse=True), make_agent("perfect", game=game)
    results = tournament(game, agent, perfect, 20, seed=1)
    assert results.wins[1] == 20
    assert tournament(game, perfect, agent, 20, seed=2) == tournament(game, perfect, agent, 20, seed=2)
