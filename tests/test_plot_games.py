"""``fnmcts plot GAME [--what KIND]`` on every kind of game, and the data functions behind it (they take the game)."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from fnmcts.agents import perfect_agent, random_agent
from fnmcts.exact import best_moves, evaluate_policy, random_policy, solve, value
from fnmcts.games import Nim, ShutTheBox, TicTacToe
from fnmcts.views import greedy_policy
from fnmcts.cli.plot import RUN_FLAGS
from fnmcts import lab
from fnmcts.games import Coin, Darts
from fnmcts.matches import playout
from fnmcts.montecarlo import mean_interval
from fnmcts.plots import (
    checkpoints,
    convergence_curve,
    estimate_curve,
    flat_mc_curve,
    match_curve,
    qlearning_curve,
    random_play_trial,
    search_curve,
)
from fnmcts.qlearning import optimal_move_rate, train
from fnmcts.rng import make_rng

from cli_run import run, run_json, write_user_game


@pytest.fixture
def user_game(tmp_path, monkeypatch):
    return write_user_game(tmp_path, monkeypatch, "plot_take_away")


# -- the data: pure functions of the game and the rng ----------------------------------


@settings(max_examples=30, deadline=None)
@given(st.lists(st.booleans(), min_size=1, max_size=200), st.integers(2, 12))
def test_the_running_estimate_counts_the_trials(outcomes, points):
    """Each point is the share of successes among the first n trials, inside its own interval."""
    feed = iter(outcomes)
    curve = estimate_curve(lambda rng: next(feed), len(outcomes), make_rng(0), points)
    assert [p.n for p in curve] == list(checkpoints(len(outcomes), points))
    for p in curve:
        assert p.estimate == sum(outcomes[:p.n]) / p.n
        assert p.low <= p.estimate <= p.high


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.integers(1, 300), points=st.integers(2, 10))
def test_the_convergence_curve_is_the_running_mean_with_both_bands(seed, n, points):
    """Each point: the mean of the first n payoffs, the fixed-n interval of their sums, the confidence sequence's."""
    game = Coin(3)
    curve, exact = convergence_curve(game, n, make_rng(seed), points, exact=0.5)
    rng = make_rng(seed)
    payoffs = [float(game.payoff(playout(game, game.start(), rng))[0]) for _ in range(n)]
    sequence = lab.confidence_sequence(payoffs)
    assert exact == 0.5 and [p.n for p in curve] == list(checkpoints(n, points))
    for p in curve:
        first = payoffs[:p.n]
        assert p.estimate == pytest.approx(sum(first) / p.n)
        assert (p.low, p.high) == pytest.approx(mean_interval(sum(first), sum(y * y for y in first), p.n))
        assert (p.anytime_low, p.anytime_high) == sequence[p.n - 1]
    widths = [p.anytime_high - p.anytime_low for p in curve]
    assert widths == sorted(widths, reverse=True)  # an intersection over time only narrows


def test_random_play_of_a_game_estimates_its_exact_chance():
    # a heap of 3, take 1-3, the last taker wins: player 1 wins at once by taking 3 (1/3); taking 2 leaves 1,
    # which player 2 takes (loss); taking 1 leaves 2: player 2 takes both (1/2) or 1, then player 1 takes the last
    game = Nim(heap=3, max_take=3, misere=False)
    chance = Fraction(1, 3) + Fraction(1, 3) * Fraction(1, 2)
    exact = value(evaluate_policy(game, random_policy, game.start(), opponent=random_policy), game.start())[0]
    assert (exact + 1) / 2 == chance  # no draws: the rescaled expected payoff is the chance of winning
    last = estimate_curve(random_play_trial(game), 20_000, make_rng(3), points=2)[-1]
    assert last.low <= float(chance) <= last.high


def test_the_search_curve_is_a_value_of_its_seed_and_reads_the_exact_values():
    game = Nim(heap=7, max_take=3, misere=False)
    solution = solve(game)
    curve, optimum = search_curve(game, 2_000, make_rng(5), points=4, solution=solution)
    again, _ = search_curve(game, 2_000, make_rng(5), points=4, solution=solution)
    assert curve == again and optimum == 1.0
    marks = list(checkpoints(2_000, 4))
    # every point at its checkpoint, until the solver proves the root: that point is the last, at the dives that ran
    assert [p.dives for p in curve[:-1]] == marks[:len(curve) - 1] and curve[-1].dives <= marks[len(curve) - 1]
    assert [p.proven for p in curve] == [None] * (len(curve) - 1) + [1.0]  # 2,000 dives solve a heap of 7
    right = {f"take {m}" for m in best_moves(game, solution, game.start())}
    for p in curve:
        assert 0 <= p.value <= 1 and 0 < p.best_share <= 1
        assert p.move_value == (1.0 if p.best_move in right else 0.0)  # a move either keeps the win or loses it
    assert curve[-1].best_move in right and curve[-1].value == 1.0  # the proven value, not the dives' mean


def test_the_search_curve_of_a_one_player_game_from_the_roll_reads_the_greedy_policy():
    game = ShutTheBox(levers=4)
    solution = solve(game)
    curve, optimum = search_curve(game, 500, make_rng(1), points=3, solution=solution)
    assert optimum == pytest.approx(float(value(solution, game.start())[0]))
    for p in curve:
        assert p.best_move is None and p.best_share is None  # the dice roll first: no move yet
        assert 0 <= p.greedy_value <= optimum + 1e-12
    # the last point's greedy value is the exact value of the policy read off a tree grown the same way
    tree = None
    from fnmcts.mcts import search

    rng, done = make_rng(1), 0
    for mark in checkpoints(500, 3):
        tree = search(game, game.start(), mark - done, rng, tree=tree)
        done = mark
    assert curve[-1].greedy_value == pytest.approx(float(value(evaluate_policy(game, greedy_policy(tree), game.start()), game.start())[0]))


def test_without_exact_values_the_search_curve_says_none():
    curve, optimum = search_curve(TicTacToe(), 100, make_rng(1), points=2)
    assert optimum is None and all(p.move_value is None and p.greedy_value is None for p in curve)


def test_a_match_between_perfect_players_alternates_the_lost_first_move():
    # misere Nim 21 is lost for the first player: perfect against perfect, the agent moving second wins
    game = Nim(heap=21, max_take=3, misere=True)
    curve = match_curve(game, perfect_agent, perfect_agent, 6, make_rng(1))
    assert [p.score for p in curve] == [0.0, 0.5, 1 / 3, 0.5, 0.4, 0.5]
    assert all(p.low <= p.score <= p.high for p in curve)


def test_a_match_scores_a_draw_as_half():
    curve = match_curve(TicTacToe(), perfect_agent, perfect_agent, 4, make_rng(1))
    assert [p.score for p in curve] == [0.5] * 4


def test_a_match_needs_two_players():
    with pytest.raises(ValueError, match="two players"):
        match_curve(ShutTheBox(), random_agent, random_agent, 2, make_rng(1))


def test_flat_monte_carlo_beside_mcts_counts_exact_best_moves():
    game = Nim(heap=10, max_take=3, misere=False)
    curve = flat_mc_curve(game, 30, make_rng(2), solve(game), points=3, runs=6)
    assert [p.playouts for p in curve] == list(checkpoints(30, 3, first=1))
    for p in curve:
        assert p.runs == 6 and p.flat * 6 == round(p.flat * 6) and p.mcts * 6 == round(p.mcts * 6)
    # every move of a won position with one move: whichever the method, it is right
    one = Nim(heap=1, max_take=3, misere=False)
    assert all(p.flat == p.mcts == 1.0 for p in flat_mc_curve(one, 4, make_rng(1), solve(one), points=2, runs=3))


def test_the_qlearning_curve_is_training_continued_checkpoint_by_checkpoint():
    game = Nim(heap=13, max_take=3)
    solution = solve(game)
    curve = qlearning_curve(game, 400, make_rng(4), solution, points=3)
    rng, ai, done, rates = make_rng(4), None, 0, []
    for mark in checkpoints(400, 3):
        ai = train(mark - done, game=game, rng=rng) if ai is None else train(mark - done, ai=ai, rng=rng)
        done = mark
        rates.append(float(optimal_move_rate(ai, solution)))
    assert [p.optimal for p in curve] == rates


# -- the command --------------------------------------------------------------------------


def test_plot_json_on_a_built_in_game_prints_the_data(capsys):
    data = run_json(capsys, "plot", "nim(heap=7, misere=False)", "--dives", "500", "--points", "3", "--seed", "2")
    assert data["what"] == "search" and data["file"] is None and data["exact"] is True and data["optimum"] == 1.0
    rows = data["data"]
    assert [row["dives"] for row in rows[:-1]] == list(checkpoints(500, 3))[:len(rows) - 1]
    assert rows[-1]["best_move"] == "take 3" and rows[-1]["proven"] == 1.0  # proven: the last point, at its dives
    assert rows[-1]["dives"] < 500


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["search", "flat-mc", "tournament", "qlearning", "simulate", "convergence"])
def test_every_kind_on_a_user_s_game(capsys, user_game, kind, tmp_path):
    out = tmp_path / f"{kind}.svg"
    code, text, err = run(capsys, "plot", user_game, "--what", kind, RUN_FLAGS[kind], "20", "--runs", "2",
                          "-o", str(out), "--json", *(() if kind == "tournament" else ("--points", "2")))
    if kind != "flat-mc":  # --runs belongs to flat-mc alone: the others refuse it in one line
        assert code == 2 and err.count("\n") == 1 and "--runs belongs to --what flat-mc" in err
        code, text, err = run(capsys, "plot", user_game, "--what", kind, RUN_FLAGS[kind], "20", "-o", str(out), "--json",
                              *(() if kind == "tournament" else ("--points", "2")))
    assert code == 0, err
    data = json.loads(text)
    assert data["what"] == kind and data["file"] == str(out) and data["data"]
    assert out.read_bytes().startswith(b"<?xml")


def test_plot_on_an_openspiel_game(capsys):
    pytest.importorskip("pyspiel")
    data = run_json(capsys, "plot", "openspiel:tic_tac_toe", "--dives", "200", "--points", "2")
    assert data["exact"] is True and data["optimum"] == 0.5  # tic-tac-toe is a draw
    assert all(row["move_value"] in (0.0, 0.5) for row in data["data"])


def test_the_same_seed_draws_the_same_file(capsys, tmp_path):
    files = []
    for name in ("a.png", "b.png"):
        target = tmp_path / name
        assert run(capsys, "plot", "tic-tac-toe", "--what", "tournament", "--agents", "random", "perfect",
                   "--games", "10", "-o", str(target))[0] == 0
        files.append(target.read_bytes())
    assert files[0] == files[1]


def test_the_convergence_picture_draws_both_bands_and_the_exact_value():
    pytest.importorskip("matplotlib")
    from fnmcts.plots import draw

    data = convergence_curve(Coin(), 200, make_rng(5), points=6, exact=0.5)
    assert convergence_curve(Coin(), 200, make_rng(5), points=6, exact=0.5) == data  # a value of its seed
    assert convergence_curve(Coin(), 200, make_rng(6), points=6, exact=0.5) != data
    ax = draw("convergence", data, "the coin").axes[0]
    labels = ax.get_legend_handles_labels()[1]
    assert labels == ["anytime-valid 95% band (stop whenever you like)", "fixed-n 95% interval (n chosen in advance)",
                      "running estimate", "exact value 0.5"]
    assert list(ax.lines[-1].get_ydata()) == [0.5, 0.5] and ax.get_title() == "the coin"
    assert list(ax.lines[0].get_ydata()) == [p.estimate for p in data[0]]
    import matplotlib.pyplot as plt

    plt.close(ax.figure)


def test_plot_convergence_json_holds_the_exact_value(capsys):
    darts = run_json(capsys, "plot", "darts", "--what", "convergence", "--trials", "500", "--points", "3")
    assert darts["exact"] == pytest.approx(float(Darts().pi_value()) / 4) and len(darts["data"]) == 3
    box = run_json(capsys, "plot", "shut-the-box(levers=4)", "--what", "convergence", "--trials", "400", "--points", "2")
    assert box["exact"] == pytest.approx(lab.exact_variances(ShutTheBox(levers=4), methods=("plain",)).value)
    last = box["data"][-1]
    assert last["n"] == 400 and last["anytime_low"] <= last["low"] <= last["high"] <= last["anytime_high"]


@pytest.mark.slow  # three pictures rendered
def test_the_convergence_plot_is_a_file_of_its_seed(capsys, tmp_path):
    files = []
    for name, seed in (("a.png", "5"), ("b.png", "5"), ("c.png", "6")):
        target = tmp_path / name
        assert run(capsys, "plot", "coin", "--what", "convergence", "--trials", "300", "--points", "8",
                   "--seed", seed, "-o", str(target))[0] == 0
        files.append(target.read_bytes())
    assert files[0] == files[1] and files[0] != files[2]  # the seed's picture, and a picture of the data
    assert files[0].startswith(b"\x89PNG") and len(files[0]) > 20_000
    target = tmp_path / "d.svg"
    assert run(capsys, "plot", "darts", "--what", "convergence", "--trials", "300", "-o", str(target))[0] == 0
    svg = target.read_bytes()
    assert svg.startswith(b"<?xml") and b"<path" in svg and len(svg) > 10_000


def test_darts_plot_pi_and_the_coin_its_heads(capsys):
    darts = run_json(capsys, "plot", "darts", "--trials", "2000", "--points", "3")
    assert darts["what"] == "simulate"
    for row in darts["data"]:
        assert row["pi"] == 4 * row["estimate"] and row["pi_low"] <= row["pi"] <= row["pi_high"]
    assert darts["data"][-1]["pi_low"] < math.pi < darts["data"][-1]["pi_high"]
    coin = run_json(capsys, "plot", "coin", "--trials", "1000", "--points", "2")
    assert "pi" not in coin["data"][0] and coin["data"][-1]["low"] < 0.5 < coin["data"][-1]["high"]


@pytest.mark.parametrize("argv, message", [
    (["plot", "nim"], "give -o FILE.png|svg for the picture, or --json for its data"),
    (["plot", "coin", "--what", "search", "--json"], "coin is a Monte Carlo experiment"),
    (["plot", "shut-the-box", "--what", "tournament", "--json"], "needs a game of two players"),
    (["plot", "shut-the-box", "--what", "flat-mc", "--json"], "give --state where a player moves"),
    (["plot", "nim", "--what", "search", "--agents", "mcts", "random", "--json"], "--agents belongs to --what tournament"),
    (["plot", "nim", "--what", "qlearning", "--dives", "5", "--json"], "--dives sets a tournament's agents"),
    (["plot", "nim", "--what", "search", "--trials", "5", "--json"], "--trials sets a tournament's agents"),
    (["plot", "nim", "--what", "tournament", "--agents", "mcts", "nobody", "--json"], "unknown agent 'nobody'"),
    (["plot", "nim", "--what", "serch", "--json"], "invalid choice: 'serch'"),
    (["plot", "nim", "--state", '{"heap": 0, "player": 1}', "--json"], "the game is over"),
    (["plot", "pig", "--what", "qlearning", "--json"], "needs the exact values"),
    (["plot", "nmi", "--json"], "unknown game 'nmi' (did you mean 'nim'?)"),
    (["plot", "nmi"], "unknown game 'nmi' (did you mean 'nim'?)"),  # the typo before the missing -o
    (["plot", "dart", "--json"], "(did you mean 'darts'?); plot also takes coin and darts"),
    (["plot", "fnmcts.games:TicTacTo", "--json"], "has no 'TicTacTo' (did you mean 'TicTacToe'?)"),
    (["plot", "nim", "-o", "x.jpg"], "the output must end in .png or .svg, got 'x.jpg'"),
])
def test_mistakes_are_one_line_and_exit_2(capsys, argv, message, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and message in err and err.count("\n") == 1, err


@pytest.mark.parametrize("name, new", [("pi", "fnmcts plot darts"), ("mcts", "fnmcts plot shut-the-box"),
                                       ("flat-mc", "--what flat-mc"), ("qlearning", "--what qlearning"),
                                       ("tournament", "--what tournament")])
def test_the_old_spellings_warn_and_name_the_new_one(capsys, tmp_path, name, new, monkeypatch):
    if name != "pi":  # the others draw for a while: their warning comes before the work, then a missing -o stops them
        code, out, err = run(capsys, "plot", name)
        assert code == 2 and "old spelling" in err and new in err and "needs -o FILE" in err
        return
    target = tmp_path / "pi.svg"
    code, out, err = run(capsys, "plot", name, "-o", str(target), "--budget", "100")
    assert code == 0 and target.exists() and out.startswith(f"wrote {target}")
    assert err.startswith("fnmcts: warning: 'fnmcts plot pi' is the old spelling") and new in err
