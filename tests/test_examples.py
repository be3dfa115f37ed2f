"""Every example runs, and every result it shows (``# => ...``) is the real one."""

from pathlib import Path

import pytest

from examples_harness import Mismatch, run_example

EXAMPLES = sorted((Path(__file__).parent.parent / "examples").glob("*.py"))


@pytest.mark.slow
@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_example_runs_and_shows_real_results(path):
    assert run_example(path) >= 1, f"{path.name} shows no result"


def test_harness_catches_a_wrong_result(tmp_path):
    wrong = tmp_path / "wrong.py"
    wrong.write_text("1 + 1\n# => 3\n")
    with pytest.raises(Mismatch):
        run_example(wrong)


def test_harness_accepts_ellipsis(tmp_path):
    ok = tmp_path / "ok.py"
    ok.write_text("x = 2\n3.14159 * x\n# => 6.28...\n")
    assert run_example(ok) == 1


def test_examples_may_define_dataclasses(tmp_path):
    # the harness's own __future__ imports must not leak into the examples
    ok = tmp_path / "dc.py"
    ok.write_text("from dataclasses import dataclass\n@dataclass\nclass P:\n    x: int\nP(1)\n# => P(x=1)\n")
    assert run_example(ok) == 1
