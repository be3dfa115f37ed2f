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


def _shown(name, start):
    """The result an example shows after its top-level expression whose source starts with ``start``."""
    import ast

    from examples_harness import _expected_after

    source = (EXAMPLES[0].parent / name).read_text()
    for node in ast.parse(source).body:
        if isinstance(node, ast.Expr) and ast.get_source_segment(source, node).startswith(start):
            return ast.literal_eval(_expected_after(source.splitlines(), node.end_lineno))
    raise AssertionError(f"{name} has no expression starting {start!r}")


def _docs_rows(page, pattern):
    import re

    text = (EXAMPLES[0].parent.parent / "docs" / page).read_text()
    return re.findall(pattern, text, re.MULTILINE)


_CELL = r"(\d+)-(\d+) \[([\d.]+), ([\d.]+)\]"


def test_nim_page_quotes_the_notebook_rows_nim04_shows():
    shown = _shown("nim04_mcts.py", '{"MCTS vs MCTS"')
    rows = _docs_rows("nim.md", rf"^\| ([A-Za-z -]+ vs MCTS) \| \d+-\d+ \| {_CELL} \| {_CELL} \|$")
    assert [row[0] for row in rows] == list(shown)
    for name, *cells in rows:
        for (w1, w2, lo, hi), (s1, s2, (slo, shi)) in zip(zip(*[iter(cells)] * 4), shown[name]):
            assert (int(w1), int(w2), float(lo), float(hi)) == (s1, s2, slo, shi), name


def test_nim_page_quotes_the_blog_experiment_the_example_shows():
    shown = _shown("nim_blog_take_1_to_5.py", "table")
    cell = r"(\d+) \[([\d.]+), ([\d.]+)\]"
    rows = _docs_rows("nim.md", rf"^\| ([a-z ]+) \(`.*`.*\) \| {cell} \| {cell} \|$")
    assert [row[0] for row in rows] == list(shown)
    for name, h1, lo1, hi1, h3, lo3, hi3 in rows:
        assert (int(h1), float(lo1), float(hi1)) == (shown[name][100][0], *shown[name][100][2]), name
        assert (int(h3), float(lo3), float(hi3)) == (shown[name][300][0], *shown[name][300][2]), name


def _cells_hiding_results(source: str) -> list:
    """Line numbers of shown results a notebook would hide: not on its cell's last statement."""
    import ast

    from examples_harness import _expected_after

    lines = source.splitlines()
    markers = [i + 1 for i, line in enumerate(lines) if line.strip().startswith("# %%")]

    def cell(lineno):
        return sum(m < lineno for m in markers)

    body = ast.parse(source).body
    return [s.lineno for s, t in zip(body, body[1:] + [None])
            if _expected_after(lines, s.end_lineno) is not None and t is not None and cell(t.lineno) == cell(s.lineno)]


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_every_cell_shows_its_one_result(path):
    # a notebook displays only the last value of a cell: a result shown earlier in it is hidden
    assert _cells_hiding_results(path.read_text()) == [], f"{path.name}: split the cell after each shown result"


def test_a_cell_with_two_results_is_caught():
    assert _cells_hiding_results("# %%\n1 + 1\n# => 2\n2 + 2\n# => 4\n") == [2]
    assert _cells_hiding_results("# %%\n1 + 1\n# => 2\nx = 3\n") == [2]
    assert _cells_hiding_results("# %%\n1 + 1\n# => 2\n\n# %%\n2 + 2\n# => 4\n") == []
