# Nim, part 5 (the notebook): values of states for planning. The value of a state is the best
# value a one-step move reaches, the opponent's value negated; the end decides it. The
# notebook's train(N, K) fills that table from 0 up; fnmcts.exact.solve computes the same
# for any game. Every result shown is real.
# %%
from fnmcts.cli.session import run_as_session
run_as_session(globals())  # run as a script: shows each step and its result; in a REPL or notebook: nothing

# %%
from fnmcts.agents import exact_agent, perfect_agent, random_agent
from fnmcts.exact import best_moves, move_values, solve, value
from fnmcts.games import Nim
from fnmcts.games.nim import subtraction_winner
from fnmcts.matches import tournament

game = Nim(heap=21, max_take=3, misere=True)

# %%
# The notebook's train(21, 3) as a value table: V[n] for n matchsticks, the mover's value.
def train(n, k):
    V = [1, -1]  # no matchsticks left: you won; one left: you must take it and lose
    for j in range(2, n + 1):
        V.append(max(-V[j - m] for m in range(1, min(k, j) + 1)))
    return V

train(21, 3)
# => [1, -1, 1, 1, 1, -1, 1, 1, 1, -1, 1, 1, 1, -1, 1, 1, 1, -1, 1, 1, 1, -1]

# %%
# The exact solver gives the same values, as Fractions, for every state it reaches.
solution = solve(game, *(game.state(n) for n in range(22)))
[int(value(solution, game.state(n))[0]) if n else 1 for n in range(22)] == train(21, 3)
# => True

# %%
# ... and they are the closed form: -1 exactly at 1 mod (K + 1).
[n for n, v in enumerate(train(21, 3)) if v == -1] == [n for n in range(22) if subtraction_winner(n, 3) == "other"]
# => True

# %%
# ValueAgent: the move to the next state with the best value for the mover.
move_values(game, solution, game.state(10))
# => ((1, (Fraction(1, 1), Fraction(-1, 1))), (2, (Fraction(-1, 1), Fraction(1, 1))), (3, (Fraction(-1,
#    1), Fraction(1, 1))))

# %%
exact_agent(game, game.state(10)), best_moves(game, solution, game.state(10))
# => (1, (1,))

# %%
# The notebook's tournaments.
tournament(game, random_agent, exact_agent, 10, seed=40).summary()
# => 'Player 1 wins 0 games. Player 2 wins 10 games.'

# %%
tournament(game, perfect_agent, exact_agent, 10, seed=41).summary()
# => 'Player 1 wins 0 games. Player 2 wins 10 games.'

# %%
tournament(game, exact_agent, perfect_agent, 10, seed=42).summary()
# => 'Player 1 wins 0 games. Player 2 wins 10 games.'

# %%
# The same agent plays normal play (the 21 game) and any K without a new table by hand.
exact_agent(Nim(heap=21, max_take=3, misere=False), Nim(heap=21).start()), exact_agent(Nim(heap=30, max_take=5), Nim(heap=30).start())
# => (1, 5)
