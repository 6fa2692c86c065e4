"""The README stays a front door, and every relative link in it and in docs/ leads somewhere:
to a file that exists and, with a #fragment, to a heading of that file as GitHub names it."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
README_LINES = 250  # short enough to read in one sitting

FENCE = re.compile(r"^(```|~~~)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
CODE_SPAN = re.compile(r"`[^`]*`")


def prose(text: str) -> list[str]:
    """The lines of a Markdown page outside fenced code blocks."""
    lines, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line.strip()):
            fenced = not fenced
        elif not fenced:
            lines.append(line)
    return lines


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: its text as shown, lowercased, punctuation and symbols
    dropped (letters, digits, marks, `-`, `_` and spaces kept), each space a hyphen."""
    shown = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link shows its text
    shown = re.sub(r"(\*\*|__|\*|`)", "", shown)
    kept = "".join(char for char in shown.lower() if unicodedata.category(char)[0] in "LNM" or char in "-_ ")
    return kept.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """Every heading anchor of a page; a repeated heading gets -1, -2 … as on GitHub."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    for line in prose(page.read_text(encoding="utf-8")):
        match = HEADING.match(line)
        if match:
            base = slug(match[2])
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
    return found


def links(page: Path) -> list[str]:
    """The relative links of a page (not web addresses), in prose and outside code spans."""
    targets = []
    for line in prose(page.read_text(encoding="utf-8")):
        for match in LINK.finditer(CODE_SPAN.sub("", line)):
            target = match[1]
            if not re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
                targets.append(target)
    return targets


def test_the_slugs_are_githubs() -> None:
    assert slug("Discord's request budget") == "discords-request-budget"
    assert slug("Where the commands are published") == "where-the-commands-are-published"
    assert slug("Running `python -m bot` — as a service") == "running-python--m-bot--as-a-service"
    assert slug("Two processes on one PostgreSQL") == "two-processes-on-one-postgresql"


def test_the_readme_is_short() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").count("\n")
    assert lines < README_LINES, f"README.md has {lines} lines: move a topic to docs/"


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_relative_link_resolves(page: Path) -> None:
    broken = []
    for target in links(page):
        path, _, fragment = target.partition("#")
        destination = (page.parent / path).resolve() if path else page
        if not destination.exists():
            broken.append(f"{target}: no such file")
        elif fragment and (destination.suffix != ".md" or fragment not in anchors(destination)):
            broken.append(f"{target}: no heading #{fragment} in {destination.relative_to(ROOT)}")
    assert broken == []


def test_the_link_check_finds_a_broken_link(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("# A page\n\nSee [this](#a-page), [that](#nowhere) and [there](missing.md).\n")
    assert links(page) == ["#a-page", "#nowhere", "missing.md"]
    assert anchors(page) == {"a-page"}


def test_every_page_of_docs_is_linked_from_the_readme() -> None:
    linked = {(ROOT / target.partition("#")[0]).resolve() for target in links(ROOT / "README.md")}
    assert [page.name for page in PAGES[1:] if page.resolve() not in linked] == []
