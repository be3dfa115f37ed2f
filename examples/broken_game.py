# A deliberately broken game, and what fnmcts.testing.check_game says about it.
# check_game draws playthroughs with hypothesis, checks every game law at every state on
# the way, and shrinks a failure to the shortest move sequence that shows it.
# %%
from fnmcts.cli.session import run_as_session
run_as_session(globals())  # run as a script: shows each step and its result; in a REPL or notebook: nothing

# %%
from dataclasses import dataclass
from fractions import Fraction

from fnmcts import CHANCE, GameBase, solve, value
from fnmcts.games.nim import Nim
from fnmcts.testing import LAWS, check_game, find_counterexample, replay


# %%
# Twenty: roll a die as often as you like, below 20; stop to score total / 20; over 20 you bust.
# A state is (total, phase): phase "choose" (the player), "roll" (the die), "stop" or "bust" (the end).
# The bug: near 20 the die only lists the faces that do not bust, still at 1/6 each.
@dataclass(frozen=True)  # a value: equal, hashable, with a readable repr
class Twenty(GameBase):
    goal = 20
    def start(self):
        return (0, "choose")
    def to_move(self, state):
        return {"choose": 0, "roll": CHANCE}.get(state[1])
    def possible_moves(self, state):
        total, phase = state
        if phase != "choose":
            return ()
        return ("roll", "stop") if total < self.goal else ("stop",)
    def chance_outcomes(self, state):
        total, phase = state
        if phase != "roll":
            return ()
        return tuple((face, Fraction(1, 6)) for face in range(1, 7) if total + face <= self.goal)
    def play(self, state, move):
        total, phase = state
        if phase == "choose" and move in self.possible_moves(state):
            return (total, move)
        if phase == "roll" and move in range(1, 7):
            return (total + move, "choose" if total + move <= self.goal else "bust")
        raise ValueError(f"illegal move {move!r} at {state!r}")
    def payoff(self, state):
        total, phase = state
        return (Fraction(total, self.goal) if phase == "stop" else Fraction(0),)


game = Twenty()
game.possible_moves(game.start())
# => ('roll', 'stop')

# %%
# check_game stops at the first law that fails and shows its shrunk counterexample.
try:
    check_game(game)
except AssertionError as error:
    report = str(error)

report.splitlines()
# => ["game law 'chance_probabilities' fails for Twenty()",
#     "  moves from the start: ('roll', 3, 'roll', 6, 'roll', 6, 'roll')",
#     "  state: (15, 'roll')",
#     '  problem: the chance probabilities sum to 5/6, not 1: ((1, Fraction(1, 6)), (2, Fraction(1, 6)),
#     (3, Fraction(1, 6)), (4, Fraction(1, 6)), (5, Fraction(1, 6)))']

# %%
# The shortest way to the bug: three rolls to a total of 15, where a 6 would bust.
# No shorter walk reaches it (two rolls make at most 12), and 3, 6, 6 is the first in move order.
found = find_counterexample(game, "chance_probabilities")
found.path
# => ('roll', 3, 'roll', 6, 'roll', 6, 'roll')

# %%
replay(game, found.path)
# => (15, 'roll')


# %%
# The fix: the die always has six faces; a total over 20 busts.
@dataclass(frozen=True)
class FixedTwenty(Twenty):
    def chance_outcomes(self, state):
        return tuple((face, Fraction(1, 6)) for face in range(1, 7)) if state[1] == "roll" else ()


check_game(FixedTwenty()) == tuple(LAWS)
# => True

# %%
# Now the exact solver is trustworthy: the best expected score of Twenty.
float(value(solve(FixedTwenty()), FixedTwenty().start())[0])
# => 0.8330014659022823


# %%
# A second classic: a Nim that lets a player take zero items. Every law about a single
# state holds, but a playthrough can go round in circles.
class NimTakingZero(Nim):
    def possible_moves(self, state):
        return (0,) + super().possible_moves(state) if state["heap"] else ()
    def play(self, state, move):
        return state.set("player", 1 - state["player"]) if move == 0 else super().play(state, move)


try:
    check_game(NimTakingZero(heap=5))
except AssertionError as error:
    report = str(error)

report.splitlines()[0]
# => "game law 'playthrough_ends' fails for NimTakingZero(heap=5, max_take=3, misere=True)"

# %%
"a cycle" in report
# => True
