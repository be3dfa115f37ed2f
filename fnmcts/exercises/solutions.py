"""The library's answers to the exercises, with the exercises' signatures: what the checkers pass on.

Each ``taskNN()`` returns a namespace of the library's own functions, adapted to
the exercise file's signatures (no new algorithm here: the adapters call
``fnmcts.games``, ``fnmcts.tutorial``, ``fnmcts.mcts`` and ``fnmcts.agents``).
The exercise files never import this module; the tests run every checker on it.

>>> import random
>>> task04().possible_moves(frozenset({2, 9}), 9) == {frozenset({2})}
True
>>> solution(11).ucb({"win": 0, "loss": 4})
0.75
"""

from __future__ import annotations

import random
from types import SimpleNamespace

from ..agents import perfect_agent
from ..games import darts
from ..games.nim import Nim
from ..games.shut_the_box import rules
from ..games.shut_the_box.values import box_values
from ..mcts import ucb
from ..rng import DICE_PROBABILITIES, dice_roll, pick
from ..tutorial import simulate as simulate_box
from ..tutorial import uct

__all__ = ["solution", "exact_values", "random_values"]

START = rules.start_box


def exact_values(policy: str = "optimal", simplified: bool = False) -> dict:
    """Every box -> its exact probability of winning (``box_values`` read by box, not by bitmask).

    >>> float(exact_values()[frozenset({9})])
    0.1111111111111111
    """
    values = box_values(rules.ShutTheBox(simplified=simplified), policy)
    return {rules.mask_to_box(m): v for m, v in enumerate(values)}


def random_values() -> dict:
    """Every box -> its exact probability of winning under random play (task 10's table, exactly).

    >>> random_values()[frozenset({1, 2})]
    Fraction(1, 18)
    """
    return exact_values("random")


def task01():
    """Darts: ``fnmcts.games.darts``."""
    def simulate(n, rng):
        return sum(darts.is_win(darts.throw_dart(rng)) for _ in range(n)) / n

    return SimpleNamespace(throw_dart=darts.throw_dart, is_win=darts.is_win, simulate=simulate)


def task02():
    """Two games played by hand, checked against ``possible_moves``."""
    return SimpleNamespace(
        losing_game=lambda: [(12, (3, 9)), (12, (4, 8)), (12, (5, 7)), (12, None)],
        winning_game=lambda: [(9, (9,)), (8, (8,)), (7, (7,)), (6, (6,)), (5, (5,)), (4, (4,)), (3, (3,)), (3, (1, 2))],
    )


def task03():
    """The state: ``rules.sample_box``, ``fnmcts.rng.dice_roll``."""
    return SimpleNamespace(
        state_count=lambda: len(rules.all_boxes()) * len(DICE_PROBABILITIES),
        sample_box=lambda: rules.sample_box,
        sample_state=lambda: (rules.sample_box, 8),
        dice_roll=dice_roll,
    )


def _simplified_moves(box, roll):
    return rules.possible_moves(box, roll, simplified=True)


def task04():
    """The simplified rules: ``rules.possible_moves(..., simplified=True)``."""
    return SimpleNamespace(possible_moves=_simplified_moves)


def play_rolls(box, rolls) -> list:
    """The boxes seen playing ``rolls`` from ``box`` under the simplified rules (exercise 5's answer)."""
    seen = [box]
    for roll in rolls:
        if not box:
            break
        moves = _simplified_moves(box, roll)
        if not moves:
            break
        (box,) = moves
        seen.append(box)
    return seen


def task05():
    """The REPL's loop over given rolls."""
    return SimpleNamespace(start_box=lambda: rules.simplified_start_box, play_rolls=play_rolls)


def task06():
    """``rules.play_game(..., simplified=True)``."""
    return SimpleNamespace(play_game=lambda box, rng: rules.play_game(box, rng, simplified=True))


def task07():
    """``fnmcts.tutorial.simulate`` on the simplified rules, as a fraction."""
    def simulate(n, rng, box=None):
        return simulate_box(n, rng=rng, box=box, simplified=True).estimate

    return SimpleNamespace(simulate=simulate)


def task08():
    """The full rules: ``rules.levers_for_roll``, ``possible_moves``, ``play_game``."""
    return SimpleNamespace(
        levers_for_roll=rules.levers_for_roll,
        possible_moves=rules.possible_moves,
        play_game=rules.play_game,
    )


def play_game_user(box, rng, choose) -> str:
    """Exercise 9's answer: ``rules.play_game`` with ``choose`` picking among ``rules.ordered_moves``."""
    while box:
        roll = dice_roll(rng)
        moves = list(rules.ordered_moves(box, roll))
        if not moves:
            return rules.LOSS
        box = choose(box, roll, moves)
    return rules.WIN


def task09():
    """Interactive play, the choosing passed in."""
    return SimpleNamespace(play_game_user=play_game_user)


def task10():
    """The random-play table: ``rules.all_boxes`` and ``fnmcts.tutorial.simulate`` from each box."""
    def win_probability(box, n, rng):
        return simulate_box(n, rng=rng, box=box).estimate

    def lookup_table(n, rng):
        return {box: win_probability(box, n, rng) for box in rules.all_boxes()}

    return SimpleNamespace(all_boxes=rules.all_boxes, win_probability=win_probability, lookup_table=lookup_table)


def task11():
    """``fnmcts.mcts.ucb`` and ``fnmcts.tutorial.uct``."""
    return SimpleNamespace(ucb=lambda record: ucb(record), uct=lambda tree, box, rng: uct(tree, box, rng))


def task12():
    """The exact solve: ``box_values`` and ``DICE_PROBABILITIES``."""
    odds = dict(DICE_PROBABILITIES)
    return SimpleNamespace(roll_probability=lambda roll: odds.get(roll, 0), solve=exact_values)


def optimal_moves(values) -> dict:
    """Exercise 13's answer: the first best move of every box and roll with a move."""
    table = {}
    for box in rules.all_boxes():
        for roll, _ in DICE_PROBABILITIES:
            moves = rules.ordered_moves(box, roll)
            if moves:
                table[box, roll] = max(moves, key=values.__getitem__)
    return table


def task13():
    """The table of best moves and its lines."""
    def table_lines(table):
        return [f"{' '.join(map(str, sorted(box)))} | {roll} | flip {' '.join(map(str, sorted(box - move)))}"
                for (box, roll), move in table.items()]

    return SimpleNamespace(optimal_moves=optimal_moves, table_lines=table_lines)


def task14():
    """The Nim notebook's random and perfect agents: ``pick`` and ``fnmcts.agents.perfect_agent``."""
    def random_agent(heap, max_take, rng):
        return pick(rng, range(1, min(heap, max_take) + 1))

    def perfect(heap, max_take):
        game = Nim(heap=heap, max_take=max_take, misere=True)
        return perfect_agent(game, game.start(), random.Random(0))

    return SimpleNamespace(random_agent=random_agent, perfect_agent=perfect)


def solution(n: int):
    """The library's answer to exercise ``n`` (1 to 14), as a namespace of functions.

    >>> sorted(vars(solution(3)))
    ['dice_roll', 'sample_box', 'sample_state', 'state_count']
    """
    return globals()[f"task{n:02d}"]()
