"""Every link and every file the documentation names exists.

Checked in README.md and every page under docs/: relative markdown links (and the heading
a ``page.md#anchor`` link names), and
backticked paths that name a file of the repository (``docs/x.md``, ``tests/...``, a
path ending in a source or text extension) or of a bot made by ``pokerbots new``
(``sdk/VENDORED.json``, ``tests/test_player.py``).  A path resolves against the
repository's root, the page's own folder, or a freshly made bot.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from local_runner.submission.new import create_bot
from tests.conftest import ROOT

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]

#: ``[text](target)``; images too.
LINK = re.compile(r"!?\[[^\]\n]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
#: Inline code, one line at most.
CODE = re.compile(r"`([^`\n]+)`")
#: A relative path of plain name characters, possibly ending with a slash.
PATH = re.compile(r"[A-Za-z0-9_][\w.\-]*(?:/[\w.\-]+)*/?")
#: Extensions of the files the docs talk about.
FILE_EXTENSIONS = (".md", ".py", ".txt", ".toml", ".json", ".jsonl", ".sh", ".cfg", ".yml")
#: Top-level folders of the repository: a path starting with one names a repository file.
TOP_FOLDERS = {path.name for path in ROOT.iterdir() if path.is_dir() and path.name[0] != "."}


#: A markdown heading: its level's hashes, then its text.
HEADING = re.compile(r"#{1,6}\s+(.+?)\s*#*\s*$")


def anchors(text: str) -> set[str]:
    """The anchors a renderer such as GitHub's makes for the page's headings: the text in
    lower case, without punctuation, spaces as hyphens; a repeated one gets ``-1``, ``-2``
    (``test_anchors_are_made_as_on_github``)."""
    made: set[str] = set()
    fenced = False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        heading = None if fenced else HEADING.match(line)
        if heading is None:
            continue
        plain = re.sub(r"[`*]|\[([^\]]*)\]\([^)]*\)", lambda m: m.group(1) or "", heading.group(1))
        slug = re.sub(r"[^\w\- ]", "", plain.lower()).replace(" ", "-")
        anchor, count = slug, 0
        while anchor in made:
            count += 1
            anchor = f"{slug}-{count}"
        made.add(anchor)
    return made


def code_outside_blocks(text: str) -> Iterator[tuple[int, str]]:
    """``(line number, inline code)`` for each backticked span outside fenced blocks."""
    fenced = False
    for number, line in enumerate(text.splitlines(), start=1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if not fenced:
            for match in CODE.finditer(line):
                yield number, match.group(1).strip()


def names_a_file(code: str) -> bool:
    """Whether backticked ``code`` is a path the docs claim exists (not a command or a glob)."""
    if not PATH.fullmatch(code) or ("/" not in code and not code.endswith(".md")):
        return False
    first = code.split("/", 1)[0]
    return first in TOP_FOLDERS or code.rstrip("/").endswith(FILE_EXTENSIONS)


@pytest.fixture(scope="module")
def a_bot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A bot as ``pokerbots new`` makes it, for paths inside a bot."""
    return create_bot(tmp_path_factory.mktemp("docs") / "my-bot", {})


def resolves(page: Path, target: str, bot: Path) -> bool:
    target = target.rstrip("/")
    return any((base / target).exists() for base in (ROOT, page.parent, bot))


def test_the_pages_are_found() -> None:
    assert ROOT / "docs" / "start-a-bot.md" in PAGES and len(PAGES) > 10


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.relative_to(ROOT).as_posix())
def test_every_relative_link_resolves(page: Path) -> None:
    broken = []
    for match in LINK.finditer(page.read_text(encoding="utf-8")):
        target = match.group(1)
        if re.match(r"[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
            continue  # a web address or an anchor on the same page
        path = target.split("#", 1)[0]
        if not (page.parent / path).exists():
            broken.append(target)
    assert broken == [], f"{page.relative_to(ROOT)} links to missing files: {broken}"


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.relative_to(ROOT).as_posix())
def test_every_anchor_names_a_heading(page: Path) -> None:
    """A link to ``page.md#anchor`` (or ``#anchor`` on the page itself) lands on a heading."""
    broken = []
    for match in LINK.finditer(page.read_text(encoding="utf-8")):
        target = match.group(1)
        if re.match(r"[a-z][a-z0-9+.-]*:", target) or "#" not in target:
            continue
        path, anchor = target.split("#", 1)
        linked = page.parent / path if path else page
        if linked.suffix != ".md" or not linked.exists():  # (a missing page: the test above)
            continue
        if anchor not in anchors(linked.read_text(encoding="utf-8")):
            broken.append(target)
    assert broken == [], f"{page.relative_to(ROOT)} links to headings that do not exist: {broken}"


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.relative_to(ROOT).as_posix())
def test_every_named_file_exists(page: Path, a_bot: Path) -> None:
    missing = [
        f"line {number}: {code}"
        for number, code in code_outside_blocks(page.read_text(encoding="utf-8"))
        if names_a_file(code) and not resolves(page, code, a_bot)
    ]
    assert missing == [], f"{page.relative_to(ROOT)} names files that do not exist: {missing}"


@pytest.mark.parametrize(
    ("code", "checked"),
    [
        ("docs/configuration.md", True),
        ("tests/test_validate.py", True),
        ("rules/swap-holdem.txt", True),
        ("write-your-first-bot.md", True),
        ("sdk/VENDORED.json", True),
        ("summary.json", False),  # an output's name, not a path
        ("runs/scrimmage-<time>/", False),
        ("pokerbots new PATH", False),
        ("half-1/", False),
    ],
)
def test_what_counts_as_a_file_name(code: str, checked: bool) -> None:
    assert names_a_file(code) is checked


def test_anchors_are_made_as_on_github() -> None:
    page = (
        "# The dealer's log\n"
        "## Which Python runs the kit (2026-11-29, night)\n"
        "### `pokerbots new` and [the SDK](docs/sdk.md)\n"
        "```sh\n# a comment in a block, not a heading\n```\n"
        "# Notes\n# Notes\n"
    )
    assert anchors(page) == {
        "the-dealers-log",
        "which-python-runs-the-kit-2026-11-29-night",
        "pokerbots-new-and-the-sdk",
        "notes",
        "notes-1",
    }
