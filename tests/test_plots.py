"""Plots: each file is written, non-trivial and the same for the same seed; the data is right."""

from __future__ import annotations

import math

import pytest

pytest.importorskip("matplotlib")

from fnmcts.cli import main  # noqa: E402
from fnmcts.plots import (  # noqa: E402
    PLOTS,
    figure,
    figure_bytes,
    flat_mc_data,
    mcts_data,
    pi_data,
    qlearning_data,
    tournament_data,
)

SMALL = {
    "pi": lambda seed: pi_data(2_000, seed=seed, points=8),
    "mcts": lambda seed: mcts_data(200, seed=seed, points=1),
    "flat-mc": lambda seed: flat_mc_data(16, trials=100, seeds=2, seed=seed),
    "qlearning": lambda seed: qlearning_data(200, seed=seed, points=3),
    "tournament": lambda seed: tournament_data(4, seed=seed, trials=20),
}


def test_every_plot_is_covered():
    assert set(SMALL) == set(PLOTS)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SMALL))
def test_plot_files_are_non_trivial_and_deterministic(name):
    data = SMALL[name](3)
    if name in ("pi", "flat-mc", "tournament"):  # the quick ones; mcts and qlearning replay their seeds too
        assert SMALL[name](3) == data  # the data is a value: same seed, same data
        assert SMALL[name](4) != data
    png = figure_bytes(figure(name, data), "png")
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 10_000
    svg = figure_bytes(figure(name, data), "svg")
    assert svg.startswith(b"<?xml") and b"<path" in svg and len(svg) > 10_000
    assert figure_bytes(figure(name, data), "png") == png
    assert figure_bytes(figure(name, data), "svg") == svg


def test_pi_band_narrows_and_holds_pi():
    data = pi_data(20_000, seed=5, points=10)
    assert [p.n for p in data][-1] == 20_000
    widths = [p.high - p.low for p in data]
    assert widths[-1] < widths[0] / 10
    assert data[-1].low < math.pi < data[-1].high


@pytest.mark.slow
def test_mcts_curve_against_exact_lines():
    curve, random_value, optimum = mcts_data(2_000, points=2)
    assert round(random_value, 6) == 0.020393 and round(optimum, 6) == 0.071432
    assert [p.dives for p in curve] == [100, 2000]
    assert all(0 < p.greedy_value <= optimum for p in curve)


def test_flat_monte_carlo_limit_goes_wrong_from_14():
    data = flat_mc_data(19, trials=50, seeds=1)
    assert [p.heap for p in data if not p.limit_right] == [14, 15, 17, 18, 19]
    assert all(p.right == 1.0 for p in data if p.heap <= 3)


@pytest.mark.slow
def test_qlearning_and_tournament_data():
    curve = qlearning_data(300, points=3)
    assert [p.games for p in curve] == [10, 55, 300] and all(0 <= p.optimal <= 1 for p in curve)
    rates = {(p.agent, p.opponent): p for p in tournament_data(6, trials=20)}
    assert rates[("perfect", "random")].wins >= 5
    assert rates[("random", "perfect")].wins == 0
    assert all(p.low <= p.wins / p.games <= p.high for p in rates.values())


def test_plot_command(tmp_path, capsys):
    out = tmp_path / "pi.svg"
    assert main(["plot", "pi", "-o", str(out), "--budget", "500", "--seed", "2"]) == 0
    first = out.read_bytes()
    assert main(["plot", "pi", "-o", str(out), "--budget", "500", "--seed", "2"]) == 0
    assert out.read_bytes() == first and len(first) > 10_000
    assert "wrote" in capsys.readouterr().out
    assert main(["plot", "pi", "-o", str(tmp_path / "pi.jpg")]) == 2
    assert main(["plot", "pi", "-o", str(tmp_path / "missing" / "pi.png")]) == 2
    err = capsys.readouterr().err
    assert "must end in .png or .svg" in err and err.count("fnmcts: error") == 2


def test_plot_json_names_the_file_and_the_run(tmp_path, capsys):
    import json

    out = tmp_path / "pi.svg"
    assert main(["plot", "pi", "-o", str(out), "--budget", "300", "--seed", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data == {"file": str(out), "plot": "pi", "budget": 300, "budget_counts": "darts thrown", "seed": 3}
    assert out.stat().st_size > 10_000
