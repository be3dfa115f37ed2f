"""Memory checked before it is spent: the exact solvers' estimate, their refusals, and the watch on the walk."""

from __future__ import annotations

import mmap
import subprocess
import sys
from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fnmcts.exact import evaluate_policy, random_policy, solve
from fnmcts.games import Nim, TicTacToe
from fnmcts.limits import (
    SOLVER_STATE_BYTES,
    MemoryWatch,
    SolveEstimate,
    TooLarge,
    check_solve,
    estimate_solve,
    held_bytes,
    memory_budget,
    memory_refusal,
    state_bytes,
    state_growth,
)
from fnmcts.protocol import GameBase
from small_games import cyclic_table_games, table_games


@dataclass(frozen=True)
class Histories(GameBase):
    """A game whose states are their histories (take 1 or 2 from ``heap``; no size hint): they grow move by move."""

    heap: int = 40
    num_players = 2

    def start(self):
        return ()

    def to_move(self, state):
        return None if sum(state) >= self.heap else len(state) % 2

    def possible_moves(self, state):
        return (1, 2) if self.heap - sum(state) >= 2 else (1,)

    def play(self, state, move):
        return state + (move,)

    def payoff(self, state):
        return (1, -1) if len(state) % 2 else (-1, 1)


@dataclass(frozen=True)
class Exhausting(Histories):
    """As ``Histories``, but the machine runs out of memory after ``after`` moves played."""

    after: int = 50

    def play(self, state, move):
        if len(state) >= self.after:
            raise MemoryError
        return super().play(state, move)


def test_a_state_that_keeps_its_history_grows_and_a_board_does_not():
    assert state_growth(Histories(), ()) >= 8  # one more item in a tuple a move
    assert state_growth(Nim(heap=30), Nim(heap=30).start()) == 0
    assert 0 < state_bytes(TicTacToe(), TicTacToe().start()) < 2000


def test_the_estimate_charges_the_deepest_state_of_a_growing_game():
    growing = estimate_solve(Histories(heap=40), (), memory=10**9)
    assert growing.measured and growing.states is None
    flat = state_bytes(Histories(heap=40), ())
    assert growing.state_bytes >= flat + SOLVER_STATE_BYTES + 8 * 40  # no length hint: its deepest line, 40 moves


@dataclass(frozen=True)
class Fill(GameBase):
    """Fill a board of ``cells`` one cell at a time, the board a frozenset of the cells filled (no size hint)."""

    cells: int = 12

    def start(self):
        return frozenset()

    def to_move(self, state):
        return None if len(state) == self.cells else 0

    def possible_moves(self, state):
        return tuple(c for c in range(self.cells) if c not in state)

    def play(self, state, move):
        return state | {move}

    def payoff(self, state):
        return (1,)


def test_a_board_kept_as_a_frozenset_is_charged_for_the_moves_its_games_last():
    # a new user's Dots and Boxes (12 moves) was refused by fnmcts check: 25.8 GB, charged a line of 1,000 moves
    game = Fill()
    growth = state_growth(game, game.start())
    assert growth > 0  # a frozenset grows with the pieces on the board
    assert held_bytes(game) <= state_bytes(game, game.start()) + SOLVER_STATE_BYTES + int(growth * 2 * 12)


def test_a_known_size_beyond_the_budget_is_refused_up_front_naming_what_fits():
    with pytest.raises(TooLarge) as refused:
        check_solve(Nim(heap=5000, max_take=3), memory=200_000)
    message = str(refused.value)
    assert "would hold up to 10,002 states" in message and "the memory budget of 200,000 bytes holds about" in message
    assert "memory= (bytes) sets another budget" in message and "\n" not in message


def test_an_unknown_size_stops_where_the_budget_does():
    game = Histories(heap=60)  # about 2.5e12 histories: no hint, so the walk is stopped
    with pytest.raises(TooLarge) as refused:
        solve(game, memory=2_000_000)
    message = str(refused.value)
    assert "memory budget of 2,000,000 bytes" in message or "holds more than" in message
    estimate = estimate_solve(game, memory=2_000_000)
    assert estimate.cap * estimate.state_bytes <= 2_000_000


def test_the_state_limit_still_speaks_for_itself():
    with pytest.raises(TooLarge, match="holds more than 100 states, the limit; limit=None goes on regardless"):
        solve(Histories(heap=30), limit=100)
    with pytest.raises(TooLarge, match="holds more than 100 states, the limit"):
        evaluate_policy(Histories(heap=30), random_policy, limit=100)


def test_a_memory_error_on_the_way_is_refused_not_raised():
    with pytest.raises(TooLarge, match="ran out of memory"):
        solve(Exhausting(heap=30, after=5), limit=None)


def test_the_watch_trips_when_the_process_grows_past_its_budget():
    watch = MemoryWatch(1_000_000)
    if watch.start is None:
        pytest.skip("this system does not show a process's memory")
    assert not watch.exceeded()
    # eight times the budget in a new anonymous mapping, every page touched: new memory whatever the
    # allocator kept from earlier tests (a bytearray may reuse pages the process already holds)
    ballast = mmap.mmap(-1, 8_000_000)
    try:
        for page in range(0, len(ballast), mmap.PAGESIZE):
            ballast[page] = 1
        assert watch.exceeded()
    finally:
        ballast.close()


def test_memory_refusal_says_which_bound_it_met():
    estimate = SolveEstimate(states=None, frontier=10, state_bytes=1000, budget=10**6, limit=None)
    assert "what the memory budget of 1,000,000 bytes holds beside its walk" in str(
        memory_refusal("g", estimate.cap, estimate))
    assert "passed its memory budget" in str(memory_refusal("g", 5, estimate))


@pytest.mark.slow
@given(table_games(), st.integers(10_000, 10**9))
def test_every_generated_game_either_solves_within_its_estimate_or_is_refused(game, memory):
    try:
        estimate = check_solve(game, memory=memory)
    except TooLarge:
        with pytest.raises(TooLarge):
            solve(game, memory=memory)
        return
    assert estimate.cap <= estimate.limit and estimate.fits * estimate.state_bytes <= memory
    if estimate.bytes is not None:
        assert estimate.bytes <= memory
    assert solve(game, memory=memory) == solve(game)


@given(cyclic_table_games())
def test_games_whose_states_repeat_are_estimated_and_solved_alike(game):
    assert estimate_solve(game).cap > 0
    assert solve(game, memory=10**8).keys() == solve(game).keys()


def test_the_budget_respects_an_address_space_limit():
    code = ("import resource; resource.setrlimit(resource.RLIMIT_AS, (2_000_000_000, 2_000_000_000)); "
            "from fnmcts.limits import memory_budget; print(memory_budget())")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert 0 < int(done.stdout) <= 1_600_000_000
    assert memory_budget() > 0


@pytest.mark.slow
def test_a_history_game_under_an_address_space_limit_ends_in_one_line_not_a_memory_error(tmp_path):
    script = tmp_path / "histories.py"
    script.write_text(
        "import resource, sys\n"
        "resource.setrlimit(resource.RLIMIT_AS, (1_500_000_000, 1_500_000_000))\n"
        "sys.path.insert(0, %r)\n"
        "from test_memory import Histories\n"
        "from fnmcts.exact import solve\n"
        "from fnmcts.limits import TooLarge\n"
        "try:\n"
        "    solve(Histories(heap=80), limit=None)\n"
        "except TooLarge as refused:\n"
        "    print('refused:', refused)\n" % str(__import__("pathlib").Path(__file__).parent)
    )
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("refused: ") and "memory" in done.stdout, done.stdout
