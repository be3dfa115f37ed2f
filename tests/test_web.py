"""The live page's Python side, natively: the steps, the summary it shows, the wheel, the server, the commands.

The page itself, in Chromium with Pyodide, is tests/test_web_browser.py (slow).
"""

from __future__ import annotations

import base64
import hashlib
import threading
import urllib.request
import zipfile

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pyrsistent import pmap

from fnmcts import tutorial, web
from fnmcts.rng import make_rng
from fnmcts.web import _build
from fnmcts.web.__main__ import main

NAMES = st.sampled_from(web.LIVE_GAMES)


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 12))
def test_the_explorer_traces_the_dives_step_takes(seed, dives):
    done, title = web._traced("nim", seed, dives)
    assert done.tree() == web.step("nim", pmap(), make_rng(seed), dives)
    assert f"{dives} dives, seed {seed}" in title
  # Shut the Box's traces compute exact values (a second each): tests/test_web_browser.py checks its explorer

@settings(max_examples=10, deadline=None)
@given(NAMES, st.integers(0, 2**32), st.integers(1, 12), st.randoms())
def test_the_summary_is_the_trees_whatever_the_order_it_was_built_in(name, seed, dives, rng):
    tree = web.step(name, pmap(), make_rng(seed), dives)
    items = list(tree.items())
    rng.shuffle(items)
    shuffled = pmap(dict(items))
    assert web.summary(name, shuffled) == web.summary(name, tree)
    s = web.summary(name, tree)
    assert s["states"] == len(tree) and s["game"] == name
    start = web.game(name).start()
    assert s["root"] == repr(tree[start])
    other = next(state for state in tree if state != start) if len(tree) > 1 else start
    assert web.summary(name, tree.remove(other))["digest"] != s["digest"]  # a state less: another digest


def test_nims_summary_lists_the_starts_moves():
    tree = web.step("nim", pmap(), make_rng(4), 30)
    moves = web.summary("nim", tree)["moves"]
    assert [m for m, _ in moves] == ["1", "2", "3"]
    assert all(r.startswith("Record(") for _, r in moves)  # 30 dives visit every first move
    assert web.summary("nim", pmap())["moves"] == [["1", "not visited"], ["2", "not visited"], ["3", "not visited"]]


def test_step_runs_the_readers_uct_with_the_tutorials_signature():
    calls = []

    def mine(tree, box, rng, *game):
        calls.append(game)
        return tutorial.uct(tree, box, rng, *game)

    assert web.step("shut-the-box", pmap(), make_rng(9), 5, mine) == web.step("shut-the-box", pmap(), make_rng(9), 5)
    assert calls == [()] * 5
    web.step("nim", pmap(), make_rng(9), 2, mine)
    assert calls[-1] == (web.game("nim"),)


@pytest.mark.parametrize("dives", [-1, 1.5, True, web.MAX_DIVES + 1])
def test_step_refuses_a_count_of_dives_that_is_not_one(dives):
    with pytest.raises(ValueError, match="dives must be a whole number"):
        web.step("nim", pmap(), make_rng(1), dives)


def test_the_explorer_refuses_more_dives_than_its_page_holds():
    with pytest.raises(ValueError, match="the explorer shows 0 to 2000 dives, got 2001"):
        web.explorer("nim", 1, web.MAX_DIVES + 1)


def test_an_unknown_game_is_named():
    with pytest.raises(ValueError, match="'chess'"):
        web.game("chess")


def test_the_wheel_holds_the_package_and_a_true_record(tmp_path):
    wheel = _build.fnmcts_wheel(tmp_path)
    assert wheel.name.endswith("-py3-none-any.whl")
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        record = z.read(next(n for n in names if n.endswith(".dist-info/RECORD"))).decode().splitlines()
        for line in record:
            name, digest, size = line.rsplit(",", 2)
            if digest:
                data = z.read(name)
                expected = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
                assert (digest, int(size)) == (f"sha256={expected}", len(data)), name
    assert {"fnmcts/web/page/index.html", "fnmcts/web/page/live.js", "fnmcts/views/explorer/explorer.js"} <= names
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]
    assert {line.split(",")[0] for line in record} == names


def test_the_server_serves_webassembly_as_browsers_require(tmp_path):
    (tmp_path / "a.wasm").write_bytes(b"\0asm")
    (tmp_path / "b.mjs").write_text("export {}")
    httpd = _build.server(tmp_path, 0)
    threading.Thread(target=httpd.serve_forever, args=(0.02,), daemon=True).start()
    try:
        base = f"http://127.0.0.1:{httpd.server_address[1]}/"
        with urllib.request.urlopen(base + "a.wasm", timeout=5) as answer:
            assert (answer.headers["Content-Type"], answer.read()) == ("application/wasm", b"\0asm")
        with urllib.request.urlopen(base + "b.mjs", timeout=5) as answer:
            assert answer.headers["Content-Type"] == "text/javascript"
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_fetch_without_npm_says_so_and_fails(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PATH", str(tmp_path))
    assert main(["fetch", "--to", str(tmp_path / "pyodide")]) == 1
    assert "npm is needed to fetch Pyodide" in capsys.readouterr().err


def test_fetch_keeps_the_files_it_has(tmp_path, monkeypatch, capsys):
    for name in _build.PYODIDE_FILES:
        (tmp_path / name).write_text("x")
    monkeypatch.setenv("PATH", "")  # no npm: nothing to fetch, so none needed
    assert main(["fetch", "--to", str(tmp_path)]) == 0
    assert capsys.readouterr().out.strip() == str(tmp_path)


def test_the_cache_is_the_environments_when_given(tmp_path, monkeypatch):
    monkeypatch.setenv("FNMCTS_PYODIDE", str(tmp_path))
    assert web.pyodide_cache() == tmp_path
    monkeypatch.delenv("FNMCTS_PYODIDE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert web.pyodide_cache() == tmp_path / "fnmcts" / "pyodide" / web.PYODIDE_VERSION


@pytest.mark.parametrize("given", ["missing", "empty"])
def test_serve_of_a_folder_build_did_not_make_names_the_build_command(tmp_path, capsys, monkeypatch, given):
    from fnmcts.web import _build
    from fnmcts.web.__main__ import main

    def served(*args):
        raise AssertionError("a server was started on a folder build did not make")

    monkeypatch.setattr(_build, "server", served)
    folder = tmp_path / given
    if given == "empty":
        folder.mkdir()
    assert main(["serve", str(folder), "--port", "0"]) == 1
    err = capsys.readouterr().err
    assert f"python -m fnmcts.web build {folder}" in err and "Traceback" not in err


@pytest.mark.parametrize("port", ["x", "-1", "70000"])
def test_serve_with_a_bad_port_names_the_range(tmp_path, capsys, port):
    from fnmcts.web.__main__ import main

    with pytest.raises(SystemExit) as stopped:
        main(["serve", str(tmp_path), "--port", port])
    assert stopped.value.code == 2
    assert f"--port: takes a port, a whole number from 0 to 65535, got '{port}'" in capsys.readouterr().err


@pytest.mark.parametrize("tree", [None, [], "tree"])
def test_summary_of_no_tree_names_what_it_reads(tree):
    with pytest.raises(TypeError, match=r"summary reads a search tree \(a map state -> record, step's result\)"):
        web.summary("nim", tree)
