"""``fnmcts tour``: the tutorial in the terminal, one screen per step, with real seeded results.

Tasks 1 to 13 of "Monte Carlo Tree Search with Clojure" (Shut the Box), then
the Nim notebooks, Q-learning and testing a game of your own, and last the
exact optimum beside the Monte Carlo and MCTS estimates. Each screen says what
the step asks, then shows the calls that answer it as typed at the REPL, with
the results they really return for their seeds (the calls run as the tour
shows them). ``--task N`` shows one step; on a terminal the tour waits for
Enter between screens, elsewhere (or with ``--no-pause``) it runs straight
through.
"""

from __future__ import annotations

import sys
from typing import NamedTuple

from ._common import CliError
from .session import session_lines

__all__ = ["Step", "STEPS", "step_screen", "run_tour", "register"]


class Step(NamedTuple):
    """One screen of the tour: its key (``"1"``..``"13"``, ``"nim"``, ...), title, the question, the calls.

    >>> STEPS[0].key, STEPS[0].title
    ('1', 'Task 1: Monte Carlo simulation')
    """

    key: str
    title: str
    asks: str
    code: str


STEPS = (
    Step("1", "Task 1: Monte Carlo simulation", """
Flip a coin many times, count the wins, divide by the trials. Then throw darts at
a circle in the square [-1, 1]^2: a hit is x^2 + y^2 < 1, and 4 times the share of
hits looks familiar. Picture: fnmcts plot darts -o pi.png""", """
from fnmcts.games import coin, darts
from fnmcts.rng import make_rng
rng = make_rng(2017)
[coin.flip_coin(rng) for _ in range(4)]
coin.simulate(100_000, seed=1).estimate
# pi from 200,000 darts, with its 95% interval
record = darts.simulate(200_000, seed=1)
[round(x, 4) for x in darts.pi_estimate(record)]
"""),
    Step("2", "Task 2: Shut the Box", """
Nine levers, two dice. Each turn roll the dice and flip down up levers that add
up to the roll; if none do, the game is lost; all nine down, it is won. Write
down a play-through that loses and one that wins, choosing the rolls.""", """
from fnmcts.games.shut_the_box import start_box, possible_moves
sorted(start_box)
# roll 9, flip 9; roll 8, flip 8; roll 12, flip 5 and 7; roll 11, flip 2, 3, 6
box = start_box - {9} - {8} - {5, 7} - {2, 3, 6}
sorted(box), possible_moves(box, 2)
# a win: four 10s (1+9, 2+8, 3+7, 4+6), then a 5
box = start_box - {1, 9} - {2, 8} - {3, 7} - {4, 6}
possible_moves(box, 5)
"""),
    Step("3", "Task 3: Game state", """
A state is a box (the levers still up) and a dice roll. How many states are
there? Define a sample box (1, 3 and 6 down) and a dice-roll function.""", """
from fnmcts.games.shut_the_box import all_boxes, dice_roll, sample_box
from fnmcts.rng import DICE_PROBABILITIES, make_rng
len(all_boxes()) * len(DICE_PROBABILITIES)
sorted(sample_box)
rng = make_rng(3)
[dice_roll(rng) for _ in range(10)]
"""),
    Step("4", "Task 4: Simplified Shut the Box", """
Simplified rules: the lever showing the roll goes down if it is up; otherwise
the game is lost. possible-moves returns a set of one box, or the empty set.""", """
from fnmcts.games.shut_the_box import possible_moves, sample_box
sorted(next(iter(possible_moves(sample_box, 9, simplified=True))))
possible_moves(sample_box, 6, simplified=True)
"""),
    Step("5", "Task 5: Play the game from the REPL", """
Start with lever 1 down, then call dice-roll and possible-moves by hand, feeding
each result back in, until the game ends: won when every lever is down, lost
when the roll's lever is already down.""", """
from fnmcts.games.shut_the_box import dice_roll, possible_moves, simplified_start_box
from fnmcts.rng import make_rng
rng = make_rng(3)
box = simplified_start_box
roll = dice_roll(rng)
roll, possible_moves(box, roll, simplified=True)
(box,) = possible_moves(box, roll, simplified=True)
# the same by hand, roll after roll, until the game ends
while box:
    roll = dice_roll(rng)
    moves = possible_moves(box, roll, simplified=True)
    print("levers up", sorted(box), "roll", roll, "->", "flip it" if moves else "already down: lost")
    if not moves:
        break
    (box,) = moves
"won" if not box else "lost"
"""),
    Step("6", "Task 6: Play the game automatically", """
play-game plays from a box to the end and returns :win or :loss. Test it from a
box with only the 7 up: about one game in six is a win.""", """
from fnmcts.games.shut_the_box import easy_box, play_game, simplified_start_box
from fnmcts.rng import make_rng
rng = make_rng(6)
play_game(simplified_start_box, rng, simplified=True)
results = [play_game(easy_box, rng, simplified=True) for _ in range(20)]
results.count("win"), results.count("loss")
"""),
    Step("7", "Task 7: Monte Carlo simulation of Shut the Box", """
Play the simplified game a million times and estimate the probability of
winning. fnmcts also knows it exactly.""", """
from fnmcts.exact import evaluate_policy, random_policy, value
from fnmcts.games.shut_the_box import ShutTheBox
from fnmcts.tutorial import simulate
record = simulate(1_000_000, seed=2017, simplified=True)
record.win, record.estimate, (round(record.ci_low, 6), round(record.ci_high, 6))
game = ShutTheBox(simplified=True)
value(evaluate_policy(game, random_policy), game.start())[0]
"""),
    Step("8", "Task 8: Shut the Box with a choice", """
The real rules: flip any set of up levers adding up to the roll. Generate the
lever combinations once, list every possible move, and let the computer choose
at random. Simulate again.""", """
from fnmcts.games.shut_the_box import levers_for_roll, start_box, possible_moves
from fnmcts.tutorial import simulate
levers_for_roll(6)
len(possible_moves(start_box, 11))
record = simulate(200_000, seed=8)
record.estimate, (round(record.ci_low, 4), round(record.ci_high, 4))
"""),
    Step("9", "Task 9: Shut the Box with user control", """
Show the box and the roll, number the choices, read one. At the terminal:
fnmcts play shut-the-box --hints optimal (type a choice's number).""", """
from fnmcts.games.shut_the_box import ShutTheBox, format_choices, parse_choice, render_box, start_box
game = ShutTheBox()
state = game.play(start_box, 7)
render_box(start_box)
for line in format_choices([game.describe_move(state, m) for m in game.possible_moves(state)]):
    print(line)
parse_choice("3", 5)
"""),
    Step("10", "Task 10: Look-up table", """
For every box, the probability of winning by random play: estimated by
simulation, beside the exact value.""", """
from fnmcts.tables import lookup_table
table = lookup_table(2_000, seed=10)
entry = table[frozenset({2, 3, 5})]
entry.wins, entry.estimate, float(entry.exact)
sum(e.covers(z=5.2) for e in table.values()), len(table)
"""),
    Step("11", "Task 11: Monte Carlo tree search", """
Keep a record of wins and losses per box, rate children by an upper confidence
bound (z = 2, the rule of 3), dive again and again: uct returns [tree result].
How much has been learned? Judge the greedy policy exactly.
Picture: fnmcts plot shut-the-box --rule tutorial --dives 100000 -o mcts.png""", """
from fnmcts.exact import evaluate_policy, solve, value
from fnmcts.games.shut_the_box import ShutTheBox, start_box
from fnmcts.mcts import record, search, ucb
from fnmcts.views import greedy_policy, tree_summary
from fnmcts.rng import make_rng
ucb(record(win=23, loss=77)), ucb(record(win=1, loss=9)), ucb(record(win=0, loss=4))
game = ShutTheBox()
tree = search(game, start_box, 20_000, make_rng(2017), rule=ucb)  # the tutorial's rule
tree
greedy = value(evaluate_policy(game, greedy_policy(tree)), start_box)[0]
optimum = value(solve(game), start_box)[0]
round(float(greedy), 4), round(float(optimum), 4)
# the tree at the start box with a roll of 7: visits, mean, ucb and the exact value side by side
print(tree_summary(game, tree, game.play(start_box, 7), k=4))
"""),
    Step("12", "Task 12: Construct the full tree", """
2^9 boxes times 11 rolls is small: compute every state's exact value, a roll's
node worth its best move, a box the probability-weighted sum over rolls.""", """
from fnmcts.tables import build_tree
from fnmcts.games.shut_the_box import start_box
tree = build_tree()
len(tree), tree[start_box], float(tree[start_box])
"""),
    Step("13", "Task 13: The table of optimal moves", """
For every box and roll, the levers to flip and the probability of winning
afterwards. At the terminal: fnmcts table shut-the-box -o best-moves.txt""", """
from fnmcts.games.shut_the_box import start_box
from fnmcts.tables import best_move_table
from fnmcts.views import aligned_table
table = best_move_table()
len(table), table[(start_box, 11)].flip
print(aligned_table([table[(start_box, roll)] for roll in range(2, 13)], ("roll", "flip", "move", "probability")))
"""),
    Step("trace", "Watch the search think: dives phase by phase", """
Keep every dive of a search: the path it chose (each child's mean + bonus =
score beside its exact value), what it added, its playout and its backup, and
every tree. The same dives, to step through in a browser:
fnmcts explore shut-the-box --dives 200 --seed 2017 -o shut.html""", """
from fnmcts.games.shut_the_box import ShutTheBox
from fnmcts.views import diff, trace
from fnmcts.rng import make_rng
game = ShutTheBox()
t = trace(game, game.start(), 200, make_rng(2017))
t
# the first dive adds the start box; the second rolls the dice and meets children never visited
print("\\n".join(t.dive(2).lines()))
# by dive 200 the ratings weigh what 199 dives learned
print("\\n".join(t.dive(200).lines()))
# time travel: what the last 100 dives changed
len(diff(t.tree(100), t.tree(200)).changed), len(t.tree(100)), len(t.tree(200))
"""),
    Step("nim", "Nim: random, perfect, Monte Carlo and MCTS agents", """
The notebook's game: 21 matchsticks, take 1-3, taking the last loses. Perfect play
leaves 1 mod 4. Flat Monte Carlo judges a move by random games; MCTS grows a tree.
Pictures: fnmcts plot nim --what flat-mc -o flat.png; fnmcts plot nim --what tournament -o match.png""", """
from fnmcts import mcts_agent, perfect_agent, random_agent, tournament, winning_moves
from fnmcts.games import Nim
from fnmcts.agents import montecarlo_agent
game = Nim(heap=21, max_take=3, misere=True)
game.start()
winning_moves(game, game.state(22))
tournament(game, random_agent, perfect_agent, 100, seed=9).summary()
# flat Monte Carlo (1,000 random games a move) beats random play from 21...
tournament(game, montecarlo_agent, random_agent, 20, seed=19).summary()
# ...but even from a won start (22) it slips once a game, and perfect play takes every game
tournament(Nim(heap=22, max_take=3, misere=True), montecarlo_agent, perfect_agent, 20, seed=19).summary()
# 22 is a won start: MCTS (1,000 dives a move) wins every game against perfect play
tournament(Nim(heap=22, max_take=3, misere=True), mcts_agent(1_000), perfect_agent, 20, seed=5).summary()
"""),
    Step("q", "Q-learning: Nim that teaches itself", """
The Q-learning project's NimAI on piles [1, 3, 5, 7]: play against itself,
update Q(state, action) after each move, then play greedily.
Picture: fnmcts plot piles --what qlearning -o q.png""", """
from fnmcts import train, choose_action
from fnmcts.qlearning import optimal_move_rate
ai = train(3_000, seed=1)
len(ai.q), optimal_move_rate(ai)
choose_action(ai, (1, 3, 5, 6), epsilon=False)
"""),
    Step("test", "Testing your own game", """
A game is a value with a few methods. check_game walks it with hypothesis and
checks every game law at every state reached; a broken rule gets a shrunk
counterexample.""", """
from dataclasses import dataclass
from fnmcts import GameBase
from fnmcts.testing import find_counterexample, law_moves_stable_and_legal
@dataclass(frozen=True)
class TakeAway(GameBase):
    stones: int = 5
    num_players = 2
    def start(self): return (self.stones, 0)
    def to_move(self, state): return state[1] if state[0] else None
    def possible_moves(self, state): return (1, 2) if state[0] else ()   # bug: 2 from 1
    def play(self, state, move):
        if move > state[0]: raise ValueError(f"cannot take {move} from {state[0]}")
        return (state[0] - move, 1 - state[1])
    def payoff(self, state): return (-1, 1) if state[1] == 0 else (1, -1)

found = find_counterexample(TakeAway(), law_moves_stable_and_legal)
found.path, found.state
"""),
    Step("end", "The exact optimum beside the estimates", """
Shut the Box from the start box: random play by Monte Carlo and exactly; the
policy MCTS learned, judged exactly; and the optimum of the full tree.""", """
from fnmcts.exact import evaluate_policy, random_policy, solve, value
from fnmcts.games.shut_the_box import ShutTheBox, start_box
from fnmcts.tutorial import simulate
from fnmcts.mcts import search, ucb
from fnmcts.views import greedy_policy
from fnmcts.rng import make_rng
game = ShutTheBox()
mc = simulate(1_000_000, seed=1)
tree = search(game, start_box, 100_000, make_rng(2017), rule=ucb)
learned = value(evaluate_policy(game, greedy_policy(tree)), start_box)[0]
rows = [
    ("random play, Monte Carlo (1,000,000 games)", f"{mc.estimate:.4f} [{mc.ci_low:.4f}, {mc.ci_high:.4f}]"),
    ("random play, exact", f"{float(value(evaluate_policy(game, random_policy), start_box)[0]):.4f}"),
    ("MCTS dives' win rate (100,000 dives)", f"{tree[start_box]['win'] / 100_000:.4f}"),
    ("MCTS greedy policy, exact", f"{float(learned):.4f}"),
    ("optimum, exact (full tree)", f"{float(value(solve(game), start_box)[0]):.4f}"),
]
for name, shown in rows:
    print(f"{name:<44} {shown}")
"""),
)
"""The tour's screens, in order: tasks 1-13, Nim, Q-learning, testing a game, the summary."""


def _find(key: str) -> Step:
    """The step named ``key``, or the step at that place in the tour (``14``: the screen shown "(14 of 18)").

    >>> _find("trace").title == _find("14").title == STEPS[13].title
    True
    """
    wanted = key.strip().lower()
    for step in STEPS:
        if step.key == wanted:
            return step
    if wanted.isascii() and wanted.isdigit() and 1 <= int(wanted) <= len(STEPS):
        return STEPS[int(wanted) - 1]
    keys = ", ".join(step.key for step in STEPS)
    raise CliError(f"no step {key!r} in the tour: choose 1 to {len(STEPS)} (the place shown as \"(N of "
                   f"{len(STEPS)})\") or one of {keys}")


def step_screen(step: Step, number: int | None = None, total: int | None = None):
    """Yield the lines of one screen: title, what the step asks, its calls and their real results.

    >>> lines = list(step_screen(STEPS[2]))
    >>> lines[0], lines[-1]
    ('== Task 3: Game state ==', '[5, 7, 6, 8, 8, 3, 2, 10, 5, 5]')
    """
    where = f" ({number} of {total})" if number is not None else ""
    yield f"== {step.title}{where} =="
    yield from step.asks.strip("\n").splitlines()
    yield ""
    yield from session_lines(step.code.strip("\n") + "\n", {"__name__": "__tour__"}, filename=f"<tour {step.key}>")


def register(cli) -> None:
    """Add ``fnmcts tour`` to ``cli``.

    >>> from ._parser import Cli
    >>> cli = Cli(register)
    >>> args = cli.parser.parse_args(["tour", "--task", "11", "--no-pause"])
    >>> args.task, args.no_pause
    ('11', True)
    """
    keys = ", ".join(step.key for step in STEPS)
    p = cli.command(
        "tour",
        "walk the tutorial (tasks 1-13), Nim, Q-learning and testing a game: each step's calls and real results",
    )
    p.add_argument("--task", metavar="N", default=None,
                   help=f"show one step only: its place in the tour, 1 to {len(STEPS)}, or its name: {keys}")
    p.add_argument("--no-pause", action="store_true", help="do not wait for Enter between screens")
    p.set_defaults(handler=_tour)


def run_tour(steps, write, read=None) -> int:
    """Show ``steps`` one screen after another through ``write(line)``; return how many were shown.

    With ``read`` (``read(prompt) -> line``), wait between screens: Enter goes
    on, ``q`` (or the end of input) stops. Without it, run straight through.

    >>> shown, answers = [], iter(["", "q"])
    >>> run_tour(STEPS[2:5], shown.append, read=lambda prompt: next(answers))
    2
    >>> [line for line in shown if line.startswith("==")]
    ['== Task 3: Game state (1 of 3) ==', '== Task 4: Simplified Shut the Box (2 of 3) ==']
    """
    steps = tuple(steps)
    for index, step in enumerate(steps, 1):
        for line in step_screen(step, index if len(steps) > 1 else None, len(steps)):
            write(line)
        if index < len(steps):
            if read is not None:
                try:
                    answer = read("\n-- Enter: next step, q: quit -- ")
                except EOFError:
                    answer = "q"
                if answer.strip().lower().startswith("q"):
                    return index
            write("")
    return len(steps)


def _tour(args) -> int:
    steps = (_find(args.task),) if args.task is not None else STEPS
    pause = not args.no_pause and sys.stdin.isatty() and sys.stdout.isatty()

    def write(line):
        print(line)
        sys.stdout.flush()

    run_tour(steps, write, read=input if pause else None)
    return 0
