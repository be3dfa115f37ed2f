# Nim, part 4 (the notebook): Monte Carlo tree search. Each player picks moves by UCB in
# its own interest; the move played is the root move explored most. Every result shown is real.
# %%
from fnmcts.cli.session import run_as_session
run_as_session(globals())  # run as a script: shows each step and its result; in a REPL or notebook: nothing

# %%
import math
from functools import partial

from fnmcts.agents import exact_agent, mcts_agent, montecarlo_perfect_agent, perfect_agent
from fnmcts.exact import evaluate_policy, random_policy
from fnmcts.games import Nim
from fnmcts.games.nim import subtraction_winner, subtraction_winning_moves
from fnmcts.matches import play_game, tournament
from fnmcts.mcts import mcts_move
from fnmcts.rng import make_rng
from fnmcts.sampling import wilson_interval

game = Nim(heap=21, max_take=3, misere=True)
rng = make_rng(2024)

# %%
# One search from 6 matchsticks: 500 iterations (the notebook's MCTSAgent), UCB1 with c = 1.
found = mcts_move(game, game.state(6), 500, rng, c=1.0, solver=False)
found.move
# => 1

# %%
# The root's children: (move, record of wins and losses for the player who moved there).
[(move, dict(rec)) for move, rec in found.children]
# => [(1, {'win': 477, 'loss': 6}), (2, {'win': 0, 'loss': 6}), (3, {'win': 3, 'loss': 7})]

# %%
# The search is a value: the tree it returns is an immutable map, state -> record
# (a Tree: equal to the pmap of its items, printed as one line with its size and root).
type(found.tree).__name__, len(found.tree)
# => ('Tree', 12)

# %%
# The notebook's MCTS rows (its Tournament cells after MCTSAgent, 10 games each, player 1
# first): MCTSAgent against MCTSAgent "Player 1 wins 5 games. Player 2 wins 5 games.",
# PerfectAgent against MCTSAgent 9-1, MonteCarloPerfectOppAgent against MCTSAgent 9-1.
# From 21 matchsticks the player to move loses (21 = 1 mod 4), so a sound search playing
# second wins every one of those games: it only has to answer each move with the winning
# reply, first from 18, 19 or 20 matchsticks.
subtraction_winner(21, 3, misere=True), {n: subtraction_winning_moves(n, 3, misere=True) for n in (18, 19, 20)}
# => ('other', {18: (1,), 19: (2,), 20: (3,)})

# %%
# The notebook's own MonteCarloTreeSearch, ported step for step (its Node, select, expand,
# ucb with c = 1 over the root's visits, backup with alternating sign, the most selected
# root move), with an explicit rng in place of numpy's global one.
class Node:
    def __init__(self, parent, N, K, move):
        self.value, self.numselected = 0, 0
        self.N, self.K, self.move, self.parent = N, K, move, parent
        self.validmoves = list(range(1, min(K, N) + 1))
        self.child = []


def randomrollout(N, K, rng):
    """+1 when the player to move at N wins a random playout (taking the last loses), else -1."""
    mover_to_move = True
    while N:
        N -= rng.randint(1, min(K, N))
        mover_to_move = not mover_to_move
    return 1 if mover_to_move else -1


def notebook_search(N, K, rng, iterations=500, explore=1.0):
    root = Node(None, N, K, None)
    for _ in range(iterations):
        node = root
        while True:  # select: expand the next untried move, else follow UCB
            if node.validmoves:
                move = node.validmoves.pop(0)
                node.child.append(Node(node, node.N - move, K, move))
                node = node.child[-1]
                break
            if not node.child:
                break
            log_root = math.log(root.numselected)
            node = max(node.child, key=lambda ch: ch.value / ch.numselected
                       + explore * math.sqrt(log_root / (ch.numselected + 1e-9)))
        value, factor = -randomrollout(node.N, K, rng), 1
        while node is not None:  # backup
            node.numselected += 1
            node.value += value * factor
            factor = -factor
            node = node.parent
    return root


def notebook_mcts_agent(game, state, rng):
    root = notebook_search(state["heap"], game.max_take, rng)
    return max(root.child, key=lambda ch: ch.numselected).move


mcts500 = mcts_agent(500, c=1.0, solver=False)  # fnmcts: the same budget, UCB1 with c = 1, no solver

# %%
# The decisive reply, 10 seeds at each of 18, 19 and 20: how often each search finds it
# (found, searches, 95% Wilson interval of the share).
def found_rate(agent):
    hits = sum(agent(game, game.state(n), make_rng(seed)) in subtraction_winning_moves(n, 3, misere=True)
               for n in (18, 19, 20) for seed in range(10))
    return hits, 30, tuple(round(x, 2) for x in wilson_interval(hits, 30))

{"notebook": found_rate(notebook_mcts_agent), "fnmcts": found_rate(mcts500)}
# => {'notebook': (9, 30, (0.17, 0.48)), 'fnmcts': (30, 30, (0.89, 1.0))}

# %%
# The notebook's rows, 10 games each as in the notebook, with each search as MCTSAgent (the
# notebook's, then fnmcts's): player 1's wins, player 2's wins, the 95% Wilson interval of
# player 1's share.
mc_perfect = partial(montecarlo_perfect_agent, trials=1000)

def row(agent1, agent2, seed):
    record = tournament(game, agent1, agent2, 10, seed=seed)
    return record.wins[1], record.wins[2], tuple(round(x, 2) for x in wilson_interval(record.wins[1], 10))

{"MCTS vs MCTS": (row(notebook_mcts_agent, notebook_mcts_agent, 40), row(mcts500, mcts500, 40)),
 "Perfect vs MCTS": (row(perfect_agent, notebook_mcts_agent, 41), row(perfect_agent, mcts500, 41)),
 "MC-perfect-opponent vs MCTS": (row(mc_perfect, notebook_mcts_agent, 42), row(mc_perfect, mcts500, 42))}
# => {'MCTS vs MCTS': ((3, 7, (0.11, 0.6)), (0, 10, (0.0, 0.28))),
#    'Perfect vs MCTS': ((10, 0, (0.72, 1.0)), (0, 10, (0.0, 0.28))),
#    'MC-perfect-opponent vs MCTS': ((10, 0, (0.72, 1.0)), (0, 10, (0.0, 0.28)))}

# %%
# The notebook's figures sit inside the intervals of its own search (5 of 10, 9 of 10, 9 of
# 10), and fnmcts, playing second from a lost heap, wins every game. Why they differ: the
# notebook's tree has a node per path from the root, fnmcts's a record per state (heap and
# player to move), shared by every path to it. After 500 iterations from 20 matchsticks:
# the notebook's nodes, the distinct positions among them, and fnmcts's records.
def walk(node):
    yield node
    for child in node.child:
        yield from walk(child)

paths = list(walk(notebook_search(20, 3, make_rng(0))))
depth = {id(paths[0]): 0}
for node in paths[1:]:
    depth[id(node)] = depth[id(node.parent)] + 1

(len(paths), len({(node.N, depth[id(node)] % 2) for node in paths}),
 len(mcts_move(game, game.state(20), 500, make_rng(0), c=1.0, solver=False).tree))
# => (497, 40, 40)

# %%
# The same 40 positions, split over about 500 paths in the notebook's tree: most of its
# dives end at a new node and a random playout, so its values are mostly those of random
# play. And random play misleads here: the exact value of random play after each move (flat
# Monte Carlo's limit) is best for a losing move at 18, 19 and 20 (the winning replies are
# 1, 2 and 3). Once fnmcts's tree holds the 40 positions, its dives run to the end of the
# game inside the tree, each player choosing by UCB in its own interest.
def random_play_choice(n):
    kids = {m: game.play(game.state(n), m) for m in game.possible_moves(game.state(n))}
    values = evaluate_policy(game, random_policy, *kids.values(), opponent=random_policy)
    return max(kids, key=lambda m: values[kids[m]][0])

{n: random_play_choice(n) for n in (18, 19, 20)}
# => {18: 3, 19: 3, 20: 1}

# %%
# From 22 matchsticks the first player can win (take 1). Ten seeds: 500 plain iterations find
# it, and so does the default agent (UCB1, MCTS-Solver: proven wins and losses propagate).
[mcts500(game, game.state(22), make_rng(seed)) for seed in range(10)]
# => [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]

# %%
default = mcts_agent(3000)
[default(game, game.state(22), make_rng(seed)) for seed in range(10)], exact_agent(game, game.state(22))
# => ([1, 1, 1, 1, 1, 1, 1, 1, 1, 1], 1)

# %%
# A whole game of the default MCTS against perfect play from the winning heap 22.
play_game(Nim(heap=22, max_take=3), default, perfect_agent, seed=37, verbose=True).transcript[-3:]
# => ('Player 1 takes 2 matchstick(s). There are 1 matchstick(s) remaining.',
#    'Player 2 takes 1 matchstick(s). There are 0 matchstick(s) remaining.',
#    'Player 1 wins!')
