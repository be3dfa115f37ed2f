"""Exercise 2: Shut the Box by hand (the Clojure tutorial, task 2).

The box has nine levers, 1 to 9, all up at the start, and the player has two
six-sided dice. Each turn: roll the dice, then flip down any set of levers
still up whose numbers add up to the roll. If no such set exists, the game is
lost; once every lever is down, it is won.

Play on paper, choosing the dice yourself, and write your games down here.
A game is a list of turns; a turn is a pair ``(roll, levers)``: the dice's
total (2 to 12) and the tuple of levers you flip down. The last turn of a
lost game is the roll that could not be played, with ``None`` for levers.

* ``losing_game()``: a game from the start that ends in a loss.
* ``winning_game()``: a game from the start that ends with every lever down.

Example of a (short, unfinished) game: ``[(11, (8, 3)), (7, (7,))]``.
"""


def losing_game():
    """A list of ``(roll, levers)`` turns from the full box, the last ``(roll, None)``: a loss."""
    raise NotImplementedError


def winning_game():
    """A list of ``(roll, levers)`` turns from the full box that flips every lever down."""
    raise NotImplementedError
