"""``--state`` for a game of one's own that is not its JSON form: the message shows the start's form to copy."""

import json

import pytest
from cli_run import TAKE_AWAY, run, write_user_game


@pytest.mark.parametrize("typed", ["5", '{"a": 1}'])
def test_a_wrong_state_is_told_the_starts_json_form(capsys, tmp_path, monkeypatch, typed):
    spec = write_user_game(tmp_path, monkeypatch, "take_state")
    code, out, err = run(capsys, "move", spec, "--state", typed)
    assert code == 2 and out == ""
    assert err.rstrip().endswith("such as the start's [5,0]" if typed.startswith("{") else "[5,0], got '5'")
    assert len(err.strip().splitlines()) == 1
    code, out, err = run(capsys, "move", spec, "--state", "[5,0]", "--ai", "random", "--seed", "1", "--json")
    assert code == 0 and json.loads(out)["move"] in (1, 2)  # the form shown is one --state takes


def test_a_state_without_a_json_form_says_which_hooks_to_give(capsys, tmp_path, monkeypatch):
    (tmp_path / "cell_state.py").write_text(
        TAKE_AWAY + "from collections import namedtuple\nCell = namedtuple('Cell', 'stones player')\n"
        "class CellTake(TakeAway):\n    def start(self): return Cell(self.stones, 0)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    code, out, err = run(capsys, "move", "cell_state:CellTake", "--state", "x")
    assert code == 2 and out == ""
    assert "give the game its own state_to_json and state_from_json" in err
