"""The ``fnmcts train`` command: output, the saved Q table, errors, exit codes."""

from __future__ import annotations

import json
import os

import pytest

from fnmcts.cli import main
from fnmcts.games.nim import Nim
from fnmcts.games.piles import Piles
from fnmcts.qlearning import evaluate, load_ai, train
from fnmcts.rng import child_seed

REPORT_KEYS = {"games", "optimal_move_rate", "win_rate_vs_random", "win_rate_vs_perfect"}


def run(capsys, *argv):
    try:
        code = main(list(argv))
    except SystemExit as exit_:  # argparse stops at bad arguments with status 2
        code = exit_.code
    out, err = capsys.readouterr()
    return code, out, err


def test_train_piles_saves_the_library_result_and_reports_it(capsys, tmp_path):
    path = tmp_path / "q.json"
    code, out, err = run(
        capsys, "train", "piles", "--games", "800", "--seed", "3", "-o", str(path), "--eval-games", "100", "--json"
    )
    assert code == 0, err
    payload = json.loads(out)  # exactly one JSON object
    assert REPORT_KEYS <= set(payload)
    ai = train(800, seed=3, game=Piles((1, 3, 5, 7)))
    assert load_ai(path) == ai
    report = evaluate(ai, games=100, seed=child_seed(3, 1))
    assert payload["games"] == 800
    for key in ("optimal_move_rate", "win_rate_vs_random", "win_rate_vs_perfect"):
        assert payload[key] == report[key]
    assert payload["vs_random"]["games"] == 200
    # misère [1, 3, 5, 7] is lost for the first player: perfect play never loses it
    assert payload["vs_perfect"]["wins_first"] == 0


def test_train_nim_takes_the_game_options(capsys, tmp_path):
    path = tmp_path / "nim.json"
    args = ("train", "nim", "--heap", "10", "--max-take", "2", "--normal", "--games", "500", "--seed", "1")
    code, out, _ = run(capsys, *args, "-o", str(path), "--eval-games", "50", "--json")
    assert code == 0
    assert load_ai(path).game == Nim(heap=10, max_take=2, misere=False)
    assert json.loads(out)["rules"] == "normal"
    assert load_ai(path) == train(500, seed=1, game=Nim(heap=10, max_take=2, misere=False))


def test_train_piles_options_and_text_output(capsys, tmp_path):
    path = tmp_path / "q.json"
    code, out, _ = run(
        capsys, "train", "piles", "--piles", "2,3", "--alpha", "0.3", "--epsilon", "0.2",
        "--games", "300", "--seed", "2", "-o", str(path), "--eval-games", "20",
    )
    assert code == 0
    ai = load_ai(path)
    assert (ai.game, ai.alpha, ai.epsilon) == (Piles((2, 3)), 0.3, 0.2)
    for words in ("Done training", "optimal moves", "winning states", "vs random", "vs perfect", str(path)):
        assert words in out


def test_the_same_seed_writes_the_same_file(capsys, tmp_path):
    for name in ("a.json", "b.json"):
        run(capsys, "train", "piles", "--games", "300", "--seed", "9", "-o", str(tmp_path / name), "--eval-games", "10")
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()
    assert sorted(os.listdir(tmp_path)) == ["a.json", "b.json"]  # no temporary files left


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--piles", "1,x"], "piles are whole numbers"),
        (["--piles", "0,0"], "at least one pile"),
        (["--piles", "1,-3"], "non-negative"),
        (["--alpha", "2"], "expected a number in [0, 1]"),
        (["--epsilon", "nope"], "expected a number in [0, 1]"),
        (["--games", "-5"], "non-negative"),
        (["--misere", "--normal"], "not allowed with"),
    ],
)
def test_bad_arguments_get_one_line_and_status_2(capsys, tmp_path, argv, message):
    code, out, err = run(capsys, "train", "piles", *argv, "-o", str(tmp_path / "q.json"))
    assert code == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "q.json").exists()


def test_bad_output_paths_get_one_line_and_status_2(capsys, tmp_path):
    code, _, err = run(capsys, "train", "piles", "--games", "10", "-o", str(tmp_path / "missing" / "q.json"))
    assert code == 2 and "does not exist" in err and len(err.strip().splitlines()) == 1
    code, _, err = run(capsys, "train", "nim", "--games", "10", "-o", str(tmp_path))
    assert code == 2 and "is a directory" in err


def test_output_is_required(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["train", "piles", "--games", "10"])
    assert exit_.value.code == 2
    assert "-o" in capsys.readouterr().err


def test_training_drives_the_progress_bar(capsys, tmp_path, monkeypatch):
    from contextlib import contextmanager

    import fnmcts.cli.qlearning as command

    seen = []

    @contextmanager
    def recording_bar(total, desc, enabled=None):
        seen.append((total, desc))
        yield seen.append

    monkeypatch.setattr(command, "progress_bar", recording_bar)
    code, _, _ = run(capsys, "train", "piles", "--games", "250", "--seed", "1", "-o", str(tmp_path / "q.json"),
                     "--eval-games", "10")
    assert code == 0
    assert seen[0] == (250, "Playing training game") and sum(seen[1:]) == 250


def test_a_game_without_winning_states_reports_no_rate(capsys, tmp_path):
    # Misère [1]: the player to move must take the last object and lose, so no
    # reachable state is a win and there is no optimal-move rate to measure.
    code, out, _ = run(capsys, "train", "piles", "--piles", "1", "--games", "10", "--seed", "1",
                       "-o", str(tmp_path / "q.json"), "--eval-games", "5", "--json")
    payload = json.loads(out)
    assert code == 0 and payload["optimal_move_rate"] is None and payload["winning_states"] == 0
    assert payload["vs_random"]["wins_first"] == 0 and payload["vs_random"]["wins_second"] == 5
