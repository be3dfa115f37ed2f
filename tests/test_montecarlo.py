"""Monte Carlo records, intervals, seeds, chunks and executors."""

from __future__ import annotations

import json
import math
import random
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

from fnmcts.games import coin, darts
from fnmcts.games.nim import Nim
from fnmcts.games.piles import Piles
from fnmcts.games.shut_the_box import ShutTheBox
from fnmcts.montecarlo import Z95, Simulation, estimate, mean_interval, playout, simulate, wilson_interval
from fnmcts.parallel import chunks, make_executor
from fnmcts.exact import evaluate_policy, random_policy
from fnmcts.protocol import CHANCE, GameBase, GameError
from fnmcts.testing import check_game


@given(st.integers(0, 10_000), st.integers(0, 10_000))
def test_wilson_interval_contains_the_estimate_and_stays_in_range(a, b):
    wins, games = min(a, b), max(a, b)
    low, high = wilson_interval(wins, games)
    assert 0 <= low <= high <= 1
    if games:
        assert low <= wins / games <= high


def test_wilson_interval_matches_a_hand_computation():
    # p = 0.5, n = 100, z = 1.96: centre 0.5, half width 1.96*sqrt(.25/100 + 1.96^2/40000)/(1 + 1.96^2/100)
    z = 1.959963984540054
    half = z * math.sqrt(0.25 / 100 + z * z / 40000) / (1 + z * z / 100)
    low, high = wilson_interval(50, 100)
    assert low == pytest.approx(0.5 - half) and high == pytest.approx(0.5 + half)


@given(st.integers(0, 1000), st.integers(0, 1000))
def test_records_add_up(w, extra):
    record = Simulation.of(w, w + extra, seed=3)
    assert record.win + record.loss == record.games
    assert record.merge(record).games == 2 * record.games
    with pytest.raises(AttributeError):
        record.win = 0  # immutable
    assert set(record.to_json()) >= {"games", "wins", "estimate", "ci_low", "ci_high"}


@given(st.integers(0, 3000), st.integers(1, 700))
def test_chunks_cover_the_trials_in_order(n, size):
    parts = chunks(n, size)
    assert sum(s for _, s in parts) == n
    assert [i for i, _ in parts] == list(range(len(parts)))
    assert all(s == size for _, s in parts[:-1])


def test_same_seed_same_record_whatever_the_executor():
    game = ShutTheBox()
    serial = simulate(game, 30_000, seed=9, chunk_size=4_000)
    with ThreadPoolExecutor(3) as pool:
        threaded = simulate(game, 30_000, seed=9, chunk_size=4_000, executor=pool)
    with make_executor(2) as pool:
        processes = simulate(game, 30_000, seed=9, chunk_size=4_000, executor=pool)
    assert serial == threaded == processes


def test_estimate_is_reproducible_and_seed_sensitive():
    a = estimate(coin.flip_coin, 2_000, win=coin.is_win, seed=5)
    assert a == estimate(coin.flip_coin, 2_000, win=coin.is_win, seed=5)
    assert a.seed == 5
    assert a != estimate(coin.flip_coin, 2_000, win=coin.is_win, seed=6)


def test_an_rng_supplies_the_seed_and_is_consumed():
    rng = random.Random(4)
    first = estimate(coin.flip_coin, 100, win=coin.is_win, rng=rng)
    second = estimate(coin.flip_coin, 100, win=coin.is_win, rng=rng)
    assert first.seed != second.seed
    with pytest.raises(ValueError, match="not both"):
        estimate(coin.flip_coin, 1, seed=1, rng=random.Random(1))


def test_progress_reports_every_trial():
    seen = []
    simulate(ShutTheBox(), 10_500, seed=1, chunk_size=1_000, progress=seen.append)
    assert sum(seen) == 10_500 and len(seen) == 11


@pytest.mark.parametrize("bad", [-1, 2.5, "10", True])
def test_bad_counts_are_named(bad):
    with pytest.raises((TypeError, ValueError), match="number of"):
        simulate(ShutTheBox(), bad, seed=1)


@pytest.mark.parametrize("bad", [-3, "x", 1.5])
def test_bad_seeds_are_named(bad):
    with pytest.raises((TypeError, ValueError), match="seed"):
        coin.simulate(10, seed=bad)


def test_coin_is_fair_within_five_sigma():
    n = 400_000
    record = coin.simulate(n, seed=2017)
    assert abs(record.win - n / 2) < 5 * math.sqrt(n / 4)


def test_darts_estimate_pi_within_five_sigma():
    n = 400_000
    record = darts.simulate(n, seed=2017)
    p = math.pi / 4
    assert abs(record.estimate - p) < 5 * math.sqrt(p * (1 - p) / n)
    estimate_, low, high = darts.pi_estimate(record)
    assert low < estimate_ < high


def test_two_player_simulation_counts_first_player_wins_against_the_exact_value():
    game = Nim(heap=7, max_take=3)
    exact = float(evaluate_policy(game, random_policy, opponent=random_policy)[game.start()][0])  # expected payoff of player 1
    p_win = (1 + exact) / 2
    n = 40_000
    record = simulate(game, n, seed=1)
    assert abs(record.estimate - p_win) < 5 * math.sqrt(p_win * (1 - p_win) / n)


@given(st.randoms(use_true_random=False))
def test_playout_ends_at_a_terminal_state(rng):
    game = Nim(heap=12, max_take=4)
    end = playout(game, game.start(), rng)
    assert game.to_move(end) is None and end["heap"] == 0


# -- graded payoffs and draws --------------------------------------------------------
#
# Two small games written here. DiceScore: one player rolls a die up to k times,
# choosing before each roll to roll or stop, and scores total / (6k), a number in
# [0, 1] (the issue's score game; a total of 3k is a draw). CoinDraw: player 1
# chooses to flip one coin or two; all heads wins, all tails loses, a mix is a
# draw (under random play a draw has probability 1/4, a win 3/8).


@dataclass(frozen=True)
class DiceScore(GameBase):
    rolls: int = 2

    def start(self):
        return (self.rolls, 0, "choose")

    def to_move(self, state):
        left, _, phase = state
        if phase == "roll":
            return CHANCE
        return None if phase == "stopped" or left == 0 else 0

    def possible_moves(self, state):
        return ("roll", "stop") if self.to_move(state) == 0 else ()

    def chance_outcomes(self, state):
        return tuple((face, Fraction(1, 6)) for face in range(1, 7)) if self.to_move(state) is CHANCE else ()

    def play(self, state, move):
        left, total, phase = state
        if phase == "roll":
            return (left - 1, total + move, "choose")
        return (left, total, "roll" if move == "roll" else "stopped")

    def payoff(self, state):
        return (Fraction(state[1], 6 * self.rolls),)


@dataclass(frozen=True)
class CoinDraw(GameBase):
    num_players = 2

    def start(self):
        return ()

    def to_move(self, state):
        if not state:
            return 0
        coins, heads, tails = state
        return CHANCE if heads + tails < coins else None

    def possible_moves(self, state):
        return (1, 2) if not state else ()

    def chance_outcomes(self, state):
        return (("H", Fraction(1, 2)), ("T", Fraction(1, 2))) if self.to_move(state) is CHANCE else ()

    def play(self, state, move):
        if not state:
            return (move, 0, 0)
        coins, heads, tails = state
        return (coins, heads + (move == "H"), tails + (move == "T"))

    def payoff(self, state):
        _, heads, tails = state
        return (1, -1) if not tails else (-1, 1) if not heads else (0, 0)


@dataclass(frozen=True)
class Mapped(GameBase):
    """``game`` with player 1's payoff replaced by ``f(payoff)``: exact moments and shares."""

    game: object
    f: object

    def __getattr__(self, name):
        return getattr(self.game, name)

    def start(self):
        return self.game.start()

    def to_move(self, state):
        return self.game.to_move(state)

    def possible_moves(self, state):
        return self.game.possible_moves(state)

    def chance_outcomes(self, state):
        return self.game.chance_outcomes(state)

    def play(self, state, move):
        return self.game.play(state, move)

    def payoff(self, state):
        return (self.f(self.game.payoff(state)[0]),)

    def payoff_range(self):  # f of player 1's payoff: the payoff, its square, or a share, all within [-1, 1]
        return (-1, 1)


def exact_random_play(game, f=lambda x: x) -> Fraction:
    """E[f(player 1's payoff)] under random play, exactly."""
    mapped = Mapped(game, f)
    return evaluate_policy(mapped, random_policy, opponent=random_policy)[mapped.start()][0]


def within_five_sigma(count, n, p):
    return abs(count - n * p) < 5 * math.sqrt(n * p * (1 - p))


@pytest.mark.slow
def test_the_test_games_obey_the_game_laws():
    for game in (DiceScore(1), DiceScore(3), CoinDraw()):
        check_game(game, max_examples=20, skip=("json_round_trip", "agents_legal"))


@pytest.mark.slow
def test_a_score_game_reports_its_mean_payoff_within_five_standard_errors_of_the_exact_value():
    game, n = DiceScore(rolls=3), 40_000
    mean = exact_random_play(game)
    variance = exact_random_play(game, lambda x: x * x) - mean**2
    p_win = exact_random_play(game, lambda x: int(x > Fraction(1, 2)))
    p_draw = exact_random_play(game, lambda x: int(x == Fraction(1, 2)))
    record = simulate(game, n, seed=2024)
    standard_error = math.sqrt(variance / n)
    assert abs(record.mean - mean) < 5 * standard_error
    # the interval is the normal one: its half width is z times the standard error, up to sampling
    half = (record.mean_high - record.mean_low) / 2
    assert half == pytest.approx(Z95 * standard_error, rel=0.05)
    # the counts are the classified games, the estimate their win share
    assert record.win + record.draw + record.loss == n
    assert within_five_sigma(record.win, n, p_win) and within_five_sigma(record.draw, n, p_draw)
    assert record.estimate == record.win / n and record.payoff_range == (0.0, 1.0)
    assert record.graded >= record.draw > 0


def test_the_issue_a_score_in_0_1_is_not_a_win_every_time():
    game, n = DiceScore(rolls=1), 2_000  # pays 0 (stop) or face / 6
    record = simulate(game, n, seed=7)
    # random play: stopping (1/2) pays 0, a roll wins on 4, 5, 6 and draws on 3
    assert within_five_sigma(record.win, n, 1 / 4) and within_five_sigma(record.draw, n, 1 / 12)
    mean = exact_random_play(game)
    variance = exact_random_play(game, lambda x: x * x) - mean**2
    assert mean == Fraction(7, 24)
    assert abs(record.mean - mean) < 5 * math.sqrt(variance / n)


@pytest.mark.slow
def test_draws_are_counted_in_a_two_player_game():
    game, n = CoinDraw(), 40_000
    assert exact_random_play(game) == 0
    assert exact_random_play(game, lambda x: int(x == 0)) == Fraction(1, 4)
    record = simulate(game, n, seed=11)
    assert within_five_sigma(record.draw, n, 1 / 4)
    assert within_five_sigma(record.win, n, 3 / 8) and within_five_sigma(record.loss, n, 3 / 8)
    assert record.graded == record.draw  # a draw is the only payoff between -1 and +1
    assert record.total == record.win - record.loss and record.sum_squares == record.win + record.loss
    assert abs(record.mean) < 5 * math.sqrt(0.75 / n)
    assert record.payoff_range == (-1.0, 1.0)


@pytest.mark.slow
def test_agents_play_the_graded_game_too():
    always_roll = lambda game, state, rng: "roll"  # noqa: E731
    n = 10_000
    record = simulate(DiceScore(rolls=2), n, seed=3, agent=always_roll)
    # two dice always: the score is their sum / 12, a draw at 6 (5/36), a win above (21/36)
    assert within_five_sigma(record.draw, n, 5 / 36) and within_five_sigma(record.win, n, 21 / 36)
    assert abs(record.mean - 7 / 12) < 5 * math.sqrt(35 / 6 / 144 / n)


@pytest.mark.slow
@pytest.mark.parametrize("game", [DiceScore(rolls=2), CoinDraw(), Nim(heap=9, max_take=3)])
def test_same_record_on_one_worker_or_many_at_the_same_chunk_size(game):
    serial = simulate(game, 5_000, seed=9, chunk_size=700)
    with ThreadPoolExecutor(3) as pool:
        threaded = simulate(game, 5_000, seed=9, chunk_size=700, executor=pool)
    assert serial == threaded
    assert serial.to_json() == threaded.to_json()
    other = simulate(game, 5_000, seed=9, chunk_size=1_300)  # other chunks, other child seeds
    assert other.games == 5_000 and other.win + other.draw + other.loss == 5_000


def test_same_record_in_other_processes_for_a_payoff_kernel():
    game = Nim(heap=11, max_take=3)
    serial = simulate(game, 20_000, seed=4, chunk_size=3_000)
    with make_executor(2) as pool:
        assert simulate(game, 20_000, seed=4, chunk_size=3_000, executor=pool) == serial


def test_games_of_the_two_extremes_keep_every_figure():
    nim = simulate(Nim(heap=7, max_take=3), 40_000, seed=1)  # the figures before draws were counted
    assert (nim.win, nim.loss, nim.draw, nim.estimate) == (19142, 20858, 0, 0.47855)
    assert (nim.ci_low, nim.ci_high) == (0.47365689543938294, 0.4834472241295733)
    assert nim == Simulation.of(19142, 40_000, 1, payoff_range=(-1, 1))
    box = simulate(ShutTheBox(), 100_000, seed=3, chunk_size=7_000)  # through random_wins
    assert (box.win, box.loss, box.ci_low, box.ci_high) == (2043, 97957, 0.019571446178814424, 0.02132539737398848)
    assert box == Simulation.of(2043, 100_000, 3)
    assert box.mean == box.estimate and box.graded == 0 and box.total == 2043.0
    piles = simulate(Piles(), 3_000, seed=2, chunk_size=700)  # through random_payoff
    assert (piles.win, piles.loss, piles.estimate) == (1477, 1523, 0.49233333333333335)


@dataclass(frozen=True)
class Pays(GameBase):
    """A game over before it starts, paying player 1 ``x`` on the range ``(low, high)``."""

    x: object = 0
    low: object = 0
    high: object = 1

    def start(self):
        return "over"

    def to_move(self, state):
        return None

    def possible_moves(self, state):
        return ()

    def play(self, state, move):
        raise ValueError("the game is over")

    def payoff(self, state):
        return (self.x,)

    def payoff_range(self):
        return (self.low, self.high)


@st.composite
def payoffs_in_a_range(draw):
    low = draw(st.fractions(-10, 10, max_denominator=12))
    high = low + draw(st.fractions(Fraction(1, 12), 10, max_denominator=12))
    kind = draw(st.sampled_from(["fraction", "float", "middle", "low", "high"]))
    if kind == "fraction":
        x = low + (high - low) * draw(st.fractions(0, 1, max_denominator=24))
    elif kind == "float":
        x = draw(st.floats(float(low), float(high)).filter(lambda v: low <= v <= high))
    else:
        x = {"middle": (low + high) / 2, "low": low, "high": high}[kind]
    return x, low, high


@given(payoffs_in_a_range(), st.integers(0, 40))
def test_a_payoff_is_a_win_a_draw_or_a_loss_by_its_rescaled_value(case, n):
    x, low, high = case
    record = simulate(Pays(x, low, high), n, seed=1)
    u = (Fraction(x) - low) / (high - low)
    half = Fraction(1, 2)
    assert (record.win, record.draw, record.loss) == (n * (u > half), n * (u == half), n * (u < half))
    assert record.graded == n * (0 < u < 1)
    assert record.total == pytest.approx(n * float(x)) and record.payoff_range == (float(low), float(high))
    assert float(low) <= record.mean_low <= record.mean_high <= float(high)
    if n >= 2:
        # no spread: the interval is the payoff itself, up to the rounding of the sums
        # (the sample variance from raw sums loses about sqrt(eps) * |payoff| to cancellation)
        assert record.mean == pytest.approx(float(x))
        assert record.mean_high - record.mean_low < 1e-6 * max(abs(low), abs(high))
    else:
        assert (record.mean_low, record.mean_high) == (float(low), float(high))


def test_a_payoff_outside_the_range_is_named():
    with pytest.raises(GameError, match=r"payoff\(.*\) returned \(2,\): player 1's payoff 2 lies outside .*\(0, 1\)"):
        simulate(Pays(2, 0, 1), 3, seed=1)


@st.composite
def records(draw, payoff_range=(-1, 1)):
    win, draw_, loss = (draw(st.integers(0, 50)) for _ in range(3))
    graded = draw_ + draw(st.integers(0, win + loss))
    games = win + draw_ + loss
    total = float(draw(st.integers(-games, games)))  # whole numbers: float sums are exact
    sum_squares = float(draw(st.integers(0, games)))
    seed = draw(st.integers(0, 9))
    return Simulation.of(win, games, seed, draw=draw_, total=total, sum_squares=sum_squares, graded=graded,
                         payoff_range=payoff_range)


COUNTS = ("win", "draw", "loss", "games", "graded")


@given(records(), records(), records())
def test_merge_is_associative_and_adds_the_counts(a, b, c):
    left, right = a.merge(b).merge(c), a.merge(b.merge(c))
    assert [left[k] for k in COUNTS] == [right[k] for k in COUNTS] == [a[k] + b[k] + c[k] for k in COUNTS]
    assert left == right  # whole-number sums: the floats are exact too
    assert left.seed == a.seed
    assert a.merge(b).estimate == b.merge(a).estimate


def test_merge_refuses_records_on_other_scales():
    with pytest.raises(ValueError, match="payoff ranges"):
        Simulation.of(1, 2).merge(Simulation.of(1, 2, payoff_range=(-1, 1)))


@given(st.integers(0, 500), st.integers(0, 500), st.integers(0, 500))
def test_a_record_of_counts_alone_pays_the_extremes_and_the_middle(win, draw, loss):
    games = win + draw + loss
    record = Simulation.of(win, games, draw=draw, payoff_range=(-1, 1))
    assert record.total == win - loss and record.sum_squares == win + loss and record.graded == draw
    assert record.estimate == (win / games if games else 0.0)
    assert (record.ci_low, record.ci_high) == wilson_interval(win, games)


def test_mean_interval_matches_a_hand_computation():
    # 100 payoffs, 50 of 1 and 50 of 0: sample variance 25/99
    half = Z95 * math.sqrt(25 / 99 / 100)
    assert mean_interval(50.0, 50.0, 100) == pytest.approx((0.5 - half, 0.5 + half))
    # the same on the scale -1..1: payoffs 2x - 1, mean 0, sample variance 100/99
    assert mean_interval(0.0, 100.0, 100, -1, 1) == pytest.approx((-2 * half, 2 * half))
    assert mean_interval(0.0, 0.0, 0, -1, 1) == (-1.0, 1.0)
    assert mean_interval(0.9, 0.81, 1) == (0.0, 1.0)


@given(st.lists(st.fractions(0, 1, max_denominator=10).map(float), max_size=60))
def test_mean_interval_stays_in_range_and_holds_the_mean(payoffs):
    n = len(payoffs)
    low, high = mean_interval(math.fsum(payoffs), math.fsum(x * x for x in payoffs), n)
    assert 0 <= low <= high <= 1
    if n >= 2:
        mean = math.fsum(payoffs) / n
        assert low <= mean + 1e-12 and mean - 1e-12 <= high


@pytest.mark.parametrize(
    "kwargs, fragment",
    [
        ({"win": 3, "games": 4, "draw": 2}, "cannot exceed"),
        ({"win": 1, "games": 4, "total": 1.0}, "together"),
        ({"win": 1, "games": 4, "draw": 2, "graded": 1}, "at least the draws"),
        ({"win": 1, "games": 4, "payoff_range": (1, 1)}, "low < high"),
        ({"win": 1, "games": 4, "draw": -1}, "draw must be"),
    ],
)
def test_inconsistent_records_are_refused(kwargs, fragment):
    with pytest.raises(ValueError, match=fragment):
        Simulation.of(**kwargs)


@pytest.mark.slow
def test_json_carries_the_draws_and_the_mean():
    record = simulate(CoinDraw(), 2_000, seed=5)
    data = json.loads(json.dumps(record.to_json()))
    assert data["draws"] == data["draw"] == record.draw > 0
    assert data["wins"] + data["draws"] + data["losses"] == 2_000
    assert data["mean_low"] <= data["mean"] <= data["mean_high"] and data["payoff_range"] == [-1.0, 1.0]


def test_estimate_of_trials_pays_one_for_a_win():
    record = estimate(coin.flip_coin, 3_000, win=coin.is_win, seed=5, chunk_size=1_000)
    assert record.draw == 0 and record.total == record.win and record.mean == record.estimate


def test_the_trials_half_lives_in_sampling_and_montecarlo_offers_the_same_objects():
    import fnmcts.montecarlo as montecarlo
    import fnmcts.sampling as sampling

    for name in sampling.__all__:
        assert name in montecarlo.__all__ and getattr(montecarlo, name) is getattr(sampling, name), name
    assert Simulation.__module__ == "fnmcts.sampling"
    # the coin's simulate runs the same estimator: the same record as estimate on the same trial and seed
    assert coin.simulate(2_000, seed=4) == estimate(coin.flip_coin, 2_000, win=coin.is_win, seed=4)
