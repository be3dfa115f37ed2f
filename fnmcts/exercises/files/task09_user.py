"""Exercise 9: Shut the Box with you at the controls (the Clojure tutorial, task 9).

Copy ``play_game`` (exercise 8) to ``play_game_user`` and let a person choose:
at each turn show the box and the roll; when the roll can be played, offer the
possible moves and play the one chosen; when it cannot, say the game is lost.

So that it can be checked, the choosing is a function passed in:

* ``play_game_user(box, rng, choose)``: play from ``box`` with dice from
  ``rng``; at each roll with at least one possible move, call
  ``choose(box, roll, moves)`` with the current box, the roll and the list of
  possible moves, and play on from the box it returns. Return ``"win"`` or
  ``"loss"``.

``ask`` below is a ``choose`` that asks at the terminal: play a game with
``play_game_user(frozenset(range(1, 10)), random.Random(), ask)``.
"""

import random


def ask(box, roll, moves):
    """Ask at the terminal which of ``moves`` to play (levers flipped shown for each)."""
    print(f"levers up: {sorted(box)}   roll: {roll}")
    for number, move in enumerate(moves, 1):
        print(f"  {number}: flip {sorted(box - move)}")
    while True:
        answer = input("your choice: ").strip()
        if answer.isdigit() and 1 <= int(answer) <= len(moves):
            return moves[int(answer) - 1]
        print(f"type a number from 1 to {len(moves)}")


def play_game_user(box: frozenset, rng: random.Random, choose=ask) -> str:
    """One game from ``box`` in which ``choose`` picks every move: ``"win"`` or ``"loss"``."""
    raise NotImplementedError
