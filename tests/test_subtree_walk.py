"""How far ``subtree`` walks: exact where the states from the new root fit its bound, a share of the tree where not.

A search's tree holds a few hundred states of a game that may hold millions
(Connect Four through OpenSpiel counts none of its states): the default walk
must cost what the tree holds, not a walk of the game, and still give the
exact subtree wherever the states from the new root fit the bound.
"""

import random

from hypothesis import given, settings, strategies as st

from fnmcts.games import Nim, ShutTheBox
from fnmcts.mcts import search, subtree
from fnmcts.mcts._search import SUBTREE_AHEAD, SUBTREE_SHARE, SUBTREE_WALK
from fnmcts.protocol import CHANCE, GameBase


class Sums(GameBase):
    """Two players add 1..``width`` in turn for ``length`` plies; an odd total wins for the first.

    A state is ``(ply, total)``: every order of the same numbers meets again
    (transpositions), and the states number about ``width * length**2 / 2``.
    It counts nothing (no ``size_hint``); ``plays`` counts the moves played.
    """

    num_players = 2

    def __init__(self, width, length):
        self.width, self.length, self.plays = width, length, 0

    def start(self):
        return (0, 0)

    def to_move(self, state):
        return None if state[0] == self.length else state[0] % 2

    def possible_moves(self, state):
        return () if state[0] == self.length else tuple(range(1, self.width + 1))

    def play(self, state, move):
        self.plays += 1
        return (state[0] + 1, state[1] + move)

    def payoff(self, state):
        return (1, -1) if state[1] % 2 else (-1, 1)


def _reach(game, state, through=lambda x: True):
    """Every state reachable from ``state``, passing only through the states ``through`` accepts (and ``state``)."""
    seen, stack = {state}, [state]
    while stack:
        x = stack.pop()
        player = game.to_move(x)
        if player is None or (x != state and not through(x)):
            continue
        moves = [o for o, _ in game.chance_outcomes(x)] if player is CHANCE else game.possible_moves(x)
        for child in (game.play(x, m) for m in moves):
            if child not in seen:
                seen.add(child)
                stack.append(child)
    return seen


def test_the_default_walk_on_a_game_of_600_000_states_costs_what_the_tree_holds():
    game = Sums(width=30, length=200)  # about 600,000 states, none counted by the game
    tree = search(game, game.start(), 300, random.Random(1))
    state = game.play(game.start(), 7)
    game.plays = 0
    kept = subtree(game, tree, state)
    # the stored states' moves, then at most the walk's bound of others, each expanded once
    walk = SUBTREE_AHEAD + len(tree) // SUBTREE_SHARE
    assert game.plays <= game.width * (len(tree) + walk + 1)
    stored_only = subtree(game, tree, state, walk=0)
    assert set(stored_only) <= set(kept) <= set(tree)
    assert all(kept[s] is tree[s] for s in kept)


def test_an_explicit_walk_keeps_its_meaning_and_the_game_count_decides_the_default():
    nim = Nim(heap=30, max_take=3)
    assert nim.size_hint(nim.start())[0] <= SUBTREE_WALK  # a game that counts its states: walked whole
    tree = search(nim, nim.start(), 40, random.Random(2))
    state = nim.play(nim.start(), 1)
    exact = {s for s in _reach(nim, state) if s in tree}
    assert set(subtree(nim, tree, state)) == exact == set(subtree(nim, tree, state, walk=10**9))


GAMES = st.sampled_from((Nim(heap=12, max_take=3), ShutTheBox(levers=4), ("sums", 3, 7)))


@settings(max_examples=40, deadline=None)
@given(GAMES, st.integers(0, 2**32), st.integers(1, 120), st.integers(0, 3), st.integers(0, 400))
def test_the_walk_gives_the_exact_subtree_whenever_the_unstored_states_fit_it(game, seed, dives, steps, walk):
    """Exact (every stored state reachable, through any states) when at most ``walk`` states from ``state``
    are not stored; else never less than what the stored states lead to nor more than the exact subtree."""
    if isinstance(game, tuple):
        game = Sums(*game[1:])
    rng = random.Random(seed)
    tree = search(game, game.start(), dives, rng)
    state = game.start()
    for _ in range(steps):
        player = game.to_move(state)
        if player is None:
            break
        moves = [o for o, _ in game.chance_outcomes(state)] if player is CHANCE else list(game.possible_moves(state))
        state = game.play(state, rng.choice(moves))
    everything = _reach(game, state)
    exact = {s for s in everything if s in tree}
    through_stored = {s for s in _reach(game, state, lambda x: x in tree) if s in tree}
    for bound in (walk, None):
        kept = subtree(game, tree, state, walk=bound)
        assert through_stored <= set(kept) <= exact
        assert all(kept[s] is tree[s] for s in kept)
    if len(everything - set(tree) - {state}) <= walk:
        assert set(subtree(game, tree, state, walk=walk)) == exact
    # the default: the game's count of its states (Nim), else the tree's share and SUBTREE_AHEAD; all fit here
    assert len(everything) <= SUBTREE_AHEAD
    assert set(subtree(game, tree, state)) == exact
