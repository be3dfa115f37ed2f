"""The explorer page in a real browser: headless Chromium, driven by selenium, reads what a person sees.

Each test opens a generated page from disk, presses its buttons or clicks a
node, reads the numbers shown and compares them with the trace's own (its
dives' siblings, records and exact values, formatted as the terminal formats
them). Chromium starts with no network of its own (no background networking,
no component updates, no sync) and a new, empty profile. The tests skip, with
the reason, only where no Chromium is installed (on Debian: ``apt-get install
chromium chromium-driver``), and never under CI (``CI`` set), which installs both: there they fail.
"""

from __future__ import annotations

import math
import os
import shutil
import tempfile
import time
from functools import partial

import pytest

from fnmcts.games import ShutTheBox, TicTacToe
from fnmcts.mcts import ucb1, visits
from fnmcts.views import explore_page, format_number, page_data, record_text, trace
from fnmcts.mcts._records import counts_of, rating

CHROMIUM = next((p for p in map(shutil.which, ("chromium", "chromium-browser")) if p), None)
CHROMEDRIVER = shutil.which("chromedriver")

pytestmark = [
    pytest.mark.slow,  # a real browser: CI's slow step, which installs Chromium first
    pytest.mark.skipif(  # under CI the browser fixture fails instead: nothing may skip there
        (CHROMIUM is None or CHROMEDRIVER is None) and not os.environ.get("CI"),
        reason="no Chromium installed (Debian: apt-get install chromium chromium-driver): the browser tests need it",
    ),
]

FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync", "--window-size=1400,1000",
)


@pytest.fixture(scope="module")
def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    if CHROMIUM is None or CHROMEDRIVER is None:
        pytest.fail("Chromium is missing under CI: apt-get install chromium chromium-driver")
    profile = tempfile.mkdtemp(prefix="fnmcts-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS + (f"--user-data-dir={profile}",):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.implicitly_wait(0)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """The traces and their pages: tic-tac-toe with a second trace, and Shut the Box."""
    folder = tmp_path_factory.mktemp("pages")
    game = TicTacToe()
    a = trace(game, game.start(), 40, _rng(11))
    b = trace(game, game.start(), 40, _rng(11), rule=partial(ucb1, c=0.4))
    (folder / "ttt.html").write_text(explore_page(a, b), encoding="utf-8")
    box = ShutTheBox()
    s = trace(box, box.start(), 60, _rng(3))
    (folder / "stb.html").write_text(explore_page(s), encoding="utf-8")
    return {"ttt": (folder / "ttt.html", a, b), "stb": (folder / "stb.html", s)}


def _rng(seed):
    from fnmcts.rng import make_rng

    return make_rng(seed)


def shown(x) -> str:
    """A number as the page shows it: the terminal's text, with the infinity sign."""
    return format_number(x).replace("inf", "\u221e")


def _open(browser, path):
    browser.get(path.as_uri())
    browser.get_log("browser")  # drop what came before


def _css(browser, selector):
    from selenium.webdriver.common.by import By

    return browser.find_elements(By.CSS_SELECTOR, selector)


def _click(browser, selector):
    _css(browser, selector)[0].click()


def _position(browser):
    return browser.execute_script("return window.fnmctsExplorer.position()")


def _slide(browser, dive):
    """Move the slider to ``dive`` as a person does (an input event): the end of that dive."""
    browser.execute_script(
        "const s = document.getElementById('slider'); s.value = arguments[0];"
        "s.dispatchEvent(new Event('input', {bubbles: true}));", dive)


def _kid_rows(browser, scope="#phases li.current"):
    rows = []
    for row in _css(browser, f"{scope} tr.kid"):
        cells = {c: row.find_element("css selector", f"td.{c}").text for c in ("move", "visits", "mean", "bonus", "score", "exact")}
        cells["chosen"] = "chosen" in row.get_attribute("class")
        rows.append(cells)
    return rows


def _expected_rows(dive, j):
    return [
        {"move": None, "visits": str(s.visits), "mean": shown(s.mean), "bonus": shown(s.bonus), "score": shown(s.score),
         "exact": shown(s.exact), "chosen": s.chosen}
        for s in dive.siblings(j)
    ]


def _same_rows(got, want):
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g["move"].replace(" \u2605", "")  # a move's text, a star on an exact best move
        assert {k: v for k, v in g.items() if k != "move"} == {k: v for k, v in w.items() if k != "move"}


def test_the_page_opens_from_disk_with_no_error_and_no_request(browser, pages):
    path, a, b = pages["ttt"]
    _open(browser, path)
    assert browser.title.startswith("TicTacToe(): 40 dives")
    # it opens on the finished search: the last dive's last phase, the root's panel shown
    assert _css(browser, "#position")[0].text == "dive 40 of 40"
    assert _position(browser) == {"trace": "A", "dive": 40, "phase": _phases(a.dive(40)) - 1}
    assert _css(browser, "#node-title")[0].text == "The root"
    _click(browser, "#first")
    assert _css(browser, "#position")[0].text == "dive 0 of 40"
    severe = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert severe == []
    assert browser.execute_script("return performance.getEntriesByType('resource').length") == 0
    assert _css(browser, "#tree circle")  # the root, drawn


def _phases(dive):
    """A dive's phases on the page: its selection steps, expand, playout, one backup per node."""
    return len(dive.path.steps) + 2 + len(dive.path.nodes)


def test_step_walks_a_dive_phase_by_phase_with_the_traces_numbers(browser, pages):
    path, a, _ = pages["ttt"]
    _open(browser, path)
    _slide(browser, 29)
    assert _position(browser)["dive"] == 29
    dive = a.dive(30)
    lines = dive.lines()
    steps = len(dive.path.steps)
    phases = steps + 2 + len(dive.path.nodes)
    tables = 0
    for i in range(phases):
        _click(browser, "#step")
        position = _position(browser)
        assert position == {"trace": "A", "dive": 30, "phase": i}
        current = _css(browser, "#phases li.current")
        assert len(current) == 1
        text = current[0].text.splitlines()[0]
        if i < steps:
            step = dive.path.steps[i]
            assert text.startswith(f"select {i + 1}: ")
            if step.scores is not None:
                _same_rows(_kid_rows(browser), _expected_rows(dive, i))
                tables += 1
            else:
                assert text == [line for line in lines if line.startswith(f"select {i + 1}: ")][0]
        else:
            # expand, playout and every backup line: word for word the terminal's
            assert text == lines[len(lines) - phases + i]
    assert tables >= 1
    # one more step: the next dive's first selection
    _click(browser, "#step")
    assert _position(browser) == {"trace": "A", "dive": 31, "phase": 0}


def test_back_undoes_a_step_and_the_records_shown_follow(browser, pages):
    path, a, _ = pages["ttt"]
    _open(browser, path)
    _slide(browser, 20)
    root_visits = lambda: int(_css(browser, "#root-table tr.root-move td.visits")[0].text)  # noqa: E731
    first_child = a.game.play(a.game.start(), a.game.possible_moves(a.game.start())[0])
    assert root_visits() == visits(a.tree(20).get(first_child, {"win": 0, "loss": 0}))
    _click(browser, "#back")
    last = len(a.dive(20).path.nodes) + len(a.dive(20).path.steps) + 2 - 2
    assert _position(browser) == {"trace": "A", "dive": 20, "phase": last}
    _click(browser, "#step")
    _click(browser, "#step")
    assert _position(browser) == {"trace": "A", "dive": 21, "phase": 0}
    for _ in range(len(a.dive(21).path.steps) + 2 + len(a.dive(21).path.nodes)):
        _click(browser, "#back")
    assert _position(browser)["dive"] == 20


def test_play_runs_the_dives_and_the_root_shares_follow_the_trees(browser, pages):
    path, a, _ = pages["ttt"]
    _open(browser, path)
    browser.execute_script("const s = document.getElementById('speed'); s.value = 'dive';")
    _click(browser, "#first")
    _click(browser, "#play")
    deadline = time.monotonic() + 20
    while _position(browser)["dive"] < 5 and time.monotonic() < deadline:
        time.sleep(0.05)
    _click(browser, "#play")  # pause
    k = _position(browser)["dive"]
    assert k >= 5
    time.sleep(0.4)
    assert _position(browser)["dive"] == k  # paused
    game, tree = a.game, a.tree(k)
    rows = _css(browser, "#root-table tr.root-move")
    moves = game.possible_moves(game.start())
    assert len(rows) == len(moves)
    total = visits(tree[game.start()])
    for row, move in zip(rows, moves):
        rec = tree.get(game.play(game.start(), move))
        n = 0 if rec is None else visits(rec)
        assert row.find_element("css selector", "td.visits").text == str(n)
        assert row.find_element("css selector", "td.share").text.strip() == shown(n / total)
        assert ("\u2605 best" in row.text) == (move in _best(a, game.start()))


def _best(t, state):
    from fnmcts.exact import best_moves

    return set(best_moves(t.game, t.exact, state))


def test_clicking_a_node_shows_its_record_exact_value_and_its_childrens_split(browser, pages):
    path, a, _ = pages["ttt"]
    _open(browser, path)
    _slide(browser, 40)
    game, tree = a.game, a.tree(40)
    data = page_data(a, pages["ttt"][2])["traces"][0]
    root = data["nodes"][data["root"]]
    move = 4
    kid = root["ch"][game.possible_moves(game.start()).index(move)]
    state = game.play(game.start(), move)
    _click(browser, f"#tree [data-id='{kid}'].node")
    assert _css(browser, "#node-title")[0].text == "Node: X at 4"
    record = {dt.text: dd.text for dt, dd in zip(_css(browser, "#node-record dt"), _css(browser, "#node-record dd"))}
    rec = tree[state]
    assert record["record"] == record_text(rec)
    assert record["visits"] == str(visits(rec))
    n, s, *_ = counts_of(rec)
    assert record["mean"] == shown(s / n)
    assert record["exact value"] == shown(float((a.exact_value(state)[0] + 1) / 2)) == "0.500"
    parent = visits(rec)
    want = []
    for m in game.possible_moves(state):
        child = game.play(state, m)
        c = None if tree.get(child) is None else counts_of(tree[child])
        score = rating(a.options["rule"], c, parent)
        mean = None if not c or not c[0] else c[1] / c[0]
        want.append({"visits": str(0 if c is None else c[0]), "mean": shown(mean),
                     "bonus": shown(math.inf if mean is None else score - mean), "score": shown(score),
                     "exact": shown(float((1 - a.exact_value(child)[0]) / 2)), "chosen": False, "move": None})
    _same_rows(_kid_rows(browser, "#node-body"), want)


def test_chance_nodes_show_their_probabilities_and_the_dice_of_each_dive(browser, pages):
    path, s = pages["stb"]
    _open(browser, path)
    groups = [row.text for row in _css(browser, "#root-table tr.group")]
    assert [g.split(":")[0] for g in groups] == [
        f"roll {r} (probability {p})" for r, p in zip(range(2, 13), ("1/36", "1/18", "1/12", "1/9", "5/36", "1/6",
                                                                      "5/36", "1/9", "1/12", "1/18", "1/36"))]
    _slide(browser, 59)
    _click(browser, "#step")
    dive = s.dive(60)
    line = dive.lines()[1]
    assert _css(browser, "#phases li.current")[0].text.splitlines()[0] == line
    assert dive.path.steps[0].outcomes and f"roll {dive.path.steps[0].outcomes[0]}" in line
    diamonds = _css(browser, "#tree rect.chance")
    assert diamonds
    probabilities = {t.text for t in _css(browser, "#tree text.prob")}
    assert probabilities and probabilities <= {"1/36", "1/18", "1/12", "1/9", "5/36", "1/6"}
    if dive.path.steps[0].scores is not None:
        _same_rows(_kid_rows(browser), _expected_rows(dive, 0))


def test_a_second_trace_and_the_first_dive_whose_path_differs(browser, pages):
    path, a, b = pages["ttt"]
    _open(browser, path)
    k = a.first_difference(b)
    assert k is not None
    assert _css(browser, "#difference")[0].text.startswith(f"The paths first differ at dive {k}.")
    _click(browser, "#go-difference")
    assert _position(browser) == {"trace": "A", "dive": k, "phase": 0}
    assert "went another way" in _css(browser, "#other-path")[0].text
    _click(browser, "#trace-B")
    assert _position(browser) == {"trace": "B", "dive": k, "phase": 0}
    assert "trace B: UCB1, c = 0.4" in _css(browser, "#subtitle")[0].text
    dive = b.dive(k)
    if dive.path.steps[0].scores is not None:
        _same_rows(_kid_rows(browser), _expected_rows(dive, 0))
    _click(browser, "#trace-A")
    _slide(browser, k - 1)
    assert "the same path" in _css(browser, "#other-path")[0].text


@pytest.mark.parametrize("x", [0.0625, 0.1875, 0.3125, -0.0625, 2.5625, 1 / 3, 2 / 3, 0.0005, 0.0015, 1e-9, -1e-9,
                               0.9995, 123.4565, 0.0, -0.0, math.inf, -math.inf, 1 / 16 + 1e-17])
def test_the_page_formats_numbers_as_the_terminal_does(browser, pages, x):
    _open(browser, pages["stb"][0])
    value = x if math.isfinite(x) else ("inf" if x > 0 else "-inf")
    got = browser.execute_script("return window.fnmctsExplorer.format(arguments[0])", value)
    assert got == shown(x)


def test_the_notebook_view_is_the_same_page_in_a_frame(browser, tmp_path):
    """What Jupyter shows for a trace (its _repr_html_): the page in a sandboxed frame, working."""
    from fnmcts.games import Nim

    game = Nim(heap=9)
    t = trace(game, game.start(), 12, _rng(2))
    notebook = tmp_path / "notebook.html"
    notebook.write_text(f"<!DOCTYPE html><html><body><h1>In [1]: t</h1>{t._repr_html_()}</body></html>", encoding="utf-8")
    _open(browser, notebook)
    frame = _css(browser, "iframe")[0]
    browser.switch_to.frame(frame)
    try:
        assert _css(browser, "#position")[0].text == "dive 12 of 12"
        _click(browser, "#first")
        assert _css(browser, "#position")[0].text == "dive 0 of 12"
        _click(browser, "#next")
        _click(browser, "#next")
        assert _position(browser) == {"trace": "A", "dive": 2, "phase": len(t.dive(2).path.steps) + 1 + len(t.dive(2).path.nodes)}
        backups = [li.text for li in _css(browser, "#phases li") if li.text.startswith("backup: ")]
        assert backups == [line for line in t.dive(2).lines() if line.startswith("backup: ")]
    finally:
        browser.switch_to.default_content()
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []


# -- on a projector: 1024x768 and a larger screen ---------------------------------------------------------

SIZES = [(1024, 768), (1400, 1000)]

_MEASURE = """
const pane = document.getElementById('tree-scroll'), page = document.documentElement;
const texts = Array.from(document.querySelectorAll('#tree text'));
const boxes = texts.map((t) => { const b = t.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; });
const overlapping = [];
for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
  const [a, b] = [boxes[i], boxes[j]];
  if (a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]) overlapping.push([texts[i].textContent, texts[j].textContent]);
}
const box = (id) => { const b = document.getElementById(id).getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
return {page: [page.scrollWidth, page.clientWidth], pane: [pane.scrollWidth, pane.clientWidth],
        labels: texts.length, overlapping, panel: box('node-panel'), tree: box('tree-pane'), view: [innerWidth, innerHeight]};
"""


def _window(browser, width, height):
    """Size the browser so that its page (its viewport) is ``width`` x ``height``."""
    browser.set_window_size(width, height)
    for _ in range(20):  # the frame's size is known once the window has one; a loaded machine may take a while
        inner = browser.execute_script("return [innerWidth, innerHeight]")
        if inner == [width, height]:
            return
        outer = browser.get_window_size()
        browser.set_window_size(outer["width"] + width - inner[0], outer["height"] + height - inner[1])
        time.sleep(0.05)
    assert browser.execute_script("return [innerWidth, innerHeight]") == [width, height]


@pytest.fixture(scope="module")
def nim_page(tmp_path_factory):
    from fnmcts.games import Nim

    game = Nim(heap=21)
    t = trace(game, game.start(), 150, _rng(1))
    path = tmp_path_factory.mktemp("nim") / "nim.html"
    path.write_text(explore_page(t), encoding="utf-8")
    return path, t


@pytest.fixture
def sized(browser):
    yield partial(_window, browser)
    _window(browser, 1400, 1000)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", ["stb", "ttt", "nim"])
def test_the_page_fits_the_screen_and_the_clicked_nodes_panel_sits_beside_the_tree(browser, pages, nim_page, sized,
                                                                                   name, size):
    sized(*size)
    path = nim_page[0] if name == "nim" else pages[name][0]
    _open(browser, path)
    assert _css(browser, "#fit")[0].is_selected()
    for moment in ("the end", "a dive in the middle"):
        if moment != "the end":
            _slide(browser, 20)
        m = browser.execute_script(_MEASURE)
        assert m["page"][0] <= m["page"][1], f"the page scrolls sideways at {size} ({moment}): {m['page']}"
        assert m["pane"][0] <= m["pane"][1], f"the tree's pane scrolls sideways at {size} ({moment}): {m['pane']}"
        assert m["labels"] >= 3
        assert m["overlapping"] == [], f"labels overlap at {size} ({moment})"
    # click the root's most visited child in the tree: its panel shows beside the tree, inside the window
    rows = _css(browser, "#root-table tr.root-move")
    top = max(rows, key=lambda row: int(row.find_element("css selector", "td.visits").text))
    kid = top.get_attribute("data-id")
    browser.execute_script("window.scrollTo(0, 0); document.querySelector(`#tree [data-id='${arguments[0]}'].node`)"
                           ".dispatchEvent(new MouseEvent('click', {bubbles: true}))", kid)
    assert _css(browser, "#node-title")[0].text.startswith("Node: ")
    m = browser.execute_script(_MEASURE)
    left, top_, right, _ = m["panel"]
    assert left >= m["tree"][2] - 1, "the node's panel is not beside the tree"
    assert 0 <= top_ and right <= m["view"][0] and top_ + 120 <= m["view"][1], f"the node's panel is out of sight: {m}"
    assert m["overlapping"] == []


def test_nim_is_labelled_by_heap_and_player_to_move(browser, nim_page):
    path, t = nim_page
    data = page_data(t)["traces"][0]
    _open(browser, path)
    labels = _css(browser, "#tree text[data-id]")
    assert len(labels) >= 5
    for label in labels:
        node = data["nodes"][int(label.get_attribute("data-id"))]
        who = "over" if node["to"] == "end" else f"P{node['to'] + 1}"
        assert label.text == f"{node['lb']} \u00b7 {who}"
    root = [label.text for label in labels if int(label.get_attribute("data-id")) == data["root"]]
    assert root == ["heap 21 \u00b7 P1"]


def test_the_notes_say_whose_record_shared_visits_and_that_all_best_means_all_lose(browser, nim_page, pages):
    path, t = nim_page
    _open(browser, path)
    notes = {li.get_attribute("id"): li.text for li in _css(browser, "#notes li")}
    # heap 21, take 1-3, taking the last loses: 21 = 4 * 5 + 1 is lost for the player to move, every move loses
    assert t.exact_value(t.root)[0] == -1
    assert "every move loses" in notes["note-all-best"]
    assert notes["note-whose"].startswith("The root's record is player 2's, who moved into it, not player 1's")
    assert _css(browser, "#whose-record")[0].text == notes["note-whose"]
    assert "Visits are per state" in notes["note-shared"] and "shared" in notes["note-shared"]
    _open(browser, pages["ttt"][0])  # tic-tac-toe's start: every move draws, all best and none loses
    notes = {li.get_attribute("id"): li.text for li in _css(browser, "#notes li")}
    assert "all are worth the same (exact 0.500)" in notes["note-all-best"]
    _open(browser, pages["stb"][0])  # Shut the Box: no all-best line (its root is chance), one player's record
    notes = {li.get_attribute("id"): li.text for li in _css(browser, "#notes li")}
    assert "note-all-best" not in notes and notes["note-whose"].startswith("The record counts the player's")


def test_shut_the_box_is_coloured_by_visit_share_and_the_switch_recolours(browser, pages):
    path, s = pages["stb"]
    _open(browser, path)
    assert _css(browser, "#colour-by")[0].get_attribute("value") == "share"
    assert "share of its parent's visits" in _css(browser, "#legend")[0].text
    dives = {}
    for group in _css(browser, "#root-table tr.group"):  # "roll 7 (probability 1/6): 11 dive(s)"
        dives[group.text.split(" (")[0]] = int(group.text.rsplit(": ", 1)[1].split()[0])
    fills = set()
    group = None
    for row in _css(browser, "#root-table tr"):
        if "group" in row.get_attribute("class"):
            group = row.text.split(" (")[0]
            continue
        if "root-move" not in row.get_attribute("class"):
            continue
        n = int(row.find_element("css selector", "td.visits").text)
        node = _css(browser, f"#tree [data-id='{row.get_attribute('data-id')}'].node")
        if not node:  # not among the drawn nodes
            continue
        fill = node[0].get_attribute("fill")
        assert fill == f"hsl(218, 75%, {math.floor(82 - 54 * n / dives[group] + 0.5)}%)"  # JS rounds half up
        fills.add(fill)
    assert len(fills) >= 4
    browser.execute_script("const c = document.getElementById('colour-by'); c.value = 'value';"
                           "c.dispatchEvent(new Event('change'));")
    assert "Colour: the mean" in _css(browser, "#legend")[0].text
    fills = [n.get_attribute("fill") for n in _css(browser, "#tree circle.node")]
    assert fills and all(f == "#98a2b3" or (f.startswith("hsl(") and not f.startswith("hsl(218")) for f in fills)
