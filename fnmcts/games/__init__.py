"""The built-in games: coin and darts (trials), Shut the Box, Nim, multi-pile Nim, tic-tac-toe, Connect Four, Pig,
Kayles.

``Coin`` and ``Darts`` are the tutorial's trials as games of chance alone, for
the Monte Carlo lab (``fnmcts.lab``); ``GAMES`` holds the games the verbs
take by name.

>>> sorted(GAMES)
['connect-four', 'kayles', 'nim', 'pig', 'piles', 'shut-the-box', 'tic-tac-toe']
>>> GAMES["nim"]()
Nim(heap=21, max_take=3, misere=True)
"""

from ..values import fixed_pmap

from .coin import Coin
from .connect_four import ConnectFour
from .darts import Darts
from .kayles import Kayles
from .nim import Nim
from .pig import Pig
from .piles import Piles
from .shut_the_box import ShutTheBox
from .tictactoe import TicTacToe

__all__ = ["GAMES", "Coin", "ConnectFour", "Darts", "Kayles", "Nim", "Pig", "Piles", "ShutTheBox", "TicTacToe"]

GAMES = fixed_pmap({"shut-the-box": ShutTheBox, "nim": Nim, "piles": Piles, "tic-tac-toe": TicTacToe, "pig": Pig,
                   "kayles": Kayles, "connect-four": ConnectFour})
"""Game constructors by their command-line name."""
