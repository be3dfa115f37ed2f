"""The documentation: every page is in the site's nav, every code block is checked, every link resolves.

The pages' ``>>>`` sessions run as doctests in the test suite itself (pytest's
``--doctest-glob=*.md`` over ``docs/``, see pyproject.toml); these tests make
sure nothing escapes that: a page missing from the nav, a Python block that is
not a doctest session, a shell block whose ``fnmcts`` command the command line
would refuse, a link to a page or file that is not there.
"""

import importlib.util
import re
import shlex
from pathlib import Path

import pytest

from fnmcts.cli import build

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.rglob("*.md"))
TEXTS = PAGES + [ROOT / "README.md", ROOT / "examples" / "README.md"]

# a fenced block: its language and its lines
_FENCE = re.compile(r"^(?P<indent> *)```(?P<lang>[\w-]*)[^\n]*\n(?P<body>.*?)^(?P=indent)```[ \t]*$", re.M | re.S)
DATA_LANGUAGES = {"json", "text"}  # shown, not run: a file format, a diagram


def nav_entries(text: str) -> list:
    """The page paths named in the ``nav:`` of an mkdocs.yml, in order.

    >>> nav_entries("site_name: x\\nnav:\\n  - Home: index.md\\n  - API:\\n      - api/a.md\\n")
    ['index.md', 'api/a.md']
    """
    nav = text.split("\nnav:", 1)[1] if "\nnav:" in text else ""
    return re.findall(r"^\s*-\s*(?:[^:\n]*:\s*)?([\w./-]+\.(?:md|py))\s*$", nav, re.M)


def code_blocks(text: str) -> list:
    """``[(language, body), ...]``: the fenced code blocks of a Markdown text.

    >>> code_blocks("a\\n```sh\\nfnmcts tour\\n```\\nb\\n```python\\n>>> 1\\n1\\n\\n```\\n")
    [('sh', 'fnmcts tour\\n'), ('python', '>>> 1\\n1\\n\\n')]
    """
    return [(m["lang"], m["body"]) for m in _FENCE.finditer(text)]


def test_every_page_is_in_the_nav_and_every_nav_entry_exists():
    nav = nav_entries((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    pages = {p.relative_to(DOCS).as_posix() for p in PAGES}
    missing = sorted(pages - set(nav))
    assert not missing, f"pages missing from mkdocs.yml's nav: {missing}"
    examples = {f"examples/{p.name}" for p in (ROOT / "examples").glob("*.py")} | {"examples/README.md"}
    assert examples <= set(nav), f"examples missing from the nav: {sorted(examples - set(nav))}"
    unknown = [e for e in nav if e not in pages and e not in examples]
    assert not unknown, f"mkdocs.yml's nav names pages that do not exist: {unknown}"


@pytest.mark.parametrize("path", TEXTS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_python_block_is_a_doctest_session_and_every_block_has_a_language(path):
    for language, body in code_blocks(path.read_text(encoding="utf-8")):
        assert language, f"{path.name}: a code block without a language (python, sh, json or text):\n{body}"
        if language in ("python", "pycon"):
            assert body.lstrip().startswith(">>> "), f"{path.name}: a Python block that is no >>> session:\n{body}"
            assert body.endswith("\n\n"), f"{path.name}: a doctest block must end with a blank line:\n{body}"
        else:
            assert language == "sh" or language in DATA_LANGUAGES, f"{path.name}: a {language} block"


def _commands(path: Path) -> list:
    """The ``fnmcts`` command lines of a text's shell blocks, as argument lists."""
    found = []
    for language, body in code_blocks(path.read_text(encoding="utf-8")):
        if language != "sh":
            continue
        for line in body.splitlines():
            words = shlex.split(line, comments=True)
            if words and words[0].endswith("fnmcts") and "|" not in words:
                found.append(words[1:])
            for i, word in enumerate(words):  # ... && .venv/bin/fnmcts tour
                if word == "&&" and i + 1 < len(words) and words[i + 1].endswith("/fnmcts"):
                    found.append(words[i + 2:words.index("&&", i + 1)] if "&&" in words[i + 1:] else words[i + 2:])
    return found


COMMANDS = [(path, argv) for path in TEXTS for argv in _commands(path)]


@pytest.mark.slow
@pytest.mark.parametrize("path, argv", COMMANDS, ids=[" ".join(a)[:60] for _, a in COMMANDS])
def test_every_command_shown_in_a_shell_block_parses(path, argv):
    cli = build()
    try:
        cli.parser.parse_args(cli._route(list(argv)))
    except SystemExit as stop:
        pytest.fail(f"{path.name}: the command line refuses `fnmcts {' '.join(argv)}` (exit {stop.code})")


def test_the_commands_are_found():
    shown = {" ".join(argv) for _, argv in COMMANDS}
    assert "tour" in shown and any(s.startswith("tournament pig optimal hold-at-20") for s in shown)


_LINK = re.compile(r"\]\(([^)\s]+)\)")


@pytest.mark.parametrize("path", TEXTS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_reaches_a_file_and_every_anchor_a_heading(path):
    text = path.read_text(encoding="utf-8")
    for target in _LINK.findall(text):
        if re.match(r"[a-z]+:", target):  # http:, https:, mailto:
            continue
        file, _, anchor = target.partition("#")
        linked = (path.parent / file).resolve() if file else path
        assert linked.exists(), f"{path.name} links {target}: no such file"
        if anchor and linked.suffix == ".md":
            assert anchor in _anchors(linked), f"{path.name} links {target}: no such heading in {linked.name}"


def _anchors(path: Path) -> set:
    """The anchors of a page's headings, as mkdocs (and GitHub) make them from the heading's text."""
    found = set()
    for heading in re.findall(r"^#+ (.+)$", path.read_text(encoding="utf-8"), re.M):
        words = re.sub(r"[^\w\s-]", "", heading.replace("`", "").lower()).strip()
        found.add(re.sub(r"[\s]+", "-", words))
    return found


def test_the_docs_site_is_not_collected_as_a_module():
    """docs/hooks.py needs mkdocs (the docs extra): the test suite never imports it."""
    spec = importlib.util.spec_from_file_location("root_conftest", ROOT / "conftest.py")
    root_conftest = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(root_conftest)
    assert "docs/hooks.py" in root_conftest.collect_ignore


@pytest.mark.skipif(importlib.util.find_spec("mkdocs") is None, reason="mkdocs is not installed: pip install 'fnmcts[docs]'")
def test_the_hook_turns_links_to_the_examples_into_the_site_s_links():
    spec = importlib.util.spec_from_file_location("docs_hooks", DOCS / "hooks.py")
    hooks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hooks)

    class Page:
        class file:
            src_uri = "api/index.md"

    text = "[task 11](../../examples/task11_mcts.py) and [docs](../index.md)"
    assert hooks.on_page_markdown(text, Page, {}, None) == "[task 11](../examples/task11_mcts.py) and [docs](../index.md)"
    Page.file.src_uri = "examples/README.md"
    assert hooks.on_page_markdown("[MCTS](../docs/mcts.md#views)", Page, {}, None) == "[MCTS](../mcts.md#views)"
    lines = ["text", "", ">>> 1 + 1", "2", "", "```python", ">>> 3", "3", "```"]
    assert hooks._DocstringBlocks(None).run(lines) == [
        "text", "", "```pycon", ">>> 1 + 1", "2", "```", "", "```python", ">>> 3", "3", "```"]
    table = ["==  ==", "a   b", "==  ==", "x   y", "    z", "==  ==", "after"]
    assert hooks._DocstringBlocks(None).run(table) == ["```text", *table[:-1], "```", "after"]
