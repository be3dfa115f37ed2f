"""The live page in a real browser: fnmcts in Pyodide grows the same trees as fnmcts here, from a local server only.

The page is built once (``python -m fnmcts.web build``: Pyodide's files from
the cache that ``python -m fnmcts.web fetch`` fills, which CI runs first, and
the wheels), served by Python's file server on a free local port, and opened in
the explorer tests' headless Chromium, which has no network of its own. Each
test clicks the page's buttons and compares the tree summary it shows with
``fnmcts.web.summary`` of the same dives run natively; every resource the page
loaded (its resource timing) must come from the local server. Without Chromium or
Pyodide's files the tests skip, with the reason, except under CI (``CI`` set),
where they fail.
"""

from __future__ import annotations

import json
import os
import threading
import time

import pytest
from pyrsistent import pmap
from test_explore_browser import CHROMEDRIVER, CHROMIUM, browser  # noqa: F401 (the same Chromium, a fixture)

from fnmcts import web
from fnmcts.views import page_data
from fnmcts.rng import make_rng
from fnmcts.web._build import PYODIDE_FILES, build, server

HAVE_PYODIDE = all((web.pyodide_cache() / name).is_file() for name in PYODIDE_FILES)

pytestmark = [
    pytest.mark.slow,  # a real browser and a Python runtime loading in it: CI's slow step
    pytest.mark.skipif(  # under CI the fixtures fail instead: nothing may skip there
        (CHROMIUM is None or CHROMEDRIVER is None or not HAVE_PYODIDE) and not os.environ.get("CI"),
        reason="needs Chromium (apt-get install chromium chromium-driver) and Pyodide (python -m fnmcts.web fetch)",
    ),
]

READY_SECONDS = 180  # loading Python in the page: a few seconds here, more on a loaded machine


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The built page, served on a free port of 127.0.0.1: its base address."""
    if not HAVE_PYODIDE:
        pytest.fail(f"Pyodide's files are missing from {web.pyodide_cache()}: run python -m fnmcts.web fetch")
    folder = build(tmp_path_factory.mktemp("live"))
    httpd = server(folder, 0)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture(scope="module")
def page(browser, site):
    """The explorer tests' Chromium (``browser``) on the live page, once Python has loaded in it."""
    browser.get(site)
    deadline = time.monotonic() + READY_SECONDS
    while browser.execute_script("return document.body.dataset.state || ''") == "" and time.monotonic() < deadline:
        time.sleep(0.2)
    state = browser.execute_script("return document.body.dataset.state || ''")
    assert state == "ready", f"the page is {state or 'still loading'}: {_text(browser, 'status')}"
    return browser, site


def _text(driver, element_id):
    return driver.execute_script(f"return document.getElementById('{element_id}').textContent")


def _set(driver, element_id, value):
    driver.execute_script(
        "const e = document.getElementById(arguments[0]); e.value = arguments[1];"
        "e.dispatchEvent(new Event('change'));", element_id, value,
    )


def _click(driver, element_id, times=1):
    for _ in range(times):
        driver.execute_script("document.getElementById(arguments[0]).click()", element_id)


def _shown(driver):
    return json.loads(_text(driver, "summary"))


def _native(name, seed, dives, uct=None):
    return web.summary(name, web.step(name, pmap(), make_rng(seed), dives, uct))


@pytest.mark.parametrize("name, seed", [("shut-the-box", 7), ("nim", 3)])
def test_the_page_grows_the_native_tree(page, name, seed):
    driver, _ = page
    _set(driver, "game", name)
    _set(driver, "seed", str(seed))
    _click(driver, "reset")
    assert _shown(driver)["states"] == 0
    _click(driver, "dive")
    _click(driver, "dive10", 2)
    shown = _shown(driver)
    assert (shown["seed"], shown["dives"]) == (seed, 21)
    native = _native(name, seed, 21)
    assert {k: shown[k] for k in native} == json.loads(json.dumps(native))
    assert _text(driver, "digest") == native["digest"]
    _click(driver, "dive100")
    assert _shown(driver)["digest"] == _native(name, seed, 121)["digest"]


def test_a_readers_uct_is_stepped_beside_the_librarys(page):
    driver, _ = page
    _set(driver, "game", "shut-the-box")
    _set(driver, "seed", "5")
    _click(driver, "use")  # the code the page opens with: the library's own uct
    _click(driver, "dive10")
    assert _text(driver, "verdict") == "the same tree as the library's"
    wrong = (
        "from fnmcts.tutorial import uct as library\n"
        "def uct(tree, box, rng):\n"
        "    rng.random()  # one draw too many: another tree\n"
        "    return library(tree, box, rng)\n"
    )
    _set(driver, "code", wrong)
    _click(driver, "use")
    _click(driver, "dive10")
    assert _text(driver, "verdict") == "a different tree from the library's"
    mine = _text(driver, "mine-out")
    ns = {}
    exec(wrong, ns)
    assert _native("shut-the-box", 5, 10, ns["uct"])["digest"] in mine
    _set(driver, "code", "def not_uct(): pass")
    _click(driver, "use")
    assert "the code defines no uct" in _text(driver, "mine-out")


@pytest.mark.parametrize("name", ["nim", "shut-the-box"])
def test_the_explorer_shows_the_same_dives(page, name):
    driver, _ = page
    _set(driver, "game", name)
    _set(driver, "seed", "2")
    _click(driver, "reset")
    _click(driver, "dive10")
    _click(driver, "show")
    done, title = web._traced(name, 2, 10)
    assert done.tree() == web.step(name, pmap(), make_rng(2), 10)  # the explorer's dives are the steps' dives
    driver.switch_to.frame(driver.find_element("id", "explorer"))
    try:
        shown = ""
        deadline = time.monotonic() + 60
        while shown != title and time.monotonic() < deadline:  # the frame's new page, once it has loaded
            shown = driver.execute_script("const t = document.getElementById('title'); return t ? t.textContent : ''")
            time.sleep(0.1)
        assert shown == title
        data = json.loads(_text(driver, "trace-data"))
        assert data == json.loads(json.dumps(page_data(done, title=title)))
    finally:
        driver.switch_to.default_content()


def test_the_checkers_library_runs_in_the_page_too(page):
    # hypothesis is bundled: fnmcts.testing's strategies draw in the page, and the page's Python is on the console
    driver, _ = page
    code = ("import hypothesis, warnings; from fnmcts.testing import strategies; from fnmcts.games import Nim\n"
            "warnings.simplefilter('ignore')\n"
            "(hypothesis.__version__.split('.')[0], strategies.reachable_states(Nim(heap=3)).example().state['heap'] <= 3)")
    shown = driver.execute_script("return fnmctsPython.runPython(arguments[0]).toJs()", code)
    assert shown == ["6", True]


def test_every_request_went_to_the_local_server_and_none_failed(page):
    driver, site = page
    urls = driver.execute_script(
        "return [location.href, ...performance.getEntriesByType('resource').map((e) => e.name)]"
    )
    assert any(url.endswith("pyodide.asm.wasm") for url in urls), urls  # the list holds the page's loading
    assert sum(url.endswith(".whl") for url in urls) == 5  # fnmcts, pyrsistent, toolz, hypothesis, sortedcontainers
    assert [url for url in urls if not url.startswith(site)] == []
    severe = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    assert severe == []
