"""mkdocs hooks: the examples/ folder joins the site as notebooks, and links written for the repository work on it.

The example files live in ``examples/`` at the top of the repository (where
``python examples/task11_mcts.py`` runs them), outside the ``docs/`` folder
mkdocs reads. ``on_files`` adds them to the site under ``examples/``: each
``.py`` file is a percent-format notebook (``# %%`` cells), which the
mkdocs-jupyter plugin renders through jupytext, and ``examples/README.md`` is
their index page. The pages in ``docs/`` link them as ``../examples/NAME.py``
(right when the page is read in the repository), and the index links the pages
as ``../docs/PAGE.md``; ``on_page_markdown`` turns those links into the site's
before mkdocs checks them.
"""

from __future__ import annotations

import re
from pathlib import Path

from markdown.extensions import Extension
from markdown.preprocessors import Preprocessor
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"

# a link target that leaves docs/ for examples/: ](../examples/...) or ](../../examples/...)
_OUT_TO_EXAMPLES = re.compile(r"\]\((?:\.\./)+examples/")


@event_priority(100)  # before the mkdocs-jupyter plugin looks at the files
def on_files(files, config):
    """Add ``examples/*.py`` and ``examples/README.md`` to the site's files under ``examples/``."""
    for path in sorted(EXAMPLES.glob("*.py")) + [EXAMPLES / "README.md"]:
        files.append(File(f"examples/{path.name}", str(ROOT), config["site_dir"], config["use_directory_urls"]))
    return files


def on_page_markdown(markdown, page, config, files):
    """Links written for the repository point at the site's pages instead.

    In ``docs/``: ``../examples/...`` becomes the site's ``examples/...``; in
    ``examples/README.md``: ``../docs/PAGE`` becomes the site's ``../PAGE``.
    """
    if page.file.src_uri.startswith("examples/"):
        return markdown.replace("](../docs/", "](../")
    depth = page.file.src_uri.count("/")
    return _OUT_TO_EXAMPLES.sub("](" + "../" * depth + "examples/", markdown)


class _DocstringBlocks(Preprocessor):
    """Docstrings' doctest blocks and reST tables become code blocks.

    mkdocstrings renders a docstring as Markdown, where a ``>>>`` line would be
    a nested quotation and a reST simple table (rows between rules of ``=``
    signs) one long paragraph. Outside fenced blocks, each doctest block
    (``>>>`` to the next blank line) is wrapped in a ``pycon`` fence and each
    simple table (three rules) in a ``text`` fence, so the API pages show them
    as ``help()`` does.
    """

    _RULE = re.compile(r"^ *=+( +=+)+ *$")

    def run(self, lines):
        out, fence, block, rules, indent = [], None, False, 0, ""
        for line in lines:
            stripped = line.lstrip()
            if rules:
                out.append(line)
                if self._RULE.match(line):
                    rules += 1
                    if rules == 3:
                        out.append(indent + "```")
                        rules = 0
                continue
            if fence is None and not block and stripped.startswith(("```", "~~~")):
                fence = stripped[:3]
            elif fence is not None:
                if stripped.startswith(fence):
                    fence = None
            elif not block and stripped.startswith(">>>"):
                indent = line[: len(line) - len(stripped)]
                out.append(indent + "```pycon")
                block = True
            elif block and not stripped:
                out.append(indent + "```")
                block = False
            elif not block and self._RULE.match(line):
                indent = line[: len(line) - len(stripped)]
                out.extend([indent + "```text", line])
                rules = 1
                continue
            out.append(line)
        if block or rules:
            out.append(indent + "```")
        return out


class _DoctestExtension(Extension):
    def extendMarkdown(self, md):
        md.preprocessors.register(_DocstringBlocks(md), "fnmcts_docstring_blocks", 40)


@event_priority(100)  # before mkdocstrings copies the Markdown extensions for docstrings
def on_config(config):
    """Add the docstring-block extension to the site's Markdown, which mkdocstrings also uses for docstrings."""
    config.markdown_extensions.append(_DoctestExtension())
    return config
