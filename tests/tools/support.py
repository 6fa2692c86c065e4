"""Reading a drawn message as a person does: its visible text in order, emoji as what they show."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

from tools.screens._twemoji import Twemoji

# Twemoji's own artwork stays out of git: without the installed package (python -m tools.screens
# setup) the tests draw these few with stand-in SVGs, keyed as Twemoji names its files.
FIXTURE_SVGS = {
    name: f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 36 36"><title>{name}</title></svg>'.encode()
    for name in ("2660", "2663", "2665", "2666", "1f9d9", "1f0cf", "25b6", "1f9d9-200d-2642-fe0f", "1f3b2")
}


def twemoji() -> Twemoji:
    """The installed Twemoji SVGs, else the fixture ones."""
    installed = Twemoji.installed()
    return installed if installed.available else Twemoji(images=FIXTURE_SVGS)


@dataclass
class Node:
    tag: str
    attrs: dict[str, str]
    children: list[Node | str] = field(default_factory=list)

    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())

    def walk(self) -> Iterator[Node]:
        yield self
        for child in self.children:
            if isinstance(child, Node):
                yield from child.walk()

    def find_all(self, css: str) -> list[Node]:
        return [n for n in self.walk() if css in n.classes()]

    def reading(self) -> str:
        """The text a person reads here, in order: text, and each emoji image as what it shows."""
        parts: list[str] = []
        for child in self.children:
            if isinstance(child, str):
                parts.append(child)
            elif child.tag == "img" and "emoji" in child.classes():
                parts.append(child.attrs.get("data-emoji") or child.attrs.get("alt", ""))
            elif child.tag == "br":
                parts.append("\n")
            elif child.tag in _BLOCKS:
                parts.append(f"\n{child.reading()}\n")
            elif child.tag not in ("style", "script", "svg"):
                parts.append(child.reading())
        return "".join(parts)


# Elements that start a line of their own when read.
_BLOCKS = {"div", "h1", "h2", "h3", "li", "ul", "ol", "pre", "article", "section", "small", "p"}
_VOID = {"img", "br", "meta", "link", "input", "hr", "path", "circle", "rect"}


class _Tree(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("root", {})
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: v or "" for k, v in attrs})
        self.stack[-1].children.append(node)
        if tag not in _VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.stack[-1].children.append(Node(tag, {k: v or "" for k, v in attrs}))

    def handle_endtag(self, tag: str) -> None:
        if tag in _VOID:
            return
        while len(self.stack) > 1:
            if self.stack.pop().tag == tag:
                break

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


def parse(fragment: str) -> Node:
    tree = _Tree()
    tree.feed(fragment)
    tree.close()
    return tree.root


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def appears_in_order(reading: str, expected: list[str]) -> list[str]:
    """The expected texts not found in `reading` in their order (each after the one before)."""
    text = squash(reading)
    position = 0
    missing = []
    for item in expected:
        wanted = squash(item)
        found = text.find(wanted, position)
        if found < 0:
            missing.append(wanted)
        else:
            position = found + len(wanted)
    return missing


# What a person reads of a markdown text (the oracle the drawing is held to): the markers gone,
# mentions and channel links by name. Timestamps are left out: they read as the time they name.
_MARKERS = re.compile(r"\*\*|__|~~|\|\||(?<![\w*])\*(?=\S)|(?<=\S)\*(?![\w*])|(?<![\w_])_(?=\S)|(?<=\S)_(?![\w_])|`")
_LINE_MARKERS = re.compile(r"^(?:#{1,3} |-# |>>> |> |\s*[-*] |\s*\d+\. )", re.MULTILINE)


def visible(markdown: str, names: Mapping[str, str]) -> list[str]:
    """The pieces of a markdown text a person reads, in order (split where a timestamp or link sits)."""
    text = re.sub(r"```\w*\n?", "", markdown)
    text = _LINE_MARKERS.sub("", text)
    text = re.sub(r"<a?:(\w+):(\d+)>", "\0", text)  # custom emoji: checked apart
    text = re.sub(r"<@!?(\d+)>", lambda m: "@" + names.get(m[1], "unknown-user"), text)
    text = re.sub(r"<#(\d+)>", lambda m: "#" + names.get(m[1], "unknown"), text)
    text = re.sub(r"<t:-?\d+(?::\w)?>", "\0", text)
    text = re.sub(r"\[([^\]]+)\]\([^)]+\)", r"\1", text)
    text = re.sub(r"https?://discord\.com/channels/\S+", "\0", text)  # drawn as "#channel › message"
    text = _MARKERS.sub("", text)
    return [piece for piece in (p.strip() for p in text.split("\0")) if piece]


def expected_reading(payload: Mapping[str, Any], names: Mapping[str, str]) -> list[str]:
    """Every text of a message a person should read, in the order Discord shows them."""
    out: list[str] = []
    v2 = int(payload.get("flags") or 0) & (1 << 15)
    if payload.get("content") and not v2:
        out.extend(visible(str(payload["content"]), names))
    for embed in payload.get("embeds") or []:
        if (embed.get("author") or {}).get("name"):
            out.append(embed["author"]["name"])
        for key in ("title", "description"):
            if embed.get(key):
                out.extend(visible(str(embed[key]), names))
        for item in embed.get("fields") or []:
            out.extend(visible(str(item.get("name", "")), names))
            out.extend(visible(str(item.get("value", "")), names))
        if (embed.get("footer") or {}).get("text"):
            out.append(embed["footer"]["text"])
    for component in walk(payload.get("components") or []):
        if component.get("type") == 10:
            out.extend(visible(str(component.get("content", "")), names))
        elif component.get("type") == 2 and component.get("label"):
            out.append(str(component["label"]))
    return out


def walk(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Components in the order they show: a section's texts before its accessory."""
    for component in components:
        yield component
        yield from walk(component.get("components") or [])
        if component.get("accessory"):
            yield component["accessory"]
